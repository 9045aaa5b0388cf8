"""``check_grads``: npspore's gradients of a user's function or Cell against central finite differences.

The check is directional, as in HIPS/autograd and JAX: for a random direction ``u`` of each
differentiated input, ``<grad, u>`` must equal ``(F(x + eps·u) - F(x - eps·u)) / 2eps`` where ``F``
is the sum of the program's floating outputs (MindSpore's implicit all-ones sensitivity). Order 2
checks the gradient of the gradient function the same way (``F`` is then the sum of the first
gradients), and so on. With ``weights=`` the Parameters' gradients are checked too, each along a
random direction of its data.

The check runs in float64: floating inputs as float64 copies, and the floating Parameters the
program reads (a Cell's, those of the Cells a function's closure and globals hold, and the
``weights``) cast to float64 for the check and restored after it (:mod:`npspore.testing.precision`),
so a float32 model is checked with float64's tolerances. Values the program itself computes in
lower precision stay so: the step and tolerances come from the least precise dtype any value on
the path has (:mod:`npspore.testing.tolerance`).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ..ops.eager import recording_dtypes
from .precision import float64_parameters, parameters_read_by
from .tolerance import Tolerance, tolerance_for

__all__ = ["check_grads", "MODES"]

MODES = ("pynative", "graph")
"""``"pynative"``: finite differences of the program run eagerly; ``"graph"``: of the program compiled
with ``ms.jit`` (so the compiled forward kernel is checked too)."""


def check_grads(fn: Callable[..., Any], args: Sequence[Any], order: int = 2,
                modes: Sequence[str] = MODES, *, weights: Parameter | Sequence[Parameter] | None = None,
                eps: float | None = None, rtol: float | None = None, atol: float | None = None,
                seed: int = 0) -> None:
    """Check ``ms.grad`` of ``fn`` (and its higher derivatives) against finite differences.

    Args:
        fn: a function of Tensors or an ``nn.Cell``, as ``ms.grad`` takes it (its source must be in a file).
        args: the point to check at: Tensors or NumPy arrays. Floating ones are differentiated (as
            float64 copies); integer and bool ones and Python values are held fixed.
        order: 1 checks the gradient; 2 also the gradient of the gradient function; and so on.
        modes: how the function values for the finite differences are computed: ``"pynative"``
            (eagerly), ``"graph"`` (``ms.jit``); each mode is checked.
        weights: Parameters whose gradients are checked too (``ms.grad(fn, positions, weights)``):
            one Parameter, or a sequence such as ``net.trainable_params()``.
        eps: overrides the finite-difference step chosen from the dtypes on the path.
        rtol: overrides the relative tolerance chosen from the dtypes on the path.
        atol: overrides the absolute tolerance chosen from the dtypes on the path.
        seed: seeds the random directions.

    Raises:
        AssertionError: naming the order, mode and argument or Parameter whose derivative is wrong, with
            both values.
        ValueError: if ``order`` is not a positive int, a mode is unknown, no argument is floating and
            no weight is given, or a weight is not floating.
        TypeError: if ``weights`` holds something other than Parameters.
    """
    from ..grad import grad
    from ..jit import jit

    __tracebackhide__ = True  # pytest shows the caller's line, not this body
    if not isinstance(order, int) or isinstance(order, bool) or order < 1:
        raise ValueError(f"check_grads: 'order' must be a positive int, got {order!r}")
    unknown = [m for m in modes if m not in MODES]
    if unknown or not modes:
        raise ValueError(f"check_grads: 'modes' must be some of {MODES}, got {tuple(modes)!r}")
    checked_weights = _weights(weights)
    point = tuple(_float64_copy(a) for a in args)
    positions = tuple(i for i, a in enumerate(point) if isinstance(a, Tensor) and a._array.dtype.kind == "f")
    if not positions and not checked_weights:
        raise ValueError("check_grads: no floating Tensor or array among 'args' and no 'weights' to differentiate")
    read = [param for _, param in parameters_read_by(fn)]
    with float64_parameters(read + list(checked_weights)):
        with recording_dtypes() as seen:
            fn(*point)
        chosen = tolerance_for(seen | {a._array.dtype for a in point if isinstance(a, Tensor)})
        tolerance = Tolerance(eps or chosen.eps, rtol or chosen.rtol, atol or chosen.atol)
        rng = np.random.default_rng(seed)
        levels = [fn]
        for level in range(1, order + 1):
            gradient_fn = grad(levels[-1], positions or None, checked_weights or None)
            for mode in modes if level == 1 else modes[:1]:
                objective = levels[-1] if mode == "pynative" or level > 1 else jit(levels[-1])
                _check_level(objective, gradient_fn, point, positions, checked_weights, tolerance, rng,
                             f"order {level}, mode {mode!r}")
            levels.append(gradient_fn)


def _weights(weights) -> tuple:
    """``weights`` as a tuple of floating Parameters (empty for None)."""
    if weights is None:
        return ()
    found = (weights,) if isinstance(weights, Parameter) else tuple(weights)
    for weight in found:
        if not isinstance(weight, Parameter):
            raise TypeError(f"check_grads: 'weights' must be Parameters, got {type(weight).__name__}")
        if weight._array.dtype.kind != "f":
            raise ValueError(f"check_grads: weight {weight.name!r} is {weight.dtype}, not floating: it has no gradient")
    return found


def _check_level(objective, gradient_fn, point, positions, weights, tolerance: Tolerance, rng, where: str) -> None:
    __tracebackhide__ = True
    gradients = gradient_fn(*point)
    if positions and weights:
        position_gradients, weight_gradients = gradients
    else:
        position_gradients, weight_gradients = (gradients, ()) if positions else ((), gradients)
    if len(positions) == 1:
        position_gradients = (position_gradients,)
    for position, gradient in zip(positions, position_gradients):
        def shifted(values, position=position):
            moved = list(point)
            moved[position] = Tensor(values)
            return _total(objective(*moved))
        _check_direction(shifted, point[position]._array, gradient, tolerance, rng,
                         f"check_grads ({where}): wrong derivative for argument {position}")
    for weight, gradient in zip(weights, weight_gradients):
        original = weight._array

        def perturbed(values, weight=weight):
            weight.set_data(Tensor(values))
            return _total(objective(*point))
        try:
            _check_direction(perturbed, original, gradient, tolerance, rng,
                             f"check_grads ({where}): wrong derivative for Parameter {weight.name!r}")
        finally:
            weight.set_data(Tensor(original))


def _check_direction(value_at, x, gradient, tolerance: Tolerance, rng, failure: str) -> None:
    """``<gradient, u>`` against ``(value_at(x + eps·u) - value_at(x - eps·u)) / 2eps`` for a random ``u``."""
    __tracebackhide__ = True
    direction = rng.standard_normal(x.shape)
    numeric = (value_at(x + tolerance.eps * direction) - value_at(x - tolerance.eps * direction)) / (2 * tolerance.eps)
    analytic = float(np.sum(np.asarray(gradient._array, np.float64) * direction))
    assert abs(analytic - numeric) <= tolerance.atol + tolerance.rtol * abs(numeric), (
        f"{failure}: the gradient gives {analytic!r}, finite differences {numeric!r} (eps={tolerance.eps:g}, "
        f"rtol={tolerance.rtol:g}, atol={tolerance.atol:g})")


def _float64_copy(value):
    array = value._array if isinstance(value, Tensor) else value
    if isinstance(array, np.ndarray) and array.dtype.kind == "f":
        return Tensor(array.astype(np.float64))
    return Tensor(array) if isinstance(array, np.ndarray) else value


def _total(output) -> float:
    """The sum of every floating element of a (nested) output, in float64."""
    if isinstance(output, Tensor):
        return float(np.sum(output._array, dtype=np.float64)) if output._array.dtype.kind == "f" else 0.0
    if isinstance(output, (tuple, list)):
        return sum(_total(item) for item in output)
    if isinstance(output, dict):
        return sum(_total(item) for item in output.values())
    return 0.0
