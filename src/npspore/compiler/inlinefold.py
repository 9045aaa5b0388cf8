"""Folding inside an inlined template body: integer identities dropped and literal locals propagated.

Templates are written over static tuples and run-time dims, e.g.
``oh = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1``. Once codegen has substituted the static
values and evaluated what is made of literals alone, such a line reads
``oh = (h - 1 * (kh - 1) - 1) // 1 + 1``. :class:`IntegerIdentities` removes what is left: ``1 * e``,
``e * 1``, ``e // 1``, ``e + 0``, ``0 + e`` and ``e - 0`` where ``e`` is known to be a Python int (a dim
or a stride read from ``.shape``/``.strides``, ``len(...)``, a ``range`` loop index, or integer
arithmetic of those; never an array, where ``1 * b`` turns booleans into ints and ``x // 1`` floors),
and a slice step of 1. :func:`literal_binding` finds the template locals bound once to a literal
(``kh = 5``), which codegen substitutes into the statements after them instead of emitting them.

Before that, :class:`StaticShapes` writes an operand's static ``x.shape`` as its tuple,
:class:`FoldStaticExpressions` evaluates what is made of literals alone (``a if True else b`` is ``a``), and
:class:`StaticSplits` writes ``rt.split_parts`` of an operand of static shape as the basic slices it returns, and
:class:`SliceSyntax` writes a static slice in a subscript as ``a:b:c``, and :class:`LiteralDivisors` writes
``rt.floor_divide(x, 2)`` (``floor_mod``, ``remainder``) as the plain ``x // 2`` (``x % 2``) a nonzero literal
divisor allows.
"""
from __future__ import annotations

import ast

import numpy as np

from ..core.kernels_np import split_cuts

_INT_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)


class IntegerIdentities(ast.NodeTransformer):
    """Drop the integer identities of the statements it visits, in order (see the module docstring).

    One instance visits the statements of one inlined body one after another: it learns which locals
    hold ints or tuples of ints from the assignments (and ``for ... in range``) it has seen.
    """

    def __init__(self):
        self.ints: set = set()
        self.int_tuples: set = set()

    # ---- what is known to be an int

    def is_int(self, node) -> bool:
        if isinstance(node, ast.Constant):
            return type(node.value) is int
        if isinstance(node, ast.Name):
            return node.id in self.ints
        if isinstance(node, ast.BinOp):
            return isinstance(node.op, _INT_OPERATORS) and self.is_int(node.left) and self.is_int(node.right)
        if isinstance(node, ast.UnaryOp):
            return isinstance(node.op, ast.USub) and self.is_int(node.operand)
        if isinstance(node, ast.Subscript):
            return self.is_int_tuple(node.value) and self.is_int(node.slice)
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len"

    def is_int_tuple(self, node) -> bool:
        if isinstance(node, ast.Attribute):
            return node.attr in ("shape", "strides")
        if isinstance(node, ast.Name):
            return node.id in self.int_tuples
        if isinstance(node, ast.Tuple):
            return all(self.is_int(e) for e in node.elts)
        if isinstance(node, ast.Subscript):
            return isinstance(node.slice, ast.Slice) and self.is_int_tuple(node.value)
        if isinstance(node, ast.BinOp):
            return isinstance(node.op, ast.Add) and self.is_int_tuple(node.left) and self.is_int_tuple(node.right)
        return False

    def _bind(self, target, value_is_int: bool, value_is_tuple: bool) -> None:
        if isinstance(target, ast.Name):
            self.ints.discard(target.id)
            self.int_tuples.discard(target.id)
            if value_is_int:
                self.ints.add(target.id)
            elif value_is_tuple:
                self.int_tuples.add(target.id)
        elif isinstance(target, ast.Tuple):
            for element in target.elts:
                self._bind(element, value_is_tuple, False)

    # ---- statements: learn what they bind

    def visit_Assign(self, node: ast.Assign):
        node.value = self.visit(node.value)
        for target in node.targets:
            self._bind(target, self.is_int(node.value), self.is_int_tuple(node.value))
        return node

    def visit_AugAssign(self, node: ast.AugAssign):
        self.generic_visit(node)
        if isinstance(node.target, ast.Name):
            self._bind(node.target, node.target.id in self.ints and self.is_int(node.value), False)
        return node

    def visit_For(self, node: ast.For):
        node.iter = self.visit(node.iter)
        iterator = node.iter
        counts = isinstance(iterator, ast.Call) and isinstance(iterator.func, ast.Name) and iterator.func.id == "range"
        self._bind(node.target, counts, False)
        node.body = [self.visit(statement) for statement in node.body]
        return node

    # ---- expressions: drop the identities

    def visit_BinOp(self, node: ast.BinOp):
        self.generic_visit(node)
        left, right = node.left, node.right
        if isinstance(node.op, ast.Mult):
            if _is(left, 1) and self.is_int(right):
                return right
            if _is(right, 1) and self.is_int(left):
                return left
        if isinstance(node.op, ast.FloorDiv) and _is(right, 1) and self.is_int(left):
            return left
        if isinstance(node.op, (ast.Add, ast.Sub)) and _is(right, 0) and self.is_int(left):
            return left
        if isinstance(node.op, ast.Add) and _is(left, 0) and self.is_int(right):
            return right
        return node

    def visit_Slice(self, node: ast.Slice):
        self.generic_visit(node)
        if _is(node.step, 1):
            node.step = None
        return node


def _is(node, number: int) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == number


def _is_literal(node) -> bool:
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, float, bool, str) or node.value is None
    return isinstance(node, ast.Tuple) and all(_is_literal(e) for e in node.elts)


def literal_binding(statement, assigned_once, reassigned=frozenset()) -> dict:
    """``{name: literal}`` when ``statement`` binds only names of ``assigned_once`` to literals
    (``kh = 5``, ``cg, kh, kw = (6, 5, 5)``) or copies a name none of ``reassigned`` (``xp = x``:
    the local is another name of the same array), else ``{}``."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
        return {}
    target, value = statement.targets[0], statement.value
    if isinstance(target, ast.Name) and target.id in assigned_once and (
            _is_literal(value) or isinstance(value, ast.Name) and value.id not in reassigned):
        return {target.id: value}
    if (isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts)
            and all(isinstance(t, ast.Name) and t.id in assigned_once for t in target.elts)
            and all(_is_literal(v) for v in value.elts)):
        return {t.id: v for t, v in zip(target.elts, value.elts) if isinstance(t, ast.Name)}
    return {}


_LITERAL_NODES = (ast.Constant, ast.Tuple, ast.Subscript, ast.Slice, ast.BinOp, ast.UnaryOp, ast.Compare,
                  ast.BoolOp, ast.IfExp, ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)


def _literal_part(node) -> bool:
    """A node of an expression of literals alone: ``len`` of literals counts (a static tuple's length)."""
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id == "len" and not node.keywords
    return isinstance(node, _LITERAL_NODES) or isinstance(node, ast.Name) and node.id == "len"


class SliceSyntax(ast.NodeTransformer):
    """A static slice substituted into a subscript, ``x[1, slice(1, None, None)]``, written as Python writes it:
    ``x[1, 1:]``."""

    def visit_Subscript(self, node: ast.Subscript):
        self.generic_visit(node)
        if isinstance(node.slice, ast.Tuple):
            node.slice.elts = [_slice_syntax(item) for item in node.slice.elts]
        else:
            node.slice = _slice_syntax(node.slice)
        return node


def _slice_syntax(node):
    """``slice(a, b, c)`` of literals as ``a:b:c`` (``None`` parts left out), any other node as it is."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "slice"
            and not node.keywords and len(node.args) == 3 and all(isinstance(a, ast.Constant) for a in node.args)):
        lower, upper, step = (None if a.value is None else a for a in node.args)
        return ast.copy_location(ast.Slice(lower=lower, upper=upper, step=step), node)
    return node


# the values of the literal expressions evaluated so far, by their AST: compiling one costs more than inlining the
# template line it is in, and a training step's kernel folds the same few hundred expressions thousands of times
_FOLDED: dict = {}
_FOLDED_KEPT = 1 << 14
_NOT_FOLDED = object()


def _literal_value(node: ast.expr):
    """The value of the expression of literals ``node``, or ``_NOT_FOLDED`` where evaluating it raises."""
    key = ast.dump(node)
    if key not in _FOLDED:
        if len(_FOLDED) >= _FOLDED_KEPT:
            _FOLDED.clear()
        try:
            _FOLDED[key] = eval(compile(ast.Expression(node), "<template>", "eval"), {"__builtins__": {"len": len}})
        except Exception:  # noqa: BLE001 -- any error is the expression's own: it runs (and raises) at run time
            _FOLDED[key] = _NOT_FOLDED
    return _FOLDED[key]


class FoldStaticExpressions(ast.NodeTransformer):
    """Evaluate what the substituted static attributes make known: ``a if True else b`` → ``a``, and
    any expression of literals alone (``(1, 1)[0]`` → ``1``, ``(0, 0, 0, 0) != (0, 0, 0, 0)`` → ``False``,
    ``(32, 16, 4, 4)[2] + 1`` → ``5``, ``0 % len((1000, 128)) == 0`` → ``True``), so templates written over
    static tuples read as plain numbers."""

    def visit(self, node):
        node = super().visit(node)
        if isinstance(node, ast.expr) and not isinstance(node, (ast.Constant, ast.Tuple)) \
                and all(map(_literal_part, ast.walk(node))):
            value = _literal_value(node)
            if value is _NOT_FOLDED:   # e.g. a division by zero: left for run time
                return node
            folded = literal_node(value)
            if folded is not None:
                return ast.fix_missing_locations(ast.copy_location(folded, node))
        return node

    def visit_IfExp(self, node: ast.IfExp):
        self.generic_visit(node)
        if isinstance(node.test, ast.Constant):
            return node.body if node.test.value else node.orelse
        return node


def literal_node(value):
    """The AST of a Python literal (numbers, strings, None and tuples of them), or None for other values."""
    if isinstance(value, tuple):
        parts = [literal_node(v) for v in value]
        return None if any(p is None for p in parts) else ast.Tuple(elts=parts, ctx=ast.Load())
    if value is None or isinstance(value, (bool, int, str)) or (isinstance(value, float) and np.isfinite(value)):
        return ast.Constant(value)
    return None


class StaticShapes(ast.NodeTransformer):
    """``x.shape`` of an operand whose shape is static, as that tuple."""

    def __init__(self, shapes: dict):
        self.shapes = shapes

    def visit_Attribute(self, node: ast.Attribute):
        self.generic_visit(node)
        if (node.attr == "shape" and isinstance(node.value, ast.Name) and node.value.id in self.shapes
                and isinstance(node.ctx, ast.Load)):
            return ast.fix_missing_locations(ast.copy_location(literal_node(tuple(self.shapes[node.value.id])), node))
        return node


class StaticSplits(ast.NodeTransformer):
    """``rt.split_parts(x, cuts, axis=a)`` of an operand of static shape written as the basic slices it
    returns (``x[:, :256], x[:, 256:384], x[:, 384:]``): what a careful person writes, 0.6 us where the call
    takes 2.3 for an LSTM step's gates."""

    def __init__(self, shapes: dict):
        self.shapes = shapes

    def visit_Call(self, node: ast.Call):
        self.generic_visit(node)
        func, args = node.func, node.args
        if not (isinstance(func, ast.Attribute) and func.attr == "split_parts" and isinstance(func.value, ast.Name)
                and func.value.id == "rt" and len(args) == 2 and isinstance(args[0], ast.Name)
                and args[0].id in self.shapes and all(k.arg == "axis" for k in node.keywords)):
            return node
        shape = self.shapes[args[0].id]
        try:
            cuts = ast.literal_eval(args[1])
            axis = ast.literal_eval(node.keywords[0].value) if node.keywords else 0
        except (ValueError, TypeError):
            return node
        if not shape or type(axis) is not int or not -len(shape) <= axis < len(shape):
            return node
        axis %= len(shape)
        if type(cuts) is int:
            try:
                cuts = split_cuts(shape[axis], cuts)
            except ValueError:
                return node   # the run-time error np.split raises
        if not isinstance(cuts, (list, tuple)) or not cuts or not all(type(c) is int and c >= 0 for c in cuts):
            return node
        leading = ":, " * axis
        bounds = [None, *cuts, None]
        parts = [f"{args[0].id}[{leading}{'' if start is None else start}:{'' if stop is None else stop}]"
                 for start, stop in zip(bounds, bounds[1:])]
        return ast.copy_location(ast.parse(", ".join(parts), mode="eval").body, node)


_PLAIN_DIVISIONS = {"floor_divide": ast.FloorDiv(), "floor_mod": ast.Mod(), "remainder": ast.Mod()}


class LiteralDivisors(ast.NodeTransformer):
    """``rt.floor_divide(x, 2)`` → ``x // 2``: the runtime's divisions differ from NumPy's operators only where a
    divisor is zero (``core/division.py``), which a nonzero number literal (``2``, ``-0.5``) never is."""

    def visit_Call(self, node: ast.Call):
        self.generic_visit(node)
        func = node.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "rt"
                and func.attr in _PLAIN_DIVISIONS and len(node.args) == 2 and not node.keywords):
            return node
        try:
            divisor = ast.literal_eval(node.args[1])
        except (ValueError, TypeError, SyntaxError):
            return node   # a run-time value
        if type(divisor) not in (int, float) or divisor == 0:
            return node
        return ast.copy_location(ast.BinOp(node.args[0], _PLAIN_DIVISIONS[func.attr], node.args[1]), node)
