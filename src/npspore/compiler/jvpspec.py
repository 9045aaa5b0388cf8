"""What a Jacobian-vector-product function asks for, as data: :class:`JvpSpec` and :class:`JvpRequest`.

Light on purpose, like ``gradspec``: the front door (``npspore.derivatives``) builds these for every
JVP function and the disk-cache path reads them; ``jvprequest.jvp_request`` applies one. A
``JvpRequest`` stands beside the ``GradRequest`` levels of a ``CompileRequest`` (``grads``), so a
``jvp`` of a ``grad`` and a ``grad`` of a ``jvp`` are one request of two levels.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .library import LIBRARY


def _shape_and_dtype(value):
    """``(shape, NumPy dtype)`` of a Tensor or of a tensor value of code being compiled, else None."""
    aval = getattr(value, "aval", None)
    if aval is not None and hasattr(aval, "shape"):
        return tuple(aval.shape), np.dtype(aval.dtype)
    if isinstance(value, LIBRARY.tensor_type):
        return tuple(value.shape), np.dtype(LIBRARY.dtype_to_numpy(value.dtype))
    return None


class UnbatchedTangent(NotImplementedError):
    """An op's tangent rule is not applied to tangents with a batch axis (``JvpSpec.batch``): the caller
    computes one tangent at a time instead."""


@dataclass(frozen=True)
class JvpSpec:
    """``positions``: the inputs that get a tangent (``None``: every input); ``has_aux``: only the
    first output is differentiated and the others are returned as they are."""

    positions: tuple | None = None
    has_aux: bool = False
    batch: int | None = None   # each tangent has a leading axis of this size: that many tangents at once
    identity: bool = False   # with batch: the tangents are the identity basis (``jacfwd``'s, ``jacrev``'s)
    tangents_only: bool = False   # the kernel returns the tangents alone (``jacrev``: not the gradient itself)
    sens_param = False   # a JVP kernel takes tangents, never a sensitivity

    def describe(self) -> str:
        """The options, for a kernel's header."""
        batch = f", batch={self.batch}" if self.batch else ""
        batch += ", identity basis" if self.identity else ""
        batch += ", tangents only" if self.tangents_only else ""
        return f"jvp, positions={'all' if self.positions is None else self.positions}, has_aux={self.has_aux}{batch}"


@dataclass(frozen=True)
class JvpRequest:
    """One forward-mode transform. Its function is called with the inputs, then one tangent per
    input in ``spec.positions`` (each of its input's structure)."""

    spec: JvpSpec
    weights: tuple = ()
    single_weight: bool = False

    def n_tangents(self, n_args: int) -> int:
        """How many of ``n_args`` call arguments are tangents."""
        return n_args // 2 if self.spec.positions is None else len(self.spec.positions)

    def split_sens(self, args, kwargs):
        """``(inputs, kwargs, tangents)`` of a call of the JVP function; raises MindSpore's TypeError for a
        tangent of another dtype than its input, a ValueError for one of another shape (or, with
        ``spec.batch``, without the batch axis first)."""
        cut = len(args) - self.n_tangents(len(args))
        inputs, tangents = tuple(args[:cut]), tuple(args[cut:])
        positions = self.spec.positions if self.spec.positions is not None else range(len(inputs))
        for position, tangent in zip(positions, tangents):
            self._check_tangent(inputs[position] if position < len(inputs) else None, tangent)
        return inputs, dict(kwargs), tangents

    def _check_tangent(self, value, tangent) -> None:
        have, want = _shape_and_dtype(tangent), _shape_and_dtype(value)
        if have is None or want is None:
            return   # not a tensor (a tuple of them is checked leaf by leaf by the kernel's signature)
        if have[1] != want[1]:
            names = LIBRARY.dtype_from_numpy
            raise TypeError(f"Type Join Failed: dtype1 = {names(have[1])}, dtype2 = {names(want[1])}.")
        shape = ((self.spec.batch,) if self.spec.batch is not None else ()) + want[0]
        if have[0] != shape:
            raise ValueError(f"For 'jvp', the shape of a tangent {list(have[0])} is not the shape of its input "
                             f"{list(shape)}")

    def check_positions(self, args, kwargs) -> None:
        """Raise MindSpore's ValueError for a position beyond the inputs."""
        for position in self.spec.positions or ():
            if position >= len(args) + len(kwargs):
                raise ValueError("The element in grad_position must belong to [0, args_num).")
