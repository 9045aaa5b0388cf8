"""Sources reading image datasets in their distributed on-disk formats: MNIST and CIFAR.

Files are not loaded: each row's bytes are read from disk when the row is reached (see
``records.py``), so iterating 60,000 images holds only the rows in flight, and a file that changes
under a live dataset gives an error naming it.

MNIST (``MnistDataset``): IDX files ``train-images-idx3-ubyte``/``train-labels-idx1-ubyte`` and
``t10k-images-idx3-ubyte``/``t10k-labels-idx1-ubyte``: a big-endian header (magic 2051 and the
image count, rows and columns; magic 2049 and the label count) followed by one unsigned byte per
pixel or label. CIFAR-10 (``Cifar10Dataset``): binary batches ``data_batch_1.bin`` ...
``data_batch_5.bin`` and ``test_batch.bin``, each a run of 3073-byte records: the label byte,
then the 32x32 image as three planes (red, green, blue). CIFAR-100 (``Cifar100Dataset``):
``train.bin`` and ``test.bin``, 3074-byte records with a coarse and a fine label byte.
"""
from __future__ import annotations

import os

import numpy as np

from .records import DataFile, RecordFile
from .sampling import sampler_from_arguments
from .sources import RandomAccessSource

__all__ = ["MnistDataset", "FashionMnistDataset", "Cifar10Dataset", "Cifar100Dataset"]

_USAGES = ("train", "test", "all")
_IDX_IMAGES_MAGIC = 2051
_IDX_LABELS_MAGIC = 2049
_CIFAR_IMAGE_BYTES = 3 * 32 * 32
_MNIST_FILE_KINDS = ("images-idx3-ubyte", "labels-idx1-ubyte")
_MNIST_PREFIXES = {"train": ["train"], "test": ["t10k"], "all": ["train", "t10k"]}
_CIFAR10_FILES = {"train": [f"data_batch_{i}.bin" for i in range(1, 6)], "test": ["test_batch.bin"]}
_CIFAR10_FILES["all"] = _CIFAR10_FILES["train"] + _CIFAR10_FILES["test"]
_CIFAR100_FILES = {"train": ["train.bin"], "test": ["test.bin"], "all": ["train.bin", "test.bin"]}


def _check_dataset_dir(dataset_dir):
    if not isinstance(dataset_dir, (str, os.PathLike)):
        raise TypeError(f"Argument dataset_dir with value {dataset_dir!r} is not of type [<class 'str'>].")
    if not os.path.isdir(dataset_dir):
        raise ValueError(f"The folder {os.fspath(dataset_dir)} does not exist or is not a directory or "
                         f"permission denied!")
    return os.fspath(dataset_dir)


def _check_usage(usage):
    usage = "all" if usage is None else usage
    if usage not in _USAGES:
        raise ValueError(f"Input usage is not within the valid set of {list(_USAGES)}.")
    return usage


def _read_header(file, words):
    """The first ``words`` big-endian uint32 values of ``file`` (a DataFile)."""
    if file.size() < 4 * words:
        raise ValueError(f"Invalid file {file.path}: it is too short to hold an IDX header.")
    return [int(v) for v in np.frombuffer(file.read(0, 4 * words), dtype=">u4")]


def _records(file, offset, count, stride, fields):
    """The ``RecordFile`` of ``count`` records of ``stride`` bytes from ``offset`` in ``file``, after
    checking the file holds them all."""
    file.check_size(offset + count * stride, f"its header ({count} records of {stride} bytes)")
    return RecordFile(file, offset, count, stride, fields)


class _RecordFiles(RandomAccessSource):
    """A random-access source over parts concatenated in order, each part's item ``i`` being
    ``(pixels, labels)``: the image's bytes and one byte per label column (each read as a uint32 scalar)."""

    def __init__(self, column_names, parts, num_samples, shuffle, sampler, num_shards, shard_id,
                 num_parallel_workers, cache):
        self.parts = parts
        self.part_ends = np.cumsum([len(part) for part in parts])
        super().__init__(column_names, sampler_from_arguments(num_samples, shuffle, sampler, num_shards, shard_id),
                         num_parallel_workers, cache)

    def _length(self):
        return int(self.part_ends[-1]) if len(self.part_ends) else 0

    def _row(self, index):
        part = int(np.searchsorted(self.part_ends, index, side="right"))
        local = index - (int(self.part_ends[part - 1]) if part else 0)
        pixels, labels = self.parts[part][local]
        return (self._image(pixels),) + tuple(np.array(label, dtype=np.uint32) for label in labels)


class MnistDataset(_RecordFiles):
    """MNIST from IDX files in ``dataset_dir``: columns ``image`` (uint8, HxWx1) and ``label`` (uint32).

    Args:
        dataset_dir (str): the directory holding the IDX files (uncompressed).
        usage (str, optional): ``'train'`` (60,000 images), ``'test'`` (10,000) or ``'all'``
            (default: the train files then the test files, whichever are present, so a directory
            holding only one pair, as in MindSpore's quick start, reads as that pair).
        num_samples, shuffle (default ``True``), sampler, num_shards, shard_id: as for
            ``GeneratorDataset``. num_parallel_workers: accepted for compatibility.
        cache (DatasetCache, optional): a cache for the rows. Default: ``None``.

    Raises:
        ValueError: if the directory is missing, no file for ``usage`` is there, one file of a
            pair is missing (naming the paths), a file is not
            an IDX file of the right kind or is truncated, or the image and label counts differ.
    """

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        dataset_dir = _check_dataset_dir(dataset_dir)
        usage = _check_usage(usage)
        pairs = [tuple(os.path.join(dataset_dir, f"{prefix}-{kind}") for kind in _MNIST_FILE_KINDS)
                 for prefix in _MNIST_PREFIXES[usage]]
        present = [pair for pair in pairs if any(os.path.isfile(path) for path in pair)]
        if not present:
            raise ValueError(f"{type(self).__name__}: no IDX file for usage '{usage}' in {dataset_dir}; expected "
                             f"{', '.join(path for pair in pairs for path in pair)}.")
        parts = [_read_idx_pair(images, labels) for images, labels in present]
        super().__init__(["image", "label"], parts, num_samples, shuffle, sampler, num_shards, shard_id,
                         num_parallel_workers, cache)

    @staticmethod
    def _image(pixels):
        return pixels[:, :, None]  # pixels is a fresh copy out of the file


class FashionMnistDataset(MnistDataset):
    """Fashion-MNIST, stored in the same IDX files (and names) as MNIST; arguments as :class:`MnistDataset`."""


def _read_idx_pair(images_path, labels_path):
    for path in (images_path, labels_path):
        if not os.path.isfile(path):
            raise ValueError(f"MnistDataset: the file {path} does not exist (its pair is there).")
    images, labels = DataFile(images_path), DataFile(labels_path)
    magic, count, rows, cols = _read_header(images, 4)
    if magic != _IDX_IMAGES_MAGIC:
        raise ValueError(f"Invalid MNIST image file {images_path}: magic number {magic}, expected "
                         f"{_IDX_IMAGES_MAGIC}.")
    label_magic, label_count = _read_header(labels, 2)
    if label_magic != _IDX_LABELS_MAGIC:
        raise ValueError(f"Invalid MNIST label file {labels_path}: magic number {label_magic}, expected "
                         f"{_IDX_LABELS_MAGIC}.")
    if count != label_count:
        raise ValueError(f"MNIST files disagree: {images_path} holds {count} images but {labels_path} holds "
                         f"{label_count} labels.")
    if count and not rows * cols:
        raise ValueError(f"Invalid MNIST image file {images_path}: its header gives {count} images of "
                         f"{rows}x{cols} pixels.")
    pixels = _records(images, 16, count, rows * cols, [(0, (rows, cols))])
    labels.check_size(8 + count, f"its header ({count} labels)")
    return _IdxPair(pixels, np.frombuffer(labels.read(8, count), np.uint8).reshape(count, 1))


class _IdxPair:
    """An IDX pair as a part of a ``_RecordFiles``: images read as rows are reached, labels (one byte
    each) read at open."""

    def __init__(self, images, labels):
        self.images, self.labels = images, labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        return self.images[index][0], self.labels[index]


def _cifar_image(planes):
    """A CIFAR record's three 32x32 colour planes as a 32x32x3 image."""
    return np.ascontiguousarray(planes.transpose(1, 2, 0))


def _read_cifar_batches(dataset_dir, usage, files, label_bytes, name):
    """(images, labels) of the ``name`` binary files for ``usage`` that are in ``dataset_dir``."""
    dataset_dir = _check_dataset_dir(dataset_dir)
    usage = _check_usage(usage)
    expected = [os.path.join(dataset_dir, file) for file in files[usage]]
    present = [path for path in expected if os.path.isfile(path)]
    if not present:
        raise ValueError(f"No {name} binary file for usage '{usage}' in {dataset_dir}; expected "
                         f"{', '.join(expected)}.")
    record = label_bytes + _CIFAR_IMAGE_BYTES
    parts = []
    for path in present:
        file = DataFile(path)
        size = file.size()
        if size % record:
            raise ValueError(f"Invalid {name} file {path}: its size {size} is not a multiple of the {record}-byte "
                             f"record (make sure it is the {name} binary version).")
        parts.append(_records(file, 0, size // record, record, [(label_bytes, (3, 32, 32)), (0, (label_bytes,))]))
    return parts


class Cifar10Dataset(_RecordFiles):
    """CIFAR-10 from its binary batches in ``dataset_dir``: ``image`` (uint8, 32x32x3) and ``label`` (uint32).

    Args:
        dataset_dir (str): the directory holding ``data_batch_*.bin`` and ``test_batch.bin``.
        usage (str, optional): ``'train'`` (the data batches present), ``'test'`` or ``'all'``
            (default: train then test).
        num_samples, shuffle (default ``True``), sampler, num_shards, shard_id: as for
            ``GeneratorDataset``. num_parallel_workers: accepted for compatibility.
        cache (DatasetCache, optional): a cache for the rows. Default: ``None``.

    Raises:
        ValueError: if the directory is missing, no batch file for ``usage`` is there (naming the
            expected paths), or a file's size is not a whole number of 3073-byte records.
    """

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        parts = _read_cifar_batches(dataset_dir, usage, _CIFAR10_FILES, 1, "CIFAR-10")
        super().__init__(["image", "label"], parts, num_samples, shuffle, sampler, num_shards, shard_id,
                         num_parallel_workers, cache)

    _image = staticmethod(_cifar_image)


class Cifar100Dataset(_RecordFiles):
    """CIFAR-100 from its binary files in ``dataset_dir``: ``image`` (uint8, 32x32x3), ``coarse_label``
    and ``fine_label`` (uint32).

    Args:
        dataset_dir (str): the directory holding ``train.bin`` and ``test.bin`` (records of a
            coarse label byte, a fine label byte, then the image planes).
        usage (str, optional): ``'train'``, ``'test'`` or ``'all'`` (default: train then test).
        num_samples, shuffle (default ``True``), sampler, num_shards, shard_id: as for
            ``GeneratorDataset``. num_parallel_workers: accepted for compatibility.
        cache (DatasetCache, optional): a cache for the rows. Default: ``None``.

    Raises:
        ValueError: as :class:`Cifar10Dataset`, for 3074-byte records.
    """

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        parts = _read_cifar_batches(dataset_dir, usage, _CIFAR100_FILES, 2, "CIFAR-100")
        super().__init__(["image", "coarse_label", "fine_label"], parts, num_samples, shuffle, sampler, num_shards,
                         shard_id, num_parallel_workers, cache)

    _image = staticmethod(_cifar_image)
