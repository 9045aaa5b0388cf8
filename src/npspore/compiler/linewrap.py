"""Lines of generated code wrapped at 120 columns of code, as a careful person wraps them.

A statement longer than the width is broken inside its brackets: a call's arguments, a tuple's or a
list's items, an index tuple, each continuation line indented four columns deeper than the line it
continues (eight for a ``def``'s parameters), items filled greedily; an assignment's long target
tuple is parenthesized and broken the same way. The trailing ``# file.py:LINE`` comment stays on the
statement's first line. A wrapped statement always parses to the same syntax tree as the line it
replaces; one that cannot be wrapped so (a long string, a long name) is left as it is.
"""
from __future__ import annotations

import ast
import re

WIDTH = 120
_SOURCE_COMMENT = re.compile(r"  # [^#]*:\d+$")


def wrap_lines(lines: list, width: int = WIDTH) -> list:
    """``lines`` (of one function) with each line whose code is over ``width`` columns wrapped."""
    out = []
    for line in lines:
        out.extend(wrap_line(line, width))
    return out


def wrap_line(line: str, width: int = WIDTH) -> list:
    """One line of generated code as the lines of its wrapped form (itself when it fits)."""
    match = _SOURCE_COMMENT.search(line)
    code, comment = (line[:match.start()], match.group(0)) if match else (line, "")
    if len(code) <= width or "\n" in code:
        return [line]
    indent = code[:len(code) - len(code.lstrip())]
    text = code.strip()
    is_def = text.startswith("def ") and text.endswith(":")
    try:
        tree = ast.parse(text + "\n    pass" if is_def else text)
    except SyntaxError:
        return [line]
    statement = tree.body[0]
    if isinstance(statement, ast.Delete) and not comment:
        return _deletions(statement, indent, width)
    pieces = _statement(statement, len(indent), width)
    if pieces is None:
        return [line]
    wrapped = [indent + pieces[0]] + pieces[1:]
    check = "\n".join(piece[len(indent):] if piece.startswith(indent) else piece for piece in wrapped)
    try:
        same = ast.dump(ast.parse(check + "\n    pass" if is_def else check)) == ast.dump(tree)
    except SyntaxError:
        same = False
    if not same:
        return [line]
    wrapped[0] += comment
    return wrapped


def _statement(node, column: int, width: int):
    """The wrapped lines of a simple statement (the first without its indentation), or None."""
    if isinstance(node, ast.FunctionDef):
        head = f"def {node.name}("
        params = node.args.args
        if node.args.vararg or node.args.kwonlyargs or node.args.kwarg or node.args.defaults:
            return None
        lines, pad = [head], " " * (column + 8)
        for position, param in enumerate(params):
            text = param.arg + ("):" if position == len(params) - 1 else ",")
            start = (column if len(lines) == 1 else 0) + len(lines[-1])
            if lines[-1] in (head, pad) or start + 1 + len(text) <= width:
                lines[-1] += text if lines[-1] in (head, pad) else " " + text
            else:
                lines.append(pad + text)
        return lines
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        if isinstance(target, ast.Tuple) and column + len(ast.unparse(target)) + 3 > width // 2:
            value_head = ast.unparse(node.value.func) + "(" if isinstance(node.value, ast.Call) else ast.unparse(node.value)
            left = _items("(", target.elts, ")" if len(target.elts) > 1 else ",)", column, column + 4, width,
                          reserve=len(" = ") + len(value_head))
        elif isinstance(target, ast.Tuple) and len(target.elts) > 1:
            left = [", ".join(ast.unparse(e) for e in target.elts)]
        else:
            left = _expression(target, column, column + 4, width)
        return _join(left, " = ", node.value, column, width)
    if isinstance(node, ast.AugAssign):
        operator = ast.unparse(ast.AugAssign(ast.Name("a"), node.op, ast.Name("b"))).split()[1]
        return _join(_expression(node.target, column, column + 4, width), f" {operator} ", node.value, column, width)
    if isinstance(node, ast.Expr):
        return _expression(node.value, column, column + 4, width)
    if isinstance(node, ast.Return) and node.value is not None:
        return _join(["return"], " ", node.value, column, width)
    return None


def _deletions(node: ast.Delete, indent: str, width: int) -> list:
    """A long ``del a, b, ...`` as several ``del`` lines, each within the width."""
    lines: list = []
    current: list = []
    for target in (ast.unparse(t) for t in node.targets):
        if current and len(indent) + len("del " + ", ".join(current + [target])) > width:
            lines.append(f"{indent}del {', '.join(current)}")
            current = []
        current.append(target)
    return lines + [f"{indent}del {', '.join(current)}"]


def _join(left: list, separator: str, value, column: int, width: int) -> list:
    start = (column if len(left) == 1 else 0) + len(left[-1]) + len(separator)
    right = _expression(value, start, column + 4, width)
    return left[:-1] + [left[-1] + separator + right[0]] + right[1:]


def _expression(node, start: int, indent: int, width: int) -> list:
    """``node``'s text beginning at column ``start``; continuation lines (with their indentation)
    at column ``indent``."""
    text = ast.unparse(node)
    if start + len(text) <= width:
        return [text]
    if isinstance(node, ast.Call):
        arguments = list(node.args) + list(node.keywords)
        return _items(ast.unparse(node.func) + "(", arguments, ")", start, indent, width) if arguments else [text]
    if isinstance(node, (ast.Tuple, ast.List)) and node.elts:
        opening, closing = ("[", "]") if isinstance(node, ast.List) else ("(", ")" if len(node.elts) > 1 else ",)")
        if text.startswith(opening):
            return _items(opening, node.elts, closing, start, indent, width)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple) and node.slice.elts:
        return _items(ast.unparse(node.value) + "[", node.slice.elts, "]", start, indent, width)
    if isinstance(node, ast.UnaryOp) and text.startswith(ast.unparse(ast.UnaryOp(node.op, ast.Name("x")))[:-1]):
        prefix = text[:len(text) - len(ast.unparse(node.operand))]
        if text == prefix + ast.unparse(node.operand):
            inner = _expression(node.operand, start + len(prefix), indent, width)
            return [prefix + inner[0]] + inner[1:]
    if isinstance(node, ast.BinOp):
        return _binary(node, text, start, indent, width)
    return [text]


def _binary(node: ast.BinOp, text: str, start: int, indent: int, width: int) -> list:
    """A binary operation with its right operand wrapped (the parentheses precedence needs kept)."""
    symbol = ast.unparse(ast.BinOp(ast.Name("a"), node.op, ast.Name("b")))[1:-1]
    left, right = ast.unparse(node.left), ast.unparse(node.right)
    for left_text in (left, f"({left})"):
        for opening, closing in (("", ""), ("(", ")")):
            if text != f"{left_text}{symbol}{opening}{right}{closing}":
                continue
            if left_text == left and start + len(left) > width:   # the left operand is the long one
                inner = _expression(node.left, start, indent, width)
                return inner[:-1] + [inner[-1] + symbol + opening + right + closing]
            head = f"{left_text}{symbol}{opening}"
            inner = _expression(node.right, start + len(head), indent, width)
            return [head + inner[0]] + inner[1:-1] + [inner[-1] + closing] if len(inner) > 1 \
                else [head + inner[0] + closing]
    return [text]


def _items(opening: str, items: list, closing: str, start: int, indent: int, width: int, reserve: int = 0) -> list:
    """``opening``, then ``items`` filled greedily on lines at column ``indent``, then ``closing``
    (and ``reserve`` more columns the caller writes after it)."""
    pad = " " * indent
    lines = [opening]
    current = ""
    for position, item in enumerate(items):
        last = position == len(items) - 1
        suffix = closing + " " * reserve if last else ","
        text = _item_text(item)
        if current and indent + len(current) + 1 + len(text) + len(suffix) <= width:
            current += " " + text + suffix
            continue
        if current:
            lines.append(pad + current)
        if indent + len(text) + len(suffix) <= width:
            current = text + suffix
            continue
        inner = _item_lines(item, indent, indent + 4, width - len(suffix))   # the suffix ends its last line
        lines.append(pad + inner[0])
        lines.extend(inner[1:-1])
        current = ""
        if len(inner) > 1:
            lines.append(inner[-1] + suffix)
        else:
            lines[-1] += suffix
    if current:
        lines.append(pad + current)
    lines[-1] = lines[-1].rstrip(" ") if reserve else lines[-1]
    return lines


def _item_text(item) -> str:
    if isinstance(item, ast.keyword):
        return f"{item.arg}={ast.unparse(item.value)}" if item.arg else f"**{ast.unparse(item.value)}"
    if isinstance(item, ast.arg):
        return item.arg
    return ast.unparse(item)


def _item_lines(item, start: int, indent: int, width: int) -> list:
    if isinstance(item, ast.keyword) and item.arg:
        inner = _expression(item.value, start + len(item.arg) + 1, indent, width)
        return [f"{item.arg}={inner[0]}"] + inner[1:]
    if isinstance(item, (ast.keyword, ast.arg)):
        return [_item_text(item)]
    return _expression(item, start, indent, width)
