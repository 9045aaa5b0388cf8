"""The runtime that generated modules import (as ``rt``): only what plain NumPy cannot say; and, as
``mindspore.runtime``, MindSpore's device knobs (``set_memory``, ``launch_blocking``, ``synchronize``)."""
from __future__ import annotations

import re

import numpy as np

from .common.seed import default_rng as _seeded_rng
from .common.tensor import Tensor, tensor_array  # noqa: F401 - Tensor(value) of a value read from tensors
from .compiler.library import GuardFailed, host_call, same_array, same_value  # noqa: F401 - value guards; host calls
from .core.heap import keep_freed_memory
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
    if wrong.any():
        ignored = "" if ignore_index is None else f" or the ignore_index {ignore_index}"
        raise ValueError(f"For '{loss}', the '{target}' must hold class indices in [0, {depth}){ignored}, "
                         f"but got {indices[wrong].flat[0]}.")
    return indices


def default_rng():
    """npspore's seeded NumPy generator (``npspore.set_seed``), for random ops such as dropout."""
    return _seeded_rng()


# Collectives: codegen_templates/collective.py calls these (one MPI call each, see npspore.communication).
from .communication.transport import all_gather, all_reduce, broadcast, reduce, reduce_scatter  # noqa: E402,F401

# The named multi-statement lowerings of the op templates (convolution columns, max pooling).
from .core.kernels_np import col2im, im2col, max_pool2d, max_pool2d_grad, pool_windows  # noqa: E402,F401
from .core.special_np import digamma, erfc, lgamma, trigamma  # noqa: E402,F401


# ---- MindSpore's ``mindspore.runtime`` device knobs: npspore runs each op to completion, in this process's
# memory, so there is no stream to wait for and no device memory pool to size.

_MEMORY_PATTERN = r"[1-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB"
_RESERVE_PATTERN = r"[0-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB"
_memory_configured = False


def _check_size(value, pattern):
    if not isinstance(value, str) or re.match(pattern, value, re.ASCII) is None:
        raise ValueError(f"The '{value}' is illegal, it must be match regular'{pattern}' by flags're.ASCII.'")
    if pattern == _MEMORY_PATTERN and value in ("0GB", "0.0GB"):
        raise ValueError('The memory value should not be "0GB".')


def set_memory(init_size: str = "2GB", increase_size: str = "2GB", max_size: str = "1024GB",
               optimize_level: str = "O0", huge_page_reserve_size: str = "0GB") -> None:
    """Size MindSpore's device memory pool (checked as MindSpore checks it, once per process); npspore's
    arrays live in the process's memory, allocated by NumPy, so there is no pool to size.

    Raises:
        RuntimeError: If it was called before.
        ValueError: If a size is not ``'<number>GB'`` (or is zero), or `optimize_level` is not ``'O0'``/``'O1'``.
    """
    global _memory_configured
    if _memory_configured:
        raise RuntimeError("The 'set_memory' can not be set repeatedly.")
    for size in (init_size, increase_size, max_size):
        _check_size(size, _MEMORY_PATTERN)
    _check_size(huge_page_reserve_size, _RESERVE_PATTERN)
    if optimize_level not in ("O0", "O1"):
        raise ValueError(f"The optimize_level must be one of ['O0', 'O1'], but got {optimize_level}.")
    _memory_configured = True


def launch_blocking() -> None:
    """Run each op to completion before the next starts, so errors point at the line that caused them:
    how npspore always runs, eagerly and compiled."""


def synchronize() -> None:
    """Wait for the device's queued work: npspore has none (each op completes when it returns)."""
