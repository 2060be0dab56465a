#!/bin/sh
# For dygraph rows 2.6.2 cannot reproduce in float32: 7 more jitter draws of 2.6.2 (seeds 1..7; seed 27 is sweep's
# "refjitter") and the float64 run on both sides, which compare.py reads ("largest of N draws", "in float64 ours
# equals 2.6.2 to ..."). Add TRACE=1 for the per-layer dumps tools/zoo26/trace_diff.py reads (large: ~0.5 GB a run).
#   sh tools/zoo26/draws.sh ZOO MODEL [MODEL ...]    (run from the worktree root; ZOO26_OUT as in sweep.sh)
. "$(dirname "$0")/_env.sh"  # W, OUT, REF, OURS, SITE
ZOO=$1; shift
T=${TRACE:+--trace}
for m in "$@"; do
  for s in 27 1 2 3 4 5 6 7; do
    (cd /tmp && env -u PYTHONPATH "$REF" "$W/tools/zoo26/run.py" --zoo "$ZOO" --mode dygraph --model "$m" --dir "$OUT" \
         --jitter 1e-6 --jitter-seed $s $T 2>&1 | tail -1)
  done
  (cd /tmp && env -u PYTHONPATH "$REF" "$W/tools/zoo26/run.py" --zoo "$ZOO" --mode dygraph --model "$m" --dir "$OUT" \
       --float64 $T 2>&1 | tail -1)
  (cd /tmp && PYTHONPATH="$W:$W/shims:$SITE" "$OURS" "$W/tools/zoo26/run.py" --zoo "$ZOO" --mode dygraph --model "$m" \
       --dir "$OUT" --float64 $T 2>&1 | tail -1)
done
"$OURS" "$W/tools/zoo26/compare.py" --dir "$OUT" | grep -E "dygraph ($(echo "$@" | tr ' ' '|')):"
