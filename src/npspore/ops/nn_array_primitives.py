"""Primitives of MindSpore's models with attributes of their own, as ``mindspore.ops`` / ``ops.operations``:
``ReverseSequence``, ``Range``, ``TensorShape``, ``InplaceAdd``, ``IndexAdd``, ``LRN``,
``Partial``, ``CropAndResize``, ``MaxPoolWithArgmax``, ``PadV3`` and ``MirrorPad``.

Each is written over ops of the table, so it runs eagerly and compiled and is differentiable where MindSpore's
is. ``CropAndResize`` samples each box as ``Wy @ image @ Wx^T``: ``Wy (crop_height, H)`` and ``Wx (crop_width,
W)`` hold the bilinear (or nearest) weights of the box's sample points, a point outside the image giving the
``extrapolation_value``, as TensorFlow's kernel (MindSpore's) computes it.
"""
from __future__ import annotations

from .._checkparam import check_value_type
from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import eager
from . import functional as F
from .array_functional import floor, gather_elements, pad, pad_pairs, scatter_nd
from .nn_functional import _max_pool
from .primitives import Primitive
from .ranges import range as _range

__all__ = ["ReverseSequence", "Range", "TensorShape", "InplaceAdd", "IndexAdd", "LRN", "Partial",
           "CropAndResize", "MaxPoolWithArgmax", "PadV3", "MirrorPad", "reverse_sequence", "crop_and_resize",
           "index_add", "inplace_add", "lrn", "mirror_pad"]


class ReverseSequence(Primitive):
    """``ReverseSequence(seq_dim, batch_dim=0)(x, seq_lengths)``: for each ``b`` along ``batch_dim``, the first
    ``seq_lengths[b]`` elements along ``seq_dim`` reversed, the others kept.

    Raises:
        TypeError: if ``seq_dim`` or ``batch_dim`` is not an int, or ``seq_lengths`` not int32/int64.
        ValueError: if a dim is out of range or they are equal.
    """

    def __init__(self, seq_dim: int, batch_dim: int = 0) -> None:
        super().__init__("ReverseSequence")
        check_value_type("seq_dim", seq_dim, [int], self.name)
        check_value_type("batch_dim", batch_dim, [int], self.name)
        self.seq_dim, self.batch_dim = seq_dim, batch_dim
        self.add_prim_attr("seq_dim", seq_dim).add_prim_attr("batch_dim", batch_dim)

    def __call__(self, x: Tensor, seq_lengths: Tensor) -> Tensor:
        rank = len(x.shape)
        if not (0 <= self.seq_dim < rank and 0 <= self.batch_dim < rank) or self.seq_dim == self.batch_dim:
            raise ValueError(f"For 'ReverseSequence', 'seq_dim' ({self.seq_dim}) and 'batch_dim' ({self.batch_dim}) "
                             f"must be different dims of 'x' of rank {rank}.")
        batch = x.shape[self.batch_dim]
        if seq_lengths.dtype not in (mstype.int32, mstype.int64) or tuple(seq_lengths.shape) != (batch,):
            raise TypeError(f"For 'ReverseSequence', 'seq_lengths' must be an int32 or int64 Tensor of shape "
                            f"({x.shape[self.batch_dim]},), but got {seq_lengths.dtype} {seq_lengths.shape}.")
        along = lambda values, dim: F.reshape(values, tuple(-1 if d == dim else 1 for d in range(rank)))  # noqa: E731
        position = along(Tensor(list(range(x.shape[self.seq_dim])), mstype.int64), self.seq_dim)
        length = along(F.cast(seq_lengths, mstype.int64), self.batch_dim)
        index = F.where(F.less(position, length), length - 1 - position, position)
        return gather_elements(x, self.seq_dim, F.broadcast_to(index, tuple(x.shape)))


class Range(Primitive):
    """``Range(maxlen=1000000)(start, limit, delta)``: ``ops.range(start, limit, delta, maxlen)``."""

    def __init__(self, maxlen: int = 1000000) -> None:
        super().__init__("Range")
        check_value_type("maxlen", maxlen, [int], self.name)
        self.maxlen = maxlen
        self.add_prim_attr("maxlen", maxlen)

    def __call__(self, start, limit, delta):
        return _range(start, limit, delta, self.maxlen)


class TensorShape(Primitive):
    """``TensorShape()(x)``: the shape of ``x`` as an int64 Tensor."""

    def __init__(self) -> None:
        super().__init__("TensorShape")

    def __call__(self, input_x: Tensor) -> Tensor:
        return Tensor(list(input_x.shape), mstype.int64)


class InplaceAdd(Primitive):
    """``InplaceAdd(indices)(x, v)``: ``x`` with ``v``'s rows added to its rows ``indices`` (an int or a tuple of
    ints); ``v`` has ``len(indices)`` rows."""

    def __init__(self, indices) -> None:
        super().__init__("InplaceAdd")
        indices = (indices,) if isinstance(indices, int) else indices
        if not isinstance(indices, (tuple, list)) or not all(isinstance(i, int) for i in indices):
            raise TypeError(f"For 'InplaceAdd', the 'indices' must be an int or a tuple of ints, but got {indices}.")
        self.indices = tuple(indices)
        self.add_prim_attr("indices", self.indices)

    def __call__(self, x: Tensor, input_v: Tensor) -> Tensor:
        if input_v.shape[0] != len(self.indices) or tuple(input_v.shape[1:]) != tuple(x.shape[1:]):
            raise ValueError(f"For 'InplaceAdd', 'input_v' must have {len(self.indices)} rows of shape "
                             f"{tuple(x.shape[1:])}, but got {input_v.shape}.")
        rows = Tensor([[i] for i in self.indices], mstype.int64)
        return x + scatter_nd(rows, F.cast(input_v, x.dtype), tuple(x.shape))


class IndexAdd(Primitive):
    """``IndexAdd(axis, use_lock=True, check_index_bound=True)(input_x, indices, y)``: ``y``'s slices along
    ``axis`` added in place to the slices ``indices`` of the Parameter ``input_x`` (repeated indices add up);
    returns the new value."""

    def __init__(self, axis: int, use_lock: bool = True, check_index_bound: bool = True) -> None:
        super().__init__("IndexAdd")
        check_value_type("axis", axis, [int], self.name)
        check_value_type("use_lock", use_lock, [bool], self.name)
        check_value_type("check_index_bound", check_index_bound, [bool], self.name)
        self.axis = axis
        for name, value in (("axis", axis), ("use_lock", use_lock), ("check_index_bound", check_index_bound),
                            ("side_effect_mem", True)):
            self.add_prim_attr(name, value)

    def __call__(self, input_x: Tensor, indices: Tensor, y: Tensor) -> Tensor:
        rank = len(input_x.shape)
        axis = self.axis % rank
        if len(indices.shape) != 1 or tuple(y.shape) != tuple(input_x.shape[:axis]) + (indices.shape[0],) + \
                tuple(input_x.shape[axis + 1:]):
            raise ValueError(f"For 'IndexAdd', 'indices' must be 1-D and 'y' of the shape of 'input_x' with "
                             f"len(indices) at 'axis', but got {indices.shape} and {y.shape}.")
        front = (axis,) + tuple(d for d in range(rank) if d != axis)
        back = tuple(front.index(d) for d in range(rank))
        moved = F.transpose(input_x, front)
        added = scatter_nd(F.expand_dims(indices, -1), F.transpose(F.cast(y, input_x.dtype), front),
                           tuple(moved.shape))
        result = F.transpose(moved + added, back)
        eager.assign(input_x, result)
        return result


class LRN(Primitive):
    """``LRN(depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region='ACROSS_CHANNELS')(x)``: local response
    normalization of ``x (N, C, H, W)`` across channels: ``x / (bias + alpha * s) ** beta`` with ``s`` the sum of
    ``x ** 2`` over the channels within ``depth_radius``.

    Raises:
        TypeError: if an attribute has the wrong type. ValueError: if ``depth_radius`` is negative or
            ``norm_region`` is not ``'ACROSS_CHANNELS'``.
    """

    def __init__(self, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0, beta: float = 0.5,
                 norm_region: str = "ACROSS_CHANNELS") -> None:
        super().__init__("LRN")
        check_value_type("depth_radius", depth_radius, [int], self.name)
        for name, value in (("bias", bias), ("alpha", alpha), ("beta", beta)):
            check_value_type(name, value, [float], self.name)
        if depth_radius < 0:
            raise ValueError(f"For 'LRN', the 'depth_radius' must be no less than 0, but got {depth_radius}.")
        if norm_region != "ACROSS_CHANNELS":
            raise ValueError(f"For 'LRN', the 'norm_region' must be 'ACROSS_CHANNELS', but got {norm_region}.")
        self.depth_radius, self.bias, self.alpha, self.beta = depth_radius, bias, alpha, beta

    def __call__(self, x: Tensor) -> Tensor:
        if len(x.shape) != 4:
            raise ValueError(f"For 'LRN', the 'x' must be a 4-D Tensor, but got {len(x.shape)}-D.")
        channels, radius = x.shape[1], self.depth_radius
        squared = F.pad(x * x, (0, 0, 0, 0, radius, radius))
        total = None
        for offset in tuple(range(2 * radius + 1)):   # a tuple: unrolled, each slice static
            window = squared[:, offset:offset + channels]
            total = window if total is None else total + window
        return x / F.pow(total * self.alpha + self.bias, self.beta)


class Partial(Primitive):
    """``Partial()(func, *args)``: ``func`` with ``args`` bound first (``ops.partial``)."""

    def __init__(self) -> None:
        super().__init__("Partial")

    def __call__(self, *args):
        return F.partial(*args)


_METHODS = ("bilinear", "nearest", "bilinear_v2")


def _sample_weights(start: Tensor, end: Tensor, size: int, count: int, nearest: bool) -> tuple[Tensor, Tensor]:
    """``(N, count, size)`` weights of the ``count`` sample points of each box's span ``[start, end]`` (fractions
    of the ``size`` cells) and the ``(N, count)`` bool of the points inside the image."""
    scale = float(size - 1)
    if count > 1:
        steps = Tensor([float(i) / (count - 1) for i in range(count)], start.dtype)
        position = F.expand_dims(start * scale, 1) + F.expand_dims((end - start) * scale, 1) * steps
    else:
        position = F.expand_dims((start + end) * (0.5 * scale), 1)
    inside = F.logical_and(F.greater_equal(position, 0.0), F.less_equal(position, scale))
    cells = Tensor([float(i) for i in range(size)], start.dtype)
    if nearest:   # TensorFlow rounds half away from zero; positions are non-negative where they count
        nearest_cell = floor(position + 0.5)
        weight = F.cast(F.equal(F.expand_dims(nearest_cell, 2), cells), start.dtype)
    else:
        low = floor(position)
        fraction = position - low
        weight = (F.expand_dims(1.0 - fraction, 2) * F.cast(F.equal(F.expand_dims(low, 2), cells), start.dtype)
                  + F.expand_dims(fraction, 2) * F.cast(F.equal(F.expand_dims(low + 1.0, 2), cells), start.dtype))
    return weight * F.expand_dims(F.cast(inside, start.dtype), 2), inside


class CropAndResize(Primitive):
    """``CropAndResize(method='bilinear', extrapolation_value=0.0)(x, boxes, box_index, crop_size)``: the boxes
    ``(N, 4)`` rows ``[y1, x1, y2, x2]`` (fractions of the image's height and width) of the images
    ``x[box_index]`` of ``x (B, H, W, C)``, sampled to ``crop_size = (crop_height, crop_width)``; a float32
    ``(N, crop_height, crop_width, C)``. Differentiable with respect to ``x`` and ``boxes``.

    Raises:
        TypeError: if ``method`` is not a str, ``extrapolation_value`` not a float or ``crop_size`` not a tuple of
            two positive ints.
        ValueError: for another ``method``, or inputs of the wrong ranks or sizes.
    """

    def __init__(self, method: str = "bilinear", extrapolation_value: float = 0.0) -> None:
        super().__init__("CropAndResize")
        check_value_type("method", method, [str], self.name)
        if method not in _METHODS:
            raise ValueError(f"For 'CropAndResize', the 'method' must be str and must be in '{list(_METHODS)}', but "
                             f"got '{method}'.")
        check_value_type("extrapolation_value", extrapolation_value, [float], self.name)
        self.method, self.extrapolation_value = method, extrapolation_value
        self.add_prim_attr("method", method).add_prim_attr("extrapolation_value", extrapolation_value)

    def __call__(self, x: Tensor, boxes: Tensor, box_index: Tensor, crop_size: tuple) -> Tensor:
        if not isinstance(crop_size, tuple) or len(crop_size) != 2 or \
                not all(isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in crop_size):
            raise TypeError(f"For 'CropAndResize', the 'crop_size' must be a tuple of two positive ints, but got "
                            f"{crop_size}.")
        if len(x.shape) != 4 or len(boxes.shape) != 2 or boxes.shape[1] != 4 or \
                tuple(box_index.shape) != (boxes.shape[0],):
            raise ValueError(f"For 'CropAndResize', expected x (B, H, W, C), boxes (N, 4) and box_index (N,), but "
                             f"got {x.shape}, {boxes.shape} and {box_index.shape}.")
        _, height, width, channels = x.shape
        count = boxes.shape[0]
        boxes = F.cast(boxes, mstype.float32)
        nearest = self.method == "nearest"
        rows, rows_inside = _sample_weights(boxes[:, 0], boxes[:, 2], height, crop_size[0], nearest)
        cols, cols_inside = _sample_weights(boxes[:, 1], boxes[:, 3], width, crop_size[1], nearest)
        images = F.cast(F.gather(x, box_index, 0), mstype.float32)                            # (N, H, W, C)
        sampled = F.matmul(rows, F.reshape(images, (count, height, width * channels)))      # (N, h, W * C)
        sampled = F.transpose(F.reshape(sampled, (count, crop_size[0], width, channels)), (0, 1, 3, 2))
        sampled = F.matmul(sampled, F.expand_dims(F.transpose(cols, (0, 2, 1)), 1))         # (N, h, C, w)
        sampled = F.transpose(sampled, (0, 1, 3, 2))
        inside = F.logical_and(F.expand_dims(rows_inside, 2), F.expand_dims(cols_inside, 1))
        return F.where(F.expand_dims(inside, 3), sampled, self.extrapolation_value)


def _window(name: str, value, attribute: str) -> tuple:
    """An int or a pair of ints as ``(h, w)``; MindSpore also takes ``(1, h, w, 1)``."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (value, value)
    if isinstance(value, tuple) and len(value) in (2, 4) and all(isinstance(v, int) for v in value):
        return value if len(value) == 2 else value[1:3]
    raise TypeError(f"For '{name}', the '{attribute}' must be an int or a tuple of 2 or 4 ints, but got {value}.")


class MaxPoolWithArgmax(Primitive):
    """``MaxPoolWithArgmax(kernel_size=1, strides=1, pad_mode='valid', data_format='NCHW')(x)``: 2-D max pooling
    of ``x (N, C, H, W)`` and, as int32, the flat index into each sample's ``(C, H, W)`` of each window's maximum.

    Raises:
        TypeError: if ``kernel_size`` or ``strides`` is not an int or a tuple of ints.
        ValueError: if ``pad_mode`` is not ``'valid'``/``'same'`` or ``data_format`` not ``'NCHW'``.
    """

    def __init__(self, kernel_size=1, strides=1, pad_mode: str = "valid", data_format: str = "NCHW") -> None:
        super().__init__("MaxPoolWithArgmax")
        self.kernel_size = _window(self.name, kernel_size, "kernel_size")
        self.strides = _window(self.name, strides, "strides")
        if not isinstance(pad_mode, str) or pad_mode.upper() not in ("VALID", "SAME"):
            raise ValueError(f"For '{self.name}', the 'pad_mode' must be str and must be in '['VALID', 'SAME']', "
                             f"but got '{pad_mode}'.")
        if data_format != "NCHW":
            raise ValueError(f"For '{self.name}', the 'data_format' must be 'NCHW' in npspore, but got {data_format}.")
        self.pad_mode = pad_mode.upper()
        self.add_prim_attr("pad_mode", self.pad_mode)
        self.add_prim_attr("kernel_size", (1,) + self.kernel_size + (1,))
        self.add_prim_attr("strides", (1,) + self.strides + (1,))

    def __call__(self, x: Tensor) -> tuple[Tensor, Tensor]:
        out, index = _max_pool(x, self.kernel_size, self.strides, self.pad_mode.lower(), 0, 1, False, self.name, True)
        plane = x.shape[2] * x.shape[3]   # MindSpore's index runs over each sample's (C, H, W)
        channel = F.reshape(Tensor([c * plane for c in range(x.shape[1])], mstype.int64), (1, -1, 1, 1))
        return out, F.cast(index + channel, mstype.int32)


def _pad_values(name: str, paddings) -> list:
    """``paddings`` (a tuple or list of ints, or an int Tensor) as a list of ints."""
    if isinstance(paddings, Tensor):   # compiled code reads (and guards) each value, as ops.range does
        flat = F.reshape(paddings, (-1,))
        paddings = [flat[i].asnumpy().item() for i in tuple(range(flat.shape[0]))]
    if not isinstance(paddings, (tuple, list)) or not all(isinstance(p, int) for p in paddings):
        raise TypeError(f"For '{name}', the 'paddings' must be a tuple of ints or an int Tensor, but got {paddings}.")
    return list(paddings)


_PADV3_MODES = {"constant": "constant", "reflect": "reflect"}


class PadV3(Primitive):
    """``PadV3(mode='constant', paddings_contiguous=True)(x, paddings, constant_value=None)``: ``x`` padded by
    ``(before, after)`` pairs from the last dim backwards (``paddings_contiguous=False``: all befores, then all
    afters); ``'constant'`` fills ``constant_value`` (0), ``'reflect'`` mirrors without the edge.

    Raises:
        ValueError: for a mode npspore does not implement (``'edge'``, ``'circular'``) or bad paddings.
    """

    def __init__(self, mode: str = "constant", paddings_contiguous: bool = True) -> None:
        super().__init__("PadV3")
        check_value_type("paddings_contiguous", paddings_contiguous, [bool], self.name)
        if mode not in _PADV3_MODES:
            raise ValueError(f"For 'PadV3', the 'mode' {mode!r} is not implemented in npspore; it takes "
                             f"{list(_PADV3_MODES)}.")
        self.mode, self.paddings_contiguous = mode, paddings_contiguous
        self.add_prim_attr("mode", mode).add_prim_attr("paddings_contiguous", paddings_contiguous)

    def __call__(self, x: Tensor, paddings, constant_value=None) -> Tensor:
        values = _pad_values(self.name, paddings)
        if self.mode != "constant" and len(x.shape) != len(values) // 2 + 2:
            raise ValueError(f"For primitive[PadV3], the input dims when padding's size equal {len(values)} must be "
                             f"equal to {len(values) // 2 + 2}, but got {len(x.shape)}.")
        if not self.paddings_contiguous:
            half = len(values) // 2
            values = [v for pair in zip(values[:half], values[half:]) for v in pair]
        value = constant_value.asnumpy().item() if isinstance(constant_value, Tensor) else constant_value
        return pad(x, tuple(values), _PADV3_MODES[self.mode], value if self.mode == "constant" else None)


class MirrorPad(Primitive):
    """``MirrorPad(mode='REFLECT')(x, paddings)``: ``x`` mirrored by the ``(rank, 2)`` ``paddings`` (one
    ``(before, after)`` row per dim, first dim first), without the edge (``'REFLECT'``) or with it
    (``'SYMMETRIC'``).

    Raises:
        ValueError: for another ``mode`` or paddings of the wrong shape.
    """

    def __init__(self, mode: str = "REFLECT") -> None:
        super().__init__("MirrorPad")
        if mode not in ("REFLECT", "SYMMETRIC"):
            raise ValueError(f"For 'MirrorPad', the 'mode' must be str and must be in '['REFLECT', 'SYMMETRIC']', "
                             f"but got '{mode}'.")
        self.mode = mode
        self.add_prim_attr("mode", mode)

    def __call__(self, input_x: Tensor, paddings) -> Tensor:
        values = _pad_values(self.name, paddings)
        rank = len(input_x.shape)
        if len(values) != 2 * rank:
            raise ValueError(f"For 'MirrorPad', the 'paddings' must have shape ({rank}, 2), but got {len(values)} "
                             f"values.")
        pairs = tuple((values[2 * d], values[2 * d + 1]) for d in range(rank))
        return pad_pairs(input_x, pairs, self.mode.lower())


# ---------------------------------------------------------------- the functional spellings of the primitives above


def reverse_sequence(x: Tensor, seq_lengths: Tensor, seq_dim: int, batch_dim: int = 0) -> Tensor:
    """:class:`ReverseSequence` ``(seq_dim, batch_dim)(x, seq_lengths)``."""
    return ReverseSequence(seq_dim, batch_dim)(x, seq_lengths)


def crop_and_resize(image: Tensor, boxes: Tensor, box_indices: Tensor, crop_size: tuple, method: str = "bilinear",
                    extrapolation_value: float = 0.0) -> Tensor:
    """:class:`CropAndResize` ``(method, extrapolation_value)(image, boxes, box_indices, crop_size)``."""
    return CropAndResize(method, extrapolation_value)(image, boxes, box_indices, crop_size)


def index_add(x: Tensor, indices: Tensor, y: Tensor, axis: int, use_lock: bool = True,
              check_index_bound: bool = True) -> Tensor:
    """:class:`IndexAdd` ``(axis, use_lock, check_index_bound)(x, indices, y)`` (in place on the Parameter ``x``)."""
    return IndexAdd(axis, use_lock, check_index_bound)(x, indices, y)


def inplace_add(x: Tensor, v: Tensor, indices) -> Tensor:
    """:class:`InplaceAdd` ``(indices)(x, v)``."""
    return InplaceAdd(indices)(x, v)


def lrn(x: Tensor, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0, beta: float = 0.5,
        norm_region: str = "ACROSS_CHANNELS") -> Tensor:
    """:class:`LRN` ``(depth_radius, bias, alpha, beta, norm_region)(x)``."""
    return LRN(depth_radius, bias, alpha, beta, norm_region)(x)


def mirror_pad(input_x: Tensor, paddings, mode: str) -> Tensor:
    """:class:`MirrorPad` ``(mode)(input_x, paddings)``."""
    return MirrorPad(mode)(input_x, paddings)
