"""Argument checks shared by the dataset modules, raising MindSpore-style messages that name the argument."""
from __future__ import annotations

import numpy as np

from ..common import dtype as mstype

INT32_MAX = 2147483647


def check_int(value, name, low, high=INT32_MAX, allow_minus_one=False):
    """Check that ``value`` is an int in [low, high] (or -1 if ``allow_minus_one``).

    Raises:
        TypeError: if ``value`` is not an int (bools are refused).
        ValueError: if it is out of range.
    """
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"Argument {name} with value {value!r} is not of type [<class 'int'>], but got {type(value)}.")
    if allow_minus_one and value == -1:
        return
    if not low <= value <= high:
        either = "either -1 or " if allow_minus_one else ""
        raise ValueError(f"Input {name} should be {either}within the required interval of [{low}, {high}], "
                         f"but got {value}.")


def check_bool(value, name):
    """Raise TypeError naming ``name`` unless ``value`` is a bool."""
    if not isinstance(value, bool):
        raise TypeError(f"Argument {name} with value {value!r} is not of type [<class 'bool'>].")


def numpy_dtype(data_type, name="data_type"):
    """The NumPy dtype of ``data_type``: a MindSpore type (``ms.float32``) or a NumPy type.

    Raises:
        TypeError: naming ``name`` if ``data_type`` is neither.
    """
    if isinstance(data_type, mstype.Type):
        return np.dtype(mstype.dtype_to_nptype(data_type))
    try:
        return np.dtype(data_type)
    except TypeError:
        raise TypeError(f"Argument {name} should be a MindSpore or NumPy data type, but got {data_type!r}.") from None
