"""Attention layers against MindSpore, compiled against eager, gradients against finite differences.

The expected values were observed on MindSpore 2.10 CPU with the same inputs and with every parameter
set, in name order, from ``np.random.default_rng(0).uniform(-0.5, 0.5, shape)`` (``layer_values.set_weights``).
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import npspore as ms
from gradcheck import check_grads
from layer_values import output_leaves, set_weights
from npspore import Tensor, nn, ops

# Observed on MindSpore 2.10 CPU: each output leaf in order, rounded to 6 decimals.
EXPECTED = {
    'MHA_SELF':
    [[[[-0.346148, -0.648761, -0.20829, 0.4088], [-0.373188, -0.697889, -0.191642, 0.389107]],
      [[-0.358533, -0.642325, -0.215084, 0.405444], [-0.380238, -0.710745, -0.18389, 0.400892]],
      [[-0.327335, -0.6431, -0.214343, 0.379124], [-0.377676, -0.718215, -0.175715, 0.410029]]],
     [[[0.342837, 0.313801, 0.343362], [0.33754, 0.348606, 0.313853], [0.373292, 0.311836, 0.314873]],
      [[0.317191, 0.319242, 0.363567], [0.296536, 0.330572, 0.372892], [0.321574, 0.323966, 0.354461]]]],
    'MHA_KPM_AM':
    [[[[-0.246653, -0.847474, -0.087513, 0.390955], [-0.098512, -0.674452, -0.014956, 0.635298]],
      [[-0.223292, -0.75446, -0.09507, 0.452872], [-0.230378, -0.680412, -0.099589, 0.53209]],
      [[-0.188438, -0.898034, -0.043514, 0.390411], [-0.097714, -0.667381, -0.035162, 0.621352]]],
     [[[0.071049, 0.271875, 0.078395, 0.364332, 0.214349], [0.160858, 0.061919, 0.199368, 0.249973, 0.327883],
       [0.095514, 0.068677, 0.072471, 0.62831, 0.135027]],
      [[0.067956, 0.625408, 0.093327, 0.118596, 0.094713], [0.185269, 0.217847, 0.291825, 0.1339, 0.17116],
       [0.147799, 0.274816, 0.129699, 0.359083, 0.088603]]]],
    'MHA_BOOLMASK_PERHEAD':
    [[[[-0.21646, -0.726336, -0.093184, 0.490927], [-0.244773, -0.656455, -0.136857, 0.481234]],
      [[-0.21927, -0.709762, -0.104914, 0.479214], [-0.258309, -0.678216, -0.123224, 0.501601]],
      [[-0.214929, -0.723915, -0.099736, 0.472253], [-0.259311, -0.691235, -0.113794, 0.514314]]],
     [[[[0.243696, 0.0, 0.245153, 0.279345, 0.231807], [0.271211, 0.0, 0.245242, 0.20613, 0.277418],
        [0.262652, 0.0, 0.24413, 0.236016, 0.257202]],
       [[0.260054, 0.0, 0.244424, 0.276502, 0.21902], [0.249959, 0.0, 0.249462, 0.253016, 0.247563],
        [0.234693, 0.0, 0.242766, 0.288669, 0.233872]]],
      [[[0.217973, 0.0, 0.300359, 0.218841, 0.262827], [0.224282, 0.0, 0.265606, 0.236118, 0.273993],
        [0.243929, 0.0, 0.265726, 0.240924, 0.249421]],
       [[0.24222, 0.0, 0.253382, 0.251332, 0.253067], [0.214331, 0.0, 0.263363, 0.251984, 0.270323],
        [0.219351, 0.0, 0.25733, 0.245611, 0.277709]]]]],
    'MHA_NOWEIGHTS':
    [[[[-0.25368, -0.753002, -0.116051, 0.437808], [-0.202367, -0.661153, -0.102069, 0.524688]],
      [[-0.251938, -0.736158, -0.123457, 0.433907], [-0.21342, -0.682785, -0.08772, 0.544457]],
      [[-0.251504, -0.750667, -0.120396, 0.42463], [-0.212605, -0.691962, -0.080093, 0.554996]]]],
    'MHA_KDIM_BF':
    [[[[0.065277, -0.048152, 0.012135, -0.033095], [0.053295, -0.036567, 0.009453, -0.022561],
       [0.051261, -0.036611, 0.015993, -0.018506]],
      [[0.038063, -0.092588, -0.004499, -0.117673], [0.038762, -0.088639, -0.001436, -0.108815],
       [0.055926, -0.082398, -0.000778, -0.094971]]],
     [[[0.137194, 0.292904, 0.182744, 0.218908, 0.168251], [0.238075, 0.159228, 0.202126, 0.174192, 0.226379],
       [0.204173, 0.196884, 0.200747, 0.204957, 0.193239]],
      [[0.187277, 0.223674, 0.190854, 0.208013, 0.190182], [0.20978, 0.205943, 0.162458, 0.208195, 0.213624],
       [0.207508, 0.166846, 0.23615, 0.1897, 0.199797]]]],
    'MHA_UNBATCHED':
    [[[-0.25368, -0.753002, -0.116051, 0.437808], [-0.251938, -0.736158, -0.123457, 0.433907],
      [-0.251504, -0.750667, -0.120396, 0.42463]],
     [[0.19596, 0.221758, 0.190507, 0.216302, 0.175473], [0.208963, 0.198275, 0.198299, 0.183954, 0.210509],
      [0.19516, 0.215667, 0.19095, 0.205541, 0.192681]]],
    'ENC_LAYER':
    [[[[0.193913, 0.286649, 0.866306, -0.052423], [0.284471, 0.328332, 0.830731, 0.011399]],
      [[0.411405, 0.288797, 0.833092, 0.243841], [0.222714, 0.319787, 0.837185, -0.053252]],
      [[0.448692, 0.282584, 0.81246, 0.324432], [0.342067, 0.319932, 0.832623, 0.096481]]]],
    'ENC_LAYER_KPM':
    [[[[0.203225, 0.282865, 0.870869, -0.038372], [0.284471, 0.328332, 0.830731, 0.011399]],
      [[0.419529, 0.286491, 0.830025, 0.261782], [0.222714, 0.319787, 0.837185, -0.053252]],
      [[0.454425, 0.280575, 0.808786, 0.339526], [0.342067, 0.319932, 0.832623, 0.096481]]]],
    'ENC_LAYER_GELU_NORMFIRST_BF':
    [[[[0.684495, 0.756919, -0.176621, 0.600001], [-0.407153, 1.21189, -0.29472, 0.837842],
       [-0.820707, 1.26606, -0.343356, 1.041832]],
      [[-0.809543, 0.0205, 0.298259, -0.545016], [-0.743912, -0.397973, 1.067465, -0.58229],
       [-0.314438, 0.885234, 0.518603, 0.170363]]]],
    'ENCODER_2L_NORM':
    [[[[0.107094, -1.231046, 0.151663, -0.148036], [0.105557, -1.235398, 0.13426, -0.160349]],
      [[0.101998, -1.240699, 0.125502, -0.159587], [0.105834, -1.234861, 0.135837, -0.159585]],
      [[0.100712, -1.243006, 0.117617, -0.163467], [0.104858, -1.236458, 0.132607, -0.160161]]]],
}

_RNG = np.random.default_rng(1)
Q = _RNG.uniform(-1, 1, (3, 2, 4)).astype(np.float32)
KV = _RNG.uniform(-1, 1, (5, 2, 4)).astype(np.float32)
K6 = _RNG.uniform(-1, 1, (5, 2, 6)).astype(np.float32)
V3 = _RNG.uniform(-1, 1, (5, 2, 3)).astype(np.float32)
KPM = np.array([[False, False, False, True, True], [False, True, False, False, False]])
AM = _RNG.uniform(-1, 1, (3, 5)).astype(np.float32)
AMB = np.array([[False, True, False, False, False]] * 3)
SRC = _RNG.uniform(-1, 1, (3, 2, 4)).astype(np.float32)
SRC_KPM = np.array([[False, False, True], [False, False, False]])


def _mha():
    return nn.MultiheadAttention(4, 2)


def _t(a):
    return Tensor(a)


def _bf(a):
    return Tensor(a.transpose(1, 0, 2))


CASES = {
    "MHA_SELF": (_mha, lambda: ((_t(Q), _t(Q), _t(Q)), {})),
    "MHA_KPM_AM": (_mha, lambda: ((_t(Q), _t(KV), _t(KV)), {"key_padding_mask": _t(KPM), "attn_mask": _t(AM)})),
    "MHA_BOOLMASK_PERHEAD": (_mha, lambda: ((_t(Q), _t(KV), _t(KV)),
                                            {"attn_mask": _t(AMB), "average_attn_weights": False})),
    "MHA_NOWEIGHTS": (_mha, lambda: ((_t(Q), _t(KV), _t(KV)), {"need_weights": False})),
    "MHA_KDIM_BF": (lambda: nn.MultiheadAttention(4, 2, kdim=6, vdim=3, has_bias=False, batch_first=True),
                    lambda: ((_bf(Q), _bf(K6), _bf(V3)), {})),
    "MHA_UNBATCHED": (_mha, lambda: ((_t(Q[:, 0]), _t(KV[:, 0]), _t(KV[:, 0])), {})),
    "ENC_LAYER": (lambda: nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0), lambda: ((_t(SRC),), {})),
    "ENC_LAYER_KPM": (lambda: nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0),
                      lambda: ((_t(SRC),), {"src_key_padding_mask": _t(SRC_KPM)})),
    "ENC_LAYER_GELU_NORMFIRST_BF": (lambda: nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, activation="gelu",
                                                                       norm_first=True, batch_first=True),
                                    lambda: ((_bf(SRC),), {})),
    "ENCODER_2L_NORM": (lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0), 2,
                                                      norm=nn.LayerNorm((4,))),
                        lambda: ((_t(SRC),), {})),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_outputs_match_mindspore(name):
    make, inputs = CASES[name]
    args, kwargs = inputs()
    found = output_leaves(set_weights(make())(*args, **kwargs))
    expected = EXPECTED[name]
    assert len(found) == len(expected)
    for leaf, values in zip(found, expected):
        np.testing.assert_allclose(leaf, np.array(values), atol=2e-6)


class _WithKeywords(nn.Cell):
    """Calls `net` with the given keyword arguments (a compiled call's own keyword Tensors are positional)."""

    def __init__(self, net, kwargs):
        super().__init__()
        self.net = net
        self.kwargs = kwargs

    def construct(self, *args):
        return self.net(*args, **self.kwargs)


@pytest.mark.parametrize("name", ["MHA_KPM_AM", "MHA_BOOLMASK_PERHEAD", "MHA_KDIM_BF", "ENC_LAYER_KPM",
                                  "ENCODER_2L_NORM"])
def test_compiled_equals_eager(name):
    make, inputs = CASES[name]
    net = set_weights(make())
    args, kwargs = inputs()
    eager = output_leaves(net(*args, **kwargs))
    compiled = output_leaves(ms.jit(_WithKeywords(net, kwargs))(*args))
    for a, b in zip(eager, compiled):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_parameter_names_follow_mindspore():
    # Observed on MindSpore 2.10.
    assert [n for n, _ in nn.MultiheadAttention(4, 2, kdim=6, vdim=3).parameters_and_names()] == [
        "q_proj_weight", "k_proj_weight", "v_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"]
    names = [n for n, _ in nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8), 2).parameters_and_names()]
    assert names[:4] == ["layers.0.self_attn.in_proj_weight", "layers.0.self_attn.in_proj_bias",
                         "layers.0.self_attn.out_proj.weight", "layers.0.self_attn.out_proj.bias"]
    assert names[4:12] == ["layers.0.dense1.weight", "layers.0.dense1.bias", "layers.0.dense2.weight",
                           "layers.0.dense2.bias", "layers.0.norm1.gamma", "layers.0.norm1.beta",
                           "layers.0.norm2.gamma", "layers.0.norm2.beta"]
    assert len(names) == 24
    assert repr(nn.MultiheadAttention(4, 2)) == (
        "MultiheadAttention(\n  (out_proj): Dense(input_channels=4, output_channels=4, has_bias=True)\n)")


class _EncoderSum(nn.Cell):
    """An encoder layer (float64) applied to its input with a float key padding mask."""

    def __init__(self):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, activation="gelu", dtype=ms.float64)
        self.mask = Tensor(np.where(SRC_KPM, -3.0, 0.0))

    def construct(self, x):
        return self.layer(x, src_key_padding_mask=self.mask)


@pytest.mark.parametrize("make", [
    lambda: set_weights(nn.MultiheadAttention(4, 2, kdim=6, vdim=3, dtype=ms.float64), np.float64),
    lambda: set_weights(_EncoderSum(), np.float64),
], ids=["mha", "encoder_layer"])
def test_gradients_match_finite_differences(make):
    net = make()
    params = net.trainable_params()
    takes_kv = isinstance(net, nn.MultiheadAttention)
    inputs = (Q, K6, V3) if takes_kv else (SRC,)

    def call(arrays):
        return net(*(Tensor(a) for a in arrays))

    def fn(*args):
        for p, value in zip(params, args[len(inputs):]):
            p.set_data(Tensor(value))
        leaves = output_leaves(call(args[:len(inputs)]))
        return tuple(leaves) if len(leaves) > 1 else leaves[0]

    grad_fn = ops.GradOperation(get_all=True, get_by_list=True, sens_param=True)(net, params)

    def vjp(_fn):
        def apply(args, dout):
            for p, value in zip(params, args[len(inputs):]):
                p.set_data(Tensor(value))
            douts = dout if isinstance(dout, tuple) else (dout,)
            sens = tuple(Tensor(d) for d in douts) if len(douts) > 1 else Tensor(douts[0])
            input_grads, param_grads = grad_fn(*(Tensor(a) for a in args[:len(inputs)]), sens)
            return tuple(g.asnumpy() for g in input_grads) + tuple(g.asnumpy() for g in param_grads)
        return apply

    args = tuple(a.astype(np.float64) for a in inputs) + tuple(p.asnumpy() for p in params)
    check_grads(fn, args, vjp)


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="divisible"):
        nn.MultiheadAttention(5, 2)
    with pytest.raises(ValueError, match="relu/gelu"):
        nn.TransformerEncoderLayer(4, 2, activation="tanh")
    with pytest.raises(ValueError, match="attn_mask"):
        nn.MultiheadAttention(4, 2)(Tensor(Q), Tensor(KV), Tensor(KV), attn_mask=Tensor(AM[:2]))
    with pytest.raises(ValueError, match="key_padding_mask"):
        nn.MultiheadAttention(4, 2)(Tensor(Q), Tensor(KV), Tensor(KV), key_padding_mask=Tensor(KPM[:, :3]))


class _Attention(nn.Cell):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(8, 2)

    def construct(self, query, key, value):
        return self.attn(query, key, value)[0].sum()


class _SelfAttention(nn.Cell):
    def __init__(self, attention):
        super().__init__()
        self.attention = attention

    def construct(self, x):
        return self.attention(x, x, x)


def test_self_attention_reads_its_one_input_once():
    ms.set_seed(7)
    attention = _Attention()
    x = Tensor(np.random.default_rng(8).standard_normal((5, 3, 8)).astype(np.float32))
    grad = ms.grad(_SelfAttention(attention))
    source = grad.kernel_source(x)
    # query, key and value are one parameter of the compiled attention, reshaped once for the projections
    assert len(re.findall(r"= \w+\.reshape\(\(-1, 8\)\)", source)) == 1, source
    by_input = ms.grad(attention, grad_position=(0, 1, 2))(x, x, x)
    np.testing.assert_allclose(grad(x).asnumpy(), sum(g.asnumpy() for g in by_input), rtol=1e-5, atol=1e-6)


class _EncoderLayerLoss(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)

    def construct(self, x):
        return self.layer(x).sum()


class _UnpackedEncoderLayerLoss(_EncoderLayerLoss):
    """The same layer, its self-attention called as ``attention(x, x, x)``: three projection products."""

    def construct(self, x):
        layer = self.layer
        x = layer.norm1(x + layer.self_attn(x, x, x, need_weights=False)[0])
        return layer.norm2(x + layer._ff_block(x)).sum()


def test_encoder_self_attention_projects_with_one_product():
    ms.set_seed(3)
    packed = _EncoderLayerLoss()
    unpacked = _UnpackedEncoderLayerLoss()
    for mine, theirs in zip(unpacked.trainable_params(), packed.trainable_params()):
        mine.set_data(theirs.copy())
    x = Tensor(np.random.default_rng(4).standard_normal((6, 3, 8)).astype(np.float32))
    grad = ms.grad(packed, grad_position=0, weights=packed.trainable_params())
    source = grad.kernel_source(x)
    # the forward multiplies by the whole (24, 8) in_proj_weight once; the backward forms its gradient once
    assert len(re.findall(r"in_proj_weight\.T\b", source)) == 1, source
    assert len(re.findall(r"rt\.matmul_split|@", source)) < len(
        re.findall(r"rt\.matmul_split|@", ms.grad(unpacked, grad_position=0,
                                                   weights=unpacked.trainable_params()).kernel_source(x)))
    # the sum of a layer norm's outputs (gamma 1, beta 0) is zero but for rounding: about 1e-6 in float32
    np.testing.assert_allclose(packed(x).asnumpy(), unpacked(x).asnumpy(), atol=1e-5)
    expected_dx, expected_dw = ms.grad(unpacked, grad_position=0, weights=unpacked.trainable_params())(x)
    dx, dw = grad(x)
    np.testing.assert_allclose(dx.asnumpy(), expected_dx.asnumpy(), rtol=1e-5, atol=1e-6)
    for got, want in zip(dw, expected_dw):
        np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-5, atol=1e-6)
