"""``x[i, idx, j]`` in compiled code (specialize): int tensors or lists mixed with ints and slices, read as NumPy
and MindSpore read them.

When an index holds an int tensor, its ints are indices of the same kind (each a 0-d array broadcast with the
tensors), and the dims they address, if they follow one another, are replaced in place by the broadcast shape of
the indices. That is written with ops that differentiate already: the index's slices first (``getitem``), the
addressed dims merged into one (``reshape``), and the row-major position in them that each broadcast index
addresses taken along it (``gather``). Each tensor index is first taken from ``arange(dim)``, so a negative one
counts from the end and one out of range raises NumPy's IndexError when the kernel runs, as in eager code
(MindSpore's GRAPH mode refuses a negative one). Where slices stand between them, NumPy puts the broadcast dims first: the addressed dims
are moved to the front (``transpose``) before they are merged.

    emissions[0, arange(b), tags[0]]    # emissions (s, b, t)
    ->  gather(reshape(emissions, (s * b * t,)), 0 * b * t + arange(b) * t + tags[0], axis=0)

Refused at the user's line: ``None`` in such an index, bool tensors (their result's shape depends on the values),
and a dim known only when the kernel runs among the addressed dims.
"""
from __future__ import annotations

import math

import numpy as np

from .errors import located, not_supported
from .library import LIBRARY
from .values import TensorValue


def mixed_indexed(specializer, tensor: TensorValue, parts: tuple, frame, node) -> TensorValue:
    """``tensor[parts]`` where ``parts`` holds an int tensor or list and other items, staged by ``specializer``.

    Raises:
        NotSupportedError: for an index this module does not write (see the module's docstring).
        IndexError: too many indices, or an int out of range of its dim (located at ``node``).
    """
    loc = frame.source.loc(node)
    shape = tuple(tensor.aval.shape)
    if sum(part is Ellipsis for part in parts) == 1 and len(parts) - 1 <= len(shape):
        at = parts.index(Ellipsis)
        parts = parts[:at] + (slice(None),) * (len(shape) - len(parts) + 1) + parts[at + 1:]
    if any(not isinstance(part, slice) and not _is_int(part) and not _is_array(part) for part in parts):
        raise not_supported("a tensor index mixed with None or more than one '...' (x[idx, None])", loc)
    if len(parts) > len(shape):
        raise located(IndexError(f"too many indices for tensor of dimension {len(shape)}"), loc)
    addressed = [i for i, part in enumerate(parts) if not isinstance(part, slice)]
    if None in (shape[i] for i in addressed):
        raise not_supported("a tensor index into a dim known only when the kernel runs, mixed with other indices",
                            loc)
    if any(part != slice(None) for part in parts if isinstance(part, slice)):
        tensor = specializer._apply("getitem", (tensor,),
                                    {"index": tuple(p if isinstance(p, slice) else slice(None) for p in parts)},
                                    frame, node)
    first = addressed[0]
    if addressed != list(range(first, first + len(addressed))):   # apart: NumPy puts their dims first
        others = [axis for axis in range(len(shape)) if axis not in addressed]
        tensor = specializer._apply("transpose", (tensor,), {"axes": tuple(addressed + others)}, frame, node)
        first = 0
    shape = tuple(tensor.aval.shape)
    dims = shape[first:first + len(addressed)]
    position = _position(specializer, [parts[i] for i in addressed], dims, frame, node)
    merged = shape[:first] + (math.prod(dims),) + shape[first + len(addressed):]
    rows = specializer._apply("reshape", (tensor,), {"shape": merged}, frame, node)
    return specializer._apply("gather", (rows, position), {"axis": first}, frame, node)


def _position(specializer, items, dims, frame, node) -> TensorValue:
    """The row-major position among ``dims`` that ``items`` (ints and int tensors, broadcast) address."""
    loc = frame.source.loc(node)
    strides = [math.prod(dims[i + 1:]) for i in range(len(dims))]
    offset, position = 0, None
    for item, dim, stride in zip(items, dims, strides):
        if _is_int(item):
            if not -dim <= item < dim:
                raise located(IndexError(f"index {item} is out of bounds for dimension with size {dim}"), loc)
            offset += (item % dim) * stride
            continue
        index = specializer._as_value(LIBRARY.tensor_type(np.asarray(item)) if isinstance(item, list) else item)
        dtype = index.aval.dtype if isinstance(index, TensorValue) else np.asarray(index).dtype
        if dtype.kind not in "iu":
            raise not_supported(f"a {dtype} tensor index mixed with other indices (int tensors only)", loc)
        # the positions 0 .. dim-1 taken at the index: a negative one counts from the end, and one out of range is
        # NumPy's IndexError when the kernel runs (in the merged dims it could address another row)
        positions = specializer._as_value(LIBRARY.tensor_type(np.arange(dim, dtype=dtype)))
        index = specializer._apply("gather", (positions, index), {"axis": 0}, frame, node)
        term = index if stride == 1 else specializer._apply("mul", (index, stride), {}, frame, node)
        position = term if position is None else specializer._apply("add", (position, term), {}, frame, node)
    assert position is not None, "mixed_indexed is called for an index holding a tensor"
    if offset:
        position = specializer._apply("add", (position, offset), {}, frame, node)
    return position


def _is_int(part) -> bool:
    return isinstance(part, (int, np.integer)) and not isinstance(part, bool)


def _is_array(part) -> bool:
    return isinstance(part, (TensorValue, LIBRARY.tensor_type, list, np.ndarray))
