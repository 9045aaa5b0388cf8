"""The test suite's one gradient check: a vector-Jacobian product against central differences.

``check_grads(fn, args, vjp)`` works for any pair of a function and a way to differentiate it: the
op table's adjoint rules (``test_adjoints``) as well as compiled ``grad`` functions. As in
HIPS/autograd, it checks directional derivatives: for a random output cotangent ``v`` and a
random input direction ``u``, ``<vjp(v), u>`` must equal ``<v, (f(x + eps·u) - f(x - eps·u)) / 2eps>``,
computed in float64. ``order=2`` checks the vjp itself the same way (the vjp of the vjp).
``central_difference(f, x)`` is the whole gradient of a scalar function of one array, element by element.
"""
from __future__ import annotations

import numpy as np


def central_difference(f, x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """The gradient of the scalar function ``f`` at the float64 array ``x``, by central differences."""
    grad = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[index] += eps
        down[index] -= eps
        grad[index] = (f(up) - f(down)) / (2 * eps)
    return grad


def check_grads(fn, args, vjp, order=1, *, eps=1e-6, rtol=1e-5, atol=1e-6, seed=0):
    """Check ``vjp`` against central finite differences of ``fn``.

    Args:
        fn: ``fn(*args)`` returns an array or a tuple of arrays (non-float outputs, such as
            indices, get a zero cotangent).
        args: the point to check at: float arrays are differentiated (as float64 copies);
            integer/bool arrays, Python scalars and ``None`` are held fixed.
        vjp: ``vjp(f)`` returns f's vector-Jacobian product, a function ``(args, dout) ->
            cotangents`` (``args`` a tuple, ``dout`` with the structure of ``f``'s output) giving one
            cotangent per argument (a bare one when there is a single argument; ``None`` for an
            argument it does not differentiate, which must then have a zero derivative).
        order: 1 checks ``vjp(fn)``; 2 also checks ``vjp`` of the function ``(*args, dout) ->
            tuple of cotangents``, and so on.
        eps, rtol, atol: the finite-difference step and the tolerance of each directional derivative.
        seed: seeds the random cotangents and directions.

    Raises:
        AssertionError: naming the argument whose derivative is wrong, with both values.
    """
    args = tuple(_as_float64(a) for a in args)
    rng = np.random.default_rng(seed)
    out = fn(*args)
    outputs = _leaves(out)
    douts = [rng.standard_normal(np.shape(o)) if _is_float(o) else np.zeros(np.shape(o), np.asarray(o).dtype)
             for o in outputs]
    dout = tuple(douts) if isinstance(out, (tuple, list)) else douts[0]
    cotangents = vjp(fn)(args, dout)
    if len(args) == 1:
        cotangents = (cotangents,)
    for position, (x, cotangent) in enumerate(zip(args, cotangents)):
        if not _is_float(x):
            continue
        u = rng.standard_normal(np.shape(x))
        step = [a if i != position else None for i, a in enumerate(args)]
        step[position] = x + eps * u
        ahead = _inner(douts, fn(*step))
        step[position] = x - eps * u
        behind = _inner(douts, fn(*step))
        numeric = (ahead - behind) / (2 * eps)
        if cotangent is None:
            analytic = 0.0
        else:
            cotangent = np.asarray(cotangent)
            assert cotangent.shape == np.shape(x), (
                f"the cotangent of argument {position} has shape {cotangent.shape}, the argument {np.shape(x)}")
            analytic = float(np.sum(cotangent * u))
        assert np.isclose(analytic, numeric, rtol=rtol, atol=atol), (
            f"wrong derivative for argument {position}: vjp gives {analytic!r}, finite differences {numeric!r}")
    if order > 1:
        def vjp_fn(*args_and_dout):
            found = vjp(fn)(args_and_dout[:-1], args_and_dout[-1])
            found = (found,) if len(args) == 1 else found
            return tuple(c for c in found if c is not None)

        check_grads(vjp_fn, (*args, dout), vjp, order - 1, eps=eps, rtol=rtol, atol=atol, seed=seed + 1)


def _as_float64(value):
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return value.astype(np.float64)
    return value


def _is_float(value) -> bool:
    return isinstance(value, (np.ndarray, np.generic)) and value.dtype.kind == "f"


def _leaves(out) -> list:
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _inner(douts, out) -> float:
    return float(sum(np.sum(d * np.asarray(o, dtype=np.float64)) for d, o in zip(douts, _leaves(out))
                     if d.dtype.kind == "f"))
