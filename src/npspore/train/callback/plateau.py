"""Callbacks that watch a monitored value across epochs: ``EarlyStopping`` and ``ReduceLROnPlateau``.

The monitored value is ``'loss'`` (the last step's loss) or the name of an evaluation result
(``'eval_loss'``, ``'accuracy'`` ...) that ``Model.fit`` puts into ``cb_params.eval_results``.
Names of errors and losses improve downwards (``mode='auto'``), the others upwards.
"""
from __future__ import annotations

import numpy as np

from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ...core.logs import warn
from ...nn.validation import check_bool, check_non_negative_int
from ..serialization import load_param_into_net
from .callback import Callback, RunContext, loss_value

__all__ = ["EarlyStopping", "ReduceLROnPlateau"]

_LOG = "npspore.train"   # the logger's name

_SMALLER_IS_BETTER = ("hausdorff_distance", "mae", "mse", "loss", "perplexity", "mean_surface_distance",
                      "root_mean_square_distance", "eval_loss")


class _PlateauWatch(Callback):
    """Tracks the best monitored value and how many epochs passed without improving on it."""

    def __init__(self, monitor, min_delta, patience, verbose, mode):
        super().__init__()
        who = type(self).__name__
        if not isinstance(monitor, str):
            raise TypeError(f"For '{who}', the 'monitor' must be str, but got {type(monitor)}.")
        if not isinstance(min_delta, (int, float)) or isinstance(min_delta, bool):
            raise TypeError(f"For '{who}', the 'min_delta' must be float or int, but got {type(min_delta)}.")
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"mode should be 'auto', 'min' or 'max', but got {mode}.")
        self.monitor = monitor
        self.min_delta = abs(min_delta)
        self.patience = check_non_negative_int(patience, "patience", who)
        self.verbose = check_bool(verbose, "verbose", who)
        self.mode = mode
        self.wait = 0
        self.best = None
        self._reset_best()

    def _smaller_is_better(self):
        return self.mode == "min" or (self.mode == "auto" and self.monitor in _SMALLER_IS_BETTER)

    def _reset_best(self):
        self.best = np.inf if self._smaller_is_better() else -np.inf

    def is_improvement(self, current, reference):
        """Whether ``current`` beats ``reference`` by more than ``min_delta``."""
        if self._smaller_is_better():
            return bool(np.less(current, reference - self.min_delta))
        return bool(np.greater(current, reference + self.min_delta))

    def _monitor_value(self, cb_params):
        candidates = {}
        if self.monitor == "loss":
            value = loss_value(cb_params.get("net_outputs"))
            value = value.asnumpy() if isinstance(value, Tensor) else value
        else:
            candidates = cb_params.get("eval_results") or {}
            value = candidates.get(self.monitor)
        if value is None:
            warn(_LOG, "%s is conditioned on %s, which is not available. Available choices are: %s",
                 type(self).__name__, self.monitor, sorted({"loss", *candidates}))
            return None
        value = np.asarray(value)
        if value.shape != ():
            raise ValueError(f"{type(self).__name__} only supports scalar monitor now.")
        return value


class EarlyStopping(_PlateauWatch):
    """Stop training when the monitored value stops improving for ``patience`` epochs.

    Args:
        monitor (str): ``'eval_loss'`` (default), ``'loss'`` or an evaluation metric's name.
        min_delta (float): the smallest change that counts as an improvement.
        patience (int): epochs without improvement before stopping.
        verbose (bool): print ``Epoch 00005: early stopping`` at the end.
        mode (str): ``'auto'``, ``'min'`` or ``'max'``.
        baseline (float): an improvement must also beat this value to reset the wait.
        restore_best_weights (bool): load the best epoch's weights into the network when stopping.
    """

    def __init__(self, monitor="eval_loss", min_delta=0, patience=0, verbose=False, mode="auto", baseline=None,
                 restore_best_weights=False):
        super().__init__(monitor, min_delta, patience, verbose, mode)
        self.baseline = baseline
        self.restore_best_weights = check_bool(restore_best_weights, "restore_best_weights", "EarlyStopping")
        self.stopped_epoch = 0
        self.best_weights_param_dict = None

    def on_train_begin(self, run_context: RunContext) -> None:
        """Forget earlier runs."""
        self.wait = 0
        self.stopped_epoch = 0
        self._reset_best()
        self.best_weights_param_dict = None

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """Compare this epoch's value with the best one; request a stop when patience runs out."""
        cb_params = run_context.original_args()
        current = self._monitor_value(cb_params)
        if current is None:
            return
        network = cb_params.train_network
        if self.restore_best_weights and self.best_weights_param_dict is None:
            self.best_weights_param_dict = _snapshot(network)
        self.wait += 1
        if self.is_improvement(current, self.best):
            self.best = current
            if self.restore_best_weights:
                self.best_weights_param_dict = _snapshot(network)
            if self.baseline is None or self.is_improvement(current, self.baseline):
                self.wait = 0
        if self.wait >= self.patience:
            self.stopped_epoch = cb_params.get("cur_epoch_num")
            run_context.request_stop()
            if self.restore_best_weights and self.best_weights_param_dict is not None:
                if self.verbose:
                    print("Restoring model weights from the end of the best epoch.")
                load_param_into_net(network, self.best_weights_param_dict)

    def on_train_end(self, run_context: RunContext) -> None:
        """Report the epoch training stopped at."""
        if self.stopped_epoch > 0 and self.verbose:
            print("Epoch %05d: early stopping" % self.stopped_epoch)


def _snapshot(network):
    return {name: param.clone() for name, param in network.parameters_dict().items()}


class ReduceLROnPlateau(_PlateauWatch):
    """Multiply the optimizer's learning rate by ``factor`` when the monitored value stops improving.

    Args:
        monitor (str): ``'eval_loss'`` (default), ``'loss'`` or an evaluation metric's name.
        factor (float): in (0, 1); the new rate is ``max(lr * factor, min_lr)``.
        patience (int): epochs without improvement before reducing.
        verbose (bool): print ``Epoch 00003: ReduceLROnPlateau reducing learning rate to 0.001.``.
        mode (str): ``'auto'``, ``'min'`` or ``'max'``.
        min_delta (float): the smallest change that counts as an improvement.
        cooldown (int): epochs to wait after a reduction before counting again.
        min_lr (float): the lower bound of the rate.

    Raises:
        ValueError: during training, if the optimizer's learning rate is not a single Parameter.
    """

    def __init__(self, monitor="eval_loss", factor=0.1, patience=10, verbose=False, mode="auto", min_delta=1e-4,
                 cooldown=0, min_lr=0):
        super().__init__(monitor, min_delta, patience, verbose, mode)
        if not isinstance(factor, float) or not 0.0 < factor < 1.0:
            raise ValueError(f"For 'ReduceLROnPlateau', the 'factor' must be a float in (0.0, 1.0), but got {factor!r}.")
        if not isinstance(min_lr, (int, float)) or isinstance(min_lr, bool):
            raise TypeError(f"For 'ReduceLROnPlateau', the 'min_lr' must be float or int, but got {type(min_lr)}.")
        self.factor = factor
        self.cooldown = check_non_negative_int(cooldown, "cooldown", "ReduceLROnPlateau")
        self.min_lr = min_lr
        self.cooldown_counter = 0

    def on_train_begin(self, run_context: RunContext) -> None:
        """Forget earlier runs."""
        self.cooldown_counter = 0
        self.wait = 0
        self._reset_best()

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """Count an epoch without improvement; reduce the rate when patience runs out."""
        cb_params = run_context.original_args()
        learning_rate = cb_params.optimizer.learning_rate
        if not isinstance(learning_rate, Parameter):
            raise ValueError("ReduceLROnPlateau does not support dynamic learning rate and group learning rate now.")
        current = self._monitor_value(cb_params)
        if current is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.is_improvement(current, self.best):
            self.best = current
            self.wait = 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                if float(learning_rate.asnumpy()) > self.min_lr:
                    new_lr = learning_rate * self.factor
                    if float(new_lr.asnumpy()) < self.min_lr:
                        new_lr = self.min_lr
                    learning_rate.set_data(Tensor(new_lr, learning_rate.dtype) if not isinstance(new_lr, Tensor)
                                           else new_lr)
                    if self.verbose:
                        print("Epoch %05d: ReduceLROnPlateau reducing learning rate to %s."
                              % (cb_params.cur_epoch_num, new_lr))
                self.cooldown_counter = self.cooldown
                self.wait = 0
