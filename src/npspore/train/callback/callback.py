"""The callback protocol of ``Model.train``/``Model.eval``: ``Callback``, ``RunContext`` and the run's parameters.

``Model`` fills a ``InternalCallbackParam`` (a dict whose keys read as attributes: ``cur_epoch_num``,
``cur_step_num``, ``batch_num``, ``net_outputs``, ``train_network``, ``optimizer``, ``metrics`` ...),
wraps it in a ``RunContext`` and calls each callback's ``on_train_*``/``on_eval_*`` hooks. The
old-style hooks (``begin``, ``epoch_begin``, ``step_end`` ...) are what the new ones call by default.
"""
from __future__ import annotations

from contextlib import ExitStack

import numpy as np

from ...common.tensor import Tensor

__all__ = ["Callback", "RunContext", "CallbackManager", "InternalCallbackParam", "loss_value"]


class Callback:
    """Base class of callbacks; override the hooks you need. Every hook takes a ``RunContext``."""

    def __enter__(self):
        return self

    def __exit__(self, *err):
        pass

    def begin(self, run_context: RunContext) -> None:
        """Called once before the run (old-style hook)."""

    def epoch_begin(self, run_context: RunContext) -> None:
        """Called before each epoch (old-style hook)."""

    def epoch_end(self, run_context: RunContext) -> None:
        """Called after each epoch (old-style hook)."""

    def step_begin(self, run_context: RunContext) -> None:
        """Called before each step (old-style hook)."""

    def step_end(self, run_context: RunContext) -> None:
        """Called after each step (old-style hook)."""

    def end(self, run_context: RunContext) -> None:
        """Called once after the run (old-style hook)."""

    def on_train_begin(self, run_context: RunContext) -> None:
        """Called once before training."""
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context: RunContext) -> None:
        """Called before each training epoch."""
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """Called after each training epoch."""
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context: RunContext) -> None:
        """Called before each training step."""
        self.step_begin(run_context)

    def on_train_step_end(self, run_context: RunContext) -> None:
        """Called after each training step; ``net_outputs`` holds the step's loss."""
        self.step_end(run_context)

    def on_train_end(self, run_context: RunContext) -> None:
        """Called once after training."""
        self.end(run_context)

    def on_eval_begin(self, run_context: RunContext) -> None:
        """Called once before evaluation."""
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context: RunContext) -> None:
        """Called before the evaluation pass."""
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context: RunContext) -> None:
        """Called after the evaluation pass."""
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context: RunContext) -> None:
        """Called before each evaluation step."""
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context: RunContext) -> None:
        """Called after each evaluation step."""
        self.step_end(run_context)

    def on_eval_end(self, run_context: RunContext) -> None:
        """Called once after evaluation; ``metrics`` holds the results."""
        self.end(run_context)


_HOOKS = ("begin", "epoch_begin", "epoch_end", "step_begin", "step_end", "end",
          "on_train_begin", "on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin",
          "on_train_step_end", "on_train_end", "on_eval_begin", "on_eval_epoch_begin", "on_eval_epoch_end",
          "on_eval_step_begin", "on_eval_step_end", "on_eval_end")


class CallbackManager(Callback):
    """Calls each hook on a list of callbacks in order (entering them as context managers first).

    Raises:
        TypeError: if ``callbacks`` is not a Callback, a list of Callbacks or None.
    """

    def __init__(self, callbacks):
        if isinstance(callbacks, Callback):
            callbacks = [callbacks]
        elif callbacks is None:
            callbacks = []
        elif isinstance(callbacks, list):
            if not all(isinstance(callback, Callback) for callback in callbacks):
                raise TypeError("When the 'callbacks' is a list, the elements in 'callbacks' must be Callback functions.")
        else:
            raise TypeError("The 'callbacks' is not a Callback or a list of Callback.")
        self._callbacks = list(callbacks)
        self._stack = None

    def __enter__(self):
        if self._stack is None:
            self._stack = ExitStack().__enter__()
            entered = [self._stack.enter_context(callback) for callback in self._callbacks]
            self._callbacks = [target if isinstance(target, Callback) else callback
                               for target, callback in zip(entered, self._callbacks)]
        return self

    def __exit__(self, *err):
        return self._stack.__exit__(*err)


def _forward(hook):
    def call_all(self, run_context: RunContext) -> None:
        for callback in self._callbacks:
            getattr(callback, hook)(run_context)
    call_all.__name__ = hook
    call_all.__doc__ = f"Call ``{hook}`` on every callback."
    return call_all


for _hook in _HOOKS:
    setattr(CallbackManager, _hook, _forward(_hook))


class InternalCallbackParam(dict):
    """The run's parameters: a dict whose keys are also attributes (``cb_params.cur_epoch_num``)."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(f"The callback parameters have no attribute '{key}'.") from None

    def __setattr__(self, key, value):
        self[key] = value


class RunContext:
    """What callbacks receive: ``original_args()`` (the run's parameters) and ``request_stop()``.

    Raises:
        TypeError: if ``original_args`` is not a dict.
    """

    def __init__(self, original_args):
        if not isinstance(original_args, dict):
            raise TypeError("The argument 'original_args' of RunContext should be dict type, "
                            f"but got {type(original_args)}.")
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self):
        """The run's parameters (``InternalCallbackParam``)."""
        return self._original_args

    def request_stop(self):
        """Ask the run to stop after the current step."""
        self._stop_requested = True

    def get_stop_requested(self):
        """Whether a callback asked the run to stop."""
        return self._stop_requested


def loss_value(outputs):
    """The loss in a step's outputs, as MindSpore's monitors read it.

    A Tensor becomes the float mean of its values; of a tuple (a loss-scaling step's ``(loss, overflow,
    scale)``) the first Tensor is returned as it is, so it prints as a Tensor, as in MindSpore.
    """
    if isinstance(outputs, (tuple, list)):
        return outputs[0] if outputs and isinstance(outputs[0], Tensor) else outputs
    if isinstance(outputs, Tensor):
        return float(np.mean(outputs.asnumpy()))
    return outputs


_handle_loss = loss_value   # MindSpore's private name of it (train.callback._callback), which scripts import


# the network MindSpore's checkpoint-graph callback fills (train.callback._set_cur_net)
CUR_NET = None


def set_cur_net(net) -> None:
    """Record ``net`` as the network whose parameters MindSpore's GE checkpoint graph
    (``exec_checkpoint_graph``) updates (``CUR_NET``). npspore has no such graph: the parameters are the
    network's own arrays, so nothing else reads the record.

    Args:
        net (Cell): the training network.
    """
    global CUR_NET
    CUR_NET = net
