"""The auto-parallel context, as ``mindspore.set_auto_parallel_context`` / ``get_auto_parallel_context``.

npspore trains data-parallel: ``set_auto_parallel_context(parallel_mode=ParallelMode.DATA_PARALLEL,
gradients_mean=True)`` makes ``nn.TrainOneStepCell`` (and so ``Model.train``) all-reduce the
gradients over the ranks of an MPI job before the optimizer runs. The model-parallel modes
(``SEMI_AUTO_PARALLEL``, ``AUTO_PARALLEL``) and ``Cell.shard`` strategies can be set, as scripts do,
but training with them raises an error saying npspore does not support them.

``comm_fusion`` sets the size of the gradient buckets: ``{"allreduce": {"mode": "size", "config": 25}}``
all-reduces the gradients in flat buffers of up to 25 MB (the default), ``{"openstate": False}`` makes
one all-reduce per Parameter.
"""
from __future__ import annotations

from typing import Any

__all__ = ["ParallelMode", "set_auto_parallel_context", "get_auto_parallel_context", "reset_auto_parallel_context"]


class ParallelMode:
    """The parallel modes of ``set_auto_parallel_context(parallel_mode=...)``."""

    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


DEFAULT_BUCKET_MB = 25

# Observed on MindSpore 2.10 CPU (get_auto_parallel_context of a fresh process).
_DEFAULTS = {
    "parallel_mode": ParallelMode.STAND_ALONE,
    "gradients_mean": False,
    "device_num": 1,
    "global_rank": 0,
    "parameter_broadcast": False,
    "gradient_fp32_sync": True,
    "full_batch": False,
    "comm_fusion": {"openstate": True, "allreduce": {"mode": "auto", "config": None}},
}
# Keys MindSpore accepts that change nothing in npspore's data-parallel training; stored and returned.
_RECORDED = ("loss_repeated_mean", "search_mode", "auto_parallel_search_mode", "strategy_ckpt_load_file",
             "strategy_ckpt_save_file", "strategy_ckpt_config", "dataset_strategy", "enable_parallel_optimizer",
             "parallel_optimizer_config", "pipeline_stages", "pipeline_config", "grad_accumulation_step",
             "all_reduce_fusion_config", "enable_alltoall", "force_fp32_communication", "group_ckpt_save_file",
             "auto_pipeline", "pipeline_result_broadcast", "sharding_propagation", "full_batch_is_set")

_context: dict[str, Any] = {}
_explicit: set[str] = set()


def _check(key, value):
    prefix = f"The context configuration parameter '{key}'"
    if key == "parallel_mode" and value not in ParallelMode.MODE_LIST:
        raise ValueError(f"{prefix} only support 'stand_alone', 'data_parallel', 'hybrid_parallel', "
                         f"'semi_auto_parallel' and 'auto_parallel', but got the value : {value}.")
    if key in ("gradients_mean", "parameter_broadcast", "gradient_fp32_sync", "full_batch") \
            and not isinstance(value, bool):
        raise TypeError(f"{prefix} must be bool, but got {type(value).__name__}.")
    if key == "device_num" and (not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 4096):
        raise ValueError(f"{prefix} must be an int in [1, 4096], but got {value!r}.")
    if key == "global_rank" and (not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 4096):
        raise ValueError(f"{prefix} must be an int in [0, 4096), but got {value!r}.")
    if key == "comm_fusion":
        bucket_bytes_of(value)
    if key not in _DEFAULTS and key not in _RECORDED:
        raise ValueError(f"Set context keyword {key} is not recognized!")


def set_auto_parallel_context(**kwargs: Any) -> None:
    """Set auto-parallel attributes, e.g. ``set_auto_parallel_context(parallel_mode=ParallelMode.DATA_PARALLEL,
    gradients_mean=True)``.

    Keyword Args:
        parallel_mode (str): one of ``ParallelMode.MODE_LIST``. Training is supported for
            ``STAND_ALONE``, ``DATA_PARALLEL`` and ``HYBRID_PARALLEL`` (trained as data parallel).
        gradients_mean (bool): divide the all-reduced gradients by the group size. Default: ``False``.
        device_num (int): the number of ranks the gradients are averaged over (default: the group size).
        global_rank (int): recorded; the rank comes from the MPI job.
        parameter_broadcast (bool): recorded; data-parallel training always starts from rank 0's Parameters.
        comm_fusion (dict): gradient buckets, ``{"allreduce": {"mode": "size", "config": MB}}`` or
            ``{"openstate": False}`` (one all-reduce per Parameter).
        **kwargs: other MindSpore keys (``search_mode``, ``dataset_strategy`` ...), recorded.

    Raises:
        ValueError: if a key is unknown or a value is out of range.
        TypeError: if a flag is not a bool.
    """
    for key, value in kwargs.items():
        _check(key, value)
    _context.update(kwargs)
    _explicit.update(kwargs)


def get_auto_parallel_context(attr_key):
    """The value of an auto-parallel attribute, e.g. ``get_auto_parallel_context("parallel_mode")``.

    Raises:
        ValueError: if `attr_key` is not an attribute.
    """
    if attr_key in _context:
        return _context[attr_key]
    if attr_key in _DEFAULTS:
        return _DEFAULTS[attr_key]
    raise ValueError(f"Get context keyword {attr_key} is not recognized!")


def recorded_value(attr_key: str, default: Any = None) -> Any:
    """The value set for ``attr_key`` (an attribute npspore records), or ``default`` when it was never set."""
    return _context.get(attr_key, default)


def reset_auto_parallel_context():
    """Restore every auto-parallel attribute to its default."""
    _context.clear()
    _explicit.clear()


# ---------------------------------------------------------------- what training reads


def data_parallel() -> bool:
    """Whether training all-reduces gradients (DATA_PARALLEL or HYBRID_PARALLEL)."""
    return get_auto_parallel_context("parallel_mode") in (ParallelMode.DATA_PARALLEL, ParallelMode.HYBRID_PARALLEL)


def gradients_mean() -> bool:
    """Whether all-reduced gradients are divided by the device number."""
    return get_auto_parallel_context("gradients_mean")


def device_num_is_set() -> bool:
    """Whether ``device_num`` was set (since the last reset)."""
    return "device_num" in _explicit


def device_num(group_size: int) -> int:
    """The device number gradients are averaged over: ``device_num`` if set, else ``group_size``."""
    return _context["device_num"] if "device_num" in _explicit else group_size


def bucket_bytes_of(comm_fusion) -> int:
    """The gradient bucket size in bytes for a ``comm_fusion`` value (0: one all-reduce per Parameter).

    Raises:
        TypeError: if `comm_fusion` is not a dict of MindSpore's form.
        ValueError: if the mode is not ``'auto'`` or ``'size'`` or the size is negative.
    """
    if not isinstance(comm_fusion, dict):
        raise TypeError(f"The context configuration parameter 'comm_fusion' must be dict, but got "
                        f"{type(comm_fusion).__name__}.")
    if comm_fusion.get("openstate", True) is False:
        return 0
    allreduce = comm_fusion.get("allreduce", {"mode": "auto"})
    mode = allreduce.get("mode", "auto")
    if mode == "auto":
        return DEFAULT_BUCKET_MB << 20
    if mode != "size":
        raise ValueError(f"For 'comm_fusion', npspore supports the allreduce modes 'auto' and 'size', "
                         f"but got {mode!r}.")
    config = allreduce.get("config")
    if not isinstance(config, (int, float)) or isinstance(config, bool) or config < 0:
        raise ValueError(f"For 'comm_fusion', the allreduce 'config' of mode 'size' must be a size in MB "
                         f">= 0, but got {config!r}.")
    return int(config * (1 << 20))


def bucket_bytes() -> int:
    """The gradient bucket size in bytes the context sets (``comm_fusion``)."""
    return bucket_bytes_of(get_auto_parallel_context("comm_fusion"))


def check_trainable(network, api: str) -> None:
    """Raise if training ``network`` needs a parallel feature npspore lacks.

    Raises:
        NotImplementedError: in SEMI_AUTO_PARALLEL or AUTO_PARALLEL mode, or if a sub-cell of
            `network` has a ``shard`` strategy.
    """
    mode = get_auto_parallel_context("parallel_mode")
    if mode in (ParallelMode.SEMI_AUTO_PARALLEL, ParallelMode.AUTO_PARALLEL):
        raise NotImplementedError(f"For '{api}', parallel_mode '{mode}' (model parallelism) is not supported in "
                                  "npspore: use ParallelMode.DATA_PARALLEL, which all-reduces gradients over MPI.")
    cells = network.cells_and_names() if hasattr(network, "cells_and_names") else ()
    for name, cell in cells:
        if "shard" in getattr(cell, "_parallel_config", {}):
            raise NotImplementedError(f"For '{api}', the cell '{name or type(cell).__name__}' has a shard strategy "
                                      "(Cell.shard): operator-level model parallelism is not supported in npspore; "
                                      "train with ParallelMode.DATA_PARALLEL instead.")
