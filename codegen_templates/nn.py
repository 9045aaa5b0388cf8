"""Neural-network ops: ``softmax``, ``log_softmax`` (over ``axis``, an int or a tuple), ``log_softmax_probs`` (both at
once, emitted by optimize), ``normalize`` (layer normalization before its scale and shift), ``softmax_cross_entropy``,
``one_hot``, ``class_indices``, ``dropout_mask`` and the other draws of the seeded generator (``random_normal``,
``random_uniform``, ``random_choice_with_mask``).

The lowerings subtract the maximum before exponentiating, so large logits do not overflow.
"""
import numpy as np

from npspore import runtime as rt
from npspore import shape_rules as rules
from npspore.opdef import LINEAR, call, op
from npspore.rules_nn import random_choice_with_mask_rule

TANGENT = LINEAR   # one_hot is linear in its on and off values; the others have their own

# ---------------------------------------------------------------- softmax


@op(infer=rules.softmax("Softmax"))
class softmax:
    def forward(x, *, axis=-1):
        return rt.softmax(x, axis)

    def adjoint(x, out, dout, *, axis=-1):
        if isinstance(axis, int) and out.ndim and axis % out.ndim == out.ndim - 1:
            # each row's sum(dout * out) as a (1, n) @ (n, 1) product: no temporary of the weights' size, and
            # 2.5x faster than the product and sum on attention weights (16, 4, 64, 64)
            dot = np.matmul(np.expand_dims(dout, axis=-2), np.expand_dims(out, axis=-1))
            return out * (dout - np.squeeze(dot, axis=-1))
        return out * (dout - np.sum(dout * out, axis=axis, keepdims=True))

    def tangent(x, out, dx, *, axis=-1):
        return out * (dx - np.sum(dx * out, axis=axis, keepdims=True))


@op(infer=rules.softmax("LogSoftmax"))
class log_softmax:
    def forward(x, *, axis=-1):
        # the array methods skip np.max's and np.sum's Python wrappers (1.5-2 us a call); a 0-d x, which
        # may be a Python number at run time, has only the empty tuple of axes
        shifted = x - (np.max(x, axis=axis, keepdims=True) if axis == () else x.max(axis=axis, keepdims=True))
        return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))

    def adjoint(x, out, dout, *, axis=-1):
        return dout - np.exp(out) * np.sum(dout, axis=axis, keepdims=True)

    def tangent(x, out, dx, *, axis=-1):
        return dx - np.sum(np.exp(out) * dx, axis=axis, keepdims=True)


@op(infer=rules.log_softmax_probs)
class log_softmax_probs:
    """``(log_softmax(x), softmax(x))``: only optimize emits it (``compiler/softmaxprobs.py``), where a function
    exponentiates a log-softmax it computed (a cross-entropy's gradient)."""

    def forward(x, *, axis=-1):
        return rt.log_softmax_probs(x, axis)

    adjoint = None   # emitted after the last differentiation


# ---------------------------------------------------------------- normalization


@op(infer=rules.normalize)
class normalize:
    """``((x - mean) * rstd, rstd)`` over ``axis`` (a tuple of axes): layer normalization before its scale and
    shift, ``rstd = 1 / sqrt(var + eps)`` of the biased variance, kept as ones on ``axis``.

    The adjoint reads the normalized values and ``rstd`` the forward made, as a careful person writes a layer
    norm's backward: ``rstd * (d - mean(d) - normalized * mean(d * normalized))`` (its decomposition
    differentiated op by op rebuilds it from the centred input in 13 passes over the input's size). Over the
    last axis, a row's sums are products (``rt.normalize``), as in ``softmax``'s adjoint.
    """

    absent_cotangent_is_none = True   # rstd's cotangent is None unless the caller reads rstd

    def forward(x, *, axis, eps):
        return rt.normalize(x, axis, eps)

    def adjoint(x, out, dout, *, axis, eps):
        normalized, rstd = out
        d_normalized, d_rstd = dout
        n = 1
        for a in axis:   # the normalized axes' sizes: static where the batch's is not (x.size is then None)
            n *= x.shape[a]
        if d_normalized is None:   # only rstd read: d rstd / dx = -rstd**2 * normalized / n
            return -rstd * normalized * (d_rstd * rstd / n)
        if axis == (x.ndim - 1,):   # row sums as products, as rt.normalize takes them
            total = np.squeeze(np.matmul(np.expand_dims(d_normalized, axis=-2), np.expand_dims(normalized, axis=-1)),
                               axis=-1)
            mean = np.matmul(d_normalized, np.ones(shape=(x.shape[-1], 1), dtype=x.dtype)) / n
        else:
            total = np.sum(d_normalized * normalized, axis=axis, keepdims=True)
            mean = np.mean(d_normalized, axis=axis, keepdims=True)
        if d_rstd is not None:    # the gradient through rstd itself, when the caller reads rstd
            total = total + d_rstd * rstd
        return rstd * (d_normalized - mean - normalized * (total / n))

    def tangent(x, out, dx, *, axis, eps):
        normalized, rstd = out
        centred = dx - np.mean(dx, axis=axis, keepdims=True)
        dot = np.mean(normalized * centred, axis=axis, keepdims=True)
        return rstd * (centred - normalized * dot), -rstd * rstd * dot


# ---------------------------------------------------------------- losses and labels


@op(infer=rules.softmax_cross_entropy, operand_dtype=rules.common_dtype)
class softmax_cross_entropy:
    """``-sum(labels * log_softmax(logits), axis)``: the loss of each sample against dense labels.

    Differentiated as MindSpore's fused ``SoftmaxCrossEntropyWithLogits`` kernel is, not exactly: the
    cotangent of the logits is ``dout * (softmax(logits) - labels)`` (the exact derivative has
    ``softmax * sum(labels)``; they agree when each row of labels sums to one), the labels get none, and the
    ``softmax - labels`` factor is a constant to further differentiation, so second derivatives through the
    loss are zero (MindSpore 2.10, GRAPH and PYNATIVE).
    """

    def forward(logits, labels, *, axis=-1):
        shifted = logits - np.max(logits, axis=axis, keepdims=True)
        return -np.sum(labels * (shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))), axis=axis)

    def adjoint(logits, labels, out, dout, *, axis=-1):
        backprop = call("stop_gradient", call("softmax", logits, axis=axis) - labels)
        return np.expand_dims(dout, axis=axis) * backprop, None

    def tangent(logits, labels, out, d_logits, d_labels, *, axis=-1):
        if d_logits is None:
            return None
        return np.sum(d_logits * call("stop_gradient", call("softmax", logits, axis=axis) - labels), axis=axis)


@op(infer=rules.one_hot, operand_dtype=rules.common_dtype_after(1))
class one_hot:
    """``on_value`` where ``indices`` names the position along a new ``axis`` of size ``depth``, else ``off_value``."""

    def forward(indices, on_value, off_value, *, depth, axis=-1):
        return np.where(np.moveaxis(np.expand_dims(indices, -1) == np.arange(depth), -1, axis), on_value, off_value)

    def adjoint(indices, on_value, off_value, out, dout, *, depth, axis=-1):
        hit = call("one_hot", indices, True, False, depth=depth, axis=axis)
        return None, np.where(hit, dout, 0), np.where(hit, 0, dout)


@op(infer=rules.class_indices)
class class_indices:
    """The class indices of a loss's target, unchanged; one outside ``[0, depth)`` that is not
    ``ignore_index`` raises ``ValueError`` naming ``loss`` and its ``target`` argument (a one-hot row of
    zeros would silently drop its sample, a gather would read another class or fail)."""

    def forward(indices, *, depth, ignore_index=None, loss="nll_loss", target="target"):
        return rt.class_indices(indices, depth, ignore_index, loss, target)

    adjoint = None


# ---------------------------------------------------------------- dropout


@op(infer=rules.dropout_mask)
class dropout_mask:
    """Dropout's scaled keep mask: ``1 / keep_prob`` with probability ``keep_prob``, else 0.

    Drawn at run time as MindSpore's ``Dropout`` kernel of the primitive seeds ``seeds`` draws it (continuing
    that kernel's engine); dropout is ``x * mask``, so its gradient flows through the multiplication and the mask
    itself has none.
    """

    def forward(*, shape, keep_prob, dtype, seeds=None):
        return rt.draw_dropout_mask(shape, keep_prob, dtype, seeds)

    adjoint = None


@op(infer=rules.drawn)
class random_normal:
    """Standard normal samples of ``shape`` in ``dtype``, drawn at run time as MindSpore's ``StandardNormal``
    kernel of the primitive seeds ``seeds`` draws them (float32, then cast)."""

    def forward(*, shape, dtype, seeds=None):
        return rt.draw_normal(shape, seeds).astype(dtype)

    adjoint = None


@op(infer=rules.drawn)
class random_uniform:
    """Samples uniform in [0, 1) of ``shape`` in ``dtype``, drawn at run time as MindSpore's ``UniformReal``
    kernel of the primitive seeds ``seeds`` draws them (float32, then cast)."""

    def forward(*, shape, dtype, seeds=None):
        return rt.draw_uniform(shape, seeds).astype(dtype)

    adjoint = None


@op(infer=rules.uniform_int)
class uniform_int:
    """Int32 samples uniform in [``low``, ``high``) (one-element int32 arrays) of ``shape``, drawn at run time as
    MindSpore's ``UniformInt`` kernel of the primitive seeds ``seeds`` draws them."""

    def forward(low, high, *, shape, seeds=None):
        return rt.draw_uniform_int(low, high, shape, seeds)

    adjoint = None


@op(infer=rules.shuffle_order)
class shuffle_order:
    """The int64 order of ``n`` slices MindSpore's ``RandomShuffle`` kernel of the primitive seeds ``seeds`` draws
    (continuing that kernel's engine): ``shuffle(x)`` is ``x[order]``."""

    def forward(*, n, seeds):
        return rt.draw_permutation(n, seeds)

    adjoint = None


@op(infer=rules.bernoulli_draw)
class bernoulli_draw:
    """0/1 samples of ``shape`` in ``dtype``, 1 where MindSpore's ``Bernoulli`` kernel of ``seeds = (seed, offset)``
    draws a sample not above ``p`` (broadcast), continuing that kernel's generator."""

    def forward(p, *, shape, dtype, seeds):
        return rt.draw_bernoulli(p, shape, dtype, seeds)

    adjoint = None


@op(infer=random_choice_with_mask_rule)
class random_choice_with_mask:
    """``(int32 indices (count, ndim), bool mask (count,))``: up to ``count`` positions where the bool ``x`` is
    True, in a random order drawn from npspore's seeded generator; rows past the True count are zeros with
    mask False."""

    def forward(x, *, count):
        positions = np.argwhere(x)
        positions = positions[rt.default_rng().permutation(len(positions))][:count]
        indices = np.zeros((count, x.ndim), np.int32)
        indices[:len(positions)] = positions
        return indices, np.arange(count) < len(positions)

    adjoint = None
