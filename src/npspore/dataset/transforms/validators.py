"""The argument checks of ``mindspore.dataset.transforms.validators`` that programs decorate their own transforms
with: ``check_random_transform_ops`` (of ``RandomChoice``, ``RandomApply`` and ``Compose``), with MindSpore 2.10's
messages."""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable

__all__ = ["check_random_transform_ops"]


def check_random_transform_ops(method: Callable) -> Callable:
    """Decorate an ``__init__(self, transforms[, prob])``: on each call its first argument must be a non-empty list
    of transform instances (callables, not classes) and its second, when the method has one (its default
    included), a number in [0, 1].

    Raises:
        TypeError: (on a call) if ``transforms`` is not a list, holds something not callable, or ``prob`` is not a
            number. ValueError: if ``transforms`` is empty, holds a class, or ``prob`` is outside [0, 1].
    """
    signature = inspect.signature(method)

    @functools.wraps(method)
    def checked(self: Any, *args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = list(bound.arguments.values())[1:]
        transforms = arguments[0]
        if not isinstance(transforms, list):
            raise TypeError(f"Argument transforms list with value {transforms} is not of type [<class 'list'>], but "
                            f"got {type(transforms)}.")
        if not transforms:
            raise ValueError("transforms list can not be empty.")
        for index, op in enumerate(transforms):
            if not callable(op) and not hasattr(op, "parse"):
                raise TypeError(f"transforms[{index}] is neither a transforms op (TensorOperation) nor a callable "
                                "pyfunc.")
            if type(op) is type:
                raise ValueError(f"op_list[{index}] should be a dataset processing operation instance, but got: {op}. "
                                 "It may be missing parentheses for instantiation.")
        if len(arguments) == 2:
            prob = arguments[1]
            if not isinstance(prob, (float, int)) or isinstance(prob, bool):
                raise TypeError(f"Argument prob with value {prob} is not of type [<class 'float'>, <class 'int'>], "
                                f"but got {type(prob)}.")
            if not 0 <= prob <= 1:
                raise ValueError("Input prob is not within the required interval of [0, 1].")
        return method(self, *args, **kwargs)

    return checked
