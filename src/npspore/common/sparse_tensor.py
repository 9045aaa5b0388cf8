"""``RowTensor``, as ``mindspore.RowTensor`` / ``mindspore.common.RowTensor``: a tensor stored as some of its
rows: ``values[i]`` is row ``indices[i]`` of a tensor of shape ``dense_shape``, every other row zero.

MindSpore's sparse gradients (of ``Gather`` and embedding tables) have this type, and scripts name it to
register a sparse case of their gradient functions or to build one in a custom ``bprop``. npspore
differentiates to dense gradients, so it keeps the type for those uses: built eagerly, read through
``indices``, ``values`` and ``dense_shape``.
"""
from __future__ import annotations

from .tensor import Tensor

__all__ = ["RowTensor"]


class RowTensor:
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
        if row_tensor is not None:
            if not isinstance(row_tensor, RowTensor):
                raise TypeError(f"For 'RowTensor', 'row_tensor' must be a RowTensor, but got "
                                f"{type(row_tensor).__name__}.")
            indices, values, shape = row_tensor.indices, row_tensor.values, row_tensor.dense_shape
        for name, value in (("indices", indices), ("values", values)):
            if not isinstance(value, Tensor):
                raise TypeError(f"For 'RowTensor', '{name}' must be a Tensor, but got {type(value).__name__}.")
        self._indices, self._values, self._shape = indices, values, tuple(shape)

    @property
    def indices(self) -> Tensor:
        """The row indices."""
        return self._indices

    @property
    def values(self) -> Tensor:
        """The rows."""
        return self._values

    @property
    def dense_shape(self) -> tuple[int, ...]:
        """The shape of the dense tensor."""
        return self._shape

    def __repr__(self) -> str:
        return (f"RowTensor(shape={list(self._shape)}, dtype={self._values.dtype}, indices={self._indices!r}, "
                f"values={self._values!r})")
