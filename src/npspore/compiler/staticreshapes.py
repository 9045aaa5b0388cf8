"""Size-1 dims added or dropped as a reshape (optimize, a NumPy step).

``expand_dims`` and ``squeeze`` only change the shape: the elements stay in the same (C) order. With
the result's shape known at compile time, both are ``x.reshape(shape)``, the view a careful person
writes, where ``np.expand_dims`` (a Python function normalizing its axis, 2-3 us a call) and
``np.squeeze`` (a dispatching wrapper) cost several times the array method.

Export reads the IR before the NumPy steps, so an exported graph keeps its ``Unsqueeze``/``Squeeze``.
"""
from __future__ import annotations

from . import ir

_SIZE_ONE_DIMS = {"expand_dims", "squeeze"}


def lower_static_reshapes(function: ir.Function) -> None:
    """Rewrite each ``expand_dims``/``squeeze`` of ``function`` whose operand and result have static shapes
    into ``reshape`` to the result's shape, in place."""
    for stmt in ir.walk_stmts(function.body):
        if (isinstance(stmt, ir.Apply) and stmt.op in _SIZE_ONE_DIMS and isinstance(stmt.args[0], ir.Var)
                and None not in stmt.args[0].aval.shape and None not in stmt.targets[0].aval.shape):
            stmt.op = "reshape"
            stmt.static = {"shape": tuple(stmt.targets[0].aval.shape)}
