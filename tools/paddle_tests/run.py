"""Run Paddle's own fluid-era unit tests under real Paddle 1.8.5 and under paddle_compat, and compare per case.

Nothing of Paddle's tests is copied into this repository: the runner extracts
`python/paddle/fluid/tests/unittests` (the chosen test files and the helper modules they import:
parallel_executor_test_base.py, simple_nets.py, seresnext_net.py, ...) and `python/paddle/fluid/tests/book` at
COMMIT from the local mirror of PaddlePaddle/Paddle into a scratch directory outside the repository, writes the
datasets the tests read as generated files in Paddle's formats (datasets.py), and runs each test
file in its own process, once per side:

  p18   /work/oracle/p18/bin/python -s (real Paddle 1.8.5, Python 3.8), no PYTHONPATH of ours
  ours  this venv's Python with <repo>:<repo>/shims first on PYTHONPATH (OURS_REPO=<checkout> runs another one)

Both sides run driver.py (the same code): it points `paddle.dataset.common.DATA_HOME` at the generated files and
makes the md5 check accept them, then runs the file's unittest cases with a per-case timeout, on CPU only
(CUDA_VISIBLE_DEVICES empty: CUDA cases skip, or fail the same way on both sides), each side in a working
directory of its own (the tests write models and files relative to it).

    python tools/paddle_tests/run.py                          # every file, both sides (1.8.5 results cached)
    python tools/paddle_tests/run.py --side ours --files 'test_py_reader*'
    python tools/paddle_tests/run.py --report-only --markdown /tmp/fluidtests.md

The report: a per-file table of cases (passed under 1.8.5 / passed here), then every case that passes under
1.8.5 and not here with its first error line, split into the cases known.py lists as driving C++ internals that
no script touches (op_test.OpTest, fluid.op.Operator, protobuf op descs), and the rest. Not part of `make test`:
CI has neither Paddle nor the mirror.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import fnmatch
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))
from known import internals_reason  # noqa: E402

MIRROR = Path("/work/.mirror/chengduoZH+Paddle/repo")
COMMIT = "a9bc92c31422674eab2ce4b7ddc2282f9a727499"
TESTS = "python/paddle/fluid/tests"
P18 = Path(os.environ.get("P18", "/work/oracle/p18"))
OURS_PY = os.environ.get("OURS_PYTHON", sys.executable)
OURS_REPO = Path(os.environ.get("OURS_REPO", REPO))
DEFAULT_SCRATCH = Path(os.environ.get("FLUIDTESTS_SCRATCH", "/tmp/fluidtests_" + os.environ.get("USER", "u")))

# The files of issue 11 item 6, as globs under unittests/ and book/ (seresnext: the CPU ones).
UNITTESTS = (
    "test_parallel_executor_*.py",
    "test_fuse_*_pass.py",
    "test_ir_memory_optimize_*.py",
    "test_deprecated_memory_optimize_interfaces.py",
    "test_memory_reuse_exclude_feed_var.py",
    "test_buffer_shared_memory_reuse_pass*.py",
    "test_executor_*.py",
    "test_program*.py",
    "test_backward.py",
    "test_optimizer.py",
    "test_regularizer.py",
    "test_gradient_clip.py",
    "test_grad_clip_minimize.py",
    "test_inference_model_io.py",
    "test_py_reader_*.py",
    "test_decoupled_py_reader*.py",
    "test_generator_dataloader.py",
)
EXCLUDE = ("*_gpu.py",)
TEST_DEPS = ("six.py",)
BOOK = ("test_*.py",)


def extract(scratch: Path) -> Path:
    """Extract the unittests and book folders at COMMIT into scratch (once); return the tests folder."""
    root = scratch / "src"
    stamp = scratch / ".commit"
    if not (stamp.exists() and stamp.read_text().strip() == COMMIT and (root / TESTS).is_dir()):
        root.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "-C", str(MIRROR), "archive", COMMIT, f"{TESTS}/unittests", f"{TESTS}/book"],
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(root)], input=archive, check=True)
        stamp.write_text(COMMIT + "\n")
    return root / TESTS


def data_home(scratch: Path) -> Path:
    """The generated dataset folder (Paddle's DATA_HOME layout), written once by datasets.py with the 1.8.5
    venv's Python where there is one (its numpy 1.x pickles load under numpy 2 too, not the other way)."""
    home = scratch / "dataset"
    stamp = home / ".generated"
    if not stamp.exists():
        py = P18 / "bin" / "python"
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        cmd = [str(py), "-s"] if py.exists() else [sys.executable]
        subprocess.run(cmd + [str(HERE / "datasets.py"), str(home)], check=True, env=env)
        stamp.write_text(COMMIT + "\n")
    return home


def select_files(tests: Path, pattern: str) -> list:
    """[(group, path)] of the chosen files matching pattern, sorted."""
    files = set()
    for group, globs in (("unittests", UNITTESTS), ("book", BOOK)):
        for g in globs:
            for p in (tests / group).glob(g):
                if not any(fnmatch.fnmatch(p.name, x) for x in EXCLUDE) and fnmatch.fnmatch(p.name, pattern):
                    files.add((group, p))
    return sorted(files)


def test_deps(scratch: Path) -> Path:
    """A folder of links to what the tests import besides paddle and numpy and our venv lacks (six, which
    Paddle's wheel installs), taken from the 1.8.5 venv: last on our side's path."""
    site = scratch / "test_deps"
    site.mkdir(parents=True, exist_ok=True)
    for name in TEST_DEPS:
        src, dst = P18 / "lib" / "python3.8" / "site-packages" / name, site / name
        if src.exists() and not dst.exists():
            dst.symlink_to(src)
    return site


def side_command(side: str, scratch: Path) -> tuple[list, dict]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CPU_NUM")}
    env.update(PYTHONDONTWRITEBYTECODE="1", GLOG_minloglevel="2", CUDA_VISIBLE_DEVICES="", OMP_NUM_THREADS="1")
    if side == "p18":
        return [str(P18 / "bin" / "python"), "-s"], env
    env["PYTHONPATH"] = os.pathsep.join([str(OURS_REPO), str(OURS_REPO / "shims"), str(test_deps(scratch))])
    return [OURS_PY], env


def results_dir(scratch: Path, label: str, group: str) -> Path:
    return scratch / "results" / label / group


def run_file(side: str, label: str, scratch: Path, group: str, test: Path, case_timeout: int, timeout: int) -> dict:
    """Run one test file on one side; its record {"cases": {case: {outcome, message, seconds}}, ...}."""
    out = results_dir(scratch, label, group)
    out.mkdir(parents=True, exist_ok=True)
    rec_path, log = out / (test.stem + ".json"), out / (test.stem + ".log")
    rec_path.unlink(missing_ok=True)
    work = scratch / "work" / label / test.stem
    shutil.rmtree(work, ignore_errors=True)
    # each run reads its own copy of the datasets: readers write into DATA_HOME (wmt16's dictionaries)
    shutil.copytree(data_home(scratch), work / "dataset")
    cmd, env = side_command(side, scratch)
    cmd += [str(HERE / "driver.py"), str(test), str(rec_path), str(case_timeout), str(work / "dataset")]
    t0 = time.time()
    try:
        proc = subprocess.run(cmd, cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        rc, output = proc.returncode, proc.stdout
    except subprocess.TimeoutExpired as e:
        rc, output = "timeout", e.stdout or b""
    log.write_bytes(output)
    record = json.loads(rec_path.read_text()) if rec_path.exists() else {"cases": {}}
    if rc != 0 or not rec_path.exists():  # killed, crashed (a segfault), or ran past the per-file timeout
        record.setdefault("file_error", "timeout" if rc == "timeout" else f"exit status {rc}: " + last_line(output))
    record.update(rc=rc, seconds=round(time.time() - t0, 1))
    rec_path.write_text(json.dumps(record, indent=1, sort_keys=True))
    return record


def last_line(output: bytes) -> str:
    lines = [ln for ln in output.decode("utf-8", "replace").splitlines() if ln.strip()]
    return lines[-1].strip()[:300] if lines else ""


def load(scratch: Path, label: str, group: str, stem: str):
    p = results_dir(scratch, label, group) / (stem + ".json")
    return json.loads(p.read_text()) if p.exists() else None


def compare(scratch: Path, files: list, label: str) -> list:
    """One row per file: counts, and the cases passing under 1.8.5 and not here."""
    rows = []
    for group, test in files:
        p18, ours = load(scratch, "p18", group, test.stem), load(scratch, label, group, test.stem)
        if p18 is None or ours is None:
            continue
        names = list(dict.fromkeys(list(p18["cases"]) + list(ours["cases"])))
        row = {"file": f"{group}/{test.name}", "cases": len(names), "p18": 0, "ours": 0, "both": 0, "failures": []}
        for name in names:
            pc = p18["cases"].get(name, {"outcome": "missing", "message": p18.get("file_error", "")})
            oc = ours["cases"].get(name) or {"outcome": "missing", "message": ours.get("file_error", "not run")}
            p_ok, o_ok = pc["outcome"] == "passed", oc["outcome"] == "passed"
            row["p18"] += p_ok
            row["ours"] += o_ok
            row["both"] += p_ok and o_ok
            if p_ok and not o_ok:
                case = f"{row['file']}::{name}"
                row["failures"].append(
                    {"case": case, "outcome": oc["outcome"], "message": oc.get("message", ""),
                     "internals": internals_reason(case)}
                )
        rows.append(row)
    return rows


def markdown(rows: list) -> str:
    out = ["| file | cases | pass under 1.8.5 | pass here | of 1.8.5's passes, here |", "|---|---:|---:|---:|---:|"]
    tot = {"cases": 0, "p18": 0, "ours": 0, "both": 0}
    for r in rows:
        out.append(f"| {r['file']} | {r['cases']} | {r['p18']} | {r['ours']} | {r['both']} |")
        for k in tot:
            tot[k] += r[k]
    out.append(f"| all ({len(rows)} files) | {tot['cases']} | {tot['p18']} | {tot['ours']} | {tot['both']} |")
    fails = [f for r in rows for f in r["failures"]]
    internal = [f for f in fails if f["internals"]]
    other = [f for f in fails if not f["internals"]]
    out += ["", f"### Pass under 1.8.5, fail here: {len(other)}", ""]
    out += [f"- `{f['case']}` {f['outcome']}: {f['message'][:240]}" for f in other]
    out += ["", f"### Drive C++ internals no script touches (known.py): {len(internal)}", ""]
    out += [f"- `{f['case']}`: {f['internals']} ({f['outcome']}: {f['message'][:160]})" for f in internal]
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", default="*", help="glob on file names")
    ap.add_argument("--side", choices=("both", "ours", "p18"), default="both")
    ap.add_argument("--label", default="ours", help="results folder of our side (e.g. 'before')")
    ap.add_argument("--scratch", type=Path, default=DEFAULT_SCRATCH)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--case-timeout", type=int, default=300, help="seconds per case")
    ap.add_argument("--timeout", type=int, default=1200, help="seconds per file")
    ap.add_argument("--force-p18", action="store_true", help="rerun 1.8.5 even where cached")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--markdown", type=Path, help="write the table and failure lists here")
    ap.add_argument("--json", type=Path, help="write the per-file comparison here")
    args = ap.parse_args(argv)

    tests = extract(args.scratch)
    files = select_files(tests, args.files)
    todo = []
    if not args.report_only:
        data_home(args.scratch)
        for group, test in files:
            if args.side in ("both", "p18") and (args.force_p18 or load(args.scratch, "p18", group, test.stem) is None):
                todo.append(("p18", "p18", group, test))
            if args.side in ("both", "ours"):
                todo.append(("ours", args.label, group, test))
    with cf.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futs = {
            pool.submit(run_file, s, lb, args.scratch, g, t, args.case_timeout, args.timeout): (s, g, t)
            for s, lb, g, t in todo
        }
        for i, fut in enumerate(cf.as_completed(futs), 1):
            s, g, t = futs[fut]
            r = fut.result()
            ok = sum(c["outcome"] == "passed" for c in r["cases"].values())
            err = f"  {r['file_error']}" if r.get("file_error") else ""
            print(f"[{i}/{len(todo)}] {s:4} {g}/{t.name}: {ok}/{len(r['cases'])} passed ({r['seconds']}s){err}",
                  flush=True)
    rows = compare(args.scratch, files, args.label)
    text = markdown(rows)
    print(text)
    if args.markdown:
        args.markdown.write_text(text)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
