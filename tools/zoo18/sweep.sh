#!/bin/bash
# Run models under real 1.8.5 (ref, and ref with a one-ulp nudge) and ours, one at a time (shared 2-core box).
# usage: tools/zoo18/sweep.sh MODEL...   (env: ROOT=/tmp/zoo18 OUT=/tmp/zoo18/out NUDGE=1 SIDES="ref ours" BATCH=2)
# NUDGE_SEEDS="1 2 3": also 1.8.5 with each parameter element nudged one ulp up or down at random, per seed
# (1.8.5's own spread: compare.py --spread).
# EXTRA: a folder with the pure-Python packages model code imports besides paddle (six.py, linked from 1.8.5's venv).
WT=$(cd "$(dirname "$0")/../.." && pwd)
ROOT=${ROOT:-/tmp/zoo18}; OUT=${OUT:-/tmp/zoo18/out}; SIDES=${SIDES:-"ref ours"}; B="--batch ${BATCH:-2}"
mkdir -p "$OUT"
for m in "$@"; do
  for side in $SIDES; do
    if [ "$side" = ref ]; then
      (cd /tmp && OMP_NUM_THREADS=1 timeout 900 /work/oracle/p18/bin/python "$WT/tools/zoo18/run.py" --side ref $B --model "$m" --root "$ROOT" --out "$OUT" 2>/dev/null | tail -1)
      ns=""; [ -n "$NUDGE" ] && ns="--nudge --nudge-down"
      for s in $NUDGE_SEEDS; do ns="$ns --nudge-seed=$s"; done
      if [ -n "$ns" ]; then
        for n in $ns; do
          (cd /tmp && OMP_NUM_THREADS=1 timeout 900 /work/oracle/p18/bin/python "$WT/tools/zoo18/run.py" --side ref $n $B --model "$m" --root "$ROOT" --out "$OUT" 2>/dev/null | tail -1)
        done
      fi
    else
      (cd /tmp && PYTHONPATH="$WT:$WT/shims:${EXTRA:-/tmp/zoo18/extra}" OMP_NUM_THREADS=1 timeout 900 /work/main/.venv/bin/python "$WT/tools/zoo18/run.py" --side ours $B --model "$m" --root "$ROOT" --out "$OUT" 2>/dev/null | tail -1)
    fi
  done
done
