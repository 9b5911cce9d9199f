package io.github.hbasegrindersuite.worker.keys;

/** Picks the row number (0..rows-1) of the next request. One instance per thread. */
public interface KeyChooser {
  long next();
}
