"""Max pooling with ``return_indices``: the indices observed on MindSpore 2.10 CPU (flat, into each
``(H, W)`` plane of the input, int64), eager and compiled, and the pooled values' gradient."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops

X = np.random.default_rng(10).standard_normal((2, 2, 5, 6)).astype(np.float32)
X1 = np.random.default_rng(11).standard_normal((2, 3, 7)).astype(np.float32)

def max_pool2d(t):
    return ops.max_pool2d(t, 3, 2, 1, return_indices=True)


def adaptive_max_pool2d(t):
    return ops.adaptive_max_pool2d(t, (3, 2), return_indices=True)


# (layer or function, input, indices observed on MindSpore 2.10 CPU)
CASES = {
    "MaxPool2d": (lambda: nn.MaxPool2d(2, 2, pad_mode="pad", return_indices=True), X,
                  [[[[7, 8, 5], [19, 14, 23]], [[7, 8, 5], [12, 15, 16]]],
                   [[[6, 3, 10], [13, 21, 16]], [[7, 8, 11], [12, 21, 23]]]]),
    "MaxPool2d padded": (lambda: nn.MaxPool2d(3, 2, pad_mode="pad", padding=1, return_indices=True), X,
                         [[[[7, 7, 3], [7, 7, 23], [19, 27, 27]], [[7, 8, 5], [12, 15, 15], [18, 21, 21]]],
                          [[[6, 3, 10], [13, 9, 10], [25, 25, 29]], [[7, 8, 9], [7, 21, 21], [19, 21, 21]]]]),
    "MaxPool2d dilated ceil": (lambda: nn.MaxPool2d(3, 2, pad_mode="pad", padding=1, dilation=2, ceil_mode=True,
                                                    return_indices=True), X,
                               [[[[7, 7, 23], [7, 7, 23]], [[21, 21, 21], [21, 21, 21]]],
                                [[[9, 9, 9], [9, 9, 9]], [[21, 21, 21], [21, 21, 21]]]]),
    "MaxPool1d": (lambda: nn.MaxPool1d(3, 2, pad_mode="pad", return_indices=True), X1,
                  [[[1, 2, 6], [1, 3, 5], [2, 2, 5]], [[1, 2, 5], [2, 2, 6], [2, 2, 5]]]),
    "MaxPool1d padded": (lambda: nn.MaxPool1d(3, 2, pad_mode="pad", padding=1, return_indices=True), X1,
                         [[[1, 1, 4, 6], [1, 3, 3, 5], [1, 2, 5, 5]], [[1, 1, 5, 5], [1, 2, 5, 6], [1, 2, 5, 5]]]),
    "AdaptiveMaxPool2d": (lambda: nn.AdaptiveMaxPool2d((2, 4), return_indices=True), X,
                          [[[[7, 7, 16, 16], [19, 19, 27, 28]], [[12, 8, 15, 5], [12, 13, 15, 28]]],
                           [[[13, 13, 10, 10], [25, 25, 21, 29]], [[7, 8, 9, 17], [12, 26, 21, 28]]]]),
    "ops.max_pool2d": (lambda: max_pool2d, X,
                       [[[[7, 7, 3], [7, 7, 23], [19, 27, 27]], [[7, 8, 5], [12, 15, 15], [18, 21, 21]]],
                        [[[6, 3, 10], [13, 9, 10], [25, 25, 29]], [[7, 8, 9], [7, 21, 21], [19, 21, 21]]]]),
    "ops.adaptive_max_pool2d": (lambda: adaptive_max_pool2d, X,
                                [[[[7, 3], [7, 23], [19, 27]], [[8, 5], [12, 15], [18, 21]]],
                                 [[[2, 10], [13, 10], [25, 29]], [[8, 9], [8, 21], [26, 21]]]]),
}


class Pooled(nn.Cell):
    def __init__(self, pool):
        super().__init__()
        self.pool = pool

    def construct(self, x):
        return self.pool(x)


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_indices_match_mindspore(name, compiled):
    make, x, observed = CASES[name]
    pool = make()
    run = ms.jit(Pooled(pool) if isinstance(pool, nn.Cell) else pool) if compiled else pool
    values, indices = run(Tensor(x))
    assert indices.dtype == ms.int64
    np.testing.assert_array_equal(indices.asnumpy(), observed)
    planes = x.reshape(x.shape[:2] + (-1,))
    flat = indices.asnumpy().reshape(indices.shape[:2] + (-1,))
    np.testing.assert_array_equal(values.asnumpy().reshape(flat.shape), np.take_along_axis(planes, flat, axis=2))


def pooled_sum(x):
    values, _ = nn.AdaptiveMaxPool2d((2, 4), return_indices=True)(x)
    return (values * values).sum()


def test_the_pooled_values_are_differentiable_and_the_gradient_lands_on_the_indices():
    grad = ms.grad(pooled_sum)(Tensor(X))
    values, indices = nn.AdaptiveMaxPool2d((2, 4), return_indices=True)(Tensor(X))
    expected = np.zeros(X.shape, np.float32).reshape(X.shape[:2] + (-1,))
    np.add.at(expected, (np.arange(2)[:, None, None], np.arange(2)[None, :, None],
                         indices.asnumpy().reshape(2, 2, -1)), 2 * values.asnumpy().reshape(2, 2, -1))
    np.testing.assert_allclose(grad.asnumpy(), expected.reshape(X.shape), rtol=1e-6)


def test_return_indices_needs_pad_mode_pad_as_in_mindspore():
    with pytest.raises(ValueError, match="can not be set to non-default value when pad_mode is not 'pad', but got "
                                         "pad_mode:valid"):
        nn.MaxPool2d(2, 2, return_indices=True)
    with pytest.raises(ValueError, match="^For MaxPool1d, the parameter"):
        nn.MaxPool1d(2, 2, pad_mode="same", return_indices=True)
