"""Metrics: values observed on MindSpore 2.10 CPU (with NumPy 1.26) for the same inputs."""
import numpy as np
import pytest

import npspore as ms
from npspore import nn
from npspore.train import Accuracy, ConfusionMatrix, F1, Fbeta, Loss, MAE, MSE, Precision, Recall, \
    TopKCategoricalAccuracy

RNG = np.random.default_rng(1)
PRED = RNG.normal(size=(7, 4)).astype(np.float32)
LABELS = np.array([0, 1, 2, 3, 1, 1, 0])
PRED2 = RNG.normal(size=(5, 4)).astype(np.float32)
ONE_HOT2 = np.eye(4)[[3, 3, 2, 0, 1]]
ML_PRED = (RNG.random((6, 3)) > 0.5).astype(np.float32)
ML_LABELS = (RNG.random((6, 3)) > 0.5).astype(np.float32)


def _run(metric, *batches):
    metric.clear()
    for batch in batches:
        metric.update(*[ms.Tensor(x) for x in batch])
    return metric.eval()


def test_classification_metrics_over_two_batches_with_index_and_one_hot_labels():
    batches = ((PRED, LABELS), (PRED2, ONE_HOT2))
    assert _run(Accuracy(), *batches) == 0.25
    np.testing.assert_allclose(_run(Precision(), *batches), [0.0, 0.33333333, 0.2, 0.5], rtol=1e-7)
    np.testing.assert_allclose(_run(Recall(), *batches), [0.0, 0.25, 0.5, 0.33333333], rtol=1e-7)
    np.testing.assert_allclose(_run(F1(), *batches), [0.0, 0.28571429, 0.28571429, 0.4], rtol=1e-7)
    np.testing.assert_allclose(_run(Fbeta(0.5), *batches), [0.0, 0.3125, 0.22727273, 0.45454545], rtol=1e-7)
    assert _run(TopKCategoricalAccuracy(2), *batches) == 0.4166666666666667


def test_averages_and_multilabel():
    for metric, expected in ((Precision(), 0.125), (Recall(), 0.25), (F1(), 0.16666666666666666)):
        metric.update(ms.Tensor(PRED), ms.Tensor(LABELS))
        assert metric.eval(True) == expected
    assert _run(Accuracy("multilabel"), (ML_PRED, ML_LABELS)) == 0.16666666666666666
    precision = Precision("multilabel")
    precision.update(ML_PRED, ML_LABELS)
    np.testing.assert_array_equal(precision.eval(), [1.0, 0.0, 0.5, 1.0, 0.5, 1.0])
    assert precision.eval(average=True) == 0.6666666666666666
    recall = Recall("multilabel")
    recall.update(ML_PRED, ML_LABELS)
    np.testing.assert_allclose(recall.eval(), [1.0, 0.0, 1.0, 0.33333333, 0.5, 0.5], rtol=1e-7)
    assert recall.eval(True) == 0.555555542310079


def test_regression_and_loss_metrics_are_python_floats():
    mae = _run(MAE(), (PRED, PRED2[:1].repeat(7, 0)))
    assert type(mae) is float and mae == 4.813331059047154
    mse = _run(MSE(), (PRED[:, :1], LABELS.astype(np.float32)))
    # MindSpore printed 3.717202595302037: NumPy 1.26's float32 np.power rounds squares differently from 2.x
    assert type(mse) is float
    np.testing.assert_allclose(mse, 3.717202595302037, rtol=1e-7)
    assert _run(Loss(), (np.float32(0.5),), (np.array([1.0, 2.0], np.float32),)) == 1.0


@pytest.mark.parametrize("normalize, expected", [
    ("no_norm", [[0, 1, 1, 0], [2, 0, 1, 0], [0, 0, 0, 1], [0, 0, 0, 1]]),
    ("target", [[0, 0.5, 0.5, 0], [2 / 3, 0, 1 / 3, 0], [0, 0, 0, 1], [0, 0, 0, 1]]),
    ("prediction", [[0, 1, 0.5, 0], [1, 0, 0.5, 0], [0, 0, 0, 0.5], [0, 0, 0, 0.5]]),
    ("all", np.array([[0, 1, 1, 0], [2, 0, 1, 0], [0, 0, 0, 1], [0, 0, 0, 1]]) / 7),
])
def test_confusion_matrix(normalize, expected):
    np.testing.assert_allclose(_run(ConfusionMatrix(4, normalize=normalize), (PRED, LABELS)), expected)


def test_confusion_matrix_threshold_on_scores():
    scores, labels = np.array([0.1, 0.4, 0.9], np.float32), np.array([0, 1, 0])
    np.testing.assert_array_equal(_run(ConfusionMatrix(2, threshold=0.3), (scores, labels)), [[1, 1], [0, 1]])


def test_custom_metric_with_indexes_and_call():
    class MyMAE(nn.Metric):
        """The Metric page's example metric (its update is not decorated, so indexes are ignored)."""

        def __init__(self):
            super().__init__()
            self.clear()

        def clear(self):
            self._abs_error_sum = 0
            self._samples_num = 0

        def update(self, *inputs):
            y_pred, y = inputs[0].asnumpy(), inputs[1].asnumpy()
            self._abs_error_sum += np.abs(y - y_pred).sum()
            self._samples_num += y.shape[0]

        def eval(self):
            return self._abs_error_sum / self._samples_num

    class RearrangedMAE(MyMAE):
        update = ms.train.rearrange_inputs(MyMAE.update)

    # the Metric page's example; MindSpore 2.10 prints 1.399999976158142
    x = ms.Tensor(np.array([[0.1, 0.2, 0.6, 0.9], [0.1, 0.2, 0.6, 0.9]]), ms.float32)
    y = ms.Tensor(np.array([[0.1, 0.1, 0.1, 0.1], [0.1, 0.1, 0.1, 0.1]]), ms.float32)
    y2 = ms.Tensor(np.array([[0.1, 0.25, 0.7, 0.9], [0.1, 0.25, 0.7, 0.9]]), ms.float32)
    metric = MyMAE().set_indexes([0, 2])
    metric.update(x, y, y2)
    assert float(metric.eval()) == 1.399999976158142
    assert metric.indexes == [0, 2]
    rearranged = RearrangedMAE().set_indexes([0, 2])
    rearranged.update(x, y, y2)
    assert float(rearranged.eval()) == pytest.approx(0.15, rel=1e-6)
    assert Accuracy()(PRED, LABELS) == Accuracy()(PRED, LABELS)


def test_bad_inputs():
    with pytest.raises(RuntimeError, match="number of samples is 0"):
        Accuracy().eval()
    with pytest.raises(ValueError, match="2 inputs"):
        Accuracy().update(PRED)
    with pytest.raises(ValueError, match="shape"):
        Accuracy().update(PRED, LABELS[:3])
    with pytest.raises(TypeError, match="tensor, list or numpy.ndarray"):
        MAE().update(PRED, 3)
    with pytest.raises(ValueError, match="indexes"):
        MAE().set_indexes((0, 1))
    with pytest.raises(ValueError, match="beta"):
        Fbeta(0)
    with pytest.raises(ValueError, match="normalize"):
        ConfusionMatrix(3, normalize="rows")
    metric = Accuracy()
    metric.update(PRED, LABELS)
    with pytest.raises(ValueError, match="class number not match"):
        metric.update(PRED[:, :3], LABELS % 3)


def test_nn_and_train_export_the_same_classes():
    assert nn.Accuracy is ms.train.Accuracy and nn.Metric is ms.train.Metric
    assert isinstance(ms.train.get_metric_fn("accuracy"), Accuracy)
    assert set(ms.train.metrics.get_metrics({"accuracy", "loss"})) == {"accuracy", "loss"}


def test_model_takes_mindspores_other_metric_names():
    # MindSpore 2.10: Model(net, loss, metrics={"acc", "loss"}).eval(...) gives {'acc': 1.0, 'loss': 0.22338287...};
    # 'acc' is its other name for 'accuracy' (a tutorial's Model uses it), 'topk' and 'confusion_matrix' too.
    import npspore.dataset as ds
    from npspore import nn
    from npspore.train import Model, names

    x = np.array([[1.0, -1.0], [0.5, 2.0], [-1.0, 0.25], [2.0, 1.0]], np.float32)
    y = np.array([0, 1, 1, 0], np.int32)
    net = nn.Dense(2, 2, weight_init=ms.Tensor(np.eye(2, dtype=np.float32)), bias_init="zeros")
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), metrics={"acc", "loss"})
    result = model.eval(ds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(2))
    assert result["acc"] == 1.0 and abs(result["loss"] - 0.2233828753232956) < 1e-6
    assert {"acc", "topk", "confusion_matrix"} <= set(names())
