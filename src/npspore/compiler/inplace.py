"""In-place updates: an op writes its result into the buffer of an operand that dies at it, or
into a buffer of the same shape and dtype that died before it.

``d = a + b`` where ``a`` is read nowhere after this statement becomes ``a += b`` (``Apply.into``
names the operand; codegen renders ``+=``/``-=``/``*=``/``/=`` or the ufunc with ``out=``, and the
result keeps the operand's name). An operand qualifies when

* the op is elementwise (its lowering is a NumPy ufunc) and the result has the operand's shape and
  dtype;
* the operand's buffer is private to the function: it was made by an op that always returns a new
  array (a ufunc, ``matmul``, ``zeros``, the max-pool adjoint...), or by a call whose callee hands that
  result over whole (``Function.owned_results``), or it is a parameter every caller hands over at its last
  use (``Function.donated``; both ``donation.py``), it is read only by such ops or by reductions (never by
  an op that could return a view of it, a call, a tape push or a yield), and it is not another input, a
  Parameter or a result;
* this statement is its last read in the block that defines it and no statement outside that block
  reads it (an adjoint branch may read a forward branch's values), or it is a loop's carried value
  that the loop owns (its initial value is such a private buffer read only by the loop, the body
  reads it only here, and the next iteration's value is a private buffer of the body too): the
  gradient accumulators of a backward loop become ``d_w += ...``.

When no operand qualifies, a buffer of the result's shape and dtype that qualified the same way at
an earlier statement of the block (read there for the last time, and not written into) is used:
``np.exp(x, out=t)``, the result again under the buffer's name. Two same-shaped temporaries whose
lifetimes do not overlap so share one buffer, and a kernel allocates no more large arrays than a
careful person would.
"""
from __future__ import annotations

import numpy as np

from ..opdef import op_table
from . import ir

# ops that always return a new array (besides those lowered to a ufunc)
_FRESH = {"matmul", "relu", "zeros", "zeros_like", "ones", "ones_like", "dot", "pow", "sigmoid", "outer_product",
          "copy"}
# ops whose result never shares memory with an operand
_READERS = {"sum", "mean", "max", "min", "amax", "amin", "prod", "dot", "matmul", "greater", "less",
            "greater_equal", "less_equal", "equal", "not_equal", "outer_product"}
# core.kernels_np's helpers whose result is (a view of) an array they make, never of an operand
_FRESH_HELPERS = {"conv2d_columns_grad", "max_pool2d_grad"}
# ops whose result may be a view of their first operand
_VIEWS = {"reshape", "row", "swapaxes", "transpose", "expand_dims", "squeeze", "broadcast_to", "flatten",
          "concat_slot", "row_slot"}
# ops written in place (their template is one ufunc call or a ``+ - * / **`` expression)
_ELEMENTWISE_EXTRA = {"relu", "pow"}


def makes_new_array(name: str) -> bool:
    """Whether op ``name`` always returns a new array (never its operand nor a view of it)."""
    return name in _READERS or name in _FRESH or _is_ufunc_op(name)


def _is_ufunc_op(name: str) -> bool:
    definition = op_table()[name]
    # gufuncs (matmul) cannot write into an operand
    return any(isinstance(f, np.ufunc) and f.signature is None for f in definition.numpy)


def update_in_place(function: ir.Function, functions: dict | None = None) -> None:
    """Mark the statements of ``function`` that can overwrite a dying operand (``Apply.into``); ``functions``
    (the module's, by name) tell which results of its calls are handed over whole (``Function.owned_results``)."""
    uses = ir.use_counts(function)
    defs: dict = {}
    readers: dict = {}
    for stmt in ir.walk_stmts(function.body):
        if isinstance(stmt, ir.Apply):
            for var in stmt.targets:
                defs[id(var)] = stmt
        for atom in ir.used_atoms(stmt):
            if isinstance(atom, ir.Var):
                readers.setdefault(id(atom), []).append(stmt)
    yielded = {id(a) for block in ir.all_blocks(function.body) for a in block.results if isinstance(a, ir.Var)}
    donated = {id(function.params[i]) for i in function.donated}
    handed = _results_handed_over(function, functions or {})
    yielded |= {id(p) for p in function.params if id(p) not in donated}

    def safe_reader(stmt) -> bool:
        """An op that cannot keep a reference to its operand, or a view op whose view is such."""
        if not isinstance(stmt, ir.Apply):
            return False
        if stmt.op in _VIEWS:
            return all(id(t) not in yielded and all(map(safe_reader, readers.get(id(t), ())))
                       for t in stmt.targets)
        return stmt.op in _READERS or _is_ufunc_op(stmt.op) or stmt.op in _FRESH

    def private(var) -> bool:
        """Made fresh here (or handed over by every caller) and read only by ops that cannot keep a view of it."""
        stmt = defs.get(id(var))
        if (id(var) not in donated and id(var) not in handed
                and (stmt is None or not (stmt.op in _FRESH or stmt.op in _FRESH_HELPERS or _is_ufunc_op(stmt.op)))):
            return False
        return all(map(safe_reader, readers.get(id(var), ())))

    owned = _owned_loop_params(function, uses, defs, readers, private)
    for block in ir.all_blocks(function.body):
        last_read = {}
        base_of: dict = {}   # id(view) -> id of the buffer it views (views made in this block)
        for index, stmt in enumerate(block.stmts):
            for var in ir.used_vars_deep(stmt):
                key = base_of.get(id(var), id(var))
                last_read[key] = index
                last_read[id(var)] = index
            if isinstance(stmt, ir.Apply) and stmt.op in _VIEWS and isinstance(stmt.args[0], ir.Var):
                for view in stmt.targets:
                    base_of[id(view)] = base_of.get(id(stmt.args[0]), id(stmt.args[0]))
        local = {id(v) for stmt in block.stmts for v in ir.defined_vars(stmt)}
        if block is function.body:
            local |= donated
        # a value defined in a branch can be read after it (the adjoint reads forward residuals), so
        # dying at its last read here also needs every reader to be inside this block
        inside = {id(stmt) for stmt in ir.walk_stmts(block)}

        def dies_at(var, index) -> bool:
            """Whether ``var``'s buffer is free after statement ``index`` of this block."""
            return (id(var) in local and last_read.get(id(var)) == index and private(var)
                    and all(id(reader) in inside for reader in readers.get(id(var), ())))

        dead: dict = {}   # aval -> buffers of this block that died at an earlier statement, not yet taken
        for index, stmt in enumerate(block.stmts):
            if (isinstance(stmt, ir.Apply) and len(stmt.targets) == 1 and stmt.into is None
                    and (_is_ufunc_op(stmt.op) or stmt.op in _ELEMENTWISE_EXTRA) and _static(stmt.targets[0])):
                target = stmt.targets[0]
                for position, atom in enumerate(stmt.args):
                    if not (isinstance(atom, ir.Var) and atom.aval == target.aval and id(atom) not in yielded):
                        continue
                    if stmt.op == "pow" and position == 1:
                        continue
                    if dies_at(atom, index) or owned.get(id(atom)) is block:
                        stmt.into = atom
                        break
                else:
                    if dead.get(target.aval):
                        stmt.into = dead[target.aval].pop()
            taken = stmt.into if isinstance(stmt, ir.Apply) else None
            for var in {id(v): v for v in ir.used_vars_deep(stmt)}.values():
                # a dead donated buffer is lent by the workspace plan, to large temporaries only: a small
                # one stays an expression (``w -= lr * m``)
                if (var is not taken and id(var) not in yielded and id(var) not in donated and _static(var)
                        and dies_at(var, index)):
                    dead.setdefault(var.aval, []).append(var)


def _results_handed_over(function: ir.Function, functions: dict) -> set:
    """Ids of the Vars that calls at the top level of ``function`` bind to results their callee hands over
    whole (``Function.owned_results``)."""
    found = set()
    for stmt in function.body.stmts:
        if isinstance(stmt, ir.Call) and stmt.callee in functions:
            owned = functions[stmt.callee].owned_results
            found |= {id(target) for position, target in enumerate(stmt.targets) if position in owned}
    return found


def _static(var) -> bool:
    """Whether ``var`` is an array of a known, non-scalar shape (a buffer worth writing into)."""
    return bool(var.aval.shape) and None not in var.aval.shape


def _owned_loop_params(function, uses, defs, readers, private) -> dict:
    """id(body param) -> loop body, for carried values whose every version is a private buffer."""
    owned = {}
    for loop in ir.walk_stmts(function.body):
        if not isinstance(loop, ir.ForRange):
            continue
        for init, param, result in zip(loop.carried, loop.body_params, loop.body.results):
            if not (isinstance(init, ir.Var) and isinstance(result, ir.Var) and result is not param):
                continue
            fresh_init = uses.get(id(init)) == 1 and private_except_loop(init, defs, readers, loop)
            made_in_body = defs.get(id(result)) in loop.body.stmts and uses.get(id(result)) == 1 \
                and private(result) if result is not None else False
            if fresh_init and uses.get(id(param)) == 1 and made_in_body:
                owned[id(param)] = loop.body
    return owned


def private_except_loop(var, defs, readers, loop) -> bool:
    stmt = defs.get(id(var))
    if stmt is None or not (stmt.op in _FRESH or _is_ufunc_op(stmt.op)):
        return False
    return all(r is loop for r in readers.get(id(var), ()))



def assign_in_place(function: ir.Function, input_avals: frozenset = frozenset()) -> None:
    """Compute a Parameter's new value in the Parameter's own array: ``m *= momentum; m += g`` rather
    than ``t = m * momentum; t += g; np.copyto(m, t)``.

    For each ``assign(p, v)`` of the function's top-level block, where ``p`` is a parameter of the
    function assigned nowhere else and ``v`` (of ``p``'s shape and dtype, not returned) is the end of
    a chain of elementwise statements writing one buffer in turn (``Apply.into``), the earliest
    statement of the chain that reads ``p`` and after which nothing but the assignment reads ``p``,
    and nothing but new arrays are computed until the assignment (no guard, print or call that
    could stop the kernel or see ``p`` early), writes into ``p`` instead; the rest of the chain
    follows it there, and the assignment copies nothing (codegen writes no line for it). ``p`` must
    be read only by ops that make new arrays (never by a view, a call or a tape), so no other value
    sees the array change earlier than ``np.copyto`` would have changed it; nor may ``p`` have the
    shape and dtype of one of the kernel's inputs (``input_avals``), which could be ``p``'s very array. No buffer of the chain
    was lent to a later temporary by :func:`update_in_place`: each but the last dies where the next
    writes into it, and the last is read by the assignment, which is not an op that makes a new array.
    """
    params = {id(p) for p in function.params}
    assigned: dict = {}
    readers: dict = {}
    for stmt in ir.walk_stmts(function.body):
        if isinstance(stmt, ir.Effect) and stmt.kind == "assign" and isinstance(stmt.args[0], ir.Var):
            assigned[id(stmt.args[0])] = assigned.get(id(stmt.args[0]), 0) + 1
        for atom in ir.used_atoms(stmt):
            if isinstance(atom, ir.Var):
                readers.setdefault(id(atom), []).append(stmt)
    returned = {id(a) for block in ir.all_blocks(function.body) for a in block.results if isinstance(a, ir.Var)}
    stmts = function.body.stmts
    index_of = {id(stmt): index for index, stmt in enumerate(stmts)}
    defined_at = {id(var): index for index, stmt in enumerate(stmts) for var in ir.defined_vars(stmt)}

    for k, stmt in enumerate(stmts):
        if not (isinstance(stmt, ir.Effect) and stmt.kind == "assign"):
            continue
        param, value = stmt.args
        if not (isinstance(param, ir.Var) and isinstance(value, ir.Var) and id(param) in params
                and assigned.get(id(param)) == 1 and value.aval == param.aval and id(value) not in returned
                and None not in param.aval.shape and param.aval not in input_avals):
            continue
        others = [r for r in readers.get(id(param), ()) if r is not stmt]
        if not all(isinstance(r, ir.Apply) and makes_new_array(r.op) for r in others) or any(id(r) not in index_of for r in others):
            continue
        last_other_read = max((index_of[id(r)] for r in others), default=-1)
        for index in reversed(_buffer_chain(value, stmts, defined_at, k)):
            writer = stmts[index]
            if index >= last_other_read and _may_write_into(writer, param) and _quiet(stmts[index + 1:k]):
                writer.into = param
                break


def _quiet(stmts) -> bool:
    """Whether ``stmts`` only compute new arrays and assign Parameters: no guard, print, call or check
    that could stop the kernel or see a Parameter holding its new value before its assignment."""
    return all(isinstance(s, ir.Effect) and s.kind in ("assign", "release")
               or isinstance(s, ir.Apply) and makes_new_array(s.op) and not op_table()[s.op].has_effects
               for s in stmts)


def _buffer_chain(value, stmts, defined_at, before) -> list:
    """Indices of the top-level statements that write ``value``'s buffer, last first: its defining
    elementwise statement and, while that one writes into an operand, the statement defining that."""
    chain = []
    var = value
    while id(var) in defined_at and defined_at[id(var)] < before:
        index = defined_at[id(var)]
        stmt = stmts[index]
        if not (isinstance(stmt, ir.Apply) and len(stmt.targets) == 1
                and (_is_ufunc_op(stmt.op) or stmt.op in _ELEMENTWISE_EXTRA)):
            break
        chain.append(index)
        if not isinstance(stmt.into, ir.Var):
            break
        var = stmt.into
    return chain


def _may_write_into(stmt: ir.Apply, param) -> bool:
    """Whether the elementwise ``stmt`` reads ``param`` where its result may overwrite it."""
    if stmt.targets[0].aval != param.aval:
        return False
    return any(atom is param and not (stmt.op == "pow" and position == 1) for position, atom in enumerate(stmt.args))
