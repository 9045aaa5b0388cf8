"""``ast.unparse`` with one output on every supported Python.

Python 3.10 writes every tuple in parentheses, assignment and loop targets too (``(n, c) = x.shape``,
``for (i, j) in pairs``); 3.11 dropped the parentheses around targets. Generated modules and the
golden files that pin them use the 3.11 form, so on 3.10 the targets are written here.
"""
from __future__ import annotations

import ast
import sys

from .astcopy import copy_tree


class _BareTupleTargets(ast.NodeTransformer):
    """A tuple being assigned to becomes a name spelling its elements without parentheses."""

    def visit_Tuple(self, node: ast.Tuple) -> ast.AST:
        if isinstance(node.ctx, ast.Store) and node.elts:
            return ast.Name(", ".join(ast.unparse(element) for element in node.elts), ast.Store())
        return self.generic_visit(node)


_TARGETS_PARENTHESIZED = sys.version_info < (3, 11)


def unparse(node: ast.AST) -> str:
    """The source text of ``node``, tuple targets without parentheses (Python 3.11's output)."""
    if _TARGETS_PARENTHESIZED:
        node = _BareTupleTargets().visit(copy_tree(node))
    return ast.unparse(node)
