"""What a compile target is made of: the user's function under any ``@jit`` wrappers, and the object
it is bound to (a Cell for ``construct``, the instance of a bound method).

Light on purpose: the disk-cache path (``compiler.diskload``) and the API's front doors need it
without loading the compiler's stages.
"""
from __future__ import annotations

import inspect

from .library import LIBRARY


def unbind(target):
    """``(function, self_or_None)`` for a Cell, a bound method, a jit wrapper or a plain function."""
    if LIBRARY.is_cell(target):
        return plain_function(inspect.getattr_static(type(target), "construct")), target
    if inspect.ismethod(target):
        return plain_function(target.__func__), target.__self__
    return plain_function(target), None


def plain_function(fn):
    """The user's function under any ``@jit`` wrappers."""
    while hasattr(fn, "__npspore_function__"):
        fn = fn.__npspore_function__
    return fn
