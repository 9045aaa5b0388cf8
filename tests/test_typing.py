"""npspore's public API is typed: ``mypy --strict`` on a user's script learns the types (py.typed).

mypy runs with ``--follow-imports=silent``, which reports errors in the user's script only, as for
any installed package that ships ``py.typed``.
"""
import importlib
import inspect
import os
import subprocess
import sys
import typing

import npspore

USER_SCRIPT = '''\
import numpy as np

import npspore as ms
from npspore import Parameter, Tensor, nn


class Net(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.w = Parameter(Tensor(np.ones(3, np.float32)), name="w")

    def construct(self, x: Tensor) -> Tensor:
        return (x * self.w).sum()


net = Net().set_train(False)
x = Tensor(np.ones(3, np.float32))
grad_fn = ms.grad(net, grad_position=0, weights=net.trainable_params())
reveal_type(grad_fn)
reveal_type(grad_fn.kernel_source(x))
reveal_type(x + x)
reveal_type(net.trainable_params())
reveal_type(ms.value_and_grad(net, (0,)))
ms.grad(net, grad_position="0")
'''


def test_mypy_strict_finds_the_types_of_the_public_api(tmp_path):
    assert os.path.isfile(os.path.join(os.path.dirname(npspore.__file__), "py.typed"))
    (tmp_path / "user.py").write_text(USER_SCRIPT)
    environment = dict(os.environ, MYPYPATH=os.path.dirname(os.path.dirname(npspore.__file__)))
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-color-output",
                             "--cache-dir", str(tmp_path / "cache"), "user.py"], cwd=tmp_path, env=environment,
                            capture_output=True, text=True, timeout=300)
    # older mypy versions spell builtin types "builtins.str"
    assert result.stdout.replace("builtins.", "").splitlines() == [
        'user.py:19: note: Revealed type is "npspore.grad.GradFunction"',
        'user.py:20: note: Revealed type is "str"',
        'user.py:21: note: Revealed type is "npspore.common.tensor.Tensor"',
        'user.py:22: note: Revealed type is "list[npspore.common.parameter.Parameter]"',
        'user.py:23: note: Revealed type is "npspore.grad.GradFunction"',
        'user.py:24: error: Argument "grad_position" to "grad" has incompatible type "str"; expected '
        '"int | tuple[int, ...] | None"  [arg-type]',
        "Found 1 error in 1 file (checked 1 source file)",
    ], result.stdout + result.stderr


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
