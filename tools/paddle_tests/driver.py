"""Run one of Paddle's unittest files and write a JSON record of each case (started by run.py).

    python driver.py TEST_FILE OUT_JSON CASE_TIMEOUT_S DATA_HOME

Runs under real Paddle 1.8.5 (Python 3.8) and under paddle_compat alike, so it keeps to Python 3.8 and the
standard library. Before the test module is imported, the dataset cache (`paddle.dataset.common.DATA_HOME`) is
pointed at DATA_HOME, which run.py fills with generated files in Paddle's formats, and the md5 check of Paddle's
download helper accepts the files found there (their md5s are not those of Paddle's downloads). A case that
runs longer than CASE_TIMEOUT_S is stopped with an error (SIGALRM; a case stuck in C code is stopped by run.py's
per-file timeout instead). A file without TestCase classes runs as a script (one case). Each case's record: outcome (passed / failed / error / skipped / timeout), seconds,
and the first error line (the exception line of the traceback).
"""

import importlib.util
import json
import os
import runpy
import signal
import sys
import time
import traceback
import unittest


class CaseTimeout(Exception):
    pass


class AnyMd5(str):
    """Equal to every md5: the generated dataset files stand in for Paddle's downloads."""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = str.__hash__


def point_datasets_at(data_home):
    """Paddle's DATA_HOME is read at import; set it and accept any md5 on both sides."""
    import paddle.dataset.common as common

    common.DATA_HOME = data_home
    common.md5file = lambda fname: AnyMd5("generated")
    try:  # paddle_compat: the one download helper behind paddle.dataset.common.download
        from paddle_compat.paddle2.utils import download
    except ImportError:
        return
    download.DATA_HOME = data_home
    download.md5file = common.md5file


def first_error(text):
    """The exception line of a formatted traceback (the last line naming an Error / Exception)."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    for ln in reversed(lines):
        s = ln.strip()
        head = s.split(":", 1)[0]
        if head.endswith(("Error", "Exception", "Exit", "Interrupt", "NotMet", "CaseTimeout")) and " " not in head:
            return s[:400]
    return (lines[-1].strip() if lines else "")[:400]


class Recorder(unittest.TestResult):
    def __init__(self, timeout):
        super().__init__()
        self.timeout = timeout
        self.cases = {}
        self._t0 = 0.0

    @staticmethod
    def key(test):
        return "%s.%s" % (type(test).__name__, getattr(test, "_testMethodName", str(test)))

    def startTest(self, test):
        super().startTest(test)
        self._t0 = time.time()
        self.cases[self.key(test)] = {"outcome": "passed", "message": ""}
        print("== %s" % self.key(test), flush=True)
        if self.timeout > 0:
            signal.alarm(self.timeout)

    def stopTest(self, test):
        signal.alarm(0)
        rec = self.cases.get(self.key(test))
        if rec is not None:
            rec["seconds"] = round(time.time() - self._t0, 2)
            print("== %s: %s %s" % (self.key(test), rec["outcome"], rec["message"][:200]), flush=True)
        super().stopTest(test)

    def _record(self, test, outcome, err):
        text = self._exc_info_to_string(err, test) if isinstance(err, tuple) else str(err)
        sys.stderr.write(text + "\n")
        if err and isinstance(err, tuple) and err[0] is CaseTimeout:
            outcome = "timeout"
        if isinstance(test, unittest.TestCase):
            self.cases[self.key(test)] = {"outcome": outcome, "message": first_error(text)}
        else:  # setUpClass / tearDownClass / module fixtures: an _ErrorHolder
            self.cases["<fixture> %s" % test.description] = {"outcome": outcome, "message": first_error(text)}

    def addError(self, test, err):
        super().addError(test, err)
        self._record(test, "error", err)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._record(test, "failed", err)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.cases[self.key(test)] = {"outcome": "skipped", "message": str(reason)[:400]}

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.cases[self.key(test)] = {"outcome": "passed", "message": "expected failure"}

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.cases[self.key(test)] = {"outcome": "failed", "message": "unexpected success"}


def script_suite(test_file):
    """A file without TestCase classes (test_recommender_system.py) is a script, as Paddle's CMake runs every
    test file: one case, `Script.test_main`, runs it as __main__."""
    class Script(unittest.TestCase):
        def test_main(self):
            runpy.run_path(test_file, run_name="__main__")

    return unittest.TestSuite([Script("test_main")])


def _alarm(signum, frame):
    raise CaseTimeout("case ran past the per-case timeout")


def main():
    test_file, out_json, timeout, data_home = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    record = {"cases": {}, "python": sys.version.split()[0]}

    def dump():
        with open(out_json, "w") as f:
            json.dump(record, f, indent=1, sort_keys=True)

    sys.path.insert(0, os.path.dirname(os.path.abspath(test_file)))
    signal.signal(signal.SIGALRM, _alarm)
    try:
        point_datasets_at(data_home)
        name = os.path.splitext(os.path.basename(test_file))[0]
        spec = importlib.util.spec_from_file_location(name, test_file)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        suite = unittest.defaultTestLoader.loadTestsFromModule(module)
        if suite.countTestCases() == 0:
            suite = script_suite(test_file)
    except BaseException as e:  # noqa: BLE001 - an import failure is the file's result
        text = traceback.format_exc()
        sys.stderr.write(text)
        record["file_error"] = first_error(text) or repr(e)
        dump()
        return 0
    result = Recorder(timeout)
    record["cases"] = result.cases
    try:
        suite.run(result)
    except BaseException:  # noqa: BLE001 - SystemExit from a test (sys.exit in the book chapters)
        text = traceback.format_exc()
        sys.stderr.write(text)
        record["file_error"] = first_error(text)
    dump()
    return 0


if __name__ == "__main__":
    sys.exit(main())
