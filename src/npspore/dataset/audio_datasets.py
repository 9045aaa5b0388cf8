"""Speech corpora in their published layouts, read as MindSpore 2.10 reads them (rows recorded from it by
``tools/observe_mindspore_audio_datasets.py``): a waveform column is float32 ``(channels, samples)``, 16-bit PCM
divided by 32767, beside the file's int32 ``sample_rate``.

- ``YesNoDataset``: each ``*.wav`` of ``dataset_dir`` in name order, with ``label`` the eight 0/1 digits of its name
  (int32).
- ``LJSpeechDataset``: each line ``id|transcription|normalized_transcription`` of ``metadata.csv``, its
  ``wavs/<id>.wav``, and the two texts (0-d str).

Both are random-access sources (``sampler``, shuffled by default).
"""
from __future__ import annotations

import os
import wave
from typing import Any

import numpy as np

from .image_files import _check_dataset_dir
from .sampling import sampler_from_arguments
from .sources import RandomAccessSource

__all__ = ["YesNoDataset", "LJSpeechDataset", "read_wav"]


def read_wav(path: str) -> tuple[np.ndarray, np.ndarray]:
    """The 16-bit PCM WAV file ``path`` as (float32 ``(channels, samples)`` / 32767, int32 sample rate).

    Raises:
        RuntimeError: naming the file, if it is not 16-bit PCM WAV.
    """
    try:
        with wave.open(path, "rb") as file:
            channels, width, rate = file.getnchannels(), file.getsampwidth(), file.getframerate()
            frames = file.readframes(file.getnframes())
    except (OSError, EOFError, wave.Error) as error:
        raise RuntimeError(f"Invalid wav file {path}: {error}") from None
    if width != 2:
        raise RuntimeError(f"Invalid wav file {path}: npspore reads 16-bit PCM, but it has {8 * width}-bit samples.")
    samples = np.frombuffer(frames, "<i2").reshape(-1, channels).T
    return (samples / np.float32(32767)).astype(np.float32), np.array(rate, np.int32)


class _SpeechFiles(RandomAccessSource):
    """A random-access source over ``_entries`` (set before ``__init__``), with MindSpore's mappable arguments."""

    def __init__(self, columns: list[str], num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                 shard_id, cache) -> None:
        super().__init__(columns, sampler_from_arguments(num_samples, shuffle, sampler, num_shards, shard_id),
                         num_parallel_workers, cache)

    def _length(self):
        return len(self._entries)


class YesNoDataset(_SpeechFiles):
    """The Yes/No corpus: ``waveform``, ``sample_rate``, ``label`` per ``*.wav`` (see the module doc).

    Args:
        dataset_dir (str): the folder of the WAV files.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``ImageFolderDataset``'s.

    Raises:
        ValueError: If the folder is wrong. RuntimeError: (when read) If a name is not eight 0/1 digits.
    """

    def __init__(self, dataset_dir: str, num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, sampler: Any = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None) -> None:
        folder = _check_dataset_dir(dataset_dir)
        self.dataset_dir = dataset_dir
        self._entries = [os.path.join(folder, name) for name in sorted(os.listdir(folder)) if name.endswith(".wav")]
        super().__init__(["waveform", "sample_rate", "label"], num_samples, num_parallel_workers, shuffle, sampler,
                         num_shards, shard_id, cache)

    def _row(self, index):
        path = self._entries[index]
        digits = os.path.basename(path)[:-4].split("_")
        if len(digits) != 8 or any(d not in ("0", "1") for d in digits):
            raise RuntimeError(f"Invalid file name {path}: a YesNo file is named by eight 0/1 digits joined by '_'.")
        waveform, rate = read_wav(path)
        return waveform, rate, np.array([int(d) for d in digits], np.int32)


class LJSpeechDataset(_SpeechFiles):
    """The LJ Speech corpus: ``waveform``, ``sample_rate``, ``transcription``, ``normalized_transcription`` per line
    of ``metadata.csv`` (see the module doc).

    Args:
        dataset_dir (str): the folder holding ``metadata.csv`` and ``wavs``.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``ImageFolderDataset``'s.

    Raises:
        ValueError: If the folder or ``metadata.csv`` is missing or a line has not three ``|`` fields.
    """

    def __init__(self, dataset_dir: str, num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, sampler: Any = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None) -> None:
        folder = _check_dataset_dir(dataset_dir)
        metadata = os.path.join(folder, "metadata.csv")
        if not os.path.isfile(metadata):
            raise ValueError(f"Invalid file, {metadata} does not exist.")
        self.dataset_dir, self._entries = dataset_dir, []
        with open(metadata, encoding="utf-8") as file:
            for number, line in enumerate(file, 1):
                fields = line.rstrip("\n").split("|")
                if line.strip() and len(fields) != 3:
                    raise ValueError(f"Invalid line {number} of {metadata}: it should be id|transcription|"
                                     f"normalized_transcription.")
                if line.strip():
                    self._entries.append((os.path.join(folder, "wavs", fields[0] + ".wav"), fields[1], fields[2]))
        super().__init__(["waveform", "sample_rate", "transcription", "normalized_transcription"], num_samples,
                         num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)

    def _row(self, index):
        path, text, normalized = self._entries[index]
        waveform, rate = read_wav(path)
        return waveform, rate, np.array(text), np.array(normalized)
