"""The one helper of MindSpore's private ``mindspore._checkparam`` that programs import: ``args_type_check``."""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable

__all__ = ["args_type_check"]


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
