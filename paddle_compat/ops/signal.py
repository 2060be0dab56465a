"""paddle.signal (python/paddle/signal.py): stft / istft on torch.stft / torch.istft (same framing, window
centring, normalisation by n_fft ** -0.5 and onesided layout [..., n_fft // 2 + 1, frames])."""

from __future__ import annotations

import torch

from paddle_compat.ops.registry import op


def _check(api: str, n_fft: int, hop_length, win_length) -> tuple[int, int]:
    hop = n_fft // 4 if hop_length is None else int(hop_length)
    win = n_fft if win_length is None else int(win_length)
    if hop <= 0:
        raise ValueError(f"{api}: hop_length should be > 0, but got {hop}")
    if not 0 < win <= n_fft:
        raise ValueError(f"{api}: win_length should be in (0, n_fft={n_fft}], but got {win}")
    return hop, win


@op("stft", exports=("paddle.signal.stft", "paddle.Tensor.stft"))
def stft(x, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="reflect",
         normalized=False, onesided=True, name=None):
    hop, win = _check("paddle.signal.stft", n_fft, hop_length, win_length)
    if x.dim() not in (1, 2):
        raise ValueError(f"paddle.signal.stft: x should be a 1-D or 2-D tensor, but got shape {list(x.shape)}")
    if x.is_complex() and onesided:
        raise ValueError("paddle.signal.stft: onesided should be False for a complex input")
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        raise ValueError(f"paddle.signal.stft: window should be 1-D of size win_length={win}, got shape "
                         f"{list(window.shape)}")
    if window is None:  # Paddle's default, given explicitly (torch warns without one)
        window = torch.ones(win, dtype=x.real.dtype if x.is_complex() else x.dtype, device=x.device)
    return torch.stft(x, n_fft, hop_length=hop, win_length=win, window=window, center=center, pad_mode=pad_mode,
                      normalized=normalized, onesided=onesided, return_complex=True)


@op("istft", exports=("paddle.signal.istft", "paddle.Tensor.istft"))
def istft(x, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False, onesided=True,
          length=None, return_complex=False, name=None):
    hop, win = _check("paddle.signal.istft", n_fft, hop_length, win_length)
    if x.dim() not in (2, 3) or not x.is_complex():
        raise ValueError(f"paddle.signal.istft: x should be a complex 2-D or 3-D tensor, but got shape "
                         f"{list(x.shape)} ({str(x.dtype)[6:]})")
    if return_complex and onesided:
        raise ValueError("paddle.signal.istft: onesided should be False when return_complex is True")
    if window is None:
        window = torch.ones(win, dtype=x.real.dtype, device=x.device)
    return torch.istft(x, n_fft, hop_length=hop, win_length=win, window=window, center=center,
                       normalized=normalized, onesided=onesided, length=length, return_complex=return_complex)
