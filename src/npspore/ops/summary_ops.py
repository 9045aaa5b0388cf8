"""Summary operators, as ``mindspore.ops``: ``ScalarSummary``, ``TensorSummary`` and ``HistogramSummary``.

``self.summary("loss", loss)`` inside a network keeps the value under its tag until the next
``SummaryRecord.record(step)`` in ``'train'`` mode writes it (``SummaryCollector`` records at its steps), as
MindSpore 2.10 does: the value of the last call of a tag before a record is the one written. Eagerly a call
keeps a copy of the Tensor at once; inside compiled code it is a call out of the kernel (``host_call``) that
keeps a copy of the value each time the kernel runs. The operators return None and have no gradient.
"""
from __future__ import annotations

import math
import threading

import numpy as np

from ..common.tensor import Tensor
from ..compiler.errors import located
from ..compiler.library import LIBRARY
from .primitives import Primitive

__all__ = ["ScalarSummary", "TensorSummary", "HistogramSummary", "ImageSummary"]

_PENDING: dict[tuple[str, str], np.ndarray] = {}   # (plugin, tag) -> the tag's last value
_LOCK = threading.Lock()


def _keep(plugin: str, tag: str, value: np.ndarray) -> tuple:
    with _LOCK:
        _PENDING.pop((plugin, tag), None)   # a tag called again moves to the end, as MindSpore's cache orders it
        _PENDING[(plugin, tag)] = np.array(value, copy=True)
    return ()


def take_pending() -> list[tuple[str, str, np.ndarray]]:
    """The ``(plugin, tag, array)`` values the summary operators kept since the last call, oldest tag first;
    the store is emptied (``SummaryRecord.record`` takes them in ``'train'`` mode)."""
    with _LOCK:
        values = [(plugin, tag, array) for (plugin, tag), array in _PENDING.items()]
        _PENDING.clear()
    return values


class _Summary(Primitive):
    """A summary operator: ``op(name, value)`` keeps ``value`` under the tag ``name`` for the plugin ``_plugin``."""

    _plugin = ""

    def __init__(self) -> None:
        super().__init__(type(self).__name__)
        self.add_prim_attr("side_effect_io", True)
        self.add_prim_attr("channel_name", f"ms_{self._plugin}_summary")
        self.add_prim_attr("dyn_input_sizes", [-1, 1])

    def check(self, name, value, shape: tuple) -> None:
        """MindSpore's errors for a bad tag or value (``shape``: the value's shape)."""
        if not isinstance(name, str) or not name:
            raise TypeError(f'For "{self.name}", the name must be valid string, but got "{name}".')
        if self._plugin == "scalar" and None not in shape and math.prod(shape) != 1:
            raise ValueError(f'For "{self.name}", the v rank must be less than or equal to 1, but got '
                             f'{shape[0] if shape else 0}.')
        if self._plugin != "scalar" and not shape:
            raise ValueError(f'For "{self.name}", the value should not be empty.')
        if self._plugin == "image" and (len(shape) != 4 or shape[1] not in (1, 3)):
            raise ValueError(f'For "{self.name}", the value must be an image batch of shape (N, C, H, W) with C 1 '
                             f'or 3, but got shape {shape}.')

    def __call__(self, name: str, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f'For "{self.name}", the parameter "value" expect to be Tensor, but got '
                            f'{type(value).__name__}')
        self.check(name, value, tuple(value.shape))
        _keep(self._plugin, name, value.asnumpy())


class ScalarSummary(_Summary):
    """``ScalarSummary()(name, value)``: records ``value`` (a Tensor of one element) as the scalar ``name``
    at the next ``SummaryRecord.record``.

    Raises:
        TypeError: If ``name`` is not a non-empty str or ``value`` is not a Tensor.
        ValueError: If ``value`` has more than one element.
    """

    _plugin = "scalar"


class TensorSummary(_Summary):
    """``TensorSummary()(name, value)``: records the Tensor ``value`` (rank 1 or more) as the tensor ``name``
    at the next ``SummaryRecord.record``.

    Raises:
        TypeError: If ``name`` is not a non-empty str or ``value`` is not a Tensor.
        ValueError: If ``value`` is 0-d.
    """

    _plugin = "tensor"


class HistogramSummary(_Summary):
    """``HistogramSummary()(name, value)``: records the histogram of the Tensor ``value`` (rank 1 or more) as
    ``name`` at the next ``SummaryRecord.record``.

    Raises:
        TypeError: If ``name`` is not a non-empty str or ``value`` is not a Tensor.
        ValueError: If ``value`` is 0-d.
    """

    _plugin = "histogram"


class ImageSummary(_Summary):
    """``ImageSummary()(name, value)``: records the images ``value`` (NCHW, 1 or 3 channels) as the image
    ``name`` at the next ``SummaryRecord.record``: one PNG of the batch tiled 8 to a row, as MindSpore 2.10
    writes it (needs Pillow: ``pip install npspore[vision]``).

    Raises:
        TypeError: If ``name`` is not a non-empty str or ``value`` is not a Tensor.
        ValueError: If ``value`` is not of rank 4 with 1 or 3 channels.
    """

    _plugin = "image"


_HOST_KEYS = {plugin: LIBRARY.host_function(lambda tag, value, plugin=plugin: _keep(plugin, tag, value))
              for plugin in ("scalar", "tensor", "histogram", "image")}


def _stage_summary(primitive: _Summary, specializer, args, kwargs, loc) -> None:
    """``op(name, value)`` in compiled code: the value kept each time the kernel runs."""
    name, value = (tuple(args) + tuple(kwargs.values()) + (None, None))[:2]
    if len(args) + len(kwargs) != 2:
        raise located(TypeError(f"For '{primitive.name}', expect 2 inputs (name, value), but got "
                                f"{len(args) + len(kwargs)}."), loc)
    if not hasattr(value, "aval"):
        raise located(TypeError(f'For "{primitive.name}", the parameter "value" expect to be Tensor, but got '
                                f'{type(value).__name__}'), loc)
    try:
        primitive.check(name, value, tuple(value.aval.shape))
    except (TypeError, ValueError) as error:
        raise located(error, loc) from None
    specializer.host_effect(_HOST_KEYS[primitive._plugin], (name, value), loc)


LIBRARY.register_stager(_Summary, _stage_summary)
