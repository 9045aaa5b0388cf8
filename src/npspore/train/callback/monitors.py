"""Callbacks that report on a run: ``LossMonitor``, ``TimeMonitor``, ``History``, ``LambdaCallback``, ``ProgressBar``.

``LossMonitor`` and ``TimeMonitor`` print MindSpore's lines (``epoch: 1 step: 100, loss is 0.2...``,
``Train epoch time: 12.345 ms, per step time: 1.234 ms``).
"""
from __future__ import annotations

import sys
import time

import numpy as np

from ...nn.validation import check_bool, check_non_negative_int
from .callback import Callback, RunContext, loss_value

__all__ = ["LossMonitor", "TimeMonitor", "History", "LambdaCallback", "ProgressBar"]


def _step_in_epoch(cb_params):
    return (cb_params.cur_step_num - 1) % cb_params.batch_num + 1


class LossMonitor(Callback):
    """Print the loss every ``per_print_times`` steps, and the evaluation results at the end of an epoch.

    Prints ``epoch: 1 step: 100, loss is 0.2345...``; ``per_print_times=0`` prints nothing.

    Raises:
        ValueError: if ``per_print_times`` is not a non-negative int, or (during training) the loss is
            NaN or infinite.
    """

    def __init__(self, per_print_times: int = 1) -> None:
        super().__init__()
        self._per_print_times = check_non_negative_int(per_print_times, "per_print_times", "LossMonitor")
        self._last_print_time = 0

    def step_end(self, run_context: RunContext) -> None:
        """Print the step's loss when due."""
        cb_params = run_context.original_args()
        epoch = cb_params.get("cur_epoch_num", 1)
        loss = loss_value(cb_params.net_outputs)
        step = _step_in_epoch(cb_params)
        if isinstance(loss, float) and (np.isnan(loss) or np.isinf(loss)):
            raise ValueError(f"In epoch: {epoch} step: {step}, loss is NAN or INF, training process cannot "
                             "continue, terminating training.")
        if self._per_print_times == 0:
            return
        while cb_params.cur_step_num <= self._last_print_time:  # a new run restarted the step count
            self._last_print_time -= max(self._per_print_times,
                                         cb_params.batch_num if cb_params.get("dataset_sink_mode") else 1)
        if cb_params.cur_step_num - self._last_print_time >= self._per_print_times:
            self._last_print_time = cb_params.cur_step_num
            print(f"epoch: {epoch} step: {step}, loss is {loss}", flush=True)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """Print the metrics of an evaluation run during training (``Model.fit``)."""
        cb_params = run_context.original_args()
        metrics = cb_params.get("metrics")
        if metrics:
            print("Eval result: epoch %d, metrics: %s" % (cb_params.cur_epoch_num, metrics))


class TimeMonitor(Callback):
    """Print each epoch's time and time per step, in milliseconds.

    Args:
        data_size (int): steps per epoch, used when the run does not know it.
        data_time (bool): also print the time spent waiting for data per step.
    """

    def __init__(self, data_size: int | None = None, data_time: bool = False) -> None:
        super().__init__()
        self.data_size = data_size
        self.data_time = check_bool(data_time, "data_time", "TimeMonitor")
        self.epoch_time = time.time()
        self.data_time_sum = 0.0
        self.data_time_start = 0.0

    def on_train_step_begin(self, run_context: RunContext) -> None:
        """Add the time since the last step ended (the wait for data)."""
        if self.data_time:
            self.data_time_sum += time.time() - self.data_time_start

    def on_train_step_end(self, run_context: RunContext) -> None:
        """Start timing the wait for the next batch."""
        if self.data_time:
            self.data_time_start = time.time()

    def epoch_begin(self, run_context: RunContext) -> None:
        """Start the epoch's clock."""
        self.epoch_time = time.time()
        self.data_time_sum = 0.0
        self.data_time_start = time.time()

    def epoch_end(self, run_context: RunContext) -> None:
        """Print ``Train epoch time: ... ms, per step time: ... ms``."""
        epoch_ms = (time.time() - self.epoch_time) * 1000
        cb_params = run_context.original_args()
        steps = self.data_size
        batch_num = cb_params.get("batch_num")
        if isinstance(batch_num, int) and batch_num > 0:
            steps = batch_num
        if not isinstance(steps, int) or steps <= 0:
            raise ValueError(f"For 'TimeMonitor', the number of steps per epoch must be a positive int, but got {steps}.")
        line = "{} epoch time: {:5.3f} ms, per step time: {:5.3f} ms".format(
            cb_params.get("mode", "").title(), epoch_ms, epoch_ms / steps)
        if self.data_time:
            line += " (data time: {:5.3f} ms)".format(self.data_time_sum * 1000 / steps)
        print(line, flush=True)


class History(Callback):
    """Record the last step's network output (and evaluation metrics) of each epoch in ``history``.

    ``history`` maps ``'net_output'`` (and each metric name) to a list with one value per epoch;
    ``epoch`` is ``{'epoch': [1, 2, ...]}``.
    """

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = None

    def begin(self, run_context: RunContext) -> None:
        """Start a new epoch list."""
        self.epoch = {"epoch": []}

    def epoch_end(self, run_context: RunContext) -> None:
        """Append this epoch's output and metrics."""
        cb_params = run_context.original_args()
        self.epoch["epoch"].append(cb_params.get("cur_epoch_num", 1))
        output = cb_params.net_outputs
        if isinstance(output, (tuple, list)) and output:
            output = output[0]
        if hasattr(output, "asnumpy"):
            output = np.mean(output.asnumpy())
        record = {"net_output": output}
        record.update(cb_params.get("metrics") or {})
        for key, value in record.items():
            self.history.setdefault(key, []).append(value)


_LAMBDA_HOOKS = ("on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin", "on_train_step_end",
                 "on_train_begin", "on_train_end", "on_eval_epoch_begin", "on_eval_epoch_end",
                 "on_eval_step_begin", "on_eval_step_end", "on_eval_begin", "on_eval_end")


class LambdaCallback(Callback):
    """A callback made of functions: ``LambdaCallback(on_train_epoch_end=lambda run_context: ...)``.

    Every ``on_train_*``/``on_eval_*`` hook is a keyword argument; hooks not given do nothing.
    """

    def __init__(self, on_train_epoch_begin=None, on_train_epoch_end=None, on_train_step_begin=None,
                 on_train_step_end=None, on_train_begin=None, on_train_end=None, on_eval_epoch_begin=None,
                 on_eval_epoch_end=None, on_eval_step_begin=None, on_eval_step_end=None, on_eval_begin=None,
                 on_eval_end=None):
        super().__init__()
        given = locals()
        for hook in _LAMBDA_HOOKS:
            setattr(self, hook, given[hook] or (lambda run_context: None))


class ProgressBar(Callback):
    """Show training progress: steps done in the epoch, steps per second and the latest loss.

    On a terminal one line is redrawn in place, at most ``refresh_seconds`` apart; otherwise (a log
    file, a notebook's captured output) a plain line is printed every ``per_print_steps`` steps
    (default: every tenth of an epoch) and at the end of each epoch::

        epoch 1/3 step 47/469 (10%) 35.2 steps/s loss 0.4183

    Args:
        per_print_steps (int): steps between plain lines; 0 means every tenth of an epoch.
        refresh_seconds (float): minimum time between redraws on a terminal.
        file: the stream to write to (``sys.stdout`` when None).
    """

    def __init__(self, per_print_steps=0, refresh_seconds=0.1, file=None):
        super().__init__()
        self._per_print_steps = check_non_negative_int(per_print_steps, "per_print_steps", "ProgressBar")
        self._refresh_seconds = refresh_seconds
        self._file = file
        self._epoch_start = 0.0
        self._last_draw = 0.0

    @property
    def _stream(self):
        return self._file if self._file is not None else sys.stdout

    def _is_terminal(self):
        return bool(getattr(self._stream, "isatty", lambda: False)())

    def on_train_epoch_begin(self, run_context: RunContext) -> None:
        """Start the epoch's clock."""
        self._epoch_start = time.time()
        self._last_draw = 0.0

    def on_train_step_end(self, run_context: RunContext) -> None:
        """Draw (terminal) or print (otherwise) the progress when due."""
        cb_params = run_context.original_args()
        step, steps = _step_in_epoch(cb_params), cb_params.batch_num
        now = time.time()
        if self._is_terminal():
            if step == steps or now - self._last_draw >= self._refresh_seconds:
                self._last_draw = now
                self._stream.write("\r" + self._line(cb_params, step, steps, now))
                if step == steps:
                    self._stream.write("\n")
                self._stream.flush()
            return
        every = self._per_print_steps or max(1, steps // 10)
        if step % every == 0 or step == steps:
            print(self._line(cb_params, step, steps, now), file=self._stream, flush=True)

    def _line(self, cb_params, step, steps, now):
        elapsed = max(now - self._epoch_start, 1e-9)
        loss = loss_value(cb_params.get("net_outputs"))
        loss_text = f"{loss:.4f}" if isinstance(loss, float) else str(loss)
        return (f"epoch {cb_params.cur_epoch_num}/{cb_params.epoch_num} step {step}/{steps} "
                f"({100 * step // steps}%) {step / elapsed:.1f} steps/s loss {loss_text}")
