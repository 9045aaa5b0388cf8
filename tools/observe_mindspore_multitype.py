"""Print MindSpore 2.10's outputs for tests/test_multitype.py: MultitypeFuncGraph, HyperMap and Map.

Run with a virtualenv holding the real MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_multitype.py``. The docstring examples are those of
``mindspore/ops/composite/base.py`` in MindSpore 2.10.0 (the API pages of ``mindspore.ops.MultitypeFuncGraph``,
``HyperMap`` and ``Map``), which registered type each kind of argument matches, nested maps and the
errors. What it prints is the test's ``MINDSPORE_OUTPUT``; the test runs this same script with ``npspore run``
and compares. ``tests/programs/zoo_gradient_utilities.py`` is run unchanged by MindSpore for ``ZOO_OUTPUT``.
"""
import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops
from mindspore import dtype as mstype
from mindspore.ops import composite as C, functional as F

# --- the docstring examples, as printed
tensor_add = ops.Add()
add = ops.MultitypeFuncGraph('add')


@add.register("Number", "Number")
def add_scala(x, y):
    return x + y


@add.register("Tensor", "Tensor")
def add_tensor(x, y):
    return tensor_add(x, y)


print(add(1, 2))
print(add(Tensor([0.1, 0.6, 1.2], dtype=mstype.float32), Tensor([0.1, 0.6, 1.2], dtype=mstype.float32)))
nest_tensor_list = ((Tensor(1, mstype.float32), Tensor(2, mstype.float32)),
                    (Tensor(3, mstype.float32), Tensor(4, mstype.float32)))
square = ops.MultitypeFuncGraph('square')


@square.register("Tensor")
def square_tensor(x):
    return ops.square(x)


print(ops.HyperMap()(square, nest_tensor_list))
print(ops.HyperMap(square, False)(nest_tensor_list))
tensor_list = (Tensor(1, mstype.float32), Tensor(2, mstype.float32), Tensor(3, mstype.float32))
print(ops.Map()(square, tensor_list))
print(ops.Map(square, False)(tensor_list))

# --- which registered type each kind of argument matches (first match wins)
kinds = ops.MultitypeFuncGraph("kinds")
for name in ("Tensor[Float32]", "Tensor", "Function", "Tuple", "List", "None", "String", "Bool", "Int64",
             "Float32", "Number"):
    kinds.register(name)(lambda x, name=name: name)
for label, value in [("f32", Tensor([1.0])), ("f16", Tensor([1.0], mstype.float16)), ("i32", Tensor([1], mstype.int32)),
                     ("param", Parameter(Tensor([1.0]), name="w")), ("lambda", lambda x: x), ("prim", ops.Add()),
                     ("cell", nn.ReLU()), ("tuple", (1,)), ("list", [1]), ("None", None), ("str", "s"),
                     ("bool", True), ("int", 3), ("float", 2.5), ("np.float32", np.float32(2))]:
    print(label, kinds(value))

# --- maps of nested sequences, and the errors
print(C.HyperMap()(add, (1, (2, 3)), (10, (20, 30))), C.HyperMap()(add, [1, 2], [3, 4]),
      C.Map()(add, [1, 2], [3, 4]), C.HyperMap()(F.partial(add, 5), (1, 2)), C.HyperMap()(add, (), ()))
for label, call in [("ndarray", lambda: add(np.ones(1), 2)), ("no match", lambda: add("a", "b")),
                    ("unknown name", lambda: add.register("Bogus")(abs))]:
    try:
        call()
    except Exception as error:   # noqa: BLE001  (printing MindSpore's error is the point)
        print(label, type(error).__name__, str(error).split("\n")[0][:60])


@ms.jit
def hyper_map_lengths(x):
    return C.HyperMap()(add, (x, x), (x,))


@ms.jit
def map_lengths(x):
    return C.Map()(add, (x, x), (x,))


for label, fn in [("hypermap lengths", hyper_map_lengths), ("map lengths", map_lengths)]:
    try:
        fn(Tensor([1.0]))
    except RuntimeError as error:
        print(label, type(error).__name__, str(error).split("\n")[0].strip())
