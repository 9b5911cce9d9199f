# The acknowledged-write audit in the report: audit.json (./suite verify) into the check, the
# verdict's first words, report.json and the page; a run without it is reported as before.

write_audit <- function(dir, lost = 0, corrupted = 0, acknowledged = 1138, failed = 2, in_doubt = 1, complete = TRUE) {
  keys <- sprintf("00000000%02d/k3x9az1q/inj1-0/%d/%d", seq_len(lost), seq_len(lost), 10 * seq_len(lost))
  jsonlite::write_json(list(run = basename(dir), table = "e2erun", durability = "skip_wal", complete = complete, failure = NULL,
                            verified_at = "2026-11-27T04:06:01.529Z", seconds = 1.32, audit_logs = 1, audit_log_bytes = 13716,
                            records = acknowledged + failed, torn_bytes = 0, acknowledged = acknowledged,
                            intact = acknowledged - lost - corrupted, lost = lost, corrupted = corrupted, failed = failed,
                            in_doubt = in_doubt, failed_absent = failed - in_doubt, unread = if (complete) 0 else 500,
                            data_log_puts_ok = acknowledged, lost_keys = keys, corrupted_keys = character(), in_doubt_keys = "0000000007/k3x9az1q/inj1-0/0/5"),
                       file.path(dir, "audit.json"), auto_unbox = TRUE, null = "null")
}

report_of <- function(dir) {
  a <- analyse_run(run_target(dir))
  write_run_report(a, file.path(dir, "report"))
  list(a = a, doc = jsonlite::fromJSON(file.path(dir, "report", "report.json"), simplifyVector = FALSE),
       html = paste(readLines(file.path(dir, "report", "index.html"), warn = FALSE), collapse = "\n"))
}

test_that("an unaudited run's report has no audit; the same run audited clean adds the counts and stays trustworthy", {
  plain <- tempfile("plain-")
  write_closed_loop_run(plain, threads = 10, latency_ms = rep(2, 15))
  audited <- tempfile("audited-")
  write_closed_loop_run(audited, threads = 10, latency_ms = rep(2, 15))
  write_audit(audited)
  p <- report_of(plain)
  expect_null(p$doc$runs[[1]]$audit)
  expect_false("audit" %in% p$a$checks$check)
  expect_false(grepl("Acknowledged-write audit", p$html, fixed = TRUE))
  r <- report_of(audited)
  expect_equal(r$doc$verdict$kind, "trustworthy")
  expect_equal(r$doc$verdict$sentence, p$doc$verdict$sentence)
  audit <- r$doc$runs[[1]]$audit
  expect_equal(c(audit$acknowledged, audit$intact, audit$lost, audit$corrupted, audit$failed, audit$in_doubt, audit$failed_absent),
               c(1138, 1138, 0, 0, 2, 1, 1))
  expect_true(audit$complete)
  expect_equal(audit$lost_share, 0)
  expect_equal(audit$data_log_puts_ok, 1138)
  expect_equal(r$a$checks[check == "audit", status], "ok")
  expect_match(r$a$checks[check == "audit", result], "^1,138 acknowledged puts: 1,138 intact, 0 lost, 0 corrupted; 2 failed on the client: 1 in doubt")
  expect_match(r$html, "Acknowledged-write audit", fixed = TRUE)
  expect_match(r$html, "In-doubt keys (first 1): <code>0000000007/k3x9az1q/inj1-0/0/5</code>", fixed = TRUE)
  # the rest of report.json is the unaudited run's
  drop <- function(doc) { doc$generated_at <- NULL; doc$runs[[1]]$audit <- NULL; doc$runs[[1]]$dir <- NULL; doc$runs[[1]]$run <- NULL
                          doc$runs[[1]]$label <- NULL; doc$id <- NULL; doc$runs[[1]]$checks <- NULL; doc }
  expect_equal(drop(r$doc), drop(p$doc))
})

test_that("a lost or corrupted acknowledged write makes the verdict say so in its first words, with the keys", {
  dir <- tempfile("lost-")
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15))
  write_audit(dir, lost = 3, corrupted = 1)
  r <- report_of(dir)
  expect_equal(r$doc$verdict$kind, "lost writes")
  expect_match(r$doc$verdict$sentence,
               "^lost writes: 4 of 1,138 acknowledged puts \\(0\\.35%\\) were lost \\(3\\) or corrupted \\(1\\), read back by ./suite verify; HBase acknowledged writes it did not keep")
  audit <- r$doc$runs[[1]]$audit
  expect_equal(audit$lost, 3)
  expect_equal(audit$corrupted, 1)
  expect_equal(audit$intact, 1134)
  expect_equal(audit$lost_share, 4 / 1138)
  expect_equal(unlist(audit$lost_keys), c("0000000001/k3x9az1q/inj1-0/1/10", "0000000002/k3x9az1q/inj1-0/2/20", "0000000003/k3x9az1q/inj1-0/3/30"))
  expect_match(r$doc$finding, "^Lost writes: 4 of 1,138 acknowledged puts \\(0\\.35%\\) did not survive\\. Measured ")
  expect_equal(r$a$checks[check == "audit", status], "FLAG")
  expect_equal(r$a$checks[check == "audit", value], 4)
  expect_match(r$html, "Lost keys (first 3): <code>0000000001/k3x9az1q/inj1-0/1/10 ", fixed = TRUE)
  # no figure is greyed for it: the speed was measured; what the run kept is another matter
  expect_equal(r$a$verdict$disqualifies, character())
})

test_that("an unfinished read-back is shown, not a verdict; a foreign audit.json is refused by name", {
  dir <- tempfile("unfinished-")
  write_closed_loop_run(dir, threads = 10, latency_ms = rep(2, 15))
  write_audit(dir, complete = FALSE)
  r <- report_of(dir)
  expect_equal(r$doc$verdict$kind, "trustworthy")
  expect_equal(r$a$checks[check == "audit", status], "info")
  expect_match(r$a$checks[check == "audit", result], "UNFINISHED: 500 keys not read")
  expect_false(r$doc$runs[[1]]$audit$complete)
  writeLines('{"lost": 1}', file.path(dir, "audit.json"))
  expect_error(read_audit(dir), "audit.json lacks acknowledged, intact, corrupted, failed, in_doubt, failed_absent, complete")
})
