"""Staging NumPy-written rules into typed normal form.

The op table's adjoint rules are runnable NumPy functions (``def adjoint(x, y, out, dout): return dout
* y, dout * x``). To build a backward sweep *in IR* — so that it can be optimized, rendered and
differentiated again for higher orders — the differentiator calls a rule with :class:`Tracer` values
instead of arrays. A tracer wraps an IR atom and a :class:`~npspore.compiler.builder.BlockBuilder`;
every array operation on it appends an ``Apply`` statement and returns a new tracer:

* Python operators (``dout * y``, ``-x``, ``x ** 2``, ``a @ b``, comparisons);
* NumPy ufuncs and functions (``np.exp(x)``, ``np.sum(g, axis=0)``), through ``__array_ufunc__`` and
  ``__array_function__``, mapped to op names by each op's ``numpy=`` field;
* the methods ``reshape``, ``astype``, ``sum``, ``mean``, ``transpose`` and indexing;
* ``opdef.call("erf", x)``, through ``__npspore_stage__``.

``shape``, ``ndim``, ``dtype`` and ``size`` are static (read from the aval), so rules may branch on
them in plain Python. Static keyword arguments (``axis=``, ``keepdims=``) stay Python values. Anything
else (``float(x)``, ``if x > 0``, a NumPy function no op stands for) raises :class:`UnstageableRule`
naming the rule and the call.
"""
from __future__ import annotations

import inspect
import math

import numpy as np

from ..opdef import op_table
from .builder import BlockBuilder
from .errors import NotSupportedError, located
from .ir import Const, Loc, Var

__all__ = ["Tracer", "UnstageableRule", "stage_rule", "numpy_ops"]


class UnstageableRule(TypeError):
    """A rule used a Python or NumPy operation that has no op in the op table."""


class _Unsupported(Exception):
    """Raised inside a tracer; :func:`stage_rule` re-raises it naming the rule."""


_NUMPY_OPS: dict | None = None


def numpy_ops() -> dict:
    """The map from NumPy callables (ufuncs, functions) to op names, built from the op table."""
    global _NUMPY_OPS
    if _NUMPY_OPS is None:
        mapping = {}
        for definition in op_table().definitions():
            for fn in definition.numpy:
                mapping[fn] = definition.name
        _NUMPY_OPS = mapping
    return _NUMPY_OPS


def _numpy_name(fn) -> str:
    module = getattr(fn, "__module__", None) or "numpy"
    return f"{module}.{getattr(fn, '__name__', repr(fn))}"


# static shapes and sizes a kernel writes as they are (no None there), and the dims checked (all: None)
_RENDERED_SHAPES = {("getitem_grad", "shape"): None, ("gather_grad", "shape"): None,
                    ("masked_select_grad", "shape"): None, ("split", "indices_or_sections"): None,
                    ("scatter_last", "size"): None,
                    ("conv2d_input_grad", "input_shape"): slice(2, None),   # col2im reads the batch off the
                    ("conv2d_columns_grad", "input_shape"): slice(2, None)}   # columns, not the height or width


class _Stager:
    """What the tracers of one staging share: the builder, the source location and the name hint."""

    def __init__(self, builder: BlockBuilder, loc: Loc, hint: str):
        self.builder = builder
        self.loc = loc
        self.hint = hint

    def atom(self, value):
        if isinstance(value, Tracer):
            return value.atom
        if isinstance(value, (Var, Const)):
            return value
        return Const(value)

    def stage(self, name: str, operands, static):
        if any(_holds_none(value, _RENDERED_SHAPES[name, key]) for key, value in static.items()
               if (name, key) in _RENDERED_SHAPES):   # np.zeros((None, 3)) in a kernel
            raise located(NotSupportedError(f"the derivative '{name}' of a value with a dim known only when the "
                                            "kernel runs is not supported in compiled code"), self.loc)
        atoms = tuple(self.atom(v) for v in operands)
        result = self.builder.apply(name, atoms, static, loc=self.loc, hint=self.hint)
        if isinstance(result, tuple):
            return tuple(Tracer(v, self) for v in result)
        return Tracer(result, self)


def _holds_none(value, dims) -> bool:
    """Whether the static ``value`` (a size, or a shape whose ``dims`` are checked: all for None) holds None."""
    if isinstance(value, (tuple, list)):
        return None in tuple(value)[dims or slice(None)]
    return value is None


class _Shape(tuple):
    """A tracer's shape (``None`` for a dim known only when the kernel runs), which remembers the tracer it is the
    shape of, so that ``dout.reshape(x.shape)`` can reshape to ``x``'s shape at run time."""

    def __new__(cls, dims, source):
        shape = super().__new__(cls, dims)
        shape.source = source
        return shape

    def __reduce__(self):
        return tuple, (tuple(self),)     # a copy (of a static argument holding it) is a plain tuple


class Tracer:
    """An array stand-in while staging a rule: wraps an IR atom and emits ops through a builder."""

    __array_priority__ = 1000
    __hash__ = object.__hash__

    def __init__(self, atom, stager: _Stager):
        self.atom = atom
        self._stager = stager

    # ------------------------------------------------------------------ static facts

    @property
    def aval(self):
        atom = self.atom
        if isinstance(atom, Var):
            return atom.aval
        value = np.asarray(atom.value)
        return _ConstAval(value.shape, value.dtype)

    @property
    def shape(self) -> tuple:
        shape = tuple(self.aval.shape)
        return _Shape(shape, self) if None in shape else shape

    @property
    def ndim(self) -> int:
        return len(self.aval.shape)

    @property
    def dtype(self) -> np.dtype:
        return np.dtype(self.aval.dtype)

    @property
    def size(self):
        if any(d is None for d in self.shape):
            return None
        return math.prod(self.shape)

    @property
    def T(self):
        return self.transpose()

    def __repr__(self) -> str:
        return f"Tracer({self.atom!r})"

    # ------------------------------------------------------------------ staging entry points

    def _stage(self, name, operands, static=None):
        return self._stager.stage(name, operands, static or {})

    def __npspore_stage__(self, name, operands, static):
        return self._stager.stage(name, operands, static)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if method != "__call__":
            raise _Unsupported(f"numpy.{ufunc.__name__}.{method}")
        name = numpy_ops().get(ufunc)
        if name is None:
            raise _Unsupported(f"numpy.{ufunc.__name__}")
        if kwargs:
            raise _Unsupported(f"numpy.{ufunc.__name__} with keyword arguments {sorted(kwargs)}")
        return self._stage(name, inputs)

    def __array_function__(self, func, types, args, kwargs):
        name = numpy_ops().get(func)
        if name is None:
            raise _Unsupported(_numpy_name(func))
        operands, static = _bind_numpy_call(func, name, args, kwargs)
        return self._stage(name, operands, static)

    def __array__(self, *args, **kwargs):
        raise _Unsupported("numpy.asarray (converting a staged value to a concrete array)")

    def __bool__(self):
        raise _Unsupported("bool() of a staged value (Python control flow on array data)")

    def __float__(self):
        raise _Unsupported("float() of a staged value")

    def __int__(self):
        raise _Unsupported("int() of a staged value")

    def __len__(self):
        if not self.shape:
            raise _Unsupported("len() of a 0-d staged value")
        return self.shape[0]

    def __iter__(self):
        raise _Unsupported("iteration over a staged value")

    # ------------------------------------------------------------------ operators

    def __add__(self, other): return np.add(self, other)
    def __radd__(self, other): return np.add(other, self)
    def __sub__(self, other): return np.subtract(self, other)
    def __rsub__(self, other): return np.subtract(other, self)
    def __mul__(self, other): return np.multiply(self, other)
    def __rmul__(self, other): return np.multiply(other, self)
    def __truediv__(self, other): return np.true_divide(self, other)
    def __rtruediv__(self, other): return np.true_divide(other, self)
    def __floordiv__(self, other): return np.floor_divide(self, other)
    def __rfloordiv__(self, other): return np.floor_divide(other, self)
    def __mod__(self, other): return np.remainder(self, other)
    def __rmod__(self, other): return np.remainder(other, self)
    def __pow__(self, other): return np.power(self, other)
    def __rpow__(self, other): return np.power(other, self)
    def __matmul__(self, other): return np.matmul(self, other)
    def __rmatmul__(self, other): return np.matmul(other, self)
    def __neg__(self): return np.negative(self)
    def __pos__(self): return self
    def __abs__(self): return np.absolute(self)
    def __invert__(self): return np.logical_not(self)
    def __and__(self, other): return np.logical_and(self, other)
    def __rand__(self, other): return np.logical_and(other, self)
    def __or__(self, other): return np.logical_or(self, other)
    def __ror__(self, other): return np.logical_or(other, self)
    def __eq__(self, other): return np.equal(self, other)
    def __ne__(self, other): return np.not_equal(self, other)
    def __lt__(self, other): return np.less(self, other)
    def __le__(self, other): return np.less_equal(self, other)
    def __gt__(self, other): return np.greater(self, other)
    def __ge__(self, other): return np.greater_equal(self, other)

    # ------------------------------------------------------------------ methods

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        unknown = sum(d is None or d == -1 for d in shape)
        if None in shape and unknown == 1:      # the one dim known only when the kernel runs is inferred
            shape = tuple(-1 if d is None else d for d in shape)
        elif None in shape:
            if not isinstance(shape, _Shape):
                raise _Unsupported(f"reshape to {tuple(shape)}, a shape with several dims known only at run time")
            return self._stage("reshape_like", (self, shape.source))
        return self._stage("reshape", (self,), {"shape": tuple(shape)})

    def transpose(self, *axes):
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = axes[0]
        return np.transpose(self, tuple(axes) if axes else None)

    def astype(self, dtype):
        return self._stage("cast", (self,), {"dtype": np.dtype(dtype)})

    def sum(self, *args, **kwargs): return np.sum(self, *args, **kwargs)
    def mean(self, *args, **kwargs): return np.mean(self, *args, **kwargs)
    def max(self, *args, **kwargs): return np.max(self, *args, **kwargs)
    def min(self, *args, **kwargs): return np.min(self, *args, **kwargs)
    def prod(self, *args, **kwargs): return np.prod(self, *args, **kwargs)

    def __getitem__(self, index):
        return self._stage("getitem", (self,), {"index": index})


class _ConstAval:
    """The static facts of a constant operand (NumPy array or Python scalar)."""

    def __init__(self, shape, dtype):
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)


# NumPy 1.26 cannot introspect these C-implemented functions; their documented signatures stand in.
def _where(condition, x, y, /): ...
def _concatenate(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"): ...
def _zeros(shape, dtype=float, order="C", *, like=None): ...
def _dot(a, b, out=None): ...


_SIGNATURE_STAND_INS = {"where": _where, "concatenate": _concatenate, "zeros": _zeros, "dot": _dot}


def _numpy_signature(func) -> inspect.Signature:
    """The call signature of a NumPy function, under NumPy 1.26 and 2.x alike."""
    try:
        return inspect.signature(func)
    except ValueError:
        stand_in = _SIGNATURE_STAND_INS.get(getattr(func, "__name__", ""))
        if stand_in is None:
            raise
        return inspect.signature(stand_in)


def _bind_numpy_call(func, name, args, kwargs):
    """Split a NumPy call's arguments into the op's operands and its static attributes.

    The NumPy function's leading positional parameters are the op's operands (a sequence is splatted
    when the op's lowering takes ``*operands``); every other argument bound by the call must name one
    of the op's static attributes (NumPy's keyword names) or be left at NumPy's default.
    """
    definition = op_table()[name]
    try:
        signature = _numpy_signature(func)
        bound = signature.bind(*args, **kwargs)
    except (TypeError, ValueError) as exc:
        raise _Unsupported(f"{_numpy_name(func)} with these arguments ({exc})") from None
    params = list(signature.parameters.values())
    variadic = definition.variadic is not None
    n_operands = 1 if variadic and not definition.operands else len(definition.operands)
    operand_params = [p.name for p in params[:n_operands]]
    operands = []
    for pname in operand_params:
        if pname in bound.arguments:
            value = bound.arguments[pname]
            if variadic and isinstance(value, (tuple, list)):
                operands.extend(value)
            else:
                operands.append(value)
    static = {}
    for pname, value in bound.arguments.items():
        if pname in operand_params:
            continue
        if pname in definition.static:
            static[pname] = value
        elif value is not signature.parameters[pname].default and value is not None:
            raise _Unsupported(f"{_numpy_name(func)} with the argument {pname}={value!r}")
    return operands, static


def stage_rule(fn, builder: BlockBuilder, args, static: dict | None, loc: Loc, *, hint: str = "t"):
    """Run a NumPy-written rule on tracers, appending its operations to ``builder``'s block.

    Args:
        fn: the rule (e.g. an OpDef's ``adjoint``), called as ``fn(*args, **static)``.
        builder: where the ``Apply`` statements go; names come from its name supply.
        args: the rule's positional arguments as IR atoms (``Var``/``Const``), or tuples of atoms
            (a multi-output op's ``out``/``dout``). Constants are passed to the rule as their Python
            values, Vars as tracers.
        static: keyword arguments: Python values, or atoms (a variadic op's ``out``/``dout``).
        loc: the source location every staged statement gets.
        hint: the name hint of staged intermediate values.

    Returns:
        The rule's result with tracers replaced by their atoms: an atom, ``None``, or a tuple of those.

    Raises:
        UnstageableRule: the rule used an operation no op of the table stands for.
    """
    stager = _Stager(builder, loc, hint)

    def wrap(value):
        if isinstance(value, tuple):
            return tuple(wrap(v) for v in value)
        if isinstance(value, Var):
            return Tracer(value, stager)
        if isinstance(value, Const):
            return value.value
        return value

    try:
        result = fn(*(wrap(a) for a in args), **{k: wrap(v) for k, v in (static or {}).items()})
    except _Unsupported as exc:
        rule = getattr(fn, "__qualname__", repr(fn))
        raise UnstageableRule(
            f"cannot stage the rule {rule!r}: it uses {exc.args[0]}, which no op of the op table "
            "stands for (add it to the op's numpy= field, or call the op with opdef.call)") from None
    return _unwrap(result)


def _unwrap(value):
    if isinstance(value, Tracer):
        return value.atom
    if isinstance(value, (tuple, list)):
        return tuple(_unwrap(v) for v in value)
    if value is None or isinstance(value, (Var, Const)):
        return value
    return Const(value)
