# shellcheck shell=bash
# End-to-end test of a published study's scenario (scenarios/*.properties with its figures in
# scenarios/reference/) at --scale tiny on the embedded HBase, then each sweep report's study
# table. Sourced by libexec/suite-test after runs.sh (uses rt_logged, RT_SUITE)
# while the private HBase is up. Entry point: run_study_tests.

# The sweep folder a ./suite sweep printed ("sweep-N: /path").
st_sweep_dir() {
  sed -n 's/^.*\(sweep-[0-9]*\): \(\/.*\)$/\2/p' <<< "$RT_OUT" | head -1
}

# The sweep's own report (./suite sweep writes it at its end): RT_RC 0 when it is there, else the
# report is made here, so that a study's table is checked whichever wrote it.
st_sweep_report() {
  local name=$1 dir=$2
  if [[ -s $dir/report/report.json && -s $dir/report/index.html ]]; then
    RT_RC=0
    return
  fi
  rt_logged "$name" 240 Rscript "$SUITE_ROOT/r-analysis/report.R" --quiet "$dir"
}

t_study_gbif_tiny() {
  rt_logged study-gbif 420 "$RT_SUITE" sweep gbif-2012-scan --scale tiny
  local sweep_dir took=$RT_SECONDS
  sweep_dir=$(st_sweep_dir)
  if ((RT_RC != 0)) || [[ ! -f $sweep_dir/sweep.json ]]; then
    fail "study gbif-2012-scan --scale tiny: rc $RT_RC: $(tail -3 <<< "$RT_OUT")"
    return
  fi
  st_sweep_report study-gbif-report "$sweep_dir"
  local checked
  # The published column must be the project's own copy; ours: one row per scanner count of the
  # tiny scale (1, 2, 4 threads), records counted from the data log's Rows column (a 2000-row
  # table scanned 1000 rows at a time from uniform starts returns about 750 rows a scan, never 1000 on average).
  if checked=$(python3 - "$sweep_dir/report/report.json" "$SUITE_ROOT/scenarios/reference/gbif-2012-scan.csv" << 'PY'
import csv, json, sys
study = json.load(open(sys.argv[1]))["study"]
published = [float(r["records_s"]) for r in csv.DictReader(l for l in open(sys.argv[2]) if not l.startswith("#"))]
rows = study["rows"]
ref = [r for r in rows if r["reference"]]
ours = [r for r in rows if not r["reference"]]
assert study["scenario"] == "gbif-2012-scan" and study["scale"] == "tiny", study["scale"]
assert [r["records_s"] for r in ref] == published, (ref, published)
assert all(r["source"].startswith("published 2012, 6 x Dell R720XD") for r in ref), ref
assert [r["scanners"] for r in ours] == [1, 2, 4], ours
assert all(r["records_counted"] for r in ours), ours
per_scan = [r["records_s"] / r["scans_s"] for r in ours]
assert all(400 < p < 1000 for p in per_scan), per_scan   # counted: below scan.length
assert all(abs(r["mb_s"] - r["records_s"] * 200 / 1e6) < 1e-6 for r in ours), ours
print("records/s %s (rows a scan: %s) beside the published %s" % (
    ", ".join("%.0f" % r["records_s"] for r in ours), ", ".join("%.0f" % p for p in per_scan), ", ".join("%.0f" % p for p in published)))
PY
  ) && ((RT_RC == 0)) && grep -q 'The study: gbif-2012-scan (scale tiny)' "$sweep_dir/report/index.html"; then
    pass "study gbif-2012-scan at tiny scale (${took}s): $checked"
  else
    fail "study gbif-2012-scan at tiny scale: report rc $RT_RC: ${checked:-} $(tail -3 <<< "$RT_OUT")"
  fi
}

# hbase-0.20-pe at tiny scale: 7 fixed-work runs (2000 rows over 4 threads: 500 requests a thread,
# 5 scans of 100 rows), two of them on a table prepare.mode=fresh recreates empty; the table puts
# each beside the published row of its experiment.
t_study_pe_tiny() {
  rt_logged study-pe 420 "$RT_SUITE" sweep hbase-0.20-pe --scale tiny
  local sweep_dir took=$RT_SECONDS
  sweep_dir=$(st_sweep_dir)
  if ((RT_RC != 0)) || [[ ! -f $sweep_dir/sweep.json ]]; then
    fail "study hbase-0.20-pe --scale tiny: rc $RT_RC: $(tail -3 <<< "$RT_OUT")"
    return
  fi
  local fresh_made
  fresh_made=$(grep -c 'prepared table pe2009_new_tiny: 1 region(s), empty (prepare.mode=fresh)' <<< "$RT_OUT")
  st_sweep_report study-pe-report "$sweep_dir"
  local checked
  if checked=$(python3 - "$sweep_dir/report/report.json" "$SUITE_ROOT/scenarios/reference/hbase-0.20-pe.csv" << 'PY'
import csv, json, sys
study = json.load(open(sys.argv[1]))["study"]
published = [r for r in csv.DictReader(l for l in open(sys.argv[2]) if not l.startswith("#"))
             if r["report"] == "autoflush=false wal=true"]
rows = study["rows"]
ref = [r for r in rows if r["reference"]]
ours = [r for r in rows if not r["reference"]]
assert study["scenario"] == "hbase-0.20-pe" and study["scale"] == "tiny", study["scale"]
assert [(r["experiment"], r["rows_s"], r["bigtable_rows_s"]) for r in ref] == \
    [(p["experiment"], float(p["rows_s"]), float(p["bigtable_rows_s"])) for p in published], ref
assert [r["experiment"] for r in ours] == [p["experiment"] for p in published], ours
assert all(r["work"] == "complete" and r["rows"] == 2000 for r in ours), ours   # every row once, scans counted
assert all(abs(r["rows_s"] * r["elapsed_s"] - r["rows"]) < 1e-6 * r["rows"] for r in ours), ours
assert all(abs(r["mb_s"] - r["rows_s"] * 1010 / 1e6) < 1e-9 * r["mb_s"] + 1e-9 for r in ours), ours
print("rows/s %s beside the published %s" % (", ".join("%.0f" % r["rows_s"] for r in ours), ", ".join(p["rows_s"] for p in published)))
PY
  ) && ((RT_RC == 0)) && ((fresh_made == 2)) && grep -q 'The study: hbase-0.20-pe (scale tiny)' "$sweep_dir/report/index.html"; then
    pass "study hbase-0.20-pe at tiny scale (${took}s): $checked"
  else
    fail "study hbase-0.20-pe at tiny scale: report rc $RT_RC, fresh tables made $fresh_made (want 2): ${checked:-} $(tail -3 <<< "$RT_OUT")"
  fi
}

# adobe-2010-grinder at tiny scale: 4 threads (sweep.tiny.threads) x direct and thrift (through the
# shim, started here and stopped after) x get, put, 70/30 mix: 6 runs; every row of ours beside the published rows.
t_study_adobe_tiny() {
  if ! "$RT_SUITE" shim start > "$TEST_LOGS/study-adobe-shim.log" 2>&1; then
    fail "study adobe-2010-grinder: the shim did not start: $(tail -1 "$TEST_LOGS/study-adobe-shim.log")"
    return
  fi
  rt_logged study-adobe 600 "$RT_SUITE" sweep adobe-2010-grinder --scale tiny
  local sweep_dir took=$RT_SECONDS sweep_rc=$RT_RC
  "$RT_SUITE" shim stop >> "$TEST_LOGS/study-adobe-shim.log" 2>&1
  sweep_dir=$(st_sweep_dir)
  if ((sweep_rc != 0)) || [[ ! -f $sweep_dir/sweep.json ]]; then
    fail "study adobe-2010-grinder --scale tiny: rc $sweep_rc: $(tail -3 <<< "$RT_OUT")"
    return
  fi
  st_sweep_report study-adobe-report "$sweep_dir"
  local checked
  if checked=$(python3 - "$sweep_dir/report/report.json" "$SUITE_ROOT/scenarios/reference/adobe-2010-grinder.csv" << 'PY'
import csv, json, sys
study = json.load(open(sys.argv[1]))["study"]
published = list(csv.DictReader(l for l in open(sys.argv[2]) if not l.startswith("#")))
rows = study["rows"]
ref = [r for r in rows if r["reference"]]
ours = [r for r in rows if not r["reference"]]
assert study["scenario"] == "adobe-2010-grinder" and study["scale"] == "tiny", study["scale"]
key = lambda r: (r["type"], int(r["threads"]))
assert sorted((key(r), r["mean_ms"], r["throughput_rps"]) for r in ref) == \
    sorted((key(p), float(p["mean_ms"]), float(p["throughput_rps"])) for p in published), ref
assert sorted((r["type"], r["threads"], r["source"].split(" ")[1]) for r in ours) == \
    sorted((t, 4, target) for t in ("get", "put", "get/put") for target in ("direct", "thrift")), ours
assert all(r["requests"] > 0 and r["throughput_rps"] > 0 and r["mean_ms"] > 0 for r in ours), ours
print("%d rows of ours, throughput %.0f-%.0f req/s, beside the %d published" % (
    len(ours), min(r["throughput_rps"] for r in ours), max(r["throughput_rps"] for r in ours), len(ref)))
PY
  ) && ((RT_RC == 0)) && grep -q 'The study: adobe-2010-grinder (scale tiny)' "$sweep_dir/report/index.html"; then
    pass "study adobe-2010-grinder at tiny scale (${took}s): $checked"
  else
    fail "study adobe-2010-grinder at tiny scale: report rc $RT_RC: ${checked:-} $(tail -3 <<< "$RT_OUT")"
  fi
}

# hosei-2014-write-tuning at tiny scale: four client variants and the server variants merged into
# one restart of the private HBase, then its report. The sweep must leave that HBase running with its
# normal configuration (the tests after this one use it): checked from the region server's /conf.
t_study_hosei_tiny() {
  # A run 'degraded' by seconds in which every thread waited on its buffer's flush (buffered puts on
  # a busy machine) is a result of the study, not a failure; any other status is. The sweep then
  # exits 1 and names the degraded runs (libexec/suite-sweep): that exit is accepted, no other.
  rt_logged study-hosei 420 "$RT_SUITE" sweep hosei-2014-write-tuning --scale tiny
  local sweep_dir took=$RT_SECONDS statuses
  sweep_dir=$(st_sweep_dir)
  statuses=$(jq -r '[.plan[].status] | join(" ")' "$sweep_dir/sweep.json" 2> /dev/null)
  if ! { ((RT_RC == 0)) || { ((RT_RC == 1)) && grep -q 'runs degraded (each ran to its end' <<< "$RT_OUT"; }; } \
      || [[ ! -f $sweep_dir/sweep.json ]] || ! grep -qxE '((complete|degraded) ?){5}' <<< "$statuses"; then
    fail "study hosei-2014-write-tuning --scale tiny: rc $RT_RC, runs: ${statuses:-none}: $(tail -3 <<< "$RT_OUT")"
    return
  fi
  st_sweep_report study-hosei-report "$sweep_dir"
  local checked
  # Published rows: the project's CSV as is. Ours: the tiny variants, each a measured fixed-work time
  # of 2000 rows, with what the region server reported; the merged server variant's run reports the
  # overrides, the others HBase 2.6.1's own handler count (30). Afterwards the server reports 30 again.
  if checked=$(python3 - "$sweep_dir/report/report.json" "$SUITE_ROOT/scenarios/reference/hosei-2014-write-tuning.csv" \
      "http://127.0.0.1:$PORT_REGIONSERVER_INFO/conf?format=json" << 'PY'
import csv, json, sys, urllib.request
study = json.load(open(sys.argv[1]))["study"]
published = list(csv.DictReader(l for l in open(sys.argv[2]) if not l.startswith("#")))
rows = study["rows"]
ref = [r for r in rows if r["reference"]]
ours = {r["variant"]: r for r in rows if not r["reference"]}
assert study["scenario"] == "hosei-2014-write-tuning" and study["scale"] == "tiny", study["scale"]
assert [(r["variant"], r["rs1_s"], r["rs3_s"], r["rs5_s"]) for r in ref] == \
    [(p["variant"], float(p["rs1_s"]), float(p["rs3_s"]), float(p["rs5_s"])) for p in published], ref
merged = "handler count 500 + compaction threads 2 + memstore flush size 64 MB"
assert sorted(ours) == sorted(["default (autoflush on)", "autoflush off + write buffer 2 MB (default)", "WAL off",
                               "2 regions pre-created", merged]), sorted(ours)   # tiny: at most 2 regions
for r in ours.values():
    assert r["rows"] == 2000 and r["time_kind"].startswith("measured"), r
    assert abs(r["rows_s"] * r["time_s"] - 2000) < 1e-6 * 2000, r
assert all(r["time_kind"] == "measured" for r in ours.values()), ours   # a buffered run's time includes its last flush
assert ours[merged]["server"] == "handler.count=500, thread.compaction.small=2, thread.compaction.large=2, memstore.flush.size=67108864", ours[merged]
assert ours["WAL off"]["server"].startswith("handler.count=30, thread.compaction.small=(built-in default)"), ours["WAL off"]
now = {p["key"]: p["value"] for p in json.load(urllib.request.urlopen(sys.argv[3], timeout=10))["properties"]}
assert now.get("hbase.regionserver.handler.count") == "30" and "hbase.regionserver.thread.compaction.small" not in now, now.get("hbase.regionserver.handler.count")
print("seconds for 2000 rows: %s; server restored (handler.count %s)" % (
    ", ".join("%s %.1f" % (v.split(" (")[0].split(" + ")[0], r["time_s"]) for v, r in ours.items()), now["hbase.regionserver.handler.count"]))
PY
  ) && ((RT_RC == 0)) && grep -q 'The study: hosei-2014-write-tuning (scale tiny)' "$sweep_dir/report/index.html" \
      && "$RT_SUITE" hbase status > /dev/null; then
    pass "study hosei-2014-write-tuning at tiny scale (${took}s, restarts included): $checked"
  else
    fail "study hosei-2014-write-tuning at tiny scale: report rc $RT_RC: ${checked:-} $(tail -3 <<< "$RT_OUT")"
  fi
}

# dana-schema-stress at tiny scale: one point per dimension (4 runs); its table must hold every
# published figure from the project's CSV and, for each of the four tests that ran, our figures
# (setup s from the sweep's prepare record of the family table; a wide row's writes in columns).
t_study_dana_tiny() {
  rt_logged study-dana 420 "$RT_SUITE" sweep dana-schema-stress --scale tiny
  local sweep_dir took=$RT_SECONDS
  sweep_dir=$(st_sweep_dir)
  if ((RT_RC != 0)) || [[ ! -f $sweep_dir/sweep.json ]]; then
    fail "study dana-schema-stress --scale tiny: rc $RT_RC: $(tail -3 <<< "$RT_OUT")"
    return
  fi
  st_sweep_report study-dana-report "$sweep_dir"
  local checked
  if checked=$(python3 - "$sweep_dir/report/report.json" "$SUITE_ROOT/scenarios/reference/dana-schema-stress.csv" "$sweep_dir" << 'PY'
import csv, glob, json, sys
study = json.load(open(sys.argv[1]))["study"]
published = list(csv.DictReader(l for l in open(sys.argv[2]) if not l.startswith("#")))
rows = {(r["test"], r["parameter"]): r for r in study["rows"]}
assert study["scenario"] == "dana-schema-stress" and study["scale"] == "tiny", study["scale"]
for p in published:   # every published figure, as the CSV has it, in its region servers' columns
    row = rows[(p["test"], float(p["parameter"]))]
    for col in ("setup_s", "writes_s", "reads_s"):
        assert row["rs%s_%s" % (p["rs"], col)] == p[col], (p, row)
ours = {k: r for k, r in rows.items() if r.get("runs")}
assert sorted(t for t, _ in ours) == ["column families", "columns in one row", "interspersed reads after writes",
                                      "key order reverse"], sorted(ours)
families = ours[("column families", 10)]
records = [json.load(open(f)) for f in glob.glob(sys.argv[3] + "/prepare-*.json")]
created = [r["create_s"] for r in records if r["table"] == "dana_cf10_tiny" and r["outcome"] == "created"]
assert len(created) == 1 and abs(families["ours_setup_s"] - created[0]) < 1e-9, (families, records)
assert families["ours_writes_s"] > 0 and families["ours_reads_s"] > 0, families
wide = ours[("columns in one row", 2000)]
assert wide["ours_writes_s"] > 0 and wide["ours_reads_s"] > 0, wide
assert ours[("key order reverse", 2000)]["ours_writes_s"] > 0 and ours[("key order reverse", 2000)].get("ours_reads_s") is None
assert ours[("interspersed reads after writes", 2000)]["ours_reads_s"] > 0
assert all(r.get("ours_outcome") is None for r in ours.values()), ours
print("setup %.2f s, families writes/reads %.0f/%.0f/s, wide row %.0f columns/s and %.0f reads/s, reverse %.0f writes/s, interspersed %.0f reads/s" % (
    families["ours_setup_s"], families["ours_writes_s"], families["ours_reads_s"], wide["ours_writes_s"], wide["ours_reads_s"],
    ours[("key order reverse", 2000)]["ours_writes_s"], ours[("interspersed reads after writes", 2000)]["ours_reads_s"]))
PY
  ) && ((RT_RC == 0)) && grep -q 'The study: dana-schema-stress (scale tiny)' "$sweep_dir/report/index.html"; then
    pass "study dana-schema-stress at tiny scale (${took}s): $checked"
  else
    fail "study dana-schema-stress at tiny scale: report rc $RT_RC: ${checked:-} $(tail -3 <<< "$RT_OUT")"
  fi
}

run_study_tests() {
  t_study_gbif_tiny
  t_study_pe_tiny
  t_study_adobe_tiny
  t_study_hosei_tiny
  t_study_dana_tiny
}
