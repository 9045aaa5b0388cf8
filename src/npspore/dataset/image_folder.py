"""``ImageFolderDataset``: images in one folder per class, read from disk row by row.

``dataset_dir/<class>/<file>``: the classes are the sub-folders in name order (indexed 0, 1 ... unless
``class_indexing`` maps them), the rows each class's files in name order, class after class. A row is
the file's bytes (a 1-D uint8 array, decoded to RGB with ``decode=True``) and its class (int32). Files are
read when their row is reached, regular files only (a FIFO or device is an error naming it, never a hang).
"""
from __future__ import annotations

import os

import numpy as np

from ..core.safefile import read_regular_file
from .arguments import check_bool
from .image_files import _check_dataset_dir
from .sampling import sampler_from_arguments
from .sources import RandomAccessSource
from .vision.decode import Decode

__all__ = ["ImageFolderDataset"]


def _check_extensions(extensions):
    if extensions is None:
        return None
    if not isinstance(extensions, list) or not all(isinstance(e, str) for e in extensions):
        raise TypeError(f"Argument extensions with value {extensions} is not of type [<class 'list'>], but got "
                        f"{type(extensions)}.")
    return tuple(extensions)


def _check_class_indexing(class_indexing):
    if class_indexing is None:
        return None
    if not isinstance(class_indexing, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v >= 0
            for k, v in class_indexing.items()):
        raise TypeError(f"Argument class_indexing with value {class_indexing!r} is not of type [<class 'dict'>] of "
                        f"str to non-negative int.")
    return dict(class_indexing)


def read_image(path: str, decode: Decode | None) -> np.ndarray:
    """The bytes of the image file ``path`` as a 1-D uint8 array, or decoded by ``decode`` (RGB).

    Raises:
        RuntimeError: naming the file, if ``decode`` cannot decode it.
    """
    image = np.frombuffer(read_regular_file(path, "image file"), np.uint8)
    if decode is None:
        return image
    try:
        return decode(image)
    except RuntimeError as error:
        raise RuntimeError(f"Invalid image, {path} decode failed, the image is broken: {error}") from None


class ImageFolderDataset(RandomAccessSource):
    """Images stored one folder per class: columns ``image`` (the file's bytes as uint8, or the decoded
    (H, W, 3) image with ``decode=True``) and ``label`` (int32).

    Args:
        dataset_dir (str): the folder holding one sub-folder per class.
        num_samples, shuffle (default ``True``), sampler, num_shards, shard_id: as for ``GeneratorDataset``.
        extensions (list[str], optional): the file name endings to read (case-sensitive, ``[".jpg"]``).
            Default: ``None`` (every file).
        class_indexing (dict[str, int], optional): class folder name to label; only these folders are read.
            Default: ``None`` (every sub-folder, labelled by name order).
        decode (bool, optional): decode the images (RGB). Default: ``False``.
        num_parallel_workers, decrypt: accepted for compatibility (``decrypt`` only ``None``).
        cache (DatasetCache, optional): a cache for the rows. Default: ``None``.

    Raises:
        ValueError: If ``dataset_dir`` is not a folder, or a class folder holds a folder that would be read.
        TypeError: If ``extensions`` is not a list of str or ``class_indexing`` not a dict of str to int.
    """

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 extensions=None, class_indexing=None, decode=False, num_shards=None, shard_id=None, cache=None,
                 decrypt=None):
        dataset_dir = _check_dataset_dir(dataset_dir)
        extensions = _check_extensions(extensions)
        check_bool(decode, "decode")
        self._decode = Decode() if decode else None
        if decrypt is not None:
            raise ValueError("ImageFolderDataset: npspore reads unencrypted images only (decrypt must be None).")
        folders = sorted(entry.name for entry in os.scandir(dataset_dir) if entry.is_dir())
        indexing = _check_class_indexing(class_indexing)
        self.class_indexing = indexing if indexing is not None else {name: i for i, name in enumerate(folders)}
        self._files: list[tuple[str, int]] = []
        for name in folders:
            if name not in self.class_indexing:
                continue
            folder = os.path.join(dataset_dir, name)
            for entry in sorted(os.scandir(folder), key=lambda e: e.name):
                if extensions is not None and not entry.name.endswith(extensions):
                    continue
                if entry.is_dir():
                    raise ValueError(f"Invalid file found: {entry.path}, should be file, but got directory.")
                self._files.append((entry.path, self.class_indexing[name]))
        super().__init__(["image", "label"], sampler_from_arguments(num_samples, shuffle, sampler, num_shards,
                                                                    shard_id), num_parallel_workers, cache)

    def get_class_indexing(self) -> dict[str, int]:
        """The class folder name to label mapping."""
        return dict(self.class_indexing)

    def _length(self):
        return len(self._files)

    def column_values(self, name: str) -> list:
        """The labels without reading the images (``name`` ``'label'``), else every row's ``name``."""
        return [label for _, label in self._files] if name == "label" else super().column_values(name)

    def _row(self, index):
        path, label = self._files[index]
        return read_image(path, self._decode), np.array(label, np.int32)
