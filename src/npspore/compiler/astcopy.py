"""A deep copy of a Python syntax tree, several times faster than ``copy.deepcopy``.

The stages copy parsed trees before changing them (the parsed function and the op templates
are cached and never mutated): normalize copies a function before desugaring it, codegen each
template statement it inlines. ``copy.deepcopy`` reaches every node through ``__reduce_ex__``
and a memo; a syntax tree is a tree of ``ast.AST`` nodes, lists and immutable leaves, so a
direct recursive copy of each node's ``__dict__`` does the same work without that machinery.
"""
from __future__ import annotations

import ast

_AST, _LIST = ast.AST, list


def copy_tree(node):
    """A copy of ``node`` (an ``ast.AST``, a list of them, or an immutable leaf) sharing no node
    or list with it; every attribute of every node (fields, positions, others) is copied."""
    if isinstance(node, _AST):
        cls = node.__class__
        new = cls.__new__(cls)
        attributes = new.__dict__
        for name, value in node.__dict__.items():
            attributes[name] = copy_tree(value) if isinstance(value, (_AST, _LIST)) else value
        return new
    if isinstance(node, _LIST):
        return [copy_tree(item) if isinstance(item, (_AST, _LIST)) else item for item in node]
    return node
