# The settings sweep.sh and draws.sh share (sourced by both): the worktree (run them from its root), where the
# results go, the two Pythons (real Paddle 2.6.2 and ours) and the site directory of the zoos' own packages.
W=$(pwd)
OUT=${ZOO26_OUT:-/tmp/zoo26/out}
REF=${ZOO26_REF:-/work/oracle/p26/bin/python}
OURS=${ZOO26_OURS:-/work/main/.venv/bin/python}
SITE=${ZOO26_SITE:-/tmp/zoo26/site}
export OMP_NUM_THREADS=1
