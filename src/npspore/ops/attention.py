"""``ops.flash_attention_score``: MindSpore's fused attention (an Ascend kernel) as a composition of ops, so it runs
eagerly and compiled on NumPy and differentiates:
``softmax(mask(scalar_value * query @ key^T + real_shift, attn_mask)) @ value``, per head, with key/value heads
shared by groups of query heads (``N1 / N2``). Layouts ``BSH``, ``BNSD``, ``SBH`` and ``BSND``; sparse modes 0-4
(0/1 the given mask, with 0's ``pre_tokens``/``next_tokens`` band; 2 and 3 the causal masks from the top left and
the bottom right corner; 4 the band). Dropout (``keep_prob < 1``), the ``TND`` layout and sparse modes 5-8 are not
implemented in npspore: they raise saying so.
"""
from __future__ import annotations

from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import functional as F

__all__ = ["flash_attention_score"]

_INT_MAX = 2147483647
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
