"""nn.Range: the values, dtypes and error MindSpore 2.10 printed, eager and compiled."""
import numpy as np
import pytest

import npspore as ms
from npspore import nn


@pytest.mark.parametrize("args, dtype, values", [
    ((1, 8, 2), ms.int32, [1, 3, 5, 7]),          # MindSpore 2.10's outputs
    ((5,), ms.int32, [0, 1, 2, 3, 4]),
    ((1.0, 3, 0.5), ms.float32, [1.0, 1.5, 2.0, 2.5]),
    ((5, 1, 1), ms.int32, []),
    ((5, 1, -2), ms.int32, [5, 3]),
])
def test_values_and_dtypes(args, dtype, values):
    cell = nn.Range(*args)
    for out in (cell(), ms.jit(cell)()):
        assert out.dtype == dtype
        np.testing.assert_array_equal(out.asnumpy(), np.array(values))


def test_zero_delta_is_refused():
    with pytest.raises(ValueError, match="For 'Range', the 'delta' can not be zero."):
        nn.Range(0, 5, 0)
