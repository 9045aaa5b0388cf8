"""Split products started before a loop and waited for after it (optimize, a NumPy step, the last).

A loop over time (an LSTM's recurrence, forward or backward) runs on the calling thread: its steps are
small NumPy calls that hold the GIL between them, so the helper threads of ``core.thread_pool`` sit idle
(splitting such a step across threads costs more in hand-overs than it saves). A large product that only
a later statement reads, placed before such a loop (a layer's weight gradients, computed after its
backward recurrence and read only by the optimizer), can run on a helper meanwhile. Such a
``matmul_split`` becomes ``matmul_start`` (``rt.matmul_start(a, b, out=buffer)``: the helpers compute it
while the calling thread goes on) and an ``Effect('wait', (result,))`` (``rt.matmul_wait(result)``) is
placed before the first statement that

* reads the result or a value sharing its memory (the function's return included), or
* writes into the memory of the product's operands or result (in place, into a workspace buffer that
  another value left, a row written, a Parameter assigned), or may do so (a call handed one of them, an
  effect other than printing or releasing a value),

and the product is started only when a loop runs before that statement: elsewhere the calling thread would
wait for it at once, and the kernel keeps its ``rt.matmul_split``. It is started just before that loop, so
the split work before the loop keeps the helpers (an LSTM layer's input gradient, which the loop reads). A
statement reading the result whose own result only the function returns (the weight gradient's scaling by
the LSTM gates' scales) moves to the end of the function first, so the loop after it runs before the wait.

A product a function returns (a Dense layer's weight gradient) is handed to its callers unwaited where it
shares memory with nothing else returned: each call site waits before the result's first reader, or hands it
on in turn (the entry function always waits). A trial on a copy of the module keeps only the hand-overs after
which a loop runs before the wait (T2: the decoder's weight gradient during the LSTM's backward).

Which blocks the product is cut into depends only on the shapes (``core.matmul_split``): the bits are those
of ``rt.matmul_split``, whichever thread computes a block. Memory is followed conservatively: values made by
views, by ops that may return their operand, by calls, loops, branches and tapes share the memory of what
they were made from.
"""
from __future__ import annotations

import copy

from ..core.matmul_split import deferrable
from . import ir
from .constantviews import _INTO_FIRST
from .inplace import _VIEWS, makes_new_array
from .splitproducts import product_shapes

_QUIET_EFFECTS = {"release", "print", "print_each", "print_tree", "wait"}   # neither write nor keep an array
_SPLIT_PRODUCTS = {"matmul_split", "matmul_start"}   # new arrays (or written into ``out=``), like ``matmul``


def defer_products(module: ir.Module) -> None:
    """Start each split product of ``module`` that a loop can overlap (module docstring), callees first. A
    product a function returns is handed to its callers unwaited only where a trial on a copy of the module
    finds a loop between a call and the wait: elsewhere the kernel keeps ``rt.matmul_split``."""
    if not _functions_running_loops(module) or not any(
            isinstance(s, ir.Apply) and s.op == "matmul_split" for f in module.functions.values()
            for s in f.body.stmts):
        return          # no loop to overlap, or no product to start: not even the trial's copy of the module
    trial = _Deferral(copy.deepcopy(module), None)
    trial.run()
    _Deferral(module, trial.useful_results()).run()


class _Deferral:
    """The pass over one module: what it learnt of the functions done so far."""

    def __init__(self, module: ir.Module, useful: set | None):
        self.module = module
        self.useful = useful                        # (function, result position) worth handing on; None: all
        self.started: dict[str, frozenset] = {}   # function -> positions of results returned still being computed
        self.fresh: dict[str, frozenset] = {}     # function -> positions of results sharing memory with nothing else
        self.looping = _functions_running_loops(module)
        self.overlapped: set = set()              # (function, result position) a caller waits for after a loop
        self.handed_on: dict = {}                 # (function, result position) -> [(caller, its result position)]

    def useful_results(self) -> set:
        """The results whose hand-over lets a loop run before their wait, directly or through callers."""
        useful = set(self.overlapped)
        while True:
            more = {key for key, onward in self.handed_on.items() if key not in useful and set(onward) & useful}
            if not more:
                return useful
            useful |= more

    def run(self) -> None:
        for function in _callees_first(self.module):
            memory = _MemoryGroups(function, self.fresh)
            results = function.body.results
            self.fresh[function.name] = frozenset(
                k for k, r in enumerate(results) if isinstance(r, ir.Var) and not memory.of(
                    [*function.params, *(o for o in results if o is not r)]) & memory.of((r,)))
            handed: list = []
            for stmt in list(function.body.stmts):     # each once, wherever an earlier one moved it
                index = next((i for i, s in enumerate(function.body.stmts) if s is stmt), None)
                if index is None:                       # a release emptied by a move
                    continue
                shapes = product_shapes(stmt) if isinstance(stmt, ir.Apply) and stmt.op == "matmul_split" else None
                if shapes is not None and deferrable(*shapes):
                    handed += self.defer(function, index, memory, stmt.targets[0], None)
                elif isinstance(stmt, ir.Call):
                    for k in sorted(self.started.get(stmt.callee, ())):
                        handed += self.defer(function, index, memory, stmt.targets[k], (stmt.callee, k))
            for block in (b for stmt in function.body.stmts for b in ir.nested_blocks(stmt)):
                self.wait_after_nested_calls(block)
            self.started[function.name] = frozenset(
                k for k, r in enumerate(results) if any(r is v for v in handed))

    def defer(self, function: ir.Function, index: int, memory: _MemoryGroups, pending: ir.Var,
              origin: tuple | None) -> list:
        """Place the wait for ``pending`` (the result of the product at ``index``, or result ``origin`` of the
        call there, returned still being computed) before the first statement that needs it; returns
        ``[pending]`` where it is handed to the caller unwaited instead (returned, sharing memory with nothing
        else returned, and worth it: :meth:`useful_results`), else ``[]``. Statements reading it that can move
        to the end move only where the product is started."""
        body = function.body
        source = body.stmts[index]
        result = memory.of((pending,))
        operands = memory.of(a for a in source.args if isinstance(a, ir.Var)) | result
        order = list(body.stmts)        # the statements in the order the scan tries: movable readers at the end
        position, end = index + 1, len(order)
        first_reader, loop, moved = None, None, []
        while position < end:
            stmt = order[position]
            if _writes(stmt, operands, memory) or memory.of(ir.used_vars_deep(stmt)) & result:
                if first_reader is None:
                    first_reader = stmt
                if not _movable_to_the_end(order, position, memory):
                    break
                moved.append(stmt)
                order.append(order.pop(position))
                end -= 1
                continue
            if loop is None and (isinstance(stmt, (ir.ForRange, ir.While))
                                 or isinstance(stmt, ir.Call) and stmt.callee in self.looping):
                loop = stmt
            position += 1
        onward = [(function.name, k) for k, r in enumerate(body.results) if r is pending]
        hand_on = (position == len(order) and function.name != self.module.entry and bool(onward)
                   and all(k in self.fresh[function.name] for _, k in onward)
                   and (self.useful is None or set(onward) <= self.useful))
        if origin is not None and loop is not None:
            self.overlapped.add(origin)
        if origin is not None and hand_on:
            self.handed_on[origin] = onward
        if hand_on or loop is not None:
            wait_before = order[position] if position < len(order) else None
            body.stmts = _without_releases_of(order, moved + ([source] if origin is None else []), body.stmts)
            if origin is None:      # started as late as it can be: the split work before the loop keeps the helpers
                source.op = "matmul_start"
                del body.stmts[_position(body.stmts, source)]
                body.stmts.insert(_position(body.stmts, loop) if loop is not None and not hand_on
                                  else _position(body.stmts, wait_before), source)
        elif origin is None:
            return []
        else:
            wait_before = first_reader
        if hand_on:
            return [pending]
        body.stmts.insert(_position(body.stmts, wait_before), ir.Effect("wait", (pending,), source.loc))
        return []

    def wait_after_nested_calls(self, block: ir.Block) -> None:
        """Wait for the results a call inside a loop or branch gets still being computed, right after it."""
        stmts = []
        for stmt in block.stmts:
            stmts.append(stmt)
            if isinstance(stmt, ir.Call) and self.started.get(stmt.callee):
                stmts += [ir.Effect("wait", (stmt.targets[k],), stmt.loc) for k in sorted(self.started[stmt.callee])]
            for inner in ir.nested_blocks(stmt):
                self.wait_after_nested_calls(inner)
        block.stmts = stmts


def _functions_running_loops(module: ir.Module) -> set:
    """The names of the functions that run a loop, or call one that does (row-block functions excepted)."""
    running: set = set()
    for function in _callees_first(module):
        if any(isinstance(s, (ir.ForRange, ir.While)) or isinstance(s, ir.Call) and not s.split_rows
               and s.callee in running for s in ir.walk_stmts(function.body)):
            running.add(function.name)
    return running


def _callees_first(module: ir.Module) -> list:
    """The module's functions, each after every function it calls."""
    order: list = []
    seen: set = set()

    def visit(name: str) -> None:
        if name in seen:
            return
        seen.add(name)
        for stmt in ir.walk_stmts(module.functions[name].body):
            if isinstance(stmt, ir.Call):
                visit(stmt.callee)
        order.append(module.functions[name])

    for name in module.functions:
        visit(name)
    return order


def _movable_to_the_end(stmts: list, position: int, memory: _MemoryGroups) -> bool:
    """Whether the statement at ``position`` can move to the end of ``stmts`` without changing a value: an op
    whose result (and the memory it writes) no later statement reads or writes, and whose operands no later
    statement writes (the releases of its operands that follow it are dropped when it moves)."""
    stmt = stmts[position]
    if not isinstance(stmt, ir.Apply):
        return False
    written = memory.of(stmt.targets) | (memory.of((stmt.into,)) if stmt.into is not None else set())
    read = memory.of(a for a in stmt.args if isinstance(a, ir.Var))
    return not any(memory.of(ir.used_vars_deep(s)) & written or _writes(s, written | read, memory)
                   for s in stmts[position + 1:] if not _is_release(s))


def _without_releases_of(order: list, moved: list, before: list) -> list:
    """``order`` without the releases, after each moved statement's place in ``before``, of the values it
    reads (the function's end releases them), and without the releases left empty."""
    place = {id(s): i for i, s in enumerate(before)}
    for stmt in moved:
        operands = {id(a) for a in stmt.args if isinstance(a, ir.Var)}
        for release in (s for s in before[place[id(stmt)] + 1:] if _is_release(s)):
            release.args = tuple(a for a in release.args if id(a) not in operands)
    return [s for s in order if not _is_release(s) or s.args]


def _position(stmts: list, stmt) -> int:
    """The index of ``stmt`` in ``stmts`` (by identity), or the end when it is None."""
    return len(stmts) if stmt is None else next(i for i, s in enumerate(stmts) if s is stmt)


def _is_release(stmt) -> bool:
    return isinstance(stmt, ir.Effect) and stmt.kind == "release"


def _writes(stmt, groups: set, memory: _MemoryGroups) -> bool:
    """Whether ``stmt`` (or a statement nested in it) writes, or may write, memory of ``groups``."""
    for inner in [stmt, *(s for block in ir.nested_blocks(stmt) for s in ir.walk_stmts(block))]:
        if isinstance(inner, ir.Apply):
            written = [inner.into] if inner.into is not None else []
            if not (_fresh(inner.op) or inner.op in _VIEWS) and inner.args:
                written.append(inner.args[0])       # an op that may write into its operand (``row_set_in_place``)
            if memory.of(written) & groups:
                return True
        elif isinstance(inner, ir.Call):
            if memory.of(a for a in inner.args if isinstance(a, ir.Var)) & groups:
                return True
        elif isinstance(inner, ir.Effect) and inner.kind not in _QUIET_EFFECTS:
            return True
    return False


def _fresh(op: str) -> bool:
    return makes_new_array(op) or op in _SPLIT_PRODUCTS


class _MemoryGroups:
    """Which of a function's values may share memory: union-find over every statement that may return (a
    view of) what it reads."""

    def __init__(self, function: ir.Function, fresh: dict):
        self.parent: dict[int, int] = {}
        self.fresh = fresh     # function -> positions of its results that share memory with nothing else
        for stmt in ir.walk_stmts(function.body):
            self._join_statement(stmt)

    def of(self, variables) -> set:
        """The groups of ``variables`` (Vars; other atoms are ignored)."""
        return {self._root(id(v)) for v in variables if isinstance(v, ir.Var)}

    def _join_statement(self, stmt) -> None:
        if isinstance(stmt, ir.Apply):
            if stmt.into is not None:
                self._join(stmt.into, *stmt.targets)
            if stmt.op in _VIEWS or stmt.op in _INTO_FIRST:    # its first operand, or a view of it
                self._join(*stmt.targets, stmt.args[0])
            elif not _fresh(stmt.op):
                self._join(*stmt.targets, *stmt.args)
        elif isinstance(stmt, ir.Call):
            fresh = self.fresh.get(stmt.callee, frozenset())
            self._join(*(t for k, t in enumerate(stmt.targets) if k not in fresh), *stmt.args)
        elif isinstance(stmt, ir.TapePop):
            self._join(stmt.tape, *stmt.targets)
        elif isinstance(stmt, ir.TapePush):
            self._join(stmt.tape, *stmt.values)
        elif isinstance(stmt, ir.If):
            for position, output in enumerate(stmt.outputs):
                self._join(output, stmt.then_block.results[position], stmt.else_block.results[position])
        elif isinstance(stmt, (ir.ForRange, ir.While)):
            for position, output in enumerate(stmt.outputs):
                self._join(output, stmt.carried[position], stmt.body_params[position],
                           stmt.body.results[position])

    def _join(self, *atoms) -> None:
        roots = [self._root(id(a)) for a in atoms if isinstance(a, ir.Var)]
        for root in roots[1:]:
            self.parent[root] = roots[0]

    def _root(self, key: int) -> int:
        while self.parent.get(key, key) != key:
            key = self.parent[key]
        return key
