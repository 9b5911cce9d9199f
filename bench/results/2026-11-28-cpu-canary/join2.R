suppressMessages(library(data.table))
a <- commandArgs(TRUE); run <- a[1]
d <- fread(cmd = sprintf("cat %s/injectors/*/*-data.log | grep -v Thread", run), header = FALSE, colClasses = list(numeric = 1:7))
d[, sec := (V4 + V5) %/% 1000]
req <- d[, .(n = .N), by = sec]
cpu <- fread(file.path(run, "cpu.csv"), colClasses = list(numeric = "time_ms"))
cpu[, sec := round(time_ms / 1000)]
srv <- cpu[role == "hbase", .(hbase = cpu_s, hjit = jit_s, hgc = gc_s), by = sec]
cli <- cpu[side == "client", .(client = sum(cpu_s), cjit = sum(jit_s)), by = sec]
st <- cpu[role == "steal", .(steal = cpu_s), by = sec]
c0 <- fread(a[2], colClasses = "numeric"); c1 <- fread(a[3], colClasses = "numeric")
c0[, sec := round(V2 / 1000)]; c1[, sec := round(V2 / 1000)]
x <- Reduce(function(p, q) merge(p, q, by = "sec"), list(req, srv, cli, st, c0[, .(sec, a0 = V3, m0 = V4)], c1[, .(sec, a1 = V3, m1 = V4)]))
x[, `:=`(hb_us = hbase / n * 1e6, cl_us = client / n * 1e6)]
x[, t := sec - min(sec)]
x <- x[t >= 30 & t < max(t) - 1]
x[, blk := (t - 30) %/% 10]
print(x[, .(t = min(t), n = round(mean(n)), hb_us = round(median(hb_us)), cl_us = round(median(cl_us)), cjit = round(mean(cjit), 2), steal = round(mean(steal), 2), a0 = median(a0), m0 = median(m0), a1 = median(a1), m1 = median(m1)), by = blk])
cat("per-second cor: hb~m0", round(cor(x$hb_us, x$m0), 2), " hb~a0", round(cor(x$hb_us, x$a0), 2), " cl~m1", round(cor(x$cl_us, x$m1), 2), " n~m0", round(cor(x$n, x$m0), 2), " n~steal", round(cor(x$n, x$steal), 2), "\n")
