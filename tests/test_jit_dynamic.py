"""``jit(dynamic=1)`` and ``jit(input_signature=...)``: one shape-polymorphic kernel, through the dynamic dims
``Cell.set_inputs`` uses.

MindSpore 2.10's ``jit(dynamic=1)`` "enables dynamic shape compilation and automatically detects shape
changes" (its ``jit`` docs); npspore makes every Tensor argument dim dynamic from the first call, so one
kernel serves every length. ``input_signature`` was ``jit``'s parameter until 2.x: "The shape and dtype of
actual inputs should keep the same as input_signature" (placeholders with ``None`` dims are dynamic);
MindSpore 2.10 warns that it is deprecated (``_check_options`` in ``graph/api.py``) and drops it. npspore
gives the same warning and keeps the signature, with MindSpore's checks of a call against it
(``_generate_compile_args_by_input_signature``: ``check_argument_consistency`` for dynamic signatures,
``"The input args is incompatible with the args in `input_signature`!"`` for static ones).
"""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops
from npspore.testing import check_grads


def built(compiled):
    """The kernels ``compiled`` built: compiled, or loaded from the disk cache (another test's)."""
    info = compiled.cache_info()
    return info["compiles"] + info["disk_loads"]


def weighted(x, y):
    return (x * y).sum() + x[0], ops.concat((x, y)) * 2


def test_dynamic_compiles_one_kernel_for_eleven_lengths():
    compiled = ms.jit(weighted, dynamic=1)
    for n in range(1, 12):
        x = Tensor(np.linspace(-1.0, 2.0, n).astype(np.float32))
        y = Tensor(np.arange(n, dtype=np.float32) + 0.5)
        total, joined = compiled(x, y)
        eager_total, eager_joined = weighted(x, y)
        np.testing.assert_allclose(total.asnumpy(), eager_total.asnumpy(), rtol=1e-6)
        np.testing.assert_array_equal(joined.asnumpy(), eager_joined.asnumpy())
        assert joined.shape == (2 * n,)
    assert built(compiled) == 1


def test_dynamic_keeps_rank_and_dtype_apart():
    compiled = ms.jit(lambda x: x * 2, dynamic=1)
    compiled(Tensor(np.ones(3, np.float32)))
    compiled(Tensor(np.ones(5, np.float32)))
    compiled(Tensor(np.ones((2, 2), np.float32)))
    compiled(Tensor(np.ones(4, np.float64)))
    assert built(compiled) == 3


def test_without_dynamic_each_length_compiles():
    compiled = ms.jit(weighted)
    for n in (2, 3):
        compiled(Tensor(np.ones(n, np.float32)), Tensor(np.ones(n, np.float32)))
    assert built(compiled) == 2


def row_sums(x):
    return x.sum(axis=1) + 1


SIGNATURE = (Tensor(shape=[None, 3], dtype=ms.float32),)
DEPRECATED = ("For 'jit', the parameter 'input_signature' has been deprecated. Please use the parameter 'dynamic' "
              "instead.")


def signed():
    with pytest.warns(FutureWarning, match=DEPRECATED):
        return ms.jit(row_sums, input_signature=SIGNATURE)


def test_input_signature_with_a_dynamic_dim_compiles_once():
    compiled = signed()
    for rows in (1, 2, 7):
        x = Tensor(np.arange(rows * 3, dtype=np.float32).reshape(rows, 3))
        np.testing.assert_array_equal(compiled(x).asnumpy(), row_sums(x).asnumpy())
    assert built(compiled) == 1


@pytest.mark.parametrize("array, error, message", [
    (np.ones((2, 4), np.float32), ValueError,
     "For input_signature and tuple(list) in input_signature, the shape of 1th input must be the same as expected, "
     "but got expected: [-1, 3], and input: [2, 4]!"),
    (np.ones((2, 3), np.float64), TypeError,
     "For input_signature or tuple(list) in input_signature, the 1th type should be Tensor[Float32], "
     "but got Tensor[Float64]!"),
    (np.ones(3, np.float32), ValueError,
     "For input_signature and tuple(list) in input_signature, the dims of 1th input must be the same as expected, "
     "but got expected: 2, and input: 1!"),
])
def test_a_call_that_does_not_match_the_signature_raises(array, error, message):
    compiled = signed()
    with pytest.raises(error) as caught:
        compiled(Tensor(array))
    assert str(caught.value) == message
    assert built(compiled) == 0


def test_a_static_signature_fixes_shape_dtype_and_count():
    with pytest.warns(FutureWarning):
        compiled = ms.jit(row_sums, input_signature=Tensor(np.zeros((2, 3), np.float32)))
    np.testing.assert_array_equal(compiled(Tensor(np.ones((2, 3), np.float32))).asnumpy(), [4.0, 4.0])
    incompatible = "The input args is incompatible with the args in `input_signature`!"
    for args in ((Tensor(np.ones((3, 3), np.float32)),), (Tensor(np.ones((2, 3), np.float32)), 1), (2.0,)):
        with pytest.raises(ValueError) as caught:
            compiled(*args)
        assert str(caught.value) == incompatible


def test_input_signature_must_hold_tensors():
    with pytest.warns(FutureWarning), pytest.raises(TypeError, match="'input_signature' should be a Tensor or a "
                                                                     "tuple of Tensors, but got"):
        ms.jit(row_sums, input_signature=(3,))


def test_set_inputs_checks_a_fixed_dim(monkeypatch):
    class Net(ms.nn.Cell):
        def construct(self, x):
            return x * 2

    monkeypatch.setattr(ms.context, "_context", {**ms.context._context, "mode": ms.GRAPH_MODE})
    net = Net()
    net.set_inputs(Tensor(shape=[None, 3], dtype=ms.float32))
    assert net(Tensor(np.ones((4, 3), np.float32))).shape == (4, 3)
    with pytest.raises(ValueError, match=r"For set_inputs and tuple\(list\) in set_inputs, the shape of 1th input "
                                         r"must be the same as expected, but got expected: \[-1, 3\], and input: "
                                         r"\[4, 2\]!"):
        net(Tensor(np.ones((4, 2), np.float32)))


def test_dynamic_with_a_keyword_tensor():
    def shifted(x, *, shift):
        return x + shift.sum()
    compiled = ms.jit(shifted, dynamic=1)
    for n in (2, 3, 4):
        x = Tensor(np.arange(n, dtype=np.float32))
        shift = Tensor(np.ones(n, np.float32))
        np.testing.assert_array_equal(compiled(x, shift=shift).asnumpy(), shifted(x, shift=shift).asnumpy())


class _LoopOverDynamicDim(nn.Cell):
    def construct(self, x):
        h = x[0] * 0 + 1
        for t in range(x.shape[0]):
            h = h * 0.5 + x[t]
        for t in range(1, len(x)):
            h = h + x[t] * x[t - 1]
        for t in range(x.shape[0] - 1, -1, -1):
            h = h * 0.9 + x[t]
        return h * x.shape[0]


def _loop_reference(x):
    h = np.ones(x.shape[1])
    for t in range(len(x)):
        h = h * 0.5 + x[t]
    for t in range(1, len(x)):
        h = h + x[t] * x[t - 1]
    for t in range(len(x) - 1, -1, -1):
        h = h * 0.9 + x[t]
    return h * len(x)


def test_a_loop_over_a_dynamic_dim_runs_as_often_as_the_dim_is_long():
    # it compiled to an empty loop (x.shape[0] was -1 at compile time): silently wrong results
    net = _LoopOverDynamicDim()
    net.set_inputs(Tensor(shape=[None, 4], dtype=ms.float64))
    compiled = ms.jit(net)
    for n in (1, 3, 6):
        x = np.random.default_rng(n).standard_normal((n, 4))
        np.testing.assert_allclose(compiled(Tensor(x)).asnumpy(), _loop_reference(x), rtol=1e-12)
        np.testing.assert_allclose(net(Tensor(x)).asnumpy(), _loop_reference(x), rtol=1e-12)
    assert compiled.cache_info()["compiles"] == 1
    check_grads(lambda v: net(v).sum(), (np.random.default_rng(0).standard_normal((3, 4)),))


def test_a_dynamic_dim_in_a_shape_argument_is_the_inferred_dim():
    # Dense on 3-D input restores the leading dims with x.shape[:-1]: the dynamic one becomes -1 there
    dense = nn.Dense(4, 3)
    x = Tensor(np.random.default_rng(1).standard_normal((2, 5, 4)).astype(np.float32))
    expected = dense(x).asnumpy()
    dense.set_inputs(Tensor(shape=[None, 5, 4], dtype=ms.float32))
    np.testing.assert_allclose(ms.jit(dense)(x).asnumpy(), expected, rtol=1e-6)


def rows_reshaped(x):
    n = x.shape[0]
    return ops.reshape(x, (n, 3)) * 2 + x.view(n, 3)


def test_a_dynamic_dims_size_in_a_shape_tuple_is_taken_by_the_op():
    """A dynamic dim's size inside a shape tuple is no value a loop would need unrolled (fuzz7: the rule
    that unrolls a loop whose index is in an op's shape briefly refused it too)."""
    compiled = ms.jit(rows_reshaped, dynamic=1)
    for n in (2, 5):
        x = Tensor(np.arange(3 * n, dtype=np.float32).reshape(n, 3))
        np.testing.assert_array_equal(compiled(x).asnumpy(), rows_reshaped(x).asnumpy())
    assert built(compiled) == 1
