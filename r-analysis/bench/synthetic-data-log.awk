# synthetic-data-log.awk - one deterministic Grinder 3.11 data log (one worker process).
# Variables (-v): threads, requests (in this file), seed, t0_ms (first start, ms since epoch),
#   stall_at_s / stall_s: every thread stalls stall_s seconds at stall_at_s (a blackout), 0 = none;
#   pacing=1 adds a "Lag (us)" column (a paced run); scale multiplies every witness (a slower target).
# Threads run round-robin; each request starts when the thread's previous one ended plus a
# small gap; Grinder's Test time is the difference of whole-ms clock readings, like Grinder's.
BEGIN {
  srand(seed)
  if (scale == "") scale = 1
  print "Thread, Run, Test, Start time (ms since Epoch), Test time, Errors, Witness (us)" (pacing ? ", Lag (us)" : "")
  for (th = 0; th < threads; th++) { next_us[th] = th * 37; runs[th] = 0; stalled[th] = 0 }
  stall_at_us = stall_at_s * 1e6; stall_us = stall_s * 1e6
  for (i = 0; i < requests; i++) {
    th = i % threads
    start_us = next_us[th]
    if (rand() < 0.7) { test = 1; witness = 400 - 3000 * log(1 - rand()) }
    else              { test = 2; witness = 800 - 6000 * log(1 - rand()) }
    if (rand() < 0.002) witness += -40000 * log(1 - rand())
    witness *= scale
    if (stall_us > 0 && !stalled[th] && start_us + witness >= stall_at_us) {
      witness += stall_at_us + stall_us - start_us; stalled[th] = 1
    }
    witness = int(witness)
    overhead = 20 + 20 * rand()
    start_ms = int(start_us / 1000)
    time_ms = int((start_us + witness + overhead) / 1000) - start_ms
    errors = (rand() < 0.0005) ? 1 : 0
    if (pacing) printf "%d, %d, %d, %.0f, %d, %d, %d, %d\n", th, runs[th]++, test, t0_ms + start_ms, time_ms, errors, witness, int(-150 * log(1 - rand()))
    else printf "%d, %d, %d, %.0f, %d, %d, %d\n", th, runs[th]++, test, t0_ms + start_ms, time_ms, errors, witness
    next_us[th] = start_us + witness + overhead + 5 + 10 * rand()
  }
}
