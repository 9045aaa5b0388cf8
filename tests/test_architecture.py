"""The package's layering, checked by walking the import statements of every module (no imports run).

The rules (ARCHITECTURE.md): imports between npspore modules form no cycle; the compiler imports
only the core and itself; imports hidden inside functions are rare; no compiler module grows past
what a reader can hold (900 lines).
"""
import ast
import os
import pathlib
import re

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "src" / "npspore"
# The core: what the compiler may import besides itself (see ARCHITECTURE.md). rules_nn holds the shape
# rules of the convolution, pooling and ordering ops: shape_rules' sibling, importing only opdef and it.
CORE = ("npspore.core", "npspore.opdef", "npspore.shape_rules", "npspore.rules_nn", "npspore.context",
        "npspore.codegen_templates")
# Imports of a core module from above the core, each there by design, with the reason.
CORE_EXCEPTIONS = {
    ("npspore.codegen_templates.collective", "npspore.runtime"):
        "an op's body is the kernel's code: it calls rt.all_reduce ... when the kernel (or the op eagerly) runs",
    ("npspore.codegen_templates.nn", "npspore.runtime"):
        "an op's body is the kernel's code: it calls rt.class_indices, rt.default_rng when the kernel runs",
    ("npspore.codegen_templates.special", "npspore.runtime"):
        "an op's body is the kernel's code: it calls rt.erfc when the kernel runs",
}
MAX_LOCAL_IMPORTS = 10
MAX_COMPILER_LINES = 900


def _module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _shipped_files() -> list:
    """Every ``.py`` file of the package, through the links it ships (``codegen_templates``)."""
    return sorted(pathlib.Path(root, name) for root, _, names in os.walk(PACKAGE, followlinks=True)
                  for name in names if name.endswith(".py"))


MODULES = {_module_name(p): p for p in _shipped_files()}


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _resolve(module: str, node) -> list:
    """The npspore modules an import statement of ``module`` names (submodules where they exist)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name.split(".")[0] == "npspore"]
    if node.level:
        base = module if _is_package(module) else module.rsplit(".", 1)[0]
        for _ in range(node.level - 1):
            base = base.rsplit(".", 1)[0]
        base = f"{base}.{node.module}" if node.module else base
    else:
        base = node.module or ""
    if base.split(".")[0] != "npspore":
        return []
    names = [f"{base}.{alias.name}" for alias in node.names]
    found = [name for name in names if name in MODULES]
    return found if len(found) == len(names) else found + [base]


def _imports(module: str):
    """``[(target module, is_function_local, line)]`` for every npspore import in ``module``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found = []

    def visit(node, local):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.extend((target, local, child.lineno) for target in _resolve(module, child))
            elif (isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute)
                  and child.func.attr == "import_module" and child.args
                  and isinstance(child.args[0], ast.Constant) and str(child.args[0].value).startswith("npspore")):
                found.append((child.args[0].value, True, child.lineno))
            visit(child, local or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(tree, False)
    return found


IMPORTS = {module: _imports(module) for module in MODULES}


def test_module_level_imports_form_no_cycle():
    graph = {m: sorted({t for t, local, _ in IMPORTS[m] if not local and t in MODULES and t != m}) for m in MODULES}
    state, cycles = {}, []

    def walk(node, stack):
        state[node] = "open"
        stack.append(node)
        for target in graph[node]:
            if state.get(target) == "open":
                cycles.append(stack[stack.index(target):] + [target])
            elif target not in state:
                walk(target, stack)
        stack.pop()
        state[node] = "done"

    for module in MODULES:
        if module not in state:
            walk(module, [])
    assert cycles == []


def test_compiler_imports_only_the_core_and_itself():
    wrong = [(m, t, line) for m in MODULES if m.startswith("npspore.compiler") for t, _, line in IMPORTS[m]
             if not t.startswith(("npspore.compiler",) + CORE)]
    assert wrong == []


def test_core_imports_only_the_core():
    above = {(m, t): line for m in MODULES if m.startswith(CORE) for t, _, line in IMPORTS[m] if not t.startswith(CORE)}
    assert sorted(set(above) - set(CORE_EXCEPTIONS)) == []
    assert sorted(set(CORE_EXCEPTIONS) - set(above)) == []   # an exception no longer needed is removed


def test_every_shipped_package_is_walked():
    # The packages the wheel ships (pyproject's list; codegen_templates through a link) are the ones checked.
    pyproject = (PACKAGE.parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    listed = re.search(r"^packages = (\[.*?\])$", pyproject, re.MULTILINE | re.DOTALL).group(1)
    assert set(ast.literal_eval(listed)) == {m for m in MODULES if _is_package(m)}


def test_few_function_local_imports():
    local = [(m, t, line) for m in MODULES for t, is_local, line in IMPORTS[m] if is_local]
    assert len(local) <= MAX_LOCAL_IMPORTS, local


@pytest.mark.parametrize("module", [m for m in MODULES if m.startswith("npspore.compiler")])
def test_compiler_modules_stay_readable(module):
    lines = MODULES[module].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_COMPILER_LINES


def test_the_compiler_names_no_private_attribute_of_a_cell():
    """What the compiler needs of a Cell, the library tells it (``compiler.library``): no compiler module
    reads or writes a Cell's private attributes or methods by name."""
    from npspore.nn import Cell
    private = {name for name in [*Cell().__dict__, *vars(Cell)] if name.startswith("_") and not name.startswith("__")}
    found = []
    for path in sorted((PACKAGE / "compiler").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = node.attr if isinstance(node, ast.Attribute) else (
                node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None)
            if name in private:
                found.append(f"{path.name}:{node.lineno} {name}")
    assert not found
