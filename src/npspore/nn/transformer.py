"""Attention layers: ``MultiheadAttention``, ``TransformerEncoderLayer``, ``TransformerEncoder``.

They follow MindSpore's definitions: packed ``in_proj_weight`` (3E, E) when key and value have the
query's width (else ``q_proj_weight``, ``k_proj_weight``, ``v_proj_weight``), ``out_proj`` a ``Dense``,
query and key each divided by the fourth root of the head size, bool masks meaning "masked out", and
sequence-first inputs unless ``batch_first``.
"""
from __future__ import annotations

from typing import Any
import copy
import math

from npspore.common import dtype as mstype
from npspore.common.initializer import HeUniform, Uniform, XavierUniform, initializer
from npspore.common.parameter import Parameter
from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell
from npspore.nn.container import CellList
from npspore.nn.layers import GELU, ReLU, Dense, Dropout, _check_bool, _check_positive_int
from npspore.nn.linear import linear
from npspore.nn.normalization import LayerNorm
from npspore.ops import functional as F
from npspore.ops.eager import run

__all__ = ["MultiheadAttention", "TransformerEncoderLayer", "TransformerEncoder"]


def _as_additive_mask(mask, dtype):
    """A bool mask (True = masked out) as 0 / -inf of `dtype`; a float mask unchanged."""
    if mask.dtype == mstype.bool_:
        return F.where(mask, F.cast(float("-inf"), dtype), F.cast(0.0, dtype))
    return mask


def _check_mask_dtype(mask, arg_name):
    if mask.dtype != mstype.bool_ and mask.dtype not in mstype.float_type:
        raise ValueError(f"The `{arg_name}` only supports bool and floating dtypes, but got {mask.dtype}.")


class MultiheadAttention(Cell):
    r"""Multi-head attention: :math:`\text{Concat}(head_1, ..., head_h) W^O` with
    :math:`head_i = \text{softmax}(Q_i K_i^T / \sqrt{d_k} + mask) V_i`.

    Args:
        embed_dim (int): the width of the query (and of the output).
        num_heads (int): the number of heads; must divide `embed_dim`.
        dropout (float): dropout probability on the attention weights, in training mode. Default: ``0.0``.
        has_bias (bool): whether the projections have biases. Default: ``True``.
        add_bias_kv (bool): must be ``False`` in npspore. Default: ``False``.
        add_zero_attn (bool): must be ``False`` in npspore. Default: ``False``.
        kdim (int): the width of the key. Default: ``None`` (`embed_dim`).
        vdim (int): the width of the value. Default: ``None`` (`embed_dim`).
        batch_first (bool): whether inputs are :math:`(batch, seq, feature)`. Default: ``False``.
        dtype (mindspore.dtype): the dtype of the parameters. Default: ``mstype.float32``.

    Inputs:
        - **query** (Tensor) - :math:`(L, N, E)` (or :math:`(N, L, E)` batch first, or :math:`(L, E)`).
        - **key** (Tensor) - :math:`(S, N, kdim)`.
        - **value** (Tensor) - :math:`(S, N, vdim)`.
        - **key_padding_mask** (Tensor) - :math:`(N, S)`, bool (True = ignore that key) or float (added).
          Default: ``None``.
        - **need_weights** (bool) - whether to return the attention weights. Default: ``True``.
        - **attn_mask** (Tensor) - :math:`(L, S)` or :math:`(N \cdot num\_heads, L, S)`, bool or float.
          Default: ``None``.
        - **average_attn_weights** (bool) - average the weights over the heads. Default: ``True``.

    Outputs:
        ``(attn_output, attn_output_weights)`` when `need_weights`, else the 1-tuple ``(attn_output,)``.
        The weights are :math:`(N, L, S)`, or :math:`(N, num\_heads, L, S)` when not averaged.

    Raises:
        ValueError: If `embed_dim` is not divisible by `num_heads`, a mask has a wrong dtype or shape,
            or `add_bias_kv`/`add_zero_attn` is set.
    """

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, has_bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim: int | None = None,
                 vdim: int | None = None, batch_first: bool = False, dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        _check_positive_int(embed_dim, "embed_dim", self.cls_name)
        _check_positive_int(num_heads, "num_heads", self.cls_name)
        if add_bias_kv or add_zero_attn:
            raise ValueError(f"For '{self.cls_name}', npspore does not support 'add_bias_kv' or 'add_zero_attn'.")
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = _check_bool(batch_first, "batch_first", self.cls_name)
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise ValueError("The init argument 'embed_dim' must be divisible by 'num_heads'.")
        self.has_bias = has_bias
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(initializer(XavierUniform(), (3 * embed_dim, embed_dim), dtype),
                                            name="in_proj_weight")
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
        else:
            self.q_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, embed_dim), dtype),
                                           name="q_proj_weight")
            self.k_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, self.kdim), dtype),
                                           name="k_proj_weight")
            self.v_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, self.vdim), dtype),
                                           name="v_proj_weight")
            self.in_proj_weight = None
        self.in_proj_bias = None
        if has_bias:
            self.in_proj_bias = Parameter(initializer("zeros", (3 * embed_dim,), dtype), name="in_proj_bias")
        self.out_proj = Dense(embed_dim, embed_dim, has_bias=has_bias, weight_init=HeUniform(math.sqrt(5)),
                              bias_init=Uniform(1 / math.sqrt(embed_dim)), dtype=dtype)
        self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn

    def _project(self, query, key, value, packed):
        """The query, key and value projections. ``packed`` (self-attention: query, key and value are one
        tensor): one product with ``in_proj_weight``, cut into three, as MindSpore projects when
        ``query is key is value``."""
        if packed and self._qkv_same_embed_dim:
            return F.split(linear(query, self.in_proj_weight, self.in_proj_bias), self.embed_dim, -1)
        biases = (None, None, None)
        if self.has_bias:
            biases = F.split(self.in_proj_bias, self.embed_dim)
        if self._qkv_same_embed_dim:
            w_q, w_k, w_v = F.split(self.in_proj_weight, self.embed_dim)
        else:
            w_q, w_k, w_v = self.q_proj_weight, self.k_proj_weight, self.v_proj_weight
        return linear(query, w_q, biases[0]), linear(key, w_k, biases[1]), linear(value, w_v, biases[2])

    def _heads(self, x):
        """(seq, batch, E) -> (batch, num_heads, seq, head_dim)."""
        return x.reshape((x.shape[0], x.shape[1], self.num_heads, self.head_dim)).transpose((1, 2, 0, 3))

    def _mask(self, key_padding_mask, attn_mask, batch, tgt_len, src_len, dtype):
        """The additive mask, broadcastable to (batch, num_heads, tgt_len, src_len), or None.

        As in MindSpore, a bool `key_padding_mask` joins a bool `attn_mask` by logical OR but is *added*
        (as 0/1) to a float `attn_mask`; a mask that is still bool then becomes 0 / -inf.
        """
        mask = None
        if isinstance(attn_mask, Tensor):
            _check_mask_dtype(attn_mask, "attn_mask")
            if attn_mask.ndim == 2:
                if attn_mask.shape != (tgt_len, src_len):
                    raise ValueError(f"The shape of the `attn_mask` should be {(tgt_len, src_len)}, "
                                     f"but got {attn_mask.shape}.")
                mask = attn_mask.reshape((1, 1, tgt_len, src_len))
            elif attn_mask.ndim == 3:
                if attn_mask.shape != (batch * self.num_heads, tgt_len, src_len):
                    raise ValueError(f"The shape of the `attn_mask` should be "
                                     f"{(batch * self.num_heads, tgt_len, src_len)}, but got {attn_mask.shape}.")
                mask = attn_mask.reshape((batch, self.num_heads, tgt_len, src_len))
            else:
                raise ValueError(f"The ndim of `attn_mask` only support 2 or 3, but got {attn_mask.ndim}.")
        if isinstance(key_padding_mask, Tensor):
            _check_mask_dtype(key_padding_mask, "key_padding_mask")
            if key_padding_mask.shape != (batch, src_len):
                raise ValueError(f"The shape of `key_padding_mask` should be {(batch, src_len)}, "
                                 f"but got {key_padding_mask.shape}.")
            padding = key_padding_mask.reshape((batch, 1, 1, src_len))
            if not isinstance(mask, Tensor):  # compiled code cannot compare a tensor with 'is'
                mask = padding
            elif mask.dtype == mstype.bool_:
                mask = F.logical_or(mask, padding)
            else:
                mask = mask + F.cast(padding, mask.dtype)
        if isinstance(mask, Tensor):
            return _as_additive_mask(mask, dtype)
        return None

    def construct(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                  average_attn_weights=True):
        return self._attend(query, key, value, False, key_padding_mask, need_weights, attn_mask,
                            average_attn_weights)

    def _self_attention(self, x, key_padding_mask=None, need_weights=True, attn_mask=None):
        """``self(x, x, x, ...)``, its three projections one product (``_project``)."""
        return self._attend(x, x, x, True, key_padding_mask, need_weights, attn_mask, True)

    def _attend(self, query, key, value, packed, key_padding_mask, need_weights, attn_mask, average_attn_weights):
        is_batched = query.ndim == 3
        if not is_batched:
            query, key, value = query.expand_dims(1), key.expand_dims(1), value.expand_dims(1)
            if isinstance(key_padding_mask, Tensor):
                key_padding_mask = key_padding_mask.expand_dims(0)
        elif self.batch_first:
            query, key, value = query.transpose((1, 0, 2)), key.transpose((1, 0, 2)), value.transpose((1, 0, 2))
        if query.shape[-1] != self.embed_dim:
            raise ValueError(f"The `embed_dim` should be {self.embed_dim}, but got {query.shape[-1]}.")
        tgt_len, batch = query.shape[0], query.shape[1]
        src_len = key.shape[0]
        q, k, v = self._project(query, key, value, packed)
        q, k, v = self._heads(q), self._heads(k), self._heads(v)
        scaling = math.sqrt(math.sqrt(self.head_dim))
        scores = F.matmul(q / scaling, k.transpose((0, 1, 3, 2)) / scaling)
        mask = self._mask(key_padding_mask, attn_mask, batch, tgt_len, src_len, scores.dtype)
        if isinstance(mask, Tensor):
            scores = scores + mask
        weights = F.softmax(scores, -1)
        if self.training and self.dropout > 0:
            weights = weights * run("dropout_mask", shape=weights.shape, keep_prob=1.0 - self.dropout,
                                    dtype=mstype.dtype_to_nptype(weights.dtype))
        heads = F.matmul(weights, v)  # (batch, num_heads, tgt_len, head_dim)
        heads = heads.transpose((2, 0, 1, 3))   # its own dims read: kept where known only when the kernel runs
        attn_output = heads.reshape((heads.shape[0], heads.shape[1], self.embed_dim))
        attn_output = self.out_proj(attn_output)
        if average_attn_weights:
            weights = weights.sum(axis=1) / self.num_heads
        if not is_batched:
            attn_output = attn_output.squeeze(1)
            weights = weights.squeeze(0)
        elif self.batch_first:
            attn_output = attn_output.transpose((1, 0, 2))
        if need_weights:
            return attn_output, weights
        return (attn_output,)


_FEEDFORWARD_ACTIVATIONS = {"relu": ReLU, "gelu": lambda: GELU(approximate=False)}


class TransformerEncoderLayer(Cell):
    r"""One transformer encoder layer: self-attention and a feed-forward block, each with a residual
    connection and layer normalization (after each block, or before with `norm_first`).

    Args:
        d_model (int): the width of the input.
        nhead (int): the number of attention heads.
        dim_feedforward (int): the hidden width of the feed-forward block. Default: ``2048``.
        dropout (float): the dropout probability. Default: ``0.1``.
        activation (Union[str, Cell, callable]): ``'relu'``, ``'gelu'``, an ``nn.ReLU``/``nn.GELU``, or
            ``ops.relu``/``ops.gelu``. Default: ``'relu'``.
        layer_norm_eps (float): the epsilon of the layer norms. Default: ``1e-5``.
        batch_first (bool): whether inputs are :math:`(batch, seq, feature)`. Default: ``False``.
        norm_first (bool): normalize before each block instead of after. Default: ``False``.
        dtype (mindspore.dtype): the dtype of the parameters. Default: ``mstype.float32``.

    Inputs:
        - **src** (Tensor) - :math:`(S, N, d\_model)` (or batch first, or unbatched :math:`(S, d\_model)`).
        - **src_mask** (Tensor) - the attention mask. Default: ``None``.
        - **src_key_padding_mask** (Tensor) - :math:`(N, S)`. Default: ``None``.

    Outputs:
        Tensor of the shape of `src`.

    Raises:
        ValueError: If `activation` is not one of the accepted values.
    """

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, dtype=mstype.float32):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, dtype=dtype)
        self.dense1 = Dense(d_model, dim_feedforward, weight_init=HeUniform(math.sqrt(5)),
                            bias_init=Uniform(1 / math.sqrt(d_model)), dtype=dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = Dense(dim_feedforward, d_model, weight_init=HeUniform(math.sqrt(5)),
                            bias_init=Uniform(1 / math.sqrt(dim_feedforward)), dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm2 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.dropout1 = Dropout(p=dropout)
        self.dropout2 = Dropout(p=dropout)
        self.activation1 = activation
        self.activation = self._activation_cell(activation)
        self.d_model = d_model
        self.nhead = nhead
        self.dim_feedforward = dim_feedforward
        self.dropout_num = dropout
        self.layernorm_eps = layer_norm_eps
        self.batch_first = batch_first
        self.dtype = dtype

    @staticmethod
    def _activation_cell(activation):
        if isinstance(activation, str):
            if activation not in _FEEDFORWARD_ACTIVATIONS:
                raise ValueError(f"The activation must be relu/gelu, but get {activation}")
            return _FEEDFORWARD_ACTIVATIONS[activation]()
        if isinstance(activation, (ReLU, GELU)):
            return activation
        if activation is F.relu:
            return ReLU()
        if activation is F.gelu:
            return GELU(approximate=False)
        raise ValueError(f"The argument 'activation' must be 'relu', 'gelu', nn.ReLU, nn.GELU, ops.relu or "
                         f"ops.gelu, but get {activation}.")

    def _sa_block(self, x, attn_mask, key_padding_mask):
        x = self.self_attn._self_attention(x, key_padding_mask, False, attn_mask)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        return self.dropout2(self.dense2(self.dropout(self.activation(self.dense1(x)))))

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask))
            x = self.norm2(x + self._ff_block(x))
        return x


class TransformerEncoder(Cell):
    r"""A stack of `num_layers` encoder layers, each a fresh copy built with `encoder_layer`'s arguments
    (as in MindSpore, `encoder_layer`'s own weights are not reused), then an optional `norm`.

    Args:
        encoder_layer (TransformerEncoderLayer): the layer to repeat.
        num_layers (int): the number of layers.
        norm (Cell): applied to the output. Default: ``None``.

    Inputs:
        - **src** (Tensor) - as for :class:`TransformerEncoderLayer`.
        - **src_mask** (Tensor) - Default: ``None``.
        - **src_key_padding_mask** (Tensor) - Default: ``None``.

    Outputs:
        Tensor of the shape of `src`.

    Raises:
        TypeError: If `encoder_layer` is not a TransformerEncoderLayer or `num_layers` is not an int.
        ValueError: If `num_layers` is not positive.
    """

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        if not isinstance(encoder_layer, TransformerEncoderLayer):
            raise TypeError(f"For 'TransformerEncoder', the 'encoder_layer' must be a TransformerEncoderLayer, "
                            f"but got {type(encoder_layer).__name__}.")
        _check_positive_int(num_layers, "num_layers", self.cls_name)
        layer = TransformerEncoderLayer(encoder_layer.d_model, encoder_layer.nhead, encoder_layer.dim_feedforward,
                                        encoder_layer.dropout_num, encoder_layer.activation1,
                                        encoder_layer.layernorm_eps, encoder_layer.batch_first,
                                        encoder_layer.norm_first, dtype=encoder_layer.dtype)
        self.layers = CellList([copy.deepcopy(layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        if self.norm is not None:
            output = self.norm(output)
        return output
