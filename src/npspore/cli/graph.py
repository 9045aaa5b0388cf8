"""``npspore show --graph FILE``: the specialized program drawn as a data-flow graph.

Each function of the optimized program (the forward kernel, or with ``--grad`` the forward and the
adjoint functions) is a cluster; inputs are ellipses, each op a box labelled with the op and the
shapes and dtypes of its results, and an edge runs from the statement that defines a value to each
statement that reads it. Control flow (``if``, ``for``, ``while``) is a box holding its blocks.
``FILE.dot`` gets the DOT text; any other suffix (``.svg``, ``.png``, ``.pdf``) is drawn by Graphviz's
``dot`` when it is installed, and without it the DOT text goes to the ``.dot`` file of that name
(``g.svg``: ``g.dot``), to be drawn where Graphviz is.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

from ..compiler import ir, pipeline
from .target import InputError


def program_module(compile_request) -> ir.Module:
    """The optimized program ``npspore show`` would print for ``compile_request`` (forward or gradient)."""
    return pipeline.run_stages(compile_request, stop_after="optimize").module


def to_dot(module: ir.Module) -> str:
    """The DOT text of ``module``: one cluster per function, the entry function first."""
    writer = _DotWriter()
    names = [module.entry] + sorted(n for n in module.functions if n != module.entry)
    lines = ["digraph program {", "  rankdir=TB;", '  node [fontname="monospace", fontsize=10];']
    for name in names:
        lines += writer.function(module.functions[name], entry=name == module.entry)
    return "\n".join(lines + ["}"]) + "\n"


def write_graph(module: ir.Module, path: str) -> None:
    """Write the graph to ``path`` (DOT text for ``.dot``, else drawn by ``dot``; without it DOT text to ``.dot``)."""
    text = to_dot(module)
    suffix = os.path.splitext(path)[1].lower().lstrip(".")
    if not suffix:
        raise InputError(f"--graph needs a file name ending in .dot, .svg, .png or .pdf, got {path!r}")
    dot = shutil.which("dot")
    if suffix != "dot" and dot is None:
        dot_path = os.path.splitext(path)[0] + ".dot"
        print(f"npspore: Graphviz 'dot' is not installed: writing the DOT text to {dot_path} instead of {path} "
              f"(draw it with: dot -T{suffix} {dot_path} -o {path})", file=sys.stderr)
        path, suffix = dot_path, "dot"
    if suffix == "dot":
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        print(f"wrote {path}")
        return
    done = subprocess.run([dot, f"-T{suffix}", "-o", path], input=text, text=True, capture_output=True)
    if done.returncode != 0:
        raise InputError(f"dot could not write {path}: {done.stderr.strip().splitlines()[-1] if done.stderr else ''}")
    print(f"wrote {path}")


class _DotWriter:
    """Numbers nodes and remembers which node defines each Var."""

    def __init__(self):
        self.count = 0
        self.defined_by: dict = {}

    def node(self, label: str, shape: str) -> tuple:
        self.count += 1
        name = f"n{self.count}"
        return name, f'{name} [label="{_escape(label)}", shape={shape}];'

    def function(self, function, *, entry: bool) -> list:
        self.count += 1
        title = f"{function.name}{'  (entry)' if entry else ''}"
        lines = [f"  subgraph cluster_{self.count} {{", f'    label="{_escape(title)}";']
        for param in function.params:
            name, text = self.node(f"{param.name}\n{param.aval}", "ellipse")
            self.defined_by[param] = name
            lines.append("    " + text)
        lines += self.block(function.body, "    ")
        name, text = self.node("return", "plaintext")
        lines.append("    " + text)
        lines += self.edges(function.body.results, name, "    ")
        return lines + ["  }"]

    def block(self, block, indent: str) -> list:
        lines = []
        for stmt in block.stmts:
            inner = ir.nested_blocks(stmt)
            outputs = ir.defined_vars(stmt)
            label = _label(stmt, outputs)
            if inner:
                self.count += 1
                lines += [f"{indent}subgraph cluster_{self.count} {{", f'{indent}  label="{_escape(label)}";']
                for nested in inner:
                    lines += self.block(nested, indent + "  ")
                name, text = self.node(label.split("\n")[0], "diamond")
                lines += [f"{indent}  {text}", f"{indent}}}"]
            else:
                name, text = self.node(label, "box")
                lines.append(indent + text)
            lines += self.edges(ir.used_atoms(stmt), name, indent)
            for var in outputs:
                self.defined_by[var] = name
        return lines

    def edges(self, atoms, target: str, indent: str) -> list:
        sources = []
        for atom in atoms:
            source = self.defined_by.get(atom) if isinstance(atom, ir.Var) else None
            if source is not None and source not in sources:
                sources.append(source)
        return [f"{indent}{source} -> {target};" for source in sources]


def _label(stmt, outputs) -> str:
    results = "\n".join(f"{v.name}: {v.aval}" for v in outputs)
    if isinstance(stmt, ir.Apply):
        static = ", ".join(f"{k}={v!r}" for k, v in stmt.static.items())
        head = f"{stmt.op}({static})" if static else stmt.op
    elif isinstance(stmt, ir.Call):
        head = f"call {stmt.callee}"
    elif isinstance(stmt, ir.Effect):
        head = stmt.kind
    else:
        head = type(stmt).__name__
    return f"{head}\n{results}" if results else head


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
