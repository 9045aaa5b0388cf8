"""The Hurwitz zeta function and the polygamma functions behind MindSpore's primitives ``Zeta`` and
``Polygamma`` (their classes come from :mod:`primitive_table`).

``zeta(x, q)`` is summed as Cephes (and Eigen, which MindSpore's kernels use) sum it: the first terms
``(q + k) ** -x`` directly, the tail by the Euler-Maclaurin formula with twelve Bernoulli terms. Written over
ops of the op table, it runs eagerly and compiled and is differentiable in both arguments; ``polygamma(n, x)``
is ``(-1) ** (n + 1) n! zeta(n + 1, x)`` (``digamma`` for ``n = 0``).
"""
from __future__ import annotations

from ..common import dtype as mstype
from ..common.tensor import Tensor, _np_dtype
from .eager import run
from .math_functional import digamma
from .numeric import _check_tensor

__all__ = ["zeta", "polygamma"]

# (2j)! / B_2j, the Euler-Maclaurin coefficients of Cephes' zeta.c
_EULER_MACLAURIN = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
                    -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
                    1.8152105401943546773e17, -7.1661652561756670113e18)
_DIRECT_TERMS = 12   # summed directly: the tail starts at q + 12, where twelve corrections reach double precision


def _hurwitz(x: Tensor, q: Tensor) -> Tensor:
    total = run("pow", q, run("neg", x))
    for k in range(1, _DIRECT_TERMS + 1):
        last = run("pow", run("add", q, float(k)), run("neg", x))
        total = run("add", total, last)
    w = run("add", q, float(_DIRECT_TERMS))
    total = run("add", total, run("div", run("mul", last, w), run("sub", x, 1.0)))
    total = run("sub", total, run("mul", last, 0.5))
    rising, power = None, last
    for j, coefficient in enumerate(_EULER_MACLAURIN):
        factor = run("add", x, float(2 * j))
        rising = factor if rising is None else run("mul", rising, factor)
        power = run("div", power, w)
        total = run("add", total, run("div", run("mul", rising, power), coefficient))
        rising = run("mul", rising, run("add", x, float(2 * j + 1)))
        power = run("div", power, w)
    return total


def zeta(x: Tensor, q: Tensor) -> Tensor:
    r"""The Hurwitz zeta function :math:`\zeta(x, q) = \sum_{k \ge 0} (q + k)^{-x}`, elementwise.

    Raises:
        TypeError: if ``x`` or ``q`` is no float32/float64 Tensor or their dtypes differ.
        ValueError: if their shapes differ.
    """
    for argument, value in (("x", x), ("q", q)):
        _check_tensor("Zeta", argument, value)
        if value.dtype not in (mstype.float32, mstype.float64):
            raise TypeError(f"For 'Zeta', the dtype of '{argument}' must be float32 or float64, but got "
                            f"{value.dtype}.")
    if x.dtype != q.dtype:
        raise TypeError(f"For 'Zeta', the 'x' and 'q' must have one dtype, but got {x.dtype} and {q.dtype}.")
    if x.shape != q.shape:
        raise ValueError(f"For 'Zeta', the shape of 'x' must be the shape of 'q', but got {x.shape} and {q.shape}.")
    return _hurwitz(x, q)


def polygamma(a: Tensor, x: Tensor) -> Tensor:
    """The ``a``-th derivative of the digamma function at ``x``: ``digamma(x)`` for ``a = 0``, else
    ``(-1) ** (a + 1) a! zeta(a + 1, x)``; ``a`` is a 0-D int Tensor.

    Raises:
        TypeError: if ``a`` is no int32/int64 Tensor or ``x`` no float Tensor.
        ValueError: if ``a`` is not 0-D.
    """
    _check_tensor("Polygamma", "a", a)
    _check_tensor("Polygamma", "x", x)
    if a.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For 'Polygamma', the dtype of 'a' must be int32 or int64, but got {a.dtype}.")
    if a.shape:
        raise ValueError(f"For 'Polygamma', the 'a' must be 0-D, but got shape {a.shape}.")
    if x.dtype not in (mstype.float16, mstype.float32, mstype.float64):
        raise TypeError(f"For 'Polygamma', the dtype of 'x' must be a float, but got {x.dtype}.")
    order = run("mul", run("ones_like", x), run("cast", a, dtype=_np_dtype(x.dtype)))
    zero = run("equal", order, 0.0)
    s = run("where", zero, 2.0, run("add", order, 1.0))   # zeta(1, x) diverges: the a = 0 branch is digamma's
    sign = run("sub", run("mul", 2.0, run("mod", order, 2.0)), 1.0)   # (-1) ** (a + 1)
    factorial = run("exp", run("lgamma", s))
    series = run("mul", run("mul", sign, factorial), _hurwitz(s, x))
    return run("where", zero, digamma(x), series)
