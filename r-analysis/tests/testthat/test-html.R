# index.html opened in headless Chromium: it renders, every inlined image decodes, and nothing is
# logged to the browser console. Needs chromium (Debian: apt-get install chromium); without it
# these tests are not run at all (they are not counted as skipped or failed) and a note says so.

chromium_path <- function() {
  found <- Sys.which(c("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"))
  found <- found[nzchar(found)]
  if (length(found) == 0) NA_character_ else unname(found[[1]])
}

# A copy of the page with a probe: after load, it logs each image that did not decode and a summary.
RENDER_PROBE <- paste0(
  "<script>window.addEventListener('load', function () {",
  "var bad = 0; for (var i = 0; i < document.images.length; i++) {",
  "if (!document.images[i].naturalWidth) { bad++; console.error('render-check: broken image ' + document.images[i].alt); } }",
  "console.log('render-check: ' + document.images.length + ' images, ' + bad + ' broken');",
  "console.log('render-check: page ' + document.documentElement.scrollWidth + ' px wide in a ' + window.innerWidth + ' px window');",
  "document.body.setAttribute('data-render-check', 'done'); });</script>")

# Open a page headless; returns the console messages and the DOM after load.
open_in_chromium <- function(html_path) {
  page <- tempfile(fileext = ".html")
  html <- paste(readLines(html_path, warn = FALSE), collapse = "\n")
  writeLines(sub("</body>", paste0(RENDER_PROBE, "</body>"), html, fixed = TRUE), page, useBytes = TRUE)
  profile <- tempfile("chromium-profile-")
  dir.create(profile)
  on.exit(unlink(c(page, profile), recursive = TRUE))
  dom <- tempfile()
  err <- tempfile()
  args <- c("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run", paste0("--user-data-dir=", profile), "--enable-logging=stderr", "--v=0",
            "--window-size=1400,900", "--virtual-time-budget=10000", "--dump-dom", paste0("file://", normalizePath(page)))
  timeout <- Sys.which("timeout")
  status <- if (nzchar(timeout)) system2(timeout, c("60", chromium_path(), args), stdout = dom, stderr = err)
            else system2(chromium_path(), args, stdout = dom, stderr = err)
  console <- grep("INFO:CONSOLE", readLines(err, warn = FALSE), value = TRUE)
  list(status = status, dom = paste(readLines(dom, warn = FALSE), collapse = "\n"),
       messages = sub("^.*INFO:CONSOLE[^\"]*\"(.*)\", source: .*$", "\\1", console))
}

# Console messages other than the probe's summaries are problems (the report has no script of its own).
console_problems <- function(opened) {
  grep("^render-check: ([0-9]+ images, 0 broken|page [0-9]+ px wide in a [0-9]+ px window)$", opened$messages, value = TRUE, invert = TRUE)
}

# The page's width and the window's, from the probe: wider than the window, the reader scrolls the whole page sideways.
page_widths <- function(opened) {
  line <- grep("^render-check: page ", opened$messages, value = TRUE)
  as.integer(regmatches(line, gregexpr("[0-9]+", line))[[1]])
}

if (is.na(chromium_path())) {
  message("test-html: chromium not found: the headless render tests of index.html were not run (apt-get install chromium)")
} else {
  test_that("the render check catches a script error and a broken image (it can fail)", {
    bad <- tempfile(fileext = ".html")
    writeLines(c("<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>",
                 "<img alt=\"not a png\" src=\"data:image/png;base64,AAAA\"><script>undefinedFunction();</script></body></html>"), bad)
    opened <- open_in_chromium(bad)
    problems <- console_problems(opened)
    expect_true(any(grepl("Uncaught ReferenceError: undefinedFunction is not defined", problems, fixed = TRUE)))
    expect_true(any(grepl("render-check: broken image not a png", problems, fixed = TRUE)))
  })

  test_that("a table wider than the page scrolls inside its box and the page keeps the window's width (it can fail)", {
    wide <- as.data.frame(matrix(sprintf("run-%d: direct, get:70,put:30, 8 threads", 1:24), nrow = 2), stringsAsFactors = FALSE)
    widths_of <- function(body) {
      page <- tempfile(fileext = ".html")
      writeLines(html_page("wide", body), page)
      page_widths(open_in_chromium(page))
    }
    boxed <- widths_of(html_table(wide, nowrap = seq_len(ncol(wide))))
    expect_length(boxed, 2)
    expect_lte(boxed[1], boxed[2])
    # the same table outside the box: the page overflows, so the check above can fail
    bare <- widths_of(htmltools::tags$table(htmltools::tags$tr(lapply(wide[1, ], function(v) htmltools::tags$td(class = "nw", v)))))
    expect_gt(bare[1], bare[2])
  })

  test_that("a run report renders in Chromium with no console message and every image decoded", {
    out <- tempfile("report-")
    expect_equal(run_cli(c("--quiet", "--warmup", "0", "--out", out, fixture_dir()))$status, 0)
    opened <- open_in_chromium(file.path(out, "index.html"))
    expect_equal(opened$status, 0)
    expect_equal(console_problems(opened), character())
    expect_true(any(grepl("^render-check: 6 images, 0 broken$", opened$messages)))   # the six run plots
    expect_true(grepl("data-render-check=\"done\"", opened$dom, fixed = TRUE))
    expect_true(grepl("<summary><b>Verdict: too short</b>", opened$dom, fixed = TRUE))
    expect_true(grepl("<p class=\"finding\">Not a capacity figure: the measured window is too short.", opened$dom, fixed = TRUE))
  })
}
