"""API fixes and additions of the ``tail`` branch, against MindSpore 2.10's values recorded by
tools/observe_mindspore_tail.py."""
import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, mint, ops
from npspore import numpy as mnp
from npspore.testing import check_grads


def threshold_at_boundary(x):
    return ops.threshold(x, 0.1, 20.0)


def test_threshold_compares_float64_with_a_python_float_in_float32_eager_and_compiled():
    # MindSpore 2.10: -1 + 1.1 (0.10000000000000009) is not above 0.1 taken as Float32 -> all 20.0
    x = Tensor(np.full((3,), -1.0) + 1.1, ms.float64)
    np.testing.assert_array_equal(threshold_at_boundary(x).asnumpy(), [20.0, 20.0, 20.0])
    np.testing.assert_array_equal(ms.jit(threshold_at_boundary)(x).asnumpy(), [20.0, 20.0, 20.0])


def test_threshold_docstring():
    x = Tensor([0.3, 0.1, 0.4, 0.5, 0.2], ms.float32)
    np.testing.assert_allclose(ops.threshold(x, 0.3, 20.0).asnumpy(), [20.0, 20.0, 0.4, 0.5, 20.0], rtol=1e-7)


def softplus_2_2(x):
    return ops.softplus(x, 2, 2)


def test_softplus_keeps_the_input_above_threshold():
    y = Tensor(np.array([3.0, 0.5, -1.0, 1.0, 2.0]), ms.float32)
    np.testing.assert_allclose(ops.softplus(y, 1, 1).asnumpy(),
                               [3.0, 0.9740768671035767, 0.3132612109184265, 1.3132610321044922, 2.0], rtol=3e-6)
    expected = [3.0, 0.6566305160522461, 0.0634639710187912, 1.0634640455245972, 2.0]
    np.testing.assert_allclose(softplus_2_2(y).asnumpy(), expected, rtol=3e-6)
    np.testing.assert_allclose(ms.jit(softplus_2_2)(y).asnumpy(), expected, rtol=3e-6)
    np.testing.assert_allclose(ops.grad(lambda t: softplus_2_2(t).sum())(y).asnumpy(),
                               [1.0, 0.7310588955879211, 0.1192028671503067, 0.8807971477508545, 1.0], rtol=3e-6)
    check_grads(softplus_2_2, [np.array([3.0, 0.5, -1.0, 0.7, 2.0])], order=1)


def test_mint_and_ops_share_the_objects_mindspore_shares():
    shared = ("isclose", "roll", "cross", "nan_to_num", "trunc", "erfc", "sinc", "ravel", "logical_xor", "expm1",
              "atanh", "arctanh", "searchsorted", "erfinv")
    assert [name for name in shared if getattr(mint, name) is not getattr(ops, name)] == []


def test_ops_names_that_came_from_mint_have_mindsporess_values():
    # MindSpore 2.10 (tools/observe_mindspore_tail.py)
    np.testing.assert_array_equal(ops.cross(Tensor([[1.0, 2, 3]]), Tensor([[4.0, 5, 6]]), 1).asnumpy(),
                                  [[-3.0, 6.0, -3.0]])
    np.testing.assert_allclose(
        ops.nan_to_num(Tensor([float("nan"), float("inf"), -float("inf"), 3.16]), 1.0, 2.0, 3.0).asnumpy(),
        [1.0, 2.0, 3.0, 3.1600000858306885])
    np.testing.assert_array_equal(ops.ravel(Tensor(np.ones((2, 3), np.float32))).shape, (6,))


def test_mint_inverse_trigonometry_erfinv_einsum():
    # MindSpore 2.10 has no CPU kernel for mint.atan/asin/acos/atan2 (AtanExt ...): their docstrings' values
    np.testing.assert_allclose(mint.atan(Tensor([1.0, 0.0])).asnumpy(), [0.7853982, 0.0], rtol=1e-6)
    # (their docstrings' asin/acos of x are off in the 6th digit: MindSpore 2.10 CPU's ops.asin/ops.acos give these)
    x = Tensor([0.74, 0.04, 0.30, 0.56])
    np.testing.assert_allclose(mint.asin(x).asnumpy(),
                               [0.8330703973770142, 0.04001067206263542, 0.30469265580177307, 0.5943858027458191],
                               rtol=1e-6)
    np.testing.assert_allclose(mint.acos(x).asnumpy(),
                               [0.7377259731292725, 1.5307856798171997, 1.2661036252975464, 0.9764105081558228],
                               rtol=1e-6)
    np.testing.assert_allclose(mint.atan2(Tensor([0.0, 1.0]), Tensor([1.0, 1.0])).asnumpy(), [0.0, 0.785398],
                               atol=1e-6)
    assert mint.arctan2 is ops.arctan2 and mint.arcsin is ops.arcsin and mint.arccos is ops.arccos
    # recorded on MindSpore 2.10 CPU
    np.testing.assert_allclose(mint.erfinv(Tensor([0.0, 0.5, -0.9])).asnumpy(),
                               [0.0, 0.4769362807273865, -1.1630871295928955], rtol=1e-6)
    # mint.einsum is Ascend-only in MindSpore 2.10: the product its equation names
    np.testing.assert_array_equal(
        mint.einsum("i,i->i", Tensor([1.0, 2.0, 4.0]), Tensor([2.0, 4.0, 1.0])).asnumpy(), [2.0, 8.0, 4.0])


def test_numpy_inverse_trigonometry():
    # MindSpore 2.10's mindspore.numpy (tools/observe_mindspore_tail.py): integers give Float32
    ints = Tensor(np.array([-1, 0, 1], np.int32))
    expected = {"arctan": [-0.7853982, 0.0, 0.7853982], "arcsin": [-1.5707964, 0.0, 1.5707964],
                "arccos": [3.1415927, 1.5707964, 0.0]}
    for name, values in expected.items():
        out = getattr(mnp, name)(ints)
        assert out.dtype == ms.float32
        np.testing.assert_allclose(out.asnumpy(), values, rtol=1e-6)
    out = mnp.arctan2(ints, Tensor(np.array([1, 1, -1], np.int32)))
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), [-0.7853981852531433, 0.0, 2.356194496154785], rtol=1e-6)
    np.testing.assert_allclose(mnp.arctan(mnp.arange(5).astype("float32")).asnumpy(),
                               [0.0, 0.7853981852531433, 1.1071487665176392, 1.249045729637146, 1.3258177042007446],
                               rtol=1e-6)
    np.testing.assert_allclose(mnp.arctan2(mnp.array([0.0, 1.0, -1.0]), mnp.array([1.0, 1.0, -1.0])).asnumpy(),
                               [0.0, 0.7853981852531433, -2.356194496154785], rtol=1e-6)


def numpy_arctan2(a, b):
    return mnp.arctan2(mnp.arcsin(a * 0.5), mnp.arctan(b))


def test_numpy_inverse_trigonometry_compiles_and_differentiates():
    from composition_checks import check_composition
    check_composition(numpy_arctan2)


def test_nn_linear_is_mint_nn_linear_with_mindsporess_values():
    from npspore import nn
    assert nn.Linear is mint.nn.Linear
    # MindSpore 2.10: nn.Linear(3, 2, weight_init='ones', bias_init='zeros') on [[1, 2, 3], [4, 5, 6]] and [[1, -2, 3]]
    layer = nn.Linear(3, 2, weight_init="ones", bias_init="zeros")
    np.testing.assert_array_equal(layer(Tensor(np.array([[1.0, 2, 3], [4, 5, 6]], np.float32))).asnumpy(),
                                  [[6.0, 6.0], [15.0, 15.0]])
    np.testing.assert_array_equal(ms.jit(layer.construct)(Tensor(np.array([[1.0, -2, 3]], np.float32))).asnumpy(),
                                  [[2.0, 2.0]])
    assert (layer.weight.shape, layer.bias.shape) == ((2, 3), (2,))
    assert repr(layer) == "Linear(input_features=3, output_features=2, has_bias=True)"
    assert repr(nn.Linear(3, 2, bias=False)) == "Linear(input_features=3, output_features=2)"


def test_nn_linear_draws_fresh_weights_each_time():
    from npspore import nn
    ms.set_seed(5)
    first = nn.Linear(8, 3).weight.asnumpy()
    ms.set_seed(6)
    assert not np.array_equal(nn.Linear(8, 3).weight.asnumpy(), first)
    assert nn.Linear(8, 3) is not nn.Linear(8, 3)


class ImageNet(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.image = ops.ImageSummary()

    def construct(self, x):
        self.image("img", x)
        return x + 1


def written_images(log_dir):
    """The (tag, height, width, colorspace, decoded pixels) of every image in the summary file of ``log_dir``."""
    import io
    import os
    from PIL import Image
    from npspore.core import record_framing
    from npspore.train.summary.summary_proto import event_message
    (name,) = os.listdir(log_dir)
    path = os.path.join(log_dir, name)
    found = []
    for data in record_framing.records(open(path, "rb").read(), path):
        event = event_message()()
        event.ParseFromString(data)
        for value in event.summary.value:
            image = value.image
            pixels = np.asarray(Image.open(io.BytesIO(image.encoded_image)))
            found.append((value.tag, image.height, image.width, image.colorspace, pixels.reshape(-1).tolist()))
    return found


# MindSpore 2.10's _fill_image_summary of the batch below: a 2 x 6 RGB canvas (tools/observe_mindspore_tail.py)
FLOAT01_PIXELS = [0, 0, 0, 23, 23, 23, 46, 46, 46, 139, 139, 139, 162, 162, 162, 185, 185, 185, 69, 69, 69, 92, 92,
                  92, 115, 115, 115, 208, 208, 208, 231, 231, 231, 255, 255, 255]


def test_image_summary_writes_mindsporess_png_eager_and_compiled(tmp_path):
    from npspore.train.summary import SummaryRecord
    batch = Tensor(np.linspace(0, 1, 12).reshape(2, 1, 2, 3).astype(np.float32))
    for compiled in (False, True):
        log_dir = tmp_path / str(compiled)
        net = ImageNet()
        with SummaryRecord(str(log_dir)) as record:
            (ms.jit(net.construct) if compiled else net)(batch)
            record.record(1)
        assert written_images(log_dir) == [("img", 2, 6, 3, FLOAT01_PIXELS)]


def test_image_summary_maps_any_range_and_checks_the_shape(tmp_path):
    from npspore.train.summary import SummaryRecord
    with SummaryRecord(str(tmp_path)) as record:
        record.add_value("image", "wide", Tensor((np.arange(12).reshape(1, 3, 2, 2) * 3.0 - 5).astype(np.float32)))
        record.record(2)
    # MindSpore 2.10's _fill_image_summary: values mapped linearly from their minimum
    assert written_images(tmp_path) == [("wide", 2, 2, 3, [0, 90, 180, 22, 112, 202, 45, 135, 225, 67, 157, 247])]
    with pytest.raises(ValueError, match=r"ImageSummary.*\(N, C, H, W\) with C 1 or 3, but got shape \(2, 3\)"):
        ops.ImageSummary()("a", Tensor(np.ones((2, 3), np.float32)))


def test_scatter_nd_add_docstring_and_2d():
    # MindSpore 2.10 (tools/observe_mindspore_tail.py): ops.scatter_nd_add's docstring example and a 2-D case
    x = ms.Parameter(Tensor(np.array([1, 2, 3, 4, 5, 6, 7, 8]), ms.float32), name="x")
    out = ops.scatter_nd_add(x, Tensor(np.array([[2], [4], [1], [7]]), ms.int32), Tensor(np.array([6, 7, 8, 9]), ms.float32))
    np.testing.assert_array_equal(out.asnumpy(), [1, 10, 9, 4, 12, 6, 7, 17])
    np.testing.assert_array_equal(x.asnumpy(), [1, 10, 9, 4, 12, 6, 7, 17])
    y = ms.Parameter(Tensor(np.zeros((2, 3)), ms.float32), name="y")
    out = ops.scatter_nd_add(y, Tensor(np.array([[0, 1], [1, 2], [0, 1]]), ms.int32),
                             Tensor(np.array([1.5, 2.0, 3.0]), ms.float32))
    np.testing.assert_array_equal(out.asnumpy(), [[0.0, 4.5, 0.0], [0.0, 0.0, 2.0]])


def test_operations_identity():
    from npspore.ops import operations as P
    np.testing.assert_array_equal(P.identity()(Tensor([1.0, 2.0])).asnumpy(), [1.0, 2.0])


class ChannelDropoutNet(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.drop = ops.operations.Dropout2D(0.5)

    def construct(self, x):
        return self.drop(x)


def test_dropout2d_dropout3d_drop_whole_channels_eager_and_compiled():
    from npspore.ops import operations as P
    x = Tensor(np.ones((4, 6, 2, 3)), ms.float32)
    for run_net in (ChannelDropoutNet(), ms.jit(ChannelDropoutNet().construct)):
        out, mask = run_net(x)
        assert (out.dtype, mask.dtype, out.shape, mask.shape) == (ms.float32, ms.bool_, (4, 6, 2, 3), (4, 6, 2, 3))
        per_channel = out.asnumpy().reshape(24, 6)
        assert set(np.unique(per_channel)) <= {0.0, 2.0} and 0 < (per_channel[:, 0] == 2).sum() < 24
        np.testing.assert_array_equal(per_channel, per_channel[:, :1].repeat(6, axis=1))   # whole channels
        np.testing.assert_array_equal(mask.asnumpy(), out.asnumpy() > 0)
    # MindSpore 2.10: keep_prob 1.0 keeps everything; the errors
    out, mask = P.Dropout3D(1.0)(Tensor(np.ones((1, 2, 2, 1, 1)), ms.float32))
    assert out.asnumpy().tolist() == np.ones((1, 2, 2, 1, 1)).tolist() and mask.asnumpy().all()
    with pytest.raises(ValueError, match=r"For 'Dropout2D', the 'keep_prob' must be in range of \[0.0, 1.0\], but got 1.5"):
        P.Dropout2D(1.5)
    with pytest.raises(TypeError, match="For 'Dropout2D', the type of 'keep_prob' should be 'float', but got type 'int'"):
        P.Dropout2D(1)
    with pytest.raises(ValueError, match=r"For primitive\[Dropout3D\], the rank of input  must be equal to 5 , but got 4"):
        P.Dropout3D(0.5)(x)
    check_grads(lambda t: P.Dropout2D(1.0)(t)[0] * t, [np.array([[[[0.5, -0.3]]]])], order=1)
