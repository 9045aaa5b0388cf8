"""Functional collectives, as ``mindspore.communication.comm_func`` (also ``npspore.ops.comm_func``).

``all_reduce(tensor)`` returns ``(output, handle)`` as MindSpore's does; the handle is None, or with
``async_op=True`` a :class:`CommHandle` whose ``wait()`` returns at once (npspore's collectives
complete before they return). ``broadcast`` and ``reduce`` return the Tensor alone. Each function
applies one op of ``codegen_templates/collective.py``, so it runs eagerly and inside compiled code,
and it is differentiable.
"""
from __future__ import annotations

from ..common.tensor import Tensor
from ..ops.eager import run
from .management import GlobalComm, get_group_rank_from_world_rank, get_group_size
from .transport import REDUCE_OPS
from . import transport

__all__ = ["CommHandle", "all_reduce", "all_gather_into_tensor", "reduce_scatter_tensor", "reduce", "broadcast",
           "barrier"]


class CommHandle:
    """The handle of an ``async_op=True`` collective; ``wait()`` returns at once."""

    def wait(self):
        """Wait for the collective: npspore's have completed when they return."""


def _check(api, tensor, op="sum", group=GlobalComm.WORLD_COMM_GROUP, async_op=False):
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For {api}, the input tensor must be tensor")
    if not isinstance(op, str):
        raise TypeError(f"For {api}, the input op type must be str")
    if op not in REDUCE_OPS:
        raise TypeError(f"For {api}, the input op value must be one of sum, prod, min, max")
    if not isinstance(group, str):
        raise TypeError(f"For {api}, the input group type must be str, but got {type(group).__name__}")
    if not isinstance(async_op, bool):
        raise TypeError(f"For {api}, the input async_op type must be bool, but got {type(async_op).__name__}")


def _handle(async_op):
    return CommHandle() if async_op else None


def all_reduce(tensor, op="sum", group=GlobalComm.WORLD_COMM_GROUP, async_op=False):
    """Reduce ``tensor`` over the ranks of ``group`` with ``op``; every rank gets the result.

    Args:
        tensor (Tensor): the input, of one shape and dtype on every rank.
        op (str): ``'sum'``, ``'prod'``, ``'min'`` or ``'max'``. Default: ``'sum'``.
        group (str): the group. Default: the world group.
        async_op (bool): return a handle to wait on. Default: ``False``.

    Returns:
        Tuple(Tensor, CommHandle): the result, of ``tensor``'s shape, and None (a handle with `async_op`).

    Raises:
        TypeError: if `tensor` is not a Tensor, `op` is not one of the names above, or `group` is not a str.
    """
    _check("all_reduce", tensor, op, group, async_op)
    return run("all_reduce", tensor, op=op, group=group, size=get_group_size(group)), _handle(async_op)


def all_gather_into_tensor(tensor, group=GlobalComm.WORLD_COMM_GROUP, async_op=False):
    """Every rank's ``tensor`` concatenated along axis 0, in rank order: shape ``(N * x_1, x_2, ...)``.

    Returns:
        Tuple(Tensor, CommHandle).

    Raises:
        TypeError: if `tensor` is not a Tensor or `group` is not a str.
        ValueError: if `tensor` is 0-D.
    """
    _check("all_gather_into_tensor", tensor, group=group, async_op=async_op)
    return run("all_gather", tensor, group=group, size=get_group_size(group)), _handle(async_op)


def reduce_scatter_tensor(tensor, op="sum", group=GlobalComm.WORLD_COMM_GROUP, async_op=False):
    """Reduce ``tensor`` over the group with ``op`` and keep this rank's block along axis 0: shape ``(x_1 / N, ...)``.

    Returns:
        Tuple(Tensor, CommHandle).

    Raises:
        TypeError: if `tensor` is not a Tensor, `op` is unknown or `group` is not a str.
        ValueError: if ``tensor.shape[0]`` is not divisible by the group size.
    """
    _check("reduce_scatter_tensor", tensor, op, group, async_op)
    return run("reduce_scatter", tensor, op=op, group=group, size=get_group_size(group)), _handle(async_op)


def reduce(tensor, dst, op="sum", group=GlobalComm.WORLD_COMM_GROUP):
    """The ``op`` of ``tensor`` over the group on the world rank ``dst``; zeros on the other ranks.

    Raises:
        TypeError: if `tensor` is not a Tensor, `dst` is not an int, `op` is unknown or `group` not a str.
    """
    _check("reduce", tensor, op, group)
    if not isinstance(dst, int):
        raise TypeError(f"For reduce, the dst must be int, but got {type(dst).__name__}")
    root = _group_rank(dst, group)
    return run("reduce", tensor, op=op, root=root, group=group, size=get_group_size(group))


def broadcast(tensor, src=0, group=GlobalComm.WORLD_COMM_GROUP):
    """The world rank ``src``'s ``tensor``, on every rank of the group.

    Raises:
        TypeError: if `tensor` is not a Tensor, `src` is not an int or `group` is not a str.
    """
    _check("broadcast", tensor, group=group)
    if not isinstance(src, int):
        raise TypeError("For broadcast, the src must be int")
    root = _group_rank(src, group)
    return run("broadcast", tensor, root=root, group=group, size=get_group_size(group))


def barrier(group=GlobalComm.WORLD_COMM_GROUP):
    """Wait until every rank of ``group`` has called ``barrier``.

    Raises:
        TypeError: if `group` is not a str.
    """
    if not isinstance(group, str):
        raise TypeError(f"group must be type of string, but got {type(group)}")
    transport.barrier(group)


def _group_rank(world_rank, group):
    return get_group_rank_from_world_rank(world_rank, group) if get_group_size(group) > 1 else world_rank

