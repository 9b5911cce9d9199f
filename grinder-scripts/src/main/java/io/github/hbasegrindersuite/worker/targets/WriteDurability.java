package io.github.hbasegrindersuite.worker.targets;

import io.github.hbasegrindersuite.worker.Choice;

/**
 * hbaseload.durability's accepted values: the durability of puts, batch-puts, deletes and
 * increments. The names other than DEFAULT are HBase's own (Durability, thrift2's TDurability),
 * which each target maps them to.
 */
public enum WriteDurability implements Choice {
  DEFAULT, SYNC_WAL, ASYNC_WAL, SKIP_WAL, FSYNC_WAL
}
