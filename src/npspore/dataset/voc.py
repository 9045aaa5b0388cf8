"""``VOCDataset``: Pascal VOC, read as MindSpore 2.10 reads it (rows recorded from it by
``tools/observe_mindspore_voc.py``).

The image ids are the lines of ``ImageSets/Segmentation/<usage>.txt`` (``task='Segmentation'``) or
``ImageSets/Main/<usage>.txt`` (``'Detection'``). A Segmentation row is ``image`` (``JPEGImages/<id>.jpg``) and
``target`` (``SegmentationClass/<id>.png``), each the file's bytes or, with ``decode``, RGB (H, W, 3) uint8. A
Detection row is ``image`` and, from ``Annotations/<id>.xml``, per object ``bbox`` (float32 ``[xmin, ymin, width,
height]``), ``label``, ``difficult`` and ``truncate`` (uint32, ``(N, 1)``); labels come from ``class_indexing``,
by default the object names of the listed annotations in sorted order.
"""
from __future__ import annotations

import os
import xml.etree.ElementTree as ElementTree
from typing import Any

import numpy as np

from .arguments import check_bool
from .image_files import _check_dataset_dir
from .image_folder import read_image
from .sampling import sampler_from_arguments
from .sources import RandomAccessSource
from .vision.decode import Decode

__all__ = ["VOCDataset"]

_FOLDER = {"Segmentation": "Segmentation", "Detection": "Main"}


def _objects(path: str) -> list[tuple[str, list[float], int, int]]:
    """``(name, [xmin, ymin, xmax, ymax], difficult, truncated)`` of each object of the annotation ``path``."""
    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError) as error:
        raise RuntimeError(f"Invalid annotation file {path}: {error}") from None
    objects = []
    for element in root.iter("object"):
        box = element.find("bndbox")
        if element.findtext("name") is None or box is None:
            raise RuntimeError(f"Invalid annotation file {path}: an object without a name or bndbox.")
        corners = [float(box.findtext(side, "nan")) for side in ("xmin", "ymin", "xmax", "ymax")]
        if not all(c > 0 for c in corners):
            raise RuntimeError(f"Invalid bndbox, the coordinate of bndbox in {path} should be greater than 0, but "
                               f"got {corners}")
        objects.append((element.findtext("name").strip(), corners, int(element.findtext("difficult", "0")),
                        int(element.findtext("truncated", "0"))))
    return objects


class VOCDataset(RandomAccessSource):
    """Pascal VOC segmentation or detection rows (see the module doc).

    Args:
        dataset_dir (str): the VOC root (holding ``ImageSets``, ``JPEGImages`` ...).
        task (str): ``'Segmentation'`` or ``'Detection'``. Default: ``'Segmentation'``.
        usage (str): the image-set file's name without ``.txt``. Default: ``'train'``.
        class_indexing (dict[str, int], optional): object name to label (Detection only). Default: ``None``.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``ImageFolderDataset``'s.
        decode (bool): decode the images (RGB). Default: ``False``.
        extra_metadata (bool): must be False (npspore adds no metadata column). Default: ``False``.
        decrypt: must be None.

    Raises:
        ValueError: If the directory, task, usage file or class indexing is wrong (MindSpore's messages).
        RuntimeError: (when read) If an annotation is broken or names a class ``class_indexing`` lacks.
    """

    def __init__(self, dataset_dir: str, task: str = "Segmentation", usage: str = "train",
                 class_indexing: dict | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None, decode: bool = False,
                 sampler: Any = None, num_shards: int | None = None, shard_id: int | None = None, cache: Any = None,
                 extra_metadata: bool = False, decrypt: Any = None) -> None:
        dataset_dir = _check_dataset_dir(dataset_dir)
        if task not in _FOLDER:
            raise ValueError(f"Invalid task : {task}.")
        if class_indexing is not None and task == "Segmentation":
            raise ValueError("class_indexing is not supported in Segmentation task.")
        if class_indexing is not None and (not isinstance(class_indexing, dict) or not all(
                isinstance(k, str) and isinstance(v, int) for k, v in class_indexing.items())):
            raise TypeError("class_indexing should be a dictionary of str to int.")
        check_bool(decode, "decode")
        if extra_metadata or decrypt is not None:
            raise ValueError("VOCDataset: npspore reads no extra metadata and no encrypted images "
                             "(extra_metadata must be False and decrypt None).")
        listing = os.path.join(dataset_dir, "ImageSets", _FOLDER[task], f"{usage}.txt")
        if not os.path.isfile(listing):
            raise ValueError(f"The file {listing} does not exist or permission denied!")
        with open(listing, encoding="utf-8") as file:
            self._ids = [line.strip() for line in file if line.strip()]
        self.dataset_dir, self.task, self.usage = dataset_dir, task, usage
        self._decode = Decode() if decode else None
        self._annotations = None
        if task == "Detection":
            self._annotations = [_objects(os.path.join(dataset_dir, "Annotations", f"{i}.xml")) for i in self._ids]
            names = sorted({obj[0] for objects in self._annotations for obj in objects})
            self.class_indexing = dict(class_indexing) if class_indexing is not None else {
                name: i for i, name in enumerate(names)}
        columns = ["image", "target"] if task == "Segmentation" else ["image", "bbox", "label", "difficult",
                                                                         "truncate"]
        super().__init__(columns, sampler_from_arguments(num_samples, shuffle, sampler, num_shards, shard_id),
                         num_parallel_workers, cache)

    def get_class_indexing(self) -> dict[str, int]:
        """The object name to label mapping (Detection).

        Raises:
            RuntimeError: for the Segmentation task, which has none.
        """
        if self.task != "Detection":
            raise RuntimeError("Invalid operation, class_indexing is only available in Detection task.")
        return dict(self.class_indexing)

    def _length(self):
        return len(self._ids)

    def _row(self, index):
        image_id = self._ids[index]
        image = read_image(os.path.join(self.dataset_dir, "JPEGImages", f"{image_id}.jpg"), self._decode)
        if self.task == "Segmentation":
            return image, read_image(os.path.join(self.dataset_dir, "SegmentationClass", f"{image_id}.png"),
                                     self._decode)
        objects = self._annotations[index]
        missing = [obj[0] for obj in objects if obj[0] not in self.class_indexing]
        if missing:
            raise RuntimeError(f"Invalid label, the label {missing[0]} of {image_id}.xml is not in class_indexing.")
        boxes = np.array([[x0, y0, x1 - x0, y1 - y0] for _, (x0, y0, x1, y1), _, _ in objects], np.float32)
        column = lambda values: np.array(values, np.uint32).reshape(-1, 1)  # noqa: E731
        return (image, boxes.reshape(-1, 4), column([self.class_indexing[obj[0]] for obj in objects]),
                column([obj[2] for obj in objects]), column([obj[3] for obj in objects]))
