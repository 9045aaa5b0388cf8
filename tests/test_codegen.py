"""compiler.codegen on hand-built typed normal form: the rendered module is deterministic, cites
source lines, and computes what ``ir.evaluate`` computes."""
import importlib.util
import re

import numpy as np

from npspore import Tensor, nn
from npspore.compiler import cache, ir
from npspore.compiler.codegen import Renderer, render_module
from npspore.compiler.optimize import optimize
from npspore.jit import cell_kernel_source
from test_differentiate import Prog, rand


def mlp_module():
    p = Prog(x=((4, 3), np.float32), w=((3, 2), np.float32))
    x, w = p.params
    h = p.op("relu", p.op("matmul", x, w), hint="h")
    return p.module(p.op("sum", p.op("mul", h, h), axis=None, keepdims=False, hint="loss"), h)


def run_rendered(module, *args):
    namespace = cache.execute(render_module(module), "<test_codegen>")
    results = namespace["kernel"](*args)
    return results if isinstance(results, tuple) else (results,)


def test_rendering_is_deterministic():
    assert render_module(optimize(mlp_module())) == render_module(optimize(mlp_module()))


def test_generated_lines_cite_the_source_line_and_keep_names():
    source = render_module(optimize(mlp_module()))
    body = source[source.index("def f("):]
    assert "# prog.py:7" in body
    # relu writes into the matmul's buffer (it dies there); sum(h * h) is a dot product
    assert "    np.maximum(t, 0, out=t)  # prog.py:7\n" in body and "    loss = np.dot(t_0, t_0)  # prog.py:7\n" in body
    assert source.rstrip().endswith("kernel = f")


def test_rendered_kernel_computes_what_the_ir_means():
    module = optimize(mlp_module())
    x, w = rand(4, 3).astype(np.float32), rand(3, 2, seed=1).astype(np.float32)
    for compiled, expected in zip(run_rendered(module, x, w), ir.evaluate(module, x, w)):
        np.testing.assert_allclose(compiled, expected, rtol=1e-6)
        assert np.asarray(compiled).dtype == np.asarray(expected).dtype


def test_release_effects_render_as_del():
    p = Prog(x=(300, 300))
    (x,) = p.params
    module = optimize(p.module(p.op("matmul", p.op("exp", x, hint="big"), x)))
    assert "    del big\n" in render_module(module)


def test_static_template_expressions_are_folded_to_literals():
    # Templates index and compare their static tuples (padding, strides); once substituted they are known.
    import ast

    from npspore.compiler.inlinefold import FoldStaticExpressions

    def folded(text):
        return ast.unparse(FoldStaticExpressions().visit(ast.parse(text, mode="eval")))

    assert folded("np.pad(x, (1, 1, 2, 2)[:2]) if (1, 1, 2, 2) != (0, 0, 0, 0) else x") == "np.pad(x, (1, 1))"
    assert folded("np.pad(x, p) if (0, 0) != (0, 0) else x") == "x"
    assert folded("x[:, (3, 4)[0] + (1, 1)[1]:(32, 16, 4, 4)[2] * 2]") == "x[:, 4:8]"
    assert folded("y * (2, 2)[0] - max((1, 2))") == "y * 2 - max((1, 2))"   # calls stay for run time
    assert folded("g if 0 % len((1000, 128)) == 0 else h") == "g"            # but a static tuple's length
    assert folded("y - len(x)") == "y - len(x)"
    assert folded("x / (0 // 0)") == "x / (0 // 0)"                       # an error is left to run time


def test_a_numpy_scalar_is_written_with_the_fewest_digits_that_give_it_back():
    renderer = Renderer(mlp_module())
    cases = [(np.float32(0.2), "np.float32(0.2)"), (np.float32(1 / 3), "np.float32(0.33333334)"),
             (np.float16(0.1), "np.float16(0.1)"), (np.float32(16777216), "np.float32(16777216.0)"),
             (np.float64(0.1), "np.float64(0.1)"), (np.array(0.2, np.float32), "np.float32(0.2)"),
             (np.float32(np.inf), "np.float32(np.inf)"), (np.int32(-3), "np.int32(-3)")]
    for value, text in cases:
        assert renderer.literal(value) == text
        assert eval(text, {"np": np}) == value and eval(text, {"np": np}).dtype == value.dtype
    # every float32 comes back exactly, including those nearest a rounding boundary
    for bits in np.random.default_rng(0).integers(0x00800000, 0x7f000000, 2000, dtype=np.uint32):
        value = bits.view(np.float32)
        assert eval(renderer.literal(value), {"np": np}).view(np.uint32) == bits


_USER_LAYERS = '''
import npspore as ms
from npspore import nn


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)

    def construct(self, x):
        return self.dense(x) * 2.0
'''


def test_line_comments_tell_npspores_files_from_the_users_files_of_the_same_name(tmp_path, monkeypatch):
    # The user's file is named like one of npspore's (npspore/nn/layers.py holds Dense): a basename would
    # make both "layers.py"; the user's is named relative to the working directory, npspore's by package.
    (tmp_path / "models").mkdir()
    user_file = tmp_path / "models" / "layers.py"
    user_file.write_text(_USER_LAYERS)
    spec = importlib.util.spec_from_file_location("user_layers", user_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.chdir(tmp_path)
    source = cell_kernel_source(module.Block(), Tensor(np.ones((2, 4), np.float32)))
    named = set(re.findall(r"  # (\S+):\d+$", source, re.MULTILINE))
    assert named == {"models/layers.py", "npspore/nn/layers.py"}
    assert " = Dense_construct(x, dense_weight, dense_bias)  # models/layers.py:12\n" in source
    assert nn.Dense.__module__ == "npspore.nn.layers"   # the name the user's file shares


def test_log_softmax_reduces_with_the_array_methods_and_a_scalar_keeps_the_empty_axes():
    # x.max / .sum skip np.max's and np.sum's Python wrappers; a 0-d value may be a Python number at run time
    p = Prog(x=((3, 4), np.float32), s=((), np.float32))
    x, s = p.params
    module = p.module(p.op("log_softmax", x, axis=-1), p.op("log_softmax", s, axis=()))
    source = render_module(optimize(module))
    assert "x.max(axis=-1, keepdims=True)" in source and ".sum(axis=-1, keepdims=True)" in source
    assert "np.max(x," not in source and "np.sum(" not in source
    logits = rand(3, 4).astype(np.float32)
    rows, scalar = run_rendered(optimize(module), logits, 2.0)
    wide = logits.astype(np.float64)
    expected = wide - wide.max(axis=-1, keepdims=True)
    expected -= np.log(np.exp(expected).sum(axis=-1, keepdims=True))
    np.testing.assert_allclose(rows, expected, rtol=1e-6)
    assert scalar == 0.0


def test_a_large_constant_of_one_value_is_written_as_np_full():
    # a layer norm's column of ones (its row means as products) reads as one np.full, not 128 literals; a
    # constant whose elements differ only in sign (0.0 and -0.0) or a small one stays a literal
    from npspore.compiler.codegen import _Constants

    constants = _Constants()
    arrays = [np.ones((128, 1), np.float32), np.array([0.0] * 20 + [-0.0] * 12), np.full(4, 2, np.int64)]
    names = [constants.name_for(a) for a in arrays]
    assert constants.lines[0] == "_c0 = np.full((128, 1), 1.0, dtype=np.float32)"
    assert constants.lines[1].startswith("_c1 = np.array([0.0, ") and "-0.0" in constants.lines[1]
    assert constants.lines[2] == "_c2 = np.array([2, 2, 2, 2], dtype=np.int64)"
    namespace = {"np": np}
    exec("\n".join(constants.lines), namespace)
    for name, array in zip(names, arrays):
        assert namespace[name].dtype == array.dtype and namespace[name].tobytes() == array.tobytes()
