"""Data-parallel gradient reduction, as ``mindspore.nn.DistributedGradReducer``.

Each rank computes gradients on its shard of the global batch; :class:`DistributedGradReducer`
all-reduces them over the group so every rank applies the same update. Gradients travel in
*buckets*: consecutive gradients of one dtype are flattened into one buffer of up to 25 MB
(``set_auto_parallel_context(comm_fusion=...)`` changes the size; ``{"openstate": False}`` makes one
all-reduce per gradient), so a model with many small Parameters needs a few MPI calls per step, not
one per Parameter. Under ``jit``/GRAPH mode the buckets compile into the training kernel.

:func:`broadcast_parameters` copies rank 0's Parameters to every rank, so that ranks start from
identical weights; ``TrainOneStepCell`` calls it before its first step in DATA_PARALLEL mode.
"""
from __future__ import annotations

import numpy as np

from npspore import ops
from npspore.common.tensor import Tensor
from npspore.communication import management, transport
from npspore.communication.management import GlobalComm
from npspore.nn.cell import Cell
from npspore.ops.eager import assign, run
from npspore.core.parallel_context import bucket_bytes, check_trainable, device_num, gradients_mean

__all__ = ["DistributedGradReducer", "broadcast_parameters", "plan_buckets"]


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

    Raises:
        TypeError: if `mean` is not a bool, `degree` not an int, or `group` not a str.
        ValueError: if `degree` is smaller than 1.
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
