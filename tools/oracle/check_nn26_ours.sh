#!/bin/bash
# Recording-time proof that files written by paddle_compat's paddle.save load in real Paddle 2.6.2:
# writes them with our layer (repo python), loads them with the p26 venv, stores the report as a golden.
set -e
REPO=$(cd "$(dirname "$0")/../.." && pwd)
P26=${P26:-/work/oracle/p26/bin/python}
D=$(mktemp -d)
(cd "$REPO" && python -c "import sys; sys.path.insert(0, '.'); from tests.nn.saveload_cases import write_our_files; write_our_files('$D')")
(cd /tmp && env -u PYTHONPATH "$P26" "$REPO/tools/oracle/rec_nn26_saveload.py" --check "$D") > "$REPO/tests/goldens/nn26_saveload_ours_check.json"
rm -rf "$D"
echo wrote tests/goldens/nn26_saveload_ours_check.json
