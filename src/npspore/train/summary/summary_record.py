"""``SummaryRecord``: scalars, tensors and histograms of a training run, in MindSpore 2.10's summary files.

Values added with ``add_value`` wait until ``record(step)`` writes them as one ``Event`` (``summary_proto``)
to ``<log_dir>/<prefix>.out.events.summary.<seconds>.<rank>.<host><suffix>``, whose first record is the
version event ``MindSpore.Event:1``, as MindSpore writes it (``core.record_framing`` frames the records).
"""
from __future__ import annotations

import os
import platform
import threading
import time

import numpy as np

from ...common.tensor import Tensor
from ...communication.management import get_rank
from ...core import record_framing
from ...ops.summary_ops import take_pending
from .summary_image import fill_image
from .summary_proto import DATA_TYPES, event_message

__all__ = ["SummaryRecord"]

_PLUGINS = ("tensor", "scalar", "image", "histogram", "train_lineage", "eval_lineage", "dataset_graph",
            "custom_lineage_data", "graph", "landscape")
_WRITTEN = ("scalar", "tensor", "histogram", "image")
_MAX_BINS, _PER_BIN = 90, 10
_LOCK = threading.Lock()


class SummaryRecord:
    """Records summary data (scalars, tensors, histograms) to a MindSpore summary file, for MindInsight.

    Only one SummaryRecord may be open at a time, as in MindSpore. Close it (``close`` or ``with``).

    Args:
        log_dir (str): the folder of the summary file (created when missing).
        file_prefix (str): the file name's prefix. Default: ``"events"``.
        file_suffix (str): the file name's suffix. Default: ``"_MS"``.
        num_process, network, raise_exception, export_options: accepted for compatibility.
        max_file_size (int, optional): the most bytes the file may grow to. Default: ``None`` (no limit).

    Raises:
        TypeError: If ``file_prefix`` or ``file_suffix`` is not a str, or ``max_file_size`` not an int.
        RuntimeError: If another SummaryRecord is open.

    Examples:
        >>> with ms.SummaryRecord(log_dir="./summary_dir") as summary_record:
        ...     summary_record.add_value("scalar", "loss", Tensor(0.5))
        ...     summary_record.record(1)
    """

    _open = 0

    def __init__(self, log_dir, file_prefix="events", file_suffix="_MS", num_process=32, network=None,
                 max_file_size=None, raise_exception=False, export_options=None):
        if not isinstance(file_prefix, str) or not isinstance(file_suffix, str):
            raise TypeError(f"For 'SummaryRecord', `file_prefix` and `file_suffix`  should be str, but got type "
                            f"{type(file_prefix if not isinstance(file_prefix, str) else file_suffix)}")
        if max_file_size is not None and (not isinstance(max_file_size, int) or isinstance(max_file_size, bool)):
            raise TypeError(f"For 'SummaryRecord', the 'max_file_size' should be int type, but got type "
                            f"{type(max_file_size)}")
        with _LOCK:
            if SummaryRecord._open:
                raise RuntimeError(f"For 'SummaryRecord', only one instance is supported in a training process, you "
                                   f"are trying to create a new one when the existing instance number is "
                                   f"{SummaryRecord._open}. Please check your scripts.")
            SummaryRecord._open += 1
        self._closed = False
        self._pending: list[tuple[str, str, np.ndarray]] = []
        self._mode = "train"
        self._max_file_size = max_file_size
        os.makedirs(log_dir, exist_ok=True)
        self._log_dir = os.path.realpath(log_dir)
        name = f"{file_prefix}.out.events.summary.{int(time.time())}.{get_rank()}.{platform.node()}{file_suffix}"
        self.file_path = os.path.join(self._log_dir, name)
        self._file = open(self.file_path, "wb")
        self._write(event_message()(wall_time=time.time(), version="MindSpore.Event:1"))

    @property
    def log_dir(self) -> str:
        """The folder the summary file is in."""
        return self._log_dir

    def __enter__(self) -> SummaryRecord:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def set_mode(self, mode: str) -> None:
        """``'train'`` or ``'eval'`` (MindSpore records tensors of summary operators in training only).

        Raises:
            ValueError: If ``mode`` is neither.
        """
        if mode not in ("train", "eval"):
            raise ValueError(f"For 'set_mode', the argument 'mode' should be 'train' or 'eval', but got {mode}.")
        self._mode = mode

    def add_value(self, plugin: str, name: str, value: Tensor) -> None:
        """Add a value to be written by the next ``record``: ``plugin`` ``'scalar'`` (the Tensor's first
        element), ``'tensor'`` (the whole Tensor), ``'histogram'`` (its bucket counts) or ``'image'`` (an NCHW
        batch, written as one PNG).

        Raises:
            ValueError: If ``plugin`` is none of MindSpore's, or one npspore does not write (graphs and
                lineage), or ``name`` is not a non-empty str.
            TypeError: If ``value`` is not a Tensor.
        """
        if plugin not in _PLUGINS:
            raise ValueError(f'For "SummaryRecord.add_value", no such "plugin" of {plugin!r} , expect value is one '
                             f'of [{", ".join(_PLUGINS)}]')
        if plugin not in _WRITTEN:
            raise ValueError(f'For "SummaryRecord.add_value", npspore writes the plugins {list(_WRITTEN)}, not '
                             f'{plugin!r}.')
        if not isinstance(name, str) or not name:
            raise ValueError(f'For "SummaryRecord", the parameter "name" type should be str, but got {type(name)}.')
        if not isinstance(value, Tensor):
            raise TypeError(f'For "SummaryRecord", the parameter "value" expect to be Tensor, but got '
                            f'{type(value).__name__}')
        self._pending.append((plugin, name, value.asnumpy()))

    def record(self, step: int, train_network=None, plugin_filter=None) -> bool:
        """Write the values added since the last record as the event of ``step``; in ``'train'`` mode also the
        values the network's summary operators (``ops.ScalarSummary`` ...) kept since then, the last of each tag.

        Returns:
            bool, False when the SummaryRecord is closed (nothing is written), else True.

        Raises:
            TypeError: If ``step`` is not an int.
        """
        if not isinstance(step, int) or isinstance(step, bool):
            raise TypeError(f"The type of 'step' should be 'int', but got type '{type(step).__name__}'.")
        if self._closed:
            return False
        if self._mode == "train":   # what the summary operators of the network kept since the last record
            self._pending.extend(take_pending())
        pending, self._pending = self._pending, []
        event = event_message()(wall_time=time.time(), step=step)
        for plugin, name, array in pending:
            if plugin_filter is not None and not plugin_filter(plugin):
                continue
            value = event.summary.value.add(tag=name)
            if plugin == "scalar":
                value.scalar_value = float(array.reshape(-1)[0])
            elif plugin == "tensor":
                _fill_tensor(value.tensor, array)
            elif plugin == "image":
                fill_image(value.image, array)
            else:
                _fill_histogram(value.histogram, array)
        self._write(event)
        return True

    def flush(self) -> None:
        """Write what is buffered to the disk."""
        if not self._closed:
            self._file.flush()

    def close(self) -> None:
        """Flush and close the file; further records write nothing."""
        if self._closed:
            return
        self._closed = True
        self._file.close()
        with _LOCK:
            SummaryRecord._open -= 1

    def _write(self, event) -> None:
        record = record_framing.frame(event.SerializeToString())
        if self._max_file_size is not None:
            if len(record) > self._max_file_size:
                raise RuntimeWarning(f"'max_file_size' reached: There are {self._max_file_size} bytes remaining, "
                                     f"but the '{self.file_path}' requires to write {len(record)} bytes.")
            self._max_file_size -= len(record)
        self._file.write(record)


def _fill_tensor(tensor, array: np.ndarray) -> None:
    if array.dtype.name not in DATA_TYPES:
        raise TypeError(f"Transform numpy type failed in Summary, expect numpy type is one of {list(DATA_TYPES)}, "
                        f"but got {array.dtype}.")
    tensor.data_type = DATA_TYPES[array.dtype.name]
    tensor.float_data.extend(array.reshape(-1).tolist())
    tensor.dims.extend(array.shape)


def _fill_histogram(histogram, array: np.ndarray) -> None:
    """MindSpore's histogram: counts of NaN and infinities, min/max/sum of the finite values, and about ten
    finite values a bucket (2 buckets up to 5 values, 3 up to 10, at most 90) between min and max."""
    finite = np.isfinite(array) if array.dtype.kind == "f" else np.ones(array.shape, bool)
    histogram.count = array.size
    histogram.nan_count = int(np.count_nonzero(np.isnan(array))) if array.dtype.kind == "f" else 0
    histogram.pos_inf_count = int(np.count_nonzero(np.isposinf(array))) if array.dtype.kind == "f" else 0
    histogram.neg_inf_count = int(np.count_nonzero(np.isneginf(array))) if array.dtype.kind == "f" else 0
    valid = array[finite]
    if not valid.size:
        return
    histogram.min, histogram.max = valid.min().item(), valid.max().item()
    histogram.sum = valid.sum(dtype=np.float64).item()
    count = valid.size
    bins = 2 if count <= 5 else 3 if count <= 10 else min(count // _PER_BIN + 1, _MAX_BINS)
    low, high = histogram.min, histogram.max
    if not low < high:
        low, high = low - 0.5, high + 0.5
    counts, edges = np.histogram(valid, bins=np.linspace(low, high, bins + 1, dtype=array.dtype))
    for hist, left, right in zip(counts, edges, edges[1:]):
        histogram.buckets.add(left=float(left), width=float(right - left), count=int(hist))
