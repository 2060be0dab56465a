"""Write tests/goldens/desc18_ours/<program>.bin: paddle_compat's `program.desc.serialize_to_string()` of each
program of tests/fluid/cases_desc18.py, which tools/oracle/rec_desc18.py then parses with real Paddle 1.8.5.
Run from the repo root: PYTHONPATH=$PWD:$PWD/shims .venv/bin/python tools/oracle/desc18_ours.py"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "fluid"))
import cases_desc18 as C  # noqa: E402


def main():
    import paddle

    paddle.enable_static()
    os.makedirs(C.OURS_DIR, exist_ok=True)
    for name in C.PROGRAMS:
        main_prog = C.build(paddle.fluid, name)[0]
        with open(os.path.join(C.OURS_DIR, name + ".bin"), "wb") as f:
            f.write(main_prog.desc.serialize_to_string())
        print("wrote", name)


if __name__ == "__main__":
    main()
