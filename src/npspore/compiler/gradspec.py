"""What a gradient function asks for, as data: :class:`GradSpec` (the options of ``grad``,
``value_and_grad``, ``GradOperation``), :class:`GradRequest` (the options and the weights) and how a
call's sensitivity is split off its arguments.

Light on purpose: the front doors (``npspore.grad``) build these for every gradient function, and the
disk-cache path reads them; neither loads the differentiate stage, which applies a request
(``gradrequest.differentiate_request``).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core import tree
from .library import LIBRARY


@dataclass(frozen=True)
class GradSpec:
    """What a gradient function computes and how it packages the result.

    ``positions``: the input positions to differentiate (``None``: no input part). ``position_form``:
    ``"auto"`` (one gradient bare, several a tuple: ``grad``, ``GradOperation()``) or ``"all"`` (every
    input, always a tuple: ``get_all``). ``by_weights``: the result has a weights part (a single
    Parameter gives a bare gradient, a list a tuple). ``has_aux``, ``return_ids``, ``sens_param``: as
    in ``npspore.grad``. ``with_value``: the result is ``(value, gradients)``.
    """

    positions: tuple | None
    position_form: str = "auto"
    by_weights: bool = False
    has_aux: bool = False
    return_ids: bool = False
    sens_param: bool = False
    with_value: bool = False

    def describe(self) -> str:
        """The options that differ from the defaults, for a kernel's header."""
        parts = [f"positions={self.positions}"]
        for name in ("by_weights", "has_aux", "return_ids", "sens_param", "with_value"):
            value = getattr(self, name)
            if value:
                parts.append(f"{name}={value}")
        return ", ".join(parts)


def split_sens(spec: GradSpec, args, kwargs):
    """``(args, kwargs, sens)``: with ``sens_param`` the sensitivity is the last positional argument
    or the ``sens`` keyword; otherwise ``sens`` is empty."""
    if not spec.sens_param:
        return tuple(args), dict(kwargs), ()
    kwargs = dict(kwargs)
    if "sens" in kwargs:
        return tuple(args), kwargs, (kwargs.pop("sens"),)
    return tuple(args[:-1]), kwargs, tuple(args[-1:])


def is_mutable_container(value) -> bool:
    """A ``mutable(...)`` tuple/list/dict: a variable for differentiation."""
    return isinstance(value, LIBRARY.mutable_types) or (
        isinstance(value, (tuple, list, dict)) and bool(getattr(value, "__ms_mutable__", False)))


@dataclass(frozen=True)
class GradRequest:
    """One gradient transform: the options and the weights (checked, in the order given)."""

    spec: GradSpec
    weights: tuple = ()
    single_weight: bool = False

    def split_sens(self, args, kwargs):
        """``(args, kwargs, sens)`` of a call of the gradient function (see :func:`split_sens`)."""
        return split_sens(self.spec, args, kwargs)

    def check_positions(self, args, kwargs) -> None:
        """Raise MindSpore's IndexError for a requested position beyond the inputs."""
        count = len(args) + len(kwargs)
        for position in self.spec.positions or ():
            if position >= count:
                raise IndexError(f"Position index {position} is exceed input size.")

    def check_sens(self, sens, avals) -> None:
        """Raise ValueError when the given sensitivity does not match the output (``avals``, one
        per output leaf) in structure or shape, as MindSpore does."""
        leaves, _ = tree.flatten(sens[0] if sens else None, lambda v: isinstance(v, LIBRARY.tensor_type))
        given: list = [leaf for leaf in leaves if isinstance(leaf, LIBRARY.tensor_type)]
        if len(given) != len(avals):
            raise ValueError(f"For 'GradOperation' with sens_param=True, sens should hold {len(avals)} "
                             f"tensor(s), one per output, but got {len(given)}")
        for k, (leaf, aval) in enumerate(zip(given, avals)):
            want = tuple(aval.shape)
            got = tuple(leaf.shape)
            if len(got) != len(want) or any(w is not None and w != g for w, g in zip(want, got)):
                raise ValueError(f"For 'GradOperation' with sens_param=True, the shape of sens {k} should be "
                                 f"{list(want)} (the output's), but got {list(got)}")

    def requested_positions(self, inputs) -> tuple:
        """The input positions to differentiate (every position for ``get_all``)."""
        positions = self.spec.positions
        if positions is None:
            return ()
        if self.spec.position_form == "all":
            return tuple(range(len(inputs)))
        return positions
