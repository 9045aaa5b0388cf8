"""Cells and primitives that say how they are differentiated: a ``bprop``, PYNATIVE backward hooks,
``recompute()``.

Part of the specialize stage. A call of such a cell is staged as a real :class:`ir.Call` of its
construct (never inlined) carrying an :class:`ir.CustomBackward`, which ``differentiate`` reads:

* ``bprop(self, *inputs, out, dout)`` is specialized here into a function of its own; the backward
  sweep calls it instead of differentiating construct. It is ordinary IR, so a gradient of the
  gradient differentiates the bprop's body (MindSpore's second order of a bprop cell).
  With ``bprop_debug = True`` it is not compiled: the backward sweep calls it in the Python
  interpreter (``rt.host_call``) on Tensors, as MindSpore documents, so it may use anything Python
  can (``asnumpy()``, NumPy, ``print`` of values); such a gradient cannot be differentiated again.
* backward pre-hooks and hooks become host functions (``Library.host_function``) that the backward
  sweep calls out of the kernel (``rt.host_call``) on the cotangents of the cell's results, and on
  those of its inputs. They run only in gradients compiled for PYNATIVE ``grad`` calls; in GRAPH
  mode and under ``@jit`` they take no effect, as MindSpore documents, and a warning says so once
  per compile.
* ``recompute()``: the backward of the call runs the cell's forward again (gradient checkpointing).
  A primitive's ``recompute()`` (``ops.ReLU().recompute()``) does the same for one op: its call is
  staged as a call of its own and its backward computes the op's output again from its inputs,
  rather than keeping it from the forward sweep.
"""
from __future__ import annotations

import warnings

import numpy as np

from ..core import tree
from . import ir
from .errors import not_supported
from .library import LIBRARY
from .values import TensorValue, flatten_abstract


def needs_custom_backward(program, cell, parts) -> bool:
    """Whether a call of ``cell`` must carry a :class:`ir.CustomBackward` in ``program``."""
    if parts.backward_pre_hook is None and parts.backward_hook is None:
        return parts.bprop is not None or parts.recompute
    if not program.backward_hooks:
        if not program.warned_backward_hooks:
            program.warned_backward_hooks = True
            warnings.warn(f"the backward hooks of {type(cell).__name__} take no effect in GRAPH mode or under "
                          "@jit (as in MindSpore); they were skipped", stacklevel=2)
        return parts.bprop is not None or parts.recompute
    return True


def attach_custom_backward(spec, cell, parts, inputs, output, loc) -> None:
    """Mark the call of ``cell`` just staged by ``spec`` (the last statement of its block) with its
    custom backward: ``inputs`` are the cell's positional inputs, ``output`` its abstract result."""
    call = spec.builder.block.stmts[-1]
    assert isinstance(call, ir.Call), "a cell with a custom backward is staged as a call"
    positions, offset = [], 0
    for value in inputs:
        count = len(flatten_abstract(value)[0])
        positions.append(offset if isinstance(value, TensorValue) else None)
        offset += count
    custom = ir.CustomBackward(inputs=tuple(positions), recompute=parts.recompute)
    if parts.bprop is not None and parts.bprop_debug:
        custom.python_bprop = _python_bprop(cell, parts.bprop, inputs, output, loc)
    elif parts.bprop is not None:
        _stage_bprop(spec, cell, parts.bprop, inputs, output, call, custom, loc)
    if spec.program.backward_hooks:
        if parts.backward_pre_hook is not None:
            pre = parts.backward_pre_hook
            custom.pre_hook = LIBRARY.host_function(lambda *grad_output: pre(grad_output))
        if parts.backward_hook is not None:
            post, n_inputs = parts.backward_hook, sum(p is not None for p in positions)
            custom.hook = LIBRARY.host_function(lambda *grads: post(grads[:n_inputs], grads[n_inputs:]))
    call.custom = custom


def _python_bprop(cell, bprop, inputs, output, loc) -> str:
    """Register a host function running ``bprop(cell, *inputs, out, dout)`` in Python: it takes the
    arrays of the tensor inputs, of the results and of their cotangents, and returns the arrays of
    the inputs' cotangents (zeros where the bprop gives None). Returns its key."""
    if any(not isinstance(v, TensorValue) and any(map(_is_tensor_value, flatten_abstract(v)[0])) for v in inputs):
        raise not_supported("a container of tensors as an input of a cell whose bprop runs in Python "
                            "(bprop_debug=True)", loc)
    is_tensor = [isinstance(v, TensorValue) for v in inputs]
    n_inputs, n_out = sum(is_tensor), len(tree.leaves(output, _is_tensor_value))

    def run(*arrays):
        wrap = LIBRARY.wrap
        tensors = iter(arrays[:n_inputs])
        args = [wrap(next(tensors)) if tensor else value for tensor, value in zip(is_tensor, inputs)]
        outs, douts = iter(arrays[n_inputs:n_inputs + n_out]), iter(arrays[n_inputs + n_out:])
        out = tree.tree_map(lambda _: wrap(next(outs)), output, _is_tensor_value)
        dout = tree.tree_map(lambda _: wrap(next(douts)), output, _is_tensor_value)
        grads = bprop(cell, *args, out, dout)
        grads = grads if isinstance(grads, tuple) else (grads,)
        grads = [g for g, tensor in zip(grads, is_tensor) if tensor]
        return tuple(np.zeros_like(a) if g is None else np.asarray(g, dtype=a.dtype)
                     for g, a in zip(grads, arrays[:n_inputs]))

    return LIBRARY.host_function(run, opaque=True)


def _is_tensor_value(value) -> bool:
    return isinstance(value, TensorValue)


def _stage_bprop(spec, cell, bprop, inputs, output, call, custom, loc) -> None:
    """Specialize ``bprop(cell, *inputs, out, dout)`` into a function and describe its arguments
    in terms of ``call`` (its arguments, its results, their cotangents)."""
    douts = {}

    def placeholder(value):
        if isinstance(value, TensorValue):
            var = ir.Var("dout", value.aval)
            douts[var] = value.var
            return TensorValue(var)
        return value

    dout = tree.tree_map(placeholder, output, lambda v: isinstance(v, TensorValue))
    spec.program.call_function(spec, bprop, cell, (*inputs, output, dout), {}, loc)
    staged = spec.builder.block.stmts.pop()
    args = {arg: j for j, arg in enumerate(call.args) if isinstance(arg, ir.Var)}
    targets = {target: i for i, target in enumerate(call.targets)}
    layout = []
    for atom in staged.args:
        if isinstance(atom, ir.Const):
            layout.append(("const", atom.value))
        elif atom in douts:
            layout.append(("dout", targets[douts[atom]]))
        elif atom in targets:
            layout.append(("target", targets[atom]))
        elif atom in args:
            layout.append(("arg", args[atom]))
        else:
            layout.append(("var", atom))
    custom.bprop = staged.callee
    custom.bprop_args = tuple(layout)


def stage_recomputed(spec, call, primitive, args, kwargs, loc):
    """Stage ``primitive(*args, **kwargs)`` (its ``__call__`` function ``call``) as an ``ir.Call``
    whose backward recomputes it (``Primitive.recompute()``); returns the abstract result."""
    output = spec.program.call_function(spec, call, primitive, args, kwargs, loc)
    staged = spec.builder.block.stmts[-1]
    assert isinstance(staged, ir.Call), "a recomputed primitive is staged as a call"
    staged.custom = ir.CustomBackward(recompute=True, recompute_output=True)
    return output


def entry_calling(cell):
    """The function compiled as the entry of a gradient of ``cell`` when it has a ``bprop``: a call
    of the cell, so that the call carries its custom backward like a sub-cell's."""
    def call_cell(*args, **kwargs):
        return cell(*args, **kwargs)
    return call_cell
