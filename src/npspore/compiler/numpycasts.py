"""The casts compiled NumPy code needs, decided once per op application (a step of optimize).

MindSpore's dtype rules and NumPy's promotion differ in two places, and the typed IR records both so that
``--dump-after optimize`` shows them and codegen only writes them:

* operands: an op with an ``operand_dtype`` rule (true division, ``pow`` of integers, ...) computes in that
  dtype; where NumPy would not promote the operands to it by itself, they are cast
  (``Apply.operand_cast``);
* results: NumPy 1.26 promotes scalar-only arithmetic by value (``np.float32(3) * 0.5`` is float64, where
  MindSpore and NumPy 2 keep float32); where NumPy's result dtype, probed on one-element arrays of the
  operands' dtypes and ranks, is not the inferred one, the result is cast back (``Apply.result_cast``).
"""
from __future__ import annotations

import numpy as np

from ..core.apply import cast_operands
from ..opdef import op_table
from ..shape_rules import fit_int
from . import ir


def plan_casts(module: ir.Module) -> None:
    """Set ``operand_cast`` and ``result_cast`` on every op application of ``module`` (in place)."""
    table = op_table()
    for function in module.functions.values():
        for stmt in ir.walk_stmts(function.body):
            if isinstance(stmt, ir.Apply):
                definition = table[stmt.op]
                stmt.operand_cast = _operand_cast(definition, stmt)
                stmt.result_cast = _result_cast(definition, stmt)


def _operand_cast(definition, stmt: ir.Apply) -> np.dtype | None:
    """The dtype the op's ``operand_dtype`` rule computes in, unless NumPy promotes the operands to it."""
    if definition.operand_dtype is None:
        return None
    target = definition.operand_dtype(*(ir.aval_or_value(a) for a in stmt.args), **stmt.static)
    if target is None or _numpy_promotes_to(stmt.args, np.dtype(target)):
        return None
    return np.dtype(target)


def _numpy_promotes_to(args, target: np.dtype) -> bool:
    """Whether NumPy itself promotes these operands to ``target`` (``float32 * bool``), so no
    operand needs an explicit cast: all array operands have rank >= 1 (NumPy 1.26 promotes 0-d
    ones by value) and their dtypes promote to ``target``; Python scalars are weak in both."""
    variables = [a for a in args if isinstance(a, ir.Var)]
    if not variables or any(not a.aval.shape for a in variables):
        return False
    if any(isinstance(a, ir.Const) and isinstance(a.value, (np.ndarray, np.generic)) for a in args):
        return False
    return np.result_type(*(a.aval.dtype for a in variables)) == target


def drift_dtype(definition, operands, static, inferred) -> np.dtype | None:
    """The dtype NumPy itself gives ``definition.forward(*operands)`` when it is not ``inferred``.

    Operands are cast as compiled code casts them. Returns None when NumPy already gives ``inferred``.
    """
    try:
        with np.errstate(all="ignore"):
            result = definition.forward(*cast_operands(definition, operands, static), **static)
    except Exception:  # noqa: BLE001 - a probe that cannot run tells nothing: leave the line as it is
        return None
    dtype = np.asarray(result).dtype
    return None if dtype == inferred else np.dtype(inferred)


def _result_cast(definition, stmt: ir.Apply) -> np.dtype | None:
    """``drift_dtype`` for one op application, probed on arrays of one element and the operands'
    ranks (NumPy's promotion depends on dtypes and on 0-d versus not, never on sizes)."""
    if len(stmt.targets) != 1 or definition.has_effects:   # a probe must not draw or meet other ranks
        return None
    probe = [np.ones((1,) * len(a.aval.shape), a.aval.dtype) if isinstance(a, ir.Var) else a.value
             for a in stmt.args]
    inferred = stmt.targets[0].aval.dtype
    if inferred.kind in "iu":
        probe = [fit_int(v, inferred) if type(v) is int else v for v in probe]
    return drift_dtype(definition, probe, stmt.static, inferred)
