"""The collective primitives of ``mindspore.ops.auto_generate.gen_ops_prim`` that ``mindspore.mint.distributed`` and
``communication.comm_func`` call (``InnerCommAllReduce``, ``DistCommAllGather``, ``DistCommBroadcast`` ...), over
npspore's collectives (the ops of ``codegen_templates/collective.py``, through :mod:`npspore.communication`).

They take MindSpore's arguments in MindSpore's order. ``InnerComm*`` return the collective's result; ``DistComm*``
write it into their output Tensor (``other``, the list, or ``input`` itself) and return that, as the first of the
``(output, handle)`` pair MindSpore's wrappers unpack (npspore's collectives complete before they return, so there
is no handle to wait on). ``rank_size`` must be the group's size and ``rank_id`` this process's rank in it.
"""
from __future__ import annotations

from typing import Any, Callable

from ..common.tensor import Tensor
from ..communication import comm_func
from ..communication.management import get_group_size, get_rank, get_group_rank_from_world_rank
from . import functional as F
from .eager import assign, run


def _written(target: Tensor, value: Any) -> Tensor:
    """``value`` written into ``target`` (``ops.assign``); returns ``target``, as the in-place primitives do."""
    assign(target, value)
    return target


def _check_rank_size(name: str, rank_size: int, group: str) -> int:
    size = get_group_size(group)
    if rank_size != size:
        raise ValueError(f"For '{name}', the 'rank_size' must be the size {size} of the group '{group}', but got "
                         f"{rank_size}.")
    return size


def _group_rank(group: str) -> int:
    return get_group_rank_from_world_rank(get_rank(), group) if get_group_size(group) > 1 else 0


def _write_list(tensors: Any, gathered: Tensor, count: int) -> Any:
    """Write the ``count`` blocks of ``gathered`` along axis 0 into the Tensors of ``tensors``."""
    for tensor, block in zip(tensors, F.split(gathered, gathered.shape[0] // count, 0)):
        assign(tensor, F.reshape(block, tensor.shape))
    return tensors


def inner_all_reduce(input: Tensor, op_type: str, group: str, async_op: bool = True) -> Tensor:
    """The ``op_type`` reduction of ``input`` over ``group``."""
    return comm_func.all_reduce(input, op_type, group, async_op)[0]


def inner_all_gather(input: Tensor, rank_size: int, group: str, async_op: bool = True) -> Tensor:
    """The ranks' ``input`` concatenated along axis 0."""
    _check_rank_size("InnerCommAllGather", rank_size, group)
    return comm_func.all_gather_into_tensor(input, group, async_op)[0]


def inner_reduce_scatter(input: Tensor, rank_size: int, op_type: str, group: str, async_op: bool = True) -> Tensor:
    """This rank's block along axis 0 of the ``op_type`` reduction of ``input``."""
    _check_rank_size("InnerCommReduceScatter", rank_size, group)
    return comm_func.reduce_scatter_tensor(input, op_type, group, async_op)[0]


def all_reduce(input: Tensor, op_type: str, group: str, async_op: bool = True) -> Tensor:
    """``input`` replaced by its ``op_type`` reduction over ``group``."""
    return _written(input, inner_all_reduce(input, op_type, group, async_op))


def all_gather_into_tensor(other: Tensor, input: Tensor, rank_size: int, group: str, async_op: bool = True) -> Tensor:
    """``other`` replaced by the ranks' ``input`` concatenated along axis 0."""
    _check_rank_size("DistCommAllGatherIntoTensor", rank_size, group)
    return _written(other, comm_func.all_gather_into_tensor(input, group, async_op)[0])


def all_gather(tensor_list: Any, input: Tensor, rank_size: int, group: str, async_op: bool = True) -> Any:
    """The Tensors of ``tensor_list`` replaced by the ranks' ``input``, in rank order."""
    size = _check_rank_size("DistCommAllGather", rank_size, group)
    gathered = comm_func.all_gather_into_tensor(F.expand_dims(input, 0), group, async_op)[0]
    return _write_list(tensor_list, gathered, size)


def reduce_scatter_tensor(other: Tensor, input: Tensor, rank_size: int, op_type: str, group: str,
                          async_op: bool = True) -> Tensor:
    """``other`` replaced by this rank's block along axis 0 of the ``op_type`` reduction of ``input``."""
    _check_rank_size("DistCommReduceScatterTensor", rank_size, group)
    return _written(other, comm_func.reduce_scatter_tensor(input, op_type, group, async_op)[0])


def reduce_scatter(other: Tensor, input_list: Any, rank_size: int, op_type: str, group: str,
                   async_op: bool = True) -> Tensor:
    """``other`` replaced by the ``op_type`` reduction of the ranks' ``input_list[this rank]``."""
    _check_rank_size("DistCommReduceScatter", rank_size, group)
    stacked = run("concat", *[F.expand_dims(tensor, 0) for tensor in input_list], axis=0)
    block = comm_func.reduce_scatter_tensor(stacked, op_type, group, async_op)[0]
    return _written(other, F.reshape(block, other.shape))


def broadcast(input: Tensor, src: int, rank_id: int, group: str, async_op: bool = True) -> Tensor:
    """``input`` replaced by the group rank ``src``'s ``input``."""
    return _written(input, run("broadcast", input, root=src, group=group, size=get_group_size(group)))


def reduce(input: Tensor, op_type: str, dst: int, group: str, async_op: bool = True) -> Tensor:
    """``input`` replaced, on the world rank ``dst``, by the ``op_type`` reduction of the ranks' ``input``."""
    reduced = comm_func.reduce(input, dst, op_type, group)
    return _written(input, reduced) if get_rank() == dst else input


def barrier(group: str, async_op: bool = True) -> None:
    """Wait until every rank of ``group`` has called it."""
    comm_func.barrier(group)


def scatter_tensor(other: Tensor, input: Tensor, rank_size: int, src: int, rank_id: int, group: str,
                   async_op: bool = True) -> Tensor:
    """``other`` replaced by block ``rank_id`` along axis 0 of the group rank ``src``'s ``input``."""
    size = _check_rank_size("DistCommScatterTensor", rank_size, group)
    sent = run("broadcast", input, root=src, group=group, size=size)
    block = F.split(sent, sent.shape[0] // size, 0)[_group_rank(group)]
    return _written(other, F.reshape(block, other.shape))


def scatter(other: Tensor, scatter_list: Any, rank_size: int, src: int, rank_id: int, group: str,
            async_op: bool = True) -> Tensor:
    """``other`` replaced by ``scatter_list[this rank]`` of the group rank ``src``."""
    size = _check_rank_size("DistCommScatter", rank_size, group)
    stacked = run("concat", *[F.expand_dims(tensor, 0) for tensor in scatter_list], axis=0)
    sent = run("broadcast", stacked, root=src, group=group, size=size)
    return _written(other, F.reshape(sent[_group_rank(group)], other.shape))


def gather_into_tensor(other: Tensor, input: Tensor, rank_size: int, dst: int, rank_id: int, group: str,
                       async_op: bool = True) -> Tensor:
    """On the group rank ``dst``, ``other`` replaced by the ranks' ``input`` concatenated along axis 0."""
    _check_rank_size("DistCommGatherIntoTensor", rank_size, group)
    gathered = comm_func.all_gather_into_tensor(input, group, async_op)[0]
    return _written(other, gathered) if _group_rank(group) == dst else other


def gather(input: Tensor, gather_list: Any, rank_size: int, dst: int, rank_id: int, group: str,
           async_op: bool = True) -> Any:
    """On the group rank ``dst``, the Tensors of ``gather_list`` replaced by the ranks' ``input``."""
    size = _check_rank_size("DistCommGather", rank_size, group)
    gathered = comm_func.all_gather_into_tensor(F.expand_dims(input, 0), group, async_op)[0]
    return _write_list(gather_list, gathered, size) if _group_rank(group) == dst else gather_list


COLLECTIVES: dict[str, Callable] = {
    "InnerCommAllReduce": inner_all_reduce, "InnerCommAllGather": inner_all_gather,
    "InnerCommReduceScatter": inner_reduce_scatter, "DistCommAllReduce": all_reduce,
    "DistCommAllGatherIntoTensor": all_gather_into_tensor, "DistCommAllGather": all_gather,
    "DistCommReduceScatterTensor": reduce_scatter_tensor, "DistCommReduceScatter": reduce_scatter,
    "DistCommBroadcast": broadcast, "DistCommReduce": reduce, "DistCommBarrier": barrier,
    "DistCommScatterTensor": scatter_tensor, "DistCommScatter": scatter,
    "DistCommGatherIntoTensor": gather_into_tensor, "DistCommGather": gather,
}
