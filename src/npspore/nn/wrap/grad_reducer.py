"""Data-parallel gradient reduction, as ``mindspore.nn.DistributedGradReducer``.

Each rank computes gradients on its shard of the global batch; :class:`DistributedGradReducer`
all-reduces them over the group so every rank applies the same update. Gradients travel in
*buckets*: consecutive gradients of one dtype are flattened into one buffer of up to 25 MB
(``set_auto_parallel_context(comm_fusion=...)`` changes the size; ``{"openstate": False}`` makes one
all-reduce per gradient), so a model with many small Parameters needs a few MPI calls per step, not
one per Parameter. Under ``jit``/GRAPH mode the buckets compile into the training kernel.

Identical replicas. Averaging gradients keeps ranks identical only if they start identical, and
every data-parallel path (eager or compiled ``TrainOneStepCell``, ``Model.train``, a loop of the
user's own around ``value_and_grad``) builds a :class:`DistributedGradReducer` for the Parameters it
updates; so building one is where :func:`synchronize_replicas` makes them identical, as PyTorch's
``DistributedDataParallel`` does when it is built: the ranks check that they hold the same
Parameter names, shapes and dtypes (an error names the first difference), take rank 0's values,
and check at their next collective, the first gradient reduction, that no rank changed them since.
Not the first reduction itself: by then the first step's gradients were computed from each rank's
own values.
"""
from __future__ import annotations

import json

import numpy as np

from npspore import ops
from npspore.common.tensor import Tensor
from npspore.communication import management, transport
from npspore.communication.management import GlobalComm
from npspore.nn.cell import Cell
from npspore.ops.eager import assign, run
from npspore.core.parallel_context import bucket_bytes, check_trainable, device_num, gradients_mean

__all__ = ["DistributedGradReducer", "synchronize_replicas", "broadcast_parameters", "plan_buckets"]


def plan_buckets(arrays, capacity: int) -> tuple:
    """Cut ``arrays`` (in order) into buckets: runs of one dtype of at most ``capacity`` bytes each
    (a larger array gets a bucket of its own; ``capacity`` 0 puts every array alone).

    Returns:
        tuple of ``(start, stop)`` index pairs covering ``range(len(arrays))``.
    """
    buckets = []
    start, used = 0, 0
    for index, array in enumerate(arrays):
        nbytes = array.nbytes
        if index > start and (array.dtype != arrays[start].dtype or used + nbytes > capacity):
            buckets.append((start, index))
            start, used = index, 0
        used += nbytes
    if arrays:
        buckets.append((start, len(arrays)))
    return tuple(buckets)


class DistributedGradReducer(Cell):
    """All-reduce gradients over a communication group (data parallelism).

    Args:
        parameters (list[Parameter]): the Parameters whose gradients are reduced, in the order of
            the gradients the cell is called with.
        mean (bool): divide the sums by `degree`. Default: ``None`` (``gradients_mean`` of the
            auto-parallel context).
        degree (int): the number the sums are divided by. Default: ``None`` (``device_num`` of the
            context if set, else the group size).
        fusion_type (int): accepted for compatibility; buckets follow ``comm_fusion``. Default: ``1``.
        group (str): the communication group. Default: the world group.

    Inputs:
        - **grads** (tuple[Tensor]) - one gradient per Parameter.

    Outputs:
        tuple[Tensor], the reduced gradients, in the same order.

    Building the reducer is collective over the group: the ranks check that their `parameters` have
    the same names, shapes and dtypes, and take rank 0's values (:func:`synchronize_replicas`), so
    every rank starts from the same model, with or without ``set_seed``.

    Raises:
        TypeError: if `mean` is not a bool, `degree` not an int, or `group` not a str.
        ValueError: if `degree` is smaller than 1, or the ranks' `parameters` differ in number,
            name, shape or dtype.
        NotImplementedError: in SEMI_AUTO_PARALLEL or AUTO_PARALLEL mode.

    Examples:
        >>> grads = grad_fn(data, label)[1]
        >>> grads = nn.DistributedGradReducer(optimizer.parameters, mean=True)(grads)
        >>> optimizer(grads)
    """

    def __init__(self, parameters, mean=None, degree=None, fusion_type=1, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__(auto_prefix=False)
        check_trainable(None, "DistributedGradReducer")
        if mean is not None and not isinstance(mean, bool):
            raise TypeError(f"For 'DistributedGradReducer', the 'mean' must be a bool, but got {type(mean).__name__}.")
        if not isinstance(group, str):
            raise TypeError(f"For 'DistributedGradReducer', the 'group' must be a str, but got "
                            f"{type(group).__name__}.")
        if degree is not None and (not isinstance(degree, int) or isinstance(degree, bool)):
            raise TypeError(f"For 'DistributedGradReducer', the 'degree' must be an int, but got "
                            f"{type(degree).__name__}.")
        if degree is not None and degree < 1:
            raise ValueError(f"For 'DistributedGradReducer', the 'degree' must be at least 1, but got {degree}.")
        parameters = list(parameters)
        self.group = group
        self.group_size = management.get_group_size(group)
        self.mean = gradients_mean() if mean is None else mean
        self.degree = device_num(self.group_size) if degree is None else degree
        self.fusion_type = fusion_type
        self.shapes = tuple(tuple(p.shape) for p in parameters)
        self.sizes = tuple(int(np.prod(shape)) for shape in self.shapes)
        self.buckets = plan_buckets([p._array for p in parameters], bucket_bytes())
        synchronize_replicas(parameters, group, "DistributedGradReducer")

    def construct(self, grads):
        if self.group_size == 1:  # nothing to exchange
            return self.scale_alone(grads)
        reduced = ()
        for start, stop in self.buckets:
            reduced += self.reduce_bucket(grads[start:stop], self.shapes[start:stop], self.sizes[start:stop])
        return reduced

    def reduce_bucket(self, grads, shapes, sizes):
        """All-reduce the gradients of one bucket as one flat buffer; returns them reshaped."""
        if len(grads) == 1:
            return (self.all_reduce(grads[0]),)
        flat = ()
        for grad in grads:
            flat += (ops.reshape(grad, (-1,)),)
        pieces = ops.split(self.all_reduce(ops.concat(flat)), sizes)
        out = ()
        for piece, shape in zip(pieces, shapes):
            out += (ops.reshape(piece, shape),)
        return out

    def scale_alone(self, grads):
        """The gradients of a group of one: unchanged, or divided by the degree when averaging."""
        if not self.mean or self.degree == 1:
            return grads
        scaled = ()
        for grad in grads:
            scaled += (grad * ops.cast(1.0 / self.degree, grad.dtype),)
        return scaled

    def all_reduce(self, x):
        """The sum of `x` over the group, divided by the degree when averaging."""
        total = run("all_reduce", x, op="sum", group=self.group, size=self.group_size)
        if self.mean:
            return total * ops.cast(1.0 / self.degree, total.dtype)
        return total


def synchronize_replicas(parameters, group=GlobalComm.WORLD_COMM_GROUP, who="DistributedGradReducer") -> None:
    """Make every rank of ``group`` hold rank 0's ``parameters`` (collective; nothing in a group of one).

    The ranks first check that their Parameters agree in number, names, shapes and dtypes, then
    take the values of the group's rank 0, and at their next collective on the group (in data-parallel
    training, the first gradient reduction, compiled or not) check that no rank changed a value since.

    Raises:
        ValueError: if the ranks' Parameters differ in number, name, shape or dtype; the message
            names the first difference and the ranks.
        RuntimeError: at the next collective, if a rank changed a Parameter in between.
    """
    parameters = list(parameters)
    if management.get_group_size(group) == 1:
        return
    _check_same_parameters(parameters, group, who)
    if parameters:
        broadcast_parameters(parameters, group=group)
        transport.before_next_collective(group, lambda: _check_same_values(parameters, group, who))


def _check_same_parameters(parameters, group, who) -> None:
    mine = [[p.name, p._array.dtype.name, list(p._array.shape)] for p in parameters]
    ranks = management.get_process_group_ranks(group)
    tables = [json.loads(text) for text in transport.all_gather_text(json.dumps(mine), group)]
    for rank, table in zip(ranks[1:], tables[1:]):
        for index, (first, other) in enumerate(zip(tables[0], table)):
            if first != other:
                raise ValueError(f"For '{who}', the ranks' Parameters differ: Parameter {index} is "
                                 f"{_parameter_text(first)} on rank {ranks[0]} but {_parameter_text(other)} on "
                                 f"rank {rank}. Every rank must build the same network.")
        if len(table) != len(tables[0]):
            longer, extra = (rank, table) if len(table) > len(tables[0]) else (ranks[0], tables[0])
            raise ValueError(f"For '{who}', the ranks' Parameters differ: rank {ranks[0]} has {len(tables[0])} "
                             f"Parameters, rank {rank} has {len(table)}; rank {longer}'s Parameter "
                             f"{_parameter_text(extra[min(len(table), len(tables[0]))])} is missing on the other. "
                             "Every rank must build the same network.")


def _parameter_text(entry: list) -> str:
    name, dtype, shape = entry
    return f"{name!r} ({dtype}, shape {tuple(shape)})"


def _check_same_values(parameters, group, who) -> None:
    import hashlib

    digests = np.array([int.from_bytes(hashlib.blake2b(np.ascontiguousarray(p._array).tobytes(), digest_size=7)
                                       .digest(), "little") for p in parameters], np.int64)
    gathered = transport.all_gather(digests, group).reshape(-1, len(parameters))
    ranks = management.get_process_group_ranks(group)
    for rank, row in zip(ranks[1:], gathered[1:]):
        differing = np.flatnonzero(row != gathered[0])
        if differing.size:
            raise RuntimeError(f"For '{who}', Parameter '{parameters[differing[0]].name}' differs between rank "
                               f"{ranks[0]} and rank {rank} at their first collective after the reducer was built, "
                               "which made every rank's Parameters rank 0's: a rank changed it since. Load or "
                               "initialise the weights on every rank alike, or before building the training "
                               "network (Model, TrainOneStepCell, DistributedGradReducer).")


def broadcast_parameters(parameters, root=0, group=GlobalComm.WORLD_COMM_GROUP):
    """Overwrite every rank's ``parameters`` with those of the world rank ``root`` (eagerly).

    The Parameters travel in the same buckets as gradients do.
    """
    parameters = list(parameters)
    if management.get_group_size(group) == 1 or not parameters:
        return
    root = management.get_group_rank_from_world_rank(root, group)
    for start, stop in plan_buckets([p._array for p in parameters], bucket_bytes()):
        members = parameters[start:stop]
        flat = np.concatenate([np.asarray(p._array).reshape(-1) for p in members])
        flat = transport.broadcast(flat, root, group)
        offset = 0
        for parameter in members:
            size = parameter._array.size
            assign(parameter, Tensor(flat[offset:offset + size].reshape(parameter._array.shape)))
            offset += size
