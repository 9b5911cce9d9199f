# cpu.R - where the CPU went: the run's cpu.csv (lifecycle's CpuSampler, one row per role per
# interval: HBase, gateway, shim, console, agents, workers, samplers, ./suite itself, then the
# machine's rest, other, steal and idle; each JVM role split into JIT, GC, io and load threads) and
# cpu.json (method, totals, the CPUs each role was allowed), read over the measured window. They
# give the run's CPU verdicts: server-bound (the lab's server CPUs saturated while the client had
# headroom: a valid capacity on that many CPUs), client-bound (the client CPUs saturated), warming
# (JIT threads still busy), contended (CPU the run did not start), and the split a shared-CPU run
# names. Columns: lifecycle/README.md, "cpu.csv".

CPU_FILE <- "cpu.csv"
CPU_NOTES <- "cpu.json"
CPU_ROLES <- c("hbase", "gateway", "shim", "console", "agent", "worker", "peer", "sampler", "lifecycle", "other", "steal", "idle")
CPU_SERVER_ROLES <- c("hbase", "gateway", "shim")
CPU_CLIENT_ROLES <- c("console", "agent", "worker", "peer", "sampler", "lifecycle")
CPU_SIDE_BOUND_PCT <- 90   # a side at or above this share of its CPUs is saturated
CPU_WARMING_JIT_PCT <- 5   # JIT threads above this share of a side's CPU: its JVMs were still compiling
CPU_CONTENDED_PCT <- 5     # CPU of processes the run did not start, and steal, above this share of the machine

# cpu.csv and cpu.json of a run: list(rows, notes), or NULL when the run has none.
read_cpu <- function(run_dir) {
  path <- file.path(run_dir, CPU_FILE)
  if (!file.exists(path)) return(NULL)
  rows <- tryCatch(suppressWarnings(data.table::fread(path, showProgress = FALSE, integer64 = "double",
                                                      colClasses = list(character = c("role", "side")))),
                   error = function(e) NULL)
  needed <- c("time_ms", "interval_s", "role", "side", "cpu_s", "jit_s", "gc_s", "io_s", "load_s")
  if (is.null(rows) || !all(needed %in% names(rows)) || nrow(rows) == 0) return(NULL)
  for (col in c(setdiff(needed, c("role", "side")), "processes")) rows[[col]] <- suppressWarnings(as.numeric(rows[[col]]))
  notes_path <- file.path(run_dir, CPU_NOTES)
  notes <- if (file.exists(notes_path)) tryCatch(jsonlite::fromJSON(notes_path, simplifyVector = FALSE), error = function(e) NULL) else NULL
  list(rows = rows, notes = notes)
}

# The intervals whose middle falls in [from_ms, to_ms] (time_ms is an interval's end).
cpu_between <- function(rows, from_ms, to_ms) {
  rows[time_ms - 500 * interval_s >= from_ms & time_ms - 500 * interval_s <= to_ms]
}

# How many CPUs a Linux CPU list names ("0-3,6": 5); NA for none.
cpu_count <- function(list) {
  if (is.null(list) || is.na(list) || !nzchar(list)) return(NA_integer_)
  parts <- strsplit(strsplit(list, ",")[[1]], "-")
  as.integer(sum(vapply(parts, function(p) if (length(p) == 2) as.numeric(p[2]) - as.numeric(p[1]) + 1 else 1, 0)))
}

# Per role over the window: CPU seconds, share of the machine, of its side's CPUs, us per request,
# and its JVM threads' seconds by class (NA where the sampler could not split them).
cpu_roles <- function(w, seconds, cpus, side_cpus, requests) {
  roles <- w[, .(cpu_s = sum(cpu_s), jit_s = sum(jit_s), gc_s = sum(gc_s), io_s = sum(io_s), load_s = sum(load_s),
                 processes = suppressWarnings(max(processes, na.rm = TRUE))), keyby = .(role, side)]
  roles[!is.finite(processes), processes := NA_real_]
  roles[, order := match(role, CPU_ROLES)]
  data.table::setorder(roles, order)
  roles[, order := NULL]
  roles[, machine_pct := 100 * cpu_s / (seconds * cpus)]
  roles[, side_pct := data.table::fifelse(side %in% names(side_cpus), 100 * cpu_s / (seconds * side_cpus[side]), NA_real_)]
  roles[, us_per_request := if (requests > 0) 1e6 * cpu_s / requests else NA_real_]
  roles[side != "machine" | role == "other"]
}

# One side of the lab over the window: its CPUs, CPU seconds, how busy and how much of it was JIT.
cpu_side <- function(roles, side_name, n_cpus, seconds) {
  r <- roles[side == side_name]
  cpu <- sum(r$cpu_s)
  list(side = side_name, cpus = n_cpus, cpu_s = cpu, busy_pct = 100 * cpu / (seconds * n_cpus),
       jit_pct = if (cpu > 0) 100 * sum(r$jit_s, na.rm = TRUE) / cpu else NA_real_,
       gc_pct = if (cpu > 0) 100 * sum(r$gc_s, na.rm = TRUE) / cpu else NA_real_,
       top = if (nrow(r) > 0) r[which.max(cpu_s), role] else NA_character_)
}

# The facts of cpu.csv over the measured window, or NULL when the run has no accounting.
cpu_facts <- function(cpu, window, manifest, requests) {
  if (is.null(cpu)) return(NULL)
  w <- cpu_between(cpu$rows, window$window_start_ms, window$window_end_ms)
  if (nrow(w) == 0) return(NULL)
  seconds <- sum(w[role == "idle", interval_s])
  lab <- manifest$lab
  cpus <- as.numeric(cpu$notes$cpus %if_absent% manifest$machine$cores %if_absent% NA)
  isolated <- isTRUE(lab$isolated)
  side_cpus <- c(server = cpu_count(lab$server_cpus %if_absent% NA) %if_absent% cpus, client = cpu_count(lab$client_cpus %if_absent% NA) %if_absent% cpus)
  if (!isolated) side_cpus[] <- cpus
  roles <- cpu_roles(w, seconds, cpus, side_cpus, requests)
  # each role's peak resident memory over the whole run (cpu.json; samplers before 2026-11-28 had none)
  roles[, rss_peak_mb := vapply(role, function(r) as.numeric(cpu$notes$roles[[r]]$rss_peak_mb %if_absent% NA_real_), numeric(1))]
  rest <- w[, .(cpu_s = sum(cpu_s)), keyby = role]
  share <- function(r) 100 * sum(rest[role %in% r, cpu_s]) / (seconds * cpus)
  list(method = cpu$notes$method %if_absent% NA_character_, isolated = isolated, lab_note = lab$note %if_absent% NA_character_,
       seconds = seconds, cpus = cpus, requests = requests, roles = roles,
       server = cpu_side(roles, "server", side_cpus[["server"]], seconds),
       client = cpu_side(roles, "client", side_cpus[["client"]], seconds),
       other_pct = share("other"), steal_pct = share("steal"), idle_pct = share("idle"),
       busy_pct = 100 - share(c("steal", "idle")),
       closure = cpu$notes$closure, allowed = lapply(cpu$notes$roles, function(r) unlist(r$cpus_allowed)))
}

# What the accounting says changed between the first and the last third of a judged trend
# (steady_trend's seconds, from the run's first request): cpu_facts over each third, kept to the
# shares of steal and of processes the run did not start (of the machine), each side's JIT and GC
# shares (of its CPU) and its CPU per request. NULL without accounting or a judged trend. A run
# that moved with none of the shares moving is a run whose cause the suite did not record: the CPU
# per request says how much each side paid per request in each third.
cpu_thirds <- function(cpu, trend, run_start_ms, levels, manifest) {
  if (is.null(cpu) || !isTRUE(trend$judged) || is.null(trend$first_s)) return(NULL)
  third <- function(s) {
    requests <- sum(levels[second >= s[1] & second <= s[2], requests])
    f <- cpu_facts(cpu, list(window_start_ms = run_start_ms + 1000 * s[1], window_end_ms = run_start_ms + 1000 * (s[2] + 1)),
                   manifest, requests)
    if (is.null(f)) return(NULL)
    side <- function(x, name) {
      us <- side_us_per_request(f, name)
      list(jit_pct = x$jit_pct, gc_pct = x$gc_pct, us_per_request = if (isTRUE(us > 0)) us else NA_real_)
    }
    list(steal_pct = f$steal_pct, other_pct = f$other_pct, server = side(f$server, "server"), client = side(f$client, "client"))
  }
  first <- third(trend$first_s)
  last <- third(trend$last_s)
  if (is.null(first) || is.null(last)) return(NULL)
  # The larger of the two moves says which way the run went, as the steady-state check reads it.
  worst <- if (isTRUE(abs(trend$latency_change) > abs(trend$throughput_change))) -trend$latency_change else trend$throughput_change
  list(first = first, last = last, slowed = isTRUE(worst < 0))
}

# The clause a "not steady" verdict adds: the shares that moved CPU_TREND_SHARE_POINTS or more
# between the thirds the way that would explain the trend (up for a run that slowed, down for one
# that sped up), or that none did, and each side's CPU per request in both thirds.
CPU_TREND_SHARE_POINTS <- 5
cpu_thirds_text <- function(t) {
  if (is.null(t)) return("")
  a <- t$first
  b <- t$last
  sign <- if (t$slowed) 1 else -1
  moved <- function(label, x, y) if (isTRUE(sign * (y - x) >= CPU_TREND_SHARE_POINTS)) sprintf("%s %s%% -> %s%%", label, fmt_num(x, 1), fmt_num(y, 1))
  shares <- c(moved("steal", a$steal_pct, b$steal_pct), moved("processes the run did not start", a$other_pct, b$other_pct),
              moved("HBase side's JIT", a$server$jit_pct, b$server$jit_pct), moved("client side's JIT", a$client$jit_pct, b$client$jit_pct),
              moved("HBase side's GC", a$server$gc_pct, b$server$gc_pct), moved("client side's GC", a$client$gc_pct, b$client$gc_pct))
  changed <- if (length(shares) > 0) sprintf("between the thirds %s", paste(shares, collapse = ", ")) else
    sprintf("steal, other processes, JIT and GC did not %s %d points or more between the thirds", if (t$slowed) "rise" else "fall",
            CPU_TREND_SHARE_POINTS)
  per_request <- function(label, x, y) if (!is.na(x) && !is.na(y)) sprintf("%s %s -> %s us", label, fmt_num(x, 0), fmt_num(y, 0))
  costs <- c(per_request("HBase's side", a$server$us_per_request, b$server$us_per_request),
             per_request("the client's", a$client$us_per_request, b$client$us_per_request))
  paste0("; ", changed, if (length(costs) > 0) sprintf("; CPU per request: %s", paste(costs, collapse = ", ")) else "")
}

# A side's CPU per request (us): the sum over its roles in cpu_facts' table (0 when it has none).
side_us_per_request <- function(f, which_side) sum(f$roles[side == which_side, us_per_request], na.rm = TRUE)

# "hbase 48%, worker 31%, ..." : the largest roles' shares of the machine.
cpu_split_text <- function(f, n = 4) {
  r <- f$roles[cpu_s > 0][order(-cpu_s)][seq_len(min(n, .N))]
  paste(sprintf("%s %s%%", r$role, fmt_num(r$machine_pct, 0)), collapse = ", ")
}

# The CPU checks: each reads cpu.csv over the measured window. n/a rows say why they cannot judge.
check_cpu <- function(f) {
  if (is.null(f)) {
    na <- function(name) check_row(name, "n/a", "no cpu.csv in the run (runs before the CPU accounting, or data logs only)", "", unit = "%")
    return(rbind(na("server CPU"), na("client CPU"), na("JIT"), na("contention")))
  }
  rbind(check_server_cpu(f), check_client_cpu(f), check_jit(f), check_contention(f))
}

check_server_cpu <- function(f) {
  s <- f$server
  c <- f$client
  if (!f$isolated) {
    return(check_row("server CPU", "n/a", sprintf("the lab shares its CPUs (%s): no side has CPUs of its own to saturate", f$lab_note),
                     "", value = s$busy_pct, unit = "%"))
  }
  bound <- s$busy_pct >= CPU_SIDE_BOUND_PCT && c$busy_pct < CPU_SIDE_BOUND_PCT
  check_row("server CPU", if (bound) "FLAG" else "ok",
            sprintf("the server side (%d CPU%s) was %s%% busy, the client side (%d CPU%s) %s%%",
                    s$cpus, if (s$cpus == 1) "" else "s", fmt_num(s$busy_pct, 0), c$cpus, if (c$cpus == 1) "" else "s", fmt_num(c$busy_pct, 0)),
            sprintf(paste("In an isolated lab HBase, its gateway and the shim run on CPUs of their own. When they are %d%% busy or more",
                          "while the client still has CPU to spare, the throughput is what HBase serves on those CPUs: a valid figure,",
                          "to be quoted with the CPU count (flagged so the verdict can say so; it greys nothing)."), CPU_SIDE_BOUND_PCT),
            value = s$busy_pct, unit = "%")
}

check_client_cpu <- function(f) {
  c <- f$client
  if (!f$isolated) {
    return(check_row("client CPU", "n/a", "the lab shares its CPUs: the shared CPU check judges them", "", value = c$busy_pct, unit = "%"))
  }
  check_row("client CPU", if (c$busy_pct >= CPU_SIDE_BOUND_PCT) "FLAG" else "ok",
            sprintf("the client side (%d CPU%s) was %s%% busy, %s the largest; the server side %s%%", c$cpus, if (c$cpus == 1) "" else "s",
                    fmt_num(c$busy_pct, 0), c$top, fmt_num(f$server$busy_pct, 0)),
            sprintf(paste("Console, agents, workers, samplers and ./suite itself on their CPUs. At %d%% busy or more the injectors",
                          "cannot ask faster: the throughput is the client's, a lower bound of HBase's."), CPU_SIDE_BOUND_PCT),
            value = c$busy_pct, unit = "%")
}

check_jit <- function(f) {
  worst <- max(f$server$jit_pct, f$client$jit_pct, na.rm = TRUE)
  if (!is.finite(worst)) return(check_row("JIT", "n/a", "no JVM thread split in cpu.csv", "", unit = "%"))
  check_row("JIT", if (worst > CPU_WARMING_JIT_PCT) "FLAG" else "ok",
            sprintf("JIT compiler threads took %s%% of the server side's CPU and %s%% of the client side's over the measured window",
                    fmt_num(f$server$jit_pct, 1), fmt_num(f$client$jit_pct, 1)),
            sprintf(paste("A JVM compiles its hot code in its first tens of seconds (HBase after a restart, every fresh worker).",
                          "Above %d%% of a side's CPU the window still contains that warm-up: the code measured is not yet the",
                          "code that will run, and the compiler takes CPU from it."), CPU_WARMING_JIT_PCT),
            value = worst, unit = "%")
}

check_contention <- function(f) {
  taken <- f$other_pct + f$steal_pct
  check_row("contention", if (taken > CPU_CONTENDED_PCT) "FLAG" else "ok",
            sprintf("processes the run did not start took %s%% of the machine's CPU and the hypervisor %s%% (steal) over the measured window",
                    fmt_num(f$other_pct, 1), fmt_num(f$steal_pct, 1)),
            sprintf(paste("CPU charged to no role of the run: other programs, other suites' HBases, builds; and time the",
                          "hypervisor gave other guests. Above %d%% of the machine they took CPU the run's processes wanted, on",
                          "whichever side they ran: throughput and latency then include their interference."), CPU_CONTENDED_PCT),
            value = taken, unit = "%")
}

# Per-second CPU of each role, in CPUs (seconds of CPU per second), for the stacked chart.
cpu_per_second <- function(cpu, window) {
  r <- cpu$rows[role != "idle" & time_ms >= window$run_start_ms - 5000 & time_ms <= window$run_end_ms + 5000]
  r[, `:=`(second = (time_ms - window$run_start_ms) / 1000, cpus = cpu_s / interval_s)]
  r[, role := factor(role, levels = CPU_ROLES)]
  r[]
}

plot_cpu <- function(cpu, window, f) {
  per <- cpu_per_second(cpu, window)
  if (nrow(per) == 0) return(NULL)
  palette <- c(hbase = "#1f4e79", gateway = "#2e75b6", shim = "#9dc3e6", console = "#c55a11", agent = "#f4b183",
               worker = "#ed7d31", peer = "#a9d18e", sampler = "#7f7f7f", lifecycle = "#bfbfbf", other = "#ff0000", steal = "#7030a0")
  ggplot2::ggplot(per, ggplot2::aes(second, cpus, fill = role)) +
    ggplot2::annotate("rect", xmin = -Inf, xmax = (window$window_start_ms - window$run_start_ms) / 1000, ymin = -Inf, ymax = Inf,
                      fill = "grey85", alpha = 0.5) +
    ggplot2::geom_area(position = "stack", alpha = 0.9) +
    ggplot2::geom_hline(yintercept = f$cpus, linetype = "dashed") +
    ggplot2::scale_fill_manual(values = palette, drop = TRUE) +
    ggplot2::labs(x = "seconds since the first request", y = "CPUs busy",
                  title = "Where the CPU went, second by second",
                  subtitle = sprintf("%s; dashed: the machine's %s CPUs; grey: the warm-up cut", f$lab_note, fmt_num(f$cpus, 0))) +
    ggplot2::theme_minimal(base_size = 11)
}

# The report's table: one row per role that used CPU in the window.
cpu_table_frame <- function(f) {
  r <- f$roles[cpu_s > 0 | role %in% c("hbase", "worker")]
  split <- function(x) ifelse(is.na(x), "", fmt_num(x, 2))
  data.frame(role = r$role, side = r$side, processes = ifelse(is.na(r$processes), "", fmt_int(r$processes)),
             `CPU s` = fmt_num(r$cpu_s, 2), `% of machine` = fmt_num(r$machine_pct, 1),
             `% of its side` = ifelse(is.na(r$side_pct), "", fmt_num(r$side_pct, 1)),
             `us per request` = fmt_num(r$us_per_request, 1), `JIT s` = split(r$jit_s), `GC s` = split(r$gc_s),
             `io s` = split(r$io_s), `load s` = split(r$load_s),
             `peak MB (run)` = ifelse(is.na(r$rss_peak_mb), "", fmt_int(r$rss_peak_mb)), check.names = FALSE)
}

# The facts for report.json.
cpu_json <- function(f) {
  if (is.null(f)) return(NULL)
  side <- function(s) list(cpus = s$cpus, cpu_s = json_number(s$cpu_s), busy_pct = json_number(s$busy_pct),
                           jit_pct = json_number(s$jit_pct), gc_pct = json_number(s$gc_pct), top_role = s$top)
  list(method = f$method, isolated = f$isolated, lab = f$lab_note, seconds = f$seconds, cpus = f$cpus,
       server = side(f$server), client = side(f$client), other_pct = json_number(f$other_pct),
       steal_pct = json_number(f$steal_pct), busy_pct = json_number(f$busy_pct), closure = f$closure,
       roles = json_rows(f$roles))
}
