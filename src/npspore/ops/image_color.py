"""``RGBToHSV``'s conversion (its class comes from :mod:`primitive_table`): RGB in [0, 1] to hue, saturation
and value in [0, 1], as TensorFlow's ``rgb_to_hsv`` (which MindSpore's kernel follows), over ops of the op table."""
from __future__ import annotations

from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import functional as F
from .eager import run
from .numeric import _check_tensor

__all__ = ["rgb_to_hsv"]


def rgb_to_hsv(images: Tensor) -> Tensor:
    """The HSV of the RGB triples on the last dim of the float ``images``: value the largest channel,
    saturation ``range / value`` (0 for black), hue the sextant position in [0, 1) (0 for grays).

    Raises:
        TypeError: if ``images`` is no float Tensor. ValueError: if its last dim is not 3.
    """
    _check_tensor("RGBToHSV", "images", images)
    if images.dtype not in (mstype.float16, mstype.float32, mstype.float64):
        raise TypeError(f"For 'RGBToHSV', the dtype of 'images' must be float16, float32 or float64, but got "
                        f"{images.dtype}.")
    if not images.shape or images.shape[-1] != 3:
        raise ValueError(f"For 'RGBToHSV', the last dim of 'images' must be 3, but got shape {images.shape}.")
    red, green, blue = (run("getitem", images, index=(Ellipsis, channel)) for channel in range(3))
    value = run("maximum", run("maximum", red, green), blue)
    spread = run("sub", value, run("minimum", run("minimum", red, green), blue))
    zero = run("zeros_like", value)
    saturation = run("where", run("greater", value, 0), run("div", spread, run("where", run("greater", value, 0),
                                                                                value, run("ones_like", value))), zero)
    safe = run("where", run("greater", spread, 0), spread, run("ones_like", spread))
    hue = run("where", run("equal", value, red), run("div", run("sub", green, blue), safe),
              run("where", run("equal", value, green), run("add", run("div", run("sub", blue, red), safe), 2.0),
                  run("add", run("div", run("sub", red, green), safe), 4.0)))
    hue = run("where", run("greater", spread, 0), run("div", hue, 6.0), zero)
    hue = run("where", run("less", hue, 0), run("add", hue, 1.0), hue)
    return F.stack((hue, saturation, value), -1)
