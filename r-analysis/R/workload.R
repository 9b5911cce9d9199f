# workload.R - what a run measured, from its manifest: the workload dimensions that make two
# runs alike (same operations mix, threads, value size, target ...), how two runs differ, and the
# label a run carries in every table and legend ("run-3: thrift, get:70,put:30, 8 threads").

# Dimension -> the manifest "properties" key it is read from. threads and target come from the
# manifest's own fields first (threads_total, target), as ./suite run records them.
WORKLOAD_DIMENSIONS <- c(
  operations = "hbaseload.operations",
  threads = NA,
  target = "hbaseload.target",
  endpoint = NA,                       # thrift host:port, transport, protocol (empty for direct)
  value_size = "hbaseload.value.size",
  key_distribution = "hbaseload.key.distribution",
  rows = "hbaseload.rows",
  rate_per_thread = "hbaseload.rate.per.thread",
  client_buffering = "hbaseload.client.buffering",
  durability = "hbaseload.durability",
  families = "hbaseload.families",
  columns = "hbaseload.columns",
  scan_length = "hbaseload.scan.length",
  batch_size = "hbaseload.batch.size",
  verify = "hbaseload.verify",
  # a table recreated empty for the run (hbaseload.prepare.mode=fresh: PE's writes on a new table) is not the loaded one
  prepare_mode = "hbaseload.prepare.mode",
  # a table pre-split into other regions is another setup (hosei's 30 regions against one)
  regions = "hbaseload.regions",
  # The live region servers finalise asked HBase for (manifest cluster.region_servers); this
  # property only for manifests that lack it (written by hand for a cluster HBase could not describe).
  region_servers = "hbaseload.region.servers"
)

# Dimensions that may differ between two runs for a delta still to compare like with like:
# everything else must be equal. An operations mix never: a put is not a slower get.
COMPARABLE_DIFFERENCES <- c("threads", "target", "endpoint", "value_size", "rate_per_thread", "client_buffering",
                            "durability", "key_distribution", "region_servers")

# One property of a named list of them (a manifest's properties, a sweep point's) as one string;
# NA when it is not set.
property_value <- function(props, key) {
  value <- props[[key]]
  if (is.null(value) || length(value) == 0) NA_character_ else as.character(value[[1]])
}

# One run's workload: a one-row data.table of strings (NA = not recorded).
workload_of <- function(manifest, threads = NA) {
  props <- if (is.list(manifest$properties)) manifest$properties else list()
  prop <- function(key) property_value(props, key)
  values <- lapply(names(WORKLOAD_DIMENSIONS), function(name) {
    key <- WORKLOAD_DIMENSIONS[[name]]
    if (!is.na(key)) prop(key) else NA_character_
  })
  names(values) <- names(WORKLOAD_DIMENSIONS)
  target <- as.character(manifest$target %if_absent% values$target)
  values$target <- if (length(target) == 0) NA_character_ else target
  recorded_servers <- manifest$cluster$region_servers
  if (is.numeric(recorded_servers) && length(recorded_servers) == 1) values$region_servers <- as.character(recorded_servers)
  values$threads <- if (is.na(threads)) NA_character_ else as.character(threads)
  values$endpoint <- if (identical(values$target, "thrift")) {
    paste0(prop("hbaseload.thrift.host") %if_absent% "?", ":", prop("hbaseload.thrift.port") %if_absent% "?", " ",
           prop("hbaseload.thrift.transport") %if_absent% "?", "/", prop("hbaseload.thrift.protocol") %if_absent% "?")
  } else if (is.na(values$target)) NA_character_ else ""
  data.table::as.data.table(values)
}

# Dimensions in which two workloads (one-row tables) differ; NA on one side only counts as a difference.
# A different target implies a different endpoint: that counts once, as target.
workload_differences <- function(a, b) {
  dims <- names(WORKLOAD_DIMENSIONS)
  differs <- dims[vapply(dims, function(d) !identical(a[[d]], b[[d]]), NA)]
  if ("target" %in% differs) differs <- setdiff(differs, "endpoint")
  differs
}

# TRUE when a delta of b against a compares like with like: at most one dimension differs,
# and it is one of COMPARABLE_DIFFERENCES.
comparable_workloads <- function(a, b, dims = workload_differences(a, b)) {
  length(dims) == 0 || (length(dims) == 1 && dims %in% COMPARABLE_DIFFERENCES)
}

# "threads 8 -> 16; target direct -> thrift" for the dimensions that differ.
describe_differences <- function(a, b, dims = workload_differences(a, b)) {
  if (length(dims) == 0) return("same workload")
  shown <- function(x) if (is.na(x)) "not recorded" else if (!nzchar(x)) "none" else x
  paste(vapply(dims, function(d) sprintf("%s %s -> %s", gsub("_", " ", d), shown(a[[d]]), shown(b[[d]])), ""), collapse = "; ")
}

# The workload key (all dimensions) as one string, and the same without some dimensions
# (e.g. without target: what direct and thrift runs of one workload share).
workload_key <- function(workloads, without = character()) {
  dims <- setdiff(names(WORKLOAD_DIMENSIONS), without)
  do.call(paste, c(lapply(dims, function(d) data.table::fcoalesce(workloads[[d]], "?")), sep = "|"))
}

# "get:100" -> "get"; mixes stay as written.
short_operations <- function(operations) {
  ifelse(is.na(operations), "operations not recorded", sub("^([a-z-]+):100$", "\\1", operations))
}

# Labels for runs: id, target, operations, threads, and any other dimension that varies among them.
run_labels <- function(run_ids, workloads) {
  target <- ifelse(is.na(workloads$target), "target not recorded", workloads$target)
  # name the thrift endpoint only when runs went to different ones (HBase's gateway and the shim)
  endpoints <- workloads$endpoint[!is.na(workloads$endpoint) & nzchar(workloads$endpoint)]
  target <- ifelse(!is.na(workloads$endpoint) & nzchar(workloads$endpoint) & data.table::uniqueN(endpoints) > 1,
                   paste0(target, " ", sub(" .*", "", workloads$endpoint)), target)
  threads <- ifelse(is.na(workloads$threads), "threads not recorded", paste(workloads$threads, "threads"))
  base <- sprintf("%s: %s, %s, %s", run_ids, target, short_operations(workloads$operations), threads)
  others <- setdiff(names(WORKLOAD_DIMENSIONS), c("operations", "threads", "target", "endpoint"))
  varying <- others[vapply(others, function(d) data.table::uniqueN(workloads[[d]]) > 1, NA)]
  for (d in varying) base <- paste0(base, ", ", gsub("_", " ", d), " ", data.table::fcoalesce(workloads[[d]], "?"))
  base
}
