"""Hygiene of generated code: compiler names never capture user names, functions that differ only in
their constants stay apart, and user-controlled text (qualnames, file names, argument reprs) reaches
the kernel module only as escaped single-line text, never as code."""
import builtins
import importlib.util

import numpy as np

import npspore as ms
from npspore import nn, ops

A = ms.Tensor(np.array([1.0, 2.0], np.float32))


def _same_compiled_and_eager(fn_or_cell, *args):
    eager = fn_or_cell(*args)
    compiled = ms.jit(fn_or_cell)(*args)
    np.testing.assert_allclose(compiled.asnumpy(), eager.asnumpy(), rtol=1e-6)
    return compiled.asnumpy()


def _softmax_next_to_a_user_name(a):
    p_e = a * 3
    p = ops.softmax(a)
    return p + p_e


def test_op_template_locals_never_capture_user_names():
    result = _same_compiled_and_eager(_softmax_next_to_a_user_name, A)
    np.testing.assert_allclose(result, [3.2689414, 6.7310586], rtol=1e-6)  # softmax([1, 2]) + [3, 6]


class _Scale(nn.Cell):
    def __init__(self, value):
        super().__init__()
        self.value = value

    def construct(self, x):
        return x * ms.Tensor(np.array(self.value, np.float32))


class _TwoScales(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = _Scale([2.0, 2.0])
        self.b = _Scale([3.0, 3.0])

    def construct(self, x):
        return self.a(x) + self.b(x)


def test_functions_with_the_same_text_but_other_constants_are_not_merged():
    assert _same_compiled_and_eager(_TwoScales(), A).tolist() == [5.0, 10.0]


class _Sub(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")

    def construct(self, x):
        return x * self.w


class _ShadowsItsCallee(nn.Cell):
    def __init__(self):
        super().__init__()
        self.sub = _Sub()

    def construct(self, x):
        _Sub_construct = x + 1
        return self.sub(x) + _Sub_construct


def test_a_user_local_named_like_a_generated_function_does_not_shadow_it():
    assert _same_compiled_and_eager(_ShadowsItsCallee(), A).tolist() == [3.0, 5.0]


INJECTED = "__import__('builtins').__dict__.__setitem__('NPSPORE_INJECTED', 1)"


def _check_module_is_inert(source: str):
    compile(source, "<kernel>", "exec")
    assert not hasattr(builtins, "NPSPORE_INJECTED")
    for line in source.splitlines():
        assert not line.startswith(INJECTED[:10]), line


def test_a_qualname_with_newlines_and_quotes_stays_in_its_comment():
    def double(x):
        return x * 2

    double.__qualname__ = f'double"""\n{INJECTED}\n"""\\N{{'
    compiled = ms.jit(double)
    assert compiled(A).asnumpy().tolist() == [2.0, 4.0]
    _check_module_is_inert(compiled.kernel_source(A))


def test_a_file_name_with_newlines_quotes_and_escapes_stays_in_its_comment(tmp_path):
    name = f'm\n{INJECTED}\n"""\\N\\x.py'
    path = tmp_path / name
    path.write_text("def triple(x):\n    return x * 3\n")
    spec = importlib.util.spec_from_file_location("oddly_named", str(path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    compiled = ms.jit(module.triple)
    assert compiled(A).asnumpy().tolist() == [3.0, 6.0]
    _check_module_is_inert(compiled.kernel_source(A))


class _Loud:
    """A hashable Python argument whose repr spans lines."""

    def __repr__(self):
        return f"Loud(\n{INJECTED}\n)"


def _ignores_second(x, flag):
    return x * 4


def test_an_argument_repr_with_newlines_stays_in_its_comment():
    compiled = ms.jit(_ignores_second)
    loud = _Loud()
    assert compiled(A, loud).asnumpy().tolist() == [4.0, 8.0]
    _check_module_is_inert(compiled.kernel_source(A, loud))
