"""``Dropout2D`` and ``Dropout3D``, MindSpore's channel dropout primitives, from one factory.

``Dropout2D(keep_prob=0.5)(x)`` on an NCHW ``x`` (``Dropout3D``: NCDHW) keeps each whole channel with
probability ``keep_prob``, scaling it by ``1 / keep_prob``, and returns ``(output, mask)``, the mask a Bool
Tensor of ``x``'s shape, as MindSpore 2.10's CPU kernels do. The draws come from npspore's seeded generator.
"""
from __future__ import annotations

from .._checkparam import INC_BOTH, check_float_range, check_value_type
from ..common.tensor import Tensor
from .eager import run
from .nn_functional import _keep_mask
from .primitives import Primitive

__all__ = ["Dropout2D", "Dropout3D"]


def _channel_dropout(name: str, rank: int) -> type:
    """The primitive class ``name`` dropping whole channels of rank-``rank`` inputs."""

    class ChannelDropout(Primitive):
        def __init__(self, keep_prob: float = 0.5) -> None:
            super().__init__(name)
            check_value_type("keep_prob", keep_prob, float, name)
            check_float_range(keep_prob, 0.0, 1.0, INC_BOTH, "keep_prob", name)
            self.keep_prob = keep_prob
            self.add_prim_attr("keep_prob", keep_prob)

        def __call__(self, x: Tensor) -> tuple:
            if len(x.shape) != rank:
                raise ValueError(f"For primitive[{name}], the rank of input  must be equal to {rank} , but got "
                                 f"{len(x.shape)}.")
            if self.keep_prob == 0.0:
                return run("mul", x, 0), run("zeros_like", run("cast", x, dtype=bool))
            scaled = _keep_mask(x, tuple(x.shape[:2]) + (1,) * (rank - 2), 1.0 - self.keep_prob)
            mask = run("broadcast_to", run("greater", scaled, 0), shape=tuple(x.shape))
            return run("mul", x, scaled), mask

    ChannelDropout.__name__ = ChannelDropout.__qualname__ = name
    ChannelDropout.__doc__ = (f"``{name}(keep_prob=0.5)(x)``: each channel of the rank-{rank} ``x`` kept with "
                              f"probability ``keep_prob`` and scaled by ``1 / keep_prob``; ``(output, Bool mask)``.")
    return ChannelDropout


Dropout2D = _channel_dropout("Dropout2D", 4)
Dropout3D = _channel_dropout("Dropout3D", 5)
