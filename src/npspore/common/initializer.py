"""Weight initializers, as in ``mindspore.common.initializer``.

``initializer(init, shape, dtype)`` returns a Tensor filled by an :class:`Initializer` (``One()``,
``Normal(sigma=0.02)`` ...), by the initializer registered under a name (``'ones'``, ``'normal'``,
``'xavier_uniform'`` ..., case-insensitive), by a constant number, or returns the given Tensor.
An Initializer is also callable on a NumPy array, which it fills in place. Random initializers draw
MindSpore's numbers (:mod:`npspore.common.philox`): each filled array takes one seed from NumPy's global
generator, so ``np.random.seed`` or ``set_seed`` before building a network gives MindSpore's initial weights
and leaves NumPy's generator where MindSpore leaves it.
Unlike MindSpore, the data is computed at once (``Tensor.init_data()`` returns the Tensor itself).
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from . import dtype as mstype
from . import philox
from .tensor import Tensor

__all__ = ["Initializer", "initializer", "Zero", "One", "Constant", "Normal", "TruncatedNormal", "Uniform",
           "XavierUniform", "XavierNormal", "HeUniform", "HeNormal", "Identity", "Sparse", "Dirac", "Orthogonal"]

_ALIASES = {}


def _register(*aliases):
    """Register an Initializer class under its lower-case class name and ``aliases``."""

    def register(cls):
        for name in (cls.__name__.lower(), *aliases):
            _ALIASES.setdefault(name, cls)
        return cls

    return register


class Initializer:
    """Base class of initializers: ``init(array)`` fills a NumPy array in place."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs

    def _initialize(self, arr):
        raise NotImplementedError("Must be overridden!")

    def __call__(self, arr):
        self._initialize(arr)
        return arr


def _fan_in_and_fan_out(shape):
    """Input and output units of a weight of ``shape`` (receptive field included for convolutions)."""
    if len(shape) < 2:
        raise ValueError("'fan_in' and 'fan_out' can not be computed for tensor with fewer than 2 dimensions, "
                         f"but got dimensions {len(shape)}.")
    receptive_field = math.prod(shape[2:])
    return shape[1] * receptive_field, shape[0] * receptive_field


def _leaky_relu_gain(nonlinearity, negative_slope):
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
              "sigmoid")
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if isinstance(negative_slope, bool) or not isinstance(negative_slope, (int, float)):
            raise ValueError(f"For 'HeUniform', 'negative_slope' {negative_slope} is not a valid number.When "
                             "'nonlinearity' has been set to 'leaky_relu', 'negative_slope' should be int or float "
                             f"type, but got {type(negative_slope)}.")
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    raise ValueError("For 'HeUniform', the argument 'nonlinearity' should be one of ['sigmoid', 'tanh', 'relu' or "
                     f"'leaky_relu'], but got {nonlinearity}.")


@_register("zeros")
class Zero(Initializer):
    """Fill with zeros."""

    def _initialize(self, arr):
        arr.fill(0)


@_register("ones")
class One(Initializer):
    """Fill with ones."""

    def _initialize(self, arr):
        arr.fill(1)


class Constant(Initializer):
    """Fill with ``value``."""

    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _initialize(self, arr):
        arr.fill(self.value)


@_register()
class Normal(Initializer):
    """Sample from the normal distribution N(``mean``, ``sigma``^2).

    Raises:
        ValueError: if ``sigma`` is negative (when filling).
    """

    def __init__(self, sigma=0.01, mean=0.0):
        super().__init__(sigma=sigma, mean=mean)
        self.sigma = sigma
        self.mean = mean

    def _initialize(self, arr):
        arr[...] = philox.normal(arr.shape, self.mean, self.sigma)


@_register()
class TruncatedNormal(Initializer):
    """Sample from N(``mean``, ``sigma``^2) truncated to [``a``, ``b``] (absolute bounds, not multiples of
    ``sigma``).

    Raises:
        ValueError: if ``sigma`` is negative (when filling).
    """

    def __init__(self, sigma=0.01, mean=0.0, a=-2.0, b=2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma = sigma
        self.mean = mean
        self.a = a
        self.b = b

    def _initialize(self, arr):
        arr[...] = philox.truncated_normal(arr.shape, self.a, self.b, self.mean, self.sigma)


@_register()
class Uniform(Initializer):
    """Sample from the uniform distribution U(-``scale``, ``scale``)."""

    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _initialize(self, arr):
        arr[...] = philox.uniform(arr.shape, -self.scale, self.scale)


class _Glorot(Initializer):
    """The Xavier/Glorot initializers: their spread is ``gain`` * sqrt(k / (fan_in + fan_out))."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _spread(self, shape, k):
        fan_in, fan_out = _fan_in_and_fan_out(shape)
        return self.gain * math.sqrt(k / (fan_in + fan_out))


@_register("xavier_uniform")
class XavierUniform(_Glorot):
    """Sample from U(-b, b) with b = ``gain`` * sqrt(6 / (fan_in + fan_out)) (Glorot)."""

    def _initialize(self, arr):
        bound = self._spread(arr.shape, 6.0)
        arr[...] = philox.uniform(arr.shape, -bound, bound)


@_register("xavier_normal")
class XavierNormal(_Glorot):
    """Sample from N(0, s^2) with s = ``gain`` * sqrt(2 / (fan_in + fan_out)) (Glorot)."""

    def _initialize(self, arr):
        arr[...] = philox.normal(arr.shape, 0.0, self._spread(arr.shape, 2.0))


class _Kaiming(Initializer):
    """The He/Kaiming initializers: their spread follows one fan of the weight and a nonlinearity's gain."""

    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope = negative_slope
        self.mode = mode
        self.nonlinearity = nonlinearity

    def _fan_and_gain(self, shape):
        """The fan (``'fan_in'`` or ``'fan_out'``, as ``mode`` says) and the gain."""
        return _calculate_correct_fan(shape, self.mode), _leaky_relu_gain(self.nonlinearity, self.negative_slope)


@_register("he_uniform")
class HeUniform(_Kaiming):
    """Sample from U(-b, b) with b = gain * sqrt(3 / fan) (He/Kaiming).

    Args:
        negative_slope (Union[int, float]): the slope of the rectifier after this layer (``leaky_relu``).
        mode (str): ``'fan_in'`` or ``'fan_out'``, the fan used.
        nonlinearity (str): ``'relu'``, ``'leaky_relu'``, ``'tanh'``, ``'sigmoid'`` or a linear layer name.
    """

    def _initialize(self, arr):
        fan, gain = self._fan_and_gain(arr.shape)
        bound = math.sqrt(3.0) * (gain / math.sqrt(fan))
        arr[...] = philox.uniform(arr.shape, -bound, bound)


@_register("he_normal")
class HeNormal(_Kaiming):
    """Sample from N(0, s^2) with s = gain / sqrt(fan) (He/Kaiming); arguments as :class:`HeUniform`."""

    def _initialize(self, arr):
        fan, gain = self._fan_and_gain(arr.shape)
        arr[...] = philox.normal(arr.shape, 0.0, gain / math.sqrt(fan))


def _require_rank(name, accepted, arr, expected):
    """ValueError in MindSpore's words unless ``accepted`` (a test of ``arr``'s rank) holds."""
    if not accepted:
        raise ValueError(f"For {name} initializer, {expected}, but got {arr.ndim}.")


@_register()
class Identity(Initializer):
    """Fill a 2-D array with the identity matrix (ones on the main diagonal).

    Raises:
        ValueError: if the array is not 2-D (when filling).
    """

    def _initialize(self, arr):
        _require_rank("Identity", arr.ndim == 2, arr, "the dimension of the initialized tensor should be 2")
        arr[...] = np.eye(*arr.shape)


@_register()
class Sparse(Initializer):
    """Fill a 2-D array from N(0, ``sigma``^2), then zero ``ceil(sparsity * rows)`` rows of each column,
    chosen by ``np.random.permutation`` (NumPy's global generator, as MindSpore).

    Raises:
        ValueError: if the array is not 2-D (when filling).
    """

    def __init__(self, sparsity, sigma=0.01):
        super().__init__()
        self.sparsity = sparsity
        self.sigma = sigma

    def _initialize(self, arr):
        _require_rank("Sparse", arr.ndim == 2, arr, "the dimension of the initialized tensor should be 2")
        rows, cols = arr.shape
        zeros = int(np.ceil(self.sparsity * rows))
        data = philox.normal(arr.shape, 0.0, self.sigma)
        for col in range(cols):
            data[np.random.permutation(list(range(rows)))[:zeros], col] = 0.0
        arr[...] = data


@_register()
class Dirac(Initializer):
    """Fill a 3-, 4- or 5-D convolution weight so that the convolution keeps its input: in each of ``groups``
    groups, output channel ``i`` takes input channel ``i`` at the kernel's centre.

    Raises:
        ValueError: for another rank, or a first dimension ``groups`` does not divide (when filling).
    """

    def __init__(self, groups=1):
        super().__init__()
        self.groups = groups

    def _initialize(self, arr):
        _require_rank("Dirac", arr.ndim in (3, 4, 5), arr,
                      "only support to initialize tensor with dimension of 3, 4 or 5")
        if arr.shape[0] % self.groups != 0:
            raise ValueError("For Dirac initializer, the first dimension ofthe initialized tensor must be divisible "
                             f"by groups, but got first dimension{arr.shape[0]}, groups{self.groups}.")
        per_group = arr.shape[0] // self.groups
        centre = tuple(dim // 2 for dim in arr.shape[2:])
        data = np.zeros(arr.shape)
        for group in range(self.groups):
            for channel in range(min(per_group, arr.shape[1])):
                data[(group * per_group + channel, channel) + centre] = 1
        arr[...] = data


@_register()
class Orthogonal(Initializer):
    """Fill an array of at least 2 dimensions, seen as ``(rows, rest)``, with a (semi-)orthogonal matrix times
    ``gain``: the Q of the QR decomposition of a standard normal matrix, its columns' signs fixed by R's
    diagonal.

    Raises:
        ValueError: if the array has fewer than 2 dimensions (when filling).
    """

    def __init__(self, gain=1.0):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        _require_rank("Orthogonal", arr.ndim >= 2, arr,
                      "the dimension of the initialized tensor should be no less than 2")
        rows = arr.shape[0]
        cols = arr.size // rows
        data = philox.normal((rows, cols), 0.0, 1.0)
        wide = rows < cols
        q, r = np.linalg.qr(data.T if wide else data)
        q *= np.sign(np.diag(r))
        arr[...] = ((q.T if wide else q) * self.gain).reshape(arr.shape)


def initializer(init, shape=None, dtype=mstype.float32):
    """Create a Tensor of ``shape`` and ``dtype`` filled by ``init``.

    Args:
        init (Union[Tensor, str, Initializer, numbers.Number]): an Initializer, the name of one
            (case-insensitive), a number (a :class:`Constant`), or a Tensor returned as it is.
        shape (Union[tuple, list, int]): the shape; for a Tensor ``init`` it must be the Tensor's.
        dtype (mindspore.dtype): the dtype of the data.

    Returns:
        Tensor.

    Raises:
        TypeError: if ``init`` is of another type.
        ValueError: for an unknown initializer name, a dim that is not a positive int, or a
            Tensor ``init`` whose shape is not ``shape``.
    """
    if not isinstance(init, (Tensor, numbers.Number, str, Initializer)):
        raise TypeError("For 'initializer', the type of the 'init' argument should be 'Tensor', 'number', 'string' "
                        f"or 'initializer', but got {type(init)}.")
    if isinstance(init, Tensor):
        expected = shape if isinstance(shape, (tuple, list)) else [shape]
        if shape is not None and init.shape != tuple(expected):
            raise ValueError("For 'initializer', the shape of the 'init' argument should be same as the argument "
                             f"'shape', but got the 'init' shape {list(init.shape)} and the 'shape' {expected}.")
        return init
    if isinstance(shape, list):
        shape = tuple(shape)
    elif isinstance(shape, numbers.Number):
        shape = (shape,)
    for value in shape if shape is not None else ():
        if not isinstance(value, int) or value <= 0:
            raise ValueError("For 'initializer', the argument 'shape' is invalid, the value of 'shape' must be "
                             f"positive integer, but got {shape}")
    if isinstance(init, str):
        cls = _ALIASES.get(init.lower())
        if cls is None:
            raise ValueError(f"For 'initializer', the class corresponding to '{init}' was not found.")
        init = cls()
    elif isinstance(init, numbers.Number):
        init = Constant(init)
    return Tensor(dtype=dtype, shape=shape if shape is not None else (), init=init)


# ---- MindSpore's private helpers of this module, which model code imports


_calculate_fan_in_and_fan_out = _fan_in_and_fan_out


def _calculate_correct_fan(shape, mode):
    """The fan of a weight of ``shape`` that ``mode`` names (``'fan_in'`` or ``'fan_out'``, any case).

    Raises:
        ValueError: if ``mode`` is neither, or ``shape`` has fewer than 2 dims.
    """
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"'mode' {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _fan_in_and_fan_out(shape)
    return fan_in if mode == "fan_in" else fan_out


def _calculate_gain(nonlinearity, param=None):
    """The gain of ``nonlinearity`` (``param``: the negative slope of ``'leaky_relu'``, default 0.01).

    Raises:
        ValueError: for another nonlinearity, or a slope that is not an int or float.
    """
    return _leaky_relu_gain(nonlinearity, 0.01 if param is None else param)


def _assignment(arr, num):
    """Fill the NumPy array ``arr`` with ``num`` (a number or an array of its shape) in place; returns it."""
    if arr.shape == ():
        arr = arr.reshape(1)
        arr[:] = num
        return arr.reshape(())
    arr[:] = num[:] if isinstance(num, np.ndarray) else num
    return arr


# MindSpore's private name of the table of initializer names (lowercase name -> class)
_INITIALIZER_ALIAS = _ALIASES


# MindSpore's private fillers, which programs call for their own initializers: each draws one seed from NumPy's
# global generator and returns a float32 array of ``shape`` (npspore.common.philox, bit for bit)
def _init_random_uniform(a, b, shape):
    """float32 samples of U(``a``, ``b``) in ``shape``."""
    return philox.uniform(tuple(shape), a, b)


def _init_random_normal(mean, sigma, shape):
    """float32 samples of N(``mean``, ``sigma``^2) in ``shape``.

    Raises:
        ValueError: ``sigma < 0``.
    """
    if sigma < 0:
        raise ValueError("sigma < 0")
    return philox.normal(tuple(shape), mean, sigma)


def _init_truncated_normal(a, b, mean, sigma, shape):
    """float32 samples of N(``mean``, ``sigma``^2) truncated to [``a``, ``b``] in ``shape``.

    Raises:
        ValueError: ``sigma < 0``.
    """
    if sigma < 0:
        raise ValueError("sigma < 0")
    return philox.truncated_normal(tuple(shape), a, b, mean, sigma)
