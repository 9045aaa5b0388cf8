"""Functions overloaded on their arguments' types and maps over sequences, as ``mindspore.ops``:
``MultitypeFuncGraph``, ``HyperMap`` and ``Map`` (also ``ops.composite.*``).

A :class:`MultitypeFuncGraph` holds functions registered under MindSpore's type names
(``@fn.register("Tensor", "Tensor")``); a call runs the first whose types match the arguments.
:class:`HyperMap` applies a function to the leaves of nested tuples and lists, :class:`Map` to the
items of flat ones. The model zoo's optimizers, gradient clipping and gradient accumulation use them
as ``self.hyper_map(ops.partial(grad_scale, scale), grads)``.

All three are written in the compilable subset: compiled code (``construct`` under ``jit``, a
``TrainOneStepCell``) steps into their ``__call__`` as into any library code, so the dispatch is decided
at compile time from the arguments' types and only the chosen function is staged.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor

__all__ = ["MultitypeFuncGraph", "HyperMap", "Map"]

# MindSpore's type names for Python numbers (``str_to_type``), and the Python types each one matches;
# a Python int is an Int64 and a float a Float64 there, a bool is a Number but no Int.
_NUMBER_NAMES = {
    "Number": (bool, int, float, complex, np.number, np.bool_),
    "Bool": (bool, np.bool_),
    "Int": (int, np.signedinteger),
    "UInt": (np.unsignedinteger,),
    "Float": (float, np.floating),
    "Complex": (complex, np.complexfloating),
}
_SEQUENCE_NAMES = {"Tuple": tuple, "List": list, "Dictionary": dict, "String": str, "Slice": slice}
# Names MindSpore accepts for values npspore has no class of (sparse tensors, monads): registering
# under them is allowed, and they match no argument.
_UNMATCHED_NAMES = ("RowTensor", "COOTensor", "CSRTensor", "MapTensor", "Undetermined", "Keyword",
                    "UMonad", "IOMonad", "Problem")


class _TypeName:
    """One type of a registered signature: MindSpore's name for it and what it matches."""

    def __init__(self, spelling: str, kind: str, dtype: Any = None):
        self.spelling = spelling  # as registered: "Tensor[Float32]", "Number", "mindspore.int64"
        self.kind = kind          # "Tensor", a name of _NUMBER_NAMES/_SEQUENCE_NAMES, "Function", ...
        self.dtype = dtype        # a Tensor's element type, or a number's exact dtype; None for any

    def __repr__(self) -> str:
        return self.spelling

    def matches(self, value) -> bool:
        """Whether ``value`` (a Python value, a Tensor, or a tensor value of compiled code) is of this type."""
        kind = self.kind
        if isinstance(value, Tensor):
            return kind == "Tensor" and (self.dtype is None or value.dtype == self.dtype)
        if kind == "Tensor":
            return False
        if kind == "Function":
            return callable(value) and not isinstance(value, type)
        if kind == "None":
            return value is None
        if kind == "TypeType":
            return isinstance(value, mstype.Type)
        if kind == "Ellipsis":
            return value is Ellipsis
        if kind in _SEQUENCE_NAMES:
            return isinstance(value, _SEQUENCE_NAMES[kind])
        if kind in _NUMBER_NAMES:
            if kind not in ("Number", "Bool") and isinstance(value, (bool, np.bool_)):
                return False
            if not isinstance(value, _NUMBER_NAMES[kind]):
                return False
            return self.dtype is None or _number_dtype(value) == self.dtype
        return False


def _number_dtype(value) -> mstype.Type:
    """MindSpore's dtype of a Python or NumPy number: int is Int64, float Float64, bool Bool."""
    if isinstance(value, np.generic):
        return mstype.nptype_to_dtype(value.dtype)
    return mstype.pytype_to_dtype(type(value))


def _parse_dtype(name: str) -> mstype.Type | None:
    """The dtype spelled ``name`` (``Float32``, ``Int64``, ``Bool``), or None."""
    candidate = getattr(mstype, name.lower(), None)
    if isinstance(candidate, mstype.Type) and str(candidate) == name:
        return candidate
    return None


def _type_name(type_input) -> _TypeName:
    """A registered type: one of MindSpore's type names or a dtype object (``mstype.float32``)."""
    if isinstance(type_input, mstype.TensorType):
        return _TypeName(repr(type_input), "Tensor", type_input.element_type())
    if isinstance(type_input, mstype.Type):
        kind = next(k for k in ("Bool", "Int", "UInt", "Float", "Complex", "Number")
                    if isinstance(type_input, getattr(mstype, k, mstype.Number)))
        return _TypeName(repr(type_input), kind, type_input if type_input.nbits else None)
    if not isinstance(type_input, str):
        raise TypeError(f"For 'MultitypeFuncGraph', register only support str or {mstype.Type}, but got "
                        f"'type_input': {type_input}.")
    if type_input.startswith("Tensor[") and type_input.endswith("]"):
        element = _parse_dtype(type_input[len("Tensor["):-1])
        if element is not None:
            return _TypeName(type_input, "Tensor", element)
    if type_input in ("Tensor", "Function", "None", "TypeType", "Ellipsis", *_NUMBER_NAMES, *_SEQUENCE_NAMES,
                      *_UNMATCHED_NAMES):
        return _TypeName(type_input, type_input)
    dtype = _parse_dtype(type_input)
    if dtype is not None and isinstance(dtype, mstype.Number):
        return _type_name(dtype)
    raise RuntimeError(f"Unsupported type name: {type_input}!")


def _argument_type(value) -> str:
    """How the no-match error names an argument's type (``Tensor[Float32]``, ``Int64``, ``Tuple``)."""
    if isinstance(value, Tensor):
        return f"Tensor[{value.dtype}]"
    if isinstance(value, (bool, int, float, complex, np.number, np.bool_)):
        return str(_number_dtype(value))
    for name, cls in _SEQUENCE_NAMES.items():
        if isinstance(value, cls):
            return name
    if value is None:
        return "None"
    return "Function" if callable(value) else type(value).__name__


class MultitypeFuncGraph:
    """A function overloaded on the types of its arguments.

    Register each implementation with :meth:`register` and MindSpore's type names; a call runs the
    first registered implementation whose types all match the arguments (in registration order; with
    one implementation registered it runs whatever the types, as MindSpore's). It works with
    :class:`HyperMap` and :class:`Map`, eagerly and in compiled code, where the implementation is chosen
    at compile time.

    Type names: ``"Tensor"`` (any Tensor or Parameter), ``"Tensor[Float32]"`` (of that dtype),
    ``"Number"`` (bool, int, float, complex), ``"Bool"``, ``"Int"``, ``"Float"``, ``"Int64"``,
    ``"Float32"`` ..., ``"Tuple"``, ``"List"``, ``"Dictionary"``, ``"String"``, ``"None"``,
    ``"Function"`` (a function, Primitive or Cell), ``"TypeType"`` (a dtype), or dtype objects
    (``mstype.int64``).

    Args:
        name (str): Operator name.
        read_value (bool, optional): MindSpore passes Parameters by value when ``True``; npspore's
            registered functions always see the arguments as given. Default: ``False``.

    Raises:
        TypeError: If an argument is a ``numpy.ndarray``.
        ValueError: If no registered implementation matches the arguments' types.
        RuntimeError: On registering an unknown type name (``Unsupported type name: X!``).

    Examples:
        >>> add = ops.MultitypeFuncGraph('add')
        >>> @add.register("Number", "Number")
        ... def add_scala(x, y):
        ...     return x + y
        >>> @add.register("Tensor", "Tensor")
        ... def add_tensor(x, y):
        ...     return ops.add(x, y)
        >>> print(add(1, 2))
        3
    """

    def __init__(self, name: str, read_value: bool = False):
        self.name_ = name
        self.read_value = read_value
        self.entries: list[tuple[tuple[_TypeName, ...], Callable]] = []

    def __call__(self, *args):
        for arg in args:
            if isinstance(arg, np.ndarray):
                raise TypeError("For 'MultitypeFuncGraph', the input can not be numpy.ndarray")
        if len(self.entries) == 1:
            return self.entries[0][1](*args)
        for types, fn in self.entries:
            if len(types) == len(args) and _all_match(types, args):
                return fn(*args)
        registered = [(types, getattr(fn, "__name__", fn)) for types, fn in self.entries]
        raise ValueError(f"For 'MultitypeFuncGraph', cannot find fn match given args. Got (sigs, fn): "
                         f"{registered}, and (dtype, args): {tuple(_argument_type(a) for a in args)}.")

    def register(self, *type_names) -> Callable[[Callable], Callable]:
        """A decorator registering a function for the given types.

        Args:
            type_names (Union[str, :class:`mindspore.dtype`]): one type per argument of the function.

        Returns:
            decorator, registering the function (and returning it unchanged) for calls whose
            arguments have the types described in ``type_names``.
        """

        def deco(fn: Callable) -> Callable:
            types = tuple(_type_name(t) for t in type_names)
            self.entries.append((types, fn))
            return fn

        return deco


def _all_match(types, args) -> bool:
    for type_name, arg in zip(types, args):
        if not type_name.matches(arg):
            return False
    return True


def _check_lengths(who: str, sequences, message: str) -> None:
    for sequence in sequences:
        if not isinstance(sequence, (tuple, list)):
            raise TypeError(f"For '{who}', when the first input is a sequence every input must be a tuple "
                            f"or a list, but got {_argument_type(sequence)}.")
        if len(sequence) != len(sequences[0]):
            raise RuntimeError(message)


def _hyper_map(fn, args) -> Any:
    """``fn`` applied to the leaves of ``args``, which have the same nested tuple/list structure.

    Written without recursion (compiled code refuses recursive calls): nested sequences wait in
    ``pending``, each with the list its results go to; the lists become tuples innermost first.
    """
    if not isinstance(args[0], (tuple, list)):
        return fn(*args)
    results: list = []
    pending = [(args, results)]
    nested = []   # (results of a nested row, the list holding them, their index there), outermost first
    while pending:
        rows, out = pending.pop(0)
        _check_lengths("HyperMap", rows, "The tuples in HyperMap should have the same length.")
        for items in zip(*rows):
            if isinstance(items[0], (tuple, list)):
                inner: list = []
                nested.append((inner, out, len(out)))
                pending.append((items, inner))
                out.append(inner)
            else:
                out.append(fn(*items))
    for inner, out, index in reversed(nested):
        out[index] = tuple(inner)
    return tuple(results)


class _SequenceMap:
    """What HyperMap and Map share: the operation (or None: the first input of each call) and the
    ``reverse`` flag (MindSpore's graph mode may apply the operation in reverse order; the results are
    the same).

    Raises:
        TypeError: If ``ops`` is neither callable nor None.
    """

    def __init__(self, ops=None, reverse: bool = False):
        if ops is not None and not callable(ops):
            raise TypeError(f"For '{type(self).__name__}', the 'ops' should be a MultitypeFuncGraph, a function or "
                            f"None, but got {type(ops).__name__}.")
        self.ops = ops
        self.reverse = reverse

    def _split(self, args) -> tuple:
        """The operation and the sequences of a call."""
        return (args[0], args[1:]) if self.ops is None else (self.ops, args)


class HyperMap(_SequenceMap):
    """Applies an operation to every leaf of (nested) sequences: for tuples or lists of the same length,
    the tuple of ``HyperMap(ops)(*row)`` over their rows, recursively; for leaves (Tensors, numbers ...),
    ``ops(*leaves)``. Different from :class:`Map`, nested structures are followed.

    Args:
        ops (Union[MultitypeFuncGraph, None], optional): the operation; ``None``: the first input of each
            call. Default: ``None``.
        reverse (bool, optional): accepted; the results do not depend on it. Default: ``False``.

    Raises:
        TypeError: If ``ops`` is not callable nor None, or an input is not a sequence where the first is.
        RuntimeError: If the sequences' lengths differ.

    Examples:
        >>> square = ops.MultitypeFuncGraph('square')
        >>> @square.register("Tensor")
        ... def square_tensor(x):
        ...     return ops.square(x)
        >>> ops.HyperMap()(square, ((Tensor(1.0), Tensor(2.0)), (Tensor(3.0),)))
    """

    def __call__(self, *args):
        return _hyper_map(*self._split(args))


class Map(_SequenceMap):
    """Applies an operation to the items of sequences: ``Map(ops)(a, b)`` is the tuple of
    ``ops(a[i], b[i])``; nested sequences are passed to ``ops`` whole (see :class:`HyperMap`, whose
    arguments it takes).

    Raises:
        TypeError: If ``ops`` is not callable nor None, or an input is not a tuple or list.
        RuntimeError: If the sequences' lengths differ.
    """

    def __call__(self, *args):
        fn, sequences = self._split(args)
        if not sequences:
            raise TypeError("map() must have at least two arguments.")
        _check_lengths("Map", sequences, "For 'Map', the length of tuples must be the same.")
        results = []
        for items in zip(*sequences):
            results.append(fn(*items))
        return tuple(results)
