# audit.R - the acknowledged-write audit (hbaseload.audit=true): audit.json, written by
# ./suite verify (lifecycle's AuditVerifier), read into the run's check, verdict, report.json and
# page. A run without audit.json has none of them: its report is what it was before the audit.

# audit.json as a list, or NULL when the run was not audited (or not verified yet).
read_audit <- function(run_dir) {
  path <- file.path(run_dir, "audit.json")
  if (!file.exists(path)) return(NULL)
  a <- tryCatch(jsonlite::fromJSON(path, simplifyVector = TRUE), error = function(e) stop_report("cannot read ", path, ": ", conditionMessage(e)))
  need <- c("acknowledged", "intact", "lost", "corrupted", "failed", "in_doubt", "failed_absent", "complete")
  missing <- setdiff(need, names(a))
  if (length(missing) > 0) stop_report(path, " lacks ", paste(missing, collapse = ", "), ": not written by ./suite verify")
  a
}

# Acknowledged writes the audit found missing or changed.
audit_lost <- function(audit) as.numeric(audit$lost) + as.numeric(audit$corrupted)

# One line of what the audit counted.
audit_text <- function(audit) {
  sprintf("%s acknowledged puts: %s intact, %s lost, %s corrupted; %s failed on the client: %s in doubt (present), %s absent%s",
          fmt_int(audit$acknowledged), fmt_int(audit$intact), fmt_int(audit$lost), fmt_int(audit$corrupted), fmt_int(audit$failed),
          fmt_int(audit$in_doubt), fmt_int(audit$failed_absent),
          if (isTRUE(audit$complete)) "" else sprintf("; UNFINISHED: %s keys not read", fmt_int(audit$unread %if_absent% NA)))
}

# The check row ("audit"): FLAG when an acknowledged write was lost or corrupted; no row when not audited.
check_audit <- function(audit) {
  if (is.null(audit)) return(NULL)
  lost <- audit_lost(audit)
  check_row("audit", if (lost > 0) "FLAG" else if (isTRUE(audit$complete)) "ok" else "info", audit_text(audit),
            paste("Every put of an audited run (hbaseload.audit=true) wrote a key of its own with a value recomputable from the key;",
                  "./suite verify read each back. Lost: acknowledged by HBase but absent; corrupted: present with another value;",
                  "in doubt: failed on the client but present (HBase applied it); the keys are in audit.json."),
            value = lost, unit = "writes")
}

# The verdict's clause for "lost writes".
audit_clause <- function(audit) {
  lost <- audit_lost(audit)
  sprintf("%s of %s acknowledged puts (%s) were lost (%s) or corrupted (%s), read back by ./suite verify",
          fmt_int(lost), fmt_int(audit$acknowledged), fmt_pct(lost / max(1, as.numeric(audit$acknowledged)), 2),
          fmt_int(audit$lost), fmt_int(audit$corrupted))
}

# report.json's "audit" of a run (only an audited run has one).
audit_json <- function(audit) {
  keys <- function(x) if (is.null(x) || length(x) == 0) list() else as.list(x)
  list(complete = isTRUE(audit$complete), acknowledged = audit$acknowledged, intact = audit$intact, lost = audit$lost,
       corrupted = audit$corrupted, failed = audit$failed, in_doubt = audit$in_doubt, failed_absent = audit$failed_absent,
       unread = audit$unread %if_absent% 0, lost_share = audit_lost(audit) / max(1, as.numeric(audit$acknowledged)),
       data_log_puts_ok = audit$data_log_puts_ok %if_absent% NA, durability = audit$durability %if_absent% NA_character_,
       verified_at = audit$verified_at %if_absent% NA_character_, seconds = audit$seconds %if_absent% NA,
       lost_keys = keys(audit$lost_keys), corrupted_keys = keys(audit$corrupted_keys), in_doubt_keys = keys(audit$in_doubt_keys))
}

# The page's section: the counts, and the first keys of each bad outcome.
audit_section <- function(audit) {
  if (is.null(audit)) return(NULL)
  rows <- data.table::data.table(
    outcome = c("acknowledged", "intact", "lost", "corrupted", "failed on the client", "in doubt (present)", "failed and absent"),
    puts = fmt_int(c(audit$acknowledged, audit$intact, audit$lost, audit$corrupted, audit$failed, audit$in_doubt, audit$failed_absent)))
  bad <- c(FALSE, FALSE, audit$lost > 0, audit$corrupted > 0, FALSE, FALSE, FALSE)
  examples <- function(label, keys) if (length(keys) > 0) html_p(sprintf("%s (first %d): ", label, length(keys)), tags$code(paste(keys, collapse = " ")), class = "meta")
  tagList(tags$h2(id = "audit", "Acknowledged-write audit"),
          html_p(sprintf("Every put of this run wrote a key of its own; ./suite verify read each back%s%s. %s",
                         if (!is.null(audit$verified_at)) paste0(" at ", audit$verified_at) else "",
                         if (!is.null(audit$seconds)) sprintf(" in %s s", fmt_num(audit$seconds, 1)) else "",
                         if (!is.null(audit$durability)) paste0("Durability: ", audit$durability, ".") else "")),
          html_table(rows, left = 1, cell_class = matrix(ifelse(bad, "FLAG", NA), nrow(rows), ncol(rows))),
          examples("Lost keys", audit$lost_keys), examples("Corrupted keys", audit$corrupted_keys),
          examples("In-doubt keys", audit$in_doubt_keys),
          if (!isTRUE(audit$complete)) html_p(sprintf("The read-back did not finish: %s keys not read (%s).", fmt_int(audit$unread %if_absent% NA),
                                                      audit$failure %if_absent% "see audit.json"), class = "why"))
}
