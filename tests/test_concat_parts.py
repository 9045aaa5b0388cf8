"""Parts written straight into their concatenation (compiler/concatparts.py): the kernel makes the concatenated
array first and computes each part made only for it into its slot (``out=``), or copies it there once; a part
with another reader, or whose slot would not be a view, is copied whole; values are those of the IR's
reference semantics and of finite differences."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops
from npspore.compiler import concatparts, ir
from npspore.compiler.optimize import optimize
from test_codegen import render_module, run_rendered
from test_differentiate import Prog, rand

T, B, H, D = 64, 16, 4, 32   # T3's attention: a (64, 16, 384) concatenation of the q, k, v gradients
E = H * D


def _attention_like(x):
    q, k, v = ops.split(x, E, -1)
    q = q.reshape((T, B, H, D)).transpose((1, 2, 0, 3))
    k = k.reshape((T, B, H, D)).transpose((1, 2, 0, 3))
    v = v.reshape((T, B, H, D)).transpose((1, 2, 0, 3))
    scores = ops.matmul(q / 1.5, k.transpose((0, 1, 3, 2)) / 1.5)
    out = ops.matmul(ops.softmax(scores, -1), v)
    return (out * out).sum()


def _attention_like_np(x):
    q, k, v = (part.reshape((T, B, H, D)).transpose((1, 2, 0, 3)) for part in np.split(x, 3, -1))
    scores = (q / 1.5) @ (k.transpose((0, 1, 3, 2)) / 1.5)
    e = np.exp(scores - scores.max(-1, keepdims=True))
    out = (e / e.sum(-1, keepdims=True)) @ v
    return (out * out).sum()


def _assert_central_differences(f, x, got, samples=24, eps=1e-4):
    """``got`` (the gradient of ``f`` at ``x``) against central differences at ``samples`` entries, in each third
    of the last axis (the query, key and value parts of attention's)."""
    rng = np.random.default_rng(0)
    thirds = np.array_split(np.arange(x.shape[-1]), 3)
    for k in range(samples):
        index = tuple(int(rng.integers(n)) for n in x.shape[:-1]) + (int(rng.choice(thirds[k % 3])),)
        up, down = x.copy(), x.copy()
        up[index] += eps
        down[index] -= eps
        np.testing.assert_allclose(got[index], (f(up) - f(down)) / (2 * eps), rtol=1e-6, atol=1e-8)


def test_an_attention_like_gradient_computes_its_parts_into_the_concatenation():
    grad = ms.grad(_attention_like)
    inputs = [np.random.default_rng(seed).standard_normal((T, B, 3 * E)) for seed in (0, 1)]
    source = grad.kernel_source(Tensor(inputs[0]))
    assert "np.concatenate" not in source
    assert "np.empty((64, 16, 384), np.float64)" in source
    # the value gradient's product written into its slot; the query and key gradients, divided in place (into a
    # transposed slot NumPy's division is slower than dividing in place and one copy), copied there once
    assert "out=d_v_slot)" in source
    assert "np.copyto(d_q_slot, d_div)" in source and "np.copyto(d_k_slot, d_div_1)" in source
    results = [grad(Tensor(x)).asnumpy() for x in inputs]
    for x, got in zip(inputs, results):   # the first result survives the second call
        _assert_central_differences(_attention_like_np, x, got)


def _concat_of_transposed(a, b):
    joined = ops.concat(((a * 3.0).transpose((1, 0)), b / 3.0), -1)
    return (joined * joined).mean()


def test_the_gradient_through_a_concatenation_of_computed_parts_matches_finite_differences():
    grad = ms.grad(_concat_of_transposed, grad_position=(0, 1))
    a, b = rand(384, 256, seed=1), rand(256, 128, seed=2)   # joined: (256, 512)
    source = grad.kernel_source(Tensor(a), Tensor(b))
    assert "np.concatenate" not in source and "_slot)" in source
    got_a, got_b = (g.asnumpy() for g in grad(Tensor(a), Tensor(b)))

    def loss(a_, b_):
        joined = np.concatenate(((a_ * 3.0).T, b_ / 3.0), -1)
        return (joined * joined).mean()
    _assert_central_differences(lambda v: loss(v, b), a, got_a, samples=6)
    _assert_central_differences(lambda v: loss(a, v), b, got_b, samples=6)


@pytest.fixture
def any_size(monkeypatch):
    """Concatenations of any size rewritten (small ones show each case)."""
    monkeypatch.setattr(concatparts, "MIN_ELEMENTS", 1)


def _written_into_slots(module) -> dict:
    """Op name -> whether its statement writes into a concatenation's slot, for the entry's statements."""
    body = module.functions[module.entry].body.stmts
    slots = {id(s.targets[0]) for s in body if isinstance(s, ir.Apply) and s.op == "concat_slot"}
    return {s.op: s.into is not None and id(s.into) in slots for s in body if isinstance(s, ir.Apply)}


def _same_values(module, optimized, *args):
    """The optimized module gives the original's values: by the IR's semantics and as generated code."""
    expected = ir.evaluate(module, *args)
    for got in (ir.evaluate(optimized, *args), run_rendered(optimized, *args)):
        for want, have in zip(expected, got):
            np.testing.assert_array_equal(have, want)


def test_a_part_with_another_reader_is_copied_and_the_other_computed_in_its_slot(any_size):
    p = Prog(a=(4, 3), b=(3, 5))
    a, b = p.params
    tripled = p.op("mul", a, 3.0)             # a part's value, also a result: never written into the slot
    thirds = p.op("div", b, 3.0)
    joined = p.op("concat", p.op("transpose", tripled, axes=(1, 0)), thirds, axis=-1)
    module = p.module(joined, tripled)
    optimized = optimize(module)
    assert _written_into_slots(optimized) == {"mul": False, "empty": False, "concat_slot": False, "div": True,
                                              "copy_into": True, "concat_written": False}
    source = render_module(optimized)
    assert "np.concatenate" not in source and "np.copyto(" in source and ", 3.0, out=" in source
    _same_values(module, optimized, rand(4, 3, seed=3), rand(3, 5, seed=4))


def test_a_part_whose_slot_would_be_a_copy_is_copied_whole(any_size):
    p = Prog(a=(2, 12), b=(4, 6))
    a, b = p.params
    # the (4, 6) columns of a (4, 12) array seen as (2, 12): a reshape that copies, so the division must not
    # write there; it is copied whole after its reshape (a view of it)
    thirds = p.op("div", a, 3.0)
    joined = p.op("concat", p.op("reshape", thirds, shape=(4, 6)), p.op("mul", b, 3.0), axis=-1)
    module = p.module(joined)
    optimized = optimize(module)
    written = _written_into_slots(optimized)
    assert written["div"] is False and written["mul"] is True
    body = optimized.functions[optimized.entry].body.stmts
    copied = [s.args[1] for s in body if isinstance(s, ir.Apply) and s.op == "copy_into"]
    assert [v.aval.shape for v in copied] == [(4, 6), (4, 6)]
    _same_values(module, optimized, rand(2, 12, seed=5), rand(4, 6, seed=6))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concatenations_along_each_axis_write_their_parts_into_views(axis, any_size):
    # the transposed part's slot is a transposed view, the other's a plain one
    first, second = {0: ((2, 3, 4), (1, 3, 4)), 1: ((2, 3, 4), (2, 5, 4)), -1: ((2, 3, 4), (2, 3, 2))}[axis]
    p = Prog(a=tuple(reversed(first)), b=second)
    a, b = p.params
    part = p.op("transpose", p.op("sub", a, 0.5), axes=(2, 1, 0))
    module = p.module(p.op("concat", part, p.op("maximum", b, 0.0), axis=axis))
    optimized = optimize(module)
    written = _written_into_slots(optimized)
    assert written["sub"] is False and written["maximum"] is True   # into a transposed slot: copied
    _same_values(module, optimized, rand(*reversed(first), seed=7), rand(*second, seed=8))


def test_a_part_computed_by_an_inexact_ufunc_is_copied_whole(any_size):
    p = Prog(a=(2, 3), b=(2, 3))
    a, b = p.params
    # exp is not exactly rounded: NumPy's inner loop for a strided output could round it otherwise
    module = p.module(p.op("concat", p.op("exp", a), p.op("mul", b, 3.0), axis=0))
    optimized = optimize(module)
    written = _written_into_slots(optimized)
    assert written["exp"] is False and written["mul"] is True
    _same_values(module, optimized, rand(2, 3, seed=9), rand(2, 3, seed=10))


def test_a_product_whose_slot_has_no_contiguous_rows_is_copied(any_size):
    p = Prog(a=(3, 4), b=(4, 5), c=(5, 2))
    a, b, c = p.params
    # the transposed product's slot: columns of rows 5 apart, which BLAS cannot write (NumPy's own loop would,
    # rounding otherwise)
    part = p.op("transpose", p.op("matmul", a, b), axes=(1, 0))
    module = p.module(p.op("concat", part, p.op("mul", c, 3.0), axis=-1))
    optimized = optimize(module)
    written = _written_into_slots(optimized)
    assert written["matmul"] is False and written["mul"] is True
    _same_values(module, optimized, rand(3, 4, seed=12), rand(4, 5, seed=13), rand(5, 2, seed=14))


def test_parts_transposed_then_reshaped_are_copied_once(any_size):
    p = Prog(a=(2, 3, 4), b=(2, 3, 4))
    parts = [p.op("reshape", p.op("transpose", p.op("exp", x), axes=(1, 0, 2)), shape=(3, 8)) for x in p.params]
    module = p.module(p.op("concat", *parts, axis=-1))
    optimized = optimize(module)
    # no part computed in its slot, but each copied once (np.concatenate copied the reshapes' copies)
    assert [s.op for s in optimized.functions["f"].body.stmts].count("copy_into") == 2
    assert "np.concatenate" not in render_module(optimized)
    _same_values(module, optimized, rand(2, 3, 4, seed=15), rand(2, 3, 4, seed=16))


def test_the_concatenation_is_returned_without_a_copy_where_a_part_views_a_constant(any_size):
    p = Prog(b=(2, 10))
    (b,) = p.params
    viewed = p.op("reshape", ir.Const(np.arange(20.0).reshape(4, 5)), shape=(2, 10))   # a view of _c0
    module = p.module(p.op("concat", viewed, p.op("mul", b, 3.0), axis=0))
    optimized = optimize(module)
    source = render_module(optimized)
    assert "np.copyto(" in source and ".copy()" not in source   # the array it returns is the one it made
    _same_values(module, optimized, rand(2, 10, seed=17))
    results = [run_rendered(optimized, rand(2, 10, seed=seed))[0] for seed in (18, 19)]
    results[0][:] = -1.0                     # the caller writing into a result changes no later call's
    np.testing.assert_array_equal(run_rendered(optimized, rand(2, 10, seed=19))[0], results[1])


def test_a_part_computed_with_a_cast_is_computed_as_before_and_copied(any_size):
    p = Prog(a=((2, 3), np.dtype(np.int32)), b=((2, 3), np.dtype(np.float32)))
    a, b = p.params
    module = p.module(p.op("concat", p.op("mul", a, 2.5), p.op("mul", b, 3.0), axis=0))   # int32 * 2.5: float32
    optimized = optimize(module)
    source = render_module(optimized)
    assert ".astype(np.float32) * 2.5" in source and "np.copyto(" in source and "np.multiply(b, 3.0, out=" in source
    _same_values(module, optimized, np.arange(6, dtype=np.int32).reshape(2, 3), rand(2, 3, seed=11).astype(np.float32))


class _WithLoss(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(64, 2, dim_feedforward=128, dropout=0.0)
        self.loss = nn.MSELoss()

    def construct(self, x, y):
        return self.loss(self.layer(x), y)


def test_the_attention_backward_kernel_writes_q_k_v_gradients_into_one_array():
    ms.set_seed(0)
    net = _WithLoss()
    step = ms.jit(nn.TrainOneStepCell(net, nn.SGD(net.trainable_params(), 0.1)))
    rng = np.random.default_rng(0)
    for shape, rewritten in (((32, 32, 64), True), ((6, 2, 64), False)):   # (32, 32, 192); (6, 2, 192): too small
        x, y = (Tensor(rng.standard_normal(shape).astype(np.float32)) for _ in range(2))
        source = step.kernel_source(x, y)
        assert ("np.concatenate" not in source) is rewritten
        assert all((f"d_{name}_slot = " in source) is rewritten for name in "qkv")
    assert "np.empty((32, 32, 192), np.float32)" in step.kernel_source(*(Tensor(np.zeros((32, 32, 64), np.float32))
                                                                          for _ in range(2)))
