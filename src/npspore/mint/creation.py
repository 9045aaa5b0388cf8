"""``mindspore.mint``'s creation functions: ``zeros``, ``ones``, ``full``, ``arange``, ``linspace``, ``empty``,
the ``*_like`` forms, random tensors and ``clone``, with PyTorch-style arguments (``size``, keyword ``dtype``)
and MindSpore 2.10's default dtypes (Float32 for floats and unspecified fills, Int64 for integer ranges)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor, _np_dtype
from ..ops import functional as F
from ..ops.array_functional import identity, linspace as _linspace
from ..ops.eager import run
from ..ops.nn_functional import topk as _topk

__all__ = ["zeros", "ones", "zeros_like", "ones_like", "full", "full_like", "empty", "empty_like", "arange",
           "linspace", "rand", "randn", "rand_like", "randn_like", "randint", "randint_like", "randperm", "normal",
           "bernoulli", "multinomial", "clone"]


def _size(size: tuple) -> tuple[int, ...]:
    """``f(2, 3)`` and ``f((2, 3))`` / ``f([2, 3])`` alike."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        return tuple(size[0])
    return tuple(size)


def _no_generator(name: str, generator: Any) -> None:
    if generator is not None:
        raise TypeError(f"For '{name}', npspore draws from its seeded global generator (mindspore.set_seed); "
                        f"the 'generator' argument is not implemented in npspore.")


def zeros(size: Any, *, dtype: Any = None) -> Tensor:
    """A Tensor of shape ``size`` filled with 0, Float32 unless ``dtype`` is given."""
    return F.zeros(size, dtype)


def ones(size: Any, *, dtype: Any = None) -> Tensor:
    """A Tensor of shape ``size`` filled with 1, Float32 unless ``dtype`` is given."""
    return F.ones(size, dtype)


def zeros_like(input: Tensor, *, dtype: Any = None) -> Tensor:
    """Zeros with ``input``'s shape, in its dtype unless ``dtype`` is given."""
    return F.zeros_like(input, dtype=dtype)


def ones_like(input: Tensor, *, dtype: Any = None) -> Tensor:
    """Ones with ``input``'s shape, in its dtype unless ``dtype`` is given."""
    return F.ones_like(input, dtype=dtype)


def full(size: Any, fill_value: Any, *, dtype: Any = None) -> Tensor:
    """A Tensor of shape ``size`` filled with ``fill_value``: Float32 unless ``dtype`` is given (MindSpore 2.10's
    ``mint.full((2, 2), 1)`` prints ``[[1. 1.] [1. 1.]]``), Bool for a bool."""
    if dtype is None:
        dtype = mstype.bool_ if isinstance(fill_value, bool) else mstype.float32
    return F.full(size, fill_value, dtype=dtype)


def full_like(input: Tensor, fill_value: Any, *, dtype: Any = None) -> Tensor:
    """``fill_value`` in ``input``'s shape and dtype (or ``dtype``)."""
    return F.full(input.shape, fill_value, dtype=input.dtype if dtype is None else dtype)


def empty(*size: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """A Tensor of shape ``size`` (Float32 unless ``dtype`` is given) whose values are unspecified: npspore fills
    it with zeros."""
    return F.zeros(_size(size), dtype)


def empty_like(input: Tensor, *, dtype: Any = None, device: Any = None) -> Tensor:
    """A Tensor of ``input``'s shape and dtype (or ``dtype``) whose values are unspecified (zeros in npspore)."""
    return F.zeros_like(input, dtype=dtype)


def arange(start: float = 0, end: float | None = None, step: float = 1, *, dtype: Any = None) -> Tensor:
    """``start, start + step, ...`` below ``end`` (``arange(n)``: ``0 ... n - 1``): Int64 when every argument is an
    int, else Float32, unless ``dtype`` is given."""
    return F.arange(start, end, step, dtype=dtype)


def linspace(start: Any, end: Any, steps: int, *, dtype: Any = None) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` (both included), Float32 unless ``dtype``."""
    values = _linspace(start, end, steps)
    return values if dtype is None else run("cast", values, dtype=_np_dtype(dtype))


def rand(*size: Any, generator: Any = None, dtype: Any = None, device: Any = None) -> Tensor:
    """Uniform samples in ``[0, 1)`` of shape ``size`` (Float32 unless ``dtype``), from npspore's seeded generator."""
    _no_generator("rand", generator)
    return F.rand(*_size(size), dtype=dtype)


def randn(*size: Any, generator: Any = None, dtype: Any = None, device: Any = None) -> Tensor:
    """Standard normal samples of shape ``size`` (Float32 unless ``dtype``), from npspore's seeded generator."""
    _no_generator("randn", generator)
    return F.randn(*_size(size), dtype=dtype)


def rand_like(input: Tensor, *, dtype: Any = None, device: Any = None) -> Tensor:
    """Uniform samples in ``[0, 1)`` with ``input``'s shape and dtype (or ``dtype``)."""
    return F.rand(*input.shape, dtype=input.dtype if dtype is None else dtype)


def randn_like(input: Tensor, *, dtype: Any = None, device: Any = None) -> Tensor:
    """Standard normal samples with ``input``'s shape and dtype (or ``dtype``)."""
    return F.randn(*input.shape, dtype=input.dtype if dtype is None else dtype)


def randint(*args: Any, generator: Any = None, dtype: Any = None, device: Any = None) -> Tensor:
    """Integers drawn uniformly from ``[low, high)``: ``randint(high, size)`` or ``randint(low, high, size)``,
    Int64 unless ``dtype`` is given.

    Raises:
        TypeError: if the arguments are not ``(high, size)`` or ``(low, high, size)``.
    """
    _no_generator("randint", generator)
    if len(args) == 2:
        low, (high, size) = 0, args
    elif len(args) == 3:
        low, high, size = args
    else:
        raise TypeError(f"For 'randint', the arguments must be (high, size) or (low, high, size), but got {len(args)} "
                        f"positional arguments.")
    return _uniform_integers(low, high, tuple(size), dtype)


def randint_like(*args: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """Integers drawn uniformly from ``[low, high)`` in the shape of a Tensor: ``randint_like(input, high)`` or
    ``randint_like(input, low, high)``; ``input``'s dtype unless ``dtype`` is given.

    Raises:
        TypeError: if the arguments are not ``(input, high)`` or ``(input, low, high)``.
    """
    if len(args) not in (2, 3) or not isinstance(args[0], Tensor):
        raise TypeError("For 'randint_like', the arguments must be (input, high) or (input, low, high), with "
                        "'input' a Tensor.")
    input, bounds = args[0], args[1:]
    low, high = (0, bounds[0]) if len(bounds) == 1 else bounds
    return _uniform_integers(low, high, input.shape, input.dtype if dtype is None else dtype)


def _uniform_integers(low: int, high: int, size: tuple[int, ...], dtype: Any) -> Tensor:
    if high <= low:
        raise ValueError(f"For 'randint', 'low' must be less than 'high', but got low={low}, high={high}.")
    draws = F.floor(run("add", run("mul", F.rand(size), high - low), low))
    return run("cast", draws, dtype=_np_dtype(mstype.int64 if dtype is None else dtype))


def randperm(n: int, *, generator: Any = None, dtype: Any = mstype.int64) -> Tensor:
    """A random permutation of ``0 .. n - 1`` (Int64 unless ``dtype`` is given).

    Raises:
        ValueError: if ``n`` is negative.
    """
    _no_generator("randperm", generator)
    if n < 0:
        raise ValueError(f"For 'randperm', 'n' must be non-negative, but got {n}.")
    order = F.sort(F.rand(n))[1] if n else run("zeros", shape=(0,), dtype=_np_dtype(mstype.int64))
    return run("cast", order, dtype=_np_dtype(dtype))


def normal(mean: Any = 0.0, std: Any = 1.0, size: Any = None, generator: Any = None) -> Tensor:
    """Normal samples with ``mean`` and ``std`` (numbers with a ``size``, or Tensors broadcast together)."""
    _no_generator("normal", generator)
    if size is None:
        shape = run("add", run("mul", mean, 0.0), run("mul", std, 0.0)).shape
    else:
        shape = tuple(size)
    return run("add", run("mul", F.randn(*shape), std), mean)


def bernoulli(input: Tensor, *, generator: Any = None) -> Tensor:
    """1 with probability ``input`` (elementwise) and 0 otherwise, in ``input``'s dtype."""
    _no_generator("bernoulli", generator)
    return run("cast", run("less", F.rand(input.shape, dtype=input.dtype), input), dtype=_np_dtype(input.dtype))


def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *, generator: Any = None) -> Tensor:
    """``num_samples`` Int64 category indices per row of the weights ``input`` (1-D or 2-D), drawn with or
    without ``replacement``.

    Raises:
        ValueError: without ``replacement``, if ``num_samples`` exceeds the number of categories.
    """
    _no_generator("multinomial", generator)
    categories = input.shape[-1]
    if not replacement and num_samples > categories:
        raise ValueError(f"For 'multinomial', without replacement 'num_samples' ({num_samples}) must not exceed "
                         f"the number of categories ({categories}).")
    weights = run("stop_gradient", run("cast", input, dtype=np.float64))
    if replacement:
        totals = F.cumsum(weights, len(input.shape) - 1)
        scaled = run("mul", F.rand(tuple(input.shape[:-1]) + (num_samples,), dtype=mstype.float64),
                     run("getitem", totals, index=(Ellipsis, slice(categories - 1, categories))))
        below = run("less_equal", run("expand_dims", totals, axis=-2), run("expand_dims", scaled, axis=-1))
        picks = run("sum", below, axis=(-1,), keepdims=False, dtype=np.int64)
        return run("clip", picks, 0, categories - 1)
    noise = run("neg", run("log", run("neg", run("log", F.rand(input.shape, dtype=mstype.float64)))))
    possible = run("greater", weights, 0.0)
    scores = run("add", run("log", run("where", possible, weights, 1.0)), noise)
    scores = run("where", possible, scores, -np.inf)
    return run("cast", _topk(scores, num_samples, len(input.shape) - 1)[1], dtype=np.int64)


def clone(input: Tensor) -> Tensor:
    """A copy of ``input`` (its gradient passes through)."""
    return identity(input)
