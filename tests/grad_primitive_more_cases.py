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
}
