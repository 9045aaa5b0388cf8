"""``MixUpBatch``: each image of a batch blended with another image of the batch, and their one-hot labels alike,
as MindSpore 2.10's ``MixUpBatchOp`` computes it.

A weight ``lam = x1 / (x1 + x2)`` with ``x1``, ``x2`` drawn from ``Gamma(alpha, 1)`` (float32; ``lam`` follows
``Beta(alpha, alpha)``) and a permutation of the batch are drawn per batch; image ``i`` becomes
``lam * image[i] + (1 - lam) * image[perm[i]]`` (OpenCV's ``addWeighted``: float32 for integer images, rounded half
to even and saturated; double for float images) and label ``i`` likewise, in float32.
"""
from __future__ import annotations

import numpy as np

from .transforms import _random_generator

__all__ = ["MixUpBatch"]


class MixUpBatch:
    """Mix up a batch of images ``<N, H, W, C>`` or ``<N, C, H, W>`` (C 1 or 3) and its one-hot labels ``<N, C>``
    or ``<N, L, C>`` (see the module doc). Used in ``dataset.map`` with ``input_columns=["image", "label"]``
    after ``batch``.

    Args:
        alpha (float): the parameter of the Beta distribution of the weight, positive. Default: ``1.0``.

    Raises:
        TypeError: if ``alpha`` is not a number. ValueError: if it is not positive (MindSpore's messages).
        RuntimeError: (on a call) for images or labels of the wrong rank, shape or type.
    """

    def __init__(self, alpha=1.0) -> None:
        if isinstance(alpha, bool):
            raise TypeError(f"Argument alpha with value {alpha} is not of type (<class 'int'>, <class 'float'>), but "
                            f"got {type(alpha)}.")
        if not isinstance(alpha, (int, float)):
            raise TypeError(f"Argument alpha with value {alpha} is not of type [<class 'int'>, <class 'float'>], but "
                            f"got {type(alpha)}.")
        if alpha <= 0:
            raise ValueError("Input alpha must be greater than 0.")
        self.alpha = float(np.float32(alpha))
        self._rng = _random_generator()

    def __call__(self, images, labels):
        images, labels = np.asarray(images), np.asarray(labels)
        _check(images, labels)
        x1, x2 = (np.float32(self._rng.gamma(self.alpha)) for _ in range(2))
        lam = np.float32(x1 / (x1 + x2))
        order = self._rng.permutation(len(images))
        labels = labels.astype(np.float32)
        mixed_labels = lam * labels + (np.float32(1) - lam) * labels[order]
        if images.dtype.kind == "f":
            mixed = (float(lam) * images.astype(np.float64) + float(1 - lam) * images[order].astype(np.float64))
            return mixed.astype(images.dtype), mixed_labels
        mixed = images.astype(np.float32) * lam + images[order].astype(np.float32) * (np.float32(1) - lam)
        info = np.iinfo(images.dtype)
        return np.clip(np.rint(mixed), info.min, info.max).astype(images.dtype), mixed_labels


def _check(images, labels) -> None:
    """MindSpore's checks of the two columns, with its messages."""
    if images.ndim != 4 or images.shape[0] != labels.shape[0]:
        raise RuntimeError(f"MixUpBatch: rank of image shape should be: 4, but got: {images.ndim}, make sure image "
                           "shape are <H,W,C> or <C,H,W> and batched before calling MixUpBatch.")
    if labels.dtype.kind not in "iuf":
        raise RuntimeError(f"MixUpBatch: invalid label type, label must be in a numeric type, but got: {labels.dtype}. "
                           "You may need to perform OneHot first.")
    if labels.ndim not in (2, 3):
        raise RuntimeError("MixUpBatch: wrong labels shape. The second column (labels) must have a shape of NC or NLC "
                           "where N is the batch size, L is the number of labels in each row, and C is the number of "
                           "classes. labels must be in one-hot format and in a batch, but got rank: "
                           f"{labels.ndim}")
    if images.shape[1] not in (1, 3) and images.shape[3] not in (1, 3):
        raise RuntimeError("MixUpBatch: images shape should in <N,H,W,C> or <N,C,H,W>, got shape:<"
                           + ",".join(str(d) for d in images.shape) + ">")
