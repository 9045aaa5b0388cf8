"""Loop rewrites of optimize: loop-invariant ops hoisted; per-step matrix products made into one
product over all steps.

* hoisting invariants (:func:`hoist_invariants`): a pure op of a counted loop's body whose operands
  are all made before the loop runs once before it;
* hoisting a projection: in ``for t in range(n)``, ``row(X, t) @ W`` with ``X`` (``n`` rows) and
  ``W`` defined outside the loop is row ``t`` of ``X @ W`` computed once before the loop (one GEMM
  of ``n`` times the rows instead of ``n`` small ones; the row is a view), and a loop-invariant bias
  added to that row (``x[t] @ w + b``, or ``(x[t] @ w + y) + b``) is added to the product once;
* batching a weight gradient: an accumulator ``acc + a.T @ b`` (``a``, ``b`` per-step 2-D values,
  ``acc`` carried by the loop and read nowhere else) becomes rows ``A[t] = a``, ``B[t] = b`` of two
  stacked buffers written during the loop (``row_set``, in place once the loop owns them) and one
  ``A.T @ B`` over all steps after it (a stacked operand is shared by every accumulator reading it);
  a bias gradient ``acc + sum(b, axis=0)`` likewise becomes one sum over the rows of all steps.

A NumPy step of optimize (:func:`copy_transposed_operands`) copies a matrix that a counted loop multiplies by
transposed, ``a @ w.T`` with ``w`` made before the loop, into C order once before it: BLAS's kernel for a
transposed operand takes 1.2-3 times as long on the few rows of a recurrent step (when the steps multiply
enough rows by it to pay for the copy).

The first two need a loop ``range(0, n, 1)`` with a constant ``n``, so the loop index is the row index. A
backward loop that reads a stacked tape (``tapes.py``) writes its rows at the forward step
``r = n - 1 - i`` instead, and a per-step operand that is row ``r`` (or ``r + c``) of a buffer made
before the loop (the tape itself, or an input ``X``) is not copied: the product reads that buffer's
rows directly.
"""
from __future__ import annotations

import numpy as np

from ..opdef import Aval
from . import ir
from .rewrite import Namer, functions_with_effects, has_effects, pure
from .tapes import reversed_index, trip_count

_WRITES = ("assign", "host_call")   # a loop with such an effect (here or in a callee) keeps its statements


def batch_loop_products(module: ir.Module, function: ir.Function) -> None:
    """Apply both rewrites to every counted loop of ``function`` of ``module``, in place; not to a loop that assigns
    Parameters (itself or in a function it calls) or calls the host: a step's product reads the Parameter as that
    step left it."""
    namer = Namer(function)
    writers = functions_with_effects(module, _WRITES)
    for block in list(ir.all_blocks(function.body)):
        index = 0
        while index < len(block.stmts):
            loop = block.stmts[index]
            if (isinstance(loop, ir.ForRange) and trip_count(loop) is not None
                    and not has_effects(loop.body, writers, _WRITES)):
                block.stmts[index:index] = _hoist_projections(loop, namer, ir.use_counts(function))
                after = _batch_gradients(function, block, loop, namer)
                index = block.stmts.index(loop)
                block.stmts[index + 1:index + 1] = after
                index += len(after)
            index += 1


def hoist_invariants(module: ir.Module, function: ir.Function) -> None:
    """Move each pure op of a counted loop's body whose operands are all made before the loop to
    just before it (computed once, not once per step), in place.

    Only loops with a constant trip count of at least one (the op would have run anyway) and only
    statements of the body itself (not of a branch in it, which may not run) move; an op that draws
    random numbers, prints, or makes a fresh buffer a later pass may write into never does
    (``rewrite.pure``). Chains move together: an op reading only hoisted values is invariant too.
    A loop that assigns Parameters (itself or in a function it calls) or calls the host keeps its
    body: a Parameter read before and after an assignment is the same Var with another value.
    """
    writers = functions_with_effects(module, _WRITES)
    moved = True
    while moved:
        moved = False
        for block in list(ir.all_blocks(function.body)):
            for loop in [s for s in block.stmts if isinstance(s, ir.ForRange) and trip_count(s) is not None
                         and not has_effects(s.body, writers, _WRITES)]:
                inside = {id(v) for s in ir.walk_stmts(loop.body) for v in ir.defined_vars(s)}
                inside |= {id(v) for v in loop.body_params} | {id(loop.index)}
                hoisted = []
                for stmt in loop.body.stmts:
                    if pure(stmt) and not any(isinstance(a, ir.Var) and id(a) in inside for a in stmt.args):
                        hoisted.append(stmt)
                        inside -= {id(v) for v in stmt.targets}
                if hoisted:
                    loop.body.stmts = [s for s in loop.body.stmts if not any(s is h for h in hoisted)]
                    at = block.stmts.index(loop)
                    block.stmts[at:at] = hoisted
                    moved = True


# the rows all steps multiply by the matrix, at least, for the copy to pay: a transposed copy costs 2-5 ns an
# element, the transposed kernel 1.2-3 times the plain one's 0.05-0.1 ns a multiply-add (LSTM: 35 steps x 20 rows)
TRANSPOSED_COPY_MIN_ROWS = 128


def copy_transposed_operands(module: ir.Module, function: ir.Function) -> None:
    """Make each ``matmul(a, w, transpose_b=True)`` of a counted loop's body, ``w`` a matrix made before the
    loop and ``a`` of two or more rows (at least ``TRANSPOSED_COPY_MIN_ROWS`` over all steps), read a
    C-ordered copy of ``w.T`` made once before the loop, in place. A loop that assigns Parameters (itself or
    in a function it calls) or calls the host keeps its products: the matrix may be one it assigns."""
    namer = Namer(function)
    writers = functions_with_effects(module, _WRITES)
    for block in list(ir.all_blocks(function.body)):
        for loop in [s for s in block.stmts if isinstance(s, ir.ForRange) and trip_count(s) is not None
                     and not has_effects(s.body, writers, _WRITES)]:
            inside = {id(v) for s in ir.walk_stmts(loop.body) for v in ir.defined_vars(s)}
            inside |= {id(v) for v in loop.body_params}    # a matrix the loop carries changes every step
            copies: dict = {}
            for stmt in loop.body.stmts:
                weight = stmt.args[1] if isinstance(stmt, ir.Apply) and stmt.op == "matmul" else None
                if not (isinstance(weight, ir.Var) and id(weight) not in inside and len(weight.aval.shape) == 2
                        and stmt.static.get("transpose_b") and not stmt.static.get("transpose_a")):
                    continue
                rows = _rows(stmt.args[0])
                if rows < 2 or rows * trip_count(loop) < TRANSPOSED_COPY_MIN_ROWS:
                    continue
                if id(weight) not in copies:
                    n, k = weight.aval.shape
                    target = namer.var(Aval((k, n), weight.aval.dtype))   # naming calls it ``w_t``
                    copies[id(weight)] = ir.Apply((target,), "copy", (weight,), {"transpose": True}, stmt.loc)
                stmt.args = (stmt.args[0], copies[id(weight)].targets[0])
                stmt.static = {**stmt.static, "transpose_b": False}
            at = block.stmts.index(loop)
            block.stmts[at:at] = list(copies.values())


def _rows(operand) -> int:
    """The rows of a matrix product's left operand (0 when not known or not a matrix)."""
    shape = operand.aval.shape if isinstance(operand, ir.Var) else ()
    return int(np.prod(shape[:-1])) if len(shape) >= 2 and None not in shape else 0


def _apply(namer, op, args, aval, loc, **static) -> ir.Apply:
    return ir.Apply((namer.var(aval),), op, tuple(args), static, loc)


def _plain_matmul(stmt) -> bool:
    return (isinstance(stmt, ir.Apply) and stmt.op == "matmul" and not stmt.static.get("transpose_a")
            and not stmt.static.get("transpose_b"))


def _hoist_projections(loop: ir.ForRange, namer: Namer, uses: dict) -> list:
    n = trip_count(loop)
    inside = {id(v) for stmt in ir.walk_stmts(loop.body) for v in ir.defined_vars(stmt)}
    inside |= {id(v) for v in loop.body_params} | {id(loop.index)}
    defs = {id(t): s for s in loop.body.stmts if isinstance(s, ir.Apply) for t in s.targets}
    before = []
    for stmt in loop.body.stmts:
        if not _plain_matmul(stmt):
            continue
        row, weight = defs.get(id(stmt.args[0])), stmt.args[1]
        if not (row is not None and row.op == "row" and row.args[1] is loop.index
                and isinstance(row.args[0], ir.Var) and id(row.args[0]) not in inside
                and isinstance(weight, ir.Var) and id(weight) not in inside):
            continue
        x = row.args[0]
        if len(x.aval.shape) != 3 or x.aval.shape[0] != n or len(weight.aval.shape) != 2:
            continue
        _, batch, features = x.aval.shape
        out = stmt.targets[0].aval
        flat = _apply(namer, "reshape", (x,), Aval((n * batch, features), x.aval.dtype), stmt.loc,
                      shape=(n * batch, features))
        product = _apply(namer, "matmul", (flat.targets[0], weight), Aval((n * batch, out.shape[-1]), out.dtype),
                         stmt.loc, transpose_a=False, transpose_b=False)
        before += [flat, product]
        bias = _fold_bias(loop, stmt.targets[0], inside, uses)
        if bias is not None:   # (x[t] @ w + y) + b == ((x @ w + b)[t] + y): one add for all steps
            product = _apply(namer, "add", (product.targets[0], bias), product.targets[0].aval, stmt.loc)
            before.append(product)
        stacked = _apply(namer, "reshape", (product.targets[0],), Aval((n, batch, out.shape[-1]), out.dtype),
                         stmt.loc, shape=(n, batch, out.shape[-1]))
        before.append(stacked)
        stmt.op, stmt.args, stmt.static = "row", (stacked.targets[0], loop.index), {}
    return before


def _fold_bias(loop: ir.ForRange, projected: ir.Var, inside: set, uses: dict):
    """The loop-invariant bias ``b`` of ``projected + b`` or ``(projected + y) + b`` in ``loop``'s
    body, with that add removed from the body (its result replaced by the add's other operand, or
    by ``projected + y``); None (nothing changed) if the body adds no such bias.

    ``b`` must be a Var made before the loop, of the projection's dtype, at most 1-D and of its last
    dimension (so it broadcasts over the rows of every step alike)."""
    def reader(var):
        if uses.get(id(var)) != 1:
            return None
        for stmt in loop.body.stmts:
            if isinstance(stmt, ir.Apply) and stmt.op == "add" and var in stmt.args and stmt.targets[0].aval == var.aval:
                return stmt
        return None

    def bias_of(stmt, operand):
        other = stmt.args[1] if stmt.args[0] is operand else stmt.args[0]
        ok = (isinstance(other, ir.Var) and id(other) not in inside and other.aval.dtype == operand.aval.dtype
              and len(other.aval.shape) <= 1 and other.aval.shape in ((), operand.aval.shape[-1:]))
        return other if ok else None

    first = reader(projected)
    if first is None:
        return None
    bias, drop, keep = bias_of(first, projected), first, projected
    if bias is None:
        second = reader(first.targets[0])
        if second is None or bias_of(second, first.targets[0]) is None:
            return None
        bias, drop, keep = bias_of(second, first.targets[0]), second, first.targets[0]
    loop.body.stmts.remove(drop)
    ir.substitute(loop.body, {drop.targets[0]: keep})
    return bias


def _batch_gradients(function, block, loop: ir.ForRange, namer: Namer) -> list:
    n = trip_count(loop)
    uses = ir.use_counts(function)
    defs = {id(t): s for s in loop.body.stmts if isinstance(s, ir.Apply) for t in s.targets}
    init_defs = {id(t): s for s in block.stmts if isinstance(s, ir.Apply) for t in s.targets}
    inside = {id(v) for stmt in ir.walk_stmts(loop.body) for v in ir.defined_vars(stmt)}
    # rows go in the order of the forward steps when the body reads a stacked tape
    step = reversed_index(loop) or loop.index
    stacks: dict = {}     # id(per-step value) -> (zeros init, body param, row_set stmt, output)
    before: list = []
    after: list = []
    replace: dict = {}
    dropped: list = []
    views: dict = {}      # id(per-step value) -> the rows of a buffer made before the loop

    def rows_of_buffer(value):
        """``x`` when ``value`` is row ``step + c`` of ``x`` (made before the loop): the rows ``c:c+n``."""
        made = defs.get(id(value))
        if made is None or made.op != "row" or not isinstance(made.args[0], ir.Var) or id(made.args[0]) in inside:
            return None
        buffer, index, offset = made.args[0], made.args[1], 0
        shift = defs.get(id(index)) if isinstance(index, ir.Var) else None
        if shift is not None and shift.op == "add" and shift.args[0] is step and isinstance(shift.args[1], ir.Const):
            index, offset = step, shift.args[1].value
        if index is not step or type(offset) is not int or buffer.aval.shape[0] < offset + n:
            return None
        if buffer.aval.shape[0] == n:
            return buffer
        if id(value) not in views:
            aval = Aval((n, *buffer.aval.shape[1:]), buffer.aval.dtype)
            views[id(value)] = _apply(namer, "getitem", (buffer,), aval, loop.loc, index=slice(offset, offset + n))
            after.append(views[id(value)])
        return views[id(value)].targets[0]

    def stacked(value) -> ir.Var:
        rows = rows_of_buffer(value)
        if rows is not None:
            return rows
        if id(value) not in stacks:
            aval = Aval((n, *value.aval.shape), value.aval.dtype)
            name = f"{value.name}_steps"
            zeros = ir.Apply((namer.named(name, aval),), "zeros", (), {"shape": aval.shape, "dtype": aval.dtype},
                             loop.loc)
            param, output = namer.named(name, aval), namer.named(name, aval)
            row = ir.Apply((namer.named(name, aval),), "row_set", (param, step, value), {}, loop.loc)
            stacks[id(value)] = (zeros, param, row, output)
        return stacks[id(value)][3]

    for k, (init, param, result) in enumerate(zip(loop.carried, loop.body_params, loop.body.results)):
        accumulate = defs.get(id(result)) if isinstance(result, ir.Var) else None
        if accumulate is None or accumulate.op != "add" or uses.get(id(param)) != 1 or uses.get(id(result)) != 1:
            continue
        others = [a for a in accumulate.args if a is not param]
        if len(others) != 1 or param not in accumulate.args:
            continue
        product = defs.get(id(others[0]))
        if product is None or uses.get(id(others[0])) != 1 or product.targets[0].aval != param.aval:
            continue
        operands = product.args
        if product.op == "matmul" and product.static.get("transpose_a") and not product.static.get("transpose_b"):
            pass
        elif not (product.op == "sum" and product.static.get("axis") == (0,) and not product.static.get("keepdims")
                  and product.static.get("dtype") is None):
            continue
        if not all(isinstance(v, ir.Var) and len(v.aval.shape) == 2 and v.aval.dtype == param.aval.dtype
                   for v in operands):
            continue
        flats = [_apply(namer, "reshape", (stacked(v),), Aval((n * v.aval.shape[0], v.aval.shape[1]), v.aval.dtype),
                        loop.loc, shape=(n * v.aval.shape[0], v.aval.shape[1])) for v in operands]
        flat_vars = tuple(f.targets[0] for f in flats)
        if product.op == "sum":   # sum over the rows of every step: over the rows of all steps
            total = _apply(namer, "sum", flat_vars, param.aval, product.loc, axis=(0,), keepdims=False)
        else:
            total = _apply(namer, "matmul", flat_vars, param.aval, product.loc, transpose_a=True, transpose_b=False)
        after += flats + [total]
        zero_init = init_defs.get(id(init)) if isinstance(init, ir.Var) else None
        if zero_init is not None and zero_init.op in ("zeros", "zeros_like") and uses.get(id(init)) == 1:
            replace[loop.outputs[k]] = total.targets[0]
            dropped.append(k)
        else:
            summed = _apply(namer, "add", (loop.outputs[k], total.targets[0]), param.aval, product.loc)
            after.append(summed)
            replace[loop.outputs[k]] = summed.targets[0]
        loop.body.stmts = [s for s in loop.body.stmts if s is not accumulate and s is not product]
        results = list(loop.body.results)
        results[k] = param
        loop.body.results = tuple(results)
    if not replace:
        return after
    keep = [k for k in range(len(loop.carried)) if k not in dropped]
    loop.carried = tuple(loop.carried[k] for k in keep) + tuple(s[0].targets[0] for s in stacks.values())
    loop.body_params = tuple(loop.body_params[k] for k in keep) + tuple(s[1] for s in stacks.values())
    loop.body.results = tuple(loop.body.results[k] for k in keep) + tuple(s[2].targets[0] for s in stacks.values())
    loop.outputs = tuple(loop.outputs[k] for k in keep) + tuple(s[3] for s in stacks.values())
    loop.body.stmts += [s[2] for s in stacks.values()]
    index = block.stmts.index(loop)
    block.stmts[index:index] = [s[0] for s in stacks.values()]
    tail = ir.Block(block.stmts[index + len(stacks) + 1:], block.results)
    ir.substitute(tail, replace)
    block.stmts[index + len(stacks) + 1:] = tail.stmts
    block.results = tail.results
    return after
