# kinds.R - the suite's one table of kinds (inst/kinds.json): how runs and sweeps end, the
# console's outcomes and the report's verdicts in precedence order. Java's enums are checked
# against the same file by its unit tests; here the verdict rules and the glossary come from it.

# The table as a list (jsonlite, no simplification: lists of objects).
read_kinds <- function(path = system.file("kinds.json", package = "hbasegrinder", mustWork = TRUE)) {
  jsonlite::fromJSON(path, simplifyVector = FALSE)
}

flag_of <- function(row, name) isTRUE(row[[name]])

# The verdict rules: one row per check that can flag a kind (a kind may have several checks),
# precedence = row order. trustworthy has no check: it is what is left when nothing flags.
verdict_rules_of <- function(kinds) {
  rows <- Filter(function(v) !is.null(v$check), kinds$verdict)
  data.table::data.table(
    kind = vapply(rows, function(v) v$kind, ""),
    check = vapply(rows, function(v) v$check, ""),
    disqualifies = lapply(rows, function(v) as.character(unlist(v$disqualifies))),
    consequence = vapply(rows, function(v) v$consequence, ""))
}

# kind -> why a figure it disqualifies is greyed (kinds that grey nothing have none).
disqualify_why_of <- function(kinds) {
  rows <- Filter(function(v) !is.null(v$greyed_because), kinds$verdict)
  why <- vapply(rows, function(v) v$greyed_because, "")
  names(why) <- vapply(rows, function(v) v$kind, "")
  why[!duplicated(names(why))]
}

kinds_flagged <- function(kinds, flag) {
  unique(vapply(Filter(function(v) flag_of(v, flag), kinds$verdict), function(v) v$kind, ""))
}

.onLoad <- function(libname, pkgname) {
  ns <- asNamespace(pkgname)
  kinds <- read_kinds(file.path(libname, pkgname, "kinds.json"))
  assign("VERDICT_RULES", verdict_rules_of(kinds), envir = ns)
  assign("DISQUALIFY_WHY", disqualify_why_of(kinds), envir = ns)
  assign("VALID_KINDS", kinds_flagged(kinds, "stands"), envir = ns)
  assign("LOWER_BOUND_KINDS", kinds_flagged(kinds, "lower_bound"), envir = ns)
  assign("KINDS", kinds, envir = ns)
}

KINDS <- NULL

# The glossary's "Verdict" entry: each kind in precedence order with its definition, its
# thresholds filled in from the checks' constants, then what each greys.
verdict_glossary <- function(kinds = KINDS) {
  values <- c(MIN_WINDOW_S = MIN_WINDOW_S, MIN_MEASURED_REQUESTS = fmt_int(MIN_MEASURED_REQUESTS),
              MAX_ERROR_RATE = fmt_pct(MAX_ERROR_RATE, 0), CPU_CONTENDED_PCT = CPU_CONTENDED_PCT,
              CPU_WARMING_JIT_PCT = CPU_WARMING_JIT_PCT, CLIENT_BOUND_GAP_RATIO = fmt_num(CLIENT_BOUND_GAP_RATIO, 1),
              CPU_SIDE_BOUND_PCT = CPU_SIDE_BOUND_PCT, SHARED_BUSY_PCT = SHARED_BUSY_PCT,
              STEADY_TREND_PCT = round(100 * STEADY_TREND_TOLERANCE))
  fill <- function(text) {
    for (name in names(values)) text <- gsub(sprintf("{%s}", name), values[[name]], text, fixed = TRUE)
    if (grepl("{", text, fixed = TRUE)) stop("kinds.json: a definition names an unknown threshold: ", text)
    text
  }
  defined <- Filter(function(v) !is.null(v$definition) && !is.null(v$check), kinds$verdict)
  items <- vapply(defined, function(v) sprintf("<i>%s</i> (%s)", v$kind, fill(v$definition)), "")
  # kinds grouped by what they grey; the largest group is "the other kinds"
  sets <- vapply(defined, function(v) paste(as.character(unlist(v$disqualifies)), collapse = ", "), "")
  names_of <- vapply(defined, function(v) v$kind, "")
  groups <- unique(sets)
  largest <- groups[which.max(vapply(groups, function(g) sum(sets == g), 0L))]
  greys <- vapply(c(setdiff(groups, largest), largest), function(g) {
    what <- if (nzchar(g)) g else "nothing"
    if (g == largest) sprintf("%s for the other kinds", what)
    else sprintf("%s for %s", what, paste(sprintf("<i>%s</i>", names_of[sets == g]), collapse = " and "))
  }, "")
  last <- Filter(function(v) is.null(v$check), kinds$verdict)[[1]]
  paste0("The first of: ", paste(items, collapse = ", "), sprintf("; else <i>%s</i> (%s)", last$kind, fill(last$definition)),
         ". A comparison takes the first kind among its runs, or <i>different workloads</i> when no two runs are alike. ",
         "Greyed figures are those the verdict disqualifies: ", paste(greys, collapse = "; "), ".")
}
