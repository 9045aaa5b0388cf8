"""Checks of a composition of ops on two mixed-sign 2 x 3 points: compiled equals eager, and its gradients
agree with central differences in float64."""
import numpy as np

import npspore as ms
from npspore import Tensor
from npspore.testing import check_grads


def check_composition(fn, seed=0, orders=(1,)):
    """``fn(a, b)`` for ``a``, ``b`` of magnitudes in ``[0.2, 0.9]`` and random signs: ``ms.jit(fn)`` gives the
    eager value, and ``check_grads`` passes at each of ``orders``."""
    rng = np.random.default_rng(seed)
    a, b = (rng.uniform(0.2, 0.9, (2, 3)) * rng.choice([-1.0, 1.0], (2, 3)) for _ in range(2))
    eager = fn(Tensor(a), Tensor(b)).asnumpy()
    np.testing.assert_allclose(ms.jit(fn)(Tensor(a), Tensor(b)).asnumpy(), eager, rtol=1e-12)
    for order in orders:
        check_grads(fn, [a, b], order=order)
