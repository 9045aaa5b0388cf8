"""Image-quality measures, as ``mindspore.nn``: ``SSIM`` (structural similarity) and ``PSNR`` (peak
signal-to-noise ratio) of two batches of images, one value per image.

Both compute as MindSpore's do: in float32, integer images (and ``max_val`` with them) scaled by the
largest value of their dtype; SSIM with a Gaussian window applied to each channel without padding.
Both are written over differentiable ops, so SSIM serves as a training loss. ``PixelShuffle``
and ``CentralCrop``, the other layers of MindSpore's ``nn.layer.image`` npspore has, are here too.
"""
from __future__ import annotations

import numpy as np

from npspore._checkparam import check_positive_float, check_value_type
from npspore.common import dtype as mstype
from npspore.common.tensor import Tensor
from npspore.nn.cell import Cell
from npspore.ops import nn_functional as F
from npspore.ops.eager import run

__all__ = ["SSIM", "PSNR", "PixelShuffle", "CentralCrop"]


def _check_max_val(max_val, cls_name):
    check_value_type("max_val", max_val, [int, float], cls_name)
    if max_val <= 0:
        raise ValueError(f"For '{cls_name}', the argument 'max_val' must > 0.0, but got {max_val}.")
    return max_val


def _check_pair(img1, img2, cls_name):
    """MindSpore's checks of the two images: 4-D, of one dtype and shape."""
    for name, img in (("img1", img1), ("img2", img2)):
        if len(img.shape) != 4:
            raise ValueError(f"For '{cls_name}', the dimension of '{name}' must be 4d, but got {len(img.shape)}.")
    if img1.dtype != img2.dtype:
        raise TypeError(f"For 'SameTypeShape', the x dtype should be = y dtype: {img2.dtype}, but got {img1.dtype}.")
    if img1.shape != img2.shape:
        raise ValueError(f"For 'SameTypeShape', the x shape should be = y shape: {img2.shape}, but got {img1.shape}.")


def _as_float32(img, max_val):
    """``img`` and ``max_val`` in float32, divided by the largest value of ``img``'s dtype when it is an
    integer dtype (MindSpore's ``_convert_img_dtype_to_float32``)."""
    dtype = img.dtype
    img = run("cast", img, dtype=np.float32)
    if dtype in mstype.float_type:
        return img, float(np.float32(max_val))
    scale = np.float32(1.0 / float(np.iinfo(mstype.dtype_to_nptype(dtype)).max))
    return img * scale, float(np.float32(max_val) * scale)


def _gaussian_window(size, sigma):
    """MindSpore's SSIM window: a ``(1, 1, size, size)`` float32 Gaussian summing to one."""
    y, x = np.mgrid[-size // 2 + 1:size // 2 + 1, -size // 2 + 1:size // 2 + 1]
    g = np.exp(-(x.astype(np.float32) ** 2 + y.astype(np.float32) ** 2) / (2 * sigma ** 2))
    return (g / np.sum(g)).astype(np.float32)[None, None]


class SSIM(Cell):
    r"""The structural similarity of two batches of images, averaged over each image's channels and the
    positions of an 11 x 11 Gaussian window (Wang et al. 2004).

    Args:
        max_val (Union[int, float]): the dynamic range of the pixel values. Default: ``1.0``.
        filter_size (int): the window's size. Default: ``11``.
        filter_sigma (float): the window's standard deviation. Default: ``1.5``.
        k1 (float): the luminance constant. Default: ``0.01``.
        k2 (float): the contrast constant. Default: ``0.03``.

    Inputs:
        - **img1** (Tensor) - float32 or float16 :math:`(N, C, H, W)`, H and W at least `filter_size`.
        - **img2** (Tensor) - of `img1`'s dtype and shape.

    Outputs:
        Tensor, float32 :math:`(N,)`.

    Raises:
        TypeError, ValueError: for bad arguments or inputs, with MindSpore's messages.
    """

    def __init__(self, max_val: int | float = 1.0, filter_size: int = 11, filter_sigma: float = 1.5,
                 k1: float = 0.01, k2: float = 0.03) -> None:
        super().__init__()
        self.max_val = _check_max_val(max_val, "SSIM")
        if not isinstance(filter_size, int) or isinstance(filter_size, bool) or filter_size < 1:
            raise ValueError(f"For 'SSIM', the 'filter_size' must be int and must >= 1, but got '{filter_size}' with "
                             f"type '{type(filter_size).__name__}'.")
        if not isinstance(filter_sigma, float):
            raise TypeError(f"For 'SSIM', the 'filter_sigma' must be float, but got '{type(filter_sigma).__name__}'")
        if filter_sigma <= 0:
            raise ValueError(f"For 'SSIM', the 'filter_sigma' must be float and must > 0, but got '{filter_sigma}' "
                             f"with type 'float'.")
        self.filter_size, self.filter_sigma = filter_size, filter_sigma
        self.k1 = check_value_type("k1", k1, [float], "SSIM")
        self.k2 = check_value_type("k2", k2, [float], "SSIM")
        self.window = Tensor(_gaussian_window(filter_size, filter_sigma))

    def construct(self, img1, img2):
        if img1.dtype not in (mstype.float32, mstype.float16):
            raise TypeError(f"For 'SSIM', the 'img1' should be one of [mindspore.float32, mindspore.float16], but got "
                            f"'mindspore.{str(img1.dtype).lower()}'.")
        _check_pair(img1, img2, "SSIM")
        for axis in (2, 3):
            if img1.shape[axis] < self.filter_size:
                raise ValueError(f"For 'SSIM', the img1 shape[{axis}] should be >= filter_size: {self.filter_size}, "
                                 f"but got {img1.shape[axis]}.")
        x, max_val = _as_float32(img1, self.max_val)
        y, _ = _as_float32(img2, self.max_val)
        return _ssim(x, y, self.window, (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2)


def _blur(img, window):
    """Each channel of ``img`` correlated with ``window`` (no padding)."""
    n, c, h, w = img.shape
    out = F.conv2d(run("reshape", img, shape=(n * c, 1, h, w)), window)
    return run("reshape", out, shape=(n, c, out.shape[2], out.shape[3]))


def _ssim(x, y, window, c1, c2):
    """The SSIM of each image of ``x`` and ``y``, ``(N,)``: the index at each window position, averaged
    over the positions and then the channels."""
    mu1, mu2 = _blur(x, window), _blur(y, window)
    sigma1 = _blur(x * x, window) - mu1 * mu1
    sigma2 = _blur(y * y, window) - mu2 * mu2
    sigma12 = _blur(x * y, window) - mu1 * mu2
    ssim = ((2 * mu1 * mu2 + c1) * (2 * sigma12 + c2)) / ((mu1 * mu1 + mu2 * mu2 + c1) * (sigma1 + sigma2 + c2))
    per_channel = run("mean", run("reshape", ssim, shape=(x.shape[0], x.shape[1], -1)), axis=2)
    return run("mean", per_channel, axis=1)


class PSNR(Cell):
    r"""The peak signal-to-noise ratio of two batches of images: :math:`10 \log_{10}(max\_val^2 / MSE)` per image.

    Args:
        max_val (Union[int, float]): the dynamic range of the pixel values. Default: ``1.0``.

    Inputs:
        - **img1** (Tensor) - :math:`(N, C, H, W)`.
        - **img2** (Tensor) - of `img1`'s dtype and shape.

    Outputs:
        Tensor, float32 :math:`(N,)`.

    Raises:
        TypeError, ValueError: for bad arguments or inputs, with MindSpore's messages.
    """

    def __init__(self, max_val: int | float = 1.0) -> None:
        super().__init__()
        self.max_val = _check_max_val(max_val, "PSNR")

    def construct(self, img1, img2):
        _check_pair(img1, img2, "PSNR")
        x, max_val = _as_float32(img1, self.max_val)
        y, _ = _as_float32(img2, self.max_val)
        mse = run("mean", run("square", x - y), axis=(1, 2, 3))
        return 10 * run("log", max_val * max_val / mse) / float(np.log(10.0))


class PixelShuffle(Cell):
    r"""Rearranges :math:`(*, C r^2, H, W)` into :math:`(*, C, H r, W r)` (sub-pixel convolution's shuffle).

    Args:
        upscale_factor (int): :math:`r`, positive.

    Inputs:
        - **input** (Tensor) - at least 3-D, its third-to-last dim divisible by :math:`r^2`.

    Raises:
        ValueError: If `upscale_factor` is not a positive int, the input has fewer than 3 dims, or its channels do
            not divide by :math:`r^2`.
    """

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        if isinstance(upscale_factor, bool) or not isinstance(upscale_factor, int) or upscale_factor < 1:
            raise ValueError(f"For 'PixelShuffle', the 'upscale_factor' must be a positive int, but got "
                             f"{upscale_factor!r}.")
        self.upscale_factor = upscale_factor

    def construct(self, input: Tensor) -> Tensor:  # noqa: A002 - MindSpore's name
        r = self.upscale_factor
        shape = input.shape
        if len(shape) < 3:
            raise ValueError(f"For 'pixel_shuffle', the dimension of `input` should be larger than 2, but got "
                             f"{len(shape)}.")
        if shape[-3] % (r * r):
            raise ValueError("For 'pixel_shuffle', the length of third to last dimension is not divisibleby "
                             "`upscale_factor` squared.")
        batch = tuple(shape[:-3])
        c, h, w = shape[-3] // (r * r), shape[-2], shape[-1]
        n = len(batch)
        x = input.reshape(batch + (c, r, r, h, w))
        x = x.transpose(tuple(range(n)) + (n, n + 3, n + 1, n + 4, n + 2))
        return x.reshape(batch + (c, h * r, w * r))


class CentralCrop(Cell):
    """The centre of each image of a ``(C, H, W)`` or ``(N, C, H, W)`` input, `central_fraction` of its height and
    width (MindSpore's rounding: the crop starts at ``int((size - size * fraction) / 2)``).

    Args:
        central_fraction (float): in (0, 1].

    Raises:
        ValueError: If `central_fraction` is outside (0, 1], or the input is not 3-D or 4-D.
    """

    def __init__(self, central_fraction: float) -> None:
        super().__init__()
        if not isinstance(central_fraction, float) or not 0.0 < central_fraction <= 1.0:
            raise ValueError(f"For 'CentralCrop', the 'central_fraction' must be in range of (0.0, 1.0], but got "
                             f"{central_fraction} with type '{type(central_fraction).__name__}'.")
        self.central_fraction = central_fraction

    def construct(self, image: Tensor) -> Tensor:
        if len(image.shape) not in (3, 4):
            raise ValueError(f"For 'CentralCrop', the dimension of 'image' must be 3 or 4, but got shape "
                             f"{image.shape}.")
        if self.central_fraction == 1.0:
            return image
        height, width = image.shape[-2:]
        top = int((height - height * self.central_fraction) / 2)
        left = int((width - width * self.central_fraction) / 2)
        return image[..., top:height - top, left:width - left]
