"""What the Tensor-method tests share: a method call with its Tensor arguments passed in (so compiled code takes
them as inputs), a check of values and dtypes observed on MindSpore, and a gradient check."""
import numpy as np

import npspore as ms
from npspore import Tensor

from gradcheck import central_difference


def arr(values, dtype):
    return np.array(values, dtype)


def method_call(name, args, kwargs=None):
    """``f(x, *tensors)`` calling ``x.name(*args, **kwargs)``, the Tensors of ``args`` (one run) passed in."""
    positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
    first, last = (positions[0], positions[-1] + 1) if positions else (len(args), len(args))
    before, after = args[:first], args[last:]

    def f(x, *tensors):
        return getattr(x, name)(*before, *tensors, *after, **(kwargs or {}))
    return f, args[first:last]


def assert_observed(actual, expected):
    """``actual`` has ``expected``'s values (NaNs where it has them) and exactly its dtype."""
    if isinstance(expected, tuple):
        assert isinstance(actual, (tuple, list)) and len(actual) == len(expected)
        for a, e in zip(actual, expected):
            assert_observed(a, e)
        return
    assert isinstance(actual, Tensor)
    np.testing.assert_allclose(actual.asnumpy(), expected, rtol=2e-6, atol=1e-6)
    assert actual.asnumpy().dtype == expected.dtype and actual.shape == expected.shape


def check_method_gradient(name, x, args, kwargs=None):
    """The gradient of ``x.name(*args, **kwargs).sum()`` in float64 against central differences, eagerly, and the
    compiled gradient against the eager one."""
    f, tensors = method_call(name, args, kwargs)

    def loss(x):
        return f(x, *tensors).sum()
    x64 = x.astype(np.float64)
    grad = ms.grad(loss)(Tensor(x64)).asnumpy()
    np.testing.assert_allclose(grad, central_difference(lambda v: loss(Tensor(v)).asnumpy(), x64),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ms.jit(ms.grad(loss))(Tensor(x64)).asnumpy(), grad, rtol=1e-12, atol=1e-12)
