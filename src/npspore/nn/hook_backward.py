"""``ops.HookBackward``: a tag on an intermediate value whose gradient a Python function sees.

It is a cell whose ``construct`` returns its inputs and whose backward pre-hook calls ``hook_fn``
on the gradient of its output, so compiled gradients call it like any backward hook (PYNATIVE only;
MindSpore supports it only in PYNATIVE mode). ``npspore.ops`` exports it.
"""
from __future__ import annotations

from .cell import Cell

__all__ = ["HookBackward"]


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
