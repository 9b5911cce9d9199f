#!/usr/bin/env bash
# A/B: bench peers 1 round each, 2fd45bb (base) vs HEAD (head), alternating order, 3 rounds
for r in 1 2 3; do
  if ((r % 2)); then order="base head"; else order="head base"; fi
  for t in $order; do
    echo "=== round $r $t $(date +%T)"
    (cd "/tmp/ab-$t" && timeout 900 ./suite bench peers --rounds 1 --threads 8 --ops get,put) > "/tmp/ab-$r-$t.log" 2>&1
    echo "rc=$? $(date +%T)"; grep -E 'ratio|get|put' "/tmp/ab-$r-$t.log" | tail -6
  done
done
echo DONE
