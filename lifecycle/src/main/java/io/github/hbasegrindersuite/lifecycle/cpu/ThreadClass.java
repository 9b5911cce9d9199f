package io.github.hbasegrindersuite.lifecycle.cpu;

/**
 * What a JVM thread does, from its name as the kernel keeps it ({@code /proc/PID/task/TID/comm},
 * the first 15 characters): the JIT compilers, the garbage collector, the network event loops, the
 * threads that make or serve the load, and the rest. HotSpot's own names (JDK 17), HBase's, the
 * HBase client's netty, Grinder's and the shim's.
 */
public enum ThreadClass {
  /** "C1 CompilerThre", "C2 CompilerThre", the code cache sweeper. */
  JIT("jit"),
  /** "GC Thread#N", "G1 ..." and the "VM Thread", where the serial collector (workers, helpers) collects. */
  GC("gc"),
  /** Netty event loops ("RPCClient-NioEv", "RS-EventLoopGro", "shim-hbase-rpc"), HBase's RPC listener and responder. */
  IO("io"),
  /** Grinder's "thread N", HBase's RPC handlers, PerformanceEvaluation's clients, the shim's and the gateway's workers. */
  LOAD("load"),
  REST("rest");

  public final String word;

  ThreadClass(String word) {
    this.word = word;
  }

  public static ThreadClass of(String comm) {
    if (comm.contains("CompilerThre") || comm.startsWith("Sweeper thread") || comm.startsWith("JVMCI")) {
      return JIT;
    }
    if (comm.startsWith("GC Thread") || comm.startsWith("G1 ") || comm.equals("VM Thread")
        || comm.startsWith("ZGC") || comm.startsWith("Shenandoah")) {
      return GC;
    }
    if (comm.contains("EventLoop") || comm.contains("NioEv") || comm.contains("Epoll")
        || comm.startsWith("RpcServer.liste") || comm.startsWith("RpcServer.respo") || comm.startsWith("shim-hbase-rpc")) {
      return IO;
    }
    if (comm.matches("thread [0-9]+") || comm.startsWith("RpcServer.") || comm.startsWith("TestClient")
        || comm.startsWith("shim-connectio") || comm.startsWith("shim-worker") || comm.startsWith("thrift-worker")) {
      return LOAD;
    }
    return REST;
  }
}
