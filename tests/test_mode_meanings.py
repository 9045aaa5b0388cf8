"""The Tensor methods MindSpore 2.10 resolves by mode: ``x.max(1)``, ``x.min(0)`` and ``x.transpose(0, 1)``.

PYNATIVE (eager code, a gradient called in PYNATIVE mode) reads them as ``max(dim)`` (values and indices) and
``transpose(dim0, dim1)`` (a swap); GRAPH mode and ``@jit`` keep ``max(axis)`` (the values) and
``transpose(*axes)`` (a permutation). Every expected value was observed on MindSpore 2.10 CPU (``@jit``, a
Cell called in GRAPH_MODE, ``ms.grad`` in both modes, ``ms.vmap``).
"""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops

X = np.array([[1., 5., 2.], [4., 0., 6.]], np.float32)
W = np.array([[1., 2.], [3., 4.]], np.float32)
Y = np.arange(24, dtype=np.float32).reshape(2, 3, 4)

VALUES = ("values", [5., 6.])
PAIR = ("pair", [5., 6.], [1, 2])

# name, function, PYNATIVE's result, GRAPH's result ("values"/"pair" with their contents, or an array)
CASES = [
    ("max(1)", lambda x, y: x.max(1), PAIR, VALUES),
    ("max(dim=1)", lambda x, y: x.max(dim=1), PAIR, PAIR),
    ("max(1, True)", lambda x, y: x.max(1, True), ("pair", [[5.], [6.]], [[1], [2]]), ("values", [[5.], [6.]])),
    ("max(1, keepdim=True)", lambda x, y: x.max(1, keepdim=True), ("pair", [[5.], [6.]], [[1], [2]]),
     ("pair", [[5.], [6.]], [[1], [2]])),
    ("max(axis=1)", lambda x, y: x.max(axis=1), VALUES, VALUES),
    ("max(-1)", lambda x, y: x.max(-1), PAIR, VALUES),
    ("min(0)", lambda x, y: x.min(0), ("pair", [1., 0., 2.], [0, 1, 0]), ("values", [1., 0., 2.])),
    ("min(1, keepdim=True)", lambda x, y: x.min(1, keepdim=True), ("pair", [[1.], [0.]], [[0], [1]]),
     ("pair", [[1.], [0.]], [[0], [1]])),
    ("max(1)[0] + 1", lambda x, y: x.max(1)[0] + 1, ("values", [6., 7.]), ("values", 6.)),
    ("ops.max(x, 1)", lambda x, y: ops.max(x, 1), PAIR, PAIR),
    ("transpose(0, 1)", lambda x, y: x.transpose(0, 1), ("values", X.T), ("values", X)),
    ("transpose(1, 0)", lambda x, y: x.transpose(1, 0), ("values", X.T), ("values", X.T)),
    ("transpose(dim0=0, dim1=1)", lambda x, y: x.transpose(dim0=0, dim1=1), ("values", X.T), ("values", X.T)),
    ("y.transpose(2, 0, 1)", lambda x, y: y.transpose(2, 0, 1), ("values", Y.transpose(2, 0, 1)),
     ("values", Y.transpose(2, 0, 1))),
    ("y.transpose(1, 2)", lambda x, y: y.transpose(1, 2), ("values", Y.transpose(0, 2, 1)), ValueError),
]


def check(result, expected):
    if expected[0] == "pair":
        assert isinstance(result, tuple) and len(result) == 2
        np.testing.assert_array_equal(result[0].asnumpy(), np.array(expected[1], np.float32))
        np.testing.assert_array_equal(result[1].asnumpy(), np.array(expected[2], np.int64))
        assert result[1].dtype == ms.int64
    else:
        assert isinstance(result, Tensor), result
        np.testing.assert_array_equal(result.asnumpy(), np.array(expected[1], np.float32))


@pytest.mark.parametrize("name, function, pynative, graph", CASES, ids=[case[0] for case in CASES])
def test_eager_takes_pynative_meaning_and_jit_graph_meaning(name, function, pynative, graph):
    x, y = Tensor(X), Tensor(Y)
    check(function(x, y), pynative)
    if graph is ValueError:
        with pytest.raises(ValueError, match="the number of axes must be equal to the dimension of Tensor"):
            ms.jit(function)(x, y)
    else:
        check(ms.jit(function)(x, y), graph)


class Extremes(nn.Cell):
    def construct(self, x):
        return x.max(1), x.min(0, True)


def test_a_cell_called_in_graph_mode_takes_graph_meanings():
    x = Tensor(X)
    eager = Extremes()(x)
    assert isinstance(eager[0], tuple)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        values, smallest = Extremes()(x)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    check(values, VALUES)
    check(smallest, ("values", [[1., 0., 2.]]))


def first_row_max(x):
    return (x.max(1)[0] * 2).sum()


def swapped_product(x, w):
    return (w.transpose(0, 1) @ x).sum()


def test_gradients_take_the_meaning_of_their_mode():
    x, w = Tensor(X), Tensor(W)
    pynative = [[0., 2., 0.], [0., 0., 2.]]          # the row maxima: values of max(dim=1)
    graph = [[0., 2., 0.], [0., 0., 0.]]             # the first row's maximum: max(axis=1)[0]
    np.testing.assert_array_equal(ms.grad(first_row_max)(x).asnumpy(), pynative)
    np.testing.assert_array_equal(ms.jit(ms.grad(first_row_max))(x).asnumpy(), graph)
    dx, dw = ms.grad(swapped_product, (0, 1))(x, w)
    np.testing.assert_array_equal(dx.asnumpy(), [[3., 3., 3.], [7., 7., 7.]])
    np.testing.assert_array_equal(dw.asnumpy(), [[8., 8.], [10., 10.]])
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        np.testing.assert_array_equal(ms.grad(first_row_max)(x).asnumpy(), graph)
        dx, dw = ms.grad(swapped_product, (0, 1))(x, w)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(dx.asnumpy(), [[4., 4., 4.], [6., 6., 6.]])
    np.testing.assert_array_equal(dw.asnumpy(), [[8., 10.], [8., 10.]])
    # the PYNATIVE gradient compiled before still gives PYNATIVE's meaning (its own kernel)
    np.testing.assert_array_equal(ms.grad(first_row_max)(x).asnumpy(), pynative)


def row_max(row):
    return row.max(0)


def sample_transpose(matrix):
    return matrix.transpose(0, 1)


def test_vmap_takes_graph_meanings_in_pynative_mode():
    # MindSpore 2.10 PYNATIVE: vmap(row.max(0)) gives the values, vmap(m.transpose(0, 1)) leaves each sample
    np.testing.assert_array_equal(ms.vmap(row_max)(Tensor(X)).asnumpy(), [5., 6.])
    np.testing.assert_array_equal(ms.vmap(sample_transpose)(Tensor(Y[:, :2, :3])).asnumpy(), Y[:, :2, :3])


class RowMaxScale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.ones(1, np.float32)), name="w")

    def construct(self, x):
        return x.max(1)[0] * self.w


@pytest.mark.parametrize("mode, trained", [(ms.PYNATIVE_MODE, 0.39), (ms.GRAPH_MODE, 0.5)])
def test_model_train_computes_what_its_mode_computes(mode, trained):
    # PYNATIVE: x.max(1)[0] are the row maxima [5, 6], the mean squared error 30.5 w^2 has gradient 61 at w = 1;
    # GRAPH: the first row's maximum 5, error 25 w^2, gradient 50; one SGD step of 0.01 from w = 1
    from npspore import dataset
    data = dataset.NumpySlicesDataset({"x": X, "y": np.zeros(2, np.float32)}, shuffle=False).batch(2)
    net = RowMaxScale()
    model = ms.train.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), learning_rate=0.01))
    ms.set_context(mode=mode)
    try:
        model.train(1, data, dataset_sink_mode=False)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(net.w.asnumpy(), [trained], rtol=1e-6)


@ms.jit
def jitted_row_max(x):
    return x.max(1)


def through_jitted(x):
    return (jitted_row_max(x)[0] * 2).sum()


def test_a_jit_function_called_by_a_pynative_gradient_takes_graph_meanings():
    # MindSpore 2.10: the @jit function runs as a graph inside the PYNATIVE gradient: its x.max(1) is the values
    np.testing.assert_array_equal(ms.grad(through_jitted)(Tensor(X)).asnumpy(), [[0., 2., 0.], [0., 0., 0.]])
