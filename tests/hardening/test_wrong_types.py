"""Issue 27 item 3: wrong types at every public function of paddle / paddle.nn.functional / fluid.layers get an
error that names the API and the argument (engine/framework/argcheck.py), plus the three cases the issue names.

The cases are generated (tests/hardening/_wrong_types.py: the functions come from the filled modules, the bad
values are a list, None, a string and a numpy array of strings, in dygraph and static mode). Known failures are
data (KNOWN, strict xfail). `python -m tests.hardening._wrong_types` prints the table.
"""

from __future__ import annotations

import numpy as np
import pytest

from . import _wrong_types as W

CASES, SKIPPED = W.plan()

# case id -> why it is not handled (strict: a fix makes the test fail until the row is removed)
KNOWN: dict = {}


def test_the_sweep_covers_the_public_functions():
    """Most public functions get cases; those without say why (no Tensor first argument, ...)."""
    apis = {c.api for c in CASES}
    assert len(apis) >= 590, len(apis)
    assert len(CASES) >= 4700, len(CASES)
    for module in W.MODULES:
        assert any(a.rpartition(".")[0] == module for a in apis), module
    assert all(SKIPPED.values())
    assert set(KNOWN) <= {c.id for c in CASES}, set(KNOWN) - {c.id for c in CASES}


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id, marks=pytest.mark.xfail(reason=KNOWN[c.id], strict=True))
                                  if c.id in KNOWN else pytest.param(c, id=c.id) for c in CASES])
def test_wrong_type(case):
    kind, detail = W.outcome(case)
    assert W.handled(kind), f"{kind}: {detail}"


# ---------------------------------------------------------------------------------------- the named cases

def _raises(fn) -> BaseException:
    with pytest.raises(Exception) as ei:
        fn()
    return ei.value


@pytest.mark.parametrize("data,where", [([[1, 2], [3]], r"data\[1\] has shape \[1\] but data\[0\] has shape \[2\]"),
                                        ([[[1, 2], [3, 4]], [[1, 2], [3]]], r"data\[1\]\[1\] has shape \[1\]"),
                                        ([np.ones(2), np.ones(3)], r"data\[1\] has shape \[3\]")],
                         ids=["rows", "depth2", "arrays"])
@pytest.mark.parametrize("static", [False, True], ids=["dygraph", "static"])
def test_to_tensor_ragged(data, where, static):
    import paddle

    if static:
        paddle.enable_static()
    e = _raises(lambda: paddle.to_tensor(data))
    assert isinstance(e, ValueError)  # numpy's ValueError before, which Paddle 2.6.2 lets through
    msg = str(e)
    assert "paddle.to_tensor(): argument 'data' is a nested list of unequal lengths" in msg
    assert __import__("re").search(where, msg), msg
    assert "inhomogeneous" not in msg


def test_to_variable_ragged():
    import paddle.fluid as fluid

    with fluid.dygraph.guard():
        e = _raises(lambda: fluid.dygraph.to_variable([[1.0], [2.0, 3.0]]))
    assert "paddle.fluid.dygraph.to_variable(): argument 'value' is a nested list of unequal lengths" in str(e)


BACKWARD_TWICE = [
    ("Tensor.backward", lambda p, y, x: y.backward()),
    ("paddle.grad", lambda p, y, x: p.grad(y, x)),
    ("paddle.autograd.backward", lambda p, y, x: p.autograd.backward([y])),
]


@pytest.mark.parametrize("api,call", BACKWARD_TWICE,
                         ids=[c[0] for c in BACKWARD_TWICE])
def test_backward_twice_names_the_api_and_retain_graph(api, call):
    import paddle

    x = paddle.ones([2])
    x.stop_gradient = False
    y = (x * x).sum()
    call(paddle, y, x)
    e = _raises(lambda: call(paddle, y, x))
    assert isinstance(e, RuntimeError) and isinstance(e, SystemError)  # torch's class and Paddle's (Fatal)
    msg = str(e)
    assert msg.startswith(f"(Fatal) {api}: ") and "retain_graph=True" in msg and "backward" in msg
    assert "Trying to backward through the graph" not in msg  # torch's words


LIST_INPUT = [
    # (id, mode, call, message)
    ("fluid.layers.fc static", "static", lambda p, f: f.layers.fc([[1.0, 2.0]], 3),
     "The type of 'input' in paddle.fluid.layers.fc must be Variable, but received list."),
    ("fluid.layers.fc None", "static", lambda p, f: f.layers.fc(None, 3),
     "The type of 'input' in paddle.fluid.layers.fc must be Variable, but received None."),
    ("fluid.dygraph.Linear", "dygraph", lambda p, f: f.dygraph.Linear(2, 3)([[1.0, 2.0]]),
     "paddle.fluid.dygraph.Linear.forward(): argument 'input' (position 0) must be Tensor, but got list"),
    ("fluid.dygraph.Conv2D None", "dygraph", lambda p, f: f.dygraph.Conv2D(1, 2, 3)(None),
     "paddle.fluid.dygraph.Conv2D.forward(): argument 'input' (position 0) must be Tensor, but got None"),
    ("paddle.nn.Linear str", "dygraph", lambda p, f: p.nn.Linear(2, 3)("abc"),
     "paddle.nn.Linear.forward(): argument 'input' (position 0) must be Tensor, but got str"),
    ("paddle.add list", "dygraph", lambda p, f: p.add([1.0, 2.0], p.ones([2])),
     "paddle.add(): argument 'x' (position 0) must be Tensor, but got list"),
    ("paddle.matmul None", "dygraph", lambda p, f: p.matmul(None, p.ones([2, 2])),
     "paddle.matmul(): argument 'x' (position 0) must be Tensor, but got None"),
    ("F.relu ndarray", "dygraph", lambda p, f: p.nn.functional.relu(np.ones(3, np.float32)),
     "paddle.nn.functional.relu(): argument 'x' (position 0) must be Tensor, but got numpy.ndarray"),
    ("in-place list", "dygraph", lambda p, f: p.tanh_([1.0]), "argument 'x' (position 0) must be Tensor, but got list"),
]


@pytest.mark.parametrize("mode,call,message", [c[1:] for c in LIST_INPUT], ids=[c[0] for c in LIST_INPUT])
def test_wrong_input_in_paddle_words(mode, call, message):
    import paddle
    import paddle.fluid as fluid

    if mode == "static":
        paddle.enable_static()
        with fluid.program_guard(fluid.Program(), fluid.Program()):
            e = _raises(lambda: call(paddle, fluid))
    else:
        with fluid.dygraph.guard():
            e = _raises(lambda: call(paddle, fluid))
    assert message in str(e), str(e)
    assert isinstance(e, TypeError) and isinstance(e, ValueError)  # Paddle 1.8's TypeError, 2.x's ValueError
    assert "has no attribute" not in str(e)


def test_a_user_layer_is_named_by_its_own_forward():
    import paddle

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(2, 3)

        def forward(self, x):
            return self.fc(x)

    e = _raises(lambda: Net()([[1.0, 2.0]]))
    assert "Net.forward(): argument 'x' (position 0) must be Tensor, but got list" in str(e)
    # an error that is not about a wrong argument stays as it was
    e = _raises(lambda: Net()(paddle.ones([2, 5])))
    assert "must be Tensor" not in str(e)


def test_a_list_that_converts_still_works():
    """The errors are rewritten only after a call failed: APIs that convert lists keep doing so."""
    import paddle
    import paddle.fluid as fluid

    assert paddle.to_tensor([[1, 2], [3, 4]]).shape == [2, 2]
    assert paddle.assign([1.0, 2.0]).shape == [2]
    with fluid.dygraph.guard():
        assert fluid.dygraph.to_variable(np.ones((2, 2), "float32")).shape == [2, 2]
