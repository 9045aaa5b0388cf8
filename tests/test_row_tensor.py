"""RowTensor: construction, copy and read-back as MindSpore 2.10's, and clear errors for non-Tensor parts."""
import pytest

import npspore as ms
from npspore import Tensor
from npspore.common import RowTensor


def test_parts_read_back_and_copy():
    indices, values = Tensor([0, 2], ms.int32), Tensor([[1.0, 2.0], [3.0, 4.0]])
    row = RowTensor(indices, values, (4, 2))
    assert row.indices is indices and row.values is values and row.dense_shape == (4, 2)
    copy = RowTensor(row_tensor=row)
    assert copy.indices is indices and copy.dense_shape == (4, 2)
    assert ms.RowTensor is RowTensor
    # MindSpore 2.10's repr starts so: RowTensor(shape=[4, 2], dtype=Float32, indices=Tensor(shape=[2], dtype=Int32,
    assert repr(row).startswith("RowTensor(shape=[4, 2], dtype=Float32, indices=Tensor(shape=[2], dtype=Int32,")


def test_non_tensor_parts_are_refused():
    # MindSpore 2.10 fails later with "RuntimeError: The pointer[indices_] is null."; npspore says what is wrong
    with pytest.raises(TypeError, match="For 'RowTensor', 'indices' must be a Tensor, but got list."):
        RowTensor([0, 2], Tensor([[1.0, 2.0], [3.0, 4.0]]), (4, 2))
    with pytest.raises(TypeError, match="'row_tensor' must be a RowTensor"):
        RowTensor(row_tensor=(1, 2))
