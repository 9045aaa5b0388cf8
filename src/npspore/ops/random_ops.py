"""Random sampling of ``mindspore.ops``: ``randint``, ``rand_like``, ``randn_like``, ``multinomial``, ``randperm``,
``shuffle``, ``standard_laplace`` and the primitives ``UniformInt``, ``Multinomial``, ``Randperm``,
``RandomCategorical``, ``StandardLaplace``, ``TruncatedNormal``.

Each is a composition over the table's ``random_uniform``/``random_normal``/``uniform_int`` ops, so it draws at
run time, eagerly and compiled, and is never folded. ``randint``, ``rand_like``, ``randn_like``, ``shuffle``,
``UniformInt`` and a seeded ``bernoulli`` draw MindSpore's numbers (its CPU kernels', from the primitive seeds
``_get_graph_seed`` gives, see :mod:`npspore.common.kernel_random`); ``randperm`` is MindSpore's function of its
``seed`` and ``offset`` (a ``std::mt19937`` shuffle, the same order every call). The others draw from npspore's seeded generator (``set_seed``), with
MindSpore's distributions, shapes, dtypes and checks but not its numbers; for them a per-call seed is not
implemented: a nonzero one raises ``ValueError``.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..common import dtype as mstype
from ..common.kernel_random import function_kernel, new_kernel
from ..common.seed import _get_graph_seed
from ..common.tensor import Tensor, _np_dtype
from ..core.libstdcxx_random import mt19937_permutation
from .array_functional import _random, running_sum
from .eager import run
from .linalg_extra import _HostCall
from .numeric import _check_tensor
from .primitive_statistics_a_l import bernoulli as _bernoulli
from .primitives import Primitive

__all__ = ["bernoulli", "randint", "rand_like", "randn_like", "multinomial", "randperm", "shuffle", "standard_laplace",
           "UniformInt", "Multinomial", "Randperm", "RandomCategorical", "StandardLaplace", "TruncatedNormal"]


def _no_seed(name: str, **seeds: Any) -> None:
    for key, value in seeds.items():
        if value:
            raise ValueError(f"For '{name}', a nonzero '{key}' is not implemented in npspore: seed the draws with "
                             "set_seed.")


def _uniform(shape: tuple, dtype: Any = mstype.float64) -> Tensor:
    """Samples uniform in [0, 1) of ``shape`` (float64 by default: enough bits for wide integer ranges)."""
    return run("random_uniform", shape=tuple(shape), dtype=_np_dtype(dtype))


def _check_int(name: str, arg: str, value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{name}', the '{arg}' must be an int, but got {type(value).__name__}.")


def randint(low: int, high: int, size: tuple, seed: Any = None, *, dtype: Any = None) -> Tensor:
    """Integers uniform in [``low``, ``high``) of shape ``size``, Int64 unless ``dtype`` (an integer type) is given.

    MindSpore's numbers: a new ``UniformInt`` primitive of seeds ``_get_graph_seed(seed, 'randint')``.

    Raises:
        TypeError: if ``low`` or ``high`` is not an int, ``size`` not a tuple, or ``dtype`` not an integer type.
        ValueError: if ``low >= high``.
    """
    _check_int("randint", "low", low)
    _check_int("randint", "high", high)
    if not isinstance(size, tuple):
        raise TypeError(f"For 'randint', the 'size' must be a tuple, but got {type(size).__name__}.")
    dtype = mstype.int64 if dtype is None else dtype
    if dtype not in mstype.int_type + mstype.uint_type:
        raise TypeError(f"For 'randint', the 'dtype' must be an integer type, but got {dtype}.")
    if low >= high:
        raise ValueError(f"For 'randint', 'low' must be less than 'high', but got low={low} and high={high}.")
    seeds = function_kernel("UniformInt", seed, "randint")
    drawn = run("uniform_int", Tensor(low, mstype.int32), Tensor(high, mstype.int32), shape=size, seeds=seeds)
    return run("cast", drawn, dtype=_np_dtype(dtype))


def bernoulli(input: Tensor, p: Any = 0.5, seed: Any = None) -> Tensor:
    """0/1 samples of ``input``'s shape and dtype, 1 with probability ``p`` (a number or a Tensor of ``input``'s
    shape); with an int ``seed``, MindSpore's numbers (its ``Bernoulli`` kernel, see the ``Bernoulli`` primitive).

    Raises:
        TypeError: if ``input`` is not a Tensor or ``seed`` not an int.
    """
    return _bernoulli(input, p, seed)


def _like(name: str, op: str, input: Tensor, seed: Any, dtype: Any) -> Tensor:
    _check_tensor(name, "input", input)
    if dtype not in mstype.float_type:
        raise TypeError(f"For '{name}', the 'dtype' must be a float type, but got {dtype}.")
    return _random(name, op, (tuple(input.shape),), dtype, seed)


def rand_like(input: Tensor, seed: Any = None, *, dtype: Any = None) -> Tensor:
    """Samples uniform in [0, 1) of ``input``'s shape, in ``dtype`` (default ``input``'s, a float type),
    MindSpore's numbers: a new ``UniformReal`` primitive of seeds ``_get_graph_seed(seed, 'rand_like')``.

    Raises:
        TypeError: if ``input`` is not a Tensor or the dtype is not a float type.
    """
    return _like("rand_like", "random_uniform", input, seed, input.dtype if dtype is None else dtype)


def randn_like(input: Tensor, seed: Any = None, *, dtype: Any = None) -> Tensor:
    """Standard normal samples of ``input``'s shape, in ``dtype`` (default Float32, as MindSpore 2.10's), MindSpore's
    numbers: a new ``StandardNormal`` primitive of seeds ``_get_graph_seed(seed, 'randn_like')``.

    Raises:
        TypeError: if ``input`` is not a Tensor or the dtype is not a float type.
    """
    return _like("randn_like", "random_normal", input, seed, mstype.float32 if dtype is None else dtype)


def _gumbel(shape: tuple) -> Tensor:
    """Standard Gumbel samples: ``-log(-log(u))``."""
    return run("neg", run("log", run("neg", run("log", _uniform(shape)))))


def _categories(probabilities: Tensor, num_samples: int, dtype: Any) -> Tensor:
    """``num_samples`` draws with replacement per row of the 2-D ``probabilities`` (unnormalized): the number of
    entries of each row's cumulative distribution at or below a uniform sample."""
    rows, count = probabilities.shape
    total = run("sum", probabilities, axis=(1,), keepdims=True)
    cdf = run("div", running_sum(probabilities, 1, False, False), total)
    picks = run("less_equal", run("expand_dims", cdf, axis=1), _uniform((rows, num_samples, 1)))
    index = run("sum", run("cast", picks, dtype=_np_dtype(mstype.int32)), axis=(2,))
    return run("cast", run("minimum", index, count - 1), dtype=_np_dtype(dtype))


def multinomial(input: Tensor, num_samples: int, replacement: bool = True, seed: Any = None) -> Tensor:
    """``num_samples`` category indices (Int32) per row of the 1-D or 2-D ``input`` of nonnegative weights, drawn in
    proportion to them; without ``replacement`` each category at most once, as MindSpore 2.10 draws it: the top
    ``num_samples`` of ``log(u) / (input + 1e-6)``, ``u`` a new ``UniformReal`` primitive's samples (of seeds
    ``_get_graph_seed(seed, 'multinomial')``: MindSpore's numbers). With ``replacement``, npspore's numbers.

    Raises:
        TypeError: if ``input`` is not a float Tensor or ``num_samples`` not an int.
        ValueError: if ``input`` is not 1-D or 2-D, ``num_samples`` is not positive, or exceeds the categories
            without replacement.
    """
    _check_tensor("multinomial", "input", input)
    _check_int("multinomial", "num_samples", num_samples)
    if input.dtype not in mstype.float_type:
        raise TypeError(f"For 'multinomial', the 'input' must be a float Tensor, but got {input.dtype}.")
    if len(input.shape) not in (1, 2):
        raise ValueError(f"For 'multinomial', the 'input' must be 1-D or 2-D, but got {len(input.shape)}-D.")
    if num_samples <= 0:
        raise ValueError(f"For 'multinomial', the 'num_samples' must be positive, but got {num_samples}.")
    seeds = _get_graph_seed(seed, "multinomial")
    if replacement:
        rows = input if len(input.shape) == 2 else run("expand_dims", input, axis=0)
        drawn = _categories(rows, num_samples, mstype.int32)
        return drawn if len(input.shape) == 2 else run("reshape", drawn, shape=(num_samples,))
    if num_samples > input.shape[-1]:
        raise ValueError(f"For 'multinomial', the 'num_samples' must not exceed the {input.shape[-1]} categories "
                         f"without replacement, but got {num_samples}.")
    unit = run("random_uniform", shape=(math.prod(input.shape),), dtype=_np_dtype(mstype.float32),
               seeds=new_kernel("UniformReal", seeds))
    keys = run("div", run("log", run("reshape", unit, shape=tuple(input.shape))), run("add", input, 1e-6))
    return run("topk", keys, k=num_samples, largest=True)[1]


_MT19937_PERMUTATION = _HostCall("RandpermV2", lambda n, seed: (mt19937_permutation(n, seed),), of_integers=True)


def randperm(n: int, seed: int = 0, offset: int = 0, dtype: Any = mstype.int64) -> Tensor:
    """A permutation of ``0 .. n - 1``, as ``dtype``: as MindSpore 2.10's ``RandpermV2`` CPU kernel, a function
    of its arguments alone (not of ``set_seed``; every call with the same arguments gives the same order):
    ``std::shuffle`` over ``std::mt19937(offset or seed)``.

    Raises:
        TypeError: if ``n`` is not an int.
        ValueError: if ``n`` is not positive.
    """
    _check_int("randperm", "n", n)
    if n <= 0:
        raise ValueError(f"For 'RandpermV2', the input 'n' must be greater than 0, but got data: {n}.")
    order = _MT19937_PERMUTATION((((n,), np.dtype(np.int64)),), (n, offset or seed))[0]
    return run("cast", order, dtype=_np_dtype(dtype))


def shuffle(x: Tensor, seed: Any = None) -> Tensor:
    """``x`` with its slices along dim 0 in a random order (differentiable: a gather), MindSpore's orders: a new
    ``RandomShuffle`` primitive of seeds ``_get_graph_seed(seed, 'shuffle')``.

    Raises:
        TypeError: if ``x`` is not a Tensor.
        ValueError: if ``x`` is 0-d.
    """
    _check_tensor("shuffle", "x", x)
    if not x.shape:
        raise ValueError("For 'shuffle', the 'x' must have at least one dim, but got a 0-d Tensor.")
    return shuffle_with_seeds(x, function_kernel("RandomShuffle", seed, "shuffle"))


def shuffle_with_seeds(x: Tensor, seeds: tuple) -> Tensor:
    """``x``'s dim-0 slices in the order the ``RandomShuffle`` kernel of ``seeds`` draws."""
    return run("gather", x, run("shuffle_order", n=x.shape[0], seeds=seeds), axis=0)


class _SeededPrimitive(Primitive):
    """A random primitive built with MindSpore's ``seed``/``seed2`` (only 0, 0 in npspore) and more attributes."""

    def __init__(self, seed=0, seed2=0, **attrs):
        super().__init__(type(self).__name__)
        _no_seed(self.name, seed=seed, seed2=seed2)
        self.add_prim_attr("seed", seed).add_prim_attr("seed2", seed2)
        for key, value in attrs.items():
            self.add_prim_attr(key, value)


class UniformInt(Primitive):
    """``UniformInt(seed=0, seed2=0)(shape, minval, maxval)``: Int32 samples uniform in [``minval``, ``maxval``) of
    the tuple ``shape``; ``minval`` and ``maxval`` are 0-d or one-element Int32 Tensors. MindSpore's numbers: the
    kernel's engine is seeded from ``(seed, seed2)`` and continued by each call.

    Raises:
        TypeError: if ``shape`` is not a tuple of ints or a bound is not an Int32 Tensor.
        ValueError: if a bound has more than one element.
    """

    def __init__(self, seed=0, seed2=0):
        super().__init__("UniformInt")
        self.add_prim_attr("seed", seed).add_prim_attr("seed2", seed2)
        self.seeds = new_kernel("UniformInt", (seed, seed2))

    def __call__(self, shape, minval, maxval):
        if not isinstance(shape, tuple) or not all(isinstance(d, int) for d in shape):
            raise TypeError(f"For 'UniformInt', the 'shape' must be a tuple of ints, but got {shape!r}.")
        for name, bound in (("minval", minval), ("maxval", maxval)):
            if not isinstance(bound, Tensor) or bound.dtype != mstype.int32:
                raise TypeError(f"For 'UniformInt', the '{name}' must be an Int32 Tensor, but got "
                                f"{bound.dtype if isinstance(bound, Tensor) else type(bound).__name__}.")
            if bound.size != 1:
                raise ValueError(f"For 'UniformInt', the '{name}' must have one element, but got shape "
                                 f"{bound.shape}.")
        return run("uniform_int", minval, maxval, shape=shape, seeds=self.seeds)


class Multinomial(_SeededPrimitive):
    """``Multinomial(seed=0, seed2=0, dtype=mstype.int32)(x, num_samples)``: ``num_samples`` category indices per
    row of ``x`` (1-D or 2-D nonnegative weights), with replacement, as ``dtype`` (Int32 or Int64).

    Raises:
        TypeError: if ``dtype`` is not Int32 or Int64.
        ValueError: as :func:`multinomial`, or if ``seed``/``seed2`` is nonzero.
    """

    def __init__(self, seed=0, seed2=0, dtype=mstype.int32):
        if dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For 'Multinomial', the 'dtype' must be Int32 or Int64, but got {dtype}.")
        super().__init__(seed, seed2)
        self.dtype = dtype

    def __call__(self, x, num_samples):
        return run("cast", multinomial(x, num_samples), dtype=_np_dtype(self.dtype))


class Randperm(Primitive):
    """``Randperm(max_length=1, pad=-1, dtype=mstype.int32)(n)``: a random permutation of ``0 .. n - 1`` (``n`` a
    one-element integer Tensor) followed by ``pad`` up to ``max_length`` elements.

    Raises:
        TypeError: if ``max_length`` or ``pad`` is not an int.
        ValueError: if ``max_length`` is not positive.
    """

    def __init__(self, max_length=1, pad=-1, dtype=mstype.int32):
        super().__init__("Randperm")
        _check_int("Randperm", "max_length", max_length)
        _check_int("Randperm", "pad", pad)
        if max_length <= 0:
            raise ValueError(f"For 'Randperm', the 'max_length' must be positive, but got {max_length}.")
        self.max_length, self.pad, self.dtype = max_length, pad, dtype
        self.add_prim_attr("max_length", max_length).add_prim_attr("pad", pad).add_prim_attr("dtype", dtype)

    def __call__(self, n):
        _check_tensor("Randperm", "n", n)
        positions = Tensor(list(range(self.max_length)), mstype.int32)
        valid = run("less", positions, run("reshape", n, shape=()))
        keys = run("where", valid, _uniform((self.max_length,)), 2.0)   # padding sorts last
        order = run("topk", keys, k=self.max_length, largest=False)[1]
        return run("cast", run("where", valid, order, self.pad), dtype=_np_dtype(self.dtype))


class RandomCategorical(Primitive):
    """``RandomCategorical(dtype=mstype.int64)(logits, num_sample, seed=0)``: ``num_sample`` class indices per row of
    the 2-D ``logits``, each drawn with probability ``softmax(logits)`` (by the Gumbel-max trick).

    Raises:
        TypeError: if ``dtype`` is not an Int16, Int32 or Int64, or ``num_sample`` not an int.
        ValueError: if ``logits`` is not 2-D, ``num_sample`` is not positive, or ``seed`` is nonzero.
    """

    def __init__(self, dtype=mstype.int64):
        super().__init__("RandomCategorical")
        if dtype not in (mstype.int16, mstype.int32, mstype.int64):
            raise TypeError(f"For 'RandomCategorical', the 'dtype' must be Int16, Int32 or Int64, but got {dtype}.")
        self.dtype = dtype
        self.add_prim_attr("dtype", dtype)

    def __call__(self, logits, num_sample, seed=0):
        _no_seed("RandomCategorical", seed=seed)
        _check_tensor("RandomCategorical", "logits", logits)
        _check_int("RandomCategorical", "num_sample", num_sample)
        if len(logits.shape) != 2:
            raise ValueError(f"For 'RandomCategorical', the 'logits' must be 2-D, but got {len(logits.shape)}-D.")
        if num_sample <= 0:
            raise ValueError(f"For 'RandomCategorical', the 'num_sample' must be positive, but got {num_sample}.")
        rows, classes = logits.shape
        keys = run("add", run("expand_dims", logits, axis=1), _gumbel((rows, num_sample, classes)))
        return run("cast", run("argmax", keys, axis=2), dtype=_np_dtype(self.dtype))


def _shape_of(name: str, shape: Any) -> tuple:
    """``shape`` (a tuple of ints, or a 1-D integer Tensor of them) as a tuple of non-negative ints."""
    if isinstance(shape, Tensor):
        shape = tuple(int(d) for d in shape.asnumpy().reshape(-1))
    if not isinstance(shape, tuple) or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0
                                               for d in shape):
        raise TypeError(f"For '{name}', the 'shape' must be a tuple of non-negative ints, but got {shape!r}.")
    return shape


def standard_laplace(shape: tuple, seed: Any = None) -> Tensor:
    """Float32 samples of the standard Laplace distribution (density ``exp(-|x|) / 2``) of ``shape``, by inverting its
    distribution function: ``-sign(u) log(1 - 2|u|)`` of ``u`` uniform in [-1/2, 1/2).

    Raises:
        TypeError: if ``shape`` is not a tuple of non-negative ints.
        ValueError: if ``seed`` is given.
    """
    _no_seed("standard_laplace", seed=seed)
    centred = run("sub", _uniform(_shape_of("StandardLaplace", shape), mstype.float32), 0.5)
    magnitude = run("neg", run("log1p", run("mul", run("abs", centred), -2.0)))
    return run("mul", run("sign", centred), magnitude)


class StandardLaplace(_SeededPrimitive):
    """``StandardLaplace(seed=0, seed2=0)(shape)``: :func:`standard_laplace` of ``shape``."""

    def __call__(self, shape):
        return standard_laplace(shape)


class TruncatedNormal(_SeededPrimitive):
    """``TruncatedNormal(dtype=mstype.float32, seed=0, seed2=0)(shape)``: standard normal samples within two standard
    deviations of 0, of ``shape`` (a tuple or 1-D integer Tensor), by inverting the normal distribution function
    (``sqrt(2) erfinv(v)`` of ``v`` uniform in ``(-erf(√2), erf(√2))``).

    Raises:
        TypeError: if ``dtype`` is not a float type or ``shape`` not a tuple or integer Tensor of ints.
        ValueError: if ``shape`` has fewer than 2 dims, or ``seed``/``seed2`` is nonzero.
    """

    def __init__(self, dtype=mstype.float32, seed=0, seed2=0):
        if dtype not in (mstype.float16, mstype.float32, mstype.float64):
            raise TypeError(f"For 'TruncatedNormal', the 'dtype' must be Float16, Float32 or Float64, but got {dtype}.")
        super().__init__(seed, seed2, dtype=dtype)
        self.dtype = dtype

    def __call__(self, shape):
        shape = _shape_of("TruncatedNormal", shape)
        if len(shape) < 2:
            raise ValueError(f"For 'TruncatedNormal', the input tensor shape must >= 2, but got {len(shape)}")
        spread = run("mul", run("sub", run("mul", _uniform(shape), 2.0), 1.0),
                     0.9544997361036416)   # erf(sqrt(2)): the probability within two standard deviations
        return run("cast", run("mul", run("erfinv", spread), 1.4142135623730951), dtype=_np_dtype(self.dtype))
