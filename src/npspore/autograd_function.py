"""``mindspore._Function`` (MindSpore's ``mindspore.common._grad_function``): a custom autograd function with
PyTorch's form, ``forward(ctx, *args)`` and ``backward(ctx, *grad_outputs)`` as static methods, called through
``apply``.

``apply`` calls a Cell made once per function class: its ``construct`` runs ``forward`` (compiled or eager, as any
Cell), and its custom ``bprop`` runs in the Python interpreter (``bprop_debug``), where it runs ``forward`` again on
the call's inputs to rebuild the ``ctx`` (what ``save_for_backward`` kept, attributes set on it) and passes it with
the output gradients to ``backward``. ``forward`` should therefore be a function of its inputs, as autograd
functions are. A ``backward`` result of ``None`` for an input is a zero gradient.
"""
from __future__ import annotations

import inspect
from typing import Any

from .nn.cell import Cell
from .ops import functional as F

__all__ = ["_Function"]


class _FunctionCell(Cell):
    """The Cell through which ``function.apply`` runs: ``construct`` is the forward, ``bprop`` the backward."""

    def __init__(self, function: type) -> None:
        super().__init__()
        self.function = function
        self.bprop_debug = True   # backward reads the ctx forward filled: Python objects, so interpreted

    def _forward(self, ctx, args):
        function = self.function
        if function._has_setup_context:
            output = function.forward(*args)
            function.setup_context(ctx, args, output)
            return output
        return function.forward(ctx, *args)

    def construct(self, *args):
        return self._forward(self.function(), args)

    def bprop(self, *args):
        inputs, output, grad_output = args[:-2], args[-2], args[-1]
        ctx = self.function()
        self._forward(ctx, inputs)
        grad_outputs = tuple(grad_output) if isinstance(output, (tuple, list)) else (grad_output,)
        grads = self.function.backward(ctx, *grad_outputs)
        grads = tuple(grads) if isinstance(grads, (tuple, list)) else (grads,)
        if len(grads) < len(inputs):
            grads += (None,) * (len(inputs) - len(grads))
        return tuple(F.zeros_like(value) if grad is None else grad for value, grad in zip(inputs, grads))


class _Function:
    """A custom autograd function: subclass it with static ``forward(ctx, *args)`` and ``backward(ctx,
    *grad_outputs)`` (or ``forward(*args)`` and ``setup_context(ctx, inputs, output)``) and call ``apply``.

    ``ctx`` is an instance of the subclass: ``ctx.save_for_backward(*tensors)`` keeps tensors as
    ``ctx.saved_tensors``; ``mark_dirty``, ``mark_non_differentiable`` and ``set_materialize_grads`` record their
    arguments as MindSpore's do. See the module doc for how the backward is run.
    """

    _has_setup_context = False

    @staticmethod
    def forward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        """The function's value (to be overridden)."""
        raise NotImplementedError("forward function should be customized.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        """The gradients of the inputs from those of the outputs (to be overridden)."""
        raise NotImplementedError("backward function should be customized.")

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> Any:
        """Save what ``backward`` needs when ``forward`` takes no ``ctx`` (to be overridden)."""
        raise NotImplementedError("setup_context is not implemented.")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # forward's parameters after ctx, read here (on the host) so that apply binds them with plain Python
        cls._has_setup_context = cls.setup_context is not _Function.setup_context
        parameters = list(inspect.signature(cls.forward).parameters.values())
        if not cls._has_setup_context:
            parameters = parameters[1:]
        cls._forward_parameters = tuple((p.name, p.default) for p in parameters
                                        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))
        cls._npspore_cell = _FunctionCell(cls)

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run the function on ``args`` (keyword arguments bound to ``forward``'s parameters, defaults filled in
        when ``setup_context`` is defined, as MindSpore binds them).

        Raises:
            TypeError: for an argument ``forward`` does not take, or a missing one.
        """
        values = list(args)
        for name, default in cls._forward_parameters[len(args):]:
            if name in kwargs:
                values.append(kwargs.pop(name))
            elif default is not inspect.Parameter.empty and (cls._has_setup_context or kwargs):
                values.append(default)
            else:
                break
        if kwargs:
            raise TypeError(f"{cls.__name__}.forward() got an unexpected keyword argument '{next(iter(kwargs))}'")
        return cls._npspore_cell(*values)

    def save_for_backward(self, *tensors: Any) -> None:
        """Keep ``tensors`` for ``backward`` as ``saved_tensors``."""
        self.saved_tensors = tensors

    def mark_dirty(self, *args: Any) -> None:
        """Record the inputs ``forward`` modified in place (``dirty_tensors``)."""
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args: Any) -> None:
        """Record the outputs that are not differentiable (``non_differentiable``)."""
        self.non_differentiable = args

    def set_materialize_grads(self, value: bool) -> None:
        """Record whether undefined output gradients are materialised as zeros (``materialize_grads``)."""
        self.materialize_grads = value
