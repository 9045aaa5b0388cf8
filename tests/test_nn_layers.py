"""Convolution, pooling, normalization, activation and loss layers against MindSpore 2.10 (CPU).

The cases are in ``nn_cases.py``; ``golden/mindspore_nn.json`` holds what MindSpore 2.10 CPU gave for
them (recorded by ``tools/observe_mindspore_nn.py``): outputs, gradients of ``sum(output ** 2)``
with respect to the float inputs and the trainable parameters, and the parameters after one call.
Each case runs eagerly and compiled (``ms.jit``) here; both must match MindSpore, and compiled must
equal eager.
"""
import json
import os

import numpy as np
import pytest

import npspore as ms
from nn_cases import CASES, FUNCTION_CASES, function_namespace, namespace

OBSERVED = json.load(open(os.path.join(os.path.dirname(__file__), "golden", "mindspore_nn.json")))
GOLDEN, FUNCTIONS = OBSERVED["cases"], OBSERVED["functions"]
ERROR_TYPES = {"ValueError": ValueError, "TypeError": TypeError, "RuntimeError": RuntimeError}


def build(layer_text, inputs_text, train):
    names = namespace(ms)
    layer = eval(layer_text, names)
    inputs = eval(inputs_text, names)
    layer.set_train(train)
    return layer, inputs


class SquaredSum(ms.nn.Cell):
    """``sum(layer(*xs) ** 2)``: a Cell, so that the layer's attributes are part of its compiled kernels' keys."""

    def __init__(self, layer):
        super().__init__()
        self.layer = layer

    def construct(self, *xs):
        return (self.layer(*xs) ** 2).sum()


def gradients(layer, inputs):
    positions = tuple(i for i, x in enumerate(inputs) if x.dtype in (ms.float16, ms.float32, ms.float64))
    weights = layer.trainable_params()
    grads = ms.grad(SquaredSum(layer), grad_position=positions, weights=weights or None)(*inputs)
    if weights:
        return tuple(grads[0]) + tuple(grads[1])
    return grads if isinstance(grads, tuple) else (grads,)


def close(actual, expected, what):
    np.testing.assert_allclose(np.asarray(actual, np.float64), np.asarray(expected, np.float64), rtol=2e-5,
                               atol=2e-5, err_msg=what)


@pytest.mark.parametrize("key, layer_text, inputs_text, train", CASES, ids=[c[0] for c in CASES])
def test_layer_matches_mindspore_eager_and_compiled(key, layer_text, inputs_text, train):
    expected = GOLDEN[key]
    if "error" in expected:
        with pytest.raises(ERROR_TYPES[expected["error"].split(":")[0]]):
            layer, inputs = build(layer_text, inputs_text, train)
            layer(*inputs)
        return
    layer, inputs = build(layer_text, inputs_text, train)
    out = layer(*inputs)
    assert list(out.shape) == expected["shape"]
    close(out.asnumpy(), expected["out"], f"{key}: output")
    close_state = {p.name: p.asnumpy().copy() for p in layer.get_parameters()}
    assert set(close_state) == set(expected["state"])
    for name, value in close_state.items():
        close(value, expected["state"][name], f"{key}: parameter {name} after the call")
    for i, (grad, want) in enumerate(zip(gradients(layer, inputs), expected["grads"], strict=True)):
        close(grad.asnumpy(), want, f"{key}: gradient {i}")

    compiled_layer, inputs = build(layer_text, inputs_text, train)
    compiled = ms.jit(compiled_layer)(*inputs)
    np.testing.assert_array_equal(compiled.asnumpy(), out.asnumpy(), err_msg=f"{key}: compiled != eager")
    for p in compiled_layer.get_parameters():
        np.testing.assert_array_equal(p.asnumpy(), close_state[p.name], err_msg=f"{key}: compiled {p.name}")


@pytest.mark.parametrize("key, expression", FUNCTION_CASES, ids=[c[0] for c in FUNCTION_CASES])
def test_function_matches_mindspore(key, expression):
    expected = FUNCTIONS[key]
    out = eval(expression, function_namespace(ms))
    assert isinstance(out, tuple) == expected["tuple"]
    outs = out if isinstance(out, tuple) else (out,)
    assert [str(o.dtype) for o in outs] == expected["dtypes"]
    for i, (value, want) in enumerate(zip(outs, expected["outs"], strict=True)):
        close(value.asnumpy(), want, f"{key}: output {i}")
