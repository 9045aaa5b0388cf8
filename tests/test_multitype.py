"""MultitypeFuncGraph, HyperMap and Map (``npspore.ops.multitype``) against MindSpore 2.10.

Recorded with ``tools/observe_mindspore_multitype.py`` on the real MindSpore 2.10.0: the docstring
examples of ``mindspore.ops.MultitypeFuncGraph``, ``mindspore.ops.HyperMap`` and ``mindspore.ops.Map``
(API pages of MindSpore 2.10, ``mindspore/ops/composite/base.py``), which registered type each kind of
argument matches, and the errors; ``tests/programs/zoo_gradient_utilities.py`` (the model zoo's
gradient scaling, weight decay, clipping and accumulation) run unchanged by MindSpore and by ``npspore run``.
"""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import npspore as ms
from compiled_vjp import Program, check_second_order
from npspore import Parameter, Tensor, nn, ops
from npspore import dtype as mstype
from npspore.ops import composite as C, functional as F, operations as P

MINDSPORE_OUTPUT = """\
3
[0.2 1.2 2.4]
((Tensor(shape=[], dtype=Float32, value= 1), Tensor(shape=[], dtype=Float32, value= 4)), (Tensor(shape=[], \
dtype=Float32, value= 9), Tensor(shape=[], dtype=Float32, value= 16)))
((Tensor(shape=[], dtype=Float32, value= 1), Tensor(shape=[], dtype=Float32, value= 4)), (Tensor(shape=[], \
dtype=Float32, value= 9), Tensor(shape=[], dtype=Float32, value= 16)))
(Tensor(shape=[], dtype=Float32, value= 1), Tensor(shape=[], dtype=Float32, value= 4), Tensor(shape=[], \
dtype=Float32, value= 9))
(Tensor(shape=[], dtype=Float32, value= 1), Tensor(shape=[], dtype=Float32, value= 4), Tensor(shape=[], \
dtype=Float32, value= 9))
f32 Tensor[Float32]
f16 Tensor
i32 Tensor
param Tensor[Float32]
lambda Function
prim Function
cell Function
tuple Tuple
list List
None None
str String
bool Bool
int Int64
float Number
np.float32 Float32
(11, (22, 33)) (4, 6) (4, 6) (6, 7) ()
ndarray TypeError For 'MultitypeFuncGraph', the input can not be numpy.ndarray
no match ValueError For 'MultitypeFuncGraph', cannot find fn match given args. G
unknown name RuntimeError Unsupported type name: Bogus!
hypermap lengths RuntimeError The tuples in HyperMap should have the same length.
map lengths RuntimeError For 'Map', the length of tuples must be the same.
"""
ZOO_OUTPUT = """\
loss 0.318270
loss 0.277396
loss 0.243462
grad_sum.fc1.weight [[-0.15    ,  0.075038, -0.15    ],
 [-0.129659, -0.077795, -0.025932],
 [-0.15    ,  0.15    ,  0.091048],
 [ 0.15    ,  0.15    ,  0.15    ]]
grad_sum.fc1.bias [-0.137143,  0.      , -0.15    ,  0.      ]
grad_sum.fc2.weight [[ 0.022415,  0.101875,  0.00079 ,  0.020375],
 [ 0.15    , -0.061125, -0.021783, -0.142625]]
grad_sum.fc2.bias [-0.15,  0.15]
fc1.weight [[-0.925   , -0.855701, -0.561364],
 [-0.389716, -0.23383 , -0.077943],
 [ 0.165909,  0.197727,  0.409021],
 [ 0.561364,  0.743182,  0.925   ]]
fc1.bias [ 0.168571, -0.2     ,  0.375   ,  0.      ]
fc2.weight [[ 0.488792,  0.306205,  0.213891,  0.061241],
 [-0.146429, -0.183723, -0.346251, -0.428687]]
fc2.bias [ 0.075, -0.075]
"""

TOOL = Path(__file__).parent.parent / "tools" / "observe_mindspore_multitype.py"
add = ops.MultitypeFuncGraph('add')   # the docstring examples' functions
add.register("Number", "Number")(lambda x, y: x + y)
add.register("Tensor", "Tensor")(lambda x, y: ops.Add()(x, y))
square = ops.MultitypeFuncGraph('square')
square.register("Tensor")(lambda x: ops.square(x))


def run_unchanged(script, *args, tmp_path):
    """``npspore run script args``: a MindSpore script run as it is; its stdout."""
    run = subprocess.run([sys.executable, "-m", "npspore", "run", str(script), *args], capture_output=True, text=True,
                         timeout=300, cwd=tmp_path, env={**os.environ, "NPSPORE_CACHE_DIR": str(tmp_path)})
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_the_recording_script_prints_what_mindspore_printed(tmp_path):
    # the docstring examples, the type each kind of argument matches, nested maps and the errors
    assert run_unchanged(TOOL, tmp_path=tmp_path) == MINDSPORE_OUTPUT


def test_docstring_examples_compiled_print_what_mindspore_prints():
    def examples(nested, flat, left, right):
        return (add(1, 2), add(left, right), ops.HyperMap()(square, nested), ops.HyperMap(square, False)(nested),
                ops.Map()(square, flat), ops.Map(square, False)(flat))

    nested = ((Tensor(1, mstype.float32), Tensor(2, mstype.float32)),
              (Tensor(3, mstype.float32), Tensor(4, mstype.float32)))
    flat = (Tensor(1, mstype.float32), Tensor(2, mstype.float32), Tensor(3, mstype.float32))
    vector = Tensor([0.1, 0.6, 1.2], dtype=mstype.float32)
    printed = "".join(f"{out}\n" for out in ms.jit(examples)(nested, flat, vector, vector))
    assert printed == "".join(line + "\n" for line in MINDSPORE_OUTPUT.splitlines()[:6])


def test_dispatch_is_decided_at_compile_time_by_dtype():
    by_dtype = C.MultitypeFuncGraph("by_dtype")
    by_dtype.register("Tensor[Float32]")(lambda x: x * 2)
    by_dtype.register(mstype.tensor_type(mstype.float16))(lambda x: x * 3)
    by_dtype.register("Tensor")(lambda x: x + 1)
    double = ms.jit(lambda x: by_dtype(x))
    assert double(Tensor([1.0, 2.0])).asnumpy().tolist() == [2.0, 4.0]
    assert double(Tensor([1.0, 2.0], mstype.float16)).asnumpy().tolist() == [3.0, 6.0]
    assert double(Tensor([1, 2], mstype.int32)).asnumpy().tolist() == [2, 3]


def test_errors_beyond_mindspores():
    with pytest.raises(ValueError, match=r"cannot find fn match given args.*\(dtype, args\): \('String', 'String'\)"):
        add("a", "b")
    with pytest.raises(TypeError, match="register only support str"):
        add.register(3)(abs)
    with pytest.raises(TypeError, match="For 'HyperMap', the 'ops' should be a MultitypeFuncGraph, a function or None"):
        C.HyperMap(3)


@pytest.mark.parametrize("compiled", [False, True])
def test_mismatched_lengths_raise_mindspores_graph_mode_error(compiled):
    # MindSpore's PyNative Python map would truncate silently; its graph mode raises, as npspore does in both
    wrap = ms.jit if compiled else (lambda fn: fn)
    x = Tensor([1.0])
    with pytest.raises(RuntimeError, match="The tuples in HyperMap should have the same length."):
        wrap(lambda x: C.HyperMap()(add, (x, x), (x,)))(x)
    with pytest.raises(RuntimeError, match="For 'Map', the length of tuples must be the same."):
        wrap(lambda x: C.Map()(add, (x, x), (x,)))(x)


@pytest.mark.parametrize("mode", ["graph", "pynative"])
def test_model_zoo_gradient_utilities_train_as_mindspore(mode, tmp_path):
    script = Path(__file__).parent / "programs" / "zoo_gradient_utilities.py"
    assert run_unchanged(script, mode, tmp_path=tmp_path) == ZOO_OUTPUT


scale_grad = C.MultitypeFuncGraph("scale_grad")


@scale_grad.register("Number", "Tensor")
def _scale_number(scale, grad):
    return grad * scale


@scale_grad.register("Tensor", "Tensor")
def _scale_tensor(scale, grad):
    return grad * ops.tanh(scale)


def clipped_products(w, b, s):
    """HyperMap over nested tuples with partial arguments of both registered kinds."""
    scaled = C.HyperMap()(F.partial(scale_grad, s), (w * b, (ops.sin(w),)))
    decayed = C.HyperMap(scale_grad)((0.5, (2.0,)), scaled)
    return decayed[0] * decayed[1][0] + ops.exp(b)


def test_gradients_through_hyper_map_match_central_differences_to_second_order():
    rng = np.random.default_rng(3)
    check_second_order(Program(clipped_products), [rng.standard_normal((2, 3)), rng.standard_normal((2, 3)),
                                                   rng.standard_normal((2, 3))])


class Accumulate(nn.Cell):
    """Adds its input to a Parameter inside a user function that gets the Parameter as an argument."""

    def __init__(self):
        super().__init__()
        self.total = Parameter(Tensor(np.zeros(2, np.float32)), name="total")

    def construct(self, x):
        add_into(self.total, x)
        return self.total * 1


def add_into(parameter, value):
    return P.AssignAdd()(parameter, value)


def test_a_parameter_given_to_a_user_function_is_updated_in_compiled_code():
    cell = Accumulate()
    cell.set_grad(False)
    ms.jit(cell.construct)(Tensor(np.array([1.0, 2.0], np.float32)))
    out = ms.jit(cell.construct)(Tensor(np.array([0.5, 0.5], np.float32)))
    assert cell.total.asnumpy().tolist() == [1.5, 2.5]
    assert out.asnumpy().tolist() == [1.5, 2.5]
