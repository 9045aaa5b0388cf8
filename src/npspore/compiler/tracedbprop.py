"""Tracing a call of a cell with a ``bprop``: a call carrying the bprop, as compiled source stages it.

``compiler.tracing`` records a function without source as the ops its eager run executes, which
would differentiate the cell's ``construct`` and silently ignore its ``bprop`` (MindSpore uses the
bprop in ``grad``, ``jvp``, ``jacfwd``...). So a call of such a cell made while tracing is recorded
as ``compiler.custombackward`` stages it in compiled source: its ``construct`` is recorded into a
function of its own, called by an :class:`ir.Call` whose :class:`ir.CustomBackward` names the
recorded ``bprop(self, *inputs, out, dout)``. The bprop is recorded on the call's values with a
cotangent of ones; it is linear in ``dout``, and reading tensor values in it (which may depend on
dout's meaningless values) is refused.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core import tree
from . import ir
from .errors import NotSupportedError, located
from .library import LIBRARY, RECORDERS

__all__ = ["has_bprop", "record_bprop_call"]


def has_bprop(obj) -> bool:
    """Whether ``obj`` is a Cell with a custom ``bprop``."""
    return LIBRARY.is_cell(obj) and LIBRARY.cell_parts(obj).bprop is not None


def record_bprop_call(recorder, cell, args: tuple, kwargs: dict):
    """Run ``cell(*args, **kwargs)`` eagerly, recorded by ``recorder`` as a call of its construct that
    carries its bprop; returns what construct returned."""
    parts = LIBRARY.cell_parts(cell)
    loc = recorder.user_loc()
    if kwargs or any(not LIBRARY.is_tensor(a) and tree.leaves(a, LIBRARY.is_tensor) for a in args):
        raise located(NotSupportedError(
            f"keyword arguments or containers of tensors in a call of {type(cell).__name__}, whose bprop is "
            "traced (its source is not available): pass its tensors as positional arguments"), loc)
    is_tensor = [LIBRARY.is_tensor(a) for a in args]
    construct: Any = parts.construct
    inner = type(recorder)(construct, recorder.syntax_level, outer=recorder)
    value = _run(inner, construct, (cell, *_inputs(inner, args, is_tensor)), kwargs)
    function = inner.function(recorder.function_names.fresh(f"{type(cell).__name__}_construct"),
                              construct.__qualname__, value)
    recorder.functions[function.name] = function
    n_inputs = sum(is_tensor)
    call_args = tuple(recorder.atom(a) for a, tensor in zip(args, is_tensor) if tensor)
    call_args += tuple(recorder.atom(obj) for obj, _ in inner.captures.values())
    targets = tuple(recorder.names.var(r.name, r.aval) for r in function.body.results)
    call = ir.Call(targets, function.name, call_args, loc)
    for tensor, target in zip(tree.leaves(value, LIBRARY.is_tensor), targets):
        recorder.bind(tensor, target)
    call.custom = _recorded_bprop(recorder, cell, parts.bprop, args, is_tensor, value, loc)
    call.custom.inputs = tuple(range(n_inputs))
    recorder.builder.append(call)
    return value


def _inputs(inner, args, is_tensor) -> list:
    return [inner.input(a, f"arg{k}") if tensor else a for k, (a, tensor) in enumerate(zip(args, is_tensor))]


def _run(inner, fn, args: tuple, kwargs: dict):
    """``fn(*args, **kwargs)`` run eagerly, its ops recorded by ``inner``."""
    RECORDERS.append(inner)
    try:
        return fn(*args, **kwargs)
    finally:
        RECORDERS.remove(inner)


def _recorded_bprop(recorder, cell, bprop, args, is_tensor, value, loc) -> ir.CustomBackward:
    """Record ``bprop(cell, *args, out, dout)`` as a function of ``recorder``'s trace; returns the
    custom backward naming it (``ir.CustomBackward.bprop_args`` in terms of the call)."""
    inner = type(recorder)(bprop, recorder.syntax_level, outer=recorder)
    inner.in_bprop = True
    inputs = _inputs(inner, args, is_tensor)
    out = tree.tree_map(lambda t: inner.input(t, "out"), value, LIBRARY.is_tensor)
    dout = tree.tree_map(lambda t: inner.input(LIBRARY.wrap(np.ones_like(t._array)), "dout"), value,
                         LIBRARY.is_tensor)
    grads = _run(inner, bprop, (cell, *inputs, out, dout), {})
    grads = grads if isinstance(grads, tuple) else (grads,)
    if len(grads) != len(args) or not all(LIBRARY.is_tensor(g) for g, t in zip(grads, is_tensor) if t):
        raise located(TypeError(
            f"the bprop of {type(cell).__name__} must return a tuple of one tensor per input ({len(args)}), "
            f"but returned {grads!r}"), loc)
    function = inner.function(recorder.function_names.fresh(f"{type(cell).__name__}_bprop"), bprop.__qualname__,
                              tuple(g for g, tensor in zip(grads, is_tensor) if tensor))
    recorder.functions[function.name] = function
    n_inputs, n_results = sum(is_tensor), len(tree.leaves(value, LIBRARY.is_tensor))
    layout = ([("arg", j) for j in range(n_inputs)] + [("target", i) for i in range(n_results)]
              + [("dout", i) for i in range(n_results)]
              + [("var", recorder.atom(obj)) for obj, _ in inner.captures.values()])
    return ir.CustomBackward(bprop=function.name, bprop_args=tuple(layout))
