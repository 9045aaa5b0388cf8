"""``nn.Optimizer``: the base class of optimizers, as ``mindspore.nn.Optimizer`` defines it.

An optimizer is a Cell over a list of Parameters (or of parameter groups, dicts with their own
``lr``, ``weight_decay`` and ``grad_centralization``). ``optimizer(gradients)`` runs ``construct``,
which updates the Parameters and the optimizer's state Parameters in place with ``ops.assign``;
eagerly that writes the arrays at once, in compiled code (a ``TrainOneStepCell`` under ``jit``) the
writes become assignment effects of the one kernel. The helpers ``construct`` uses (``get_lr``,
``decay_weight``, ``gradients_centralization``, ``scale_grad``) are in the compilable subset: their
branches test Python values fixed at construction, and their loops run over tuples of Parameters.

The learning rate is a Parameter named ``learning_rate`` for a number or a 0-d Tensor; a list or
a 1-d Tensor becomes a cell holding those values in a Parameter, read at ``global_step``; a
``LearningRateSchedule`` is called with ``global_step``. ``global_step`` (int32, shape ``[1]``)
counts the updates.
"""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable
from collections.abc import Iterable

import numpy as np

from npspore import ops
from npspore.common import dtype as mstype
from npspore.common.parameter import Parameter, ParameterTuple
from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell
from npspore.nn.container import CellList
from npspore.nn.learning_rate_schedule import LearningRateSchedule
from npspore.nn.validation import check_bool, check_number_range
from npspore.ops.multitype import HyperMap, Map

__all__ = ["Optimizer", "opt_init_args_register"]

_GROUP_KEYS = ["params", "lr", "weight_decay", "order_params", "grad_centralization"]


class _IteratorLearningRate(LearningRateSchedule):
    """A list or 1-d Tensor learning rate: its values in a Parameter, the ``global_step``-th one per step."""

    def __init__(self, learning_rate, name):
        super().__init__()
        self.learning_rate = Parameter(learning_rate, name)

    def construct(self, global_step):
        return ops.gather(self.learning_rate, global_step, 0)


class _ConvertToCell(LearningRateSchedule):
    """A fixed group learning rate among dynamic ones: the Parameter, whatever the step."""

    def __init__(self, learning_rate):
        super().__init__()
        self.learning_rate = learning_rate

    def construct(self, global_step):
        return self.learning_rate + 1.0 - 1.0


class _WrappedWeightDecay(Cell):
    """A weight-decay schedule (a Cell of ``global_step``) times the loss scale."""

    def __init__(self, weight_decay, loss_scale=1.0):
        super().__init__()
        self.weight_decay = weight_decay
        self.loss_scale = Tensor(loss_scale, mstype.float32)

    def construct(self, global_step):
        return self.weight_decay(global_step) * self.loss_scale


def _check_parameters(parameters, what):
    """``parameters`` as a non-empty list (ValueError/TypeError naming ``what``)."""
    if parameters is None:
        raise ValueError(f"For 'Optimizer', the argument {what} can not be None.")
    if not isinstance(parameters, Iterable):
        raise TypeError(f"For 'Optimizer', the argument {what} must be Iterable type, but got {type(parameters)}.")
    parameters = list(parameters)
    if not parameters:
        raise ValueError(f"For 'Optimizer', the argument {what} must not be empty.")
    return parameters


def _centralize(gradient):
    """``gradient`` minus its mean over every axis but the first (weights of conv layers)."""
    axes = tuple(range(1, gradient.ndim))
    return gradient - ops.mean(gradient, axes, keep_dims=True)



def opt_init_args_register(fn: Callable) -> Callable:
    """Decorate an optimizer's ``__init__`` to record its arguments, as MindSpore's does: before ``fn``
    runs, ``self.init_params`` is ``{"params": params}`` (or the wrapped ``optimizer``'s),
    ``self.init_learning_rate`` the learning rate (a Tensor's as a list, ``None`` for a schedule
    Cell) and ``self.init_args`` a dict of the other arguments, defaults applied.

    Args:
        fn (Callable): the ``__init__`` to decorate.

    Returns:
        Callable: the decorated ``__init__``.

    Raises:
        TypeError: when called with arguments ``fn``'s signature does not take.
    """

    @functools.wraps(fn)
    def deco(self, *args, **kwargs):
        bound = inspect.signature(fn).bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop("self")
        if "params" in arguments:
            self.init_params = {"params": arguments.pop("params")}
        if "optimizer" in arguments:
            self.init_params = {"params": arguments.pop("optimizer").init_params["params"]}
        if "learning_rate" in arguments:
            learning_rate = arguments.pop("learning_rate")
            if isinstance(learning_rate, Tensor):
                learning_rate = learning_rate.asnumpy().tolist()
            self.init_learning_rate = None if isinstance(learning_rate, Cell) else learning_rate
        self.init_args = arguments
        fn(self, *args, **kwargs)

    return deco


class Optimizer(Cell):
    """Base class of the optimizers; subclasses define ``construct(gradients)``.

    Args:
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): a number >= 0
            (a fixed rate), a 0-d Tensor (fixed), a 1-d Tensor or an iterable (the i-th value at
            step i), or a ``LearningRateSchedule`` (called with ``global_step``).
        parameters (Union[list[Parameter], list[dict]]): the Parameters to update, or parameter
            groups: dicts with the key ``'params'`` (a list of Parameters) and optionally ``'lr'``,
            ``'weight_decay'``, ``'grad_centralization'``; a dict ``{'order_params': [...]}`` fixes
            the order of the Parameters.
        weight_decay (Union[float, int, Cell]): added to the gradient as ``weight_decay * param``
            for Parameters without ``'beta'`` or ``'gamma'`` in their names (in groups: the groups
            whose weight decay is > 0). Default: ``0.0``.
        loss_scale (float): the gradients are divided by it; ``weight_decay`` is multiplied by it.
            Default: ``1.0``.

    Raises:
        TypeError: If `learning_rate` is not one of the accepted types, an element of `parameters`
            is neither a Parameter nor a dict, `loss_scale` is not a float or `weight_decay` is not
            a float, an int or a Cell.
        ValueError: If `parameters` is empty, `loss_scale` <= 0, `weight_decay` < 0, or a Tensor
            `learning_rate` has more than one dimension.
        KeyError: If a group dict has a key other than those above.
    """

    def __init__(self, learning_rate: Any, parameters: Any, weight_decay: Any = 0.0, loss_scale: float = 1.0) -> None:
        super().__init__(auto_prefix=False)
        parameters = _check_parameters(parameters, "parameters")
        if not all(isinstance(x, Parameter) for x in parameters) and not all(isinstance(x, dict) for x in parameters):
            raise TypeError("For 'Optimizer', all elements of the argument 'parameters' must be 'Parameter' or "
                            "'dict', please check the 'parameters'.")
        if isinstance(loss_scale, int) and not isinstance(loss_scale, bool):
            loss_scale = float(loss_scale)
        if not isinstance(loss_scale, float):
            raise TypeError(f"For '{self.cls_name}', the type of 'loss_scale' must be float, but got "
                            f"'{type(loss_scale).__name__}'.")
        self.loss_scale = check_number_range(loss_scale, "loss_scale", self.cls_name, positive=True)
        self.dynamic_weight_decay = False
        self.grad_centralization = False
        self.dynamic_lr = False
        self.global_step = Parameter(Tensor(np.zeros([1], np.int32)), name="global_step")
        self.is_group = False
        self.is_group_lr = False
        self.is_group_params_ordered = False
        learning_rate = self._preprocess_single_lr(learning_rate)
        groups = None
        if isinstance(parameters[0], dict):
            self.is_group = True
            groups = self._init_group_params(parameters, learning_rate, weight_decay)
        self._init_opt_attrs(learning_rate, parameters, weight_decay, groups)

    # ------------------------------------------------------------------ construction

    def _init_opt_attrs(self, learning_rate, parameters, weight_decay, groups):
        weight_decay = self._preprocess_weight_decay(weight_decay)
        group_params, group_lr, group_weight_decay, group_grad_centralization = groups or ([], [], [], [])
        if self.is_group_lr:
            if self.dynamic_lr:
                self.learning_rate = CellList(group_lr, auto_prefix=False)
            else:
                self.learning_rate = ParameterTuple(group_lr)
        else:
            self.learning_rate = self._build_single_lr(learning_rate, "learning_rate")
        if self.is_group:
            self.parameters = ParameterTuple(group_params)
            self.decay_flags = tuple(isinstance(x, Cell) or x > 0 for x in group_weight_decay)
            self.dynamic_decay_flags = tuple(isinstance(x, Cell) for x in group_weight_decay)
            self.weight_decay = tuple(x if flag else Tensor(x, mstype.float32)
                                      for x, flag in zip(group_weight_decay, self.dynamic_decay_flags))
            self.exec_weight_decay = any(self.decay_flags)
            self.grad_centralization_flags = tuple(group_grad_centralization)
            self.group_params = group_params
            self.group_weight_decay, self.group_grad_centralization = group_weight_decay, group_grad_centralization
        else:
            self.parameters = ParameterTuple(parameters)
            self.decay_flags = tuple("beta" not in x.name and "gamma" not in x.name for x in self.parameters)
            self.dynamic_decay_flags = isinstance(weight_decay, Cell)
            self.exec_weight_decay = isinstance(weight_decay, Cell) or weight_decay > 0
            self.weight_decay = weight_decay if self.dynamic_decay_flags else Tensor(weight_decay, mstype.float32)
        self._parameters = self.parameters
        self.reciprocal_scale = Tensor(1.0 / self.loss_scale, mstype.float32)
        self.need_scale = self.loss_scale != 1.0
        self.global_step_increase_tensor = Tensor(np.ones([1], np.int32))
        self.param_length = len(self.parameters)
        # MindSpore's optimizers apply their update over the parameter tuples with these (a custom construct too)
        self.map_, self.map_reverse = Map(), Map(None, True)
        self.hyper_map, self.hyper_map_reverse = HyperMap(), HyperMap(None, True)

    def _preprocess_weight_decay(self, weight_decay):
        if isinstance(weight_decay, (float, int)) and not isinstance(weight_decay, bool):
            weight_decay = check_number_range(float(weight_decay), "weight_decay", self.cls_name)
            return weight_decay * self.loss_scale
        if isinstance(weight_decay, Cell):
            self.dynamic_weight_decay = True
            return _WrappedWeightDecay(weight_decay, self.loss_scale)
        raise TypeError(f"For 'Optimizer', the argument 'Weight_decay' must be int, float or Cell.but got "
                        f"{type(weight_decay)}")

    def _preprocess_single_lr(self, learning_rate):
        """A learning rate as a float, a 0-d or 1-d float32 Tensor, or a LearningRateSchedule."""
        if isinstance(learning_rate, (float, int)) and not isinstance(learning_rate, bool):
            return check_number_range(float(learning_rate), "learning rate", self.cls_name)
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 0:
            return Tensor(learning_rate.asnumpy(), mstype.float32)
        self.dynamic_lr = True
        if isinstance(learning_rate, LearningRateSchedule):
            return learning_rate
        if isinstance(learning_rate, Tensor):
            if learning_rate.ndim > 1:
                raise ValueError(f"For 'Optimizer', if 'learning_rate' is Tensor type, then the dimension of it "
                                 f"should be 0 or 1, but got {learning_rate.ndim}.")
            return Tensor(learning_rate.asnumpy(), mstype.float32)
        if isinstance(learning_rate, Iterable) and not isinstance(learning_rate, str):
            return Tensor(np.array(list(learning_rate)).astype(np.float32))
        raise TypeError(f"For 'Optimizer', the argument 'learning_rate' must be int, float, Tensor, Iterable or "
                        f"LearningRateSchedule, but got {type(learning_rate)}.")

    def _build_single_lr(self, learning_rate, name):
        """A preprocessed learning rate as a Parameter (fixed) or a LearningRateSchedule (dynamic)."""
        if isinstance(learning_rate, float) or (isinstance(learning_rate, Tensor) and learning_rate.ndim == 0):
            learning_rate = Parameter(Tensor(learning_rate, mstype.float32), name)
            if self.is_group_lr and self.dynamic_lr:
                learning_rate = _ConvertToCell(learning_rate)
            return learning_rate
        if isinstance(learning_rate, Tensor):
            return _IteratorLearningRate(learning_rate, name)
        return learning_rate

    def _check_group_params(self, parameters):
        for group in parameters:
            invalid = [key for key in group.keys() if key not in _GROUP_KEYS]
            if invalid:
                raise KeyError(f"For 'Optimizer', the key in group params must be one of in {_GROUP_KEYS}, "
                               f"but got {invalid}.")
            if "order_params" in group:
                if len(group) > 1:
                    raise ValueError(f"For 'Optimizer', the order params dict in group parameters should only "
                                     f"include the 'order_params' key, but got {group.keys()}.")
                if not isinstance(group["order_params"], Iterable):
                    raise TypeError(f"For 'Optimizer', the value of 'order_params' in group parameters should be "
                                    f"Iterable type, but got {type(group['order_params'])}.")
                self.is_group_params_ordered = True
                continue
            for index, param in enumerate(_check_parameters(group.get("params"), "group `params`")):
                if not isinstance(param, Parameter):
                    raise TypeError(f"For 'Optimizer', the element in group parameters must be Parameter type, "
                                    f"but got {type(param)} at index {index}.")
            if "lr" in group:
                self.is_group_lr = True
                self._preprocess_single_lr(group["lr"])  # sets dynamic_lr for a dynamic group rate

    def _init_group_params(self, parameters, learning_rate, weight_decay):
        """The groups as four lists, one entry per Parameter: the Parameters, their learning rates,
        weight decays and grad-centralization flags (in the order of ``order_params`` if given)."""
        self._check_group_params(parameters)
        default_lr = self._build_single_lr(learning_rate, "learning_rate")
        rows = []
        ordered = []
        for group_num, group in enumerate(parameters):
            if "order_params" in group:
                ordered = list(group["order_params"])
                continue
            if "lr" in group:
                lr = self._build_single_lr(self._preprocess_single_lr(group["lr"]), f"learning_rate_group_{group_num}")
            else:
                lr = default_lr
            decay = self._preprocess_weight_decay(group.get("weight_decay", weight_decay))
            centralize = False
            if "grad_centralization" in group:
                centralize = check_bool(group["grad_centralization"], "grad_centralization", self.cls_name)
                self.grad_centralization = centralize
            for param in group["params"]:
                if any(param.name == row[0].name for row in rows):
                    raise RuntimeError(f"For 'Optimizer', the {param.name} parameter already exists, it does not "
                                       f"support repeated setting. Please check whether the optimizer parameter "
                                       f"has been set multiple times.")
                rows.append((param, lr, decay, centralize))
        if self.is_group_params_ordered and ordered:
            if len(ordered) != len(rows):
                raise ValueError(f"For 'Optimizer',the length of order parameters must be the same as the length of "
                                 f"group parameters, but got order parameters' length {len(ordered)}, group "
                                 f"parameters' length {len(rows)}.")
            names = [param.name for param in ordered]
            rows.sort(key=lambda row: names.index(row[0].name))
        return tuple([row[i] for row in rows] for i in range(4))

    # ------------------------------------------------------------------ what construct uses

    @property
    def unique(self):
        """Whether sparse gradients are made unique; always ``True`` here (gradients are dense)."""
        return True

    @property
    def target(self):
        """The device the update runs on: ``'CPU'``."""
        return "CPU"

    def get_weight_decay(self):
        """The weight decay of the current step: a Tensor, or a tuple of them for parameter groups.

        Returns:
            Tensor or tuple[Tensor].
        """
        if self.dynamic_weight_decay:
            if self.is_group:
                decays = ()
                for decay, dynamic in zip(self.weight_decay, self.dynamic_decay_flags):
                    decays += (decay(self.global_step) if dynamic else decay,)
                return decays
            return self.weight_decay(self.global_step)
        return self.weight_decay

    def get_lr(self):
        """The learning rate of the current step.

        Returns:
            The ``learning_rate`` Parameter for a fixed rate, a 0-d Tensor for a dynamic one, a tuple
            of them (one per Parameter) when groups have their own rates.
        """
        lr = self.learning_rate
        if self.dynamic_lr:
            if self.is_group_lr:
                lr = ()
                for schedule in self.learning_rate:
                    lr += (schedule(self.global_step).reshape(()),)
            else:
                lr = self.learning_rate(self.global_step).reshape(())
        return lr

    def get_lr_parameter(self, param):
        """The learning rate of `param` (or of each Parameter of a list), as stored in the optimizer.

        Args:
            param (Union[Parameter, list[Parameter]]): Parameters of this optimizer.

        Returns:
            A Parameter (or the LearningRateSchedule of a dynamic rate), or a list of them for a list.

        Raises:
            TypeError: If `param` is neither a Parameter nor a list.
            ValueError: If a Parameter is not updated by this optimizer.
        """
        if isinstance(param, Parameter):
            param_list = [param]
        elif isinstance(param, list):
            param_list = param
        else:
            raise TypeError(f"For 'get_lr_parameter', the 'param' must be 'Parameter' or 'list' type, "
                            f"but got {type(param)}.")
        ids = [id(p) for p in self.parameters]
        rates = []
        for p in param_list:
            if id(p) not in ids:
                raise ValueError(f"For 'get_lr_parameter', the parameter {p.name} is not in optimizer, please check "
                                 f"whether the argument 'param' is correct.")
            lr = self.learning_rate[ids.index(id(p))] if self.is_group_lr else self.learning_rate
            rates.append(lr.learning_rate if isinstance(lr, (_ConvertToCell, _IteratorLearningRate)) else lr)
        return rates if isinstance(param, list) else rates[0]

    def decay_weight(self, gradients):
        """The gradients with weight decay added: ``gradient + param * weight_decay`` where it applies.

        Args:
            gradients (tuple[Tensor]): one per Parameter, in the order of ``parameters``.

        Returns:
            tuple[Tensor].
        """
        if not self.exec_weight_decay:
            return gradients
        weight_decay = self.get_weight_decay()
        decayed = ()
        if self.is_group:
            for decay, flag, param, gradient in zip(weight_decay, self.decay_flags, self.parameters, gradients):
                decayed += (param * ops.cast(decay, param.dtype) + gradient if flag else gradient,)
        else:
            for flag, param, gradient in zip(self.decay_flags, self.parameters, gradients):
                decayed += (param * ops.cast(weight_decay, param.dtype) + gradient if flag else gradient,)
        return decayed

    def gradients_centralization(self, gradients):
        """The gradients of groups with ``grad_centralization`` minus their mean over all axes but the
        first, for Parameters of rank > 1 whose second dimension is a multiple of 16.

        Args:
            gradients (tuple[Tensor]): one per Parameter.

        Returns:
            tuple[Tensor].
        """
        if not self.is_group:
            return gradients
        centralized = ()
        for flag, gradient in zip(self.grad_centralization_flags, gradients):
            if flag and gradient.ndim > 1 and gradient.shape[1] % 16 == 0:
                gradient = _centralize(gradient)
            centralized += (gradient,)
        return centralized

    def scale_grad(self, gradients):
        """The gradients divided by ``loss_scale`` (multiplied by its reciprocal), if it is not 1.

        Args:
            gradients (tuple[Tensor]): one per Parameter.

        Returns:
            tuple[Tensor].
        """
        if not self.need_scale:
            return gradients
        scaled = ()
        for gradient in gradients:
            scaled += (gradient * ops.cast(self.reciprocal_scale, gradient.dtype),)
        return scaled

    def flatten_gradients(self, gradients):
        """The gradients unchanged (parameters are never flattened into chunks here)."""
        return gradients

    def _increase_global_step(self):
        """Add 1 to ``global_step`` (every ``construct`` does it once, after reading the learning rate)."""
        ops.assign_add(self.global_step, self.global_step_increase_tensor)

    def _check_gradients(self, gradients):
        """RuntimeError unless there is one gradient per Parameter."""
        if len(gradients) != self.param_length:
            raise RuntimeError(f"For '{self.cls_name}', the gradients must be a tuple of one Tensor per parameter "
                               f"({self.param_length}), but got {len(gradients)}.")

    def _preprocess_gradients(self, gradients):
        """Weight decay, gradient centralization and loss-scale division, in MindSpore's order."""
        self._check_gradients(gradients)
        gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        return self.scale_grad(gradients)

    def _decay_per_parameter(self):
        """The weight decay of each Parameter for this step (a tuple): 0.0 where it does not apply."""
        weight_decay = self.get_weight_decay()
        decays = weight_decay if self.is_group else (weight_decay,) * self.param_length
        return tuple([decay if flag else 0.0 for decay, flag in zip(decays, self.decay_flags)])

    def _lr_per_parameter(self, lr):
        """``get_lr()``'s result as one learning rate per Parameter (a tuple)."""
        return lr if self.is_group_lr else (lr,) * self.param_length

    def construct(self, *hyper_params):
        """Update the Parameters from the gradients; every subclass defines it."""
        raise NotImplementedError
