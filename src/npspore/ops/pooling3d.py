"""3-D pooling, as ``mindspore.ops``: ``max_pool3d``, ``avg_pool3d`` and the primitives ``MaxPool3D`` and
``AvgPool3D``, over ``(N, C, D, H, W)`` Tensors.

A 3-D window's maximum is the maximum over its depth of the 2-D windows' maxima, and its sum the sum
of their sums; so each pooling is two 2-D poolings of the op table (``max_pool2d``/``sum_pool2d``):
over ``(H, W)`` with the depth folded into the channels, then over ``(D, H*W)`` with a ``(kd, 1)``
window. They carry their own adjoints, so the 3-D poolings run eagerly and compiled and
differentiate as those do (a maximum's gradient goes to the first maximum in ``(d, h, w)`` order).
"""
from __future__ import annotations

from ..common.tensor import Tensor, _np_dtype
from .eager import run
from .array_functional import gather_d
from .nn_functional import _ceil_padding, _int_tuple, _max_pool, _same_padding
from .primitives import Primitive

__all__ = ["max_pool3d", "avg_pool3d", "MaxPool3D", "AvgPool3D"]


def _check_input(x, prim: str) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{prim}', the 'x' must be a Tensor, but got {type(x).__name__}.")
    if len(x.shape) != 5:
        raise ValueError(f"For primitive[{prim}], the x_rank must be equal to 5, but got {len(x.shape)}.")


def _pads(padding, fn_name: str) -> tuple[int, ...]:
    """An int, a 3-tuple (both sides of D, H, W) or a 6-tuple ``(head, tail, top, bottom, left,
    right)`` as the 6-tuple."""
    if isinstance(padding, int) and not isinstance(padding, bool):
        padding = (padding,) * 6
    elif isinstance(padding, (tuple, list)) and len(padding) == 3:
        padding = (padding[0], padding[0], padding[1], padding[1], padding[2], padding[2])
    if (not isinstance(padding, (tuple, list)) or len(padding) != 6
            or not all([isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in padding])):
        raise ValueError(f"For '{fn_name}', the 'padding' must be a non-negative int or a tuple of 3 or 6 of them, "
                         f"but got {padding}.")
    return tuple(padding)


def _window_pads(x, mode, explicit, kernel, stride, dilation, ceil_mode):
    """The 6-tuple padding a pooling applies: MindSpore's ``'same'`` padding, or ``explicit`` grown
    at the end of each dim so that a partial last window counts (``ceil_mode``)."""
    if mode == "same":
        pads = ()
        for i in range(3):
            pads += _same_padding(x.shape[2 + i], kernel[i], stride[i], dilation[i])
        return pads
    if not ceil_mode:
        return explicit
    pads = ()
    for i in range(3):
        pads += _ceil_padding(x.shape[2 + i], kernel[i], stride[i], explicit[2 * i:2 * i + 2], dilation[i])
    return pads


def _separable(x, op, kernel, stride, pads, dilation):
    """The 2-D pooling ``op`` over ``(H, W)`` and then over ``D`` of ``x (N, C, D, H, W)``."""
    n, c, d, h, w = x.shape
    planes = run(op, run("reshape", x, shape=(n, c * d, h, w)), kernel_size=kernel[1:], stride=stride[1:],
                 padding=pads[2:], dilation=dilation[1:])
    oh, ow = planes.shape[2], planes.shape[3]
    depth = run(op, run("reshape", planes, shape=(n, c, d, oh * ow)), kernel_size=(kernel[0], 1),
                stride=(stride[0], 1), padding=(pads[0], pads[1], 0, 0), dilation=(dilation[0], 1))
    return run("reshape", depth, shape=(n, c, depth.shape[2], oh, ow))


def _max_pool3d(x, kernel, stride, pads, dilation, return_indices=False):
    """Max pooling; with ``return_indices`` also the flat index, into each ``(D, H, W)`` volume of
    ``x``, of each window's first maximum (int64), as MindSpore returns it."""
    if not return_indices:
        return _separable(x, "max_pool2d", kernel, stride, pads, dilation)
    n, c, d, h, w = x.shape
    planes, plane_index = _max_pool(run("reshape", x, shape=(n, c * d, h, w)), kernel[1:], stride[1:], "pad",
                                    pads[2:], dilation[1:], False, "max_pool3d", True)
    oh, ow = planes.shape[2], planes.shape[3]
    # the window over the depth is (kd, 1): the index into each (D, OH*OW) plane is depth * OH*OW + column
    out, depth_index = _max_pool(run("reshape", planes, shape=(n, c, d, oh * ow)), (kernel[0], 1), (stride[0], 1),
                                 "pad", (pads[0], pads[1], 0, 0), (dilation[0], 1), False, "max_pool3d", True)
    depth = depth_index // (oh * ow)
    within = gather_d(run("reshape", plane_index, shape=(n, c, d, oh * ow)), 2, depth)
    shape = (n, c, out.shape[2], oh, ow)
    return run("reshape", out, shape=shape), run("reshape", depth * (h * w) + within, shape=shape)


def _avg_pool3d(x, kernel, stride, pads, counted, divisor_override):
    """Window sums of ``x`` padded by ``pads``, over ``divisor_override``, or over the count of each
    window's elements that are the input's or its padding ``counted`` (a 6-tuple within ``pads``)."""
    sums = _separable(x, "sum_pool2d", kernel, stride, pads, (1, 1, 1))
    if divisor_override:
        return sums / divisor_override
    shape = (1, 1) + tuple([x.shape[2 + i] + counted[2 * i] + counted[2 * i + 1] for i in range(3)])
    uncounted = tuple([pads[i] - counted[i] for i in range(6)])
    ones = run("ones", shape=shape, dtype=_np_dtype(x.dtype))
    return sums / _separable(ones, "sum_pool2d", kernel, stride, uncounted, (1, 1, 1))


def _counted(explicit, count_include_pad):
    """The padding counted in a window's divisor: the explicit (or ``'same'``) padding when
    ``count_include_pad``, never the ceil-mode extension."""
    return explicit if count_include_pad else (0,) * 6


def max_pool3d(x: Tensor, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
               return_indices: bool = False) -> Tensor:
    """3-D max pooling of ``x (N, C, D, H, W)``, padded with ``-inf``; ``stride`` defaults to
    ``kernel_size``.

    Args:
        kernel_size, stride, dilation (Union[int, tuple[int]]): one for all dims, or ``(d, h, w)``.
        padding (Union[int, tuple[int]]): both sides of every dim, or of each of ``(d, h, w)``.
        ceil_mode (bool): a partial last window counts.
        return_indices (bool): also return the int64 flat index, into each ``(D, H, W)`` volume of
            ``x``, of each window's first maximum.

    Raises:
        ValueError: for a non-5-D ``x`` or bad sizes or padding.
    """
    _check_input(x, "max_pool3d")
    kernel = _int_tuple(kernel_size, 3, "kernel_size", "max_pool3d")
    stride = kernel if stride is None else _int_tuple(stride, 3, "stride", "max_pool3d")
    dilation = _int_tuple(dilation, 3, "dilation", "max_pool3d")
    explicit = _pads(padding, "max_pool3d")
    pads = _window_pads(x, "pad", explicit, kernel, stride, dilation, ceil_mode)
    return _max_pool3d(x, kernel, stride, pads, dilation, return_indices)


def avg_pool3d(input_x: Tensor, kernel_size=1, stride=1, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int = 0) -> Tensor:
    """3-D average pooling of ``input_x (N, C, D, H, W)`` with zero ``padding`` (an int, or a 6-tuple
    ``(head, tail, top, bottom, left, right)``).

    Args:
        count_include_pad (bool): whether the padding counts in each window's divisor.
        divisor_override (int): the divisor of every window, when not 0.

    Raises:
        ValueError: for a non-5-D ``input_x`` or bad sizes or padding.
    """
    _check_input(input_x, "avg_pool3d")
    kernel = _int_tuple(kernel_size, 3, "kernel_size", "avg_pool3d")
    stride = _int_tuple(stride, 3, "stride", "avg_pool3d")
    explicit = _pads(padding, "avg_pool3d")
    pads = _window_pads(input_x, "pad", explicit, kernel, stride, (1, 1, 1), ceil_mode)
    return _avg_pool3d(input_x, kernel, stride, pads, _counted(explicit, count_include_pad), divisor_override)


def _ncdhw(value):
    """An int or ``(d, h, w)`` as MindSpore records it: ``(1, 1, d, h, w)``."""
    if isinstance(value, int):
        return (1, 1, value, value, value)
    if len(value) == 3:
        return (1, 1) + tuple(value)
    return tuple(value)


class _Pool3D(Primitive):
    """The constructor arguments and checks both 3-D pooling primitives share."""

    _pad_name = ""
    _pad_mode_shown = ""

    def __init__(self, kernel_size, strides, pad_mode, pad, ceil_mode, data_format):
        super().__init__(type(self).__name__)
        mode = pad_mode.upper() if isinstance(pad_mode, str) else pad_mode
        if mode not in ("VALID", "SAME", "PAD"):
            raise ValueError(f"For '{self.name}', the 'pad_mode' must be str and must be in "
                             f"'['VALID', 'SAME', 'PAD']', but got '{mode}'.")
        if data_format != "NCDHW":
            raise ValueError(f"For '{self.name}', the 'data_format' must be 'NCDHW', but got {data_format}.")
        explicit = _pads(pad, self.name)
        if mode != "PAD" and explicit != (0,) * 6:
            shown = explicit if self._pad_name == "pad" else pad   # as MindSpore's two messages show it
            raise ValueError(f"For '{self.name}', the '{self._pad_name}' must be zero or (0, 0, 0, 0, 0, 0) when "
                             f"'pad_mode' is not \"{self._pad_mode_shown}\", but got '{self._pad_name}' is {shown} and "
                             f"'pad_mode' is {pad_mode}.")
        self.kernel = _int_tuple(_ncdhw(kernel_size)[2:], 3, "kernel_size", self.name)
        self.stride = _int_tuple(_ncdhw(strides)[2:], 3, "strides", self.name)
        self.mode, self.explicit, self.ceil_mode = mode.lower(), explicit, bool(ceil_mode)
        self.add_prim_attr("kernel_size", (1, 1) + self.kernel).add_prim_attr("strides", (1, 1) + self.stride)
        self.add_prim_attr("pad_mode", mode)

    def _window_pads(self, x, dilation=(1, 1, 1)):
        return _window_pads(x, self.mode, self.explicit, self.kernel, self.stride, dilation, self.ceil_mode)


class MaxPool3D(_Pool3D):
    """``MaxPool3D(kernel_size=1, strides=1, pad_mode='VALID', pad_list=0, ceil_mode=None)(x)``: 3-D max
    pooling of ``x (N, C, D, H, W)``; ``pad_list`` is an int or ``(head, tail, top, bottom, left, right)``."""

    _pad_name = "pad_list"
    _pad_mode_shown = "pad"

    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID", pad_list=0, ceil_mode=None, data_format="NCDHW"):
        super().__init__(kernel_size, strides, pad_mode, pad_list, ceil_mode, data_format)
        self.add_prim_attr("pad_list", self.explicit).add_prim_attr("ceil_mode", int(self.ceil_mode))
        self.add_prim_attr("data_format", data_format)

    def __call__(self, x):
        _check_input(x, self.name)
        return _max_pool3d(x, self.kernel, self.stride, self._window_pads(x), (1, 1, 1))


class AvgPool3D(_Pool3D):
    """``AvgPool3D(kernel_size=1, strides=1, pad_mode='valid', pad=0, ceil_mode=False, count_include_pad=True,
    divisor_override=0)(x)``: 3-D average pooling of ``x (N, C, D, H, W)``; ``count_include_pad`` counts the
    ``'same'`` padding too."""

    _pad_name = "pad"
    _pad_mode_shown = "PAD"

    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", pad=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=0, data_format="NCDHW"):
        super().__init__(kernel_size, strides, pad_mode, pad, ceil_mode, data_format)
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override
        self.add_prim_attr("pad", pad).add_prim_attr("ceil_mode", self.ceil_mode)
        self.add_prim_attr("count_include_pad", count_include_pad).add_prim_attr("divisor_override", divisor_override)
        self.add_prim_attr("data_format", data_format).add_prim_attr("pad_list", self.explicit)

    def __call__(self, x):
        _check_input(x, self.name)
        pads = self._window_pads(x)
        explicit = pads if self.mode == "same" else self.explicit
        return _avg_pool3d(x, self.kernel, self.stride, pads, _counted(explicit, self.count_include_pad),
                           self.divisor_override)
