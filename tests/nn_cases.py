"""Layer and loss cases run identically on MindSpore and npspore (the API is the same).

Each case is ``(key, layer, inputs, train)``: ``layer`` and ``inputs`` are Python expressions
evaluated with the names ``nn``, ``ops``, ``ms``, ``Tensor``, ``np`` and ``r`` (``r(shape, seed)``:
float32 standard normals from ``np.random.default_rng(seed)``, the same under NumPy 1.26 and 2.x)
bound to either framework; ``train`` calls ``set_train(True)`` first. For each case
``tools/observe_mindspore_nn.py`` records, on MindSpore, the output, the gradients of
``sum(output ** 2)`` with respect to the float inputs and the trainable parameters, and every
parameter's value after the call (BatchNorm's moving statistics); ``tests/golden/mindspore_nn.json``
holds what it observed on MindSpore 2.10 CPU, and ``tests/test_nn_layers.py`` checks npspore
against it.
"""

X4 = "[Tensor(r((2, 3, 5, 5), 1))]"
W = "Tensor(r((4, 3, 3, 3), 2))"
P4 = "[Tensor(r((2, 2, 5, 6), 10))]"
P3 = "[Tensor(r((2, 3, 7), 11))]"
A = "[Tensor(r((2, 3, 4), 12))]"
LOGITS = "Tensor(r((4, 5), 13))"
INDICES = "Tensor(np.array([1, 0, 4, 2]), ms.int32)"
PROBS = "ops.softmax(Tensor(r((4, 5), 14)), 1)"
PRED = "ops.sigmoid(Tensor(r((3, 4), 15)))"
TARGET01 = "Tensor((r((3, 4), 16) > 0).astype(np.float32))"

CASES = [
    # convolution
    ("conv2d same", f"nn.Conv2d(3, 4, 3, weight_init={W}, has_bias=True, bias_init='ones')", X4, False),
    ("conv2d same stride2", f"nn.Conv2d(3, 4, 3, stride=2, weight_init={W})", X4, False),
    ("conv2d valid", f"nn.Conv2d(3, 4, 3, pad_mode='valid', weight_init={W})", X4, False),
    ("conv2d pad", f"nn.Conv2d(3, 4, 3, stride=2, pad_mode='pad', padding=1, weight_init={W})", X4, False),
    ("conv2d pad4", f"nn.Conv2d(3, 4, 3, pad_mode='pad', padding=(1, 0, 2, 1), weight_init={W})", X4, False),
    ("conv2d group dilation", "nn.Conv2d(3, 6, (3, 2), stride=(2, 1), pad_mode='pad', padding=1, dilation=(1, 2), "
     "group=3, weight_init=Tensor(r((6, 1, 3, 2), 3)))", X4, False),
    ("conv1d same stride2", "nn.Conv1d(3, 2, 3, stride=2, weight_init=Tensor(r((2, 3, 3), 5)))",
     "[Tensor(r((2, 3, 7), 4))]", False),
    ("conv1d pad dilation", "nn.Conv1d(3, 2, 3, pad_mode='pad', padding=2, dilation=2, "
     "weight_init=Tensor(r((2, 3, 3), 5)), has_bias=True, bias_init='ones')", "[Tensor(r((2, 3, 7), 4))]", False),
    ("conv2d_transpose same", "nn.Conv2dTranspose(3, 2, 3, weight_init=Tensor(r((3, 2, 3, 3), 7)))",
     "[Tensor(r((2, 3, 4, 4), 6))]", False),
    ("conv2d_transpose same stride2", "nn.Conv2dTranspose(3, 2, 3, stride=2, weight_init=Tensor(r((3, 2, 3, 3), 7)))",
     "[Tensor(r((2, 3, 4, 4), 6))]", False),
    ("conv2d_transpose valid stride3", "nn.Conv2dTranspose(3, 2, 3, stride=3, pad_mode='valid', "
     "weight_init=Tensor(r((3, 2, 3, 3), 7)))", "[Tensor(r((2, 3, 4, 4), 6))]", False),
    ("conv2d_transpose pad stride2", "nn.Conv2dTranspose(3, 2, 3, stride=2, pad_mode='pad', padding=1, "
     "weight_init=Tensor(r((3, 2, 3, 3), 7)))", "[Tensor(r((2, 3, 4, 4), 6))]", False),
    ("conv2d_transpose group", "nn.Conv2dTranspose(4, 2, 2, stride=2, group=2, weight_init=Tensor(r((4, 1, 2, 2), 8)), "
     "has_bias=True, bias_init='ones')", "[Tensor(r((1, 4, 3, 3), 9))]", False),
    # pooling
    ("max_pool2d 2", "nn.MaxPool2d(2, 2)", P4, False),
    ("max_pool2d same", "nn.MaxPool2d(3, 2, pad_mode='same')", P4, False),
    ("max_pool2d pad", "nn.MaxPool2d(3, 1, pad_mode='pad', padding=1)", P4, False),
    ("max_pool2d rect", "nn.MaxPool2d((2, 3), (1, 2))", P4, False),
    ("max_pool2d ceil", "nn.MaxPool2d(3, 2, pad_mode='pad', padding=1, ceil_mode=True)", P4, False),
    ("avg_pool2d 2", "nn.AvgPool2d(2, 2)", P4, False),
    ("avg_pool2d same", "nn.AvgPool2d(3, 2, pad_mode='same')", P4, False),
    ("avg_pool2d pad", "nn.AvgPool2d(3, 1, pad_mode='pad', padding=1)", P4, False),
    ("avg_pool2d rect", "nn.AvgPool2d((2, 3), (1, 2))", P4, False),
    ("avg_pool2d ceil", "nn.AvgPool2d(3, 2, pad_mode='pad', padding=1, ceil_mode=True)", P4, False),
    ("avg_pool2d exclude pad", "nn.AvgPool2d(3, 2, pad_mode='pad', padding=1, count_include_pad=False)", P4, False),
    ("avg_pool2d divisor", "nn.AvgPool2d(3, 2, pad_mode='pad', padding=1, divisor_override=2)", P4, False),
    ("max_pool1d", "nn.MaxPool1d(3, 2)", P3, False),
    ("max_pool1d same", "nn.MaxPool1d(3, 2, pad_mode='same')", P3, False),
    ("avg_pool1d", "nn.AvgPool1d(3, 2)", P3, False),
    ("avg_pool1d same", "nn.AvgPool1d(3, 2, pad_mode='same')", P3, False),
    ("avg_pool1d pad", "nn.AvgPool1d(3, 2, pad_mode='pad', padding=1)", P3, False),
    ("adaptive_avg_pool2d", "nn.AdaptiveAvgPool2d((2, 3))", P4, False),
    ("adaptive_avg_pool2d int", "nn.AdaptiveAvgPool2d(3)", P4, False),
    ("adaptive_avg_pool2d none", "nn.AdaptiveAvgPool2d((None, 2))", P4, False),
    ("adaptive_max_pool2d", "nn.AdaptiveMaxPool2d((2, 4))", P4, False),
    ("adaptive_max_pool2d even", "nn.AdaptiveMaxPool2d((5, 3))", P4, False),
    # normalization
    ("batch_norm2d eval", "nn.BatchNorm2d(3, moving_mean_init=Tensor(r((3,), 20)), "
     "moving_var_init=Tensor(np.abs(r((3,), 21)) + 0.5), gamma_init=Tensor(r((3,), 22)), beta_init=Tensor(r((3,), 23)))",
     X4, False),
    ("batch_norm2d train", "nn.BatchNorm2d(3, gamma_init=Tensor(r((3,), 22)), beta_init=Tensor(r((3,), 23)))", X4, True),
    ("batch_norm1d train", "nn.BatchNorm1d(4, momentum=0.7)", "[Tensor(r((5, 4), 24))]", True),
    ("batch_norm1d eval", "nn.BatchNorm1d(4, moving_mean_init=Tensor(r((4,), 25)))", "[Tensor(r((5, 4), 24))]", False),
    ("layer_norm", "nn.LayerNorm((4,), gamma_init=Tensor(r((4,), 26)), beta_init=Tensor(r((4,), 27)))", A, False),
    ("layer_norm two axes", "nn.LayerNorm((3, 4), begin_norm_axis=1, begin_params_axis=1, epsilon=1e-5)", A, False),
    ("group_norm", "nn.GroupNorm(3, 6, gamma_init=Tensor(r((6,), 28)), beta_init=Tensor(r((6,), 29)))",
     "[Tensor(r((2, 6, 2, 3), 30))]", False),
    # activations
    ("leaky_relu", "nn.LeakyReLU()", A, False),
    ("leaky_relu alpha", "nn.LeakyReLU(0.5)", A, False),
    ("prelu", "nn.PReLU()", A, False),
    ("prelu channels", "nn.PReLU(3, w=Tensor(r((3,), 33)))", A, False),
    ("elu", "nn.ELU()", A, False),
    ("elu alpha", "nn.ELU(0.5)", A, False),
    ("silu", "nn.SiLU()", A, False),
    ("mish", "nn.Mish()", A, False),
    ("hswish", "nn.HSwish()", "[Tensor(r((2, 3, 4), 12) * 4)]", False),
    ("hsigmoid", "nn.HSigmoid()", "[Tensor(r((2, 3, 4), 12) * 4)]", False),
    ("logsigmoid", "nn.LogSigmoid()", A, False),
    ("softsign", "nn.Softsign()", A, False),
    ("threshold", "nn.Threshold(0.1, 20.0)", A, False),
    # losses
    ("cross_entropy indices", "nn.CrossEntropyLoss()", f"[{LOGITS}, {INDICES}]", False),
    ("cross_entropy weight ignore", "nn.CrossEntropyLoss(weight=Tensor(np.array([1, 2, 3, 4, 5], np.float32)), "
     "ignore_index=0)", f"[{LOGITS}, {INDICES}]", False),
    ("cross_entropy smoothing sum", "nn.CrossEntropyLoss(reduction='sum', label_smoothing=0.2)",
     f"[{LOGITS}, {INDICES}]", False),
    ("cross_entropy weight smoothing", "nn.CrossEntropyLoss(weight=Tensor(np.array([1, 2, 3, 4, 5], np.float32)), "
     "label_smoothing=0.1)", f"[{LOGITS}, {INDICES}]", False),
    ("cross_entropy none", "nn.CrossEntropyLoss(reduction='none')", f"[{LOGITS}, {INDICES}]", False),
    ("cross_entropy probs", "nn.CrossEntropyLoss()", f"[{LOGITS}, {PROBS}]", False),
    ("cross_entropy probs weight smoothing", "nn.CrossEntropyLoss(weight=Tensor(np.array([1, 2, 3, 4, 5], "
     "np.float32)), label_smoothing=0.3)", f"[{LOGITS}, {PROBS}]", False),
    ("cross_entropy spatial", "nn.CrossEntropyLoss()",
     "[Tensor(r((2, 3, 2, 2), 17)), Tensor(np.array([[[0, 1], [2, 1]], [[1, 1], [0, 2]]]), ms.int32)]", False),
    ("nll_loss", "nn.NLLLoss()", f"[ops.log_softmax({LOGITS}, 1), {INDICES}]", False),
    ("nll_loss weight sum", "nn.NLLLoss(weight=Tensor(np.array([1, 2, 3, 4, 5], np.float32)), reduction='sum')",
     f"[ops.log_softmax({LOGITS}, 1), {INDICES}]", False),
    ("bce", "nn.BCELoss()", f"[{PRED}, {TARGET01}]", False),
    ("bce weight none", "nn.BCELoss(weight=Tensor(r((3, 4), 18) ** 2), reduction='none')", f"[{PRED}, {TARGET01}]",
     False),
    ("bce_with_logits", "nn.BCEWithLogitsLoss()", f"[Tensor(r((3, 4), 15)), {TARGET01}]", False),
    ("bce_with_logits weights", "nn.BCEWithLogitsLoss(reduction='sum', weight=Tensor(r((4,), 18) ** 2), "
     "pos_weight=Tensor(np.array([1, 2, 3, 0.5], np.float32)))", f"[Tensor(r((3, 4), 15)), {TARGET01}]", False),
    ("smooth_l1", "nn.SmoothL1Loss()", "[Tensor(r((3, 4), 15)), Tensor(r((3, 4), 16))]", False),
    ("smooth_l1 beta mean", "nn.SmoothL1Loss(beta=0.5, reduction='mean')",
     "[Tensor(r((3, 4), 15)), Tensor(r((3, 4), 16))]", False),
    ("huber", "nn.HuberLoss()", "[Tensor(r((3, 4), 15) * 2), Tensor(r((3, 4), 16))]", False),
    ("huber delta sum", "nn.HuberLoss(reduction='sum', delta=0.5)",
     "[Tensor(r((3, 4), 15) * 2), Tensor(r((3, 4), 16))]", False),
    ("kl_div", "nn.KLDivLoss()", f"[ops.log_softmax({LOGITS}, 1), {PROBS}]", False),
    ("kl_div none", "nn.KLDivLoss(reduction='none')", f"[ops.log_softmax({LOGITS}, 1), {PROBS}]", False),
    ("cosine_embedding", "nn.CosineEmbeddingLoss()",
     "[Tensor(r((3, 4), 15)), Tensor(r((3, 4), 16)), Tensor(np.array([1, -1, -1]), ms.int32)]", False),
    ("cosine_embedding margin none", "nn.CosineEmbeddingLoss(margin=0.2, reduction='none')",
     "[Tensor(r((3, 4), 15)), Tensor(r((3, 4), 16)), Tensor(np.array([1, -1, -1]), ms.int32)]", False),
]


def r(shape, seed):
    """Float32 standard normals of ``shape`` from ``np.random.default_rng(seed)``."""
    import numpy as np
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def namespace(framework) -> dict:
    """The names case expressions use, bound to ``framework`` (``mindspore`` or ``npspore``)."""
    import numpy as np
    return {"nn": framework.nn, "ops": framework.ops, "ms": framework, "Tensor": framework.Tensor, "np": np, "r": r}

# Functional ops and primitives: (key, expression giving a Tensor or a tuple of Tensors). Stateful
# ones (BatchNorm updating its Parameters) are evaluated once per framework.
X = "Tensor(r((2, 3, 4, 4), 1))"
T35 = "Tensor(r((3, 5), 6))"
FUNCTION_CASES = [
    ("ops.conv2d", f"ops.conv2d({X}, Tensor(r((4, 3, 3, 3), 7)), Tensor(r((4,), 8)), stride=2, pad_mode='pad', "
     "padding=1)"),
    ("ops.conv2d same dilation", f"ops.conv2d({X}, Tensor(r((4, 3, 3, 2), 7)), pad_mode='same', dilation=2)"),
    ("ops.conv1d", "ops.conv1d(Tensor(r((2, 3, 7), 4)), Tensor(r((2, 3, 3), 5)), stride=2, pad_mode='pad', padding=1)"),
    ("ops.max_pool2d", f"ops.max_pool2d({X}, 3, 1, 1)"),
    ("ops.avg_pool2d", f"ops.avg_pool2d({X}, 3, 2, 1, count_include_pad=False)"),
    ("ops.avg_pool1d", "ops.avg_pool1d(Tensor(r((2, 3, 7), 4)), 3, 2, 1)"),
    ("ops.adaptive_avg_pool2d", f"ops.adaptive_avg_pool2d({X}, (3, 2))"),
    ("ops.adaptive_max_pool2d", f"ops.adaptive_max_pool2d({X}, 3)"),
    ("ops.batch_norm eval", f"ops.batch_norm({X}, Tensor(r((3,), 2)), Tensor(np.abs(r((3,), 3)) + 0.5), "
     "Tensor(r((3,), 4)), Tensor(r((3,), 5)))"),
    ("ops.group_norm", "ops.group_norm(Tensor(r((2, 6, 2, 3), 30)), 2, Tensor(r((6,), 4)), Tensor(r((6,), 5)))"),
    ("ops.BatchNorm eval", f"ops.BatchNorm(momentum=0.2)({X}, Tensor(r((3,), 4)), Tensor(r((3,), 5)), "
     "Parameter(Tensor(r((3,), 2)), name='m'), Parameter(Tensor(np.abs(r((3,), 3)) + 0.5), name='v'))"),
    ("ops.BatchNorm train", f"(lambda m, v: ops.BatchNorm(True, momentum=0.2)({X}, Tensor(r((3,), 4)), "
     "Tensor(r((3,), 5)), m, v) + (m.value(), v.value()))(Parameter(Tensor(r((3,), 2)), name='m'), "
     "Parameter(Tensor(np.abs(r((3,), 3)) + 0.5), name='v'))"),
    ("ops.LayerNorm", f"ops.LayerNorm(2, 2)({X}, Tensor(r((4, 4), 4)), Tensor(r((4, 4), 5)))"),
    ("ops.Conv2D", f"ops.Conv2D(4, 3, pad_mode='pad', pad=1, stride=2)({X}, Tensor(r((4, 3, 3, 3), 7)))"),
    ("ops.MaxPool same", f"ops.MaxPool(3, 2, 'SAME')({X})"),
    ("ops.AvgPool same", f"ops.AvgPool(3, 2, 'same')({X})"),
    ("ops.topk", f"ops.topk({T35}, 2)"),
    ("ops.topk dim0 smallest", f"ops.topk({T35}, 2, dim=0, largest=False)"),
    ("ops.TopK", f"ops.TopK()({T35}, 3)"),
    ("ops.leaky_relu", f"ops.leaky_relu({T35}, 0.3)"),
    ("ops.elu", f"ops.elu({T35})"),
    ("ops.silu", f"ops.silu({T35})"),
    ("ops.mish", f"ops.mish({T35})"),
    ("ops.softplus", f"ops.softplus({T35}, 2)"),
    ("ops.hardswish", f"ops.hardswish({T35} * 4)"),
    ("ops.hardsigmoid", f"ops.hardsigmoid({T35} * 4)"),
    ("ops.logsigmoid", f"ops.logsigmoid({T35})"),
    ("ops.softsign", f"ops.softsign({T35})"),
    ("ops.threshold", f"ops.threshold({T35}, 0.2, -1.0)"),
    ("ops.prelu", f"ops.prelu(Tensor(r((2, 3, 4), 12)), Tensor(np.array([0.1, 0.2, 0.3], np.float32)))"),
    ("ops.cross_entropy", f"ops.cross_entropy({LOGITS}, {INDICES}, label_smoothing=0.1)"),
    ("ops.nll_loss", f"ops.nll_loss(ops.log_softmax({LOGITS}, 1), {INDICES}, ignore_index=4, reduction='sum')"),
    ("ops.binary_cross_entropy", f"ops.binary_cross_entropy({PRED}, {TARGET01}, reduction='sum')"),
    ("ops.binary_cross_entropy_with_logits", f"ops.binary_cross_entropy_with_logits(Tensor(r((3, 4), 15)), "
     f"{TARGET01}, Tensor(r((3, 4), 18) ** 2), Tensor(np.array([1, 2, 3, 0.5], np.float32)))"),
    ("ops.smooth_l1_loss", "ops.smooth_l1_loss(Tensor(r((3, 4), 15)), Tensor(r((3, 4), 16)), 0.5, 'sum')"),
    ("ops.huber_loss", "ops.huber_loss(Tensor(r((3, 4), 15) * 2), Tensor(r((3, 4), 16)), 'none', 0.7)"),
    ("ops.kl_div batchmean", f"ops.kl_div(ops.log_softmax({LOGITS}, 1), {PROBS}, 'batchmean')"),
    ("ops.cosine_embedding_loss", "ops.cosine_embedding_loss(Tensor(r((3, 4), 15)), Tensor(r((3, 4), 16)), "
     "Tensor(np.array([1, -1, 1]), ms.int32), 0.1, 'sum')"),
    ("ops.select", "ops.select(Tensor(np.array([True, False, True])), Tensor(r((3,), 1)), Tensor(r((3,), 2)))"),
    ("ops.depend", "ops.depend(Tensor(r((3,), 1)), Tensor(r((3,), 2)))"),
    ("ops.Depend", "ops.Depend()(Tensor(r((3,), 1)), Tensor(r((3,), 2)))"),
    ("ops.clip_by_value", f"ops.clip_by_value({T35}, -0.5, 0.5)"),
    ("ops.clip_by_value list", f"tuple(ops.clip_by_value([{T35}, Tensor(r((2,), 3))], -0.5, 0.5))"),
    ("ops.clip_by_global_norm", f"ops.clip_by_global_norm(({T35}, Tensor(r((2,), 3))), 1.5)"),
    ("ops.dropout eval", f"ops.dropout({T35}, 0.5, training=False)"),
    ("ops.one_hot", f"ops.one_hot({INDICES}, 5, Tensor(2.0, ms.float32), Tensor(-1.0, ms.float32))"),
    ("ops.gather", f"ops.gather({T35}, {INDICES}, 1)"),
    ("ops.argmax", f"ops.argmax({T35}, 1)"),
]


def function_namespace(framework) -> dict:
    """:func:`namespace` plus ``Parameter``."""
    return {**namespace(framework), "Parameter": framework.Parameter}
