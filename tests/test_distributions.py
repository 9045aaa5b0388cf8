"""``nn.probability.distribution.Normal`` and ``Uniform`` against MindSpore 2.10 CPU: ``RECORDED`` holds what
MindSpore 2.10 gives for the calls of the ``mindspore.nn.probability.distribution.Normal`` page's example (and the
same for ``Uniform``), printed by it (values to float32's precision: MindSpore's CPU ``exp`` and ``log`` are a few
ulps off the correctly rounded ones); the distributions' functions work compiled and their gradients match
central differences."""
import math

import numpy as np
import pytest

import npspore as ms
import npspore.nn.probability.distribution as msd
from compiled_vjp import Program, check_second_order
from npspore import Tensor, nn

inf = math.inf
RECORDED = {
    'n1.prob(value)': ([0.08801611512899399, 0.09666691720485687, 0.09973548352718353], 'Float32'),
    'n1.prob(value, mean_b, sd_b)': ([0.39894214272499084, 0.21296526491641998, 0.12098528444766998], 'Float32'),
    'n1.log_prob(value)': ([-2.4302330017089844, -2.3364830017089844, -2.3052330017089844], 'Float32'),
    'n1.log_prob(value, mean_b, sd_b)': ([-0.9189385175704956, -1.5466258525848389, -2.1120858192443848], 'Float32'),
    'n1.cdf(value)': ([0.3085375428199768, 0.40129369497299194, 0.5], 'Float32'),
    'n1.cdf(value, mean_b, sd_b)': ([0.5, 0.7475074529647827, 0.8413447141647339], 'Float32'),
    'n1.log_cdf(value)': ([-1.175911784172058, -0.9130617380142212, -0.6931471824645996], 'Float32'),
    'n1.log_cdf(value, mean_b, sd_b)': ([-0.6931471824645996, -0.2910110056400299, -0.17275381088256836], 'Float32'),
    'n1.survival_function(value)': ([0.6914624571800232, 0.5987063050270081, 0.5], 'Float32'),
    'n1.survival_function(value, mean_b, sd_b)': ([0.5, 0.2524925470352173, 0.1586552858352661], 'Float32'),
    'n1.log_survival(value)': ([-0.3689464330673218, -0.5129840970039368, -0.6931471824645996], 'Float32'),
    'n1.log_survival(value, mean_b, sd_b)': ([-0.6931471824645996, -1.376373529434204, -1.8410214185714722], 'Float32'),
    'n2.prob(value, mean_a, sd_a)': ([0.17603227496147156, 0.19947102665901184, 0.17603227496147156], 'Float32'),
    'n1.mean()': (3.0, 'Float32'),
    'n1.mean(mean_b, sd_b)': ([1.0, 1.0, 1.0], 'Float32'),
    'n1.mode()': (3.0, 'Float32'),
    'n1.mode(mean_b, sd_b)': ([1.0, 1.0, 1.0], 'Float32'),
    'n1.sd()': (4.0, 'Float32'),
    'n1.sd(mean_b, sd_b)': ([1.0, 1.5, 2.0], 'Float32'),
    'n1.var()': (16.0, 'Float32'),
    'n1.var(mean_b, sd_b)': ([1.0, 2.25, 4.0], 'Float32'),
    'n1.entropy()': (2.8052330017089844, 'Float32'),
    'n1.entropy(mean_b, sd_b)': ([1.4189385175704956, 1.8244036436080933, 2.1120858192443848], 'Float32'),
    "n1.kl_loss('Normal', mean_b, sd_b)": ([8.1137056350708, 2.9636149406433105, 1.3068528175354004], 'Float32'),
    "n1.kl_loss('Normal', mean_b, sd_b, mean_a, sd_a)": ([1.3068528175354004, 0.32342907786369324, 0.125], 'Float32'),
    "n1.cross_entropy('Normal', mean_b, sd_b)": ([10.918938636779785, 5.768847942352295, 4.112085819244385], 'Float32'),
    'n1.sample((2, 3)).shape': (2, 3),
    'n1.sample((2,), mean_b, sd_b).shape': (2, 3),
    'n2.prob(value)': ('TypeError',
                       'the type mean must be subclass of Tensor. It can not be None since it is not specified during '
                       'initialization.'),
    'msd.Normal(3.0, -1.0)': ('ValueError', 'Standard deviation must be greater than zero.'),
    "n1.kl_loss('Uniform', mean_b, sd_b)": ('ValueError', 'Expected dist input is Normal, but got Uniform.'),
    'str(n1)': 'Normal(mean = 3.0, standard deviation = 4.0)',
    'u1.prob(value)': ([1.0, 1.0], 'Float32'),
    'u1.prob(value, low_b, high_b)': ([0.24999991059303284, 0.15384605526924133], 'Float32'),
    'u1.log_prob(value)': ([0.0, 0.0], 'Float32'),
    'u1.log_prob(value, low_b, high_b)': ([-1.3862947225570679, -1.871802806854248], 'Float32'),
    'u1.cdf(value)': ([0.5, 0.800000011920929], 'Float32'),
    'u1.cdf(value, low_b, high_b)': ([0.5, 0.35384613275527954], 'Float32'),
    'u1.log_cdf(value)': ([-0.6931471824645996, -0.2231435328722], 'Float32'),
    'u1.log_cdf(value, low_b, high_b)': ([-0.6931471824645996, -1.0388931035995483], 'Float32'),
    'u1.survival_function(value)': ([0.5, 0.19999998807907104], 'Float32'),
    'u1.survival_function(value, low_b, high_b)': ([0.5, 0.6461538672447205], 'Float32'),
    'u1.log_survival(value)': ([-0.6931471824645996, -1.6094379425048828], 'Float32'),
    'u1.log_survival(value, low_b, high_b)': ([-0.6931471824645996, -0.4367176294326782], 'Float32'),
    'u1.prob(Tensor([-0.5, 1.5], ms.float32))': ([0.0, 0.0], 'Float32'),
    'u1.cdf(Tensor([-0.5, 1.5], ms.float32))': ([0.0, 1.0], 'Float32'),
    'u1.mean()': (0.5, 'Float32'),
    'u1.mean(low_b, high_b)': ([0.5, 1.75], 'Float32'),
    'u1.sd()': (0.28867512941360474, 'Float32'),
    'u1.sd(low_b, high_b)': ([1.154700517654419, 1.8763883113861084], 'Float32'),
    'u1.var()': (0.0833333358168602, 'Float32'),
    'u1.var(low_b, high_b)': ([1.3333333730697632, 3.5208332538604736], 'Float32'),
    'u1.entropy()': (0.0, 'Float32'),
    'u1.entropy(low_b, high_b)': ([1.3862943649291992, 1.8718022108078003], 'Float32'),
    'u1.mode()': ('NotImplementedError', 'mode is not implemented for Uniform distribution.'),
    'u1.mode(low_b, high_b)': ('NotImplementedError', 'mode is not implemented for Uniform distribution.'),
    "u1.kl_loss('Uniform', low_b, high_b)": ([1.3862943649291992, 1.8718022108078003], 'Float32'),
    "u1.kl_loss('Uniform', low_b, high_b, low_a, high_a)": ([0.6931471824645996, 1.1786550283432007], 'Float32'),
    "u1.kl_loss('Uniform', Tensor([0.5], ms.float32), high_b)": ([inf, inf], 'Float32'),
    "u1.cross_entropy('Uniform', low_b, high_b)": ([1.3862943649291992, 1.8718022108078003], 'Float32'),
    'u1.sample((2, 3)).shape': (2, 3),
    'msd.Uniform(1.0, 0.0)': ('ValueError', 'low must be less than high'),
    'str(u1)': 'Uniform(low = 0.0, high = 1.0)',
}


def _namespace(call):
    names = {"ms": ms, "msd": msd, "Tensor": Tensor}
    names.update(value=Tensor([1.0, 2.0, 3.0], dtype=ms.float32), mean_a=Tensor([2.0], dtype=ms.float32),
                 sd_a=Tensor([2.0, 2.0, 2.0], dtype=ms.float32), mean_b=Tensor([1.0], dtype=ms.float32),
                 sd_b=Tensor([1.0, 1.5, 2.0], dtype=ms.float32), low_a=Tensor([0.0], ms.float32),
                 high_a=Tensor([2.0], ms.float32), low_b=Tensor([-1.5], ms.float32),
                 high_b=Tensor([2.5, 5.0], ms.float32))
    names.update(n1=msd.Normal(3.0, 4.0, dtype=ms.float32), n2=msd.Normal(dtype=ms.float32),
                 u1=msd.Uniform(0.0, 1.0, dtype=ms.float32))
    if call.startswith("u1."):
        names["value"] = Tensor([0.5, 0.8], dtype=ms.float32)
    return names


@pytest.mark.parametrize("call", sorted(RECORDED))
def test_values_and_errors_are_mindspores(call):
    names = _namespace(call)
    want = RECORDED[call]
    if isinstance(want, tuple) and isinstance(want[0], str) and want[0].endswith("Error"):
        with pytest.raises(Exception) as raised:
            eval(call, names)
        assert (type(raised.value).__name__, str(raised.value)) == want
        return
    got = eval(call, names)
    if isinstance(want, str) or all(isinstance(v, int) for v in want):  # a printed form or a shape
        assert got == want
        return
    np.testing.assert_allclose(got.asnumpy(), np.array(want[0]), rtol=5e-6)
    assert str(got.dtype) == want[1]


def test_samples_and_compiled_calls():
    draws = msd.Normal(Tensor([0.0, 10.0]), Tensor([1.0, 0.001])).sample((4000,))
    assert draws.shape == (4000, 2)
    np.testing.assert_allclose(draws.asnumpy().mean(0), [0.0, 10.0], atol=0.1)
    draws = msd.Uniform(-1.0, 3.0).sample((1000,)).asnumpy()
    assert draws.min() >= -1.0 and draws.max() < 3.0

    class LogLikelihood(nn.Cell):
        def __init__(self):
            super().__init__()
            self.normal = msd.Normal(3.0, 4.0)

        def construct(self, x, mean, sd):
            return self.normal.log_prob(x, mean, sd).sum() + self.normal.cdf(x).sum()

    net = LogLikelihood()
    args = (Tensor([1.0, 2.0, 3.0]), Tensor([1.0]), Tensor([1.0, 1.5, 2.0]))
    np.testing.assert_allclose(ms.jit(net)(*args).asnumpy(), net(*args).asnumpy(), rtol=1e-6)


@pytest.mark.parametrize("function", ["log_prob", "cdf", "entropy", "kl_loss"])
def test_normal_gradients_to_second_order(function):
    normal = msd.Normal(dtype=ms.float64)

    def call(x, mean, sd):
        if function == "entropy":
            return normal.entropy(mean, sd) * x
        if function == "kl_loss":
            return normal.kl_loss("Normal", x, sd * 2, mean, sd)
        return getattr(normal, function)(x, mean, sd)

    rng = np.random.default_rng(0)
    check_second_order(Program(call), [rng.standard_normal(3), rng.standard_normal(3), 0.5 + rng.random(3)])


def test_uniform_gradients_to_second_order():
    uniform = msd.Uniform(dtype=ms.float64)
    check_second_order(Program(lambda x, low, high: uniform.cdf(x, low, high) + uniform.entropy(low, high)),
                       [np.array([0.3, 0.9]), np.array([0.0, -1.0]), np.array([1.0, 2.0])])
