package io.github.hbasegrindersuite.worker;

/**
 * The accepted values of Settings' choice keys, next to Settings so that it needs nothing from
 * the code that uses them (targets, key choosers): the dependency goes one way.
 */
public final class SettingChoices {

  private SettingChoices() {
  }

  /** hbaseload.target: a new target is one new class in targets/ and one constant here. */
  public enum Target implements Choice {
    /** the HBase Java client */
    DIRECT,
    /** a thrift2 server: HBase's own gateway or the thrift-shim */
    THRIFT,
    /**
     * every other thread through each of the two (BothTargets): a sweep's warm-up uses it to warm
     * HBase, the thrift server and both client paths at once, instead of one warm-up per target
     */
    BOTH
  }

  /** hbaseload.families.written: every family of a row, or one of them per request. */
  public enum FamiliesWritten implements Choice { ALL, ONE }

  /** hbaseload.key.distribution: one KeyChooser each (keys/KeyChoosers). */
  public enum KeyDistribution implements Choice {
    UNIFORM, ZIPFIAN, HOTSPOT, SEQUENTIAL, LATEST, REVERSE
  }

  /**
   * hbaseload.durability: the durability of puts, batch-puts, deletes and increments. The names
   * other than DEFAULT are HBase's own (Durability, thrift2's TDurability), which each target maps
   * them to.
   */
  public enum WriteDurability implements Choice {
    DEFAULT, SYNC_WAL, ASYNC_WAL, SKIP_WAL, FSYNC_WAL
  }

  /** hbaseload.thrift.transport. */
  public enum ThriftTransport implements Choice {
    /** an unframed stream: HBase's gateway default */
    BUFFERED,
    /** 4-byte length-prefixed frames */
    FRAMED
  }

  /** hbaseload.thrift.protocol. */
  public enum ThriftProtocol implements Choice { BINARY, COMPACT }

  /** hbaseload.datalog: Grinder's per-request data log on or off (the interval logs count then). */
  public enum DataLog implements Choice { ON, OFF }

  /** hbaseload.prepare.mode: load the table (kept when it matches), or make it anew, empty, every time. */
  public enum PrepareMode implements Choice { LOAD, FRESH }

  /** hbaseload.compression (snappy needs codec support in the server). */
  public enum FamilyCompression implements Choice { NONE, GZ, SNAPPY }

  /** hbaseload.bloom: HBase's BloomType names. */
  public enum Bloom implements Choice { NONE, ROW, ROWCOL }
}
