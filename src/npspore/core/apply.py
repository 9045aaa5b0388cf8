"""Applying an op to arrays, with MindSpore's casts: the one way eager mode, constant folding, the IR
interpreter and codegen's dtype probes run an op's NumPy lowering.

``cast_operands`` casts array operands (``ndarray`` and NumPy scalars) to the dtype the op's type
rule chooses (``operand_dtype``) and wraps Python ints into an integer result's range (``u8 + 300``
is 44); ``apply_op`` then runs ``forward`` and casts each result to the dtype the shape/dtype rule
inferred (NumPy returns scalars for 0-d results and may promote differently).
"""
from __future__ import annotations

import numpy as np

from ..shape_rules import fit_int

_ARRAYS = (np.ndarray, np.generic)


def cast_operands(definition, operands, static, result_dtype=None) -> list:
    """``operands`` as the op's lowering takes them (see the module docstring).

    ``result_dtype`` is the inferred dtype of a single-result op (None: unknown, or several results).
    """
    operands = list(operands)
    if definition.operand_dtype is None:
        return operands
    target = definition.operand_dtype(*operands, **static)
    if target is not None:
        operands = [v.astype(target) if isinstance(v, _ARRAYS) and v.dtype != target else v for v in operands]
    if result_dtype is not None and np.dtype(result_dtype).kind in "iu":
        operands = [fit_int(v, np.dtype(result_dtype)) if type(v) is int else v for v in operands]
    return operands


def apply_op(definition, operands, static, result_dtypes):
    """Run ``definition`` on ``operands`` and return its result(s) as arrays of ``result_dtypes``
    (one dtype, or a tuple of dtypes for a multi-output op)."""
    multi = isinstance(result_dtypes, tuple)
    result = definition.forward(*cast_operands(definition, operands, static, None if multi else result_dtypes),
                                **static)
    if multi:
        return tuple(_as_array(r, dtype) for r, dtype in zip(result, result_dtypes))
    return _as_array(result, result_dtypes)


def _as_array(result, dtype) -> np.ndarray:
    if type(result) is not np.ndarray or result.dtype != dtype:
        result = np.asarray(result, dtype=dtype)
    return result
