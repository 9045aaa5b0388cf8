"""``mindspore.mindrecord.Cifar10ToMR``: the CIFAR-10 "python version" batches (``data_batch_*`` and
``test_batch``, pickled dicts) converted to two MindRecord files, ``destination`` (training) and
``destination_test``, with MindSpore's schema ``{"id": int64, "label": int64, "data": bytes}``.

Each image is stored JPEG-encoded, as MindSpore stores it; MindSpore encodes with OpenCV, npspore with Pillow
at OpenCV's default quality (95), so the bytes (not the format, nor what ``vision.Decode`` yields but for the
JPEG rounding) differ. The training batches are read in name order and numbered from 0.

``transform`` unpickles the batches (MindSpore's warning holds: never convert files from an untrusted source).
"""
from __future__ import annotations

import io
import os
import pickle

import numpy as np

from ..core.pillow import pillow
from .errors import ParamValueError, PathNotExistsError
from .filewriter import FileWriter

__all__ = ["Cifar10ToMR"]

_SCHEMA = {"id": {"type": "int64"}, "label": {"type": "int64"}, "data": {"type": "bytes"}}
_FORBIDDEN = set('\\/:*?"<>|`&\';')


def _check_filename(path) -> None:
    """MindSpore's checks of a converter's path."""
    if not path:
        raise ParamValueError("File path is not allowed None or empty!")
    if not isinstance(path, str):
        raise ParamValueError(f"File path: {path} is not string.")
    if path.endswith("/"):
        raise ParamValueError("File path can not end with '/'")
    if set(os.path.basename(path)) & _FORBIDDEN:
        raise ParamValueError(f"File name should not contains {sorted(_FORBIDDEN)}")


def _batch(path: str) -> tuple[np.ndarray, np.ndarray]:
    """The images (N, 32, 32, 3) uint8 and labels of one pickled batch."""
    with open(path, "rb") as file:
        batch = pickle.load(file, encoding="bytes")   # noqa: S301  (the format is pickle; see the module doc)
    images = np.asarray(batch[b"data"], np.uint8).reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
    return images, np.asarray(batch[b"labels"], np.int64)


class Cifar10ToMR:
    """Convert the CIFAR-10 folder ``source`` to the MindRecord files ``destination`` and ``destination_test``.

    Args:
        source (str): the folder holding ``data_batch_*`` and ``test_batch``.
        destination (str): the training MindRecord file (its folder must exist, the file must not).

    Raises:
        ParamValueError: if a path is empty, not a str, ends in '/' or names a file with a forbidden character.
        PathNotExistsError: if ``source`` lacks ``data_batch_*`` or ``test_batch``.
    """

    def __init__(self, source: str, destination: str) -> None:
        _check_filename(source)
        names = os.listdir(source)
        if not any(name.startswith("data_batch_") for name in names):
            raise PathNotExistsError("data_batch_*")
        if not any(name.startswith("test_batch") for name in names):
            raise PathNotExistsError("test_batch")
        _check_filename(destination)
        self.source = source
        self.destination = destination

    def transform(self, fields: list | None = None) -> None:
        """Write the two MindRecord files; ``fields`` are index fields (``FileWriter.add_index``).

        Raises:
            ValueError: if ``fields`` is neither None nor a list.
            ImportError: without Pillow (the images are JPEG-encoded).
        """
        self.run(fields)

    def run(self, fields: list | None = None) -> int:
        """:meth:`transform`, returning MindSpore's ``SUCCESS`` (0)."""
        if fields and not isinstance(fields, list):
            raise ValueError("The parameter fields should be None or list")
        names = sorted(os.listdir(self.source))
        train = [_batch(os.path.join(self.source, name)) for name in names if name.startswith("data_batch_")]
        test = _batch(os.path.join(self.source, next(name for name in names if name.startswith("test_batch"))))
        self._write(self.destination, np.concatenate([images for images, _ in train]),
                    np.concatenate([labels for _, labels in train]), fields, "img_train")
        self._write(self.destination + "_test", *test, fields, "img_test")
        return 0

    @staticmethod
    def _write(file_name: str, images: np.ndarray, labels: np.ndarray, fields: list | None, description: str) -> None:
        image_class = pillow()
        rows = []
        for index, (image, label) in enumerate(zip(images, labels)):
            encoded = io.BytesIO()
            image_class.fromarray(image).save(encoded, format="JPEG", quality=95)
            rows.append({"id": index, "data": encoded.getvalue(), "label": int(label)})
        writer = FileWriter(file_name, 1)
        writer.add_schema(_SCHEMA, description)
        if fields:
            writer.add_index(fields)
        writer.write_raw_data(rows)
        writer.commit()
