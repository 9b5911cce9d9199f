# Host metrics beyond busy CPU: steal, run queue, the busiest core (injectors/host-metrics.awk columns).

write_steal_metrics <- function(dir, steal_pct, t0 = 1763712000000) {
  path <- file.path(dir, "injectors", "inj1", "metrics.csv")
  seconds <- 0:15
  fwrite(data.table(time_ms = t0 + seconds * 1000 + 500, cpu_user_pct = 30, cpu_sys_pct = 10, cpu_iowait_pct = 0,
                    cpu_idle_pct = 60 - steal_pct, load1 = 2, mem_used_mb = 5000, mem_free_mb = 1000, disk_read_kbs = 0,
                    disk_write_kbs = 0, net_rx_kbs = 0, net_tx_kbs = 0, tcp_retrans_s = 0, conntrack_pct = 0,
                    cpu_steal_pct = steal_pct, procs_running = 3, procs_blocked = 0, cpu_busiest_core_pct = 55,
                    cpu0_busy_pct = 55, cpu1_busy_pct = 25),
         path)
}

test_that("the new columns are read, and a run on a VM whose hypervisor took CPU is flagged, not disqualified", {
  dir <- tempfile("steal-")
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15), manifest = list(injector_mode = "ssh"))
  # 6% in every second of the window: mean 6% >= 5%.
  write_steal_metrics(dir, steal_pct = c(rep(6, 16)))
  a <- analyse_run(run_target(dir))
  expect_equal(a$metrics[1, c(cpu_steal_pct, procs_running, procs_blocked, cpu_busiest_core_pct)], c(6, 3, 0, 55))
  expect_equal(a$checks[check == "CPU steal", status], "FLAG")
  expect_equal(a$checks[check == "CPU steal", value], 6)
  expect_equal(a$checks[check == "CPU steal", result], "inj1 mean 6.0%, max 6%")
  expect_equal(a$verdict$kind, "trustworthy")
  expect_match(a$verdict$sentence, "other flags, not disqualifying: CPU steal")
  # One second at 25% (>= 20%) is flagged although the mean over the 15 samples in the window is 25 / 15 = 1.7%.
  write_steal_metrics(dir, steal_pct = c(rep(0, 8), 25, rep(0, 7)))
  b <- analyse_run(run_target(dir))
  expect_equal(b$checks[check == "CPU steal", status], "FLAG")
  expect_equal(b$checks[check == "CPU steal", result], "inj1 mean 1.7%, max 25%")
  # 1% throughout: ok.
  write_steal_metrics(dir, steal_pct = rep(1, 16))
  expect_equal(analyse_run(run_target(dir))$checks[check == "CPU steal", status], "ok")
})

test_that("metrics from before steal was sampled say so instead of guessing", {
  a <- analyse_run(run_target(copy_fixture()))
  expect_equal(a$checks[check == "CPU steal", status], "n/a")
  expect_match(a$checks[check == "CPU steal", result], "^no steal column in metrics.csv")
})
