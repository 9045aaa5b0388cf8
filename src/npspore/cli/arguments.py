"""argparse types for the CLI's numeric options: each rejects an out-of-range value as a usage error.

``count(minimum)`` accepts integers ``>= minimum`` (``--repeat``, ``--seed``, ``--max-elements``);
``finite(positive=...)`` accepts finite floats ``> 0`` or ``>= 0`` (``--eps``, ``--rtol``, ``--older-than``).
argparse turns the ``ArgumentTypeError`` into one line on stderr and exit status 2.
"""
from __future__ import annotations

import argparse
import math


def count(minimum: int):
    """An argparse type: an integer ``>= minimum``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected an integer >= {minimum}, got {text}")
        return value
    parse.__name__ = "integer"
    return parse


def finite(*, positive: bool):
    """An argparse type: a finite float, ``> 0`` when ``positive`` else ``>= 0``."""
    bound = "> 0" if positive else ">= 0"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not math.isfinite(value) or value < 0 or (positive and value == 0):
            raise argparse.ArgumentTypeError(f"expected a finite number {bound}, got {text}")
        return value
    parse.__name__ = "number"
    return parse
