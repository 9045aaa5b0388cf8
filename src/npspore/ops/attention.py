"""``ops.flash_attention_score`` and ``ops.function.nn_func.multi_head_attention_forward``.

``flash_attention_score``: MindSpore's fused attention (an Ascend kernel) as a composition of ops, so it runs
eagerly and compiled on NumPy and differentiates:
``softmax(mask(scalar_value * query @ key^T + real_shift, attn_mask)) @ value``, per head, with key/value heads
shared by groups of query heads (``N1 / N2``). Layouts ``BSH``, ``BNSD``, ``SBH`` and ``BSND``; sparse modes 0-4
(0/1 the given mask, with 0's ``pre_tokens``/``next_tokens`` band; 2 and 3 the causal masks from the top left and
the bottom right corner; 4 the band). Dropout (``keep_prob < 1``), the ``TND`` layout and sparse modes 5-8 are not
implemented in npspore: they raise saying so.
"""
from __future__ import annotations

import math

from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import functional as F
from .eager import run
from .nn_functional import dropout

__all__ = ["flash_attention_score", "multi_head_attention_forward"]  # and linear, nn.linear's

_INT_MAX = 2147483647


def linear(x, weight, bias=None):
    """``x @ weight.T + bias`` on the last axis of `x` (any leading dims), as one GEMM over all of them.

    Args:
        x (Tensor): shape :math:`(*, in)`.
        weight (Tensor): shape :math:`(out, in)`.
        bias (Tensor, None): shape :math:`(out,)`, or None for no bias.

    Returns:
        Tensor of shape :math:`(*, out)`.
    """
    lead = x.shape[:-1]
    if sum(d < 0 for d in lead) > 1:   # several dims compiled code knows only when it runs: no 2-D view to undo
        out = run("matmul", x, weight, transpose_b=True)
        return out + bias if isinstance(bias, Tensor) else out
    out = run("matmul", x.reshape((-1, x.shape[-1])), weight, transpose_b=True)
    if isinstance(bias, Tensor):  # not 'is not None': compiled code cannot compare a tensor with 'is'
        out = out + bias
    return out.reshape(lead + (weight.shape[0],))


_LAYOUTS = ("BSH", "BNSD", "SBH", "BSND", "TND")


def _to_bnsd(x: Tensor, layout: str, heads: int | None) -> Tensor:
    """``x`` in the (B, N, S, D) layout; ``heads``: N for the layouts that fold it into H."""
    if layout == "BNSD":
        return x
    if layout == "BSND":
        return F.transpose(x, (0, 2, 1, 3))
    if layout == "SBH":
        x = F.transpose(x, (1, 0, 2))
    batch, seq, hidden = x.shape
    return F.transpose(F.reshape(x, (batch, seq, heads, hidden // heads)), (0, 2, 1, 3))


def _from_bnsd(x: Tensor, layout: str) -> Tensor:
    if layout == "BNSD":
        return x
    if layout == "BSND":
        return F.transpose(x, (0, 2, 1, 3))
    batch, heads, seq, dim = x.shape
    x = F.reshape(F.transpose(x, (0, 2, 1, 3)), (batch, seq, heads * dim))
    return F.transpose(x, (1, 0, 2)) if layout == "SBH" else x


def _band(rows: int, cols: int, below: int, above: int) -> Tensor:
    """Bool ``(rows, cols)``: True (discarded) outside ``-below <= col - row <= above``."""
    return Tensor([[not -below <= c - r <= above for c in range(cols)] for r in range(rows)], mstype.bool_)


def _discarded(attn_mask, sparse_mode: int, pre_tokens: int, next_tokens: int, s1: int, s2: int):
    """The positions to discard (a Bool Tensor broadcasting to ``(B, N, S1, S2)``), or None."""
    if sparse_mode == 2:
        return _band(s1, s2, _INT_MAX, 0)
    if sparse_mode == 3:
        return _band(s1, s2, _INT_MAX, s2 - s1)
    if sparse_mode == 4:
        return _band(s1, s2, pre_tokens, next_tokens)
    mask = None if attn_mask is None else F.cast(attn_mask, mstype.bool_)
    if sparse_mode == 0 and attn_mask is not None and (pre_tokens < s1 or next_tokens < s2):
        mask = F.logical_or(mask, _band(s1, s2, pre_tokens, next_tokens))
    return mask


def flash_attention_score(query: Tensor, key: Tensor, value: Tensor, head_num: int, real_shift: Tensor = None,
                          drop_mask: Tensor = None, padding_mask: Tensor = None, attn_mask: Tensor = None,
                          prefix=None, actual_seq_qlen=None, actual_seq_kvlen=None, keep_prob: float = 1.0,
                          scalar_value: float = 1.0, pre_tokens: int = _INT_MAX, next_tokens: int = _INT_MAX,
                          inner_precise: int = 0, input_layout: str = "BSH", sparse_mode: int = 0) -> Tensor:
    """The attention of ``query`` over ``key``/``value`` (see the module doc), of ``query``'s shape and dtype.

    Raises:
        TypeError: If the dtypes are not float16/bfloat16 alike, ``attn_mask`` not bool/uint8, or ``input_layout``
            not a str. ValueError: If ``input_layout`` or ``sparse_mode`` is invalid, ``head_num`` is not positive
            or does not divide into the key heads, or an unimplemented feature is asked for.
    """
    if not isinstance(input_layout, str):
        raise TypeError(f"For 'FlashAttentionScore', 'input_layout' must be a str, but got {type(input_layout)}.")
    if input_layout not in _LAYOUTS:
        raise ValueError(f"For 'FlashAttentionScore', 'input_layout' must be one of {list(_LAYOUTS)}, but got "
                         f"{input_layout}.")
    if query.dtype not in (mstype.float16, mstype.bfloat16):
        raise TypeError(f"For 'FlashAttentionScore', the dtype of 'query' must be float16 or bfloat16, but got "
                        f"{query.dtype}.")
    if key.dtype != query.dtype or value.dtype != query.dtype:
        raise TypeError("For 'FlashAttentionScore', 'query', 'key' and 'value' must have the same dtype.")
    if attn_mask is not None and attn_mask.dtype not in (mstype.bool_, mstype.uint8):
        raise TypeError(f"For 'FlashAttentionScore', the dtype of 'attn_mask' must be bool or uint8, but got "
                        f"{attn_mask.dtype}.")
    if not isinstance(head_num, int) or head_num <= 0:
        raise ValueError(f"For 'FlashAttentionScore', 'head_num' must be a positive int, but got {head_num}.")
    if not isinstance(sparse_mode, int) or sparse_mode not in range(9):
        raise ValueError(f"For 'FlashAttentionScore', 'sparse_mode' must be an int in [0, 8], but got {sparse_mode}.")
    unsupported = [name for name, asked in (
        ("input_layout='TND'", input_layout == "TND"), (f"sparse_mode={sparse_mode}", sparse_mode >= 5),
        ("keep_prob < 1 (dropout)", keep_prob != 1.0 or drop_mask is not None), ("prefix", prefix is not None),
        ("actual_seq_qlen/actual_seq_kvlen", actual_seq_qlen is not None or actual_seq_kvlen is not None)) if asked]
    if unsupported:
        raise ValueError(f"For 'FlashAttentionScore', {', '.join(unsupported)} is not implemented in npspore.")
    q = _to_bnsd(query, input_layout, head_num)
    k_heads = None if input_layout in ("BNSD", "BSND") else key.shape[-1] // (query.shape[-1] // head_num)
    k, v = _to_bnsd(key, input_layout, k_heads), _to_bnsd(value, input_layout, k_heads)
    if q.shape[1] != head_num or head_num % k.shape[1]:
        raise ValueError(f"For 'FlashAttentionScore', 'head_num' ({head_num}) must be the query's heads and a "
                         f"multiple of the key's ({k.shape[1]}).")
    group = head_num // k.shape[1]
    if group > 1:
        k = F.reshape(F.tile(F.expand_dims(k, 2), (1, 1, group, 1, 1)), (k.shape[0], head_num) + k.shape[2:])
        v = F.reshape(F.tile(F.expand_dims(v, 2), (1, 1, group, 1, 1)), (v.shape[0], head_num) + v.shape[2:])
    scores = F.matmul(F.cast(q, mstype.float32), F.transpose(F.cast(k, mstype.float32), (0, 1, 3, 2)))
    scores = scores * scalar_value
    if real_shift is not None:
        scores = scores + F.cast(real_shift, mstype.float32)
    discarded = _discarded(attn_mask, sparse_mode, pre_tokens, next_tokens, q.shape[2], k.shape[2])
    if discarded is not None:
        scores = F.select(F.broadcast_to(discarded, scores.shape), F.fill(mstype.float32, scores.shape, -1e30),
                          scores)
    weights = F.softmax(scores, -1)
    out = F.cast(F.matmul(weights, F.cast(v, mstype.float32)), query.dtype)
    return _from_bnsd(out, input_layout)


def _mha_project(query, key, value, in_proj_weight, in_proj_bias, separate_weights):
    """The query, key and value projections: from the packed ``in_proj_weight`` (``(3E, E)``) or the three
    separate weights, with the thirds of ``in_proj_bias``."""
    embed = query.shape[-1]
    biases = (None, None, None) if in_proj_bias is None else F.split(in_proj_bias, embed)
    weights = F.split(in_proj_weight, embed) if separate_weights is None else separate_weights
    return tuple(linear(x, w, b) for x, w, b in zip((query, key, value), weights, biases))


def _mha_mask(attn_mask, key_padding_mask, batch, heads, tgt_len, src_len, dtype):
    """The additive mask of shape ``(B * heads or 1, L, S)`` from the attention and key-padding masks, or None."""
    mask = attn_mask
    if key_padding_mask is not None:
        if key_padding_mask.shape != (batch, src_len):
            raise ValueError(f"The shape of `key_padding_mask` should be {(batch, src_len)}, but got "
                             f"{key_padding_mask.shape}.")
        padding = F.reshape(F.tile(F.reshape(key_padding_mask, (batch, 1, 1, src_len)), (1, heads, 1, 1)),
                            (batch * heads, 1, src_len))
        if mask is None:
            mask = padding
        elif mask.dtype == mstype.bool_:
            mask = F.logical_or(mask, padding)
        else:
            mask = mask + F.cast(padding, mask.dtype)
    if mask is not None and mask.dtype == mstype.bool_:
        mask = F.select(mask, F.fill(dtype, mask.shape, float("-inf")), F.zeros(mask.shape, dtype))
    return mask


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, attn_mask=None, use_separate_proj_weight=False,
                                 q_proj_weight=None, k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights=True, is_causal=False, k_is_v=False,
                                 q_is_k=False, dtype=mstype.float32):
    """MindSpore's ``ops.function.nn_func.multi_head_attention_forward``: multi-head attention of ``query``
    ``(L, N, E)`` over ``key``/``value`` ``(S, N, E)`` (or unbatched ``(L, E)``/``(S, E)``) with the given
    projection weights; ``(attn_output (L, N, E), weights)``, the weights ``(N, L, S)`` averaged over the heads or
    ``(N, heads, L, S)``. ``is_causal`` adds 1 to the scores of the lower triangle, as MindSpore 2.10 does
    (``k_is_v``/``q_is_k`` only say the inputs are one Tensor).

    Raises:
        ValueError: on a shape, dtype or argument combination MindSpore refuses (its messages).
    """
    is_batched = query.ndim == 3
    if not is_batched:
        query, key, value = F.expand_dims(query, 1), F.expand_dims(key, 1), F.expand_dims(value, 1)
        if key_padding_mask is not None:
            key_padding_mask = F.expand_dims(key_padding_mask, 0)
    tgt_len, batch, embed_dim = query.shape
    if embed_dim != embed_dim_to_check:
        raise ValueError(f"The `embed_dim` should be {embed_dim_to_check}, but got {embed_dim}.")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise ValueError(f"The `embed_dim` {embed_dim} can not be divisible by `num_heads` {num_heads}.")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise ValueError(f"The sequence length and batch dims of `key`: {key.shape[:2]} do not match `value`: "
                             f"{value.shape[:2]}.")
        separate = (q_proj_weight, k_proj_weight, v_proj_weight)
        for name, weight in zip(("q_proj_weight", "k_proj_weight", "v_proj_weight"), separate):
            if weight is None:
                raise ValueError(f"`use_separate_proj_weight` is ``True`` but `{name}` got ``None``.")
    else:
        if key.shape != value.shape:
            raise ValueError(f"The shape of `key` {key.shape} does not match `value` {value.shape}.")
        if in_proj_weight is None:
            raise ValueError("`use_separate_proj_weight` is ``False`` but `in_proj_weight` got ``None``.")
        separate = None
    q, k, v = _mha_project(query, key, value, in_proj_weight, in_proj_bias, separate)
    src_len = key.shape[0]
    if attn_mask is not None:
        if attn_mask.dtype == mstype.uint8:
            attn_mask = F.cast(attn_mask, mstype.bool_)
        elif attn_mask.dtype != mstype.bool_ and attn_mask.dtype not in mstype.float_type:
            raise ValueError(f"`attn_mask` only support float, byte, and bool types, but got not {attn_mask.dtype}.")
        expected = {2: (tgt_len, src_len), 3: (batch * num_heads, tgt_len, src_len)}.get(attn_mask.ndim)
        if expected is None:
            raise ValueError(f"The ndim of `attn_mask` only support 2 or 3, but got {attn_mask.ndim}.")
        if attn_mask.shape != expected:
            raise ValueError(f"The shape of the `attn_mask` should be {expected}, but got {attn_mask.shape}.")
        if attn_mask.ndim == 2:
            attn_mask = F.expand_dims(attn_mask, 0)
    if (bias_k is None) != (bias_v is None):
        raise ValueError("The bias_k and bias_v should be ``None``at the same time.")
    if bias_k is not None:
        if static_k is not None or static_v is not None:
            raise ValueError("The bias_k cannot be added to static_k.")
        k = F.concat((k, F.tile(bias_k, (1, batch, 1))), 0)
        v = F.concat((v, F.tile(bias_v, (1, batch, 1))), 0)
        attn_mask = None if attn_mask is None else F.pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else F.pad(key_padding_mask, (0, 1))
    q = F.transpose(F.reshape(q, (tgt_len, batch * num_heads, head_dim)), (1, 0, 2))
    k = F.transpose(F.reshape(k, (k.shape[0], batch * num_heads, head_dim)), (1, 0, 2)) if static_k is None \
        else static_k
    v = F.transpose(F.reshape(v, (v.shape[0], batch * num_heads, head_dim)), (1, 0, 2)) if static_v is None \
        else static_v
    if add_zero_attn:
        zeros = F.zeros((batch * num_heads, 1, head_dim), k.dtype)
        k, v = F.concat((k, zeros), 1), F.concat((v, zeros), 1)
        attn_mask = None if attn_mask is None else F.pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else F.pad(key_padding_mask, (0, 1))
    src_len = k.shape[1]
    mask = _mha_mask(attn_mask, key_padding_mask, batch, num_heads, tgt_len, src_len, q.dtype)
    q = F.reshape(q, (batch, num_heads, tgt_len, head_dim))
    k = F.reshape(k, (batch, num_heads, src_len, head_dim))
    v = F.reshape(v, (batch, num_heads, src_len, head_dim))
    scaling = math.sqrt(math.sqrt(head_dim))
    scores = F.matmul(q / scaling, F.transpose(k, (0, 1, 3, 2)) / scaling)
    if is_causal:   # MindSpore 2.10 adds its bool lower triangle (as 1) in place of masking the upper one
        scores = scores + Tensor([[float(c <= r) for c in range(src_len)] for r in range(tgt_len)], scores.dtype)
    elif mask is not None:
        scores = scores + (F.expand_dims(mask, 0) if mask.shape[0] == 1 else
                           F.reshape(mask, (batch, num_heads, tgt_len, src_len)))
    weights = F.softmax(scores, -1)
    if training and dropout_p > 0:
        weights = dropout(weights, dropout_p)
    out = F.reshape(F.transpose(F.matmul(weights, v), (2, 0, 1, 3)), (batch * tgt_len, embed_dim))
    out = F.reshape(linear(out, out_proj_weight, out_proj_bias), (tgt_len, batch, -1))
    if average_attn_weights:
        weights = F.reduce_sum(weights, 1) / num_heads
    if not is_batched:
        out, weights = F.squeeze(out, 1), F.squeeze(weights, 0)
    return out, weights
