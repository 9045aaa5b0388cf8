"""Collective primitives, as ``mindspore.ops.operations.comm_ops``: ``AllReduce``, ``AllGather``,
``ReduceScatter``, ``Broadcast``, ``Reduce`` and the ``ReduceOp`` names.

Each call applies one op of ``codegen_templates/collective.py`` over a communication group
(see :mod:`npspore.communication`), eagerly or inside compiled code, with its gradient.
"""
from __future__ import annotations

from ..communication.management import GlobalComm, get_group_rank_from_world_rank, get_group_size
from .eager import run
from .primitives import Primitive

__all__ = ["ReduceOp", "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Reduce"]


class ReduceOp:
    """The reductions of collectives: ``SUM``, ``MAX``, ``MIN``, ``PROD`` and ``AVG`` (the sum over the group size)."""

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"
    AVG = "avg"


_OPS = (ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD)


class _Collective(Primitive):
    """A primitive over the group ``group``: checks the op and group names once."""

    def __init__(self, op=None, group=GlobalComm.WORLD_COMM_GROUP, ops=_OPS):
        super().__init__(type(self).__name__)
        if op is not None and (not isinstance(op, str) or op not in ops):
            raise TypeError(f"For '{self.name}', the 'op' must be one of {list(ops)}, but got {op!r}.")
        if not isinstance(group, str):
            raise TypeError(f"For '{self.name}', the 'group' must be a str, but got {type(group).__name__}.")
        self.op = op
        self.group = group
        if op is not None:
            self.add_prim_attr("op", op)
        self.add_prim_attr("group", group)


class AllReduce(_Collective):
    """Reduce the input over every rank of ``group`` with ``op``; every rank gets the result.

    Args:
        op (str): ``ReduceOp.SUM``, ``MAX``, ``MIN``, ``PROD`` or ``AVG``. Default: ``ReduceOp.SUM``.
        group (str): the communication group. Default: the world group.

    Raises:
        TypeError: if `op` is not one of the names above or `group` is not a str.
    """

    def __init__(self, op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__(op, group, _OPS + (ReduceOp.AVG,))

    def __call__(self, x):
        size = get_group_size(self.group)
        if self.op == ReduceOp.AVG:
            return run("div", run("all_reduce", x, op="sum", group=self.group, size=size), size)
        return run("all_reduce", x, op=self.op, group=self.group, size=size)


class AllGather(_Collective):
    """Every rank's input concatenated along axis 0, in rank order.

    Raises:
        TypeError: if `group` is not a str.
    """

    def __init__(self, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__(None, group)

    def __call__(self, x):
        return run("all_gather", x, group=self.group, size=get_group_size(self.group))


class ReduceScatter(_Collective):
    """Reduce the input over the group with ``op``, then keep this rank's block of axis 0.

    Raises:
        TypeError: if `op` is not one of ``sum``, ``max``, ``min``, ``prod`` or `group` is not a str.
    """

    def __init__(self, op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__(op, group)

    def __call__(self, x):
        return run("reduce_scatter", x, op=self.op, group=self.group, size=get_group_size(self.group))


class _Rooted(_Collective):
    """A collective with a root: the world rank ``root`` (stored under MindSpore's attribute ``root_name``)."""

    root_name = ""

    def __init__(self, root, op=None, group=GlobalComm.WORLD_COMM_GROUP):
        if not isinstance(root, int) or isinstance(root, bool):
            raise TypeError(f"For '{type(self).__name__}', the '{self.root_name}' must be an int, but got "
                            f"{type(root).__name__}.")
        super().__init__(op, group)
        self.root = root
        setattr(self, self.root_name, root)
        self.add_prim_attr(self.root_name, root)

    def group_root(self, size):
        """The root's rank in the group."""
        return get_group_rank_from_world_rank(self.root, self.group) if size > 1 else 0


class Broadcast(_Rooted):
    """The tensors of the world rank ``root_rank``, on every rank: ``Broadcast(0)((x,))`` returns ``(x0,)``.

    Raises:
        TypeError: if `root_rank` is not an int or `group` is not a str.
    """

    root_name = "root_rank"

    def __init__(self, root_rank, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__(root_rank, None, group)

    def __call__(self, input_x):
        size = get_group_size(self.group)
        root = self.group_root(size)
        out = ()
        for x in input_x:
            out += (run("broadcast", x, root=root, group=self.group, size=size),)
        return out


class Reduce(_Rooted):
    """The ``op`` of the input over the group on world rank ``dest_rank``; zeros on the other ranks.

    Raises:
        TypeError: if `dest_rank` is not an int, `op` is unknown or `group` is not a str.
    """

    root_name = "dest_rank"

    def __init__(self, dest_rank, op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__(dest_rank, op, group)

    def __call__(self, x):
        size = get_group_size(self.group)
        return run("reduce", x, op=self.op, root=self.group_root(size), group=self.group, size=size)


class _VirtualDataset(Primitive):
    """MindSpore's auto-parallel marker on a network's inputs (``ops.operations.comm_ops._VirtualDataset``): its
    inputs as a tuple, unchanged, as MindSpore 2.10's compiled graph has it (the pass removes it; its CPU build has
    no eager kernel)."""

    def __init__(self):
        super().__init__("_VirtualDataset")
        self.add_prim_attr("order_enforce_skip", True)

    def __call__(self, *inputs):
        return tuple(inputs)
