"""The inputs of tests/test_grad_primitives_pools.py's cases (pooling, padding and resizing gradients), which
tools/observe_mindspore_grad_primitives_pools.py runs on the real MindSpore 2.10 (NumPy only, so that both
interpreters import it)."""
import numpy as np

from grad_primitive_cases import DY_POOL, POOL_MAX, X3, X5, X_POOL

X5_32 = X5.astype(np.float32)
ARGMAX = np.array([[[[1, 6], [12, 11]]]], np.int32)         # MaxPoolWithArgmax's of X_POOL, kernel 2, stride 2
DY5_POOL = np.array([1.0, -2.0, 0.5, 3.0], np.float32).reshape(1, 1, 1, 2, 2)
DY_ADAPTIVE3D = np.arange(12, dtype=np.float32).reshape(1, 1, 2, 2, 3) / 4 - 1
DY_MIRROR = np.arange(42, dtype=np.float32).reshape(1, 1, 6, 7) / 6 - 3    # X_POOL-sized input, padded
PAD_ROWS = np.array([[0, 0], [0, 0], [1, 1], [2, 1]], np.int64)             # MirrorPad's (rank, 2) paddings
DY_PAD1 = np.arange(14, dtype=np.float32).reshape(1, 2, 7) / 2 - 3
DY_PAD3 = np.arange(2 * 5 * 6, dtype=np.float32).reshape(1, 1, 2, 5, 6) / 8 - 2
ARGMAX5 = np.array([17, 6, 24, 31], np.int64).reshape(1, 1, 1, 2, 2)   # any flat indices into each (D, H, W)
UNPOOLED = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4) / 4 - 2  # MaxUnpool2D's output gradient
UNPOOLED5 = np.arange(32, dtype=np.float32).reshape(1, 1, 2, 4, 4) / 8 - 2
DY_CONV3D = np.cos(np.arange(18, dtype=np.float32)).reshape(1, 1, 2, 3, 3)   # Conv3D(1, 2, pad 1, stride 2)'s of X5
GRAD_SEGMENTS = np.array([[1.0, -2.0], [0.5, 3.0], [-1.5, 0.25]], np.float32)   # three segments' gradients
SEGMENT_INDICES = np.array([0, 3, 1, 3], np.int32)     # rows of x (4 of them), 3 taken twice
SEGMENT_IDS = np.array([0, 0, 2, 2], np.int32)
SEGMENT_DIM0 = np.array(5, np.int32)
X_NORM = np.sin(np.arange(24, dtype=np.float32)).reshape(2, 2, 2, 3)
DY_NORM = np.cos(np.arange(24, dtype=np.float32)).reshape(2, 2, 2, 3)
NORM_GAMMA = np.array([0.5, 2.0], np.float32)
NORM_MEAN = X_NORM.mean((2, 3)).reshape(-1)
NORM_VARIANCE = X_NORM.var((2, 3)).reshape(-1)
GRAD_X_POOL = np.sin(np.arange(16, dtype=np.float32)).reshape(1, 1, 4, 4)   # a move of X_POOL
GRAD_X5 = np.cos(np.arange(32, dtype=np.float32)).reshape(1, 1, 2, 4, 4)      # a move of X5
X5_MAX = X5_32.reshape(1, 1, 1, 2, 2, 2, 2, 2).max((3, 5, 7))

# case -> (primitive, constructor keywords, input arrays), as the observing tool calls it
CASES = {
    "MaxPoolGradV1": ("MaxPoolGradV1", {"kernel_size": (2, 2), "strides": (2, 2)}, (X_POOL, POOL_MAX, DY_POOL)),
    "MaxPoolGradWithArgmax": ("MaxPoolGradWithArgmax", {"kernel_size": 2, "strides": 2}, (X_POOL, DY_POOL, ARGMAX)),
    "MaxPoolGradWithArgmaxV2": ("MaxPoolGradWithArgmaxV2", {"kernel_size": 2, "strides": 2},
                                (X_POOL, DY_POOL, ARGMAX.astype(np.int64))),
    "MaxPoolGradWithArgmaxV2_pads": ("MaxPoolGradWithArgmaxV2", {"kernel_size": 3, "strides": 2, "pads": 1},
                                     (X_POOL, DY_POOL, np.array([[[[5, 6], [12, 11]]]], np.int64))),
    "AvgPoolGradV1": ("AvgPoolGradV1", {"kernel_size": 2, "strides": 2}, ((1, 1, 4, 4), DY_POOL)),
    "AvgPoolGradV1_same": ("AvgPoolGradV1", {"kernel_size": 3, "strides": 2, "pad_mode": "SAME"},
                           ((1, 1, 4, 4), DY_POOL)),
    "AvgPoolGradGe": ("AvgPoolGradGe", {"kernel_size": 2, "strides": 2}, ((1, 1, 4, 4), DY_POOL)),
    "AdaptiveAvgPool3DGrad": ("AdaptiveAvgPool3DGrad", {}, (DY_ADAPTIVE3D, np.array([1, 1, 2, 4, 4], np.int32))),
    "AdaptiveAvgPool3DGradExt": ("AdaptiveAvgPool3DGradExt", {}, (DY_ADAPTIVE3D, X5_32)),
    "MirrorPadGrad": ("MirrorPadGrad", {}, (DY_MIRROR, PAD_ROWS)),
    "MirrorPadGrad_symmetric": ("MirrorPadGrad", {"mode": "SYMMETRIC"}, (DY_MIRROR, PAD_ROWS)),
    "PadV3Grad": ("PadV3Grad", {}, (DY_MIRROR, np.array([2, 1, 1, 1], np.int64))),
    "PadV3Grad_edge": ("PadV3Grad", {"mode": "edge"}, (DY_MIRROR, np.array([2, 1, 1, 1], np.int64))),
    "ReplicationPad1DGrad": ("ReplicationPad1DGrad", {}, (DY_PAD1, X3[:, :, :4], (1, 2))),
    "ReplicationPad2DGrad": ("ReplicationPad2DGrad", {}, (DY_MIRROR, X_POOL, (2, 1, 1, 1))),
    "ReplicationPad3DGrad": ("ReplicationPad3DGrad", {}, (DY_PAD3, X5_32[:, :, :1, :3, :], (1, 1, 1, 1, 0, 1))),
    "UpsampleNearest3DGrad": ("UpsampleNearest3DGrad", {}, (DY_ADAPTIVE3D, (1, 1, 1, 2, 2), (2, 2, 3), None)),
    "UpsampleTrilinear3DGrad": ("UpsampleTrilinear3DGrad", {}, (DY_ADAPTIVE3D, (1, 1, 1, 2, 2), (2, 2, 3), None)),
    "UpsampleTrilinear3DGrad_align": ("UpsampleTrilinear3DGrad", {"align_corners": True},
                                      (DY_ADAPTIVE3D, (1, 1, 1, 2, 2), (2, 2, 3), None)),
    "MaxPool3DGradWithArgmax": ("MaxPool3DGradWithArgmax", {"ksize": 2, "strides": 2, "pads": 0},
                                (X5_32, DY5_POOL, ARGMAX5.astype(np.int32))),
    "AdaptiveMaxPool3DGrad": ("AdaptiveMaxPool3DGrad", {}, (DY5_POOL, X5_32, ARGMAX5)),
    "MaxUnpool2DGrad": ("MaxUnpool2DGrad", {"ksize": (1, 1, 2, 2), "strides": (1, 1, 2, 2), "pads": (0, 0, 0, 0),
                                          "output_shape": (1, 1, 4, 4)},
                        (DY_POOL, UNPOOLED, ARGMAX.astype(np.int64))),
    "MaxUnpool3DGrad": ("MaxUnpool3DGrad", {"ksize": (1, 1, 2, 2, 2), "strides": (1, 1, 2, 2, 2),
                                          "pads": (0, 0, 0, 0, 0), "output_shape": (1, 1, 2, 4, 4)},
                        (DY5_POOL, UNPOOLED5, ARGMAX5)),
    "Conv3DBackpropFilter": ("Conv3DBackpropFilter", {"out_channel": 1, "kernel_size": 2, "pad_mode": "pad", "pad": 1,
                                                      "stride": 2}, (X5_32, DY_CONV3D, (1, 1, 2, 2, 2))),
    "SparseSegmentSumGrad": ("SparseSegmentSumGrad", {},
                             (GRAD_SEGMENTS, SEGMENT_INDICES, SEGMENT_IDS, SEGMENT_DIM0)),
    "SparseSegmentMeanGrad": ("SparseSegmentMeanGrad", {},
                              (GRAD_SEGMENTS, SEGMENT_INDICES, SEGMENT_IDS, SEGMENT_DIM0)),
    "SparseSegmentSqrtNGrad": ("SparseSegmentSqrtNGrad", {},
                               (GRAD_SEGMENTS, SEGMENT_INDICES, SEGMENT_IDS, SEGMENT_DIM0)),
    "InstanceNormGrad": ("InstanceNormGrad", {"epsilon": 1e-5},
                         (DY_NORM, X_NORM, NORM_GAMMA, NORM_MEAN, NORM_VARIANCE)),
    "MaxPoolGradGrad": ("MaxPoolGradGrad", {"kernel_size": 2, "strides": 2}, (X_POOL, POOL_MAX, GRAD_X_POOL)),
    "MaxPoolGradGradWithArgmax": ("MaxPoolGradGradWithArgmax", {"kernel_size": 2, "strides": 2},
                                  (X_POOL, GRAD_X_POOL, ARGMAX)),
    "MaxPool3DGradGrad": ("MaxPool3DGradGrad", {"kernel_size": 2, "strides": 2}, (X5_32, X5_MAX, GRAD_X5)),
    "MvlgammaGrad": ("MvlgammaGrad", {"p": 3}, (np.array([[-1.0, 2.0], [0.5, 3.0]], np.float32),
                                                 np.array([[1.5, 2.25], [3.0, 5.5]], np.float32))),
}
