"""The private helpers of ``mindspore.numpy.utils`` and ``mindspore.numpy.utils_const`` that programs import
(``from mindspore.numpy.utils import _to_tensor``): both paths are this module (``npspore.module_aliases``)."""
from __future__ import annotations

from typing import Any

import numpy as np

from .common.tensor import Tensor

__all__: list[str] = []

_NARROWED = {np.dtype(np.float64): np.float32, np.dtype(np.int64): np.int32}


def _to_tensor(*args: Any) -> Any:
    """Each argument as a Tensor: a number, bool, list or tuple converted (64-bit values narrowed to Float32 and
    Int32, as MindSpore's); a Tensor as it is. One argument gives one Tensor, several a tuple.

    Raises:
        TypeError: ``Expect input to be array like.`` for anything else (a NumPy array included, as in MindSpore).
    """
    converted = []
    for arg in args:
        if isinstance(arg, (int, float, bool, list, tuple)):
            array = np.asarray(arg)
            arg = Tensor(array.astype(_NARROWED.get(array.dtype, array.dtype)))
        elif not isinstance(arg, Tensor):
            raise TypeError("Expect input to be array like.")
        converted.append(arg)
    return converted[0] if len(converted) == 1 else tuple(converted)


def _raise_value_error(info: str, param: Any = None) -> None:
    """Raise ``ValueError(info)``, with ``param`` written after it when given."""
    if param is None:
        raise ValueError(info)
    raise ValueError(info + f"{param}")
