"""``ImageFolderDataset``: images stored one file each, in one sub-folder per class.

``dataset_dir/<class>/<file>``: the classes are the sub-folders in sorted order (label 0, 1, …) or the
ones ``class_indexing`` names (with its labels); each class's files are read in sorted order. A row is
``(image, label)``: the file's bytes as a 1-D uint8 array (``decode=True``: an (H, W, 3) RGB array, as
``vision.Decode`` gives) and an int32 label. Files are read when their row is reached, regular files only.
"""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from ..core.safefile import read_regular_file
from .image_files import _check_dataset_dir
from .sampling import sampler_from_arguments
from .sources import RandomAccessSource
from .vision.decoding import Decode

__all__ = ["ImageFolderDataset"]


def _check_extensions(extensions: Any) -> tuple[str, ...] | None:
    if extensions is None:
        return None
    if not isinstance(extensions, (list, tuple)) or not all(isinstance(e, str) for e in extensions):
        raise TypeError(f"Argument extensions with value {extensions!r} is not of type [<class 'list'>].")
    return tuple(extensions)


def _check_class_indexing(class_indexing: Any) -> dict | None:
    if class_indexing is None:
        return None
    if not isinstance(class_indexing, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in class_indexing.items()):
        raise TypeError(f"Argument class_indexing with value {class_indexing!r} is not of type [<class 'dict'>] "
                        f"of str to int.")
    return dict(class_indexing)


class ImageFolderDataset(RandomAccessSource):
    """Images in ``dataset_dir/<class>/``: columns ``image`` (uint8 bytes, or decoded RGB with ``decode``)
    and ``label`` (int32).

    Args:
        dataset_dir (str): the folder holding one sub-folder per class.
        num_samples, shuffle (default ``True``), sampler, num_shards, shard_id: as for ``GeneratorDataset``.
        extensions (list[str], optional): read only files ending with one of these (``[".JPEG", ".png"]``);
            default: every file.
        class_indexing (dict[str, int], optional): the classes to read and their labels; default: every
            sub-folder, labelled by its position in sorted order (:meth:`get_class_indexing`).
        decode (bool): decode the images (needs Pillow: ``npspore[vision]``). Default: ``False``.
        num_parallel_workers, cache, decrypt: accepted for compatibility.

    Raises:
        ValueError: if ``dataset_dir`` is not a folder.
        TypeError: if ``extensions``, ``class_indexing`` or ``decode`` has the wrong type.
        RuntimeError: (when the row is read) a file that is no regular file or, with ``decode``, no image.
    """

    def __init__(self, dataset_dir: str, num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, sampler: Any = None, extensions: list[str] | None = None,
                 class_indexing: dict[str, int] | None = None, decode: bool = False, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None, decrypt: Any = None) -> None:
        dataset_dir = _check_dataset_dir(dataset_dir)
        extensions = _check_extensions(extensions)
        chosen = _check_class_indexing(class_indexing)
        if not isinstance(decode, bool):
            raise TypeError(f"Argument decode with value {decode!r} is not of type [<class 'bool'>].")
        folders = sorted(entry.name for entry in os.scandir(dataset_dir) if entry.is_dir())
        self.class_indexing = chosen if chosen is not None else {name: i for i, name in enumerate(folders)}
        self.files: list[tuple[str, int]] = []
        for name in folders:
            if name not in self.class_indexing:
                continue
            folder = os.path.join(dataset_dir, name)
            self.files += [(os.path.join(folder, file), self.class_indexing[name]) for file in sorted(os.listdir(folder))
                           if extensions is None or file.endswith(extensions)]
        self.decoder = Decode() if decode else None
        super().__init__(["image", "label"], sampler_from_arguments(num_samples, shuffle, sampler, num_shards,
                                                                    shard_id), num_parallel_workers)

    def get_class_indexing(self) -> dict[str, int]:
        """``{class folder: label}``."""
        return dict(self.class_indexing)

    def _length(self) -> int:
        return len(self.files)

    def _row(self, index: int) -> tuple:
        path, label = self.files[index]
        image = np.frombuffer(read_regular_file(path, "image file"), dtype=np.uint8)
        if self.decoder is not None:
            try:
                image = self.decoder(image)
            except RuntimeError as error:
                raise RuntimeError(f"Invalid image, {path} decode failed, the image is broken: {error}") from None
        return image, np.array(label, dtype=np.int32)
