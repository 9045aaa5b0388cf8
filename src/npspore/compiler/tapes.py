"""Loop tapes as stacked arrays: the residuals of a counted loop saved as rows, not a list of tuples.

A forward loop ``for t in range(n)`` that pushes its residuals on a tape, and the backward loop
``for i in range(n)`` in the same block that pops them (so iteration ``i`` reads step
``r = n - 1 - i``), keep each pushed value as row ``t`` of one ``(n, ...)`` buffer instead; the
backward loop reads row ``r`` of it, a view. What each pushed value becomes:

* the loop index ``t``: the popped value is ``r``; a constant, or a value made before the loop:
  that value itself;
* a row ``x[t]`` of an array made before the loop: ``x[r]`` (no copy: the batched products of
  ``loops.py`` then read ``x`` itself);
* a carried value (``h``, whose next value is the body's result ``h'``): row ``t`` of a history
  buffer of ``n + 1`` rows, whose row 0 is the initial value and row ``t + 1`` is ``h'``; a pushed
  ``h'`` is then row ``r + 1`` of the same buffer (the RNN's ``Hs``, one copy of each state);
* anything else: row ``t`` of a buffer of ``n`` rows.

The buffers start as ``zeros`` and each row is written once with ``row_set``, which optimize turns
into ``row_set_in_place`` (``buf[t] = h``) because the loop owns them. The backward
loop's rows are views of buffers nothing writes after the forward loop; the in-place pass never
writes into a view, so no other name can see a change. A tape that is pushed or popped anywhere
else (a nested block, another function, twice) stays a list.
"""
from __future__ import annotations

from ..opdef import Aval
from . import ir
from .rewrite import Namer


def stack_tapes(function: ir.Function) -> None:
    """Rewrite every tape of ``function`` that a counted loop pushes and a counted loop pops."""
    namer = Namer(function)
    uses = ir.use_counts(function)
    for block in list(ir.all_blocks(function.body)):
        for new in [s for s in block.stmts if isinstance(s, ir.TapeNew)]:
            found = _push_and_pop(block, new.target, uses)
            if found is not None and _stackable(*found):
                forward, push, backward, pop = found
                _stack(block, new, forward, push, backward, pop, namer)


def trip_count(loop: ir.ForRange):
    """``n`` for a loop ``range(0, n, 1)`` with a constant ``n >= 1``, else None."""
    start, stop, step = loop.start, loop.stop, loop.step
    if not (isinstance(start, ir.Const) and isinstance(stop, ir.Const) and isinstance(step, ir.Const)):
        return None
    if type(start.value) is not int or type(stop.value) is not int or type(step.value) is not int:
        return None
    if start.value != 0 or step.value != 1 or stop.value < 1:
        return None
    return stop.value


def reversed_index(loop: ir.ForRange):
    """The Var of ``n - 1 - index`` that :func:`stack_tapes` defined in ``loop``'s body, or None."""
    n = trip_count(loop)
    for stmt in loop.body.stmts:
        if (isinstance(stmt, ir.Apply) and stmt.op == "sub" and stmt.args[1] is loop.index
                and isinstance(stmt.args[0], ir.Const) and stmt.args[0].value == n - 1):
            return stmt.targets[0]
    return None


def _push_and_pop(block: ir.Block, tape: ir.Var, uses: dict) -> tuple | None:
    """(forward loop, push, backward loop, pop) when ``tape`` is used exactly that way, else None."""
    if uses.get(id(tape)) != 2:
        return None
    push = pop = None
    for stmt in block.stmts:
        if not (isinstance(stmt, ir.ForRange) and trip_count(stmt) is not None):
            continue
        for inner in stmt.body.stmts:
            if isinstance(inner, ir.TapePush) and inner.tape is tape and push is None:
                push = (stmt, inner)
            elif isinstance(inner, ir.TapePop) and inner.tape is tape and push is not None:
                pop = (stmt, inner)
    if push is None or pop is None or trip_count(push[0]) != trip_count(pop[0]):
        return None
    return (*push, *pop)


def _stackable(forward, push, backward, pop) -> bool:
    return len(push.values) == len(pop.targets) and all(
        isinstance(v, ir.Const) or (None not in v.aval.shape and v.aval.dtype.kind in "biuf")
        for v in push.values)


def _history_ok(forward, k) -> bool:
    """Whether carried value ``k`` can be kept as a history buffer (its versions all arrays of one type)."""
    param = forward.body_params[k]
    return all(isinstance(v, ir.Var) and v.aval == param.aval for v in (forward.carried[k], forward.body.results[k]))


def _stack(block, new, forward, push, backward, pop, namer) -> None:
    n = trip_count(forward)
    inside = {id(v) for s in ir.walk_stmts(forward.body) for v in ir.defined_vars(s)}
    inside |= {id(p) for p in forward.body_params} | {id(forward.index)}
    defs = {id(t): s for s in forward.body.stmts if isinstance(s, ir.Apply) for t in s.targets}
    params = {id(p): k for k, p in enumerate(forward.body_params)}
    results = {id(r): k for k, r in enumerate(forward.body.results) if isinstance(r, ir.Var)}
    pushed_params = {params[id(v)] for v in push.values if isinstance(v, ir.Var) and id(v) in params}

    index_aval = backward.index.aval
    r = namer.named("step", index_aval)   # the forward step the backward iteration reads
    popped = [ir.Apply((r,), "sub", (ir.Const(n - 1), backward.index), {}, pop.loc)]
    replace = {}
    before, writes, history = [], [], {}   # history: carried position -> loop output of its buffer
    carried, body_params, body_results, outputs = [], [], [], []

    def buffer(rows, value, init=None):
        """A zeros buffer of ``rows`` rows carried by the forward loop; returns (param, output)."""
        aval = Aval((rows, *value.aval.shape), value.aval.dtype)
        name = f"{value.name}_steps"
        zeros = ir.Apply((namer.named(name, aval),), "zeros", (), {"shape": aval.shape, "dtype": aval.dtype},
                         new.loc)
        before.append(zeros)
        start = zeros.targets[0]
        if init is not None:
            first = ir.Apply((namer.named(name, aval),), "row_set", (start, ir.Const(0), init), {}, new.loc)
            before.append(first)
            start = first.targets[0]
        param, output = namer.named(name, aval), namer.named(name, aval)
        carried.append(start), body_params.append(param), outputs.append(output)
        return param, output

    def write(param, row, value):
        written = ir.Apply((namer.named(param.name, param.aval),), "row_set", (param, row, value), {}, push.loc)
        writes.append(written)
        body_results.append(written.targets[0])

    def next_row(index, loc, into):
        stmt = ir.Apply((namer.named(f"{index.name}_next", index.aval),), "add", (index, ir.Const(1)), {}, loc)
        into.append(stmt)
        return stmt.targets[0]

    forward_next = backward_next = None
    for value, target in zip(push.values, pop.targets):
        if isinstance(value, ir.Const) or id(value) not in inside:
            replace[target] = value
            continue
        if value is forward.index:
            replace[target] = r
            continue
        made = defs.get(id(value))
        if made is not None and made.op == "row" and made.args[1] is forward.index \
                and isinstance(made.args[0], ir.Var) and id(made.args[0]) not in inside:
            popped.append(ir.Apply((target,), "row", (made.args[0], r), {}, pop.loc))
            continue
        k = params.get(id(value), results.get(id(value)))
        if k is not None and k in pushed_params and _history_ok(forward, k):
            if k not in history:
                param, history[k] = buffer(n + 1, forward.body_params[k], init=forward.carried[k])
                forward_next = forward_next or next_row(forward.index, push.loc, writes)
                write(param, forward_next, forward.body.results[k])
            row = r
            if id(value) not in params:   # the body's next value: one row further
                backward_next = backward_next or next_row(r, pop.loc, popped)
                row = backward_next
            popped.append(ir.Apply((target,), "row", (history[k], row), {}, pop.loc))
            continue
        param, output = buffer(n, value)
        write(param, forward.index, value)
        popped.append(ir.Apply((target,), "row", (output, r), {}, pop.loc))

    forward.carried += tuple(carried)
    forward.body_params += tuple(body_params)
    forward.outputs += tuple(outputs)
    forward.body.results += tuple(body_results)
    at = forward.body.stmts.index(push)
    forward.body.stmts[at:at + 1] = writes
    at = backward.body.stmts.index(pop)
    backward.body.stmts[at:at + 1] = popped
    ir.substitute(backward.body, replace)
    block.stmts.remove(new)
    at = block.stmts.index(forward)
    block.stmts[at:at] = before
