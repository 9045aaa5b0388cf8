"""Parameter and ParameterTuple, as ``mindspore.Parameter`` / ``mindspore.ParameterTuple``.

A Parameter is a Tensor with a name and a ``requires_grad`` flag; Cells collect the Parameters
assigned to their attributes. An unnamed Parameter gets a generated ``'Parameter#<N>'`` name and
``_name_is_generated`` is set, so that a Cell can replace it with the attribute name. Arithmetic
on a Parameter gives a plain Tensor.

The distributed-training attributes (``layerwise_parallel``, ``parallel_optimizer``,
``comm_fusion``, ``set_param_ps`` ...) are validated and stored like MindSpore's, and have no
effect: npspore runs on one process.
"""
from __future__ import annotations

import itertools
import re
from typing import Any

import numpy as np

from ..compiler.kernel import CapturedAvals
from ..compiler.library import LIBRARY
from . import dtype as mstype
from .initializer import initializer
from .tensor import Tensor, _array_from_data, _np_dtype

__all__ = ["Parameter", "ParameterTuple"]

_NAME_MAX_LEN = 1024
_generated_ids = itertools.count(1)


def _parameter_array(default_input) -> np.ndarray:
    """The data of a new Parameter: Python ints are Int32, floats Float32, Tensors are copied."""
    if isinstance(default_input, bool):
        raise ValueError("Parameter data can not be `bool`")
    if isinstance(default_input, int):
        return np.array(default_input, np.int32)
    if isinstance(default_input, float):
        return np.array(default_input, np.float32)
    if isinstance(default_input, Tensor):
        return np.array(_array_from_data(default_input, None))
    return _array_from_data(default_input, None)


def _check_bool(name, value) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"The argument `{name}` must be bool type")


class Parameter(Tensor):
    """A Tensor that is a trainable (or frozen) weight of a network.

    Args:
        default_input (Union[Tensor, int, float, numpy.ndarray, list]): the initial data. A Python
            int gives an Int32 scalar, a float a Float32 scalar; a Tensor's data is copied.
        name (str): the name; ``None`` or ``''`` generate a placeholder name that a Cell replaces
            with the attribute the Parameter is assigned to.
        requires_grad (bool): whether gradients are taken with respect to the Parameter.
        layerwise_parallel (bool): stored; no effect (no parallel modes).
        parallel_optimizer (bool): stored; no effect.
        storage_format (str): stored; no effect.
        device (str): stored; no effect.

    Raises:
        ValueError: for ``bool`` data, placeholder data with dynamic dims, or a name that is not
            a string or is longer than 1024 characters.
        TypeError: for data a Tensor cannot hold, or a non-bool ``requires_grad``.
    """

    def __init__(self, default_input: Any, name: str | None = None, requires_grad: bool = True,
                 layerwise_parallel: bool = False, parallel_optimizer: bool = True, storage_format: str = "",
                 device: str | None = None) -> None:
        self._array = _parameter_array(default_input)
        self.name = name
        self.requires_grad = requires_grad
        self.layerwise_parallel = layerwise_parallel
        self.parallel_optimizer = parallel_optimizer
        self.storage_format = storage_format
        self.device = device
        self._comm_fusion = 1
        self._parallel_optimizer_comm_recompute = False
        self._cache_enable = False
        self._cache_shape = ()
        self._key = -1
        self.sliced = False
        self.unique = False
        self.is_param_ps = False
        self.init_in_server = False
        self._pipeline_stages = []

    # ------------------------------------------------------------------ name and flags

    @property
    def name(self) -> str:
        """The name of the Parameter."""
        return self._name

    @name.setter
    def name(self, name_):
        if name_ is not None and not isinstance(name_, str):
            raise ValueError(f"The type of the Parameter's name should be 'string' or 'None', but got {type(name_)}.")
        name_ = name_.strip() if name_ is not None else ""
        if len(name_) > _NAME_MAX_LEN:
            raise ValueError(f"The length of the '{name_}' name should be less than {_NAME_MAX_LEN}.")
        self._name_is_generated = name_ == ""
        self._name = f"Parameter#{next(_generated_ids)}" if self._name_is_generated else name_

    @property
    def requires_grad(self) -> bool:
        """Whether gradients are taken with respect to the Parameter."""
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        _check_bool("requires_grad", value)
        self._requires_grad = value

    @property
    def layerwise_parallel(self) -> bool:
        """Stored for MindSpore compatibility; no effect."""
        return self._layerwise_parallel

    @layerwise_parallel.setter
    def layerwise_parallel(self, value):
        _check_bool("layerwise_parallel", value)
        self._layerwise_parallel = value

    @property
    def parallel_optimizer(self) -> bool:
        """Stored for MindSpore compatibility; no effect."""
        return self._parallel_optimizer

    @parallel_optimizer.setter
    def parallel_optimizer(self, value):
        _check_bool("parallel_optimizer", value)
        self._parallel_optimizer = value

    @property
    def parallel_optimizer_comm_recompute(self) -> bool:
        """Stored for MindSpore compatibility; no effect."""
        return self._parallel_optimizer_comm_recompute

    @parallel_optimizer_comm_recompute.setter
    def parallel_optimizer_comm_recompute(self, value):
        _check_bool("parallel_optimizer_comm_recompute", value)
        self._parallel_optimizer_comm_recompute = value

    @property
    def comm_fusion(self) -> int:
        """The communication fusion type (a non-negative int); stored, no effect."""
        return self._comm_fusion

    @comm_fusion.setter
    def comm_fusion(self, value):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"The argument 'comm_fusion' must be a non-negative int, but got {value}.")
        self._comm_fusion = value

    @property
    def cache_enable(self) -> bool:
        """Whether the Parameter is cached (parameter-server mode); stored, no effect."""
        return self._cache_enable

    @cache_enable.setter
    def cache_enable(self, value):
        _check_bool("cache_enable", value)
        self._cache_enable = value

    @property
    def cache_shape(self):
        """The cache shape (parameter-server mode); stored, no effect."""
        return self._cache_shape

    @cache_shape.setter
    def cache_shape(self, value):
        if not isinstance(value, (tuple, list)):
            raise TypeError("The argument `cache_shape` must be tuple or list type.")
        self._cache_shape = value

    @property
    def key(self) -> int:
        """The unique key (parameter-server mode); stored, no effect."""
        return self._key

    @key.setter
    def key(self, value):
        if not isinstance(value, int):
            raise TypeError("The argument `key` must be int type.")
        self._key = value

    @property
    def inited_param(self):
        """Always ``None``: a Parameter's data is initialized at construction."""
        return None

    def set_param_ps(self, init_in_server=False):
        """Mark the Parameter as updated by a parameter server; stored, no effect."""
        self.is_param_ps = True
        self.init_in_server = init_in_server

    def add_pipeline_stage(self, stage):
        """Record a pipeline stage; stored, no effect.

        Raises:
            TypeError: if ``stage`` is not a non-negative int.
        """
        if not isinstance(stage, int) or stage < 0:
            raise TypeError("`stage` must be a positive number of int type")
        self._pipeline_stages.append(stage)

    def init_data(self, layout=None, set_sliced=False):
        """Return the Parameter itself: its data is always initialized."""
        self.sliced = set_sliced
        return self

    # ------------------------------------------------------------------ data

    @property
    def data(self):
        """The data as a plain Tensor sharing memory with the Parameter."""
        return Tensor._wrap(self._array)

    def value(self):
        """The current value as a plain Tensor."""
        return self.astype(self.dtype)

    def set_dtype(self, dtype):
        """Convert the data to ``dtype`` in place; returns the Parameter."""
        if self._array.dtype != _np_dtype(dtype):
            CapturedAvals.bump()
        self._array = self._array.astype(_np_dtype(dtype))
        return self

    def set_data(self, data, slice_shape=False):
        """Replace the data; returns the Parameter.

        A Tensor of another dtype is cast to the Parameter's dtype; a Python number becomes
        ``Tensor(data, self.dtype)``.

        Args:
            data (Union[Tensor, int, float]): the new data.
            slice_shape (bool): accept data of another shape.

        Raises:
            TypeError: if ``data`` is not a Tensor, int or float, or is a float for an int Parameter.
            ValueError: if the shapes differ and ``slice_shape`` is False.
        """
        if not isinstance(data, (Tensor, int, float)):
            raise TypeError("Parameter data must be [`Tensor`, `int`, `float`] or a kind of `Tensor` "
                            f"(like `Tensor`). But with type {type(data)}.")
        if isinstance(data, (int, float)):
            if self.dtype in mstype.int_type and isinstance(data, float):
                raise TypeError("Incoming Parameter dtype can not be converted to current dtype implicitly. "
                                f"Current dtype is {self.dtype}, and incoming is {mstype.float_}. "
                                "Use .set_dtype(xxx) to change the dtype.")
            data = Tensor(data, self.dtype)
        if data.shape != self.shape and not slice_shape:
            raise ValueError("Can not change the shape of Parameter which has been initialized. "
                             f"Current shape is {self.shape}, and incoming is {data.shape}.")
        array = _array_from_data(data, None)
        if array.shape != self._array.shape:
            CapturedAvals.bump()  # kernels that captured this Parameter compile again
        self._array = array if array.dtype == self._array.dtype else array.astype(self._array.dtype)
        self.sliced = slice_shape
        return self

    def clone(self, init="same"):
        """A new Parameter with the same name, flags, shape and dtype, and independent data.

        Args:
            init (Union[Tensor, str, numbers.Number]): ``'same'`` copies the data; another value is
                an initializer (``'zeros'``, ``'ones'``, a number, a Tensor ...) for the new data.
        """
        clone = Parameter.__new__(Parameter)
        clone.__dict__.update(self.__dict__)
        clone._pipeline_stages = list(self._pipeline_stages)
        clone._array = self._array.copy()
        if init != "same":
            clone.set_data(initializer(init, shape=self.shape, dtype=self.dtype))
        return clone

    def copy(self):
        """Same as ``clone(init='same')``."""
        return self.clone(init="same")

    def __str__(self) -> str:
        return (f"Parameter (name={self.name}, shape={self.shape}, dtype={self.dtype}, "
                f"requires_grad={self.requires_grad})")

    __repr__ = __str__


_PREFIX_PATTERN = r"^\w+[0-9a-zA-Z\_\.]*$"


class ParameterTuple(tuple):
    """A tuple of Parameters with distinct names.

    Raises:
        TypeError: if an element is not a Parameter.
        ValueError: if two different Parameters have the same name (one Parameter may appear twice).
    """

    def __new__(cls, iterable):
        data = tuple(iterable)
        ids = set()
        names = set()
        for x in data:
            if not isinstance(x, Parameter):
                raise TypeError("For ParameterTuple initialization, ParameterTuple input should be 'Parameter' "
                                f"collection, but got a {type(iterable)}. ")
            if id(x) not in ids:
                if x.name in names:
                    raise ValueError(f"The value {x} , its name '{x.name}' already exists. "
                                     "Please set a unique name for the parameter.")
                names.add(x.name)
                ids.add(id(x))
        return tuple.__new__(cls, data)

    def clone(self, prefix, init="same"):
        """A ParameterTuple of clones named ``'<prefix>.<name>'``.

        Args:
            prefix (str): the namespace added in front of each name.
            init (Union[Tensor, str, numbers.Number]): as in :meth:`Parameter.clone`.

        Raises:
            ValueError: if ``prefix`` is not a name made of letters, digits, ``_`` and ``.``.
        """
        if not isinstance(prefix, str) or re.match(_PREFIX_PATTERN, prefix, re.ASCII) is None:
            raise ValueError(f"The '{prefix}' is illegal, it must be match regular'{_PREFIX_PATTERN}' "
                             f"by flags'{re.ASCII}.'")
        clones = []
        for x in self:
            clone = x.clone(init)
            clone.name = prefix + "." + x.name
            clones.append(clone)
        return ParameterTuple(clones)


LIBRARY.register_parameter(Parameter)
