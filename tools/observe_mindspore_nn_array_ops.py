"""Print MindSpore 2.10's outputs for the activation, loss, scatter and array ops of tests/test_nn_array_ops.py.

Run with the MindSpore virtualenv (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_nn_array_ops.py``.
:func:`cases` builds each case from the package it is given (MindSpore here, npspore in the test): a function of
Tensors and its input arrays. Printed: ``name: (value as a list, dtype name)`` for each output (a tuple's outputs
as a list of such pairs), pasted into the test's ``MINDSPORE_VALUES``.
"""
import numpy as np

X = np.array([[-1.5, -0.3, 0.0], [0.2, 0.7, 2.0]], np.float32)
SQUARE = np.arange(12).reshape(3, 4).astype(np.float32)
IMAGE = np.arange(24).reshape(1, 2, 3, 4).astype(np.float32) ** 1.5 / 10
GRID = np.array([[[[-1.0, -1.0], [0.31, 0.22], [1.37, 0.93]], [[0.0, -0.6], [-1.8, 0.45], [0.77, -2.6]]]], np.float32)


def cases(ms):
    """``{name: (function of Tensors, input arrays)}`` over the package ``ms``."""
    ops, P = ms.ops, ms.ops.operations

    def scatter_add(x, indices, updates):
        param = ms.Parameter(x, name="x")
        return P.ScatterAdd()(param, indices, updates)

    def scatter_update(x, indices, updates):
        param = ms.Parameter(x, name="x")
        return P.ScatterUpdate()(param, indices, updates)

    def scatter_nd_add(x, indices, updates):
        param = ms.Parameter(x, name="x")
        return P.ScatterNdAdd()(param, indices, updates)

    def bce_logits(logits, labels, weight, pos_weight):
        return P.BCEWithLogitsLoss()(logits, labels, weight, pos_weight)

    def scatter_elements(x, indices, updates):
        return ops.tensor_scatter_elements(x, indices, updates, 1)

    def scatter_elements_add(x, indices, updates):
        return ops.tensor_scatter_elements(x, indices, updates, 0, "add")

    def scatter_sub(x, indices, updates):
        return P.TensorScatterSub()(x, indices, updates)

    def scatter_update_out_of_place(x, indices, updates):
        return P.TensorScatterUpdate()(x, indices, updates)

    def index_add(x, indices, y):
        param = ms.Parameter(x, name="x")
        return P.IndexAdd(axis=1)(param, indices, y)

    def crop(method):
        def crop_and_resize(x, boxes, box_index):
            return P.CropAndResize(method)(x, boxes, box_index, (3, 2))
        return crop_and_resize

    def partial_add(x, y):
        return ops.Partial()(ops.add, x)(y)

    def max_pool_argmax(x):
        return P.MaxPoolWithArgmax(kernel_size=2, strides=2)(x)

    def max_pool_argmax_same(x):
        return P.MaxPoolWithArgmax(kernel_size=3, strides=1, pad_mode="same")(x)

    def pad_v3(x, value):
        return P.PadV3()(x, (1, 2), value)

    def pad_v3_reflect(x):
        return P.PadV3(mode="reflect")(x, (1, 1, 0, 1))

    def mirror_pad(x):
        return P.MirrorPad()(x, ms.Tensor(np.array([[1, 1], [2, 1]]), ms.int64))

    def mirror_pad_symmetric(x):
        return P.MirrorPad(mode="SYMMETRIC")(x, ms.Tensor(np.array([[1, 0], [2, 3]]), ms.int64))

    def sampler(mode, padding_mode, align_corners):
        def sample(x, grid):
            return ops.grid_sample(x, grid, mode, padding_mode, align_corners)
        return sample

    floats = lambda *rows: np.array(rows, np.float32)  # noqa: E731
    ints = lambda *rows: np.array(rows, np.int32)  # noqa: E731
    return {
        "elu": (lambda x: P.Elu()(x), (X,)),
        "prelu_doc": (lambda x, w: P.PReLU()(x, w), (np.arange(-6, 6).reshape((2, 3, 2)).astype(np.float32),
                                                     floats(0.1, 0.6, -0.3))),
        "mish": (lambda x: P.Mish()(x), (X,)),
        "hsigmoid": (lambda x: P.HSigmoid()(x), (floats(-4.0, -2.0, 0.0, 2.0, 4.0),)),
        "softsign": (lambda x: P.Softsign()(x), (X,)),
        "selu": (lambda x: P.SeLU()(x), (X,)),
        "selu_fn": (lambda x: ops.selu(x), (floats(-1.0, 4.0, -8.0),)),
        "celu": (lambda x: P.CeLU(alpha=2.0)(x), (X,)),
        "celu_fn": (lambda x: ops.celu(x, 1.0), (floats(-2.0, -1.0, 1.0, 2.0),)),
        "hshrink": (lambda x: P.HShrink()(x), (X,)),
        "hardshrink_fn": (lambda x: ops.hardshrink(x, 0.25), (X,)),
        "softshrink": (lambda x: P.SoftShrink(lambd=0.25)(x), (X,)),
        "softshrink_fn": (lambda x: ops.softshrink(x), (X,)),
        "mse_loss": (lambda a, b: ops.mse_loss(a, b), (X, np.ones((2, 3), np.float32))),
        "mse_loss_none": (lambda a, b: ops.mse_loss(a, b, reduction="none"), (X, floats(1.0, 0.0, -1.0))),
        "mse_loss_sum": (lambda a, b: ops.mse_loss(a, b, reduction="sum"), (X, floats(1.0, 0.0, -1.0))),
        "sparse_ce": (lambda a, b: P.SparseSoftmaxCrossEntropyWithLogits()(a, b), (X, ints(2, 0))),
        "sparse_ce_grad": (lambda a, b: P.SparseSoftmaxCrossEntropyWithLogits(is_grad=True)(a, b), (X, ints(2, 0))),
        "kldiv": (lambda a, b: P.KLDivLoss()(a, b), (X, np.abs(X[::-1]).copy())),
        "kldiv_sum": (lambda a, b: P.KLDivLoss(reduction="sum")(a, b), (X, np.abs(X[::-1]).copy())),
        "bce_logits": (bce_logits, (X, floats([0.0, 1.0, 0.5], [1.0, 0.0, 1.0]), floats(1.0, 2.0, 0.5),
                                    floats(1.0, 1.0, 3.0))),
        "tril": (lambda x: P.Tril()(x), (SQUARE,)),
        "tril_fn": (lambda x: ops.tril(x, -1), (SQUARE,)),
        "triu_fn": (lambda x: ops.triu(x, 1), (SQUARE,)),
        "nonzero": (lambda x: ops.nonzero(x), (ints([0, 1, 0], [2, 0, 3]),)),
        "nonzero_prim": (lambda x: P.NonZero()(x), (np.array([[True, False], [True, True]]),)),
        "masked_select": (lambda x, m: P.MaskedSelect()(x, m), (SQUARE, SQUARE % 3 == 0)),
        "stop_gradient": (lambda x: P.StopGradient()(x), (X,)),
        "index_select": (lambda x, i: ops.index_select(x, 1, i), (SQUARE, ints(3, 0, 3))),
        "chunk": (lambda x: ops.chunk(x, 3, 1), (SQUARE,)),
        "repeat_interleave": (lambda x: ops.repeat_interleave(x, 2, 1), (X,)),
        "repeat_interleave_flat": (lambda x: ops.repeat_interleave(x, 2), (X,)),
        "narrow": (lambda x: ops.narrow(x, 1, 1, 2), (SQUARE,)),
        "unbind": (lambda x: ops.unbind(x, 1), (X,)),
        "swapaxes": (lambda x: ops.swapaxes(x, 0, 1), (X,)),
        "dstack": (lambda a, b: ops.dstack([a, b]), (X, X * 2)),
        "top_k": (lambda x: ops.top_k(x, 2), (X,)),
        "tensor_scatter_add": (ops.tensor_scatter_add, (SQUARE, ints([0, 1], [2, 3], [0, 1]),
                                                        floats(1.0, 2.0, 3.0))),
        "tensor_scatter_update": (scatter_update_out_of_place, (SQUARE, ints([1], [2]),
                                                            floats([1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]))),
        "tensor_scatter_sub": (scatter_sub, (SQUARE, ints([0, 1], [2, 3]), floats(1.0, 2.0))),
        "tensor_scatter_elements": (scatter_elements, (SQUARE, ints([3, 0], [1, 1], [2, 0]),
                                                       floats([1.0, 2.0], [3.0, 4.0], [5.0, 6.0]))),
        "tensor_scatter_elements_add": (scatter_elements_add, (SQUARE, ints([2, 0, 2, 1]),
                                                               floats([1.0, 2.0, 3.0, 4.0]))),
        "scatter_add": (scatter_add, (SQUARE, ints(0, 2, 0), floats([1.0] * 4, [2.0] * 4, [3.0] * 4))),
        "scatter_update": (scatter_update, (SQUARE, ints([2], [0]), floats([[1.0] * 4], [[2.0] * 4]))),
        "reverse_sequence": (lambda x, n: P.ReverseSequence(seq_dim=1)(x, n), (SQUARE, ints(1, 2, 3))),
        "reverse_sequence_batch1": (lambda x, n: P.ReverseSequence(0, 1)(x, n), (SQUARE, ints(3, 1, 0, 2))),
        "range": (lambda a, b, c: P.Range()(a, b, c), (np.array(0, np.int32), np.array(10, np.int32),
                                                       np.array(4, np.int32))),
        "tensor_shape": (lambda x: P.TensorShape()(x), (SQUARE,)),
        "diag_part": (lambda x: P.DiagPart()(x), (np.arange(16).reshape(4, 4).astype(np.float32),)),
        "diag_part_4d": (lambda x: P.DiagPart()(x), (np.arange(36).reshape(2, 3, 2, 3).astype(np.float32),)),
        "inplace_add": (lambda x, v: P.InplaceAdd((0, 2))(x, v), (SQUARE, np.ones((2, 4), np.float32))),
        "index_add": (index_add, (SQUARE, ints(0, 2), np.ones((3, 2), np.float32))),
        "lrn": (lambda x: P.LRN(depth_radius=1, bias=1.0, alpha=0.5, beta=0.75)(x),
                (np.arange(16).reshape(1, 4, 2, 2).astype(np.float32) / 8,)),
        "lrn_default": (lambda x: P.LRN()(x), (np.arange(-8, 8).reshape(1, 4, 2, 2).astype(np.float32),)),
        "partial": (partial_add, (np.array(1.0, np.float32), np.array(2.0, np.float32))),
        "crop_and_resize": (crop("bilinear"), (np.arange(80).reshape(2, 4, 5, 2).astype(np.float32),
                                               floats([0.1, 0.2, 0.9, 0.7], [-0.2, 0.3, 0.5, 1.2]), ints(1, 0))),
        "crop_and_resize_nearest": (crop("nearest"), (np.arange(80).reshape(2, 4, 5, 2).astype(np.float32),
                                                      floats([0.1, 0.2, 0.9, 0.7], [0.0, 0.3, 0.5, 1.0]),
                                                      ints(1, 0))),
        "fast_gelu": (lambda x: ops.fast_gelu(x), (X,)),
        "fast_gelu_prim": (lambda x: P.FastGeLU()(x), (X,)),
        "dense": (lambda x, w, b: P.Dense()(x, w, b), (X, np.ones((2, 3), np.float32), floats(1.0, 2.0))),
        "transpose_view": (lambda x: P.TransposeView()(x, (1, 0)), (X,)),
        "transpose_ext_view": (lambda x: P.TransposeExtView()(x, 0, 1), (X,)),
        "max_pool_with_argmax": (max_pool_argmax, (np.arange(96).reshape(2, 3, 4, 4).astype(np.float32) % 7,)),
        "max_pool_with_argmax_same": (max_pool_argmax_same,
                                      (np.arange(96).reshape(2, 3, 4, 4).astype(np.float32) % 7,)),
        "pad_v3": (pad_v3, (X, np.array(0.5, np.float32))),
        "pad_v3_reflect": (pad_v3_reflect, (np.arange(12).reshape(1, 2, 2, 3).astype(np.float32),)),
        "mirror_pad": (mirror_pad, (X,)),
        "mirror_pad_symmetric": (mirror_pad_symmetric, (X,)),
        "grid_sample_doc": (sampler("bilinear", "zeros", False),
                            (np.arange(16).reshape((2, 2, 2, 2)).astype(np.float32),
                             np.arange(0.2, 1, 0.1).reshape((2, 2, 1, 2)).astype(np.float32))),
        "grid_sample_zeros": (sampler("bilinear", "zeros", False), (IMAGE, GRID)),
        "grid_sample_border_align": (sampler("bilinear", "border", True), (IMAGE, GRID)),
        "grid_sample_reflection": (sampler("bilinear", "reflection", False), (IMAGE, GRID)),
        "grid_sample_reflection_align": (sampler("bilinear", "reflection", True), (IMAGE, GRID)),
        "grid_sample_nearest": (sampler("nearest", "zeros", False), (IMAGE, GRID)),
        "grid_sample_nearest_border": (sampler("nearest", "border", True), (IMAGE, GRID)),
        "unique_doc": (lambda x: P.Unique()(x), (ints(1, 2, 5, 2),)),
        "unique_int64": (lambda x: P.Unique()(x), (np.array([5, 1, 2, 1, 5, 3], np.int64),)),
        "unique_fn": (lambda x: ops.unique(x), (floats([2.5, 1.0, 0.5], [1.0, 2.5, 7.0]),)),
        "reverse_sequence_fn": (lambda x, n: ops.reverse_sequence(x, n, 1), (SQUARE, ints(1, 2, 3))),
        "inplace_add_fn": (lambda x, v: ops.inplace_add(x, v, (1,)), (SQUARE, np.ones((1, 4), np.float32))),
        "lrn_fn": (lambda x: ops.lrn(x, 2, 2.0, 0.25, 0.5),
                   (np.arange(16).reshape(1, 4, 2, 2).astype(np.float32) / 8,)),
        "tensor_scatter_elements_prim": (lambda x, i, u: P.TensorScatterElements(1, "add")(x, i, u),
                                         (SQUARE, ints([3, 0], [1, 1], [2, 0]),
                                          floats([1.0, 2.0], [3.0, 4.0], [5.0, 6.0]))),
        "grid_sampler_2d": (lambda x, g: P.GridSampler2D("bilinear", "border", True)(x, g), (IMAGE, GRID)),
        "scatter_nd_add": (scatter_nd_add, (SQUARE, ints([0, 1], [2, 3], [0, 1]), floats(1.0, 2.0, 3.0))),
    }


def shown(value):
    if isinstance(value, (tuple, list)):
        return [shown(v) for v in value]
    return (value.asnumpy().tolist(), str(value.dtype))


def main():
    import mindspore as ms

    for name, (fn, inputs) in cases(ms).items():
        try:
            print(f"    {name!r}: {shown(fn(*[ms.Tensor(a) for a in inputs]))!r},")
        except (TypeError, ValueError, RuntimeError) as error:
            print(f"    # {name}: {type(error).__name__}: {str(error).splitlines()[0]}")


if __name__ == "__main__":
    main()
