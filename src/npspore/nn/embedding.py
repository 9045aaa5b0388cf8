"""``Embedding``: a lookup table from integer ids to dense vectors."""
from __future__ import annotations

from typing import Any

from npspore.common import dtype as mstype
from npspore.common.initializer import initializer
from npspore.common.parameter import Parameter
from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell
from npspore.nn.layers import _check_bool, _check_int
from npspore.ops import functional as F
from npspore.ops.eager import run

__all__ = ["Embedding"]


class Embedding(Cell):
    r"""A lookup table: row ``ids[i]`` of ``embedding_table`` for each id.

    Args:
        vocab_size (int): the number of rows of the table.
        embedding_size (int): the length of each row.
        use_one_hot (bool): compute the lookup as a one-hot matrix times the table (same result).
            Default: ``False``.
        embedding_table (Union[Tensor, str, Initializer, numbers.Number]): the initial table.
            Default: ``'normal'``.
        dtype (mindspore.dtype): the dtype of the one-hot values. Default: ``mstype.float32``.
        padding_idx (int, None): a row set to zeros at initialization, in [0, vocab_size).
            Default: ``None``.

    Inputs:
        - **ids** (Tensor) - int32 or int64, any shape :math:`(*)`.

    Outputs:
        Tensor of shape :math:`(*, embedding\_size)`.

    Raises:
        TypeError: If `vocab_size` or `embedding_size` is not an int, `use_one_hot` is not a bool, or
            `dtype` is not a number type.
        ValueError: If `padding_idx` is not in [0, vocab_size).
    """

    def __init__(self, vocab_size: int, embedding_size: int, use_one_hot: bool = False, embedding_table: Any = "normal",
                 dtype: mstype.Type = mstype.float32, padding_idx: int | None = None) -> None:
        super().__init__()
        self.vocab_size = _check_int(vocab_size, "vocab_size", self.cls_name)
        self.embedding_size = _check_int(embedding_size, "embedding_size", self.cls_name)
        self.use_one_hot = _check_bool(use_one_hot, "use_one_hot", self.cls_name)
        if dtype not in mstype.number_type:
            raise TypeError(f"For '{self.cls_name}', the 'dtype' must be a number type, but got {dtype}.")
        self.dtype = dtype
        table = initializer(embedding_table, [vocab_size, embedding_size])
        self.padding_idx = padding_idx
        if padding_idx is not None:
            if not isinstance(padding_idx, int) or isinstance(padding_idx, bool) or \
                    not 0 <= padding_idx < vocab_size:
                raise ValueError(f"For '{self.cls_name}', the 'padding_idx' must be in range [0, {vocab_size}), "
                                 f"but got {padding_idx}.")
            rows = table.init_data().asnumpy().copy()
            rows[padding_idx] = 0
            table = Tensor(rows, table.dtype)
        self.embedding_table = Parameter(table, name="embedding_table")

    def construct(self, ids: Tensor) -> Tensor:
        out_shape = ids.shape + (self.embedding_size,)
        flat_ids = ids.reshape((-1,))
        if self.use_one_hot:
            one_hot_ids = F.one_hot(flat_ids, self.vocab_size, F.cast(1.0, self.dtype), F.cast(0.0, self.dtype))
            output = run("matmul", one_hot_ids, self.embedding_table)
        else:
            output = F.gather(self.embedding_table, flat_ids, 0)
        return output.reshape(out_shape)

    def extend_repr(self):
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, "
                f"use_one_hot={self.use_one_hot}, embedding_table={self.embedding_table}, dtype={self.dtype}, "
                f"padding_idx={self.padding_idx}")
