"""paddle.audio against Paddle 2.6.2 (tools/oracle/audio26_cases.py, golden audio26), and the wave backend."""

from __future__ import annotations

import numpy as np
import pytest

from tests.api2x import cases


@pytest.mark.parametrize("case", cases.params("audio26_cases"))
def test_case_matches_paddle(case):
    # float32 STFTs and logs of small powers: Paddle's scalar division is a scale op (another last bit)
    cases.check(case, "audio26", rtol=2e-5, atol=2e-4 if case.__name__ == "features" else 1e-6)


@pytest.mark.parametrize("channels_first", [True, False])
def test_wave_backend_round_trip(tmp_path, channels_first):
    import paddle

    sig = (np.sin(np.linspace(0, 50, 800)) * 0.5).astype("float32")[None].repeat(2, 0) * np.array([[1.0], [-0.25]],
                                                                                                   "float32")
    src = paddle.to_tensor(sig if channels_first else sig.T)
    path = str(tmp_path / "a.wav")
    paddle.audio.save(path, src, 8000, channels_first=channels_first)
    info = paddle.audio.info(path)
    assert (info.sample_rate, info.num_frames, info.num_channels, info.bits_per_sample) == (8000, 800, 2, 16)
    wav, sr = paddle.audio.load(path, frame_offset=100, num_frames=50, channels_first=channels_first)
    want = sig[:, 100:150]
    assert sr == 8000 and wav.shape == (list(want.shape) if channels_first else list(want.T.shape))
    np.testing.assert_allclose(wav.numpy(), want if channels_first else want.T, atol=1 / 32768)


def test_datasets_and_windows_not_provided():
    import paddle
    from paddle_compat.engine.core.errors import UnsupportedAPIError

    with pytest.raises(UnsupportedAPIError, match="ESC50"):
        paddle.audio.datasets.ESC50()
    with pytest.raises(ValueError, match="needs one or more parameters"):
        paddle.audio.functional.get_window("gaussian", 8)
