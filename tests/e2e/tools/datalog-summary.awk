# Summarise Grinder 3.11 data logs (*-data.log) per test: requests, errors, mean Grinder time
# (ms) and mean witness (us). Columns are found by header name, so extra columns are fine.
# Output, one line per test then a total:  test <n> <requests> <errors> <mean_ms> <witness_mean_us>
# The e2e tests' independent oracle (tests/e2e/stack.sh summarise_data_logs); the suite's own
# readers are lifecycle's DataLogs (counts) and r-analysis (statistics).
BEGIN { FS = ", *" }
FNR == 1 {
  delete col
  for (i = 1; i <= NF; i++) col[$i] = i
  ok = ("Test" in col) && ("Test time" in col) && ("Errors" in col)
  next
}
ok && NF >= col["Test time"] {
  t = $col["Test"]
  n[t]++; all++
  if ($col["Errors"] + 0 > 0) { e[t]++; errors++ }
  ms[t] += $col["Test time"]; total_ms += $col["Test time"]
  if ("Witness (us)" in col) { us[t] += $col["Witness (us)"]; total_us += $col["Witness (us)"] }
}
END {
  for (t in n) printf "test %s %d %d %.4f %.1f\n", t, n[t], e[t] + 0, ms[t] / n[t], us[t] / n[t]
  if (all) printf "total - %d %d %.4f %.1f\n", all, errors + 0, total_ms / all, total_us / all
}
