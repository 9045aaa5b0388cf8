"""``assert_kernels_equal``: the compiled kernel of a program gives what eager execution gives."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..common.tensor import Tensor

__all__ = ["assert_kernels_equal"]


def assert_kernels_equal(fn: Callable[..., Any], *args: Any, rtol: float = 0.0, atol: float = 0.0) -> None:
    """Run ``fn(*args)`` eagerly and compiled (``ms.jit``) and compare every output.

    With the default ``rtol=atol=0`` the outputs must be equal bit for bit (same structure, shapes,
    dtypes and values; NaNs equal where both have them), which is what npspore's generated NumPy
    gives for programs whose ops run in the same order.

    Args:
        fn: a function of Tensors or an ``nn.Cell`` (its source must be in a file).
        args: the inputs, passed to both runs.
        rtol: the relative tolerance of ``|compiled - eager| <= atol + rtol * |eager|`` (0: bit for bit).
        atol: the absolute tolerance of the same comparison.

    Raises:
        AssertionError: naming the output path where the two runs differ, with both values.
    """
    from ..jit import jit

    eager = fn(*args)
    compiled = jit(fn)(*args)
    _compare(eager, compiled, "output", rtol, atol)


def _compare(eager, compiled, path: str, rtol: float, atol: float) -> None:
    if isinstance(eager, (tuple, list)):
        assert isinstance(compiled, (tuple, list)) and len(compiled) == len(eager), (
            f"{path}: eager gives {type(eager).__name__} of {len(eager)}, compiled {compiled!r}")
        for index, (e, c) in enumerate(zip(eager, compiled)):
            _compare(e, c, f"{path}[{index}]", rtol, atol)
        return
    if not isinstance(eager, Tensor):
        assert eager == compiled, f"{path}: eager gives {eager!r}, compiled {compiled!r}"
        return
    assert isinstance(compiled, Tensor), f"{path}: eager gives a Tensor, compiled {type(compiled).__name__}"
    e, c = eager.asnumpy(), compiled.asnumpy()
    assert e.dtype == c.dtype and e.shape == c.shape, (
        f"{path}: eager gives {e.dtype}{list(e.shape)}, compiled {c.dtype}{list(c.shape)}")
    if rtol == 0 and atol == 0:
        assert np.array_equal(e, c, equal_nan=e.dtype.kind in "fc"), f"{path}: eager gives {e!r}, compiled {c!r}"
    else:
        np.testing.assert_allclose(c, e, rtol=rtol, atol=atol, err_msg=f"{path}: compiled vs eager")
