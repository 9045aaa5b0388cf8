"""Elementwise ops: arithmetic, unary math, activations, comparisons, logic, where/clip/cast.

Binary ops broadcast NumPy-style and compute in MindSpore's promoted dtype: ``operand_dtype`` casts
tensor operands first, so each NumPy expression below yields exactly the inferred dtype. Adjoints
may return cotangents of the broadcast (output) shape; the caller sums them back to each operand.
Conventions (MindSpore, semantics doc §5): ``relu'(0) = 0``, ``abs'(0) = 0``, ``maximum``/``minimum``
give half the gradient to each side of a tie, ``d/db a**b = a**b·ln a`` (taken as 0 where ``a == 0``,
as JAX does, instead of NumPy's ``0·-inf = nan``), ``cast`` passes the gradient through.
"""
import numpy as np

from npspore import shape_rules as rules
from npspore.core import division as rt   # the kernel's ``rt.floor_divide`` ... (npspore.runtime re-exports them)
from npspore.opdef import DIAGONAL, call, op

TANGENT = DIAGONAL   # every op here acts elementwise: its tangent is its adjoint per operand (opdef)

# ---------------------------------------------------------------- arithmetic


@op(infer=rules.arithmetic("AddExt"), operand_dtype=rules.common_dtype, numpy=(np.add,))
class add:
    def forward(x, y):
        return x + y

    def adjoint(x, y, out, dout):
        return dout, dout


@op(infer=rules.arithmetic("SubExt", bool_ok=False), operand_dtype=rules.common_dtype, aliases=("subtract",),
    numpy=(np.subtract,))
class sub:
    def forward(x, y):
        return x - y

    def adjoint(x, y, out, dout):
        return dout, -dout


@op(infer=rules.arithmetic("Mul"), operand_dtype=rules.common_dtype, aliases=("multiply",), numpy=(np.multiply,))
class mul:
    complex_refusal = "For 'Mul', gradient not support for complex type currently."
    complex_refusal_spares_scalars = True   # MindSpore 2.10 differentiates z * 2.5, not z * Tensor(2.5)

    def forward(x, y):
        return x * y

    def adjoint(x, y, out, dout):
        return dout * y, dout * x


@op(infer=rules.true_division("Div"), operand_dtype=rules.true_division_dtype, aliases=("true_divide",),
    numpy=(np.true_divide,))
class div:
    complex_rule = "conjugate_cotangents"   # MindSpore 2.10's Div: conj(dout / y), not dout / conj(y)

    def forward(x, y):
        return x / y

    def adjoint(x, y, out, dout):
        return dout / y, -dout * out / y


@op(infer=rules.arithmetic("FloorDiv", bool_ok=False), operand_dtype=rules.common_dtype, aliases=("floor_divide",),
    numpy=(np.floor_divide,))
class floor_div:
    """``x // y``; a zero divisor gives MindSpore's values (``inf`` or the integer maximum for ``x > 0`` ...,
    ``core/division.py``); a nonzero literal divisor is written ``x // 2`` (``inlinefold.LiteralDivisors``)."""

    def forward(x, y):
        return rt.floor_divide(x, y)

    adjoint = None


@op(infer=rules.arithmetic("FloorMod", bool_ok=False), operand_dtype=rules.common_dtype, numpy=(np.remainder,))
class mod:
    """``x % y`` with the sign of ``y``; an int32/int64 zero divisor gives the minimum, as MindSpore's FloorMod."""

    def forward(x, y):
        return rt.floor_mod(x, y)

    def adjoint(x, y, out, dout):
        return dout, -dout * call("floor_div", x, y)   # MindSpore's quotient where y is 0


@op(infer=rules.arithmetic("FloorDiv", bool_ok=False), operand_dtype=rules.common_dtype)
class remainder:
    """``ops.remainder``: ``x % y``, but an integer zero divisor gives ``x`` (MindSpore's RemainderTensorTensor)."""

    def forward(x, y):
        return rt.remainder(x, y)

    def adjoint(x, y, out, dout):
        return dout, -dout * call("floor_div", x, y)   # MindSpore's quotient where y is 0


@op(infer=rules.arithmetic("TruncateMod", bool_ok=False), operand_dtype=rules.common_dtype)
class truncate_mod:
    """``x - trunc(x / y) * y``, C's ``fmod``: the sign of ``x``; an integer zero divisor gives 0, a float one NaN."""

    def forward(x, y):
        return np.fmod(x, y)

    def adjoint(x, y, out, dout):
        return dout, -dout * np.trunc(x / y)


@op(infer=rules.arithmetic("Pow", bool_ok=False), operand_dtype=rules.power_dtype, aliases=("power",),
    numpy=(np.power,))
class pow:
    complex_refusal = "For 'Pow', gradient not support for complex type currently."

    def forward(x, y):
        return x ** y

    def adjoint(x, y, out, dout):
        return dout * y * x ** (y - 1), dout * out * np.log(np.where(x == 0, np.ones_like(out), x))


@op(infer=rules.arithmetic("Maximum"), operand_dtype=rules.common_dtype, numpy=(np.maximum,))
class maximum:
    def forward(x, y):
        return np.maximum(x, y)

    def adjoint(x, y, out, dout):
        # a tie gives each side half; a NaN on either side (unordered) gives both all, as MindSpore's MaximumGrad
        rest = np.where(x == y, dout * 0.5, dout)
        return np.where(x < y, 0, rest), np.where(x > y, 0, rest)


@op(infer=rules.arithmetic("Minimum"), operand_dtype=rules.common_dtype, numpy=(np.minimum,))
class minimum:
    def forward(x, y):
        return np.minimum(x, y)

    def adjoint(x, y, out, dout):
        # as maximum's: half to each side on a tie, all to both where either is NaN
        rest = np.where(x == y, dout * 0.5, dout)
        return np.where(x > y, 0, rest), np.where(x < y, 0, rest)


# ---------------------------------------------------------------- unary arithmetic


@op(infer=rules.same_dtype("Neg", bool_ok=False), aliases=("negative",), numpy=(np.negative,))
class neg:
    def forward(x):
        return -x

    def adjoint(x, out, dout):
        return -dout


@op(infer=rules.same_dtype("Abs"), numpy=(np.absolute,))
class abs:
    complex_rule = "as_written"   # of a complex x (MindSpore: a complex |x|), np.sign(x) is x / |x|

    def forward(x):
        return np.abs(x)

    def adjoint(x, out, dout):
        return dout * np.sign(x)


@op(infer=rules.same_dtype("Conj"), numpy=(np.conjugate,))
class conj:
    """The complex conjugate (a real array itself); the convention of complex gradients (``compiler.complexadjoint``)
    emits it, and ``ops.conj`` of a complex Tensor runs it. Linear over the reals, so it conjugates its cotangent."""
    complex_rule = "as_written"

    def forward(x):
        return np.conjugate(x)

    def adjoint(x, out, dout):
        return np.conjugate(dout)


@op(infer=rules.real_part("Real"), numpy=(np.real,))
class real:
    """The real parts (a real array itself); the cotangent of a real operand of a complex op is the real part of
    its complex cotangent (MindSpore 2.10: ``z + x``'s gradient for a real ``x``), and ``ops.real`` runs it."""
    complex_rule = "as_written"

    def forward(x):
        return np.real(x)

    def adjoint(x, out, dout):
        return dout.astype(x.dtype)


@op(infer=rules.same_dtype("Square", bool_ok=False), numpy=(np.square,))
class square:
    complex_refusal = "For primitive [PowTensorScalar], 'input' type is not supported, 'input' type: {dtype}"

    def forward(x):
        return np.square(x)

    def adjoint(x, out, dout):
        return dout * 2 * x


@op(infer=rules.same_dtype("Sign", bool_ok=False), numpy=(np.sign,))
class sign:
    def forward(x):
        return rt.sign(x)     # np.sign; under NumPy 1.26, NumPy 2's z / |z| for a complex z

    adjoint = None


@op(infer=rules.same_dtype("Round", bool_ok=False), numpy=(np.rint,))
class round:
    """The nearest integer, halves to even (``np.rint``; -0.5 gives -0.0); piecewise constant."""

    def forward(x):
        return np.rint(x)

    adjoint = None


# ---------------------------------------------------------------- exponentials and roots


@op(infer=rules.float_only("Exp", complex_ok=True), numpy=(np.exp,))
class exp:
    def forward(x):
        return np.exp(x)

    def adjoint(x, out, dout):
        return dout * out


@op(infer=rules.float_only("Log", complex_ok=True), numpy=(np.log,))
class log:
    def forward(x):
        return np.log(x)

    def adjoint(x, out, dout):
        return dout / x


@op(infer=rules.float_only("Log1p"), numpy=(np.log1p,))
class log1p:
    def forward(x):
        return np.log1p(x)

    def adjoint(x, out, dout):
        return dout / (1 + x)


@op(infer=rules.float_of_integers("Sqrt", complex_ok=True), operand_dtype=rules.float_operand_dtype,
    numpy=(np.sqrt,))
class sqrt:
    def forward(x):
        return np.sqrt(x)

    def adjoint(x, out, dout):
        return dout / (2 * out)


@op(infer=rules.float_only("Rsqrt"))
class rsqrt:
    def forward(x):
        return 1 / np.sqrt(x)

    def adjoint(x, out, dout):
        return dout * -0.5 * out * out * out


# ---------------------------------------------------------------- trigonometric


@op(infer=rules.float_only("Sin"), numpy=(np.sin,))
class sin:
    def forward(x):
        return np.sin(x)

    def adjoint(x, out, dout):
        return dout * np.cos(x)


@op(infer=rules.float_only("Cos"), numpy=(np.cos,))
class cos:
    def forward(x):
        return np.cos(x)

    def adjoint(x, out, dout):
        return -dout * np.sin(x)


@op(infer=rules.float_only("Tan"), numpy=(np.tan,))
class tan:
    def forward(x):
        return np.tan(x)

    def adjoint(x, out, dout):
        return dout * (1 + out * out)


@op(infer=rules.float_only("Tanh"), numpy=(np.tanh,))
class tanh:
    def forward(x):
        return np.tanh(x)

    def adjoint(x, out, dout):
        return dout * (1 - out * out)


# ---------------------------------------------------------------- activations and special functions


@op(infer=rules.float_only("Sigmoid"))
class sigmoid:
    """``1 / (1 + exp(-x))`` in four NumPy calls. Where ``exp(-x)`` overflows to inf, the sigmoid is
    below the smallest normal float (``x < -87.3`` in float32, ``-708.4`` in float64) and
    ``1 / (1 + inf)`` gives 0, so the overflow warning is silenced: every normal result is exact to
    rounding, and only subnormal ones become 0. (``exp(-|x|)`` and a ``where`` keep those too, at
    seven calls: a third of an LSTM step's time.)"""

    def forward(x):
        with np.errstate(over="ignore"):
            e = np.exp(-x)
        return 1 / (1 + e)

    def adjoint(x, out, dout):
        return dout * out * (1 - out)


@op(infer=rules.same_dtype("ReLU", bool_ok=False))
class relu:
    def forward(x):
        return np.maximum(x, 0)

    def adjoint(x, out, dout):
        return dout * (out > 0)   # out > 0 exactly where x > 0: the forward's input need not be kept


@op(infer=rules.float_only("Softplus"))
class softplus:
    def forward(x):
        return np.logaddexp(0, x)

    def adjoint(x, out, dout):
        return dout * call("sigmoid", x)


@op(infer=rules.float_only("Erf"))
class erf:
    """The error function by W. J. Cody's rational approximations (float64: within 1 ulp).

    ``|x| <= 0.46875`` uses ``x·P(x²)/Q(x²)``; beyond, ``1 - exp(-x²)·R(|x|)`` with ``|x|`` capped at 6,
    where erf is 1 in float64. float16 is computed in float32 (the polynomials overflow float16).
    """

    def forward(x):
        v = np.asarray(x, np.promote_types(x.dtype, np.float32))
        s = np.clip(v, -0.5, 0.5)
        z = s * s
        p = (((0.185777706184603153 * z + 3.16112374387056560) * z + 113.864154151050156) * z
             + 377.485237685302021) * z + 3209.37758913846947
        q = (((z + 23.6012909523441209) * z + 244.024637934444173) * z + 1282.61652607737228) * z + 2844.23683343917062
        y = np.minimum(np.abs(v), 6.0)
        r = (((((((2.15311535474403846e-8 * y + 0.564188496988670089) * y + 8.88314979438837594) * y
                 + 66.1191906371416295) * y + 298.635138197400131) * y + 881.952221241769090) * y
              + 1712.04761263407058) * y + 2051.07837782607147) * y + 1230.33935479799725
        t = (((((((y + 15.7449261107098347) * y + 117.693950891312499) * y + 537.181101862009858) * y
                + 1621.38957456669019) * y + 3290.79923573345963) * y + 4362.61909014324716) * y
             + 3439.36767414372164) * y + 1230.33935480374942
        far = 1 - np.exp(-y * y) * r / t
        return np.asarray(np.where(np.abs(v) <= 0.46875, s * p / q, np.sign(v) * far), x.dtype)

    def adjoint(x, out, dout):
        return dout * 1.1283791670955126 * np.exp(-x * x)


@op(infer=rules.float_only("GeLU"))
class gelu:
    """GELU: ``x·Φ(x)`` (by ``erf``), or with ``approximate=True`` its tanh approximation."""

    def forward(x, *, approximate=False):
        return (0.5 * x * (1 + np.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))) if approximate
                else 0.5 * x * (1 + call("erf", x * 0.7071067811865476)))

    def adjoint(x, out, dout, *, approximate=False):
        if approximate:
            inner = np.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))
            return dout * (0.5 * (1 + inner)
                           + 0.5 * x * (1 - inner * inner) * 0.7978845608028654 * (1 + 0.134145 * x * x))
        cdf = 0.5 * (1 + call("erf", x * 0.7071067811865476))
        return dout * (cdf + x * 0.3989422804014327 * np.exp(-0.5 * x * x))


# ---------------------------------------------------------------- selection and conversion


@op(infer=rules.where, operand_dtype=rules.common_dtype_after(1), numpy=(np.where,))
class where:
    def forward(condition, x, y):
        return np.where(condition, x, y)

    def adjoint(condition, x, y, out, dout):
        return None, np.where(condition, dout, 0), np.where(condition, 0, dout)


@op(infer=rules.clip, operand_dtype=rules.common_dtype, aliases=("clamp",), numpy=(np.clip,))
class clip:
    """Clip to ``[a_min, a_max]`` (either bound may be ``None``); at a bound the gradient goes to ``x``."""

    def forward(x, a_min, a_max):
        return np.clip(x, a_min, a_max)

    def adjoint(x, a_min, a_max, out, dout):
        return (np.where(out == x, dout, 0),
                None if a_min is None else np.where(x < a_min, dout, 0),
                None if a_max is None else np.where(x > a_max, dout, 0))


@op(infer=rules.cast)
class cast:
    """Convert to ``dtype`` (a NumPy dtype); the gradient passes through, back in the input's dtype."""

    def forward(x, *, dtype):
        return np.asarray(x, dtype=dtype)

    def adjoint(x, out, dout, *, dtype):
        return dout.astype(x.dtype)


@op(infer=rules.same_dtype("StopGradient"))
class stop_gradient:
    def forward(x):
        return x

    adjoint = None


# ---------------------------------------------------------------- comparisons


@op(infer=rules.comparison("Equal"), numpy=(np.equal,))
class equal:
    def forward(x, y):
        return x == y

    adjoint = None


@op(infer=rules.comparison("NotEqual"), numpy=(np.not_equal,))
class not_equal:
    def forward(x, y):
        return x != y

    adjoint = None


@op(infer=rules.comparison("Less"), numpy=(np.less,))
class less:
    def forward(x, y):
        return x < y

    adjoint = None


@op(infer=rules.comparison("LessEqual"), numpy=(np.less_equal,))
class less_equal:
    def forward(x, y):
        return x <= y

    adjoint = None


@op(infer=rules.comparison("Greater"), numpy=(np.greater,))
class greater:
    def forward(x, y):
        return x > y

    adjoint = None


@op(infer=rules.comparison("GreaterEqual"), numpy=(np.greater_equal,))
class greater_equal:
    def forward(x, y):
        return x >= y

    adjoint = None


# ---------------------------------------------------------------- logic


@op(infer=rules.logical("LogicalAnd"), numpy=(np.logical_and,))
class logical_and:
    def forward(x, y):
        return np.logical_and(x, y)

    adjoint = None


@op(infer=rules.logical("LogicalOr"), numpy=(np.logical_or,))
class logical_or:
    def forward(x, y):
        return np.logical_or(x, y)

    adjoint = None


@op(infer=rules.to_bool, numpy=(np.logical_not,))
class logical_not:
    def forward(x):
        return np.logical_not(x)

    adjoint = None
