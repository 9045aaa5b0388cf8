"""The base class of MindSpore's PyTorch-style optimizers (``mindspore.experimental.optim.Optimizer``):
parameter groups whose learning rate is a Parameter (``learning_rate_group_<i>``), so that the schedulers of
``experimental.optim.lr_scheduler`` change it between steps and the compiled update reads the new value.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import numpy as np

from npspore.common import dtype as mstype
from npspore.common.parameter import Parameter, ParameterTuple
from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell

__all__ = ["Optimizer"]


def _learning_rate(value, name: str) -> Parameter:
    """The group's learning rate as a float32 Parameter named ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, float, Tensor)):
        raise TypeError(f"For 'Optimizer', the 'lr' must be a float, an int or a 0-D Tensor, but got "
                        f"{type(value).__name__}.")
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise ValueError(f"For 'Optimizer', if 'learning_rate' is a Tensor, then it should be scalar Tensor, "
                             f"but got {value.ndim}-D Tensor.")
        value = float(value.asnumpy())
    if value < 0:
        raise ValueError(f"For 'Optimizer', the 'learning rate' must be a non-negative float, but got {value}.")
    return Parameter(Tensor(np.float32(value), mstype.float32), name=name)


class Optimizer(Cell):
    """Base class of the parameter-group optimizers (``AdamW``, ``Adam`` ...).

    Args:
        params (Union[list[Parameter], list[dict]]): the Parameters, or groups: dicts with ``'params'`` and
            options that override ``defaults``.
        defaults (dict): the options' defaults; ``'lr'`` among them.

    Attributes:
        param_groups (list[dict]): the groups, each with every option; ``group['lr']`` is the group's learning
            rate Parameter (``learning_rate_group_<i>``).
        lrs (list[Parameter]): the groups' learning rates.
        parameters (ParameterTuple): every Parameter, group by group.

    Raises:
        ValueError: if ``params`` is None or empty, or a Parameter is in two groups.
        TypeError: if ``params`` is not iterable, a group is not a dict, or holds other than Parameters.
    """

    def __init__(self, params: Any, defaults: dict) -> None:
        super().__init__(auto_prefix=False)
        if params is None:
            raise ValueError("For 'Optimizer', the argument params can not be None.")
        if not isinstance(params, Iterable):
            raise TypeError(f"For 'Optimizer', the argument params must be Iterable type, but got {type(params)}.")
        groups = list(params)
        if not groups:
            raise ValueError("For 'Optimizer', the argument params must not be empty.")
        self.defaults = defaults
        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list[dict] = []
        self.lrs: list[Parameter] = []
        for group in groups if isinstance(groups[0], dict) else [{"params": groups}]:
            self.add_param_group(group)
        self.parameters = ParameterTuple([p for group in self.param_groups for p in group["params"]])

    def add_param_group(self, param_group: dict) -> None:
        """Add a group: ``param_group['params']`` with its options (the defaults for those it lacks).

        Raises:
            TypeError: if ``param_group`` is not a dict, its params a set, or holds other than Parameters.
            ValueError: if one of its Parameters is in another group.
        """
        if not isinstance(param_group, dict):
            raise TypeError("Param group must be a dict.")
        params = param_group["params"]
        if isinstance(params, set):
            raise TypeError("Optimizer parameters need to be organized in ordered collections, but the ordering of "
                            "tensors in sets will change between runs. Please use a list instead.")
        params = [params] if isinstance(params, Parameter) else list(params)
        for param in params:
            if not isinstance(param, Parameter):
                raise TypeError("Optimizer can only optimize Parameters, but one of the params is "
                                f"{type(param).__name__}")
        taken = {id(p) for group in self.param_groups for p in group["params"]}
        if any(id(p) in taken for p in params):
            raise ValueError("some parameters appear in more than one parameter group.")
        group = {**param_group, "params": params}   # MindSpore's key order: the group's own, then the defaults
        for name, default in self.defaults.items():
            group.setdefault(name, default)
        group["lr"] = _learning_rate(group.get("lr"), f"learning_rate_group_{len(self.param_groups)}")
        self.lrs.append(group["lr"])
        self.param_groups.append(group)

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for index, group in enumerate(self.param_groups):
            text += f"\nParameter Group {index}\n"
            for key in sorted(group):
                if key != "params":
                    value = group[key]
                    shown = Tensor(value.asnumpy()) if key == "lr" else value   # printed as MindSpore's Tensor
                    text += f"    {key}: {shown}\n"
        return text + ")"
