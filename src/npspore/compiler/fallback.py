"""Reading tensor values in compiled code (MindSpore's JIT fallback): ``x.asnumpy()``, ``x.item()``,
``x.tolist()``, ``bool(x)``, ``float(x)``, ``int(x)``, NumPy and ``math`` on tensors, ``assert``.

:class:`FallbackReads` is the part of :class:`~npspore.compiler.specialize.FunctionSpecializer` that
answers such a read with the value the tensor holds *in the call being compiled*: the statements
computing it are evaluated on the call's arrays (``ir.evaluate_block``), the kernel is specialized
on the value (the rest of the code is Python over it, folded at compile time; ``print`` of it still
runs at each call), and a value guard (``compiler.guards``) checks it inside the kernel before any
visible work, so a call whose value differs compiles again for that value.

A value can be read this way where the kernel can check it first: in the entry function, outside
tensor-dependent control flow and loops that stay loops. Elsewhere (a called Cell or function, a
branch of a tensor ``if``) the read is a compile error at the user's line.
"""
from __future__ import annotations

import math

import numpy as np

from . import ir
from .errors import NotSupportedError, located
from .guards import is_visible, place_value_guard, value_guard
from .library import LIBRARY
from .values import TensorValue

_HOST_MODULES = ("numpy", "math")


def is_host_function(func) -> bool:
    """Whether ``func`` is a NumPy or ``math`` function, run at compile time on read values."""
    if isinstance(func, np.ufunc):
        return True
    module = getattr(func, "__module__", None) or ""
    return callable(func) and not isinstance(func, type) and (
        module.split(".")[0] in _HOST_MODULES or getattr(math, getattr(func, "__name__", ""), None) is func)


class FallbackReads:
    """Mixin of FunctionSpecializer: reads of tensor values (see the module docstring).

    ``_concrete`` maps the Vars whose arrays this call has (inputs, captured Tensors) to them, or is
    None in a function called from compiled code, where no value can be read; ``_body`` is the
    function's top block; ``_reads`` the values already read, by (Var, kind).
    """

    def read_value(self, value: TensorValue, kind: str, read, frame, node):
        """``read(t)`` of the Tensor ``t`` that ``value`` holds in this call, guarded as ``kind``
        (``truth``, ``item`` or ``array``: see ``compiler.guards.ValueGuard``)."""
        loc = self._loc(frame, node) if frame is not None else self._user_loc
        array = self._concrete_array(value, loc)
        try:
            result = read(LIBRARY.wrap(array))
        except (TypeError, ValueError) as error:   # MindSpore's message for bool() of two elements...
            raise self._error(error, frame, node) from None
        key = (value.var, kind)
        if key not in self._reads:
            expected = (bool(array) if kind == "truth" else array.item() if kind == "item" else np.array(array))
            guards = self.program.guards
            index = guards.value_read(f"read at {loc}", kind, expected)
            place_value_guard(self._body, value_guard(value.var, kind, expected, index, loc), self.program.functions)
            self._reads[key] = expected
        return result

    def host_arguments(self, values, frame, node):
        """``values`` with each tensor value replaced by its array (read and guarded)."""
        def host(value):
            if isinstance(value, TensorValue):
                return self.read_value(value, "array", lambda t: np.array(t._array), frame, node)
            if isinstance(value, (tuple, list)):
                return type(value)(host(v) for v in value)
            return value

        return [host(v) for v in values]

    def _concrete_array(self, value: TensorValue, loc) -> np.ndarray:
        """The array ``value`` holds in this call: its statements evaluated on the call's arrays."""
        if self._concrete is None or self.builder.block is not self._body or self._dynamic_loops:
            where = ("in a function or Cell called from compiled code" if self._concrete is None else
                     "under tensor-dependent control flow")
            raise _cannot_read(where, loc)
        var = value.var
        if var in self._concrete:
            return self._concrete[var]
        needed, computing = {var}, []
        for stmt in reversed(self._body.stmts):
            if needed.intersection(ir.defined_vars(stmt)):
                computing.append(stmt)
                needed.update(ir.used_vars_deep(stmt))
        functions = self.program.functions
        if any(is_visible(stmt, functions) for stmt in computing):
            raise _cannot_read("from values a hook computes", loc)
        env = {v: a for v, a in self._concrete.items() if v in needed}
        ir.evaluate_block(ir.Block(computing[::-1]), env, ir.Module(functions, self.name))
        return np.asarray(env[var])


def _cannot_read(where: str, loc) -> NotSupportedError:
    return located(NotSupportedError(
        f"reading a tensor's value here ({where}): the kernel is specialized on such a value and checks it "
        "before it runs, which it can do only in the compiled function itself, outside tensor 'if'/'while'; "
        "read it there, or use npspore.ops"), loc)
