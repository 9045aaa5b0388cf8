"""``mindspore.ops.operations.AlltoAll``: every rank splits its input into one block per rank along
``split_dim``, sends block ``j`` to rank ``j``, and concatenates the blocks it receives along ``concat_dim`` in
rank order.

Written as the group's ``all_gather`` followed by taking this rank's block of every rank's input (the rank is a
process fact, known when compiling), so it runs eagerly and compiled and is differentiable through the
``all_gather``'s adjoint (each rank's gradient is the sum of what the others send back for its blocks).
"""
from __future__ import annotations

from .._checkparam import check_value_type
from ..common.tensor import Tensor
from ..communication.management import GlobalComm, get_group_size, get_rank
from . import functional as F
from .eager import run
from .primitives import Primitive

__all__ = ["AlltoAll"]


class AlltoAll(Primitive):
    """``AlltoAll(split_count, split_dim, concat_dim, group='hccl_world_group')(x)``.

    Raises:
        TypeError: If an argument is not an int (`group`: a str).
        ValueError: If `split_count` is not the group's size or ``x.shape[split_dim]`` is not divisible by it.
    """

    def __init__(self, split_count, split_dim, concat_dim, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__("AlltoAll")
        for name, value in (("split_count", split_count), ("split_dim", split_dim), ("concat_dim", concat_dim)):
            check_value_type(name, value, [int], self.name)
        check_value_type("group", group, [str], self.name)
        self.split_count, self.split_dim, self.concat_dim, self.group = split_count, split_dim, concat_dim, group
        for name, value in (("split_count", split_count), ("split_dim", split_dim), ("concat_dim", concat_dim),
                            ("group", group)):
            self.add_prim_attr(name, value)

    def __call__(self, x: Tensor) -> Tensor:
        if not isinstance(x, Tensor):
            raise TypeError(f"For '{self.name}', the 'x' must be a Tensor, but got {type(x).__name__}.")
        size = get_group_size(self.group)
        rank_count = len(x.shape)
        split_dim = self.split_dim % rank_count
        if self.split_count != size or x.shape[split_dim] % size:
            raise ValueError(f"For '{self.name}', the 'split_count' must be the group size {size} and divide "
                             f"x.shape[{self.split_dim}], but got split_count {self.split_count} and shape "
                             f"{list(x.shape)}.")
        rank = get_rank(self.group)
        block = x.shape[split_dim] // size
        gathered = run("all_gather", x, group=self.group, size=size)
        inputs = F.split(gathered, x.shape[0], 0) if size > 1 else (gathered,)
        index = (slice(None),) * split_dim + (slice(rank * block, (rank + 1) * block),)
        return F.concat([each[index] for each in inputs], self.concat_dim)
