"""The helpers of MindSpore's private ``mindspore._checkparam`` that programs import: ``args_type_check`` and the
argument checks (``check_positive_int``, ``check_value_type`` ...), with MindSpore 2.10's messages."""
from __future__ import annotations

import functools
import inspect
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
    subject = "The 'parameter'" if arg_name is None and prim_name is None else _subject(arg_name, prim_name)
    if not isinstance(arg_value, float):
        raise TypeError(f"{subject} must be 'float',  but got '{type(arg_value).__name__}'.")
    left = rel in (INC_LEFT, INC_BOTH)
    right = rel in (INC_RIGHT, INC_BOTH)
    inside = ((lower_limit <= arg_value) if left else (lower_limit < arg_value)) and \
             ((arg_value <= upper_limit) if right else (arg_value < upper_limit))
    if not inside:
        raise ValueError(f"{subject} must be in range of {'[' if left else '('}{lower_limit}, {upper_limit}"
                         f"{']' if right else ')'}, but got {arg_value} with type '{type(arg_value).__name__}'.")
    return arg_value
