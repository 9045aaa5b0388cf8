"""Primitive classes that call one functional op, made from one table: ``TensorScatterAdd()(x, i, u)`` is
``tensor_scatter_add(x, i, u)``, ``Elu(alpha=1.0)(x)`` is ``elu(x, alpha=1.0)``.

Each row of :data:`_TABLE` names the class, the function and the constructor's attributes as ``(attribute,
default, the function's keyword)``. An attribute must have its default's type (MindSpore's TypeError
otherwise); the instance records it (``Prim[Elu]<alpha=1.0>``) and passes it to the function by keyword.
"""
from __future__ import annotations

from typing import Any, Callable

from .._checkparam import check_value_type
from . import activation_ops as act
from . import array_extra as arr
from . import functional as F
from . import grid_sample as sampling
from . import losses
from . import nn_functional as nnf
from . import scatter_ops as sc
from .primitives import Primitive


def functional_primitive(name: str, function: Callable, attributes: tuple = ()) -> type:
    """A :class:`Primitive` subclass ``name`` whose instances call ``function`` on their inputs with the
    constructor's ``attributes`` (``(attribute, default, keyword)`` triples) as keywords."""
    names = [attribute for attribute, _, _ in attributes]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        Primitive.__init__(self, name)
        if len(args) > len(attributes) or any(key not in names for key in kwargs):
            raise TypeError(f"For '{name}', the arguments are {names}, but got {len(args)} positional and "
                            f"{sorted(kwargs)}.")
        self._keywords = {}
        for position, (attribute, default, keyword) in enumerate(attributes):
            value = args[position] if position < len(args) else kwargs.get(attribute, default)
            check_value_type(attribute, value, [type(default)], name)
            self.add_prim_attr(attribute, value)
            self._keywords[keyword] = value

    def __call__(self, *inputs: Any) -> Any:
        return function(*inputs, **self._keywords)

    shown = ", ".join(f"{attribute}={default!r}" for attribute, default, _ in attributes)
    doc = f"``{name}({shown})(*inputs)``: :func:`{function.__module__}.{function.__name__}` of the inputs."
    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc,
                                     "__module__": __name__})


_TABLE: dict[str, tuple] = {
    "TensorScatterAdd": (sc.tensor_scatter_add, ()),
    "TensorScatterSub": (sc.tensor_scatter_sub, ()),
    "TensorScatterUpdate": (sc.tensor_scatter_update, ()),
    "Elu": (act.elu_alpha_one, (("alpha", 1.0, "alpha"),)),
    "PReLU": (nnf.prelu, ()),
    "Mish": (nnf.mish, ()),
    "HSigmoid": (nnf.hardsigmoid, ()),
    "Softsign": (nnf.softsign, ()),
    "SeLU": (act.selu, ()),
    "CeLU": (act.celu, (("alpha", 1.0, "alpha"),)),
    "HShrink": (act.hardshrink, (("lambd", 0.5, "lambd"),)),
    "SoftShrink": (act.softshrink, (("lambd", 0.5, "lambd"),)),
    "SparseSoftmaxCrossEntropyWithLogits": (act.sparse_softmax_cross_entropy, (("is_grad", False, "is_grad"),)),
    "KLDivLoss": (losses.kl_div, (("reduction", "mean", "reduction"),)),
    "BCEWithLogitsLoss": (losses.binary_cross_entropy_with_logits, (("reduction", "mean", "reduction"),)),
    "Tril": (arr.tril, (("diagonal", 0, "diagonal"),)),
    "Triu": (arr.triu, (("diagonal", 0, "diagonal"),)),
    "NonZero": (arr.nonzero, ()),
    "MaskedSelect": (F.masked_select, ()),
    "StopGradient": (F.stop_gradient, ()),
    "FastGeLU": (act.fast_gelu, ()),
    "SiLU": (nnf.silu, ()),
    "Dense": (nnf.dense, ()),
    "TransposeView": (F.transpose, ()),
    "TransposeExtView": (arr.swapaxes, ()),
    "Unique": (arr.unique_1d, ()),
    "RmsNorm": (act.rms_norm, (("epsilon", 1e-6, "epsilon"),)),
    "TensorScatterElements": (sc.tensor_scatter_elements, (("axis", 0, "axis"), ("reduction", "none", "reduction"))),
    "GridSampler2D": (sampling.grid_sample, (("interpolation_mode", "bilinear", "mode"),
                                             ("padding_mode", "zeros", "padding_mode"),
                                             ("align_corners", False, "align_corners"))),
}

__all__ = sorted(_TABLE)
globals().update({name: functional_primitive(name, function, attributes)
                  for name, (function, attributes) in _TABLE.items()})
