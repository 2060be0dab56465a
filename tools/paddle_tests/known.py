"""Cases of Paddle's fluid-era tests that drive C++ internals no script touches (issue 11 item 6): they build
ops through `op_test.OpTest`, `fluid.op.Operator` or protobuf op descs, or inspect Paddle's C++ objects. Each
entry: a glob on `group/file::Class.case` and the reason. run.py lists these apart from the other failures."""

from __future__ import annotations

import fnmatch

INTERNALS: tuple = (
    ("unittests/test_program.py::TestProgram.test_program_inference_optimize",
     "counts the C++ reader ops (create_double_buffer_reader, read) that py_reader puts in the ProgramDesc"),
    ("unittests/test_program_code.py::*",
     "prints the protobuf op descs of the pserver program (ListenAndServ, Send/Recv ops) with program_to_code"),
)


def internals_reason(case: str) -> str | None:
    for pattern, reason in INTERNALS:
        if fnmatch.fnmatch(case, pattern):
            return reason
    return None
