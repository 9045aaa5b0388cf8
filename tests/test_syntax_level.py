"""``jit_syntax_level``: ``STRICT`` and ``COMPATIBLE`` refuse each JIT-fallback form, ``LAX`` (the default) runs it.

MindSpore decides the level as ``GetJitSyntaxLevel`` does: ``MS_DEV_JIT_SYNTAX_LEVEL`` first, then the
``JitConfig`` of the compile (a Cell's ``set_jit_config``; ``jit`` sets ``"STRICT"`` for ``fullgraph=True``
and ``"LAX"`` otherwise), then ``set_context(jit_syntax_level=...)``. The runtime fallback runs only at
LAX (``allow_fallback_runtime = (fallback::GetJitSyntaxLevel() == kLax)``); below it, the read of a
Tensor attribute raises, from ``GetEvaluatedValueForAttrOrMethodNotInMap`` in
``mindspore/ccsrc/pipeline/jit/ps/static_analysis/prim.cc``::

    MS_EXCEPTION(AttributeError) << "In JIT strict mode, cannot get attributes " << item_name << " or the "
                                 << data_type->ToString() << " object has no attribute: '" << item_name
                                 << "'. You can use os.environ['MS_DEV_JIT_SYNTAX_LEVEL'] = '2' "
                                 << "to enable the JIT lax mode to support the current syntax.\\n\\n"

(MindSpore's ``tests/st/fallback/test_graph_fallback_jit_syntax_level.py`` expects that AttributeError for
``x.asnumpy()`` at COMPATIBLE and with ``MS_DEV_JIT_SYNTAX_LEVEL=0``.) npspore names the Tensor method that
reads the values (``asnumpy``, ``item``, ``tolist``, ``__bool__`` ...); a NumPy or ``math`` function on a
Tensor is a TypeError in the same words.
"""
import math

import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn

HINT = ("You can use os.environ['MS_DEV_JIT_SYNTAX_LEVEL'] = '2' to enable the JIT lax mode to support the "
        "current syntax.")


def attribute_error(name, dtype="Float32"):
    return (f"In JIT strict mode, cannot get attributes {name} or the Tensor[{dtype}] object has no attribute: "
            f"'{name}'. {HINT}")


def as_float(x):
    return float(x) * 2


def as_int(x):
    return int(x) + 1


def as_bool(x):
    if bool(x):
        return x
    return -x


def asnumpy(x):
    return x.asnumpy() * 3


def item(x):
    return x.item() + 1


def tolist(x):
    return x.tolist()


def numpy_call(x):
    return np.sum(x) + 1


def math_call(x):
    return math.sqrt(x)


def tensor_of_values(x):
    return ms.tensor(x.asnumpy()) + 1


def prints_values(x):
    print("value:", x.asnumpy())
    return x


def asserts(x):
    assert x > 0
    return x


def membership(x):
    return x in [2, 3, 4]


# (function, its LAX result for Tensor(2.0), the STRICT error type, the STRICT message)
FORMS = [
    (as_float, 4.0, AttributeError, attribute_error("__float__")),
    (as_int, 3, AttributeError, attribute_error("__int__")),
    (as_bool, 2.0, AttributeError, attribute_error("__bool__")),
    (asnumpy, 6.0, AttributeError, attribute_error("asnumpy")),
    (item, 3.0, AttributeError, attribute_error("item")),
    (tolist, 2.0, AttributeError, attribute_error("tolist")),
    (numpy_call, 3.0, TypeError, "In JIT strict mode, numpy.sum cannot read the values of a Tensor[Float32]: "
                                 f"only the JIT lax mode runs Python on tensor values. {HINT}"),
    (math_call, math.sqrt(2.0), TypeError, "In JIT strict mode, math.sqrt cannot read the values of a "
                                           f"Tensor[Float32]: only the JIT lax mode runs Python on tensor values. {HINT}"),
    (tensor_of_values, 3.0, AttributeError, attribute_error("asnumpy")),
    (prints_values, 2.0, AttributeError, attribute_error("asnumpy")),
    (asserts, 2.0, AttributeError, attribute_error("__bool__", "Bool")),
    (membership, True, AttributeError, attribute_error("__contains__")),
]
IDS = [form[0].__name__ for form in FORMS]


def value_of(result):
    return result.asnumpy().item() if isinstance(result, Tensor) else result


@pytest.fixture
def context_level():
    """Restore the context's syntax level and unset MS_DEV_JIT_SYNTAX_LEVEL."""
    saved = ms.get_context("jit_syntax_level"), ms.get_context("mode")
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("MS_DEV_JIT_SYNTAX_LEVEL", raising=False)
        yield patch
    ms.set_context(jit_syntax_level=saved[0], mode=saved[1])


def test_levels_exist_with_mindspore_values():
    assert (ms.STRICT, ms.COMPATIBLE, ms.LAX) == (0, 1, 2)
    assert ms.get_context("jit_syntax_level") == ms.LAX


def test_set_context_refuses_an_unknown_level(context_level):
    with pytest.raises(ValueError, match="'jit_syntax_level' should be context.STRICT, context.COMPATIBLE or "
                                         "context.LAX, but got 3"):
        ms.set_context(jit_syntax_level=3)


@pytest.mark.parametrize("fn, expected, error, message", FORMS, ids=IDS)
def test_jit_lax_runs_the_fallback(fn, expected, error, message, context_level, capsys):
    assert value_of(ms.jit(fn)(Tensor(2.0))) == pytest.approx(expected)
    if fn is prints_values:
        assert capsys.readouterr().out == "value: 2.0\n"


@pytest.mark.parametrize("fn, expected, error, message", FORMS, ids=IDS)
def test_jit_fullgraph_is_strict(fn, expected, error, message, context_level):
    with pytest.raises(error) as caught:
        ms.jit(fn, fullgraph=True)(Tensor(2.0))
    assert str(caught.value).splitlines()[0] == message
    assert "test_syntax_level.py" in str(caught.value)   # at the user's line


class Reads(nn.Cell):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, x):
        return self.fn(x)


@pytest.mark.parametrize("level", [ms.STRICT, ms.COMPATIBLE])
@pytest.mark.parametrize("fn, expected, error, message", FORMS, ids=IDS)
def test_graph_mode_cell_at_context_level(fn, expected, error, message, level, context_level):
    ms.set_context(jit_syntax_level=level, mode=ms.GRAPH_MODE)
    with pytest.raises(error) as caught:
        Reads(fn)(Tensor(2.0))
    assert str(caught.value).splitlines()[0] == message
    ms.set_context(jit_syntax_level=ms.LAX)
    assert value_of(Reads(fn)(Tensor(2.0))) == pytest.approx(expected)


def test_cell_jit_config_overrides_the_context(context_level):
    ms.set_context(jit_syntax_level=ms.LAX, mode=ms.GRAPH_MODE)
    net = Reads(asnumpy)
    net.set_jit_config(ms.JitConfig(jit_syntax_level="COMPATIBLE"))
    with pytest.raises(AttributeError, match="cannot get attributes asnumpy"):
        net(Tensor(2.0))
    ms.set_context(jit_syntax_level=ms.STRICT)
    lax = Reads(asnumpy)
    lax.set_jit_config(ms.JitConfig(jit_syntax_level="LAX"))
    assert value_of(lax(Tensor(2.0))) == 6.0


def test_environment_variable_has_the_highest_priority(context_level):
    context_level.setenv("MS_DEV_JIT_SYNTAX_LEVEL", "0")
    with pytest.raises(AttributeError, match="cannot get attributes asnumpy"):
        ms.jit(asnumpy)(Tensor(2.0))
    context_level.setenv("MS_DEV_JIT_SYNTAX_LEVEL", "2")
    assert value_of(ms.jit(asnumpy, fullgraph=True)(Tensor(2.0))) == 6.0


def test_strict_compiles_code_that_reads_no_values(context_level):
    def scale(x):
        return x * 2 + x.shape[0]
    assert ms.jit(scale, fullgraph=True)(Tensor([1.0, 2.0])).asnumpy().tolist() == [4.0, 6.0]


def test_a_strict_kernel_is_not_loaded_from_a_lax_disk_entry(context_level):
    def reads(x):
        return x.asnumpy() + 1
    assert value_of(ms.jit(reads)(Tensor(2.0))) == 3.0     # stored on disk at LAX
    with pytest.raises(AttributeError, match="cannot get attributes asnumpy"):
        ms.jit(reads, fullgraph=True)(Tensor(2.0))


def test_jit_options_mindspore_drops_are_warned(context_level):
    with pytest.warns(UserWarning, match="the option argument 'jit_syntax_level' is not recognized"):
        ms.jit(asnumpy, jit_syntax_level=ms.STRICT)
    with pytest.warns(FutureWarning, match="the parameter 'jit_config' has been deprecated. Please use the "
                                           "parameter 'jit_level, fullgraph or options' instead"):
        ms.jit(asnumpy, jit_config=ms.JitConfig(jit_syntax_level="STRICT"))


def test_jit_checks_fullgraph_and_dynamic():
    with pytest.raises(TypeError, match="the type of 'fullgraph' must be bool, but got int"):
        ms.jit(asnumpy, fullgraph=1)
    with pytest.raises(ValueError, match=r"the 'dynamic' must be in range of \[0, 1\], but got 2"):
        ms.jit(asnumpy, dynamic=2)


TRACED_SOURCE = '''
def traced_reads(x):
    return x.asnumpy() * 3
'''


def test_a_traced_function_is_strict_too(context_level):
    namespace = {}
    exec(TRACED_SOURCE, namespace)   # no source file: traced, not compiled from the AST
    with pytest.raises(AttributeError) as caught:
        ms.jit(namespace["traced_reads"], fullgraph=True)(Tensor(2.0))
    assert str(caught.value).splitlines()[0] == attribute_error("asnumpy")
    assert value_of(ms.jit(namespace["traced_reads"])(Tensor(2.0))) == 6.0


def test_jit_sets_its_own_level_over_the_context(context_level):
    # MindSpore 2.10's jit: jit_syntax_level = "LAX" if fullgraph is False else "STRICT", in the JitConfig
    # of the compile, which comes before the context's level.
    ms.set_context(jit_syntax_level=ms.STRICT)
    assert value_of(ms.jit(asnumpy)(Tensor(2.0))) == 6.0
