"""``ConfusionMatrixMetric`` (issue 26, data-nn-fn): ``RECORDED`` are MindSpore 2.10's ``eval()`` results or errors
for the cases of ``tests/metric_tail_cases.py`` (its docstring example first), printed by
``tools/observe_mindspore_metric_tail.py``.
"""
import numpy as np
import pytest

from metric_tail_cases import CONFUSION_CASES
from npspore import Tensor, nn
from npspore.train import ConfusionMatrixMetric

RECORDED = {'doc': [0.5],
 'classes_precision': [0.5],
 'classes_f1_two_updates': [0.75],
 'classes_drop_first': [0.14907119849998599],
 'seg_tnr': [0.5],
 'seg_npv': [0.5],
 'seg_fnr': [0.5],
 'seg_fpr': [0.5],
 'seg_fdr': [0.5],
 'seg_for': [0.5],
 'seg_pt': [float('nan')],
 'seg_ts': [0.3333333333333333],
 'seg_acc': [0.5],
 'seg_ba': [0.5],
 'seg_fm': [0.5],
 'seg_bm': [0.0],
 'seg_mk': [0.0],
 'seg_per_sample_mean': 0.5,
 'seg_per_sample_sum': 1.5,
 'seg_per_sample_f1': 0.41666666666666663,
 'bad_name': ('NotImplementedError', 'The metric is not implemented.'),
 'bad_decrease': ('ValueError',
                  "The 'decrease' must be str and must be in '['none', 'mean', 'sum', 'mean_batch', 'sum_batch', "
                  "'mean_channel', 'sum_channel']', but got 'max'."),
 'not_binary': ('ValueError',
                "For 'ConfusionMatrix.update', the true value (input[1]) must be a binarized ndarray."),
 'one_dim': ('ValueError',
             "For 'ConfusionMatrix.update', the predicted value (input[0]) must have at least 2 dimensions, but "
             'got 1.'),
 'empty_per_sample': ('RuntimeError',
                      "The 'ConfusionMatrixMetric' can not be calculated, because the number of samples is 0, "
                      'please check whether your inputs(predicted value, true value) are empty, or has called '
                      'update method before calling eval method.')}


@pytest.mark.parametrize("key, arguments, updates", CONFUSION_CASES)
def test_confusion_matrix_metric_is_mindspores(key, arguments, updates):
    want = RECORDED[key]

    def run():
        metric = ConfusionMatrixMetric(**arguments)
        metric.clear()
        for y_pred, y in updates:
            metric.update(Tensor(y_pred), Tensor(y))
        return metric.eval()

    if isinstance(want, tuple):
        with pytest.raises({"ValueError": ValueError, "NotImplementedError": NotImplementedError,
                            "RuntimeError": RuntimeError}[want[0]]) as raised:
            run()
        assert str(raised.value) == want[1]
        return
    np.testing.assert_allclose(np.asarray(run()), want, rtol=1e-12)


def test_confusion_matrix_metric_spellings_and_clear_errors():
    assert nn.metrics.ConfusionMatrixMetric is ConfusionMatrixMetric
    metric = ConfusionMatrixMetric(calculation_method=True)
    with pytest.raises(ValueError, match="needs a predicted value of shape"):
        metric.update(np.array([[1, 0]]), np.array([[1, 0]]))
    with pytest.raises(TypeError, match="cannot unpack"):   # MindSpore 2.10's 'mean_batch' fails so
        ConfusionMatrixMetric(calculation_method=True, decrease="mean_batch").update(
            np.ones((1, 2, 2, 2)), np.ones((1, 2, 2, 2)))
    with pytest.raises(ValueError, match="it needs 2 inputs"):
        metric.update(np.ones((1, 2)))
