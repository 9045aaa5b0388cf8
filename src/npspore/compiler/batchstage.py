"""A ``vmap`` called inside code being compiled (a ``@jit`` function, a Cell's ``construct``, a function
being differentiated): the function is specialized for one sample into the program being built,
batched (``compiler.batching``) and called, so ``jit(vmap(f))`` and ``grad`` of a function that calls
``vmap`` compile to one kernel."""
from __future__ import annotations

from ..core import tree
from . import ir
from .batching import VmapError, batch_module
from .errors import located
from .gradrequest import specialize_into, add_gradient, build_abstract
from .values import TensorValue


def stage_batched(fn, grads: tuple, batches: tuple, specializer, sample_args: tuple, args: tuple, loc):
    """Stage ``vmap`` (``batches``, outermost first) of ``fn`` (or of its gradient, ``grads``) called on
    the caller's abstract ``args``; ``sample_args`` are one sample's. Returns the abstract result."""
    if any(batch.ensemble for batch in batches):
        raise located(VmapError("vmap of a CellList inside compiled code is not supported; call it from Python"), loc)
    program = specializer.program
    if grads:
        done = add_gradient(program, fn, grads, sample_args, {})
        name, captured, node = done.name, done.captured, done.tree
    else:
        name, captured, node = specialize_into(program, fn, sample_args, {})
    for batch in reversed(batches):
        batched = batch_module(ir.Module(program.functions, name), node, batch, names=program.names)
        program.functions.update(batched.functions)
        name = batched.entry
    leaves = tree.leaves(args, lambda v: isinstance(v, TensorValue))
    captured_vars = tuple(specializer.capture(obj).var for obj in captured)
    function = program.functions[name]
    targets = tuple(specializer.names.var(r.name, r.aval) for r in function.body.results)
    specializer.builder.append(ir.Call(targets, name, tuple(v.var for v in leaves) + captured_vars, loc))
    return build_abstract(node, [TensorValue(t) for t in targets])
