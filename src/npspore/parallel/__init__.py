"""``mindspore.parallel``, as far as data-parallel programs reach into it: the auto-parallel context
object (``parallel._auto_parallel_context.auto_parallel_context()``) and the helpers of
``parallel._utils`` that model-zoo scripts call (``_get_parallel_mode``, ``_get_device_num``,
``_get_gradients_mean``), and the recorded strategy-search parameters (``set_algo_parameters`` ...).
Names MindSpore has here and npspore does not raise ``AttributeError`` saying so.
"""
from ..missing_names import module_getattr
from .algo_parameters import get_algo_parameters, reset_algo_parameters, set_algo_parameters

__all__ = ["set_algo_parameters", "get_algo_parameters", "reset_algo_parameters"]

# MindSpore 2.10 names of the 2.10 usage list's tail
from ..core.parallel_layout import Layout  # noqa: E402
from .auto_parallel import AutoParallel  # noqa: E402
from ..train.distributed_checkpoint import (build_searched_strategy, load_distributed_checkpoint,  # noqa: E402
                               merge_pipeline_strategys, merge_sliced_parameter, sync_pipeline_shared_parameters,
                               transform_checkpoints)
from .shard import shard  # noqa: E402
__all__ += ["shard", "Layout", "AutoParallel", "build_searched_strategy", "load_distributed_checkpoint",
            "merge_pipeline_strategys", "merge_sliced_parameter", "transform_checkpoints",
            "sync_pipeline_shared_parameters"]

__getattr__ = module_getattr("mindspore.parallel", globals())
