# render-html.R - what every page of the report is made of: its style sheet, the HTML primitives
# (escaping, tables, paragraphs, inlined images, the page) and the tables several pages show.

REPORT_CSS <- "
body{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin:24px auto;max-width:1250px;color:#222;line-height:1.4}
h1{font-size:1.6em;margin-bottom:.2em}h2{border-bottom:2px solid #ccd;padding-bottom:.2em;margin-top:1.8em}
h3{margin-bottom:.3em}
table{border-collapse:collapse;margin:.6em 0 1em 0;font-size:.9em}div.tw{max-width:100%;overflow-x:auto}
th,td{border:1px solid #ccd;padding:3px 8px;text-align:right;vertical-align:top}
th{background:#eef}td.l,th.l{text-align:left}td.nw,th.nw{white-space:nowrap}
tr.total td{font-weight:bold;background:#f6f6fb}
.meta{color:#555;font-size:.92em}.note{background:#fff8e0;border-left:4px solid #e0b000;padding:6px 10px;margin:.6em 0}
.flag{background:#fde8e8;border-left:4px solid #c00;padding:6px 10px;margin:.6em 0}
td.FLAG{background:#fbd5d5;font-weight:bold;text-align:left}td.ok{background:#dff3df;text-align:left}
td.info,td.na{background:#eef;text-align:left}td.fail{background:#fbd5d5;font-weight:bold}td.pass{background:#dff3df}
.verdict{font-size:1.12em;padding:10px 14px;margin:.8em 0;border-left:6px solid #c00;background:#fde8e8}
.verdict.v-trustworthy,.verdict.v-server-bound{border-left-color:#2a7d2a;background:#e4f4e4}
.verdict.v-not-steady,.verdict.v-different-workloads{border-left-color:#e0b000;background:#fff8e0}
p.finding{font-size:1.35em;font-weight:600;margin:.4em 0 .5em 0;max-width:60em}
details.verdict{font-size:.95em}details.verdict summary{cursor:pointer}
.headline{display:flex;flex-wrap:wrap;gap:10px;margin:.6em 0}
.headline div{border:1px solid #ccd;background:#f7f7fc;padding:6px 12px;min-width:180px}
.headline b{display:block;font-size:1.3em}
.disq,td.disq{opacity:.45;filter:grayscale(1);background:#eee}
p.why{color:#666;font-style:italic;margin:.2em 0}
p.usl{font-size:1.05em;margin:.3em 0}h4{margin:1.2em 0 .2em 0}
img{max-width:100%;border:1px solid #ddd;margin:.4em 0}
dt{font-weight:bold;margin-top:.5em}dd{margin-left:1.2em}
"

# The pages are htmltools tag trees: a plain string in one is text (htmltools escapes it), HTML()
# marks one that is markup already. A function with nothing to show returns NULL.

# A tag tree as one string, without the line breaks and indentation htmltools adds between tags
# (the page's own line breaks are text children), so a table row or a sentence stays on one line.
html_string <- function(x) as.character(htmltools::doRenderTags(inline_tags(x)))

inline_tags <- function(x) {
  if (inherits(x, "shiny.tag")) {
    x$.noWS <- c("outside", "inside")
    x$children <- inline_children(x$children)
    return(x)
  }
  if (is.list(x) && !is.object(x) || inherits(x, "shiny.tag.list")) return(do.call(htmltools::tagList, inline_children(x)))
  x
}

# A tag's children, nested lists flattened, NULLs dropped, and each run of text children made one
# (htmltools puts a line break between two): plain text escaped, HTML() kept as it is.
inline_children <- function(children) {
  out <- list()
  text <- character()
  for (child in flat_children(children)) {
    if (inherits(child, "shiny.tag")) {
      if (length(text) > 0) out <- c(out, list(htmltools::HTML(paste(text, collapse = ""))))
      text <- character()
      out <- c(out, list(inline_tags(child)))
    } else {
      text <- c(text, if (inherits(child, "html")) as.character(child) else htmltools::htmlEscape(as.character(child)))
    }
  }
  if (length(text) > 0) out <- c(out, list(htmltools::HTML(paste(text, collapse = ""))))
  out
}

flat_children <- function(children) {
  out <- list()
  for (child in children) {
    if (is.null(child)) next
    if (inherits(child, "shiny.tag.list") || is.list(child) && !is.object(child)) out <- c(out, flat_children(child)) else out <- c(out, list(child))
  }
  out
}

# Elements one after the other, a line break between each two (the page's source stays readable).
html_lines <- function(...) {
  parts <- Filter(Negate(is.null), list(...))
  htmltools::tagList(lapply(seq_along(parts), function(i) if (i == 1) parts[[i]] else htmltools::tagList("\n", parts[[i]])))
}

# cells: a data.frame of strings (text; in the columns html_cols, HTML made here, e.g. html_verdict);
# left: columns aligned left; nowrap: columns never wrapped (run ids, labels);
# row_class / cell_class / col_class: optional CSS classes.
html_table <- function(cells, left = 1, row_class = NULL, cell_class = NULL, col_class = NULL, nowrap = integer(),
                       html_cols = integer()) {
  cells <- as.data.frame(cells, stringsAsFactors = FALSE, check.names = FALSE)
  n_col <- ncol(cells)
  base <- vapply(seq_len(n_col), function(j) {
    parts <- c(if (j %in% left) "l", if (j %in% nowrap) "nw", if (!is.null(col_class) && !is.na(col_class[j]) && nzchar(col_class[j])) col_class[j])
    paste(parts, collapse = " ")
  }, "")
  class_of <- function(classes) if (nzchar(classes)) classes
  head <- htmltools::tags$tr(lapply(seq_len(n_col), function(j) htmltools::tags$th(class = class_of(base[j]), names(cells)[j])))
  rows <- lapply(seq_len(nrow(cells)), function(i) {
    extra <- if (!is.null(cell_class)) cell_class[i, ] else rep(NA_character_, n_col)
    classes <- trimws(paste(base, ifelse(is.na(extra), "", extra)))
    values <- unlist(cells[i, ])
    values <- ifelse(is.na(values), "NA", as.character(values))
    htmltools::tags$tr(class = if (!is.null(row_class) && !is.na(row_class[i])) row_class[i],
                       lapply(seq_len(n_col), function(j) {
                         htmltools::tags$td(class = class_of(classes[j]), if (j %in% html_cols) htmltools::HTML(values[[j]]) else values[[j]])
                       }))
  })
  # in a box of the page's width: a table wider than the page scrolls inside it, the page does not
  htmltools::tags$div(class = "tw", htmltools::tags$table(head, do.call(html_lines, rows)))
}

# A run's verdict in a table cell: its kinds on one line, the whole sentence folded under them
# (report.json keeps it whole).
html_verdict <- function(verdict) {
  kinds <- unique(verdict$kinds)
  head <- if (length(kinds) > 1) sprintf("%s; also %s", kinds[1], paste(kinds[-1], collapse = ", ")) else verdict$kind
  # coloured by its main kind as the page's own verdict is: a valid run is not drawn as an alarm
  as.character(htmltools::tags$details(class = paste0("verdict v-", gsub("[^a-z]+", "-", verdict$kind)),
                                       htmltools::tags$summary(head), verdict$sentence))
}

# A figure (table or image) the verdict disqualifies: greyed, with the reason above it.
html_disqualified <- function(html, why) {
  if (!nzchar(why)) return(html)
  htmltools::tagList(html_p(why, class = "why"), htmltools::tags$div(class = "disq", html))
}

# A PNG inlined as base64, so the page is one self-contained file.
html_img <- function(path, alt) {
  if (is.null(path) || !file.exists(path)) return(NULL)
  htmltools::tags$img(alt = alt, src = paste0("data:image/png;base64,", base64enc::base64encode(path)))
}

html_p <- function(..., class = NULL) htmltools::tags$p(class = class, ...)

# Under report.R --no-plots, one line where the charts would be missed.
plots_note <- function() if (!plots_drawn()) html_p("Charts not drawn (report.R --no-plots): the figures and tables are complete.", class = "meta")

# The whole page as a string: the style sheet, then the body's parts one a line.
html_page <- function(title, body) {
  page <- htmltools::tags$html(lang = "en",
                               htmltools::tags$head(htmltools::tags$meta(charset = "utf-8"), htmltools::tags$title(title),
                                                    htmltools::tags$style(htmltools::HTML(REPORT_CSS))),
                               htmltools::tags$body("\n", body, "\n"))
  paste0("<!DOCTYPE html>\n", html_string(page))
}

total_class <- function(summary) ifelse(summary$test == "total", "total", NA)

percentile_table <- function(summary, prefix = "", digits = 0, with_errors = TRUE) {
  col <- function(name) fmt_num(summary[[paste0(prefix, name)]], digits)
  cells <- data.frame(Type = summary$test, Requests = fmt_int(summary[[if (nzchar(prefix)) paste0(prefix, "count") else "count"]]),
                      `p50 (ms)` = col("p50_ms"), `p90 (ms)` = col("p90_ms"), `p95 (ms)` = col("p95_ms"), `p99 (ms)` = col("p99_ms"),
                      `p99.9 (ms)` = col("p999_ms"), `max (ms)` = col("max_ms"), check.names = FALSE)
  if (with_errors) {
    cells$Errors <- fmt_int(summary$errors)
    cells$`Error rate` <- fmt_pct(summary$error_rate, 3)
  }
  html_table(cells, row_class = total_class(summary))
}

checks_table <- function(checks) {
  cells <- data.frame(Check = checks$check, Status = checks$status, Result = checks$result,
                      `What it means` = checks$meaning, check.names = FALSE)
  classes <- matrix(NA_character_, nrow(cells), ncol(cells))
  classes[, 2] <- gsub("/", "", checks$status)
  html_table(cells, left = c(1, 2, 3, 4), cell_class = classes, nowrap = 1)
}
