"""What a Jacobian-vector-product function asks for, as data: :class:`JvpSpec` and :class:`JvpRequest`.

Light on purpose, like ``gradspec``: the front door (``npspore.derivatives``) builds these for every
JVP function and the disk-cache path reads them; ``jvprequest.jvp_request`` applies one. A
``JvpRequest`` stands beside the ``GradRequest`` levels of a ``CompileRequest`` (``grads``), so a
``jvp`` of a ``grad`` and a ``grad`` of a ``jvp`` are one request of two levels.
"""
from __future__ import annotations

from dataclasses import dataclass


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
    sens_param = False   # a JVP kernel takes tangents, never a sensitivity

    def describe(self) -> str:
        """The options, for a kernel's header."""
        batch = f", batch={self.batch}" if self.batch else ""
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
        """``(inputs, kwargs, tangents)`` of a call of the JVP function."""
        cut = len(args) - self.n_tangents(len(args))
        return tuple(args[:cut]), dict(kwargs), tuple(args[cut:])

    def check_positions(self, args, kwargs) -> None:
        """Raise MindSpore's ValueError for a position beyond the inputs."""
        for position in self.spec.positions or ():
            if position >= len(args) + len(kwargs):
                raise ValueError("The element in grad_position must belong to [0, args_num).")
