"""``mindspore.parallel.auto_parallel.AutoParallel``: the Cell that wraps a network (or a training-step
function) for semi-automatic / automatic parallel training.

On one process MindSpore's AutoParallel runs the wrapped network unchanged (device number 1, rank 0), and
npspore does the same: calling it calls the network, compiled as MindSpore compiles it (its ``construct`` is a
``jit`` function). Its configuration methods validate and record their settings as MindSpore's do
(``mindspore/parallel/auto_parallel.py``); sharding, pipelining and optimizer sharding have no effect on a
single process, in MindSpore as here.
"""
from __future__ import annotations

import os

from ..communication.management import get_group_size, get_rank
from ..jit import jit
from ..nn.cell import Cell
from ..core.parallel_layout import Layout

__all__ = ["AutoParallel"]

_MODES = ["semi_auto", "sharding_propagation", "recursive_programming"]
_SCHEDULERS = ("1f1b", "gpipe", "seqpipe", "seqvpp", "seqsmartvpp", "zero_bubble_v")


def _checked_path(file_path) -> str:
    if not isinstance(file_path, str):
        raise TypeError(f"the argument 'file_path' must be str, but got the type : {type(file_path)} .")
    return file_path


def _checked_json_path(file_path) -> str:
    _checked_path(file_path)
    if not os.path.isabs(file_path):
        raise KeyError("the argument 'file_path' must be an absolute path.")
    if os.path.splitext(file_path)[1] != ".json":
        raise KeyError("File type must be .json")
    return file_path


class AutoParallel(Cell):
    """Wrap ``network`` (a Cell or a function, e.g. a training step) for parallel training.

    Args:
        network (Union[Cell, Callable]): what calling the AutoParallel runs.
        parallel_mode (str): ``"semi_auto"``, ``"sharding_propagation"`` or ``"recursive_programming"``.
            Default: ``"semi_auto"``.

    Raises:
        ValueError: if ``parallel_mode`` is none of those.
        NotImplementedError: in a group of several processes (after ``init()`` under ``mpiexec -n N``, N > 1):
            npspore does not split a network across processes.

    Examples:
        >>> parallel_net = AutoParallel(train_step, parallel_mode="semi_auto")
        >>> loss = parallel_net(image, label)   # one process: train_step(image, label)
    """

    def __init__(self, network, parallel_mode: str = "semi_auto") -> None:
        super().__init__(auto_prefix=False)
        self.network = network
        if parallel_mode not in _MODES:
            raise ValueError(f"the argument 'parallel_mode' must be one of {_MODES}, but got the value : "
                             f"{parallel_mode} .")
        self._parallel_mode = parallel_mode
        self._global_rank = get_rank()
        self._device_num = get_group_size()
        if self._device_num > 1:   # each process would train its own copy: model parallelism is not implemented
            raise NotImplementedError(
                f"For 'AutoParallel', training across {self._device_num} processes (semi-automatic/automatic "
                "model parallelism) is not supported in npspore; on one process AutoParallel trains as the "
                "network it wraps, and ParallelMode.DATA_PARALLEL trains across processes.")
        self._init_param_in_compile = True
        self._load_strategy_file_path = ""
        self._save_strategy_file_path = ""
        self._only_trainable_params = True
        self._load_operator_strategy_file = ""
        self._save_operator_strategy_file = ""
        self._dataset_strategy_config = "data_parallel"
        self._full_batch = False
        self._enable_parallel_optimizer = False
        self._optimizer_weight_shard_size = -1
        self._parallel_optimizer_threshold = 64
        self._optimizer_level = "level1"
        self._pipeline_stages = 1
        self._pipeline_result_broadcast = False
        self._pipeline_interleave = False
        self._pipeline_scheduler = "1f1b"
        self._comm_fusion_config = {}
        self._force_fp32_communication = False
        self._group_ckpt_save_file = ""
        self._dump_local_norm = False
        self._dump_local_norm_path = ""
        self._dump_device_local_norm = False
        self._gradients_mean = False
        self._gradient_fp32_sync = True
        self._loss_repeated_mean = True
        self._transformer_opt_config = None

    def no_init_parameters_in_compile(self) -> None:
        """Do not initialize the weights while compiling (recorded; npspore's parameters hold their data)."""
        self._init_param_in_compile = False

    def load_param_strategy_file(self, file_path: str) -> None:
        """Record the path to load the parameters' sharding strategy from.

        Raises:
            TypeError: if ``file_path`` is not a str.
        """
        self._load_strategy_file_path = _checked_path(file_path)

    def save_param_strategy_file(self, file_path: str) -> None:
        """Record the path to save the parameters' sharding strategy to.

        Raises:
            TypeError: if ``file_path`` is not a str.
        """
        self._save_strategy_file_path = _checked_path(file_path)

    def disable_strategy_file_only_for_trainable_params(self) -> None:
        """Load and save the strategy of non-trainable parameters too (recorded)."""
        self._only_trainable_params = False

    def save_operator_strategy_file(self, file_path: str) -> None:
        """Record the absolute ``.json`` path the operators' strategies are saved to (sharding propagation).

        Raises:
            TypeError: if ``file_path`` is not a str.
            KeyError: if it is not absolute or does not end in ``.json``.
        """
        self._save_operator_strategy_file = _checked_json_path(file_path)

    def load_operator_strategy_file(self, file_path: str) -> None:
        """Record the absolute ``.json`` path the operators' strategies are loaded from (sharding propagation).

        Raises:
            TypeError: if ``file_path`` is not a str.
            KeyError: if it is not absolute or does not end in ``.json``.
        """
        self._load_operator_strategy_file = _checked_json_path(file_path)

    def dataset_strategy(self, config) -> None:
        """Record how the dataset is split: ``"data_parallel"``, ``"full_batch"`` or one strategy per input
        (tuples of ints or ``Layout`` s).

        Raises:
            ValueError: if ``config`` is None or a str other than those two.
            TypeError: if ``config`` is neither a str nor a tuple, or holds other than tuples of ints/Layouts.
        """
        if config is None:
            raise ValueError("dataset_strategy is none in config!")
        if isinstance(config, str):
            if config not in ("full_batch", "data_parallel"):
                raise ValueError("For 'AutoParallel.dataset_strategy', the argument 'config' must be 'full_batch' "
                                 f"or 'data_parallel', but got the value : {config}.")
            self._full_batch = config == "full_batch"
            self._dataset_strategy_config = config
            return
        if not isinstance(config, tuple):
            raise TypeError("For 'AutoParallel.dataset_strategy', the argument 'config' must be str or tuple type, "
                            f"but got the type : {type(config)}.")
        for element in config:
            if isinstance(element, tuple):
                for dim in element:
                    if not isinstance(dim, int):
                        raise TypeError("For 'AutoParallel.dataset_strategy', the element of argument 'config' "
                                        f"must be int type, but got the type : {type(dim)} .")
            elif not isinstance(element, Layout):
                raise TypeError("For 'AutoParallel.dataset_strategy', the element of argument 'config' must be "
                                f"tuple or Layout, but got the type : {type(element)} .")
        self._dataset_strategy_config = config

    def hsdp(self, shard_size: int = -1, threshold: int = 64, optimizer_level: str = "level1") -> None:
        """Enable optimizer sharding with its group size, size threshold (KB) and level (recorded: one
        process holds every shard).

        Raises:
            ValueError: if ``shard_size`` is not positive or -1, ``threshold`` negative, or ``optimizer_level``
                not ``"level1"``/``"level2"``/``"level3"``.
        """
        self._enable_parallel_optimizer = True
        if not isinstance(shard_size, int) or (shard_size <= 0 and shard_size != -1):
            raise ValueError(f"shard_size must be a positive integer or -1, but got {shard_size}.")
        self._optimizer_weight_shard_size = shard_size
        if not isinstance(threshold, int) or threshold < 0:
            raise ValueError(f"threshold must be a positive integer or 0, but got {threshold}.")
        self._parallel_optimizer_threshold = threshold
        if optimizer_level not in ["level1", "level2", "level3"]:
            raise ValueError(f"Optimizer level should in ['level1', 'level2', 'level3'], but got {optimizer_level}")
        self._optimizer_level = optimizer_level

    def pipeline(self, stages: int = 1, output_broadcast: bool = False, interleave: bool = False,
                 scheduler: str = "1f1b") -> None:
        """Record the pipeline configuration (read back by :meth:`get_pipeline_stages`).

        Raises:
            TypeError: if ``stages`` is not an int, ``output_broadcast``/``interleave`` not bools or
                ``scheduler`` not a str.
            ValueError: if ``stages`` <= 0 or ``scheduler`` is not one MindSpore has.
        """
        where = "For 'AutoParallel.pipeline', the argument"
        if not isinstance(stages, int):
            raise TypeError(f"{where} 'stages' must be int type, but got the type : {type(stages)}.")
        if stages <= 0:
            raise ValueError(f"{where} 'stages' must be larger than zero, but got value: {stages}.")
        for name, value in (("output_broadcast", output_broadcast), ("interleave", interleave)):
            if not isinstance(value, bool):
                raise TypeError(f"{where} '{name}' must be bool type, but got the type : {type(value)}.")
        if not isinstance(scheduler, str):
            raise TypeError(f"{where} 'scheduler' must be str type, but got the type : {type(scheduler)}.")
        if scheduler not in _SCHEDULERS:
            raise ValueError(f"{where} 'scheduler' must be '1f1b'/'gpipe'/'seqpipe'/'seqvpp'/'seqsmartvpp'/"
                             f"'zero_bubble_v' , but got the value : {scheduler}.")
        self._pipeline_stages = stages
        self._pipeline_result_broadcast = output_broadcast
        self._pipeline_interleave = interleave
        self._pipeline_scheduler = scheduler

    def comm_fusion(self, config: dict | None) -> None:
        """Record the fusion configuration of the communication operators.

        Raises:
            TypeError: if ``config`` is not a dict (or None).
        """
        if config is not None and not isinstance(config, dict):
            raise TypeError(f"The parameter '{config}' must be {dict}, but got {type(config)}.")
        self._comm_fusion_config = config

    def enable_fp32_communication(self) -> None:
        """Reduce in float32 (recorded)."""
        self._force_fp32_communication = True

    def set_group_ckpt_save_file(self, file_path: str) -> None:
        """Record the path the communication groups are saved to.

        Raises:
            TypeError: if ``file_path`` is not a str.
        """
        self._group_ckpt_save_file = _checked_path(file_path)

    def print_local_norm(self) -> None:
        """Print the local norms (recorded)."""
        self._dump_local_norm = True

    def dump_local_norm(self, file_path: str) -> None:
        """Record that local norms go to ``file_path``.

        Raises:
            TypeError: if ``file_path`` is not a str.
        """
        self._dump_local_norm_path = _checked_path(file_path)
        self._dump_local_norm = True

    def enable_device_local_norm(self) -> None:
        """Print the device local norm (recorded)."""
        self._dump_device_local_norm = True

    def enable_gradients_mean(self) -> None:
        """Average the all-reduced gradients (recorded; one process has nothing to reduce)."""
        self._gradients_mean = True

    def disable_gradient_fp32_sync(self) -> None:
        """Do not cast float16 gradients to float32 before the all-reduce (recorded)."""
        self._gradient_fp32_sync = False

    def disable_loss_repeated_mean(self) -> None:
        """Do not average a repeated loss in the backward pass (recorded)."""
        self._loss_repeated_mean = False

    def get_pipeline_stages(self) -> int:
        """The number of pipeline stages :meth:`pipeline` recorded (1 by default)."""
        return self._pipeline_stages

    def transformer_opt(self, file_path: str | None) -> None:
        """Record the path of the parallel speed-up json file (None or '' disables it)."""
        self._transformer_opt_config = file_path

    @jit
    def construct(self, *args, **kwargs):
        return self.network(*args, **kwargs)
