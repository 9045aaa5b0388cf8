"""``ops.CTCLoss`` (the primitive): MindSpore 2.10's losses and gradient outputs, eagerly and compiled, and the
gradient of the composition against central differences.

The values were printed by MindSpore 2.10 (``tools/observe_mindspore_ctc.py``, whose cases these tests run):
the docstring example (its labels are the blank, which MindSpore drops: an empty label sequence, with
MindSpore's likelihood of it), labels with repeats and sequences shorter than the input, impossible alignments
(loss inf, gradient 0), float64, and ``ms.grad`` of a weighted sum of the losses.
"""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

import npspore as ms
from npspore import Tensor
from npspore.ops import operations as P
from npspore.testing import check_grads

_spec = importlib.util.spec_from_file_location(
    "observe_mindspore_ctc", Path(__file__).parent.parent / "tools" / "observe_mindspore_ctc.py")
observe = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(observe)

INF = float("inf")
# MindSpore 2.10, tools/observe_mindspore_ctc.py (rounded to 6 decimals)
DOCSTRING_LOSS = [0.79628, 0.599516]
DOCSTRING_GRADIENT = [[[0.270291, 0.364855, -0.635145], [0.281408, 0.254629, -0.536037]],
                      [[0.475485, 0.288396, 0.045103], [0.408275, 0.408275, 0.028437]]]
CASES = {
    'two labels, repeats, one label': (
        [1.961358, 7.099886, 1.726199],
        [[[0.001714, 0.076946, 0.137234, -0.215894], [0.628744, -0.963442, 0.251201, 0.083497],
          [0.114955, 0.192165, -0.068603, -0.238517]],
         [[-0.372741, 0.175135, 0.250409, -0.052803], [0.630782, 0.115321, 0.19363, -0.939733],
          [0.016051, 0.396382, -0.418238, 0.005805]],
         [[-0.080174, -0.007703, 0.088814, -0.000937], [0.399066, -0.625457, 0.100614, 0.125777],
          [0.169724, 0.056892, -0.135408, -0.091208]],
         [[0.418967, -0.585092, 0.083111, 0.083014], [0.0, 0.0, 0.0, 0.0],
          [0.162016, 0.174038, 0.016361, -0.352414]]]),
    'longer than the input, ignored': (
        [INF, 4.162558, 3.19456],
        [[[0.0, 0.0, 0.0, 0.0], [0.628744, 0.036558, -0.503552, -0.16175],
          [0.114955, 0.192165, 0.147201, -0.454321]],
         [[0.0, 0.0, 0.0, 0.0], [0.630782, 0.115321, -0.665175, -0.080929],
          [0.016051, 0.396382, 0.489408, -0.90184]],
         [[0.0, 0.0, 0.0, 0.0], [0.399066, 0.374543, -0.316528, -0.457081],
          [0.169724, 0.056892, 0.29121, -0.517826]],
         [[0.0, 0.0, 0.0, 0.0], [0.044884, 0.030957, 0.011811, -0.087652],
          [0.162016, 0.174038, 0.077057, 0.217053]]]),
    'no time for the blank': (
        [INF, 6.722831, 3.19456],
        [[[0.0, 0.0, 0.0, 0.0], [0.628744, 0.036558, 0.251201, -0.916503],
          [0.114955, 0.192165, 0.147201, -0.454321]],
         [[0.0, 0.0, 0.0, 0.0], [0.630782, 0.115321, 0.19363, -0.939733], [0.016051, 0.396382, 0.489408, -0.90184]],
         [[-0.080174, -0.007703, 0.088814, -0.000937], [0.399066, 0.374543, 0.100614, -0.874224],
          [0.169724, 0.056892, 0.29121, -0.517826]],
         [[0.418967, -0.585092, 0.083111, 0.083014], [0.044884, 0.030957, 0.023251, 0.426972],
          [0.162016, 0.174038, 0.077057, 0.217053]]]),
}
GRAD = [[[0.001714, 0.076946, 0.137234, -0.215894], [1.257488, -1.926885, 0.502403, 0.166994],
         [0.344864, 0.576496, -0.205809, -0.715551]],
        [[-0.372741, 0.175135, 0.250409, -0.052803], [1.261563, 0.230643, 0.38726, -1.879466],
         [0.048153, 1.189146, -1.254713, 0.017414]],
        [[-0.080174, -0.007703, 0.088814, -0.000937], [0.798132, -1.250914, 0.201229, 0.251554],
         [0.509171, 0.170677, -0.406225, -0.273623]],
        [[0.418967, -0.585092, 0.083111, 0.083014], [0.0, 0.0, 0.0, 0.0],
         [0.486047, 0.522113, 0.049083, -1.057243]]]


def _docstring_call(ctc):
    return ctc(Tensor(np.array(observe.DOCSTRING_X, np.float32)), Tensor(np.array([[0, 0], [1, 0]]), ms.int64),
               Tensor(np.array([2, 2]), ms.int32), Tensor(np.array([2, 2]), ms.int32))


def test_docstring_example():
    ctc = P.CTCLoss()
    loss, gradient = _docstring_call(ctc)
    np.testing.assert_allclose(loss.asnumpy(), DOCSTRING_LOSS, atol=2e-6)
    np.testing.assert_allclose(gradient.asnumpy(), DOCSTRING_GRADIENT, atol=2e-6)
    assert repr(ctc) == ("Prim[CTCLoss]<preprocess_collapse_repeated=False, ctc_merge_repeated=True, "
                         "ignore_longer_outputs_than_inputs=False>")


@pytest.mark.parametrize("name", list(observe.CASES))
def test_cases_are_mindspores(name):
    loss, gradient = observe.run(ms, name)
    expected_loss, expected_gradient = CASES[name]
    np.testing.assert_allclose(loss, expected_loss, rtol=1e-6, atol=2e-6)
    # MindSpore's kernel leaves the rows past a sequence's end unwritten (they held an earlier call's values)
    written = np.arange(4)[:, None] < np.array(observe.CASES[name][2])[None, :]
    np.testing.assert_allclose(gradient[written], np.array(expected_gradient)[written], atol=2e-6)
    assert not gradient[~written].any()


def test_float64_and_compiled():
    loss, gradient = observe.run(ms, "two labels, repeats, one label", np.float64)
    assert (loss.dtype, gradient.dtype) == (np.float64, np.float64)
    np.testing.assert_allclose(loss, CASES["two labels, repeats, one label"][0], atol=1e-6)
    compiled = ms.jit(lambda x: _docstring_call(P.CTCLoss())[0] + x)
    np.testing.assert_allclose(compiled(Tensor(np.zeros(2, np.float32))).asnumpy(), DOCSTRING_LOSS, atol=2e-6)


def test_gradient_of_the_loss_is_mindspores_and_central_differences():
    loss = observe.weighted_loss(ms)
    dx = ms.grad(loss)(Tensor(observe.logits())).asnumpy()
    np.testing.assert_allclose(dx, GRAD, atol=5e-6)
    check_grads(loss, (Tensor(observe.logits().astype(np.float64)),), order=2, modes=("pynative",))


def test_errors():
    with pytest.raises(TypeError, match="For 'CTCLoss', the type of 'ctc_merge_repeated' should be 'bool'"):
        P.CTCLoss(ctc_merge_repeated=1)
    with pytest.raises(NotImplementedError, match="not implemented in npspore"):
        P.CTCLoss(preprocess_collapse_repeated=True)
    x = Tensor(observe.logits())
    with pytest.raises(ValueError, match="For 'CTCLoss', the dimension of 'labels_indices' must be 2, but got 1."):
        P.CTCLoss()(x, Tensor(np.array([0]), ms.int64), Tensor(np.array([0]), ms.int32),
                    Tensor(np.array([4, 4, 4]), ms.int32))
    with pytest.raises(TypeError, match="'labels_values' and 'sequence_length' int32"):
        P.CTCLoss()(x, Tensor(np.array([[0, 0]]), ms.int64), Tensor(np.array([0]), ms.int64),
                    Tensor(np.array([4, 4, 4]), ms.int32))
