"""vmap: MindSpore 2.10's examples with the outputs the real MindSpore printed, the batching transform's
control flow, errors, and batching rules against a loop over the batch (``compiler.batching``).

Fixtures were recorded with MindSpore 2.10 (``/work/msvenv``, CPU) running:
* the docstring example of ``mindspore.vmap`` (``mindspore/ops/function/vmap_func.py``, 2.10);
* the tutorial "Vectorization Acceleration Interface Vmap" (mindspore.cn/docs/en/r2.4.0/model_train/
  train_process/optimize/vmap.html; the same text as the r2.0-r2.3 "Automatic Vectorization (Vmap)"
  tutorial): its ``convolve`` example, nested vmap, model ensembling over a CellList and per-sample
  gradients in the tutorial's style with fixed data;
* MindSpore 2.10's errors for wrong ``in_axes``/``out_axes``.
"""
import os

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import npspore as ms
from npspore import Parameter, Tensor, nn, ops, vmap
from gradcheck import central_difference


def test_vmap_is_importable_where_mindspore_has_it():
    import npspore.ops.functional as F
    assert ms.vmap is ops.vmap is F.vmap


# ----------------------------------------------------------------------------------- MindSpore's examples


def test_docstring_example_prints_what_mindspore_prints(capsys):
    def test_vmap(x, y, z):
        return x + y + z
    x = Tensor(np.array([[1, 2], [3, 4], [5, 6]]).astype(np.float32))
    y = Tensor(np.array([[-3, -2, -1], [3, 2, 1]]).astype(np.float32))
    z = Tensor(np.array([0, 3]).astype(np.float32))
    print(vmap(test_vmap, in_axes=(0, 1, None), out_axes=1)(x, y, z))
    assert capsys.readouterr().out == "[[-2.  1.  4.]\n [ 8.  9. 10.]]\n"   # MindSpore 2.10


def convolve(x, w):
    """The tutorial's convolve, with two changes npspore still needs: ``ops.tensor_dot(a, w, axes=1)`` of
    two vectors written ``ops.sum(a * w)`` (no ops.tensor_dot yet), and the loop over ``tuple(range(...))``
    (a ``range`` loop stays a loop in compiled code, whose index cannot bound a slice)."""
    output = []
    for i in tuple(range(1, len(x) - 1)):
        output.append(ops.sum(x[i - 1: i + 2] * w))
    return ops.stack(output)


def test_tutorial_convolve_prints_what_mindspore_prints(capsys):
    x = Tensor(np.arange(5).astype(np.float32))
    w = Tensor(np.array([1., 2., 3.], np.float32))
    x_batch, w_batch = ops.stack([x] * 3), ops.stack([w] * 3)
    print(vmap(convolve)(x_batch, w_batch))
    print(vmap(convolve, in_axes=(1, 0))(ops.transpose(x_batch, (1, 0)), w_batch))
    print(vmap(convolve, in_axes=(0, None))(x_batch, w))
    assert capsys.readouterr().out == "[[ 8. 14. 20.]\n [ 8. 14. 20.]\n [ 8. 14. 20.]]\n" * 3   # MindSpore 2.10


def test_nested_vmap_prints_what_mindspore_prints(capsys):
    def mul(a, b):
        return a * b
    a = Tensor(np.arange(6).reshape(2, 3).astype(np.float32))
    b = Tensor(np.arange(6).reshape(3, 2).astype(np.float32))
    print(vmap(vmap(mul, in_axes=(0, None)), in_axes=(None, 1))(a[0], b))
    assert capsys.readouterr().out == ("[[[ 0.  0.  0.]\n  [ 0.  2.  4.]\n  [ 0.  4.  8.]]\n\n"
                                       " [[ 0.  0.  0.]\n  [ 1.  3.  5.]\n  [ 2.  6. 10.]]]\n")


def mlp_loss(w1, w2, x, t):
    h = ops.tanh(ops.matmul(x, w1))
    out = ops.matmul(h, w2)
    return ops.reduce_sum((out - t) ** 2)


MINDSPORE_PER_SAMPLE_W2 = np.array([   # MindSpore 2.10, printed with precision 5
    [[-4.11415, 1.5454], [-4.02593, 1.51226], [2.87637, -1.08045]],
    [[-1.34358, -2.90058], [-1.05529, -2.27822], [1.28089, 2.76524]],
    [[-1.10536, 0.76227], [0.02976, -0.02052], [-0.62411, 0.43039]],
    [[-3.31354, -1.28482], [-1.0126, -0.39263], [-2.24944, -0.87222]],
    [[-0.32245, 1.7356], [-0.37208, 2.00271], [0.35926, -1.93369]]])
MINDSPORE_PER_SAMPLE_W1_FIRST = np.array([
    [-0.47261, -0.27012, -0.43577], [-1.19695, -0.68413, -1.10364], [0.14758, 0.08435, 0.13607],
    [-1.56889, -0.89671, -1.44659]])


def test_per_sample_gradients_match_mindspore():
    rng = np.random.default_rng(0)
    w1 = Tensor(rng.standard_normal((4, 3)).astype(np.float32))
    w2 = Tensor(rng.standard_normal((3, 2)).astype(np.float32))
    xs = Tensor(rng.standard_normal((5, 4)).astype(np.float32))
    ts = Tensor(rng.standard_normal((5, 2)).astype(np.float32))
    d_w1, d_w2 = vmap(ms.grad(mlp_loss, grad_position=(0, 1)), in_axes=(None, None, 0, 0))(w1, w2, xs, ts)
    assert d_w1.shape == (5, 4, 3)
    np.testing.assert_allclose(d_w2.asnumpy(), MINDSPORE_PER_SAMPLE_W2, atol=2e-5)
    np.testing.assert_allclose(d_w1.asnumpy()[0], MINDSPORE_PER_SAMPLE_W1_FIRST, atol=2e-5)


class ScaledDense(nn.Cell):
    def __init__(self, k):
        super().__init__()
        self.w = Parameter(Tensor(np.full((2, 3), k, np.float32)), name=f"w{k}")
        self.b = Parameter(Tensor(np.arange(3).astype(np.float32) * k), name=f"b{k}")

    def construct(self, x):
        return ops.matmul(x, self.w) + self.b


def test_model_ensembling_over_a_celllist_matches_mindspore():
    cells = nn.CellList([ScaledDense(1.0), ScaledDense(2.0), ScaledDense(3.0)])
    xe = Tensor(np.arange(24).reshape(3, 4, 2).astype(np.float32))
    rows = np.array([1., 5., 9., 13.])   # MindSpore 2.10: model k on xe[k]
    expected = np.stack([rows[:, None] + np.arange(3), 34 + 8 * np.arange(4)[:, None] + 2 * np.arange(3),
                         99 + 12 * np.arange(4)[:, None] + 3 * np.arange(3)])
    np.testing.assert_array_equal(vmap(cells, in_axes=0)(xe).asnumpy(), expected)
    shared = vmap(cells, in_axes=None)(xe[1]).asnumpy()
    np.testing.assert_array_equal(shared[0], [[17, 18, 19], [21, 22, 23], [25, 26, 27], [29, 30, 31]])
    np.testing.assert_array_equal(shared[2], [[51, 54, 57], [63, 66, 69], [75, 78, 81], [87, 90, 93]])


def test_model_ensembling_sees_updated_parameters():
    cells = nn.CellList([ScaledDense(1.0), ScaledDense(2.0)])
    ensemble = vmap(cells, in_axes=None)
    x = Tensor(np.ones((1, 2), np.float32))
    ensemble(x)
    cells[1].w.set_data(Tensor(np.zeros((2, 3), np.float32)))
    np.testing.assert_array_equal(ensemble(x).asnumpy()[1], [[0, 2, 4]])


def test_model_ensembling_of_cells_of_different_structures_is_an_error():
    odd = ScaledDense(3.0)
    odd.w = Parameter(Tensor(np.ones((2, 4), np.float32)), name="w_odd")
    with pytest.raises(RuntimeError, match="same structure, but w differs in shape"):
        vmap(nn.CellList([ScaledDense(1.0), odd]), in_axes=None)(Tensor(np.ones((1, 2), np.float32)))


# ----------------------------------------------------------------------------------- control flow


def branch(x):
    if x.sum() > 0:
        y = x * 2
    else:
        y = x - 1
    return y


def doubling(x):
    while x.sum() < 10:
        x = x * 2
    return x


def test_if_whose_condition_differs_per_sample_selects_each_samples_branch():
    # MindSpore 2.10 refuses this (ValueError: "... the source axis of args in Switch must be None, but got 0.")
    xb = Tensor(np.array([[1., 2.], [-3., 1.], [0., 0.5]], np.float32))
    np.testing.assert_array_equal(vmap(branch)(xb).asnumpy(), [[2, 4], [-4, 0], [0, 1]])


def test_while_whose_trip_count_differs_per_sample_masks_finished_samples():
    xb = np.array([[1., 2.], [3., 1.], [0.5, 1.]], np.float32)
    batched = vmap(doubling)(Tensor(xb)).asnumpy()
    np.testing.assert_array_equal(batched, np.stack([ms.jit(doubling)(Tensor(row)).asnumpy() for row in xb]))
    np.testing.assert_array_equal(batched, [[4, 8], [12, 4], [4, 8]])   # 2, 1 and 3 doublings
    source = vmap(doubling).kernel_source(Tensor(xb))
    assert "np.any(active)" in source and "np.where(" in source


def doubling_when_positive(x):
    y = x
    if x.sum() > 0:
        while y.sum() < 10:
            y = y + y
    return y


def test_while_under_a_per_sample_if_runs_only_for_the_samples_that_take_the_branch():
    # the zero sample does not take the branch; running its while would never end
    xb = np.array([[1., 2.], [0., 0.], [-1., -1.]], np.float32)
    np.testing.assert_array_equal(vmap(doubling_when_positive)(Tensor(xb)).asnumpy(), [[4, 8], [0, 0], [-1, -1]])


def printing_branch(x):
    if x.sum() > 0:
        print(x)
        y = x * 2
    else:
        y = x
    return y


def test_side_effect_under_a_per_sample_if_is_a_compile_error_at_its_line():
    with pytest.raises(RuntimeError, match="side effect") as caught:
        vmap(printing_branch)(Tensor(np.ones((2, 3), np.float32)))
    assert "print(x)" in str(caught.value) and "test_vmap.py" in str(caught.value)


def selecting(x):
    return ops.masked_select(x, x > 0)


def test_op_without_batching_rule_names_op_and_line():
    with pytest.raises(RuntimeError, match="masked_select") as caught:
        vmap(selecting)(Tensor(np.ones((2, 3), np.float32)))
    assert "ops.masked_select(x, x > 0)" in str(caught.value)


def test_vmap_compiles_one_kernel_without_a_loop_over_samples():
    def loss(w, x):
        return ops.sum(ops.relu(ops.matmul(x, w)))
    w, xs = Tensor(np.ones((4, 3), np.float32)), Tensor(np.ones((64, 4), np.float32))
    source = vmap(ms.grad(loss), in_axes=(None, 0)).kernel_source(w, xs)
    body = source.split("def ", 1)[1]
    assert "for " not in body and "while" not in body and source.count("\ndef ") == 1


def _tanh_sum(x, w):
    return ops.tanh(ops.matmul(x, w)).sum()


PER_SAMPLE = vmap(_tanh_sum, in_axes=(0, None))


@ms.jit
def _doubled_per_sample(xs, w):
    return PER_SAMPLE(xs, w) * 2


def test_vmap_composes_with_jit_and_grad_both_ways():
    rng = np.random.default_rng(4)
    xs, w = Tensor(rng.standard_normal((5, 3))), Tensor(rng.standard_normal((3, 2)))
    per_sample = np.array([_tanh_sum(x, w).asnumpy() for x in xs])
    np.testing.assert_allclose(_doubled_per_sample(xs, w).asnumpy(), 2 * per_sample, rtol=1e-12)
    np.testing.assert_allclose(vmap(ms.jit(_tanh_sum), in_axes=(0, None))(xs, w).asnumpy(), per_sample, rtol=1e-12)
    summed = sum(ms.grad(_tanh_sum, grad_position=1)(x, w).asnumpy() for x in xs)
    np.testing.assert_allclose(ms.grad(PER_SAMPLE, grad_position=1)(xs, w).asnumpy(), summed, rtol=1e-12)


# ----------------------------------------------------------------------------------- errors (MindSpore 2.10's)


def _two(a, b):
    return a + b


def _one(a):
    return a * 2


def _pair(a):
    return a, a * 2


def _pair_sum(a):
    return a[0] + a[1]


def _none():
    return Tensor(1.0)


def _from_dict(d):
    return d["a"] * 2


X = Tensor(np.ones((3, 2), np.float32))
Y = Tensor(np.ones((4, 2), np.float32))

MINDSPORE_ERRORS = [
    (lambda: vmap(_one, in_axes=2)(X), "The axis: 2 in 'in_axes' is out of bounds for array of dimension [-2,2)."),
    (lambda: vmap(_one, in_axes=-3)(X), "The axis: -3 in 'in_axes' is out of bounds for array of dimension [-2,2)."),
    (lambda: vmap(_two, in_axes=(0,))(X, X), "When vmap`s 'in_axes' is a tuple or list, and its size must be equal "
                                              "to the number of arguments of 'fn': 2, but got size: 1."),
    (lambda: vmap(_two, in_axes=0)(X, Y), "The 'axis_size' of each argument in the scope of 'vmap' should be equal, "
                                          "but got 3 and 4."),
    (lambda: vmap(_two, in_axes=None)(X, X), "The 'in_axes' of 'vmap' cannot be a single None while 'fn' is not a "
                                             "'CellList'."),
    (lambda: vmap(_two, in_axes=(None, None))(X, X), "The 'in_axes' of 'vmap' cannot be all None while 'fn' is not "
                                                     "a 'CellList', but got (None, None)."),
    (lambda: vmap(_two, in_axes=1.0)(X, X), "The axis in vmap`s 'in_axes' can only be of type Int or None, but got "
                                            "AbstractScalar(Type: Float32, Value: 1, Shape: NoShape)."),
    (lambda: vmap(_two, in_axes=(0, "a"))(X, X), "The axis in vmap's 'in_axes' should be a None or a scalar of type "
                                                 "Int64Imm, but got a a."),
    (lambda: vmap(_one, out_axes=3)(X), "The axis: 3 in 'out_axes' is out of bounds for array of dimension [-2,2)."),
    (lambda: vmap(_one, out_axes=(0, 1))(X), "The size of vmap's 'out_axes' should be equal to the result size: 1, "
                                             "but got size: 2."),
    (lambda: vmap(_one, out_axes=None)(X), "The 'out_axes' of 'vmap' cannot be a single None while 'fn' is not a "
                                           "'CellList'."),
    (lambda: vmap(_pair, out_axes=(0, None))(X), "It is invalid that source is not None and dst is None."),
    (lambda: vmap(_pair, out_axes=1.5)(X), "The axis in vmap`s 'out_axes' can only be of type Int or None, but got "
                                           "AbstractScalar(Type: Float32, Value: 1.5, Shape: NoShape)."),
    (lambda: vmap(3)(X), "'VmapOperation' arg0 must be a 'Function' or 'Cell', but got AbstractScalar(Type: Int64, "
                         "Value: 3, Shape: NoShape)."),
    (lambda: vmap(_two)(X, b=Y), "Got an unexpected keyword argument 'b'"),
    (lambda: vmap(_pair_sum, in_axes=((0,),))((X, X)), "List index [1] is out of range [1]."),
    (lambda: vmap(_one, in_axes=((0, 0),))(X), "The axis in vmap's 'in_axes' should be a None or a scalar of type "
     "Int64Imm, but got a (0, 0)."),
    (lambda: vmap(_none)(), "Failed to get 'axis_size' within the scope of vmap."),
    (lambda: vmap(_one, in_axes={"a": 0})(X), "The axis in vmap`s 'in_axes' can only be of type Int or None, but "
     "got AbstractDictionary{ (AbstractScalar(Type: String, Value: a, Shape: NoShape): AbstractScalar(Type: Int64, "
     "Value: 0, Shape: NoShape)) }."),
    (lambda: vmap(_from_dict, in_axes=({"a": 0},))({"a": X}), "The axis in vmap's 'in_axes' should be a None or a "
     "scalar of type Int64Imm, but got a {'a': 0}."),
    (lambda: vmap(_from_dict, in_axes=0)({"a": X}), "The orig_abs should be AbstractTensor when corresponding axis "
     "is 0, but got a AbstractDictionary{"),
    (lambda: vmap(_two, in_axes=(0, 0))(X, 3), "The orig_abs should be AbstractTensor when corresponding axis is 0, "
                                               "but got a AbstractScalar(Type: Int64, Value: 3, Shape: NoShape)."),
]


@pytest.mark.parametrize("call, message", MINDSPORE_ERRORS, ids=[m[:40] for _, m in MINDSPORE_ERRORS])
def test_wrong_axes_raise_mindspores_errors_at_the_call(call, message):
    with pytest.raises(RuntimeError) as caught:
        call()
    assert str(caught.value).startswith(message)


def test_out_axes_place_and_broadcast_results():
    def scaled(a, b):
        return a, b * 2
    a, b = vmap(scaled, in_axes=(0, None), out_axes=(1, 0))(X, Tensor(np.array([1., 2.], np.float32)))
    assert a.shape == (2, 3)
    np.testing.assert_array_equal(b.asnumpy(), [[2, 4]] * 3)   # MindSpore 2.10: broadcast over the batch


def test_in_axes_longer_than_a_tuple_argument_are_ignored_as_in_mindspore():
    np.testing.assert_array_equal(vmap(_pair_sum, in_axes=((0, 0, 0),))((X, X)).asnumpy(), np.full((3, 2), 2))


def test_nested_in_axes_and_python_scalars_with_none():
    def pair(p, k):
        return p[0] + p[1] * k
    out = vmap(pair, in_axes=((0, 1), None))((X, Tensor(np.ones((2, 3), np.float32))), 3)
    np.testing.assert_array_equal(out.asnumpy(), np.full((3, 2), 4))


# ----------------------------------------------------------------------------------- batching rules vs a loop


def _loop(fn, in_axes, *arrays):
    size = next(a.shape[ax] for a, ax in zip(arrays, in_axes) if ax is not None)
    rows = []
    for i in range(size):
        args = [Tensor(a if ax is None else np.take(a, i, axis=ax)) for a, ax in zip(arrays, in_axes)]
        rows.append(ms.jit(fn)(*args).asnumpy())
    return np.stack(rows)


def _ew(x, y):
    return ops.maximum(x * y - 1.0, ops.exp(y) / 3)


def _reduce(x, y):
    return ops.sum(x, 0) + ops.mean(x * y, -1, keep_dims=True).sum() + ops.max(x, -1)[0]


def _shapes(x, y):
    z = ops.transpose(x, (1, 0)).reshape(-1) * 1.0
    return ops.concat((z, ops.expand_dims(y, 0).squeeze(0).reshape(-1)), 0)[1:]


def _softmax(x, y):
    return ops.softmax(x, -1) * y[..., :1]


def _matvec(x, y):
    return ops.matmul(x, y[:, 0]) + ops.matmul(y[:, 0], ops.transpose(x, (1, 0)))[0]


def _matmat(x, y):
    return ops.matmul(x, y) + ops.matmul(ops.transpose(y, (1, 0)), ops.transpose(x, (1, 0))).T


def _where(x, y):
    return ops.where(x > y, x, y * 2).broadcast_to((2,) + x.shape)


def _index(x, y):
    return x[1:, ::-1][0] + y[:, 1] + ops.gather(x, Tensor(np.array([1, 0], np.int32)), 1).sum(1)[:1]


def _tiles(x, y):
    parts = ops.split(ops.stack((x, y), 1), 1, 1)
    ones = ops.ones_like(x).reshape(-1)
    return ops.tile(parts[0].squeeze(1), (2, 1)).flatten() + ops.concat((ones, ones))


def _argmax(x, y):
    return ops.argmax(x * y).astype(ms.float32) + ops.argmax(x, 1).astype(ms.float32)


def _softmaxes(x, y):
    return ops.log_softmax(x, 0) + ops.topk(y, 2)[0].sum() + ops.one_hot(ops.argmax(y, 1), x.shape[1], 1.0, 0.0)


def _vectors(x, y):
    return ops.outer(x[0], y[1]) + ops.dot(x, y[:, :1]) + ops.matmul(x[0], y[1])


def _rank3(x, y):
    stacked = ops.stack((x, y))
    by_vector = ops.expand_dims(ops.matmul(y[0], stacked), 1) + ops.expand_dims(ops.matmul(stacked, x[1]), -1)
    return ops.bmm(stacked, ops.transpose(stacked, (0, 2, 1))) + ops.matmul(stacked, y) + by_vector


def _fills(x, y):
    """``fill`` with a per-sample scalar and with a per-sample row (broadcast to the filled shape)."""
    return ops.fill(ms.float32, (2,) + x.shape, x[0, 0]) * y + ops.full((3, x.shape[1]), y[1], dtype=ms.float32).sum(0)


def _class_indices(x, y):
    """A loss's class indices (checked per element, ``class_indices``) made from each sample's values."""
    labels = ops.argmax(y, 1).astype(ms.int32)
    return ops.nll_loss(ops.log_softmax(x, -1), labels, reduction="none") + labels.astype(ms.float32)


RULE_PROGRAMS = [_ew, _reduce, _shapes, _softmax, _matvec, _matmat, _where, _index, _tiles, _argmax, _softmaxes,
                 _vectors, _rank3, _fills, _class_indices]


@pytest.mark.parametrize("program", RULE_PROGRAMS, ids=[p.__name__ for p in RULE_PROGRAMS])
@settings(max_examples=4, deadline=None)
@given(n=st.integers(2, 4), batch=st.integers(1, 3),
       axes=st.sampled_from([(0, 0), (0, None), (None, 1), (1, 0)]), seed=st.integers(0, 2 ** 16))
def test_batching_rules_match_a_loop_over_the_batch(program, n, batch, axes, seed):
    rng = np.random.default_rng(seed)
    x, y = rng.standard_normal((n, n)).astype(np.float32), rng.standard_normal((n, n)).astype(np.float32)
    arrays = [np.stack([a] * batch, axis=ax) + rng.standard_normal(np.insert(a.shape, ax, batch)).astype(np.float32)
              if ax is not None else a for a, ax in zip((x, y), axes)]
    got = vmap(program, in_axes=axes)(*map(Tensor, arrays)).asnumpy()
    np.testing.assert_allclose(got, _loop(program, axes, *arrays), rtol=1e-5, atol=1e-5)


def test_convolution_and_pooling_batch_images_and_filters():
    rng = np.random.default_rng(1)
    w = rng.standard_normal((4, 2, 3, 3)).astype(np.float32)

    def features(x, w):
        return ops.max_pool2d(ops.relu(ops.conv2d(x, w, pad_mode="pad", padding=1)), 2, 2)

    xs = rng.standard_normal((3, 2, 2, 6, 6)).astype(np.float32)
    got = vmap(features, in_axes=(0, None))(Tensor(xs), Tensor(w)).asnumpy()
    np.testing.assert_allclose(got, _loop(features, (0, None), xs, w), rtol=1e-5, atol=1e-5)
    filters = np.stack([w, -w, 2 * w])   # one filter bank per sample (an ensemble of CNNs)
    got = vmap(features)(Tensor(xs), Tensor(filters)).asnumpy()
    np.testing.assert_allclose(got, _loop(features, (0, 0), xs, filters), rtol=1e-5, atol=1e-5)



def test_per_sample_gradients_through_max_pooling():
    # A per-sample-gradient training step (MindSpore's differential-privacy sample): vmap of the gradient of a
    # convolution and max pooling; max_pool2d_grad reads the batched output gradient as images too (it was
    # refused as "a batched filter").
    rng = np.random.default_rng(4)
    w = Tensor(rng.standard_normal((3, 2, 3, 3)))

    def loss(x, w):
        return (ops.max_pool2d(ops.relu(ops.conv2d(x, w, pad_mode="pad", padding=1)), 2, 2) ** 2).sum()

    xs = rng.standard_normal((4, 1, 2, 6, 6))
    gradient = ms.grad(loss, grad_position=1)
    per_sample = vmap(gradient, in_axes=(0, None))(Tensor(xs), w).asnumpy()
    for x, got in zip(xs, per_sample):
        numeric = central_difference(lambda v: float(loss(Tensor(x), Tensor(v)).asnumpy()), w.asnumpy().copy())
        np.testing.assert_allclose(got, numeric, rtol=1e-6, atol=1e-6)

def test_gather_with_batched_indices_and_a_loop_with_batched_carried_values():
    def pick(table, index):
        acc = table[0] * 0
        for i in range(3):
            acc = acc + ops.gather(table, index, 0) * i
        return acc
    table = np.arange(12, dtype=np.float32).reshape(4, 3)
    index = np.array([[0, 3], [2, 1]], np.int32)
    got = vmap(pick, in_axes=(None, 0))(Tensor(table), Tensor(index)).asnumpy()
    np.testing.assert_array_equal(got, _loop(pick, (None, 0), table, index))


class Tiny(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 2)

    def construct(self, x):
        return ops.tanh(self.dense(x)).sum()


def test_vmap_of_a_cell_and_of_its_per_sample_weight_gradients():
    net = Tiny()
    xs = np.random.default_rng(2).standard_normal((4, 3)).astype(np.float32)
    np.testing.assert_allclose(vmap(net)(Tensor(xs)).asnumpy(), [net(Tensor(x)).asnumpy() for x in xs], rtol=1e-6)
    gradient = ms.grad(net, grad_position=None, weights=net.trainable_params())
    per_sample = vmap(gradient)(Tensor(xs))
    for k, weight_grads in enumerate(per_sample):
        np.testing.assert_allclose(weight_grads.asnumpy(), np.stack([gradient(Tensor(x))[k].asnumpy() for x in xs]),
                                   rtol=1e-5, atol=1e-6)


def _looped_loss(w, x):
    h = x
    for _ in range(2):
        h = ops.tanh(ops.matmul(h, w))
    return ops.sum(h * h)


def test_vmap_of_grad_through_a_loop_keeps_each_samples_tape():
    rng = np.random.default_rng(3)
    w, xs = rng.standard_normal((3, 3)), rng.standard_normal((4, 3))
    gradient = ms.grad(_looped_loss, grad_position=(0, 1))
    got = vmap(gradient, in_axes=(None, 0))(Tensor(w), Tensor(xs))
    for position in range(2):
        want = np.stack([gradient(Tensor(w), Tensor(x))[position].asnumpy() for x in xs])
        np.testing.assert_allclose(got[position].asnumpy(), want, rtol=1e-10, atol=1e-12)


def _scalar_loss(w, x):
    h = ops.tanh(ops.matmul(x, w))
    return ops.sum(ops.softmax(h, -1) * h) + ops.mean(h * h)


@settings(max_examples=6, deadline=None)
@given(d=st.integers(1, 4), k=st.integers(1, 4), batch=st.integers(1, 4), seed=st.integers(0, 2 ** 16))
def test_vmap_of_grad_matches_a_loop_of_grad(d, k, batch, seed):
    rng = np.random.default_rng(seed)
    w, xs = rng.standard_normal((d, k)), rng.standard_normal((batch, d))
    gradient = ms.grad(_scalar_loss, grad_position=(0, 1))
    got = vmap(gradient, in_axes=(None, 0))(Tensor(w), Tensor(xs))
    want = [gradient(Tensor(w), Tensor(row)) for row in xs]
    for position in range(2):
        np.testing.assert_allclose(got[position].asnumpy(), np.stack([g[position].asnumpy() for g in want]),
                                   rtol=1e-10, atol=1e-12)


# ----------------------------------------------------------------------------------- npspore show


def test_show_transform_vmap_prints_the_per_sample_gradient_kernel(capsys):
    from npspore.cli import main
    assert main(["show", "npspore.examples:MLP", "--input", "f32[8,5,4]", "--transform", "vmap", "--grad",
                 "--weights", "all", "--no-color"]) == 0
    text = capsys.readouterr().out
    assert "kernel: vmap of gradient" in text and "def MLP_construct_grad_vmap(" in text
    assert "np.swapaxes(d_x_2, -1, -2) @ x" in text     # each sample's weight gradient, as one batched matmul
    assert main(["show", "npspore.examples:MLP", "--input", "f32[8,5,4]", "--transform", "vmap",
                 "--dump-after", "batch"]) == 0
    assert "float32[8, 5, 3]" in capsys.readouterr().out


VMAP_PROGRAM = '''
import os

import numpy as np
import npspore as ms
from npspore import Tensor, ops


def loss(w, x):
    return ops.sum(ops.tanh(ops.matmul(x, w)) ** 2)


per_sample = ms.vmap(ms.grad(loss), in_axes=(None, 0))
w = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2) / 10)
x = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) / 10)
found = per_sample(w, x).asnumpy()
losses = ms.vmap(loss, in_axes=(None, 0))(w, x).asnumpy()
info = per_sample.cache_info()
print(info["compiles"], info["disk_loads"], repr(found.round(5).tolist()), repr(losses.round(5).tolist()))
'''


def test_vmap_kernels_are_loaded_from_the_disk_cache_by_a_new_process(tmp_path):
    import subprocess
    import sys

    (tmp_path / "program.py").write_text(VMAP_PROGRAM)
    env = dict(os.environ, NPSPORE_CACHE_DIR=str(tmp_path / "kernels"))
    runs = [subprocess.run([sys.executable, str(tmp_path / "program.py")], env=env, capture_output=True, text=True,
                           check=True).stdout.split(maxsplit=2) for _ in range(2)]
    assert runs[0][:2] == ["1", "0"] and runs[1][:2] == ["0", "1"]
    assert runs[0][2] == runs[1][2]
    assert len(list((tmp_path / "kernels").glob("*.py"))) == 2   # vmap(grad(loss)) and vmap(loss)


# --- each sample's own indices (fuzz9: `x[k - 1, idx]`, `y[k - 1] = v`, `ops.gather(x, k, 1)` with k mapped)


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_gather_of_batched_params_at_batched_indices_and_its_gradient_take_each_samples_own(axis):
    rng = np.random.default_rng(0)
    params = rng.standard_normal((4, 3, 5, 2))
    rows = params.shape[axis + 1]
    indices = rng.integers(-rows, rows, (4, 2, 3)).astype(np.int32)   # negative ones count from the end
    got = ms.vmap(lambda p, i: ops.gather(p, i, axis))(Tensor(params), Tensor(indices))
    want = np.stack([np.take(params[b], indices[b], axis) for b in range(4)])
    np.testing.assert_array_equal(got.asnumpy(), want)

    def loss(p, i):
        return (ops.gather(p, i, axis) ** 2).sum()
    grads = ms.vmap(ms.grad(loss))(Tensor(params), Tensor(indices))
    for b in range(4):
        np.testing.assert_allclose(grads.asnumpy()[b], ms.grad(loss)(Tensor(params[b]), Tensor(indices[b])).asnumpy(),
                                   rtol=1e-12)


class _RowAtInput(nn.Cell):
    def construct(self, x, k):
        y = x * 1.0
        y[k - 1] = ops.sin(x[0])
        y[k - 1] += x[1] * 2.0
        return y * x[k - 1]


def test_rows_read_and_written_at_each_samples_own_index():
    rng = np.random.default_rng(1)
    x, k = rng.standard_normal((4, 2, 3)), np.array([1, 2, 2, 1], np.int32)
    got = ms.vmap(_RowAtInput())(Tensor(x), Tensor(k))
    want = np.stack([_RowAtInput()(Tensor(x[b]), Tensor(k[b])).asnumpy() for b in range(4)])
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-12)

    def loss(a, n):
        return (_RowAtInput()(a, n) ** 2).sum()
    grads = ms.vmap(ms.grad(loss))(Tensor(x), Tensor(k))
    for b in range(4):
        np.testing.assert_allclose(grads.asnumpy()[b], ms.grad(loss)(Tensor(x[b]), Tensor(k[b])).asnumpy(), rtol=1e-12)
