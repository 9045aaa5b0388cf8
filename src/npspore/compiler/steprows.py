"""The rows a counted loop writes into a buffer it owns (optimize, NumPy steps after the in-place plan).

``tapes.py`` and ``loops.py`` keep a loop's per-step values as rows of a stacked buffer: ``buf = zeros((n, ...))``
before the loop and ``buf[t] = h`` (``row_set_in_place``, once ``optimize`` found that the loop owns the buffer:
nothing else reads any version of it) in its body. Two things a careful person would not do remain:

* zeroing a buffer every row of which is written before anything reads it (:func:`leave_written_rows_unset`):
  the loop is ``range(0, n, 1)`` (a loop that breaks is a ``While``, never such a loop), its body writes row
  ``t``, ``t + c`` or ``c - t`` of the buffer on every step (a statement of the body itself, not of a branch
  in it), rows written at constant indices before the loop (a history buffer's initial row) count too, and
  together they are every row of the buffer: ``np.empty`` instead of ``np.zeros`` (a (35, 20, 512) float32
  buffer: ``np.zeros`` clears memory the allocator already had, 20-135 us on the project's 2-core machine,
  ``np.empty`` 1 us);
* computing a step's value in a temporary and copying it into its row (:func:`compute_values_in_rows`):
  where the value is made by a chain of exactly rounded ufuncs each writing the buffer of the one before
  (``d = a * a; np.subtract(1, d, out=d); d *= g``, ``inplace.py``'s plan), the first writes into the row
  (``row_slot``, the view ``buf[t]``) and the rest follow it there; the row is then written already
  (``copy_into`` the slot copies nothing, ``concat_written`` is the buffer: codegen writes no line for
  either). Each element is computed by the same ufunc from the same operands, so the bits are the same (the
  row of a C-ordered buffer is a C-ordered array; transcendental ufuncs, whose SIMD loops may round
  differently on other alignments, are left as they are). The row is the value's memory for the rest of the
  step: it qualifies only where no version of the value can outlive the step or see the row change (never
  yielded, pushed on a tape, passed to a call or an effect, nor read by an op that keeps a view of it other
  than the view ops, whose views are followed), and the buffer's row ``t`` is written by nothing else (the loop
  owns the buffer and reads it only there).
"""
from __future__ import annotations

from ..opdef import op_table
from . import ir
from .concatparts import _EXACT_UFUNCS
from .inplace import _FRESH, _READERS, _VIEWS, _is_ufunc_op
from .rewrite import Namer
from .tapes import trip_count

_ROW_WRITES = {"row_set", "row_add", "row_set_in_place", "row_add_in_place"}   # copy their row operand into the buffer


def leave_written_rows_unset(function: ir.Function) -> None:
    """Make each ``zeros`` buffer of ``function`` every row of which a counted loop writes (module docstring)
    an ``empty`` one, in place."""
    uses = ir.use_counts(function)
    defs = {id(t): s for s in ir.walk_stmts(function.body) if isinstance(s, ir.Apply) for t in s.targets}
    for loop in ir.walk_stmts(function.body):
        n = trip_count(loop) if isinstance(loop, ir.ForRange) else None
        if n is None:
            continue
        for init, param, result in zip(loop.carried, loop.body_params, loop.body.results):
            row = _row_written(loop, param, result, defs, uses)
            steps = _rows_of_steps(loop, row.args[1], n) if row is not None else None
            if steps is None:
                continue
            zeros, written = _rows_written_before(init, defs, uses)
            if zeros is not None and written | steps == set(range(zeros.targets[0].aval.shape[0])):
                zeros.op = "empty"
                zeros.static = {"shape": tuple(zeros.targets[0].aval.shape), "dtype": zeros.targets[0].aval.dtype}


def compute_values_in_rows(function: ir.Function) -> None:
    """Compute each step's value that a loop writes into a row of a buffer it owns in that row, where it can
    (module docstring), in place."""
    uses = ir.use_counts(function)
    defs = {id(t): s for s in ir.walk_stmts(function.body) if isinstance(s, ir.Apply) for t in s.targets}
    readers: dict = {}
    for stmt in ir.walk_stmts(function.body):
        for atom in ir.used_atoms(stmt):
            if isinstance(atom, ir.Var):
                readers.setdefault(id(atom), []).append(stmt)
    yielded = {id(a) for block in ir.all_blocks(function.body) for a in block.results if isinstance(a, ir.Var)}
    yielded |= {id(p) for p in function.params}
    namer = Namer(function)
    for loop in [s for s in ir.walk_stmts(function.body) if isinstance(s, ir.ForRange)]:
        for param, result in zip(loop.body_params, loop.body.results):
            row = _row_written(loop, param, result, defs, uses)
            chain = _chain(row, loop.body.stmts, defs) if row is not None else []
            if chain and all(_stays_in_step(s.targets[0], readers, yielded) for s in chain):
                _write_in_row(loop.body, row, chain[0], namer)


def _row_written(loop, param, result, defs, uses):
    """The ``row_set_in_place`` of ``loop``'s body (a statement of the body itself) that makes the carried
    ``result`` from the body parameter ``param`` it alone reads, or None."""
    row = defs.get(id(result)) if isinstance(result, ir.Var) else None
    if (row is None or row.op != "row_set_in_place" or row.args[0] is not param or uses.get(id(param)) != 1
            or not any(s is row for s in loop.body.stmts)):
        return None
    return row


def _rows_of_steps(loop: ir.ForRange, index, n: int) -> set | None:
    """The rows ``index`` takes over the ``n`` steps of ``loop``: ``t``, ``t + c``, ``c + t`` or ``c - t`` of its
    index ``t`` (made by a statement of the body itself); None for another index."""
    steps = range(n)
    if index is loop.index:
        return set(steps)
    made = next((s for s in loop.body.stmts if isinstance(s, ir.Apply) and index in s.targets), None)
    if made is None or made.op not in ("add", "sub") or len(made.args) != 2:
        return None
    first, second = made.args
    constant = next((a.value for a in made.args if isinstance(a, ir.Const) and type(a.value) is int), None)
    if constant is None:
        return None
    if made.op == "add" and loop.index in (first, second):
        return {constant + k for k in steps}
    if made.op == "sub" and second is loop.index:
        return {constant - k for k in steps}
    return None


def _rows_written_before(init, defs, uses) -> tuple:
    """(the ``zeros`` statement, the rows written into it at constant indices) when the loop's initial value
    ``init`` is a fresh ``zeros`` buffer read only by the row writes that lead to ``init``; (None, ...) else."""
    written: set = set()
    while isinstance(init, ir.Var) and uses.get(id(init)) == 1:
        made = defs.get(id(init))
        if made is None:
            break
        if made.op == "zeros" and None not in made.targets[0].aval.shape and made.targets[0].aval.shape:
            return made, written
        index = made.args[1] if made.op == "row_set_in_place" else None
        if not (isinstance(index, ir.Const) and type(index.value) is int):
            break
        written.add(index.value)
        init = made.args[0]
    return None, written


def _exact(stmt) -> bool:
    """An exactly rounded ufunc of one result, without casts, not planned into the workspace."""
    return (isinstance(stmt, ir.Apply) and len(stmt.targets) == 1 and _is_ufunc_op(stmt.op)
            and any(f in _EXACT_UFUNCS for f in op_table()[stmt.op].numpy)
            and stmt.operand_cast is None and stmt.result_cast is None and not stmt.workspace)


def _chain(row: ir.Apply, body: list, defs: dict) -> list:
    """The statements of ``body`` (the loop body itself) that write the value ``row`` writes, first first: its
    exactly rounded producer and, while one writes into an operand's buffer, the statement making that operand;
    empty when the value is made otherwise, or its row index only after its first statement."""
    value = row.args[2]
    in_body = {id(s) for s in body}
    chain = []
    while isinstance(value, ir.Var):
        made = defs.get(id(value))
        if made is None or id(made) not in in_body or not _exact(made):
            return []
        chain.append(made)
        if not (isinstance(made.into, ir.Var) and any(a is made.into for a in made.args)):
            break
        value = made.into
    chain.reverse()
    index = row.args[1]
    if not chain or not row.args[2].aval.shape:   # a row of a 1-D buffer is a NumPy scalar, no view to write into
        return []
    if isinstance(index, ir.Var):
        position = {id(s): k for k, s in enumerate(body)}
        made = next((s for s in body if isinstance(s, ir.Apply) and index in s.targets), None)
        if made is not None and position[id(made)] > position[id(chain[0])]:
            return []
    return chain


def _stays_in_step(var, readers: dict, yielded: set) -> bool:
    """Whether nothing can see ``var``'s memory after the statements of its step that read it: it is read only
    by ops that make new arrays, or by view ops whose views are such, never yielded."""
    if id(var) in yielded:
        return False
    for reader in readers.get(id(var), ()):
        if not isinstance(reader, ir.Apply):
            return False
        if reader.op in _VIEWS:
            if not all(_stays_in_step(t, readers, yielded) for t in reader.targets):
                return False
        elif not (reader.op in _READERS or reader.op in _FRESH or _is_ufunc_op(reader.op)
                  or reader.op in _ROW_WRITES and reader.args[0] is not var):
            return False
    return True


def _write_in_row(body: ir.Block, row: ir.Apply, producer: ir.Apply, namer: Namer) -> None:
    """``producer`` writes into the row ``row`` writes (a ``row_slot`` made just before it); ``row`` becomes
    ``copy_into`` that slot (nothing to copy) and ``concat_written`` (the buffer)."""
    buffer, index, value = row.args
    slot = ir.Var(value.name, value.aval)   # the value is written under the slot's name: the slot takes its name
    value.name = namer.named(f"{value.name}_row", value.aval).name
    at = next(k for k, s in enumerate(body.stmts) if s is producer)
    body.stmts.insert(at, ir.Apply((slot,), "row_slot", (buffer, index), {}, producer.loc))
    producer.into = slot
    copied = ir.Apply((namer.var(value.aval),), "copy_into", (slot, value), {}, row.loc, into=slot)
    at = next(k for k, s in enumerate(body.stmts) if s is row)
    body.stmts.insert(at, copied)
    row.op, row.args, row.static, row.into = "concat_written", (buffer, copied.targets[0]), {}, buffer
