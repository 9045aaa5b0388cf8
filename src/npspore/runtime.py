"""The runtime that generated modules import (as ``rt``): only what plain NumPy cannot say; and, as
``mindspore.runtime``, MindSpore's device knobs (``set_memory``, ``launch_blocking``, ``synchronize``)."""
from __future__ import annotations

import numpy as np

from .common.seed import default_rng as _seeded_rng
from .common.kernel_random import (draw_bernoulli, draw_dropout_mask, draw_normal,  # noqa: F401 - MindSpore's
                                   draw_permutation, draw_uniform, draw_uniform_int)   # random kernels' draws
from .common.tensor import Tensor, tensor_array  # noqa: F401 - Tensor(value) of a value read from tensors
from .compiler.library import GuardFailed, host_call, same_array, same_value  # noqa: F401 - value guards; host calls
from .core.heap import keep_freed_memory
from .core.statewrites import keep_state  # noqa: F401 - a Cell attribute compiled code sets
from .core.workspace import Workspace  # noqa: F401 - the buffers of a kernel's temporaries

keep_freed_memory()   # a kernel's freed temporaries stay in the heap for its next call (core/heap.py)


def show(*values) -> None:
    """``print`` inside compiled code: arrays print as the Tensors they are in eager mode."""
    print(*(Tensor._wrap(v) if isinstance(v, np.ndarray) else v for v in values))


def show_each(*values) -> None:
    """``ops.Print()`` inside compiled code: each value on its own line, arrays as Tensor reprs."""
    for value in values:
        print(repr(Tensor._wrap(value)) if isinstance(value, np.ndarray) else value)


def show_tree(template, *arrays) -> None:
    """``print`` of values holding tensors (tuples, lists): ``template`` is the tuple of printed
    values with ``...`` where each array goes."""
    filled = iter(arrays)

    def fill(value):
        if value is ...:
            return Tensor._wrap(next(filled))
        if isinstance(value, (tuple, list)):
            return type(value)(fill(v) for v in value)
        return value

    print(*fill(template))


def class_indices(indices: np.ndarray, depth: int, ignore_index: int | None = None, loss: str = "nll_loss",
                  target: str = "target") -> np.ndarray:
    """``indices`` when each is a class in ``[0, depth)`` or is ``ignore_index``; else the ``ValueError``
    naming the first that is not (the targets of ``nll_loss`` and ``cross_entropy``, the labels of
    ``SoftmaxCrossEntropyWithLogits``)."""
    wrong = (indices < 0) | (indices >= depth)
    if ignore_index is not None:
        wrong &= indices != ignore_index
    if np.logical_or.reduce(wrong, axis=None):   # ndarray.any without its Python wrapper: called every step
        ignored = "" if ignore_index is None else f" or the ignore_index {ignore_index}"
        raise ValueError(f"For '{loss}', the '{target}' must hold class indices in [0, {depth}){ignored}, "
                         f"but got {indices[wrong].flat[0]}.")
    return indices


def default_rng():
    """npspore's seeded NumPy generator (``npspore.set_seed``), for random ops such as dropout."""
    return _seeded_rng()


# Collectives: codegen_templates/collective.py calls these (one MPI call each, see npspore.communication).
from .communication.transport import all_gather, all_reduce, broadcast, reduce, reduce_scatter  # noqa: E402,F401

# The named multi-statement lowerings of the op templates (convolution columns, max pooling, last-axis gathers).
from .core.kernels_np import (add_at, col2im, gather_last, im2col, log_softmax_probs, max_pool2d,  # noqa: E402,F401
                              max_pool2d_grad, normalize, pool_windows, reshape_keeping, scatter_last,
                              scatter_last_add, sign, softmax, split_parts)
from .core.division import floor_divide, floor_mod, remainder  # noqa: E402,F401 - MindSpore's values at a zero divisor
from .core.matmul_split import matmul_split, matmul_start, matmul_wait  # noqa: E402,F401 - large products, on threads
from .core.split_rows import split_rows  # noqa: E402,F401 - runs of elementwise statements, on threads
from .core.special_np import digamma, erfc, lgamma, trigamma  # noqa: E402,F401

# MindSpore's ``mindspore.runtime`` device knobs, which user scripts import from here.
from .device_knobs import launch_blocking, set_memory, synchronize  # noqa: E402,F401
from .device_knobs import (empty_cache, max_memory_allocated, max_memory_reserved, memory_allocated,  # noqa: E402,F401
                           memory_reserved, memory_stats, reset_max_memory_allocated, reset_max_memory_reserved,
                           reset_peak_memory_stats)
