"""The runtime that generated modules import (as ``rt``): only what plain NumPy cannot say."""
from __future__ import annotations

import numpy as np

from .common.seed import default_rng as _seeded_rng
from .common.tensor import Tensor


def show(*values) -> None:
    """``print`` inside compiled code: arrays print as the Tensors they are in eager mode."""
    print(*(Tensor._wrap(v) if isinstance(v, np.ndarray) else v for v in values))


def default_rng():
    """npspore's seeded NumPy generator (``npspore.set_seed``), for random ops such as dropout."""
    return _seeded_rng()


# Collectives: codegen_templates/collective.py calls these (one MPI call each, see npspore.communication).
from .communication.transport import all_gather, all_reduce, broadcast, reduce, reduce_scatter  # noqa: E402,F401
