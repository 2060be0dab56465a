"""paddle.complex (1.8's module over fluid.ComplexVariable, from complex numpy arrays through
fluid.dygraph.to_variable) and fluid.incubate.data_generator's MultiSlot formats. Shared by
tools/oracle/rec_run18.py (golden fluid18_complex_dg) and tests/fluid/test_complex_dg18.py; numpy only."""

import contextlib
import io

import numpy as np

rs = np.random.RandomState(1848)
A = (rs.randn(2, 3) + 1j * rs.randn(2, 3)).astype("complex64")
B = (rs.randn(2, 3) + 1j * rs.randn(2, 3)).astype("complex64")
M = (rs.randn(3, 2) + 1j * rs.randn(3, 2)).astype("complex64")
R = rs.randn(2, 3).astype("float32")


def _complex(fluid):
    import paddle

    C = paddle.complex
    res = {}
    with fluid.dygraph.guard():
        x, y, z, r = (fluid.dygraph.to_variable(v) for v in (A, B, M, R))
        outs = {"add": C.elementwise_add(x, y), "sub_real_left": C.elementwise_sub(r, y),
                "mul_real": C.elementwise_mul(x, r), "div": C.elementwise_div(x, y), "div_real": C.elementwise_div(y, r),
                "matmul": C.matmul(x, z), "matmul_t": C.matmul(x, y, transpose_y=True, alpha=0.5),
                "kron": C.kron(x, y), "sum": C.sum(x, dim=1), "sum_all": C.sum(x), "reshape": C.reshape(x, [3, 2]),
                "transpose": C.transpose(x, [1, 0]), "trace": C.trace(C.matmul(x, z))}
        for k, o in outs.items():
            res[f"complex|{k}"] = o.numpy()
    return res


def _data_generator(fluid):
    from paddle.fluid.incubate import data_generator as dg

    class Slots(dg.MultiSlotDataGenerator):
        def generate_sample(self, line):
            def it():
                for i in range(5):
                    yield [("words", [i, i + 1, 7]), ("label", [i * 0.5 if i == 3 else i])]
            return it

    class Strings(dg.MultiSlotStringDataGenerator):
        def generate_sample(self, line):
            def it():
                yield [("a", ["x", "y"]), ("b", ["z"])]
            return it

        def generate_batch(self, samples):
            def it():
                for s in samples:
                    yield s
                    yield s
            return it

    texts = {}
    for name, g in (("slots", Slots()), ("strings", Strings())):
        g.set_batch(2)
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            g.run_from_memory()
        texts[name] = buf.getvalue()
        texts[name + "_proto"] = str(g._proto_info)
    return texts


def run(fluid):
    return _complex(fluid), {"data_generator": _data_generator(fluid)}
