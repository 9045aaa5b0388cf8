"""``ops.flash_attention_score`` (issue 26, data-nn-fn): MindSpore 2.10 has no CPU kernel for it, so its docstring's
shape and its documented formula (a float64 NumPy reference) give the values; layouts, sparse modes, grouped
key/value heads, ``real_shift`` and ``attn_mask``; compiled equals eager; the gradient matches float64 central
differences of the reference (to float16 precision)."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, ops

B, N, S1, S2, D = 2, 4, 3, 5, 8


def _reference(q, k, v, scale, discard=None, shift=None):
    """softmax(scale q k^T + shift, discarded -> -inf) v over (B, N, S, D) float64 arrays (k, v heads repeated)."""
    repeat = q.shape[1] // k.shape[1]
    k, v = np.repeat(k, repeat, axis=1), np.repeat(v, repeat, axis=1)
    scores = q @ k.transpose(0, 1, 3, 2) * scale + (0 if shift is None else shift)
    if discard is not None:
        scores = np.where(discard, -1e30, scores)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    return weights / weights.sum(-1, keepdims=True) @ v


def _inputs(kv_heads=N, seed=0):
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((B, N, S1, D)).astype(np.float16)
    k, v = (rng.standard_normal((B, kv_heads, S2, D)).astype(np.float16) for _ in range(2))
    return q, k, v


def _layout(x, layout):
    if layout == "BNSD":
        return x
    if layout == "BSND":
        return x.transpose(0, 2, 1, 3)
    bsh = x.transpose(0, 2, 1, 3).reshape(x.shape[0], x.shape[2], -1)
    return bsh.transpose(1, 0, 2) if layout == "SBH" else bsh


def test_docstring_example_shape():
    query = Tensor(np.ones([2, 4, 64]), ms.float16)
    assert ops.flash_attention_score(query, query, query, 4).shape == (2, 4, 64)


@pytest.mark.parametrize("layout", ["BSH", "BNSD", "SBH", "BSND"])
@pytest.mark.parametrize("kv_heads", [N, 2])
def test_layouts_and_grouped_heads_follow_the_formula(layout, kv_heads):
    q, k, v = _inputs(kv_heads)
    out = ops.flash_attention_score(*(Tensor(_layout(x, layout)) for x in (q, k, v)), N, scalar_value=0.35,
                                    input_layout=layout)
    want = _reference(*(x.astype(np.float64) for x in (q, k, v)), 0.35)
    assert out.dtype == ms.float16 and out.shape == _layout(q, layout).shape
    np.testing.assert_allclose(out.asnumpy().astype(np.float64), _layout(want, layout), atol=2e-3, rtol=2e-3)


def _band(below, above):
    rows, cols = np.arange(S1)[:, None], np.arange(S2)[None, :]
    return ~((cols - rows >= -below) & (cols - rows <= above))


@pytest.mark.parametrize("arguments, discard", [
    ({"sparse_mode": 2}, _band(10 ** 9, 0)), ({"sparse_mode": 3}, _band(10 ** 9, S2 - S1)),
    ({"sparse_mode": 4, "pre_tokens": 1, "next_tokens": 1}, _band(1, 1)),
    ({"attn_mask": np.eye(S1, S2, 1, dtype=np.uint8)}, np.eye(S1, S2, 1, dtype=bool)),
    ({"attn_mask": np.eye(S1, S2, 1, dtype=bool), "pre_tokens": 0, "next_tokens": 2},
     np.eye(S1, S2, 1, dtype=bool) | _band(0, 2)),
    ({"attn_mask": np.eye(S1, S2, 1, dtype=bool), "sparse_mode": 1, "pre_tokens": 0}, np.eye(S1, S2, 1, dtype=bool)),
])
def test_masks_follow_the_sparse_modes(arguments, discard):
    q, k, v = _inputs()
    arguments = {name: Tensor(value) if isinstance(value, np.ndarray) else value for name, value in arguments.items()}
    out = ops.flash_attention_score(Tensor(q), Tensor(k), Tensor(v), N, input_layout="BNSD", **arguments)
    want = _reference(*(x.astype(np.float64) for x in (q, k, v)), 1.0, discard)
    np.testing.assert_allclose(out.asnumpy().astype(np.float64), want, atol=3e-3, rtol=3e-3)


def test_real_shift_compiled_and_gradient():
    q, k, v = _inputs(seed=1)
    shift = np.random.default_rng(2).standard_normal((1, N, S1, S2)).astype(np.float16)
    weights = np.random.default_rng(3).standard_normal(q.shape)

    def loss(query):
        out = ops.flash_attention_score(query, Tensor(k), Tensor(v), N, real_shift=Tensor(shift),
                                        scalar_value=0.5, input_layout="BNSD", sparse_mode=3)
        return (out.astype(ms.float32) * Tensor(weights, ms.float32)).sum()

    eager = loss(Tensor(q))
    # float16 inputs computed in float32: the kernel's order of operations may move the last bit (NumPy 1.26)
    np.testing.assert_allclose(ms.jit(loss)(Tensor(q)).asnumpy(), eager.asnumpy(), rtol=1e-5)
    reference = lambda x: (_reference(x, k.astype(np.float64), v.astype(np.float64), 0.5, _band(10 ** 9, S2 - S1),
                                      shift.astype(np.float64)) * weights).sum()  # noqa: E731
    np.testing.assert_allclose(eager.asnumpy(), reference(q.astype(np.float64)), atol=1e-2)
    grad = ms.grad(loss)(Tensor(q)).asnumpy().astype(np.float64)
    eps, x = 1e-6, q.astype(np.float64)
    central = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[index] = eps
        central[index] = (reference(x + step) - reference(x - step)) / (2 * eps)
    np.testing.assert_allclose(grad, central, atol=2e-2, rtol=2e-2)


def test_bad_arguments_get_clear_errors():
    q, k, v = (Tensor(x) for x in _inputs())
    with pytest.raises(TypeError, match="float16 or bfloat16"):
        ops.flash_attention_score(q.astype(ms.float32), k, v, N, input_layout="BNSD")
    with pytest.raises(ValueError, match="'input_layout' must be one of"):
        ops.flash_attention_score(q, k, v, N, input_layout="NSD")
    with pytest.raises(ValueError, match="keep_prob < 1 \\(dropout\\) is not implemented in npspore"):
        ops.flash_attention_score(q, k, v, N, input_layout="BNSD", keep_prob=0.9)
    with pytest.raises(ValueError, match="sparse_mode=5 is not implemented in npspore"):
        ops.flash_attention_score(q, k, v, N, input_layout="BNSD", sparse_mode=5)
    with pytest.raises(ValueError, match="'head_num' \\(3\\) must be"):
        ops.flash_attention_score(q, k, v, 3, input_layout="BNSD")
