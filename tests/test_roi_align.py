"""P.ROIAlign: outputs and feature gradients against MindSpore 2.10's (tests/fixtures/mindspore_roi_align.npz,
written by tools/observe_mindspore_roi_align.py), eager and compiled, gradients against central differences,
no gradient to the boxes (as MindSpore's), and MindSpore's errors."""
import os
import sys

import numpy as np
import pytest

import npspore as ms
from npspore import ops, Tensor
from npspore.ops import operations as P, roi_align
from npspore.testing import check_grads

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))
from recorded_values import check_array, recorded_fixture  # noqa: E402
from observe_mindspore_roi_align import CASES, evaluate, inputs  # noqa: E402

RECORDED = recorded_fixture("mindspore_roi_align")


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_mindspore(name):
    check_array(evaluate(ms, name), RECORDED[name], rtol=1e-5, atol=1e-6)


def test_spot_values_mindspore_printed():
    # MindSpore 2.10 printed ROIAlign(2, 3, 1.0, 2) of these inputs: -6.3156325e-01 first; the box wholly
    # outside the map ([1, -3, -3, -1.5, -2]) pools to zeros
    out = evaluate(ms, "bins_2x3")
    assert abs(out[0, 0, 0, 0] - (-0.63156325)) < 1e-6
    assert not out[3].any()


def test_compiled_matches_eager_and_boxes_get_no_gradient():
    features, rois = (Tensor(a) for a in inputs())
    prim = P.ROIAlign(2, 3, 1.0, 2)

    def loss(x, boxes):
        return (prim(x, boxes) ** 2).sum()

    np.testing.assert_allclose(ms.jit(prim.__call__)(features, rois).asnumpy(), RECORDED["bins_2x3"], rtol=1e-5,
                               atol=1e-6)
    grad_features, grad_rois = ms.jit(ops.grad(loss, grad_position=(0, 1)))(features, rois)
    np.testing.assert_allclose(grad_features.asnumpy(), RECORDED["grad_bins_2x3"], rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(grad_rois.asnumpy(), np.zeros((5, 5), np.float32))   # MindSpore 2.10: zeros


def test_end_mode_0_gradient_is_the_derivative_of_mindsporess_output():
    # MindSpore 2.10's own gradient here is not the derivative of its output; the central differences
    # (step 1e-2, float64 sums) of its outputs at these features were -0.15749034, -0.18557888, 0.0, 0.10989707
    features, rois = (Tensor(a) for a in inputs())
    prim = P.ROIAlign(2, 2, 0.5, 3, 0)

    def loss(x):
        return (prim(x, rois) ** 2).sum()

    grad = ops.grad(loss)(features).asnumpy()
    got = [grad[0, 0, 0, 1], grad[0, 0, 0, 2], grad[1, 0, 0, 5], grad[1, 0, 1, 1]]
    np.testing.assert_allclose(got, [-0.15749034, -0.18557888, 0.0, 0.10989707], atol=2e-5)


ROIS = Tensor(inputs()[1])


def _pooled_norm(x):
    return (roi_align._roi_align(x, ROIS, 2, 2, 0.5, 2, 0) ** 2).sum()


def test_feature_gradients_against_central_differences():
    # the composition itself, in float64 (the primitive takes float16/float32 only, as MindSpore's)
    check_grads(_pooled_norm, [inputs()[0].astype(np.float64)], order=1)


@pytest.mark.parametrize("build, error, message", [
    (lambda: P.ROIAlign(2.0, 2, 0.5), TypeError, "For 'ROIAlign', the type of 'pooled_height' should be 'int', but "
                                                 "got type 'float'."),
    (lambda: P.ROIAlign(2, 2, 1), TypeError, "For 'ROIAlign', the type of 'spatial_scale' should be 'float', but got "
                                             "type 'int'."),
    (lambda: P.ROIAlign(2, 2, 0.5, roi_end_mode=2), ValueError, r"For 'ROIAlign', the 'roi_end_mode' must be in range "
                                                               r"of \[0, 1\], but got 2 with type 'int'."),
    (lambda: P.ROIAlign(2, 2, 0.5)(Tensor(inputs()[0]), Tensor(inputs()[1][:, 1:])), ValueError,
     r"The argument\[second dim of rois shape\] must be equal to 5, but got 4."),
    (lambda: P.ROIAlign(2, 2, 0.5)(Tensor(inputs()[0].astype(np.float64)), Tensor(inputs()[1])), TypeError,
     r"For primitive\[ROIAlign\], the input argument\[feature\] must be a type of \{Tensor\[Float16\], "
     r"Tensor\[Float32\]\}, but got Tensor\[Float64\]."),
    (lambda: P.ROIAlign(2, 2, 0.5, sample_num=0), ValueError, "adaptive sampling"),
])
def test_mindspore_errors(build, error, message):
    with pytest.raises(error, match=message):
        build()


def test_repr():
    assert repr(P.ROIAlign(2, 2, 0.5)) == ("Prim[ROIAlign]<pooled_height=2, pooled_width=2, spatial_scale=0.5, "
                                           "sample_num=2, roi_end_mode=1>")   # MindSpore 2.10's
