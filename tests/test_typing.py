"""npspore's public API is typed: ``mypy --strict`` on a user's script learns the types (py.typed).

mypy runs with ``--follow-imports=silent``, which reports errors in the user's script only, as for
any installed package that ships ``py.typed``.
"""
import importlib
import inspect
import os
import re
import subprocess
import sys
import typing

import pytest

import npspore

USER_SCRIPT = """\
from typing import Any, Iterator

import numpy as np

import npspore as ms
import npspore.dataset as ds
from npspore import Parameter, Tensor, nn, ops
from npspore.train import LossMonitor, Model


class Net(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Dense(4, 3)
        self.w = Parameter(Tensor(np.ones(3, np.float32)), name="w")

    def construct(self, x: Tensor) -> Tensor:
        return ops.relu(self.fc(x)) * self.w


class JitNet(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Dense(4, 3)

    @ms.jit
    def construct(self, x: Tensor) -> Tensor:
        return self.fc(x)


@ms.jit
def double(x: Tensor) -> Tensor:
    return x * 2


def samples() -> Iterator[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]:
    for i in range(8):
        yield np.full(4, i, np.float32), np.array(i % 3, np.int32)


net = Net()
x = Tensor(np.ones((2, 4), np.float32))
reveal_type(net(x))
reveal_type(ms.jit(net))
reveal_type(ms.jit(net)(x))
reveal_type(JitNet()(x))
reveal_type(double)
grad_fn = ms.grad(net, grad_position=0, weights=net.trainable_params())
reveal_type(grad_fn)
reveal_type(grad_fn.kernel_source(x))
reveal_type(ms.value_and_grad(net, None, net.trainable_params()))
reveal_type(x + x)
reveal_type(net.trainable_params())
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
reveal_type(optimizer)
dataset = ds.GeneratorDataset(samples, column_names=["data", "label"]).batch(4)
reveal_type(dataset)
for data, label in dataset.create_tuple_iterator():
    reveal_type(data)
for row in dataset.create_dict_iterator(output_numpy=True):
    reveal_type(row)
model = Model(net, loss_fn=loss_fn, optimizer=optimizer, metrics={"accuracy"})
reveal_type(model.train(1, dataset, callbacks=[LossMonitor()]))
reveal_type(model.eval(dataset))
net("x")
ms.grad(net, grad_position="0")
"""


@pytest.fixture(scope="module")
def strict_cache(tmp_path_factory):
    """One mypy cache for the --strict runs of this module: the second run reads npspore's and NumPy's
    analysed modules from it instead of analysing them again (each user script is still checked afresh;
    the run without --strict below keeps a cache of its own, which other options would only slow down)."""
    return tmp_path_factory.mktemp("mypy-strict-cache")


def test_mypy_strict_on_a_user_script_gets_npspore_types_from_the_installed_package(tmp_path, strict_cache):
    """mypy finds npspore as installed (the README's editable install too: no import hook, no MYPYPATH)
    and a typical script (a Cell, jit, grad, a dataset pipeline, Model.train) has real types."""
    assert os.path.isfile(os.path.join(os.path.dirname(npspore.__file__), "py.typed"))
    tensor = "npspore.common.tensor.Tensor"
    assert _mypy_strict(tmp_path, USER_SCRIPT, strict_cache) == [
        f'user.py:43: note: Revealed type is "{tensor}"',
        f'user.py:44: note: Revealed type is "npspore.jit.CompiledCellCall[[x: {tensor}], {tensor}]"',
        f'user.py:45: note: Revealed type is "{tensor}"',
        f'user.py:46: note: Revealed type is "{tensor}"',
        f'user.py:47: note: Revealed type is "npspore.jit.JitFunction[[x: {tensor}], {tensor}]"',
        'user.py:49: note: Revealed type is "npspore.grad.GradFunction"',
        'user.py:50: note: Revealed type is "str"',
        'user.py:51: note: Revealed type is "npspore.grad.GradFunction"',
        f'user.py:52: note: Revealed type is "{tensor}"',
        'user.py:53: note: Revealed type is "list[npspore.common.parameter.Parameter]"',
        'user.py:56: note: Revealed type is "npspore.nn.optim.momentum.Momentum"',
        'user.py:58: note: Revealed type is "npspore.dataset.datasets.BatchDataset"',
        f'user.py:60: note: Revealed type is "{tensor}"',
        'user.py:62: note: Revealed type is "dict[str, numpy.ndarray]"',
        'user.py:64: note: Revealed type is "None"',
        'user.py:65: note: Revealed type is "dict[str, Any]"',
        'user.py:66: error: Argument 1 to "__call__" of "Cell" has incompatible type "str"; expected "Tensor"  '
        '[arg-type]',
        'user.py:67: error: Argument "grad_position" to "grad" has incompatible type "str"; expected '
        '"int | tuple[int, ...] | None"  [arg-type]',
        "Found 2 errors in 1 file (checked 1 source file)",
    ]


def _mypy_strict(tmp_path, script: str, cache) -> list:
    """mypy --strict's lines on ``script`` as a user's file, with npspore found as installed (mypy's cache
    in directory ``cache``)."""
    (tmp_path / "user.py").write_text(script)
    environment = {name: value for name, value in os.environ.items() if name != "MYPYPATH"}
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-color-output",
                             "--cache-dir", str(cache), "user.py"], cwd=tmp_path, env=environment,
                            capture_output=True, text=True, timeout=300)
    assert not result.stderr, result.stderr
    # older mypy versions spell builtin types "builtins.str"; NumPy's stubs spell ndarray's parameters by version
    return [re.sub(r'ndarray\[.*\]\]"$', 'ndarray]"', line) for line in result.stdout.replace("builtins.", "").splitlines()]


LENET_SCRIPT = """\
import numpy as np

from npspore import Tensor, nn, ops


class LeNet(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.features = nn.SequentialCell(nn.Conv2d(1, 6, 3, pad_mode="valid"), nn.BatchNorm2d(6), nn.ReLU(),
                                          nn.MaxPool2d(kernel_size=2, stride=2))
        self.conv = nn.Conv2d(6, 8, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.flatten = nn.Flatten()
        self.drop = nn.Dropout(p=0.1)
        self.fc = nn.Dense(8, 10)
        self.act = nn.LeakyReLU(0.1)

    def construct(self, x: Tensor) -> Tensor:
        x = self.features(x)
        x = self.act(self.conv(x))
        return self.fc(self.drop(self.flatten(self.pool(x))))


net = LeNet()
with_loss = nn.WithLossCell(net, nn.CrossEntropyLoss())
step = nn.TrainOneStepCell(with_loss, nn.SGD(net.trainable_params(), 0.1))
reveal_type(with_loss(Tensor(np.ones((1, 1, 8, 8), np.float32)), Tensor(np.zeros(1, np.int32))))
reveal_type(step)
reveal_type(ops.relu(Tensor(np.ones(2, np.float32))))
reveal_type(ops.add(2.0, ops.sum(ops.exp(Tensor(np.ones((2, 3), np.float32))), 1, keepdim=True)))
"""


def test_mypy_strict_on_a_convolutional_network_and_its_training_cells(tmp_path, strict_cache):
    """The layers a CNN is made of, their losses and training wrappers are typed: calls return Tensors."""
    assert _mypy_strict(tmp_path, LENET_SCRIPT, strict_cache) == [
        'user.py:27: note: Revealed type is "npspore.common.tensor.Tensor"',
        'user.py:28: note: Revealed type is "npspore.nn.wrap.cell_wrapper.TrainOneStepCell"',
        'user.py:29: note: Revealed type is "npspore.common.tensor.Tensor"',
        'user.py:30: note: Revealed type is "npspore.common.tensor.Tensor"',
        "Success: no issues found in 1 source file",
    ]


PUBLIC_MODULES = ("npspore", "npspore.nn", "npspore.ops", "npspore.train", "npspore.dataset", "npspore.communication",
                  "npspore.dataset.vision", "npspore.dataset.transforms", "npspore.amp", "npspore.nn.optim",
                  "npspore.experimental.optim", "npspore.testing")


def _public_functions(module):
    names = getattr(module, "__all__", None) or [name for name in dir(module) if not name.startswith("_")]
    for name in names:
        obj = getattr(module, name)
        if inspect.isfunction(obj):
            yield f"{module.__name__}.{name}", obj
        elif inspect.isclass(obj):
            for attribute, value in vars(obj).items():
                if inspect.isfunction(value) and (not attribute.startswith("_") or attribute == "__init__"):
                    yield f"{module.__name__}.{name}.{attribute}", value


def test_every_public_annotation_resolves_at_run_time():
    """typing.get_type_hints works on the public API (Parameter.__init__ named Any without importing it)."""
    unresolved = []
    for module_name in PUBLIC_MODULES:
        for qualified, function in _public_functions(importlib.import_module(module_name)):
            try:
                typing.get_type_hints(function)
            except Exception as error:  # noqa: BLE001 - every failure is a finding to list
                unresolved.append(f"{qualified}: {error!r}")
    assert unresolved == []


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_mypy_finds_no_error_in_the_core_and_the_compiler(tmp_path):
    """The core (core/, the op table, its rules, codegen_templates) and the whole compiler; .ci/run runs the same."""
    paths = [os.path.join("src", "npspore", name) for name in ("core", "opdef.py", "shape_rules.py", "rules_nn.py",
                                                                 "codegen_templates", "compiler")]
    result = subprocess.run([sys.executable, "-m", "mypy", "--no-color-output", "--cache-dir", str(tmp_path / "cache"),
                             *paths], cwd=ROOT, capture_output=True, text=True, timeout=600)  # pyproject's [tool.mypy]
    assert result.returncode == 0 and result.stdout.startswith("Success: no issues found"), result.stdout
