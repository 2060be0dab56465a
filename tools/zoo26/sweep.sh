#!/bin/sh
# Every zoo and mode, real Paddle 2.6.2 first (it writes the jit models ours loads), then ours; then the table.
#   sh tools/zoo26/sweep.sh [zoo:mode ...]    (default: all; run from the worktree root)
. "$(dirname "$0")/_env.sh"  # W, OUT, REF, OURS, SITE
set -- ${@:-nlp:dygraph nlp:static nlp:jit seg:dygraph seg:static seg:jit det:dygraph det:static det:jit \
              clas:dygraph clas:jit clas:static}
for zm in "$@"; do
  zoo=${zm%%:*}; mode=${zm#*:}
  (cd /tmp && env -u PYTHONPATH "$REF" "$W/tools/zoo26/run.py" --zoo "$zoo" --mode "$mode" --dir "$OUT" --timeout 300)
  (cd /tmp && PYTHONPATH="$W:$W/shims:$SITE" "$OURS" "$W/tools/zoo26/run.py" --zoo "$zoo" --mode "$mode" \
       --dir "$OUT" --timeout 300)
done
"$OURS" "$W/tools/zoo26/compare.py" --dir "$OUT"
