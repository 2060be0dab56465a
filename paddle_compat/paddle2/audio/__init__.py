"""paddle.audio (Paddle 2.6): the functional helpers (mel scales, filter banks, DCT, dB, windows), the feature
layers (Spectrogram, MelSpectrogram, LogMelSpectrogram, MFCC) over paddle.signal.stft, and the WAV backend
(load / save / info with Python's wave module, 16-bit PCM, as Paddle's default `wave_backend`).

The mel / filter-bank formulas are the Slaney / HTK ones Paddle uses (as librosa's); windows follow
scipy.signal.windows (Paddle's register), computed in float64 and cast to `dtype`. The datasets (ESC50, TESS)
download their archives and are not provided."""

from __future__ import annotations

import math
import wave
from typing import Any

import numpy as np

from paddle_compat._export import unsupported_stub
from paddle_compat.engine.core.errors import UnsupportedAPIError
from paddle_compat.paddle2.nn.layer import Layer
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.framework.registry import export

_A = "paddle.audio"
_F = _A + ".functional"
_MIN_LOG_HZ, _F_SP, _LOGSTEP = 1000.0, 200.0 / 3, math.log(6.4) / 27.0
_MIN_LOG_MEL = _MIN_LOG_HZ / _F_SP


def _is_tensor(x: Any) -> bool:
    from paddle_compat.engine.framework.tensor import is_tensor

    return is_tensor(x)


def hz_to_mel(freq: Any, htk: bool = False) -> Any:
    """Hz to mels: HTK's 2595 log10(1 + f / 700), or Slaney's (linear below 1 kHz, logarithmic above)."""
    if htk:
        return 2595.0 * (P("paddle.log10")(1.0 + freq / 700.0) if _is_tensor(freq) else math.log10(1.0 + freq / 700.0))
    mels = freq / _F_SP
    if _is_tensor(freq):
        log = _MIN_LOG_MEL + P("paddle.log")(freq / _MIN_LOG_HZ + 1e-10) / _LOGSTEP
        return P("paddle.where")(freq > _MIN_LOG_HZ, log, mels)
    return _MIN_LOG_MEL + math.log(freq / _MIN_LOG_HZ + 1e-10) / _LOGSTEP if freq >= _MIN_LOG_HZ else mels


def mel_to_hz(mel: Any, htk: bool = False) -> Any:
    """Mels to Hz (the inverse of hz_to_mel)."""
    if htk:
        return 700.0 * (10.0 ** (mel / 2595.0) - 1.0)
    freqs = _F_SP * mel
    if _is_tensor(mel):
        log = _MIN_LOG_HZ * P("paddle.exp")(_LOGSTEP * (mel - _MIN_LOG_MEL))
        return P("paddle.where")(mel > _MIN_LOG_MEL, log, freqs)
    return _MIN_LOG_HZ * math.exp(_LOGSTEP * (mel - _MIN_LOG_MEL)) if mel >= _MIN_LOG_MEL else freqs


def mel_frequencies(n_mels: int = 64, f_min: float = 0.0, f_max: float = 11025.0, htk: bool = False,
                    dtype: str = "float32") -> Any:
    """n_mels frequencies evenly spaced on the mel scale between f_min and f_max."""
    mels = P("paddle.linspace")(hz_to_mel(f_min, htk=htk), hz_to_mel(f_max, htk=htk), n_mels, dtype=dtype)
    return mel_to_hz(mels, htk=htk)


def fft_frequencies(sr: int, n_fft: int, dtype: str = "float32") -> Any:
    return P("paddle.linspace")(0, float(sr) / 2, int(1 + n_fft // 2), dtype=dtype)


def compute_fbank_matrix(sr: int, n_fft: int, n_mels: int = 64, f_min: float = 0.0, f_max: float | None = None,
                         htk: bool = False, norm: Any = "slaney", dtype: str = "float32") -> Any:
    """The [n_mels, n_fft // 2 + 1] triangular mel filter bank (Slaney area-normalised, or rows p-normalised
    for a numeric norm)."""
    f_max = float(sr) / 2 if f_max is None else f_max
    fft = fft_frequencies(sr, n_fft, dtype)
    mel_f = mel_frequencies(n_mels + 2, f_min=f_min, f_max=f_max, htk=htk, dtype=dtype)
    fdiff = mel_f[1:] - mel_f[:-1]
    ramps = mel_f.unsqueeze(1) - fft.unsqueeze(0)
    lower = -ramps[:n_mels] / fdiff[:n_mels].unsqueeze(1)
    upper = ramps[2:n_mels + 2] / fdiff[1:n_mels + 1].unsqueeze(1)
    weights = P("paddle.maximum")(P("paddle.zeros_like")(lower), P("paddle.minimum")(lower, upper))
    if norm == "slaney":
        weights = weights * (2.0 / (mel_f[2:n_mels + 2] - mel_f[:n_mels])).unsqueeze(1)
    elif isinstance(norm, (int, float)):
        weights = P("paddle.nn.functional.normalize")(weights, p=norm, axis=-1)
    return weights


def power_to_db(spect: Any, ref_value: float = 1.0, amin: float = 1e-10, top_db: float | None = 80.0) -> Any:
    """10 log10(max(spect, amin) / ref_value), floored at (max - top_db) when top_db is given."""
    if amin <= 0:
        raise Exception("amin must be strictly positive")
    if ref_value <= 0:
        raise Exception("ref_value must be strictly positive")
    log_spec = 10.0 * P("paddle.log10")(P("paddle.clip")(spect, min=amin)) - 10.0 * math.log10(max(ref_value, amin))
    if top_db is not None:
        if top_db < 0:
            raise Exception("top_db must be non-negative")
        log_spec = P("paddle.maximum")(log_spec, P("paddle.full_like")(log_spec, 1.0) * (log_spec.max() - top_db))
    return log_spec


def create_dct(n_mfcc: int, n_mels: int, norm: str | None = "ortho", dtype: str = "float32") -> Any:
    """The [n_mels, n_mfcc] DCT-II matrix (orthonormal, or unnormalised x2 with norm None)."""
    n = np.arange(n_mels, dtype="float64")
    k = np.arange(n_mfcc, dtype="float64")[:, None]
    dct = np.cos(math.pi / float(n_mels) * (n + 0.5) * k)
    if norm is None:
        dct *= 2.0
    else:
        assert norm == "ortho"
        dct[0] *= 1.0 / math.sqrt(2.0)
        dct *= math.sqrt(2.0 / float(n_mels))
    return P("paddle.to_tensor")(dct.T.astype(dtype))


# ------------------------------------------------------------------------------------------------ windows
def _general_cosine(m: int, a: Any) -> np.ndarray:
    fac = np.linspace(-np.pi, np.pi, m)
    return sum(ak * np.cos(k * fac) for k, ak in enumerate(a))


_WINDOWS = {
    "hann": lambda m: _general_cosine(m, [0.5, 0.5]),
    "hamming": lambda m: _general_cosine(m, [0.54, 0.46]),
    "blackman": lambda m: _general_cosine(m, [0.42, 0.50, 0.08]),
    "general_cosine": lambda m, a: _general_cosine(m, a),
    "general_hamming": lambda m, alpha: _general_cosine(m, [alpha, 1.0 - alpha]),
    "cosine": lambda m: np.sin(np.pi / m * (np.arange(m) + 0.5)),
    "bohman": lambda m: np.concatenate([[0.0], (lambda f: (1 - f) * np.cos(np.pi * f) + np.sin(np.pi * f) / np.pi)(
        np.abs(np.linspace(-1, 1, m)[1:-1])), [0.0]]) if m > 2 else np.ones(m),
    "triang": lambda m: (lambda n: np.concatenate([(2 * n - 1.0) / m, ((2 * n - 1.0) / m)[::-1]]) if m % 2 == 0
                         else np.concatenate([2 * n / (m + 1.0), (2 * n / (m + 1.0))[-2::-1]]))(
        np.arange(1, (m + 1) // 2 + 1)),
    "gaussian": lambda m, std: np.exp(-0.5 * ((np.arange(m) - (m - 1.0) / 2.0) / std) ** 2),
    "general_gaussian": lambda m, p, sig: np.exp(-0.5 * np.abs((np.arange(m) - (m - 1.0) / 2.0) / sig) ** (2 * p)),
    "exponential": lambda m, center=None, tau=1.0: np.exp(
        -np.abs(np.arange(m) - ((m - 1) / 2 if center is None else center)) / tau),
    "tukey": lambda m, alpha=0.5: _tukey(m, alpha),
}


def _tukey(m: int, alpha: float) -> np.ndarray:
    if alpha <= 0:
        return np.ones(m)
    if alpha >= 1.0:
        return _WINDOWS["hann"](m)
    n = np.arange(m)
    width = int(np.floor(alpha * (m - 1) / 2.0))
    w1 = 0.5 * (1 + np.cos(np.pi * (-1 + 2.0 * n[:width + 1] / alpha / (m - 1))))
    w2 = np.ones(m - 2 * (width + 1))
    w3 = 0.5 * (1 + np.cos(np.pi * (-2.0 / alpha + 1 + 2.0 * n[m - width - 1:] / alpha / (m - 1))))
    return np.concatenate([w1, w2, w3])


def get_window(window: Any, win_length: int, fftbins: bool = True, dtype: str = "float64") -> Any:
    """A window of win_length samples (periodic when fftbins, symmetric otherwise); a tuple passes the
    window's parameters, e.g. ('gaussian', 7)."""
    if isinstance(window, tuple):
        name, args = window[0], window[1:]
    elif isinstance(window, str):
        if window in ("gaussian", "exponential"):
            raise ValueError(f"The '{window}' window needs one or more parameters -- pass a tuple.")
        name, args = window, ()
    else:
        raise ValueError(f"{type(window)} as window type is not supported.")
    if name == "taylor":
        raise UnsupportedAPIError(f"{_F}.get_window('taylor')", "the Taylor window is not provided")
    fn = _WINDOWS.get(name)
    if fn is None:
        raise ValueError("Unknown window type.")
    m = int(win_length)
    if m <= 1:
        return P("paddle.ones")([max(m, 0)], dtype=dtype)
    extend = fftbins  # periodic: one more point, then truncated (scipy's sym=False)
    w = np.asarray(fn(m + 1 if extend else m, *args), dtype="float64")
    return P("paddle.to_tensor")((w[:-1] if extend else w).astype(dtype))


for _fn in (hz_to_mel, mel_to_hz, mel_frequencies, fft_frequencies, compute_fbank_matrix, power_to_db, create_dct):
    export(_fn, f"{_F}.{_fn.__name__}", f"{_F}.functional.{_fn.__name__}")
export(get_window, f"{_F}.get_window", f"{_F}.window.get_window")


# ------------------------------------------------------------------------------------------------ features
class Spectrogram(Layer):
    """|stft(x)| ** power, [batch, n_fft // 2 + 1, frames]."""

    def __init__(self, n_fft: int = 512, hop_length: int | None = 512, win_length: int | None = None,
                 window: str = "hann", power: float = 1.0, center: bool = True, pad_mode: str = "reflect",
                 dtype: str = "float32") -> None:
        super().__init__()
        assert power > 0, "Power of spectrogram must be > 0."
        self.power = power
        win_length = n_fft if win_length is None else win_length
        self.fft_window = get_window(window, win_length, fftbins=True, dtype=dtype)
        self._stft_args = dict(n_fft=n_fft, hop_length=hop_length, win_length=win_length, center=center,
                               pad_mode=pad_mode)

    def forward(self, x: Any) -> Any:
        stft = P("paddle.signal.stft")(x, window=self.fft_window, **self._stft_args)
        return P("paddle.pow")(P("paddle.abs")(stft), self.power)


class MelSpectrogram(Layer):
    """The mel filter bank times the power spectrogram: [batch, n_mels, frames]."""

    def __init__(self, sr: int = 22050, n_fft: int = 2048, hop_length: int | None = 512, win_length: int | None = None,
                 window: str = "hann", power: float = 2.0, center: bool = True, pad_mode: str = "reflect",
                 n_mels: int = 64, f_min: float = 50.0, f_max: float | None = None, htk: bool = False,
                 norm: Any = "slaney", dtype: str = "float32") -> None:
        super().__init__()
        self._spectrogram = Spectrogram(n_fft, hop_length, win_length, window, power, center, pad_mode, dtype)
        self.register_buffer("fbank_matrix", compute_fbank_matrix(sr, n_fft, n_mels, f_min, f_max, htk, norm, dtype))

    def forward(self, x: Any) -> Any:
        return P("paddle.matmul")(self.fbank_matrix, self._spectrogram(x))


class LogMelSpectrogram(Layer):
    """power_to_db of the mel spectrogram."""

    def __init__(self, sr: int = 22050, n_fft: int = 512, hop_length: int | None = None, win_length: int | None = None,
                 window: str = "hann", power: float = 2.0, center: bool = True, pad_mode: str = "reflect",
                 n_mels: int = 64, f_min: float = 50.0, f_max: float | None = None, htk: bool = False,
                 norm: Any = "slaney", ref_value: float = 1.0, amin: float = 1e-10, top_db: float | None = None,
                 dtype: str = "float32") -> None:
        super().__init__()
        self._melspectrogram = MelSpectrogram(sr, n_fft, hop_length, win_length, window, power, center, pad_mode,
                                              n_mels, f_min, f_max, htk, norm, dtype)
        self.ref_value, self.amin, self.top_db = ref_value, amin, top_db

    def forward(self, x: Any) -> Any:
        return power_to_db(self._melspectrogram(x), self.ref_value, self.amin, self.top_db)


class MFCC(Layer):
    """The DCT of the log-mel spectrogram: [batch, n_mfcc, frames]."""

    def __init__(self, sr: int = 22050, n_mfcc: int = 40, n_fft: int = 512, hop_length: int | None = None,
                 win_length: int | None = None, window: str = "hann", power: float = 2.0, center: bool = True,
                 pad_mode: str = "reflect", n_mels: int = 64, f_min: float = 50.0, f_max: float | None = None,
                 htk: bool = False, norm: Any = "slaney", ref_value: float = 1.0, amin: float = 1e-10,
                 top_db: float | None = None, dtype: str = "float32") -> None:
        super().__init__()
        assert n_mfcc <= n_mels, f"n_mfcc cannot be larger than n_mels: {n_mfcc} vs {n_mels}"
        self._log_melspectrogram = LogMelSpectrogram(sr, n_fft, hop_length, win_length, window, power, center,
                                                     pad_mode, n_mels, f_min, f_max, htk, norm, ref_value, amin,
                                                     top_db, dtype)
        self.register_buffer("dct_matrix", create_dct(n_mfcc=n_mfcc, n_mels=n_mels, dtype=dtype))

    def forward(self, x: Any) -> Any:
        log_mel = self._log_melspectrogram(x)
        return P("paddle.matmul")(log_mel.transpose((0, 2, 1)), self.dct_matrix).transpose((0, 2, 1))


for _cls in (Spectrogram, MelSpectrogram, LogMelSpectrogram, MFCC):
    export(_cls, f"{_A}.features.{_cls.__name__}", f"{_A}.features.layers.{_cls.__name__}")


# ------------------------------------------------------------------------------------------------ backends
class AudioInfo:
    def __init__(self, sample_rate: int, num_frames: int, num_channels: int, bits_per_sample: int,
                 encoding: str) -> None:
        self.sample_rate, self.num_frames, self.num_channels = sample_rate, num_frames, num_channels
        self.bits_per_sample, self.encoding = bits_per_sample, encoding


def info(filepath: str) -> AudioInfo:
    with wave.open(filepath, "rb") as f:
        return AudioInfo(f.getframerate(), f.getnframes(), f.getnchannels(), f.getsampwidth() * 8, "PCM_S")


def load(filepath: str, frame_offset: int = 0, num_frames: int = -1, normalize: bool = True,
         channels_first: bool = True) -> tuple:
    """(waveform, sample_rate) of a 16-bit PCM WAV file: [channels, frames] (channels_first), float32 in [-1, 1)
    when normalize, else the int16 samples as float32."""
    with wave.open(filepath, "rb") as f:
        if f.getsampwidth() != 2:
            raise NotImplementedError(f"{_A}.load: the wave backend reads 16-bit PCM WAV files only")
        sr, ch = f.getframerate(), f.getnchannels()
        f.setpos(int(frame_offset))
        frames = f.readframes(f.getnframes() - int(frame_offset) if num_frames < 0 else int(num_frames))
    data = np.frombuffer(frames, dtype="<i2").reshape(-1, ch).astype("float32")
    if normalize:
        data = data / 32768.0
    return P("paddle.to_tensor")(data.T if channels_first else data), sr


def save(filepath: str, src: Any, sample_rate: int, channels_first: bool = True, encoding: str | None = None,
         bits_per_sample: int | None = 16) -> None:
    """Write a 16-bit PCM WAV file from a float waveform in [-1, 1] (or int16 values)."""
    if bits_per_sample not in (None, 16):
        raise NotImplementedError(f"{_A}.save: the wave backend writes 16-bit PCM only")
    data = np.asarray(src.numpy() if hasattr(src, "numpy") else src)
    data = data.T if channels_first else data
    if data.ndim == 1:
        data = data[:, None]
    if data.dtype.kind == "f":
        data = np.clip(data * 32768.0, -32768, 32767)
    with wave.open(filepath, "wb") as f:
        f.setnchannels(data.shape[1])
        f.setsampwidth(2)
        f.setframerate(int(sample_rate))
        f.writeframes(data.astype("<i2").tobytes())


_BACKEND = ["wave_backend"]


def list_available_backends() -> list:
    return ["wave_backend"]


def get_current_backend() -> str:
    return _BACKEND[0]


def set_backend(backend_name: str) -> None:
    if backend_name != "wave_backend":
        raise NotImplementedError(f"{_A}.backends.set_backend: only 'wave_backend' is provided (paddleaudio's "
                                  f"soundfile backend is not), got {backend_name!r}")


for _fn in (load, save, info):
    export(_fn, f"{_A}.{_fn.__name__}", f"{_A}.backends.{_fn.__name__}", f"{_A}.backends.wave_backend.{_fn.__name__}")
for _fn in (list_available_backends, get_current_backend, set_backend):
    export(_fn, f"{_A}.backends.{_fn.__name__}")
export(AudioInfo, f"{_A}.backends.backend.AudioInfo")


for _n in ("ESC50", "TESS"):
    export(unsupported_stub(f"{_A}.datasets.{_n}", "class", "it downloads its archive; the audio datasets are not "
                            "provided"), f"{_A}.datasets.{_n}")
