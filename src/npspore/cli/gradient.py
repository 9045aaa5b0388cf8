"""The gradient the CLI options ask for: ``--grad-position``, ``--weights``, ``--has-aux``, ``--sens``;
or, with ``--jvp``, the Jacobian-vector product (:class:`JvpOptions`).

A :class:`GradRequest` validates the options against a loaded Target and builds the
:class:`~npspore.grad.GradFunction` (``npspore.grad`` with the same arguments a script would pass)
and the arguments to call it with (the inputs, plus the sensitivity with ``--sens``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..common.tensor import Tensor
from ..compiler.signature import map_tensors
from ..compiler.jvpspec import JvpSpec
from ..derivatives import JvpFunction
from ..grad import grad
from .target import InputError, Target


def add_grad_options(parser, *, with_grad_flag: bool) -> None:
    """Add the gradient options to a verb's argparse parser."""
    group = parser.add_argument_group("gradient options")
    if with_grad_flag:
        group.add_argument("--grad", action="store_true",
                           help="the adjoint (gradient) kernel instead of the forward kernel")
    group.add_argument("--grad-position", nargs="+", default=["0"], metavar="N",
                       help="input positions to differentiate, or 'none' (weights only); default: 0")
    group.add_argument("--weights", nargs="+", default=[], metavar="NAME",
                       help="Parameters to differentiate: 'all' (trainable_params()) or names")
    group.add_argument("--has-aux", action="store_true",
                       help="differentiate only the first output; the others are auxiliary")
    group.add_argument("--sens", action="store_true",
                       help="take the output's sensitivity as an extra input (sens_param=True)")


@dataclass
class GradRequest:
    """Validated gradient options: positions (None, an int or a tuple), weight names, flags."""

    positions: object
    weight_names: tuple
    has_aux: bool
    sens: bool

    @classmethod
    def from_options(cls, options) -> GradRequest:
        values = options.grad_position
        if [v.lower() for v in values] == ["none"]:
            positions = None
        else:
            try:
                numbers = tuple(int(v) for v in values)
            except ValueError:
                raise InputError(f"--grad-position takes input positions (0 1 ...) or 'none', got "
                                 f"{' '.join(values)}") from None
            if any(n < 0 for n in numbers) or len(set(numbers)) != len(numbers):
                raise InputError("--grad-position takes distinct non-negative positions")
            positions = numbers[0] if len(numbers) == 1 else numbers
        request = cls(positions, tuple(options.weights), options.has_aux, options.sens)
        if positions is None and not request.weight_names:
            raise InputError("--grad-position none needs --weights (there is nothing to differentiate)")
        return request

    def weights(self, target: Target) -> list | None:
        """The Parameters named by ``--weights`` (None when none are asked for)."""
        if not self.weight_names:
            return None
        if not target.parameters():
            raise InputError(f"--weights: {target.label} reads no Parameters (a function's are those of the "
                             "Cells its closure and globals hold)")
        if list(self.weight_names) == ["all"]:
            if target.is_cell:
                return list(target.obj.trainable_params())
            return [param for _, param in target.parameters() if param.requires_grad]
        by_name = {}
        for path, param in target.parameters():
            by_name.setdefault(path, param)
            by_name.setdefault(param.name, param)
        missing = [n for n in self.weight_names if n not in by_name]
        if missing:
            known = ", ".join(path for path, _ in target.parameters()) or "none"
            raise InputError(f"{target.label} has no Parameter {missing[0]!r} (its Parameters: {known})")
        return [by_name[n] for n in self.weight_names]

    def function(self, target: Target, args, *, return_ids: bool = False):
        """The GradFunction, as ``npspore.grad(target, positions, weights, has_aux, return_ids, sens)``."""
        count = len(args)
        for position in (self.positions,) if isinstance(self.positions, int) else (self.positions or ()):
            if position >= count:
                raise InputError(f"--grad-position {position} is out of range: "
                                 f"{target.function.__qualname__} gets {count} input(s)")
        return grad(target.obj, grad_position=self.positions, weights=self.weights(target),
                    has_aux=self.has_aux, return_ids=return_ids, sens_param=self.sens)

    def call_args(self, target: Target, args, sens_values=None) -> tuple:
        """The arguments of the gradient function: ``args``, plus the sensitivity with ``--sens``.

        ``sens_values(shape, dtype) -> ndarray`` fills the sensitivity (default: ones); it has the
        structure of the program's output, which is found by running the program eagerly once.
        """
        if not self.sens:
            return tuple(args)
        fill = sens_values or (lambda shape, dtype: np.ones(shape, dtype))
        return tuple(args) + (map_tensors(target.eager(args), lambda t: Tensor(fill(t.shape, t._array.dtype))),)




@dataclass
class JvpOptions:
    """``--jvp``: the forward-mode kernel of ``ops.jvp(target, inputs, v)``, a tangent for every input."""

    has_aux: bool

    @classmethod
    def from_options(cls, options) -> JvpOptions:
        if options.grad:
            raise InputError("--jvp and --grad ask for two different kernels: give one of them")
        if options.weights or options.sens:
            raise InputError("--weights and --sens are options of --grad, not of --jvp")
        return cls(options.has_aux)

    def function(self, target: Target, args):
        """The JvpFunction that ``ops.jvp(target, args, v, has_aux)`` calls."""
        return JvpFunction(target.obj, JvpSpec(None, self.has_aux))

    def call_args(self, target: Target, args) -> tuple:
        """The inputs, then a tangent of ones for each (of its shape and dtype)."""
        for arg in args:
            if not isinstance(arg, Tensor):
                raise InputError("--jvp needs Tensor inputs (give each with --input)")
        return tuple(args) + tuple(Tensor(np.ones(a.shape, a._array.dtype)) for a in args)
