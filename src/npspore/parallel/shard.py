"""``mindspore.parallel.shard``: the input (and output) sharding strategy of a Cell or function."""
from __future__ import annotations

from typing import Callable

from ..communication.management import get_group_size

__all__ = ["shard"]


def shard(fn: Callable, in_strategy: tuple, out_strategy: tuple | None = None,
          parameter_plan: dict | None = None) -> Callable:
    """``fn`` to run with its inputs split by ``in_strategy`` across the devices. In a group of one process
    MindSpore 2.10 returns ``fn`` itself, and so does npspore.

    Args:
        fn (Union[Cell, Callable]): what to shard.
        in_strategy (tuple): one tuple of ints or ``Layout`` per input.
        out_strategy (tuple, optional): the outputs' strategies. Default: ``None``.
        parameter_plan (dict, optional): Parameter name -> strategy. Default: ``None``.

    Returns:
        ``fn``.

    Raises:
        NotImplementedError: in a group of several processes: npspore does not split an op across processes.
    """
    if get_group_size() == 1:
        return fn
    raise NotImplementedError(f"For 'shard', splitting '{getattr(fn, '__name__', type(fn).__name__)}' across "
                              f"{get_group_size()} processes (model parallelism) is not supported in npspore; "
                              "ParallelMode.DATA_PARALLEL trains across processes.")
