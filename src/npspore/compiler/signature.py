"""Input signatures and output trees: how a call's arguments become a cache key and flat arrays.

* Tensor / Parameter → ``(shape, dtype)``; a dim declared dynamic by ``Cell.set_inputs`` → ``None``.
* Python scalars, strings, None, dtypes → ``(type, value)``: constants, folded into the kernel.
* ``mutable(<bool, int or float>)`` → ``("mutable", type)``: a variable, passed to the kernel as a 0-d
  array leaf, so a new value runs the same kernel.
* tuple / list / dict → their structure (type, keys, ``mutable`` flag) and each element's key; the
  Tensor leaves are never keyed by value or identity, so new values reuse the kernel.

``input_key(args)`` is on the hot path of every compiled call: one pass that builds the key and
the flat list of leaf arrays together. ``OutputTree`` rebuilds the user's result structure from the
kernel's flat results.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core import tree
from .library import LIBRARY

_SCALARS = (bool, int, float, str, type(None))


def input_key(args, dynamic=None):
    """``(key, leaves)`` for a tuple of call arguments.

    ``dynamic`` maps an argument index to a shape with ``None`` for its dynamic dims (from
    ``set_inputs``); such an argument is keyed by that shape instead of its own.
    Raises TypeError for an argument npspore cannot pass to compiled code.
    """
    tensor = LIBRARY.tensor_type
    leaves: list = []
    key = []
    for index, arg in enumerate(args):
        if isinstance(arg, tensor):
            array = arg._array
            leaves.append(array)
            if dynamic is not None and index in dynamic:
                key.append((dynamic[index], array.dtype))
            else:
                key.append((array.shape, array.dtype))
        else:
            key.append(_value_key(arg, leaves, tensor))
    return tuple(key), leaves


def _value_key(value, leaves, tensor):
    if isinstance(value, tensor):
        array = value._array
        leaves.append(array)
        return (array.shape, array.dtype)
    kind = type(value)
    if kind is float:  # by its bits: -0.0 and 0.0 differ, nan equals nan
        return (float, value.hex())
    if kind in _SCALARS:
        return (kind, value)
    if is_mutable_scalar(value):
        base = scalar_type(value)
        leaves.append(np.asarray(base(value)))
        return ("mutable", base)
    mutable = bool(getattr(value, "__ms_mutable__", False))
    if isinstance(value, (tuple, list)):
        return (tuple if isinstance(value, tuple) else list, mutable,
                tuple(_value_key(v, leaves, tensor) for v in value))
    if isinstance(value, dict):
        return (dict, mutable, tuple((k, _value_key(v, leaves, tensor)) for k, v in value.items()))
    try:
        hash(value)
    except TypeError:
        raise TypeError(
            f"npspore cannot pass an argument of type {kind.__name__} to compiled code: "
            "expected a Tensor, a Python scalar, a string, None, or a tuple/list/dict of those") from None
    return (kind, value)


def is_mutable_scalar(value) -> bool:
    """Whether ``value`` is a ``mutable(...)`` bool, int or float (a variable of compiled code)."""
    return isinstance(value, (int, float)) and getattr(value, "__ms_mutable__", False) is True


def scalar_type(value) -> type:
    """``bool``, ``int`` or ``float``: the Python type a mutable scalar stands for."""
    return bool if isinstance(value, bool) else int if isinstance(value, int) else float


@dataclass(frozen=True)
class OutputTree:
    """The structure of a compiled function's result: leaves index the kernel's flat results.

    ``node`` is ``("leaf", i)``, ``("host", i)`` (a Python value the kernel computed from tensor
    values, returned as it is), ``("const", value)``, ``("tuple", children)``, ``("list", children)``
    or ``("dict", keys, children)``.
    """

    node: tuple

    def build(self, results):
        """The user-visible result: Tensors for leaves, Python values for constants."""
        tensor_wrap = LIBRARY.wrap

        def wrap(result):
            return tensor_wrap(result if type(result) is np.ndarray else np.asarray(result))

        return _build(self.node, results, wrap)

    def leaf_count(self) -> int:
        return _count(self.node)


def _build(node, results, wrap):
    kind = node[0]
    if kind == "leaf":
        return wrap(results[node[1]])
    if kind == "host":
        return results[node[1]]
    if kind == "const":
        return node[1]
    if kind == "tuple":
        return tuple(_build(c, results, wrap) for c in node[1])
    if kind == "list":
        return [_build(c, results, wrap) for c in node[1]]
    return {k: _build(c, results, wrap) for k, c in zip(node[1], node[2])}


def _count(node) -> int:
    kind = node[0]
    if kind in ("leaf", "host"):
        return 1
    if kind == "const":
        return 0
    return sum(_count(c) for c in node[-1])


def describe_key(key) -> str:
    """A short human-readable form of an input key, for module headers and cache listings."""
    return "(" + ", ".join(_describe(k) for k in key) + ")"


def _describe(k) -> str:
    if len(k) == 2 and isinstance(k[0], tuple) and not isinstance(k[1], (tuple, bool)):
        dims = ",".join("?" if d is None else str(d) for d in k[0])
        return f"{k[1].name}[{dims}]" if hasattr(k[1], "name") else f"[{dims}]"
    if len(k) == 2 and k[0] is float:
        return repr(float.fromhex(k[1]))
    if len(k) == 2 and isinstance(k[0], type):
        return repr(k[1])
    if len(k) == 2 and k[0] == "mutable":
        return f"mutable {k[1].__name__}"
    if len(k) == 3 and k[0] in (tuple, list):
        inner = ", ".join(_describe(c) for c in k[2])
        prefix = "mutable " if k[1] else ""
        return f"{prefix}({inner})" if k[0] is tuple else f"{prefix}[{inner}]"
    if len(k) == 3 and k[0] is dict:
        inner = ", ".join(f"{key!r}: {_describe(c)}" for key, c in k[2])
        return ("mutable " if k[1] else "") + "{" + inner + "}"
    return repr(k)


def tensor_leaves(value) -> list:
    """The Tensors in a (nested) tuple/list/dict argument, in flattening order."""
    return tree.leaves(value, LIBRARY.is_tensor)


def map_tensors(value, fn):
    """``value`` with each Tensor leaf ``t`` replaced by ``fn(t)`` (containers kept)."""
    return tree.tree_map(fn, value, LIBRARY.is_tensor)
