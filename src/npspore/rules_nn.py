"""Shape and dtype rules of the convolution, pooling and ordering ops (``codegen_templates/conv.py``,
``pooling.py``, ``selection.py``).

Operands are NCHW arrays (or :class:`~npspore.opdef.Aval`); static attributes are normalised tuples:
``stride=(sh, sw)``, ``padding=(top, bottom, left, right)``, ``dilation=(dh, dw)``, ``kernel_size=(kh,
kw)``. Only float inputs are accepted; a dynamic (``None``) batch dim flows through.
"""
from __future__ import annotations

import numpy as np

from .opdef import Aval, OpShapeError, OpTypeError
from .shape_rules import dtype_of, shape_of

__all__ = [
    "window_out", "conv2d_rule", "conv2d_input_grad_rule", "conv2d_filter_grad_rule", "conv2d_columns_rule",
    "conv2d_columns_grad_rule",
    "pool2d_rule", "pool2d_windows_rule", "pool2d_index_rule", "pool2d_transpose_rule", "pool2d_grad_rule", "adaptive_weights_rule",
    "adaptive_index_rule", "topk_rule", "gather_last_rule", "scatter_last_rule",
]


def window_out(size, kernel: int, stride: int, pad: int, dilation: int):
    """The number of windows along one dim of ``size`` (``None`` stays ``None``)."""
    if size is None:
        return None
    return (size + pad - dilation * (kernel - 1) - 1) // stride + 1


def _float_nchw(name: str, what: str, x) -> tuple:
    shape = shape_of(x)
    if len(shape) != 4:
        raise OpShapeError(f"For '{name}', the '{what}' must be a 4-D Tensor (N, C, H, W), but got shape "
                           f"{list(shape)}.")
    if dtype_of(x).kind != "f":
        raise OpTypeError(f"For '{name}', the '{what}' must be a float Tensor, but got {dtype_of(x).name}.")
    return shape


def _same_dtype(name: str, a, b) -> np.dtype:
    if dtype_of(a) != dtype_of(b):
        raise OpTypeError(f"For '{name}', the input and the weight must have the same dtype, but got "
                          f"{dtype_of(a).name} and {dtype_of(b).name}.")
    return dtype_of(a)


def _conv_out(name: str, x_shape, w_shape, stride, padding, dilation, groups) -> tuple:
    n, c, h, w = x_shape
    o, cg, kh, kw = w_shape
    if c is not None and c != cg * groups:
        raise OpShapeError(f"For '{name}', the input channels {c} must equal the weight's in-channels {cg} times "
                           f"'groups' {groups}.")
    if o % groups:
        raise OpShapeError(f"For '{name}', the output channels {o} must be divisible by 'groups' {groups}.")
    oh = window_out(h, kh, stride[0], padding[0] + padding[1], dilation[0])
    ow = window_out(w, kw, stride[1], padding[2] + padding[3], dilation[1])
    if (oh is not None and oh < 1) or (ow is not None and ow < 1):
        raise OpShapeError(f"For '{name}', the padded input {[h, w]} is smaller than the dilated kernel "
                           f"{[dilation[0] * (kh - 1) + 1, dilation[1] * (kw - 1) + 1]}.")
    return (n, o, oh, ow)


def _check_dout(name: str, dy_shape, expected) -> None:
    """``dout`` must have the convolution's output shape (its batch dim aside)."""
    if any(a is not None and b is not None and a != b for a, b in zip(expected[1:], dy_shape[1:])):
        raise OpShapeError(f"For '{name}', 'dout' has shape {list(dy_shape)}, but the convolution gives "
                           f"{list(expected)}.")


def conv2d_rule(x, w, *, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1):
    """``conv2d``: ``(N, C, H, W) * (O, C/groups, KH, KW) -> (N, O, OH, OW)``."""
    x_shape = _float_nchw("Conv2D", "input", x)
    w_shape = _float_nchw("Conv2D", "weight", w)
    dtype = _same_dtype("Conv2D", x, w)
    return Aval(_conv_out("Conv2D", x_shape, w_shape, stride, padding, dilation, groups), dtype)


def conv2d_input_grad_rule(dy, w, *, input_shape, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1):
    """``conv2d_input_grad``: the cotangent of the input, of ``input_shape``."""
    dy_shape = _float_nchw("Conv2DBackpropInput", "dout", dy)
    w_shape = _float_nchw("Conv2DBackpropInput", "weight", w)
    dtype = _same_dtype("Conv2DBackpropInput", dy, w)
    _check_dout("Conv2DBackpropInput", dy_shape,
                _conv_out("Conv2DBackpropInput", input_shape, w_shape, stride, padding, dilation, groups))
    return Aval((dy_shape[0],) + tuple(input_shape[1:]), dtype)


def conv2d_filter_grad_rule(x, dy, *, filter_shape, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1):
    """``conv2d_filter_grad``: the cotangent of the filter, of ``filter_shape``."""
    x_shape = _float_nchw("Conv2DBackpropFilter", "input", x)
    dy_shape = _float_nchw("Conv2DBackpropFilter", "dout", dy)
    dtype = _same_dtype("Conv2DBackpropFilter", x, dy)
    _check_dout("Conv2DBackpropFilter", dy_shape,
                _conv_out("Conv2DBackpropFilter", x_shape, filter_shape, stride, padding, dilation, groups))
    return Aval(tuple(filter_shape), dtype)


def conv2d_columns_rule(x, *, filter_shape, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1):
    """``conv2d_columns``: ``(groups, C/groups * KH * KW, N * OH * OW)`` for a filter of ``filter_shape``."""
    x_shape = _float_nchw("Conv2D", "input", x)
    n, _, oh, ow = _conv_out("Conv2D", x_shape, filter_shape, stride, padding, dilation, groups)
    _, cg, kh, kw = filter_shape
    return Aval((groups, cg * kh * kw, None if None in (n, oh, ow) else n * oh * ow), dtype_of(x))


def conv2d_columns_grad_rule(cols, *, input_shape, filter_shape, stride=(1, 1), padding=(0, 0, 0, 0),
                             dilation=(1, 1), groups=1, batch_last=False):
    """``conv2d_columns_grad``: columns ``(groups, C/groups * KH * KW, N * OH * OW)`` summed back into
    an array of ``input_shape`` (its batch dim taken from the column count)."""
    shape = shape_of(cols)
    if dtype_of(cols).kind != "f":
        raise OpTypeError(f"For 'Col2Im', the columns must be a float Tensor, but got {dtype_of(cols).name}.")
    _, _, oh, ow = _conv_out("Col2Im", (None,) + tuple(input_shape[1:]), filter_shape, stride, padding, dilation,
                             groups)
    _, cg, kh, kw = filter_shape
    if len(shape) != 3 or tuple(shape[:2]) != (groups, cg * kh * kw) or (
            shape[2] is not None and shape[2] % (oh * ow)):
        raise OpShapeError(f"For 'Col2Im', the columns must have shape [{groups}, {cg * kh * kw}, N * {oh * ow}], "
                           f"but got {list(shape)}.")
    return Aval((None if shape[2] is None else shape[2] // (oh * ow),) + tuple(input_shape[1:]), dtype_of(cols))


def _pool_out(name: str, shape, kernel_size, stride, padding, dilation) -> tuple:
    n, c, h, w = shape
    oh = window_out(h, kernel_size[0], stride[0], padding[0] + padding[1], dilation[0])
    ow = window_out(w, kernel_size[1], stride[1], padding[2] + padding[3], dilation[1])
    if (oh is not None and oh < 1) or (ow is not None and ow < 1):
        raise OpShapeError(f"For '{name}', the padded input {[h, w]} is smaller than the kernel {list(kernel_size)}.")
    return (n, c, oh, ow)


def pool2d_rule(name: str):
    """The rule of a pooling op: ``(N, C, H, W) -> (N, C, OH, OW)`` (a second operand, if any, is like x)."""
    def infer(x, *rest, kernel_size=(1, 1), stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1)):
        shape = _float_nchw(name, "input", x)
        if rest and _float_nchw(name, "values", rest[0]) != shape:
            raise OpShapeError(f"For '{name}', the values must have the input's shape {list(shape)}, but got "
                               f"{list(shape_of(rest[0]))}.")
        return Aval(_pool_out(name, shape, kernel_size, stride, padding, dilation), dtype_of(rest[0] if rest else x))

    infer.__qualname__ = f"pool2d_rule({name!r})"
    return infer


def pool2d_windows_rule(x, *, kernel_size=(1, 1), stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), fill=0.0):
    """``pool2d_windows``: ``(N, C, OH, OW, KH, KW)``, x's dtype."""
    shape = _float_nchw("Pool", "input", x)
    return Aval(_pool_out("Pool", shape, kernel_size, stride, padding, dilation) + tuple(kernel_size), dtype_of(x))


def pool2d_index_rule(x, *, kernel_size=(1, 1), stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1)):
    """``max_pool2d_index``: int64 indices of the pooled shape."""
    shape = _float_nchw("MaxPool", "input", x)
    return Aval(_pool_out("MaxPool", shape, kernel_size, stride, padding, dilation), np.int64)


def pool2d_transpose_rule(x, top, g, *, kernel_size=(1, 1), stride=(1, 1), padding=(0, 0, 0, 0),
                          dilation=(1, 1)):
    """``max_pool2d_grad``: x's shape, in g's dtype (``top``, the pooled maximum, and ``g`` of the pooled shape)."""
    shape = _float_nchw("MaxPoolGrad", "input", x)
    pooled = _pool_out("MaxPoolGrad", shape, kernel_size, stride, padding, dilation)
    for name, value in (("output", top), ("dout", g)):
        if _float_nchw("MaxPoolGrad", name, value) != pooled:
            raise OpShapeError(f"For 'MaxPoolGrad', '{name}' must have the pooled shape {list(pooled)}, but got "
                               f"{list(shape_of(value))}.")
    return Aval(shape, dtype_of(g))


def pool2d_grad_rule(g, *, input_shape, kernel_size=(1, 1), stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1)):
    """``sum_pool2d_grad``: ``input_shape`` (with g's batch dim), in g's dtype."""
    shape = _float_nchw("AvgPoolGrad", "dout", g)
    return Aval((shape[0],) + tuple(input_shape[1:]), dtype_of(g))


def adaptive_weights_rule(*, in_size, out_size, dtype):
    """``adaptive_avg_weights``: ``(out_size, in_size)`` in ``dtype``."""
    if not 0 < out_size:
        raise OpShapeError(f"For 'AdaptiveAvgPool2D', the output size must be positive, but got {out_size}.")
    return Aval((out_size, in_size), np.dtype(dtype))


def adaptive_index_rule(*, in_size, out_size):
    """``adaptive_window_index``: ``(out_size, widest window)`` int64."""
    if not 0 < out_size:
        raise OpShapeError(f"For 'AdaptiveMaxPool2D', the output size must be positive, but got {out_size}.")
    widest = max(-(-(i + 1) * in_size // out_size) - i * in_size // out_size for i in range(out_size))
    return Aval((out_size, widest), np.int64)


def topk_rule(x, *, k, largest=True):
    """``topk``: ``(values, int32 indices)`` with the last dim ``k`` (``None``: all of them, a sort)."""
    shape = shape_of(x)
    if dtype_of(x).kind == "b":
        raise OpTypeError("For 'TopK', the input must be a number Tensor, but got bool.")
    if not shape:
        raise OpShapeError("For 'TopK', the input must have at least 1 dim.")
    if k is not None and (not isinstance(k, int) or isinstance(k, bool)
                          or not 0 <= k <= (shape[-1] if shape[-1] is not None else k)):
        raise OpShapeError(f"For 'TopK', the 'k' must be an int in [0, {shape[-1]}], but got {k}.")
    out = shape[:-1] + (shape[-1] if k is None else k,)
    return Aval(out, dtype_of(x)), Aval(out, np.int32)


def nms_with_mask_rule(bboxes, *, iou_threshold):
    """``nms_with_mask``: ``(boxes, int32 positions, bool keep)`` of ``(n, 5)`` float boxes."""
    shape = shape_of(bboxes)
    if len(shape) != 2 or shape[1] != 5:
        raise OpShapeError(f"For NMSWithMask, the 2nd dim in shape of bboxes should equal to 5, but got "
                           f"{shape[1] if len(shape) == 2 else shape}.")
    if dtype_of(bboxes).kind != "f":
        raise OpTypeError(f"For NMSWithMask, the bboxes must be float16 or float32, but got {dtype_of(bboxes)}.")
    return Aval(shape, dtype_of(bboxes)), Aval(shape[:1], np.int32), Aval(shape[:1], np.bool_)


def random_choice_with_mask_rule(x, *, count):
    """``random_choice_with_mask``: ``(int32 (count, ndim), bool (count,))`` of a bool tensor."""
    if dtype_of(x).kind != "b":
        raise OpTypeError(f"For primitive[RandomChoiceWithMask], the input argument[input_x] must be a type of "
                          f"{{Tensor[Bool]}}, but got Tensor[{dtype_of(x).name.capitalize()}].")
    return Aval((count, len(shape_of(x))), np.int32), Aval((count,), np.bool_)


def gather_last_rule(x, indices):
    """``gather_last``: the indices' shape, in x's dtype."""
    if dtype_of(indices).kind not in "iu":
        raise OpTypeError(f"For 'GatherD', the indices must be integers, but got {dtype_of(indices).name}.")
    agree = all(a == b or a is None or b is None for a, b in zip(shape_of(x)[:-1], shape_of(indices)[:-1]))
    if len(shape_of(x)) != len(shape_of(indices)) or not agree:   # a dynamic dim (None) agrees with any
        raise OpShapeError(f"For 'GatherD', the input {list(shape_of(x))} and indices {list(shape_of(indices))} "
                           f"must agree on all but the last dim.")
    return Aval(shape_of(indices), dtype_of(x))


def scatter_last_add_rule(buf, g, indices):
    """``scatter_last_add_in_place``: ``buf``'s aval; ``g`` and ``indices`` of one shape, ``buf``'s but the last dim."""
    if shape_of(g) != shape_of(indices) or shape_of(g)[:-1] != shape_of(buf)[:-1]:
        raise OpShapeError(f"For 'TensorScatterAdd', the values {list(shape_of(g))} and indices {list(shape_of(indices))} "
                           f"must have one shape, that of the input {list(shape_of(buf))} but the last dim.")
    if dtype_of(g) != dtype_of(buf):
        raise OpTypeError(f"For 'TensorScatterAdd', the values must have the input's dtype {dtype_of(buf).name}, "
                          f"but got {dtype_of(g).name}.")
    return Aval(shape_of(buf), dtype_of(buf))


def scatter_last_rule(g, indices, *, size):
    """``scatter_last``: g's shape with the last dim ``size`` (``-1``: g's own, a permutation's)."""
    if not shape_of(g) or shape_of(g) != shape_of(indices):
        raise OpShapeError(f"For 'ScatterD', the values {list(shape_of(g))} and indices {list(shape_of(indices))} "
                           f"must have one shape.")
    return Aval(shape_of(g)[:-1] + (shape_of(g)[-1] if size == -1 else size,), dtype_of(g))
