"""Runs of elementwise statements split into blocks of rows across threads (optimize, a NumPy step).

A region is a run of consecutive statements of a function's body that are all elementwise ops (ufuncs and
the like: ``add``, ``mul``, ``sqrt``, ``where``..., in place or into a workspace buffer as ``inplace.py``
and ``workspace.py`` planned them) whose results have one static shape, with the ``assign`` of such a
result to a Parameter and the release points among them; an operand has that shape (the region slices it
by rows) or broadcasts against one block of rows (a bias, ``(1, n)``, a scalar: passed whole). When the
region's work is worth a second core (``core.split_rows.worth_splitting``: its arrays' elements times its
statements), it becomes a function of the module (``Adam_update_net_fc1_weight``, its statements
unchanged), called as ``rt.split_rows(Adam_update_net_fc1_weight, (sliced...), (whole...))``: the
calling thread and the pool's helpers run it on blocks of rows, each statement writing its block of the
full arrays. ``npspore show --dump-after optimize`` shows the call and the function.

What a region may not hold, so that its blocks compute what its statements compute:

* a statement whose result it writes into an array (in place or into a workspace buffer) is a single
  ufunc without casts, which writes the block's view (never rebinding its name to a new array);
* a value it makes that a later statement reads lives in an array it slices (a result written in place,
  into a workspace buffer, or into a new array made before the region: ``y = np.zeros(...)``), never in
  an array a block made;
* a scalar computed among its statements from scalars (``1 - beta1``) is computed before it; no
  reduction, view, index, call or control flow is in it;
* two operands that are views of one array (``y`` and ``y.T``) make no region; arrays that may share
  memory otherwise (a view the caller passed, one buffer under two names) are caught when it runs:
  ``core.split_rows`` then calls the function once on the whole arrays.

It runs after the in-place, workspace and cast plans (whose decisions it keeps) and changes no value.
Export and the transforms (``vmap``, ``jvp``) read the IR before it.
"""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from ..core.split_rows import worth_splitting
from ..opdef import Aval, op_table
from . import ir
from .inplace import _VIEWS, _is_ufunc_op

_NOT_ELEMENTWISE = {"stop_gradient", "cast"}   # of the elementwise family, they may return their operand


def split_elementwise_regions(module: ir.Module) -> None:
    """Outline each region of each function of ``module`` worth splitting (module docstring), in place."""
    for function in list(module.functions.values()):
        body = function.body
        stmts: list = []
        start = 0
        while start < len(body.stmts):
            shape = _full_shape(body.stmts[start])
            stop = start if shape is None else _region_end(body.stmts, start, shape)
            outlined = None
            if shape is not None and stop > start:
                outlined = _Region(module, function, shape, body.stmts[start:stop]).outline(body, stop)
            stmts += outlined if outlined is not None else body.stmts[start:max(stop, start + 1)]
            start = max(stop, start + 1)
        body.stmts = stmts


def _is_elementwise(stmt) -> bool:
    if not (isinstance(stmt, ir.Apply) and len(stmt.targets) == 1) or stmt.op in _NOT_ELEMENTWISE:
        return False
    definition = op_table()[stmt.op]
    return (definition.family == "elementwise" or _is_ufunc_op(stmt.op)) and not definition.has_effects


def _full_shape(stmt) -> tuple | None:
    """The shape a region starting at ``stmt`` has: its result's, when static with at least two rows."""
    if not _is_elementwise(stmt):
        return None
    shape = stmt.targets[0].aval.shape
    return shape if shape and None not in shape and shape[0] > 1 else None


def _is_scalar(atom) -> bool:
    if isinstance(atom, ir.Var):
        return atom.aval.shape == ()
    return np.ndim(atom.value) == 0 and isinstance(atom.value, (int, float, np.generic))


def _kind(stmt, shape: tuple) -> str | None:
    """How ``stmt`` takes part in a region of ``shape``: ``"member"``, ``"scalar"`` (computed before it),
    ``"release"`` (after it), or None (it ends the region)."""
    if _is_elementwise(stmt) and stmt.targets[0].aval.shape == shape:
        return "member"
    if (_is_elementwise(stmt) and stmt.targets[0].aval.shape == () and stmt.into is None and not stmt.workspace
            and all(_is_scalar(a) for a in stmt.args)):
        return "scalar"
    if isinstance(stmt, ir.Effect) and stmt.kind == "release":
        return "release"
    if (isinstance(stmt, ir.Effect) and stmt.kind == "assign"
            and all(isinstance(a, ir.Var) and a.aval.shape == shape for a in stmt.args)):
        return "member"
    return None


def _region_end(stmts: list, start: int, shape: tuple) -> int:
    """The end of the longest run from ``start`` that can be a region of ``shape``."""
    end = start
    for index in range(start, len(stmts)):
        kind = _kind(stmts[index], shape)
        if kind is None:
            break
        if kind == "member":
            end = index + 1
    return end


class _Region:
    """One candidate region: its statements, and what outlining them needs."""

    def __init__(self, module: ir.Module, function: ir.Function, shape: tuple, stmts: list):
        self.module, self.function, self.shape, self.stmts = module, function, shape, stmts
        self.roots: dict = {}          # id(Var made here) -> the first Var of its array (made here or outside)
        self.fresh: dict = {}          # id(Var) -> its statement, of those that make a new array
        self.sliced: dict = {}         # id(outer Var) -> the outer Var, in order of first use
        self.whole: dict = {}
        self.buffers: list = []        # the workspace statements moved in
        self.allocations: list[ir.Apply] = []   # ``zeros`` made before the region for new arrays read after it

    def outline(self, body: ir.Block, stop: int) -> list | None:
        """The statements replacing the region (scalars, the call, releases), after substituting in the
        statements after it (``body.stmts[stop:]``, ``body.results``) the arrays its values live in; None
        when it is not worth splitting or cannot be split."""
        members = [s for s in self.stmts if _kind(s, self.shape) == "member"]
        statements = sum(isinstance(s, ir.Apply) for s in members)
        if not worth_splitting(self.shape, statements):
            return None
        made = {id(t) for s in members for t in ir.defined_vars(s)}
        scalars = [s for s in self.stmts if _kind(s, self.shape) == "scalar"]
        if any(isinstance(a, ir.Var) and id(a) in made for s in scalars for a in s.args):
            return None
        if not all(self._plan(stmt) for stmt in members) or self._views_of_one_array():
            return None
        later = self._later_uses(body, stop, made)
        if later is None:
            return None
        mapping, read_later = later
        releases = self._releases(made, read_later)
        callee = self._function(members)
        call = ir.Call((), callee.name, tuple(self.sliced.values()) + tuple(self.whole.values()), members[0].loc,
                       split_rows=len(self.sliced), buffers=tuple(self.buffers))
        self.module.functions[callee.name] = callee
        _substitute_after(body, stop, mapping)
        return [*scalars, *self.allocations, call, *releases]

    def _role(self, atom) -> bool:
        """Record an operand read from outside the region as sliced or whole; False if it is neither."""
        if isinstance(atom, ir.Const):
            value: Any = atom.value
            return np.ndim(value) < len(self.shape) or np.shape(value)[0] == 1
        if id(atom) in self.roots:
            return True
        shape = atom.aval.shape
        if len(shape) == len(self.shape) and shape[0] == self.shape[0]:
            self.sliced.setdefault(id(atom), atom)
        elif len(shape) < len(self.shape) or shape[0] == 1:
            self.whole.setdefault(id(atom), atom)
        else:
            return False
        return True

    def _plan(self, stmt) -> bool:
        """Record the roles of ``stmt``'s operands and where its result lives; False if it cannot be split."""
        if isinstance(stmt, ir.Effect):                  # assign(Parameter, value): both full arrays
            return all(self._role(a) for a in stmt.args)
        if not all(self._role(a) for a in stmt.args):
            return False
        target = stmt.targets[0]
        writes = stmt.workspace or stmt.into is not None
        if writes and not (_is_ufunc_op(stmt.op) and stmt.operand_cast is None and stmt.result_cast is None):
            return False                                 # its line could rebind the name to a new array
        if stmt.workspace:
            if stmt.workspace_order is not None:
                return False
            self.buffers.append(stmt)
            self.sliced[id(target)] = target
            self.roots[id(target)] = target
        elif stmt.into is not None:
            if id(stmt.into) not in self.roots and not self._role(stmt.into):
                return False
            self.roots[id(target)] = self.roots.get(id(stmt.into), stmt.into)
        else:
            self.roots[id(target)] = target
            self.fresh[id(target)] = stmt
        return True

    def _views_of_one_array(self) -> bool:
        """Whether two operands are, as far as this function shows, views of one array (``y`` and ``y.T``)."""
        made_by = {id(t): s for s in ir.walk_stmts(self.function.body) if isinstance(s, ir.Apply) for t in s.targets}
        bases = set()
        for var in list(self.sliced.values()) + list(self.whole.values()):
            while id(var) in made_by and made_by[id(var)].op in _VIEWS and isinstance(made_by[id(var)].args[0], ir.Var):
                var = made_by[id(var)].args[0]
            if id(var) in bases:
                return True
            bases.add(id(var))
        return False

    def _allocate(self, root: ir.Var) -> bool:
        """Make the new array ``root`` before the region (sliced, written by its statement); False if that
        statement cannot write into it."""
        if id(root) not in self.sliced:
            stmt = self.fresh[id(root)]
            if not (_is_ufunc_op(stmt.op) and stmt.operand_cast is None and stmt.result_cast is None):
                return False
            aval = root.aval
            self.allocations.append(ir.Apply((root,), "zeros", (), {"shape": aval.shape, "dtype": aval.dtype},
                                             stmt.loc))
            self.sliced[id(root)] = root
        return True

    def _later_uses(self, body: ir.Block, stop: int, made: set) -> tuple | None:
        """``(mapping, read)``: Var made here -> the outer array holding it, of those read after the region (a
        new array is made before it: ``_allocate``), and the ids of the outer Vars read after it once so
        substituted; None if a value read after it cannot be written into an outer array."""
        read = [v for s in body.stmts[stop:] for v in ir.used_vars_deep(s)]
        read += [s.into for s in body.stmts[stop:] if isinstance(s, ir.Apply) and s.into is not None]
        read += [a for a in body.results if isinstance(a, ir.Var)]
        mapping = {}
        for var in read:
            if id(var) in made:
                root = self.roots[id(var)]
                if id(root) in self.fresh and not self._allocate(root):
                    return None
                mapping[var] = root
        return mapping, {id(mapping.get(var, var)) for var in read}

    def _releases(self, made: set, read_later: set) -> list:
        """The region's release points as one, after the call: of the outer arrays no later statement reads
        (an array of a block dies with it)."""
        args: dict = {}
        for stmt in self.stmts:
            if _kind(stmt, self.shape) == "release":
                for arg in stmt.args:
                    arg = self.roots[id(arg)] if id(arg) in made else arg
                    if id(arg) not in read_later and (id(arg) not in self.fresh or id(arg) in self.sliced):
                        args.setdefault(id(arg), arg)
        return [ir.Effect("release", tuple(args.values()), self.stmts[-1].loc)] if args else []

    def _function(self, members: list) -> ir.Function:
        """The region as a function of row blocks: its statements on fresh Vars (a sliced array's rows
        unknown), the workspace statements written into their buffer, now a parameter."""
        mapping: dict = {}

        def block_var(var: ir.Var) -> ir.Var:
            if var not in mapping:
                aval = var.aval
                if len(aval.shape) == len(self.shape) and aval.shape[0] == self.shape[0]:
                    aval = Aval((None,) + tuple(aval.shape[1:]), aval.dtype)
                mapping[var] = ir.Var(var.name, aval)
            return mapping[var]

        params = tuple(block_var(v) for v in list(self.sliced.values()) + list(self.whole.values()))
        stmts: list = []
        for stmt in members:
            args = tuple(block_var(a) if isinstance(a, ir.Var) else a for a in stmt.args)
            if isinstance(stmt, ir.Effect):
                stmts.append(ir.Effect(stmt.kind, args, stmt.loc))
                continue
            target = stmt.targets[0]
            # a workspace statement (or one making a new array read after the region) writes into its
            # buffer, a parameter (block_var made it one)
            into = mapping[target] if id(target) in self.sliced else stmt.into and block_var(stmt.into)
            new_target = ir.Var(target.name, Aval((None,) + tuple(self.shape[1:]), target.aval.dtype))
            mapping[target] = new_target
            stmts.append(ir.Apply((new_target,), stmt.op, args, dict(stmt.static), stmt.loc, into=into,
                                  operand_cast=stmt.operand_cast, result_cast=stmt.result_cast))
        source = f"{self.function.source}, on a block of rows" if self.function.source else ""
        return ir.Function(self._name(), params, ir.Block(stmts, ()), source, members[0].loc)

    def _name(self) -> str:
        """``Adam_update_net_fc1_weight`` (the Parameter it assigns; ``Adam_update_net_lstm_weights`` for
        several named alike), else ``Adam_rows``; unique."""
        prefix = self.function.name.split("_construct")[0]
        names = {s.args[0].name: None for s in self.stmts if isinstance(s, ir.Effect) and s.kind == "assign"}
        # the Parameters updated, not their companions (``moment1_net_fc1_weight`` of ``net_fc1_weight``)
        updated = [n for n in names if not any(n.endswith("_" + other) for other in names)]
        common = os.path.commonprefix(updated).rstrip("_") if len(updated) > 1 else ""
        base = (f"{prefix}_update_{updated[0]}" if len(updated) == 1 else
                f"{prefix}_update_{common}s" if common else f"{prefix}_rows")
        name, count = base, 1
        while name in self.module.functions:
            count += 1
            name = f"{base}_{count}"
        return name


def _substitute_after(body: ir.Block, stop: int, mapping: dict) -> None:
    """Read the arrays ``mapping`` names in the statements after ``stop`` and the block's results."""
    for stmt in body.stmts[stop:]:
        ir.replace_uses(stmt, mapping)
        for inner in ir.nested_blocks(stmt):
            ir.substitute(inner, mapping)
        if isinstance(stmt, ir.Apply) and stmt.into is not None:
            stmt.into = mapping.get(stmt.into, stmt.into)
    body.results = tuple(mapping.get(a, a) if isinstance(a, ir.Var) else a for a in body.results)
