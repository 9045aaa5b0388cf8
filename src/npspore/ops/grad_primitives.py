"""MindSpore's gradient primitives: ``mindspore.ops.operations._grad_ops`` (``G.SigmoidGrad()(y, dy)``,
``G.AbsGrad()(x, dout)`` ...) and the ``*Grad`` classes of ``mindspore.ops.auto_generate.gen_ops_prim``.

Each takes MindSpore's inputs in MindSpore's order (recorded from MindSpore 2.10 by
``tools/observe_mindspore_grad_primitives.py``) and is made by :func:`primitive_table.functional_primitive`
from one row of :data:`_TABLE`. A primitive given the forward op's input is npspore's vjp of that op
(:func:`_input_gradient`), so it is the op's own adjoint; one given only the forward's output ``y`` applies the
op's adjoint rule of ``codegen_templates`` where that rule reads only the output (:func:`_output_adjoint`), or
else the derivative written in ``y`` in :data:`_FROM_OUTPUT`. Every one is a composition of ops of the table:
it runs eagerly and compiled and is differentiable again.
"""
from __future__ import annotations

from typing import Any, Callable

from ..common.tensor import Tensor
from ..opdef import op_table
from . import activation_ops as act
from . import array_functional as A
from . import functional as F
from . import math_functional as M
from . import nn_functional as nnf
from .composite import GradOperation
from .eager import run
from .primitive_table import functional_primitive


def _input_gradient(forward: Callable, inputs: str, all_inputs: bool = False) -> Callable:
    """The gradient primitive's function of ``forward``: npspore's vjp of it, taking MindSpore's inputs.

    Args:
        forward (Callable): the forward op; its Tensor inputs first, then its static arguments.
        inputs (str): one letter per input of the primitive, in MindSpore's order: ``'x'`` an input of
            ``forward`` (in its order), ``'d'`` the gradient of its output, any other letter an input the
            vjp does not need (the forward's output).
        all_inputs (bool): return the gradients of every Tensor input of ``forward`` (a tuple), not only
            of the first.

    Returns:
        Callable: ``function(*inputs, **static)``; the keywords are ``forward``'s static arguments, in its order.
    """
    gradient = GradOperation(get_all=all_inputs, sens_param=True)(forward)

    def function(*args: Any, **static: Any) -> Any:
        dout = args[inputs.index("d")]
        forward_inputs = [arg for arg, kind in zip(args, inputs) if kind == "x"]
        return gradient(*forward_inputs, *static.values(), dout)

    return function


def _output_adjoint(op_name: str) -> Callable:
    """``function(y, dy)``: the adjoint rule of op ``op_name``, which reads only the forward's output ``y``."""
    rule = op_table()[op_name].adjoint

    def function(y: Tensor, dy: Tensor) -> Tensor:
        return rule(None, y, dy)

    return function


def _reciprocal_grad(y: Tensor, dy: Tensor) -> Tensor:
    """``d(1/x) = -dy * y**2`` with ``y = 1/x``."""
    return -dy * y * y


def _acosh_grad(y: Tensor, dy: Tensor) -> Tensor:
    """``d acosh(x) = dy / sinh(y)`` with ``y = acosh(x)``."""
    return dy / M.sinh(y)


def _asinh_grad(y: Tensor, dy: Tensor) -> Tensor:
    """``d asinh(x) = dy / cosh(y)`` with ``y = asinh(x)``."""
    return dy / M.cosh(y)


def _elu_grad(dy: Tensor, y: Tensor) -> Tensor:
    """``d elu(x) = dy`` where ``y > 0``, else ``dy * (y + 1)`` (``alpha = 1``, MindSpore's EluGrad)."""
    return run("where", y > 0, dy, dy * (y + 1))


def _selu_grad(dy: Tensor, y: Tensor) -> Tensor:
    """``d selu(x) = scale * dy`` where ``y > 0``, else ``dy * (y + scale * alpha)``."""
    scale = act._SELU_SCALE
    return run("where", y > 0, dy * scale, dy * (y + scale * act._SELU_ALPHA))


def _logit(x: Tensor, eps: float) -> Tensor:
    """``LogitGrad``'s forward: :func:`math_functional.logit`, not clamped when ``eps`` is negative."""
    return M.logit(x, eps)


# MindSpore name -> (function of MindSpore's inputs, constructor attributes as (attribute, default, keyword)).
_TABLE: dict[str, tuple] = {
    # elementwise, from the forward's output
    "SigmoidGrad": (_output_adjoint("sigmoid"), ()),
    "TanhGrad": (_output_adjoint("tanh"), ()),
    "SqrtGrad": (_output_adjoint("sqrt"), ()),
    "RsqrtGrad": (_output_adjoint("rsqrt"), ()),
    "ReciprocalGrad": (_reciprocal_grad, ()),
    "InvGrad": (_reciprocal_grad, ()),
    "AcoshGrad": (_acosh_grad, ()),
    "AsinhGrad": (_asinh_grad, ()),
    "EluGrad": (_elu_grad, ()),
    "SeluGrad": (_selu_grad, ()),
    # elementwise, from the forward's input
    "ReluGrad": (_input_gradient(F.relu, "dx"), ()),
    "AbsGrad": (_input_gradient(F.abs, "xd"), ()),
    "ACosGrad": (_input_gradient(M.acos, "xd"), ()),
    "AsinGrad": (_input_gradient(M.asin, "xd"), ()),
    "AtanGrad": (_input_gradient(M.atan, "xd"), ()),
    "ReLU6Grad": (_input_gradient(A.relu6, "dx"), ()),
    "SoftplusGrad": (_input_gradient(F.softplus, "dx"), ()),
    "FastGeLUGrad": (_input_gradient(act.fast_gelu, "dx"), ()),
    "HSigmoidGrad": (_input_gradient(nnf.hardsigmoid, "dx"), ()),
    "HSwishGrad": (_input_gradient(nnf.hardswish, "dx"), ()),
    "SiLUGrad": (_input_gradient(nnf.silu, "dx"), ()),
    "HShrinkGrad": (_input_gradient(act.hardshrink, "dx"), (("lambd", 0.5, "lambd"),)),
    "SoftShrinkGrad": (_input_gradient(act.softshrink, "dx"), (("lambd", 0.5, "lambd"),)),
    "LogitGrad": (_input_gradient(_logit, "dx"), (("eps", -1.0, "eps"),)),
}

# The rows MindSpore 2.10 also generates in mindspore.ops.auto_generate.gen_ops_prim.
GENERATED = ("SigmoidGrad", "TanhGrad", "SqrtGrad", "RsqrtGrad", "ReciprocalGrad", "AcoshGrad", "AsinhGrad",
             "EluGrad", "SeluGrad", "ReluGrad", "AbsGrad", "ACosGrad", "AsinGrad", "AtanGrad", "ReLU6Grad",
             "FastGeLUGrad", "HSigmoidGrad", "HSwishGrad", "SiLUGrad", "HShrinkGrad", "SoftShrinkGrad", "LogitGrad")

__all__ = sorted(_TABLE)
globals().update({name: functional_primitive(name, function, attributes)
                  for name, (function, attributes) in _TABLE.items()})
