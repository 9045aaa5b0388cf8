"""Second derivatives of the elementwise ops through ``grad(grad(f))``: the differentiate stage runs
twice over the rules staged from ``codegen_templates`` (the path nested gradients take), and the
result is checked against central finite differences of the first derivative, in float64."""
import numpy as np
import pytest

import npspore as ms
from npspore import ops

# op -> the interval its inputs are drawn from (away from kinks and poles)
UNARY = {"exp": (-1.0, 1.0), "log": (0.5, 3.0), "log1p": (-0.5, 3.0), "sin": (-2.0, 2.0), "cos": (-2.0, 2.0),
         "tan": (-1.0, 1.0), "tanh": (-2.0, 2.0), "sigmoid": (-2.0, 2.0), "sqrt": (0.5, 3.0),
         "rsqrt": (0.5, 3.0), "square": (-2.0, 2.0), "softplus": (-2.0, 2.0), "erf": (-1.5, 1.5),
         "neg": (-2.0, 2.0)}


def derivative(name):
    op = getattr(ops, name)

    def total(x):
        return ops.sum(op(x))

    return ms.grad(total)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_second_derivative_matches_finite_differences(name):
    low, high = UNARY[name]
    x = np.random.default_rng(len(name)).uniform(low, high, (5,))
    first, second = derivative(name), ms.grad(derivative(name))
    eps = 1e-6
    numeric = (first(ms.Tensor(x + eps)).asnumpy() - first(ms.Tensor(x - eps)).asnumpy()) / (2 * eps)
    np.testing.assert_allclose(second(ms.Tensor(x)).asnumpy(), numeric, rtol=1e-5, atol=1e-6)


def test_second_derivative_of_a_product_of_the_input_with_itself():
    x = np.array([0.5, -1.5, 2.0])
    cube = ms.grad(ms.grad(lambda t: ops.sum(t * t * t)))
    np.testing.assert_allclose(cube(ms.Tensor(x)).asnumpy(), 6 * x)
