"""Run PaddleTest's ``framework/api`` suites under real Paddle 2.6.2 and under paddle_compat.

PaddleTest (github.com/PaddlePaddle/PaddleTest) is Paddle's own API test suite. Nothing of it is copied into this
repository: the runner extracts ``framework/api`` and ``framework/utils`` (the helpers the tests import) from the
local mirror into a scratch directory (areas PaddleTest added later, ``LATER_AREAS``, from the commit that added
them), runs every ``test*.py`` file there with pytest -- once with the oracle
venv's Python (``env -u PYTHONPATH``, real Paddle on CPU), once with our venv and ``<repo>:<repo>/shims`` first on
``PYTHONPATH`` (``OURS_REPO=<checkout>`` runs another checkout, e.g. a snapshot of main) -- each file in its own process from its area directory with the environment of the area's
``run.sh`` (``FLAGS_*``), and compares per case (pytest's JUnit XML).

    python tools/paddletest/run.py                                   # every area, both sides
    python tools/paddletest/run.py --areas nn,loss --side ours        # rerun ours (2.6.2 results are cached)
    python tools/paddletest/run.py --areas nn --files 'test_pad*'    # a few files
    python tools/paddletest/run.py --report-only --markdown out.md   # tables from the cached results
    python tools/paddletest/run.py --side ours --api-level 2.6 --label l26   # our side at API level 2.6

The 2.6.2 results never change, so they are cached under ``<scratch>/results/p26`` and only rerun with
``--force-p26``. Our side is rerun on every call (for the selected files). The report prints, per area, the
number of files and cases, how many pass under 2.6.2 and here, and lists each case that passes under 2.6.2 and
fails here with its first error line (our results go to ``<scratch>/results/<--label>``), grouped by the classes of ``known.py`` ((c): exact samples of Paddle's random generator): (a) assertions of the 0-D shape
Paddle 2.5 introduced (paddle_compat follows 2.4 by default: full reductions give shape [1]; ``--api-level 2.6`` runs
our side at level 2.6, where these must pass) and (b) cases that expect an error because Paddle has no CPU kernel
for a dtype. ``--json`` writes the per-case comparison for other tools.

The oracle venv has no pytest: the runner puts a directory of links to our venv's pure-Python pytest packages
(pytest, _pytest, pluggy, iniconfig, packaging, pygments) on its path, and nothing else of ours.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import fnmatch
import importlib.util
import json
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))
from known import CLASSES, RANDOM_STREAM, ZERO_D, classify  # noqa: E402

MIRROR = Path("/work/.mirror/PaddlePaddle+PaddleTest/repo")
COMMIT = "04efcb4476999b56c6f2b069d7f895e1a2553347"
# areas added to PaddleTest after COMMIT, extracted from the commit that added them (saveload: paddle.save /
# jit.save / jit.load / paddle.inference round trips of small conv nets, PaddleTest #2963)
LATER_AREAS = {"saveload": "b0b7da1f87fb311e0bd9478951222921537578f5"}
P26 = Path(os.environ.get("P26", "/work/oracle/p26"))
OURS_PY = os.environ.get("OURS_PYTHON", sys.executable)
OURS_REPO = Path(os.environ.get("OURS_REPO", REPO))  # e.g. a snapshot of an older commit, to compare
OURS_RNG = ""  # set by --rng
OURS_LEVEL = ""  # set by --api-level
DEFAULT_SCRATCH = Path(os.environ.get("PADDLETEST_SCRATCH", "/tmp/paddletest_" + os.environ.get("USER", "u")))
PYTEST_PKGS = ("pytest", "_pytest", "pluggy", "iniconfig", "packaging", "pygments", "py")
ISSUE_AREAS = ("paddlebase", "nn", "loss", "optimizer", "linalg")
TEXT_KEPT = 12000  # characters of a failure's traceback kept (from its start: the first exception) for known.classify


def extract(scratch: Path) -> Path:
    """Extract framework/api and framework/utils at COMMIT into scratch (once); return framework/api."""
    api = scratch / "framework" / "api"
    stamp = scratch / ".commit"
    want = " ".join([COMMIT, *(f"{a}@{c}" for a, c in LATER_AREAS.items())])
    if stamp.exists() and stamp.read_text().strip() == want and api.is_dir():
        return api
    scratch.mkdir(parents=True, exist_ok=True)
    for commit, paths in [(COMMIT, ["framework/api", "framework/utils"]),
                          *((c, [f"framework/api/{a}"]) for a, c in LATER_AREAS.items())]:
        archive = subprocess.run(["git", "-C", str(MIRROR), "archive", commit, *paths], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(scratch)], input=archive, check=True)
    stamp.write_text(want + "\n")
    return api


def pytest_site(scratch: Path) -> Path:
    """A directory of links to our venv's pytest packages, for the oracle venv (which lacks pytest)."""
    site = scratch / "pytest_site"
    site.mkdir(parents=True, exist_ok=True)
    for name in PYTEST_PKGS:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            continue
        src = Path(spec.origin)
        src = src.parent if src.name == "__init__.py" else src
        dst = site / src.name
        if not dst.exists():
            dst.symlink_to(src)
    return site


def area_env(area_dir: Path) -> dict:
    """The `export NAME=VALUE` lines of the area's run.sh (FLAGS_set_to_1d, FLAGS_call_stack_level)."""
    env = {}
    run_sh = area_dir / "run.sh"
    if run_sh.exists():
        for m in re.finditer(r"^\s*export\s+(\w+)=(\S*)", run_sh.read_text(), re.M):
            env[m.group(1)] = m.group(2)
    return env


def side_command(side: str, scratch: Path) -> tuple[list, dict]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["GLOG_minloglevel"] = "2"
    env["CUDA_VISIBLE_DEVICES"] = ""  # PaddleTest runs on CPU here
    env.setdefault("OMP_NUM_THREADS", "1")  # tiny tensors; on a shared machine spinning thread pools only cost
    if side == "p26":
        env["PYTHONPATH"] = str(pytest_site(scratch))
        return [str(P26 / "bin" / "python"), "-s", "-m", "pytest"], env
    env["PYTHONPATH"] = os.pathsep.join([str(OURS_REPO), str(OURS_REPO / "shims")])
    if OURS_RNG:  # --rng: which random stream our side draws from (paddle_compat.use_paddle_rng)
        env["PADDLE_COMPAT_RNG"] = OURS_RNG
    if OURS_LEVEL:  # --api-level: the Paddle generation our side follows (engine/core/api_level.py)
        env["PADDLE_COMPAT_API_LEVEL"] = OURS_LEVEL
    return [OURS_PY, "-m", "pytest"], env


def run_file(side: str, label: str, scratch: Path, area: str, test: Path, timeout: int) -> dict:
    """Run one test file; return {case: {"outcome", "message"}} plus file-level info."""
    out_dir = scratch / "results" / label / area
    out_dir.mkdir(parents=True, exist_ok=True)
    xml = out_dir / (test.stem + ".xml")
    log = out_dir / (test.stem + ".log")
    for p in (xml, log):
        if p.exists():
            p.unlink()
    cmd, env = side_command(side, scratch)
    env.update(area_env(test.parent))
    cmd = cmd + ["-p", "no:cacheprovider", "-q", "--junitxml", str(xml), "-o", "log_cli=false", test.name]
    t0 = time.time()
    try:
        proc = subprocess.run(
            cmd, cwd=test.parent, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout
        )
        rc, output = proc.returncode, proc.stdout
    except subprocess.TimeoutExpired as e:
        rc, output = "timeout", e.stdout or b""
    log.write_bytes(output)
    result = {"rc": rc, "seconds": round(time.time() - t0, 1), "cases": parse_junit(xml) if xml.exists() else {}}
    if not result["cases"]:
        tail = [ln for ln in output.decode("utf-8", "replace").splitlines() if ln.strip()]
        result["file_error"] = "timeout" if rc == "timeout" else first_error(tail[-40:])
    (out_dir / (test.stem + ".json")).write_text(json.dumps(result, indent=1, sort_keys=True))
    return result


def run_batch(side: str, label: str, scratch: Path, area: str, tests: list, timeout: int) -> list:
    """Screening mode (--batch N): run several files of one area in one pytest process (one `import paddle`
    instead of N: on a loaded machine the import is most of a small file's time), then split the JUnit XML per
    file and store each file as run_file does. A batch that crashes or times out is rerun file by file; so is every
    file with a case that did not pass, passes under 2.6.2 and is in no class of known.py (state one file leaves,
    e.g. static mode, must not decide a failure that counts)."""
    out_dir = scratch / "results" / label / area
    out_dir.mkdir(parents=True, exist_ok=True)
    xml = out_dir / ("_batch_" + tests[0].stem + ".xml")
    if xml.exists():
        xml.unlink()
    cmd, env = side_command(side, scratch)
    env.update(area_env(tests[0].parent))
    cmd = cmd + ["-p", "no:cacheprovider", "-q", "--junitxml", str(xml), "-o", "log_cli=false",
                 "--continue-on-collection-errors"]
    cmd += [t.name for t in tests]
    t0 = time.time()
    try:
        proc = subprocess.run(cmd, cwd=tests[0].parent, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=timeout * len(tests))
        ok = proc.returncode in (0, 1) and xml.exists()
    except subprocess.TimeoutExpired:
        ok = False
    per_file = {}
    if ok:
        try:
            root = ET.parse(xml).getroot()
        except ET.ParseError:
            ok = False
    results = []
    if ok:
        for tc in root.iter("testcase"):
            per_file.setdefault(tc.get("classname", "").split(".")[0], []).append(tc)
        seconds = round((time.time() - t0) / len(tests), 1)
        for test in tests:
            suite = ET.Element("testsuite", name=test.stem)
            suite.extend(per_file.get(test.stem, []))
            fxml = out_dir / (test.stem + ".xml")
            tree = ET.ElementTree(ET.Element("testsuites"))
            tree.getroot().append(suite)
            tree.write(fxml, encoding="utf-8")
            cases = parse_junit(fxml)
            if not cases or any(_matters(scratch, side, area, test, n, c) for n, c in cases.items()):
                results.append((test, run_file(side, label, scratch, area, test, timeout)))
                continue
            (out_dir / (test.stem + ".log")).write_text(f"batch run ({len(tests)} files); every case passed, or "
                                                        "failed also under 2.6.2 or in a class of known.py\n")
            result = {"rc": 0, "seconds": seconds, "batch": len(tests), "cases": cases}
            (out_dir / (test.stem + ".json")).write_text(json.dumps(result, indent=1, sort_keys=True))
            results.append((test, result))
    else:
        results = [(test, run_file(side, label, scratch, area, test, timeout)) for test in tests]
    xml.unlink(missing_ok=True)
    return results


def _matters(scratch: Path, side: str, area: str, test: Path, name: str, case: dict) -> bool:
    """A case of a batch run that must be confirmed alone: it did not pass, and (our side) it passes under 2.6.2
    (or 2.6.2 has no result yet) and is in no class of known.py."""
    if case["outcome"] == "passed":
        return False
    if side == "p26":
        return True
    p26 = load_cached(scratch, "p26", area, test.stem)
    if p26 is not None and p26["cases"].get(name, {}).get("outcome") not in (None, "passed"):
        return False
    return case_class(f"{area}/{test.name}::{name}", case["message"], case.get("text", "")) is None


def case_class(case_id: str, message: str, text: str = ""):
    """known.py's class of a failing case; under --rng paddle class (c) is no excuse, and under --api-level 2.6 class
    (a) is none: those cases must pass then."""
    cls = classify(case_id, message, text)
    if (cls == RANDOM_STREAM and OURS_RNG == "paddle") or (cls == ZERO_D and OURS_LEVEL == "2.6"):
        return None
    return cls


def first_error(lines: list) -> str:
    """The exception line of a traceback (`E   TypeError: ...` or `TypeError: ...`), else the last line."""
    for ln in lines:
        s = ln.strip()
        if s.startswith("E "):
            return s[1:].strip()[:300]
    for ln in reversed(lines):
        if re.match(r"^\s*[\w.]*(Error|Exception|Interrupt)\b", ln):
            return ln.strip()[:300]
    return (lines[-1].strip() if lines else "")[:300]


def parse_junit(xml: Path) -> dict:
    """{case: {"outcome", "message" (the first error line), "text" (the traceback's end, for classification)}}."""
    cases = {}
    try:
        root = ET.parse(xml).getroot()
    except ET.ParseError:
        return cases
    for tc in root.iter("testcase"):
        name = tc.get("name")
        entry = {"outcome": "passed", "message": ""}
        for tag in ("failure", "error", "skipped"):
            el = tc.find(tag)
            if el is not None:
                entry["outcome"] = {"failure": "failed", "error": "error", "skipped": "skipped"}[tag]
                text = el.text or ""
                lines = text.splitlines()
                entry["message"] = first_error(lines) if lines else (el.get("message") or "").partition("\n")[0]
                entry["text"] = text[:TEXT_KEPT]
                break
        if entry["outcome"] == "error" and name in cases:  # teardown error after a result: keep the result
            continue
        cases[name] = entry
    return cases


def load_cached(scratch: Path, side: str, area: str, stem: str):
    """A file's results; the cases are parsed again from its JUnit XML (so the report follows this runner's
    parsing, also for results of older runs)."""
    base = scratch / "results" / side / area / stem
    p = base.with_suffix(".json")
    if not p.exists():
        return None
    result = json.loads(p.read_text())
    xml = base.with_suffix(".xml")
    if xml.exists():
        result["cases"] = parse_junit(xml)
    return result


def select_files(api: Path, areas: list, pattern: str, exclude: str = "") -> list:
    files = []
    for area in areas:
        for test in sorted((api / area).rglob("test*.py")):
            if any(fnmatch.fnmatch(test.name, p) for p in pattern.split(",")) and not any(
                    fnmatch.fnmatch(test.name, x) for x in exclude.split(",") if x):
                files.append((area, test))
    return files


def compare(scratch: Path, files: list, label: str, before: tuple = ()) -> dict:
    """Per area: counts and the list of cases passing under 2.6.2 and not here, with classification. With `before`
    (labels of an older run, e.g. of another checkout through OURS_REPO; for each file the first label that has it):
    how many of the file's cases passed there, and the list of cases that passed there and fail here."""
    report = {}
    for area, test in files:
        a = report.setdefault(
            area,
            {
                "files": 0,
                "cases": 0,
                "p26_passed": 0,
                "ours_passed": 0,
                "both_passed": 0,
                "ours_only": 0,
                "failures": [],
            },
        )
        p26 = load_cached(scratch, "p26", area, test.stem)
        ours = load_cached(scratch, label, area, test.stem)
        if p26 is None or ours is None:
            continue
        a["files"] += 1
        old = next((r for r in (load_cached(scratch, b, area, test.stem) for b in before) if r is not None), None)
        if before:
            for k in ("before_files", "before_cases", "before_passed", "passed_here_of_those"):
                a.setdefault(k, 0)
            a.setdefault("regressions", [])
        if old is not None:
            a["before_files"] += 1
            for name, oc in (old["cases"] or {"<file>": {"outcome": "failed"}}).items():
                now = ours["cases"].get(name, {"outcome": "missing", "message": ours.get("file_error", "")})
                a["before_cases"] += 1
                a["before_passed"] += oc["outcome"] == "passed"
                a["passed_here_of_those"] += oc["outcome"] == "passed" and now["outcome"] == "passed"
                if oc["outcome"] == "passed" and now["outcome"] != "passed":
                    a["regressions"].append({"case": f"{area}/{test.name}::{name}", "outcome": now["outcome"],
                                             "message": now.get("message", ""),
                                             "p26": p26["cases"].get(name, {}).get("outcome", "missing")})
        names = list(p26["cases"]) or list(ours["cases"])
        for name in names:
            a["cases"] += 1
            pc = p26["cases"].get(name, {"outcome": "missing"})
            oc = ours["cases"].get(name)
            if oc is None:
                oc = {"outcome": "missing", "message": ours.get("file_error", "case not collected")}
            p_ok, o_ok = pc["outcome"] == "passed", oc["outcome"] == "passed"
            a["p26_passed"] += p_ok
            a["ours_passed"] += o_ok
            a["both_passed"] += p_ok and o_ok
            a["ours_only"] += o_ok and not p_ok
            if p_ok and not o_ok:
                case_id = f"{area}/{test.name}::{name}"
                a["failures"].append(
                    {
                        "case": case_id,
                        "outcome": oc["outcome"],
                        "message": oc["message"],
                        "class": case_class(case_id, oc["message"], oc.get("text", "")),
                    }
                )
    return report


def markdown(report: dict) -> str:
    head = " | ".join(label.split(")")[0] + ")" for label in CLASSES.values())
    rows = [
        f"| area | files | cases | 2.6.2 passes | passes here | of 2.6.2's passes, here | {head} |",
        "|---|---:|---:|---:|---:|---:|" + "---:|" * len(CLASSES),
    ]
    keys = ("files", "cases", "p26_passed", "ours_passed", "both_passed")
    tot = dict.fromkeys((*keys, *CLASSES), 0)
    for area, a in report.items():
        per = {c: sum(f["class"] == c for f in a["failures"]) for c in CLASSES}
        rows.append(f"| {area} | " + " | ".join(str(a[k]) for k in keys) + " | "
                    + " | ".join(str(per[c]) for c in CLASSES) + " |")
        for k in keys:
            tot[k] += a[k]
        for c in CLASSES:
            tot[c] += per[c]
    rows.append("| all | " + " | ".join(str(tot[k]) for k in (*keys, *CLASSES)) + " |")
    out = ["\n".join(rows), ""]
    if any("before_files" in a for a in report.values()):
        rows = ["| area | files with a 'before' result | their cases | passed before | of those, pass here | "
                "passed before, fail here |", "|---|---:|---:|---:|---:|---:|"]
        for area, a in report.items():
            rows.append(f"| {area} | {a.get('before_files', 0)} | {a.get('before_cases', 0)} | "
                        f"{a.get('before_passed', 0)} | {a.get('passed_here_of_those', 0)} | "
                        f"{len(a.get('regressions', []))} |")
        out += ["\n".join(rows), ""]
        items = [f for a in report.values() for f in a.get("regressions", [])]
        out.append(f"### passed before, fail here: {len(items)}\n")
        out.extend(f"- `{f['case']}` {f['outcome']} (2.6.2: {f['p26']}): {f['message'][:200]}" for f in items)
        out.append("")
    labels = {**CLASSES, None: "other failures here (pass under 2.6.2)"}
    for cls in (*CLASSES, None):
        items = [f for a in report.values() for f in a["failures"] if f["class"] == cls]
        out.append(f"### {labels[cls]}: {len(items)}\n")
        out.extend(f"- `{f['case']}` {f['outcome']}: {f['message'][:200]}" for f in items)
        out.append("")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--areas", default="all", help="comma-separated framework/api areas, 'issue' or 'all'")
    ap.add_argument("--files", default="test*.py", help="comma-separated globs on file names")
    ap.add_argument("--exclude", default="", help="comma-separated globs on file names to leave out (e.g. 'test*adaptive*pool*': "
                    "their numeric gradients over [2, 3, 8, 32, 32] inputs take tens of minutes on a loaded machine)")
    ap.add_argument("--side", choices=("both", "ours", "p26"), default="both")
    ap.add_argument("--label", default="ours", help="results directory of our side (e.g. 'before')")
    ap.add_argument("--scratch", type=Path, default=DEFAULT_SCRATCH)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=300, help="seconds per file")
    ap.add_argument("--batch", type=int, default=1, help="screen N files of an area per pytest process; files "
                    "with a case that does not pass are rerun alone (see run_batch)")
    ap.add_argument("--force-p26", action="store_true", help="rerun 2.6.2 even where cached")
    ap.add_argument("--resume", action="store_true", help="skip files our side already has results for")
    ap.add_argument("--only-failed", action="store_true", help="our side: only files whose results under --label "
                    "are missing or have a case that did not pass (e.g. after copying a 'before' label)")
    ap.add_argument("--rng", choices=("torch", "paddle"), help="our side's random stream: PADDLE_COMPAT_RNG "
                    "(paddle: the copy of Paddle's CPU generator; then the (c) cases of known.py count as failures, and "
                    "--report-only needs it too)")
    ap.add_argument("--api-level", choices=("2.4", "2.6"), help="our side's API level: PADDLE_COMPAT_API_LEVEL (2.6: "
                    "0-D results as Paddle 2.5+; then the (a) cases of known.py count as failures, and --report-only "
                    "needs it too)")
    ap.add_argument("--before", default="", help="comma-separated labels of an older run of our side (the first "
                    "that has a file counts): the report adds how many cases passed there and lists those that fail "
                    "here (e.g. a run of an older checkout with OURS_REPO=<worktree> --label before)")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--markdown", type=Path, help="write the tables and failure lists here")
    ap.add_argument("--json", type=Path, help="write the per-area comparison here")
    args = ap.parse_args(argv)
    global OURS_RNG, OURS_LEVEL
    OURS_RNG = args.rng or ""
    OURS_LEVEL = args.api_level or ""

    api = extract(args.scratch)
    all_areas = sorted(p.name for p in api.iterdir() if p.is_dir() and any(p.rglob("test*.py")))
    areas = {"all": all_areas, "issue": list(ISSUE_AREAS)}.get(args.areas) or args.areas.split(",")
    files = select_files(api, areas, args.files, args.exclude)
    todo = []
    if not args.report_only:
        for area, test in files:
            if args.side in ("both", "p26") and (
                args.force_p26 or load_cached(args.scratch, "p26", area, test.stem) is None
            ):
                todo.append(("p26", "p26", area, test))
            cached = load_cached(args.scratch, args.label, area, test.stem)
            if args.only_failed and cached is not None and cached["cases"] and all(
                c["outcome"] == "passed" for c in cached["cases"].values()
            ):
                continue
            if args.side in ("both", "ours") and not (args.resume and cached is not None):
                todo.append(("ours", args.label, area, test))
    todo.sort(key=lambda j: j[0] != "p26")  # stable: 2.6.2's files first, so --batch groups files of one side
    jobs = []  # (function, side, label, area, [tests])
    for s, lb, a, t in todo:
        if args.batch > 1 and jobs and jobs[-1][1:4] == (s, lb, a) and len(jobs[-1][4]) < args.batch:
            jobs[-1][4].append(t)
        else:
            jobs.append((run_batch if args.batch > 1 else None, s, lb, a, [t]))
    done = 0
    with cf.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futs = {}
        for fn, s, lb, a, ts in jobs:
            if fn is None:
                fut = pool.submit(lambda s=s, lb=lb, a=a, t=ts[0]: [(t, run_file(s, lb, args.scratch, a, t,
                                                                                   args.timeout))])
            else:
                fut = pool.submit(fn, s, lb, args.scratch, a, ts, args.timeout)
            futs[fut] = (s, a)
        for fut in cf.as_completed(futs):
            s, a = futs[fut]
            for t, r in fut.result():
                done += 1
                n = len(r["cases"])
                ok = sum(c["outcome"] == "passed" for c in r["cases"].values())
                print(
                    f"[{done}/{len(todo)}] {s:4} {a}/{t.name}: {ok}/{n} passed ({r['seconds']}s"
                    + (f", batch of {r['batch']}" if r.get("batch") else "") + ")"
                    + (f"  {r['file_error']}" if r.get("file_error") else ""),
                    flush=True,
                )
    report = compare(args.scratch, files, args.label, tuple(b for b in args.before.split(",") if b))
    text = markdown(report)
    print(text.split("\n\n")[0])
    if args.markdown:
        args.markdown.write_text(text)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
