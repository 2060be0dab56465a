"""The opt-in copy of Paddle's CPU random stream (paddle_compat.use_paddle_rng / PADDLE_COMPAT_RNG=paddle) against
real Paddle 2.6.2, bit for bit (tests/goldens/rng26, recorded by tools/oracle/rec_cases26.py on
tools/oracle/rng26_cases.py), and the default torch stream left as it was."""

from __future__ import annotations

import numpy as np
import pytest

from tests.api2x import cases
from tests.conftest import load_golden

# gumbel_softmax's noise is -log(-log(u)) through Eigen's vectorized log (cauchy_ / geometric_ apply tan / log
# kernels to their draws): the draws are Paddle's, these values agree to float rounding (the hard one-hot exactly)
NEAR = {"gumbel/soft": 1e-6, "composed/cauchy": 1e-5, "composed/geometric": 1e-6, "composed/geometric_f64": 1e-12}


@pytest.fixture
def paddle_rng():
    import paddle_compat

    was = paddle_compat.paddle_rng_enabled()
    paddle_compat.use_paddle_rng(True)
    yield
    paddle_compat.use_paddle_rng(was)


@pytest.mark.parametrize("case", cases.params("rng26_cases"))
def test_case_matches_paddle_bits(case, paddle_rng):
    import paddle

    meta, g = load_golden("rng26")
    assert case.__name__ not in meta["errors"], meta["errors"].get(case.__name__)
    got = case(paddle)
    want = {k.split("__", 1)[1]: v for k, v in g.items() if k.startswith(case.__name__ + "__")}
    assert sorted(got) == sorted(want)
    for k, v in got.items():
        v = np.asarray(v).reshape(want[k].shape)
        assert v.dtype == want[k].dtype, (k, v.dtype, want[k].dtype)
        tol = NEAR.get(f"{case.__name__}/{k}")
        if tol:
            np.testing.assert_allclose(v, want[k], rtol=tol, atol=tol, err_msg=k)
        else:
            np.testing.assert_array_equal(v, want[k], err_msg=k)


def test_engine_is_mt19937_64():
    from paddle_compat.engine.core import paddle_rng as R

    # the C++ standard's check: the 10000th output of a default-constructed std::mt19937_64
    assert int(R.MT19937_64().draw(10000)[-1]) == 9981545732273789042
    e = R.MT19937_64(5, seed_seq=True)
    a = e.draw(1000)
    e.seed(5, seed_seq=True)
    assert np.array_equal(np.concatenate([e.draw(1), e.draw(311), e.draw(2), e.draw(686)]), a)
    e.seed(5, seed_seq=True)
    e.skip(400)
    assert np.array_equal(e.peek(3), a[400:403]) and np.array_equal(e.draw(3), a[400:403])
    # a tentative draw, committed at any k, leaves the engine where k plain draws do
    a = R.MT19937_64(5, seed_seq=True).draw(2500)
    for start, n, k in [(0, 5, 3), (10, 302, 302), (10, 303, 302), (100, 1000, 212), (100, 1000, 524),
                        (311, 700, 1), (0, 936, 936), (5, 936, 625)]:
        e.seed(5, seed_seq=True)
        e.skip(start)
        out, commit = e.draw_tentative(n)
        assert np.array_equal(out, a[start:start + n])
        commit(k)
        assert np.array_equal(e.draw(20), a[start + k:start + k + 20]), (start, n, k)


def test_state_round_trip_and_env(monkeypatch, paddle_rng):
    import paddle

    from paddle_compat.engine.core import paddle_rng as R

    paddle.seed(11)
    paddle.randn([3])
    st = paddle.get_rng_state()
    assert isinstance(st[0], R.PaddleRNGState)
    a = [paddle.rand([4]).numpy(), paddle.randperm(5).numpy(), paddle.randn([3]).numpy()]
    paddle.set_rng_state(st)
    b = [paddle.rand([4]).numpy(), paddle.randperm(5).numpy(), paddle.randn([3]).numpy()]
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    for v, on in [("paddle", True), ("torch", False), ("", False)]:
        monkeypatch.setenv("PADDLE_COMPAT_RNG", v)
        assert R._env_on() is on
    monkeypatch.setenv("PADDLE_COMPAT_RNG", "numpy")
    with pytest.raises(ValueError, match="PADDLE_COMPAT_RNG"):
        R._env_on()


def test_seed_before_switching_on_applies():
    import paddle
    import paddle_compat

    _, g = load_golden("rng26")
    was = paddle_compat.paddle_rng_enabled()
    paddle_compat.use_paddle_rng(False)
    try:
        paddle.seed(33)
        off = paddle.rand([3, 4]).numpy()
        paddle.seed(33)
        paddle_compat.use_paddle_rng(True)
        np.testing.assert_array_equal(paddle.rand([3, 4]).numpy(), g["uniform__rand_f32"])
        # off again: torch's stream, as before
        paddle_compat.use_paddle_rng(False)
        paddle.seed(33)
        np.testing.assert_array_equal(paddle.rand([3, 4]).numpy(), off)
        assert not np.array_equal(off, g["uniform__rand_f32"])
    finally:
        paddle_compat.use_paddle_rng(was)


def test_rejection_paths_follow_the_scalar_algorithm():
    """libstdc++'s uniform_int_distribution, one draw at a time: scale by division, reject from `past` on. Ranges
    near 2^63 reject about half the draws."""
    from paddle_compat.engine.core import paddle_rng as R

    def scalar(eng, urange):
        scaling = R._U64MAX // (urange + 1)
        past = (urange + 1) * scaling
        while True:
            u = eng()
            if u < past:
                return u // scaling

    big = 2 ** 63 + 12345
    e1, e2 = R.MT19937_64(9, seed_seq=True), R.MT19937_64(9, seed_seq=True)
    got = R._uniform_int_raw(e1, 200, big)
    assert got.tolist() == [scalar(e2, big) for _ in range(200)]
    ranges = np.array([big, 5, big + 7, 2 ** 62 * 3, 1] * 40, dtype=np.uint64)
    got = R._uniform_int_each(e1, ranges)
    assert got.tolist() == [scalar(e2, int(r)) for r in ranges.tolist()]
    assert e1.draw(3).tolist() == e2.draw(3).tolist()
