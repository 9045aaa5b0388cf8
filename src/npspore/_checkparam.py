"""The helpers of MindSpore's private ``mindspore._checkparam`` that programs import: ``args_type_check`` and the
argument checks (``check_positive_int``, ``check_value_type`` ...), with MindSpore 2.10's messages."""
from __future__ import annotations

import functools
import inspect
from enum import IntEnum
from typing import Any, Callable

__all__ = ["args_type_check", "check_positive_int", "check_non_negative_int", "check_positive_float", "check_bool",
           "check_value_type", "check_is_int", "check_is_float", "check_non_negative_float", "check_float_range",
           "INC_NEITHER", "INC_LEFT", "INC_RIGHT", "INC_BOTH"]

# how a range includes its ends (MindSpore's values)
INC_NEITHER, INC_LEFT, INC_RIGHT, INC_BOTH = 7, 8, 9, 10


def args_type_check(*type_args: Any, **type_kwargs: Any) -> Callable[[Callable], Callable]:
    """A decorator checking the types of a function's arguments on each call, as MindSpore's:
    ``@args_type_check(device_num=int, parallel_mode=str)``. Types bind to the parameters as the call's
    arguments do (positionally or by name; a ``**kwargs`` parameter's entries by their keys); an argument
    that is None is not checked.

    Raises:
        TypeError: (on a call) ``The parameter 'NAME' must be TYPE, but got TYPE``.
    """
    def type_check(func: Callable) -> Callable:
        signature = inspect.signature(func)
        expected = signature.bind_partial(*type_args, **type_kwargs).arguments
        expected = expected.get("kwargs", expected)

        @functools.wraps(func)
        def checked(*args: Any, **kwargs: Any) -> Any:
            given = signature.bind(*args, **kwargs).arguments
            given = given.get("kwargs", given)
            for name, value in given.items():
                if name in expected and value is not None and not isinstance(value, expected[name]):
                    raise TypeError(f"The parameter '{name}' must be {expected[name]}, but got {type(value)}")
            return func(*args, **kwargs)
        return checked
    return type_check


def _subject(arg_name: str | None, prim_name: str | None) -> str:
    """``For 'Net', the 'x'`` / ``The 'x'`` / ``The input value``: how MindSpore's messages start."""
    if arg_name is None:
        return f"For '{prim_name}', the input value" if prim_name else "The input value"
    return f"For '{prim_name}', the '{arg_name}'" if prim_name else f"The '{arg_name}'"


def _check_number(arg_value: Any, kind: type, relation: str, arg_name: str | None, prim_name: str | None) -> Any:
    subject = _subject(arg_name, prim_name)
    requirement = f"must be {kind.__name__} and must {relation} 0, but got '{arg_value}' with type " \
                  f"'{type(arg_value).__name__}'."
    if isinstance(arg_value, bool):
        raise TypeError(f"{subject} {requirement}")
    if not isinstance(arg_value, kind):
        raise TypeError(f"{subject} must be {kind.__name__}, but got '{type(arg_value).__name__}'")
    if not (arg_value > 0 if relation == ">" else arg_value >= 0):
        raise ValueError(f"{subject} {requirement}")
    return arg_value


def check_positive_int(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> int:
    """``arg_value`` if it is an int above 0 (not a bool).

    Raises:
        TypeError: if it is not an int. ValueError: if it is not positive.
    """
    return _check_number(arg_value, int, ">", arg_name, prim_name)


def check_non_negative_int(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> int:
    """``arg_value`` if it is an int of at least 0 (not a bool).

    Raises:
        TypeError: if it is not an int. ValueError: if it is negative.
    """
    return _check_number(arg_value, int, ">=", arg_name, prim_name)


def check_positive_float(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> float:
    """``arg_value`` if it is a float above 0.

    Raises:
        TypeError: if it is not a float. ValueError: if it is not positive.
    """
    return _check_number(arg_value, float, ">", arg_name, prim_name)


def check_bool(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> bool:
    """``arg_value`` if it is a bool.

    Raises:
        TypeError: if it is not.
    """
    if not isinstance(arg_value, bool):
        raise TypeError(f"{_subject(arg_name, prim_name)} must be a bool, but got {type(arg_value).__name__}.")
    return arg_value


def check_value_type(arg_name: str, arg_value: Any, valid_types: Any, prim_name: str | None = None) -> Any:
    """``arg_value`` if it is an instance of one of ``valid_types`` (a type or a list/tuple of them; a bool is
    no int unless ``bool`` is listed).

    Raises:
        TypeError: if it is not.
    """
    types = tuple(valid_types) if isinstance(valid_types, (list, tuple)) else (valid_types,)
    if isinstance(arg_value, types) and (not isinstance(arg_value, bool) or bool in types):
        return arg_value
    names = [t.__name__ for t in types]
    expected = f"'{names[0]}'" if len(names) == 1 else f"one of '{names}'"
    subject = f"For '{prim_name}', the type of '{arg_name}'" if prim_name else f"The type of '{arg_name}'"
    raise TypeError(f"{subject} should be {expected}, but got type '{type(arg_value).__name__}'.")


def _check_is(arg_value: Any, kind: type, arg_name: str | None, prim_name: str | None) -> Any:
    if isinstance(arg_value, kind) and not isinstance(arg_value, bool):
        return arg_value
    name = "input value" if arg_name is None else f"'{arg_name}'"
    subject = f"For '{prim_name}', the type of {name}" if prim_name else f"The type of {name}"
    raise TypeError(f"{subject} must be '{kind.__name__}', but got '{type(arg_value).__name__}'.")


def check_is_int(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> int:
    """``arg_value`` if it is an int (not a bool).

    Raises:
        TypeError: if it is not.
    """
    return _check_is(arg_value, int, arg_name, prim_name)


def check_is_float(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> float:
    """``arg_value`` if it is a float.

    Raises:
        TypeError: if it is not.
    """
    return _check_is(arg_value, float, arg_name, prim_name)


def check_non_negative_float(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> float:
    """``arg_value`` if it is a float of at least 0.

    Raises:
        TypeError: if it is not a float. ValueError: if it is negative.
    """
    return _check_number(arg_value, float, ">=", arg_name, prim_name)


def check_float_range(arg_value: Any, lower_limit: float, upper_limit: float, rel: int, arg_name: str | None = None,
                      prim_name: str | None = None) -> float:
    """``arg_value`` if it is a float within ``lower_limit`` .. ``upper_limit``, each end included as ``rel``
    (``INC_NEITHER``, ``INC_LEFT``, ``INC_RIGHT`` or ``INC_BOTH``) says.

    Raises:
        TypeError: if it is not a float. ValueError: if it is outside the range.
    """
    return _check_range(arg_value, lower_limit, upper_limit, rel, float, arg_name, prim_name)


def _check_range(arg_value: Any, lower_limit: float, upper_limit: float, rel: int, kind: type,
                 arg_name: str | None, prim_name: str | None) -> Any:
    subject = "The 'parameter'" if arg_name is None and prim_name is None else _subject(arg_name, prim_name)
    if not isinstance(arg_value, kind) or isinstance(arg_value, bool):
        raise TypeError(f"{subject} must be '{kind.__name__}',  but got '{type(arg_value).__name__}'.")
    left = rel in (INC_LEFT, INC_BOTH)
    right = rel in (INC_RIGHT, INC_BOTH)
    inside = ((lower_limit <= arg_value) if left else (lower_limit < arg_value)) and \
             ((arg_value <= upper_limit) if right else (arg_value < upper_limit))
    if not inside:
        raise ValueError(f"{subject} must be in range of {'[' if left else '('}{lower_limit}, {upper_limit}"
                         f"{']' if right else ')'}, but got {arg_value} with type '{type(arg_value).__name__}'.")
    return arg_value


# the relations and the remaining checks programs call
EQ, NE, LT, LE, GT, GE = 1, 2, 3, 4, 5, 6
_RELATIONS = {EQ: ("=", lambda a, b: a == b), NE: ("!=", lambda a, b: a != b), LT: ("<", lambda a, b: a < b),
              LE: ("<=", lambda a, b: a <= b), GT: (">", lambda a, b: a > b), GE: (">=", lambda a, b: a >= b)}


def check_int_range(arg_value: Any, lower_limit: int, upper_limit: int, rel: int, arg_name: str | None = None,
                    prim_name: str | None = None) -> int:
    """``arg_value`` if it is an int within ``lower_limit`` .. ``upper_limit`` (ends included as ``rel`` says).

    Raises:
        TypeError: if it is not an int. ValueError: if it is outside the range.
    """
    return _check_range(arg_value, lower_limit, upper_limit, rel, int, arg_name, prim_name)


def check(arg_name: str, arg_value: Any, value_name: str, value: Any, rel: int = EQ, prim_name: str | None = None,
          excp_cls: type = ValueError) -> Any:
    """``arg_value`` if it stands in relation ``rel`` (``EQ``, ``GT`` ...) to ``value`` (named ``value_name``).

    Raises:
        excp_cls: ``For 'P', the 'a' should be = b: 2, but got 1.``
    """
    symbol, holds = _RELATIONS[rel]
    if not holds(arg_value, value):
        prefix = f"For '{prim_name}', the" if prim_name else "The"
        subject = f"{prefix} '{arg_name}'" if " " not in arg_name else f"{prefix} {arg_name}"
        raise excp_cls(f"{subject} should be {symbol} {value_name}: {value}, but got {arg_value}.")
    return arg_value


def check_number(arg_name: str, arg_value: Any, value: Any, rel: int, prim_name: str | None) -> Any:
    """``arg_value`` if it stands in relation ``rel`` to the number ``value``.

    Raises:
        ValueError: ``For 'P', the argument 'a' must > 2, but got 1.``
    """
    symbol, holds = _RELATIONS[rel]
    if not holds(arg_value, value):
        raise ValueError(f"For '{prim_name}', the argument '{arg_name}' must {symbol} {value}, but got {arg_value}.")
    return arg_value


def check_string(arg_value: Any, valid_values: Any, arg_name: str | None = None, prim_name: str | None = None) -> str:
    """``arg_value`` if it is a str among ``valid_values``.

    Raises:
        ValueError: if it is not.
    """
    prefix = f"For '{prim_name}', the" if prim_name else "The"
    if not (isinstance(arg_value, str) and arg_value in valid_values):
        raise ValueError(f"{prefix} '{arg_name or 'parameter'}' must be str and must be in '{valid_values}', "
                         f"but got '{arg_value}'.")
    return arg_value


def check_type_name(arg_name: str, arg_type: Any, valid_types: Any, prim_name: str | None) -> Any:
    """``arg_type`` (a dtype; a tensor type's element type) if it is one of ``valid_types``.

    Raises:
        TypeError: ``For 'P', the 'a' should be one of [mindspore.float32, ...], but got 'mindspore.int32'.``
    """
    valid_types = valid_types if isinstance(valid_types, (list, tuple, set)) else (valid_types,)
    if hasattr(arg_type, "element_type"):   # a tensor type: its element's
        arg_type = arg_type.element_type()
    if arg_type not in valid_types:
        names = [t.__name__ if hasattr(t, "__name__") else t for t in valid_types]
        prefix = f"For '{prim_name}', the" if prim_name else "The"
        shown = arg_type.__name__ if hasattr(arg_type, "__name__") else repr(arg_type)
        raise TypeError(f"{prefix} '{arg_name}' should be {'one of ' if len(valid_types) > 1 else ''}"
                        f"{names if len(valid_types) > 1 else names[0]}, but got '{shown}'.")
    return arg_type


def check_isinstance(arg_name: str, arg_value: Any, classes: Any) -> Any:
    """``arg_value`` if it is an instance of ``classes``.

    Raises:
        ValueError: ``The parameter 'net' must be isinstance of <class ...>, but got 1.`` (MindSpore's type).
    """
    if not isinstance(arg_value, classes):
        raise ValueError(f"The parameter '{arg_name}' must be isinstance of {classes}, but got {arg_value}.")
    return arg_value


def check_equal_int(arg_value: Any, value: int, arg_name: str | None = None, prim_name: str | None = None) -> int:
    """``arg_value`` if it is the int ``value``.

    Raises:
        TypeError: if it is not an int (a bool included). ValueError: if it differs (``For 'P', the 'x' must be int
            and must = 4, but got '3' with type 'int'.``).
    """
    subject = _subject(arg_name, prim_name)
    if not isinstance(arg_value, int):
        raise TypeError(f"{subject} must be int, but got '{type(arg_value).__name__}'")
    if isinstance(arg_value, bool) or arg_value != value:
        error = TypeError if isinstance(arg_value, bool) else ValueError
        raise error(f"{subject} must be int and must = {value}, but got '{arg_value}' with type "
                    f"'{type(arg_value).__name__}'.")
    return arg_value


def check_element_type_of_iterable(arg_name: str, arg_value: Any, valid_types: Any, prim_name: str | None = None):
    """``arg_value`` (a list or tuple) if each element is an instance of one of ``valid_types``.

    Raises:
        TypeError: ``For 'P', the type of 'a' should be int, but got '1.0' with type 'float'.``
    """
    check_value_type(arg_name, arg_value, [list, tuple], prim_name)
    names = [t.__name__ if hasattr(t, "__name__") else str(t) for t in valid_types]
    prefix = f"For '{prim_name}', the" if prim_name else "The"
    for element in arg_value:
        if not isinstance(element, tuple(valid_types)):
            raise TypeError(f"{prefix} type of '{arg_name}' should be {'one of ' if len(names) > 1 else ''}"
                            f"{names if len(names) > 1 else names[0]}, but got '{element}' with type "
                            f"'{type(element).__name__}'.")
    return arg_value


def check_size_and_element_type_of_tuple(arg_name: str, arg_value: Any, expect_size: int, expect_element_type: type,
                                         prim_name: str | None = None) -> tuple:
    """``arg_value`` if it is a tuple of ``expect_size`` elements of type ``expect_element_type``, with MindSpore's
    messages (which name the elements' argument ``'arg_name'``, as MindSpore's do).

    Raises:
        TypeError: if it is not a tuple, or an element has another type. ValueError: if its size differs.
    """
    check_value_type(arg_name, arg_value, [tuple], prim_name)
    check_equal_int(len(arg_value), expect_size, arg_name + " size", prim_name)
    check_element_type_of_iterable("arg_name", arg_value, [expect_element_type], prim_name)
    return arg_value


__all__ += ["EQ", "NE", "LT", "LE", "GT", "GE", "check_int_range", "check", "check_number", "check_string",
            "check_type_name", "check_isinstance", "check_equal_int", "check_element_type_of_iterable",
            "check_size_and_element_type_of_tuple"]


# MindSpore 1.x's spellings: a Rel enumeration and a Validator class, which 2.0 replaced with the module's
# constants and functions above (scripts try ``from mindspore._checkparam import Validator`` first)
class Rel(IntEnum):
    """The relations of :func:`check` and the range checks, as MindSpore 1.x enumerated them (``Rel.GT``,
    ``Rel.INC_LEFT``). A member equals the module's constant of its name (``Rel.GT == GT``), so either is
    accepted where a relation is."""
    EQ = 1
    NE = 2
    LT = 3
    LE = 4
    GT = 5
    GE = 6
    INC_NEITHER = 7
    INC_LEFT = 8
    INC_RIGHT = 9
    INC_BOTH = 10
    IN = 11
    NOT_IN = 12


class Validator:
    """MindSpore 1.x's namespace of the checks: each function of this module as a static method
    (``Validator.check_positive_int(3, "n")``), and the relations as attributes (``Validator.GT``), which
    scripts written for both versions read from whichever of ``Validator`` and the module they imported."""


for _name in __all__:
    _value = globals()[_name]
    setattr(Validator, _name, staticmethod(_value) if callable(_value) else _value)
del _name, _value

__all__ += ["Rel", "Validator"]
