"""``ConfusionMatrixMetric``: a metric of the per-class confusion counts of binarized one-hot predictions (recall,
precision, F1, MCC ... 17 of them, by name or alias), as MindSpore 2.10's, quirks included: ``skip_channel=True``
keeps the first channel and ``False`` drops it; ``decrease='mean_batch'`` fails as MindSpore's does."""
from __future__ import annotations

import numpy as np

from .._checkparam import check_value_type
from .metrics import Metric, rearrange_inputs

__all__ = ["ConfusionMatrixMetric"]

_DECREASES = ["none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel", "sum_channel"]
_ALIASES = {
    "tpr": ["sensitivity", "recall", "hit_rate", "true_positive_rate", "tpr"],
    "tnr": ["specificity", "selectivity", "true_negative_rate", "tnr"],
    "ppv": ["precision", "positive_predictive_value", "ppv"], "npv": ["negative_predictive_value", "npv"],
    "fnr": ["miss_rate", "false_negative_rate", "fnr"], "fpr": ["fall_out", "false_positive_rate", "fpr"],
    "fdr": ["false_discovery_rate", "fdr"], "for": ["false_omission_rate", "for"],
    "pt": ["prevalence_threshold", "pt"], "ts": ["threat_score", "critical_success_index", "ts", "csi"],
    "acc": ["accuracy", "acc"], "ba": ["balanced_accuracy", "ba"], "f1": ["f1_score", "f1"],
    "mcc": ["matthews_correlation_coefficient", "mcc"], "fm": ["fowlkes_mallows_index", "fm"],
    "bm": ["informedness", "bookmaker_informedness", "bm"], "mk": ["markedness", "deltap", "mk"],
}
_METRIC_OF = {alias: metric for metric, aliases in _ALIASES.items() for alias in aliases}


def _metric_key(metric_name: str) -> str:
    key = _METRIC_OF.get(metric_name.replace(" ", "_").lower())
    if key is None:
        raise NotImplementedError("The metric is not implemented.")
    return key


def _rate(numerator, denominator):
    return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1), np.nan)


def _fraction(metric: str, tp, fp, tn, fn):
    """``(numerator, denominator)`` of ``metric`` from the counts."""
    p, n = tp + fn, fp + tn
    if metric in ("pt", "ba", "bm"):
        tpr, tnr = _rate(tp, p), _rate(tn, n)
        return {"pt": (np.sqrt(tpr * (1.0 - tnr)) + tnr - 1.0, tpr + tnr - 1.0), "ba": (tpr + tnr, 2.0),
                "bm": (tpr + tnr - 1.0, 1.0)}[metric]
    if metric == "fm":
        return np.sqrt(_rate(tp, tp + fp) * _rate(tp, p)), 1.0
    if metric == "mk":
        with np.errstate(divide="ignore", invalid="ignore"):
            return _rate(tp, tp + fp) + tn / (tn + fn) - 1.0, 1.0
    if metric == "mcc":
        return tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    return {"tpr": (tp, p), "tnr": (tn, n), "ppv": (tp, tp + fp), "npv": (tn, tn + fn), "fnr": (fn, p),
            "fpr": (fp, n), "fdr": (fp, fp + tp), "for": (fn, fn + tn), "ts": (tp, tp + fn + fp),
            "acc": (tp + tn, p + n), "f1": (tp * 2.0, tp * 2.0 + fn + fp)}[metric]


def _metric_of_counts(metric_name: str, counts: np.ndarray) -> np.ndarray:
    """The metric of confusion counts ``[..., (tp, fp, tn, fn)]`` (NaN where its denominator is 0)."""
    counts = counts[None] if counts.ndim == 1 else counts
    numerator, denominator = _fraction(_metric_key(metric_name), *np.moveaxis(counts, -1, 0))
    if isinstance(denominator, np.ndarray):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(denominator != 0, numerator / denominator, np.nan)
    return numerator / denominator


def _confusion_counts(y_pred: np.ndarray, y: np.ndarray, skip_channel: bool) -> np.ndarray:
    """``(B, C, 4)``: per sample and class the counts (tp, fp, tn, fn) over the other dims."""
    if not skip_channel:
        y = y[:, 1:] if y.shape[1] > 1 else y
        y_pred = y_pred[:, 1:] if y_pred.shape[1] > 1 else y_pred
    if y.shape != y_pred.shape:
        raise ValueError(f"For 'ConfusionMatrixMetric', 'y_shape' ({y.shape}) must equal 'y_pred_shape' "
                         f"({y_pred.shape}).")
    batch, classes = y_pred.shape[:2]
    y_pred = y_pred.astype(float).reshape(batch, classes, -1)
    y = y.astype(float).reshape(batch, classes, -1)
    tp = ((y_pred + y) == 2).sum(axis=2).astype(float)
    tn = ((y_pred + y) == 0).sum(axis=2).astype(float)
    p = y.sum(axis=2)
    return np.stack([tp, y.shape[-1] - p - tn, tn, p - tp], axis=-1)


def _decrease(chart: np.ndarray, decrease: str):
    """``(chart, not_nans)``: the per sample and class ``chart`` reduced as ``decrease`` says (NaNs left out)."""
    if decrease == "mean_batch":   # MindSpore 2.10's table holds the function itself here: unpacking it fails
        raise TypeError("cannot unpack non-iterable function object")
    not_nans = (~np.isnan(chart)).astype(float)
    chart = np.where(np.isnan(chart), 0, chart)
    if decrease == "mean":
        counted = not_nans.sum(axis=1)
        per_sample = np.where(counted > 0, chart.sum(axis=1) / np.where(counted > 0, counted, 1), 0.0)
        samples = (counted > 0).astype(float).sum(axis=0)
        return np.where(samples > 0, per_sample.sum(axis=0) / np.where(samples > 0, samples, 1), 0.0), samples
    axes = {"sum": (0, 1), "sum_batch": 0, "sum_channel": 1, "mean_channel": 1}.get(decrease)
    if axes is None:
        return chart, not_nans
    counted, total = not_nans.sum(axis=axes), chart.sum(axis=axes)
    if decrease == "mean_channel":
        total = np.where(counted > 0, total / np.where(counted > 0, counted, 1), 0.0)
    return total, counted


class ConfusionMatrixMetric(Metric):
    """A metric of the confusion counts of binarized one-hot ``y_pred`` and ``y`` of shape ``(B, C, ...)``.

    Args:
        skip_channel (bool): keep the first channel (MindSpore's meaning: ``False`` drops it). Default: ``True``.
        metric_name (str): the metric or an alias of it (``'tpr'``/``'recall'``, ``'ppv'``/``'precision'``,
            ``'f1'``, ``'mcc'``, ...). Default: ``'sensitivity'``.
        calculation_method (bool): compute the metric per sample and class then average (True), or from the counts
            summed over everything (False). Default: ``False``.
        decrease (str): how the per sample and class metric is reduced with ``calculation_method``: ``'none'``,
            ``'mean'``, ``'sum'``, ``'mean_batch'``, ``'sum_batch'``, ``'mean_channel'``, ``'sum_channel'``.
            Default: ``'mean'``.

    Raises:
        TypeError: If an argument has the wrong type. ValueError: If ``decrease`` is not one of those.
        NotImplementedError: (when updated) If ``metric_name`` names no metric.
    """

    def __init__(self, skip_channel: bool = True, metric_name: str = "sensitivity", calculation_method: bool = False,
                 decrease: str = "mean") -> None:
        super().__init__()
        self.skip_channel = check_value_type("skip_channel", skip_channel, [bool])
        self.calculation_method = check_value_type("calculation_method", calculation_method, [bool])
        self.metric_name = check_value_type("metric_name", metric_name, [str])
        check_value_type("decrease", decrease, [str])
        if decrease not in _DECREASES:
            raise ValueError(f"The 'decrease' must be str and must be in '{_DECREASES}', but got '{decrease}'.")
        self.decrease = decrease
        self.clear()

    def clear(self) -> None:
        """Clear the internal evaluation result."""
        self._total_num, self._class_num = 0, 0
        self._totals = np.zeros(4)

    @rearrange_inputs
    def update(self, *inputs) -> None:
        """Add the counts (or per-sample metrics) of ``(y_pred, y)`` (Tensors, lists or arrays).

        Raises:
            ValueError: If there are not two inputs, ``y`` is not binarized or ``y_pred`` has fewer than 2 dims.
        """
        if len(inputs) != 2:
            raise ValueError(f"For 'ConfusionMatrixMetric.update', it needs 2 inputs (predicted value, true value), "
                             f"but got {len(inputs)}.")
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if not np.all(y.astype(np.uint8) == y):
            raise ValueError("For 'ConfusionMatrix.update', the true value (input[1]) must be a binarized ndarray.")
        if y_pred.ndim < 2:
            raise ValueError(f"For 'ConfusionMatrix.update', the predicted value (input[0]) must have at least 2 "
                             f"dimensions, but got {y_pred.ndim}.")
        if self.calculation_method and (y_pred.ndim == 2 or (y_pred.ndim == 3 and y_pred.shape[-1] == 1)):
            raise ValueError(f"For 'ConfusionMatrixMetric', 'calculation_method=True' needs a predicted value of "
                             f"shape (B, C, spatial dims ...), but got shape {y_pred.shape}.")
        counts = _confusion_counts(y_pred, y, self.skip_channel)
        if self.calculation_method:
            _metric_key(self.metric_name)
            score, not_nans = _decrease(_metric_of_counts(self.metric_name, counts), self.decrease)
            not_nans = int(np.asarray(not_nans).item())
            self._total_num += np.asarray(score).item() * not_nans
            self._class_num += not_nans
        else:
            self._totals = self._totals + counts.sum(axis=(0, 1))

    def eval(self):
        """The metric: an array of one value (from the summed counts), or the mean of the per-sample values.

        Raises:
            RuntimeError: If no sample was counted with ``calculation_method``.
        """
        if self.calculation_method:
            if self._class_num:
                return self._total_num / self._class_num
            raise RuntimeError("The 'ConfusionMatrixMetric' can not be calculated, because the number of samples is "
                               "0, please check whether your inputs(predicted value, true value) are empty, or has "
                               "called update method before calling eval method.")
        return _metric_of_counts(self.metric_name, self._totals)
