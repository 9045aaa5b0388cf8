"""compiler.linewrap: generated lines wrapped at 120 columns of code, to the same syntax tree."""
import ast
import re

import numpy as np

import npspore as ms
from npspore import Tensor
from npspore.compiler.linewrap import wrap_line
from catalogue import ConvPool

_COMMENT = re.compile(r"  # [^#]*:\d+$")


def _code_width(line: str) -> int:
    return len(_COMMENT.sub("", line))


def test_a_long_call_is_wrapped_inside_its_brackets_to_the_same_statement():
    names = ", ".join(f"gradient_of_parameter_{i}" for i in range(12))
    line = f"    d_a, d_b, d_c = backward_of_the_network({names}, axis=(0, 2, 3), keepdims=True)  # net.py:7"
    wrapped = wrap_line(line)
    assert len(wrapped) > 1 and all(_code_width(piece) <= 120 for piece in wrapped)
    assert wrapped[0].endswith("  # net.py:7") and wrapped[0].startswith("    d_a, d_b, d_c = backward_of_the_network(")
    assert ast.dump(ast.parse("\n".join(p.strip() if i == 0 else p for i, p in enumerate(wrapped)))) == \
        ast.dump(ast.parse(line.strip()))


def test_an_argument_that_fits_only_without_the_closing_bracket_is_wrapped_too():
    # the tuple alone ends at column 120 on its continuation line; the call's ")" would make it 121
    items = ", ".join(["t", "ingate_times_tanh_cellgate", "sigmoid_outgate", "tanh_cellgate", "ingate", "c",
                       "forgetgate", "sigmoid_in_forget", "h"])
    line = f"        tape_1.append(({items}))  # rnns.py:122"
    wrapped = wrap_line(line)
    assert len(wrapped) > 2 and all(_code_width(piece) <= 120 for piece in wrapped)
    assert ast.dump(ast.parse("\n".join(p.strip() if i == 0 else p[8:] for i, p in enumerate(wrapped)))) == \
        ast.dump(ast.parse(line.strip()))


def test_a_long_release_is_several_del_lines_and_a_short_line_is_kept():
    line = "    del " + ", ".join(f"intermediate_value_{i}" for i in range(12))
    wrapped = wrap_line(line)
    assert len(wrapped) == 3 and all(piece.startswith("    del ") and len(piece) <= 120 for piece in wrapped)
    assert ", ".join(p[len("    del "):] for p in wrapped) == line[len("    del "):]
    assert wrap_line("    x = f(y)  # a.py:3") == ["    x = f(y)  # a.py:3"]


def test_kernels_fit_in_120_columns_and_fold_their_static_shapes():
    net = ConvPool()
    x = Tensor(np.random.default_rng(0).standard_normal((2, 1, 4, 4)).astype(np.float32))
    grad = ms.grad(net, grad_position=0, weights=net.trainable_params())
    source = grad.kernel_source(x)
    body = [line for line in source.splitlines() if line.startswith("    ")]
    assert max(_code_width(line) for line in body) <= 120
    assert not re.search(r"\brelu\w*\.shape", source)     # an operand's static shape is written as its numbers
    d_x, _ = grad(x)
    delta, probe = 1e-3, np.random.default_rng(1).standard_normal(x.shape).astype(np.float32)
    step = Tensor(probe * delta)
    slope = (net(x + step).asnumpy().sum() - net(x - step).asnumpy().sum()) / (2 * delta)
    np.testing.assert_allclose(float((d_x.asnumpy() * probe).sum()), slope, rtol=2e-2, atol=1e-3)
