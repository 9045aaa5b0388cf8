"""Frontend and normalize: parsing with real positions, unsupported syntax, missing source."""
import ast
import textwrap

import pytest

from npspore.compiler.errors import CompileError, NotSupportedError, located
from npspore.compiler.frontend import parse_function
from npspore.compiler.ir import Loc
from npspore.compiler.normalize import normalize


def _write_module(tmp_path, name, source):
    import importlib.util

    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(source))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, str(path)


def test_positions_are_those_of_the_real_file(tmp_path):
    module, path = _write_module(tmp_path, "positions", """
        import math

        class Holder:
            def method(self, x):
                y = x + 1
                return y
        """)
    source = parse_function(module.Holder.method)
    assign = source.tree.body[0]
    assert source.filename == path
    assert assign.lineno == 6          # the line in the file, not in the dedented snippet
    assert assign.col_offset == 8      # the column in the file
    assert source.loc(assign) == Loc(path, 6, 8, 17)


@pytest.mark.parametrize("body, what", [
    ("try:\n        y = x\n    except Exception:\n        y = x", "'try' statement"),
    ("y = x\n    del y", "'del' statement"),
    ("global g\n    y = x", "'global' statement"),
    ("class Inner:\n        pass\n    y = x", "class definition"),   # a nested def compiles (a Closure)
    ("import os\n    y = x", "'import' statement"),
])
def test_unsupported_syntax_names_the_construct_and_line(tmp_path, body, what):
    module, path = _write_module(tmp_path, "unsupported", f"def f(x):\n    {body}\n    return x\n")
    with pytest.raises(NotSupportedError) as info:
        parse_function(module.f)
    message = str(info.value)
    assert what in message
    assert f'File "{path}", line' in message
    assert "^" in message


def test_function_without_source_gets_a_clear_error():
    namespace = {}
    exec("def made_by_exec(x):\n    return x\n", namespace)
    with pytest.raises(NotSupportedError, match="source code is not available.*real .py file"):
        parse_function(namespace["made_by_exec"])


def test_normalize_expands_augmented_and_multiple_assignment():
    tree = ast.parse("def f(x):\n    a = b = x\n    a += 2\n    assert a, 'bad'\n    return a + b").body[0]
    text = ast.unparse(normalize(tree))
    assert "a = x" in text and "b = a" in text
    assert "a = a + 2" in text
    assert "if not a:" in text and "raise AssertionError('bad')" in text
    # the input tree is untouched
    assert isinstance(tree.body[1], ast.AugAssign)


def test_located_error_keeps_type_and_points_at_the_line(tmp_path):
    path = tmp_path / "snippet.py"
    path.write_text("x = 1\ny = matmul(a, b)\n")
    error = located(ValueError("shapes (2, 3) and (4, 5) do not match"), Loc(str(path), 2, 4, 16))
    assert isinstance(error, ValueError) and isinstance(error, CompileError)
    text = str(error)
    assert "shapes (2, 3) and (4, 5)" in text
    assert f'File "{path}", line 2, column 5' in text
    assert "y = matmul(a, b)" in text
    assert "    ^^^^^^^^^^^^" in text
