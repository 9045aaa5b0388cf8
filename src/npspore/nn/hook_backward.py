"""``ops.HookBackward`` and ``ops.InsertGradientOf``: tags on an intermediate value whose gradient
a function sees. ``npspore.ops`` exports both.

Each is a cell whose ``construct`` returns its input. ``HookBackward``'s backward pre-hook calls
``hook_fn`` in Python on the gradient of its output, like any backward hook (PYNATIVE only, as in
MindSpore). ``InsertGradientOf``'s ``bprop`` applies ``f`` to that gradient, so ``f`` is compiled
into the gradient, in every mode.
"""
from __future__ import annotations

from .cell import Cell

__all__ = ["HookBackward", "InsertGradientOf"]


class HookBackward(Cell):
    """``hook(x)`` returns ``x``; in a PYNATIVE gradient ``hook_fn(grad)`` runs on the tuple of the
    gradients of the output, and a non-None result replaces them.

    Args:
        hook_fn (function): ``hook_fn(grad) -> new gradient or None``.
        cell_id (str): accepted for compatibility. Default: ``""``.

    Raises:
        TypeError: If `hook_fn` is not callable.
    """

    def __init__(self, hook_fn, cell_id=""):
        super().__init__(auto_prefix=False)
        if not callable(hook_fn):
            raise TypeError(f"Expected a callable hook function, but got {type(hook_fn).__name__}.")
        self.cell_id = cell_id
        self.register_backward_pre_hook(lambda cell, grad_output: hook_fn(grad_output))

    def construct(self, *inputs):
        return inputs[0] if len(inputs) == 1 else inputs

    def __repr__(self) -> str:
        return f"Prim[HookBackward]<cell_id={self.cell_id}>"


class InsertGradientOf(Cell):
    """``insert(x)`` returns ``x``; a gradient passes ``f(dout)`` on as the gradient of ``x``.

    Args:
        f (function): ``f(dout) -> gradient``, compiled into the gradient.

    Raises:
        TypeError: If `f` is not callable.
    """

    def __init__(self, f):
        super().__init__(auto_prefix=False)
        if not callable(f):
            raise TypeError(f"For 'InsertGradientOf', the argument 'f' must be callable, but got {type(f).__name__}.")
        self.f = f

    def construct(self, x):
        return x

    def bprop(self, x, out, dout):
        return (self.f(dout),)

    def __repr__(self) -> str:
        return "Prim[InsertGradientOf]"
