"""Print the values MindSpore 2.10 gives for the APIs the ``tail`` branch fixed or added (run it with the
MindSpore interpreter, /work/msvenv/bin/python); tests/test_tail_apis.py keeps them as literals."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, ops


def softplus_and_threshold() -> None:
    """``ops.threshold`` compares a Float64 input with a Python float in Float32; ``ops.softplus``'s threshold."""
    x = Tensor(np.full((3,), -1.0) + 1.1, ms.float64)
    print("threshold f64 boundary", ops.threshold(x, 0.1, 20.0).asnumpy().tolist())
    print("threshold docstring", ops.threshold(Tensor([0.3, 0.1, 0.4, 0.5, 0.2], ms.float32), 0.3, 20.0))
    y = Tensor(np.array([3.0, 0.5, -1.0, 1.0, 2.0]), ms.float32)
    print("softplus(1, 1)", ops.softplus(y, 1, 1).asnumpy().tolist())
    print("softplus(2, 2)", ops.softplus(y, 2, 2).asnumpy().tolist())
    print("grad softplus(2, 2)", ops.grad(lambda t: ops.softplus(t, 2, 2).sum())(y).asnumpy().tolist())



def show(label: str, thunk) -> None:
    """Print ``label``, the result's dtype and values, or the error MindSpore raises (no CPU kernel ...)."""
    try:
        out = thunk()
        print(label, out.dtype, out.asnumpy().tolist())
    except RuntimeError as error:
        print(label, "RuntimeError:", str(error).splitlines()[0])


def mint_ops_shared() -> None:
    """Names MindSpore 2.10 gives mint and ops alike, and mindspore.numpy's inverse trigonometric functions."""
    from mindspore import mint, numpy as mnp
    show("ops.cross", lambda: ops.cross(Tensor([[1.0, 2, 3]]), Tensor([[4.0, 5, 6]]), 1))
    show("ops.nan_to_num", lambda: ops.nan_to_num(Tensor([float("nan"), float("inf"), -float("inf"), 3.16]), 1.0, 2.0, 3.0))
    show("mint.atan2", lambda: mint.atan2(Tensor([0.0, 1.0]), Tensor([1.0, 1.0])))
    show("mint.atan", lambda: mint.atan(Tensor([1.0, 0.0])))
    show("mint.asin", lambda: mint.asin(Tensor([0.74, 0.04, 0.30, 0.56])))
    show("mint.acos", lambda: mint.acos(Tensor([0.74, 0.04, 0.30, 0.56])))
    show("ops.asin", lambda: ops.asin(Tensor([0.74, 0.04, 0.30, 0.56])))
    show("ops.acos", lambda: ops.acos(Tensor([0.74, 0.04, 0.30, 0.56])))
    show("mint.erfinv", lambda: mint.erfinv(Tensor([0.0, 0.5, -0.9])))
    show("mint.einsum", lambda: mint.einsum("i,i->i", Tensor([1.0, 2.0, 4.0]), Tensor([2.0, 4.0, 1.0])))
    ints = Tensor(np.array([-1, 0, 1], np.int32))
    for name in ("arctan", "arcsin", "arccos"):
        show("numpy." + name, lambda: getattr(mnp, name)(ints))
    show("numpy.arctan2", lambda: mnp.arctan2(ints, Tensor(np.array([1, 1, -1], np.int32))))
    show("numpy.arctan doc", lambda: mnp.arctan(mnp.arange(5).astype("float32")))
    show("numpy.arctan2 doc", lambda: mnp.arctan2(mnp.array([0.0, 1.0, -1.0]), mnp.array([1.0, 1.0, -1.0])))


def summary_images() -> None:
    """The canvas MindSpore's summary adapter encodes for an image summary: its size and decoded pixels."""
    import io
    from PIL import Image
    from mindspore.train.summary._summary_adapter import _fill_image_summary
    from mindspore.train.summary_pb2 import Summary
    for name, array in [("float01", np.linspace(0, 1, 12).reshape(2, 1, 2, 3).astype(np.float32)),
                        ("wide", (np.arange(12).reshape(1, 3, 2, 2) * 3.0 - 5).astype(np.float32))]:
        image = Summary.Image()
        _fill_image_summary(name, array, image)
        pixels = np.asarray(Image.open(io.BytesIO(image.encoded_image)))
        print("image", name, image.height, image.width, image.colorspace, pixels.reshape(-1).tolist())


def primitives() -> None:
    """ops.scatter_nd_add, ops.operations.identity, Dropout2D/Dropout3D's outputs and errors."""
    from mindspore import Parameter
    from mindspore.ops import operations as P
    x = Parameter(Tensor(np.array([1, 2, 3, 4, 5, 6, 7, 8]), ms.float32), name="x")
    show("scatter_nd_add doc", lambda: ops.scatter_nd_add(x, Tensor(np.array([[2], [4], [1], [7]]), ms.int32),
                                                          Tensor(np.array([6, 7, 8, 9]), ms.float32)))
    y = Parameter(Tensor(np.zeros((2, 3)), ms.float32), name="y")
    show("scatter_nd_add 2-D", lambda: ops.scatter_nd_add(y, Tensor(np.array([[0, 1], [1, 2], [0, 1]]), ms.int32),
                                                          Tensor(np.array([1.5, 2.0, 3.0]), ms.float32)))
    show("identity", lambda: P.identity()(Tensor([1.0, 2.0])))
    show("Dropout3D(1.0) mask", lambda: P.Dropout3D(1.0)(Tensor(np.ones((1, 2, 2, 1, 1)), ms.float32))[1])
    for make in (lambda: P.Dropout2D(1.5), lambda: P.Dropout2D(1),
                 lambda: P.Dropout3D(0.5)(Tensor(np.ones((2, 3, 2, 2)), ms.float32))):
        try:
            make()
        except (TypeError, ValueError) as error:
            print(type(error).__name__, str(error).splitlines()[0])


if __name__ == "__main__":
    softplus_and_threshold()
    mint_ops_shared()
    summary_images()
    primitives()
