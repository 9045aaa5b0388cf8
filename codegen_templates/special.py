"""Elementwise math beyond the basics: inverse trigonometric and hyperbolic functions, ``expm1``, ``erfc``,
``erfinv``, ``lgamma``, ``digamma``, ``atan2``, ``trunc`` and the integer ops (bitwise and, or, xor, shifts, ``gcd``, ``lcm``).

Float ops reject integer and bool operands as MindSpore 2.10's CPU kernels do (``Select CPU operator[ACos]
fail! Unsupported data type!``); each adjoint is written with NumPy calls of the table's ops, so it
differentiates again. ``trunc`` and the integer ops have no gradient.
"""
import numpy as np

from npspore import runtime as rt
from npspore import shape_rules as rules
from npspore.opdef import DIAGONAL, call, op

TANGENT = DIAGONAL   # every op here acts elementwise: its tangent is its adjoint per operand (opdef)

# ---------------------------------------------------------------- inverse trigonometric


@op(infer=rules.float_only("ACos"), numpy=(np.arccos,))
class acos:
    def forward(x):
        return np.arccos(x)

    def adjoint(x, out, dout):
        return -dout / np.sqrt(1 - x * x)


@op(infer=rules.float_only("Asin"), numpy=(np.arcsin,))
class asin:
    def forward(x):
        return np.arcsin(x)

    def adjoint(x, out, dout):
        return dout / np.sqrt(1 - x * x)


@op(infer=rules.float_only("Atan"), numpy=(np.arctan,))
class atan:
    def forward(x):
        return np.arctan(x)

    def adjoint(x, out, dout):
        return dout / (1 + x * x)


@op(infer=rules.float_binary("Atan2"), operand_dtype=rules.common_dtype, numpy=(np.arctan2,))
class atan2:
    """The angle of the point ``(x, y)`` = ``(other, input)``: ``atan2(y, x)``, in ``[-pi, pi]``."""

    def forward(y, x):
        return np.arctan2(y, x)

    def adjoint(y, x, out, dout):
        scale = dout / (x * x + y * y)
        return scale * x, -scale * y


# ---------------------------------------------------------------- hyperbolic


@op(infer=rules.float_only("Sinh"), numpy=(np.sinh,))
class sinh:
    def forward(x):
        return np.sinh(x)

    def adjoint(x, out, dout):
        return dout * np.cosh(x)


@op(infer=rules.float_only("Cosh"), numpy=(np.cosh,))
class cosh:
    def forward(x):
        return np.cosh(x)

    def adjoint(x, out, dout):
        return dout * np.sinh(x)


@op(infer=rules.float_only("Asinh"), numpy=(np.arcsinh,))
class asinh:
    def forward(x):
        return np.arcsinh(x)

    def adjoint(x, out, dout):
        return dout / np.sqrt(x * x + 1)


@op(infer=rules.float_only("Acosh"), numpy=(np.arccosh,))
class acosh:
    def forward(x):
        return np.arccosh(x)

    def adjoint(x, out, dout):
        return dout / np.sqrt(x * x - 1)


@op(infer=rules.float_only("Atanh"), numpy=(np.arctanh,))
class atanh:
    def forward(x):
        return np.arctanh(x)

    def adjoint(x, out, dout):
        return dout / (1 - x * x)


# ---------------------------------------------------------------- exponential and error functions


@op(infer=rules.float_only("Expm1"), numpy=(np.expm1,))
class expm1:
    def forward(x):
        return np.expm1(x)

    def adjoint(x, out, dout):
        return dout * (out + 1)


@op(infer=rules.float_only("Erfc"))
class erfc:
    """``1 - erf(x)`` without its cancellation for large ``x``: the C library's ``erfc`` (``rt.erfc``)."""

    def forward(x):
        return rt.erfc(x)

    def adjoint(x, out, dout):
        return dout * -1.1283791670955126 * np.exp(-x * x)


# ---------------------------------------------------------------- rounding (no gradient)


@op(infer=rules.same_dtype("Trunc", bool_ok=False), numpy=(np.trunc,))
class trunc:
    def forward(x):
        return np.trunc(x)

    adjoint = None


# ---------------------------------------------------------------- integers (no gradient)


@op(infer=rules.integer_binary("BitwiseAnd"), operand_dtype=rules.common_dtype, numpy=(np.bitwise_and,))
class bitwise_and:
    def forward(x, y):
        return np.bitwise_and(x, y)

    adjoint = None


@op(infer=rules.integer_binary("BitwiseOr"), operand_dtype=rules.common_dtype, numpy=(np.bitwise_or,))
class bitwise_or:
    def forward(x, y):
        return np.bitwise_or(x, y)

    adjoint = None


@op(infer=rules.integer_binary("BitwiseXor"), operand_dtype=rules.common_dtype, numpy=(np.bitwise_xor,))
class bitwise_xor:
    def forward(x, y):
        return np.bitwise_xor(x, y)

    adjoint = None


@op(infer=rules.integer_binary("LeftShift", bool_ok=False, same_dtype=True), operand_dtype=rules.common_dtype,
    numpy=(np.left_shift,))
class left_shift:
    """``x << y``; a shift below 0 or by the width or more gives 0 (MindSpore's), not C's undefined result."""

    def forward(x, y):
        bits = 8 * np.asarray(x).dtype.itemsize
        shifted = np.left_shift(x, np.clip(y, 0, bits - 1))
        return np.where((y < 0) | (y >= bits), 0, shifted)

    adjoint = None


@op(infer=rules.integer_binary("RightShift", bool_ok=False, same_dtype=True), operand_dtype=rules.common_dtype,
    numpy=(np.right_shift,))
class right_shift:
    """``x >> y`` (arithmetic for signed ``x``); a shift by the width or more gives the sign fill."""

    def forward(x, y):
        bits = 8 * np.asarray(x).dtype.itemsize
        return np.right_shift(x, np.clip(y, 0, bits - 1))

    adjoint = None


@op(infer=rules.integer_binary("Gcd", bool_ok=False), operand_dtype=rules.common_dtype, numpy=(np.gcd,))
class gcd:
    def forward(x, y):
        return np.gcd(x, y)

    adjoint = None


@op(infer=rules.integer_binary("Lcm", bool_ok=False), operand_dtype=rules.common_dtype, numpy=(np.lcm,))
class lcm:
    def forward(x, y):
        return np.lcm(x, y)

    adjoint = None


# ---------------------------------------------------------------- inverse error function


@op(infer=rules.float_only("Erfinv"))
class erfinv:
    """The inverse of ``erf`` on (-1, 1) (±inf at ±1, NaN beyond): M. Giles' single-precision approximation
    ("Approximating the erfinv function", 2010), then two Newton steps on ``erf(x) = y`` in at least float32."""

    def forward(x):
        y = np.asarray(x, np.promote_types(x.dtype, np.float32))
        with np.errstate(divide="ignore", invalid="ignore"):   # at |y| >= 1, replaced below
            w = -np.log((1 - y) * (1 + y))
            t = np.sqrt(w) - 3
        c = w - 2.5
        central = (((((((2.81022636e-08 * c + 3.43273939e-07) * c - 3.5233877e-06) * c - 4.39150654e-06) * c
                      + 0.00021858087) * c - 0.00125372503) * c - 0.00417768164) * c + 0.246640727) * c + 1.50140941
        tail = (((((((-0.000200214257 * t + 0.000100950558) * t + 0.00134934322) * t - 0.00367342844) * t
                   + 0.00573950773) * t - 0.0076224613) * t + 0.00943887047) * t + 1.00167406) * t + 2.83297682
        inside = np.abs(y) < 1
        guess = np.where(inside, np.where(w < 5, central, tail) * y, 0)
        once = guess - (call("erf", guess) - y) / (1.1283791670955126 * np.exp(-guess * guess))
        twice = once - (call("erf", once) - y) / (1.1283791670955126 * np.exp(-once * once))
        edge = np.where(np.abs(y) == 1, np.copysign(np.inf, y), np.nan)
        return np.asarray(np.where(inside, twice, edge), x.dtype)

    def adjoint(x, out, dout):
        return dout * 0.886226925452758 * np.exp(out * out)


# ---------------------------------------------------------------- log-gamma and its derivatives


@op(infer=rules.float_only("Lgamma"))
class lgamma:
    """``log|Γ(x)|`` by the C library (``rt.lgamma``): +inf at the poles; its derivative is ``digamma``."""

    def forward(x):
        return rt.lgamma(x)

    def adjoint(x, out, dout):
        return dout * call("digamma", x)


@op(infer=rules.float_only("Digamma"))
class digamma:
    """ψ(x) = Γ'(x)/Γ(x) (``rt.digamma``: -inf at 0, NaN at the negative integers); its derivative is ``trigamma``."""

    def forward(x):
        return rt.digamma(x)

    def adjoint(x, out, dout):
        return dout * call("trigamma", x)


@op(infer=rules.float_only("Trigamma"))
class trigamma:
    """ψ'(x) (``rt.trigamma``), the derivative of ``digamma``. Its own derivative ψ''(x) is written here with the
    table's ops: the asymptotic series at ``x + 6`` (or at ``7 - x`` below 1/2, by the reflection
    ``ψ''(x) = ψ''(1 - x) - 2π³ cos(πx) / sin³(πx)``) less ``Σ 2/(r + k)³`` for k < 6, so it differentiates again."""

    def forward(x):
        return rt.trigamma(x)

    def adjoint(x, out, dout):
        low = x < 0.5
        r = np.where(low, 1 - x, x)
        y = r + 6
        z = 1 / (y * y)
        series = -z * (1 + 1 / y + z * (0.5 - z * (1 / 6 - z * (1 / 6 - z * (0.3 - z * 5 / 6)))))
        steps = 1 / (r * r * r) + 1 / ((r + 1) * (r + 1) * (r + 1)) + 1 / ((r + 2) * (r + 2) * (r + 2))
        steps = steps + 1 / ((r + 3) * (r + 3) * (r + 3)) + 1 / ((r + 4) * (r + 4) * (r + 4))
        second = series - 2 * (steps + 1 / ((r + 5) * (r + 5) * (r + 5)))
        sine = np.sin(3.141592653589793 * x)
        reflected = second - 62.01255336059963 * np.cos(3.141592653589793 * x) / (sine * sine * sine)   # 2π³
        return dout * np.where(low, reflected, second)
