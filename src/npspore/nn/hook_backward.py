"""``ops.HookBackward`` and ``ops.InsertGradientOf``: tags on an intermediate value whose gradient
a function sees. ``npspore.ops`` exports both.

Each is a cell whose ``construct`` returns its input. ``HookBackward``'s backward pre-hook calls
``hook_fn`` in Python on the gradient of its output, like any backward hook (PYNATIVE only, as in
MindSpore). ``InsertGradientOf``'s ``bprop`` applies ``f`` to that gradient, so ``f`` is compiled
into the gradient, in every mode. ``Tensor.register_hook`` (:func:`register_hook`) tags a value of compiled
code with a cell like ``HookBackward`` (see ``compiler.tensorhooks``).
"""
from __future__ import annotations

from ..compiler.errors import NotSupportedError, located
from ..compiler.kernel import HookHandle, TensorHooks
from ..compiler.library import LIBRARY
from .cell import Cell

__all__ = ["HookBackward", "InsertGradientOf", "register_hook"]


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


class _TensorHook(Cell):
    """The tag a ``y.register_hook(hook)`` in compiled code puts on ``y``: its backward pre-hook passes the
    gradient of ``y`` through ``hook`` (PYNATIVE gradients only, as in MindSpore)."""

    def __init__(self, hook):
        super().__init__(auto_prefix=False)
        self.register_backward_pre_hook(lambda cell, grad_output: _replacing(hook(grad_output[0])))

    def construct(self, x):
        return x


def _replacing(grad):
    return None if grad is None else (grad,)


def register_hook(self, hook):
    """Register ``hook(grad) -> new gradient or None`` on this Tensor, run in PYNATIVE gradients.

    On a Tensor that exists when a gradient function is called (an input, a Parameter) the hook sees the
    gradient computed for it; in compiled code (a ``construct`` a gradient differentiates) it sees the
    gradient of the value, through the uses after the registration. GRAPH mode and ``@jit`` ignore hooks
    of values computed there, as MindSpore does.

    Args:
        hook (function): ``hook(grad) -> Tensor or None``; a Tensor returned replaces the gradient.

    Returns:
        A handle whose ``remove()`` unregisters the hook.

    Raises:
        TypeError: If `hook` is not callable.
    """
    if not callable(hook):
        raise TypeError(f"Expected a callable hook function, but got {type(hook).__name__}.")
    return _REGISTER(self, hook)


class _Register:
    """``_REGISTER(tensor, hook)``: kept on a Tensor (``compiler.kernel.TensorHooks``); staged in compiled code by
    :func:`_stage_register`."""

    def __call__(self, tensor, hook):
        return TensorHooks.add(tensor, hook)


def _stage_register(register, specializer, args, kwargs, loc):
    """In compiled code: the later uses of the value read it through a :class:`_TensorHook` call (PYNATIVE
    gradients), or nothing (GRAPH mode, ``@jit``)."""
    tensor, hook = args
    if hasattr(hook, "as_python"):   # a lambda made in compiled code: run in Python by the backward pass
        hook = hook.as_python()
        if hook is None:
            raise located(NotSupportedError("a hook made in compiled code that is a nested def or reads a tensor "
                                            "value of it (define it outside the compiled function)"), loc)
    if any(tensor is captured for _, captured in specializer.captures.values()):
        raise located(NotSupportedError("Tensor.register_hook on a Parameter or Tensor that compiled code reads "
                                        "(register it before calling the gradient function)"), loc)
    if specializer.program.backward_hooks and not isinstance(tensor, LIBRARY.tensor_type):
        tensor.var = specializer._call_cell(_TensorHook(hook), (tensor,), {}, None, None).var
    return HookHandle(None, hook)


LIBRARY.register_stager(_Register, _stage_register)
_REGISTER = _Register()
