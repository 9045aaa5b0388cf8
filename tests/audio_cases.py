"""The cases of tests/test_audio_transforms.py, shared with ``tools/observe_mindspore_audio.py``: ``(key,
expression)`` over ``audio`` (``dataset.audio``), ``utils`` (``dataset.audio.utils``), ``np`` and the inputs ``X``
(a waveform ``(2, 12)``) and ``S`` (a spectrogram ``(2, 5, 3)``)."""
import numpy as np

X = (np.sin(np.arange(24) * 0.9) + np.arange(24) / 17).astype(np.float32).reshape(2, 12)
S = (np.abs(np.cos(np.arange(30) * 1.3)) + 0.01).astype(np.float32).reshape(2, 5, 3)

CASES = [
    *[(f"spectrogram_{w}", f"audio.Spectrogram(n_fft=8, hop_length=4, window=audio.WindowType.{w})(X)")
      for w in ("HANN", "HAMMING", "BLACKMAN", "BARTLETT", "KAISER")],
    ("spectrogram_options", "audio.Spectrogram(n_fft=8, win_length=6, hop_length=3, pad=1, power=1.0, "
                            "normalized=True, pad_mode=audio.BorderType.CONSTANT)(X)"),
    ("spectrogram_edge", "audio.Spectrogram(n_fft=6, hop_length=5, pad_mode=audio.BorderType.EDGE)(X[0])"),
    ("spectrogram_two_sided", "audio.Spectrogram(n_fft=4, hop_length=4, center=False, onesided=False)(X[0])"),
    ("mel_scale", "audio.MelScale(n_mels=3, sample_rate=16, n_stft=5)(S)"),
    ("mel_scale_slaney", "audio.MelScale(n_mels=2, sample_rate=4000, f_min=10.0, f_max=1800.0, n_stft=5, "
                         "norm=audio.NormType.SLANEY, mel_type=audio.MelType.SLANEY)(S)"),
    ("mel_spectrogram", "audio.MelSpectrogram(sample_rate=100, n_fft=8, n_mels=3, hop_length=4)(X)"),
    ("amplitude_to_db", "audio.AmplitudeToDB()(S)"),
    ("amplitude_to_db_magnitude", "audio.AmplitudeToDB(audio.ScaleType.MAGNITUDE, ref_value=2.0, amin=1e-3, "
                                  "top_db=10.0)(S)"),
    ("amplitude_to_db_top", "audio.AmplitudeToDB(top_db=3.0)(S * np.array([1, 100], np.float32)[:, None, None])"),
    ("resample_down", "audio.Resample(16, 12)(X)"),
    ("resample_up", "audio.Resample(8, 20, lowpass_filter_width=4, rolloff=0.9)(X[0])"),
    ("resample_kaiser", "audio.Resample(48, 32, audio.ResampleMethod.KAISER_WINDOW)(X)"),
    ("resample_kaiser_beta", "audio.Resample(3, 5, audio.ResampleMethod.KAISER_WINDOW, beta=8.0)(X[0, :5])"),
    ("frequency_masking", "audio.FrequencyMasking(False, 2, 3, 9.0)(S)"),
    ("time_masking", "audio.TimeMasking(False, 2, 1, 0.5)(S)"),
    ("create_dct", "utils.create_dct(3, 4)"),
    ("create_dct_ortho", "utils.create_dct(3, 4, utils.NormMode.ORTHO)"),
    ("melscale_fbanks", "utils.melscale_fbanks(5, 0.0, 8.0, 3, 16)"),
    ("linear_fbanks", "utils.linear_fbanks(5, 0.0, 8.0, 3, 16)"),
    # MindSpore's argument errors
    ("spectrogram_bad_window", "audio.Spectrogram(window='hann')"),
    ("mel_scale_bad_range", "audio.MelScale(f_min=9000.0)"),
    ("masking_bad_param", "audio.FrequencyMasking(freq_mask_param=-1)"),
    ("masking_bad_iid", "audio.TimeMasking(iid_masks=1)"),
    ("resample_bad_rolloff", "audio.Resample(rolloff=1.5)"),
    ("db_bad_amin", "audio.AmplitudeToDB(amin=0.0)"),
]
