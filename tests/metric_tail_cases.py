"""The cases of tests/test_metric_tail.py, shared with ``tools/observe_mindspore_metric_tail.py``: per case the
``ConfusionMatrixMetric`` arguments and the ``(y_pred, y)`` pairs given to ``update``."""
import numpy as np

_SEG_PRED = np.array([[[[1, 0], [0, 1]], [[0, 1], [1, 0]]], [[[1, 1], [0, 0]], [[0, 0], [1, 1]]]])
_SEG_TRUE = np.array([[[[1, 0], [1, 0]], [[0, 1], [0, 1]]], [[[1, 1], [1, 1]], [[0, 0], [0, 0]]]])
_CLS_PRED = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]])
_CLS_TRUE = np.array([[1, 0, 0], [0, 0, 1], [0, 0, 1], [0, 1, 0]])

CONFUSION_CASES = [
    # the docstring example of the MindSpore 2.10 page
    ("doc", {"skip_channel": True, "metric_name": "tpr", "calculation_method": False, "decrease": "mean"},
     [(np.array([[[0], [1]], [[1], [0]]]), np.array([[[0], [1]], [[0], [1]]]))]),
    ("classes_precision", {"metric_name": "precision"}, [(_CLS_PRED, _CLS_TRUE)]),
    ("classes_f1_two_updates", {"metric_name": "F1 score"}, [(_CLS_PRED, _CLS_TRUE), (_CLS_TRUE, _CLS_TRUE)]),
    ("classes_drop_first", {"skip_channel": False, "metric_name": "mcc"}, [(_CLS_PRED, _CLS_TRUE)]),
    *[(f"seg_{name}", {"metric_name": name}, [(_SEG_PRED, _SEG_TRUE)])
      for name in ("tnr", "npv", "fnr", "fpr", "fdr", "for", "pt", "ts", "acc", "ba", "fm", "bm", "mk")],
    *[(f"seg_per_sample_{decrease}", {"metric_name": "recall", "calculation_method": True, "decrease": decrease},
       [(_SEG_PRED, _SEG_TRUE)]) for decrease in ("mean", "sum")],
    ("seg_per_sample_f1", {"metric_name": "f1", "calculation_method": True}, [(_SEG_PRED, _SEG_TRUE)] * 2),
    ("bad_name", {"metric_name": "nope"}, [(_CLS_PRED, _CLS_TRUE)]),
    ("bad_decrease", {"decrease": "max"}, []),
    ("not_binary", {}, [(_CLS_PRED, _CLS_TRUE * 0.5)]),
    ("one_dim", {}, [(np.array([1, 0]), np.array([1, 0]))]),
    ("empty_per_sample", {"calculation_method": True}, []),
]
