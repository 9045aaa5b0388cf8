"""Names the ninth session added for the files they alone blocked: vision.HorizontalFlip / VerticalFlip,
vision.MixUpBatch, nn.layer.basic.check_dense_input_shape (MindSpore 1.x), mindspore.QuantDtype. Behaviour and
messages as MindSpore 2.10 (1.x for check_dense_input_shape) shows them."""
import numpy as np
import pytest

import npspore as ms
import npspore.dataset as ds
from npspore import nn
from npspore.dataset import vision

BATCH = np.arange(2 * 3 * 4 * 3, dtype=np.uint8).reshape(2, 3, 4, 3)


@pytest.mark.parametrize("image", [BATCH[0], BATCH[0, :, :, 0], BATCH])
def test_flips_mirror_width_or_height(image):
    width_axis, height_axis = (1, 0) if image.ndim == 2 else (image.ndim - 2, image.ndim - 3)
    np.testing.assert_array_equal(vision.HorizontalFlip()(image), np.flip(image, width_axis))
    np.testing.assert_array_equal(vision.VerticalFlip()(image), np.flip(image, height_axis))
    from npspore.dataset.vision import c_transforms
    assert c_transforms.HorizontalFlip is vision.HorizontalFlip


def test_mixup_batch_blends_pairs_of_images_and_labels(isolated_seeds):
    images = (np.arange(4 * 2 * 2 * 3) * 7 % 256).astype(np.uint8).reshape(4, 2, 2, 3)
    labels = np.eye(4, dtype=np.int32)
    ds.config.set_seed(0)
    mixed, mixed_labels = vision.MixUpBatch(0.5)(images, labels)
    assert mixed.dtype == np.uint8 and mixed_labels.dtype == np.float32
    # label row i holds lam at class i and 1 - lam at its partner's class (1 when paired with itself)
    lam = np.float32(next(row[i] for i, row in enumerate(mixed_labels) if (row > 0).sum() == 2))
    partners = [int(next((k for k in np.flatnonzero(row) if k != i), i)) for i, row in enumerate(mixed_labels)]
    assert sorted(partners) == [0, 1, 2, 3]   # a permutation
    np.testing.assert_allclose(mixed_labels.sum(1), 1.0, rtol=1e-6)
    for i, j in enumerate(partners):
        expected = images[i].astype(np.float32) * lam + images[j].astype(np.float32) * (np.float32(1) - lam)
        np.testing.assert_array_equal(mixed[i], np.clip(np.rint(expected), 0, 255).astype(np.uint8))
    ds.config.set_seed(0)
    again = vision.MixUpBatch(0.5)(images, labels)
    np.testing.assert_array_equal(again[0], mixed)   # the pipeline seed fixes the draws


def test_mixup_batch_in_a_pipeline():
    data = ds.NumpySlicesDataset({"image": BATCH.repeat(4, 0), "label": np.eye(8, dtype=np.int32)},
                                 shuffle=False).batch(4)
    rows = list(data.map(vision.MixUpBatch(), input_columns=["image", "label"]).create_dict_iterator(
        output_numpy=True))
    assert len(rows) == 2 and all(row["image"].shape == (4, 3, 4, 3) for row in rows)
    np.testing.assert_allclose(np.concatenate([row["label"] for row in rows]).sum(1), 1.0, rtol=1e-6)


@pytest.mark.parametrize("make, error, message", [
    (lambda: vision.MixUpBatch(0), ValueError, "Input alpha must be greater than 0."),
    (lambda: vision.MixUpBatch("1"), TypeError,
     "Argument alpha with value 1 is not of type [<class 'int'>, <class 'float'>], but got <class 'str'>."),
    (lambda: vision.MixUpBatch()(BATCH[0], np.eye(3, dtype=np.int32)), RuntimeError,
     "MixUpBatch: rank of image shape should be: 4, but got: 3, make sure image shape are <H,W,C> or <C,H,W> and "
     "batched before calling MixUpBatch."),
    (lambda: vision.MixUpBatch()(np.zeros((2, 2, 3, 2), np.uint8), np.eye(2, dtype=np.int32)), RuntimeError,
     "MixUpBatch: images shape should in <N,H,W,C> or <N,C,H,W>, got shape:<2,2,3,2>"),
])
def test_mixup_batch_errors_are_mindspore_s(make, error, message):
    with pytest.raises(error) as info:
        make()
    assert str(info.value) == message


def test_check_dense_input_shape_of_mindspore_1():
    from npspore.nn.layer.basic import check_dense_input_shape
    check_dense_input_shape((2, 3))
    with pytest.raises(ValueError, match=r"^The dimension of 'x' should not be less than 2, but got 1.$"):
        check_dense_input_shape((3,))
    with pytest.raises(ValueError, match=r"^For 'Dense', the dimension of 'x' should not be less than 2, but got 1.$"):
        check_dense_input_shape((3,), "Dense")

    class Net(nn.Cell):   # as MindSpore 1.x models call it, in construct
        def construct(self, x):
            nn.layer.basic.check_dense_input_shape(x.shape)
            return x * 2

    x = ms.Tensor(np.ones((2, 3), np.float32))
    np.testing.assert_array_equal(ms.jit(Net())(x).asnumpy(), np.full((2, 3), 2.0))


def test_quant_dtype_is_mindspore_s():
    assert [(t.name, t.value()) for t in ms.QuantDtype][:2] == [("INT1", 0), ("INT2", 1)]
    assert ms.QuantDtype.UINT16.value() == 115 and str(ms.QuantDtype.INT8) == "INT8" and len(ms.QuantDtype) == 32
    assert ms.dtype.QuantDtype is ms.QuantDtype and ms.QuantDtype(7) is ms.QuantDtype.INT8


def test_numpy_private_helpers():
    from npspore.numpy.utils import _to_tensor
    from npspore.numpy.utils_const import _raise_value_error
    # observed on MindSpore 2.10: 64-bit values narrowed, a Tensor kept, a NumPy array refused
    assert [_to_tensor(v).dtype for v in (1, 1.5, [1, 2], True, (1.0, 2))] == \
        [ms.int32, ms.float32, ms.int32, ms.bool_, ms.float32]
    tensor = ms.Tensor([1.0])
    number, same = _to_tensor(1, tensor)
    assert number.asnumpy().item() == 1 and same is tensor
    with pytest.raises(TypeError, match="^Expect input to be array like.$"):
        _to_tensor(np.ones(2))
    with pytest.raises(ValueError, match="^bad size 3$"):
        _raise_value_error("bad size ", 3)
    with pytest.raises(ValueError, match="^bad$"):
        _raise_value_error("bad")


def test_initializer_fillers_draw_mindspore_s_numbers(isolated_seeds):
    from npspore.common.initializer import _init_random_normal, _init_random_uniform, _init_truncated_normal
    ms.set_seed(5)   # values printed by MindSpore 2.10 after ms.set_seed(5), in this order
    uniform = _init_random_uniform(-0.5, 2.0, (2, 3))
    assert uniform.dtype == np.float32
    np.testing.assert_array_equal(uniform, np.float32([[0.3797661, 1.8598346, 1.2420977],
                                                       [-0.21879159, 1.699138, 0.42456785]]))
    np.testing.assert_array_equal(_init_random_uniform(0, 1, [4]),
                                  np.float32([0.9231093, 0.70892584, 0.3918612, 0.3699806]))
    ms.common.initializer.initializer(ms.common.initializer.Uniform(1.0), [3], ms.float32).init_data()
    np.testing.assert_array_equal(_init_random_normal(0.5, 2.0, (5,)),
                                  np.float32([1.1339676, 1.4838438, 2.7459183, 1.1038436, 4.5169115]))
    np.testing.assert_allclose(_init_truncated_normal(-1.0, 1.0, 0.0, 1.0, (5,)),
                               [0.10475825, 0.8763181, 0.26989964, 0.056575336, 0.83263576], rtol=2e-7)
    with pytest.raises(ValueError, match="^sigma < 0$"):
        _init_random_normal(0.0, -1.0, (2,))


def test_check_random_transform_ops_messages():
    from npspore.dataset.transforms.validators import check_random_transform_ops

    class Apply:
        @check_random_transform_ops
        def __init__(self, transforms, prob=0.5):
            self.transforms, self.prob = transforms, prob

    assert Apply([abs], 1).prob == 1
    cases = [
        (((abs,),), TypeError,
         "Argument transforms list with value (<built-in function abs>,) is not of type [<class 'list'>], but got "
         "<class 'tuple'>."),
        (([],), ValueError, "transforms list can not be empty."),
        (([1],), TypeError, "transforms[0] is neither a transforms op (TensorOperation) nor a callable pyfunc."),
        (([int],), ValueError, "op_list[0] should be a dataset processing operation instance, but got: <class 'int'>. "
                               "It may be missing parentheses for instantiation."),
        (([abs], 2), ValueError, "Input prob is not within the required interval of [0, 1]."),
        (([abs], "1"), TypeError,
         "Argument prob with value 1 is not of type [<class 'float'>, <class 'int'>], but got <class 'str'>."),
    ]
    for args, error, message in cases:
        with pytest.raises(error) as info:
            Apply(*args)
        assert str(info.value) == message


def test_numpy_bincount_as_mindspore():
    import npspore.numpy as mnp
    x = ms.Tensor(np.array([0, 1, 1, 3, 2, 1, 7], np.int32))
    counts = mnp.bincount(x)   # each result printed by MindSpore 2.10 for the same call
    assert counts.dtype == ms.float32 and counts.asnumpy().tolist() == [1, 3, 1, 1, 0, 0, 0, 1]
    assert mnp.bincount(x, minlength=10).asnumpy().tolist() == [1, 3, 1, 1, 0, 0, 0, 1, 0, 0]
    assert mnp.bincount(x, length=4).asnumpy().tolist() == [1, 3, 1, 1]
    weighted = mnp.bincount(np.array([0, 1, 1, 2, 2, 2]), weights=np.array([0.3, 0.5, 0.2, 0.7, 1.0, -0.6]))
    np.testing.assert_allclose(weighted.asnumpy(), [0.3, 0.7, 1.1], rtol=1e-6)
    assert mnp.bincount(ms.Tensor(np.array([-1, 2], np.int32))).asnumpy().tolist() == [1, 0, 1]
    with pytest.raises(TypeError, match="^`x` should be an array of ints$"):
        mnp.bincount(ms.Tensor(np.array([1.0, 2.0], np.float32)))
