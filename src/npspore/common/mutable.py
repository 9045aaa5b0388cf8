"""``mutable``: mark a network input as variable, as ``mindspore.mutable`` does in MindSpore 2.10.

Compiled code treats Python scalars and tuple, list and dict inputs as constants; ``mutable(...)``
makes such an input a variable: a new value runs the same kernel, and a container can be
differentiated. As in MindSpore 2.10 (semantics §6), a Tensor, a bool, int or float, or a
tuple/list/dict nested from those is accepted (the seed page, written for an older release, lists
only Tensors and containers of Tensors; its example behaves the same). A Tensor is returned as it
is; a scalar comes back as an ``_Int``/``_Float``/``_Bool`` (an int or float subclass; ``_Bool``
reports ``bool`` as its class), a container as a ``_Tuple``/``_List``/``_Dict`` holding the same
elements, each with the attributes ``__ms_mutable__ = True``, ``__ms_dynamic_len__`` and
``__ms_origin_object__``.
"""
from __future__ import annotations

from ..compiler.library import LIBRARY
from .tensor import Tensor

__all__ = ["mutable"]


class _Tuple(tuple):
    """A tuple marked mutable."""


class _List(list):
    """A list marked mutable."""


class _Dict(dict):
    """A dict marked mutable."""


class _Int(int):
    """An int marked mutable."""


class _Float(float):
    """A float marked mutable."""


class _Bool(int):
    """A bool marked mutable (bool cannot be subclassed: an int that reports ``bool`` as its class)."""

    @property
    def __class__(self):
        return bool

    def __repr__(self) -> str:
        return repr(bool(self))


_MARKED = {bool: _Bool, int: _Int, float: _Float, tuple: _Tuple, list: _List, dict: _Dict}


def _accepted(data, enclosing=()) -> bool:
    """Whether ``data`` is a Tensor, a bool, int or float, or a container nested from those, with no
    self-reference."""
    if isinstance(data, (Tensor, bool, int, float)):
        return True
    if not isinstance(data, (tuple, list, dict)) or id(data) in enclosing:
        return False
    elements = data.values() if isinstance(data, dict) else data
    return all(_accepted(element, enclosing + (id(data),)) for element in elements)


def mutable(input_data, dynamic_len=False):
    """Make a network input variable: not folded as a constant, no recompile, differentiable.

    Args:
        input_data (Union[Tensor, bool, int, float, tuple, list, dict]): the input; containers may nest
            Tensors, scalars and containers.
        dynamic_len (bool): whether a tuple or list input may change its length.

    Returns:
        The same Tensor, or an int/float/tuple/list/dict subclass of the same value, marked mutable.

    Raises:
        TypeError: if ``input_data`` is none of those (a str, None, an ndarray ...), if
            ``dynamic_len`` is not a bool, or if ``dynamic_len`` is True for a non-sequence.
    """
    if not isinstance(dynamic_len, bool):
        raise TypeError(f"For 'mutable', the second input should be bool, but got: {type(dynamic_len).__name__}")
    if dynamic_len and not isinstance(input_data, (tuple, list)):
        raise TypeError("For 'mutable', when the variable_len is True, the first input should be list or tuple, "
                        f"but got: {type(input_data).__name__}")
    if isinstance(input_data, Tensor):  # first: compiled code (mutable inside @jit) reaches only this
        return input_data
    if not _accepted(input_data):
        raise TypeError("For 'mutable', the 'input_data' should be one of (bool, int, float, Tensor, tuple, list, "
                        "dict) or their nested structures with no self-reference, but got "
                        f"{type(input_data).__name__}: {input_data}.")
    marked = [cls for base, cls in _MARKED.items() if isinstance(input_data, base)][0]
    result = marked(input_data)
    result.__ms_mutable__ = True
    result.__ms_dynamic_len__ = dynamic_len
    result.__ms_origin_object__ = input_data
    return result


LIBRARY.register_mutable((_Tuple, _List, _Dict))
