"""``RowTensor``, as ``mindspore.RowTensor`` / ``mindspore.common.RowTensor``: a tensor stored as some of its
rows: ``values[i]`` is row ``indices[i]`` of a tensor of shape ``dense_shape``, every other row zero.

MindSpore's sparse gradients (of ``Gather`` and embedding tables) have this type, and scripts name it to
register a sparse case of their gradient functions or to build one in a custom ``bprop``. npspore
differentiates to dense gradients, so it keeps the type for those uses: built eagerly, read through
``indices``, ``values`` and ``dense_shape``.
"""
from __future__ import annotations

import numpy as np

from ..core.logs import mindspore_log
from .tensor import Tensor

__all__ = ["RowTensor", "COOTensor"]


class _SparseParts:
    """What the sparse tensors share: their ``indices`` and ``values`` Tensors and a dense shape."""

    _indices: Tensor
    _values: Tensor
    _shape: tuple

    @classmethod
    def _checked_parts(cls, api: str, indices, values, shape, other, other_name: str) -> tuple:
        """``(indices, values, shape)``: those of ``other`` (a copy's source) when given, each part checked."""
        if other is not None:
            if not isinstance(other, cls):
                raise TypeError(f"For '{cls.__name__}', '{other_name}' must be a {cls.__name__}, but got "
                                f"{type(other).__name__}.")
            indices, values, shape = other._indices, other._values, other._shape
        for name, value in (("indices", indices), ("values", values)):
            if not isinstance(value, Tensor):
                raise TypeError(f"For {api}, '{name}' must be a Tensor, but got {type(value).__name__}.")
        return indices, values, tuple(shape)

    @property
    def indices(self) -> Tensor:
        """The positions of the stored values (rows of a RowTensor, entries of a COOTensor)."""
        return self._indices

    @property
    def values(self) -> Tensor:
        """The stored values."""
        return self._values


class RowTensor(_SparseParts):
    """Rows ``values`` at ``indices`` of a tensor of shape ``shape``; or a copy of ``row_tensor``.

    Args:
        indices (Tensor): the 1-D row indices (int).
        values (Tensor): the rows, ``values.shape[1:] == shape[1:]``.
        shape (tuple[int, ...]): the dense shape.
        row_tensor (RowTensor): another RowTensor to copy instead.

    Raises:
        TypeError: if ``indices`` or ``values`` is not a Tensor (or ``row_tensor`` not a RowTensor).
    """

    def __init__(self, indices: Tensor | None = None, values: Tensor | None = None,
                 shape: tuple[int, ...] | None = None, row_tensor: RowTensor | None = None) -> None:
        self._indices, self._values, self._shape = self._checked_parts("'RowTensor'", indices, values, shape,
                                                                       row_tensor, "row_tensor")

    @property
    def dense_shape(self) -> tuple[int, ...]:
        """The shape of the dense tensor."""
        return self._shape

    def __repr__(self) -> str:
        return (f"RowTensor(shape={list(self._shape)}, dtype={self._values.dtype}, indices={self._indices!r}, "
                f"values={self._values!r})")


# COOTensor
_COO_INDEX_TYPES = ("int16", "int32", "int64")


def _tensor_text(tensor: Tensor) -> str:
    """A tensor as MindSpore's C++ side prints it inside a sparse tensor's repr (NumPy layout, floats as
    ``1.00000000e+00``)."""
    array = tensor.asnumpy()
    body = np.array2string(array, separator=" ", formatter={"float_kind": lambda v: f"{v: .8e}"})
    return (f"Tensor(shape={list(array.shape)}, dtype={tensor.dtype}, value="
            f"{chr(10) if array.ndim > 1 else ''}{body})")


class COOTensor(_SparseParts):
    """A 2-D tensor stored as its nonzero entries: ``values[i]`` at position ``indices[i]`` of a tensor of
    shape ``shape``; or a copy of ``coo_tensor``. (``mindspore.COOTensor``; entries at one position add up.)

    Args:
        indices (Tensor): the positions, shape ``(N, 2)``, int16/int32/int64.
        values (Tensor): the entries, shape ``(N,)``.
        shape (tuple[int, int]): the dense shape.
        coo_tensor (COOTensor): another COOTensor to copy instead.

    Raises:
        TypeError: if ``indices``/``values`` is not a Tensor or ``indices`` not of an int type.
        ValueError: if ``shape`` is not 2-D or ``indices`` and ``values`` hold different numbers of entries.

    Examples:
        >>> x = COOTensor(Tensor([[0, 1], [1, 2]], ms.int32), Tensor([1, 2], ms.float32), (3, 4))
        >>> x.to_dense()[0, 1], x.shape
        (Tensor(shape=[], dtype=Float32, value= 1), (3, 4))
    """

    def __init__(self, indices: Tensor | None = None, values: Tensor | None = None,
                 shape: tuple[int, ...] | None = None, coo_tensor: COOTensor | None = None) -> None:
        indices, values, shape = self._checked_parts("COOTensor", indices, values, shape, coo_tensor, "coo_tensor")
        if indices.asnumpy().dtype.name not in _COO_INDEX_TYPES:
            raise TypeError(f"For COOTensor, the type of 'indices' must be one of [int16, int32, int64], "
                            f"but got {indices.dtype}.")
        shape = tuple(int(dim) for dim in shape)
        if len(shape) != 2:
            raise ValueError(f"For COOTensor, the length of 'shape' must be 2, but got {shape}.")
        if indices.shape[0] != values.shape[0]:
            raise ValueError(f"For COOTensor, 'indices.shape[0]' must be euqal to 'values.shape[0]', but got "
                             f"'indices.shape[0]' = {indices.shape[0]} and 'values.shape[0]' = {values.shape[0]}.")
        self._indices, self._values, self._shape = indices, values, shape

    @property
    def shape(self) -> tuple[int, ...]:
        """The dense shape."""
        return self._shape

    @property
    def dtype(self):
        """The entries' dtype."""
        return self._values.dtype

    @property
    def size(self) -> int:
        """The number of stored entries."""
        return int(self._values.asnumpy().size)

    @property
    def itemsize(self) -> int:
        """The bytes of one entry."""
        return int(self._values.asnumpy().itemsize)

    @property
    def ndim(self) -> int:
        """The dense tensor's number of dimensions (2)."""
        return len(self._shape)

    def _with_values(self, values: np.ndarray) -> COOTensor:
        return COOTensor(self._indices, Tensor(values), self._shape)

    def to_dense(self) -> Tensor:
        """The dense tensor (entries at one position add up)."""
        values = self._values.asnumpy()
        dense = np.zeros(self._shape, values.dtype)
        rows, cols = self._indices.asnumpy().T
        np.add.at(dense, (rows, cols), values)
        return Tensor(dense)

    def to_tuple(self) -> tuple:
        """``(indices, values, shape)``."""
        return self._indices, self._values, self._shape

    def astype(self, dtype) -> COOTensor:
        """The COOTensor with its entries cast to ``dtype``."""
        return COOTensor(self._indices, self._values.astype(dtype), self._shape)

    def abs(self) -> COOTensor:
        """The COOTensor of the entries' absolute values."""
        return self._with_values(np.abs(self._values.asnumpy()))

    def coalesce(self) -> COOTensor:
        """The COOTensor with each position once (sorted, entries at one position added; indices int64)."""
        positions, inverse = np.unique(self._indices.asnumpy().astype(np.int64), axis=0, return_inverse=True)
        values = self._values.asnumpy()
        summed = np.zeros(len(positions), values.dtype)
        np.add.at(summed, inverse.reshape(-1), values)
        return COOTensor(Tensor(positions), Tensor(summed), self._shape)

    def __neg__(self) -> COOTensor:
        return self._with_values(-self._values.asnumpy())

    def _dense_operand(self, other, operation: str) -> np.ndarray:
        """``other`` (a Tensor of the dense shape) at the stored positions."""
        self._check_operand(other, operation, (Tensor,))
        rows, cols = self._indices.asnumpy().T
        return other.asnumpy()[rows, cols]

    def _check_operand(self, other, operation: str, types: tuple) -> None:
        if tuple(other.shape) != self._shape:
            raise ValueError("Input tensors should have the same shape.")
        if not isinstance(other, types):
            raise TypeError(f"COOTensor {operation} with {type(other)} is not supported.")

    def __add__(self, other) -> Tensor:
        """``self`` added into the dense Tensor ``other`` of the same shape (a dense Tensor)."""
        self._check_operand(other, "add", (Tensor,))
        dense = other.asnumpy().copy()
        rows, cols = self._indices.asnumpy().T
        np.add.at(dense, (rows, cols), self._values.asnumpy().astype(dense.dtype))
        return Tensor(dense)

    def __sub__(self, other) -> Tensor:
        """``self - other`` for a dense Tensor ``other`` of the same shape (a dense Tensor)."""
        self._check_operand(other, "subtract", (Tensor,))
        return self + Tensor(-other.asnumpy())

    def __mul__(self, other) -> COOTensor:
        """The entries times ``other`` (a dense Tensor of the same shape) at their positions."""
        return self._with_values(self._values.asnumpy() * self._dense_operand(other, "multiply"))

    def __truediv__(self, other) -> COOTensor:
        """The entries divided by ``other`` (a dense Tensor of the same shape) at their positions; logs
        MindSpore's warning that zeros elsewhere in ``other`` are ignored."""
        operand = self._dense_operand(other, "divide")
        mindspore_log().warning("For sparse divide, zero values in the dense tensor are ignored.")
        return self._with_values(self._values.asnumpy() / operand)

    def __repr__(self) -> str:
        return (f"COOTensor(shape={list(self._shape)}, dtype={self.dtype}, indices={_tensor_text(self._indices)}, "
                f"values={_tensor_text(self._values)})")

    __str__ = __repr__
