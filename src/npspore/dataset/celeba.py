"""``CelebADataset``: the CelebA face images and their 40 binary attributes, read from disk row by row.

``dataset_dir`` holds the images and ``list_attr_celeba.txt`` (the image count, the attribute names, then one
line per image: its file name and one ``1``/``-1`` per attribute); ``list_eval_partition.txt`` (file name and
0 train / 1 valid / 2 test) selects a ``usage`` other than ``'all'``. A row is the image file's bytes (a 1-D uint8
array, decoded to RGB with ``decode=True``) and its attributes as uint32 ``1``/``0``, in the attribute file's
order.
"""
from __future__ import annotations

import os

import numpy as np

from .arguments import check_bool
from .image_files import _check_dataset_dir
from .image_folder import _check_extensions, read_image
from .sampling import sampler_from_arguments
from .sources import RandomAccessSource
from .vision.decode import Decode

__all__ = ["CelebADataset"]

_PARTITIONS = {"train": "0", "valid": "1", "test": "2"}


def _read_lines(path):
    with open(path, encoding="utf-8") as file:
        return [line.split() for line in file if line.strip()]


class CelebADataset(RandomAccessSource):
    """CelebA: columns ``image`` (the file's bytes as uint8, or the decoded (H, W, 3) image with ``decode=True``)
    and ``attr`` (uint32, one 0/1 per attribute).

    Args:
        dataset_dir (str): the folder of the images and the attribute and partition files.
        num_parallel_workers (int, optional): accepted; rows are read in the calling thread.
        shuffle (bool, optional), sampler, num_samples, num_shards, shard_id: as for ``GeneratorDataset``
            (shuffled by default).
        usage (str, optional): ``'all'``, ``'train'``, ``'valid'`` or ``'test'``. Default: ``'all'``.
        decode (bool, optional): decode the images (RGB). Default: ``False``.
        extensions (list[str], optional): accepted; MindSpore 2.10 reads every listed image whatever its
            extension, and so does npspore.
        cache (DatasetCache, optional): a cache for the rows. Default: ``None``.
        decrypt: only ``None``.

    Raises:
        ValueError: If ``dataset_dir`` is not a folder or ``usage`` is unknown.
        RuntimeError: If the attribute file is missing or damaged, or the partition file is missing for a
            ``usage`` other than ``'all'``.
    """

    def __init__(self, dataset_dir, num_parallel_workers=None, shuffle=None, usage="all", sampler=None, decode=False,
                 extensions=None, num_samples=None, num_shards=None, shard_id=None, cache=None, decrypt=None):
        dataset_dir = _check_dataset_dir(dataset_dir)
        if usage not in ("all", "train", "valid", "test"):
            raise ValueError("usage should be 'all', 'train', 'valid' or 'test'.")
        check_bool(decode, "decode")
        _check_extensions(extensions)
        if decrypt is not None:
            raise ValueError("CelebADataset: npspore reads unencrypted images only (decrypt must be None).")
        self._decode = Decode() if decode else None
        attr_path = os.path.join(dataset_dir, "list_attr_celeba.txt")
        if not os.path.isfile(attr_path):
            raise RuntimeError(f"Invalid file, failed to open CelebA attribute file: {attr_path}")
        lines = _read_lines(attr_path)
        if len(lines) < 2:
            raise RuntimeError(f"Invalid file, CelebA attribute file {attr_path} has no attribute names.")
        self.attribute_names = lines[1]
        rows = lines[2:]
        if usage != "all":
            partition_path = os.path.join(dataset_dir, "list_eval_partition.txt")
            if not os.path.isfile(partition_path):
                raise RuntimeError("Partition file can not be found when usage is not 'all'.")
            chosen = {name for name, part in _read_lines(partition_path) if part == _PARTITIONS[usage]}
            rows = [row for row in rows if row[0] in chosen]
        self._rows_data = []
        for row in rows:
            if len(row) != len(self.attribute_names) + 1 or not all(v in ("1", "-1") for v in row[1:]):
                raise RuntimeError(f"Invalid data, the line of {row[0]} in {attr_path} should hold "
                                   f"{len(self.attribute_names)} attributes of 1 or -1.")
            self._rows_data.append((os.path.join(dataset_dir, row[0]),
                                    np.array([v == "1" for v in row[1:]], np.uint32)))
        super().__init__(["image", "attr"], sampler_from_arguments(num_samples, shuffle, sampler, num_shards,
                                                                   shard_id), num_parallel_workers, cache)

    def _length(self):
        return len(self._rows_data)

    def _row(self, index):
        path, attributes = self._rows_data[index]
        return read_image(path, self._decode), attributes.copy()
