"""APIs and semantics the fifth round of real MindSpore programs needed (External-Attention-MindSpore's
attention modules, jiamny's MindSpore machine-learning exercises, a DVIMC test script, orange-pi-mindspore's
minGPT), each as our own minimal program with the values MindSpore 2.10 (CPU) gives, eagerly and compiled."""
import numpy as np
import pytest

import npspore as ms
import npspore.dataset as ds
import npspore.numpy as mnp
from npspore import Tensor, nn, ops
from npspore.scipy import linalg as sp_linalg


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


# ---------------------------------------------------------------- cross_entropy of one sample

LOGITS = np.array([0.3, -1.2, 2.0], np.float32)
PROBS = np.array([0.2, 0.5, 0.3], np.float32)
WEIGHT = np.array([1.0, 2.0, 0.5], np.float32)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_of_a_1d_input_reads_classes_along_dim_0(reduction):
    """MindSpore's class_dim is 0 for a 1-D input: every reduction gives the one sample's 0-d loss."""
    x, p, w = Tensor(LOGITS), Tensor(PROBS), Tensor(WEIGHT)
    loss = ops.cross_entropy(x, p, reduction=reduction)
    assert loss.shape == ()
    np.testing.assert_allclose(loss.asnumpy(), 2.141671, rtol=1e-6)
    smoothed = ops.cross_entropy(x, p, w, reduction=reduction, label_smoothing=0.1)
    np.testing.assert_allclose(smoothed.asnumpy(), 3.7245584, rtol=1e-6)
    index = ops.cross_entropy(x, Tensor(np.array(2, np.int32)), reduction=reduction)
    np.testing.assert_allclose(index.asnumpy(), 0.20167089, rtol=1e-5)


def test_cross_entropy_loss_of_a_1d_input_eager_compiled_and_its_gradient():
    """DVIMC's test script: ``nn.CrossEntropyLoss()`` of 2 logits and 2 probabilities, and its gradient."""
    x, p, w = Tensor(LOGITS), Tensor(PROBS), Tensor(WEIGHT)
    np.testing.assert_allclose(nn.CrossEntropyLoss()(x, p).asnumpy(), 2.141671, rtol=1e-6)
    weighted = lambda a: ops.cross_entropy(a, p, w)  # noqa: E731
    np.testing.assert_allclose(ms.jit(weighted)(x).asnumpy(), 3.8122559, rtol=1e-6)
    expected = [0.0015801, -0.9550214, 0.95344126]
    np.testing.assert_allclose(ms.grad(weighted)(x).asnumpy(), expected, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(ms.jit(ms.grad(weighted))(x).asnumpy(), expected, rtol=1e-4, atol=1e-6)


# ---------------------------------------------------------------- samplers


def test_a_sampler_takes_num_samples_up_to_int64_max():
    """minGPT's trainer: ``RandomSampler(replacement=True, num_samples=int(1e10))``; a source of 10 rows
    still gives 10 a pass, and MindSpore's bound and messages hold at the ends."""
    sampler = ds.RandomSampler(replacement=True, num_samples=int(1e10))
    assert sampler.num_samples == 10 ** 10
    data = ds.GeneratorDataset([(np.array(i),) for i in range(10)], ["x"], sampler=sampler)
    assert data.get_dataset_size() == 10
    with pytest.raises(ValueError, match=r"between 0 and 9223372036854775807\(INT64_MAX\)"):
        ds.SequentialSampler(num_samples=2 ** 63)
    with pytest.raises(ValueError, match="INT64_MAX"):
        ds.RandomSampler(num_samples=-1)
    with pytest.raises(TypeError, match="num_samples must be integer but was: 1.5."):
        ds.SequentialSampler(num_samples=1.5)


# ---------------------------------------------------------------- ops.unfold / ops.fold

IMAGES = np.arange(2 * 3 * 5 * 4, dtype=np.float32).reshape(2, 3, 5, 4) / 10


class Unfold(nn.Cell):
    def construct(self, a):
        return ops.unfold(a, kernel_size=(2, 3), padding=(1, 0), stride=2)


class Fold(nn.Cell):
    def construct(self, columns):
        return ops.fold(columns, Tensor([5, 4], ms.int32), kernel_size=3, padding=1)


def _unfold_and_fold():
    x = Tensor(IMAGES)
    columns = Unfold()(x)
    assert columns.shape == (2, 18, 3)
    np.testing.assert_allclose(columns[1, 5].asnumpy(), [6.2, 7.0, 7.8], rtol=1e-6)
    image = Fold()(ops.unfold(x, 3, padding=1))
    assert image.shape == (2, 3, 5, 4)
    np.testing.assert_allclose(image[0, 1, 2].asnumpy(), [16.8, 26.1, 27.0, 18.6], rtol=1e-6)


def test_unfold_and_fold_as_mindspore_eager():
    """Involution's ``ops.unfold(x, kernel_size, padding, stride)``; OutlookAttention's ``ops.fold``."""
    _unfold_and_fold()
    sens = ops.ones_like(Unfold()(Tensor(IMAGES))) * 0.5 + Unfold()(Tensor(IMAGES))
    grad = ops.GradOperation(sens_param=True)(Unfold())(Tensor(IMAGES), sens)
    np.testing.assert_allclose(grad[1, 2, 0].asnumpy(), [10.5, 10.6, 10.7, 0.0], rtol=1e-6)
    np.testing.assert_allclose(grad[1, 2, 4].asnumpy(), [12.1, 12.2, 12.3, 0.0], rtol=1e-6)


def test_unfold_and_fold_as_mindspore_compiled(graph_mode):
    _unfold_and_fold()


# ---------------------------------------------------------------- a view written into an overlapping view


def test_a_shift_into_an_overlapping_view_repeats_the_first_row():
    """S2Attention's ``spatial_shift``: MindSpore copies row by row, reading rows it already wrote."""
    x = Tensor(np.arange(24, dtype=np.float32).reshape(1, 4, 3, 2))
    y = x[:, :, :, :1]
    y[:, 1:, :, :] = y[:, :3, :, :]
    np.testing.assert_array_equal(y.reshape(-1).asnumpy(), [0, 2, 4] * 4)
    np.testing.assert_array_equal(x[0, :, :, 0].asnumpy(), [[0, 2, 4]] * 4)   # the view writes through
    np.testing.assert_array_equal(x[0, :, :, 1].asnumpy(), [[1, 3, 5], [7, 9, 11], [13, 15, 17], [19, 21, 23]])


def test_shifts_that_read_before_writing_and_within_a_row_copy_as_numpy():
    """A shift towards lower indices, and one along the innermost dim, give what a copy first gives."""
    z = Tensor(np.arange(6, dtype=np.float32))
    z[:5] = z[1:]
    np.testing.assert_array_equal(z.asnumpy(), [1, 2, 3, 4, 5, 5])
    w = Tensor(np.arange(12, dtype=np.float32).reshape(2, 6))
    v = w[:, :4]
    v[:, 1:] = v[:, :3]
    np.testing.assert_array_equal(w.asnumpy(), [[0, 0, 1, 2, 4, 5], [6, 6, 7, 8, 10, 11]])


# ---------------------------------------------------------------- mindspore.numpy of a Python number


class Scaled(nn.Cell):
    def construct(self, q):
        return ops.matmul(q, q.T) / mnp.sqrt(64)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_numpy_sqrt_of_a_python_int_is_a_float32_tensor(mode):
    """EMSA's ``ops.matmul(q, k) / ms.numpy.sqrt(self.d_k)``: ``mnp.sqrt(64)`` is ``Tensor(8.0)``."""
    root = mnp.sqrt(64)
    assert root.dtype == ms.float32 and float(root) == 8.0
    ms.set_context(mode=mode)
    try:
        out = Scaled()(Tensor(np.array([[1.0, 2.0], [3.0, -1.0]], np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(out.asnumpy(), [[0.625, 0.125], [0.125, 1.25]])


# ---------------------------------------------------------------- clip_by_value of nested gradients


def test_clip_by_value_of_nested_sequences_gives_tuples():
    """DVIMC's ``ops.clip_by_value(grad(..., has_aux=True)(...), -0.1, 0.1)``: MindSpore's hyper_map clips every
    Tensor of the nest and gives tuples, lists included."""
    t = Tensor(np.array([1.0, -2.0], np.float32))
    out = ops.clip_by_value([t, (t, [t])], -1, 1)
    assert type(out) is tuple and type(out[1]) is tuple and type(out[1][1]) is tuple
    for leaf in (out[0], out[1][0], out[1][1][0]):
        np.testing.assert_array_equal(leaf.asnumpy(), [1.0, -1.0])
    flat = ms.jit(lambda a, b: ops.clip_by_value((a, b), -0.5, 0.5))(t, t * 0.25)
    np.testing.assert_array_equal([v.asnumpy() for v in flat], [[0.5, -0.5], [0.25, -0.5]])


# ---------------------------------------------------------------- a tuple inside an index

COLUMNS = np.arange(12, dtype=np.float32).reshape(3, 4)


def test_a_tuple_inside_an_index_is_a_list_of_indices_eager():
    """jiamny's Lasso/Ridge polynomial features: ``ops.prod(X[:, index_combs], axis=1)`` with a tuple of columns."""
    x = Tensor(COLUMNS)
    assert x[:, (0,)].shape == (3, 1)
    np.testing.assert_array_equal(ops.prod(x[:, (1, 3)], axis=1).asnumpy(), [3, 35, 99])
    np.testing.assert_array_equal(x[(0, 2), 1].asnumpy(), [1, 9])
    x[:, (0, 2)] = 0
    np.testing.assert_array_equal(x.asnumpy(), [[0, 1, 0, 3], [0, 5, 0, 7], [0, 9, 0, 11]])


def columns_product(x):
    return ops.prod(x[:, (1, 3)], axis=1)


def rows_of_column(x):
    return x[(0, 2), 1]


def test_a_tuple_inside_an_index_is_a_list_of_indices_compiled():
    np.testing.assert_array_equal(ms.jit(columns_product)(Tensor(COLUMNS)).asnumpy(), [3, 35, 99])
    np.testing.assert_array_equal(ms.jit(rows_of_column)(Tensor(COLUMNS)).asnumpy(), [1, 9])


# ---------------------------------------------------------------- ops.pinv


def test_pinv_as_mindspore():
    """jiamny's LDA: ``ops.pinv(cov_total)``; MindSpore 2.10's values for a tall float64 matrix, a Hermitian one,
    ``atol``/``rtol`` that drop the smallest singular value, and a batch."""
    tall = Tensor(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float64))
    np.testing.assert_allclose(ops.pinv(tall).asnumpy(), [[-4 / 3, -1 / 3, 2 / 3], [13 / 12, 1 / 3, -5 / 12]],
                               rtol=1e-12)
    square = Tensor(np.array([[2.0, 1.0], [1.0, 2.0]], np.float32))
    np.testing.assert_allclose(ops.pinv(square, hermitian=True).asnumpy(), [[2 / 3, -1 / 3], [-1 / 3, 2 / 3]],
                               rtol=1e-6)
    almost = Tensor(np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0001], [1.0, 0.0, 1.0]], np.float32))
    dropped = [[-0.03333889, -0.06666446, 0.8333389], [0.06666976, 0.13332954, -0.6666645],
               [0.03333222, 0.06666778, 0.16666104]]
    np.testing.assert_allclose(ops.pinv(almost, atol=Tensor(0.01)).asnumpy(), dropped, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(ops.pinv(almost, rtol=Tensor(0.1)).asnumpy(), dropped, rtol=1e-4, atol=1e-6)
    batch = ops.pinv(Tensor(np.arange(12, dtype=np.float32).reshape(2, 3, 2)))
    np.testing.assert_allclose(batch.asnumpy()[1], [[-2.583334, -0.33333042, 1.9166652],
                                                    [2.3333335, 0.3333307, -1.6666651]], rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="2 or more dimensions"):
        ops.pinv(Tensor(np.ones(3, np.float32)))


# ---------------------------------------------------------------- mindspore.scipy.linalg.eigh


def test_scipy_linalg_eigh_as_mindspore_up_to_the_signs_of_the_eigenvectors():
    """jiamny's multi-class LDA: ``from mindspore.scipy import linalg; sp_linalg.eigh(A)``. MindSpore 2.10's
    eigenvalues; its eigenvectors up to each column's sign (Eigen's solver and LAPACK choose either)."""
    a = Tensor(np.array([[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]], np.float32))
    w, v = sp_linalg.eigh(a)
    np.testing.assert_allclose(w.asnumpy(), [2.0965228, 3.0722241, 6.831257], rtol=1e-5)
    mindspore_v = np.array([[0.71674323, -0.32576737, 0.61656713], [-0.57487285, -0.77650183, 0.2580046],
                            [-0.39471608, 0.53937066, 0.74382716]])
    np.testing.assert_allclose(np.abs(v.asnumpy()), np.abs(mindspore_v), rtol=1e-5)
    np.testing.assert_allclose(sp_linalg.eigh(a, eigvals_only=True).asnumpy(), w.asnumpy())
    upper = Tensor(np.array([[2.0, 9.0], [1.0, 3.0]], np.float64))
    np.testing.assert_allclose(sp_linalg.eigh(upper, lower=False)[0].asnumpy(), [-6.51387819, 11.5138782], rtol=1e-8)
    np.testing.assert_allclose(sp_linalg.eigh(upper)[0].asnumpy(), [1.38196601, 3.61803399], rtol=1e-8)
    with pytest.raises(ValueError, match="square matrix"):
        sp_linalg.eigh(Tensor(np.ones((2, 3), np.float32)))


# ---------------------------------------------------------------- ops.column_stack


def stacked_columns(a, b):
    return ops.column_stack((a, b))


@pytest.mark.parametrize("jit", [False, True])
def test_column_stack_as_mindspore(jit):
    """jiamny's RANSAC: ``ops.column_stack((A, Y))``; MindSpore 2.10's values, 1-D Tensors as columns."""
    a = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    b = Tensor(np.array([[4.0, 5.0], [6.0, 7.0], [8.0, 9.0]], np.float32))
    stack = ms.jit(stacked_columns) if jit else stacked_columns
    np.testing.assert_array_equal(stack(a, b).asnumpy(), [[1, 4, 5], [2, 6, 7], [3, 8, 9]])
    np.testing.assert_array_equal(stack(a, a).asnumpy(), [[1, 1], [2, 2], [3, 3]])
    scalars = ops.column_stack((Tensor(np.array(1.0, np.float32)), Tensor(np.array(2.0, np.float32))))
    np.testing.assert_array_equal(scalars.asnumpy(), [[1, 2]])
    with pytest.raises(TypeError, match="list or tuple"):
        ops.column_stack(a)


# ---------------------------------------------------------------- sqrt of integers


class Root(nn.Cell):
    def construct(self, x):
        return ops.sqrt(x)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8, np.int8, np.bool_])
def test_sqrt_of_integers_and_bools_is_float32(dtype):
    """jiamny's Lasso/Ridge: ``ops.sqrt(ms.Tensor(n_features))``; MindSpore 2.10's Sqrt computes integers and
    bools in Float32, eagerly, as a Tensor method and in GRAPH mode (``exp``, ``log``... still refuse them)."""
    x = Tensor(np.array([4, 9], dtype))
    expected = [1.0, 1.0] if dtype is np.bool_ else [2.0, 3.0]
    for out in (ops.sqrt(x), x.sqrt(), ms.jit(Root())(x)):
        assert out.dtype == ms.float32
        np.testing.assert_array_equal(out.asnumpy(), expected)
    np.testing.assert_allclose(ops.sqrt(Tensor(11)).asnumpy(), 3.3166249, rtol=1e-7)
    with pytest.raises(TypeError, match=r"operator\[Exp\]"):
        ops.exp(Tensor(np.array([4, 9], np.int64)))


# ---------------------------------------------------------------- ops.randperm


class Permuted(nn.Cell):
    def construct(self, x):
        return x[ops.randperm(6)]


def test_randperm_is_mindspores_function_of_seed_and_offset():
    """jiamny's GMM: ``X[ms.ops.randperm(n_samples)[:1]]``. MindSpore 2.10's RandpermV2 (CPU) is a std::shuffle over
    std::mt19937(offset or seed): the same order every call, whatever set_seed, eager and in GRAPH mode."""
    ms.set_seed(5)
    first = ops.randperm(10)
    np.testing.assert_array_equal(first.asnumpy(), [0, 2, 1, 5, 9, 8, 4, 7, 6, 3])
    np.testing.assert_array_equal(ops.randperm(10).asnumpy(), first.asnumpy())
    assert first.dtype == ms.int64 and ops.randperm(5, dtype=ms.int32).dtype == ms.int32
    np.testing.assert_array_equal(ops.randperm(120)[:8].asnumpy(), [27, 64, 57, 53, 56, 105, 89, 37])
    for seed, offset, expected in ((1, 0, [9, 0, 2, 5, 7, 4, 6, 3, 1, 8]), (0, 1, [9, 0, 2, 5, 7, 4, 6, 3, 1, 8])):
        np.testing.assert_array_equal(ops.randperm(10, seed=seed, offset=offset).asnumpy(), expected)
    for seed, offset, expected in ((2, 3, [3, 1, 0, 5, 2, 6, 4, 7]), (3, 0, [3, 1, 0, 5, 2, 6, 4, 7]),
                                   (7, 2, [5, 0, 3, 1, 7, 4, 6, 2])):
        np.testing.assert_array_equal(ops.randperm(8, seed=seed, offset=offset).asnumpy(), expected)
    with pytest.raises(ValueError, match="must be greater than 0"):
        ops.randperm(0)


def test_randperm_compiled(graph_mode):
    np.testing.assert_array_equal(Permuted()(Tensor(np.arange(6) * 10)).asnumpy(), [0, 20, 10, 50, 30, 40])
