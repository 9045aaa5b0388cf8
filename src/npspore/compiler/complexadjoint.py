"""MindSpore's convention for gradients of complex numbers, applied to every op's adjoint rule in one place.

Part of the differentiate stage. For an op ``f`` of complex operands MindSpore 2.10 returns the cotangent
``dx = dout * conj(f'(x))``: for a real loss ``L`` of ``x = a + ib`` that is ``dL/da + i dL/db``
(``tests/test_complex_grads.py`` holds MindSpore's numbers and checks the identity against central differences).
The adjoint rules of the op table are written for real numbers: ``dout * f'(x)`` in NumPy. The derivative of a
holomorphic op has real coefficients (``exp``, ``log``, ``sqrt``, ``matmul``), so ``conj(f'(x)) = f'(conj(x))``:
the rule staged on the conjugates of the values it reads (operands and ``out``, never ``dout``) gives MindSpore's
cotangent. A rule that reads no primal value (``add``, ``sum``, ``reshape``) is the same either way, and the
conjugates it does not read are pruned with the rest of its unused statements.

An op's ``complex_rule`` names the exceptions, as MindSpore's bprops have them: ``"conjugate_cotangents"``
conjugates the rule's results instead, ``conj(dout * f'(x))`` (MindSpore's Div, which differs from the convention
when ``dout`` is not real); ``"as_written"``: a rule written for complex numbers (``abs``, ``conj``,
``real``). An op whose complex gradient MindSpore refuses names MindSpore's error as ``complex_refusal``, raised
at the user's line. Real programs meet none of this: the functions below hand back what they were given.
"""
from __future__ import annotations

import numpy as np

from .errors import located
from .ir import Const, Var

_COMPLEX_NAMES = {np.dtype(np.complex64): "Complex64", np.dtype(np.complex128): "Complex128"}


def _complex_dtype(atom) -> np.dtype | None:
    """The complex dtype of a value of the program (a tuple: of its first complex element), else None."""
    if isinstance(atom, (tuple, list)):
        return next((d for d in map(_complex_dtype, atom) if d is not None), None)
    dtype = None
    if isinstance(atom, Var) and atom.aval is not None:
        dtype = np.dtype(atom.aval.dtype)
    elif isinstance(atom, Const) and isinstance(atom.value, (np.ndarray, np.generic, complex)):
        dtype = np.asarray(atom.value).dtype
    return dtype if dtype is not None and dtype.kind == "c" else None


def _conjugate(value, builder, loc):
    """``value`` with each complex Var replaced by its conjugate, emitted into ``builder`` (a complex constant's
    computed now)."""
    if isinstance(value, tuple):
        return tuple(_conjugate(v, builder, loc) for v in value)
    if _complex_dtype(value) is None:
        return value
    if isinstance(value, Const):
        return Const(value.value.conjugate())
    return builder.apply("conj", (value,), loc=loc, hint=value.name)


def rule_values(definition, stmt, out, builder) -> tuple:
    """The operands and ``out`` to stage ``definition``'s adjoint rule on, for ``stmt`` (an ``Apply``).

    Returns ``(stmt.args, out)`` when no operand or result is complex, or when the op's ``complex_rule`` is not
    ``"conjugate_operands"``; else the conjugates of the complex ones, emitted into ``builder``.

    Raises:
        TypeError: MindSpore's refusal of the op's complex gradient (``For 'Mul', gradient not support for complex
            type currently.``), at the statement's source line.
    """
    dtype = _complex_dtype(stmt.args) or _complex_dtype(stmt.targets)
    if dtype is None:
        return stmt.args, out
    if definition.complex_refusal is not None and not (
            definition.complex_refusal_spares_scalars
            and any(isinstance(a, Const) and isinstance(a.value, (int, float)) for a in stmt.args)):
        raise located(TypeError(definition.complex_refusal.format(dtype=_COMPLEX_NAMES[dtype])), stmt.loc)
    if definition.complex_rule != "conjugate_operands":
        return stmt.args, out
    return _conjugate(tuple(stmt.args), builder, stmt.loc), _conjugate(out, builder, stmt.loc)


def rule_results(definition, stmt, staged, builder):
    """The rule's results ``staged`` for ``stmt``, conjugated when the op's ``complex_rule`` is
    ``"conjugate_cotangents"`` and an operand or result is complex; else ``staged`` itself."""
    if definition.complex_rule != "conjugate_cotangents" or \
            (_complex_dtype(stmt.args) or _complex_dtype(stmt.targets)) is None:
        return staged
    return _conjugate(staged, builder, stmt.loc)
