"""paddle.audio over the public API (see rec_cases26.py): the mel / filter-bank / DCT / dB helpers, every
window with parameters, and the four feature layers on a two-channel signal; tests/api2x/test_audio.py replays
them (and round-trips a WAV file through the wave backend)."""
import numpy as np


def functional(paddle):
    F = paddle.audio.functional
    out = {"hz_to_mel": np.array([F.hz_to_mel(1500.0), F.hz_to_mel(500.0, htk=True), F.mel_to_hz(20.0),
                                  F.mel_to_hz(20.0, htk=True)]),
           "hz_to_mel_t": F.hz_to_mel(paddle.to_tensor([300.0, 3000.0])).numpy(),
           "mel_to_hz_t": F.mel_to_hz(paddle.to_tensor([10.0, 30.0])).numpy(),
           "mel_freqs": F.mel_frequencies(5, 0, 8000).numpy(), "fft_freqs": F.fft_frequencies(16000, 16).numpy(),
           "fbank": F.compute_fbank_matrix(16000, 64, n_mels=8).numpy(),
           "fbank_htk_l2": F.compute_fbank_matrix(8000, 32, n_mels=4, htk=True, norm=2.0).numpy(),
           "dct": F.create_dct(4, 8).numpy(), "dct_none": F.create_dct(3, 5, norm=None).numpy(),
           "db": F.power_to_db(paddle.to_tensor([1e-12, 1.0, 100.0]), top_db=30.0).numpy()}
    wins = ["hann", "hamming", "blackman", "cosine", "bohman", "triang", ("gaussian", 2.0), ("tukey", 0.5),
            ("exponential", None, 2.0), ("general_gaussian", 1.5, 3.0), ("general_hamming", 0.6)]
    for i, w in enumerate(wins):
        out[f"win{i}_periodic"] = F.get_window(w, 7).numpy()
        out[f"win{i}_symmetric"] = F.get_window(w, 6, fftbins=False).numpy()
    return out


def features(paddle):
    A = paddle.audio
    x = paddle.to_tensor(np.sin(np.linspace(0, 200, 4000)).astype("float32")[None] * np.array([[1.0], [0.5]],
                                                                                                "float32"))
    layers = {"spectrogram": A.features.Spectrogram(n_fft=256, hop_length=128),
              "mel": A.features.MelSpectrogram(sr=16000, n_fft=256, hop_length=128, n_mels=16),
              "logmel": A.features.LogMelSpectrogram(sr=16000, n_fft=256, n_mels=16, top_db=80.0),
              "mfcc": A.features.MFCC(sr=16000, n_mfcc=8, n_fft=256, n_mels=16, top_db=80.0)}
    return {k: layer(x).numpy() for k, layer in layers.items()}


CASES = [functional, features]
