# usl.R - the Universal Scalability Law (Gunther), X(N) = lambda N / (1 + sigma (N - 1) + kappa N (N - 1)),
# fitted to measured throughput X against a concurrency N (concurrent clients, or region servers),
# and what the fitted law says: its peak N* = sqrt((1 - sigma) / kappa) and X(N*), intervals, the
# mean latency it implies for a closed loop by Little's law (R(N) = N / X(N)), and the inverse
# questions (the largest N under a mean-latency limit, the smallest N reaching a throughput).
# Generic in N: scalability.R applies it to a comparison's workloads; nothing here knows runs.
#
# The fit is base R's nls with the "port" algorithm (bounds; no extra package): lambda > 0,
# 0 <= sigma <= 1, kappa >= 0. sigma is contention (the serial fraction: 1 means fully serialised,
# and the law is only a law of scaling up to there), kappa coherency (crosstalk between every pair).

USL_MIN_DISTINCT_N <- 4        # three parameters: with fewer distinct N any three points fit exactly
USL_CONFIDENCE <- 0.95         # intervals of lambda, sigma, kappa from the fit's standard errors
USL_MAX_ITERATIONS <- 200      # nls's default 50 is short for a curve whose kappa is 1e-5 of lambda
USL_LAMBDA_FLOOR <- 1e-9       # lambda's lower bound: > 0 without excluding tiny throughputs
USL_LINEAR_EFFICIENCY <- 0.9   # X(N) / (lambda N) at the largest N measured: above it, "almost linear"
USL_TIE_DIGITS <- 10           # a limit met exactly is met: floating-point rounding must not decide a tie

USL_STATUS <- c(fitted = "fitted", too_few = "too few points", no_convergence = "did not converge",
                paced = "paced")

# The columns of a fit (one row per model); not-fitted rows keep them NA.
USL_FIT_COLUMNS <- c("lambda", "lambda_low", "lambda_high", "sigma", "sigma_low", "sigma_high", "kappa", "kappa_low",
                     "kappa_high", "peak_n", "peak_n_low", "peak_n_high", "peak_throughput", "peak_throughput_low",
                     "peak_throughput_high", "r_squared")

usl_throughput <- function(n, lambda, sigma, kappa) lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1))

# log X(n) with its analytic gradient (the attribute nls reads): numeric derivatives step in
# proportion to a parameter, which fails for a kappa that starts at 1e-17.
usl_log_throughput <- function(n, lambda, sigma, kappa) {
  denominator <- 1 + sigma * (n - 1) + kappa * n * (n - 1)
  value <- log(lambda) + log(n) - log(denominator)
  attr(value, "gradient") <- cbind(lambda = rep(1 / lambda, length(n)), sigma = -(n - 1) / denominator,
                                   kappa = -n * (n - 1) / denominator)
  value
}

# Little's law for a closed loop of n clients: each has one request in flight, so the mean time
# per request (the cycle: the request and the client's time between requests) is n / X(n).
usl_mean_latency_ms <- function(n, lambda, sigma, kappa) 1000 * n / usl_throughput(n, lambda, sigma, kappa)

# The peak: N* = sqrt((1 - sigma) / kappa), at least one client (below one the law's maximum over
# N >= 1 is at N = 1); Inf when kappa = 0 (throughput never falls: no peak within the model).
usl_peak_n <- function(sigma, kappa) {
  ifelse(kappa > 0, pmax(1, sqrt(pmax(1 - sigma, 0) / pmax(kappa, .Machine$double.xmin))), Inf)
}

# X(N*); without a peak, the value throughput approaches (lambda / sigma), or Inf when it grows linearly.
usl_peak_throughput <- function(lambda, sigma, kappa) {
  peak <- usl_peak_n(sigma, kappa)
  ifelse(is.finite(peak), usl_throughput(peak, lambda, sigma, kappa), ifelse(sigma > 0, lambda / sigma, Inf))
}

# Start values: lambda from the smallest N measured (X / N there: exact when it is one client),
# then sigma and kappa from the law made linear, lambda N / X - 1 = sigma (N - 1) + kappa N (N - 1),
# by least squares, moved inside the bounds.
usl_start <- function(n, x) {
  n_min <- min(n)
  lambda <- mean(x[n == n_min]) / n_min
  y <- lambda * n / x - 1
  design <- cbind(n - 1, n * (n - 1))
  coefs <- tryCatch(qr.solve(design, y), error = function(e) c(0, 0))
  coefs[!is.finite(coefs)] <- 0
  list(lambda = max(lambda, 2 * USL_LAMBDA_FLOOR), sigma = min(max(coefs[1], 0), 0.99), kappa = max(coefs[2], 0))
}

# A model row: fit columns NA, the counts of what was measured, a status and the nls reason.
usl_row <- function(n, status, reason = NA_character_) {
  row <- data.table::data.table(status = status, reason = reason, points = length(n), distinct_n = data.table::uniqueN(n),
                                n_min = if (length(n)) min(n) else NA_real_, n_max = if (length(n)) max(n) else NA_real_,
                                confidence = USL_CONFIDENCE)
  row[, (USL_FIT_COLUMNS) := NA_real_]
  row[]
}

# Fit the law to points (n, x): all points, repeats included (each run is one point). Returns a
# usl_row: "fitted" with estimates, intervals and r_squared; "too few points" with fewer than
# USL_MIN_DISTINCT_N distinct n; "did not converge" with nls's reason.
fit_usl <- function(n, x, max_iterations = USL_MAX_ITERATIONS) {
  keep <- is.finite(n) & is.finite(x) & n > 0
  n <- as.numeric(n[keep])
  x <- as.numeric(x[keep])
  if (data.table::uniqueN(n) < USL_MIN_DISTINCT_N) return(usl_row(n, USL_STATUS[["too_few"]]))
  start <- usl_start(n, x)
  # On the log scale: throughput's noise grows with its level (this machine's per-second noise is
  # about 10% of it), and least squares on log X weighs every point by its relative error; on X
  # itself the 95% intervals of sigma and kappa held the true values in 80-85% of noisy trials.
  # scaleOffset: nls's convergence test divides by the residual sum of squares, which is zero on
  # points lying on the curve; the offset lets an exact fit converge (R >= 4.1).
  fit <- tryCatch(suppressWarnings(stats::nls(
    log(x) ~ usl_log_throughput(n, lambda, sigma, kappa), data = list(n = n, x = x), start = start, algorithm = "port",
    lower = c(lambda = USL_LAMBDA_FLOOR, sigma = 0, kappa = 0), upper = c(lambda = Inf, sigma = 1, kappa = Inf),
    control = stats::nls.control(maxiter = max_iterations, scaleOffset = 1, warnOnly = FALSE))),
    error = function(e) e)
  if (inherits(fit, "error") || !isTRUE(fit$convInfo$isConv)) {
    reason <- if (inherits(fit, "error")) conditionMessage(fit) else fit$convInfo$stopMessage
    return(usl_row(n, USL_STATUS[["no_convergence"]], one_line(sub("^Convergence failure: ", "", reason))))
  }
  est <- stats::coef(fit)
  se <- summary(fit)$coefficients[, "Std. Error"]
  se[!is.finite(se)] <- Inf
  half <- stats::qt(1 - (1 - USL_CONFIDENCE) / 2, df = length(n) - 3) * se
  row <- usl_row(n, USL_STATUS[["fitted"]])
  row[, `:=`(lambda = est[["lambda"]], lambda_low = max(est[["lambda"]] - half[["lambda"]], 0),
             lambda_high = est[["lambda"]] + half[["lambda"]],
             sigma = est[["sigma"]], sigma_low = max(est[["sigma"]] - half[["sigma"]], 0),
             sigma_high = min(est[["sigma"]] + half[["sigma"]], 1),
             kappa = est[["kappa"]], kappa_low = max(est[["kappa"]] - half[["kappa"]], 0),
             kappa_high = est[["kappa"]] + half[["kappa"]],
             r_squared = 1 - sum((x - usl_throughput(n, est[["lambda"]], est[["sigma"]], est[["kappa"]]))^2) / sum((x - mean(x))^2))]
  usl_add_peak(row)
}

# N* and X(N*) with intervals. The law's throughput falls as sigma or kappa grows and rises with
# lambda, so N* and X(N*) are monotone in them: their intervals are read at the corners of the
# parameters' intervals (conservative: the corners ignore that sigma and kappa trade off).
usl_add_peak <- function(row) {
  row[, `:=`(peak_n = usl_peak_n(sigma, kappa), peak_n_low = usl_peak_n(sigma_high, kappa_high),
             peak_n_high = usl_peak_n(sigma_low, kappa_low))]
  row[, `:=`(peak_throughput = ifelse(is.finite(peak_n), usl_peak_throughput(lambda, sigma, kappa), NA_real_),
             peak_throughput_low = usl_peak_throughput(lambda_low, sigma_high, kappa_high),
             peak_throughput_high = usl_peak_throughput(lambda_high, sigma_low, kappa_low))]
  row[]
}

# Where N* lies against the N measured: "inside", "above", "below", or "none" (kappa = 0).
usl_peak_position <- function(peak_n, n_min, n_max) {
  data.table::fcase(!is.finite(peak_n), "none", peak_n > n_max, "above", peak_n < n_min, "below", default = "inside")
}

# Which cost is larger at N: contention sigma (N - 1) or coherency kappa N (N - 1).
usl_dominant_cost <- function(n, sigma, kappa) ifelse(kappa * n > sigma, "coherency", "contention")

# The largest whole N whose model mean latency (Little's law) meets `op limit_ms`: 0 when even one
# client does not, Inf when the model's latency never grows (sigma = kappa = 0).
usl_largest_n_within <- function(limit_ms, op, lambda, sigma, kappa) {
  meets <- function(n) compare_op(signif(usl_mean_latency_ms(n, lambda, sigma, kappa), USL_TIE_DIGITS), op, limit_ms)
  if (any(is.na(c(limit_ms, lambda, sigma, kappa)))) return(NA_real_)
  if (!meets(1)) return(0)
  allowed <- limit_ms * lambda / 1000   # the largest 1 + sigma (N - 1) + kappa N (N - 1) the limit allows
  root <- if (kappa > 0) {
    (-(sigma - kappa) + sqrt((sigma - kappa)^2 - 4 * kappa * (1 - sigma - allowed))) / (2 * kappa)
  } else if (sigma > 0) (allowed - 1 + sigma) / sigma else Inf
  if (!is.finite(root)) return(Inf)
  n <- max(1, floor(root))
  while (n > 1 && !meets(n)) n <- n - 1   # rounding at the boundary (a strict '<' at equality)
  while (meets(n + 1)) n <- n + 1
  n
}

# The smallest whole N whose model throughput reaches `op target_rps` (op > or >=): Inf when the
# model never gets there (its peak, or its limit lambda / sigma, is lower).
usl_smallest_n_reaching <- function(target_rps, op, lambda, sigma, kappa) {
  reaches <- function(n) compare_op(signif(usl_throughput(n, lambda, sigma, kappa), USL_TIE_DIGITS), op, target_rps)
  if (any(is.na(c(target_rps, lambda, sigma, kappa)))) return(NA_real_)
  if (reaches(1)) return(1)
  # lambda N >= T (1 + sigma (N - 1) + kappa N (N - 1)): a T kappa N^2 + (T (sigma - kappa) - lambda) N + T (1 - sigma) <= 0
  a <- target_rps * kappa
  b <- target_rps * (sigma - kappa) - lambda
  c <- target_rps * (1 - sigma)
  root <- if (kappa > 0) {
    disc <- b^2 - 4 * a * c
    if (disc < 0) return(Inf)
    (-b - sqrt(disc)) / (2 * a)
  } else if (lambda > target_rps * sigma) c / -b else return(Inf)
  n <- max(1, ceiling(root))
  while (n > 1 && reaches(n - 1)) n <- n - 1
  while (!reaches(n)) {
    n <- n + 1
    if (n > 2 * root + 2) return(Inf)   # only at the very top of the curve, where rounding decides
  }
  n
}

# The fitted curve for a chart, from one to n_to, in segments that share their ends: below the N
# measured, over them ("measured range"), above them; the outer two are "extrapolation".
usl_curve <- function(model, n_to, steps = 200) {
  n <- sort(unique(c(seq(1, n_to, length.out = steps), model$n_min, model$n_max)))
  bounds <- list(c(1, model$n_min), c(model$n_min, model$n_max), c(model$n_max, n_to))
  curve <- data.table::rbindlist(lapply(seq_along(bounds), function(k) {
    inside <- n[n >= bounds[[k]][1] & n <= bounds[[k]][2]]
    if (length(inside) < 2) return(NULL)
    data.table::data.table(n = inside, segment = k, part = if (k == 2) "measured range" else "extrapolation")
  }))
  curve[, throughput := usl_throughput(n, model$lambda, model$sigma, model$kappa)]
  curve[]
}
