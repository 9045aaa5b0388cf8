"""``core.source``: a function's source found from its code object matches ``inspect``'s, a lambda in a
table of cases is found in its file's tree parsed once, and ``compiler.astcopy.copy_tree`` copies a
syntax tree as ``copy.deepcopy`` does."""
import ast
import copy
import functools
import inspect
import linecache

from npspore.compiler.astcopy import copy_tree
from npspore.core import source
from npspore.core.source import parse_source, source_lines


def _decorated(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return fn(*args)
    return wrapper


@_decorated
def _wrapped(x):
    return x + 1


def _spans_lines(x, y=(1,
                       2)):
    values = [v * 2 for v in (x, y)]
    return (values[0]
            + values[1]
            )


def _ends_in_a_nested_lambda(x):
    return sorted(x, key=lambda v: (
        -v))


class _Holder:
    @staticmethod
    def method(x):
        """Docstring."""
        if x:
            return 1
        return 2  # trailing comment


_one_line = lambda x: x + 1  # noqa: E731


def test_source_lines_match_inspect():
    functions = (_wrapped, _spans_lines, _ends_in_a_nested_lambda, _Holder.method, _one_line,
                 test_source_lines_match_inspect)
    for fn in functions:
        assert source_lines(fn) == inspect.getsourcelines(fn), fn.__name__
    module, lines, first = parse_source(_Holder.method)
    assert isinstance(module.body[0], ast.FunctionDef) and module.body[0].name == "method"
    assert first == _Holder.method.__code__.co_firstlineno and lines[0].strip() == "@staticmethod"


_TABLE = {
    "double": (lambda x: x * 2, 1),
    "shift": (lambda x: x + 1, 2),
}


def test_lambdas_in_a_table_are_found_in_their_file_parsed_once(monkeypatch):
    """Each lambda of a table (inside brackets opened on an earlier line) comes with its own line, its
    positions as if that line were parsed alone, fresh nodes every call; the file is parsed once for all."""
    filename = _TABLE["double"][0].__code__.co_filename
    text = "".join(linecache.getlines(filename))
    monkeypatch.setattr(source, "_LAMBDAS", {})
    parses = []
    parse = ast.parse
    monkeypatch.setattr(ast, "parse", lambda code, *args, **kwargs: (parses.append(code == text),
                                                                      parse(code, *args, **kwargs))[1])
    results = [parse_source(_TABLE[name][0]) for name in ("double", "shift", "double")]
    assert parses.count(True) == 1
    for (module, lines, first), name in zip(results, ("double", "shift", "double")):
        (expression,) = module.body
        assert first == _TABLE[name][0].__code__.co_firstlineno
        assert lines == linecache.getlines(filename)[first - 1:first]
        assert ast.unparse(expression) == {"double": "lambda x: x * 2", "shift": "lambda x: x + 1"}[name]
        indent = len(lines[0]) - len(lines[0].lstrip())
        assert (expression.value.lineno, expression.value.col_offset) == (1, lines[0].index("lambda") - indent)
    assert not {id(node) for node in ast.walk(results[0][0])} & {id(node) for node in ast.walk(results[2][0])}
    assert source._lambdas_by_line(filename, text + "f = lambda: 0\n") is not source._lambdas_by_line(filename, text)


def test_copy_tree_is_a_deep_copy():
    tree = ast.parse(inspect.getsource(_spans_lines))
    tree.body[0].note = [ast.Name(id="kept", ctx=ast.Load())]
    copied = copy_tree(tree)
    assert ast.dump(copied, include_attributes=True) == ast.dump(copy.deepcopy(tree), include_attributes=True)
    assert copied.body[0].note[0].id == "kept" and copied.body[0].note[0] is not tree.body[0].note[0]
    originals = {id(node) for node in ast.walk(tree)}
    assert not any(id(node) in originals for node in ast.walk(copied))
