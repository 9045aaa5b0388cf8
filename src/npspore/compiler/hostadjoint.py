"""Derivatives of the calls a gradient kernel makes out of itself into Python (``host_call``).

Part of the differentiate stage. A program calls Python out of its kernel in three ways: the first and the
last come from ``differentiate``'s backward of a cell with a custom backward (``ir.CustomBackward``), so they
are met by a gradient that is differentiated again (``grad(grad(f))``):

* a backward (pre-)hook: ``targets = host_call(key, *values)`` where target ``i`` replaces value
  ``i`` (a cotangent). At the next order the hook counts as passing its gradients through
  unchanged, which is exact for a hook that only looks (returns None), as MindSpore's hooks mostly do;
* a function of the library registered with its adjoint (``ops.imag``, ``ops.angle``, ``ops.Complex``...): the
  adjoint, called out of the kernel too, gives the cotangents;
* a ``bprop`` run in the Python interpreter (``Cell.bprop_debug = True``): opaque, so a gradient that
  reaches it is refused at the cell's call (compile the bprop, ``bprop_debug = False``, to go on).
"""
from __future__ import annotations

from . import ir
from .errors import located, not_supported
from .library import LIBRARY


def _values(stmt: ir.Effect) -> tuple:
    return stmt.args[1:]


def _is_host_call(stmt) -> bool:
    return isinstance(stmt, ir.Effect) and stmt.kind == "host_call"


def propagate(activity, stmt) -> None:
    """Forward activity through a host call: a hook's target ``i`` depends on its value ``i``; an
    opaque call's targets on all its values."""
    if not _is_host_call(stmt):
        return
    values = _values(stmt)
    if stmt.args[0].value in LIBRARY.opaque_host_functions:
        found = frozenset().union(*(activity.dep(v) for v in values))
        if found:
            for target in stmt.targets:
                activity.deps[target] = found
        return
    for target, value in zip(stmt.targets, values):
        found = activity.dep(value)
        if found:
            activity.deps[target] = found


def mark(activity, stmt) -> None:
    """Backward usefulness through a host call (see :func:`propagate`)."""
    if not _is_host_call(stmt):
        return
    values = _values(stmt)
    if stmt.args[0].value in LIBRARY.opaque_host_functions:
        if any(t in activity.useful for t in stmt.targets):
            activity.useful.update(v for v in values if isinstance(v, ir.Var))
        return
    for target, value in zip(stmt.targets, values):
        if target in activity.useful and isinstance(value, ir.Var):
            activity.useful.add(value)


def backward(function_ad, stmt, adj: dict, builder) -> None:
    """The adjoint of a host call: a hook's cotangents pass through to the values it replaced; an
    opaque call that gets a cotangent is refused."""
    if not _is_host_call(stmt):
        return
    reached = [t for t in stmt.targets if adj.get(t) is not None]
    if not reached:
        return
    refusal = LIBRARY.underivable_host_functions.get(stmt.args[0].value)
    if refusal is not None:
        raise located(RuntimeError(refusal), stmt.loc)
    adjoint = LIBRARY.host_adjoints.get(stmt.args[0].value)
    if adjoint is not None:
        _call_adjoint(function_ad, adjoint, stmt, adj, builder)
        return
    if stmt.args[0].value in LIBRARY.opaque_host_functions:
        raise not_supported("differentiating again the gradient of a cell whose bprop runs in Python "
                            "(bprop_debug=True; set it to False to compile the bprop)", stmt.loc)
    for target, value in zip(stmt.targets, _values(stmt)):
        if adj.get(target) is not None and function_ad.active(value):
            function_ad.accumulate(adj, value, adj[target], builder, stmt.loc)


def _call_adjoint(function_ad, key: str, stmt, adj: dict, builder) -> None:
    """The cotangents of a host function registered with an adjoint: its adjoint called out of the kernel on the
    call's arguments and the results' cotangents (zeros for a result nothing read)."""
    values = _values(stmt)
    active = [i for i, v in enumerate(values) if isinstance(v, ir.Var) and function_ad.active(v)]
    if not active:
        return
    douts = tuple(adj[t] if adj.get(t) is not None else function_ad.zeros(builder, t, stmt.loc) for t in stmt.targets)
    like = tuple(values[i] for i in active)
    grads = function_ad.host_call(key, (ir.Const(tuple(active)), *values, *douts), like, builder, stmt.loc)
    for value, grad in zip(like, grads):
        function_ad.accumulate(adj, value, grad, builder, stmt.loc)


def python_bprop(function_ad, stmt, targets, douts, builder) -> dict:
    """The backward of a call of a cell whose bprop runs in Python: ``host_call`` on the tensor
    inputs, the results and their cotangents; argument position -> cotangent."""
    positions = [j for j in stmt.custom.inputs if j is not None]
    like = tuple(stmt.args[j] for j in positions)
    grads = function_ad.host_call(stmt.custom.python_bprop, like + tuple(targets) + tuple(douts), like, builder,
                                  stmt.loc)
    return dict(zip(positions, grads))
