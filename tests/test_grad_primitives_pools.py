"""MindSpore's pooling, padding and resizing gradient primitives (``ops.operations._grad_ops`` and the
``*Grad`` classes of ``ops.auto_generate.gen_ops_prim``: MaxPoolGradV1, MaxPoolGradWithArgmax(V2),
AvgPoolGradV1/Ge, AdaptiveAvgPool3DGrad(Ext), MirrorPadGrad, PadV3Grad, ReplicationPad{1,2,3}DGrad,
Upsample{Nearest,Trilinear}3DGrad, MaxPool3DGradWithArgmax, AdaptiveMaxPool3DGrad, MaxUnpool{2,3}DGrad,
Conv3DBackpropFilter, SparseSegment{Sum,Mean,SqrtN}Grad, InstanceNormGrad, MaxPool{,3D}GradGrad,
MaxPoolGradGradWithArgmax, MvlgammaGrad, ConcatOffset): MindSpore 2.10's values (recorded by
``tools/observe_mindspore_grad_primitives_pools.py`` from the real MindSpore, CPU, in a separate virtualenv), eagerly
and compiled; each one against central differences of a forward in float64 (NumPy's own padding where npspore has
no such forward op); and its own gradient against finite differences."""
import math

import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, ops
from npspore.mint.nn import functional as MF
from npspore.ops.auto_generate import gen_ops_prim
from npspore.ops.operations import _grad_ops as G
from grad_primitive_cases import X5, X_POOL
from grad_primitive_pool_cases import (ARGMAX, ARGMAX5, CASES, NORM_GAMMA, NORM_MEAN, NORM_VARIANCE, PAD_ROWS,
                                       SEGMENT_DIM0, SEGMENT_IDS, SEGMENT_INDICES, X_NORM)
from recorded_values import check_value
from test_grad_primitives import _row, check_derivative, check_own_gradient


# printed by tools/observe_mindspore_grad_primitives_pools.py (MindSpore 2.10.0 CPU); every result is Float32, and
# a string is the error MindSpore 2.10 CPU raises (no kernel: that primitive is checked by its derivative only)
MINDSPORE_VALUES = {
    'MaxPoolGradV1': 'RuntimeError: ',
    'MaxPoolGradWithArgmax': [[[[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, -2.0, 0.0], [0.0, 0.0, 0.0, 3.0], [0.5, 0.0, 0.0, 0.0]]]],
    'MaxPoolGradWithArgmaxV2': [[[[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, -2.0, 0.0], [0.0, 0.0, 0.0, 3.0], [0.5, 0.0, 0.0, 0.0]]]],
    'MaxPoolGradWithArgmaxV2_pads': [[[[0.0, 0.0, 0.0, 0.0], [0.0, 1.0, -2.0, 0.0], [0.0, 0.0, 0.0, 3.0], [0.5, 0.0, 0.0, 0.0]]]],
    'AvgPoolGradV1': 'TypeError: For Primitive[AvgPoolGradV1], the type of input argument[orig_input_shape] must be Tensor but got Tuple[Int64*4].',
    'AvgPoolGradV1_same': 'TypeError: For Primitive[AvgPoolGradV1], the type of input argument[orig_input_shape] must be Tensor but got Tuple[Int64*4].',
    'AvgPoolGradGe': 'RuntimeError: ',
    'AdaptiveAvgPool3DGrad': [[[[[-0.25, -0.4375, -0.3125, -0.125], [-0.25, -0.4375, -0.3125, -0.125], [-0.0625, -0.0625, 0.0625, 0.0625], [-0.0625, -0.0625, 0.0625, 0.0625]], [[0.125, 0.3125, 0.4375, 0.25], [0.125, 0.3125, 0.4375, 0.25], [0.3125, 0.6875, 0.8125, 0.4375], [0.3125, 0.6875, 0.8125, 0.4375]]]]],
    'AdaptiveAvgPool3DGradExt': 'RuntimeError: The kernel AdaptiveAvgPool3DGradExt unregistered.',
    'MirrorPadGrad': [[[[-1.5, -3.0, -3.8333332538604736, -1.0], [-3.0, -6.0, -7.6666669845581055, -2.0], [3.999999761581421, 8.0, 13.333333969116211, 5.0], [2.0, 4.0, 6.666666507720947, 2.5]]]],
    'MirrorPadGrad_symmetric': [[[[-8.666666984558105, -8.666666984558105, -3.5, -6.0], [-0.8333332538604736, -0.8333334922790527, 0.0, 0.5], [1.5, 1.5, 1.1666665077209473, 2.8333334922790527], [10.0, 10.0, 5.833333492279053, 12.666666030883789]]]],
    'PadV3Grad': [[[[-1.5, -3.0, -3.8333332538604736, -1.0], [-3.0, -6.0, -7.6666669845581055, -2.0], [3.999999761581421, 8.0, 13.333333969116211, 5.0], [2.0, 4.0, 6.666666507720947, 2.5]]]],
    'PadV3Grad_edge': [[[[-13.5, -3.8333334922790527, -3.5, -6.0], [-1.5, -0.16666674613952637, 0.0, 0.5], [2.0, 1.0, 1.1666665077209473, 2.8333334922790527], [14.5, 5.5, 5.833333492279053, 12.666666030883789]]]],
    'ReplicationPad1DGrad': 'RuntimeError: The kernel ReplicationPad1DGrad unregistered.',
    'ReplicationPad2DGrad': 'RuntimeError: The kernel ReplicationPad2DGrad unregistered.',
    'ReplicationPad3DGrad': 'RuntimeError: The kernel ReplicationPad3DGrad unregistered.',
    'UpsampleNearest3DGrad': [[[[[-0.5, 0.5], [2.5, 2.0]]]]],
    'UpsampleTrilinear3DGrad': [[[[[-0.5, 0.5], [1.75, 2.75]]]]],
    'UpsampleTrilinear3DGrad_align': [[[[[-0.5, 0.5], [1.75, 2.75]]]]],
    'MaxPool3DGradWithArgmax': [[[[[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, -2.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]], [[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.5, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 3.0]]]]],
    'AdaptiveMaxPool3DGrad': [[[[[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, -2.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]], [[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.5, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 3.0]]]]],
    'MaxUnpool2DGrad': [[[[-1.75, -0.5], [1.0, 0.75]]]],
    'MaxUnpool3DGrad': [[[[[0.125, -1.25], [1.0, 1.875]]]]],
    'Conv3DBackpropFilter': [[[[[-1.7300008535385132, 3.8496246337890625], [2.1457173824310303, 2.1115736961364746]], [[1.2086899280548096, -2.8591859340667725], [-0.9350054860115051, -2.079315185546875]]]]],
    'SparseSegmentSumGrad': 'RuntimeError: ',
    'SparseSegmentMeanGrad': [[0.5, -1.0], [-0.75, 0.125], [0.0, 0.0], [-0.25, -0.875], [0.0, 0.0]],
    'SparseSegmentSqrtNGrad': [[0.7071067690849304, -1.4142135381698608], [-1.0606602430343628, 0.1767766922712326], [0.0, 0.0], [-0.3535534739494324, -1.2374368906021118], [0.0, 0.0]],
    'InstanceNormGrad': 'RuntimeError: ',
    'MaxPoolGradGrad': [[[[0.8414710164070129, -0.279415488243103], [-0.5365729331970215, -0.9999902248382568]]]],
    'MaxPoolGradGradWithArgmax': [[[[0.8414710164070129, -0.279415488243103], [-0.5365729331970215, -0.9999902248382568]]]],
    'MaxPool3DGradGrad': [[[[[0.4080820679664612, 0.9601702690124512], [0.9074468016624451, -0.29213881492614746]]]]],
    'MvlgammaGrad': [[2.5042359828948975, 1.185131549835205], [1.024362564086914, 13.518245697021484]],
}


@pytest.mark.parametrize("case", [case for case in CASES if not isinstance(MINDSPORE_VALUES[case], str)])
def test_mindspore_values(case):
    name, keywords, inputs = CASES[case]
    primitive = getattr(G, name)(**keywords)
    arguments = [Tensor(item) if isinstance(item, np.ndarray) else item for item in inputs]
    for out in (primitive(*arguments), ms.jit(lambda *tensors: primitive(*tensors))(*arguments)):
        check_value(out, (MINDSPORE_VALUES[case], "Float32"))


def _edge_padded(pairs):
    """NumPy's ``'edge'`` padding by ``pairs`` (one per dim, first dim first): the replication pads' forward."""
    return lambda x: Tensor(np.pad(x.asnumpy(), pairs, "edge"))


def _trilinear(size, align_corners):
    """A 5-D input resized to ``size`` by ``ops.interpolate``'s linear mode along each of its last three dims."""
    def resize(x):
        for axis, new in enumerate(size, start=2):
            swap = tuple(4 if dim == axis else axis if dim == 4 else dim for dim in range(5))
            moved = ops.transpose(x, swap)
            lines = ops.interpolate(moved.reshape(-1, 1, moved.shape[-1]), (new,), mode="linear",
                                    align_corners=align_corners)
            x = ops.transpose(lines.reshape(moved.shape[:-1] + (new,)), swap)
        return x

    return resize


X_POOL64 = X_POOL.astype(np.float64)
X5_64 = X5.astype(np.float64)
X_PAD3 = np.linspace(-2, 2, 24).reshape(1, 1, 2, 3, 4)
ARGMAX_PADS = np.array([[[[1, 6], [12, 6]]]], np.int64)    # max_pool2d(X_POOL, 3, 2, 1)'s
X_UP = np.linspace(-1, 1.5, 12).reshape(1, 1, 2, 2, 3)
X_SEGMENTS = np.linspace(-1, 2, 10).reshape(5, 2)
SEGMENTS = (SEGMENT_INDICES, SEGMENT_IDS, SEGMENT_DIM0)


def _window_argmax(x):
    """The flat index into each (D, H, W) plane of ``x (1, 1, D, H, W)`` of each 2 x 2 x 2 window's maximum."""
    planes = x[0, 0]
    found = np.zeros((1, 1) + tuple(n // 2 for n in planes.shape), np.int64)
    for index in np.ndindex(found.shape[2:]):
        window = planes[tuple(slice(2 * i, 2 * i + 2) for i in index)]
        offset = np.unravel_index(np.argmax(window), window.shape)
        found[(0, 0) + index] = np.ravel_multi_index(tuple(2 * i + o for i, o in zip(index, offset)), planes.shape)
    return found


def _sparse_segment(per_segment):
    """``SparseSegment{Sum,Mean,SqrtN}``'s forward on the cases' segments: ``x[SEGMENT_INDICES]`` added into row
    ``SEGMENT_IDS`` of three, each segment's sum scaled by ``per_segment`` (1, 1 / count, 1 / sqrt(count))."""
    scale = Tensor(np.array(per_segment).reshape(3, 1))
    return lambda x: ops.tensor_scatter_add(ops.zeros((3, 2), ms.float64), Tensor(SEGMENT_IDS.reshape(-1, 1)),
                                            ops.gather(x, Tensor(SEGMENT_INDICES), 0)) * scale


def _mvlgamma3(x):
    """The multivariate log-gamma of dimension 3, by the standard library's ``lgamma``."""
    log_gamma = np.vectorize(math.lgamma)
    return Tensor(sum(log_gamma(x.asnumpy() - i / 2) for i in range(3)) + 1.5 * math.log(math.pi))


def _unpooled3d(x):
    """``x`` written at ``ARGMAX5``'s flat indices of a 2 x 4 x 4 plane (zeros elsewhere): MaxUnpool3D's output."""
    out = np.zeros(32)
    out[ARGMAX5.ravel()] = x.asnumpy().ravel()
    return Tensor(out.reshape(1, 1, 2, 4, 4))

DERIVATIVES = {case: _row(*row[:4], *row[4:]) for case, row in {
    "MaxPoolGradV1": ("MaxPoolGradV1", lambda x: ops.MaxPool(2, 2)(x), "xyd", X_POOL64,
                      {"kernel_size": (1, 1, 2, 2), "strides": 2}),
    "MaxPoolGradWithArgmax": ("MaxPoolGradWithArgmax", lambda x: ops.MaxPoolWithArgmax(2, 2)(x)[0], "xdc", X_POOL64,
                              {"kernel_size": 2, "strides": 2}, (ARGMAX,)),
    "MaxPoolGradWithArgmaxV2": ("MaxPoolGradWithArgmaxV2", lambda x: ops.max_pool2d(x, 3, 2, 1), "xdc", X_POOL64,
                                {"kernel_size": 3, "strides": 2, "pads": 1}, (ARGMAX_PADS,)),
    "AvgPoolGradV1": ("AvgPoolGradV1", lambda x: ops.AvgPool(3, 2, "SAME")(x), "cd", X_POOL64,
                      {"kernel_size": 3, "strides": 2, "pad_mode": "SAME"}, (np.array([1, 1, 4, 4], np.int64),)),
    "AvgPoolGradGe": ("AvgPoolGradGe", lambda x: ops.AvgPool(2, 1)(x), "cd", X_POOL64,
                      {"kernel_size": (2, 2), "strides": 1}, ((1, 1, 4, 4),)),
    "AdaptiveAvgPool3DGrad": ("AdaptiveAvgPool3DGrad", lambda x: MF.adaptive_avg_pool3d(x, (2, 3, 3)), "dc", X5_64,
                              None, (np.array([1, 1, 2, 4, 4], np.int32),)),
    "AdaptiveAvgPool3DGradExt": ("AdaptiveAvgPool3DGradExt", lambda x: MF.adaptive_avg_pool3d(x, (1, 3, 2)), "dx",
                                 X5_64),
    "MirrorPadGrad": ("MirrorPadGrad", lambda x: ops.MirrorPad()(x, Tensor(PAD_ROWS)), "dc", X_POOL64, None,
                      (PAD_ROWS,)),
    "MirrorPadGrad_symmetric": ("MirrorPadGrad", lambda x: ops.MirrorPad("SYMMETRIC")(x, Tensor(PAD_ROWS)), "dc",
                                X_POOL64, {"mode": "SYMMETRIC"}, (PAD_ROWS,)),
    "PadV3Grad": ("PadV3Grad", lambda x: ops.pad(x, (2, 1, 1, 1), "reflect"), "dc", X_POOL64, None,
                  (np.array([2, 1, 1, 1], np.int64),)),
    "PadV3Grad_edge": ("PadV3Grad", _edge_padded(((0, 0), (0, 0), (1, 2), (2, 1))), "dc", X_POOL64,
                       {"mode": "edge", "paddings_contiguous": False}, (np.array([2, 1, 1, 2], np.int64),)),
    "ReplicationPad1DGrad": ("ReplicationPad1DGrad", _edge_padded(((0, 0), (0, 0), (1, 2))), "dxc",
                             X_POOL64[0], None, ((1, 2),)),
    "ReplicationPad2DGrad": ("ReplicationPad2DGrad", _edge_padded(((0, 0), (0, 0), (1, 1), (2, 1))), "dxc",
                             X_POOL64, None, ((2, 1, 1, 1),)),
    "ReplicationPad3DGrad": ("ReplicationPad3DGrad", _edge_padded(((0, 0), (0, 0), (0, 1), (1, 1), (1, 2))), "dxc",
                             X_PAD3, None, ((1, 2, 1, 1, 0, 1),)),
    "UpsampleNearest3DGrad": ("UpsampleNearest3DGrad",
                              lambda x: Tensor(x.asnumpy()[:, :, [0, 0, 1]][:, :, :, [0, 0, 1]][..., [0, 0, 1, 2]]),
                              "dcc", X_UP, None, ((1, 1, 2, 2, 3), (3, 3, 4))),
    "UpsampleTrilinear3DGrad": ("UpsampleTrilinear3DGrad", _trilinear((3, 4, 5), False), "dcc", X_UP, None,
                                ((1, 1, 2, 2, 3), (3, 4, 5))),
    "UpsampleTrilinear3DGrad_align": ("UpsampleTrilinear3DGrad", _trilinear((3, 4, 5), True), "dcc", X_UP,
                                      {"align_corners": True}, ((1, 1, 2, 2, 3), (3, 4, 5))),
    "MaxPool3DGradWithArgmax": ("MaxPool3DGradWithArgmax", lambda x: ops.MaxPool3D(2, 2)(x), "xdc", X5_64,
                                {"ksize": 2, "strides": 2, "pads": 0}, (_window_argmax(X5),)),
    "AdaptiveMaxPool3DGrad": ("AdaptiveMaxPool3DGrad", lambda x: ops.MaxPool3D(2, 2)(x), "dxc", X5_64, None,
                              (_window_argmax(X5).astype(np.int32),)),
    "MaxUnpool2DGrad": ("MaxUnpool2DGrad", lambda x: MF.max_unpool2d(x, Tensor(ARGMAX.astype(np.int64)), 2, 2), "xdc",
                        np.array([[[[0.5, -1.25], [2.0, 0.75]]]]), {"ksize": 2, "strides": 2}, (ARGMAX,)),
    "MaxUnpool3DGrad": ("MaxUnpool3DGrad", _unpooled3d, "xdc", np.array([0.5, -1.25, 2.0, 0.75]).reshape(1, 1, 1, 2, 2),
                        {"ksize": 2, "strides": 2}, (ARGMAX5,)),
    "Conv3DBackpropFilter": ("Conv3DBackpropFilter", lambda w: ops.conv3d(Tensor(X5_64), w, None, 2, "pad", 1), "cdc",
                             np.linspace(-1, 1, 8).reshape(1, 1, 2, 2, 2),
                             {"out_channel": 1, "kernel_size": 2, "pad_mode": "pad", "pad": 1, "stride": 2},
                             (X5_64, (1, 1, 2, 2, 2))),
    "SparseSegmentSumGrad": ("SparseSegmentSumGrad", _sparse_segment([1.0, 1.0, 1.0]), "dccc", X_SEGMENTS, None,
                             SEGMENTS),
    "SparseSegmentMeanGrad": ("SparseSegmentMeanGrad", _sparse_segment([0.5, 1.0, 0.5]), "dccc", X_SEGMENTS, None,
                              SEGMENTS),
    "SparseSegmentSqrtNGrad": ("SparseSegmentSqrtNGrad", _sparse_segment([0.5 ** 0.5, 1.0, 0.5 ** 0.5]), "dccc",
                               X_SEGMENTS, None, SEGMENTS),
    "InstanceNormGrad": ("InstanceNormGrad", lambda x: ops.instance_norm(x, Tensor(NORM_GAMMA.astype(np.float64)),
                                                                        Tensor(np.array([0.25, -1.0])), eps=1e-5),
                         "dxccc", X_NORM.astype(np.float64), {"epsilon": 1e-5}, (NORM_GAMMA, NORM_MEAN, NORM_VARIANCE),
                         0),
    "InstanceNormGrad_gamma": ("InstanceNormGrad", lambda g: ops.instance_norm(Tensor(X_NORM.astype(np.float64)), g,
                                                                              Tensor(np.array([0.25, -1.0])), eps=1e-5),
                               "dcxcc", NORM_GAMMA.astype(np.float64), {"epsilon": 1e-5},
                               (X_NORM, NORM_MEAN, NORM_VARIANCE), 1),
    "MvlgammaGrad": ("MvlgammaGrad", _mvlgamma3, "dx", np.array([[1.5, 2.25], [3.0, 5.5]]), {"p": 3}),
}.items()}


@pytest.mark.parametrize("case", sorted(DERIVATIVES))
@pytest.mark.parametrize("check", [check_derivative, check_own_gradient])
def test_derivatives(check, case):
    # the forward's vjp by central differences in float64, then the primitive's own gradient
    check(DERIVATIVES[case])


def test_paths_and_errors():
    assert gen_ops_prim.ReplicationPad2DGrad is G.ReplicationPad2DGrad
    assert gen_ops_prim.UpsampleTrilinear3DGrad is G.UpsampleTrilinear3DGrad
    with pytest.raises(AttributeError, match="MirrorPadGrad"):
        gen_ops_prim.MirrorPadGrad  # noqa: B018 (only _grad_ops has it in MindSpore 2.10)
    with pytest.raises(ValueError, match="'circular' is not implemented in npspore"):
        G.PadV3Grad("circular")(Tensor(np.zeros((1, 1, 4, 4), np.float32)), (1, 1, 1, 1))
    with pytest.raises(ValueError, match="MirrorPadGrad.*paddings"):
        G.MirrorPadGrad()(Tensor(np.zeros((1, 1, 4, 4), np.float32)), Tensor(np.array([[1, 1], [1, 1]])))
    with pytest.raises(ValueError, match="PadV3Grad.*leave no input"):
        G.PadV3Grad()(Tensor(np.zeros((1, 1, 2, 2), np.float32)), (1, 1, 1, 1))


GRAD_GRADS = {   # case -> (primitive, keywords, forward pooling, point, its move, argmax or None)
    "MaxPoolGradGrad": ("MaxPoolGradGrad", {"kernel_size": 2, "strides": 2}, ops.MaxPool(2, 2), X_POOL64, None),
    "MaxPoolGradGrad_same": ("MaxPoolGradGrad", {"kernel_size": 3, "strides": 2, "pad_mode": "SAME"},
                             ops.MaxPool(3, 2, "SAME"), X_POOL64 * np.array([1.0, -1.0, 0.5, 2.0]), None),
    "MaxPoolGradGradWithArgmax": ("MaxPoolGradGradWithArgmax", {"kernel_size": 2, "strides": 2}, ops.MaxPool(2, 2),
                                  X_POOL64, ARGMAX),
    "MaxPool3DGradGrad": ("MaxPool3DGradGrad", {"kernel_size": 2, "strides": 2}, ops.MaxPool3D(2, 2), X5_64, None),
}


@pytest.mark.parametrize("case", sorted(GRAD_GRADS))
def test_max_pool_grad_grads_are_directional_derivatives(case):
    # the pooled output's change when x moves along `move`, by central differences in float64
    name, keywords, pool, x, argmax = GRAD_GRADS[case]
    move = np.cos(np.arange(x.size) * 0.7).reshape(x.shape)
    step = 1e-6
    expected = (pool(Tensor(x + step * move)).asnumpy() - pool(Tensor(x - step * move)).asnumpy()) / (2 * step)
    primitive = getattr(G, name)(**keywords)
    if argmax is None:
        out = primitive(Tensor(x), pool(Tensor(x)), Tensor(move))
    else:
        out = primitive(Tensor(x), Tensor(move), Tensor(argmax))
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-6, atol=1e-8)


def test_concat_offset():
    # MindSpore 2.10 CPU: ConcatOffset(3, 1) of (2, 3, 4), (2, 1, 4), (2, 5, 4) zeros; ConcatOffset(2, -1) of (2, 3, 4) twice
    tensors = tuple(Tensor(np.zeros(shape, np.float32)) for shape in [(2, 3, 4), (2, 1, 4), (2, 5, 4)])
    primitive = G.ConcatOffset(3, 1)
    for out in (primitive(tensors), ms.jit(lambda *xs: primitive(xs))(*tensors)):
        check_value(out, ([[0, 0, 0], [0, 3, 0], [0, 4, 0]], "Int64"))
    check_value(G.ConcatOffset(2, -1)((tensors[0], tensors[0])), ([[0, 0, 0], [0, 0, 4]], "Int64"))
    with pytest.raises(ValueError, match="'axis' must be in"):
        G.ConcatOffset(2, 3)((tensors[0], tensors[0]))
