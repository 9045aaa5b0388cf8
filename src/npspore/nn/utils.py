"""``nn.utils``: ``no_init_parameters``, MindSpore's context for building a network whose parameters a
checkpoint is about to replace."""
from __future__ import annotations

import contextlib
from typing import Iterator

from ..common.parameter import Parameter

__all__ = ["no_init_parameters"]


@contextlib.contextmanager
def no_init_parameters() -> Iterator[None]:
    """Build networks in this block with ``Parameter.init_param`` set to False, as MindSpore does.

    MindSpore then defers drawing the parameters' initial values until ``Cell.init_parameters_data`` (or the
    first run), so that a checkpoint loaded before replaces them without the memory of drawing them first.
    npspore's parameters always hold their data, drawn when they are built: loading a checkpoint gives its
    values, and a network run without one has its initializers' values, as in MindSpore (the draws only come
    earlier than MindSpore's, at construction).

    Examples:
        >>> with no_init_parameters():
        ...     net = nn.Dense(3, 4)
        >>> ms.load_checkpoint("./checkpoint/test_net.ckpt", net=net)
        >>> net.init_parameters_data()
    """
    Parameter.init_param = False
    try:
        yield
    finally:
        Parameter.init_param = True
