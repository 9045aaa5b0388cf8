"""``mindspore.mint.nn``'s layers that only hold the arguments of one ``mint.nn.functional`` function and apply
it (``ELU(alpha)``, ``LogSoftmax(dim)``, ``Unfold(kernel_size, ...)``, ``ZeroPad2d(padding)`` ...), made from one
table: each is a Cell whose ``construct(input, *more)`` returns ``function(input, *more, *arguments)``, so it
compiles and differentiates as the function does. ``inplace`` is accepted and ignored (npspore's Tensors are
values)."""
from __future__ import annotations

from typing import Any, Callable

from ... import nn
from ...common.tensor import Tensor
from ...ops import threshold as _threshold
from ..elementwise import clamp as _clamp
from . import functional as MF

_REQUIRED = object()


def _padding_function(dims: int, mode: str) -> Callable:
    """``pad(input, padding, value)`` of mode ``mode`` over the last ``dims`` dims, an int ``padding`` on every
    side."""

    def pad(input: Tensor, padding: Any, value: float = 0.0) -> Tensor:
        sides = (padding,) * (2 * dims) if isinstance(padding, int) else tuple(padding)
        return MF.pad(input, sides, mode, value if mode == "constant" else None)

    return pad


def _layer(name: str, function: Callable, arguments: tuple, doc: str) -> type:
    """A Cell class ``name`` whose constructor takes ``arguments`` (``(name, default)`` pairs, in order; the
    default ``_REQUIRED`` for none) and whose ``construct`` applies ``function`` with them."""

    class Layer(nn.Cell):
        __doc__ = doc

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__()
            kwargs.pop("inplace", None)
            if len(args) > len(arguments):
                raise TypeError(f"For '{name}', at most {len(arguments)} arguments are taken, but got {len(args)}.")
            values = list(args)
            for argument, default in arguments[len(args):]:
                value = kwargs.pop(argument, default)
                if value is _REQUIRED:
                    raise TypeError(f"For '{name}', the argument '{argument}' is required.")
                values.append(value)
            if kwargs:
                raise TypeError(f"For '{name}', unexpected arguments {sorted(kwargs)}.")
            self.arguments = tuple(values)

        def construct(self, input: Tensor, *more: Tensor) -> Any:
            """``function(input, *more, *arguments)``."""
            return function(input, *more, *self.arguments)

    Layer.__name__ = Layer.__qualname__ = name
    return Layer


_TABLE = [
    ("ELU", MF.elu, (("alpha", 1.0),), "``input`` where positive, else ``alpha * (exp(input) - 1)``."),
    ("SELU", MF.selu, (), "``scale * elu(input, alpha)`` with SELU's constants."),
    ("GLU", MF.glu, (("dim", -1),), "The first half of ``input`` along ``dim`` times the sigmoid of the second."),
    ("Hardshrink", MF.hardshrink, (("lambd", 0.5),), "``input`` where ``|input| > lambd``, else 0."),
    ("Hardsigmoid", MF.hardsigmoid, (), "``relu6(input + 3) / 6``."),
    ("Hardswish", MF.hardswish, (), "``input * relu6(input + 3) / 6``."),
    ("Hardtanh", _clamp, (("min_val", -1.0), ("max_val", 1.0)), "``input`` limited to ``[min_val, max_val]``."),
    ("Threshold", _threshold, (("threshold", _REQUIRED), ("value", _REQUIRED)),
     "``input`` where above ``threshold``, else ``value``."),
    ("LogSigmoid", MF.logsigmoid, (), "``log(sigmoid(input))``."),
    ("LogSoftmax", MF.log_softmax, (("dim", None),), "``log_softmax`` over ``dim`` (the last when None)."),
    ("PixelShuffle", MF.pixel_shuffle, (("upscale_factor", _REQUIRED),),
     "``(..., C r^2, H, W)`` rearranged to ``(..., C, H r, W r)``."),
    ("Unfold", MF.unfold, (("kernel_size", _REQUIRED), ("dilation", 1), ("padding", 0), ("stride", 1)),
     "The sliding windows of an NCHW input as columns (``mint.nn.functional.unfold``)."),
    ("Fold", MF.fold, (("output_size", _REQUIRED), ("kernel_size", _REQUIRED), ("dilation", 1), ("padding", 0),
                       ("stride", 1)), "Columns summed back into an NCHW image (``mint.nn.functional.fold``)."),
    ("AdaptiveAvgPool1d", MF.adaptive_avg_pool1d, (("output_size", _REQUIRED),),
     "The mean over ``output_size`` near-equal windows of the last dim."),
    ("AdaptiveAvgPool3d", MF.adaptive_avg_pool3d, (("output_size", _REQUIRED),),
     "The mean over near-equal windows of the last three dims."),
    ("AdaptiveMaxPool1d", MF.adaptive_max_pool1d, (("output_size", _REQUIRED), ("return_indices", False)),
     "The maximum over ``output_size`` near-equal windows of the last dim."),
    ("AvgPool1d", MF.avg_pool1d, (("kernel_size", _REQUIRED), ("stride", None), ("padding", 0),
                                  ("ceil_mode", False), ("count_include_pad", True)),
     "The mean of each window along the last dim (``stride`` defaults to ``kernel_size``)."),
    ("AvgPool3d", MF.avg_pool3d, (("kernel_size", _REQUIRED), ("stride", None), ("padding", 0),
                                  ("ceil_mode", False), ("count_include_pad", True), ("divisor_override", None)),
     "The mean of each window of the last three dims (``stride`` defaults to ``kernel_size``)."),
    ("MaxUnpool2d", MF.max_unpool2d, (("kernel_size", _REQUIRED), ("stride", None), ("padding", 0)),
     "``construct(input, indices)``: the inverse of ``max_pool2d``."),
    ("KLDivLoss", MF.kl_div, (("reduction", "mean"), ("log_target", False)),
     "``construct(input, target)``: the Kullback-Leibler divergence, reduced."),
    ("BCELoss", MF.binary_cross_entropy, (("weight", None), ("reduction", "mean")),
     "``construct(input, target)``: the binary cross entropy of probabilities, weighted, reduced."),
]
for _dims in (1, 2, 3):
    _TABLE += [
        (f"ZeroPad{_dims}d", _padding_function(_dims, "constant"), (("padding", _REQUIRED),),
         f"Zeros padded around the last {_dims} dims (an int: on every side)."),
        (f"ConstantPad{_dims}d", _padding_function(_dims, "constant"), (("padding", _REQUIRED), ("value", _REQUIRED)),
         f"``value`` padded around the last {_dims} dims (an int: on every side)."),
        (f"ReflectionPad{_dims}d", _padding_function(_dims, "reflect"), (("padding", _REQUIRED),),
         f"The last {_dims} dims padded with their reflection, the edge not repeated."),
    ]

for _name, _function, _arguments, _doc in _TABLE:
    globals()[_name] = _layer(_name, _function, _arguments, _doc)

__all__ = [entry[0] for entry in _TABLE]
