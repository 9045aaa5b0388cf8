"""The arrays2 primitives of ``ops.operations`` (CountNonZero, FillV2, InTopK, InplaceSub, InplaceUpdate,
ChannelShuffle, HSVToRGB, AdaptiveAvgPool3D, AdaptiveMaxPool2D, FillDiagonal, InplaceIndexAdd, HistogramFixedWidth,
BatchToSpace, BatchToSpaceND, ConfusionMatrix, EmbeddingLookup, CompareAndBitpack, IndexPut, AdjustHue,
AdjustSaturation, Conv3D, UniqueConsecutive, DynamicShape): MindSpore 2.10 CPU's values and dtypes for their
docstring examples and one more case each (recorded by ``tools/observe_mindspore_arrays2.py``), eager and compiled,
errors naming the argument, and gradients of the compositions against central differences in float64."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops
from npspore.ops import operations as P
from composition_checks import check_composition

_X = np.array([[1, 2], [3, 4], [5, 6]], np.float32)
_V = np.array([[0.5, 1.0], [1.0, 1.5]], np.float32)
_HSV = np.array([[0.0, 1.0, 1.0], [0.2, 0.5, 0.8], [0.45, 0.3, 0.6], [0.7, 0.9, 0.4], [0.95, 0.1, 0.9],
                 [0.6, 0.0, 0.3]], np.float64).reshape(1, 2, 3, 3)

class _Param:
    """An input given as a Parameter (the primitive writes it in place)."""

    def __init__(self, value):
        self.value = value


class _Const:
    """An input the compiled function holds as a constant (an int, or a list of index arrays)."""

    def __init__(self, value):
        self.value = value


def _input(value):
    """The npspore value of a case's input."""
    if isinstance(value, _Param):
        return ms.Parameter(Tensor(value.value), name="var")
    if isinstance(value, _Const):
        held = value.value
        return [Tensor(array) for array in held] if isinstance(held, list) else held
    return Tensor(value)

_RGB = np.array([[[0.9, 0.2, 0.1], [0.1, 0.6, 0.3]], [[0.2, 0.3, 0.8], [0.5, 0.5, 0.5]]], np.float32)

# name: (primitive, inputs, MindSpore 2.10 CPU's (dtype, values), a list of them for a tuple result)
CASES = {
    # CountNonZero: MindSpore 2.10 CPU's P.CountNonZero fails ("inputs number should be 2"): its docstring's values
    "CountNonZero_doc": (lambda: P.CountNonZero(dims=[1]), [np.array([[0, 0, 1], [1, 1, 2], [0, 0, 1]], np.int64)],
                         ("Int64", [1, 3, 1])),
    "FillV2_doc": (P.FillV2, [np.array([2, 3], np.int32), np.array(1, np.float32)],
                   ("Float32", [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]])),
    "FillV2_doc_int": (P.FillV2, [np.array([3, 3], np.int64), np.array(0, np.int32)],
                       ("Int32", [[0, 0, 0], [0, 0, 0], [0, 0, 0]])),
    "InTopK_doc": (lambda: P.InTopK(3), [np.array([[1, 8, 5, 2, 7], [4, 9, 1, 3, 5]], np.float32),
                                        np.array([1, 3], np.int32)], ("Bool", [True, False])),
    "InTopK_ties": (lambda: P.InTopK(1), [np.array([[2, 2, 1], [0, 3, 3]], np.float32), np.array([1, 2], np.int32)],
                    ("Bool", [True, True])),
    "InplaceSub_doc": (lambda: P.InplaceSub((0, 1)), [_X, _V], ("Float32", [[0.5, 1.0], [2.0, 2.5], [5.0, 6.0]])),
    "InplaceSub_int": (lambda: P.InplaceSub(2), [_X, np.array([[1.5, -2.0]], np.float32)],
                       ("Float32", [[1.0, 2.0], [3.0, 4.0], [3.5, 8.0]])),
    "InplaceUpdate_doc": (lambda: P.InplaceUpdate((0, 1)), [_X, _V],
                          ("Float32", [[0.5, 1.0], [1.0, 1.5], [5.0, 6.0]])),
    "InplaceUpdate_int": (lambda: P.InplaceUpdate(2), [_X, np.array([[7.0, 8.0]], np.float32)],
                          ("Float32", [[1.0, 2.0], [3.0, 4.0], [7.0, 8.0]])),
    "ChannelShuffle_doc": (lambda: P.ChannelShuffle(2), [np.arange(16).reshape(1, 4, 2, 2).astype(np.int16)],
                           ("Int16", [[[[0, 1], [2, 3]], [[8, 9], [10, 11]], [[4, 5], [6, 7]], [[12, 13], [14, 15]]]])),
    "ChannelShuffle_3": (lambda: P.ChannelShuffle(3), [np.arange(12, dtype=np.float32).reshape(1, 6, 1, 2)],
                         ("Float32", [[[[0.0, 1.0]], [[4.0, 5.0]], [[8.0, 9.0]], [[2.0, 3.0]], [[6.0, 7.0]],
                                       [[10.0, 11.0]]]])),
    "HSVToRGB_doc": (P.HSVToRGB, [np.array([0.5, 0.5, 0.5], np.float32).reshape(1, 1, 1, 3)],
                     ("Float32", [[[[0.25, 0.5, 0.5]]]])),
    "HSVToRGB_six": (P.HSVToRGB, [_HSV],
                     ("Float64", [[[[1.0, 0.0, 0.0], [0.72, 0.8, 0.4], [0.42, 0.6, 0.546]],
                                   [[0.11199999999999974, 0.03999999999999998, 0.4], [0.9, 0.81, 0.8370000000000001],
                                    [0.3, 0.3, 0.3]]]])),
    "AdaptiveAvgPool3D_doc": (lambda: P.AdaptiveAvgPool3D((1, 1, 1)),
                              [np.arange(1, 25, dtype=np.float32).reshape(2, 2, 2, 3)],
                              ("Float32", [[[[6.5]]], [[[18.5]]]])),
    "AdaptiveAvgPool3D_2x1x2": (lambda: P.AdaptiveAvgPool3D((2, 1, 2)),
                                [np.arange(18, dtype=np.float32).reshape(1, 3, 2, 3)],
                                ("Float32", [[[[5.0, 6.0]], [[11.0, 12.0]]]])),
    "AdaptiveMaxPool2D_2x2": (lambda: P.AdaptiveMaxPool2D((2, 2)),
                              [np.arange(1, 10, dtype=np.float32).reshape(1, 1, 3, 3)],
                              [("Float32", [[[[5.0, 6.0], [8.0, 9.0]]]]), ("Int64", [[[[4, 5], [7, 8]]]])]),
    "AdaptiveMaxPool2D_1x3": (lambda: P.AdaptiveMaxPool2D((1, 3)),
                              [np.array([[[[3, 1, 4, 1], [5, 9, 2, 6]]]], np.float32)],
                              [("Float32", [[[[9.0, 9.0, 6.0]]]]), ("Int64", [[[[5, 5, 7]]]])]),
    "FillDiagonal_doc": (lambda: P.FillDiagonal(9.9), [np.arange(1, 10, dtype=np.float32).reshape(3, 3)],
                         ("Float32", [[9.899999618530273, 2.0, 3.0], [4.0, 9.899999618530273, 6.0],
                                      [7.0, 8.0, 9.899999618530273]])),
    "FillDiagonal_tall_int": (lambda: P.FillDiagonal(9.0), [np.arange(18, dtype=np.int32).reshape(6, 3)],
                              ("Int32", [[9, 1, 2], [3, 9, 5], [6, 7, 9], [9, 10, 11], [12, 13, 14], [15, 16, 17]])),
    "FillDiagonal_wrap": (lambda: P.FillDiagonal(-1.0, wrap=True), [np.zeros((7, 3), np.float32)],
                          ("Float32", [[-1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0], [0.0, 0.0, 0.0],
                                       [-1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]])),
    "InplaceIndexAdd_doc": (lambda: P.InplaceIndexAdd(axis=0), [_Param(_X), np.array([0, 1], np.int32), _V],
                            ("Float32", [[1.5, 3.0], [4.0, 5.5], [5.0, 6.0]])),
    "InplaceIndexAdd_axis1": (lambda: P.InplaceIndexAdd(axis=1),
                              [_Param(np.arange(1, 7, dtype=np.float32).reshape(2, 3)), np.array([2, 2], np.int32),
                               _V], ("Float32", [[1.0, 2.0, 4.5], [4.0, 5.0, 8.5]])),
    # HistogramFixedWidth has no CPU kernel in MindSpore 2.10: its docstring, and a case by its documented rule
    "HistogramFixedWidth_doc": (lambda: P.HistogramFixedWidth(5),
                                [np.array([-1.0, 0.0, 1.5, 2.0, 5.0, 15], np.float16), np.array([0.0, 5.0], np.float16)],
                                ("Int32", [2, 1, 1, 0, 2])),
    "HistogramFixedWidth_3": (lambda: P.HistogramFixedWidth(3),
                              [np.array([0.1, 0.5, 0.99, 0.33, 0.34, 0.66, 0.67, -3.0], np.float32),
                               np.array([0.0, 1.0], np.float32)], ("Int32", [3, 3, 2])),
    # BatchToSpace has no CPU kernel in MindSpore 2.10: its docstring, and BatchToSpaceND((2, 2), crops)'s values
    "BatchToSpace_doc": (lambda: P.BatchToSpace(2, [[0, 0], [0, 0]]), [np.arange(1, 5, dtype=np.float32)
                                                                       .reshape(4, 1, 1, 1)],
                         ("Float32", [[[[1.0, 2.0], [3.0, 4.0]]]])),
    "BatchToSpace_crops": (lambda: P.BatchToSpace(2, [[0, 1], [1, 0]]),
                           [np.arange(16, dtype=np.float32).reshape(4, 1, 2, 2)],
                           ("Float32", [[[[4.0, 1.0, 5.0], [12.0, 9.0, 13.0], [6.0, 3.0, 7.0]]]])),
    "BatchToSpaceND_doc": (lambda: P.BatchToSpaceND((2, 2), [[0, 0], [0, 0]]),
                           [np.arange(1, 5, dtype=np.float32).reshape(4, 1, 1, 1)],
                           ("Float32", [[[[1.0, 2.0], [3.0, 4.0]]]])),
    "BatchToSpaceND_crops": (lambda: P.BatchToSpaceND((2, 1), [[1, 0], [0, 1]]),
                             [np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2)],
                             ("Float32", [[[[8.0], [2.0], [10.0]], [[12.0], [6.0], [14.0]]]])),
    # ConfusionMatrix has no CPU kernel in MindSpore 2.10: its docstring, and a weighted case by its documented rule
    "ConfusionMatrix_doc": (lambda: P.ConfusionMatrix(4), [np.array([0, 1, 1, 3], np.int32),
                                                           np.array([1, 2, 1, 3], np.int32)],
                            ("Int32", [[0, 1, 0, 0], [0, 1, 1, 0], [0, 0, 0, 0], [0, 0, 0, 1]])),
    "ConfusionMatrix_weights": (lambda: P.ConfusionMatrix(3, "float32"),
                                [np.array([0, 1, 2, 2], np.int32), np.array([0, 2, 2, 2], np.int32),
                                 np.array([0.5, 1.0, 2.0, 0.25], np.float32)],
                                ("Float32", [[0.5, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 2.25]])),
    "EmbeddingLookup_doc": (P.EmbeddingLookup, [np.arange(8, 16, dtype=np.float32).reshape(4, 2),
                                                np.array([[5, 2], [8, 5]], np.int32), _Const(4)],
                            ("Float32", [[[10.0, 11.0], [0.0, 0.0]], [[0.0, 0.0], [10.0, 11.0]]])),
    "EmbeddingLookup_offset0": (P.EmbeddingLookup, [np.arange(8, 14, dtype=np.float32).reshape(3, 2),
                                                    np.array([2, -1, 0, 3], np.int32), _Const(0)],
                                ("Float32", [[12.0, 13.0], [0.0, 0.0], [8.0, 9.0], [0.0, 0.0]])),
    "CompareAndBitpack_doc": (P.CompareAndBitpack, [np.arange(1, 9, dtype=np.float32), np.array(6, np.float32)],
                              ("UInt8", [3])),
    "CompareAndBitpack_2x16": (P.CompareAndBitpack, [np.array([[1, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0],
                                                               [0] * 15 + [1]], np.int32), np.array(0, np.int32)],
                               ("UInt8", [[161, 254], [0, 1]])),
    "IndexPut_doc": (lambda: P.IndexPut(accumulate=1),
                     [np.array([[1, 2, 3], [4, 5, 6]], np.int32), np.array([3], np.int32),
                      _Const([np.array([0, 0], np.int32), np.array([0, 1], np.int32)])],
                     ("Int32", [[4, 5, 3], [4, 5, 6]])),
    "IndexPut_rows": (P.IndexPut, [np.zeros((3, 2), np.float32), np.array([1.0, 2.0], np.float32),
                                   _Const([np.array([2, 0], np.int64)])],
                      ("Float32", [[1.0, 2.0], [0.0, 0.0], [1.0, 2.0]])),
    "AdjustHue_doc": (P.AdjustHue, [np.arange(1, 19, dtype=np.float32).reshape(3, 2, 3), np.array(0.2, np.float32)],
                      ("Float32", [[[2.3999996185302734, 1.0, 3.0], [5.399999618530273, 4.0, 6.0]],
                                   [[8.399999618530273, 7.0, 9.0], [11.399999618530273, 10.0, 12.0]],
                                   [[14.399999618530273, 13.0, 15.0], [17.399999618530273, 16.0, 18.0]]])),
    "AdjustHue_unit": (P.AdjustHue, [_RGB, np.array(-0.35, np.float32)],
                       ("Float32", [[[0.12000007927417755, 0.10000000149011612, 0.8999999761581421],
                                     [0.6000000238418579, 0.25000008940696716, 0.10000000149011612]],
                                    [[0.36000001430511475, 0.800000011920929, 0.20000000298023224], [0.5, 0.5, 0.5]]])),
    "AdjustSaturation_doc": (P.AdjustSaturation, [np.arange(1, 13, dtype=np.float32).reshape(2, 2, 3),
                                                  np.array(0.5, np.float32)],
                             ("Float32", [[[2.0, 2.499999761581421, 3.0], [5.0, 5.5, 6.0]],
                                          [[8.0, 8.5, 9.0], [11.0, 11.5, 12.0]]])),
    "AdjustSaturation_unit": (P.AdjustSaturation, [_RGB, np.array(3.0, np.float32)],
                              ("Float32", [[[0.8999999761581421, 0.11249999701976776, 0.0],
                                            [0.0, 0.6000000238418579, 0.24000006914138794]],
                                           [[0.0, 0.1333332061767578, 0.800000011920929], [0.5, 0.5, 0.5]]])),
    "Conv3D_valid": (lambda: P.Conv3D(out_channel=2, kernel_size=(2, 2, 1)),
                     [np.arange(36, dtype=np.float32).reshape(1, 2, 3, 3, 2) / 10,
                      np.linspace(-1, 1, 16, dtype=np.float32).reshape(2, 2, 2, 2, 1)],
                     ("Float32", [[[[[-3.253333568572998, -3.680000066757202], [-4.106666564941406, -4.5333333015441895]],
                                    [[-5.813333511352539, -6.239999771118164], [-6.6666669845581055, -7.0933332443237305]]],
                                   [[[7.840000152587891, 8.266666412353516], [8.693333625793457, 9.120000839233398]],
                                    [[10.399999618530273, 10.826666831970215], [11.253334045410156, 11.679999351501465]]]]])),
    "Conv3D_pad_stride": (lambda: P.Conv3D(1, 2, pad_mode="pad", pad=1, stride=2),
                          [np.arange(27, dtype=np.float32).reshape(1, 1, 3, 3, 3) / 10, np.ones((1, 1, 2, 2, 2), np.float32)],
                          ("Float32", [[[[[0.0, 0.30000001192092896], [0.9000000357627869, 2.3999998569488525]],
                                         [[2.6999998092651367, 6.0], [7.200000286102295, 15.600000381469727]]]]])),
    "UniqueConsecutive_default": (P.UniqueConsecutive, [np.array([1, 1, 2, 2, 3, 1, 1, 2], np.int32)],
                                  [("Int32", [1, 2, 3, 1, 2]), ("Int64", 0), ("Int64", 0)]),
    "UniqueConsecutive_flat": (lambda: P.UniqueConsecutive(True, True), [np.array([[1, 1, 2], [2, 3, 3]], np.float32)],
                               [("Float32", [1.0, 2.0, 3.0]), ("Int64", [[0, 0, 1], [1, 2, 2]]), ("Int64", [2, 2, 2])]),
    "UniqueConsecutive_dim1": (lambda: P.UniqueConsecutive(False, True, 1),
                               [np.array([[1, 1, 2, 2], [0, 0, 3, 3]], np.int64)],
                               [("Int64", [[1, 2], [0, 3]]), ("Int64", 0), ("Int64", [2, 2])]),
    # DynamicShape fails on MindSpore 2.10 CPU ("has no attr:__infer__"); deprecated for ops.shape / TensorShape
    "DynamicShape_3d": (P.DynamicShape, [np.zeros((2, 3, 4), np.float32)], ("Int64", [2, 3, 4])),
    "DynamicShape_scalar": (P.DynamicShape, [np.array(1.5, np.float32)], ("Int64", np.zeros(0, np.int64))),
}


class _Applied(nn.Cell):
    """The primitive applied to the Parameters it holds (the leading _Param inputs), the inputs it is given and the
    constants it holds (the trailing _Const inputs)."""

    def __init__(self, primitive, inputs):
        super().__init__()
        self.primitive = primitive
        self.params = tuple(_input(value) for value in inputs if isinstance(value, _Param))
        self.constants = tuple(_input(value) for value in inputs if isinstance(value, _Const))

    def construct(self, *inputs):
        return self.primitive(*self.params, *inputs, *self.constants)


def _check(out, recorded):
    """``out`` (a Tensor or a tuple) has MindSpore's dtypes and values."""
    outs, records = (out, recorded) if isinstance(recorded, list) else ((out,), [recorded])
    assert len(outs) == len(records)
    for got, (dtype, values) in zip(outs, records):
        assert str(got.dtype) == dtype
        np.testing.assert_allclose(got.asnumpy(), np.array(values), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_and_dtypes_match_mindspore(name):
    make, inputs, recorded = CASES[name]
    _check(make()(*[_input(value) for value in inputs]), recorded)


@pytest.mark.parametrize("name", sorted(CASES))
def test_compiled_matches_mindspore(name):
    make, inputs, recorded = CASES[name]
    net = _Applied(make(), inputs)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        out = net(*[_input(value) for value in inputs if not isinstance(value, (_Param, _Const))])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    _check(out, recorded)


def test_printed_form_records_the_attributes():
    assert str(P.InTopK(3)) == "Prim[InTopK]<k=3>"
    assert str(P.ChannelShuffle(group=2)) == "Prim[ChannelShuffle]<group=2>"


def _arrays2_compositions(a, b):
    hsv = ops.reshape(ops.abs(ops.concat((a, b), 1)), (1, 2, 2, 3))
    grid = ops.reshape(ops.concat((a, b), 0), (1, 2, 2, 3))
    return (ops.sum(P.HSVToRGB()(hsv)) + ops.sum(P.InplaceSub((1,))(a, b[:1]) * P.InplaceUpdate(0)(a, b[1:]))
            + ops.sum(P.ChannelShuffle(2)(grid) * grid) + ops.sum(P.AdaptiveAvgPool3D((1, 2, 2))(grid) ** 2)
            + ops.sum(P.AdaptiveMaxPool2D((1, 2))(grid)[0] ** 2))


def test_compositions_gradients_against_central_differences():
    check_composition(_arrays2_compositions)


def _arrays2_placements(a, b):
    blocks = ops.reshape(ops.concat((a, b), 0), (4, 1, 1, 3))
    ids = Tensor(np.array([[3, 1], [0, 5]], np.int32))
    rows = [Tensor(np.array([1, 0, 1], np.int64))]
    return (ops.sum(P.FillDiagonal(0.5)(a) * b) + ops.sum(P.BatchToSpaceND((2, 2), [[0, 1], [1, 0]])(blocks) ** 2)
            + ops.sum(P.EmbeddingLookup()(a, ids, 1) * 3.0) + ops.sum(P.IndexPut(1)(a, b[0], rows) ** 2)
            + ops.sum(P.IndexPut()(b, a[1, 1:2], [Tensor(np.array([0], np.int64))]) * a))


def test_placements_gradients_against_central_differences():
    check_composition(_arrays2_placements)


def _arrays2_image_and_conv(a, b):
    image = ops.reshape(ops.abs(ops.concat((a, b), 1)), (2, 1, 2, 3))
    volume = ops.reshape(ops.concat((a, b), 0), (1, 1, 2, 2, 3))
    kernel = ops.reshape(a[0, :2] * b[1, :2] + 0.0, (1, 1, 1, 1, 2))
    return (ops.sum(P.AdjustHue()(image, 0.15) ** 2) + ops.sum(P.AdjustSaturation()(image, 0.6) * image)
            + ops.sum(P.Conv3D(1, (1, 1, 2))(volume, kernel) ** 2))


def test_image_and_conv_gradients_against_central_differences():
    check_composition(_arrays2_image_and_conv)


def test_errors_name_the_argument():
    with pytest.raises(TypeError, match="'k'"):
        P.InTopK(1.5)
    with pytest.raises(TypeError, match="'group' is required"):
        P.ChannelShuffle()
    with pytest.raises(TypeError, match="> 3 dims"):
        P.ChannelShuffle(2)(Tensor(np.zeros((1, 4, 2), np.float32)))
    with pytest.raises(ValueError, match="'group'"):
        P.ChannelShuffle(3)(Tensor(np.zeros((1, 4, 2, 2), np.float32)))
    with pytest.raises(ValueError, match="'images'"):
        P.HSVToRGB()(Tensor(np.zeros((1, 2, 2), np.float32)))
    with pytest.raises(TypeError, match="'dims'"):
        P.CountNonZero(dims=1.0)
    with pytest.raises(ValueError, match="'crops'"):
        P.BatchToSpaceND((2, 2), [[0, 0]])(Tensor(np.zeros((4, 1, 1, 1), np.float32)))
    with pytest.raises(ValueError, match="'input_x'"):
        P.BatchToSpaceND((2, 2), [[0, 0], [0, 0]])(Tensor(np.zeros((3, 1, 1, 1), np.float32)))
    with pytest.raises(ValueError, match="multiple of 8"):
        P.CompareAndBitpack()(Tensor(np.zeros(4, np.float32)), Tensor(0.0))
    with pytest.raises(ValueError, match="'dtype'"):
        P.ConfusionMatrix(2, "int33")(Tensor(np.zeros(2, np.int32)), Tensor(np.zeros(2, np.int32)))
    with pytest.raises(ValueError, match="'input_x'"):
        P.FillDiagonal(1.0)(Tensor(np.zeros((2, 3, 2), np.float32)))
    with pytest.raises(TypeError, match="'fill_value'"):
        P.FillDiagonal("1")
    with pytest.raises(ValueError, match="'image'"):
        P.AdjustHue()(Tensor(np.zeros((2, 3), np.float32)), 0.1)
    with pytest.raises(ValueError, match="'weight'"):
        P.Conv3D(2, 2)(Tensor(np.zeros((1, 1, 3, 3, 3), np.float32)), Tensor(np.zeros((1, 1, 2, 2, 2), np.float32)))
    with pytest.raises(ValueError, match="'input_v'"):
        P.InplaceSub((0, 1))(Tensor(_X), Tensor(_V[:1]))
