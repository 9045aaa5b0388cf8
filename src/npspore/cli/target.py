"""What the CLI compiles: a TARGET (``file.py:Name`` or ``package.module:Name``) and its inputs (SPECs).

``load_target`` imports the module (running a file's top level, as ``python FILE`` would, except
for its ``if __name__ == "__main__":`` block), finds ``Name`` and decides what it is: a Cell class
(built with no arguments, or with ``--init ARGS``), a factory function returning a Cell (a function
with no parameters whose result is a Cell), a Cell instance, or a plain function to compile. ``make_inputs`` turns SPECs
such as ``f32[64,784]``, ``3``, ``(1, 2)`` or ``@x.npy`` into call arguments; tensors are filled
from a fixed seed so every run sees the same data.

Every problem the user can fix is raised as :class:`InputError`, whose message is the one line
the CLI prints.
"""
from __future__ import annotations

import ast
import difflib
import importlib
import importlib.util
import inspect
import os
import re
import stat
import sys
import traceback
from dataclasses import dataclass

import numpy as np

from ..common.tensor import Tensor
from ..compiler.targets import unbind
from ..context import PYNATIVE_MODE, set_context
from ..jit import JitFunction, jit
from ..nn.cell import Cell
from ..testing.precision import parameters_read_by


class InputError(Exception):
    """A mistake in the command line (TARGET, SPEC, options): printed as one line, exit status 2."""


# ------------------------------------------------------------------------------------------- TARGET


@dataclass
class Target:
    """A loaded TARGET: ``obj`` is a Cell instance or a plain function; ``label`` is how to name it."""

    obj: object
    label: str

    @property
    def is_cell(self) -> bool:
        return isinstance(self.obj, Cell)

    @property
    def function(self):
        """The plain function that is compiled (a Cell's ``construct`` unbound)."""
        return unbind(self.obj)[0]

    def input_names(self) -> list:
        """Names of the positional inputs (``self`` excluded)."""
        params = list(inspect.signature(self.function).parameters.values())
        return [p.name for p in params[1 if self.is_cell else 0:]]

    def check_input_count(self, args) -> None:
        """Raise InputError unless ``args`` can be passed to ``construct`` / the function."""
        signature = inspect.signature(self.function)
        try:
            signature.bind(*((None,) if self.is_cell else ()), *args)
        except TypeError:
            names = self.input_names()
            wanted = "no inputs"
            if names:
                wanted = f"{len(names)} input{'' if len(names) == 1 else 's'} ({', '.join(names)})"
            raise InputError(f"{self.function.__qualname__} takes {wanted}, got {len(args)} from --input") from None

    def eager(self, args):
        """Run the program eagerly: ``cell(*args)`` (the CLI runs in PYNATIVE mode) or ``fn(*args)``."""
        return self.obj(*args)

    def set_train(self) -> None:
        """Put a Cell target in training mode (``--train``)."""
        if not self.is_cell:
            raise InputError("--train needs a Cell target")
        self.obj.set_train(True)

    def compiled(self):
        """A callable that runs the compiled forward kernel (compiling on its first call)."""
        return jit(self.obj) if self.is_cell else JitFunction(self.obj)

    def parameters(self) -> list:
        """``[(path, Parameter)]`` the target reads: a Cell's, or those of the Cells a function's closure
        and globals hold (``net.fc1.weight``: the usual ``forward_fn`` over ``net``)."""
        return parameters_read_by(self.obj)


def load_target(text: str, init: str | None = None) -> Target:
    """The Target named by ``path/to/file.py:Name`` or ``package.module:Name``.

    ``init`` is the text of constructor arguments (``"3, scale=0.5"``, Python literals) for a Cell
    class or a factory function (``--init``).

    The context is then set to PYNATIVE mode (the script may have chosen GRAPH mode), so that calling
    a Cell runs it eagerly; the CLI compiles explicitly.

    Raises:
        InputError: the file or module cannot be imported, ``Name`` is missing or of the wrong kind,
            a Cell class needs constructor arguments, or ``init`` is not literal call arguments.
    """
    where, sep, name = text.rpartition(":")
    if not sep or not where or not name:
        raise InputError(f"TARGET {text!r} must be path/to/file.py:Name or package.module:Name")
    if where.endswith(".py") or os.sep in where or "/" in where:
        module = _import_file(where)
    else:
        module = _import_module(where)
    obj = module
    for part in name.split("."):
        if not hasattr(obj, part):
            choices = [n for n in dir(obj) if not n.startswith("_")]
            close = difflib.get_close_matches(part, choices, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise InputError(f"{where} has no name {name!r}{hint}")
        obj = getattr(obj, part)
    program = _as_program(obj, name) if init is None else _construct(obj, name, parse_init(init))
    set_context(mode=PYNATIVE_MODE)
    return Target(program, name)


def _import_file(path: str):
    if not os.path.isfile(path):
        raise InputError(f"no such file: {path}")
    path = os.path.abspath(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    module_name = stem
    if not stem.isidentifier() or stem in sys.modules:
        module_name = "_npspore_target_" + re.sub(r"\W", "_", stem)
    directory = os.path.dirname(path)
    if directory not in sys.path:
        sys.path.insert(0, directory)  # sibling imports work as when running the file
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # inspect finds class sources through sys.modules
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # noqa: BLE001 - any failure of the user's module is reported in one line
        del sys.modules[module_name]
        raise InputError(f"cannot import {path}: {_one_line(error)}") from error
    return module


def _import_module(name: str):
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())  # as `python -m` does
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name and (name == error.name or name.startswith(error.name + ".")):
            raise InputError(f"cannot import module {name!r}: {error}") from error
        raise InputError(f"cannot import module {name!r}: {_one_line(error)}") from error
    except Exception as error:  # noqa: BLE001
        raise InputError(f"cannot import module {name!r}: {_one_line(error)}") from error


def _one_line(error: BaseException) -> str:
    """``Type: message (file:line)``, the line being the innermost frame of the user's code."""
    if isinstance(error, SyntaxError):
        return f"SyntaxError: {error.msg} ({error.filename}:{error.lineno})"
    message = str(error).splitlines()[0] if str(error) else ""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "importlib" not in f.filename]
    where = f" ({frames[-1].filename}:{frames[-1].lineno})" if frames else ""
    return f"{type(error).__name__}: {message}{where}"


def _as_program(obj, name: str):
    """The Cell instance or plain function that ``obj`` stands for."""
    if isinstance(obj, Cell):
        return obj
    if inspect.isclass(obj):
        if not issubclass(obj, Cell):
            raise InputError(f"{name!r} is a class but not an nn.Cell subclass")
        required = [p.name for p in list(inspect.signature(obj.__init__).parameters.values())[1:]
                    if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD,
                                                           p.KEYWORD_ONLY)]
        if required:
            raise InputError(f"Cell class {name!r} needs constructor arguments ({', '.join(required)}): "
                             "give them with --init (e.g. --init '" + ", ".join(f"{r}=..." for r in required) + "')")
        return _call_user(obj, name)
    if isinstance(obj, JitFunction):
        return obj.__npspore_function__
    if inspect.isfunction(obj):
        if not inspect.signature(obj).parameters:
            result = _call_user(obj, name)  # a factory when it returns a Cell
            if isinstance(result, Cell):
                return result
        return obj
    raise InputError(f"{name!r} is a {type(obj).__name__}; expected an nn.Cell class or instance, "
                     "a function returning a Cell, or a function to compile")


def _call_user(factory, name, args=(), kwargs=None):
    try:
        return factory(*args, **(kwargs or {}))
    except Exception as error:  # noqa: BLE001
        raise InputError(f"{name}() raised {_one_line(error)}") from error


def parse_init(text: str) -> tuple:
    """``(args, kwargs)`` of ``--init`` text such as ``"3, scale=0.5, sizes=(4, 8)"`` (Python literals).

    Raises:
        InputError: the text is not a comma-separated list of literals and ``name=literal`` pairs.
    """
    try:
        call = ast.parse(f"f({text})", mode="eval").body
        if not isinstance(call, ast.Call) or any(isinstance(a, ast.Starred) for a in call.args) or \
                any(k.arg is None for k in call.keywords):
            raise ValueError(text)
        return (tuple(ast.literal_eval(a) for a in call.args),
                {k.arg: ast.literal_eval(k.value) for k in call.keywords})
    except (SyntaxError, ValueError):
        raise InputError(f"--init takes constructor arguments as Python literals (e.g. '3, scale=0.5'), "
                         f"got {text!r}") from None


def _construct(obj, name: str, arguments: tuple) -> Cell:
    """The Cell that ``--init`` arguments build from a Cell class or a factory function."""
    args, kwargs = arguments
    if not (inspect.isclass(obj) and issubclass(obj, Cell)) and not inspect.isfunction(obj):
        raise InputError(f"--init needs a Cell class or a function returning a Cell; {name!r} is a "
                         f"{type(obj).__name__}")
    built = _call_user(obj, name, args, kwargs)
    if not isinstance(built, Cell):
        raise InputError(f"{name}(...) with --init returned a {type(built).__name__}, not an nn.Cell")
    return built


# ------------------------------------------------------------------------------------------- SPECs

_DTYPES = {
    "f16": "float16", "f32": "float32", "f64": "float64",
    "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
    "b": "bool", "bool": "bool", "bool_": "bool",
}
_DTYPES.update({long: long for long in set(_DTYPES.values())})

_TENSOR_SPEC = re.compile(r"^\s*([a-z_0-9]+)\s*\[\s*([0-9,\s]*)\]\s*$")

SPEC_HELP = ("SPEC is dtype[dims] (f32[64,784], i64[3], f64[]; dtypes f16 f32 f64 i8 i16 i32 i64 u8 u16 "
             "u32 u64 bool), a Python literal for a constant (3, 0.5, '(1, 2)'), or @file.npy")


def make_inputs(specs, seed: int = 0) -> tuple:
    """Call arguments for SPECs: Tensors (seeded random data), Python constants, arrays from .npy files.

    Floating tensors are standard normal, integer tensors random ints in [0, 10), bool tensors random;
    one generator seeded with ``seed`` fills them in order, so a run is reproducible.

    Raises:
        InputError: a SPEC is malformed or its .npy file cannot be read.
    """
    rng = np.random.default_rng(seed)
    return tuple(_make_input(spec, rng) for spec in specs)


def _make_input(spec: str, rng):
    if spec.startswith("@"):
        return _load_npy(spec[1:])
    match = _TENSOR_SPEC.match(spec)
    if match:
        dtype_name = _DTYPES.get(match.group(1))
        if dtype_name is None:
            raise InputError(f"unknown dtype {match.group(1)!r} in SPEC {spec!r}; expected one of "
                             "f16 f32 f64 i8 i16 i32 i64 u8 u16 u32 u64 bool")
        dims = [d.strip() for d in match.group(2).split(",")] if match.group(2).strip() else []
        if any(not d.isdigit() for d in dims):
            raise InputError(f"malformed SPEC {spec!r}: dims must be non-negative integers, e.g. f32[64,784]")
        return Tensor(_random_array(tuple(int(d) for d in dims), np.dtype(dtype_name), rng))
    try:
        return ast.literal_eval(spec)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise InputError(f"malformed SPEC {spec!r}: {SPEC_HELP}") from None


def _random_array(shape, dtype, rng) -> np.ndarray:
    if dtype.kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    return rng.integers(0, 10, size=shape).astype(dtype)


def _load_npy(path: str):
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise InputError(f"cannot read {path!r} as a .npy array: it is not a regular file")
        array = np.load(path, allow_pickle=False)
    except EOFError:
        raise InputError(f"cannot read {path!r} as a .npy array: the file is empty or truncated") from None
    except (OSError, ValueError) as error:
        raise InputError(f"cannot read {path!r} as a .npy array: {error}") from None
    if not isinstance(array, np.ndarray):
        raise InputError(f"{path!r} holds several arrays (.npz); give one .npy file per input")
    return Tensor(array)
