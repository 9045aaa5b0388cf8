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
wait for it at once, and the kernel keeps its ``rt.matmul_split``. A statement reading the result whose
own result only the function returns (the weight gradient's scaling by the LSTM gates' scales) moves to
the end of the function first, so the loop after it runs before the wait.

Which blocks the product is cut into depends only on the shapes (``core.matmul_split``): the bits are those
of ``rt.matmul_split``, whichever thread computes a block. Memory is followed conservatively: values made by
views, by ops that may return their operand, by calls, loops, branches and tapes share the memory of what
they were made from.
"""
from __future__ import annotations

from ..core.matmul_split import deferrable
from . import ir
from .inplace import _VIEWS, makes_new_array
from .splitproducts import product_shapes

_QUIET_EFFECTS = {"release", "print", "print_each", "print_tree", "wait"}   # neither write nor keep an array
_SPLIT_PRODUCTS = {"matmul_split", "matmul_start"}   # new arrays (or written into ``out=``), like ``matmul``


def defer_products(function: ir.Function) -> None:
    """Start each of ``function``'s top-level split products that a loop can overlap (module docstring)."""
    memory = _MemoryGroups(function)
    index = 0
    while index < len(function.body.stmts):
        stmt = function.body.stmts[index]
        shapes = product_shapes(stmt) if isinstance(stmt, ir.Apply) and stmt.op == "matmul_split" else None
        if shapes is not None and deferrable(*shapes):
            _defer(function.body, index, memory)
        index += 1


def _defer(body: ir.Block, index: int, memory: _MemoryGroups) -> None:
    product = body.stmts[index]
    result = memory.of(product.targets)
    operands = memory.of(a for a in product.args if isinstance(a, ir.Var)) | result
    position, end = index + 1, len(body.stmts)      # the statements from ``end`` on were moved there
    looped = False
    while position < end:
        stmt = body.stmts[position]
        if _writes(stmt, operands, memory) or memory.of(ir.used_vars_deep(stmt)) & result:
            if not _sink(body, position, memory):
                break
            end -= 1
            continue          # the statement now at ``position`` is the next one
        looped = looped or isinstance(stmt, (ir.ForRange, ir.While))
        position += 1
    if looped:
        product.op = "matmul_start"
        body.stmts.insert(position, ir.Effect("wait", (product.targets[0],), product.loc))


def _sink(body: ir.Block, position: int, memory: _MemoryGroups) -> bool:
    """Move the statement at ``position`` to the end of ``body`` where that changes no value: an op whose
    result (and the memory it writes) no later statement reads or writes, and whose operands no later
    statement writes; the releases of its operands that follow it are dropped (the function's end releases
    them). Whether it moved."""
    stmt = body.stmts[position]
    if not isinstance(stmt, ir.Apply):
        return False
    written = memory.of(stmt.targets) | (memory.of((stmt.into,)) if stmt.into is not None else set())
    read = memory.of(a for a in stmt.args if isinstance(a, ir.Var))
    later = body.stmts[position + 1:]
    if any(memory.of(ir.used_vars_deep(s)) & written or _writes(s, written | read, memory)
           for s in later if not _is_release(s)):
        return False
    operands = {id(a) for a in stmt.args if isinstance(a, ir.Var)}
    for release in (s for s in later if _is_release(s)):
        release.args = tuple(a for a in release.args if id(a) not in operands)
    body.stmts[position:] = [s for s in later if not _is_release(s) or s.args] + [stmt]
    return True


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

    def __init__(self, function: ir.Function):
        self.parent: dict[int, int] = {}
        for stmt in ir.walk_stmts(function.body):
            self._join_statement(stmt)

    def of(self, variables) -> set:
        """The groups of ``variables`` (Vars; other atoms are ignored)."""
        return {self._root(id(v)) for v in variables if isinstance(v, ir.Var)}

    def _join_statement(self, stmt) -> None:
        if isinstance(stmt, ir.Apply):
            if stmt.into is not None:
                self._join(stmt.into, *stmt.targets)
            if not _fresh(stmt.op):
                self._join(*stmt.targets, *stmt.args)
        elif isinstance(stmt, ir.Call):
            self._join(*stmt.targets, *stmt.args)
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
