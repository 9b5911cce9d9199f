package io.github.hbasegrindersuite.worker.keys;

import io.github.hbasegrindersuite.worker.Choice;

/** hbaseload.key.distribution's accepted values: one KeyChooser each ({@link KeyChoosers}). */
public enum KeyDistribution implements Choice {
  UNIFORM, ZIPFIAN, HOTSPOT, SEQUENTIAL, LATEST, REVERSE
}
