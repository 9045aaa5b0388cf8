"""The import paths and aliases a ported MindSpore script uses (``import npspore as ms``)."""
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


def test_version_comes_from_one_place_and_the_command_prints_numpy_and_python(capsys):
    import platform

    import numpy as np
    import pytest

    from npspore._version import __version__
    from npspore.cli import main

    assert ms.__version__ is __version__
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out == \
        f"npspore {__version__} (NumPy {np.__version__}, Python {platform.python_version()})\n"
