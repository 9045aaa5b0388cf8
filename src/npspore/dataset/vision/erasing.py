"""``vision.RandomErasing``: erase a random rectangle of a (C, H, W) image (Zhong et al.'s Random Erasing), as
MindSpore 2.10's Python implementation does: ``max_attempts`` draws of an area (a share of the image in
``scale``) and an aspect ratio (in ``ratio``); the first whose rounded width and height fit strictly inside the
image is placed uniformly and filled with ``value``; the image is returned unchanged when none fits. As there, the
draws come from Python's ``random`` (and ``numpy.random`` for ``value='random'``), which the seed functions seed."""
from __future__ import annotations

import math
import numbers
import random

import numpy as np

__all__ = ["RandomErasing"]

_MAX = 16777216
_BAD_VALUE = ("The value for erasing should be either a single value, or a string 'random', or a sequence of 3 "
              "elements for RGB respectively.")


def _check_type(value, types: tuple, name: str) -> None:
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
        raise TypeError(f"Argument {name} with value {value} is not of type {list(types)}, but got {type(value)}.")


def _check_pair(pair, name: str) -> None:
    if not isinstance(pair, (list, tuple)) or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                      for v in pair):
        raise TypeError(f"Argument {name} with value {pair} is not of type [<class 'list'>, <class 'tuple'>] of "
                        f"numbers.")
    if len(pair) != 2:
        raise TypeError(f"{name} should be a list or tuple of length 2.")
    if pair[0] > pair[1]:
        raise ValueError(f"{name} should be in (min,max) format. Got (max,min).")
    if pair[0] < 0:
        raise ValueError(f"Input {name} is not within the required interval of [0, {_MAX}].")


class RandomErasing:
    """With probability ``prob``, erase a random rectangle of a (C, H, W) image (see the module doc).

    Args:
        prob (float): the probability of erasing, in [0, 1]. Default: ``0.5``.
        scale (Sequence[float, float]): the (min, max) share of the image's area to erase. Default:
            ``(0.02, 0.33)``.
        ratio (Sequence[float, float]): the (min, max) aspect ratio (width / height). Default: ``(0.3, 3.3)``.
        value (Union[int, str, Sequence[int, int, int]]): the fill: one value in [0, 255], one per channel, or
            ``'random'`` (standard normal draws). Default: ``0``.
        inplace (bool): erase the input array itself. Default: ``False``.
        max_attempts (int): the draws before giving up, positive. Default: ``10``.

    Raises:
        TypeError, ValueError: on a bad argument (MindSpore's messages).
    """
    random = True          # draws from Python's random

    def __init__(self, prob: float = 0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace: bool = False,
                 max_attempts: int = 10):
        _check_type(prob, (float, int), "prob")
        _check_pair(scale, "scale")
        _check_pair(ratio, "ratio")
        _check_type(value, (int, list, tuple, str), "value")
        _check_type(inplace, (bool,), "inplace")
        _check_type(max_attempts, (int,), "max_attempts")
        if isinstance(value, str) and value != "random" or isinstance(value, (list, tuple)) and len(value) != 3:
            raise ValueError(_BAD_VALUE)
        if not 0 <= prob <= 1:
            raise ValueError("Input prob is not within the required interval of [0.0, 1.0].")
        if scale[1] <= 0:
            raise ValueError(f"Input scale[1] must be greater than 0, but got {scale[1]}.")
        for item in [value] if isinstance(value, int) else value if isinstance(value, (list, tuple)) else []:
            _check_type(item, (int,), "value")
            if not 0 <= item <= 255:
                raise ValueError("Input is not within the required interval of [0, 255].")
        if not 1 <= max_attempts <= _MAX:
            raise ValueError(f"Input is not within the required interval of [1, {_MAX}].")
        self.prob, self.scale, self.ratio, self.value = prob, tuple(scale), tuple(ratio), value
        self.inplace, self.max_attempts = inplace, max_attempts

    def __call__(self, image):
        image = np.asarray(image)
        if image.ndim != 3:
            raise ValueError(f"RandomErasing: the image should have shape <C, H, W>, but got shape {image.shape}.")
        if not self.prob > random.random():
            return image
        channels, height, width = image.shape
        for _ in range(self.max_attempts):
            area = random.uniform(*self.scale) * height * width
            aspect = random.uniform(*self.ratio)
            erase_w = int(round(math.sqrt(area * aspect)))
            erase_h = int(round(erase_w / aspect))
            if erase_h < height and erase_w < width:
                top = random.randint(0, height - erase_h)
                left = random.randint(0, width - erase_w)
                out = image if self.inplace else image.copy()
                out[:, top:top + erase_h, left:left + erase_w] = self._fill(channels, erase_h, erase_w)
                return out
        return image if self.inplace else image.copy()

    def _fill(self, channels: int, height: int, width: int):
        if isinstance(self.value, numbers.Number):
            return self.value
        if isinstance(self.value, str):
            return np.random.normal(loc=0.0, scale=1.0, size=(channels, height, width))
        return np.asarray(self.value)[:, None, None]
