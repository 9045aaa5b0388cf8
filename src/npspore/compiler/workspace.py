"""The workspace plan: which temporaries of each function live in buffers made once and reused.

A statement at the top level of a function whose result is a temporary of the function is marked
``Apply.workspace``; codegen writes its result with ``out=`` into the function's slice of the kernel's
workspace (``core.workspace.Workspace``: one set of buffers per kernel call, taken by the entry function
and handed to the functions it calls), so a training step's temporaries touch no fresh memory once the
first call made them. A result qualifies when

* its op writes a new array that NumPy can put into a given buffer (a ufunc, or ``matmul``), its shape
  is known and it has at least :data:`MIN_ELEMENTS` elements, and it is not written into another
  value's buffer already (``Apply.into``: that buffer is reused instead);
* no value the caller or a later call can see shares its memory: the buffer, the values later written
  into it in place (``into``) and the views of any of them are never a result of the function (an
  output, or a residual handed to the backward function), never saved on a tape, never carried by a
  loop or a branch, never read by a call whose function lets that parameter escape in the same way,
  and never read by an op that may keep a view of it other than the known view ops (whose views are
  followed). Parameters are inputs, never temporaries.

Two temporaries of the same shape and dtype whose lifetimes do not overlap share one buffer: ``inplace.py``
writes the later into the dead earlier one where it sees that, and this plan does it for the workspace
buffers and the buffers of donated parameters (``donation.py``: a gradient handed to the optimizer) it sees
die (a buffer dies after the last statement reading it, a value written into it or a view of it): a later
elementwise result of the same shape and dtype is written into it (``Apply.into``) instead of taking a
buffer of its own. So the workspace holds what the function's peak needs, not every value it makes (an
Adam step: one buffer per weight shape besides the gradients it is handed, not four per weight).
"""
from __future__ import annotations

import numpy as np

from . import ir
from .inplace import _ELEMENTWISE_EXTRA, _FRESH, _FRESH_HELPERS, _READERS, _VIEWS, _is_ufunc_op

MIN_ELEMENTS = 1 << 10
# write into ``out=`` besides the ufunc ops (relu: np.maximum(x, 0); the others: core.kernels_np's helpers)
_OUT_OPS = {"matmul", "relu", "conv2d_columns", "max_pool2d", "max_pool2d_grad", "conv2d_columns_grad"}
# the helper whose result is shaped as its first operand, and written in any layout: it takes that operand's
_ORDER_OF_INPUT = {"max_pool2d_grad"}
_SAFE_EFFECTS = {"assign", "print", "release"}   # copy, print or drop a value: never keep a reference


def plan_workspace(module: ir.Module) -> None:
    """Mark ``Apply.workspace`` on the statements whose results are private temporaries, or write them into
    a dead one's buffer (module docstring)."""
    escapes = _EscapeAnalysis(module)
    param_orders, result_orders = _known_orders(module)
    for function in module.functions.values():
        stmts = function.body.stmts
        read_at = [_read_ids(stmt) for stmt in stmts]
        transposed: set = set()  # ids of the Vars that are transposed views, or laid out as one
        orders = {id(p): o for p, o in zip(function.params, param_orders[function.name]) if o is not None}
        #                          id(Var) -> its memory order, where known (_track_order)
        # [buffer Var, ids of the values sharing its memory, index of their last read, its memory order]
        buffers = _donated_buffers(function, escapes, read_at, orders)
        for index, stmt in enumerate(stmts):
            if _transposes(stmt, transposed):
                transposed.add(id(stmt.targets[0]))
            order = _buffer_order(stmt, _track_order(stmt, orders, result_orders))
            if isinstance(stmt, ir.Apply) and stmt.op in _ORDER_OF_INPUT:   # C order, unless given a buffer below
                orders[id(stmt.targets[0])] = tuple(range(len(stmt.targets[0].aval.shape)))
            if not _candidate(stmt) or (
                    _is_ufunc_op(stmt.op) and order is None and any(id(a) in transposed for a in stmt.args)):
                continue
            found = escapes.sharing(function, stmt.targets[0], follow_results=True)
            if found is None:
                continue
            sharing, returned = found
            end = len(stmts) if returned else max(
                (i for i in range(index, len(stmts)) if read_at[i] & sharing), default=index)
            dead = _is_ufunc_op(stmt.op) and next(
                (b for b in buffers if b[2] < index and b[0].aval == stmt.targets[0].aval and b[3] == order), None)
            function.results_in_workspace |= returned
            orders[id(stmt.targets[0])] = order or tuple(range(len(stmt.targets[0].aval.shape)))
            if order is not None:
                transposed.add(id(stmt.targets[0]))
            if dead:
                stmt.into = dead[0]
                dead[1] |= sharing
                dead[2] = end
            else:
                stmt.workspace = True
                stmt.workspace_order = order
                buffers.append([stmt.targets[0], sharing, end, order])
        escapes.readers.pop(function.name, None)     # its statements now write into dead buffers


def _donated_buffers(function: ir.Function, escapes, read_at: list, orders: dict) -> list:
    """The buffers of the parameters every caller hands over (``Function.donated``) that no value outlives:
    ``[parameter, ids of the values sharing its memory, index of the last statement reading one, its memory
    order (None: C order)]``."""
    buffers = []
    for position in sorted(function.donated):
        param = function.params[position]
        found = escapes.sharing(function, param)
        if found is not None and not found[1] and param.aval.shape and None not in param.aval.shape:
            last = max((i for i, read in enumerate(read_at) if read & found[0]), default=-1)
            order = orders.get(id(param))
            buffers.append([param, found[0], last, None if order is None or order == tuple(sorted(order)) else order])
    return buffers


def _read_ids(stmt) -> set:
    """Ids of the Vars a statement reads (nested blocks included) or writes into."""
    read = {id(var) for var in ir.used_vars_deep(stmt)}
    if isinstance(stmt, ir.Apply) and stmt.into is not None:
        read.add(id(stmt.into))
    return read


def _transposes(stmt, transposed: set) -> bool:
    """Whether ``stmt``'s result is a transposed view: a ``transpose`` that moves an axis, or a view of
    a transposed view. NumPy writes an elementwise result in its operands' memory order, so a product
    reading it later takes the fast (non-transposed) BLAS path; written into a workspace buffer (C
    order) it would not, so elementwise results of such views keep NumPy's own layout."""
    if not (isinstance(stmt, ir.Apply) and len(stmt.targets) == 1 and stmt.op in _VIEWS):
        return False
    if stmt.op == "transpose":
        axes = stmt.static.get("axes")
        return axes is not None and tuple(axes) != tuple(sorted(axes))
    return isinstance(stmt.args[0], ir.Var) and id(stmt.args[0]) in transposed


def _known_orders(module: ir.Module) -> tuple:
    """``(param_orders, result_orders)``: function name -> the memory orders of its parameters (from the
    arguments of its calls, where every call gives one the same order) and of its results (None where not
    known), as :func:`_track_order` follows them through each function's statements and calls."""
    param_orders: dict[str, tuple] = {name: () for name in module.functions}
    result_orders: dict[str, tuple] = {name: () for name in module.functions}
    for _ in range(len(module.functions) + 1):   # each round carries orders across one more call
        arguments: dict = {}                      # callee -> [the orders of a call's arguments]
        for function in module.functions.values():
            orders: dict[int, tuple] = {id(p): o for p, o in zip(function.params, param_orders[function.name])
                                        if o is not None}
            top = set()
            for stmt in function.body.stmts:
                _track_order(stmt, orders, result_orders)
                if isinstance(stmt, ir.Call):
                    top.add(id(stmt))
                    arguments.setdefault(stmt.callee, []).append(tuple(orders.get(id(a)) for a in stmt.args))
            for stmt in ir.walk_stmts(function.body):
                if isinstance(stmt, ir.Call) and id(stmt) not in top:   # in a loop or branch: not followed
                    arguments.setdefault(stmt.callee, []).append((None,) * len(stmt.args))
            result_orders[function.name] = tuple(orders.get(id(r)) if isinstance(r, ir.Var) else None
                                                 for r in function.body.results)
        found: dict[str, tuple] = {
            name: tuple(calls[0][i] if all(c[i] == calls[0][i] for c in calls) else None for i in range(len(calls[0])))
            for name, calls in arguments.items() if name in module.functions}
        found = {name: found.get(name, ()) for name in module.functions}
        if found == param_orders:
            break
        param_orders = found
    return param_orders, result_orders


def _track_order(stmt, orders: dict, result_orders: dict) -> tuple | None:
    """Record in ``orders`` (id(Var) -> axes) the memory order of ``stmt``'s results where it is known, and
    return its first result's: the axes ``p`` with the result ``base.transpose(p)`` of a C-contiguous ``base``
    (``(0, 1, ...)``: C order). A transpose permutes its operand's order, a reshape of a C-contiguous array
    is one, other views are not followed; an elementwise op writes its operands' order (NumPy's
    ``order='K'``; so does its workspace buffer) when its operands of the result's shape share one, a
    ``_ORDER_OF_INPUT`` helper its input's (its workspace buffer's order); every other op makes a
    C-contiguous array; a call's results have the orders its callee gives them (``result_orders``)."""
    if isinstance(stmt, ir.Call):
        for target, order in zip(stmt.targets, result_orders.get(stmt.callee, ())):
            if order is not None:
                orders[id(target)] = order
        return None
    if not (isinstance(stmt, ir.Apply) and len(stmt.targets) == 1) or stmt.targets[0].aval.shape is None:
        return None
    order = _natural_order(stmt, orders, len(stmt.targets[0].aval.shape))
    if order is not None:
        orders[id(stmt.targets[0])] = order
    return order


def _natural_order(stmt: ir.Apply, orders: dict, rank: int) -> tuple | None:
    source = orders.get(id(stmt.args[0])) if stmt.args and isinstance(stmt.args[0], ir.Var) else None
    if stmt.op == "transpose":
        axes = stmt.static.get("axes")
        axes = tuple(reversed(range(rank))) if axes is None else tuple(a % rank for a in axes)
        return None if source is None else tuple(source[a] for a in axes)
    if stmt.op == "reshape":
        return tuple(range(rank)) if source is not None and source == tuple(sorted(source)) else None
    if stmt.op in _VIEWS:
        return None
    if stmt.op in _ORDER_OF_INPUT:
        return source
    if _is_ufunc_op(stmt.op) or stmt.op in _ELEMENTWISE_EXTRA:
        shared = {orders.get(id(a)) for a in stmt.args
                  if isinstance(a, ir.Var) and a.aval.shape == stmt.targets[0].aval.shape}
        return shared.pop() if len(shared) == 1 else (None if shared else tuple(range(rank)))
    return tuple(range(rank))


def _buffer_order(stmt, natural: tuple | None) -> tuple | None:
    """The memory order of ``stmt``'s workspace buffer: its result's natural order (:func:`_track_order`)
    for an elementwise op or a ``_ORDER_OF_INPUT`` helper, where that is a permutation; else None (C order)."""
    if not (isinstance(stmt, ir.Apply) and (_is_ufunc_op(stmt.op) or stmt.op in _ELEMENTWISE_EXTRA
                                            or stmt.op in _ORDER_OF_INPUT)):
        return None
    return None if natural is None or natural == tuple(sorted(natural)) else natural


def _candidate(stmt) -> bool:
    if not (isinstance(stmt, ir.Apply) and len(stmt.targets) == 1 and stmt.into is None):
        return False
    shape = stmt.targets[0].aval.shape
    if not shape or None in shape or int(np.prod(shape)) < MIN_ELEMENTS:
        return False
    return stmt.op in _OUT_OPS or _is_ufunc_op(stmt.op)


class _EscapeAnalysis:
    """Whether a value's memory can be seen after its function returns (see the module docstring)."""

    def __init__(self, module: ir.Module):
        self.module = module
        self.readers: dict = {}        # function name -> {id(var): [statements reading it]}
        self.param_escapes: dict = {}  # (function name, index) -> bool
        self.call_sites = _call_sites(module)
        self.once: dict = {module.entry: True}   # function name -> whether a kernel call runs it once

    def _readers(self, function: ir.Function) -> dict:
        found = self.readers.get(function.name)
        if found is None:
            found = {}
            for stmt in ir.walk_stmts(function.body):
                read = [atom for atom in ir.used_atoms(stmt) if isinstance(atom, ir.Var)]
                if isinstance(stmt, ir.Apply) and stmt.into is not None and stmt.into not in read:
                    read.append(stmt.into)              # a dead buffer reused: written, not read
                for var in read:
                    found.setdefault(id(var), []).append(stmt)
            self.readers[function.name] = found
        return found

    def runs_once(self, name: str) -> bool:
        """Whether a kernel call runs function ``name`` at most once: the entry, or a function called from one
        place only, outside loops and branches, of a function that runs once."""
        if name not in self.once:
            self.once[name] = False                  # recursion (refused by specialize) stays safe
            sites = self.call_sites.get(name, ())
            self.once[name] = len(sites) == 1 and sites[0][2] and self.runs_once(sites[0][0].name)
        return self.once[name]

    def escapes(self, function: ir.Function, var: ir.Var) -> bool:
        """Whether ``var`` (or a value sharing its memory) outlives a call of ``function``."""
        return self.sharing(function, var) is None

    def sharing(self, function: ir.Function, var: ir.Var, follow_results: bool = False):
        """``(ids, returned)``: the ids of the values sharing ``var``'s memory (itself, values written into it,
        views), and whether one of them is a result of ``function``; None when one outlives the kernel call.

        A result outlives the kernel call unless ``follow_results`` and ``function`` runs once per kernel call
        (``runs_once``) and the caller's values it becomes outlive neither: its buffer, held by the kernel call's
        workspace, is then written by no other call before the kernel call ends."""
        pending, seen, returned = [(function, var)], set(), False
        while pending:
            function, value = pending.pop()
            if id(value) in seen:
                continue
            seen.add(id(value))
            results = function.body.results
            if any(a is value for a in results):
                if not (follow_results and function.name != self.module.entry and self.runs_once(function.name)):
                    return None
                caller, call, _ = self.call_sites[function.name][0]
                pending.extend((caller, target) for target, a in zip(call.targets, results) if a is value)
                returned = True
                continue
            if any(a is value for block in ir.all_blocks(function.body) for a in block.results):
                return None                             # carried by a loop or yielded by a branch
            readers = self._readers(function)
            for stmt in readers.get(id(value), ()):
                if isinstance(stmt, ir.Apply) and (stmt.into is value or stmt.op in _VIEWS and stmt.args[0] is value):
                    pending.extend((function, t) for t in stmt.targets)   # written into the buffer, or its view
                elif isinstance(stmt, ir.Apply):
                    if not (stmt.op in _READERS or stmt.op in _FRESH or stmt.op in _FRESH_HELPERS
                            or _is_ufunc_op(stmt.op)):
                        return None                     # an op that may return a view of its operand
                elif isinstance(stmt, ir.Effect):
                    if stmt.kind not in _SAFE_EFFECTS:
                        return None
                elif isinstance(stmt, ir.Call):
                    if self._call_escapes(stmt, value):
                        return None
                else:                                   # a loop or branch carrying it, a tape saving it
                    return None
        return seen, returned

    def _call_escapes(self, call: ir.Call, value) -> bool:
        callee = self.module.functions.get(call.callee)
        if callee is None:
            return True
        for index, arg in enumerate(call.args):
            if arg is value:
                key = (callee.name, index)
                if key not in self.param_escapes:
                    self.param_escapes[key] = True      # recursion (refused by specialize) stays safe
                    self.param_escapes[key] = self.escapes(callee, callee.params[index])
                if self.param_escapes[key]:
                    return True
        return False


def _call_sites(module: ir.Module) -> dict:
    """function name -> [(calling function, the Call, whether it is a statement of the caller's body itself)]."""
    sites: dict = {}
    for function in module.functions.values():
        top = {id(stmt) for stmt in function.body.stmts}
        for stmt in ir.walk_stmts(function.body):
            if isinstance(stmt, ir.Call):
                sites.setdefault(stmt.callee, []).append((function, stmt, id(stmt) in top))
    return sites


def handed_the_workspace(module: ir.Module) -> set:
    """The functions other than the entry that are handed the kernel's workspace: those with planned buffers
    (``Apply.workspace``, or ``Call.buffers`` of a region split into row blocks) and those calling one of them,
    directly or not."""
    sites = _call_sites(module)
    threaded = {function.name for function in module.functions.values()
                if any(isinstance(stmt, ir.Apply) and stmt.workspace or isinstance(stmt, ir.Call) and stmt.buffers
                       for stmt in function.body.stmts)}
    pending = list(threaded)
    while pending:
        for caller, _, _ in sites.get(pending.pop(), ()):
            if caller.name not in threaded:
                threaded.add(caller.name)
                pending.append(caller.name)
    threaded.discard(module.entry)
    return threaded
