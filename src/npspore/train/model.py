"""``Model``: the high-level training and evaluation loop of ``mindspore.train``.

``Model(network, loss_fn, optimizer, metrics)`` builds its training network once, with
``amp.build_train_network`` (``WithLossCell`` + ``TrainOneStepCell``, or the loss-scaling cell; it runs
compiled, one kernel for forward, backward and update, compiled once per input signature), and its
evaluation network (``WithEvalCell`` returning ``(loss, outputs, label)``). ``train`` runs epochs over a
dataset (anything with ``get_dataset_size()`` and ``create_tuple_iterator()``, such as
``npspore.dataset``'s datasets) and calls the callbacks' hooks; ``eval`` returns the metrics; ``fit``
interleaves the two; ``predict`` runs the bare network. Dataset sink mode is a device feature: it is
accepted and, as MindSpore does on CPU, the data is fed step by step.
"""
from __future__ import annotations

from typing import Any, Iterable, Literal, Protocol

import numpy as np

from ..common.tensor import Tensor
from ..compiler.errors import api_boundary
from ..context import ParallelMode  # noqa: F401  (train.model.ParallelMode, as MindSpore's module has it)
from ..core.lazy import submodule
from ..jit import CompiledCellCall
from ..nn.validation import check_positive_int
from .callback import monitors
from .callback.callback import CallbackManager, InternalCallbackParam, RunContext
from .callback.checkpoint_callback import ModelCheckpoint, save_breakpoint_checkpoint
from .callback.plateau import EarlyStopping, ReduceLROnPlateau
from ..nn.cell import Cell
from .callback.callback import Callback
from .metrics import Loss, get_metrics

__all__ = ["Model"]


class Dataset(Protocol):
    """What ``Model`` reads from a dataset: its size and its rows (``npspore.dataset``'s datasets have both)."""

    def get_dataset_size(self) -> int:
        """The number of batches in one epoch."""
        ...

    def create_tuple_iterator(self, *, num_epochs: int = -1, output_numpy: Literal[False] = False) -> Iterable[Any]:
        """The rows of ``num_epochs`` epochs, each a list of Tensors."""
        ...

_AMP_LEVELS = ("O0", "O1", "O2", "O3", "auto")
# npspore's own callbacks; in ``fit`` only TimeMonitor of them also watches the evaluation runs.
_BUILT_IN_CALLBACKS = (monitors.LossMonitor, monitors.History, monitors.LambdaCallback, monitors.ProgressBar,
                       ModelCheckpoint, EarlyStopping, ReduceLROnPlateau)


def _nn():
    from .. import nn

    return nn


def _as_tensor(value):
    return Tensor(value) if isinstance(value, np.ndarray) else value


def _dataset_size(dataset, who):
    if not hasattr(dataset, "get_dataset_size") or not hasattr(dataset, "create_tuple_iterator"):
        raise TypeError(f"For '{who}', the dataset must be a dataset with 'get_dataset_size' and "
                        f"'create_tuple_iterator' (such as npspore.dataset.GeneratorDataset), but got {type(dataset)}.")
    size = dataset.get_dataset_size()
    if size == 0:
        raise ValueError("There is no valid data in dataset, please check dataset file firstly.")
    return size


def _batches(rows):
    """One epoch of a dataset iterator's ``rows``: tuples of Tensors."""
    for row in rows:
        yield tuple(_as_tensor(item) for item in row)


def _epoch_iterators(dataset, num_epochs):
    """The iterator of each of ``num_epochs`` epochs over ``dataset``.

    As in MindSpore, one iterator of ``num_epochs`` epochs serves an npspore dataset, so each epoch
    draws its own shuffle (a new iterator would replay the first epoch's order under a seed).
    Another object's ``create_tuple_iterator`` may give a one-pass iterator: it is asked for one
    epoch at a time.
    """
    if isinstance(dataset, submodule("npspore.dataset", "datasets").Dataset):
        iterator = dataset.create_tuple_iterator(num_epochs=num_epochs, output_numpy=False)
        for _ in range(num_epochs):
            yield iterator
    else:
        for _ in range(num_epochs):
            yield dataset.create_tuple_iterator(num_epochs=1, output_numpy=False)


class Model:
    """High-level API that trains, evaluates and runs a network.

    Args:
        network (Cell): the network. With ``loss_fn`` it maps data to predictions; without, it is the
            training network itself (for example a ``TrainOneStepCell``) and returns the loss.
        loss_fn (Cell): the loss function; ``WithLossCell(network, loss_fn)`` is trained.
        optimizer (Cell): the optimizer; without it (and without ``loss_fn``) ``network`` is trained as is.
        metrics (Union[dict, set]): metrics for ``eval``: ``{'accuracy'}`` or ``{'acc': nn.Accuracy()}``.
        eval_network (Cell): the evaluation network (default ``WithEvalCell(network, loss_fn)``).
        eval_indexes (list): three positions in the eval network's outputs: loss, prediction, label.
        amp_level (str): mixed precision level, ``'O0'``, ``'O1'``, ``'O2'``, ``'O3'`` or ``'auto'``
            (see :func:`npspore.amp.build_train_network`).
        boost_level (str): accepted for compatibility (``'O0'`` only changes nothing).
        **kwargs: ``loss_scale_manager`` (a :class:`npspore.amp.LossScaleManager`), ``keep_batchnorm_fp32``.

    Raises:
        ValueError: if ``amp_level`` is not O0 without an optimizer, ``metrics`` are set without a way to
            build the evaluation network, ``eval_indexes`` is malformed, or a keyword is unknown.
    """

    def __init__(self, network: Cell, loss_fn: Cell | None = None, optimizer: Cell | None = None,
                 metrics: set[str] | dict[str, Any] | None = None, eval_network: Cell | None = None,
                 eval_indexes: list[int] | None = None, amp_level: str = "O0", boost_level: str = "O0",
                 **kwargs: Any) -> None:
        if not isinstance(network, Cell):
            raise TypeError(f"For 'Model', the argument 'network' must be Cell, but got {type(network)}.")
        for key in kwargs:
            if key not in ("loss_scale_manager", "keep_batchnorm_fp32"):
                raise ValueError("The argument in 'kwargs' should be 'loss_scale_manager' or 'keep_batchnorm_fp32', "
                                 f"but got '{key}'.")
        if amp_level not in _AMP_LEVELS:
            raise ValueError(f"For 'Model', the 'amp_level' must be one of {list(_AMP_LEVELS)}, but got {amp_level!r}.")
        if optimizer is None and amp_level != "O0":
            raise ValueError("Auto mixed precision will not work because 'optimizer' is None.Please set "
                             "amp_level='O0' to disable auto mixed precision or set 'optimizer' not be None to use "
                             "auto mixed precision.")
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._amp_level = amp_level
        self._boost_level = boost_level
        self._amp_kwargs = dict(kwargs)
        self._loss_scale_manager = kwargs.get("loss_scale_manager")
        if self._loss_scale_manager is not None and optimizer is None:
            raise ValueError("The argument 'optimizer' can not be None when set 'loss_scale_manager'.")
        self._train_network = self._build_train_network()
        # The training step Model builds (a TrainOneStepCell) runs as one compiled kernel, in PYNATIVE mode too
        # (computing what PYNATIVE mode computes there); a training network the user wrote runs as the mode says.
        self._train_step = CompiledCellCall(self._train_network, as_mode=True) if optimizer is not None \
            else self._train_network
        # A loss-scaling step detects float16 overflow itself (and skips the update): NumPy need not warn.
        scaling = isinstance(self._train_network, getattr(_nn(), "TrainOneStepWithLossScaleCell", ()))
        self._overflow_errstate = {"over": "ignore", "invalid": "ignore"} if scaling else {}
        self._metric_fns = get_metrics(metrics)
        self._eval_network, self._eval_indexes = self._build_eval_network(eval_network, eval_indexes)
        self._predict_network = network
        self._current_epoch_num = 0
        self._current_step_num = 0

    # ------------------------------------------------------------------------------ networks

    def _build_train_network(self):
        from .. import amp

        if self._optimizer is not None:
            return amp.build_train_network(self._network, self._optimizer, self._loss_fn, level=self._amp_level,
                                           boost_level=self._boost_level, **self._amp_kwargs)
        if self._loss_fn is not None:
            return _nn().WithLossCell(self._network, self._loss_fn)
        return self._network

    def _build_eval_network(self, eval_network, eval_indexes):
        if not self._metric_fns:
            return eval_network, None
        if eval_network is not None:
            if eval_indexes is not None and not (isinstance(eval_indexes, list) and len(eval_indexes) == 3):
                raise ValueError("The argument 'eval_indexes' must be a list or None. If 'eval_indexes' is a list, "
                                 f"length of it must be three. But got 'eval_indexes' {eval_indexes}")
            return eval_network, eval_indexes
        if self._loss_fn is None:
            raise ValueError("If `metrics` is set, `eval_network` must not be None. Do not set `metrics` if you "
                             "don't want an evaluation.\nFor the simple scenarios with one data, one label and one "
                             "logits, set `eval_network` or `loss_fn`; with `loss_fn` the evaluation network is "
                             "WithEvalCell(network, loss_fn).")
        return _nn().WithEvalCell(self._network, self._loss_fn, self._amp_level in ("O2", "O3", "auto")), [0, 1, 2]

    @property
    def train_network(self) -> Cell:
        """The network ``train`` runs each step."""
        return self._train_network

    @property
    def predict_network(self) -> Cell:
        """The network ``predict`` runs."""
        return self._predict_network

    @property
    def eval_network(self) -> Cell | None:
        """The network ``eval`` runs (None without metrics)."""
        return self._eval_network

    # ------------------------------------------------------------------------------ training

    @api_boundary
    def train(self, epoch: int, train_dataset: Dataset, callbacks: Callback | list[Callback] | None = None,
              dataset_sink_mode: bool = False, sink_size: int = -1, initial_epoch: int = 0) -> None:
        """Train for ``epoch`` epochs over ``train_dataset``.

        Args:
            epoch (int): the number of the last epoch (training runs epochs ``initial_epoch+1..epoch``).
            train_dataset (Dataset): yields ``(data, label)`` when ``loss_fn`` is set, otherwise the
                training network's inputs.
            callbacks (Union[Callback, list[Callback]]): hooks called during training.
            dataset_sink_mode (bool): accepted; data is always fed step by step (as on MindSpore's CPU).
            sink_size (int): -1 or positive; with sink mode off it does not change the steps per epoch.
            initial_epoch (int): epochs already done (when resuming).

        Raises:
            ValueError: if ``epoch`` is not a positive int, the dataset is empty, or a batch does not
                have two items while ``loss_fn`` is set.
            TypeError: if ``callbacks`` is not a Callback or a list of them.
        """
        self._check_train_args(epoch, dataset_sink_mode, sink_size, initial_epoch)
        self._train(epoch, train_dataset, callbacks, initial_epoch, valid_infos=None)

    @api_boundary
    def fit(self, epoch: int, train_dataset: Dataset, valid_dataset: Dataset | None = None,
            valid_frequency: int | list[int] = 1, callbacks: Callback | list[Callback] | None = None,
            dataset_sink_mode: bool = False, valid_dataset_sink_mode: bool = False, sink_size: int = -1,
            initial_epoch: int = 0) -> None:
        """Train, evaluating on ``valid_dataset`` after every ``valid_frequency``-th epoch.

        The evaluation results (with ``'eval_loss'``) reach the callbacks as ``cb_params.eval_results``,
        and ``LossMonitor`` prints ``Eval result: epoch 1, metrics: {...}``.

        Args:
            valid_frequency (Union[int, list]): evaluate after epochs divisible by it, or after the
                epochs listed.
            Others as in :meth:`train`.
        """
        self._check_train_args(epoch, dataset_sink_mode, sink_size, initial_epoch)
        if valid_dataset is not None and not self._metric_fns:
            raise ValueError("For 'Model.fit', the model argument 'metrics' can not be None or empty when "
                             "'valid_dataset' is given.")
        if not isinstance(valid_frequency, (int, list)) or isinstance(valid_frequency, bool):
            raise TypeError(f"For 'Model.fit', 'valid_frequency' must be int or list, but got {type(valid_frequency)}.")
        self._train(epoch, train_dataset, callbacks, initial_epoch, valid_infos=(valid_dataset, valid_frequency))

    def _train(self, epoch, train_dataset, callbacks, initial_epoch, valid_infos):
        """Train; when it raises, first save the breakpoint checkpoint ``exception_save`` asks for."""
        try:
            with CallbackManager(callbacks) as callback_list:
                self._train_process(epoch, train_dataset, callback_list, initial_epoch, valid_infos)
        except BaseException:
            save_breakpoint_checkpoint(callbacks, self._train_network, self._current_epoch_num,
                                       self._current_step_num)
            raise

    @staticmethod
    def _check_train_args(epoch, dataset_sink_mode, sink_size, initial_epoch):
        check_positive_int(epoch, "epoch", "Model.train")
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError(f"For 'Model.train', 'dataset_sink_mode' must be bool, but got {type(dataset_sink_mode)}.")
        if not isinstance(sink_size, int) or sink_size < -1 or sink_size == 0:
            raise ValueError(f"For 'Model.train', The argument 'sink_size' must be -1 or positive, but got {sink_size}.")
        if not isinstance(initial_epoch, int) or not 0 <= initial_epoch < epoch:
            raise ValueError("For 'Model.train', 'initial_epoch' must be a non-negative int smaller than 'epoch', "
                             f"but got {initial_epoch!r}.")

    def _train_process(self, epoch, train_dataset, callback_list, initial_epoch, valid_infos):
        cb_params = InternalCallbackParam()
        cb_params.cur_step_num = 0
        cb_params.train_network = self._train_network
        cb_params.epoch_num = epoch - initial_epoch
        cb_params.batch_num = _dataset_size(train_dataset, "Model.train")
        cb_params.mode = "train"
        cb_params.loss_fn = self._loss_fn
        cb_params.optimizer = self._optimizer
        cb_params.parallel_mode = "stand_alone"
        cb_params.device_number = 1
        cb_params.train_dataset = train_dataset
        cb_params.list_callback = callback_list
        cb_params.train_dataset_element = None
        cb_params.network = self._network
        cb_params.last_save_ckpt_step = None
        cb_params.latest_ckpt_file = None
        cb_params.loss_scale_mananger = self._loss_scale_manager  # sic: MindSpore's spelling
        cb_params.dataset_sink_mode = False
        cb_params.net_outputs = None
        run_context = RunContext(cb_params)
        self._train_network.set_train(True)
        callback_list.on_train_begin(run_context)
        epoch_iterators = _epoch_iterators(train_dataset, epoch - initial_epoch)
        for epoch_index in range(initial_epoch, epoch):
            cb_params.cur_epoch_num = epoch_index + 1
            self._current_epoch_num = cb_params.cur_epoch_num
            self._current_step_num = 0
            callback_list.on_train_epoch_begin(run_context)
            for batch in _batches(next(epoch_iterators)):
                if self._loss_fn is not None and len(batch) != 2:
                    raise ValueError("When 'loss_fn' is not None, 'train_dataset' should return two elements, but "
                                     f"got {len(batch)}, please check the number of elements returned by "
                                     "'train_dataset'")
                cb_params.cur_step_num += 1
                self._current_step_num = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
                cb_params.train_dataset_element = batch
                callback_list.on_train_step_begin(run_context)
                with np.errstate(**self._overflow_errstate):
                    outputs = self._train_step(*batch)
                cb_params.net_outputs = outputs
                self._update_loss_scale(outputs)
                callback_list.on_train_step_end(run_context)
                if run_context.get_stop_requested():
                    break
            if valid_infos is not None:
                self._eval_during_train(valid_infos, cb_params, callback_list)
            callback_list.on_train_epoch_end(run_context)
            cb_params.pop("metrics", None)
            cb_params.pop("eval_results", None)
            if run_context.get_stop_requested():
                break
        callback_list.on_train_end(run_context)

    def _update_loss_scale(self, outputs):
        manager = self._loss_scale_manager
        if manager is not None and manager.get_drop_overflow_update() and isinstance(outputs, tuple):
            manager.update_loss_scale(bool(np.all(outputs[1].asnumpy())))

    def _eval_during_train(self, valid_infos, cb_params, callback_list):
        valid_dataset, valid_frequency = valid_infos
        epoch = cb_params.cur_epoch_num
        due = epoch % valid_frequency == 0 if isinstance(valid_frequency, int) else epoch in valid_frequency
        if valid_dataset is None or not due:
            return
        saved = {key: cb_params[key] for key in ("cur_step_num", "batch_num", "dataset_sink_mode", "net_outputs")}
        eval_callbacks = [callback for callback in callback_list._callbacks
                          if not isinstance(callback, _BUILT_IN_CALLBACKS)]
        with CallbackManager(eval_callbacks) as eval_list:
            self._eval_process(valid_dataset, eval_list, cb_params, add_eval_loss=True)
        self._train_network.set_train(True)
        cb_params.mode = "train"
        cb_params.update(saved)

    # ---------------------------------------------------------------------------- evaluation

    @api_boundary
    def eval(self, valid_dataset: Dataset, callbacks: Callback | list[Callback] | None = None,
             dataset_sink_mode: bool = False) -> dict[str, Any]:
        """Evaluate the metrics over ``valid_dataset``.

        Returns:
            dict: metric name -> value, for example ``{'accuracy': 0.9742}``.

        Raises:
            ValueError: if the Model has no metrics.
        """
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError(f"For 'Model.eval', 'dataset_sink_mode' must be bool, but got {type(dataset_sink_mode)}.")
        if not self._metric_fns:
            raise ValueError("For Model.eval, the model argument 'metrics' can not be None or empty, you should set "
                             "the argument 'metrics' for model.")
        cb_params = InternalCallbackParam()
        cb_params.network = self._network
        with CallbackManager(callbacks) as callback_list:
            cb_params.list_callback = callback_list
            return self._eval_process(valid_dataset, callback_list, cb_params)

    def _eval_process(self, valid_dataset, callback_list, cb_params, add_eval_loss=False):
        cb_params.eval_network = self._eval_network
        cb_params.valid_dataset = valid_dataset
        cb_params.batch_num = _dataset_size(valid_dataset, "Model.eval")
        cb_params.mode = "eval"
        cb_params.cur_step_num = 0
        cb_params.dataset_sink_mode = False
        for metric in self._metric_fns.values():
            metric.clear()
        eval_loss = Loss() if add_eval_loss else None
        run_context = RunContext(cb_params)
        self._eval_network.set_train(False)
        callback_list.on_eval_begin(run_context)
        callback_list.on_eval_epoch_begin(run_context)
        for batch in _batches(valid_dataset.create_tuple_iterator(num_epochs=1, output_numpy=False)):
            cb_params.cur_step_num += 1
            cb_params.eval_dataset_element = batch
            callback_list.on_eval_step_begin(run_context)
            outputs = self._eval_network(*batch)
            cb_params.net_outputs = outputs
            callback_list.on_eval_step_end(run_context)
            self._update_metrics(outputs)
            if eval_loss is not None:
                eval_loss.update(outputs[self._eval_indexes[0]])
            if run_context.get_stop_requested():
                break
        callback_list.on_eval_epoch_end(run_context)
        metrics = {name: metric.eval() for name, metric in self._metric_fns.items()}
        cb_params.metrics = metrics
        if eval_loss is not None:
            cb_params.eval_results = dict(metrics, eval_loss=eval_loss.eval())
        callback_list.on_eval_end(run_context)
        return metrics

    def _update_metrics(self, outputs):
        outputs = (outputs,) if isinstance(outputs, Tensor) else outputs
        if not isinstance(outputs, tuple):
            raise ValueError(f"The argument 'outputs' should be tuple, but got {type(outputs)}.")
        if self._eval_indexes is not None and len(outputs) < 3:
            raise ValueError(f"The length of 'outputs' must be >= 3, but got {len(outputs)}")
        loss_index, predict_index, label_index = self._eval_indexes or (None, None, None)
        for metric in self._metric_fns.values():
            if self._eval_indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[loss_index])
            else:
                metric.update(outputs[predict_index], outputs[label_index])

    # ---------------------------------------------------------------------------- prediction

    @api_boundary
    def predict(self, *predict_data: Any, backend: str | None = None, config: Any = None) -> Any:
        """Run the network (in evaluation mode) on ``predict_data`` and return its output.

        Raises:
            TypeError: if an input is not a Tensor, NumPy array, number, or a tuple/list of them.
        """
        for item in predict_data:
            if not isinstance(item, (Tensor, np.ndarray, int, float, bool, tuple, list, type(None))):
                raise TypeError("For 'Model.predict', the inputs must be Tensor, numpy.ndarray, number, tuple, list "
                                f"or None, but got {type(item)}.")
        self._predict_network.set_train(False)
        return self._predict_network(*(_as_tensor(item) for item in predict_data))
