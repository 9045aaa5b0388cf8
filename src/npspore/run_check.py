"""``run_check``: MindSpore's installation check, a multiplication computed and checked."""
from __future__ import annotations

import numpy as np

from . import ops
from .common import dtype as mstype
from .common.tensor import Tensor
from .context import get_context
from .core.version import __version__

__all__ = ["run_check"]


def run_check() -> None:
    """Print npspore's version and whether a multiplication computes correctly, as MindSpore's does.

    Examples:
        >>> npspore.run_check()
        npspore version:  ...
        The result of multiplication calculation is correct, npspore has been installed on platform [CPU] successfully!
    """
    try:
        print("npspore version: ", __version__)
        product = ops.Mul()(Tensor(np.array([1.0, 2.0, 3.0]), mstype.float32),
                            Tensor(np.array([4.0, 5.0, 6.0]), mstype.float32)).asnumpy()
        if product.tolist() != [4.0, 10.0, 18.0]:
            raise ArithmeticError(f"[1, 2, 3] * [4, 5, 6] gave {product.tolist()}, not [4, 10, 18].")
        print("The result of multiplication calculation is correct, npspore has been installed on platform "
              f"[{get_context('device_target')}] successfully!")
    except Exception as error:  # noqa: BLE001 - reported, as MindSpore's check reports any failure
        print("npspore running check failed.")
        print(str(error))
