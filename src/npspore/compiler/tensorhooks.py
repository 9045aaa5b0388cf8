"""``Tensor.register_hook``: hooks that see (and may replace) a tensor's gradient, as in MindSpore's PYNATIVE mode.

A hook ``hook(grad) -> new gradient or None`` is registered on

* a Tensor that exists before the gradient function is called (an input, a Parameter): it is kept in
  ``kernel.TensorHooks``, and a gradient kernel compiled for a call whose inputs or weights hold hooks passes
  the gradient it returns for each such one through them, a call out of the kernel (``host_call``,
  :func:`hook_gradients`); the gradient front door keys its kernels on the hooks (``kernel.hooks_key``);
* a value computed in compiled code (``y = x * x; y.register_hook(hook)``): the uses of ``y`` after the
  registration read it through a call with a backward pre-hook (as ``ops.HookBackward``), in PYNATIVE
  gradients only; GRAPH mode and ``@jit`` ignore it, as MindSpore 2.10 does (observed: the gradient is
  unchanged there).
"""
from __future__ import annotations

import numpy as np

from . import ir
from .library import LIBRARY

__all__ = ["hook_gradients"]


def _runner(hooks):
    """The host function passing an array gradient through ``hooks`` (a non-None result replaces it)."""
    def run(grad):
        for hook in hooks:
            result = hook(LIBRARY.wrap(np.array(grad)))
            if result is not None:
                grad = LIBRARY.tensor_array(result, grad.dtype)
        return (grad,)
    return run


def hook_gradients(builder, grads: list, hooked: list, loc) -> None:
    """Pass ``grads[k]`` through the hooks for each ``(k, hooks, aval)`` of ``hooked``, calls out of the kernel
    appended by ``builder`` (the gradient entry's body)."""
    for k, hooks, aval in hooked:
        key = LIBRARY.host_function(_runner(hooks), opaque=True)
        target = builder.names.var("hooked_grad", aval)
        builder.append(ir.Effect("host_call", (ir.Const(key), grads[k]), loc, (target,)))
        grads[k] = target
