"""``mindspore.nn.probability``: probability distributions (``distribution.Normal``, ``distribution.Uniform``)."""
from . import distribution  # noqa: F401

__all__ = ["distribution"]
