"""Pytrees: nested call values as a flat list of leaves plus a :class:`TreeDef` that rebuilds them.

A value is a tree of containers — tuple, list, dict, namedtuple (each remembering whether it was
made ``mutable``) — whose leaves are the values ``is_leaf`` accepts (tensors, say). Everything else
is a constant, kept in the TreeDef. ``flatten`` and ``unflatten`` are inverses::

    leaves, treedef = flatten(value, is_leaf)
    assert unflatten(treedef, leaves) == value

Container classes are kept (a ``mutable`` tuple comes back as the same class, a namedtuple as
its class), so a TreeDef is also the structural part of a cache key (it is hashable when its
constants are).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

LEAF, CONST, TUPLE, LIST, DICT, NAMEDTUPLE = "leaf", "const", "tuple", "list", "dict", "namedtuple"


@dataclass(frozen=True)
class TreeDef:
    """The structure of a flattened value.

    ``kind`` is one of ``leaf``, ``const``, ``tuple``, ``list``, ``dict``, ``namedtuple``;
    ``children`` the TreeDefs of a container's items; ``data`` the constant (``const``), the keys
    (``dict``), or the container's class when it is not the plain builtin; ``mutable`` the
    ``mutable(...)`` flag of a container.
    """

    kind: str
    children: tuple = ()
    data: Any = None
    mutable: bool = False

    @property
    def num_leaves(self) -> int:
        """How many leaves the structure holds."""
        if self.kind == LEAF:
            return 1
        return sum(child.num_leaves for child in self.children)


_LEAF = TreeDef(LEAF)


def flatten(value, is_leaf) -> tuple:
    """``(leaves, treedef)`` of ``value``: leaves in depth-first order (dicts in insertion order)."""
    leaves: list = []
    return leaves, _flatten(value, is_leaf, leaves)


def _flatten(value, is_leaf, leaves) -> TreeDef:
    if is_leaf(value):
        leaves.append(value)
        return _LEAF
    mutable = bool(getattr(value, "__ms_mutable__", False))
    if isinstance(value, tuple):
        if hasattr(value, "_fields"):
            return TreeDef(NAMEDTUPLE, tuple(_flatten(v, is_leaf, leaves) for v in value), type(value), mutable)
        cls = None if type(value) is tuple else type(value)
        return TreeDef(TUPLE, tuple(_flatten(v, is_leaf, leaves) for v in value), cls, mutable)
    if isinstance(value, list):
        list_cls = None if type(value) is list else type(value)
        return TreeDef(LIST, tuple(_flatten(v, is_leaf, leaves) for v in value), list_cls, mutable)
    if isinstance(value, dict):
        children = tuple(_flatten(v, is_leaf, leaves) for v in value.values())
        return TreeDef(DICT, children, (tuple(value.keys()), None if type(value) is dict else type(value)), mutable)
    return TreeDef(CONST, data=value)


def unflatten(treedef: TreeDef, leaves):
    """The value ``treedef`` describes, with ``leaves`` (any iterable, consumed in order) at its leaves."""
    return _unflatten(treedef, iter(leaves))


def _unflatten(treedef: TreeDef, leaves):
    kind = treedef.kind
    if kind == LEAF:
        return next(leaves)
    if kind == CONST:
        return treedef.data
    items = [_unflatten(child, leaves) for child in treedef.children]
    if kind == NAMEDTUPLE:
        return treedef.data(*items)
    if kind == DICT:
        keys, cls = treedef.data
        return _remake(cls, dict(zip(keys, items)), treedef.mutable)
    plain = tuple(items) if kind == TUPLE else items
    return _remake(treedef.data, plain, treedef.mutable)


def _remake(cls, plain, mutable):
    """``plain`` as an instance of the container class ``cls`` (None: the builtin), flag restored."""
    if cls is None:
        return plain
    try:
        result = cls(plain)
    except TypeError:
        return plain
    if mutable and not getattr(result, "__ms_mutable__", False):
        try:
            result.__ms_mutable__ = True
        except AttributeError:
            pass
    return result


def tree_map(fn, value, is_leaf):
    """``value`` with each leaf ``x`` replaced by ``fn(x)``, containers and constants kept."""
    leaves, treedef = flatten(value, is_leaf)
    return unflatten(treedef, [fn(leaf) for leaf in leaves])


def leaves(value, is_leaf) -> list:
    """The leaves of ``value``, in flattening order."""
    return flatten(value, is_leaf)[0]
