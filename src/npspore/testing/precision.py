"""The Parameters a program reads, and running it in float64 for a gradient check.

A gradient check compares in float64 (finite differences in float32 would need tolerances too loose
to catch a wrong rule), so the model's float32 Parameters are cast to float64 for the check and
restored afterwards: a float64 input meeting a float32 weight is a dtype error for ``Conv2D`` and
``MatMul``. The Parameters are found where a MindSpore program keeps them: those of a Cell, and for
a function (the usual ``forward_fn`` closing over ``net`` and ``loss_fn``) those of the Cells its
closure and the globals its code names hold.
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from typing import Any, Callable

from ..common import dtype as mstype
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ..nn.cell import Cell

__all__ = ["parameters_read_by", "float64_parameters"]


def parameters_read_by(fn: Callable[..., Any]) -> list[tuple[str, Parameter]]:
    """``[(path, Parameter)]`` of the Parameters ``fn`` reads: a Cell's own (``conv1.weight``), or for a
    function those of the Cells its closure and the globals its code names hold (``net.conv1.weight``),
    each Parameter once."""
    if isinstance(fn, Cell):
        return list(fn.parameters_and_names())
    code = getattr(fn, "__code__", None)
    if code is None:
        return []
    values = dict(zip(code.co_freevars, (cell.cell_contents for cell in fn.__closure__ or ())))
    namespace = getattr(fn, "__globals__", {})
    values.update((name, namespace[name]) for name in code.co_names if name in namespace and name not in values)
    found: dict[int, tuple[str, Parameter]] = {}
    for name, value in values.items():
        if isinstance(value, Cell):
            for path, param in value.parameters_and_names():
                found.setdefault(id(param), (f"{name}.{path}", param))
    return list(found.values())


@contextlib.contextmanager
def float64_parameters(params: Iterable[Parameter]) -> Iterator[None]:
    """Within the block, the floating ``params`` hold float64 copies of their data; restored on exit.

    Values written to them in the block (a check's perturbations, each undone) are dropped: on exit
    each Parameter gets back its dtype and the very values it had.
    """
    saved = [(param, param.dtype, param.data.asnumpy().copy()) for param in dict.fromkeys(params)
             if param.dtype in mstype.float_type and param.dtype != mstype.float64]
    for param, _, _ in saved:
        param.set_dtype(mstype.float64)
    try:
        yield
    finally:
        for param, dtype, values in saved:
            param.set_dtype(dtype)
            param.set_data(Tensor(values))
