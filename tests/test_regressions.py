"""Regression tests for issue 10 ("never silently wrong"): each is a minimal program that once gave a
wrong value, a crash or a wrong refusal, checked against eager execution or float64 central
differences. The comment on each names the stage where its class of bug arose."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops


def T(a):
    """A float64 Tensor of ``a``."""
    return Tensor(np.array(a, dtype=np.float64))


def total(fn, arrays):
    """The sum of every element of every output of ``fn`` (MindSpore's all-ones sensitivity)."""
    out = fn(*[T(a) for a in arrays])
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return sum(float(np.sum(o.asnumpy())) for o in outs)


def fd_grad(fn, arrays, j, h=1e-6):
    """d total(fn) / d arrays[j] by central differences of the eager float64 function."""
    x = np.array(arrays[j], dtype=np.float64)
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        ahead = [np.array(a, dtype=np.float64) for a in arrays]
        behind = [np.array(a, dtype=np.float64) for a in arrays]
        ahead[j][idx] += h
        behind[j][idx] -= h
        g[idx] = (total(fn, ahead) - total(fn, behind)) / (2 * h)
    return g


def assert_close(got, expected):
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(expected, np.float64), rtol=1e-5, atol=1e-6)


# ---- codegen: a loop's back edge is a parallel copy (swaps of carried values)

def swap(a, b):
    for _ in range(3):
        a, b = b, a
    return a * 10.0 + b


def swap_scaled(a, b):
    for _ in range(3):
        a, b = b, a * 2.0
    return (a * 10.0 + b).sum()


def test_loop_swap_forward():
    a, b = np.array([1.0, 2.0]), np.array([-2.0, 3.0])
    assert_close(ms.jit(swap)(T(a), T(b)).asnumpy(), [-19.0, 32.0])


def test_loop_swap_gradient():
    a, b = np.array([1.0, 2.0]), np.array([-2.0, 3.0])
    da, db = ms.grad(swap_scaled, (0, 1))(T(a), T(b))
    assert_close(da.asnumpy(), [4.0, 4.0])
    assert_close(db.asnumpy(), [20.0, 20.0])
