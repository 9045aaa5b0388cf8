"""Normalize: desugar a parsed function into the small subset the specializer interprets.

* ``x += e`` becomes ``x = x + e``, ``self.sub.p += e`` becomes ``self.sub.p = self.sub.p + e`` (``x[i] += e`` is
  kept for the specializer, which evaluates the index once and writes a bool mask's elements with ``where``);
* ``a = b = e`` becomes ``a = e`` followed by ``b = a``;
* ``assert c, msg`` becomes ``if not c: raise AssertionError(msg)``.

Every new node copies the position of the node it replaces, so errors still point at the user's
line. The A-normal form and SSA names of DESIGN.md are produced when the specializer stages each op
(it is only then known which expressions are ops and which are Python values folded at compile
time); ``npspore show --dump-after normalize`` prints this stage's output with ``ast.unparse``.
"""
from __future__ import annotations

import ast

from .astcopy import copy_tree


def _attribute_path(node) -> bool:
    """Whether ``node`` is a name or a chain of attributes of one (``self``, ``self.sub``): reading it
    twice reads the same object."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


class _Desugar(ast.NodeTransformer):
    def visit_AugAssign(self, node: ast.AugAssign):
        target = node.target
        load: ast.expr
        store: ast.expr
        if isinstance(target, ast.Name):
            load, store = ast.Name(id=target.id, ctx=ast.Load()), ast.Name(id=target.id, ctx=ast.Store())
        elif isinstance(target, ast.Attribute) and _attribute_path(target.value):  # self.param += 1, self.sub.p += 1
            load = ast.Attribute(value=copy_tree(target.value), attr=target.attr, ctx=ast.Load())
            store = ast.Attribute(value=copy_tree(target.value), attr=target.attr, ctx=ast.Store())
        else:
            return node
        value = ast.BinOp(left=load, op=node.op, right=self.visit(node.value))
        assign = ast.Assign(targets=[store], value=value)
        for new in (load, value, assign, store):
            ast.copy_location(new, node)
        return assign

    def visit_Assign(self, node: ast.Assign):
        node.value = self.visit(node.value)
        if len(node.targets) == 1:
            return node
        first, *rest = node.targets
        out = [ast.copy_location(ast.Assign(targets=[first], value=node.value), node)]
        source = first if isinstance(first, ast.Name) else None
        for target in rest:
            value = ast.Name(id=source.id, ctx=ast.Load()) if source else copy_tree(node.value)
            out.append(ast.copy_location(ast.Assign(targets=[target], value=ast.copy_location(value, node)), node))
        return out

    def visit_Assert(self, node: ast.Assert):
        args = [node.msg] if node.msg is not None else []
        exc = ast.Call(func=ast.Name(id="AssertionError", ctx=ast.Load()), args=args, keywords=[])
        test = ast.UnaryOp(op=ast.Not(), operand=node.test)
        new = ast.If(test=test, body=[ast.Raise(exc=exc, cause=None)], orelse=[])
        for part in (exc, exc.func, test, new, new.body[0]):
            ast.copy_location(part, node)
        return new


def normalize(tree: ast.FunctionDef) -> ast.FunctionDef:
    """A desugared copy of ``tree`` (the parsed function is cached and never mutated)."""
    return ast.fix_missing_locations(_Desugar().visit(copy_tree(tree)))


_CACHE: dict = {}


def normalized(tree: ast.FunctionDef) -> ast.FunctionDef:
    """``normalize(tree)``, computed once per parsed tree."""
    result = _CACHE.get(id(tree))
    if result is None or result[0] is not tree:
        result = (tree, normalize(tree))
        _CACHE[id(tree)] = result
    return result[1]
