"""``mindspore.ops.operations.nn_ops.FlashAttentionScore``: scaled dot-product attention in the fused form of
MindSpore's Ascend kernel (MindSpore 2.10 has no CPU kernel for it; its semantics are its documented ones).

``attention_out = softmax(query @ key^T * scale_value, masked) @ value`` per batch and head, the masked scores
discarded (``attn_mask`` 1, or outside the causal triangle or the token band of ``sparse_mode``); ``key``/``value``
may have fewer heads than ``query`` (grouped-query attention: each key head serves ``N1 / N2`` query heads).
``softmax_max`` and ``softmax_sum`` are the rows' maximum score and sum of ``exp(score - max)``, each repeated 8
times along a last dim as the kernel stores them; ``softmax_out`` is the kernel's unused output, a 0-d zero.
Written over ops of the table (half precision computed in float32), so it runs eagerly and compiled and is
differentiable.

Not implemented in npspore (a clear error): the layouts "TH" and "TND", ``sparse_mode`` 5 (prefix), dropout
(``keep_prob < 1``, whose ``drop_mask`` bit layout is the Ascend kernel's), and ``real_shift``.
"""
from __future__ import annotations

import numpy as np

from .._checkparam import check_value_type
from ..common import dtype as mstype
from ..common.tensor import Tensor
from . import functional as F
from .attention import _discarded, _from_bnsd, _to_bnsd
from .primitives import Primitive

__all__ = ["FlashAttentionScore"]

_LAYOUTS = ("BSH", "BNSD", "SBH", "BSND")
_NO_LIMIT = 2147483647


class FlashAttentionScore(Primitive):
    """``FlashAttentionScore(head_num, keep_prob=1.0, scale_value=1.0, pre_tokens=2147483647,
    next_tokens=2147483647, inner_precise=0, input_layout='BSH', sparse_mode=0)(query, key, value, real_shift,
    drop_mask, padding_mask, attn_mask, prefix, actual_seq_qlen, actual_seq_kvlen)``.

    Outputs:
        ``(softmax_max, softmax_sum, softmax_out, attention_out)``: float32 ``(B, N1, S1, 8)`` twice, a 0-d zero,
        and the attention of ``query``'s shape and dtype.

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If an argument is out of range or the shapes do not fit.
        NotImplementedError: For the cases the module names.
    """

    def __init__(self, head_num, keep_prob=1.0, scale_value=1.0, pre_tokens=_NO_LIMIT, next_tokens=_NO_LIMIT,
                 inner_precise=0, input_layout="BSH", sparse_mode=0):
        super().__init__("FlashAttentionScore")
        for name, value in (("head_num", head_num), ("pre_tokens", pre_tokens), ("next_tokens", next_tokens),
                            ("inner_precise", inner_precise), ("sparse_mode", sparse_mode)):
            check_value_type(name, value, [int], self.name)
        check_value_type("keep_prob", keep_prob, [float], self.name)
        check_value_type("scale_value", scale_value, [float], self.name)
        check_value_type("input_layout", input_layout, [str], self.name)
        if head_num <= 0 or not 0.0 < keep_prob <= 1.0:
            raise ValueError(f"For '{self.name}', 'head_num' must be positive and 'keep_prob' in (0.0, 1.0], but got "
                             f"{head_num} and {keep_prob}.")
        if input_layout not in _LAYOUTS or sparse_mode not in (0, 1, 2, 3, 4) or keep_prob < 1.0:
            raise NotImplementedError(f"For '{self.name}', npspore implements the layouts {list(_LAYOUTS)}, "
                                      f"sparse_mode 0 to 4 and keep_prob 1.0, but got {input_layout!r}, {sparse_mode} "
                                      f"and {keep_prob}.")
        self.head_num, self.scale_value, self.input_layout, self.sparse_mode = (head_num, scale_value, input_layout,
                                                                                sparse_mode)
        self.pre_tokens, self.next_tokens = pre_tokens, next_tokens
        for name, value in (("head_num", head_num), ("keep_prob", keep_prob), ("scale_value", scale_value),
                            ("pre_tokens", pre_tokens), ("next_tokens", next_tokens),
                            ("inner_precise", inner_precise), ("input_layout", input_layout),
                            ("sparse_mode", sparse_mode)):
            self.add_prim_attr(name, value)

    def __call__(self, query: Tensor, key: Tensor, value: Tensor, real_shift=None, drop_mask=None, padding_mask=None,
                 attn_mask=None, prefix=None, actual_seq_qlen=None, actual_seq_kvlen=None) -> tuple:
        for name, tensor in (("query", query), ("key", key), ("value", value)):
            if not isinstance(tensor, Tensor):
                raise TypeError(f"For '{self.name}', the '{name}' must be a Tensor, but got {type(tensor).__name__}.")
        if real_shift is not None or drop_mask is not None or prefix is not None or actual_seq_qlen is not None or \
                actual_seq_kvlen is not None:
            raise NotImplementedError(f"For '{self.name}', real_shift, drop_mask, prefix and actual_seq_qlen/kvlen "
                                      f"are not implemented in npspore.")
        work = mstype.float32 if query.dtype in (mstype.float16, mstype.bfloat16) else query.dtype
        q = F.cast(_to_bnsd(query, self.input_layout, self.head_num), work)
        kv_heads = self.head_num if self.input_layout in ("BNSD", "BSND") else None
        if kv_heads is None:
            kv_heads = key.shape[-1] // q.shape[3]
        k = F.cast(_to_bnsd(key, self.input_layout, kv_heads), work)
        v = F.cast(_to_bnsd(value, self.input_layout, kv_heads), work)
        heads, kv_heads = q.shape[1], k.shape[1]
        if heads % kv_heads or tuple(k.shape) != tuple(v.shape) or k.shape[3] != q.shape[3]:
            raise ValueError(f"For '{self.name}', the key heads must divide the query heads and key and value agree, "
                             f"but got query {list(query.shape)}, key {list(key.shape)}, value {list(value.shape)}.")
        if kv_heads != heads:
            group = heads // kv_heads
            k = F.reshape(F.tile(F.expand_dims(k, 2), (1, 1, group, 1, 1)), (k.shape[0], heads) + tuple(k.shape[2:]))
            v = F.reshape(F.tile(F.expand_dims(v, 2), (1, 1, group, 1, 1)), (v.shape[0], heads) + tuple(v.shape[2:]))
        scores = F.matmul(q, F.transpose(k, (0, 1, 3, 2))) * self.scale_value          # (B, N1, S1, S2)
        discarded = _discarded(attn_mask, self.sparse_mode, self.pre_tokens, self.next_tokens, q.shape[2],
                               k.shape[2])
        if discarded is not None:
            scores = F.where(discarded, float(np.finfo(np.float32).min), scores)
        top = F.reduce_max(scores, -1, keep_dims=True)
        weights = F.exp(scores - top)
        total = F.reduce_sum(weights, -1, keep_dims=True)
        attention = F.matmul(weights / total, v)
        out = F.cast(_from_bnsd(attention, self.input_layout), query.dtype)
        repeat = (1, 1, 1, 8)
        return F.tile(top, repeat), F.tile(total, repeat), F.zeros((), query.dtype), out
