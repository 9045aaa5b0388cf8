"""The inputs of tests/test_grad_primitives.py's cases, which tools/observe_mindspore_grad_primitives.py runs on
the real MindSpore 2.10 (NumPy only, so that both interpreters import it)."""
import numpy as np

Y = np.array([[0.25, 0.5, 0.75], [0.1, 0.6, 0.9]], np.float32)
X = np.array([[-1.5, -0.25, 0.0], [0.5, 2.0, 7.0]], np.float32)
DY = np.array([[1.0, -2.0, 0.5], [3.0, 0.25, -1.5]], np.float32)
ONES = np.ones((2, 3), np.float32)
KINKS = np.array([[-1.0, 0.0, 3.0], [6.0, 7.0, 6.5]], np.float32)   # ReLU6's
X2 = np.array([[-1.5, 0.5, 0.0], [1.0, 2.0, 7.5]], np.float32)      # ties with X at three places
TARGET = np.array([[0.5, -1.0, 2.0], [0.0, 1.5, 6.0]], np.float32)
LABELS01 = np.array([[0.0, 1.0, 0.25], [1.0, 0.0, 0.5]], np.float32)
SIGNS = np.array([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]], np.float32)
PROBS = np.array([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]], np.float32)
MASK = np.array([[True, False, True], [False, True, True]])
KEEP = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]], np.float32)
SCALAR = np.array(1.5, np.float32)
INDEX = np.array([[2, 0], [1, 1]], np.int64)
DY22 = np.array([[1.0, -2.0], [0.5, 3.0]], np.float32)
X4 = np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4) / 10 - 1
X3 = np.arange(10, dtype=np.float32).reshape(1, 2, 5) / 4 - 1
DY_PAD1 = np.arange(14, dtype=np.float32).reshape(1, 2, 7) / 2 - 3
X_PAD2 = np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4)
DY_PAD2 = np.arange(30, dtype=np.float32).reshape(1, 1, 5, 6) / 3 - 4
LOG_SOFTMAX = np.log(PROBS)
GAMMA = np.array([0.5, -1.0, 2.0], np.float32)
X_MEAN = X.mean(-1, keepdims=True)
X_VAR = X.var(-1, keepdims=True)
CHANNELS = np.array([0.5, 2.0], np.float32)
X4_MEAN = X4.mean((0, 2, 3))
X4_VAR = X4.var((0, 2, 3))
X_POOL = np.array([[[[1.0, 5.0, 2.0, 0.0], [3.0, 4.0, 8.0, 6.0], [0.5, 2.5, 1.5, 7.0], [9.0, 1.0, 3.5, 2.0]]]],
                  np.float32)
POOL_MAX = np.array([[[[5.0, 8.0], [9.0, 7.0]]]], np.float32)
POOL_MEAN = X_POOL.reshape(1, 1, 2, 2, 2, 2).mean((3, 5))
DY_POOL = np.array([[[[1.0, -2.0], [0.5, 3.0]]]], np.float32)
DY_UP = np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4) / 4 - 2
DY_BN = np.sin(np.arange(24, dtype=np.float32)).reshape(1, 2, 3, 4)
DY_UP1 = np.arange(10, dtype=np.float32).reshape(1, 2, 5) / 2 - 2
IMAGE = np.zeros((1, 2, 2, 3), np.float32)
X5 = (np.arange(32, dtype=np.float32) % 7).reshape(1, 1, 2, 4, 4) + np.arange(32).reshape(1, 1, 2, 4, 4) / 64
X5_MAX = X5.reshape(1, 1, 1, 2, 2, 2, 2, 2).max((3, 5, 7))
X5_MEAN = X5.reshape(1, 1, 1, 2, 2, 2, 2, 2).mean((3, 5, 7))
DY5 = np.array([1.0, -2.0, 0.5, 3.0], np.float32).reshape(1, 1, 1, 2, 2)
X_LRN = np.sin(np.arange(12, dtype=np.float32)).reshape(1, 3, 2, 2)
DY_LRN = np.cos(np.arange(12, dtype=np.float32)).reshape(1, 3, 2, 2)
ROIS = np.array([[0, 0.2, 0.3, 2.5, 2.8]], np.float32)
GRID = np.array([[[[-0.5, -0.25], [0.3, 0.8]], [[0.9, -0.9], [0.0, 0.1]]]], np.float32)
X_SAMPLE = np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4) / 5



# case -> (primitive, constructor keywords, input arrays), as tools/observe_mindspore_grad_primitives.py calls it
CASES = {
    "SigmoidGrad": ("SigmoidGrad", {}, (Y, DY)),
    "TanhGrad": ("TanhGrad", {}, (Y, DY)),
    "SqrtGrad": ("SqrtGrad", {}, (Y, DY)),
    "RsqrtGrad": ("RsqrtGrad", {}, (Y, DY)),
    "ReciprocalGrad": ("ReciprocalGrad", {}, (Y, DY)),
    "InvGrad": ("InvGrad", {}, (Y, DY)),
    "ReluGrad": ("ReluGrad", {}, (DY, X)),
    "AcoshGrad": ("AcoshGrad", {}, (Y, DY)),
    "AsinhGrad": ("AsinhGrad", {}, (Y, DY)),
    "EluGrad": ("EluGrad", {}, (DY, X)),
    "SeluGrad": ("SeluGrad", {}, (DY, X)),
    "AbsGrad": ("AbsGrad", {}, (X, DY)),
    "ACosGrad": ("ACosGrad", {}, (Y, DY)),
    "AsinGrad": ("AsinGrad", {}, (Y, DY)),
    "AtanGrad": ("AtanGrad", {}, (X, DY)),
    "ReLU6Grad": ("ReLU6Grad", {}, (DY, X)),
    "ReLU6Grad_kinks": ("ReLU6Grad", {}, (ONES, KINKS)),
    "SoftplusGrad": ("SoftplusGrad", {}, (DY, X)),
    "FastGeLUGrad": ("FastGeLUGrad", {}, (DY, X)),
    "HSigmoidGrad": ("HSigmoidGrad", {}, (DY, X)),
    "HSwishGrad": ("HSwishGrad", {}, (DY, X)),
    "SiLUGrad": ("SiLUGrad", {}, (DY, X)),
    "HShrinkGrad": ("HShrinkGrad", {}, (DY, X)),
    "HShrinkGrad_lambd": ("HShrinkGrad", {"lambd": 1.8}, (DY, X)),
    "SoftShrinkGrad": ("SoftShrinkGrad", {}, (DY, X)),
    "SoftShrinkGrad_lambd": ("SoftShrinkGrad", {"lambd": 1.8}, (DY, X)),
    "LogitGrad": ("LogitGrad", {}, (DY, Y)),
    "LogitGrad_eps": ("LogitGrad", {"eps": 0.2}, (DY, Y)),
    # activations of mint and the losses (gen_ops_prim and _grad_ops)
    "GeLUGrad": ("GeLUGrad", {}, (DY, X, DY)),
    "GeluGradExt": ("GeluGradExt", {}, (DY, X)),
    "GeluGradExt_tanh": ("GeluGradExt", {}, (DY, X, "tanh")),
    "PReLUGrad": ("PReLUGrad", {}, (DY, X, np.array([0.1, 0.2, 0.3], np.float32))),
    "MaskedSelectGrad": ("MaskedSelectGrad", {}, (X, MASK, np.array([1.0, 2.0, 3.0, 4.0], np.float32))),
    "GatherDGradV2": ("GatherDGradV2", {}, (X, 1, INDEX, DY22)),
    "HardtanhGrad": ("HardtanhGrad", {}, (DY, X)),
    "HardtanhGrad_bounds": ("HardtanhGrad", {}, (DY, X, -0.25, 2.0)),
    "LeakyReLUGradExt": ("LeakyReLUGradExt", {}, (DY, X, 0.2, False)),
    "EluGradExt": ("EluGradExt", {}, (DY, X, 0.5, False)),
    "EluGradExt_result": ("EluGradExt", {}, (DY, X, 0.5, True)),
    "SoftplusGradExt": ("SoftplusGradExt", {}, (DY, X, 2, 3)),
    "ThresholdGrad": ("ThresholdGrad", {}, (DY, X, 0.25)),
    "MishGradExt": ("MishGradExt", {}, (DY, X)),
    "LogSigmoidGrad": ("LogSigmoidGrad", {}, (DY, X, X)),
    "MSELossGradExt": ("MSELossGradExt", {}, (SCALAR, X, TARGET, "mean")),
    "MSELossGradExt_none": ("MSELossGradExt", {}, (DY, X, TARGET, "none")),
    "KLDivGrad": ("KLDivGrad", {}, (SCALAR, X, PROBS, "mean", False)),
    "KLDivGrad_log_target": ("KLDivGrad", {}, (DY, X, LOG_SOFTMAX, "none", True)),
    "SmoothL1LossGrad": ("SmoothL1LossGrad", {}, (X, TARGET, DY)),
    "SmoothL1LossGrad_mean": ("SmoothL1LossGrad", {"beta": 0.5, "reduction": "mean"}, (X, TARGET, SCALAR)),
    "SoftMarginLossGrad": ("SoftMarginLossGrad", {}, (X, SIGNS, SCALAR)),
    "SoftMarginLossGrad_none": ("SoftMarginLossGrad", {"reduction": "none"}, (X, SIGNS, DY)),
    "BinaryCrossEntropyGrad": ("BinaryCrossEntropyGrad", {}, (Y, LABELS01, SCALAR, PROBS)),
    "BinaryCrossEntropyGrad_none": ("BinaryCrossEntropyGrad", {"reduction": "none"}, (Y, LABELS01, DY)),
    "SigmoidCrossEntropyWithLogitsGrad": ("SigmoidCrossEntropyWithLogitsGrad", {}, (X, LABELS01, DY)),
    "NLLLossGrad": ("NLLLossGrad", {}, (LOG_SOFTMAX, SCALAR, np.array([2, 0], np.int32),
                                        np.array([0.5, 1.0, 2.0], np.float32), np.array(2.5, np.float32))),
    "SoftmaxGrad": ("SoftmaxGrad", {}, (PROBS, DY)),
    "LogSoftmaxGrad": ("LogSoftmaxGrad", {}, (LOG_SOFTMAX, DY)),
    "LogSoftmaxGrad_axis0": ("LogSoftmaxGrad", {"axis": 0}, (LOG_SOFTMAX, DY)),
    "MaximumGrad": ("MaximumGrad", {}, (X, X2, DY)),
    "MinimumGrad": ("MinimumGrad", {}, (X, X2, DY)),
    "BiasAddGrad": ("BiasAddGrad", {}, (X4,)),
    "BiasAddGrad_nhwc": ("BiasAddGrad", {"data_format": "NHWC"}, (X4,)),
    "DropoutGrad": ("DropoutGrad", {"keep_prob": 0.8}, (DY, KEEP)),
    "DropoutGradExt": ("DropoutGradExt", {}, (DY, MASK, 0.2)),
    "SliceGrad": ("SliceGrad", {}, (DY22, X, (0, 1), (2, 2))),
    "StridedSliceGrad": ("StridedSliceGrad", {}, (np.array([[1.0], [2.0]], np.float32), (2, 3), (0, 2), (2, 3),
                                                   (1, 1))),
    "StridedSliceGrad_masks": ("StridedSliceGrad", {"shrink_axis_mask": 1}, (np.array([1.0, 2.0], np.float32),
                                                                          (2, 3), (1, 0), (2, 3), (1, 2))),
    "L2NormalizeGrad": ("L2NormalizeGrad", {"axis": 1}, (X, X / np.linalg.norm(X, axis=1, keepdims=True), DY)),
    "GluGrad": ("GluGrad", {"axis": 1}, (np.array([[1.0], [-2.0]], np.float32), X[:, :2])),
    "ReflectionPad1DGrad": ("ReflectionPad1DGrad", {}, (DY_PAD1, X3, (1, 1))),
    "ReflectionPad2DGrad": ("ReflectionPad2DGrad", {}, (DY_PAD2, X_PAD2, (1, 1, 1, 1))),
    "RepeatInterleaveGrad": ("RepeatInterleaveGrad", {}, (np.arange(12, dtype=np.float32).reshape(2, 6),
                                                          np.array([1, 2, 3], np.int64), 1)),
    "TraceGrad": ("TraceGrad", {}, (SCALAR, np.array([2, 3], np.int64))),
    "FlattenGrad": ("FlattenGrad", {}, (np.arange(6, dtype=np.float32).reshape(2, 3), (2, 1, 3))),
    # normalization, pooling, convolution and resizing
    "LayerNormGrad": ("LayerNormGrad", {"begin_norm_axis": -1, "begin_params_axis": -1},
                      (X, DY, X_VAR, X_MEAN, GAMMA)),
    "BatchNormGrad": ("BatchNormGrad", {"is_training": True}, (DY_BN, X4, CHANNELS, X4_MEAN, X4_VAR, X4_VAR)),
    "BatchNormGrad_inference": ("BatchNormGrad", {"is_training": False, "epsilon": 0.01},
                                (X4, X4, CHANNELS, X4_MEAN, X4_VAR, X4_VAR)),
    "MaxPoolGrad": ("MaxPoolGrad", {"kernel_size": 2, "strides": 2}, (X_POOL, POOL_MAX, DY_POOL)),
    "AvgPoolGrad": ("AvgPoolGrad", {"kernel_size": 2, "strides": 2}, (X_POOL, POOL_MEAN, DY_POOL)),
    "AvgPoolGrad_same": ("AvgPoolGrad", {"kernel_size": 3, "strides": 2, "pad_mode": "SAME"},
                         (X_POOL, POOL_MEAN, DY_POOL)),
    "AvgPool2DGrad": ("AvgPool2DGrad", {}, (DY_POOL, X_POOL, 2, 2)),
    "AdaptiveAvgPool2DGrad": ("AdaptiveAvgPool2DGrad", {}, (DY_POOL, np.array([1, 1, 3, 4], np.int64))),
    "AdaptiveAvgPool2DGradExt": ("AdaptiveAvgPool2DGradExt", {}, (DY_POOL, X_POOL[:, :, :3])),
    "Conv2DBackpropFilter": ("Conv2DBackpropFilter", {"out_channel": 1, "kernel_size": 3},
                             (DY_POOL, X_POOL, (1, 1, 3, 3))),
    "ResizeBilinearGrad": ("ResizeBilinearGrad", {}, (DY_UP, IMAGE)),
    "ResizeBilinearGrad_align": ("ResizeBilinearGrad", {"align_corners": True}, (DY_UP, IMAGE)),
    "ResizeNearestNeighborGrad": ("ResizeNearestNeighborGrad", {}, (DY_UP, (2, 3))),
    "UpsampleNearest1DGrad": ("UpsampleNearest1DGrad", {}, (DY_UP1, (1, 2, 3), (5,))),
    "UpsampleLinear1DGrad": ("UpsampleLinear1DGrad", {}, (DY_UP1, (1, 2, 3), (5,), None, True)),
    "UpsampleNearest2DGrad": ("UpsampleNearest2DGrad", {}, (DY_UP, (1, 2, 2, 3), (3, 4))),
    "UpsampleBilinear2DGrad": ("UpsampleBilinear2DGrad", {}, (DY_UP, (1, 2, 2, 3), (3, 4), None, False)),
    "GridSampler2DGrad": ("GridSampler2DGrad", {}, (DY_POOL, X_SAMPLE, GRID)),
    "RmsNormGrad": ("RmsNormGrad", {}, (DY, X, 1 / np.sqrt((X * X).mean(-1, keepdims=True) + 1e-6), GAMMA)),
    "AvgPool3DGradExt": ("AvgPool3DGradExt", {}, (DY5, X5, 2, 2)),
    "MaxPool3DGrad": ("MaxPool3DGrad", {"kernel_size": 2, "strides": 2}, (X5, X5_MAX, DY5)),
    "AvgPool3DGrad": ("AvgPool3DGrad", {"kernel_size": 2, "strides": 2}, (np.array([1, 1, 2, 4, 4], np.int64), DY5)),
    "LRNGrad": ("LRNGrad", {"depth_radius": 1, "bias": 0.5, "alpha": 0.2, "beta": 0.75}, (DY_LRN, X_LRN, X_LRN)),
    "KLDivLossGrad": ("KLDivLossGrad", {}, (SCALAR, X, PROBS)),
    "KLDivLossGrad_none": ("KLDivLossGrad", {"reduction": "none"}, (DY, X, PROBS)),
    "AdaptiveMaxPool2DGrad": ("AdaptiveMaxPool2DGrad", {}, (DY_POOL, X_POOL, np.array([[[[1, 6], [12, 11]]]],
                                                                                       np.int64))),
    "ROIAlignGrad": ("ROIAlignGrad", {"pooled_height": 2, "pooled_width": 2, "spatial_scale": 1.0},
                     (DY_POOL, ROIS, (1, 1, 4, 4))),
    "ResizeNearestNeighborV2Grad": ("ResizeNearestNeighborV2Grad", {}, (DY_UP, (2, 3))),
    "ResizeLinear1DGrad": ("ResizeLinear1DGrad", {}, (DY_UP1, X3[:, :, :3])),
    "SwigluGrad": ("SwigluGrad", {}, (DY22, X[:, :4] if X.shape[1] >= 4 else np.concatenate([X, X[:, :1]], 1))),
    "NLLLoss2dGrad": ("NLLLoss2dGrad", {}, (SCALAR, LOG_SOFTMAX.reshape(1, 2, 3, 1), np.array([[[1], [0], [1]]],
                                                                                              np.int64),
                                            np.array([0.5, 2.0], np.float32), "mean", -100, np.array(3.0, np.float32))),
    "EinsumGrad": ("EinsumGrad", {"equation": "ij,jk->ik"}, ((X, X.T), DY22)),
    "ResizeLinear1DGrad_half_pixel": ("ResizeLinear1DGrad", {"coordinate_transformation_mode": "half_pixel"},
                                      (DY_UP1, X3[:, :, :3])),
}

VAR = np.array([[1.0, -2.0], [0.5, 0.05]], np.float32)
DELTA = np.array([[0.5, 1.0], [-1.0, 0.2]], np.float32)
# ops.operations' two gradient-descent primitives: case -> (primitive, its scalar inputs between var and delta)
OPTIMIZER_CASES = {
    "ApplyGradientDescent": ("ApplyGradientDescent", (0.1,)),
    "ApplyProximalGradientDescent": ("ApplyProximalGradientDescent", (0.1, 0.5, 0.2)),
    "ApplyProximalGradientDescent_l1_zero": ("ApplyProximalGradientDescent", (0.1, 0.0, 0.2)),
}
