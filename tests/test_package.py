"""The import paths and aliases a ported MindSpore script uses (``import npspore as ms``)."""
import importlib

import pytest

import npspore as ms


def test_mindspore_import_paths_exist_with_the_same_shape():
    from npspore import Parameter, ParameterTuple, Tensor, context, grad, jit, nn, ops, value_and_grad  # noqa: F401
    from npspore.common import dtype as mstype
    from npspore.common import mutable
    from npspore.common.api import jit as api_jit
    from npspore.common.initializer import Normal, One, initializer  # noqa: F401
    from npspore.ops.composite import GradOperation

    assert ms.dtype is ms.common.dtype is mstype
    assert ops.grad is ms.grad and ops.value_and_grad is ms.value_and_grad
    assert ops.composite.GradOperation is ops.GradOperation is GradOperation
    assert ms.mutable is mutable and api_jit is jit
    assert context.GRAPH_MODE == ms.GRAPH_MODE == 0 and ms.PYNATIVE_MODE == 1
    assert issubclass(nn.Dense, nn.Cell) and issubclass(Parameter, Tensor)
    assert (str(ms.float32), repr(ms.float32)) == ("Float32", "mindspore.float32")


def test_version_and_console_entry_point():
    from npspore.cli import main

    assert ms.__version__ == "0.1.0"
    assert callable(main)


def test_operations_functional_and_composite_import_paths():
    from npspore.ops import composite as C
    from npspore.ops import functional as F
    from npspore.ops import operations as P

    assert P.MatMul is ms.ops.MatMul and P.ReduceSum is ms.ops.ReduceSum
    assert P.TensorAdd is P.Add and P.Pack is P.Stack and P.GatherV2 is P.Gather  # MindSpore's old aliases
    assert "TensorAdd" in P.__all__ and "MatMul" in dir(P)
    assert (F.grad, F.value_and_grad, F.get_grad) == (ms.grad, ms.value_and_grad, ms.get_grad)
    assert F.exp is ms.ops.exp and C.GradOperation is ms.ops.GradOperation
    x = ms.Tensor([1.0, 2.0])
    assert P.TensorAdd()(x, x).asnumpy().tolist() == [2.0, 4.0]


@pytest.mark.parametrize("module, name, message", [
    ("npspore.ops.operations", "Matmul",
     "'mindspore.ops.operations.Matmul' is not implemented in npspore; the closest name it has is 'MatMul'"),
    ("npspore.ops.functional", "relu7",
     "'mindspore.ops.functional.relu7' is not implemented in npspore; the closest name it has is 'relu'"),
    ("npspore.ops.composite", "env_ops", "'mindspore.ops.composite.env_ops' is not implemented in npspore"),
    ("npspore.ops", "ReduceSumm",
     "'mindspore.ops.ReduceSumm' is not implemented in npspore; the closest name it has is 'ReduceSum'"),
    ("npspore.nn", "Denses", "'mindspore.nn.Denses' is not implemented in npspore; the closest name it has is 'Dense'"),
    ("npspore", "set_contxt",
     "'mindspore.set_contxt' is not implemented in npspore; the closest name it has is 'set_context'"),
    ("npspore.ops", "hessian", "'mindspore.ops.hessian' is not implemented in npspore"),  # not 'assign'
    ("npspore.nn", "LeakyRelu",
     "'mindspore.nn.LeakyRelu' is not implemented in npspore; the closest name it has is 'LeakyReLU'"),
])
def test_a_missing_mindspore_name_says_it_is_not_implemented_and_suggests_one(module, name, message):
    with pytest.raises(AttributeError) as info:
        getattr(importlib.import_module(module), name)
    assert str(info.value) == message


def test_every_package_ships_in_the_wheel():
    # pyproject lists packages by hand (codegen_templates maps in from the top level); a package left out
    # installs editable but breaks `import npspore` from a wheel.
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[1]
    listed = set(re.findall(r'"(npspore[\w.]*)"', (root / "pyproject.toml").read_text().split("packages = [")[1]
                            .split("]")[0]))
    on_disk = {".".join(path.parent.relative_to(root / "src").parts)
               for path in (root / "src" / "npspore").rglob("__init__.py")}
    assert on_disk | {"npspore.codegen_templates"} == listed


def test_version_comes_from_one_place_and_the_command_prints_numpy_and_python(capsys):
    import platform

    import numpy as np
    import pytest

    from npspore.core.version import __version__
    from npspore.cli import main

    assert ms.__version__ is __version__
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out == \
        f"npspore {__version__} (NumPy {np.__version__}, Python {platform.python_version()})\n"


def test_import_loads_no_compiler_stage_and_the_first_compile_does():
    # eager-only programs never pay for the compiler: its stages, npspore.dataset, logging and
    # numpy.random load on first use (NumPy 1.26's own import loads numpy.random: not npspore's doing)
    import subprocess
    import sys
    script = (
        "import sys, numpy as np\n"
        "with_numpy = set(sys.modules)\n"
        "import npspore as ms\n"
        "loaded = lambda: sorted(m for m in sys.modules if m.startswith('npspore.compiler'))\n"
        "print(loaded())\n"
        "print([m for m in ('npspore.dataset', 'logging', 'numpy.random') if m in set(sys.modules) - with_numpy])\n"
        "print(ms.ops.exp(ms.Tensor(np.zeros(2, np.float32))).asnumpy().tolist(), len(loaded()))\n"
        "grad = ms.grad(lambda x: (x * x).sum())\n"
        "print(grad(ms.Tensor(np.ones(2, np.float32))).asnumpy().tolist(), 'npspore.compiler.pipeline' in sys.modules)\n"
        "print(ms.dataset.GeneratorDataset.__name__)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == [
        "['npspore.compiler', 'npspore.compiler.errors', 'npspore.compiler.kernel', 'npspore.compiler.library', "
        "'npspore.compiler.signature']",   # errors: the front doors' api_boundary (standard library only)
        "[]", "[1.0, 1.0] 5", "[2.0, 2.0] True", "GeneratorDataset"]


def test_a_process_that_finds_its_kernels_on_disk_loads_no_compiler_stage(tmp_path):
    # compiler.compile asks compiler.diskload first; the stages load only to build a kernel
    import os
    import subprocess
    import sys
    module = tmp_path / "disk_net.py"
    module.write_text(
        "import numpy as np\n"
        "import npspore as ms\n"
        "from npspore import nn, ops\n"
        "class Net(nn.Cell):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.dense = nn.Dense(3, 2, weight_init='ones', bias_init='zeros')\n"
        "    def construct(self, x):\n"
        "        return ops.relu(self.dense(x)) * 2\n")
    script = (
        "import sys, numpy as np\n"
        "import npspore as ms\n"
        "from disk_net import Net\n"
        "net = ms.jit(Net())\n"
        "out = net(ms.Tensor(np.array([[1.0, -2.0, 4.0]], np.float32)))\n"
        "plain = Net()\n"
        "vg = ms.value_and_grad(plain, None, plain.trainable_params())\n"
        "value, (d_weight, d_bias) = vg(ms.Tensor(np.array([[1.0, -2.0, 4.0]], np.float32)))\n"
        "print(d_weight.asnumpy().tolist(), d_bias.asnumpy().tolist(), vg.cache_info()['disk_loads'])\n"
        "print(out.asnumpy().tolist(), net.cache_info()['disk_loads'],\n"
        "      sorted(m.rsplit('.', 1)[1] for m in sys.modules if m.startswith('npspore.compiler.')))\n")
    env = {**os.environ, "NPSPORE_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env).stdout
            for _ in range(2)]
    gradients = "[[2.0, -4.0, 8.0], [2.0, -4.0, 8.0]] [2.0, 2.0]"
    first, second = (run.splitlines() for run in runs)
    assert first[0] == f"{gradients} 0" and first[1].startswith("[[6.0, 6.0]] 0 ") and "'pipeline'" in first[1]
    assert second == [f"{gradients} 1", "[[6.0, 6.0]] 1 ['cache', 'cachekey', 'diskload', 'errors', 'gradspec', 'guards', "
                                        "'kernel', 'library', 'request', 'signature', 'targets']"]


INTERNAL_MODULES = ("opdef", "shape_rules", "rules_nn", "missing_names", "import_hook", "module_aliases")


@pytest.mark.parametrize("name", INTERNAL_MODULES)
def test_an_internal_module_is_no_attribute_of_the_package_and_imports_by_its_full_name(name):
    import importlib
    import subprocess
    import sys

    assert name not in dir(ms) and name not in vars(ms)
    with pytest.raises(AttributeError, match=f"npspore.{name} is internal: import it by its full name"):
        getattr(ms, name)
    module = importlib.import_module(f"npspore.{name}")
    assert module.__name__ == f"npspore.{name}"
    # every import spelling still works, in a fresh process too (first loads set no attribute either)
    script = (f"import npspore\nfrom npspore import {name} as a\nimport npspore.{name} as b\n"
              f"assert a is b and not hasattr(npspore, {name!r}) and {name!r} not in dir(npspore)\n"
              f"from npspore import *\nassert {name!r} not in globals()\n")
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120)
