"""Evaluation metrics, as in ``mindspore.train`` (also exported by ``nn``): ``Metric`` and the usual ones.

Every metric accumulates over ``update(y_pred, y)`` calls (Tensors, NumPy arrays or lists), returns
its value from ``eval()`` and starts over with ``clear()``; ``metric(y_pred, y)`` does all three at
once. ``Model.eval`` drives them with the outputs of the evaluation network. Labels may be class
indices or one-hot rows. Sums are kept in float64 and scalar results are Python floats, so values and
printed results are the same under NumPy 1.26 and 2.x (MindSpore 2.10 computes them in float64 and,
with NumPy 1.26, prints ``{'accuracy': 0.9742}``).
"""
import functools
import sys
from abc import ABCMeta, abstractmethod

import numpy as np

from ..common.tensor import Tensor

__all__ = ["Metric", "rearrange_inputs", "Accuracy", "Loss", "MAE", "MSE", "Precision", "Recall", "Fbeta",
           "F1", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy",
           "ConfusionMatrix", "get_metric_fn", "names"]

# A package without files: MindSpore's paths train.metrics.metric and nn.metrics.metric are this module
# (npspore.module_aliases).
__path__: list[str] = []

_EPS = sys.float_info.min
_EVAL_TYPES = ("classification", "multilabel")


def rearrange_inputs(func):
    """Decorator for ``Metric.update``: reorder the inputs by the metric's ``indexes`` (see ``set_indexes``)."""
    @functools.wraps(func)
    def wrapper(self, *inputs):
        indexes = self.indexes
        return func(self, *(inputs if not indexes else [inputs[i] for i in indexes]))
    return wrapper


class Metric(metaclass=ABCMeta):
    """Base class of metrics: subclasses define ``clear``, ``update(*inputs)`` and ``eval``."""

    def __init__(self):
        self._indexes = None

    def _convert_data(self, data):
        """``data`` (Tensor, list or ndarray) as an ndarray; TypeError for anything else."""
        if isinstance(data, Tensor):
            return data.asnumpy()
        if isinstance(data, list):
            return np.array(data)
        if isinstance(data, np.ndarray):
            return data
        raise TypeError("For 'Metric' and its derived classes, the input data type must be tensor, list or "
                        f"numpy.ndarray, but got {type(data)}.")

    @property
    def indexes(self):
        """The input positions ``update`` uses (None: all, in order)."""
        return getattr(self, "_indexes", None)

    def set_indexes(self, indexes):
        """Make ``update`` use ``inputs[i] for i in indexes``; returns the metric.

        Raises:
            ValueError: if ``indexes`` is not a list of ints.
        """
        if not isinstance(indexes, list) or not all(isinstance(i, int) for i in indexes):
            raise ValueError("For 'set_indexes', the argument 'indexes' must be a list and all its elements must "
                             "be int, please check whether it is correct.")
        self._indexes = indexes
        return self

    def __call__(self, *inputs):
        self.clear()
        self.update(*inputs)
        return self.eval()

    @abstractmethod
    def clear(self):
        """Reset the accumulated state."""

    @abstractmethod
    def update(self, *inputs):
        """Accumulate one batch."""

    @abstractmethod
    def eval(self):
        """The metric's value over everything accumulated since ``clear``."""

    def _check_input_count(self, inputs, count, what="2 inputs (predicted value, true value)"):
        if len(inputs) != count:
            raise ValueError(f"For '{type(self).__name__}.update', it needs {what}, but got {len(inputs)}.")

    def _no_samples(self):
        return RuntimeError(f"The '{type(self).__name__}' can not be calculated, because the number of samples is "
                            "0, please check whether your inputs(predicted value, true value) are empty, or has "
                            "called update method before calling eval method.")


def _is_one_hot(labels):
    if labels.ndim < 2 or not np.equal(labels ** 2, labels).all():
        return False
    return bool(np.equal(labels.sum(axis=1), 1).all())


class _ClassCounts(Metric):
    """Shared input handling of the classification metrics: predicted scores (N, C, ...) and labels."""

    def __init__(self, eval_type="classification"):
        super().__init__()
        if eval_type not in _EVAL_TYPES:
            raise TypeError(f"The argument 'eval_type' must be in {set(_EVAL_TYPES)}, but got {eval_type}")
        self._type = eval_type
        self._class_num = 0

    def _inputs(self, inputs):
        """``(y_pred, y)`` checked; ``y`` as class indices in classification mode."""
        self._check_input_count(inputs, 2)
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if self._type == "classification":
            if y_pred.ndim == y.ndim and _is_one_hot(y):
                y = y.argmax(axis=1)
            if y_pred.ndim != y.ndim + 1 or y.shape != (y_pred.shape[0],) + y_pred.shape[2:]:
                raise ValueError("In classification case, y_pred (predicted value) should have the shape of y (true "
                                 "value) with the class dimension inserted at index 1, but got y_pred shape "
                                 f"{y_pred.shape} and y shape {y.shape}.")
        else:
            if y_pred.shape != y.shape:
                raise ValueError("In multilabel case, the shape of y_pred (predicted value) should equal to the shape "
                                 f"of y (true value), but got y_pred shape: {y_pred.shape} and y shape: {y.shape}.")
            if not (np.equal(y_pred ** 2, y_pred).all() and np.equal(y ** 2, y).all()):
                raise ValueError("In multilabel case, all elements in y_pred (predicted value) and y (true value) "
                                 "should be 0 or 1.Please check whether your inputs y_pred and y are correct.")
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError(f"For '{type(self).__name__}.update', class number not match, last input predicted "
                             f"data contain {self._class_num} classes, but current predicted data contain "
                             f"{y_pred.shape[1]} classes, please check your predicted value(inputs[0]).")
        return y_pred, y

    def _one_hot_pair(self, y_pred, y):
        """Predicted and true classes as one-hot rows (N, C)."""
        if y.max() + 1 > self._class_num:
            raise ValueError(f"For '{type(self).__name__}.update', predicted value (input[0]) should have the same "
                             f"classes number as true value (input[1]), but got predicted value classes "
                             f"{self._class_num}, true value classes {y.max() + 1}.")
        eye = np.eye(self._class_num)
        return eye[y_pred.argmax(axis=1).reshape(-1)], eye[y.reshape(-1)]


class Accuracy(_ClassCounts):
    """Fraction of samples classified correctly (``eval_type='multilabel'``: all labels of a sample right).

    Raises:
        RuntimeError: from ``eval`` before any ``update``.
    """

    def __init__(self, eval_type="classification"):
        super().__init__(eval_type)
        self.clear()

    def clear(self):
        """Reset the counts."""
        self._correct_num = 0
        self._total_num = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        """Count one batch: ``update(y_pred, y)``, scores (N, C, ...) and labels (N, ...) or one-hot."""
        y_pred, y = self._inputs(inputs)
        if self._type == "classification":
            result = np.equal(y_pred.argmax(axis=1), y).reshape(-1) * 1
        else:
            last = y_pred.ndim - 1
            rows = y_pred.swapaxes(1, last).reshape(-1, self._class_num)
            result = np.equal(rows, y.swapaxes(1, last).reshape(-1, self._class_num)).all(axis=1) * 1
        self._correct_num += result.sum()
        self._total_num += result.shape[0]

    def eval(self):
        """The accuracy, a float in [0, 1]."""
        if self._total_num == 0:
            raise self._no_samples()
        return float(self._correct_num / self._total_num)


class _PerClassRate(_ClassCounts):
    """Precision and Recall: true positives over a per-class denominator, per class or averaged."""

    def __init__(self, eval_type="classification"):
        super().__init__(eval_type)
        self.clear()

    def clear(self):
        """Reset the counts."""
        self._class_num = 0
        multilabel = self._type == "multilabel"
        self._true_positives = np.empty(0) if multilabel else 0
        self._denominator = np.empty(0) if multilabel else 0
        self._rate_sum = 0
        self._rate_count = 0

    @rearrange_inputs
    def update(self, *inputs):
        """Count one batch: ``update(y_pred, y)``."""
        y_pred, y = self._inputs(inputs)
        if self._type == "classification":
            y_pred, y = self._one_hot_pair(y_pred, y)
        else:
            y_pred = y_pred.swapaxes(1, 0).reshape(self._class_num, -1)
            y = y.swapaxes(1, 0).reshape(self._class_num, -1)
        true_positives = (y * y_pred).sum(axis=0)
        denominator = self._denominator_of(y_pred, y)
        if self._type == "multilabel":
            self._rate_sum += np.float64(np.sum(true_positives / (denominator + _EPS)))
            self._rate_count += len(denominator)
            self._true_positives = np.concatenate((self._true_positives, true_positives))
            self._denominator = np.concatenate((self._denominator, denominator))
        else:
            self._true_positives += true_positives
            self._denominator += denominator

    def eval(self, average=False):
        """The rate per class (an ndarray), or its mean when ``average`` is True."""
        if self._class_num == 0:
            raise self._no_samples()
        if not isinstance(average, bool):
            raise TypeError(f"For '{type(self).__name__}', the 'average' should be bool, but got {type(average)}.")
        result = self._true_positives / (self._denominator + _EPS)
        if not average:
            return result
        if self._type == "multilabel":
            result = self._rate_sum / (self._rate_count + _EPS)
        return float(result.mean())


class Precision(_PerClassRate):
    """Precision per class: true positives / predicted positives (``eval(average=True)`` for the mean)."""

    @staticmethod
    def _denominator_of(y_pred, y):
        return y_pred.sum(axis=0)


class Recall(_PerClassRate):
    """Recall per class: true positives / actual positives (``eval(average=True)`` for the mean)."""

    @staticmethod
    def _denominator_of(y_pred, y):
        return y.sum(axis=0)


class Fbeta(_ClassCounts):
    """F-beta score per class, ``(1 + beta^2) * tp / (beta^2 * actual + predicted)``.

    Raises:
        ValueError: if ``beta`` is not positive.
    """

    def __init__(self, beta):
        super().__init__()
        if not beta > 0:
            raise ValueError(f"For 'Fbeta', the argument 'beta' must be greater than 0, but got {beta}.")
        self.beta = beta
        self.clear()

    def clear(self):
        """Reset the counts."""
        self._true_positives = 0
        self._actual_positives = 0
        self._positives = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        """Count one batch: ``update(y_pred, y)``."""
        y_pred, y = self._inputs(inputs)
        y_pred, y = self._one_hot_pair(y_pred, y)
        self._true_positives += (y * y_pred).sum(axis=0)
        self._positives += y_pred.sum(axis=0)
        self._actual_positives += y.sum(axis=0)

    def eval(self, average=False):
        """The score per class (an ndarray), or its mean when ``average`` is True."""
        if self._class_num == 0:
            raise self._no_samples()
        beta2 = self.beta ** 2
        fbeta = (1.0 + beta2) * self._true_positives / (beta2 * self._actual_positives + self._positives + _EPS)
        return float(fbeta.mean()) if average else fbeta


class F1(Fbeta):
    """F1 score per class (``Fbeta(1.0)``)."""

    def __init__(self):
        super().__init__(1.0)


class Loss(Metric):
    """Mean of the losses passed to ``update(loss)`` (each a scalar or a 1-D batch, averaged first)."""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        """Reset the sum."""
        self._sum_loss = 0
        self._total_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        """Add one loss value (or the mean of a 1-D array of them)."""
        self._check_input_count(inputs, 1, "1 input (loss)")
        loss = self._convert_data(inputs[0])
        if loss.ndim == 0:
            loss = loss.reshape(1)
        if loss.ndim != 1:
            raise ValueError(f"For 'Loss.update', the dimension of your input (loss) must be 1, but got {loss.ndim}.")
        self._sum_loss += np.float64(loss.mean(-1))
        self._total_num += 1

    def eval(self):
        """The mean loss."""
        if self._total_num == 0:
            raise self._no_samples()
        return float(self._sum_loss / self._total_num)


class _SampleError(Metric):
    """MAE and MSE: a per-element error summed, divided by the number of samples (rows)."""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        """Reset the sums."""
        self._error_sum = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        """Add one batch: ``update(y_pred, y)``; ``y`` is reshaped to ``y_pred``'s shape."""
        self._check_input_count(inputs, 2)
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        self._error_sum += np.float64(self._error(y.reshape(y_pred.shape) - y_pred).sum())
        self._samples_num += y.shape[0]

    def eval(self):
        """The summed error per sample."""
        if self._samples_num == 0:
            raise self._no_samples()
        return float(self._error_sum / self._samples_num)


class MAE(_SampleError):
    """Mean absolute error (summed over each sample's elements)."""

    _error = staticmethod(np.abs)


class MSE(_SampleError):
    """Mean squared error (summed over each sample's elements)."""

    @staticmethod
    def _error(difference):
        return np.power(difference, 2)


class TopKCategoricalAccuracy(Metric):
    """Fraction of samples whose true class is among the ``k`` highest scores.

    Raises:
        TypeError: if ``k`` is not an int. ValueError: if ``k < 1``.
    """

    def __init__(self, k):
        super().__init__()
        if not isinstance(k, int):
            raise TypeError("For 'TopKCategoricalAccuracy', the type of the argument 'k' should be int, but got "
                            f"'k' type: {type(k)}.")
        if k < 1:
            raise ValueError(f"For 'TopKCategoricalAccuracy', the argument 'k' must be at least 1, but got 'k' value: {k}.")
        self.k = k
        self.clear()

    def clear(self):
        """Reset the counts."""
        self._correct_num = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        """Count one batch: ``update(y_pred, y)``, scores (N, C) and labels (N,) or one-hot."""
        self._check_input_count(inputs, 2)
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim and _is_one_hot(y):
            y = y.argmax(axis=1)
        top_k = np.argsort(-y_pred, axis=1)[:, :self.k]
        self._correct_num += np.equal(top_k, y.reshape(-1, 1)).sum()
        self._samples_num += top_k.shape[0]

    def eval(self):
        """The top-k accuracy."""
        if self._samples_num == 0:
            raise self._no_samples()
        return float(self._correct_num / self._samples_num)


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """``TopKCategoricalAccuracy(1)``."""

    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """``TopKCategoricalAccuracy(5)``."""

    def __init__(self):
        super().__init__(5)


class ConfusionMatrix(Metric):
    """Counts of (true class, predicted class) pairs, a ``num_classes x num_classes`` float matrix.

    Args:
        num_classes (int): number of classes.
        normalize (str): ``'no_norm'`` (counts), ``'target'`` (rows sum to 1), ``'prediction'``
            (columns sum to 1) or ``'all'``.
        threshold (float): predictions with the labels' shape are scores, class 1 when ``>= threshold``.
    """

    _NORMALIZE = ("target", "prediction", "all", "no_norm")

    def __init__(self, num_classes, normalize="no_norm", threshold=0.5):
        super().__init__()
        if not isinstance(num_classes, int) or isinstance(num_classes, bool):
            raise TypeError(f"For 'ConfusionMatrix', 'num_classes' must be int, but got {type(num_classes)}.")
        if normalize not in self._NORMALIZE:
            raise ValueError("For 'ConfusionMatrix', the argument 'normalize' must be in ['all', 'prediction', "
                             f"'label', 'no_norm'(None)], but got {normalize}.")
        if not isinstance(threshold, float):
            raise TypeError(f"For 'ConfusionMatrix', 'threshold' must be float, but got {type(threshold)}.")
        self.num_classes = num_classes
        self.normalize = normalize
        self.threshold = threshold
        self.clear()

    def clear(self):
        """Reset the counts."""
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        """Count one batch: ``update(y_pred, y)``, scores (N, C, ...) or predicted labels, and labels."""
        self._check_input_count(inputs, 2)
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if y_pred.ndim not in (y.ndim, y.ndim + 1):
            raise ValueError("For 'ConfusionMatrix.update', predicted value (input[0]) and true value (input[1]) "
                             "should have same dimensions, or the dimension of predicted value equals the dimension "
                             f"of true value add 1, but got predicted value ndim: {y_pred.ndim}, true value ndim: "
                             f"{y.ndim}.")
        if y_pred.ndim == y.ndim + 1:
            y_pred = np.argmax(y_pred, axis=1)
        elif y_pred.dtype in (np.float16, np.float32, np.float64):
            y_pred = (y_pred >= self.threshold).astype(int)
        pairs = (y.reshape(-1) * self.num_classes + y_pred.reshape(-1)).astype(int)
        counts = np.bincount(pairs, minlength=self.num_classes ** 2)
        self.confusion_matrix += counts.reshape(self.num_classes, self.num_classes)
        self._is_update = True

    def eval(self):
        """The (normalized) confusion matrix; rows are true classes, columns predicted ones."""
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        matrix = self.confusion_matrix.astype(float)
        if self.normalize == "no_norm":
            return matrix
        with np.errstate(invalid="ignore", divide="ignore"):
            if self.normalize == "target":
                matrix = matrix / matrix.sum(axis=1, keepdims=True)
            elif self.normalize == "prediction":
                matrix = matrix / matrix.sum(axis=0, keepdims=True)
            else:
                matrix = matrix / matrix.sum()
        matrix[np.isnan(matrix)] = 0
        return matrix


# MindSpore's names of the metrics npspore has ('acc' is its other name for 'accuracy')
_METRICS_BY_NAME = {
    "accuracy": Accuracy, "acc": Accuracy, "precision": Precision, "recall": Recall, "F1": F1, "loss": Loss,
    "mae": MAE, "mse": MSE, "topk": TopKCategoricalAccuracy, "top_1_accuracy": Top1CategoricalAccuracy,
    "top_5_accuracy": Top5CategoricalAccuracy, "confusion_matrix": ConfusionMatrix,
}


def names():
    """The metric names ``get_metric_fn`` and ``Model(metrics={...})`` accept."""
    return sorted(_METRICS_BY_NAME)


def get_metric_fn(name, *args, **kwargs):
    """A new metric by name (``'accuracy'``, ``'loss'``, ...; see :func:`names`).

    Raises:
        KeyError: if the name is unknown.
    """
    if name not in _METRICS_BY_NAME:
        raise KeyError(f"Unknown Metric:{name}, please choose one of {names()}.")
    return _METRICS_BY_NAME[name](*args, **kwargs)


def get_metrics(metrics):
    """``{name: Metric}`` from a dict of metrics or a set of names (None stays None).

    Raises:
        TypeError: if ``metrics`` is neither a dict nor a set, or a value is not a Metric.
    """
    if metrics is None:
        return None
    if isinstance(metrics, dict):
        for name, metric in metrics.items():
            if not isinstance(metric, Metric):
                raise TypeError(f"For 'Model', the metric '{name}' must be a Metric, but got {type(metric)}.")
        return dict(metrics)
    if isinstance(metrics, set):
        return {name: get_metric_fn(name) for name in metrics}
    raise TypeError(f"For 'Model', the argument 'metrics' must be dict or set, but got {metrics}.")

