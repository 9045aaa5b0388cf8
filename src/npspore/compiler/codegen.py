"""Codegen: render typed normal form as a readable, deterministic Python/NumPy module.

Each ``Apply`` becomes one line: the op's ``forward`` body from ``codegen_templates`` with its
operand names and static values substituted (``h = np.maximum(t, 0)``). Each line ends with a
``# file.py:LINE`` comment naming the user's source line it came from. Structured control flow
renders as ``if``/``for``/``while``. NumPy arrays that are constants of the program are hoisted to
module-level names (``_c0``). The same module always renders to the same text.

The module skeleton (header, imports) is ``codegen_templates/module.py.tmpl``.
"""
from __future__ import annotations

import ast
import builtins
import copy
import functools
import math
import operator
import re
from collections import Counter
from string import Template

import numpy as np

from ..core import division, kernels_np, matmul_split
from ..opdef import function_ast, op_table, template_file
from ..shape_rules import fit_int
from . import ir, workspace
from .astcopy import copy_tree
from .constantviews import constant_holders
from .errors import file_label
from .inlinefold import (FoldStaticExpressions, IntegerIdentities, LiteralDivisors, SliceSyntax, StaticShapes,
                         StaticSplits, literal_binding)
from .linewrap import wrap_lines
from .unparse import unparse


def _skeleton() -> Template:
    with open(template_file("module.py.tmpl"), encoding="utf-8") as handle:
        return Template(handle.read())


class _Constants:
    """Module-level constants (arrays) in first-use order: ``_c0``, ``_c1`` ..."""

    def __init__(self):
        self.names: dict = {}
        self.lines: list[str] = []

    def name_for(self, array: np.ndarray) -> str:
        key = (array.dtype.str, array.shape, array.tobytes())
        name = self.names.get(key)
        if name is None:
            name = f"_c{len(self.names)}"
            self.names[key] = name
            dtype = f"dtype=np.{_numpy_name(array.dtype)}"
            if array.size > _LITERAL_ELEMENTS and _uniform(array):   # a column of ones: np.full, not 128 literals
                self.lines.append(f"{name} = np.full({array.shape}, {_literal_text(array.flat[0].item())}, {dtype})")
            else:
                self.lines.append(f"{name} = np.array({_literal_text(array.tolist())}, {dtype})")
        return name


_OPERATOR_TEXT = {
    operator.add: "({} + {})", operator.sub: "({} - {})", operator.mul: "({} * {})", operator.truediv: "({} / {})",
    operator.floordiv: "({} // {})", operator.mod: "({} % {})", operator.pow: "({} ** {})",
    operator.matmul: "({} @ {})", operator.and_: "({} & {})", operator.or_: "({} | {})", operator.xor: "({} ^ {})",
    operator.lshift: "({} << {})", operator.rshift: "({} >> {})", operator.eq: "({} == {})",
    operator.ne: "({} != {})", operator.lt: "({} < {})", operator.le: "({} <= {})", operator.gt: "({} > {})",
    operator.ge: "({} >= {})", operator.neg: "(-{})", operator.pos: "(+{})", operator.invert: "(~{})",
    operator.not_: "(not {})", operator.getitem: "{}[{}]", operator.contains: "({1} in {0})",
}
"""How a ``host`` effect of an ``operator`` function reads in generated code."""


def _numpy_name(dtype) -> str:
    """``float32``, ``int64`` ..., and ``bool_`` (``np.bool`` does not exist in NumPy 1.26)."""
    dtype = np.dtype(dtype)
    return "bool_" if dtype.kind == "b" else dtype.name


_LITERAL_ELEMENTS = 16
"""A module constant of more elements, all alike (bit for bit), is written ``np.full(shape, value)``."""


def _uniform(array: np.ndarray) -> bool:
    return array.tobytes() == np.full(array.shape, array.flat[0], array.dtype).tobytes()


def _literal_text(value) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "np.nan"
        if math.isinf(value):
            return "np.inf" if value > 0 else "-np.inf"
        return repr(value)
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_literal_text(v) for v in value)
        if isinstance(value, tuple):
            return f"({inner},)" if len(value) == 1 else f"({inner})"
        return f"[{inner}]"
    return repr(value)


def _scalar_text(value) -> str:
    """A NumPy scalar's value as a Python literal: a float32 or float16 is written with the fewest
    digits that give it back (``0.2``, not ``0.20000000298023224``)."""
    item = value.item()
    if isinstance(item, float) and value.dtype.itemsize < 8 and math.isfinite(item) and not item.is_integer():
        short = str(value.dtype.type(item))
        if value.dtype.type(float(short)) == item:
            return short
    return _literal_text(item)


class Renderer:
    """Renders one module; ``render()`` returns its full source text."""

    def __init__(self, module: ir.Module):
        self.module = module
        self.constants = _Constants()
        self.table = op_table()
        self.used: set | None = None     # ids of the Vars the function being rendered reads
        self.slots: set = set()          # ids of the Vars that are slots: of a concatenation (concat_slot), a row of
        #                                  a stacked buffer (row_slot)
        self.slot_names: set = set()     # the names of the slots of the function being rendered
        self.buffers: list = []          # the workspace buffers of the function being rendered (the statements writing them)
        self.layout: list[str] = []      # the kernel's workspace: (shape, dtype) of every function's buffers
        self.threaded = workspace.handed_the_workspace(module)   # the functions handed the kernel's set of buffers
        self.row_functions = {stmt.callee for function in module.functions.values()   # called by rt.split_rows
                              for stmt in ir.walk_stmts(function.body) if isinstance(stmt, ir.Call) and stmt.split_rows}
        self.rows_of_arguments = False   # the function being rendered is one of them
        self.aliases: dict = {}          # id(loop output Var) -> the loop variable's name it keeps
        self.inlined: frozenset = frozenset()   # the function's Vars written inside their reader
        self.expressions: dict = {}      # id(inlined Var) -> its expression, parenthesized

    # ---- values

    def literal(self, value) -> str:
        """Python source for a compile-time value."""
        if isinstance(value, np.ndarray) and value.ndim > 0:
            return self.constants.name_for(value)
        if isinstance(value, (np.ndarray, np.generic)):
            return f"np.{_numpy_name(value.dtype)}({_scalar_text(value)})"
        if isinstance(value, np.dtype):
            return f"np.{_numpy_name(value)}"
        if isinstance(value, type) and issubclass(value, np.generic):
            return f"np.{_numpy_name(value)}"
        if isinstance(value, slice):
            return f"slice({self.literal(value.start)}, {self.literal(value.stop)}, {self.literal(value.step)})"
        if value is Ellipsis:
            return "..."
        if isinstance(value, tuple):
            inner = ", ".join(self.literal(v) for v in value)
            return f"({inner},)" if len(value) == 1 else f"({inner})"
        if isinstance(value, list):
            return "[" + ", ".join(self.literal(v) for v in value) + "]"
        if isinstance(value, dict):
            return "{" + ", ".join(f"{self.literal(k)}: {self.literal(v)}" for k, v in value.items()) + "}"
        if isinstance(value, (bool, int, float, str, type(None))):
            return _literal_text(value)
        if hasattr(value, "_npspore_nptype"):
            return self.literal(np.dtype(value._npspore_nptype))
        raise TypeError(f"cannot render compile-time value {value!r} of type {type(value).__name__}")

    def atom(self, atom) -> str:
        if isinstance(atom, ir.Var):
            return self.expressions.get(id(atom)) or self.aliases.get(id(atom), atom.name)
        return self.literal(atom.value)

    # ---- statements

    def guard_lines(self, stmt: ir.Effect, where: str) -> list[str]:
        """A value guard (``compiler.guards.value_guard``): the kernel stops, raising
        ``rt.GuardFailed``, when the value is not the one it was specialized on."""
        value, kind, expected, index, *restores = stmt.args
        value = self.atom(value)
        failed = "".join(f"    {self.atom(p)}[...] = {self.atom(c)}\n" for p, c in zip(restores[::2], restores[1::2]))
        failed += f"    raise rt.GuardFailed({index.value}, {value})"
        if kind.value == "truth":
            return [f"if {'not ' if expected.value else ''}{value}:{where}", failed]
        if kind.value == "item" and expected.value == expected.value:   # NaN is compared as an array
            return [f"if {value}.item() != {self.literal(expected.value)}:{where}", failed]
        if kind.value == "value":
            return [f"if not rt.same_value({value}, {self.literal(expected.value)}):{where}", failed]
        if kind.value == "type":
            return [f"if type({value}).__name__ != {expected.value!r}:{where}", failed]
        if kind.value == "aval":
            shape, dtype = expected.value
            return [f"if {value}.shape != {self.literal(shape)} or {value}.dtype != {self.literal(np.dtype(dtype))}:"
                    f"{where}", failed]
        return [f"if not rt.same_array({value}, {self.literal(np.asarray(expected.value))}):{where}", failed]

    def host_text(self, stmt: ir.Effect) -> str:
        """The Python expression of a ``host`` effect (``ir.HostOp``)."""
        op = stmt.args[0].value
        values = [self.atom(a) for a in stmt.args[1:]]
        positional = values[:len(values) - len(op.keywords)]
        arguments = ", ".join(positional[1 if op.kind == "method" else 0:]
                              + [f"{k}={v}" for k, v in zip(op.keywords, values[len(positional):])])
        if op.kind == "operator":
            return _OPERATOR_TEXT[op.target].format(*positional)
        if op.kind == "attr":
            return f"{positional[0]}.{op.target}"
        if op.kind == "registered":
            return f"rt.host_call({op.target!r}, {arguments})[0]"
        if op.kind == "pack":
            return f"[{', '.join(positional)}]" if op.target is list else f"({', '.join(positional)},)"
        if op.kind == "method":
            return f"{positional[0]}.{op.target}({arguments})"
        name = op.target.__name__
        if getattr(op.target, "__npspore_runtime__", False):
            return f"rt.{name}({arguments})"
        return f"{name}({arguments})" if getattr(builtins, name, None) is op.target else f"np.{name}({arguments})"

    def apply_lines(self, stmt: ir.Apply) -> list[str]:
        """The lines of one op application: its template's forward body, substituted."""
        definition = self.table[stmt.op]
        operand_text = [self.atom(a) for a in stmt.args]
        if stmt.operand_cast is not None:
            target = stmt.operand_cast
            for i, a in enumerate(stmt.args):
                if isinstance(a, ir.Var) and a.aval.dtype != target:
                    # 0-d values may be Python ints at run time (a loop index): no .astype there
                    operand_text[i] = (f"np.{_numpy_name(target)}({operand_text[i]})" if a.aval.shape == ()
                                       else f"{operand_text[i]}.astype(np.{_numpy_name(target)})")
                elif (isinstance(a, ir.Const) and isinstance(a.value, (np.ndarray, np.generic))
                      and a.value.dtype != target):
                    operand_text[i] = self.literal(np.asarray(a.value).astype(target))
        inferred = stmt.targets[0].aval.dtype
        if len(stmt.targets) == 1 and inferred.kind in "iu":
            for i, a in enumerate(stmt.args):
                if isinstance(a, ir.Const) and type(a.value) is int:
                    operand_text[i] = self.literal(fit_int(a.value, inferred))
        operands = [_expression(text) for text in operand_text]
        static = {name: _expression(self.literal(stmt.static.get(name, default)))
                  for name, default in definition.static.items()}
        targets = ", ".join(t.name for t in stmt.targets)
        if len(stmt.targets) == 1 and ir.returns_tuple(stmt):
            targets += ","
        matrices = {text for text, a in zip(operand_text, stmt.args) if isinstance(a, ir.Var) and len(a.aval.shape) == 2}
        shapes = {text: a.aval.shape for text, a in zip(operand_text, stmt.args)
                  if isinstance(a, ir.Var) and text.isidentifier() and None not in a.aval.shape}
        lines = self._op_lines(definition, operands, static, targets, f"{stmt.targets[0].name}__", matrices, shapes)
        cast = stmt.result_cast
        if cast is not None:
            head, expression = lines[-1].split(" = ", 1)
            if stmt.targets[0].aval.shape == ():
                wrapped = f"np.{_numpy_name(cast)}({expression})"
            else:
                operand = expression if isinstance(_expression(expression), _POSTFIX) else f"({expression})"
                wrapped = f"{operand}.astype(np.{_numpy_name(cast)})"
            lines[-1] = f"{head} = {wrapped}"
        if stmt.workspace and cast is None and len(lines) == 1:
            line = _into_buffer_line(lines[0].split(" = ", 1)[1], stmt.targets[0].name)
            if line is not None:
                self.buffers.append(stmt)
                return [line]
        if stmt.op in ("concat_slot", "row_slot"):
            self.slots.add(id(stmt.targets[0]))
            self.slot_names.add(stmt.targets[0].name)
        if stmt.into is not None and id(stmt.into) in self.slots and stmt.op != "copy_into":
            # a part computed in its slot of a concatenation (compiler/concatparts.py), or a loop step's value in its
            # row (compiler/steprows.py): with ``out=`` only, or as a value of its own that ``copy_into`` then copies there
            line = None
            if cast is None and stmt.operand_cast is None and len(lines) == 1:
                line = _into_buffer_line(lines[0].split(" = ", 1)[1], self.atom(stmt.into))
            if line is None:
                return _coalesce_result(lines, f"{stmt.targets[0].name}__")
            self.aliases[id(stmt.targets[0])] = self.atom(stmt.into)
            return [line]
        if stmt.into is not None:
            # the result lives on under the buffer's name, so the array that name held is let go
            buffer = self.atom(stmt.into)
            self.aliases[id(stmt.targets[0])] = buffer
            expression = lines[-1].split(" = ", 1)[1]
            position = next((i for i, a in enumerate(stmt.args) if a is stmt.into), None)
            if cast is None and len(lines) == 1 and (position is None or operand_text[position] == buffer):
                lines = [_in_place_line(expression, buffer, position)]
            else:
                lines = lines[:-1] + [f"{buffer} = {expression}"]
            if self.rows_of_arguments and lines[-1].startswith(f"{buffer} = "):
                # a row function must write its block of the caller's array (compiler/splitregions.py)
                raise RuntimeError(f"npspore internal error: {buffer} rebound in a function of row blocks")
            if buffer in self.slot_names and lines[-1].startswith(f"{buffer} = ") and not _self_copy(lines[-1]):
                # a value computed in its row of a stacked buffer (compiler/steprows.py) must stay there
                raise RuntimeError(f"npspore internal error: the row {buffer} rebound to a new array")
            return lines
        return lines if cast is not None else _coalesce_result(lines, f"{stmt.targets[0].name}__")

    def _op_lines(self, definition, operands: list, static: dict, result: str, prefix: str,
                  matrices: frozenset | set = frozenset(), shapes: dict | None = None) -> list[str]:
        """Inline ``definition.forward`` with operand/static expressions, assigning ``result``.

        ``matrices``: the operands known to be of rank 2, whose ``np.swapaxes(m, -1, -2)`` is ``m.T``.
        ``shapes``: the static shapes of operands (by name): ``x.shape`` is written as the literal it
        is, so the template's shape arithmetic folds (``oh = 28``, not ``oh = (h - 1 - 1) // 2 + 1``).

        Locals of the template get ``prefix`` (the result's name and ``__``: a namespace no user
        name reaches, see ``builder.identifier``); ``call("op", ...)`` inside it is expanded the
        same way, into statements placed before the one that uses it. Static values are folded
        (``inlinefold``): a local bound once to a literal is substituted, not assigned.
        """
        body, local_names = _template_body(definition.forward)
        mapping = dict(zip(definition.operands, operands))
        if definition.variadic is not None:  # forward(*xs): the remaining operands, as a tuple
            rest = operands[len(definition.operands):]
            mapping[definition.variadic] = ast.Tuple(elts=list(rest), ctx=ast.Load())
        mapping.update(static)
        substitute = _Substitute(mapping, prefix, local_names)
        stores = [n.id for part in body for n in ast.walk(part)
                  if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
        assigned_once = {prefix + name for name in local_names if stores.count(name) == 1}
        reassigned = {prefix + name for name in local_names if stores.count(name) > 1}
        identities = IntegerIdentities()
        lines: list[str] = []
        expander = _CallExpander(self, prefix, lines, shapes or {})   # one count: each expanded op has its own name
        for node in body:
            node = substitute.visit(copy_tree(node))
            if shapes:
                node = StaticSplits(shapes).visit(StaticShapes(shapes).visit(node))
            node = FoldStaticExpressions().visit(identities.visit(FoldStaticExpressions().visit(node)))
            node = LiteralDivisors().visit(SliceSyntax().visit(node))
            literals = literal_binding(node, assigned_once, reassigned)
            if literals:  # a local bound once to a literal: written into the statements after it
                mapping.update({name[len(prefix):]: ast.fix_missing_locations(value)
                                for name, value in literals.items()})
                continue
            node = _PlainKeywords().visit(node)
            if matrices and _calls_swapaxes(definition.forward):
                node = _MatrixTranspose(matrices).visit(node)
            node = expander.visit(node)
            copied = literal_binding(node, assigned_once, reassigned)
            if copied:  # a local naming an expanded op's result (``windows = call(...)``): that result's name
                mapping.update({name[len(prefix):]: value for name, value in copied.items()})
                continue
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and len(node.value.elts) > 1:
                lines.append(f"{result} = {', '.join(unparse(part) for part in node.value.elts)}")   # no parentheses
            elif isinstance(node, ast.Return) and node.value is not None:
                lines.append(f"{result} = {unparse(node.value)}")
            else:
                lines.extend(unparse(node).splitlines())
        return lines

    def block_lines(self, block: ir.Block, indent: str) -> list[str]:
        out = []
        for stmt in block.stmts:
            out.extend(self.stmt_lines(stmt, indent))
        return _without_early_deletes(out)

    def stmt_lines(self, stmt, indent: str) -> list[str]:
        where = f"  # {comment_text(file_label(stmt.loc.file))}:{stmt.loc.line}"
        if isinstance(stmt, ir.Apply):
            lines = self.apply_lines(stmt)
            if stmt.targets[0] in self.inlined and len(lines) == 1:   # naming: read inside its reader
                self.expressions[id(stmt.targets[0])] = f"({lines[0].split(' = ', 1)[1]})"
                return []
            return [f"{indent}{line}{where}" for line in lines if not _self_copy(line)]
        if isinstance(stmt, ir.Call) and stmt.split_rows:   # a run of elementwise statements, on row blocks
            self.buffers += stmt.buffers
            sliced, whole = (f"({', '.join(texts)}{',' if len(texts) == 1 else ''})"
                             for texts in ([self.atom(a) for a in stmt.args[:stmt.split_rows]],
                                           [self.atom(a) for a in stmt.args[stmt.split_rows:]]))
            return [f"{indent}rt.split_rows({stmt.callee}, {sliced}, {whole}){where}"]
        if isinstance(stmt, ir.Call):
            handed = ["workspace__"] if stmt.callee in self.threaded else []
            args = ", ".join([self.atom(a) for a in stmt.args] + handed)
            call = f"{stmt.callee}({args})"
            if not stmt.targets:
                return [f"{indent}{call}{where}"]
            targets = ", ".join(t.name for t in stmt.targets)
            return [f"{indent}{targets} = {call}{where}"]
        if isinstance(stmt, ir.Effect) and stmt.kind == "guard":
            return [f"{indent}{line}" for lines in self.guard_lines(stmt, where) for line in lines.split("\n")]
        if isinstance(stmt, ir.Effect) and stmt.kind == "host":
            return [f"{indent}{stmt.targets[0].name} = {self.host_text(stmt)}{where}"]
        if isinstance(stmt, ir.Effect):
            args = ", ".join(self.atom(a) for a in stmt.args)
            if stmt.kind == "print":
                return [f"{indent}rt.show({args}){where}"]
            if stmt.kind == "print_tree":
                return [f"{indent}rt.show_tree({args}){where}"]
            if stmt.kind == "print_each":
                return [f"{indent}rt.show_each({args}){where}"]
            if stmt.kind == "assign":
                target, value = (self.atom(a) for a in stmt.args)
                # a value computed in the Parameter's own array (optimize's assign_in_place) is there already
                return [] if target == value else [f"{indent}np.copyto({args}){where}"]
            if stmt.kind == "release":
                names = [self.atom(a) for a in stmt.args if id(a) not in self.expressions]
                return [f"{indent}del {', '.join(names)}"] if names else []
            if stmt.kind == "state":   # a Cell attribute set after the call (core/statewrites.py)
                return [f"{indent}rt.keep_state({args}){where}"]
            if stmt.kind == "wait":   # a product started earlier (compiler/deferproducts.py)
                return [f"{indent}rt.matmul_wait({args}){where}"]
            if stmt.kind == "host_call" and not stmt.targets:   # called for its side effect (a summary op)
                return [f"{indent}rt.host_call({args}){where}"]
            if stmt.kind == "host_call":
                targets = ", ".join(t.name for t in stmt.targets) + ("," if len(stmt.targets) == 1 else "")
                return [f"{indent}{targets} = rt.host_call({args}){where}"]
            raise TypeError(f"unknown effect {stmt.kind!r}")
        if isinstance(stmt, ir.TapeNew):
            return [f"{indent}{stmt.target.name} = []{where}"]
        if isinstance(stmt, ir.TapePush):
            values = ", ".join(self.atom(a) for a in stmt.values)
            return [f"{indent}{stmt.tape.name}.append(({values},)){where}" if len(stmt.values) == 1
                    else f"{indent}{stmt.tape.name}.append(({values})){where}"]
        if isinstance(stmt, ir.TapePop):
            targets = ", ".join(t.name for t in stmt.targets)
            target_text = f"{targets}," if len(stmt.targets) == 1 else targets
            return [f"{indent}{target_text} = {stmt.tape.name}.pop(){where}"]
        if isinstance(stmt, ir.If):
            lines = [f"{indent}if {self.atom(stmt.cond)}:{where}"]
            lines += self.branch_lines(stmt.then_block, stmt.outputs, indent + "    ")
            lines.append(f"{indent}else:")
            lines += self.branch_lines(stmt.else_block, stmt.outputs, indent + "    ")
            return lines
        if isinstance(stmt, ir.ForRange):
            lines = self.copies(stmt.body_params, stmt.carried, indent, stmt.outputs)
            bounds = self.range_text(stmt.start, stmt.stop, stmt.step)
            lines.append(f"{indent}for {stmt.index.name} in range({bounds}):{where}")
            body = self.block_lines(stmt.body, indent + "    ")
            body += self.copies(stmt.body_params, stmt.body.results, indent + "    ", stmt.outputs)
            lines += body or [f"{indent}    pass"]
            self.keep_loop_names(stmt)
            return lines
        if isinstance(stmt, ir.While):
            lines = self.copies(stmt.body_params, stmt.carried, indent, stmt.outputs)
            lines.append(f"{indent}while True:{where}")
            inner = indent + "    "
            lines += self.block_lines(stmt.cond, inner)
            lines.append(f"{inner}if not {self.atom(stmt.cond.results[0])}:")
            lines.append(f"{inner}    break")
            lines += self.block_lines(stmt.body, inner)
            lines += self.copies(stmt.body_params, stmt.body.results, inner, stmt.outputs)
            self.keep_loop_names(stmt)
            return lines
        raise TypeError(f"cannot render statement {type(stmt).__name__}")

    def keep_loop_names(self, loop) -> None:
        """After a loop its values are read under the loop variables' names (``h``, not a copy
        ``h_2 = h``): the loop variables themselves are never read again (SSA)."""
        for output, param in zip(loop.outputs, loop.body_params):
            self.aliases[id(output)] = self.atom(param)

    def range_text(self, start, stop, step) -> str:
        """``3`` for range(0, 3, 1), ``1, 3`` for range(1, 3, 1): the arguments a person would write."""
        constant = lambda atom, value: isinstance(atom, ir.Const) and atom.value == value  # noqa: E731
        if constant(step, 1):
            if constant(start, 0):
                return self.atom(stop)
            return f"{self.atom(start)}, {self.atom(stop)}"
        return ", ".join(self.atom(a) for a in (start, stop, step))

    def branch_lines(self, block: ir.Block, outputs, indent: str) -> list[str]:
        lines = self.block_lines(block, indent) + self.copies(outputs, block.results, indent)
        return lines or [f"{indent}pass"]

    def copies(self, targets, sources, indent: str, loop_outputs=None) -> list[str]:
        """``target = source`` lines binding control-flow outputs; none for outputs never read.

        A loop's outputs are read under its parameters' names (``keep_loop_names``), so a copy into
        a loop parameter is kept when either the parameter or its output (``loop_outputs``) is read."""
        outputs = loop_outputs if loop_outputs is not None else [None] * len(targets)
        pairs = []
        for target, source, output in zip(targets, sources, outputs):
            if self.used is not None and id(target) not in self.used and id(output) not in self.used:
                continue
            text = self.atom(source)
            if text != target.name:
                pairs.append((target.name, text))
        names = {name for name, _ in pairs}
        if len(pairs) > 1 and any(text in names for _, text in pairs):
            # a parallel copy (a loop's back edge swapping carried values): one tuple assignment
            left = ", ".join(name for name, _ in pairs)
            right = ", ".join(text for _, text in pairs)
            return [f"{indent}{left} = {right}"]
        return [f"{indent}{name} = {text}" for name, text in pairs]

    # ---- functions and module

    def function_text(self, function: ir.Function) -> str:
        self.inlined = function.inlined
        self.rows_of_arguments = function.name in self.row_functions
        self.used = {id(v) for stmt in function.body.stmts for v in ir.used_vars_deep(stmt)}
        self.used |= {id(a) for a in function.body.results if isinstance(a, ir.Var)}
        handed = ["workspace__"] if function.name in self.threaded else []
        params = ", ".join([p.name for p in function.params] + handed)
        lines = [f"def {function.name}({params}):"]
        if function.source:
            doc = f"{function.source}"
            if function.loc is not None:
                doc += f" ({file_label(function.loc.file)}:{function.loc.line})"
            doc = comment_text(doc)
            lines.append(f'    """{doc}"""' if '"' not in doc and "\\" not in doc else f"    {doc!r}")
        self.buffers = []
        self.slot_names = set()
        body = _without_early_deletes([line for stmt in function.body.stmts for line in self.stmt_lines(stmt, "    ")])
        # One set of buffers per kernel call: the entry takes it when the call starts and gives it back before
        # it returns (core.workspace); each function reads its own slice. Calls run one after another and a
        # buffer outlives its function's call only when a kernel call runs the function once
        # (compiler/workspace.py), so a function called again (shared by identical sub-cells) reuses its slice.
        entry = function.name == self.module.entry
        if self.buffers:
            start = len(self.layout)
            self.layout += [self.buffer_entry(stmt) for stmt in self.buffers]
            names = ", ".join(stmt.targets[0].name for stmt in self.buffers)
            whole = entry and start == 0                 # rendered last: the entry's are all the buffers
            lines.append(f"    {names}, = workspace__" + ("" if whole else f"[{start}:{len(self.layout)}]"))
        taken = entry and bool(self.layout or self.threaded)
        if taken:
            lines.insert(len(lines) - bool(self.buffers), "    workspace__ = _workspace.take()")
        lines += body
        if taken:
            lines.append("    _workspace.give(workspace__)")
        results = function.body.results
        if not results and function.name in self.row_functions:   # it writes its results into its arguments
            return "\n".join(wrap_lines(lines))
        texts = [self.atom(r) for r in results]
        if function.name == self.module.entry:  # the caller may write into what it gets: never a constant
            holders = constant_holders(self.module, function)
            texts = [f"{text}.copy()" if isinstance(r, ir.Const) and isinstance(r.value, np.ndarray) and r.value.ndim
                     or isinstance(r, ir.Var) and id(r) in holders else text for r, text in zip(results, texts)]
        if len(results) == 1:
            lines.append(f"    return {texts[0]}")
        else:
            inner = ", ".join(texts)
            lines.append(f"    return ({inner},)" if len(results) == 1 else f"    return ({inner})")
        return "\n".join(wrap_lines(_without_early_deletes(lines[:-1], lines[-1]) + lines[-1:]))

    def buffer_entry(self, stmt: ir.Apply) -> str:
        """The workspace layout entry of ``stmt``'s buffer: ``(shape, dtype)``, or ``(shape, dtype, order)``."""
        aval = stmt.targets[0].aval
        order = "" if stmt.workspace_order is None else f", {stmt.workspace_order}"
        return f"({self.literal(aval.shape)}, np.{_numpy_name(aval.dtype)}{order})"

    def render(self) -> str:
        order = [name for name in self.module.functions if name != self.module.entry] + [self.module.entry]
        bodies = [self.function_text(self.module.functions[name]) for name in order]
        header = "\n".join(f"# {comment_text(key)}: {comment_text(value)}" for key, value in self.module.header.items())
        layout = "".join(f"{entry}, " for entry in self.layout)
        declaration = [f"_workspace = rt.Workspace(({layout}))"] if self.layout or self.threaded else []
        constants = "\n".join(self.constants.lines + declaration)
        return _skeleton().substitute(
            header=header,
            constants=(constants + "\n\n\n") if constants else "",
            functions="\n\n\n".join(bodies),
            entry=self.module.entry,
        )


_REDUCTIONS = frozenset({"sum", "mean", "prod", "max", "min", "amax", "amin", "all", "any", "std", "var"})
_AXIS_NONE_IS_DEFAULT = _REDUCTIONS | {"squeeze", "transpose"}


class _PlainKeywords(ast.NodeTransformer):
    """Drop keywords that restate NumPy's default (``dtype=None``, ``keepdims=False``, and
    ``axis=None`` for reductions) or a runtime helper's (``rt.im2col(x, filter_shape=(6, 1, 5, 5))``
    without ``stride=(1, 1)``), which are noise when written out, and write a reduction's one-axis
    tuple as the int (``axis=0``, which NumPy also takes faster than ``axis=(0,)``)."""

    def visit_Call(self, node: ast.Call):
        self.generic_visit(node)
        callee = node.func.attr if isinstance(node.func, ast.Attribute) else ""
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
                and node.func.value.id == "rt" and callee in _HELPER_DEFAULTS:
            defaults = _HELPER_DEFAULTS[callee]
            node.keywords = [k for k in node.keywords if not _restates(k, defaults)]
            return node
        node.keywords = [k for k in node.keywords if not self._is_default(k, callee)]
        for keyword in node.keywords:
            value = keyword.value
            if (keyword.arg == "axis" and callee in _REDUCTIONS and isinstance(value, ast.Tuple)
                    and len(value.elts) == 1 and isinstance(value.elts[0], ast.Constant)):
                keyword.value = value.elts[0]
        return node

    @staticmethod
    def _is_default(keyword: ast.keyword, callee: str) -> bool:
        if not isinstance(keyword.value, ast.Constant):
            return False
        value = keyword.value.value
        if keyword.arg in ("dtype", "out"):
            return value is None
        if keyword.arg == "keepdims":
            return value is False
        return keyword.arg in ("axis", "axes") and value is None and callee in _AXIS_NONE_IS_DEFAULT


# the keyword defaults of the runtime's named lowerings, which a call need not restate
_HELPER_DEFAULTS = {name: dict(zip(reversed(function.__code__.co_varnames[:function.__code__.co_argcount]),
                                   reversed(function.__defaults__ or ())))
                    for name, function in [(name, getattr(module, name)) for module in (kernels_np, division)
                                           for name in module.__all__]
                    + [(name, getattr(matmul_split, name)) for name in ("matmul_split", "matmul_start")]}


def _restates(keyword: ast.keyword, defaults: dict) -> bool:
    """Whether ``keyword`` passes a literal equal to the default of its parameter."""
    if keyword.arg not in defaults:
        return False
    try:
        return ast.literal_eval(keyword.value) == defaults[keyword.arg]
    except ValueError:  # not a literal: a run-time value
        return False


@functools.lru_cache(maxsize=None)
def _template_body(forward) -> tuple:
    """``(statements, names they assign)`` of a template's ``forward`` without its docstring
    (the templates never change while running, so this is computed once per op)."""
    body = function_ast(forward).body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # docstring
    return body, frozenset(n.id for part in body for n in ast.walk(part)
                           if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))


@functools.lru_cache(maxsize=None)
def _calls_swapaxes(forward) -> bool:
    """Whether a template's ``forward`` calls ``np.swapaxes`` (computed once per op)."""
    return any(isinstance(n, ast.Attribute) and n.attr == "swapaxes"
               for part in _template_body(forward)[0] for n in ast.walk(part))


class _MatrixTranspose(ast.NodeTransformer):
    """``np.swapaxes(m, -1, -2)`` of a rank-2 operand ``m`` written ``m.T``: the same view, as a
    careful person writes it, without swapaxes' argument handling (0.7 us a call)."""

    def __init__(self, matrices):
        self.matrices = matrices

    def visit_Call(self, node: ast.Call):
        self.generic_visit(node)
        func, args = node.func, node.args
        if not (isinstance(func, ast.Attribute) and func.attr == "swapaxes" and isinstance(func.value, ast.Name)
                and func.value.id == "np" and len(args) == 3 and not node.keywords
                and isinstance(args[0], ast.Name) and args[0].id in self.matrices):
            return node
        try:
            axes = {ast.literal_eval(a) % 2 for a in args[1:]}
        except (ValueError, TypeError):
            return node
        return ast.Attribute(value=args[0], attr="T", ctx=ast.Load()) if axes == {0, 1} else node


class _Substitute(ast.NodeTransformer):
    """Replace a template's parameter names by operand expressions; prefix the names it assigns."""

    def __init__(self, mapping: dict, local_prefix: str, local_names: frozenset):
        self.mapping = mapping
        self.local_prefix = local_prefix
        self.local_names = local_names

    def visit_Name(self, node: ast.Name):
        if node.id in self.mapping:
            return copy_tree(self.mapping[node.id])
        if node.id in self.local_names:
            return ast.copy_location(ast.Name(id=self.local_prefix + node.id, ctx=node.ctx), node)
        return node


class _CallExpander(ast.NodeTransformer):
    """Expand ``call("op", *operands, **static)`` into that op's inlined statements."""

    def __init__(self, renderer: "Renderer", prefix: str, lines: list, shapes: dict):
        self.renderer, self.prefix, self.lines, self.shapes = renderer, prefix, lines, shapes
        self.count = 0

    def visit_Call(self, node: ast.Call):
        self.generic_visit(node)
        if not (isinstance(node.func, ast.Name) and node.func.id == "call" and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            return node
        definition = self.renderer.table[node.args[0].value]
        name = f"{self.prefix}{definition.name}" + (f"_{self.count}" if self.count else "")
        self.count += 1
        operands = []
        for index, operand in enumerate(node.args[1:]):
            if isinstance(operand, (ast.Name, ast.Constant)):
                operands.append(operand)
            else:  # bind a computed operand once: the inlined body may read it several times
                local = f"{name}_{definition.operands[index]}"
                self.lines.append(f"{local} = {ast.unparse(operand)}")
                operands.append(ast.Name(id=local, ctx=ast.Load()))
        static = {k.arg: k.value for k in node.keywords}
        for key, default in definition.static.items():
            if key not in static:  # a required attribute (no default) is always given
                static[key] = _expression(self.renderer.literal(default))
        lines = self.renderer._op_lines(definition, operands, static, name, f"{name}__", shapes=self.shapes)
        self.lines.extend(_coalesce_result(lines, f"{name}__"))
        return ast.Name(id=name, ctx=ast.Load())


def _self_copy(line: str) -> bool:
    """Whether a line is ``x = x`` (a template returning its operand, written under the operand's name) or
    ``np.copyto(x, x)`` (a value copied into the array it was computed in)."""
    head, _, value = line.partition(" = ")
    if head == value and head.isidentifier():
        return True
    copy = re.fullmatch(r"np\.copyto\((\w+), (\w+)\)", line)
    return copy is not None and copy.group(1) == copy.group(2)


def _coalesce_result(lines: list, prefix: str) -> list:
    """An inlined template's lines without its last copy ``result = local`` (a template returning a local
    it built): the local, one of the template's own (``prefix``), is written under the result's name."""
    head, _, value = lines[-1].partition(" = ")
    if len(lines) < 2 or not value.startswith(prefix) or not value.isidentifier() or not head.isidentifier():
        return lines
    local = re.compile(rf"\b{re.escape(value)}\b")
    return [local.sub(head, line) for line in lines[:-1]]


_UFUNC_OF_OPERATOR = {ast.Add: "add", ast.Sub: "subtract", ast.Mult: "multiply", ast.Div: "true_divide",
                      ast.Pow: "power", ast.FloorDiv: "floor_divide", ast.Mod: "remainder"}
_UFUNC_OF_COMPARISON = {ast.Gt: "greater", ast.GtE: "greater_equal", ast.Lt: "less", ast.LtE: "less_equal",
                        ast.Eq: "equal", ast.NotEq: "not_equal"}


def _in_place_line(expression: str, buffer: str, position: int | None) -> str:
    """``expression`` computed into ``buffer`` (operand ``position``, or None for a dead buffer no
    operand reads): ``buffer += y`` for ``buffer + y`` (and ``y + buffer``: ``+``/``*`` commute),
    else the ufunc with ``out=buffer``; an expression of another form is simply rebound to
    ``buffer``'s name."""
    node = _expression(expression)
    if isinstance(node, ast.BinOp) and type(node.op) in _UFUNC_OF_OPERATOR:
        symbol = ast.unparse(ast.BinOp(ast.Name("a"), node.op, ast.Name("b"))).split()[1]
        left, right = ast.unparse(node.left), ast.unparse(node.right)
        if position == 0 and left == buffer:
            return f"{buffer} {symbol}= {right}"
        if position == 1 and right == buffer and isinstance(node.op, (ast.Add, ast.Mult)):
            return f"{buffer} {symbol}= {left}"
        return f"np.{_UFUNC_OF_OPERATOR[type(node.op)]}({left}, {right}, out={buffer})"
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _UFUNC_OF_COMPARISON:
        left, right = ast.unparse(node.left), ast.unparse(node.comparators[0])
        return f"np.{_UFUNC_OF_COMPARISON[type(node.ops[0])]}({left}, {right}, out={buffer})"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return f"np.negative({ast.unparse(node.operand)}, out={buffer})"
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
            and not node.keywords and _takes_out(node.func.value.id, node.func.attr)):
        node.keywords.append(ast.keyword(arg="out", value=ast.Name(buffer)))
        return ast.unparse(node)
    return f"{buffer} = {expression}"


def _takes_out(module: str, name: str) -> bool:
    """Whether ``module.name`` (``np.exp``, ``rt.floor_divide``) is a ufunc, or a runtime division that takes ``out=``
    as one does."""
    if module == "rt":
        return name in division.__all__
    return module == "np" and isinstance(getattr(np, name, None), np.ufunc)


def _into_buffer_line(expression: str, buffer: str) -> str | None:
    """``expression`` computed into the workspace buffer ``buffer`` (``np.matmul(a, b, out=buffer)``,
    ``np.exp(x, out=buffer)``), or None when it is no ufunc or matrix product NumPy can write there."""
    node = _expression(expression)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        return f"np.matmul({ast.unparse(node.left)}, {ast.unparse(node.right)}, out={buffer})"
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "rt" and "out" in _HELPER_DEFAULTS.get(node.func.attr, ())):
        node.keywords.append(ast.keyword(arg="out", value=ast.Name(buffer)))   # rt.im2col(x, ..., out=buffer)
        return ast.unparse(node)
    line = _in_place_line(expression, buffer, None)
    return None if line.startswith(f"{buffer} = ") else line


_POSTFIX = (ast.Call, ast.Name, ast.Attribute, ast.Subscript)   # take ``.astype(...)`` without parentheses


def _expression(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


def _merge_identical_functions(module: ir.Module) -> ir.Module:
    """Keep one of several functions whose code and constants are the same (say, two Dense layers
    of different widths: shapes never appear in their code), redirecting calls to it. Returns a new
    module."""
    module = copy.copy(module)
    module.functions = dict(module.functions)
    rendered: dict[str, str] = {}   # name -> its text, until a call in it is redirected
    while True:
        texts: dict[str, str] = {}
        redirect: dict[str, str] = {}
        # equal texts have equal signatures and docstrings: a function no other shares them with is not rendered
        outlines = Counter(_outline(f) for name, f in module.functions.items() if name != module.entry)
        for name, function in module.functions.items():
            if name == module.entry or outlines[_outline(function)] == 1:
                continue
            if name not in rendered:
                rendered[name] = _comparable_text(module, function)
            if rendered[name] in texts:
                redirect[name] = texts[rendered[name]]
            else:
                texts[rendered[name]] = name
        if not redirect:
            return module
        for name in redirect:
            del module.functions[name]
        for name, function in module.functions.items():
            if not any(isinstance(stmt, ir.Call) and stmt.callee in redirect for stmt in ir.walk_stmts(function.body)):
                continue
            function = copy.deepcopy(function)
            for stmt in ir.walk_stmts(function.body):
                if isinstance(stmt, ir.Call) and stmt.callee in redirect:
                    stmt.callee = redirect[stmt.callee]
            module.functions[name] = function
            rendered.pop(name, None)


def _outline(function: ir.Function) -> tuple:
    """What the first lines of ``function``'s text show: its parameters' names and its source's name and line."""
    loc = function.loc and (file_label(function.loc.file), function.loc.line)
    return (tuple(p.name for p in function.params), function.source, loc)


def _comparable_text(module: ir.Module, function: ir.Function) -> str:
    """``function``'s code, constants and workspace layout, under one name: equal for two functions that may be
    merged."""
    renderer = Renderer(module)
    text = renderer.function_text(function).replace(f"def {function.name}(", "def _(", 1)
    text += "\n" + "\n".join(renderer.constants.lines)  # ``_c0`` names other arrays in each
    text += "\n" + "\n".join(renderer.layout)   # its workspace buffers' shapes, absent from its code
    if function.results_in_workspace:   # each call site its own buffers: never merged
        text += "\n" + function.name
    return text


def _reserve_function_names(module: ir.Module) -> ir.Module:
    """Rename functions whose name is also a variable of some function (a user local named
    ``Sub_construct`` would shadow the callee). Returns the module, or a renamed copy."""
    taken: set[str] = set()
    for function in module.functions.values():
        taken.update(p.name for p in function.params)
        for stmt in ir.walk_stmts(function.body):
            taken.update(v.name for v in ir.defined_vars(stmt))
            taken.update(v.name for v in getattr(stmt, "body_params", ()))
            if isinstance(stmt, ir.ForRange):
                taken.add(stmt.index.name)
    clashes = [name for name in module.functions if name in taken]
    if not clashes:
        return module
    taken |= set(module.functions)
    rename = {}
    for name in clashes:
        count = 1
        while f"{name}_fn{count}" in taken:
            count += 1
        rename[name] = f"{name}_fn{count}"
        taken.add(rename[name])
    module = copy.copy(module)
    functions = {}
    for name, function in module.functions.items():
        function = copy.deepcopy(function)
        function.name = rename.get(name, name)
        for stmt in ir.walk_stmts(function.body):
            if isinstance(stmt, ir.Call) and stmt.callee in rename:
                stmt.callee = rename[stmt.callee]
        functions[function.name] = function
    module.functions = functions
    module.entry = rename.get(module.entry, module.entry)
    return module


def comment_text(text) -> str:
    """``text`` as one line of printable ASCII (newlines, quotes' escapes, ``\\N`` and non-ASCII
    escaped): what may be written into a comment or docstring of generated code."""
    return str(text).encode("unicode_escape").decode("ascii")


def _without_early_deletes(lines: list[str], then: str = "") -> list[str]:
    """``lines`` of one block with each ``del`` keeping only the names no later line (nor ``then``, the function's
    return) reads: once values are named, two of them can share a name (a loop's buffer and its result), and a
    release point of one must not delete the array the other name still holds."""
    out = []
    for index, line in enumerate(lines):
        stripped = line.lstrip()
        if stripped.startswith("del "):
            later = "\n".join(lines[index + 1:] + [then])
            names = [n for n in stripped[4:].split(", ") if not re.search(rf"\b{re.escape(n)}\b", later)]
            if not names:
                continue
            line = f"{line[:len(line) - len(stripped)]}del {', '.join(names)}"
        out.append(line)
    return out


def render_module(module: ir.Module) -> str:
    """The Python source of ``module`` (deterministic: same module, same text)."""
    return Renderer(_merge_identical_functions(_reserve_function_names(module))).render()
