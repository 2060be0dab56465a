"""Paddle's CPU random stream, bit for bit (opt-in: `paddle_compat.use_paddle_rng(True)` or PADDLE_COMPAT_RNG=paddle).

Paddle 2.6.2's CPU generator (paddle/phi/core/generator.cc) is a std::mt19937_64; `paddle.seed(s)` seeds it through
`std::seed_seq seq({s})` and a kernel given an op seed builds a fresh engine with `engine.seed(seed)`. The kernels
draw with the libstdc++ distributions of the compiler Paddle 2.6.2's wheels are built with (GCC 8.2):
generate_canonical (one 64-bit draw per float or double), uniform_int_distribution (the division / rejection method
of libstdc++ < 11), std::shuffle (two swaps per draw), normal_distribution (Marsaglia's polar method, the second
value saved per distribution object, i.e. per kernel call) and poisson_distribution. This module does the same with
numpy: mt19937_64 twists 156 words per numpy step, and every distribution consumes exactly the draws the C++ one
does (rejection loops included), so a sequence of ops leaves the engine where Paddle's is.

It reproduces Paddle's Linux wheels (GCC 8.2's libstdc++, glibc's libm); MSVC's standard library (Windows wheels)
has other distributions. log / lgamma are the platform libm's, as Paddle's std::log: float64 through numpy when its
log is libm's (probed), float32 as a float64 log rounded, with libm's logf itself (ctypes) for the values its error
bound could round the other way.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import math

import numpy as np

_N, _M = 312, 156
_MATRIX_A = np.uint64(0xB5026F5AA96619E9)
_UM = np.uint64(0xFFFFFFFF80000000)
_LM = np.uint64(0x7FFFFFFF)
_MASK64 = (1 << 64) - 1
_U64MAX = _MASK64  # mt19937_64::max() - min()
_TWO64 = 18446744073709551616.0


def _words(mt: np.ndarray, twists: int) -> np.ndarray:
    """The state words of the next `twists` twists of mt19937_64 (312 each, in order). Word j of the stream is
    made from words j - 312, j - 311 and j - 156, so one numpy step makes 156 of them."""
    buf = np.empty(_N * (twists + 1), dtype=np.uint64)
    buf[:_N] = mt
    one, zero = np.uint64(1), np.uint64(0)
    for j in range(_N, buf.size, _M):
        y = (buf[j - _N:j - _M] & _UM) | (buf[j - _N + 1:j - _M + 1] & _LM)
        buf[j:j + _M] = buf[j - _M:j] ^ (y >> one) ^ ((zero - (y & one)) & _MATRIX_A)
    return buf[_N:]


def _temper(y: np.ndarray) -> np.ndarray:
    y = y ^ ((y >> np.uint64(29)) & np.uint64(0x5555555555555555))
    y = y ^ ((y << np.uint64(17)) & np.uint64(0x71D67FFFEDA60000))
    y = y ^ ((y << np.uint64(37)) & np.uint64(0xFFF7EEE000000000))
    return y ^ (y >> np.uint64(43))


def _seed_seq_words(seed: int) -> np.ndarray:
    """mt19937_64(std::seed_seq({seed})): seed_seq keeps 32-bit values and generates 2 per state word."""
    return np.array(_seed_seq_list(seed & 0xFFFFFFFF), dtype=np.uint64)


@functools.lru_cache(maxsize=64)
def _seed_seq_list(seed: int) -> tuple:
    n, s, v = 2 * _N, 1, [seed]
    b = [0x8B8B8B8B] * n
    t = 11
    p = (n - t) // 2
    q = p + t
    m32 = 0xFFFFFFFF
    for k in range(n):  # max(s + 1, n) == n
        arg = b[k] ^ b[(k + p) % n] ^ b[(k - 1) % n]
        r1 = (1664525 * (arg ^ (arg >> 27))) & m32
        r2 = (r1 + (s if k == 0 else (k + v[k - 1]) if k <= s else k)) & m32
        b[(k + p) % n] = (b[(k + p) % n] + r1) & m32
        b[(k + q) % n] = (b[(k + q) % n] + r2) & m32
        b[k] = r2
    for k in range(n, 2 * n):
        kk = k % n
        arg = (b[kk] + b[(k + p) % n] + b[(k - 1) % n]) & m32
        r3 = (1566083941 * (arg ^ (arg >> 27))) & m32
        r4 = (r3 - kk) & m32
        b[(k + p) % n] ^= r3
        b[(k + q) % n] ^= r4
        b[kk] = r4
    words = [b[2 * i] | (b[2 * i + 1] << 32) for i in range(_N)]
    if (words[0] >> 31) == 0 and not any(words[1:]):  # the engine's all-zero guard
        words[0] = 1 << 63
    return tuple(words)


def _plain_seed_words(seed: int) -> np.ndarray:
    x = seed & _MASK64
    words = [x]
    for i in range(1, _N):
        x = (6364136223846793005 * (x ^ (x >> 62)) + i) & _MASK64
        words.append(x)
    return np.array(words, dtype=np.uint64)


class MT19937_64:  # noqa: N801 - the C++ name
    """std::mt19937_64 with a position in its output stream. State: 312 words and an index (312: twist next)."""

    def __init__(self, seed: int = 5489, seed_seq: bool = False) -> None:
        self.seed(seed, seed_seq)

    def seed(self, seed: int, seed_seq: bool = False) -> None:
        self._mt = _seed_seq_words(seed) if seed_seq else _plain_seed_words(int(seed))
        self._i = _N

    def get_state(self) -> tuple:
        return (self._mt.copy(), self._i)

    def set_state(self, state: tuple) -> None:
        mt, i = state
        mt = np.asarray(mt, dtype=np.uint64)
        if mt.shape != (_N,) or not 0 <= int(i) <= _N:
            raise ValueError("paddle_rng: a state is 312 uint64 words and an index in [0, 312]")
        self._mt, self._i = mt.copy(), int(i)

    def _advance(self, n: int) -> np.ndarray:
        """The next n untempered words, consumed."""
        n = int(n)
        if n <= _N - self._i:
            out = self._mt[self._i:self._i + n]
            self._i += n
            return out
        head = self._mt[self._i:]
        need = n - head.size
        twists = -(-need // _N)
        words = _words(self._mt, twists)
        self._mt, self._i = words[-_N:].copy(), need - (twists - 1) * _N
        return np.concatenate([head, words[:need]])

    def draw(self, n: int) -> np.ndarray:
        """The next n outputs (uint64), consumed."""
        return _temper(self._advance(n))

    def draw_tentative(self, n: int):
        """The next n outputs and `commit(k)`, which leaves the engine after the first k of them (k <= n): for
        rejection loops, without making the words twice."""
        mt0, i0 = self._mt, self._i
        n = int(n)
        need = n - (_N - i0)
        words = _words(mt0, -(-need // _N)) if need > 0 else np.empty(0, dtype=np.uint64)
        out = _temper(np.concatenate([mt0[i0:], words])[:n] if need > 0 else mt0[i0:i0 + n])

        def commit(k: int) -> None:
            p = i0 + int(k)
            if p <= _N:
                self._mt, self._i = mt0, p
            else:
                b = (p - 1) // _N
                self._mt, self._i = words[(b - 1) * _N:b * _N].copy(), p - b * _N

        return out, commit

    def peek(self, n: int) -> np.ndarray:
        """The next n outputs, not consumed."""
        mt, i = self._mt, self._i
        out = self.draw(n)
        self._mt, self._i = mt, i
        return out

    def skip(self, n: int) -> None:
        self._advance(n)

    def __call__(self) -> int:
        return int(self.draw(1)[0])


# --- libm ----------------------------------------------------------------------------------------------------------
_LIBM_FNS: dict = {}


def _libm_fn(name: str, ctype):
    """libm's `name` through ctypes; where there is no libm to load, the float64 function of `math`."""
    if name not in _LIBM_FNS:
        try:
            path = ctypes.util.find_library("m")
            f = getattr(ctypes.CDLL(path) if path else ctypes.CDLL(None), name)
            f.restype, f.argtypes = ctype, [ctype]
        except (OSError, AttributeError, TypeError):
            f = getattr(math, name.rstrip("f"))
        _LIBM_FNS[name] = f
    return _LIBM_FNS[name]


def _near_tie(wide: np.ndarray, rounded: np.ndarray, rel: float) -> np.ndarray:
    """Where libm's result may round the other way: `wide` (a more precise log) lies within rel * |wide| of the
    midpoint between `rounded` and its neighbour."""
    if not wide.size:
        return np.zeros(0, dtype=bool)
    r = rounded.astype(wide.dtype)
    step = np.spacing(np.abs(rounded)).astype(wide.dtype)
    mid = r + np.copysign(step / 2, wide - r)
    return np.abs(wide - mid) <= rel * np.abs(wide)


# glibc's logf: relative error 1.957 * 2^-26 before its final rounding
_LOGF_REL = 1.02 * 2.0 ** -25


def log(x: np.ndarray) -> np.ndarray:
    """libm's log (float64) / logf (float32) of an array, as Paddle's std::log calls them: a more precise numpy log
    rounded, and libm itself (ctypes) for the values whose rounding libm's error could flip."""
    x = np.asarray(x)
    with np.errstate(divide="ignore", invalid="ignore"):
        if x.dtype == np.float32:
            wide = np.log(x.astype(np.float64))
            out = wide.astype(np.float32)
            fix = np.flatnonzero(_near_tie(wide, out, _LOGF_REL) & np.isfinite(wide))
            if fix.size:
                f = _libm_fn("logf", ctypes.c_float)
                out[fix] = list(map(f, x[fix].tolist()))
            return out
        x = x.astype(np.float64, copy=False)
        if _numpy_log_is_libm():
            return np.log(x)
    return np.array([math.log(v) if v > 0 else (-math.inf if v == 0 else math.nan) for v in x.tolist()])


_NP_LOG_OK = None


def _numpy_log_is_libm() -> bool:
    """numpy's float64 log calls libm's log unless it has its own SIMD one (AVX-512 builds): probe once."""
    global _NP_LOG_OK
    if _NP_LOG_OK is None:
        v = np.random.RandomState(0).random_sample(4096) ** 3
        _NP_LOG_OK = bool(np.array_equal(np.log(v), np.array([math.log(t) for t in v.tolist()])))
    return _NP_LOG_OK


def _lgamma(v: float) -> float:
    return _libm_fn("lgamma", ctypes.c_double)(v)


# --- libstdc++ distributions -----------------------------------------------------------------------------------------
def _unit(u: np.ndarray, dtype) -> np.ndarray:
    """generate_canonical<T> of drawn outputs: T(u) / 2^64, kept below 1."""
    c = u.astype(dtype) * dtype(1.0 / _TWO64)
    one = dtype(1.0)
    return np.where(c >= one, np.nextafter(one, dtype(0.0)), c) if np.any(c >= one) else c


def canonical(eng: MT19937_64, n: int, dtype) -> np.ndarray:
    """generate_canonical<T> of the next n draws."""
    return _unit(eng.draw(n), dtype)


def uniform_real(eng: MT19937_64, n: int, a: float, b: float, dtype=np.float32) -> np.ndarray:
    """uniform_real_distribution<T>(a, b): canonical * (b - a) + a in T."""
    dtype = np.dtype(dtype).type
    a, b = dtype(a), dtype(b)
    return canonical(eng, n, dtype) * (b - a) + a


def _uniform_int_raw(eng: MT19937_64, n: int, urange: int) -> np.ndarray:
    """libstdc++ 8's uniform_int_distribution on [0, urange] (uint64): scale down by division, reject the tail."""
    if urange >= _U64MAX:
        return eng.draw(n)
    uerange = urange + 1
    scaling = _U64MAX // uerange
    past = uerange * scaling
    out, have = [], 0
    while have < n:
        u = eng.draw(n - have)
        if past <= _U64MAX:
            u = u[u < np.uint64(past)]
        out.append(u // np.uint64(scaling))
        have += u.size
    return out[0] if len(out) == 1 else np.concatenate(out)


def uniform_int(eng: MT19937_64, n: int, a: int, b: int) -> np.ndarray:
    """uniform_int_distribution(a, b) (both ends included) as int64."""
    r = _uniform_int_raw(eng, n, (int(b) - int(a)) & _MASK64)
    return (r + np.uint64(int(a) & _MASK64)).view(np.int64)


def _uniform_int_each(eng: MT19937_64, ranges: np.ndarray) -> np.ndarray:
    """One uniform_int draw on [0, r] for each r of `ranges` (uint64 array, r < 2^64 - 1), in order."""
    n = ranges.size
    uerange = ranges + np.uint64(1)
    scaling = np.uint64(_U64MAX) // uerange
    past = uerange * scaling
    out = np.empty(n, dtype=np.uint64)
    j = 0
    while j < n:
        k = min(n - j, 1 << 16)
        u, commit = eng.draw_tentative(k)
        bad = np.flatnonzero(u >= past[j:j + k])
        b = int(bad[0]) if bad.size else k  # a rejection (rare): keep the good prefix, redraw from there
        out[j:j + b] = u[:b] // scaling[j:j + b]
        commit(b + 1 if bad.size else k)
        j += b
    return out


def shuffle_positions(eng: MT19937_64, n: int) -> list:
    """The swaps std::shuffle makes on n elements (libstdc++ >= 7: two swap positions per draw when n * n fits)."""
    if n <= 1:
        return []
    if _U64MAX // n < n:
        ks = _uniform_int_each(eng, np.arange(1, n, dtype=np.uint64))
        return list(zip(range(1, n), ks.tolist()))
    swaps = []
    i = 1
    if n % 2 == 0:
        swaps.append((1, int(_uniform_int_raw(eng, 1, 1)[0])))
        i = 2
    if i < n:
        sr = np.arange(i + 1, n + 1, 2, dtype=np.uint64)  # __swap_range for i, i + 2, ...
        x = _uniform_int_each(eng, sr * (sr + np.uint64(1)) - np.uint64(1))
        first, second = (x // (sr + np.uint64(1))).tolist(), (x % (sr + np.uint64(1))).tolist()
        for k, (f, s) in enumerate(zip(first, second)):
            swaps.append((i + 2 * k, f))
            swaps.append((i + 2 * k + 1, s))
    return swaps


def shuffle(eng: MT19937_64, n: int) -> np.ndarray:
    """std::shuffle of 0..n-1 (int64)."""
    a = list(range(n))
    for i, k in shuffle_positions(eng, n):
        a[i], a[k] = a[k], a[i]
    return np.array(a, dtype=np.int64)


_CHUNK = 1 << 20  # pairs per step of the polar method: bounds the temporaries of a large draw


def normal(eng: MT19937_64, n: int, mean: float, std: float, dtype=np.float32) -> np.ndarray:
    """n draws of one normal_distribution<T>(mean, std) object: Marsaglia's polar method, y * mult first, then the
    saved x * mult."""
    t = np.dtype(dtype).type
    pairs = (n + 1) // 2
    out = np.empty(2 * pairs, dtype=t)
    two = t(2.0)
    have = 0
    while have < pairs:
        want = min(pairs - have, _CHUNK)
        k = int(want * 1.3) + 16  # accepted with probability pi / 4
        u, commit = eng.draw_tentative(2 * k)
        c = _unit(u, t)
        x = ((two * c[0::2]).astype(np.float64) - 1.0).astype(t)
        y = ((two * c[1::2]).astype(np.float64) - 1.0).astype(t)
        r2 = x * x + y * y
        ok = np.flatnonzero((r2 <= 1.0) & (r2 != 0.0))[:want]
        commit(2 * (int(ok[-1]) + 1) if ok.size == want else 2 * k)
        if ok.size:
            x, y, r2 = x[ok], y[ok], r2[ok]
            mult = np.sqrt(t(-2) * log(r2) / r2)
            out[2 * have:2 * (have + ok.size):2] = y * mult
            out[2 * have + 1:2 * (have + ok.size):2] = x * mult
            have += ok.size
    return out[:n] * t(std) + t(mean)


def exponential(eng: MT19937_64, n: int, lam: float, dtype=np.float32) -> np.ndarray:
    """Paddle's CPU exponential_: -1 / lambda * log(1 - u), u from uniform_real_distribution<T>(0, 1)."""
    t = np.dtype(dtype).type
    u = uniform_real(eng, n, 0.0, 1.0, t)
    return (t(-1.0) / t(lam)) * log(t(1.0) - u)


def poisson(eng: MT19937_64, means: np.ndarray) -> np.ndarray:
    """One poisson_distribution<int>(mean) per element (a fresh object each, as Paddle's kernel): the product of
    uniforms below mean 12, Devroye's rejection method from 12 on."""
    out = np.empty(means.size, dtype=np.int64)
    start = eng.get_state()
    buf: list = []
    pos = used = 0

    def u01() -> float:
        nonlocal buf, pos, used
        if pos >= len(buf):
            buf, pos = _unit(eng.draw(1024), np.float64).tolist(), 0
        pos += 1
        used += 1
        return buf[pos - 1]

    for idx, mean in enumerate(means.astype(np.float64).tolist()):
        if mean >= 12:
            out[idx] = _poisson_large(mean, u01)
        else:
            thr = math.exp(-mean)
            x, prod = 0, 1.0
            while True:
                prod *= u01()
                x += 1
                if not prod > thr:
                    break
            out[idx] = x - 1
    eng.set_state(start)  # consume exactly the draws used
    eng.skip(used)
    return out


def _poisson_large(mean: float, u01) -> int:
    m = math.floor(mean)
    lm_thr = math.log(mean)
    lfm = _lgamma(m + 1)
    sm = math.sqrt(m)
    pi_4 = 0.7853981633974483096156608458198757
    dx = math.sqrt(2 * m * math.log(32 * m / pi_4))
    d = float(_cround(max(6.0, min(m, dx))))
    cx = 2 * m + d
    scx = math.sqrt(cx / 2)
    _1cx = 1 / cx
    c2b = math.sqrt(pi_4 * cx) * math.exp(_1cx)
    cb = 2 * cx * math.exp(-d * _1cx * (1 + d / 2)) / d
    naf = (1 - 2.220446049250313e-16) / 2
    thr = 2147483647 + naf
    spi_2 = 1.2533141373155002512078826424055226
    c1 = sm * spi_2
    c2 = c2b + c1
    c3 = c2 + 1
    c4 = c3 + 1
    _178 = 0.0128205128205128205128205128205128
    e178 = 1.0129030479320018583185514777512983
    c5 = c4 + e178
    c = cb + c5
    _2cx = 2 * (2 * m + d)
    nd_saved = None

    def nd() -> float:  # the distribution's own normal_distribution<double>: polar method, one value saved
        nonlocal nd_saved
        if nd_saved is not None:
            v, nd_saved = nd_saved, None
            return v
        while True:
            x = 2.0 * u01() - 1.0
            y = 2.0 * u01() - 1.0
            r2 = x * x + y * y
            if not (r2 > 1.0 or r2 == 0.0):
                break
        mult = math.sqrt(-2 * math.log(r2) / r2)
        nd_saved = x * mult
        return y * mult

    while True:
        u = c * u01()
        e = -math.log(1.0 - u01())
        w = 0.0
        if u <= c1:
            n = nd()
            y = -abs(n) * sm - 1
            x = math.floor(y)
            w = -n * n / 2
            if x < -m:
                continue
        elif u <= c2:
            n = nd()
            y = 1 + abs(n) * scx
            x = math.ceil(y)
            w = y * (2 - y) * _1cx
            if x > d:
                continue
        elif u <= c3:
            x = -1
        elif u <= c4:
            x = 0
        elif u <= c5:
            x = 1
            w = _178
        else:
            v = -math.log(1.0 - u01())
            y = d + v * _2cx / d
            x = math.ceil(y)
            w = -d * _1cx * (1 + y / 2)
        reject = (w - e - x * lm_thr) > (lfm - _lgamma(x + m + 1))
        reject |= x + m >= thr
        if not reject:
            return int(x + m + naf)


def _cround(v: float) -> float:
    return math.floor(v + 0.5) if v >= 0 else -math.floor(-v + 0.5)


# --- the switch and Paddle's kernels, on torch tensors ------------------------------------------------------------
def _env_on() -> bool:
    import os

    v = os.environ.get("PADDLE_COMPAT_RNG", "").strip().lower()
    if v not in ("", "torch", "paddle"):
        raise ValueError(f"PADDLE_COMPAT_RNG: expected 'paddle' or 'torch', got {v!r}")
    return v == "paddle"


ON = _env_on()  # read by the random ops: draw from the Paddle engine instead of torch's generator
_ENGINE: MT19937_64 | None = None
_PENDING_SEED: int | None = None  # the last paddle.seed, applied when the stream is switched on


def use_paddle_rng(flag: bool = True) -> None:
    """Draw the CPU random ops from a copy of Paddle 2.6.2's generator (std::mt19937_64 and libstdc++'s
    distributions), so `paddle.seed(n)` gives the numbers real Paddle gives; False returns to torch's generator."""
    global ON
    ON = bool(flag)
    if ON:
        engine()


def seed(s: int) -> None:
    """paddle.seed: Paddle seeds its CPU engine with std::seed_seq({s}). Off, only remembered (cheap)."""
    global _PENDING_SEED
    _PENDING_SEED = int(s)
    if ON:
        engine()


def engine(op_seed: int = 0) -> MT19937_64:
    """The engine a kernel draws from: a fresh one `engine.seed(op_seed)` for a nonzero op seed (Paddle's
    legacy op attribute), else the global one."""
    global _ENGINE, _PENDING_SEED
    if op_seed:
        return MT19937_64(int(op_seed) & _MASK64)
    if _PENDING_SEED is not None:
        if _ENGINE is None:
            _ENGINE = MT19937_64(_PENDING_SEED, seed_seq=True)
        else:
            _ENGINE.seed(_PENDING_SEED, seed_seq=True)
        _PENDING_SEED = None
    elif _ENGINE is None:  # Paddle's default generator starts from a random seed
        import os

        _ENGINE = MT19937_64(int.from_bytes(os.urandom(8), "little") & 0x1FFFFFFFFFFFFF, seed_seq=True)
    return _ENGINE


class kept:  # noqa: N801 - a context manager
    """Put the global engine back on exit (a static program's shape inference runs random ops)."""

    def __enter__(self) -> None:
        self._state = engine().get_state()

    def __exit__(self, *exc) -> None:
        engine().set_state(self._state)


class PaddleRNGState:
    """What paddle.get_rng_state holds for the CPU while the Paddle stream is on: the engine's words and position
    (and torch's CPU state, for the ops that still draw from torch)."""

    def __init__(self, mt: np.ndarray, index: int, torch_state) -> None:
        self.mt, self.index, self.torch_state = mt, index, torch_state

    def __repr__(self) -> str:
        return f"PaddleRNGState(index={self.index})"


def get_state(torch_state) -> PaddleRNGState:
    mt, i = engine().get_state()
    return PaddleRNGState(mt, i, torch_state)


def set_state(state: PaddleRNGState) -> None:
    engine().set_state((state.mt, state.index))


def _np_float(tdtype):
    import torch

    return np.float64 if tdtype == torch.float64 else np.float32


def _out(a: np.ndarray, shape, tdtype, device):
    import torch

    t = torch.from_numpy(np.ascontiguousarray(a).reshape([int(d) for d in shape]))
    return t.to(device=device, dtype=tdtype) if device is not None else t.to(tdtype)


def _numel(shape) -> int:
    return int(np.prod([int(d) for d in shape], dtype=np.int64)) if len(shape) else 1


def t_uniform(shape, tdtype, lo, hi, op_seed=0, device=None):
    """uniform_random / uniform_ (Paddle's UniformRawKernel: min, max as float32, then T)."""
    t = _np_float(tdtype)
    return _out(uniform_real(engine(op_seed), _numel(shape), t(np.float32(lo)), t(np.float32(hi)), t), shape,
                tdtype, device)


def t_gaussian(shape, tdtype, mean, std, op_seed=0, device=None):
    """gaussian_random (GaussianKernel: one normal_distribution<T>(float mean, float std) per call)."""
    t = _np_float(tdtype)
    return _out(normal(engine(op_seed), _numel(shape), t(np.float32(mean)), t(np.float32(std)), t), shape, tdtype,
                device)


def t_randint(low, high, shape, tdtype, op_seed=0, device=None):
    """randint: uniform_int_distribution<T>(low, high - 1)."""
    return _out(uniform_int(engine(op_seed), _numel(shape), int(low), int(high) - 1), shape, tdtype, device)


def t_randperm(n, tdtype, op_seed=0, device=None):
    return _out(shuffle(engine(op_seed), int(n)), [int(n)], tdtype, device)


def t_bernoulli(p):
    """bernoulli: uniform_real_distribution<T>(0, 1) per element, 1 where it is below p."""
    t = _np_float(p.dtype)
    u = uniform_real(engine(), p.numel(), t(0.0), t(1.0), t)
    return _out(u < p.detach().cpu().numpy().astype(t).reshape(-1), p.shape, p.dtype, p.device)


def t_poisson(lam):
    return _out(poisson(engine(), lam.detach().cpu().numpy().reshape(-1)), lam.shape, lam.dtype, lam.device)


def t_exponential(x, lam):
    t = _np_float(x.dtype)
    return _out(exponential(engine(), x.numel(), t(np.float32(lam)), t), x.shape, x.dtype, x.device)


def t_keep_mask(shape, p, op_seed=0, device=None):
    """dropout / alpha_dropout's keep mask: uniform_real_distribution<float>(0, 1) per element, kept where it is
    not below p (float32)."""
    import torch

    u = uniform_real(engine(op_seed), _numel(shape), np.float32(0.0), np.float32(1.0), np.float32)
    return _out(u >= np.float32(p), shape, torch.bool, device)


def t_gumbel_uniform(x):
    """gumbel_softmax's draws: uniform_real_distribution<T>(0.00001, 1), one per element in memory order."""
    t = _np_float(x.dtype)
    return _out(uniform_real(engine(), x.numel(), t(0.00001), t(1.0), t), x.shape, x.dtype, x.device)
