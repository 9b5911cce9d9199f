import sys, collections
# bench/shim-put-path/stages.py FILE REQUESTS [INTERVAL_US]: a shim's collapsed async-profiler
# profile (diag.sh PROFILE=1, threads on) as CPU microseconds per request by stage; a sample is
# attributed to the first rule whose thread prefix and any substring match its stack.
f = sys.argv[1]; reqs = float(sys.argv[2]); interval_us = float(sys.argv[3]) if len(sys.argv) > 3 else 1000
rules = [
 # (thread prefix, stage, substrings any)
 ('shim-connection', 'conn: metrics (ShimMetrics/Histogram)', ['ShimMetrics.', 'metrics/Histogram.']),
 ('shim-connection', 'conn: wait for next request (read syscall+poll+switch)', ['readMessageBegin']),
 ('shim-connection', 'conn: decode arguments', ['$put_args', '$get_args', 'put_argsStandardScheme', 'get_argsStandardScheme', 'TPutStandardScheme', 'TGetStandardScheme']),
 ('shim-connection', 'conn: map TPut/TGet -> Put/Get', ['ThriftUtilities.']),
 ('shim-connection', 'conn: Table open/close', ['ConnectionImplementation.getTable', 'HTable.close', 'HTable.<init>', 'TableBuilderBase', 'ConnectionImplementation$', 'getTableBuilder', 'TableNames.of']),
 ('shim-connection', 'conn: wait for HBase reply (BlockingRpcCallback.get: wait/wake)', ['BlockingRpcCallback.get']),
 ('shim-connection', 'conn: HBase client call, send side (protobuf, region lookup, hand to netty)', ['HTable.put', 'HTable.get', 'RpcRetryingCallerImpl']),
 ('shim-connection', 'conn: map Result -> TResult', ['Mapping.resultFromHBase']),
 ('shim-connection', 'conn: write + flush reply (write syscall, loopback TCP)', ['TIOStreamTransport.flush', 'BufferedOutputStream.flush']),
 ('shim-connection', 'conn: encode reply', ['$put_result', '$get_result', 'writeMessageBegin', 'TResultStandardScheme']),
 ('shim-connection', 'conn: end request / cycle', ['endRequest', 'RequestCycle']),
 ('shim-connection', 'conn: other', ['']),
 ('RPCClient-NioEventLoopGroup', 'netty: wait for events (epoll, switch)', ['NioEventLoop.select', 'SelectorImpl.select', 'epoll_wait', 'EPollSelectorImpl.doSelect']),
 ('RPCClient-NioEventLoopGroup', 'netty: read + decode response, wake caller', ['NioByteUnsafe.read', 'processSelectedKey']),
 ('RPCClient-NioEventLoopGroup', 'netty: encode + write request', ['runAllTasks', 'AbstractEventExecutor.safeExecute', 'flush']),
 ('RPCClient-NioEventLoopGroup', 'netty: other', ['']),
 ('BRPC Connection', 'blocking client: reader thread (read response, wake caller)', ['']),
 ('C1 Compiler', 'JIT', ['']), ('C2 Compiler', 'JIT', ['']),
 ('GC', 'GC', ['']), ('G1', 'GC', ['']), ('VM Thread', 'GC', ['']),
 ('', 'other threads (timers, VM)', ['']),
]
st = collections.Counter(); tot = 0
for line in open(f):
    stack, c = line.rstrip().rsplit(' ', 1); c = int(c); tot += c
    fr = stack.split(';'); th = fr[0].strip('[')
    for (tp, name, subs) in rules:
        if th.startswith(tp) and any(s in stack for s in subs):
            st[name] += c; break
kernel = sum(int(l.rstrip().rsplit(' ', 1)[1]) for l in open(f) if '_[k]' in l)
print('%d samples = %.1f us/request over %d requests; %.0f%% of them in the kernel' % (tot, tot*interval_us/reqs, reqs, 100.0*kernel/tot))
for k, v in sorted(st.items(), key=lambda x: -x[1]):
    print('%7.1f us %5.1f%%  %s' % (v*interval_us/reqs, 100.0*v/tot, k))
