"""``npspore check``: gradients from the generated kernel against central finite differences.

Floating inputs are cast to float64 copies, and to float64 the floating Parameters the target reads (a
Cell's, or those of the Cells a function's closure and globals hold: ``forward_fn`` over ``net``). Values the
program itself computes in lower precision (MindSpore's losses reduce in float32) stay so: the step
and tolerances (unless given) come from the least precise dtype of any value on the path, seen in
one eager run (:func:`npspore.testing.tolerance_for`). ``f`` is the scalar the gradient is the derivative of: the sum of every output
element (MindSpore's implicit ones sensitivity; with ``--has-aux`` only the first output), or with
``--sens`` the inner product with a random sensitivity passed to the kernel. ``f`` is evaluated
eagerly (PYNATIVE), so the check also covers the forward code the adjoint was derived from.

An element passes when ``|kernel - fd| <= atol + rtol * |fd|``; an argument passes when all its
checked elements do. The table's relative error is ``|kernel - fd| / max(|fd|, atol)``. Large
arguments are checked at ``--max-elements`` random elements.
"""
from __future__ import annotations

import numpy as np

from ..common import dtype as mstype
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ..compiler.signature import map_tensors, tensor_leaves
from .gradient import GradRequest
from ..ops.eager import recording_dtypes
from ..testing.tolerance import Tolerance, tolerance_for
from .target import InputError, Target


def run(target: Target, args, options) -> int:
    """Print the table; returns 1 if any gradient fails the check, else 0."""
    request = GradRequest.from_options(options)
    if options.train:
        target.set_train()
    args = tuple(map_tensors(a, _float64_copy) for a in args)
    for _, param in target.parameters():
        if param._array.dtype.kind == "f":
            param.set_dtype(mstype.float64)
    rng = np.random.default_rng(options.seed + 1)
    call_args = request.call_args(target, args, lambda shape, dtype: rng.standard_normal(shape).astype(dtype))
    with recording_dtypes() as seen:
        output = target.eager(args)
    tolerance = _tolerance(options, seen)
    weights = _output_weights(output, request, call_args[-1] if request.sens else None)
    result = request.function(target, args, return_ids=True)(*call_args)
    objective = _objective(target, args, weights)
    names = target.input_names()
    params = {param.name: param for _, param in target.parameters()}
    rows, notes = [], []
    for ident, gradient in _tagged(result[0] if request.has_aux else result):
        if isinstance(ident, int):
            label, value = f"{names[ident]} (input {ident})" if ident < len(names) else f"input {ident}", args[ident]
        else:
            label, value = ident, params[ident]
        if value._array.dtype.kind != "f":
            continue  # integer and bool inputs have no derivative to compare
        indices = _sample(value._array.size, options.max_elements, rng)
        if len(indices) < value._array.size:
            notes.append(f"{label}: {len(indices)} of {value._array.size} elements checked, chosen at random")
        numeric = _central_differences(objective, value._array, indices, tolerance.eps)
        analytic = np.asarray(gradient._array, np.float64).reshape(-1)[indices]
        rows.append((label, str(list(value.shape))) + _compare(analytic, numeric, tolerance))
    if not rows:
        raise InputError("nothing to check: no differentiable (floating) input or weight was selected")
    return _report(rows, notes, tolerance)


def _tolerance(options, dtypes) -> Tolerance:
    """``--eps/--rtol/--atol`` where given, the rest chosen from the dtypes seen on the path."""
    chosen = tolerance_for(dtypes)
    return Tolerance(eps=options.eps or chosen.eps, rtol=options.rtol or chosen.rtol,
                     atol=options.atol or chosen.atol)


def _compare(analytic, numeric, tolerance: Tolerance) -> tuple:
    """``(max abs error, max rel error, "OK" | "FAIL")``; rel error is ``|a - n| / max(|n|, atol)``."""
    error = np.abs(analytic - numeric)
    passed = bool(np.all(error <= tolerance.atol + tolerance.rtol * np.abs(numeric)))
    relative = error / np.maximum(np.abs(numeric), tolerance.atol)
    return _max(error), _max(relative), "OK" if passed else "FAIL"


def _report(rows, notes, tolerance: Tolerance) -> int:
    _print_table(("argument", "shape", "max abs error", "max rel error", "status"), rows)
    for note in notes:
        print(note)
    failed = sum(row[-1] == "FAIL" for row in rows)
    limits = f"eps={tolerance.eps:g}, rtol={tolerance.rtol:g}, atol={tolerance.atol:g}"
    if failed:
        which = f"{failed} of {len(rows)} gradients differ" if len(rows) > 1 else "the gradient differs"
        print(f"FAIL: {which} from finite differences ({limits})")
        return 1
    which = f"all {len(rows)} gradients match" if len(rows) > 1 else "the gradient matches"
    print(f"OK: {which} finite differences ({limits})")
    return 0


def _float64_copy(tensor):
    if isinstance(tensor, Parameter) or tensor._array.dtype.kind != "f":
        return tensor
    return Tensor(tensor._array.astype(np.float64))


def _output_weights(output, request, sens) -> list:
    """Per output leaf, the weight of its elements in the objective (an array or a scalar)."""
    leaves = tensor_leaves(output)
    if sens is not None:
        return [np.asarray(s._array, np.float64) for s in tensor_leaves(sens)]
    counted = len(tensor_leaves(output[0])) if request.has_aux else len(leaves)
    return [1.0 if i < counted and leaf._array.dtype.kind == "f" else 0.0 for i, leaf in enumerate(leaves)]


def _objective(target, args, weights):
    def evaluate() -> float:
        leaves = tensor_leaves(target.eager(args))
        return float(sum(np.sum(w * np.asarray(leaf._array, np.float64)) for w, leaf in zip(weights, leaves)))
    return evaluate


def _central_differences(objective, array, indices, eps) -> np.ndarray:
    """d objective / d array.flat[i] for each index, perturbing ``array`` in place (then restoring it)."""
    flat = array.reshape(-1)  # a view: the program reads the perturbed values
    numeric = np.empty(len(indices))
    for k, index in enumerate(indices):
        original = flat[index]
        flat[index] = original + eps
        ahead = objective()
        flat[index] = original - eps
        behind = objective()
        flat[index] = original
        numeric[k] = (ahead - behind) / (2 * eps)
    return numeric


def _sample(size: int, limit: int, rng) -> np.ndarray:
    if limit <= 0 or size <= limit:
        return np.arange(size)
    return np.sort(rng.choice(size, limit, replace=False))


def _tagged(result) -> list:
    """The ``(position or parameter name, gradient)`` pairs of a ``return_ids=True`` result."""
    if (isinstance(result, tuple) and len(result) == 2 and isinstance(result[0], (int, str))
            and isinstance(result[1], Tensor)):
        return [result]
    if isinstance(result, (tuple, list)):
        return [pair for item in result for pair in _tagged(item)]
    return []


def _max(values) -> float:
    return float(np.max(values)) if np.size(values) else 0.0


def _print_table(header, rows) -> None:
    cells = [header] + [(r[0], r[1], f"{r[2]:.2e}", f"{r[3]:.2e}", r[4]) for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    for row in cells:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
