"""Print what MindSpore 2.10's ``CTCLoss`` primitive computes, for tests/test_ctc.py.

Run with the MindSpore virtualenv (never the project's):
``/work/msvenv/bin/python tools/observe_mindspore_ctc.py``.
Prints the docstring example's loss and gradient, then the losses and gradients (rounded to 6 decimals) of
``CASES``: logits of ``numpy.random.RandomState(0).randn(4, 3, 4)`` with labels of two, two repeated, one
label and sequence lengths below the steps; labels longer than a sequence (``ignore_longer_outputs_than_inputs``
True); a repeated label with no time for the blank between; float64 logits; and ``ms.grad`` of a weighted sum
of the losses. MindSpore's kernel does not write the gradient rows past a sequence's end: they hold what the
memory held (an earlier call's values); the test compares the rows it writes, and the grad's such row is zeroed.
"""
import numpy as np

DOCSTRING_X = [[[0.3, 0.6, 0.6], [0.4, 0.3, 0.9]], [[0.9, 0.4, 0.2], [0.9, 0.9, 0.1]]]
# name -> (labels_indices, labels_values, sequence_length, ignore_longer_outputs_than_inputs)
CASES = {
    "two labels, repeats, one label": ([[0, 0], [0, 1], [1, 0], [1, 1], [2, 0]], [0, 1, 1, 1, 2], [4, 3, 4], False),
    "longer than the input, ignored": ([[0, 0], [0, 1], [0, 2], [1, 0]], [0, 1, 0, 2], [2, 4, 4], True),
    "no time for the blank": ([[0, 0], [0, 1]], [1, 1], [2, 4, 4], False),
}


def logits():
    return np.random.RandomState(0).randn(4, 3, 4).astype(np.float32)


def run(ms, name, dtype=np.float32):
    """``(loss, gradient)`` arrays of case ``name`` with the package ``ms`` (MindSpore or npspore)."""
    indices, values, lengths, ignore = CASES[name]
    ctc = ms.ops.operations.CTCLoss(ignore_longer_outputs_than_inputs=ignore)
    loss, gradient = ctc(ms.Tensor(logits().astype(dtype)), ms.Tensor(np.array(indices), ms.int64),
                         ms.Tensor(np.array(values), ms.int32), ms.Tensor(np.array(lengths), ms.int32))
    return loss.asnumpy(), gradient.asnumpy()


def weighted_loss(ms):
    """The function of the logits whose ``ms.grad`` is printed: the first case's losses weighted 1, 2, 3."""
    indices, values, lengths, _ = CASES["two labels, repeats, one label"]
    ctc = ms.ops.operations.CTCLoss()
    labels_indices, labels_values = ms.Tensor(np.array(indices), ms.int64), ms.Tensor(np.array(values), ms.int32)
    sequence_length, weights = ms.Tensor(np.array(lengths), ms.int32), ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))

    def loss(x):
        return (ctc(x, labels_indices, labels_values, sequence_length)[0] * weights).sum()

    return loss


def main():
    import mindspore as ms

    loss, gradient = ms.ops.operations.CTCLoss()(
        ms.Tensor(np.array(DOCSTRING_X, np.float32)), ms.Tensor(np.array([[0, 0], [1, 0]]), ms.int64),
        ms.Tensor(np.array([2, 2]), ms.int32), ms.Tensor(np.array([2, 2]), ms.int32))
    print("docstring", loss.asnumpy().tolist(), gradient.asnumpy().round(6).tolist())
    for name in CASES:
        loss, gradient = run(ms, name)
        print(name, loss.tolist(), gradient.round(6).tolist())
    loss, gradient = run(ms, "two labels, repeats, one label", np.float64)
    print("float64", loss.dtype, gradient.dtype, loss.tolist())
    dx = ms.grad(weighted_loss(ms))(ms.Tensor(logits())).asnumpy()
    dx[3, 1] = 0
    print("grad", dx.round(6).tolist())


if __name__ == "__main__":
    main()
