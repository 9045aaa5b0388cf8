"""The normalization, backward, optimizer and attention primitives of ``mindspore.ops.auto_generate.gen_ops_prim``
(``LayerNormExt``, ``GroupNorm``, ``BatchNormStats``/``BatchNormElemt``/``BatchNormGatherStatsWithCounts``,
``SoftmaxBackward``, ``L1LossBackwardExt``, ``BinaryCrossEntropyWithLogitsBackward``, ``EmbeddingDenseBackward``,
``AdamW``, ``RotaryPositionEmbedding`` ...) as compositions of npspore's ops, with MindSpore's call
signatures. The backward primitives compute the gradients of their forward ops' documented formulas.
"""
from __future__ import annotations

from typing import Any, Callable

from .. import mint
from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..mint import linalg as mint_linalg
from ..nn.optim.adamw import adamw_update
from . import functional as F
from . import linalg_functional as linalg
from . import scatter_ops as sc
from .eager import assign, run, size_of


def _channel_shape(input: Tensor) -> tuple:
    """The shape a per-channel ``(C,)`` Tensor broadcasts to against ``input`` ``(N, C, ...)``."""
    return (1, input.shape[1]) + (1,) * (len(input.shape) - 2)


def _not_channel_axes(input: Tensor) -> tuple:
    return (0,) + tuple(range(2, len(input.shape)))


def layer_norm_ext(input: Tensor, normalized_shape: Any, weight: Tensor | None = None, bias: Tensor | None = None,
                   eps: float = 1e-5) -> tuple[Tensor, Tensor, Tensor]:
    """``(layer_norm(input), mean, rstd)``; ``mean`` and ``rstd`` keep the normalized dimensions as ones."""
    axes = tuple(range(len(input.shape) - len(tuple(normalized_shape)), len(input.shape)))
    out, rstd = run("normalize", input, axis=axes, eps=eps)
    out = out if weight is None else run("mul", out, weight)
    return (out if bias is None else run("add", out, bias)), run("mean", input, axis=axes, keepdims=True), rstd


def add_layer_norm_v2(x1: Tensor, x2: Tensor, gamma: Tensor, beta: Tensor, epsilon: float = 1e-5,
                      additionalOut: bool = False) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """``(layer_norm(x), mean, rstd, x)`` of ``x = x1 + x2`` over ``gamma``'s dimensions."""
    x = run("add", x1, x2)
    return (*layer_norm_ext(x, gamma.shape, gamma, beta, epsilon), x)


def add_rms_norm(x1: Tensor, x2: Tensor, gamma: Tensor, epsilon: float = 1e-6) -> tuple[Tensor, Tensor, Tensor]:
    """``(x * rstd * gamma, rstd, x)`` of ``x = x1 + x2``: ``rstd`` is ``1 / sqrt(mean(x^2) + epsilon)`` over
    ``gamma``'s dimensions (kept as ones)."""
    x = run("add", x1, x2)
    axes = tuple(range(len(x.shape) - len(gamma.shape), len(x.shape)))
    rstd = run("rsqrt", run("add", run("mean", run("mul", x, x), axis=axes, keepdims=True), epsilon))
    return run("mul", run("mul", x, rstd), gamma), rstd, x


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-5) -> tuple[Tensor, Tensor, Tensor]:
    """``(group_norm(input), mean, rstd)`` with ``mean`` and ``rstd`` of shape ``(N, num_groups)``."""
    batch = input.shape[0]
    grouped = F.reshape(input, (batch, num_groups, -1))
    mean = run("mean", grouped, axis=(2,), keepdims=True)
    centred = run("sub", grouped, mean)
    rstd = run("rsqrt", run("add", run("mean", run("mul", centred, centred), axis=(2,), keepdims=True), eps))
    out = F.reshape(run("mul", centred, rstd), input.shape)
    if weight is not None:
        out = run("mul", out, F.reshape(weight, _channel_shape(input)))
    if bias is not None:
        out = run("add", out, F.reshape(bias, _channel_shape(input)))
    return out, F.reshape(mean, (batch, num_groups)), F.reshape(rstd, (batch, num_groups))


def batch_norm_stats(input: Tensor, eps: float) -> tuple[Tensor, Tensor]:
    """Per channel: the mean of ``input`` and ``1 / sqrt(biased variance + eps)``."""
    axes = _not_channel_axes(input)
    mean = run("mean", input, axis=axes, keepdims=True)
    centred = run("sub", input, mean)
    invstd = run("rsqrt", run("add", run("mean", run("mul", centred, centred), axis=axes), eps))
    return F.reshape(mean, (input.shape[1],)), invstd


def batch_norm_elemt(input: Tensor, weight: Tensor | None = None, bias: Tensor | None = None,
                     mean: Tensor | None = None, invstd: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """``(input - mean) * invstd * weight + bias`` per channel."""
    if mean is None or invstd is None:
        raise TypeError("For 'BatchNormElemt', the 'mean' and 'invstd' must be Tensors, but got None.")
    shape = _channel_shape(input)
    out = run("mul", run("sub", input, F.reshape(mean, shape)), F.reshape(invstd, shape))
    if weight is not None:
        out = run("mul", out, F.reshape(weight, shape))
    return out if bias is None else run("add", out, F.reshape(bias, shape))


def batch_norm_gather_stats_with_counts(input: Tensor, mean: Tensor, invstd: Tensor,
                                        running_mean: Tensor | None = None, running_var: Tensor | None = None,
                                        momentum: float = 0.1, eps: float = 1e-5,
                                        counts: Tensor | None = None) -> tuple[Tensor, Tensor]:
    """The mean and ``1 / sqrt(variance + eps)`` of all the ranks' samples from their per-rank ``mean``,
    ``invstd`` (rows) and sample ``counts``; ``running_mean`` and ``running_var`` (unbiased) move by ``momentum``
    in place."""
    if counts is None:
        raise TypeError("For 'BatchNormGatherStatsWithCounts', the 'counts' must be a Tensor, but got None.")
    weights = F.reshape(F.cast(counts, mean.dtype), (-1, 1))
    total = run("sum", weights)
    global_mean = run("div", run("sum", run("mul", weights, mean), axis=(0,)), total)
    second = run("add", run("sub", run("div", 1.0, run("mul", invstd, invstd)), eps), run("mul", mean, mean))
    variance = run("sub", run("div", run("sum", run("mul", weights, second), axis=(0,)), total),
                   run("mul", global_mean, global_mean))
    if running_mean is not None:
        assign(running_mean, run("add", run("mul", running_mean, 1 - momentum), run("mul", global_mean, momentum)))
    if running_var is not None:
        unbiased = run("mul", variance, run("div", total, run("sub", total, 1.0)))
        assign(running_var, run("add", run("mul", running_var, 1 - momentum), run("mul", unbiased, momentum)))
    return global_mean, run("rsqrt", run("add", variance, eps))


def softmax_backward(dout: Tensor, out: Tensor, dim: int = -1) -> Tensor:
    """The gradient of ``softmax`` to its input, from its output ``out`` and output gradient ``dout``."""
    inner = run("sum", run("mul", dout, out), axis=(dim,), keepdims=True)
    return run("mul", out, run("sub", dout, inner))


def _reduced_gradient(gradient: Tensor, grad_output: Tensor, reduction: str, name: str) -> Tensor:
    """``gradient`` times ``grad_output`` (broadcast), divided by the element count for ``'mean'``."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"For '{name}', the 'reduction' must be 'mean', 'sum' or 'none', but got {reduction!r}.")
    scaled = run("mul", gradient, grad_output)
    return run("div", scaled, size_of(gradient)) if reduction == "mean" else scaled


def element_count(shape: Any) -> int:
    """The number of elements of a Tensor of shape ``shape``."""
    count = 1
    for size in shape:
        count *= size
    return count


def l1_loss_backward(grad_output: Tensor, input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """The gradient of ``l1_loss(input, target, reduction)`` to ``input``."""
    return _reduced_gradient(run("sign", run("sub", input, target)), grad_output, reduction, "L1LossBackwardExt")


def binary_cross_entropy_with_logits_backward(grad_output: Tensor, input: Tensor, target: Tensor,
                                              weight: Tensor | None = None, posWeight: Tensor | None = None,
                                              reduction: str = "mean") -> Tensor:
    """The gradient of ``binary_cross_entropy_with_logits(input, target, weight, posWeight, reduction)`` to
    ``input``: ``(sigmoid(input) - target)``, with ``posWeight`` ``((p t + 1 - t) sigmoid(input) - p t)``."""
    probability = run("sigmoid", input)
    if posWeight is None:
        gradient = run("sub", probability, target)
    else:
        weighted = run("mul", posWeight, target)
        gradient = run("sub", run("mul", run("add", run("sub", weighted, target), 1.0), probability), weighted)
    if weight is not None:
        gradient = run("mul", gradient, weight)
    return _reduced_gradient(gradient, grad_output, reduction, "BinaryCrossEntropyWithLogitsBackward")


def embedding_dense_backward(grad: Tensor, indices: Tensor, num_weights: int, padding_idx: int | None = None,
                             scale_grad_by_freq: bool = False) -> Tensor:
    """The gradient of ``embedding(indices, weight)`` to the ``(num_weights, D)`` table: each row of ``grad``
    added to its index's row (none for ``padding_idx``; divided by the index's count with
    ``scale_grad_by_freq``)."""
    positions = F.reshape(F.cast(indices, mstype.int64), (-1,))
    rows = F.reshape(grad, (-1, grad.shape[-1]))
    if scale_grad_by_freq:
        matches = run("equal", F.expand_dims(positions, 1), F.expand_dims(positions, 0))
        counts = run("sum", F.cast(matches, rows.dtype), axis=(1,), keepdims=True)
        rows = run("div", rows, counts)
    if padding_idx is not None:
        padding = padding_idx + num_weights if padding_idx < 0 else padding_idx
        rows = run("mul", rows, F.cast(F.expand_dims(run("not_equal", positions, padding), 1), rows.dtype))
    table = mint.zeros((num_weights, grad.shape[-1]), dtype=grad.dtype)
    return sc.tensor_scatter_add(table, F.expand_dims(positions, 1), rows)


def adamw(var: Tensor, m: Tensor, v: Tensor, max_v: Tensor, gradient: Tensor, step: Tensor, lr: float,
          beta1: float, beta2: float, decay: float, eps: float, amsgrad: bool = False,
          maximize: bool = False) -> tuple[Tensor, Tensor, Tensor]:
    """One AdamW step (``step`` counts from 1) of ``var`` and its states, written in place; returns
    ``(var, m, v)``."""
    adamw_update(var, m, v, max_v, gradient, F.cast(step, mstype.float32), lr, beta1, beta2, decay, eps, amsgrad,
                 maximize)
    return var, m, v


def rotary_position_embedding(x: Tensor, cos: Tensor, sin: Tensor, mode: int = 0) -> Tensor:
    """``x * cos + rotate(x) * sin``: ``rotate`` maps the halves ``(a, b)`` of the last dimension to ``(-b, a)``
    (``mode`` 0, GPT-NeoX) or each pair ``(a, b)`` to ``(-b, a)`` (``mode`` 1, GPT-J)."""
    if mode == 0:
        first, second = mint.chunk(x, 2, -1)
        rotated = run("concat", run("neg", second), first, axis=-1)
    elif mode == 1:
        pairs = F.reshape(x, tuple(x.shape[:-1]) + (x.shape[-1] // 2, 2))
        first, second = mint.unbind(pairs, -1)
        rotated = F.reshape(mint.stack([run("neg", second), first], -1), x.shape)
    else:
        raise ValueError(f"For 'RotaryPositionEmbedding', the 'mode' must be 0 or 1, but got {mode}.")
    return run("add", run("mul", x, cos), run("mul", rotated, sin))


def triangular_solve(b: Tensor, A: Tensor, upper: bool = True, transpose: bool = False,
                     unitriangular: bool = False) -> tuple[Tensor, Tensor]:
    """``(X, A)`` with ``T X = b`` for ``T`` the upper (or lower) triangle of ``A`` (with ones on its diagonal when
    ``unitriangular``; transposed when ``transpose``), batched over the leading dimensions."""
    triangle = mint.triu(A) if upper else mint.tril(A)
    if unitriangular:
        ones = F.eye(A.shape[-1], A.shape[-1], A.dtype)
        triangle = run("add", run("mul", triangle, run("sub", 1.0, ones)), ones)
    if transpose:
        triangle = mint.transpose(triangle, -1, -2)
    return mint.matmul(linalg.inverse(triangle), b), mint.clone(A)


def linalg_vector_norm(x: Tensor, ord: float = 2, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Tensor:
    return mint_linalg.vector_norm(x, ord, dim, keepdim, dtype=dtype)


NN_CALLS: dict[str, Callable] = {
    "LayerNormExt": layer_norm_ext, "AddLayerNormV2": add_layer_norm_v2, "AddRmsNorm": add_rms_norm,
    "GroupNorm": group_norm, "BatchNormStats": batch_norm_stats,
    "BatchNormElemt": batch_norm_elemt, "BatchNormGatherStatsWithCounts": batch_norm_gather_stats_with_counts,
    "SoftmaxBackward": softmax_backward, "L1LossBackwardExt": l1_loss_backward,
    "BinaryCrossEntropyWithLogitsBackward": binary_cross_entropy_with_logits_backward,
    "EmbeddingDenseBackward": embedding_dense_backward, "AdamW": adamw,
    "RotaryPositionEmbedding": rotary_position_embedding, "LinalgVectorNorm": linalg_vector_norm,
    "TriangularSolve": triangular_solve,
    "EqualExt": mint.equal,
}
