"""General data transforms, as ``mindspore.dataset.transforms``: ``Compose``, ``TypeCast``, ``OneHot``.

A transform is a callable object: ``dataset.map(operations=TypeCast(ms.int32), ...)`` applies it to
every row, and calling it directly on an array (``OneHot(10)(np.array(3))``) applies it at once,
as MindSpore's eager transforms do. Inputs may be NumPy arrays, Tensors or Python numbers; outputs
are NumPy arrays.
"""
from __future__ import annotations

import numpy as np

from ..arguments import numpy_dtype
from ..rows import to_array

__all__ = ["TensorOperation", "Compose", "TypeCast", "OneHot", "not_random", "PyTensorOperation", "PadEnd",
           "Duplicate"]


class TensorOperation:
    """Base of the transforms: ``__call__`` turns its single input into an array and applies ``_apply``."""

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise TypeError(f"{type(self).__name__} takes 1 input column, but got {len(inputs)}.")
        return self._apply(to_array(inputs[0], f"the input of {type(self).__name__}"))

    def _apply(self, array):
        raise NotImplementedError


class Compose:
    """Apply ``transforms`` in turn, each receiving the previous one's output(s).

    Raises:
        ValueError: if ``transforms`` is empty.
        TypeError: if a transform is not callable.
    """

    def __init__(self, transforms):
        if not isinstance(transforms, (list, tuple)) or not transforms:
            raise ValueError("transforms should be a non-empty list of callables.")
        for t in transforms:
            if not callable(t):
                raise TypeError(f"transforms should contain callables, but got {type(t).__name__}.")
        self.transforms = list(transforms)

    def __call__(self, *inputs):
        outputs = inputs
        for transform in self.transforms:
            outputs = transform(*outputs)
            if not isinstance(outputs, tuple):
                outputs = (outputs,)
        return outputs[0] if len(outputs) == 1 else outputs


class TypeCast(TensorOperation):
    """Cast to ``data_type`` (a MindSpore type such as ``ms.float32``, or a NumPy type)."""

    def __init__(self, data_type):
        self.data_type = numpy_dtype(data_type)

    def _apply(self, array):
        return array.astype(self.data_type)


class OneHot(TensorOperation):
    """One-hot encode integer labels into ``num_classes`` classes, keeping the labels' dtype.

    With ``smoothing_rate`` s > 0 the result is float64: ``(1 - s) * one_hot + s / num_classes``.

    Raises:
        ValueError: if ``num_classes`` is not positive or ``smoothing_rate`` not in [0, 1].
        RuntimeError: if a label is not an integer or is outside [0, num_classes).
    """

    def __init__(self, num_classes, smoothing_rate=0.0):
        if not isinstance(num_classes, int) or isinstance(num_classes, bool) or num_classes < 1:
            raise ValueError(f"num_classes should be a positive int, but got {num_classes!r}.")
        if not 0.0 <= smoothing_rate <= 1.0:
            raise ValueError(f"smoothing_rate should be in [0, 1], but got {smoothing_rate!r}.")
        self.num_classes, self.smoothing_rate = num_classes, smoothing_rate

    def _apply(self, array):
        if array.dtype.kind not in "iu":
            raise RuntimeError(f"OneHot: the labels must be integers, but got {array.dtype}.")
        if array.size and (array.min() < 0 or array.max() >= self.num_classes):
            raise RuntimeError(f"OneHot: labels must be in [0, {self.num_classes}), but got values from "
                               f"{array.min()} to {array.max()}.")
        one_hot = (array[..., None] == np.arange(self.num_classes)).astype(array.dtype)
        if self.smoothing_rate:
            s = self.smoothing_rate
            return (1 - s) * one_hot + s / self.num_classes
        return one_hot


def not_random(function):
    """Mark the Python function ``function`` as deterministic (``function.random = False``), so that a
    ``map`` using it may be cached (see ``dataset.DatasetCache``); returns it."""
    function.random = False
    return function


class PyTensorOperation:
    """Base of Python transforms, which a user's transform may subclass: calling one runs its ``_execute_py``
    (or its own ``__call__``) on the input as given (a NumPy array or a PIL image)."""

    def __init__(self) -> None:
        self.transforms: list = []
        self.output_type = None

    def __call__(self, img):
        return self._execute_py(img)

    def _execute_py(self, img):
        raise NotImplementedError(f"{type(self).__name__} must define __call__ or _execute_py.")


_PAD_VALUE_TYPES = (str, float, bool, int, bytes)


class PadEnd(TensorOperation):
    """Pad (or cut) each dim at its end to ``pad_shape`` (``None``: keep that dim), with ``pad_value`` (default 0,
    or ``''`` for text).

    Raises:
        TypeError: If `pad_shape` is not a list or `pad_value` not a number, str or bytes.
        RuntimeError: If `pad_shape` has another rank than the input.
    """

    def __init__(self, pad_shape: list, pad_value: str | float | bool | int | bytes | None = None) -> None:
        if not isinstance(pad_shape, list):
            raise TypeError(f"Argument pad_shape with value {pad_shape} is not of type [<class 'list'>], but got "
                            f"{type(pad_shape)}.")
        if pad_value is not None and not isinstance(pad_value, _PAD_VALUE_TYPES):
            raise TypeError(f"Argument pad_value with value {pad_value} is not of type [<class 'str'>, <class 'float'>"
                            f", <class 'bool'>, <class 'int'>, <class 'bytes'>], but got {type(pad_value)}.")
        self.pad_shape, self.pad_value = pad_shape, pad_value

    def _apply(self, array):
        if len(self.pad_shape) != array.ndim:
            raise RuntimeError(f"PadEnd: invalid pad shape, as rank of input is: {array.ndim}, and rank of pad value: "
                               f"{len(self.pad_shape)}")
        shape = tuple(dim if size is None else size for dim, size in zip(array.shape, self.pad_shape))
        fill = self.pad_value if self.pad_value is not None else ("" if array.dtype.kind in "US" else 0)
        out = np.full(shape, fill, dtype=array.dtype)
        kept = tuple(slice(0, min(dim, size)) for dim, size in zip(array.shape, shape))
        out[kept] = array[kept]
        return out


class Duplicate(TensorOperation):
    """The input and a copy of it: two columns (``map`` with two ``output_columns``)."""

    def _apply(self, array):
        return array, array.copy()
