"""The random primitives of MindSpore 2.10 driven by a (seed, offset) state or seed/seed2 (random2): shapes,
dtypes and errors recorded from MindSpore 2.10 CPU by tools/observe_mindspore_random2.py (RandExt, Randn, RandInt,
RandIntLike, RandLikeExt, RandnLike: MindSpore's shape inference, their values need the InplaceUniform kernel its
CPU lacks; where it has no kernel at all — RandpermExt, Normal*, UniformExt, BernoulliExt, MultinomialExt,
Inplace*, DropoutExt, Gamma, Poisson — from the docstrings), determinism in the seed/offset, and the moments of
10**5 draws at fixed seeds."""
import numpy as np
import pytest

import npspore as ms
from npspore.compiler.errors import NotSupportedError
from npspore.ops import operations as P
from npspore.ops.auto_generate import gen_ops_prim as G

SEED, OFFSET = ms.Tensor(1, ms.int64), ms.Tensor(0, ms.int64)
N = 100_000


def _tensor(values, dtype=np.float32):
    return ms.Tensor(np.asarray(values, dtype))


# (label, call, shape, dtype) from tools/observe_mindspore_random2.py on MindSpore 2.10 CPU
RECORDED = [
    ("RandExt", lambda: G.RandExt()((2, 3), SEED, OFFSET), (2, 3), ms.float32),
    ("RandExt f64", lambda: G.RandExt()((2, 3), SEED, OFFSET, ms.float64), (2, 3), ms.float64),
    ("Randn", lambda: G.Randn()((2, 3), SEED, OFFSET), (2, 3), ms.float32),
    ("RandInt", lambda: G.RandInt()(0, 10, (4,), SEED, OFFSET), (4,), ms.int64),
    ("RandIntLike", lambda: G.RandIntLike()(_tensor(np.zeros(3)), 0, 5, SEED, OFFSET), (3,), ms.float32),
    ("RandLikeExt", lambda: G.RandLikeExt()(_tensor(np.zeros((2, 2)), np.float16), SEED, OFFSET), (2, 2),
     ms.float16),
    ("RandnLike", lambda: G.RandnLike()(_tensor(np.zeros((2, 2))), SEED, OFFSET), (2, 2), ms.float32),
    ("RandomGamma", lambda: P.RandomGamma(1, 2)(ms.Tensor([3, 2], ms.int32), _tensor([1.0, 2.0])), (3, 2, 2),
     ms.float32),
    ("RandomPoisson", lambda: P.RandomPoisson(1, 2)(ms.Tensor([2, 3], ms.int32), _tensor([1.0])), (2, 3, 1),
     ms.int64),
    ("RandomPoisson f32", lambda: P.RandomPoisson(1, 2, ms.float32)(ms.Tensor([2], ms.int32), _tensor([1.0, 2.0])),
     (2, 2), ms.float32),
    ("Cauchy", lambda: P.Cauchy([2, 3])(), (2, 3), ms.float32),
    ("NonDeterministicInts", lambda: P.NonDeterministicInts()(ms.Tensor([2, 2], ms.int32)), (2, 2), ms.int64),
    ("MultinomialWithReplacement", lambda: P.MultinomialWithReplacement(3, True)(_tensor([[1.0, 2.0, 3.0]]),
                                                                                 SEED, OFFSET), (1, 3), ms.int64),
    ("ParameterizedTruncatedNormal", lambda: P.ParameterizedTruncatedNormal(1, 2)(
        ms.Tensor([2, 3], ms.int64), _tensor([0.0, 1.0]), _tensor([1.0, 2.0]), _tensor([-1.0, 0.0]),
        _tensor([1.0, 5.0])), (2, 3), ms.float32),
    ("ParameterizedTruncatedNormal f64 scalars", lambda: P.ParameterizedTruncatedNormal()(
        ms.Tensor([2, 3], ms.int32), *(ms.Tensor(v, ms.float64) for v in (0.0, 1.0, -2.0, 2.0))), (2, 3),
     ms.float64),
    # documented (no MindSpore 2.10 CPU kernel)
    ("RandpermExt", lambda: G.RandpermExt()(5, SEED, OFFSET), (5,), ms.int64),
    ("NormalFloatFloat", lambda: G.NormalFloatFloat()(0.0, 1.0, (3,), SEED, OFFSET), (3,), ms.float32),
    ("NormalTensorTensor", lambda: G.NormalTensorTensor()(_tensor(np.zeros((2, 1))), _tensor(np.ones(3)), SEED,
                                                          OFFSET), (2, 3), ms.float32),
    ("NormalTensorFloat", lambda: G.NormalTensorFloat()(_tensor(np.zeros(4), np.float64), 1.0, SEED, OFFSET),
     (4,), ms.float64),
    ("NormalFloatTensor", lambda: G.NormalFloatTensor()(0.0, _tensor(np.ones(2)), SEED, OFFSET), (2,), ms.float32),
    ("UniformExt", lambda: G.UniformExt()(_tensor(np.zeros(3)), 0.0, 1.0, SEED, OFFSET), (3,), ms.float32),
    ("BernoulliExt", lambda: G.bernoulli_ext_op(_tensor(np.full(3, 0.5)), SEED, OFFSET), (3,), ms.float32),
    ("MultinomialExt", lambda: G.multinomial_ext_op(_tensor(np.ones((2, 3))), 2, True, SEED, OFFSET), (2, 2),
     ms.int64),
    ("InplaceExponential", lambda: G.InplaceExponential()(_tensor(np.zeros(3)), 1.0, SEED, OFFSET), (3,),
     ms.float32),
    ("Gamma", lambda: P.Gamma(1, 2)((3, 2), _tensor([1.0, 2.0]), _tensor([1.0])), (3, 2), ms.float32),
    ("Poisson", lambda: P.Poisson(1, 2)((4, 2), _tensor([1.0, 5.0])), (4, 2), ms.int32),
]


@pytest.mark.parametrize("label, call, shape, dtype", RECORDED, ids=[row[0] for row in RECORDED])
def test_shape_and_dtype_as_mindspore(label, call, shape, dtype):
    out = call()
    assert (out.shape, out.dtype) == (shape, dtype), label


# MindSpore 2.10's messages (tools/observe_mindspore_random2.py)
ERRORS = [
    (lambda: P.RandomPoisson(dtype=ms.int8), TypeError,
     "For 'RandomPoisson', the 'dtype' should be one of [mindspore.int64, mindspore.int32, mindspore.float16, "
     "mindspore.float32, mindspore.float64], but got 'mindspore.int8'."),
    (lambda: P.Cauchy((2, 3)), TypeError, "For 'Cauchy', the type of 'size' should be 'list', but got type 'tuple'."),
    (lambda: P.Cauchy([0]), ValueError, "For 'Cauchy', the 'size[0]' must be int and must > 0, but got '0' with type "
                                        "'int'."),
    (lambda: P.NonDeterministicInts(ms.float32), TypeError,
     "For 'NonDeterministicInts', the 'dtype' should be one of [mindspore.int32, mindspore.int64, mindspore.uint32, "
     "mindspore.uint64], but got 'mindspore.float32'."),
    (lambda: P.RandomGamma(-1), ValueError, "For 'RandomGamma', the 'seed' must be int and must >= 0, but got '-1' "
                                            "with type 'int'."),
]


@pytest.mark.parametrize("call, error, message", ERRORS)
def test_errors_as_mindspore(call, error, message):
    with pytest.raises(error) as raised:
        call()
    assert str(raised.value) == message


@pytest.mark.parametrize("call, error, fragment", [
    (lambda: G.RandInt()(5, 5, (2,), SEED, OFFSET), ValueError, "'low' must be less than 'high'"),
    (lambda: G.RandExt()((2,), SEED, OFFSET, ms.int32), TypeError, "'dtype' must be a floating type"),
    (lambda: G.RandExt()((2,), 1.5, OFFSET), TypeError, "'seed' must be an int"),
    (lambda: G.RandpermExt()(-1, SEED, OFFSET), ValueError, "'n' must be non-negative"),
    (lambda: G.NormalFloatFloat()(0.0, -1.0, (2,), SEED, OFFSET), ValueError, "'std' must be non-negative"),
    (lambda: G.UniformExt()(_tensor([0.0]), 2.0, 1.0, SEED, OFFSET), ValueError, "'from' must be less than"),
    (lambda: G.BernoulliExt()(_tensor([1.5]), SEED, OFFSET), ValueError, "must be in [0, 1]"),
    (lambda: G.MultinomialExt()(_tensor([1.0, 1.0]), 3, False, SEED, OFFSET), ValueError, "must not exceed"),
    (lambda: G.InplaceExponential()(_tensor([0.0]), 0.0, SEED, OFFSET), ValueError, "'lambd' must be positive"),
    (lambda: G.RandLikeExt()([1.0], SEED, OFFSET), TypeError, "'tensor' must be a Tensor"),
])
def test_bad_arguments_name_the_argument(call, error, fragment):
    with pytest.raises(error) as raised:
        call()
    assert fragment in str(raised.value)


def test_same_seed_and_offset_draw_the_same_numbers_and_others_differ():
    draw = G.Randn()
    first, again = draw((1000,), SEED, OFFSET).asnumpy(), draw((1000,), 1, 0).asnumpy()
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, draw((1000,), 2, 0).asnumpy())
    assert not np.array_equal(first, draw((1000,), 1, 1).asnumpy())
    np.testing.assert_array_equal(P.RandomGamma(3, 4)((50,), _tensor([2.0])).asnumpy(),
                                  P.RandomGamma(3, 4)((50,), _tensor([2.0])).asnumpy())


def test_seeded_sampler_advances_between_calls():
    sampler = P.Poisson(5, 6)
    assert not np.array_equal(sampler((200,), _tensor(3.0)).asnumpy(), sampler((200,), _tensor(3.0)).asnumpy())


def test_inplace_primitives_fill_their_input():
    target = _tensor(np.zeros(N))
    out = G.inplace_normal_op(target, 2.0, 0.5, SEED, OFFSET)
    assert out is target
    assert abs(target.asnumpy().mean() - 2.0) < 0.01 and abs(target.asnumpy().std() - 0.5) < 0.01
    G.inplace_uniform_op(target, -1.0, 3.0, SEED, OFFSET)
    values = target.asnumpy()
    assert values.min() >= -1.0 and values.max() < 3.0 and abs(values.mean() - 1.0) < 0.02
    integers = G.InplaceRandom()(ms.Tensor(np.zeros(N, np.int8)), 0, None, SEED, OFFSET).asnumpy()
    assert integers.min() == 0 and integers.max() == 127


# (label, call, mean, variance) at fixed seeds: each mean within 5 standard errors (a fixed draw cannot flake)
MOMENTS = [
    ("RandExt", lambda: G.RandExt()((N,), 7, 0, ms.float64), 0.5, 1 / 12),
    ("Randn", lambda: G.Randn()((N,), 7, 0, ms.float64), 0.0, 1.0),
    ("RandInt", lambda: G.randint_op(-3, 7, (N,), 7, 0), 1.5, (10 ** 2 - 1) / 12),
    ("NormalFloatFloat", lambda: G.NormalFloatFloat()(3.0, 2.0, (N,), 7, 0), 3.0, 4.0),
    ("BernoulliExt", lambda: G.BernoulliExt()(_tensor(np.full(N, 0.3)), 7, 0), 0.3, 0.21),
    ("InplaceExponential", lambda: G.InplaceExponential()(_tensor(np.zeros(N)), 4.0, 7, 0), 0.25, 1 / 16),
    ("RandomGamma", lambda: P.RandomGamma(7, 1)((N,), _tensor([3.0])), 3.0, 3.0),
    ("Gamma", lambda: P.Gamma(7, 1)((N,), _tensor([3.0]), _tensor([2.0])), 1.5, 0.75),
    ("Poisson", lambda: P.Poisson(7, 1)((N,), _tensor(4.0)), 4.0, 4.0),
    ("RandomPoisson", lambda: P.RandomPoisson(7, 1)((N,), _tensor([2.5])), 2.5, 2.5),
    ("MultinomialExt", lambda: G.MultinomialExt()(_tensor([1.0, 1.0, 2.0]), N, True, 7, 0), 1.25, 0.6875),
]


@pytest.mark.parametrize("label, call, mean, variance", MOMENTS, ids=[row[0] for row in MOMENTS])
def test_moments_of_a_fixed_draw(label, call, mean, variance):
    draws = call().asnumpy().astype(np.float64).reshape(-1)
    assert abs(draws.mean() - mean) < 5 * np.sqrt(variance / draws.size), label
    assert abs(draws.var() / variance - 1) < 0.05, label


def test_permutations_and_sampling_without_replacement_are_distinct():
    assert sorted(G.RandpermExt()(50, 3, 0).asnumpy().tolist()) == list(range(50))
    picks = P.MultinomialWithReplacement(4, False)(_tensor([[1.0, 1.0, 1.0, 1.0]]), 3, 0).asnumpy()
    assert sorted(picks[0].tolist()) == [0, 1, 2, 3]


def test_cauchy_median_from_set_seed():
    ms.set_seed(5)
    draws = P.Cauchy([N], median=2.0, sigma=3.0)().asnumpy()
    assert abs(np.median(draws) - 2.0) < 0.05
    assert abs(np.median(np.abs(draws - 2.0)) - 3.0) < 0.1


def test_parameterized_truncated_normal_moments_per_batch():
    draws = P.ParameterizedTruncatedNormal(7, 1)(ms.Tensor([2, N], ms.int64), _tensor([0.0, 1.0]), _tensor([1.0, 2.0]),
                                                _tensor([-1.0, 0.0]), _tensor([1.0, 5.0])).asnumpy()
    assert draws[0].min() >= -1.0 and draws[0].max() <= 1.0 and draws[1].min() >= 0.0 and draws[1].max() <= 5.0
    # N(0, 1) on [-1, 1]: mean 0, variance 1 - 2 phi(1) / (Phi(1) - Phi(-1)) = 0.291125
    assert abs(draws[0].mean()) < 5 * np.sqrt(0.291125 / N) and abs(draws[0].var() / 0.291125 - 1) < 0.05


@pytest.mark.parametrize("call, fragment", [
    (lambda: P.ParameterizedTruncatedNormal()(ms.Tensor([3], ms.int32), *([_tensor(0.0)] * 4)), "at least 2"),
    (lambda: P.ParameterizedTruncatedNormal()(ms.Tensor([2, 3], ms.int32), _tensor([0.0, 0.0, 0.0]), _tensor(1.0),
                                              _tensor(-1.0), _tensor(1.0)), "shape of 'mean'"),
    (lambda: P.ParameterizedTruncatedNormal()(ms.Tensor([2, 3], ms.int32), _tensor(0.0), _tensor(0.0),
                                              _tensor(-1.0), _tensor(1.0)), "'stdevs' elements must be positive"),
    (lambda: P.ParameterizedTruncatedNormal()(ms.Tensor([2, 3], ms.int32), _tensor(0.0), _tensor(1.0),
                                              _tensor(1.0), _tensor(1.0)), "'min' must be less than its 'max'"),
    (lambda: G.dropout_ext_op(_tensor([1.0]), 1.5, SEED, OFFSET), "'p' must be in [0, 1]"),
])
def test_parameterized_truncated_normal_and_dropout_checks(call, fragment):
    with pytest.raises(ValueError) as raised:
        call()
    assert fragment in str(raised.value)


def test_dropout_ext_scales_kept_elements_and_packs_the_mask():
    output, mask = G.DropoutExt()(_tensor(np.full((3, 100), 2.0)), 0.25, SEED, OFFSET)
    kept = output.asnumpy() != 0
    np.testing.assert_allclose(output.asnumpy()[kept], 2.0 / 0.75)
    # 300 elements: 3 blocks of 128 elements, 16 bytes each, bit i of byte i // 8 (least significant first)
    assert (mask.shape, mask.dtype) == ((48,), ms.uint8)
    bits = np.unpackbits(mask.asnumpy(), bitorder="little")
    np.testing.assert_array_equal(bits[:300].astype(bool), kept.reshape(-1))
    assert not bits[300:].any()
    fraction = G.DropoutExt()(_tensor(np.ones(N)), 0.25, 7, 0)[0].asnumpy().astype(bool).mean()
    assert abs(fraction - 0.75) < 5 * np.sqrt(0.1875 / N)



def test_compiling_a_call_raises_a_clear_error_not_a_folded_draw():
    """The (seed, offset) primitives run eagerly only: compiled code must refuse them, never fold one draw."""
    draw = G.Randn()

    @ms.jit
    def shifted(x, seed, offset):
        return x + draw((3,), seed, offset)

    with pytest.raises(NotSupportedError, match="in compiled code"):
        shifted(_tensor(np.ones(3)), SEED, OFFSET)


@pytest.mark.parametrize("make, call", [
    (lambda: P.RandomGamma(seed=3, seed2=4), lambda sample, x: sample(ms.Tensor(np.array([2], np.int32)), x)),
    (lambda: P.Cauchy([2]), lambda sample, x: sample() + x),
])
def test_compiled_stateful_samplers_are_refused_not_folded(make, call):
    """A stateful sampler folded into a kernel at compile time would repeat one draw on every call."""
    sample = make()

    @ms.jit
    def draw(x):
        return call(sample, x)

    with pytest.raises(NotSupportedError, match="in compiled code"):
        draw(_tensor(np.ones(2)))
