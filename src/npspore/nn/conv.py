"""Convolution layers: ``Conv1d``, ``Conv2d`` and ``Conv2dTranspose``, with MindSpore's arguments,
defaults (``pad_mode='same'``, ``has_bias=False``), initializers and parameter shapes."""
from __future__ import annotations

from typing import Any
import math

from npspore.common import dtype as mstype
from npspore.common.initializer import HeUniform, Uniform, initializer
from npspore.common.parameter import Parameter
from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell
from npspore.nn.layers import _check_bool, _check_positive_int
from npspore.ops import nn_functional as F
from npspore.ops.conv_transpose import conv_transpose3d, transposed_output_size

__all__ = ["Conv1d", "Conv2d", "Conv3d", "Conv2dTranspose", "Conv1dTranspose", "Conv3dTranspose"]


def _pair(value, arg_name, cls_name):
    """An int or a pair of positive ints, as a pair."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value, value)
    if (not isinstance(value, tuple) or len(value) != 2
            or not all([isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value])):
        raise ValueError(f"For '{cls_name}', the '{arg_name}' must be a positive int or a tuple of two positive "
                         f"ints, but got {value}.")
    return value


def _check_pad_mode(pad_mode, padding, cls_name):
    if not isinstance(pad_mode, str) or pad_mode.lower() not in ("same", "valid", "pad"):
        raise ValueError(f"For '{cls_name}', the 'pad_mode' must be one of ['same', 'valid', 'pad'], but got "
                         f"{pad_mode}.")
    if pad_mode.lower() != "pad" and padding not in (0, (0, 0), (0, 0, 0, 0), (0,) * 6):
        raise ValueError(f"For '{cls_name}', the 'padding' must be zero when 'pad_mode' is not 'pad', but got "
                         f"{padding}.")
    return pad_mode.lower()


class _Conv(Cell):
    """What the convolution layers share: argument checks, the weight and the optional bias."""

    data_format = "NCHW"

    def __init__(self, in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                 weight_init, bias_init, weight_shape, dtype):
        super().__init__()
        self.in_channels = _check_positive_int(in_channels, "in_channels", self.cls_name)
        self.out_channels = _check_positive_int(out_channels, "out_channels", self.cls_name)
        self.group = _check_positive_int(group, "group", self.cls_name)
        if in_channels % group or out_channels % group:
            raise ValueError(f"For '{self.cls_name}', the 'in_channels' {in_channels} and 'out_channels' "
                             f"{out_channels} must be divisible by 'group' {group}.")
        self.kernel_size = kernel_size
        self.stride = stride
        self.dilation = dilation
        self.pad_mode = _check_pad_mode(pad_mode, padding, self.cls_name)
        self.padding = padding
        self.has_bias = _check_bool(has_bias, "has_bias", self.cls_name)
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight_init = weight_init
        if isinstance(weight_init, Tensor) and len(weight_init.shape) == len(weight_shape) - 1:
            weight_init = weight_init.expand_dims(2)  # Conv1d: (O, C, K) -> (O, C, 1, K)
        self.weight = Parameter(initializer(weight_init, weight_shape, dtype=dtype), name="weight")
        self.bias_init = bias_init
        self.bias = None
        if self.has_bias:
            if bias_init is None:
                fan_in = math.prod(weight_shape[1:])
                self.bias_init = bias_init = Uniform(scale=1 / math.sqrt(fan_in))
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype=dtype), name="bias")

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, kernel_size="
                f"{self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}, padding={self.padding}, "
                f"dilation={self.dilation}, group={self.group}, has_bias={self.has_bias}, weight_init="
                f"{self.weight_init}, bias_init={self.bias_init}, format={self.data_format}")


class Conv2d(_Conv):
    r"""2-D convolution layer over :math:`(N, C_{in}, H_{in}, W_{in})` inputs.

    Args:
        in_channels (int): input channels :math:`C_{in}`.
        out_channels (int): output channels :math:`C_{out}`.
        kernel_size (Union[int, tuple[int]]): the kernel's height and width.
        stride (Union[int, tuple[int]]): the step between windows. Default: ``1``.
        pad_mode (str): ``'same'`` (output :math:`\lceil H_{in} / stride \rceil`), ``'valid'`` (no
            padding) or ``'pad'`` (``padding``). Default: ``'same'``.
        padding (Union[int, tuple[int]]): with ``'pad'``: all sides, or ``(top, bottom, left,
            right)``. Default: ``0``.
        dilation (Union[int, tuple[int]]): the spacing of kernel elements. Default: ``1``.
        group (int): channel groups; both channel counts must divide by it. Default: ``1``.
        has_bias (bool): whether to add a bias. Default: ``False``.
        weight_init (Union[Tensor, str, Initializer, numbers.Number]): the weight, of shape
            :math:`(C_{out}, C_{in} / group, kh, kw)`. Default: ``None``, HeUniform(sqrt(5)).
        bias_init (Union[Tensor, str, Initializer, numbers.Number]): the bias. Default: ``None``,
            Uniform(1 / sqrt(fan_in)).
        data_format (str): only ``'NCHW'``.
        dtype (mindspore.dtype): the parameters' dtype. Default: ``mstype.float32``.

    Inputs:
        - **x** (Tensor) - :math:`(N, C_{in}, H_{in}, W_{in})`.

    Outputs:
        Tensor of shape :math:`(N, C_{out}, H_{out}, W_{out})`.

    Raises:
        TypeError: If a channel count or `group` is not an int, or `has_bias` not a bool.
        ValueError: If `pad_mode` is unknown, `padding` is non-zero without ``'pad'``, or the channels
            do not divide by `group`.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, ...],
                 stride: int | tuple[int, ...] = 1, pad_mode: str = "same", padding: int | tuple[int, ...] = 0,
                 dilation: int | tuple[int, ...] = 1, group: int = 1, has_bias: bool = False, weight_init: Any = None,
                 bias_init: Any = None, data_format: str = "NCHW", dtype: mstype.Type = mstype.float32) -> None:
        if data_format != "NCHW":
            raise ValueError(f"For 'Conv2d', npspore supports only data_format 'NCHW', but got {data_format}.")
        kernel_size = _pair(kernel_size, "kernel_size", "Conv2d")
        super().__init__(in_channels, out_channels, kernel_size, _pair(stride, "stride", "Conv2d"), pad_mode, padding,
                         _pair(dilation, "dilation", "Conv2d"), group, has_bias, weight_init, bias_init,
                         [out_channels, in_channels // group, *kernel_size], dtype)

    def construct(self, x: Tensor) -> Tensor:
        return F.conv2d(x, self.weight, self.bias, self.stride, self.pad_mode, self.padding, self.dilation,
                        self.group)


def _triple(value, arg_name, cls_name="Conv3d", low=1):
    """An int or a tuple of three ints of at least ``low`` (positive by default), as a triple."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * 3
    if (not isinstance(value, tuple) or len(value) != 3
            or not all([isinstance(v, int) and not isinstance(v, bool) and v >= low for v in value])):
        kind = "positive" if low == 1 else "non-negative"
        raise ValueError(f"For '{cls_name}', the '{arg_name}' must be a {kind} int or a tuple of three {kind} ints, "
                         f"but got {value}.")
    return value


def _check_ncdhw(data_format, padding, cls_name):
    """MindSpore's checks of a 3-D convolution's ``data_format`` and tuple ``padding``."""
    if data_format != "NCDHW":
        raise ValueError(f"For '{cls_name}', the 'format' must be str and must be in '['NCDHW']', but got "
                         f"'{data_format}'.")
    if isinstance(padding, tuple) and len(padding) != 6:
        raise ValueError(f"For '{cls_name}', the 'padding size' must be int and must = 6, but got '{len(padding)}' "
                         f"with type 'int'.")


class Conv3d(_Conv):
    r"""3-D convolution layer over :math:`(N, C_{in}, D_{in}, H_{in}, W_{in})` inputs (see :func:`~npspore.ops.
    nn_functional.conv3d`); arguments as :class:`Conv2d`, each per dim (depth, height, width), and:

    Args:
        padding (Union[int, tuple[int]]): with ``'pad'``: all sides, or ``(head, tail, top, bottom, left,
            right)``. Default: ``0``.
        data_format (str): only ``'NCDHW'``.

    Inputs:
        - **x** (Tensor) - :math:`(N, C_{in}, D_{in}, H_{in}, W_{in})`.

    Outputs:
        Tensor of shape :math:`(N, C_{out}, D_{out}, H_{out}, W_{out})`.

    Raises:
        ValueError: If an argument is out of range, ``padding`` is a tuple of another length than 6, or
            ``data_format`` is not ``'NCDHW'``.

    Examples:
        >>> conv3d = nn.Conv3d(in_channels=3, out_channels=32, kernel_size=(4, 3, 3))
        >>> conv3d(Tensor(np.ones([16, 3, 10, 32, 32]), mindspore.float32)).shape
        (16, 32, 10, 32, 32)
    """

    data_format = "NCDHW"

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, ...],
                 stride: int | tuple[int, ...] = 1, pad_mode: str = "same", padding: int | tuple[int, ...] = 0,
                 dilation: int | tuple[int, ...] = 1, group: int = 1, has_bias: bool = False, weight_init: Any = None,
                 bias_init: Any = None, data_format: str = "NCDHW", dtype: mstype.Type = mstype.float32) -> None:
        _check_ncdhw(data_format, padding, "Conv3d")
        kernel_size = _triple(kernel_size, "kernel_size")
        super().__init__(in_channels, out_channels, kernel_size, _triple(stride, "stride"), pad_mode, padding,
                         _triple(dilation, "dilation"), group, has_bias, weight_init, bias_init,
                         [out_channels, in_channels // group, *kernel_size], dtype)

    def construct(self, x: Tensor) -> Tensor:
        return F.conv3d(x, self.weight, self.bias, self.stride, self.pad_mode, self.padding, self.dilation,
                        self.group)


class Conv1d(_Conv):
    r"""1-D convolution layer over :math:`(N, C_{in}, L_{in})` inputs; its weight has MindSpore's
    shape :math:`(C_{out}, C_{in} / group, 1, K)` (a 3-D Tensor `weight_init` is accepted).

    Args are those of :class:`Conv2d`, each a single int (`padding` an int or ``(left, right)``).

    Inputs:
        - **x** (Tensor) - :math:`(N, C_{in}, L_{in})`.

    Outputs:
        Tensor of shape :math:`(N, C_{out}, L_{out})`.
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, dtype=mstype.float32):
        for name, value in (("kernel_size", kernel_size), ("stride", stride), ("dilation", dilation)):
            _check_positive_int(value, name, "Conv1d")
        pads = (0, 0) + tuple(padding) if isinstance(padding, tuple) else (0, 0, padding, padding)
        super().__init__(in_channels, out_channels, (1, kernel_size), (1, stride), pad_mode, pads, (1, dilation), group,
                         has_bias, weight_init, bias_init, [out_channels, in_channels // group, 1, kernel_size], dtype)

    def construct(self, x: Tensor) -> Tensor:
        out = F.conv2d(x.expand_dims(2), self.weight, self.bias, self.stride, self.pad_mode, self.padding,
                       self.dilation, self.group)
        return out.squeeze(2)


class Conv2dTranspose(_Conv):
    r"""2-D transposed convolution (the gradient of a convolution with respect to its input).

    Args are those of :class:`Conv2d`, plus `output_padding` (added to the output's bottom/right
    size); the weight has shape :math:`(C_{in}, C_{out} / group, kh, kw)`. Output size per
    `pad_mode`: ``'same'`` :math:`H \cdot s`, ``'valid'`` :math:`H \cdot s + \max(d (k - 1) + 1 - s, 0)`,
    ``'pad'`` :math:`(H - 1) s + d (k - 1) + 1 - top - bottom`.

    Inputs:
        - **x** (Tensor) - :math:`(N, C_{in}, H_{in}, W_{in})`.

    Outputs:
        Tensor of shape :math:`(N, C_{out}, H_{out}, W_{out})`.
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0,
                 output_padding=0, dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None,
                 dtype=mstype.float32):
        kernel_size = _pair(kernel_size, "kernel_size", "Conv2dTranspose")
        super().__init__(in_channels, out_channels, kernel_size, _pair(stride, "stride", "Conv2dTranspose"), pad_mode,
                         padding, _pair(dilation, "dilation", "Conv2dTranspose"), group, has_bias, weight_init,
                         bias_init, [in_channels, out_channels // group, *kernel_size], dtype)
        self.output_padding = output_padding if isinstance(output_padding, tuple) else (output_padding,) * 2

    def _output_size(self, size, dim):
        span = self.dilation[dim] * (self.kernel_size[dim] - 1) + 1
        if self.pad_mode == "same":
            return size * self.stride[dim]
        if self.pad_mode == "valid":
            extra = span - self.stride[dim]
            return size * self.stride[dim] + (extra if extra > 0 else 0)
        pads = F._explicit_padding(self.padding, self.cls_name)
        return (size - 1) * self.stride[dim] + span - pads[2 * dim] - pads[2 * dim + 1] + self.output_padding[dim]

    def construct(self, x: Tensor) -> Tensor:
        out_hw = (self._output_size(x.shape[2], 0), self._output_size(x.shape[3], 1))
        pads = F._padding(self.pad_mode, self.padding, out_hw, self.kernel_size, self.stride, self.dilation,
                          self.cls_name)
        return F.conv_transpose2d(x, self.weight, self.bias, self.stride, pads, out_hw, self.dilation, self.group)


class Conv1dTranspose(_Conv):
    r"""1-D transposed convolution over :math:`(N, C_{in}, L_{in})` inputs, as :class:`Conv2dTranspose` over a
    height of 1; its weight has MindSpore's shape :math:`(C_{in}, C_{out} / group, 1, K)` (a Tensor `weight_init`
    must be 3-D, :math:`(C_{in}, C_{out} / group, K)`).

    Args are those of :class:`Conv2dTranspose` without `output_padding`, each a single int (`padding` the same
    on both ends, with ``'pad'``).

    Inputs:
        - **x** (Tensor) - :math:`(N, C_{in}, L_{in})`.

    Outputs:
        Tensor of shape :math:`(N, C_{out}, L_{out})`.

    Raises:
        TypeError: If `kernel_size`, `stride`, `padding` or `dilation` is not an int.
        ValueError: If one is out of range or a Tensor `weight_init` is not 3-D.

    Examples:
        >>> net = nn.Conv1dTranspose(3, 64, 4, has_bias=False, weight_init='normal', pad_mode='pad')
        >>> net(Tensor(np.ones([1, 3, 50]), mindspore.float32)).shape
        (1, 64, 53)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 pad_mode: str = "same", padding: int = 0, dilation: int = 1, group: int = 1, has_bias: bool = False,
                 weight_init: Any = None, bias_init: Any = None, dtype: mstype.Type = mstype.float32) -> None:
        for name, value in (("kernel_size", kernel_size), ("stride", stride), ("padding", padding),
                            ("dilation", dilation)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"For 'Conv1dTranspose', the type of '{name}' should be 'int', but got "
                                f"'{type(value).__name__}'.")
            if value < (0 if name == "padding" else 1):
                raise ValueError(f"For 'Conv1dTranspose', the '{name}' must be "
                                 f"{'non-negative' if name == 'padding' else 'positive'}, but got {value}.")
        if isinstance(weight_init, Tensor) and len(weight_init.shape) != 3:
            raise ValueError(f"For 'Conv1dTranspose', the 'weight_init_shape' must be int and must = 3, but got "
                             f"'{len(weight_init.shape)}' with type 'int'.")
        super().__init__(in_channels, out_channels, (1, kernel_size), (1, stride), pad_mode, (0, 0, padding, padding),
                         (1, dilation), group, has_bias, weight_init, bias_init,
                         [in_channels, out_channels // group, 1, kernel_size], dtype)

    def construct(self, x: Tensor) -> Tensor:
        if len(x.shape) != 3:
            raise ValueError(f"For '{self.cls_name}', the dimension of input must be 3d, but got {len(x.shape)}.")
        length = transposed_output_size(x.shape[2], self.kernel_size[1], self.stride[1], self.dilation[1],
                                        self.pad_mode, self.padding[2] + self.padding[3], 0)
        pads = F._padding(self.pad_mode, self.padding, (1, length), self.kernel_size, self.stride, self.dilation,
                          self.cls_name)
        out = F.conv_transpose2d(x.expand_dims(2), self.weight, self.bias, self.stride, pads, (1, length),
                                 self.dilation, self.group)
        return out.squeeze(2)


class Conv3dTranspose(_Conv):
    r"""3-D transposed convolution over :math:`(N, C_{in}, D_{in}, H_{in}, W_{in})` inputs (see
    :func:`~npspore.ops.conv_transpose.conv_transpose3d`): the arguments, inputs and errors of :class:`Conv3d`,
    the weight of shape :math:`(C_{in}, C_{out} / group, kd, kh, kw)`, and `output_padding` (an int or a triple,
    with ``'pad'`` added to the output's tail, bottom and right; default ``0``).

    Examples:
        >>> conv3d_transpose = nn.Conv3dTranspose(in_channels=16, out_channels=3, kernel_size=(4, 6, 2),
        ...                                       pad_mode='pad')
        >>> conv3d_transpose(Tensor(np.ones([32, 16, 10, 32, 32]), mindspore.float32)).shape
        (32, 3, 13, 37, 33)
    """

    data_format = "NCDHW"

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, ...],
                 stride: int | tuple[int, ...] = 1, pad_mode: str = "same", padding: int | tuple[int, ...] = 0,
                 dilation: int | tuple[int, ...] = 1, group: int = 1, output_padding: int | tuple[int, ...] = 0,
                 has_bias: bool = False, weight_init: Any = None, bias_init: Any = None, data_format: str = "NCDHW",
                 dtype: mstype.Type = mstype.float32) -> None:
        _check_ncdhw(data_format, padding, "Conv3dTranspose")
        kernel_size = _triple(kernel_size, "kernel_size", "Conv3dTranspose")
        self.output_padding = _triple(output_padding, "output_padding", "Conv3dTranspose", 0)
        super().__init__(in_channels, out_channels, kernel_size, _triple(stride, "stride", "Conv3dTranspose"),
                         pad_mode, padding, _triple(dilation, "dilation", "Conv3dTranspose"), group, has_bias,
                         weight_init, bias_init, [in_channels, out_channels // group, *kernel_size], dtype)

    def construct(self, x: Tensor) -> Tensor:
        return conv_transpose3d(x, self.weight, self.bias, self.stride, self.pad_mode, self.padding, self.dilation,
                                self.group, self.output_padding)


def _check_input_3d(input_shape: tuple, op_name: str) -> None:
    """MindSpore's ``nn.layer.conv._check_input_3d``: a ValueError unless ``input_shape`` has 3 dims."""
    if len(input_shape) != 3:
        raise ValueError(f"For '{op_name}', the dimension of input must be 3d, but got {len(input_shape)}.")
