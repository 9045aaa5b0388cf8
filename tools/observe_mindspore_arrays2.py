"""Print MindSpore 2.10 CPU values for the arrays2 primitives of ``tests/test_arrays2.py`` (``CountNonZero``,
``FillV2``, ``InTopK``, ``InplaceSub``, ``InplaceUpdate``, ``ChannelShuffle``, ``HSVToRGB``, ``AdaptiveAvgPool3D``,
``AdaptiveMaxPool2D``, ``FillDiagonal``, ``InplaceIndexAdd``, ``HistogramFixedWidth``, ``BatchToSpace``,
``BatchToSpaceND``, ``ConfusionMatrix``, ``EmbeddingLookup``, ``CompareAndBitpack``, ``IndexPut``, ``AdjustHue``,
``AdjustSaturation``, ``Conv3D``): their docstring examples and one more case each (an ERROR line where MindSpore
2.10 CPU has no kernel; the test then keeps the docstring's values).

Run with the real MindSpore: ``/work/msvenv/bin/python tools/observe_mindspore_arrays2.py``; the values are kept
as literals in ``tests/test_arrays2.py``.
"""
import numpy as np
import mindspore
from mindspore import Tensor, ops
from mindspore.ops import operations as P


def show(label, compute):
    """Print ``label`` and the value(s) ``compute()`` returns with their dtype, or the error it raises."""
    try:
        value = compute()
    except Exception as error:  # noqa: BLE001  (the error is the observation)
        print(label, "ERROR", type(error).__name__, str(error).splitlines()[0])
        return
    values = value if isinstance(value, tuple) else (value,)
    for item in values:
        print(label, item.dtype, repr(item.asnumpy().tolist()))


x = Tensor([[0, 0, 1], [1, 1, 2], [0, 0, 1]], dtype=mindspore.int64)
show("CountNonZero docstring", lambda: P.CountNonZero(dims=[1])(x))
show("CountNonZero all", lambda: P.CountNonZero()(Tensor(np.array([[0.0, 2.0], [0.0, -1.0]], np.float32))))
show("FillV2 docstring 1", lambda: P.FillV2()(Tensor([2, 3], mindspore.int32), Tensor(1, mindspore.float32)))
show("FillV2 docstring 2", lambda: P.FillV2()(Tensor([3, 3], mindspore.int64), Tensor(0, mindspore.int32)))
x1 = Tensor(np.array([[1, 8, 5, 2, 7], [4, 9, 1, 3, 5]]), mindspore.float32)
show("InTopK docstring", lambda: P.InTopK(3)(x1, Tensor(np.array([1, 3]), mindspore.int32)))
show("InTopK k=1 ties", lambda: P.InTopK(1)(Tensor(np.array([[2, 2, 1], [0, 3, 3]]), mindspore.float32),
                                    Tensor(np.array([1, 2]), mindspore.int32)))
x = Tensor(np.array([[1, 2], [3, 4], [5, 6]]), mindspore.float32)
v = Tensor(np.array([[0.5, 1.0], [1.0, 1.5]]), mindspore.float32)
show("InplaceSub docstring", lambda: P.InplaceSub((0, 1))(x, v))
show("InplaceSub int index", lambda: P.InplaceSub(2)(x, Tensor(np.array([[1.5, -2.0]]), mindspore.float32)))
show("InplaceUpdate docstring", lambda: P.InplaceUpdate((0, 1))(x, v))
show("InplaceUpdate int index", lambda: P.InplaceUpdate(2)(x, Tensor(np.array([[7.0, 8.0]]), mindspore.float32)))
c = Tensor(np.arange(1 * 4 * 2 * 2).reshape(1, 4, 2, 2).astype(np.int16))
show("ChannelShuffle docstring", lambda: P.ChannelShuffle(2)(c))
show("ChannelShuffle group 3", lambda: P.ChannelShuffle(3)(Tensor(np.arange(6 * 2, dtype=np.float32).reshape(1, 6, 1, 2))))
show("DynamicShape", lambda: P.DynamicShape()(Tensor(np.zeros((2, 3, 4), np.float32))))
show("HSVToRGB docstring", lambda: P.HSVToRGB()(Tensor(np.array([0.5, 0.5, 0.5], np.float32).reshape(1, 1, 1, 3))))
hsv = np.array([[0.0, 1.0, 1.0], [0.2, 0.5, 0.8], [0.45, 0.3, 0.6], [0.7, 0.9, 0.4], [0.95, 0.1, 0.9],
                [0.6, 0.0, 0.3]], np.float64).reshape(1, 2, 3, 3)
show("HSVToRGB six", lambda: P.HSVToRGB()(Tensor(hsv)))
show("AdaptiveAvgPool3D docstring", lambda: P.AdaptiveAvgPool3D((1, 1, 1))(
    Tensor(np.array([[[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]],
                     [[[13, 14, 15], [16, 17, 18]], [[19, 20, 21], [22, 23, 24]]]]), mindspore.float32)))
show("AdaptiveAvgPool3D 2x1x2", lambda: P.AdaptiveAvgPool3D((2, 1, 2))(
    Tensor(np.arange(1 * 3 * 2 * 3, dtype=np.float32).reshape(1, 3, 2, 3))))
m = Tensor(np.array([[[[1, 2, 3], [4, 5, 6], [7, 8, 9]]]]), mindspore.float32)
show("AdaptiveMaxPool2D docstring-like 2x2", lambda: P.AdaptiveMaxPool2D((2, 2))(m))
show("AdaptiveMaxPool2D 1x3", lambda: P.AdaptiveMaxPool2D((1, 3))(
    Tensor(np.array([[[[3, 1, 4, 1], [5, 9, 2, 6]]]]), mindspore.float32)))
show("FillDiagonal docstring", lambda: P.FillDiagonal(9.9)(
    Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]).astype(np.float32))))
show("FillDiagonal tall int", lambda: P.FillDiagonal(9.0)(Tensor(np.arange(18).reshape(6, 3).astype(np.int32))))
show("FillDiagonal tall wrap", lambda: P.FillDiagonal(-1.0, wrap=True)(Tensor(np.zeros((7, 3), np.float32))))
show("InplaceIndexAdd docstring", lambda: P.InplaceIndexAdd(axis=0)(
    mindspore.Parameter(Tensor(np.array([[1, 2], [3, 4], [5, 6]]), mindspore.float32)),
    Tensor(np.array([0, 1]), mindspore.int32), Tensor(np.array([[0.5, 1.0], [1.0, 1.5]]), mindspore.float32)))
show("InplaceIndexAdd axis1 repeated", lambda: P.InplaceIndexAdd(axis=1)(
    mindspore.Parameter(Tensor(np.array([[1, 2, 3], [4, 5, 6]]), mindspore.float32)),
    Tensor(np.array([2, 2]), mindspore.int32), Tensor(np.array([[0.5, 1.0], [1.0, 1.5]]), mindspore.float32)))
show("HistogramFixedWidth docstring", lambda: P.HistogramFixedWidth(5)(
    Tensor([-1.0, 0.0, 1.5, 2.0, 5.0, 15], mindspore.float16), Tensor([0.0, 5.0], mindspore.float16)))
show("HistogramFixedWidth 3 bins", lambda: P.HistogramFixedWidth(3)(
    Tensor([0.1, 0.5, 0.99, 0.33, 0.34, 0.66, 0.67, -3.0], mindspore.float32), Tensor([0.0, 1.0], mindspore.float32)))
show("BatchToSpace docstring", lambda: P.BatchToSpace(2, [[0, 0], [0, 0]])(
    Tensor(np.array([[[[1]]], [[[2]]], [[[3]]], [[[4]]]]), mindspore.float32)))
show("BatchToSpace crops", lambda: P.BatchToSpace(2, [[0, 1], [1, 0]])(
    Tensor(np.arange(16, dtype=np.float32).reshape(4, 1, 2, 2))))
show("BatchToSpaceND docstring", lambda: P.BatchToSpaceND((2, 2), [[0, 0], [0, 0]])(
    Tensor(np.array([[[[1]]], [[[2]]], [[[3]]], [[[4]]]]), mindspore.float32)))
show("BatchToSpaceND crops", lambda: P.BatchToSpaceND((2, 1), [[1, 0], [0, 1]])(
    Tensor(np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2))))
show("ConfusionMatrix docstring", lambda: P.ConfusionMatrix(4)(Tensor([0, 1, 1, 3], mindspore.int32),
                                                               Tensor([1, 2, 1, 3], mindspore.int32)))
show("ConfusionMatrix weights", lambda: P.ConfusionMatrix(3, "float32")(
    Tensor([0, 1, 2, 2], mindspore.int32), Tensor([0, 2, 2, 2], mindspore.int32),
    Tensor([0.5, 1.0, 2.0, 0.25], mindspore.float32)))
show("EmbeddingLookup docstring", lambda: P.EmbeddingLookup()(
    Tensor(np.array([[8, 9], [10, 11], [12, 13], [14, 15]]), mindspore.float32),
    Tensor(np.array([[5, 2], [8, 5]]), mindspore.int32), 4))
show("EmbeddingLookup offset 0", lambda: P.EmbeddingLookup()(
    Tensor(np.array([[8, 9], [10, 11], [12, 13]]), mindspore.float32), Tensor(np.array([2, -1, 0, 3]), mindspore.int32), 0))
show("CompareAndBitpack docstring", lambda: P.CompareAndBitpack()(
    Tensor(np.array([1, 2, 3, 4, 5, 6, 7, 8]), mindspore.float32), Tensor(6, mindspore.float32)))
show("CompareAndBitpack 2x16", lambda: P.CompareAndBitpack()(
    Tensor(np.array([[1, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0], [0] * 15 + [1]]), mindspore.int32),
    Tensor(0, mindspore.int32)))
show("IndexPut docstring", lambda: P.IndexPut(accumulate=1)(
    Tensor(np.array([[1, 2, 3], [4, 5, 6]]).astype(np.int32)), Tensor(np.array([3]).astype(np.int32)),
    [Tensor(np.array([0, 0]).astype(np.int32)), Tensor(np.array([0, 1]).astype(np.int32))]))
show("IndexPut put rows", lambda: P.IndexPut()(
    Tensor(np.zeros((3, 2), np.float32)), Tensor(np.array([1.0, 2.0], np.float32)),
    [Tensor(np.array([2, 0]).astype(np.int64))]))
# BatchToSpace has no CPU kernel in MindSpore 2.10: its crops case as the BatchToSpaceND it equals
show("BatchToSpace crops as BatchToSpaceND", lambda: P.BatchToSpaceND((2, 2), [[0, 1], [1, 0]])(
    Tensor(np.arange(16, dtype=np.float32).reshape(4, 1, 2, 2))))
image = np.array([[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]], [[13, 14, 15], [16, 17, 18]]], np.float32)
show("AdjustHue docstring", lambda: P.AdjustHue()(Tensor(image), Tensor(0.2, mindspore.float32)))
rgb = np.array([[[0.9, 0.2, 0.1], [0.1, 0.6, 0.3]], [[0.2, 0.3, 0.8], [0.5, 0.5, 0.5]]], np.float32)
show("AdjustHue unit image", lambda: P.AdjustHue()(Tensor(rgb), Tensor(-0.35, mindspore.float32)))
show("AdjustSaturation docstring", lambda: P.AdjustSaturation()(
    Tensor([[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]]), Tensor(0.5)))
show("AdjustSaturation unit image x3", lambda: P.AdjustSaturation()(Tensor(rgb), Tensor(3.0)))
show("Conv3D", lambda: P.Conv3D(out_channel=2, kernel_size=(2, 2, 1))(
    Tensor(np.arange(2 * 3 * 3 * 2, dtype=np.float32).reshape(1, 2, 3, 3, 2) / 10),
    Tensor(np.linspace(-1, 1, 2 * 2 * 2 * 2 * 1, dtype=np.float32).reshape(2, 2, 2, 2, 1))))
show("Conv3D pad stride", lambda: P.Conv3D(1, 2, pad_mode="pad", pad=1, stride=2)(
    Tensor(np.arange(27, dtype=np.float32).reshape(1, 1, 3, 3, 3) / 10),
    Tensor(np.ones((1, 1, 2, 2, 2), np.float32))))
show("UniqueConsecutive default", lambda: P.UniqueConsecutive()(
    Tensor(np.array([1, 1, 2, 2, 3, 1, 1, 2]), mindspore.int32)))
show("UniqueConsecutive 2-D flat", lambda: P.UniqueConsecutive(True, True)(
    Tensor(np.array([[1, 1, 2], [2, 3, 3]]), mindspore.float32)))
show("UniqueConsecutive dim 1", lambda: P.UniqueConsecutive(False, True, 1)(
    Tensor(np.array([[1, 1, 2, 2], [0, 0, 3, 3]]), mindspore.int64)))
