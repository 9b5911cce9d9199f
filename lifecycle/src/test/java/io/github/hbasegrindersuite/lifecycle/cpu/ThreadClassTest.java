package io.github.hbasegrindersuite.lifecycle.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Thread names as /proc/PID/task/TID/comm gave them (15 characters at most) for a worker, HBase, the shim. */
class ThreadClassTest {

  @Test
  void hotSpotAndApplicationThreadsFallInTheirClasses() {
    final Map<String, ThreadClass> names = new LinkedHashMap<>();
    names.put("C2 CompilerThre", ThreadClass.JIT);
    names.put("C1 CompilerThre", ThreadClass.JIT);
    names.put("Sweeper thread", ThreadClass.JIT);
    names.put("VM Thread", ThreadClass.GC);
    names.put("GC Thread#0", ThreadClass.GC);
    names.put("G1 Refine#0", ThreadClass.GC);
    names.put("G1 Conc#0", ThreadClass.GC);
    names.put("G1 Main Marker", ThreadClass.GC);
    names.put("G1 Service", ThreadClass.GC);
    names.put("RPCClient-NioEv", ThreadClass.IO);
    names.put("RS-EventLoopGro", ThreadClass.IO);
    names.put("RpcServer.liste", ThreadClass.IO);
    names.put("shim-hbase-rpc-", ThreadClass.IO);
    names.put("thread 0", ThreadClass.LOAD);
    names.put("thread 17", ThreadClass.LOAD);
    names.put("RpcServer.defau", ThreadClass.LOAD);
    names.put("RpcServer.prior", ThreadClass.LOAD);
    names.put("shim-connection", ThreadClass.LOAD);
    names.put("thrift-worker-3", ThreadClass.LOAD);
    names.put("TestClient-0", ThreadClass.LOAD);
    names.put("java", ThreadClass.REST);
    names.put("main", ThreadClass.REST);
    names.put("hconnection-0x3", ThreadClass.REST);
    names.put("VM Periodic Tas", ThreadClass.REST);
    names.put("threads", ThreadClass.REST);
    names.forEach((name, kind) -> assertEquals(kind, ThreadClass.of(name), name));
  }
}
