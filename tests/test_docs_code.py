"""Every Python code block of README.md and docs/*.md runs, and prints what the page shows.

Each page runs in its own process (its own kernel cache directory), its blocks in order in one
namespace, as a reader pastes them. A block of ``>>>`` lines is a doctest: its shown output is
checked. In other blocks, a ``print(...)`` whose trailing comment is a Python literal
(``print(net.cache_info())  # {'hits': 1, ...}``) must print that value; ``test_*`` functions a block
defines are called, as pytest would.
"""
import ast
import contextlib
import doctest
import io
import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
BLOCK = re.compile(r"^```python\n(.*?)^```$", re.M | re.S)


def python_blocks(text: str) -> list:
    """``(line number, source)`` of each ```python block of a Markdown page."""
    return [(text.count("\n", 0, match.start(1)) + 1, match.group(1)) for match in BLOCK.finditer(text)]


def _shown_output(block: str, statement: ast.stmt):
    """The literal a ``print(...)  # <literal>`` statement's comment shows, or None."""
    call = statement.value if isinstance(statement, ast.Expr) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "print"):
        return None
    line = block.splitlines()[statement.end_lineno - 1]
    comment = line[statement.end_col_offset:].strip()
    if not comment.startswith("#"):
        return None
    try:
        return ast.literal_eval(comment[1:].strip())
    except (ValueError, SyntaxError):
        return None  # a comment in words, not an output


def _run_plain(block: str, name: str, namespace: dict) -> None:
    # the block as a file of its own, as a reader saves it: compiled code reads its source from there
    name = pathlib.Path(re.sub(r"\W", "_", name) + ".py").resolve()
    name.write_text(block)
    name = str(name)
    tree = ast.parse(block, name)
    for statement in tree.body:
        code = compile(ast.Module([statement], []), name, "exec")
        expected = _shown_output(block, statement)
        if expected is None:
            exec(code, namespace)
            continue
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(code, namespace)
        sys.stdout.write(printed.getvalue())
        got = ast.literal_eval(printed.getvalue().strip())
        assert got == expected, f"{name}, line {statement.lineno}: printed {got!r}, the page shows {expected!r}"
    for key, value in list(namespace.items()):
        if key.startswith("test_") and callable(value) and value.__code__.co_filename == name:
            value()


def run_page(path: str) -> None:
    """Run the page's blocks in order in one namespace; raise on the first failure."""
    namespace = {"__name__": "__main__"}
    for line, block in python_blocks(pathlib.Path(path).read_text()):
        name = f"{pathlib.Path(path).name}:{line}"
        if block.lstrip().startswith(">>>"):
            test = doctest.DocTestParser().get_doctest(block, namespace, name, path, line)
            runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
            runner.run(test, clear_globs=False)
            assert runner.failures == 0, f"{name}: the doctest's output differs (above)"
        else:
            _run_plain(block, name, namespace)


@pytest.mark.parametrize("page", [page for page in PAGES if python_blocks(page.read_text())],
                         ids=lambda page: page.name)
def test_every_python_block_of_the_page_runs_and_prints_what_it_shows(page, tmp_path):
    environment = dict(os.environ, NPSPORE_CACHE_DIR=str(tmp_path / "cache"))
    result = subprocess.run([sys.executable, __file__, str(page)], cwd=tmp_path, env=environment,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_wrong_shown_output_and_an_undefined_name_fail_the_page(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # where the blocks are saved as files
    page = tmp_path / "page.md"
    page.write_text("```python\nprint({'a': 1})   # {'a': 2}\n```\n")
    with pytest.raises(AssertionError, match="printed {'a': 1}, the page shows {'a': 2}"):
        run_page(str(page))
    page.write_text("```python\nx = 1\n```\ntext\n```python\nprint(x + net)\n```\n")
    with pytest.raises(NameError, match="net"):
        run_page(str(page))
    page.write_text("```python\n>>> print(1 + 1)\n3\n```\n")
    with pytest.raises(AssertionError, match="doctest's output differs"):
        run_page(str(page))


if __name__ == "__main__":
    run_page(sys.argv[1])


def _layer_table() -> str:
    """The rows of the README's "What is there" table."""
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("\n## What is there\n")[1].split("\n## ")[0]
    return "\n".join(line for line in section.splitlines() if line.startswith("|"))


def test_the_readme_table_names_every_public_name_of_nn():
    # The table cannot go stale: each public name of npspore.nn (its classes and functions, the metrics'
    # too) is in it, and each nn.X it names exists.
    import inspect

    import npspore.nn as nn

    public = [name for name, value in vars(nn).items() if not name.startswith("_") and not inspect.ismodule(value)]
    table = _layer_table()
    shown = set(re.findall(r"`(?:nn\.)?([A-Za-z_]\w*)", table))
    assert set(nn.__all__) <= set(public)
    assert [name for name in public if name not in shown] == []
    assert [name for name in re.findall(r"`nn\.(\w+)", table) if name not in public] == []
