"""``Generator``: MindSpore's random-number generator state, a seed and an offset.

A random function that takes a ``generator`` (MindSpore's ``mint`` random functions, by default
``default_generator``) asks it for ``(seed, offset)`` with ``_step(step)`` and advances its offset by the
numbers it draws, so that a seed and offset fix the stream (a Philox counter). ``manual_seed`` sets the seed
and restarts the offset; ``get_state``/``set_state`` save and restore both, as 16 bytes (the little-endian
int64 seed, then the offset), as MindSpore's do.
"""
from __future__ import annotations

import secrets
import struct

import numpy as np

from . import dtype as mstype
from .tensor import Tensor

__all__ = ["Generator", "default_generator", "manual_seed", "seed", "initial_seed", "get_rng_state",
           "set_rng_state"]

_STATE = struct.Struct("<qq")


class Generator:
    """A seed and an offset from which random functions draw (see the module doc).

    Examples:
        >>> generator = Generator()
        >>> generator.manual_seed(5)
        >>> print(generator.initial_seed())
        5
    """

    def __init__(self) -> None:
        self._seed = 0
        self._offset = 0

    def set_state(self, state: Tensor) -> None:
        """Restore a state of :meth:`get_state`.

        Raises:
            RuntimeError: If `state` does not hold 16 bytes.
        """
        data = np.asarray(state.asnumpy() if isinstance(state, Tensor) else state, np.uint8).tobytes()
        if len(data) != _STATE.size:
            raise RuntimeError(f"State data size must be {_STATE.size}, but got {len(data)}")
        self._seed, self._offset = _STATE.unpack(data)

    def get_state(self) -> Tensor:
        """The state: a uint8 Tensor of 16 bytes, the seed then the offset."""
        return Tensor(np.frombuffer(_STATE.pack(self._seed, self._offset), np.uint8).copy(), mstype.uint8)

    def seed(self) -> int:
        """Seed the generator with a fresh random number, and return it."""
        value = secrets.randbits(63)
        self.manual_seed(value)
        return value

    def manual_seed(self, seed: int) -> Generator:  # noqa: F811 - MindSpore's method name
        """Set the seed (and restart the offset); returns the generator.

        Raises:
            TypeError: If `seed` is not an int.
        """
        if not isinstance(seed, int):
            raise TypeError("Seed must be an integer.")
        self._seed, self._offset = int(seed), 0
        return self

    def initial_seed(self) -> int:
        """The seed last set."""
        return self._seed

    def _step(self, step) -> tuple[Tensor, Tensor]:
        """The current ``(seed, offset)`` as int64 Tensors; the offset then advances by ``step``."""
        current = (Tensor(self._seed, mstype.int64), Tensor(self._offset, mstype.int64))
        self._offset += int(step.asnumpy() if isinstance(step, Tensor) else step)
        return current


default_generator = Generator()


def seed() -> int:
    """Seed the default generator with a fresh random number, and return it."""
    return default_generator.seed()


def manual_seed(seed: int) -> Generator:  # noqa: F811 - MindSpore's argument name
    """Set the default generator's seed (``Generator.manual_seed``); returns the generator.

    Examples:
        >>> manual_seed(13)
        >>> print(initial_seed())
        13
    """
    return default_generator.manual_seed(seed)


def initial_seed() -> int:
    """The default generator's seed."""
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    """The default generator's state (``Generator.get_state``)."""
    return default_generator.get_state()


def set_rng_state(state: Tensor) -> None:
    """Restore the default generator's state (``Generator.set_state``)."""
    default_generator.set_state(state)
