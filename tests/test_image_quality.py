"""nn.SSIM and nn.PSNR against MindSpore 2.10's outputs (tests/fixtures/mindspore_image_quality.npz, written by
tools/observe_mindspore_image_quality.py), compiled as well as eager, the SSIM gradient against MindSpore's and
central differences, and MindSpore's errors."""
import os
import sys

import numpy as np
import pytest

import npspore as ms
from npspore import nn, Tensor
from npspore.nn import image_quality
from npspore.testing import check_grads

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))
from recorded_values import check_array, recorded_fixture  # noqa: E402
from observe_mindspore_image_quality import CASES, evaluate, images  # noqa: E402

RECORDED = recorded_fixture("mindspore_image_quality")


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_mindspore(name):
    check_array(evaluate(ms, name), RECORDED[name], rtol=2e-6, atol=1e-7)


def test_mindspore_doc_example_and_printed_values():
    # MindSpore 2.10 printed [-6.0206] for its PSNR example (int64 images) and [0.9352003 0.9525183] for SSIM()
    out = nn.PSNR()(Tensor([[[[1, 2, 3, 4], [1, 2, 3, 4]]]]), Tensor([[[[3, 4, 5, 6], [3, 4, 5, 6]]]]))
    np.testing.assert_allclose(out.asnumpy(), [-6.0206], rtol=1e-5)
    np.testing.assert_allclose(evaluate(ms, "ssim"), [0.9352003, 0.9525183], rtol=1e-6)


def test_compiled_matches_mindspore():
    a, b = images()
    ssim, psnr = ms.jit(nn.SSIM()), ms.jit(nn.PSNR())
    np.testing.assert_allclose(ssim(Tensor(a), Tensor(b)).asnumpy(), RECORDED["ssim"], rtol=2e-6)
    np.testing.assert_allclose(psnr(Tensor(a), Tensor(b)).asnumpy(), RECORDED["psnr"], rtol=2e-6)


WINDOW64 = Tensor(image_quality._gaussian_window(5, 1.5).astype(np.float64))


def _ssim_loss(x, y):
    return image_quality._ssim(x, y, WINDOW64, 0.01 ** 2, 0.03 ** 2).sum()


def test_ssim_gradient_against_central_differences():
    # SSIM's composition in float64 (the layer takes float32/float16 images only, as MindSpore's)
    a, b = images()
    check_grads(_ssim_loss, [a[:1, :2, :7, :6].astype(np.float64), b[:1, :2, :7, :6].astype(np.float64)], order=1)


A, B = (Tensor(x) for x in images())


@pytest.mark.parametrize("build, error, message", [
    (lambda: nn.SSIM()(Tensor((images()[0] * 255).astype(np.uint8)), Tensor((images()[1] * 255).astype(np.uint8))),
     TypeError, r"For 'SSIM', the 'img1' should be one of \[mindspore.float32, mindspore.float16\], but got "
                r"'mindspore.uint8'."),
    (lambda: nn.SSIM()(A[0], B[0]), ValueError, "For 'SSIM', the dimension of 'img1' must be 4d, but got 3."),
    (lambda: nn.SSIM(filter_size=17)(A, B), ValueError,
     r"For 'SSIM', the img1 shape\[2\] should be >= filter_size: 17, but got 16."),
    (lambda: nn.SSIM()(A, B[:, :2]), ValueError,
     r"For 'SameTypeShape', the x shape should be = y shape: \(2, 2, 16, 14\), but got \(2, 3, 16, 14\)."),
    (lambda: nn.PSNR()(A[0], B[0]), ValueError, "For 'PSNR', the dimension of 'img1' must be 4d, but got 3."),
    (lambda: nn.PSNR()(A, B.astype(ms.float16)), TypeError,
     "For 'SameTypeShape', the x dtype should be = y dtype: Float16, but got Float32."),
    (lambda: nn.PSNR(max_val=0), ValueError, r"For 'PSNR', the argument 'max_val' must > 0.0, but got 0."),
    (lambda: nn.PSNR(max_val="1"), TypeError,
     r"For 'PSNR', the type of 'max_val' should be one of '\['int', 'float'\]', but got type 'str'."),
    (lambda: nn.SSIM(filter_size=0), ValueError,
     "For 'SSIM', the 'filter_size' must be int and must >= 1, but got '0' with type 'int'."),
    (lambda: nn.SSIM(filter_sigma=0.0), ValueError,
     "For 'SSIM', the 'filter_sigma' must be float and must > 0, but got '0.0' with type 'float'."),
    (lambda: nn.SSIM(filter_sigma=1), TypeError, "For 'SSIM', the 'filter_sigma' must be float, but got 'int'"),
    (lambda: nn.SSIM(k1=1), TypeError, "For 'SSIM', the type of 'k1' should be 'float', but got type 'int'."),
])
def test_mindspore_errors(build, error, message):
    with pytest.raises(error, match=message):
        build()
