"""The values the specializer threads through an interpreted function.

* :class:`TensorValue` — a tensor known only at run time: an IR variable of known shape and dtype.
  Every other Python value (shapes, flags, tuples, Cells) is itself: it is computed at compile time.
* :class:`HostValue` — a Python value computed from tensor values when the kernel runs.
* :class:`Slot` — a function input of a known aval, turned into a TensorValue when the function
  starts (``fresh_inputs``/``abstract_inputs`` make them from call arguments).
* :class:`Frame` — one interpreted activation: its parsed source and its local names (``env``).
* :class:`Completion` — how a block ended (normally, return, break, continue, or the ``EXIT`` of
  an iteration of a loop that stays a loop).
* :class:`Poison` — a name with no single value after tensor-dependent control flow.
* :class:`NeedsStatic` — raised where a Python value is required but a tensor was found (the
  caller retries by unrolling, or reports it).
"""
from __future__ import annotations

import ast
import contextlib
import functools

import numpy as np

from ..core import tree
from ..opdef import Aval
from . import ir
from .dynamicdims import UnknownDimUse
from .errors import NotSupportedError
from .library import LIBRARY, MEANINGS
from .signature import is_mutable_scalar, scalar_type


class TensorValue:
    """A tensor whose value is known only at run time: an IR atom plus its abstract value."""

    __slots__ = ("var",)

    def __init__(self, var: ir.Var):
        self.var = var

    @property
    def aval(self) -> Aval:
        return self.var.aval

    def __repr__(self) -> str:
        return f"TensorValue({self.var!r})"


class HostValue:
    """A Python value computed from tensor values when the kernel runs (MindSpore's JIT fallback:
    ``x.item()``, ``x.asnumpy()``, NumPy on them): ``var`` holds it in the kernel; ``concrete`` is
    what it is in the call being compiled (``compiler.fallback``)."""

    __slots__ = ("var", "concrete")

    def __init__(self, var: ir.Var, concrete):
        self.var, self.concrete = var, concrete

    def __repr__(self) -> str:
        return f"HostValue({self.var.name}={self.concrete!r})"


class NeedsStatic(Exception):
    """A tensor value was used where a Python value is required (raised to retry by unrolling).

    ``loc``: the innermost user statement it was raised in (set on the way out); ``MESSAGE`` is
    what the user reads when nothing retries."""

    loc = None
    MESSAGE = ("a tensor value is used where a Python constant is needed (an op attribute, an index "
               "into a tuple, a loop bound); compute it from shapes or pass it as a Python value")


class Poison:
    """A name with no single value after tensor-dependent control flow; reading it is an error
    (``error_type``, a NameError unless the name has a value of another type on each path)."""

    def __init__(self, name, reason, error_type=NameError):
        self.name, self.reason, self.error_type = name, reason, error_type

    def error(self) -> Exception:
        """The error reading the name raises."""
        return self.error_type(f"'{self.name}' {self.reason}")


class Completion:
    """How a block ended: normally, by ``return value``, ``break`` or ``continue`` — or, inside a
    loop that stays a loop, ``EXIT``: the iteration ended under a tensor condition and ``value`` is
    the flag telling whether it broke out of the loop — or ``MAYBE_RETURN``: it returned under a
    tensor condition on some paths and fell through on the others; ``value`` is ``(returned, out)``,
    the flag (a TensorValue) and the value returned where it is set — or ``MAYBE_EXIT``: inside a
    loop, it ended the iteration under a tensor condition on some paths only; ``value`` is
    ``(ended, broke)``, two TensorValue flags."""

    NORMAL, RETURN, BREAK, CONTINUE, EXIT, MAYBE_RETURN, MAYBE_EXIT = range(7)

    def __init__(self, kind, value=None):
        self.kind, self.value = kind, value


NORMAL = Completion(Completion.NORMAL)


class ConstIndex:
    """The start value of a loop index before the loop is staged."""

    def __init__(self, value):
        self.value = value


class StagedRange:
    """``range(start, stop, step)`` with a tensor bound (a dynamic dim's size): a ``for`` over it is staged as a
    While loop; ``step`` is a Python int."""

    def __init__(self, start, stop, step: int):
        self.start, self.stop, self.step = start, stop, step

    def __iter__(self):   # a comprehension or tuple(range(n)): the values would be needed while compiling
        raise UnknownDimUse("iterating over a range of a size known only when the kernel runs, other than in a for "
                            "loop, is not supported in compiled code")


MISSING = object()


class Frame:
    """One interpreted function activation, or a staged branch's or loop body's copy of it (:meth:`nested`): its
    source, its local names and the :class:`Scope` of the activation."""

    __slots__ = ("source", "env", "scope")

    def __init__(self, source, env, scope=None):
        self.source, self.env = source, env
        self.scope = Scope(env) if scope is None else scope

    def nested(self, env) -> "Frame":
        """A frame of the same activation over ``env`` (a staged branch or loop body): run it within
        ``frame.scope.running(frame)``, so that a closure made in the activation reads its names there."""
        return Frame(self.source, env, self.scope)


class Scope:
    """The names of one activation as a closure made there reads them when called (Python reads a free name at the
    call): those of the staged branch or loop body running now, else the activation's own."""

    __slots__ = ("top", "live")

    def __init__(self, env):
        self.top, self.live = env, []

    @property
    def env(self) -> dict:
        return self.live[-1] if self.live else self.top

    @contextlib.contextmanager
    def running(self, frame):
        self.live.append(frame.env)
        try:
            yield
        finally:
            self.live.pop()


class Closure:
    """A ``lambda`` evaluated, or a nested ``def`` run, in compiled code: its node and the frame it closes over; a
    call runs the body with the parameters bound (``calls.Calls._call_closure``), a gradient of it specializes it as
    a function of its own (``closures.py``)."""

    __slots__ = ("node", "frame")

    def __init__(self, node, frame):
        self.node, self.frame = node, frame

    @property
    def env(self) -> dict:
        """The names the body reads: those of its activation now (see :class:`Scope`)."""
        return self.frame.scope.env

    def __call__(self, *args, **kwargs):
        """Never run by Python: defined so that ``callable`` holds, as ``functools.partial`` and ``ops.partial``
        check (``ops.partial(f, x)`` of a lambda in construct); the specializer calls the closure itself."""
        raise TypeError("a function made in compiled code runs only where the compiler calls it")

    def as_python(self):
        """The lambda as a Python function (a hook run out of the kernel, ``Tensor.register_hook(lambda g: ...)``),
        reading the names it closes over as they are now; None for a nested ``def`` or a lambda reading a tensor
        value of compiled code."""
        if not isinstance(self.node, ast.Lambda):
            return None
        read = {n.id for n in ast.walk(self.node.body) if isinstance(n, ast.Name)}
        names = {k: v for k, v in self.env.items() if k in read}
        if any(isinstance(v, (TensorValue, Closure)) for v in names.values()):
            return None
        expression = ast.fix_missing_locations(ast.Expression(body=self.node))
        code = compile(expression, self.frame.source.filename, "eval")
        return eval(code, {**self.frame.source.globals, **names})  # noqa: S307 - the user's own lambda


def holds_closure(values) -> bool:
    """Whether a :class:`Closure` is among ``values``, their tuple, list and dict items, or a ``functools.partial``'s
    function and arguments: a function specialized on its own could not read the names it closes over."""
    pending = list(values)
    while pending:
        value = pending.pop()
        if isinstance(value, Closure):
            return True
        if isinstance(value, (tuple, list)):
            pending.extend(value)
        elif isinstance(value, dict):
            pending.extend(value.values())
        elif isinstance(value, functools.partial):
            pending.extend((value.func, *value.args, *value.keywords.values()))
    return False


class ReturnsClosure(NotSupportedError):
    """A function returns a lambda or nested def it made: its caller interprets the call in its own body
    instead (``Calls._call_user``), where the names the closure reads are still there."""


class BoundMethod:
    """A Tensor method looked up on a TensorValue (``x.sum``), called by interpreting its source."""

    __slots__ = ("function", "self_value")

    def __init__(self, function, self_value):
        self.function, self.self_value = function, self_value


class Slot:
    """A function input slot of a known aval, turned into a TensorValue when the function starts;
    ``array`` is the entry call's array (for reads of its values, ``compiler.fallback``) or None."""

    __slots__ = ("aval", "array")

    def __init__(self, aval, array=None):
        self.aval, self.array = aval, array


class ScalarSlot(Slot):
    """An input slot of a ``mutable`` Python scalar: a 0-d array param whose Python value (``value``,
    this call's) the function starts by reading (``compiler.fallback``)."""

    __slots__ = ("value",)

    def __init__(self, aval, array, value):
        super().__init__(aval, array)
        self.value = value


def holds_nested(kind, value, counts=lambda v: True) -> bool:
    """Whether ``value``, or an item of it at any depth of tuples and lists, is a ``kind`` that ``counts``."""
    if isinstance(value, (tuple, list)):
        return any(holds_nested(kind, item, counts) for item in value)
    return isinstance(value, kind) and counts(value)


def copy_container(original, items):
    """``items`` in ``original``'s container class when it can be rebuilt from them, else as they are."""
    try:
        return type(original)(items)
    except TypeError:
        return items


def flatten_abstract(value):
    """(tensor-and-scalar leaves, hashable structure) of an abstract value tree."""
    leaves: list = []

    def walk(v):
        if isinstance(v, TensorValue):
            leaves.append(v)
            return ("T", v.aval.shape, v.aval.dtype)
        if isinstance(v, (tuple, list)):
            return (type(v), bool(getattr(v, "__ms_mutable__", False)), tuple(walk(x) for x in v))
        if isinstance(v, dict):
            return (dict, tuple((k, walk(x)) for k, x in v.items()))
        try:
            hash(v)
            return ("C", type(v), v)
        except TypeError:
            return ("I", id(v))

    structure = walk(value)
    return [leaf for leaf in leaves], structure


class IndexSlot(Slot):
    """An input slot of an int that MindSpore has as a Python int (a kept range loop's index passed to a
    function): arithmetic making a float of it unrolls the loop, as in the caller
    (``FunctionSpecializer._python_int_arithmetic``)."""

    __slots__ = ()


def fresh_inputs(args, kwargs, python_ints=frozenset()):
    """Copies of abstract args whose TensorValues are placeholders, bound as params by ``build``
    (a namedtuple is passed as it is); those holding a Var of ``python_ints`` are :class:`IndexSlot`."""
    def fresh(v):
        if not isinstance(v, TensorValue):
            return v
        return IndexSlot(v.aval) if v.var in python_ints else Slot(v.aval)

    def is_leaf(v):
        return isinstance(v, TensorValue) or hasattr(v, "_fields")

    return tree.tree_map(fresh, tuple(args), is_leaf), tree.tree_map(fresh, dict(kwargs), is_leaf)


def abstract_inputs(args, dynamic=None):
    """Abstract values for concrete call arguments: Tensors become input slots, the rest stays.

    ``dynamic`` maps an argument index to a shape with ``None`` dims (from ``set_inputs``); a
    ``mutable`` scalar becomes a :class:`ScalarSlot`.
    """
    def slot(value, shape=None):
        if is_mutable_scalar(value):
            base = scalar_type(value)
            array = np.asarray(base(value))
            return ScalarSlot(Aval((), array.dtype), array, base(value))
        array = value._array
        return Slot(Aval(shape if shape is not None else array.shape, array.dtype), array)

    def is_leaf(value):
        return LIBRARY.is_tensor(value) or is_mutable_scalar(value)

    dynamic = dynamic or {}
    return tuple(slot(a, dynamic[i]) if i in dynamic and LIBRARY.is_tensor(a) else
                 tree.tree_map(slot, a, is_leaf) for i, a in enumerate(args))


def returned_value(value, graph_floats=None):
    """What compiled code returns for ``value``: a ``range`` becomes a tuple (MindSpore's graph mode
    returns its elements), a NumPy scalar computed at compile time the Python number it holds
    (``tuple(np.array([1, 2]))`` returns ``(1, 2)``) and a float in ``graph_floats`` (``id(float) -> (float,
    its float32 value)``) its float32 value, inside tuples, lists and dicts too.

    A returned tuple that holds a Python object MindSpore's graph mode makes in Python (a dict, None, a
    NumPy array, a class, an object computed from tensor values) comes back through its Python
    conversion, which makes each float of the tuple a float32 scalar: ``return 0.1, None`` returns
    ``(0.10000000149011612, None)``; ``return 0.1, 2`` returns ``(0.1, 2)`` and ``return 0.1, float(x)``
    ``(0.1, 1.0)``."""
    value = _returned(value, graph_floats or {})
    if type(value) is tuple and not MEANINGS.pynative and any(v is None or isinstance(v, (dict, np.ndarray, type)) or (
            isinstance(v, HostValue) and type(v.concrete) not in (bool, int, float)) for v in value):
        with np.errstate(over="ignore"):
            return tuple(float(np.float32(v)) if type(v) is float else v for v in value)
    return value


def _returned(value, graph_floats: dict):
    if type(value) is float and id(value) in graph_floats:
        return graph_floats[id(value)][1]
    if isinstance(value, range):
        return tuple(value)
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (tuple, list)):
        items = [_returned(v, graph_floats) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else copy_container(value, items)
    if isinstance(value, dict):
        return copy_container(value, {k: _returned(v, graph_floats) for k, v in value.items()})
    return value


def tree_node(value, counter):
    """The OutputTree node of a returned abstract value; ``counter`` numbers its tensor leaves."""
    if isinstance(value, TensorValue):
        return ("leaf", next(counter))
    if isinstance(value, HostValue):
        return ("host", next(counter))
    if isinstance(value, tuple):
        return ("tuple", tuple(tree_node(v, counter) for v in value))
    if isinstance(value, list):
        return ("list", tuple(tree_node(v, counter) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(value.keys()), tuple(tree_node(v, counter) for v in value.values()))
    return ("const", value)
