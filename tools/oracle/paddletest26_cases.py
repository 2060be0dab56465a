"""Cases over the public API (each takes the `paddle` module, returns {name: array}) reduced from PaddleTest
`framework/api` failures (tools/paddletest/run.py): recorded on Paddle 2.6.2 by
`rec_cases26.py paddletest26_cases paddletest26`, replayed by tests/api2x/test_paddletest26.py.
An expected error is recorded as a number: 1 = raised the named type, 2 = raised another type, 0 = no error."""
import numpy as np


def _raises(fn, *types):
    try:
        fn()
    except types:
        return np.array(1)
    except Exception:  # noqa: BLE001 - another type is a different behaviour, recorded as such
        return np.array(2)
    return np.array(0)


def addmm_input_shapes(paddle):
    """input broadcasts only from 1 to [x.shape[0], y.shape[1]] (PaddleTest paddlebase/test_addmm::test_addmm9)."""
    x, y = paddle.ones([5, 3]), paddle.ones([3, 4])
    out = {}
    for s in ([5, 4], [1, 4], [5, 1], [1, 1], [4], [1]):
        out["ok_" + "x".join(map(str, s))] = paddle.addmm(paddle.full(s, 2.0), x, y, beta=0.5, alpha=2.0).numpy()
    for s in ([5, 5, 5, 5], [2, 4], [5, 2], [3]):
        out["bad_" + "x".join(map(str, s))] = _raises(lambda s=s: paddle.addmm(paddle.ones(s), x, y), ValueError)
    return out


def element_size_uint16(paddle):
    """dtype 'uint16' is bfloat16 (paddlebase/test_Tensor_element_size::test_element_size2)."""
    a = paddle.to_tensor(1, dtype="uint16")
    return {"element_size": np.array(a.element_size()), "is_bfloat16": np.array(a.dtype == paddle.bfloat16),
            "value": a.astype("float32").numpy()}


def error_summary_call_stack_level(paddle):
    """FLAGS_call_stack_level=2 ends the message with `InvalidArgumentError: ...`; 1 starts it with
    `(InvalidArgument)` (PaddleTest's run.sh sets 2 and its exception checks look for `...Error`)."""
    out = {}
    for level in (2, 1):
        paddle.set_flags({"FLAGS_call_stack_level": level})
        try:
            paddle.abs([-3, 2])
            text = ""
        except ValueError as e:
            text = str(e)
        last = text.strip().splitlines()[-1] if text.strip() else ""
        out[f"level{level}_summary_line"] = np.array(last.startswith("InvalidArgumentError: "))
        out[f"level{level}_kind_prefix"] = np.array(text.startswith("(InvalidArgument) "))
    return out


def isclose_allclose_edges(paddle):
    """Paddle's kernels: negative tolerances allowed (paddlebase/test_allclose::test_allclose8), inf / NaN cases,
    the 1e-15 slack."""
    inf, nan = np.inf, np.nan
    a = np.array([inf, inf, -inf, 1.0, nan, nan, 1.0, 0.0, 1e-16, 5.0, 0.1])
    b = np.array([inf, -inf, 1.0, inf, nan, 1.0, 1.0 + 1e-9, 1e-16, 0.0, 5.0, 0.0])
    out = {}
    for dt in ("float32", "float64"):
        x, y = paddle.to_tensor(a.astype(dt)), paddle.to_tensor(b.astype(dt))
        for i, kw in enumerate(({}, {"equal_nan": True}, {"rtol": -3.0, "atol": -2.0}, {"rtol": 0.0, "atol": 0.0})):
            out[f"{dt}_isclose{i}"] = paddle.isclose(x, y, **kw).numpy()
            out[f"{dt}_allclose{i}"] = np.array([bool(paddle.allclose(x[j:j + 1], y[j:j + 1], **kw))
                                                 for j in range(len(a))])
            out[f"{dt}_allclose_all{i}"] = np.array(bool(paddle.allclose(x[-4:], y[-4:], **kw)))
    return out


def argmax_argmin_arguments(paddle):
    """axis float -> TypeError, dtype None -> ValueError, dtype float32 -> (InvalidArgument) ValueError
    (paddlebase/test_argmax::test_argmax10, 11, test_argmin)."""
    x = paddle.to_tensor([[-1.0], [2.0], [3.0]])
    out = {}
    for f in ("argmax", "argmin"):
        fn = getattr(paddle, f)
        out[f + "_axis_float"] = _raises(lambda: fn(x, axis=1.0), TypeError)
        out[f + "_dtype_none"] = _raises(lambda: fn(x, dtype=None), ValueError)
        try:
            fn(x, dtype="float32")
            out[f + "_dtype_float32"] = np.array(0)
        except ValueError as e:
            out[f + "_dtype_float32"] = np.array(1 + ("InvalidArgument" in str(e)))
        out[f + "_int32"] = fn(x, axis=0, dtype="int32").numpy()
    return out


def assign_python_scalars(paddle):
    """A Python scalar becomes shape [1] (paddlebase/test_assign::test_assign4)."""
    out = {}
    for i, v in enumerate((42, 4.5, True, [42])):
        r = paddle.assign(v)
        out[f"v{i}"] = r.numpy()
        out[f"v{i}_shape"] = np.array(r.shape)
    return out


def expand_eye_flatten_argument_errors(paddle):
    """expand: > 6 dims or a 0 dim -> (InvalidArgument) ValueError (paddlebase/test_expand::test_expand15, 16);
    eye: negative or float sizes -> TypeError (test_eye8, 9); flatten: float axes or a non-Tensor x -> ValueError
    (test_flatten19-21)."""
    x1 = paddle.to_tensor(np.array([1.0]))
    x2 = paddle.to_tensor(np.array([[1.0], [1.0]]))
    out = {}
    for k, fn in (("expand7", lambda: paddle.expand(x1, [1] * 7)), ("expand_zero", lambda: paddle.expand(x2, [2, 0])),
                  ("broadcast_to7", lambda: paddle.broadcast_to(x1, [1] * 7))):
        try:
            fn()
            out[k] = np.array(0)
        except ValueError as e:
            out[k] = np.array(1 + ("InvalidArgument" in str(e)))
    out["expand_minus1"] = paddle.expand(x2, [2, -1]).numpy()
    out["expand_lead"] = paddle.expand(x2, [3, 2, 4]).numpy()
    for k, fn in (("eye_neg", lambda: paddle.eye(-3, dtype="float16")), ("eye_neg32", lambda: paddle.eye(-3)),
                  ("eye_float", lambda: paddle.eye(3.4)), ("eye_cols_float", lambda: paddle.eye(3, 2.5))):
        out[k] = _raises(fn, TypeError)
    out["eye_int32"] = paddle.eye(3, 2, dtype="int32").numpy()
    for k, fn in (("flatten_float_axes", lambda: paddle.flatten(paddle.ones([2, 2, 3]), 0.0, 2.0)),
                  ("flatten_list", lambda: paddle.flatten([2, 2, 3])),
                  ("flatten_tuple", lambda: paddle.flatten((2, 2, 3)))):
        out[k] = _raises(fn, ValueError)
    return out


def index_select_histogram_grad_mode(paddle):
    """index_select's checks (paddlebase/test_index_select::3, 4, 6, 7, 9), histogram with min > max or min == max
    (test_histogram6, 7), is_grad_enabled in static mode (test_is_grad_enabled2)."""
    x = paddle.to_tensor(np.arange(6).reshape(2, 3).astype("float32"))
    idx = paddle.to_tensor(np.array([0, 2]))
    out = {}
    for k, fn in (("float_index", lambda: paddle.index_select(x, paddle.to_tensor(np.array([0.0, 2.0])), 1)),
                  ("int_index", lambda: paddle.index_select(x, 0, 1)),
                  ("x_int", lambda: paddle.index_select(32, idx, 1)),
                  ("axis_float", lambda: paddle.index_select(x, idx, 1.3)),
                  ("hist_min_gt_max", lambda: paddle.histogram(x, bins=4, min=1)),
                  ("hist_max_lt_min", lambda: paddle.histogram(x, bins=4, max=-1))):
        try:
            fn()
            out[k] = np.array(0)
        except ValueError as e:
            out[k] = np.array(1 + ("InvalidArgument" in str(e)))
    out["axis_out_of_range"] = _raises(lambda: paddle.index_select(x, idx, 2), IndexError)
    out["select"] = paddle.index_select(x, idx, -1).numpy()
    out["hist_equal_bounds"] = paddle.histogram(x, bins=4, min=1, max=1).numpy()
    out["hist_zero_bounds"] = paddle.histogram(x, bins=4).numpy()
    out["hist_range"] = paddle.histogram(x, bins=3, min=1, max=4).numpy()
    out["grad_enabled_dygraph"] = np.array(paddle.is_grad_enabled())
    paddle.enable_static()
    try:
        out["grad_enabled_static"] = np.array(paddle.is_grad_enabled())
    finally:
        paddle.disable_static()
    return out


def kthvalue_static_keepdim_linspace_num(paddle):
    """Static kthvalue ignores keepdim (paddlebase/test_kthvalue::test_kthvalue3); linspace num <= 0 is
    (InvalidArgument) (test_linspace3)."""
    data = np.arange(1, 25).reshape(3, 2, 4).astype(np.float32)
    out = {"dygraph_keepdim_shape": np.array(paddle.kthvalue(paddle.to_tensor(data), 4, axis=2, keepdim=True)[0]
                                             .shape)}
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [3, 2, 4], "float32")
            v, i = paddle.kthvalue(x, 4, axis=2, keepdim=True)
            exe = paddle.static.Executor(paddle.CPUPlace())
            exe.run(startup)
            rv, ri = exe.run(main, feed={"x": data}, fetch_list=[v, i])
    finally:
        paddle.disable_static()
    out["static_values"], out["static_indices"] = np.asarray(rv), np.asarray(ri)
    for n in (0, -2):
        try:
            paddle.linspace(3, 9, n)
            out[f"linspace_num{n}"] = np.array(0)
        except ValueError as e:
            out[f"linspace_num{n}"] = np.array(1 + ("InvalidArgument" in str(e)))
    return out


def to_tensor_strings(paddle):
    """Strings are (InvalidArgument) ValueError (paddlebase/test_isinf::test_isinf6, test_isnan6)."""
    out = {}
    for k, v in (("np_str", np.array(["inf"])), ("list_str", ["a", "b"])):
        try:
            paddle.to_tensor(v)
            out[k] = np.array(0)
        except ValueError as e:
            out[k] = np.array(1 + ("InvalidArgument" in str(e)))
    return out


def multiplex_mv_masked_select_ones(paddle):
    """multiplex with fewer index rows than inputs' rows (paddlebase/test_multiplex), more rows or a bad index
    are errors; mv / masked_select checks are (InvalidArgument) (test_mv5-7, test_masked_select1); a float shape
    is an error (test_ones31)."""
    x1 = paddle.to_tensor(np.arange(1, 17).reshape(4, 4).astype(np.float32))
    x2 = -x1
    out = {"mux2": paddle.multiplex([x1, x2], paddle.to_tensor(np.array([[1], [0]]).astype(np.int32))).numpy(),
           "mux4": paddle.multiplex([x1, x2], paddle.to_tensor(np.array([[1], [0], [0], [1]], "int32"))).numpy()}
    out["mux5"] = _raises(lambda: paddle.multiplex([x1, x2], paddle.to_tensor(np.array([[1]] * 5, "int32"))), ValueError)
    out["mux_bad"] = _raises(lambda: paddle.multiplex([x1, x2], paddle.to_tensor(np.array([[2], [0]], "int32"))),
                             RuntimeError)

    def _kind(fn):
        try:
            fn()
            return np.array(0)
        except ValueError as e:
            return np.array(1 + ("InvalidArgument" in str(e)))

    out["mv_3d"] = _kind(lambda: paddle.mv(paddle.ones([3, 2, 3]), paddle.zeros([3])))
    out["mv_vec2d"] = _kind(lambda: paddle.mv(paddle.ones([3, 3]), paddle.zeros([3, 4])))
    out["masked_select_int_mask"] = _kind(lambda: paddle.masked_select(x1, paddle.to_tensor(np.ones([4, 4], "int64"))))
    for k in ("ones", "zeros"):
        out[f"{k}_float_shape"] = _kind(lambda k=k: getattr(paddle, k)(1.1))
    out["full_float_shape"] = _kind(lambda: paddle.full(1.1, 2.0))
    return out


def randint_randperm_roll_errors(paddle):
    """randint low >= high is (InvalidArgument) ValueError (paddlebase/test_randint5), randperm n < 0 a
    RuntimeError (test_randperm3, 4), roll with a string axis a TypeError (test_roll5)."""
    out = {}
    try:
        paddle.randint(100, 10, [2, 2])
        out["randint_low_high"] = np.array(0)
    except ValueError as e:
        out["randint_low_high"] = np.array(1 + ("InvalidArgument" in str(e)))
    out["randperm_negative"] = _raises(lambda: paddle.randperm(-1, dtype="float32"), RuntimeError)
    out["roll_axis_str"] = _raises(lambda: paddle.roll(paddle.ones([3, 3]), (-1, 1), axis="(0, 1)"), TypeError)
    return out


def static_inplace_is_out_of_place(paddle):
    """In static mode reshape_ / squeeze_ / unsqueeze_ / add_ leave x alone and return a new variable
    (paddlebase/test_reshape_, test_squeeze_, test_unsqueeze_ feed x with its declared shape afterwards)."""
    import warnings

    data = np.arange(6).reshape(2, 3).astype("float32")
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x = paddle.static.data("x", [2, 3], "float32")
            outs = [paddle.reshape_(x, [3, 2]), paddle.unsqueeze_(x, 0), paddle.squeeze_(paddle.unsqueeze(x, 0), 0),
                    x.add_(paddle.ones([2, 3])), paddle.tanh_(x)]
            shape_kept = np.array(list(x.shape))
            exe = paddle.static.Executor(paddle.CPUPlace())
            exe.run(startup)
            got = exe.run(main, feed={"x": data}, fetch_list=outs + [x])
    finally:
        paddle.disable_static()
    out = {f"out{i}": np.asarray(g) for i, g in enumerate(got)}
    out["x_shape"] = shape_kept
    return out


def split_errors(paddle):
    """split: sections not adding up, not divisible, two -1 are (InvalidArgument); a float is a TypeError
    (paddlebase/test_split3, 5, 8). 1 / 2: ValueError without / with InvalidArgument, 3: TypeError."""
    x = paddle.to_tensor(np.arange(6).reshape(2, 3).astype("float32"))

    def kind(fn):
        try:
            fn()
            return np.array(0)
        except TypeError:
            return np.array(3)
        except ValueError as e:
            return np.array(1 + ("InvalidArgument" in str(e)))

    return {"sum_mismatch": kind(lambda: paddle.split(x, [1, 1, 1, 1], axis=1)),
            "float": kind(lambda: paddle.split(x, 3.4, axis=1)),
            "not_divisible": kind(lambda: paddle.split(x, 2, axis=1)),
            "two_minus1": kind(lambda: paddle.split(x, [-1, -1], axis=1)),
            "ok": paddle.split(x, [1, -1], axis=1)[1].numpy()}


CASES = [v for k, v in list(globals().items()) if callable(v) and not k.startswith('_')
         and getattr(v, '__module__', None) == __name__]
