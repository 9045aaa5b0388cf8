"""``mutable``: mark a network input as variable, as ``mindspore.mutable`` documents it.

Compiled code treats tuple, list and dict inputs as constants; ``mutable(...)`` makes such an input
a variable, so it can be differentiated. npspore follows the documented contract (the seed page):
only a Tensor, or a tuple/list/dict nested from Tensors, is accepted. A Tensor is returned as it
is; a container comes back as a ``_Tuple``/``_List``/``_Dict`` holding the same elements, with the
attributes ``__ms_mutable__ = True``, ``__ms_dynamic_len__`` and ``__ms_origin_object__``.
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


_MARKED = {tuple: _Tuple, list: _List, dict: _Dict}


def _all_tensors(data, enclosing=()) -> bool:
    """Whether ``data`` is a Tensor or a container nested from Tensors, with no self-reference."""
    if isinstance(data, Tensor):
        return True
    if not isinstance(data, (tuple, list, dict)) or id(data) in enclosing:
        return False
    elements = data.values() if isinstance(data, dict) else data
    return all(_all_tensors(element, enclosing + (id(data),)) for element in elements)


def mutable(input_data, dynamic_len=False):
    """Make a network input variable: not folded as a constant, no recompile, differentiable.

    Args:
        input_data (Union[Tensor, tuple[Tensor], list[Tensor], dict[Tensor]]): the input, possibly
            nested.
        dynamic_len (bool): whether a tuple or list input may change its length.

    Returns:
        The same Tensor, or a tuple/list/dict subclass holding the same elements and marked mutable.

    Raises:
        TypeError: if ``input_data`` is not a Tensor or a (nested) tuple/list/dict of Tensors, if
            ``dynamic_len`` is not a bool, or if ``dynamic_len`` is True for a non-sequence.
    """
    if not isinstance(dynamic_len, bool):
        raise TypeError(f"For 'mutable', the second input should be bool, but got: {type(dynamic_len).__name__}")
    if dynamic_len and not isinstance(input_data, (tuple, list)):
        raise TypeError("For 'mutable', when the variable_len is True, the first input should be list or tuple, "
                        f"but got: {type(input_data).__name__}")
    if isinstance(input_data, Tensor):  # first: compiled code (mutable inside @jit) reaches only this
        return input_data
    if not _all_tensors(input_data):
        raise TypeError("For 'mutable', the 'input_data' should be one of (Tensor, tuple[Tensor], list[Tensor], "
                        "dict[Tensor]) or their nested structures with no self-reference, but got "
                        f"{type(input_data).__name__}: {input_data}.")
    marked = [cls for base, cls in _MARKED.items() if isinstance(input_data, base)][0]
    result = marked(input_data)
    result.__ms_mutable__ = True
    result.__ms_dynamic_len__ = dynamic_len
    result.__ms_origin_object__ = input_data
    return result


LIBRARY.register(mutable_types=(_Tuple, _List, _Dict))
