"""Detection-box ops (``IOU``/``iou``, ``BoundingBoxEncode``, ``BoundingBoxDecode``), ``ops.clip_by_norm`` /
``nn.ClipByNorm``, ``ops.flip``/``ReverseV2``, ``F.dtype`` and ``C.ones_like``: values as MindSpore 2.10 (CPU)
printed them for the same inputs; gradients against central differences."""
import math

import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn, ops
from npspore.ops import composite as C, functional as F, operations as P
from npspore.testing import check_grads

ANCHORS = Tensor(np.array([[0, 0, 10, 10], [5, 5, 15, 15], [0, 0, 2, 2]], np.float32))
GT = Tensor(np.array([[0, 0, 10, 10], [20, 20, 30, 30]], np.float32))


def test_iou_and_iof():
    np.testing.assert_allclose(P.IOU()(ANCHORS, GT).asnumpy(), [[1.0, 0.17475729, 0.07438017], [0, 0, 0]], rtol=1e-6)
    np.testing.assert_allclose(P.IOU(mode="iof")(ANCHORS, GT).asnumpy(),
                               [[1.0, 0.29752067, 0.07438017], [0, 0, 0]], rtol=1e-6)
    np.testing.assert_allclose(ops.iou(ANCHORS, GT).asnumpy(), P.IOU()(ANCHORS, GT).asnumpy())
    np.testing.assert_allclose(ms.jit(ops.iou)(ANCHORS, GT).asnumpy(), P.IOU()(ANCHORS, GT).asnumpy())
    with pytest.raises(KeyError, match="For 'IOU', only 'iou' or 'iof' are supported, but got 'mode': x."):
        P.IOU(mode="x")


def test_bounding_box_encode_and_decode():
    anchor = Tensor(np.array([[0, 0, 10, 10], [5, 5, 15, 15]], np.float32))
    gt = Tensor(np.array([[1, 1, 9, 12], [4, 6, 14, 18]], np.float32))
    deltas = P.BoundingBoxEncode()(anchor, gt)
    np.testing.assert_allclose(deltas.asnumpy(), [[0.0, 0.13636364, -0.2006707, 0.0870114],
                                                  [-0.09090909, 0.18181819, 0.0, 0.16705404]], rtol=1e-5, atol=1e-7)
    scaled = P.BoundingBoxEncode(means=(0.1, 0.0, 0.0, 0.0), stds=(0.1, 0.1, 0.2, 0.2))(anchor, gt)
    np.testing.assert_allclose(scaled.asnumpy(), [[-1.0, 1.3636364, -1.0033535, 0.435057],
                                                  [-1.9090909, 1.8181819, 0.0, 0.8352702]], rtol=1e-5)
    decoded = P.BoundingBoxDecode(max_shape=(12, 16), wh_ratio_clip=0.016)(anchor, deltas)
    np.testing.assert_allclose(decoded.asnumpy(), [[1, 1, 9, 12], [4, 6.0000005, 14, 12]], rtol=1e-6)
    clipped = P.BoundingBoxDecode(max_shape=(12, 16), means=(0.1, 0.0, 0.0, 0.0), stds=(0.1, 0.1, 0.2, 0.2))(
        anchor, Tensor(np.array([[0.5, -0.5, 1, -1], [0, 0, 5, 5]], np.float32)))
    np.testing.assert_allclose(clipped.asnumpy(), [[0.43228483, 0.44698048, 12.867716, 8.453019], [0, 0, 16, 12]],
                               rtol=2e-6)


def test_box_gradients_match_central_differences():
    anchor = np.array([[0.0, 0.0, 10.0, 10.0], [5.0, 5.0, 15.0, 15.0]])
    gt = np.array([[1.0, 1.0, 9.0, 12.0], [4.0, 6.0, 14.0, 18.0]])
    check_grads(lambda a, g: P.BoundingBoxEncode()(a, g).sum(), (anchor, gt))
    check_grads(lambda a, g: ops.iou(a, g).sum(), (anchor + 0.3, gt))


def test_clip_by_norm():
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    first, second = ops.clip_by_norm((x, x * 2), 3.0)
    np.testing.assert_allclose(first.asnumpy(), [[0.0, 0.180906802, 0.361813605], [0.542720437, 0.72362721,
                                                                                     0.904533982]], rtol=1e-6)
    np.testing.assert_allclose(second.asnumpy(), 2 * first.asnumpy(), rtol=1e-6)
    np.testing.assert_array_equal(ops.clip_by_norm(x, 100.0).asnumpy(), x.asnumpy())
    np.testing.assert_allclose(ops.clip_by_norm(x, 2.0, norm_type=1.0).asnumpy(),
                               [[0.0, 0.13333333, 0.26666665], [0.39999998, 0.5333333, 0.6666666]], rtol=1e-6)
    np.testing.assert_allclose(ops.clip_by_norm(x, 2.0, norm_type=math.inf).asnumpy(),
                               [[0.0, 0.39999992, 0.79999983], [1.1999998, 1.5999997, 1.9999995]], rtol=1e-6)
    assert ops.clip_by_norm(Tensor(np.array([3.0, 4.0], np.float16)), 1.0).dtype == ms.float16
    with pytest.raises(RuntimeError, match="For clip_by_norm, the total norm of order 2.0 from input is non-finite."):
        ops.clip_by_norm(Tensor(np.array([np.inf, 1.0], np.float32)), 1.0, error_if_nonfinite=True)


def test_nn_clip_by_norm():
    x = Tensor(np.array([[1.0, -2], [3, 4]], np.float32))
    expected = [[0.18257418, -0.36514837], [0.5477225, 0.73029673]]      # MindSpore 2.10
    np.testing.assert_allclose(nn.ClipByNorm()(x, Tensor(1.0)).asnumpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(ms.jit(nn.ClipByNorm())(x, Tensor(1.0)).asnumpy(), expected, rtol=1e-6)
    np.testing.assert_array_equal(nn.ClipByNorm()(x, Tensor(100.0)).asnumpy(), x.asnumpy())
    # by rows: [1, -2] / sqrt(5) and [3, 4] / 5 (the documented Euclidean norm; MindSpore 2.10's CPU kernel
    # divides the second row by sqrt(13))
    np.testing.assert_allclose(nn.ClipByNorm(axis=1)(x, Tensor(np.array([1.0], np.float32))).asnumpy(),
                               [[0.4472136, -0.8944272], [0.6, 0.8]], rtol=1e-6)
    check_grads(lambda v: nn.ClipByNorm()(v, Tensor(1.0, ms.float64)).sum(), (np.array([[1.0, -2], [3, 4]]),))


def test_flip_reverse_dtype_and_ones_like():
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(ops.flip(x, (1,)).asnumpy(), [[2, 1, 0], [5, 4, 3]])
    np.testing.assert_array_equal(ops.flip(x, (0, 1)).asnumpy(), [[5, 4, 3], [2, 1, 0]])
    np.testing.assert_array_equal(ops.flip(x, (-1,)).asnumpy(), [[2, 1, 0], [5, 4, 3]])
    np.testing.assert_array_equal(P.ReverseV2(axis=[1])(x).asnumpy(), [[2, 1, 0], [5, 4, 3]])
    with pytest.raises(TypeError, match=r'Failed calling ReverseV2 with "ReverseV2\(axis=int\)\(input=Tensor\)".'):
        ops.flip(x, 2)
    with pytest.raises(ValueError, match=r"For 'ReverseV2', the 'axis\[0\]' must be in range of \[-2, 2\), but got 5"):
        ops.flip(x, (5,))
    assert F.dtype(x) == ms.float32 and ops.dtype(Tensor(1, ms.int32)) == ms.int32
    np.testing.assert_array_equal(C.ones_like(x).asnumpy(), np.ones((2, 3)))
    np.testing.assert_array_equal(C.zeros_like(x).asnumpy(), np.zeros((2, 3)))


def test_numpy_roll_dropout_primitive_and_tuple_to_array():
    import npspore.numpy as mnp
    x = mnp.arange(10).reshape(2, 5)
    np.testing.assert_array_equal(mnp.roll(x, 2).asnumpy(), [[8, 9, 0, 1, 2], [3, 4, 5, 6, 7]])     # MindSpore 2.10
    np.testing.assert_array_equal(mnp.roll(x, -1, axis=1).asnumpy(), [[1, 2, 3, 4, 0], [6, 7, 8, 9, 5]])
    np.testing.assert_array_equal(mnp.roll(x, (1, 2), axis=(0, 1)).asnumpy(), [[8, 9, 5, 6, 7], [3, 4, 0, 1, 2]])
    check_grads(lambda t: mnp.roll(t, 1, axis=0), (np.arange(6.0).reshape(3, 2),))

    out, mask = P.Dropout(keep_prob=0.5)(Tensor(np.ones((64, 64), np.float32)))
    assert mask.dtype == ms.float32 and set(np.unique(mask.asnumpy())) <= {0.0, 1.0}
    np.testing.assert_array_equal(out.asnumpy(), 2 * mask.asnumpy())
    assert 0.4 < mask.asnumpy().mean() < 0.6
    out, mask = P.Dropout(keep_prob=1.0)(Tensor(np.ones((2, 2), np.float16)))       # MindSpore 2.10: all ones
    assert out.dtype == mask.dtype == ms.float16 and mask.asnumpy().tolist() == [[1, 1], [1, 1]]
    with pytest.raises(RuntimeError, match=r"For 'Dropout, the 'keep_prob' must be in \(0.0, 1.0\], but got 1.5"):
        P.Dropout(keep_prob=1.5)(Tensor(np.ones(2, np.float32)))

    assert P.TupleToArray()((1, 2, 3)).dtype == ms.int32
    with pytest.raises(TypeError, match="For 'TupleToArray', all elements of 'input_x' must be have same type."):
        P.TupleToArray()((1, 2.0))
    with pytest.raises(ValueError, match="For 'TupleToArray', the size of x should be > : 0, but got 0."):
        P.TupleToArray()(())
    with pytest.raises(TypeError, match="For 'TupleToArray', the type of 'x' should be 'tuple', but got type 'list'."):
        P.TupleToArray()([1, 2])


def test_scatter_nd():
    out = P.ScatterNd()(Tensor(np.array([[0], [2], [0]], np.int32)), Tensor(np.array([1.0, 2, 3], np.float32)), (4,))
    np.testing.assert_array_equal(out.asnumpy(), [4, 0, 2, 0])                          # MindSpore 2.10
    indices = Tensor(np.array([[0, 1], [1, 1], [0, 1]], np.int32))
    updates = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
    np.testing.assert_array_equal(ops.scatter_nd(indices, updates, (2, 2, 2)).asnumpy(),
                                  [[[0, 0], [4, 6]], [[0, 0], [2, 3]]])                  # MindSpore 2.10
    weights = Tensor(np.arange(8.0, dtype=np.float32).reshape(2, 2, 2))
    grad = ms.grad(lambda u: (ops.scatter_nd(indices, u, (2, 2, 2)) * weights).sum())(updates)
    np.testing.assert_array_equal(grad.asnumpy(), [[2, 3], [6, 7], [2, 3]])              # MindSpore 2.10
    check_grads(lambda u: ops.scatter_nd(indices, u, (2, 2, 2)), (np.arange(6.0).reshape(3, 2),))
    with pytest.raises(ValueError, match="the shape of 'updates' must be"):
        ops.scatter_nd(indices, updates, (2, 2, 3))


def test_nms_with_mask():
    boxes = Tensor(np.array([[0, 0, 10, 10, 0.9], [1, 1, 11, 11, 0.95], [20, 20, 30, 30, 0.5], [0, 0, 10, 10, 0.3],
                             [21, 21, 29, 29, 0.6]], np.float32))
    @ms.jit
    def compiled(b):
        return P.NMSWithMask(0.5)(b)

    for run in (P.NMSWithMask(0.5), compiled):
        ordered, positions, keep = run(boxes)                                       # MindSpore 2.10 (CPU)
        np.testing.assert_array_equal(ordered.asnumpy()[:, 4], np.float32([0.95, 0.9, 0.6, 0.5, 0.3]))
        assert positions.dtype == ms.int32 and positions.asnumpy().tolist() == [0, 1, 2, 3, 4]
        assert keep.asnumpy().tolist() == [True, False, True, False, False]
    assert P.NMSWithMask(0.9)(boxes)[2].asnumpy().tolist() == [True, True, True, True, False]
    # IoU without a +1 pixel (100 / 120), suppressed only above the threshold
    pair = Tensor(np.array([[0, 0, 10, 10, 0.9], [0, 0, 10, 12, 0.8]], np.float32))
    assert [P.NMSWithMask(t)(pair)[2].asnumpy().tolist() for t in (0.83, 0.84, 0.8333333)] == [
        [True, False], [True, True], [True, True]]
    chain = Tensor(np.array([[0, 0, 10, 10, 0.9], [0, 0, 10, 14, 0.8], [0, 4, 10, 18, 0.7]], np.float32))
    assert P.NMSWithMask(0.5)(chain)[2].asnumpy().tolist() == [True, False, True]   # a suppressed box suppresses none
    assert P.NMSWithMask(0.5)(Tensor(np.ones((3, 5), np.float16)))[0].dtype == ms.float16
    with pytest.raises(ValueError, match="For NMSWithMask, the 2nd dim in shape of bboxes should equal to 5"):
        P.NMSWithMask(0.5)(Tensor(np.ones((3, 4), np.float32)))
    with pytest.raises(TypeError, match="iou_threshold"):
        P.NMSWithMask(1)


def test_random_choice_with_mask():
    x = Tensor(np.array([[True, False, True], [False, True, False]]))
    true_positions = {(0, 0), (0, 2), (1, 1)}

    @ms.jit
    def compiled(t):
        return P.RandomChoiceWithMask(count=5)(t)

    for run in (P.RandomChoiceWithMask(count=5), compiled):
        indices, mask = run(x)
        assert indices.dtype == ms.int32 and mask.dtype == ms.bool_ and indices.shape == (5, 2)
        assert mask.asnumpy().tolist() == [True, True, True, False, False]                # MindSpore 2.10
        assert {tuple(row) for row in indices.asnumpy()[:3]} == true_positions
        assert indices.asnumpy()[3:].tolist() == [[0, 0], [0, 0]]
    indices, mask = P.RandomChoiceWithMask(count=2)(x)
    assert mask.asnumpy().tolist() == [True, True] and {tuple(r) for r in indices.asnumpy()} <= true_positions
    orders = {tuple(map(tuple, P.RandomChoiceWithMask(count=3)(x)[0].asnumpy())) for _ in range(20)}
    assert len(orders) > 1                                                                   # a random order
    with pytest.raises(ValueError, match="For 'RandomChoiceWithMask', the 'count' must be int and must > 0, but "
                                         "got '0' with type 'int'."):
        P.RandomChoiceWithMask(count=0)
    with pytest.raises(TypeError, match="For 'RandomChoiceWithMask', the type of 'count' should be 'int'"):
        P.RandomChoiceWithMask(count=2.0)
    with pytest.raises(TypeError, match=r"must be a type of \{Tensor\[Bool\]\}, but got Tensor\[Float32\]."):
        P.RandomChoiceWithMask(count=2)(Tensor(np.ones((2, 2), np.float32)))
