"""paddle.signal (python/paddle/signal.py): stft / istft on torch.stft / torch.istft (same framing, window
centring, normalisation by n_fft ** -0.5 and onesided layout [..., n_fft // 2 + 1, frames])."""

from __future__ import annotations

import torch

from paddle_compat.engine.framework.registry import op


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


def _check_frame_args(api: str, axis: int, hop_length, frame_length=None) -> None:
    if axis not in (0, -1):
        raise ValueError(f"{api}: Unexpected axis: {axis}. It should be 0 or -1.")
    if frame_length is not None and (not isinstance(frame_length, int) or frame_length <= 0):
        raise ValueError(f"{api}: Unexpected frame_length: {frame_length}. It should be an positive integer.")
    if not isinstance(hop_length, int) or hop_length <= 0:
        raise ValueError(f"{api}: Unexpected hop_length: {hop_length}. It should be an positive integer.")


@op("frame", exports=("paddle.signal.frame",))
def frame(x, frame_length, hop_length, axis=-1, name=None):
    """Slices of `frame_length` every `hop_length` along the last (axis=-1: [..., frame_length, num_frames]) or
    first (axis=0: [num_frames, frame_length, ...]) axis; num_frames = 1 + (seq_length - frame_length) // hop."""
    _check_frame_args("paddle.signal.frame", axis, hop_length, frame_length)
    if frame_length > x.shape[axis]:
        raise ValueError(f"paddle.signal.frame: Attribute frame_length should be less equal than sequence length, "
                         f"but got ({frame_length}) > ({x.shape[axis]}).")
    if axis == -1:
        return x.unfold(-1, frame_length, hop_length).transpose(-1, -2)
    return x.unfold(0, frame_length, hop_length).movedim(-1, 1)


@op("overlap_add", exports=("paddle.signal.overlap_add",))
def overlap_add(x, hop_length, axis=-1, name=None):
    """Sum of frames placed every `hop_length` (the inverse layout of frame): [..., frame_length, num_frames] ->
    [..., (num_frames - 1) * hop_length + frame_length] for axis=-1, [num_frames, frame_length, ...] -> [seq, ...]
    for axis=0."""
    _check_frame_args("paddle.signal.overlap_add", axis, hop_length)
    if x.dim() < 2:
        raise ValueError(f"paddle.signal.overlap_add: x should have at least 2 dimensions, but got shape "
                         f"{list(x.shape)}")
    frames = x if axis == -1 else x.movedim((0, 1), (-1, -2))  # [..., frame_length, num_frames]
    length, count = frames.shape[-2], frames.shape[-1]
    starts = torch.arange(count, device=x.device) * hop_length
    index = (starts[:, None] + torch.arange(length, device=x.device)[None, :]).reshape(-1)
    values = frames.transpose(-1, -2).reshape(*frames.shape[:-2], count * length)
    out = values.new_zeros(*frames.shape[:-2], (count - 1) * hop_length + length).index_add(-1, index, values)
    return out if axis == -1 else out.movedim(-1, 0)
