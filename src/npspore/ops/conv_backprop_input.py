"""``Conv2DBackpropInput`` and its other name ``Conv2DTranspose``: the gradient of ``Conv2D`` with respect to its
input, given the output's gradient ``dout``, the forward weight and the forward input's size; and ``Im2Col``, the
sliding windows of an image as columns.

``pad_mode='valid'`` pads nothing, ``'pad'`` the ``pad`` (or ``pad_list``) rows and columns, ``'same'`` what the
forward ``'same'`` convolution of ``input_size`` padded (``max(0, (dout - 1) * stride + dilation * (k - 1) + 1 -
size)``, the smaller half first), as MindSpore 2.10 infers it. One op of the table (``conv2d_input_grad``,
the adjoint of ``conv2d``), so it runs eagerly and compiled and is differentiable.
"""
from __future__ import annotations

from .._checkparam import check_positive_int, check_value_type
from ..common.tensor import Tensor
from . import functional as F
from .eager import run
from .nn_primitives import _nchw
from .primitives import Primitive

__all__ = ["Conv2DBackpropInput", "Conv2DTranspose", "Im2Col"]


def _same_pads(dout: int, size: int, kernel: int, stride: int, dilation: int) -> tuple[int, int]:
    needed = max(0, (dout - 1) * stride + dilation * (kernel - 1) + 1 - size)
    return needed // 2, needed - needed // 2


class Conv2DBackpropInput(Primitive):
    """``Conv2DBackpropInput(out_channel, kernel_size, pad_mode='valid', pad=0, pad_list=None, mode=1, stride=1,
    dilation=1, group=1, data_format='NCHW')(dout, weight, input_size)``.

    Inputs:
        - **dout** (Tensor) - ``(N, C_out, H_out, W_out)``, the gradient of the convolution's output.
        - **weight** (Tensor) - ``(C_out, C_in / group, K_h, K_w)``, the convolution's weight.
        - **input_size** (tuple[int]) - ``(N, C_in, H_in, W_in)``, the shape of the result.

    Outputs:
        Tensor of shape `input_size`.

    Raises:
        ValueError: If `pad_mode` is not 'valid', 'same' or 'pad', or `pad` is not zero outside 'pad' mode.
    """

    def __init__(self, out_channel, kernel_size, pad_mode="valid", pad=0, pad_list=None, mode=1, stride=1,
                 dilation=1, group=1, data_format="NCHW"):
        super().__init__(type(self).__name__)
        self.out_channel = check_positive_int(out_channel, "out_channel", self.name)
        self.kernel_size = (kernel_size,) * 2 if isinstance(kernel_size, int) else tuple(kernel_size)
        check_value_type("pad", pad, (int, tuple), self.name)
        check_value_type("pad_mode", pad_mode, [str], self.name)
        self.pad_mode = pad_mode.lower()
        if self.pad_mode not in ("valid", "same", "pad"):
            raise ValueError(f"For '{self.name}', the 'pad_mode' must be in ['valid', 'same', 'pad'], "
                             f"but got '{pad_mode}'.")
        self.padding = (pad,) * 4 if isinstance(pad, int) else tuple(pad)
        if len(self.padding) != 4:
            raise ValueError(f"For '{self.name}', the 'pad size' must be 4, but got {len(self.padding)}.")
        if self.pad_mode != "pad" and self.padding != (0, 0, 0, 0):
            raise ValueError(f"For '{self.name}', the 'pad' must be zero or (0, 0, 0, 0) when 'pad_mode' is not "
                             f"\"pad\", but got 'pad' is {pad} and 'pad_mode' is {pad_mode}.")
        if data_format != "NCHW":
            raise ValueError(f"For '{self.name}', the 'NHWC' format is only supported in GPU target, but got the "
                             f"'data_format' is {data_format} and the platform is CPU.")
        self.stride, self.dilation = _nchw(stride), _nchw(dilation)
        self.group = check_positive_int(group, "group", self.name)
        self.pad_list = tuple(pad_list) if pad_list else None
        for name, value in (("out_channel", out_channel), ("kernel_size", self.kernel_size),
                            ("data_format", data_format), ("stride", self.stride), ("dilation", self.dilation),
                            ("pad", self.padding), ("pad_mode", self.pad_mode.upper()), ("mode", mode),
                            ("groups", group)):
            self.add_prim_attr(name, value)

    def _pads(self, dout: Tensor, input_size: tuple) -> tuple[int, int, int, int]:
        if self.pad_list and -1 not in self.pad_list:
            return self.pad_list
        if self.pad_mode == "pad":
            return self.padding
        if self.pad_mode == "valid":
            return (0, 0, 0, 0)
        kernel = self.kernel_size
        return (_same_pads(dout.shape[2], input_size[2], kernel[0], self.stride[2], self.dilation[2])
                + _same_pads(dout.shape[3], input_size[3], kernel[1], self.stride[3], self.dilation[3]))

    def __call__(self, dout: Tensor, weight: Tensor, input_size) -> Tensor:
        if isinstance(input_size, Tensor):
            input_size = tuple(input_size.asnumpy().tolist())
        if not isinstance(input_size, (tuple, list)) or len(input_size) != 4:
            raise ValueError(f"For '{self.name}', the 'input_size' must be a tuple of 4 ints, but got {input_size}.")
        input_size = tuple(input_size)
        return run("conv2d_input_grad", dout, weight, input_shape=input_size, stride=self.stride[2:],
                   padding=self._pads(dout, input_size), dilation=self.dilation[2:], groups=self.group)


class Conv2DTranspose(Conv2DBackpropInput):
    """``Conv2DTranspose``: MindSpore's other name of :class:`Conv2DBackpropInput`, the same arguments."""


def _pair(name: str, argument: str, value, positive: bool = True) -> tuple[int, int]:
    """An int or a sequence of one or two ints as (height, width), checked as MindSpore checks it."""
    check_value_type(argument, value, [int, tuple, list], name)
    pair = (value, value) if isinstance(value, int) else tuple(value)
    if len(pair) == 1:
        pair = pair * 2
    if len(pair) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) and (v > 0 if positive else v >= 0)
                                  for v in pair):
        kind = "positive" if positive else "non-negative"
        raise ValueError(f"For '{name}', the '{argument}' must be one or two {kind} ints, but got {value!r}.")
    return pair


class Im2Col(Primitive):
    """``Im2Col(ksizes, strides=1, dilations=1, pads=0)(x)``: the sliding windows of ``x (N, C, H, W)`` as columns,
    ``(N, C, KH * KW, L)`` with ``L`` the number of windows (row-major over the output positions); ``pads`` pads
    height and width on both sides. The ``conv2d_columns`` op of the table, so compiled and differentiable."""

    def __init__(self, ksizes, strides=1, dilations=1, pads=0):
        super().__init__("Im2Col")
        self.ksizes = _pair(self.name, "ksizes", ksizes)
        self.strides = _pair(self.name, "strides", strides)
        self.dilations = _pair(self.name, "dilations", dilations)
        self.pads = _pair(self.name, "pads", pads, positive=False)
        for name, value in (("ksizes", self.ksizes), ("strides", self.strides), ("dilations", self.dilations),
                            ("pads", self.pads), ("padding_mode", "CALCULATED")):
            self.add_prim_attr(name, value)

    def __call__(self, x: Tensor) -> Tensor:
        if not isinstance(x, Tensor) or len(x.shape) != 4:
            raise ValueError(f"For '{self.name}', the 'x' must be a 4-D Tensor (N, C, H, W).")
        n, c = x.shape[0], x.shape[1]
        kh, kw = self.ksizes
        pad_h, pad_w = self.pads
        for size, pad, kernel, dilation, stride in zip(x.shape[2:], self.pads, self.ksizes, self.dilations,
                                                       self.strides):
            if (size + 2 * pad - dilation * (kernel - 1) - 1) // stride + 1 <= 0:
                raise ValueError(f"For {self.name}, given input with spatial size {tuple(x.shape)}, "
                                 f"ksizes={self.ksizes}, dilation={self.dilations}, pads={self.pads}, the calculated "
                                 f"shape of the array of sliding blocks is non-positive.")
        columns = run("conv2d_columns", x, filter_shape=(1, c, kh, kw), stride=self.strides,
                      padding=(pad_h, pad_h, pad_w, pad_w), dilation=self.dilations, groups=1)   # (1, C*KH*KW, N*L)
        per_image = F.transpose(F.reshape(columns, (c * kh * kw, n, -1)), (1, 0, 2))
        return F.reshape(per_image, (n, c, kh * kw, -1))
