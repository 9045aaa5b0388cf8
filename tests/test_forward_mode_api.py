"""ops.jvp, vjp, jacfwd, jacrev, linearize, derivative and nn.Jvp / nn.Vjp against MindSpore 2.10.

The examples are the docstrings' of MindSpore 2.10's wheel (``mindspore/ops/function/grad/grad_func.py``,
version 2.10.0; ``nn.Jvp``/``nn.Vjp`` have none there, so their MindSpore 1.6 API page's example),
kept as programs in ``transform_examples.py``; what MindSpore 2.10.0 printed for each, and for each
refused call, is in ``golden/mindspore_transforms.json`` (``tools/observe_mindspore_transforms.py``).
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import runpy

import numpy as np
import pytest

import npspore as ms
from npspore import ops
from npspore.import_hook import mindspore_imports
from transform_examples import ERRORS, EXAMPLES, error_script

RECORDED = json.load(open(os.path.join(os.path.dirname(__file__), "golden", "mindspore_transforms.json")))


def printed(script: str, folder) -> str:
    path = os.path.join(folder, "example.py")
    with open(path, "w") as f:
        f.write(script)
    out = io.StringIO()
    with mindspore_imports(), contextlib.redirect_stdout(out):
        runpy.run_path(path, run_name="__example__")
    return out.getvalue()


def test_recorded_with_mindspore_2_10():
    assert RECORDED["mindspore"] == "2.10.0"


@pytest.mark.parametrize("name", sorted(set(EXAMPLES) - {"derivative"}))
def test_docstring_example_prints_what_mindspore_prints(name, tmp_path):
    assert printed(EXAMPLES[name], tmp_path) == RECORDED["examples"][name]


def test_derivative_example_matches_mindspore_to_float32_rounding(tmp_path):
    # MindSpore's Taylor mode and nested forward mode round differently in the last float32 digit
    # (3.6724353 against 3.6724348): the values are compared, the layout exactly
    got, want = printed(EXAMPLES["derivative"], tmp_path), RECORDED["examples"]["derivative"]

    def numbers(text):
        return np.array([float(t) for t in text.replace("[", " ").replace("]", " ").split()])

    np.testing.assert_allclose(numbers(got), numbers(want), rtol=2e-6)
    assert got.count("\n") == want.count("\n")


def test_refused_calls_raise_mindspore_errors(tmp_path):
    lines = printed(error_script(), tmp_path).splitlines()[-len(ERRORS):]
    for case, line in zip(ERRORS, lines):
        want = RECORDED["errors"][case]
        if case == "jvp: v of a shape that does not broadcast":
            # MindSpore reports it from inside the first op's backward ("Bprop "Mul" encounter a
            # problem ..."); npspore at the call, with the same type, naming both shapes
            assert line.startswith("ValueError: For 'jvp', the shape of a tangent [3, 3] does not broadcast"), line
            assert want.startswith("ValueError:")
            continue
        assert line == want, case


def test_jvp_is_importable_where_mindspore_has_it():
    assert ms.jvp is ops.jvp is ops.functional.jvp
    assert ms.vjp is ops.vjp and ms.jacfwd is ops.jacfwd and ms.jacrev is ops.jacrev
    assert ops.linearize is ops.functional.linearize and ops.derivative is ops.functional.derivative
    assert ms.nn.Jvp and ms.nn.Vjp


def test_jvp_with_a_tangent_of_the_wrong_dtype_is_refused_before_compiling():
    x = ms.Tensor(np.ones((2, 2), np.float32))
    with pytest.raises(TypeError, match="Type Join Failed: dtype1 = Float64, dtype2 = Float32."):
        ops.jvp(lambda a: a * a, x, ms.Tensor(np.ones((2, 2))))


def test_jvp_has_aux_single_output_is_refused():
    x = ms.Tensor(np.ones((2, 2), np.float32))

    def single(a):
        return a * a

    with pytest.raises(ValueError, match="requires more than one outputs"):
        ops.jvp(single, x, x, has_aux=True)


def square(b):
    return b * b


def test_jvp_inside_compiled_code_refuses_a_tangent_of_another_shape():
    x = ms.Tensor(np.ones((2, 2), np.float32))

    @ms.jit
    def directional(a, t):
        return ops.jvp(square, (a,), (t,))[1]

    np.testing.assert_allclose(directional(x, x).asnumpy(), 2 * np.ones((2, 2)))
    # a tangent that broadcasts to its input is broadcast, as MindSpore's ops broadcast it
    np.testing.assert_allclose(directional(x, ms.Tensor(np.full(2, 3, np.float32))).asnumpy(), 6 * np.ones((2, 2)))
    with pytest.raises(ValueError, match=r"the shape of a tangent \[3\] does not broadcast to the shape of its "
                                         r"input \[2, 2\]") as caught:
        directional(x, ms.Tensor(np.ones(3, np.float32)))
    assert "test_forward_mode_api.py" in str(caught.value)   # at the user's line


def test_a_jvp_function_called_with_a_tangent_of_another_dtype_is_refused():
    x = ms.Tensor(np.ones((2, 2), np.float32))
    function = ms.derivatives.JvpFunction(lambda a: a * a, ms.compiler.jvpspec.JvpSpec())
    with pytest.raises(TypeError, match="Type Join Failed: dtype1 = Float64, dtype2 = Float32."):
        function(x, ms.Tensor(np.ones((2, 2))))


def test_cli_show_jvp_prints_the_forward_mode_kernel(capsys):
    from npspore.cli import main
    assert main(["show", "npspore.examples:MLP", "--input", "f32[8,4]", "--jvp", "--no-color"]) == 0
    text = capsys.readouterr().out
    assert "# kernel: jvp" in text and "def MLP_construct_jvp(x, x_dot," in text
    assert "relu_dot" in text and "return (fc2, fc2_dot)" in text
    assert main(["show", "npspore.examples:MLP", "--input", "f32[8,4]", "--jvp", "--grad"]) == 2


# --- forward mode through a Cell with a custom bprop: MindSpore 2.10 uses the bprop (its transpose)

BPROP_MATRIX = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)


class MixedBprop(ms.nn.Cell):
    """A bprop that is not the derivative of construct, not symmetric, reading an input and the output."""

    def __init__(self):
        super().__init__()
        self.m = ms.Tensor(BPROP_MATRIX)

    def construct(self, x, y):
        return ops.sin(x) * y

    def bprop(self, x, y, out, dout):
        return ops.matmul(dout, self.m) * x, dout * out


class CallsMixedBprop(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = MixedBprop()

    def construct(self, x, y):
        return self.inner(x * 2.0, y) + y


# What MindSpore 2.10.0 (CPU, GRAPH_MODE; PYNATIVE gives the same) printed for these calls, rounded to 5 digits:
# x = [0.5, -1.0], y = [2.0, 3.0], tangents vx = [1, 0], vy = [0, 1].
BPROP_RECORDED = {
    MixedBprop: {"out": [0.95885, -2.52441], "jvp": [0.5, -1.02441], "jvp x only": [0.5, 1.5],
                 "jacobian": ([[0.5, -2.0], [1.5, -4.0]], [[0.95885, 0.0], [0.0, -2.52441]])},
    CallsMixedBprop: {"out": [3.68294, 0.27211], "jvp": [2.0, 4.27211], "jvp x only": [2.0, 6.0],
                      "jacobian": ([[2.0, -8.0], [6.0, -16.0]], [[2.68294, 0.0], [0.0, -1.72789]])},
}


@pytest.mark.parametrize("cell", [MixedBprop, CallsMixedBprop])
def test_forward_mode_through_a_custom_bprop_is_mindspores(cell):
    net = cell()
    x, y = ms.Tensor(np.array([0.5, -1.0], np.float32)), ms.Tensor(np.array([2.0, 3.0], np.float32))
    vx, vy = ms.Tensor(np.array([1.0, 0.0], np.float32)), ms.Tensor(np.array([0.0, 1.0], np.float32))
    want = BPROP_RECORDED[cell]
    out, tangent = ops.jvp(net, (x, y), (vx, vy))
    np.testing.assert_allclose(out.asnumpy(), want["out"], atol=1e-5)
    np.testing.assert_allclose(tangent.asnumpy(), want["jvp"], atol=1e-5)
    np.testing.assert_allclose(ops.jvp(net, (x, y), (vx, ops.zeros_like(vy)))[1].asnumpy(), want["jvp x only"],
                               atol=1e-5)
    for transform in (ops.jacfwd, ops.jacrev):
        for found, expected in zip(transform(net, grad_position=(0, 1))(x, y), want["jacobian"]):
            np.testing.assert_allclose(found.asnumpy(), expected, atol=1e-5)


class DebugBprop(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.bprop_debug = True

    def construct(self, x):
        return x * 3.0

    def bprop(self, x, out, dout):
        return (dout * 2.0,)


def test_forward_mode_through_a_python_bprop_is_refused_at_the_call_of_the_cell():
    net = DebugBprop()

    def f(x):
        return net(x) + 1.0   # the line the error names

    with pytest.raises(RuntimeError, match="bprop_debug") as info:
        ops.jvp(f, ms.Tensor(np.ones(2, np.float32)), ms.Tensor(np.ones(2, np.float32)))
    assert "return net(x) + 1.0" in str(info.value)
