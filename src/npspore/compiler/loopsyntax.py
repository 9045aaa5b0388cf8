"""What a loop's source says, read from its AST before it is staged: whether it breaks, continues or returns,
and which names its body binds (``compiler/control.py`` decides from these how a loop compiles)."""
from __future__ import annotations

import ast


def has_loop_exit(stmts, kinds=(ast.Break, ast.Continue)) -> bool:
    """Whether ``stmts`` break or continue the loop they are in (not counting inner loops)."""
    pending = list(stmts)
    while pending:
        node = pending.pop()
        if isinstance(node, kinds):
            return True
        if isinstance(node, (ast.For, ast.While, ast.FunctionDef, ast.Lambda)):
            continue
        pending.extend(ast.iter_child_nodes(node))
    return False


def returns_without_exits(stmt: ast.For) -> bool:
    """Whether a ``for`` loop may return from the function and never breaks or continues: unrolled
    into the statements around it, a tensor-dependent ``return`` then has what follows the loop as
    its continuation."""
    if stmt.orelse or has_loop_exit(stmt.body):
        return False
    return any(isinstance(n, ast.Return) for n in ast.walk(ast.Module(body=list(stmt.body), type_ignores=[])))


def returns_from_stepped_loop(stmt) -> bool:
    """Whether a ``while`` loop, or a ``for`` loop that breaks or continues (neither with ``else``),
    may return from the function: run by ``ControlFlow._returning_loop``, which unrolls it lazily
    (:class:`LoopStep`) when a tensor-dependent ``if`` decides between its ``return`` and a ``break``,
    or a ``return`` under a tensor condition is reached in a loop over Python values."""
    if stmt.orelse or (isinstance(stmt, ast.For) and not has_loop_exit(stmt.body)):
        return False
    return any(isinstance(n, ast.Return) for n in ast.walk(ast.Module(body=list(stmt.body), type_ignores=[])))


def assigned_names(stmts) -> list:
    """The names ``stmts`` bind, ``x`` of ``x[i] = v`` among them (compiled code binds ``x`` to a new tensor)."""
    names = []
    for node in ast.walk(ast.Module(body=list(stmts), type_ignores=[])):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name):
            node = node.value
        elif not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)):
            continue
        if node.id not in names:
            names.append(node.id)
    return names
