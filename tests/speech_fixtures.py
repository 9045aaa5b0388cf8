"""Small speech corpora for tests/test_audio_datasets.py, shared with ``tools/observe_mindspore_audio_datasets.py``:
a Yes/No folder (two 8 kHz WAV files and a file that is no WAV) and an LJ Speech folder (``metadata.csv``, two
22.05 kHz WAV files), 16-bit PCM including the extreme samples."""
import wave
from pathlib import Path

import numpy as np


def _write_wav(path: Path, samples: list, rate: int) -> None:
    with wave.open(str(path), "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(rate)
        file.writeframes(np.array(samples, np.int16).tobytes())


def write_speech(root: Path) -> None:
    """Write ``root/YesNoDataset`` and ``root/LJSpeechDataset``."""
    yes_no = root / "YesNoDataset"
    yes_no.mkdir(parents=True)
    _write_wav(yes_no / "1_1_0_1_1_0_0_0.wav", [7, -7, 300], 8000)
    _write_wav(yes_no / "0_1_0_0_1_0_1_1.wav", [0, 1000, -32768, 32767, 5], 8000)
    (yes_no / "notes.txt").write_text("not a recording", encoding="utf-8")
    lj = root / "LJSpeechDataset"
    (lj / "wavs").mkdir(parents=True)
    _write_wav(lj / "wavs" / "LJ001-0001.wav", [0, 1000, -32768], 22050)
    _write_wav(lj / "wavs" / "LJ001-0002.wav", [7, -7, 300, 2], 22050)
    (lj / "metadata.csv").write_text("LJ001-0001|Printing, in the only sense|Printing, in the only sense\n"
                                     "LJ001-0002|in being comparatively modern.|in being comparatively modern, 2\n",
                                     encoding="utf-8")
