#!/usr/bin/env bash
# Re-record every golden under tests/goldens/ from REAL Paddle (CPU only).
# Needs the two oracle venvs (see /work/shared/ORACLE.md):
#   P18=/work/oracle/p18  python3.8  + paddlepaddle==1.8.5 "numpy<1.20" "protobuf<=3.20.3"
#   P26=/work/oracle/p26  python3.11 + paddlepaddle==2.6.2 (+ opencv-python-headless)
# Override with P18=... P26=... ./tools/oracle/record_all.sh [case ...]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
P18="${P18:-/work/oracle/p18}"
P26="${P26:-/work/oracle/p26}"
# case-name  venv  script
CASES=(
  "fit_a_line_fluid18    $P18 rec_fit_a_line_fluid18.py"
  "fit_a_line_static26   $P26 rec_fit_a_line_static26.py"
  "mlp_adam_static26     $P26 rec_mlp_adam_static26.py"
  "mlp_adam_fluid18      $P18 rec_mlp_adam_fluid18.py"
  "dp_fluid18            $P18 rec_dp_fluid18.py"
  "dygraph_convbn26      $P26 rec_dygraph_convbn26.py"
  "static_convbn_infer26 $P26 rec_static_convbn_infer26.py"
  "ops26_functional      $P26 rec_ops26_functional.py"
)
want=("$@")
cd /tmp  # never run from the repo root: keeps our shims/ and paddle_compat off the venvs' sys.path
for line in "${CASES[@]}"; do
  read -r name venv script <<<"$line"
  if [ ${#want[@]} -gt 0 ] && [[ ! " ${want[*]} " == *" $name "* ]]; then continue; fi
  echo "== $name ($venv)"
  env -u PYTHONPATH PYTHONDONTWRITEBYTECODE=1 GLOG_minloglevel=2 "$venv/bin/python" -s "$HERE/$script" 2>&1 \
    | grep -v -E '^(W|I)[0-9]{4} |UserWarning|warnings.warn' || true
  test -f "$HERE/../../tests/goldens/$name.npz" || { echo "FAILED: $name"; exit 1; }
done
