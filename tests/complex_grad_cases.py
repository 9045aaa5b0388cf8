"""Gradients of complex-valued programs, written against ``mindspore``: run by the real MindSpore 2.10 in
``tools/observe_mindspore_complex_grads.py`` and by npspore (imported under ``npspore.import_hook.mindspore_imports``)
in ``tests/test_complex_grads.py``. Each case is a function of module level (GRAPH mode parses its source) and the
names of its inputs; :func:`observe` runs one case in one mode and dtype and gives what the gradient returned, or
the error it raised."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

Z = np.array([[1 + 2j, -0.5 + 0.3j, 0.2 - 0.1j], [0.4 + 0.4j, 1.5 - 2j, -1 + 1j]])
W = np.array([[0.7 - 1.1j, 2 + 0.5j, 1j], [0.3 + 0.1j, -1 - 1j, 0.5 + 0.25j]])
B = np.array([[0.7 - 1.1j, 2 + 0.5j], [0.3 + 0.1j, -1 - 1j], [0.5 + 0.2j, 1 - 0.3j]])
SENS = np.array([[1 + 1j, 2, -1j], [0.5, 1 - 0.5j, 1]])
RE = np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.5]])
IM = np.array([[0.5, 1.0, -2.0], [1.5, -0.75, 2.0]])
DENSE_WEIGHT = np.array([[0.5 - 0.5j, -0.2, 0.1 + 1j], [0.3 + 0.2j, 0.8, -0.4 - 0.1j]])
DENSE_BIAS = np.array([0.1 + 0.1j, -0.1])
INPUTS = {"z": Z, "w": W, "b": B, "sens": SENS, "re": RE, "im": IM}


def add_out(z, w):
    return z + w


def sub_out(z, w):
    return z - w


def neg_out(z):
    return -z


def mul_out(z, w):
    return z * w


def mul_real_loss(z, w):
    return ops.real(z * w).sum()


def mul_python_float(z):
    return z * 2.5


def div_out(z, w):
    return z / w


def div_abs_loss(z, w):
    return ops.abs(z / w).sum()


def conj_out(z):
    return ops.conj(z)


def conj_div_abs_loss(z, w):
    return ops.abs(ops.conj(z) / w).sum()


def real_loss(z):
    return ops.real(z).sum()


def imag_loss(z):
    return ops.imag(z).sum()


def real_of_exp_loss(z):
    return ops.real(ops.exp(z)).sum()


def abs_out(z):
    return ops.abs(z)


def abs_loss(z):
    return ops.abs(z).sum()


def complex_abs_loss(z):
    return ops.ComplexAbs()(z).sum()


def angle_loss(z):
    return ops.angle(z).sum()


def exp_out(z):
    return ops.exp(z)


def log_out(z):
    return ops.log(z)


def sqrt_out(z):
    return ops.sqrt(z)


def square_out(z):
    return ops.square(z)


def pow_out(z):
    return z ** 2


def sum_out(z):
    return z.sum()


def mean_out(z):
    return z.mean()


def ops_mean_out(z):
    return ops.mean(z)


def reshape_out(z):
    return z.reshape(3, 2)


def transpose_matmul_abs_loss(z, w):
    return ops.abs(ops.matmul(ops.transpose(z, (1, 0)), w)).sum()


def matmul_out(z, b):
    return ops.matmul(z, b)


def matmul_primitive_abs_loss(z, b):
    return ops.abs(ops.MatMul()(z, b)).sum()


def matmul_real_loss(z, b):
    return ops.real(ops.matmul(z, b)).sum()


def complex_out(re, im):
    return ops.Complex()(re, im)


def complex_abs_of_parts_loss(re, im):
    return ops.abs(ops.Complex()(re, im)).sum()


def plus_real_loss(z, re):
    return ops.abs(z + re).sum()


def exp_over_complex_of_reals_loss(z, re):
    return ops.abs(ops.exp(z) / ops.Complex()(re, re)).sum()


def exp_div_out(z, w):
    return ops.exp(z) / w


def log_sqrt_out(z, w):
    return ops.log(z) + ops.sqrt(w)


CASES = {   # name -> (function, input names)
    "add_out": (add_out, ("z", "w")),
    "sub_out": (sub_out, ("z", "w")),
    "neg_out": (neg_out, ("z",)),
    "mul_out": (mul_out, ("z", "w")),
    "mul_real_loss": (mul_real_loss, ("z", "w")),
    "mul_python_float": (mul_python_float, ("z",)),
    "div_out": (div_out, ("z", "w")),
    "div_abs_loss": (div_abs_loss, ("z", "w")),
    "conj_out": (conj_out, ("z",)),
    "conj_div_abs_loss": (conj_div_abs_loss, ("z", "w")),
    "real_loss": (real_loss, ("z",)),
    "imag_loss": (imag_loss, ("z",)),
    "real_of_exp_loss": (real_of_exp_loss, ("z",)),
    "abs_out": (abs_out, ("z",)),
    "abs_loss": (abs_loss, ("z",)),
    "complex_abs_loss": (complex_abs_loss, ("z",)),
    "angle_loss": (angle_loss, ("z",)),
    "exp_out": (exp_out, ("z",)),
    "log_out": (log_out, ("z",)),
    "sqrt_out": (sqrt_out, ("z",)),
    "square_out": (square_out, ("z",)),
    "pow_out": (pow_out, ("z",)),
    "sum_out": (sum_out, ("z",)),
    "mean_out": (mean_out, ("z",)),
    "ops_mean_out": (ops_mean_out, ("z",)),
    "reshape_out": (reshape_out, ("z",)),
    "transpose_matmul_abs_loss": (transpose_matmul_abs_loss, ("z", "w")),
    "matmul_out": (matmul_out, ("z", "b")),
    "matmul_primitive_abs_loss": (matmul_primitive_abs_loss, ("z", "b")),
    "matmul_real_loss": (matmul_real_loss, ("z", "b")),
    "complex_out": (complex_out, ("re", "im")),
    "complex_abs_of_parts_loss": (complex_abs_of_parts_loss, ("re", "im")),
    "plus_real_loss": (plus_real_loss, ("z", "re")),
    "exp_over_complex_of_reals_loss": (exp_over_complex_of_reals_loss, ("z", "re")),
}


class DenseLoss(nn.Cell):
    """``|Dense(x)|`` summed, of a complex ``nn.Dense(3, 2)`` with :data:`DENSE_WEIGHT` and :data:`DENSE_BIAS`."""

    def __init__(self, dtype):
        super().__init__()
        real = np.float32 if dtype == ms.complex64 else np.float64
        complex_type = np.complex64 if real == np.float32 else np.complex128
        self.dense = nn.Dense(3, 2, weight_init=Tensor(DENSE_WEIGHT.astype(complex_type)),
                              bias_init=Tensor(DENSE_BIAS.astype(complex_type)), dtype=dtype)

    def construct(self, x):
        return ops.abs(self.dense(x)).sum()


def _tensor(name: str, dtype) -> Tensor:
    value = INPUTS[name]
    if np.iscomplexobj(value):
        return Tensor(value.astype(np.complex64 if dtype == "complex64" else np.complex128))
    return Tensor(value.astype(np.float32 if dtype == "complex64" else np.float64))


def _shown(value):
    """A Tensor as nested lists of ``[real, imag]`` pairs (a real Tensor: its values), tuples as lists."""
    if isinstance(value, (tuple, list)):
        return [_shown(item) for item in value]
    array = value.asnumpy()
    if np.iscomplexobj(array):
        return {"dtype": str(array.dtype), "value": np.stack([array.real, array.imag], -1).tolist()}
    return {"dtype": str(array.dtype), "value": array.tolist()}


def _gradients(case: str, dtype: str):
    """What ``ms.grad`` (or, for the cases after :data:`CASES`, another gradient API) returns for ``case``."""
    if case in CASES:
        fn, names = CASES[case]
        return ms.grad(fn, grad_position=tuple(range(len(names))))(*[_tensor(n, dtype) for n in names])
    z, w, sens = _tensor("z", dtype), _tensor("w", dtype), _tensor("sens", dtype)
    if case == "value_and_grad_div_abs":
        return ms.value_and_grad(div_abs_loss, grad_position=(0, 1))(z, w)
    if case == "grad_operation_sens":
        return ops.GradOperation(get_all=True, sens_param=True)(exp_div_out)(z, w, sens)
    if case == "grad_operation_log_sqrt_sens":
        return ops.GradOperation(get_all=True, sens_param=True)(log_sqrt_out)(z, w, sens)
    if case == "grad_operation_abs_sens":
        return ops.GradOperation(sens_param=True)(abs_out)(z, sens)
    if case == "grad_operation_first_input":
        return ops.GradOperation()(exp_div_out)(z, w)
    loss = DenseLoss(ms.complex64 if dtype == "complex64" else ms.complex128)
    if case == "dense_abs_loss":
        return ms.grad(loss, grad_position=0, weights=loss.trainable_params())(z)
    optimizers = {"dense_train_sgd": lambda params: nn.SGD(params, 0.1),
                  "dense_train_momentum": lambda params: nn.Momentum(params, 0.1, 0.9),
                  "dense_train_adam": lambda params: nn.Adam(params, 0.1)}
    optimizer = optimizers[case](loss.trainable_params())
    step = nn.TrainOneStepCell(loss, optimizer)
    return step(z), loss.dense.weight.value(), loss.dense.bias.value()


OTHER_CASES = ("value_and_grad_div_abs", "grad_operation_sens", "grad_operation_log_sqrt_sens", "grad_operation_abs_sens",
               "grad_operation_first_input", "dense_abs_loss", "dense_train_sgd", "dense_train_momentum",
               "dense_train_adam")
MODES = ("PYNATIVE", "GRAPH")
DTYPES = ("complex64", "complex128")


def observe(case: str, mode: str, dtype: str):
    """``case``'s gradients in ``mode`` (``"PYNATIVE"``/``"GRAPH"``) and ``dtype``, :func:`_shown`; or the error
    raised as ``"TypeError: <its first line of words>"`` (MindSpore's kernel errors open with a rule of dashes)."""
    ms.set_context(mode=ms.PYNATIVE_MODE if mode == "PYNATIVE" else ms.GRAPH_MODE)
    try:
        return _shown(_gradients(case, dtype))
    except Exception as error:  # the error is the recorded behaviour
        lines = [line for line in str(error).splitlines() if line.strip() and not line.startswith("-")]
        return f"{type(error).__name__}: {lines[0] if lines else ''}"
