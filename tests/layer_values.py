"""Shared by the layer tests that compare with values observed on MindSpore: how the weights were set
there, and how a layer's (nested) outputs are flattened for comparison."""
from __future__ import annotations

import numpy as np

from npspore import Tensor


def set_weights(net, dtype=np.float32):
    """Set every parameter, in name order, from ``default_rng(0).uniform(-0.5, 0.5, shape)``: the same
    script set MindSpore's parameters when the expected values were observed."""
    rng = np.random.default_rng(0)
    for p in sorted(net.get_parameters(), key=lambda p: p.name):
        p.set_data(Tensor(rng.uniform(-0.5, 0.5, p.shape).astype(dtype)))
    return net


def output_leaves(out) -> list:
    """The arrays of a (nested tuple of) Tensor output, in order."""
    if isinstance(out, (tuple, list)):
        return [leaf for item in out for leaf in output_leaves(item)]
    return [out.asnumpy()]
