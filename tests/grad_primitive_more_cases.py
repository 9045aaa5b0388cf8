"""The inputs of tests/test_grad_primitives_more.py's cases (Pdist, margin-loss, median, maximum/minimum,
normalization, unique and Cholesky gradients), which tools/observe_mindspore_grad_primitives_more.py runs on the real
MindSpore 2.10 (NumPy only, so that both interpreters import it)."""
import numpy as np

X_ROWS = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0], [2.0, 0.0, 1.5]], np.float32)
PAIRS = ([0, 0, 1], [1, 2, 2])                                  # Pdist's row pairs of X_ROWS
PDIST = np.sqrt(((X_ROWS[PAIRS[0]] - X_ROWS[PAIRS[1]]) ** 2).sum(-1)).astype(np.float32)
DY_PAIRS = np.array([1.0, -2.0, 0.5], np.float32)
CLASSES = np.array([2, 0, 1], np.int64)                         # MultiMarginLoss's target of X_ROWS
CLASS_WEIGHT = np.array([1.0, 0.5, 2.0], np.float32)
DY_ROWS = np.array([1.0, 2.0, 3.0], np.float32)
LABELS = np.array([[2, 0, -1], [1, -1, 0], [0, 1, 2]], np.int32)    # MultilabelMarginLoss's target of X_ROWS
IS_TARGET = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 1]], np.int32)
SCALAR_DY = np.array(1.5, np.float32)
X_MEDIAN = np.array([[3.0, 1.0, 2.0, 5.0], [4.0, 0.0, 7.0, 1.0]], np.float32)
MEDIAN_ROWS = (np.array([2.0, 1.0], np.float32), np.array([2, 3], np.int64))    # Median(axis=1)'s of X_MEDIAN
MEDIAN_ALL = (np.array(2.0, np.float32), np.array(0, np.int64))                  # Median(global_median=True)'s
X_PAIR = (np.array([[1.0, 2.0, 3.0], [0.5, 2.5, -1.0]], np.float32), np.array([2.0, 2.0, 1.0], np.float32))
TANGENTS = (np.array([[1.0, 10.0, 100.0], [-1.0, -10.0, -100.0]], np.float32),
            np.array([1000.0, 10000.0, 100000.0], np.float32))
X_NORM = np.sin(np.arange(24, dtype=np.float32)).reshape(2, 2, 2, 3)
DY_NORM = np.cos(np.arange(24, dtype=np.float32)).reshape(2, 2, 2, 3)
NORM_GAMMA = np.array([0.5, 2.0, 1.0, 1.5], np.float32).reshape(2, 2, 1, 1)       # per sample and channel
RUNNING_MEAN = np.array([0.1, -0.2, 0.0, 0.3], np.float32).reshape(2, 2, 1, 1)
RUNNING_VARIANCE = np.array([1.0, 0.5, 2.0, 0.8], np.float32).reshape(2, 2, 1, 1)
SAVED_MEAN = X_NORM.mean((2, 3), keepdims=True)
SAVED_INVERSE_STD = 1 / np.sqrt(X_NORM.var((2, 3), keepdims=True) + 1e-5)      # InstanceNormV2's save_variance
X_LAYER = np.sin(np.arange(12, dtype=np.float32)).reshape(2, 6)
DY_LAYER = np.cos(np.arange(12, dtype=np.float32)).reshape(2, 6)
LAYER_GAMMA = np.linspace(0.5, 2.0, 6).astype(np.float32)
LAYER_MEAN = X_LAYER.mean(1, keepdims=True)
LAYER_VARIANCE = X_LAYER.var(1, keepdims=True)        # without epsilon, as LayerNorm's output
LAYER_MOVES = (np.cos(np.arange(12, dtype=np.float32) * 0.7).reshape(2, 6), np.linspace(-1, 1, 6).astype(np.float32),
               np.linspace(2, 1, 6).astype(np.float32))       # the gradients of LayerNormGrad's three outputs
BATCH_SCALE = np.array([0.5, 2.0], np.float32)
BATCH_MOVES = (np.cos(np.arange(24, dtype=np.float32) * 0.7).reshape(2, 2, 2, 3), np.array([-1.0, 0.5], np.float32),
               np.array([2.0, 1.0], np.float32))        # the gradients of BatchNormGrad's three outputs
BATCH_STATISTICS = (X_NORM.mean((0, 2, 3)), X_NORM.var((0, 2, 3)))

# case -> (primitive, constructor keywords, input arrays), as the observing tool calls it
CASES = {
    "PdistGrad": ("PdistGrad", {}, (DY_PAIRS, X_ROWS, PDIST)),
    "PdistGrad_p1": ("PdistGrad", {"p": 1.0}, (DY_PAIRS, X_ROWS, np.abs(X_ROWS[PAIRS[0]] - X_ROWS[PAIRS[1]]).sum(-1))),
    "MultiMarginLossGrad": ("MultiMarginLossGrad", {}, (SCALAR_DY, X_ROWS, CLASSES, None)),
    "MultiMarginLossGrad_weighted": ("MultiMarginLossGrad", {"p": 2, "margin": 2.0, "reduction": "none"},
                                     (DY_ROWS, X_ROWS, CLASSES, CLASS_WEIGHT)),
    "MultilabelMarginLossGrad": ("MultilabelMarginLossGrad", {}, (SCALAR_DY, X_ROWS, LABELS, IS_TARGET)),
    "MultilabelMarginLossGrad_none": ("MultilabelMarginLossGrad", {"reduction": "none"},
                                      (DY_ROWS, X_ROWS, LABELS, IS_TARGET)),
    "MedianGrad": ("MedianGrad", {"axis": 1}, (np.array([1.5, -2.0], np.float32), X_MEDIAN) + MEDIAN_ROWS),
    "MedianGrad_global": ("MedianGrad", {"global_median": True}, (SCALAR_DY, X_MEDIAN) + MEDIAN_ALL),
    "MaximumGradGrad": ("MaximumGradGrad", {}, X_PAIR + TANGENTS),
    "MaximumGradGrad_x_only": ("MaximumGradGrad", {"grad_y": False}, X_PAIR + TANGENTS),
    "MinimumGradGrad": ("MinimumGradGrad", {}, X_PAIR + TANGENTS),
    "LayerNormGradGrad": ("LayerNormGradGrad", {}, (X_LAYER, DY_LAYER, LAYER_VARIANCE, LAYER_MEAN, LAYER_GAMMA)
                          + LAYER_MOVES),
    "BatchNormGradGrad": ("BatchNormGradGrad", {"is_training": True}, (X_NORM, DY_NORM, BATCH_SCALE)
                          + BATCH_STATISTICS + BATCH_MOVES),
    "BatchNormGradGrad_inference": ("BatchNormGradGrad", {}, (X_NORM, DY_NORM, BATCH_SCALE, RUNNING_MEAN.ravel()[:2],
                                                              RUNNING_VARIANCE.ravel()[:2]) + BATCH_MOVES),
    "InstanceNormV2Grad": ("InstanceNormV2Grad", {}, (DY_NORM, X_NORM, NORM_GAMMA, RUNNING_MEAN, RUNNING_VARIANCE,
                                                     SAVED_MEAN, SAVED_INVERSE_STD)),
    "InstanceNormV2Grad_inference": ("InstanceNormV2Grad", {"is_training": False, "epsilon": 1e-3},
                                     (DY_NORM, X_NORM, NORM_GAMMA, RUNNING_MEAN, RUNNING_VARIANCE, SAVED_MEAN,
                                      SAVED_INVERSE_STD)),
}
