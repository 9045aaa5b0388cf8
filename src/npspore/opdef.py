"""The op table: one definition per op, read from ``codegen_templates/``.

Every op npspore knows is a class in one of the template modules (one module per family:
``elementwise``, ``reductions``, ``shape_ops``, ``linalg``, ``nn``), decorated with :func:`op`::

    @op(infer=rules.arithmetic, aliases=("multiply",))
    class mul:
        def forward(x, y):
            return x * y

        def adjoint(x, y, out, dout):
            return dout * y, dout * x

The class body holds plain functions (no ``self``), each runnable on its own:

``forward(*operands, *, **static)``
    The NumPy lowering. Positional parameters are array operands (or Python scalars);
    keyword-only parameters are *static* attributes (axis, keep_dims, shape ...) that are
    compile-time constants. Eager mode calls it; codegen inlines its body by substituting
    the operands' names and the static values' ``repr``. The body is a single ``return``
    expression or a few simple statements (and ``for`` loops over ``range`` of assignments).
``adjoint(*operands, out, dout, *, **static)``
    The reverse-mode rule: returns one cotangent per positional operand (a tuple when there
    are several), ``None`` for an operand that is not differentiable. Cotangents may have the
    *broadcast* (output) shape: the caller sums them back to the operand shape (the compiler
    from known shapes, eager mode from the arrays). The names the body reads (``x``, ``out``
    ...) tell the differentiator which forward values to keep. ``adjoint = None`` marks an
    op without a gradient (comparisons, argmax ...): its output is never active. A multi-output
    op's ``dout`` holds zeros for an output nothing read, or ``None`` when its class sets
    ``absent_cotangent_is_none = True`` (the rule then leaves out that output's terms).
``tangent(*operands, out, *d_operands, *, **static)``
    The forward-mode rule, placed right after ``adjoint``: returns the tangent of the result (a tuple
    for a multi-output op, ``None`` for an output without one) from one tangent per positional
    operand (``None`` for an operand without one: a symbolic zero). Most ops never write it: a
    family says once, as its module's ``TANGENT``, how its tangents follow from what it already
    defines, and an op overrides that with its own ``tangent`` (a function, or another of these):

    * :data:`DIAGONAL` — an elementwise op's Jacobian with respect to each operand is diagonal, so
      it is its own transpose: the tangent is ``sum_i adjoint(..., dout=d_i)[i]`` (each operand's
      cotangent rule applied to that operand's tangent), broadcast to the result;
    * :data:`LINEAR` — the op is linear in its differentiable operands together (``reshape``,
      ``concat``, ``sum``, ``getitem``...): the tangent is the op itself applied to the tangents
      (zeros for the operands without one; non-differentiable operands such as indices as they are);
    * :data:`MULTILINEAR` — linear in each differentiable operand separately (``matmul``, ``conv2d``,
      ``outer``): the product rule, ``sum_i op(..., d_i, ...)`` with the other operands as they are.
``infer`` (given to :func:`op`)
    The shape/dtype rule: ``infer(*operands, **static) -> Aval | tuple[Aval, ...]`` where each
    operand is an :class:`Aval` for a tensor, or the Python value itself for a constant
    (Python scalars are weakly typed, as in MindSpore: ``f16 + 1.5`` stays Float16). Raises
    :class:`OpShapeError` / :class:`OpTypeError` with a message naming both shapes/dtypes; the
    compiler adds the user's source line. ``shape`` entries may be ``None`` (a dynamic dim).
``numpy`` (optional, given to :func:`op`)
    The NumPy callables this op stands for (``(np.multiply,)`` for ``mul``, ``(np.sum,)`` for
    ``sum``). Adjoint bodies are written in NumPy; to differentiate them again (grad of grad) the
    differentiator stages them with tracer values, mapping each NumPy call back to its op through
    this field. Keyword names of static attributes therefore follow NumPy (``axis``, ``keepdims``).
    An op without a NumPy spelling is called from rules as ``call("erf", x)``.
``canonical`` (optional, a function in the class body)
    ``canonical(*operands, **static) -> dict``: the static attributes in the one form ``forward`` and
    ``adjoint`` take, applied before ``infer`` wherever the op is staged or run (a reduction of a 0-d
    tensor over axis ``0`` or ``-1``, which MindSpore accepts, becomes the reduction over ``()``).
``complex_rule``, ``complex_refusal`` (optional, class attributes)
    Complex operands follow MindSpore 2.10's bprops (``compiler.complexadjoint``): by default (``complex_rule =
    "conjugate_operands"``) the rule, written for real numbers, is staged on the conjugates of the values it
    reads, ``dx = dout * conj(f'(x))``; ``"conjugate_cotangents"`` conjugates the rule's results instead,
    ``conj(dout * f'(x))`` (MindSpore's Div); ``"as_written"`` marks a rule written for complex numbers (``abs``).
    ``complex_refusal`` is the error MindSpore 2.10 raises for a gradient through the op on complex operands
    (``{dtype}`` in it: the complex dtype as MindSpore names it); ``complex_refusal_spares_scalars``: not
    when an operand is a Python number (MindSpore differentiates ``z * 2.5``).
``operand_dtype`` (optional, given to :func:`op`)
    ``operand_dtype(*operands, **static) -> numpy dtype | None``: the dtype tensor operands are
    cast to before ``forward`` runs, so that ``forward`` yields exactly the inferred dtype under
    NumPy 1.26 and 2.x alike (``i32 + f16`` is Float16 in MindSpore, not NumPy's float32).

Adding an op means adding one such class (and its tests); nothing else in npspore changes.
"""
from __future__ import annotations

import ast
import functools
import importlib
import inspect
import os
import sys
import threading
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .core.source import parse_source

TEMPLATE_FAMILIES = ("elementwise", "reductions", "shape_ops", "linalg", "nn", "conv", "pooling", "sequence",
                     "selection", "collective",
                     "special", "matrix")


def template_file(name: str) -> str:
    """The path of a file of the template package (a family's module, ``module.py.tmpl``); found
    from the package's ``__file__``, as ``importlib.resources`` costs 6-25 ms to import."""
    package = importlib.import_module("npspore.codegen_templates")
    return os.path.join(os.path.dirname(package.__file__ or ""), name)


DIAGONAL = "diagonal"
LINEAR = "linear"
MULTILINEAR = "multilinear"
TANGENT_KINDS = (DIAGONAL, LINEAR, MULTILINEAR)
"""How an op's tangent follows from its definition when it has no ``tangent`` function (module doc)."""


class OpShapeError(ValueError):
    """A shape rule rejected its operands (the message names the shapes)."""


class OpTypeError(TypeError):
    """A dtype rule rejected its operands (the message names the dtypes)."""


@dataclass(frozen=True)
class Aval:
    """The abstract value of an array: its shape (``None`` for a dynamic dim) and NumPy dtype."""

    shape: tuple
    dtype: np.dtype

    def __post_init__(self):
        object.__setattr__(self, "shape", tuple(self.shape))
        object.__setattr__(self, "dtype", np.dtype(self.dtype))

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __deepcopy__(self, memo) -> "Aval":
        return self  # immutable: a copied IR module shares its avals (a dtype is slow to deep-copy)

    @classmethod
    def of(cls, array) -> "Aval":
        """The aval of a concrete NumPy array (or anything with ``shape`` and ``dtype``)."""
        return cls(tuple(array.shape), array.dtype)

    def __str__(self) -> str:
        dims = ", ".join("?" if d is None else str(d) for d in self.shape)
        return f"{self.dtype.name}[{dims}]"


@dataclass
class OpDef:
    """One op: its name, family, lowering, shape/dtype rule and adjoint rule."""

    name: str
    family: str
    forward: Callable
    infer: Callable
    adjoint: Callable | None
    tangent: Callable | str | None = None   # a rule, one of TANGENT_KINDS, or None (no derivative)
    operand_dtype: Callable | None = None
    aliases: tuple = ()
    numpy: tuple = ()             # NumPy callables this op stands for
    operands: tuple = ()          # positional parameter names of forward
    variadic: str | None = None   # the name of forward's ``*operands`` parameter, if it has one
    static: dict = field(default_factory=dict)  # keyword-only parameter -> default
    absent_cotangent_is_none: bool = False       # dout holds None (not zeros) for an unread output
    canonical: Callable | None = None            # (*operands, **static) -> static in forward's form
    complex_rule: str = "conjugate_operands"     # how the rule meets complex operands (complexadjoint)
    complex_refusal: str | None = None           # MindSpore's error for a gradient through complex operands
    complex_refusal_spares_scalars: bool = False  # no refusal when an operand is a Python number

    @property
    def differentiable(self) -> bool:
        return self.adjoint is not None

    @functools.cached_property
    def draws_random(self) -> bool:
        """Whether ``forward`` draws random numbers (``rt.default_rng()``, or a random kernel's ``rt.draw_*``: the
        sources of randomness of templates): such an op never runs at compile time (folding, dtype probes)."""
        return any(isinstance(node, ast.Attribute) and (node.attr == "default_rng" or node.attr.startswith("draw_"))
                   for node in ast.walk(self.forward_ast()))

    @property
    def has_effects(self) -> bool:
        """Whether running the op does more than compute its result: it draws from the seeded generator
        or talks to the other ranks (a collective). Such an op runs only when the kernel runs, never at
        compile time (constant folding, dtype probes, values read by the JIT fallback)."""
        return self.draws_random or self.family == "collective"

    def forward_ast(self) -> ast.FunctionDef:
        """The parsed ``forward`` function, for inlining by codegen."""
        return function_ast(self.forward)

    def adjoint_ast(self) -> ast.FunctionDef:
        """The parsed ``adjoint`` function, for inlining by the differentiator."""
        if self.adjoint is None:
            raise TypeError(f"op {self.name!r} has no adjoint")
        return function_ast(self.adjoint)


_FUNCTION_AST_CACHE: dict = {}
_NO_DEFAULT = inspect.Parameter.empty   # the default of a keyword-only parameter without one


def function_ast(fn: Callable) -> ast.FunctionDef:
    """Parse one template function (cached: the templates never change while running)."""
    tree = _FUNCTION_AST_CACHE.get(fn)
    if tree is None:
        tree = parse_source(fn)[0].body[0]
        _FUNCTION_AST_CACHE[fn] = tree
    return tree


def _tangent_of(cls):
    """The forward-mode rule of a template class: its own ``tangent``, else its family's ``TANGENT``
    (read from the module being loaded); None for an op without an adjoint."""
    if cls.__dict__.get("adjoint") is None:
        return None
    tangent = cls.__dict__.get("tangent")
    if tangent is None:
        tangent = getattr(sys.modules.get(cls.__module__), "TANGENT", None)
    if tangent is None:
        raise TypeError(f"op {cls.__name__!r} has an adjoint but no tangent rule: give it a tangent, or its "
                        "family a TANGENT")
    if isinstance(tangent, str) and tangent not in TANGENT_KINDS:
        raise ValueError(f"op {cls.__name__!r}: unknown tangent kind {tangent!r}; expected one of {TANGENT_KINDS}")
    return tangent


def op(*, infer: Callable, aliases: tuple = (), numpy: tuple = (), operand_dtype: Callable | None = None):
    """Class decorator that turns a template class into an :class:`OpDef` (see module doc)."""

    def register(cls) -> OpDef:
        forward = cls.__dict__["forward"]
        # the parameters read off the code object (inspect.signature costs ~30 us per op)
        code, keyword_defaults = forward.__code__, forward.__kwdefaults__ or {}
        positional = code.co_varnames[:code.co_argcount]
        keyword_only = code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount]
        variadic = code.co_varnames[code.co_argcount + code.co_kwonlyargcount] if code.co_flags & 0x04 else None
        definition = OpDef(
            name=cls.__name__,
            family=cls.__module__.rsplit(".", 1)[-1],
            forward=forward,
            infer=infer,
            adjoint=cls.__dict__.get("adjoint"),
            tangent=_tangent_of(cls),
            operand_dtype=operand_dtype,
            aliases=tuple(aliases),
            numpy=tuple(numpy),
            operands=positional,
            variadic=variadic,
            static={name: keyword_defaults.get(name, _NO_DEFAULT) for name in keyword_only},
            absent_cotangent_is_none=cls.__dict__.get("absent_cotangent_is_none", False),
            canonical=cls.__dict__.get("canonical"),
            complex_rule=cls.__dict__.get("complex_rule", "conjugate_operands"),
            complex_refusal=cls.__dict__.get("complex_refusal"),
            complex_refusal_spares_scalars=cls.__dict__.get("complex_refusal_spares_scalars", False),
        )
        return definition

    return register


class OpTable:
    """All op definitions by name and alias, loaded once from the template package.

    A family's definitions are the :class:`OpDef` objects its module defines (found among the
    module's attributes, in definition order), so building the table has no global side state and
    works whether or not a template module was imported before.
    """

    def __init__(self):
        self._by_name: dict[str, OpDef] = {}
        for family in TEMPLATE_FAMILIES:
            module = importlib.import_module(f"npspore.codegen_templates.{family}")
            for definition in vars(module).values():
                if not isinstance(definition, OpDef) or definition.family != family:
                    continue  # an op imported from another family is registered there
                for name in (definition.name, *definition.aliases):
                    if name in self._by_name:
                        raise RuntimeError(f"op {name!r} is defined twice in codegen_templates")
                    self._by_name[name] = definition

    def __getitem__(self, name: str) -> OpDef:
        return self._by_name[name]

    def __contains__(self, name: str) -> bool:
        return name in self._by_name

    def definitions(self) -> list[OpDef]:
        """Each definition once, in table order."""
        seen: dict[str, OpDef] = {}
        for definition in self._by_name.values():
            seen.setdefault(definition.name, definition)
        return list(seen.values())


_TABLE: OpTable | None = None
_TABLE_LOCK = threading.Lock()


def op_table() -> OpTable:
    """The process-wide op table (loaded on first use; safe when several threads ask at once).

    The table is published only once it is complete, so no thread ever sees a partial table.
    """
    global _TABLE
    table = _TABLE
    if table is None:
        with _TABLE_LOCK:
            if _TABLE is None:
                _TABLE = OpTable()
            table = _TABLE
    return table


def call(name: str, *operands, **static):
    """Run op ``name`` on NumPy arrays, from inside another op's rule (``call("erf", x)``).

    When an operand is a tracer (an object with ``__npspore_stage__``), the call is handed to it
    instead, so a rule using ``call`` can be staged into normal form as well as run.
    """
    for operand in operands:
        stage = getattr(operand, "__npspore_stage__", None)
        if stage is not None:
            return stage(name, operands, static)
    return op_table()[name].forward(*operands, **static)
