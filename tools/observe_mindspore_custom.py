"""Print what MindSpore 2.10's ``ops.Custom`` (``func_type="pyfunc"``) computes, for tests/test_custom_op.py.

Run with the MindSpore virtualenv (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_custom.py``.
Prints, in PYNATIVE and GRAPH mode: the docstring example's output shape, a pyfunc with a bprop (forward and
gradients), a pyfunc with two outputs, a declared empty shape; then the constructor's errors.
"""
import numpy as np


def cases(ms):
    """``[(label, value)]`` of the calls the test repeats with npspore (``ms``: the package)."""
    ops, Tensor = ms.ops, ms.Tensor
    x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 4.0], np.float32))
    ones = Tensor(np.ones([16, 16]).astype(np.float32))

    def func_pyfunc(x1, x2):
        return x1 + x2

    def mul_add(a, b):
        return a * b + 1

    def mul_add_bprop(a, b, out, dout):
        return dout * b, dout * a * 2

    example = ops.Custom(func_pyfunc, lambda x, _: x, lambda x, _: x, "pyfunc")
    with_bprop = ops.Custom(mul_add, lambda x, _: x, lambda x, _: x, "pyfunc", bprop=mul_add_bprop)

    def two(a):
        return a + 1, (a * 2).astype(np.int32)

    two_outputs = ops.Custom(two, ((2,), (2,)), (ms.float32, ms.int32), "pyfunc")
    placeholder = ops.Custom(lambda a: 3.0, (), ms.float32, "pyfunc")

    def loss(a, b):
        return (with_bprop(a, b) * Tensor(np.array([1.0, -2.0], np.float32))).sum()

    grads = ms.grad(loss, (0, 1))(x, y)
    first, second = two_outputs(x)
    return [("example shape", example(ones, ones).shape),
            ("bprop forward", with_bprop(x, y).asnumpy().tolist()),
            ("bprop grads", [g.asnumpy().tolist() for g in grads]),
            ("two outputs", (first.asnumpy().tolist(), str(first.dtype), second.asnumpy().tolist(), str(second.dtype))),
            ("placeholder", (placeholder(x).asnumpy().tolist(), placeholder(x).shape))]


def main():
    import mindspore as ms

    for mode, label in ((ms.PYNATIVE_MODE, "PYNATIVE"), (ms.GRAPH_MODE, "GRAPH")):
        ms.set_context(mode=mode)
        for name, value in cases(ms):
            print(label, name, value)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    for kind in ("foo", "hybrid"):
        try:
            ms.ops.Custom(lambda a: a, (2,), ms.float32, kind)
        except (TypeError, ValueError) as error:
            print(kind, type(error).__name__, str(error).split(", 'func'")[0], "...", str(error).split(">, ")[-1])
    try:
        ms.ops.Custom(lambda a: a, None, ms.float32, "pyfunc")(ms.Tensor(np.ones(2, np.float32)))
    except TypeError as error:
        print("no out_shape", str(error).split(">, ")[-1])


if __name__ == "__main__":
    main()
