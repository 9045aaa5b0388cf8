"""MindSpore 2.10's random primitives that take the generator state at call time: the ``gen_ops_prim`` classes
``RandExt``, ``Randn``, ``RandInt``, ``RandIntLike``, ``RandLikeExt``, ``RandnLike``, ``RandpermExt``,
``Normal{Float,Tensor}{Float,Tensor}``, ``UniformExt``, ``BernoulliExt``, ``MultinomialExt``, ``InplaceNormal``,
``InplaceUniform``, ``InplaceRandom``, ``InplaceExponential``, ``DropoutExt`` (each called with ``seed`` and ``offset``, ints or
one-element integer Tensors) and the ``ops.operations`` samplers ``RandomGamma``, ``Gamma``, ``Poisson``,
``RandomPoisson``, ``Cauchy``, ``NonDeterministicInts``, ``ParameterizedTruncatedNormal``,
``MultinomialWithReplacement``.

The distributions, shapes, dtypes and checks are MindSpore 2.10's. The draws are deterministic in
``(seed, offset)`` — NumPy's Philox bit generator keyed by ``seed`` with its counter at ``offset`` — but are not
MindSpore's numbers (its kernels run another stream layout). The ``seed``/``seed2`` samplers of
``ops.operations`` draw from NumPy's global generator (seeded by ``set_seed``) when both are 0, else from a
Philox stream keyed by them that advances at each call, as MindSpore's stateful kernels do. These run eagerly
(also inside a Cell run eagerly); code compiled by ``jit`` refuses them with ``NotSupportedError``.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..common import dtype as mstype
from ..common.philox import _normal_cdf, _normal_quantile
from ..common.tensor import Tensor, _np_dtype
from ..compiler.errors import NotSupportedError, located
from ..compiler.library import LIBRARY
from .primitives import Primitive

__all__ = ["RandomGamma", "Gamma", "Poisson", "RandomPoisson", "Cauchy", "NonDeterministicInts",
           "ParameterizedTruncatedNormal", "MultinomialWithReplacement"]

_FLOATS = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)


def _scalar_int(name: str, arg: str, value: Any) -> int:
    """``value`` (an int or a one-element integer Tensor) as an int."""
    if isinstance(value, Tensor):
        if value.size != 1 or value.dtype not in mstype.int_type + mstype.uint_type:
            raise TypeError(f"For '{name}', the '{arg}' must be an int or a one-element integer Tensor, but got "
                            f"a {value.dtype} Tensor of shape {value.shape}.")
        return int(value.asnumpy().reshape(()))
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise TypeError(f"For '{name}', the '{arg}' must be an int, but got {type(value).__name__}.")
    return int(value)


def _scalar_float(name: str, arg: str, value: Any) -> float:
    if isinstance(value, Tensor) and value.size == 1:
        return float(value.asnumpy().reshape(()))
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise TypeError(f"For '{name}', the '{arg}' must be a number, but got {type(value).__name__}.")
    return float(value)


def _generator(name: str, seed: Any, offset: Any) -> np.random.Generator:
    """The deterministic stream of ``(seed, offset)``."""
    key = _scalar_int(name, "seed", seed) % (1 << 64)
    counter = _scalar_int(name, "offset", offset) % (1 << 256)
    return np.random.Generator(np.random.Philox(key=key, counter=counter))


def _shape(name: str, shape: Any) -> tuple:
    if isinstance(shape, Tensor):
        shape = tuple(int(d) for d in shape.asnumpy().reshape(-1))
    if not isinstance(shape, (tuple, list)) or not all(isinstance(d, int) and not isinstance(d, bool)
                                                       for d in shape):
        raise TypeError(f"For '{name}', the 'shape' must be a tuple or list of ints, but got {shape!r}.")
    if any(d < 0 for d in shape):
        raise ValueError(f"For '{name}', the 'shape' must not have negative dims, but got {tuple(shape)}.")
    return tuple(shape)


def _tensor(name: str, arg: str, value: Any) -> Tensor:
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{name}', the '{arg}' must be a Tensor, but got {type(value).__name__}.")
    return value


def _float_dtype(name: str, dtype: Any, default: Any) -> Any:
    dtype = default if dtype is None else dtype
    if dtype not in _FLOATS:
        raise TypeError(f"For '{name}', the 'dtype' must be a floating type, but got {dtype}.")
    return dtype


def _ms_name(dtype: Any) -> str:
    """``dtype`` as MindSpore's messages print it (``mindspore.int8``)."""
    return f"mindspore.{_np_dtype(dtype).name if dtype != mstype.bfloat16 else 'bfloat16'}"


def _out(array: np.ndarray, dtype: Any) -> Tensor:
    return Tensor(np.asarray(array).astype(_np_dtype(dtype)), dtype)


class _GeneratorPrimitive(Primitive):
    """A ``gen_ops_prim`` random primitive: no attributes, the generator state comes with each call."""

    def __init__(self):
        super().__init__(type(self).__name__)


class RandExt(_GeneratorPrimitive):
    """``RandExt()(shape, seed, offset, dtype=None, device=None)``: U[0, 1) samples of ``shape`` (Float32 unless
    ``dtype``, a floating type)."""

    def __call__(self, shape, seed, offset, dtype=None, device=None):
        dtype = _float_dtype(self.name, dtype, mstype.float32)
        return _out(_generator(self.name, seed, offset).random(_shape(self.name, shape)), dtype)


class Randn(_GeneratorPrimitive):
    """``Randn()(shape, seed, offset, dtype=None, device=None)``: standard normal samples of ``shape`` (Float32
    unless ``dtype``, a floating type)."""

    def __call__(self, shape, seed, offset, dtype=None, device=None):
        dtype = _float_dtype(self.name, dtype, mstype.float32)
        return _out(_generator(self.name, seed, offset).standard_normal(_shape(self.name, shape)), dtype)


def _integers(name: str, low: Any, high: Any, shape: tuple, seed: Any, offset: Any, dtype: Any) -> Tensor:
    low, high = _scalar_int(name, "low", low), _scalar_int(name, "high", high)
    if low >= high:
        raise ValueError(f"For '{name}', 'low' must be less than 'high', but got low={low} and high={high}.")
    return _out(_generator(name, seed, offset).integers(low, high, shape), dtype)


class RandInt(_GeneratorPrimitive):
    """``RandInt()(low, high, shape, seed, offset, dtype=None, device=None)``: integers uniform in [``low``,
    ``high``) of ``shape``, Int64 unless ``dtype``."""

    def __call__(self, low, high, shape, seed, offset, dtype=None, device=None):
        dtype = mstype.int64 if dtype is None else dtype
        return _integers(self.name, low, high, _shape(self.name, shape), seed, offset, dtype)


class RandIntLike(_GeneratorPrimitive):
    """``RandIntLike()(input, low, high, seed, offset, dtype=None, device=None)``: integers uniform in [``low``,
    ``high``) of ``input``'s shape, of ``input``'s dtype unless ``dtype``."""

    def __call__(self, input, low, high, seed, offset, dtype=None, device=None):
        input = _tensor(self.name, "input", input)
        dtype = input.dtype if dtype is None else dtype
        return _integers(self.name, low, high, input.shape, seed, offset, dtype)


class RandLikeExt(_GeneratorPrimitive):
    """``RandLikeExt()(tensor, seed, offset, dtype=None, device=None)``: U[0, 1) samples of ``tensor``'s shape and
    (floating) dtype unless ``dtype``."""

    def __call__(self, tensor, seed, offset, dtype=None, device=None):
        tensor = _tensor(self.name, "tensor", tensor)
        dtype = _float_dtype(self.name, dtype, tensor.dtype)
        return _out(_generator(self.name, seed, offset).random(tensor.shape), dtype)


class RandnLike(_GeneratorPrimitive):
    """``RandnLike()(input, seed, offset, dtype=None, device=None)``: standard normal samples of ``input``'s shape
    and (floating) dtype unless ``dtype``."""

    def __call__(self, input, seed, offset, dtype=None, device=None):
        input = _tensor(self.name, "input", input)
        dtype = _float_dtype(self.name, dtype, input.dtype)
        return _out(_generator(self.name, seed, offset).standard_normal(input.shape), dtype)


class RandpermExt(_GeneratorPrimitive):
    """``RandpermExt()(n, seed, offset, dtype=mstype.int64)``: a random permutation of ``0 .. n - 1``."""

    def __call__(self, n, seed, offset, dtype=mstype.int64):
        n = _scalar_int(self.name, "n", n)
        if n < 0:
            raise ValueError(f"For '{self.name}', the 'n' must be non-negative, but got {n}.")
        return _out(_generator(self.name, seed, offset).permutation(n), dtype)


def _normal(name: str, mean: Any, std: Any, shape: Any, seed: Any, offset: Any, dtype: Any) -> Tensor:
    """N(``mean``, ``std``^2) samples broadcast over the arguments (and ``shape`` when given)."""
    mean_array = mean.asnumpy() if isinstance(mean, Tensor) else np.float64(_scalar_float(name, "mean", mean))
    std_array = std.asnumpy() if isinstance(std, Tensor) else np.float64(_scalar_float(name, "std", std))
    if np.any(std_array < 0):
        raise ValueError(f"For '{name}', the 'std' must be non-negative.")
    shape = np.broadcast_shapes(np.shape(mean_array), np.shape(std_array), *(() if shape is None else (shape,)))
    draws = _generator(name, seed, offset).standard_normal(shape)
    return _out(mean_array.astype(np.float64) + std_array.astype(np.float64) * draws, dtype)


class NormalFloatFloat(_GeneratorPrimitive):
    """``NormalFloatFloat()(mean, std, size, seed, offset)``: Float32 N(``mean``, ``std``^2) samples of ``size``
    (``mean``, ``std`` floats; ``std >= 0``)."""

    def __call__(self, mean, std, size, seed, offset):
        return _normal(self.name, mean, std, _shape(self.name, size), seed, offset, mstype.float32)


class NormalFloatTensor(_GeneratorPrimitive):
    """``NormalFloatTensor()(mean, std, seed, offset)``: N(``mean``, ``std``^2) samples of the Tensor ``std``'s
    shape and dtype."""

    def __call__(self, mean, std, seed, offset):
        return _normal(self.name, mean, std, None, seed, offset, _tensor(self.name, "std", std).dtype)


class NormalTensorFloat(_GeneratorPrimitive):
    """``NormalTensorFloat()(mean, std, seed, offset)``: N(``mean``, ``std``^2) samples of the Tensor ``mean``'s
    shape and dtype."""

    def __call__(self, mean, std, seed, offset):
        return _normal(self.name, mean, std, None, seed, offset, _tensor(self.name, "mean", mean).dtype)


class NormalTensorTensor(_GeneratorPrimitive):
    """``NormalTensorTensor()(mean, std, seed, offset)``: N(``mean``, ``std``^2) samples of the broadcast shape of
    the Tensors ``mean`` and ``std``, of ``mean``'s dtype."""

    def __call__(self, mean, std, seed, offset):
        _tensor(self.name, "std", std)
        return _normal(self.name, mean, std, None, seed, offset, _tensor(self.name, "mean", mean).dtype)


def _uniform_between(name: str, tensor: Any, low: Any, high: Any, seed: Any, offset: Any) -> Tensor:
    tensor = _tensor(name, "input", tensor)
    low, high = _scalar_float(name, "from", low), _scalar_float(name, "to", high)
    if low > high:
        raise ValueError(f"For '{name}', 'from' must be less than or equal to 'to', but got from={low}, to={high}.")
    return _out(_generator(name, seed, offset).uniform(low, high, tensor.shape), tensor.dtype)


class UniformExt(_GeneratorPrimitive):
    """``UniformExt()(tensor, a, b, seed, offset)``: U[``a``, ``b``) samples of ``tensor``'s shape and dtype."""

    def __call__(self, tensor, a, b, seed, offset):
        return _uniform_between(self.name, tensor, a, b, seed, offset)


class BernoulliExt(_GeneratorPrimitive):
    """``BernoulliExt()(input, seed, offset)``: 0/1 samples, 1 with the probability in each element of ``input``
    (in [0, 1]), of ``input``'s shape and dtype."""

    def __call__(self, input, seed, offset):
        probabilities = _tensor(self.name, "input", input).asnumpy().astype(np.float64)
        if np.any((probabilities < 0) | (probabilities > 1)):
            raise ValueError(f"For '{self.name}', the elements of 'input' must be in [0, 1].")
        draws = _generator(self.name, seed, offset).random(probabilities.shape)
        return _out(draws < probabilities, input.dtype)


def _multinomial(name: str, weights: np.ndarray, num_samples: int, replacement: bool,
                 generator: np.random.Generator) -> np.ndarray:
    """``num_samples`` Int64 category indices per row of the 1-D or 2-D nonnegative ``weights``."""
    if weights.ndim not in (1, 2):
        raise ValueError(f"For '{name}', the 'input' must be 1-D or 2-D, but got {weights.ndim}-D.")
    if np.any(weights < 0) or not np.all(np.isfinite(weights)):
        raise ValueError(f"For '{name}', the elements of 'input' must be finite and non-negative.")
    rows = weights.reshape(-1, weights.shape[-1]).astype(np.float64)
    if not replacement and num_samples > rows.shape[1]:
        raise ValueError(f"For '{name}', 'num_samples' ({num_samples}) must not exceed the number of categories "
                         f"({rows.shape[1]}) without replacement.")
    sums = rows.sum(axis=1, keepdims=True)
    if np.any(sums == 0):
        raise ValueError(f"For '{name}', each row of 'input' must have a positive sum.")
    picks = [generator.choice(rows.shape[1], num_samples, replace=replacement, p=row / total)
             for row, total in zip(rows, sums[:, 0])]
    return np.array(picks, np.int64).reshape(weights.shape[:-1] + (num_samples,))


class MultinomialExt(_GeneratorPrimitive):
    """``MultinomialExt()(input, num_samples, replacement, seed, offset)``: ``num_samples`` Int64 category indices
    per row of ``input`` (1-D or 2-D nonnegative weights)."""

    def __call__(self, input, num_samples, replacement, seed, offset):
        num_samples = _scalar_int(self.name, "num_samples", num_samples)
        if num_samples <= 0:
            raise ValueError(f"For '{self.name}', the 'num_samples' must be positive, but got {num_samples}.")
        weights = _tensor(self.name, "input", input).asnumpy()
        return _out(_multinomial(self.name, weights, num_samples, bool(replacement),
                                 _generator(self.name, seed, offset)), mstype.int64)


class InplaceNormal(_GeneratorPrimitive):
    """``InplaceNormal()(input, mean, std, seed, offset)``: fills ``input`` with N(``mean``, ``std``^2) samples
    and returns it."""

    def __call__(self, input, mean, std, seed, offset):
        input = _tensor(self.name, "input", input)
        return input.assign_value(_normal(self.name, mean, std, input.shape, seed, offset, input.dtype))


class InplaceUniform(_GeneratorPrimitive):
    """``InplaceUniform()(input, from_, to, seed, offset)``: fills ``input`` with U[``from_``, ``to``) samples and
    returns it."""

    def __call__(self, input, from_, to, seed, offset):
        return _tensor(self.name, "input", input).assign_value(
            _uniform_between(self.name, input, from_, to, seed, offset))


def _random_upper(dtype: Any) -> int:
    """``InplaceRandom``'s default ``to``: the dtype's largest value + 1 (2**mantissa + 1 for a float)."""
    if dtype in _FLOATS:
        return (1 << (np.finfo(_np_dtype(dtype)).nmant + 1)) + 1 if dtype != mstype.bfloat16 else (1 << 8) + 1
    if dtype == mstype.bool_:
        return 2
    return int(np.iinfo(_np_dtype(dtype)).max) + 1


class InplaceRandom(_GeneratorPrimitive):
    """``InplaceRandom()(input, from_=0, to=None, seed=0, offset=0)``: fills ``input`` with integers uniform in
    [``from_``, ``to``) (``to`` defaults to the dtype's largest value + 1) and returns it."""

    def __call__(self, input, from_=0, to=None, seed=0, offset=0):
        input = _tensor(self.name, "input", input)
        high = _random_upper(input.dtype) if to is None else to
        return input.assign_value(_integers(self.name, from_, high, input.shape, seed, offset, input.dtype))


class InplaceExponential(_GeneratorPrimitive):
    """``InplaceExponential()(input, lambd, seed, offset)``: fills ``input`` with Exp(``lambd``) samples (mean
    ``1 / lambd``) and returns it."""

    def __call__(self, input, lambd, seed, offset):
        input = _tensor(self.name, "input", input)
        lambd = _scalar_float(self.name, "lambd", lambd)
        if lambd <= 0:
            raise ValueError(f"For '{self.name}', the 'lambd' must be positive, but got {lambd}.")
        draws = _generator(self.name, seed, offset).exponential(1.0 / lambd, input.shape)
        return input.assign_value(_out(draws, input.dtype))


_MASK_BLOCK_ELEMENTS = 128      # DropoutExt's mask: one bit per element, padded to whole 128-element blocks


class DropoutExt(_GeneratorPrimitive):
    """``DropoutExt()(input, p, seed, offset)``: ``(output, mask)``: each element of ``input`` zeroed with
    probability ``p`` and the kept ones scaled by ``1 / (1 - p)``; ``mask`` is MindSpore's UInt8 bit mask (bit ``i``
    of byte ``i // 8``, least significant first, set where element ``i`` is kept), ``16`` bytes per started block
    of 128 elements."""

    def __call__(self, input, p, seed, offset):
        values = _tensor(self.name, "input", input).asnumpy()
        p = _scalar_float(self.name, "p", p)
        if not 0 <= p <= 1:
            raise ValueError(f"For '{self.name}', the 'p' must be in [0, 1], but got {p}.")
        keep = _generator(self.name, seed, offset).random(values.shape) >= p
        scale = 0.0 if p == 1 else 1.0 / (1.0 - p)
        blocks = -(-values.size // _MASK_BLOCK_ELEMENTS)
        bits = np.zeros(blocks * _MASK_BLOCK_ELEMENTS, bool)
        bits[:values.size] = keep.reshape(-1)
        mask = np.packbits(bits, bitorder="little")
        return _out(np.where(keep, values * scale, 0), input.dtype), Tensor(mask, mstype.uint8)


# The gen_ops_prim classes and the instances MindSpore 2.10 defines beside them.
GENERATED = {cls.__name__: cls for cls in (
    RandExt, Randn, RandInt, RandIntLike, RandLikeExt, RandnLike, RandpermExt, NormalFloatFloat, NormalFloatTensor,
    NormalTensorFloat, NormalTensorTensor, UniformExt, BernoulliExt, MultinomialExt, InplaceNormal, InplaceUniform,
    InplaceRandom, InplaceExponential, DropoutExt)}
GENERATED.update(randint_op=RandInt(), inplace_uniform_op=InplaceUniform(), inplace_normal_op=InplaceNormal(),
                 multinomial_ext_op=MultinomialExt(), bernoulli_ext_op=BernoulliExt(), dropout_ext_op=DropoutExt())


class _StatefulSampler(Primitive):
    """An ``ops.operations`` sampler built with ``seed``/``seed2``: NumPy's global generator when both are 0,
    else a Philox stream keyed by them whose counter advances at each call."""

    def __init__(self, seed=0, seed2=0, **attrs):
        super().__init__(type(self).__name__)
        for arg, value in (("seed", seed), ("seed2", seed2)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"For '{self.name}', the '{arg}' must be an int, but got {type(value).__name__}.")
            if value < 0:
                raise ValueError(f"For '{self.name}', the '{arg}' must be int and must >= 0, but got '{value}' "
                                 "with type 'int'.")
        self.add_prim_attr("seed", seed).add_prim_attr("seed2", seed2)
        for key, value in attrs.items():
            self.add_prim_attr(key, value)
        self._stream = (np.random.Generator(np.random.Philox(key=[seed, seed2])) if seed or seed2 else None)

    def _rng(self) -> np.random.Generator:
        if self._stream is not None:
            return self._stream
        return np.random.Generator(np.random.Philox(key=int(np.random.randint(0, 1 << 63, dtype=np.int64))))


def _param(name: str, arg: str, value: Any, dtypes: tuple) -> np.ndarray:
    value = _tensor(name, arg, value)
    if value.dtype not in dtypes:
        raise TypeError(f"For '{name}', the '{arg}' must be a Tensor of {', '.join(map(str, dtypes))}, but got "
                        f"{value.dtype}.")
    return value.asnumpy().astype(np.float64)


def _shape_input(name: str, shape: Any) -> tuple:
    """A sampler's ``shape`` input: a tuple of ints or a 1-D Int32/Int64 Tensor."""
    if isinstance(shape, Tensor) and shape.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For '{name}', the 'shape' must be Int32 or Int64, but got {shape.dtype}.")
    return _shape(name, shape)


class RandomGamma(_StatefulSampler):
    """``RandomGamma(seed=0, seed2=0)(shape, alpha)``: Gamma(``alpha``, 1) samples of shape ``shape +
    alpha.shape``, of ``alpha``'s (floating) dtype."""

    def __call__(self, shape, alpha):
        alpha_array = _param(self.name, "alpha", alpha, (mstype.float16, mstype.float32, mstype.float64))
        shape = _shape_input(self.name, shape) + alpha_array.shape
        return _out(self._rng().gamma(alpha_array, 1.0, shape), alpha.dtype)


class Gamma(_StatefulSampler):
    """``Gamma(seed=0, seed2=0)(shape, alpha, beta)``: Float32 Gamma samples of shape ``alpha`` (concentration) and
    rate ``beta``, in the broadcast shape of ``shape``, ``alpha`` and ``beta``."""

    def __call__(self, shape, alpha, beta):
        alpha_array = _param(self.name, "alpha", alpha, (mstype.float32,))
        beta_array = _param(self.name, "beta", beta, (mstype.float32,))
        shape = np.broadcast_shapes(_shape(self.name, shape), alpha_array.shape, beta_array.shape)
        return _out(self._rng().gamma(alpha_array, 1.0 / beta_array, shape), mstype.float32)


class Poisson(_StatefulSampler):
    """``Poisson(seed=0, seed2=0)(shape, mean)``: Int32 Poisson(``mean``) samples in the broadcast shape of
    ``shape`` and the Float32 ``mean``."""

    def __call__(self, shape, mean):
        mean_array = _param(self.name, "mean", mean, (mstype.float32,))
        shape = np.broadcast_shapes(_shape(self.name, shape), mean_array.shape)
        return _out(self._rng().poisson(mean_array, shape), mstype.int32)


class RandomPoisson(_StatefulSampler):
    """``RandomPoisson(seed=0, seed2=0, dtype=mstype.int64)(shape, rate)``: Poisson(``rate``) samples of shape
    ``shape + rate.shape`` as ``dtype``."""

    def __init__(self, seed=0, seed2=0, dtype=mstype.int64):
        if dtype not in (mstype.int64, mstype.int32, mstype.float16, mstype.float32, mstype.float64):
            raise TypeError("For 'RandomPoisson', the 'dtype' should be one of [mindspore.int64, mindspore.int32, "
                            f"mindspore.float16, mindspore.float32, mindspore.float64], but got '{_ms_name(dtype)}'.")
        super().__init__(seed, seed2, dtype=dtype)
        self.dtype = dtype

    def __call__(self, shape, rate):
        rate_array = _param(self.name, "rate", rate, (mstype.float16, mstype.float32, mstype.float64,
                                                      mstype.int32, mstype.int64))
        shape = _shape_input(self.name, shape) + rate_array.shape
        return _out(self._rng().poisson(rate_array, shape), self.dtype)


class Cauchy(Primitive):
    """``Cauchy(size, median=0.0, sigma=1.0)()``: Float32 Cauchy(``median``, ``sigma``) samples of the list
    ``size`` (from NumPy's global generator, seeded by ``set_seed``).

    Raises:
        TypeError: if ``size`` is not a list.
        ValueError: if ``size`` is empty or has a non-positive entry.
    """

    def __init__(self, size, median=0.0, sigma=1.0):
        super().__init__("Cauchy")
        if not isinstance(size, list):
            raise TypeError(f"For 'Cauchy', the type of 'size' should be 'list', but got type "
                            f"'{type(size).__name__}'.")
        if not size:
            raise ValueError("For 'Cauchy', the 'size' must not be empty.")
        for index, extent in enumerate(size):
            if not isinstance(extent, int) or isinstance(extent, bool) or extent <= 0:
                raise ValueError(f"For 'Cauchy', the 'size[{index}]' must be int and must > 0, but got "
                                 f"'{extent}' with type '{type(extent).__name__}'.")
        self.size, self.median, self.sigma = tuple(size), float(median), float(sigma)
        self.add_prim_attr("size", size).add_prim_attr("median", median).add_prim_attr("sigma", sigma)

    def __call__(self):
        return _out(self.median + self.sigma * np.random.standard_cauchy(self.size), mstype.float32)


class NonDeterministicInts(Primitive):
    """``NonDeterministicInts(dtype=mstype.int64)(shape)``: integers uniform over ``dtype``'s whole range, of
    ``shape`` (a 1-D Int32/Int64 Tensor), from the operating system's entropy."""

    def __init__(self, dtype=mstype.int64):
        super().__init__("NonDeterministicInts")
        if dtype not in (mstype.int32, mstype.int64, mstype.uint32, mstype.uint64):
            raise TypeError("For 'NonDeterministicInts', the 'dtype' should be one of [mindspore.int32, "
                            f"mindspore.int64, mindspore.uint32, mindspore.uint64], but got '{_ms_name(dtype)}'.")
        self.dtype = dtype
        self.add_prim_attr("dtype", dtype)

    def __call__(self, shape):
        shape = _shape_input(self.name, _tensor(self.name, "shape", shape))
        limits = np.iinfo(_np_dtype(self.dtype))
        draws = np.random.default_rng().integers(limits.min, limits.max, shape, _np_dtype(self.dtype),
                                                 endpoint=True)
        return _out(draws, self.dtype)


class ParameterizedTruncatedNormal(_StatefulSampler):
    """``ParameterizedTruncatedNormal(seed=0, seed2=0)(shape, mean, stdevs, min, max)``: samples of the 1-D integer
    Tensor ``shape`` (``(batch_size, *)``) from N(``mean``, ``stdevs``^2) truncated to [``min``, ``max``], the
    parameters of batch ``i`` at index ``i`` (each of shape ``()`` or ``(batch_size,)``, one floating dtype), of
    ``mean``'s dtype (by the inverse CDF).

    Raises:
        TypeError: if an input is not a Tensor, ``shape`` is not Int32/Int64 or the parameters' dtypes differ.
        ValueError: if ``shape`` is not 1-D with at least 2 positive elements, a parameter's shape is neither
            ``()`` nor ``(batch_size,)``, a ``stdevs`` element is not positive or a ``min`` is not below its ``max``.
    """

    def __call__(self, shape, mean, stdevs, min, max):  # noqa: A002 - MindSpore's input names
        shape = _tensor(self.name, "shape", shape)
        if shape.ndim != 1 or shape.size < 2:
            raise ValueError(f"For '{self.name}', the 'shape' must be a 1-D Tensor of at least 2 elements, but got "
                             f"shape {shape.shape}.")
        extents = _shape_input(self.name, shape)
        if any(extent <= 0 for extent in extents):
            raise ValueError(f"For '{self.name}', the 'shape' elements must be positive, but got {extents}.")
        params = {"mean": mean, "stdevs": stdevs, "min": min, "max": max}
        floats = (mstype.float16, mstype.float32, mstype.float64)
        arrays = {}
        for arg, value in params.items():
            arrays[arg] = _param(self.name, arg, value, floats)
            if value.dtype != mean.dtype:
                raise TypeError(f"For '{self.name}', the '{arg}' must have the dtype of 'mean' ({mean.dtype}), "
                                f"but got {value.dtype}.")
            if arrays[arg].shape not in ((), (extents[0],)):
                raise ValueError(f"For '{self.name}', the shape of '{arg}' must be () or ({extents[0]},), but got "
                                 f"{arrays[arg].shape}.")
        if np.any(arrays["stdevs"] <= 0):
            raise ValueError(f"For '{self.name}', the 'stdevs' elements must be positive.")
        if np.any(np.broadcast_to(arrays["min"] >= arrays["max"], (extents[0],))):
            raise ValueError(f"For '{self.name}', each 'min' must be less than its 'max'.")
        batch = {arg: np.broadcast_to(array, (extents[0],)) for arg, array in arrays.items()}
        uniforms = self._rng().random(extents).reshape(extents[0], -1)
        rows = []
        for row, mu, sigma, low, high in zip(uniforms, batch["mean"], batch["stdevs"], batch["min"], batch["max"]):
            cdf_low, cdf_high = _normal_cdf((low - mu) / sigma), _normal_cdf((high - mu) / sigma)
            rows.append(np.clip(mu + sigma * _normal_quantile(cdf_low + row * (cdf_high - cdf_low)), low, high))
        return _out(np.array(rows).reshape(extents), mean.dtype)


class MultinomialWithReplacement(Primitive):
    """``MultinomialWithReplacement(numsamples, replacement=False)(x, seed, offset)``: ``numsamples`` Int64 category
    indices per row of ``x`` (1-D or 2-D nonnegative weights), deterministic in ``(seed, offset)``."""

    def __init__(self, numsamples, replacement=False):
        super().__init__("MultinomialWithReplacement")
        if not isinstance(numsamples, int) or isinstance(numsamples, bool) or numsamples < 0:
            raise ValueError(f"For 'MultinomialWithReplacement', the 'numsamples' must be a non-negative int, but "
                             f"got {numsamples}.")
        if not isinstance(replacement, bool):
            raise TypeError(f"For 'MultinomialWithReplacement', the 'replacement' must be a bool, but got "
                            f"{type(replacement).__name__}.")
        self.numsamples, self.replacement = numsamples, replacement
        self.add_prim_attr("numsamples", numsamples).add_prim_attr("replacement", replacement)

    def __call__(self, x, seed, offset):
        weights = _tensor(self.name, "x", x).asnumpy()
        return _out(_multinomial(self.name, weights, self.numsamples, self.replacement,
                                 _generator(self.name, seed, offset)), mstype.int64)


def _refuse_compiled(primitive: Primitive, specializer: Any, args: tuple, kwargs: dict, loc: Any) -> None:
    """Compiled code refuses these samplers: a draw made while compiling would be folded into the kernel and
    repeated on every call (a stateful sampler's stream would never advance)."""
    raise located(NotSupportedError(f"'{primitive.name}' (a random sampler run by NumPy on the host) runs eagerly "
                                    f"only in npspore, not in compiled code"), loc)


for _sampler in (_GeneratorPrimitive, _StatefulSampler, Cauchy, NonDeterministicInts, MultinomialWithReplacement):
    LIBRARY.register_stager(_sampler, _refuse_compiled)
