"""Python builtins given tensors in compiled code, as MindSpore's graph mode runs them.

MindSpore 2.10 implements Python's builtins for graph mode in ``mindspore/graph/_parse/standard_method.py``
(``ms_max``, ``ms_min``, ``filter_``...) and, for what those do not cover, runs Python on the values
(its JIT fallback). :class:`TensorBuiltins` is the part of
:class:`~npspore.compiler.specialize.FunctionSpecializer` that gives the same results:

==========================  ==================================================================
``tuple(x)``, ``list(x)``   the rows of ``x`` as tensors (``x[0]``, ``x[1]``...)
``max(x)``, ``min(x)``      ``x.max()``/``x.min()`` of a 1-D ``x`` (a 0-d tensor); of several 0-d
                            or one-element tensors, or of a tuple or list of them, their maximum
``str(x)``                  the printed values (``'[10]'``), computed when the kernel runs
``type(x)``                 the Tensor class (``Parameter`` for a captured Parameter)
``hasattr(x, name)``        whether Tensors have that attribute
==========================  ==================================================================

and a float computed from Python numbers in graph code is returned as the float32 scalar MindSpore's graph
computes (:meth:`TensorBuiltins.graph_arithmetic`).
``sum(x, start)`` adds the rows of ``x`` in ``Calls._sum``, as Python does.
"""
from __future__ import annotations

import builtins
import functools
from typing import Any, Callable

import numpy as np

from .library import MEANINGS
from .values import NeedsStatic, TensorValue, returned_value

TENSOR_BUILTINS = {builtins.tuple, builtins.list, builtins.max, builtins.min, builtins.str, builtins.type,
                   builtins.hasattr}
"""The builtins :meth:`TensorBuiltins.tensor_builtin` gives a meaning to when an argument is a tensor."""


class TensorBuiltins:
    """Mixin of FunctionSpecializer: builtins on tensor values (see the module docstring)."""

    program: Any                            # FunctionSpecializer's ProgramBuilder, and the methods this mixin calls
    _error: Callable[..., BaseException]
    _apply: Callable[..., Any]
    _iterate_static: Callable[..., Any]
    _class_of: Callable[..., type]
    _call_method: Callable[..., Any]
    host_call: Callable[..., Any]

    def graph_arithmetic(self, function, operands, frame):
        """``function(*operands)`` (an ``operator`` function, ``abs``) of Python numbers, computed now.

        MindSpore computes ``-x``, ``x + y``, ``x * y``, ``x ** y``, ``abs(x)`` of Python floats in its graph
        as float32 scalar ops: ``float(-123.6)`` returns ``-123.5999984741211``, ``0.1 + 0.2``
        ``0.30000001192092896``, ``0.1 ** 2`` ``0.010000000707805157``, ``1e40 * 1.0`` ``inf``; a float it
        only passes on (``0.1``, ``max(0.1, 0.2)``, ``float('0.1')``) stays as it is. A float result computed
        in the user's code of a graph-mode compile is returned as Python computes it, and its float32 value
        is recorded (``program.graph_floats``, by identity): the function returns that value where it
        returns this float (:meth:`graph_returned`). Tensor ops take the Python value, as eager mode does,
        so compiled code computes what eager code computes. npspore's own code and PYNATIVE compiles (a
        gradient function called in PYNATIVE mode) record nothing.
        """
        value = function(*operands)
        if type(value) is not float or MEANINGS.pynative or frame is None or frame.source.is_library:
            return value
        floats = self.program.graph_floats
        with np.errstate(all="ignore"):   # 1e40 is inf in float32
            graph = [np.float32(floats[id(o)][1] if id(o) in floats else o) if type(o) is float else o
                     for o in operands]
            floats[id(value)] = (value, float(np.float32(function(*graph))))
        return value

    def graph_returned(self, value):
        """What the function returns for ``value`` (``values.returned_value``), each float computed in its
        graph the float32 scalar MindSpore's graph computes (:meth:`graph_arithmetic`)."""
        return returned_value(value, self.program.graph_floats)

    def tensor_builtin(self, func, args, kwargs, frame, node):
        """``func(*args, **kwargs)`` for ``func`` in :data:`TENSOR_BUILTINS` with a tensor among the
        arguments. Raises MindSpore's TypeError or ValueError for ``max``/``min`` of a 0-d or 2-D tensor,
        and :class:`NeedsStatic` for a form MindSpore runs as Python on the values (``max(x, 2)``)."""
        if func in (builtins.tuple, builtins.list) and len(args) == 1 and not kwargs:
            return func(self._iterate_static(args[0], frame, node))
        if func in (builtins.max, builtins.min) and args and not kwargs:
            return self._extremum(func, args, frame, node)
        if func is builtins.str and len(args) == 1 and not kwargs:
            return self.host_call(str, args, {}, frame, node)
        if func is builtins.type and len(args) == 1 and not kwargs:
            return self._class_of(args[0])
        if func is builtins.hasattr and len(args) == 2 and isinstance(args[0], TensorValue) and not kwargs:
            return hasattr(self._class_of(args[0]), args[1])
        raise NeedsStatic(node)

    def _extremum(self, func, args, frame, node):
        """``max``/``min`` as MindSpore's ``ms_max``/``ms_min`` take tensors: of one tensor its largest
        (smallest) element, of 0-d or one-element tensors their maximum (minimum)."""
        name = "max" if func is builtins.max else "min"
        if len(args) == 1 and isinstance(args[0], TensorValue):
            rank = len(args[0].aval.shape)
            if rank == 0:
                raise self._error(TypeError("Cannot iterate over a scalar tensor."), frame, node)
            if rank >= 2:
                raise self._error(ValueError("The truth value of an array with more than one element is "
                                             "ambiguous."), frame, node)
            return self._call_method(args[0], name, (), {}, frame, node)
        items = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
        if not items or not all(isinstance(item, TensorValue) for item in items):
            raise NeedsStatic(node)
        if any(item.aval.shape not in ((), (1,)) for item in items):   # compared as Python compares them
            raise self._error(ValueError("The truth value of an array with more than one element is ambiguous."),
                              frame, node)
        op = "maximum" if func is builtins.max else "minimum"
        return functools.reduce(lambda a, b: self._apply(op, (a, b), {}), items)
