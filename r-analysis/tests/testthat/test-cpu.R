# Where the CPU went: cpu.csv over the measured window, the lab's sides, and the CPU verdicts
# (server-bound, client-bound, warming, contended) on hand-computed fixtures.

# cpu.csv as CpuSampler writes it: one row per role per second over `seconds` seconds from t0 (each
# row's time is its interval's end); `roles` maps a role to list(cpu, jit) CPU seconds per second.
write_cpu_csv <- function(dir, roles, seconds = 15, t0 = 1763712000000, cpus = 2, notes_roles = NULL) {
  all <- c("hbase", "gateway", "shim", "console", "agent", "worker", "peer", "sampler", "lifecycle", "other", "steal", "idle")
  side <- c(hbase = "server", gateway = "server", shim = "server", console = "client", agent = "client", worker = "client",
            peer = "client", sampler = "client", lifecycle = "client", other = "machine", steal = "machine", idle = "machine")
  used <- sum(vapply(roles, function(r) r$cpu, 0))
  roles$idle <- list(cpu = cpus - used)
  rows <- rbindlist(lapply(seq_len(seconds), function(k) rbindlist(lapply(all, function(role) {
    r <- roles[[role]] %if_absent% list(cpu = 0, jit = 0)
    machine <- side[[role]] == "machine"
    data.table(time_ms = t0 + k * 1000, interval_s = 1, role = role, side = side[[role]],
               processes = if (machine) NA_integer_ else 1L, cpu_s = r$cpu,
               jit_s = if (machine) NA_real_ else r$jit %if_absent% 0, gc_s = if (machine) NA_real_ else 0,
               io_s = if (machine) NA_real_ else 0, load_s = if (machine) NA_real_ else 0)
  }))))
  fwrite(rows, file.path(dir, "cpu.csv"), na = "")
  notes <- list(method = "cgroup-v1", cpus = cpus, closure = list(busy_s = 10, cgroup_root_s = 10, root_over_busy = 1))
  if (!is.null(notes_roles)) notes$roles <- notes_roles
  jsonlite::write_json(notes, file.path(dir, "cpu.json"), auto_unbox = TRUE)
}

ISOLATED <- list(extra = list(lab = list(cpus = "auto", server_cpus = "0", client_cpus = "1", isolated = TRUE,
                                         note = "lab.cpus = auto: server CPUs 0, client CPUs 1 of 2", online_cpus = "0-1"),
                              machine = list(cores = 2)))

# 10 threads, 2 ms requests, no gap: 15 steady seconds of 5,000 req/s, all measured (75,000 requests).
cpu_run <- function(roles, manifest = ISOLATED) {
  dir <- tempfile("cpu-")
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15), manifest = manifest)
  write_cpu_csv(dir, roles)
  analyse_run(run_target(dir))
}

# Four runs of a sweep in ABBA order (direct, thrift, thrift, direct), analysed: thrift 4,000 req/s (2.5 ms),
# direct at `direct_ms` (run-1's, then run-4's); server CPU 0.95 s/s each way (the shim's share on thrift).
thrift_abba <- function(direct_ms = c(2, 2)) {
  runs_dir <- tempfile("thrift-abba-")
  specs <- list(list("run-1", "direct", direct_ms[[1]]), list("run-2", "thrift", 2.5), list("run-3", "thrift", 2.5),
                list("run-4", "direct", direct_ms[[2]]))
  lapply(specs, function(s) {
    dir <- file.path(runs_dir, s[[1]])
    write_closed_loop_run(dir, threads = 10, latency_ms = rep(s[[3]], 15),
                          manifest = utils::modifyList(ISOLATED, list(target = s[[2]], extra = list(sweep_id = "sweep-1"))))
    write_cpu_csv(dir, list(hbase = list(cpu = if (s[[2]] == "direct") 0.95 else 0.6), shim = list(cpu = if (s[[2]] == "thrift") 0.35 else 0),
                            worker = list(cpu = 0.4)))
    analyse_run(run_target(dir))
  })
}

test_that("HBase's CPUs saturated while the client has headroom: server-bound, a valid figure quoted with the CPU count", {
  a <- cpu_run(list(hbase = list(cpu = 0.95), worker = list(cpu = 0.45), sampler = list(cpu = 0.05), other = list(cpu = 0.01)))
  f <- a$facts$cpu
  expect_equal(f$seconds, 15)
  expect_equal(f$server$busy_pct, 95)
  expect_equal(f$client$busy_pct, 50)
  expect_equal(f$other_pct, 0.5)
  expect_equal(f$roles[role == "hbase", us_per_request], 0.95 * 15 / 75000 * 1e6)   # 190 us per request
  expect_equal(f$roles[role == "worker", machine_pct], 22.5)
  expect_equal(a$checks[check == "server CPU", status], "FLAG")
  expect_equal(a$checks[check == "client CPU", status], "ok")
  expect_equal(a$checks[check == "shared CPU", status], "n/a")
  expect_equal(a$verdict$kind, "server-bound")
  expect_equal(a$verdict$disqualifies, character())
  expect_match(a$verdict$sentence, paste0("^server-bound: HBase's side, 1 CPU, was 95% busy while the client side's 1 CPU had headroom ",
                                          "\\(50%\\): 5,000 req/s is HBase's capacity on 1 CPU here"))
  expect_equal(disqualified_why(a$verdict, "throughput"), "")
})

test_that("the client's CPUs saturated: client-bound, from the accounting", {
  a <- cpu_run(list(hbase = list(cpu = 0.5), worker = list(cpu = 0.9), agent = list(cpu = 0.02), console = list(cpu = 0.03)))
  expect_equal(a$facts$cpu$client$busy_pct, 95)
  expect_equal(a$facts$cpu$client$top, "worker")
  expect_equal(a$checks[check == "client CPU", status], "FLAG")
  expect_equal(a$verdict$kind, "client-bound")
  expect_match(a$verdict$sentence, "^client-bound: the client side's 1 CPU was 95% busy \\(worker the largest\\) while the server side's was 50%")
  expect_equal(a$verdict$disqualifies, c("comparison", "throughput"))
})

test_that("JIT threads above 5% of a side's CPU: warming, which comes before server-bound", {
  a <- cpu_run(list(hbase = list(cpu = 0.95, jit = 0.19), worker = list(cpu = 0.4, jit = 0.01)))
  expect_equal(a$facts$cpu$server$jit_pct, 20)
  expect_equal(a$facts$cpu$client$jit_pct, 2.5)
  expect_equal(a$checks[check == "JIT", status], "FLAG")
  expect_equal(a$verdict$kinds, c("warming", "server-bound"))
  expect_match(a$verdict$sentence, "^warming: JIT compiler threads took 20.0% of the server side's CPU and 2.5% of the client side's")
  # the throughput is greyed by warming: the server-bound clause says where the limit was, not that it is a capacity
  expect_match(a$verdict$sentence, "also server-bound (HBase's side, 1 CPU, was 95% busy while the client side's 1 CPU had headroom (40%))",
               fixed = TRUE)
  expect_false(grepl("capacity", a$verdict$sentence))
  expect_equal(a$verdict$disqualifies, c("comparison", "latency", "throughput"))
})

test_that("CPU the run did not start, and steal, above 5% of the machine: contended", {
  a <- cpu_run(list(hbase = list(cpu = 0.6), worker = list(cpu = 0.5), other = list(cpu = 0.14), steal = list(cpu = 0.04)))
  expect_equal(a$facts$cpu$other_pct, 7)
  expect_equal(a$facts$cpu$steal_pct, 2)
  expect_equal(a$checks[check == "contention", value], 9)
  expect_equal(a$verdict$kind, "contended")
  expect_match(a$verdict$sentence, "^contended: processes the run did not start took 7.0% of the machine's CPU and steal 2.0% \\(limit 5%\\)")
})

test_that("a lab that shares its CPUs judges no side, and names the split", {
  shared <- list(extra = list(lab = list(cpus = "off", server_cpus = "0-1", client_cpus = "0-1", isolated = FALSE,
                                         note = "lab.cpus = off: server and client share CPUs 0-1", online_cpus = "0-1")),
                 injector_mode = "namespaces")
  a <- cpu_run(list(hbase = list(cpu = 1.0), worker = list(cpu = 0.7), console = list(cpu = 0.05)), manifest = shared)
  expect_equal(a$checks[check == "server CPU", status], "n/a")
  expect_equal(a$checks[check == "client CPU", status], "n/a")
  expect_equal(a$facts$cpu$server$busy_pct, 50)   # of both CPUs, shared
  expect_equal(cpu_split_text(a$facts$cpu), "hbase 50%, worker 35%, console 2%")
})

test_that("a run without cpu.csv keeps its verdict; the CPU checks say why they cannot judge", {
  dir <- tempfile("no-cpu-")
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15))
  a <- analyse_run(run_target(dir))
  expect_null(a$facts$cpu)
  expect_equal(a$checks[check %in% c("server CPU", "client CPU", "JIT", "contention"), unique(status)], "n/a")
  expect_equal(a$verdict$kind, "trustworthy")
})

test_that("report.json carries the accounting, the HTML its section", {
  dir <- tempfile("cpu-json-")
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15), manifest = ISOLATED)
  write_cpu_csv(dir, list(hbase = list(cpu = 0.95), worker = list(cpu = 0.45)),
                notes_roles = list(hbase = list(side = "server", cpu_s = 14.2, rss_peak_mb = 4321.6),
                                   worker = list(side = "client", cpu_s = 6.8, rss_peak_mb = 187.4)))
  out <- file.path(dir, "report")
  expect_equal(main(c("--quiet", "--out", out, dir), repo_root = file.path(r_analysis_dir, "..")), 0L)
  run <- jsonlite::fromJSON(file.path(out, "report.json"), simplifyVector = FALSE)$runs[[1]]
  expect_equal(run$verdict$kind, "server-bound")
  expect_equal(run$cpu$server$busy_pct, 95)
  expect_equal(run$cpu$client$cpus, 1)
  expect_true(run$cpu$isolated)
  html <- paste(readLines(file.path(out, "index.html")), collapse = "\n")
  expect_match(html, "Where the CPU went")
  expect_true(file.exists(file.path(out, "cpu.png")))
  # each role's peak memory over the run, from cpu.json; a role the notes do not have: blank
  peaks <- stats::setNames(lapply(run$cpu$roles, function(r) r$rss_peak_mb), vapply(run$cpu$roles, function(r) r$role, ""))
  expect_equal(peaks$hbase, 4321.6)
  expect_equal(peaks$worker, 187.4)
  expect_null(peaks$console)
  expect_match(html, "peak MB \\(run\\)")
  expect_match(html, "4,322")
})

test_that("CPU lists count their CPUs", {
  expect_equal(cpu_count("0-3,6"), 5L)
  expect_equal(cpu_count("1"), 1L)
  expect_true(is.na(cpu_count("")))
})

test_that("the finding is one short sentence: a capacity for a server-bound run, a refusal with the figure otherwise", {
  a <- cpu_run(list(hbase = list(cpu = 0.95), worker = list(cpu = 0.45)))
  expect_equal(run_finding(a), "5,000 req/s of get:100 at 10 threads, p50 1.95 ms, p99 1.95 ms (direct): HBase's capacity on 1 CPU, the client with CPU to spare.")
  # through a thrift server, which shares the server side's CPU: their capacity together, not HBase's alone
  thrift <- cpu_run(list(hbase = list(cpu = 0.95), worker = list(cpu = 0.45)), manifest = c(ISOLATED, list(target = "thrift")))
  expect_equal(run_finding(thrift), paste("5,000 req/s of get:100 at 10 threads, p50 1.95 ms, p99 1.95 ms (thrift): the capacity of",
                                          "HBase behind its thrift server on 1 CPU, the client with CPU to spare."))
  expect_match(thrift$verdict$sentence, "5,000 req/s is the capacity of HBase behind its thrift server on 1 CPU here", fixed = TRUE)
  b <- cpu_run(list(hbase = list(cpu = 0.95, jit = 0.19), worker = list(cpu = 0.4)))
  expect_match(run_finding(b), "^Not a capacity figure: the JVMs were still compiling their hot code\\. Measured 5,000 req/s")
  expect_lte(words_in(run_finding(b)), FINDING_MAX_WORDS)
})

test_that("direct against thrift: the finding gives the ratio with its range, p99 added and server CPU per request", {
  # ABBA: direct 5,000 req/s (2 ms), thrift 4,000 (2.5 ms), again; server CPU 0.95 s/s each way
  analyses <- thrift_abba()
  cmp <- compare_runs(analyses, sweep_id = "sweep-1")
  cost <- thrift_cost(cmp)
  expect_equal(nrow(cost), 1)
  expect_equal(cost$ratio, 4000 / 5000)
  expect_equal(cost$p99_added_ms, 0.5)
  # server CPU per request: direct 0.95 s/s / 5,000 req/s = 190 us; thrift 0.95 / 4,000 = 237.5 us
  expect_equal(cost$server_us_direct, 190)
  expect_equal(cost$server_us_thrift, 237.5)
  expect_equal(compare_finding(cmp), paste("Thrift/direct throughput get, 10 threads x0.80 (0.80-0.80); thrift adds +48 us server CPU per request (median);",
                                           "p99 +0.50 ms at unequal load."))
  expect_lte(words_in(compare_finding(cmp)), FINDING_MAX_WORDS)
  # the same runs, the direct ones judged client-bound and warming: the ratio is not the layer's cost
  for (k in c(1, 4)) {
    analyses[[k]]$verdict$kind <- "client-bound"
    analyses[[k]]$verdict$kinds <- c("client-bound", "warming", "server-bound")
  }
  analyses[[2]]$verdict$kind <- "warming"
  analyses[[2]]$verdict$kinds <- "warming"
  cmp <- compare_runs(analyses, sweep_id = "sweep-1")
  # each run counted once, by its main kind, as the folded verdict counts them
  expect_equal(compare_finding(cmp), paste("Not the thrift layer's cost: client-bound in 2 of 4 runs, warming in 1.",
                                           "Measured thrift/direct throughput get, 10 threads x0.80 (0.80-0.80)."))
  expect_lte(words_in(compare_finding(cmp)), FINDING_MAX_WORDS)
})

test_that("the workloads whose runs stand lead the thrift finding; the others follow as not judged, with why", {
  cost <- data.table::data.table(workload = c("get, 8 threads", "put, 8 threads", "get:70,put:30, 8 threads"),
                                 ratio = c(0.46, 0.58, 0.55), ratio_low = c(0.41, 0.45, 0.48), ratio_high = c(0.52, 0.74, 0.64),
                                 p99_added_ms = c(1.58, 0.82, 1.40), server_us_direct = c(71, 97, 96), server_us_thrift = c(190, 190, 195),
                                 valid = c(FALSE, FALSE, TRUE))
  text <- thrift_finding(cost, "not steady in 2 of 12 runs, warming in 1")
  # p99 and server CPU from the mix alone: +1.40 ms, 195 - 96 = +99 us
  expect_equal(text, paste("Thrift/direct throughput get:70,put:30, 8 threads x0.55 (0.48-0.64); thrift adds +99 us server CPU per",
                           "request (median); p99 +1.40 ms at unequal load. Not judged: get, 8 threads; put, 8 threads",
                           "(not steady in 2 of 12 runs, warming in 1)."))
  expect_lte(words_in(text), FINDING_MAX_WORDS)
  # every workload stands: the median server CPU over all of them (119, 93, 99) and the range of their
  # p99 differences (a negative one: direct's closed loop ran at more load), nothing "not judged"
  cost$valid <- TRUE
  cost$p99_added_ms <- c(1.58, -0.14, 1.20)
  text <- thrift_finding(cost, "")
  expect_true(endsWith(text, "; thrift adds +99 us server CPU per request (median); p99 -0.14 to +1.58 ms at unequal load."))
  expect_false(grepl("Not judged", text))
  # none stands: the refusal first
  cost$valid <- FALSE
  expect_match(thrift_finding(cost, "client-bound in 12 of 12 runs"), "^Not the thrift layer's cost: client-bound in 12 of 12 runs\\. Measured")
})

test_that("an isolated lab: the whole machine's busy CPU is not the injector's, nor shared with HBase", {
  # The machine 95% busy in every second (HBase saturating its own CPU, the client at 50% of its own):
  # the host metrics' injector CPU check would flag the injector; the client CPU check judges it instead.
  dir <- tempfile("isolated-metrics-")
  manifest <- ISOLATED
  manifest$injector_mode <- "namespaces"
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15), manifest = manifest)
  write_cpu_csv(dir, list(hbase = list(cpu = 0.95), worker = list(cpu = 0.45)))
  fwrite(data.table(time_ms = 1763712000000 + 0:15 * 1000 + 500, cpu_user_pct = 57, cpu_sys_pct = 38, cpu_iowait_pct = 0,
                    cpu_idle_pct = 5, load1 = 2, mem_used_mb = 5000, mem_free_mb = 1000, disk_read_kbs = 0, disk_write_kbs = 0,
                    net_rx_kbs = 0, net_tx_kbs = 0, tcp_retrans_s = 0, conntrack_pct = 0),
         file.path(dir, "injectors", "inj1", "metrics.csv"))
  a <- analyse_run(run_target(dir))
  expect_equal(a$checks[check == "injector CPU", status], "n/a")
  expect_match(a$checks[check == "injector CPU", result], "^an isolated lab: the client CPU check judges the injector side")
  expect_equal(a$checks[check == "client CPU", status], "ok")
  expect_equal(a$checks[check == "shared CPU", status], "n/a")
  expect_false(a$shared)
  expect_equal(a$verdict$kind, "server-bound")
  expect_false(grepl("shared with HBase", a$verdict$sentence))
  # The same machine with the lab off: the injector CPU check flags it, shared with HBase.
  shared <- list(injector_mode = "namespaces", extra = list(lab = list(cpus = "off", server_cpus = "0-1", client_cpus = "0-1",
                                                                       isolated = FALSE, note = "lab.cpus = off"), machine = list(cores = 2)))
  write_manifest(dir, threads = 10, extra = shared$extra, injector_mode = "namespaces")
  b <- analyse_run(run_target(dir))
  expect_equal(b$checks[check == "injector CPU", status], "FLAG")
  expect_match(b$checks[check == "injector CPU", result], "shared with HBase")
})

test_that("a repeat that does not stand is left out of the thrift cost when one beside it stands, and named", {
  # ABBA: direct 5,000 req/s (2 ms), thrift 4,000 (2.5 ms); run-1, the first direct run, is slower
  # (2.5 ms: 4,000 req/s) and judged not steady: it is left out, run-4 alone gives direct's figures
  analyses <- thrift_abba(direct_ms = c(2.5, 2))
  analyses[[1]]$verdict$kind <- "not steady"
  analyses[[1]]$verdict$kinds <- "not steady"
  cmp <- compare_runs(analyses, sweep_id = "sweep-1")
  cost <- thrift_cost(cmp)
  expect_true(cost$valid)
  # 4,000 / 5,000 from run-4 alone; with run-1 it would be 4,000 / median(4,000, 5,000) = 0.89
  expect_equal(cost$ratio, 0.8)
  expect_equal(cost$direct_rps, 5000)
  expect_equal(c(cost$n_direct, cost$n_direct_standing, cost$n_thrift, cost$n_thrift_standing), c(2, 1, 2, 2))
  expect_equal(cost$left_out, "run-1")
  expect_equal(runs_used_text(cost), "1 of 2 / 2 of 2")
  expect_equal(compare_finding(cmp), paste("Thrift/direct throughput get, 10 threads x0.80 (0.80-0.80); thrift adds +48 us server CPU per",
                                           "request (median); p99 +0.50 ms at unequal load. Left out, not standing: run-1 (not steady)."))
  # both direct runs not standing: nothing to judge direct by; the measured figures, not judged
  analyses[[4]]$verdict$kind <- "warming"
  analyses[[4]]$verdict$kinds <- "warming"
  cmp <- compare_runs(analyses, sweep_id = "sweep-1")
  cost <- thrift_cost(cmp)
  expect_false(cost$valid)
  expect_equal(cost$direct_rps, 4500)
  expect_equal(cost$left_out, "")
  expect_equal(runs_used_text(cost), "2 / 2")
  expect_match(compare_finding(cmp), "^Not the thrift layer's cost: not steady in 1 of 4 runs, warming in 1\\. Measured")
})

test_that("the thrift finding names the left-out runs by kind and gives way to the word limit: ranges first, then names", {
  cost <- data.table::data.table(workload = c("get", "put", "get:70,put:30"),
                                 ratio = c(0.60, 0.60, 0.53), ratio_low = c(0.53, 0.56, 0.45), ratio_high = c(0.67, 0.65, 0.61),
                                 p99_added_ms = c(1.58, 0.82, 1.80), server_us_direct = c(71, 97, 96), server_us_thrift = c(190, 190, 190),
                                 valid = TRUE, left_out = c("run-1", "run-5", "run-9"), left_out_kinds = c("not steady", "not steady", "warming"))
  text <- thrift_finding(cost, "")
  expect_equal(text, paste("Thrift/direct throughput get x0.60 (0.53-0.67), put x0.60 (0.56-0.65), get:70,put:30 x0.53 (0.45-0.61); thrift",
                           "adds +94 us server CPU per request (median); p99 +0.82 to +1.80 ms at unequal load. Left out, not",
                           "standing: run-1, run-5 (not steady); run-9 (warming)."))
  expect_lte(words_in(text), FINDING_MAX_WORDS)
  # longer workload names: the ranges give way first
  cost$workload <- c("get, 8 threads", "put, 8 threads", "mix")
  text <- thrift_finding(cost, "")
  expect_match(text, "^Thrift/direct throughput get, 8 threads x0\\.60, put, 8 threads x0\\.60, mix x0\\.53; thrift adds")
  expect_match(text, "Left out, not standing: run-1, run-5 \\(not steady\\); run-9 \\(warming\\)\\.$")
  expect_lte(words_in(text), FINDING_MAX_WORDS)
  # longer still: the added figures give way next, the left-out runs stay named
  cost$workload <- c("get, 8 threads", "put, 8 threads", "get:70,put:30, 8 threads, 2 hosts")
  text <- thrift_finding(cost, "")
  expect_equal(text, paste("Thrift/direct throughput get, 8 threads x0.60, put, 8 threads x0.60, get:70,put:30, 8 threads, 2 hosts x0.53",
                           "(medians; see the table). Left out, not standing: run-1, run-5 (not steady); run-9 (warming)."))
  expect_lte(words_in(text), FINDING_MAX_WORDS)
  expect_equal(left_out_text(cost)$counted, " 3 runs left out, not standing.")
  expect_equal(left_out_text(cost[0])$named, "")
})

test_that("a workload not judged keeps its name in the finding's shortest form; why gives way first", {
  # demo13's sweep: get not judged (both thrift runs fall), put and the mix judged with runs left out
  cost <- data.table::data.table(workload = c("get, 8 threads", "put, 8 threads", "get:70,put:30, 8 threads"),
                                 ratio = c(0.55, 0.58, 0.59), ratio_low = c(0.50, 0.55, 0.52), ratio_high = c(0.60, 0.61, 0.66),
                                 p99_added_ms = c(1.2, 0.9, 1.1), server_us_direct = c(70, 95, 90), server_us_thrift = c(180, 190, 185),
                                 valid = c(FALSE, TRUE, TRUE), left_out = c("", "run-8", "run-6,run-10"),
                                 left_out_kinds = c("", "not steady", "warming,contended"))
  text <- thrift_finding(cost, "warming in 2 of 4 runs, not steady in 1")
  expect_equal(text, paste("Thrift/direct throughput put, 8 threads x0.58, get:70,put:30, 8 threads x0.59 (medians; see the table).",
                           "Left out, not standing: run-8 (not steady); run-6 (warming); run-10 (contended). Not judged: get, 8 threads",
                           "(warming in 2 of 4 runs, not steady in 1)."))
  expect_lte(words_in(text), FINDING_MAX_WORDS)
  # two more left-out runs: why gives way, the workload not judged is still named
  cost$left_out[2:3] <- c("run-8,run-12", "run-6,run-10,run-11")
  cost$left_out_kinds[2:3] <- c("not steady,not steady", "warming,contended,client-bound")
  text <- thrift_finding(cost, "warming in 2 of 4 runs, not steady in 1")
  expect_true(endsWith(text, "run-10 (contended); run-11 (client-bound). Not judged: get, 8 threads."))
  expect_lte(words_in(text), FINDING_MAX_WORDS)
  # longer workload names: the left-out runs' names give way to their count; the workload not judged stays named
  cost$workload <- paste0(cost$workload, ", 2 hosts, 600 s")
  text <- thrift_finding(cost, "warming in 2 of 4 runs, not steady in 1")
  expect_true(endsWith(text, "(medians; see the table). 5 runs left out, not standing. Not judged: get, 8 threads, 2 hosts, 600 s."))
  expect_lte(words_in(text), FINDING_MAX_WORDS)
})

# A run of 5,000 req/s for 6 s, then 2,500 (10 threads at 2 ms, then 4 ms: throughput -50%), whose
# cpu.csv holds `before` for its first 6 s and `after` for the 9 s after (write_cpu_csv's roles).
trend_run <- function(before, after) {
  dir <- tempfile("trend-cpu-")
  write_closed_loop_run(dir, threads = 10, latency_ms = c(rep(2, 6), rep(4, 9)), manifest = ISOLATED)
  write_cpu_csv(dir, before, seconds = 6)
  first <- fread(file.path(dir, "cpu.csv"), integer64 = "double")
  write_cpu_csv(dir, after, seconds = 9, t0 = 1763712000000 + 6000)
  fwrite(rbind(first, fread(file.path(dir, "cpu.csv"), integer64 = "double")), file.path(dir, "cpu.csv"), na = "")
  analyse_run(run_target(dir))
}

test_that("a run that is not steady names what the accounting saw change between its thirds, with each side's CPU per request", {
  # HBase 0.5 and the worker 0.25 CPU-seconds a second throughout: per request 100 and 50 us at
  # 5,000 req/s (seconds 0-4, the first third), 200 and 100 us at 2,500 (seconds 10-14, the last);
  # steal 0 then 0.5 of 2 CPUs (25% of the machine).
  a <- trend_run(list(hbase = list(cpu = 0.5), worker = list(cpu = 0.25)),
                 list(hbase = list(cpu = 0.5), worker = list(cpu = 0.25), steal = list(cpu = 0.5)))
  t <- a$facts$trend_cpu
  expect_equal(a$trend$first_s, c(0, 4))
  expect_equal(a$trend$last_s, c(10, 14))
  expect_equal(c(t$first$steal_pct, t$last$steal_pct), c(0, 25))
  expect_equal(t$first$server$us_per_request, 1e6 * 2.5 / (4990 + 4 * 5000))   # second 0 ends 10 requests short
  expect_equal(round(t$last$server$us_per_request), 200)
  expect_equal(a$verdict$kind, "contended")   # 15% steal over the window
  expect_match(a$verdict$sentence, paste0("not steady \\(throughput moved -50\\.0% .*\\(tolerance 15%\\); between the thirds ",
                                          "steal 0\\.0% -> 25\\.0%; CPU per request: HBase's side 100 -> 200 us, the client's 50 -> 100 us\\)"))
  # Nothing recorded changed: the sentence says so, and what each side paid per request.
  b <- trend_run(list(hbase = list(cpu = 0.5), worker = list(cpu = 0.25)), list(hbase = list(cpu = 0.5), worker = list(cpu = 0.25)))
  expect_equal(b$verdict$kind, "not steady")
  expect_match(b$verdict$sentence, paste0("; steal, other processes, JIT and GC did not rise 5 points or more between the thirds; ",
                                          "CPU per request: HBase's side 100 -> 200 us, the client's 50 -> 100 us;"), fixed = TRUE)
  # Only a move that would explain the trend is named: steal falling as a run slows is not a cause.
  c <- trend_run(list(hbase = list(cpu = 0.5), worker = list(cpu = 0.25), steal = list(cpu = 0.5)),
                 list(hbase = list(cpu = 0.5), worker = list(cpu = 0.25)))
  expect_true(c$facts$trend_cpu$slowed)
  expect_match(c$verdict$sentence, "; steal, other processes, JIT and GC did not rise 5 points or more between the thirds;", fixed = TRUE)
  # Without accounting the clause is the trend alone.
  expect_null(cpu_thirds(NULL, a$trend, 0, a$levels))
  expect_equal(cpu_thirds_text(NULL), "")
  expect_equal(cpu_thirds_json(a$facts$trend_cpu)$last$server$us_per_request, a$facts$trend_cpu$last$server$us_per_request)
  expect_null(cpu_thirds_json(NULL))
})

test_that("a thrift/direct ratio says when it is a bound: thrift saturated the server CPUs and direct did not", {
  # ABBA as above, but HBase at 0.7 s/s on the direct runs: direct trustworthy (neither side saturated),
  # thrift server-bound (0.6 + 0.35 = 0.95): direct's capacity is above its 5,000 req/s, so x0.80 is at most
  analyses <- thrift_abba()
  expect_equal(thrift_cost(compare_runs(analyses, sweep_id = "sweep-1"))$bound, "capacity")
  for (k in c(1, 4)) {
    analyses[[k]]$verdict$kind <- "trustworthy"
    analyses[[k]]$verdict$kinds <- "trustworthy"
  }
  cmp <- compare_runs(analyses, sweep_id = "sweep-1")
  cost <- thrift_cost(cmp)
  expect_equal(cost$bound, "at most")
  # 41 words with the range: the range gives way first
  expect_equal(compare_finding(cmp), paste("Thrift/direct throughput get, 10 threads at most x0.80; thrift adds +48 us server CPU",
                                           "per request (median); p99 +0.50 ms at unequal load. At most: thrift's runs saturated the server CPUs",
                                           "and direct's did not, so direct's capacity is higher."))
  expect_lte(words_in(compare_finding(cmp)), FINDING_MAX_WORDS)
  expect_equal(c(ratio_bound(FALSE, TRUE), ratio_bound(FALSE, FALSE)), c("at least", "at these threads"))
  # no direct run standing: the workload is not judged, and its ratio is no bound of anything
  for (k in c(1, 4)) analyses[[k]]$verdict$kind <- "warming"
  expect_equal(thrift_cost(compare_runs(analyses, sweep_id = "sweep-1"))$bound, "not judged")
  expect_match(bound_text(c("at most", "at least")), "^ At most: .* At least: direct's runs saturated", fixed = FALSE)
  expect_equal(bound_text(character()), "")
})
