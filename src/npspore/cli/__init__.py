"""The ``npspore`` command line: run MindSpore programs; read, check and manage generated kernels.

``main(argv)`` parses the verb (``run``, ``show``, ``export``, ``check``, ``cache``, ``bench``) and runs it. ``run``
exits with the script's own status. Otherwise the exit status is:
0 success, 1 ``check`` found a wrong gradient, 2 bad input (a usage error or out-of-range option, a
TARGET or SPEC that cannot be used, a compile error in the user's program, a program that calls
``sys.exit``), 130 interrupted (Ctrl-C, as shells expect). Errors are one line on stderr — for compile
errors followed by the user's file, line and a caret — and never a traceback unless ``--debug`` is given.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import traceback

import numpy as np

from ..core.version import __version__
from ..compiler.errors import CompileError
from ..compiler.pipeline import STAGES
from . import bench, cache, check, export, run, show
from .arguments import count, finite
from .gradient import add_grad_options
from .target import SPEC_HELP, InputError, load_target, make_inputs

__all__ = ["main"]

_TARGET_HELP = ("path/to/file.py:Name or package.module:Name; Name is an nn.Cell class (built with no "
                "arguments, or with --init), a function with no parameters returning a Cell, a Cell instance, "
                "or a function. Loading FILE.py runs the file's top level (not its `if __name__ == "
                "'__main__':` block), as importing it would")

_RUN_EXAMPLES = """\
examples:
  npspore run train.py --epochs 2
      runs train.py as `python train.py --epochs 2` would, with `import mindspore` (and every
      `mindspore.x.y`) importing npspore's module
  python -m npspore run train.py
exit status: the script's own (1 after an uncaught exception)
"""

_SHOW_EXAMPLES = """\
examples:
  npspore show npspore.examples:MLP --input f32[5,4]
      the forward kernel of MLP for a 5x4 float32 input (the cached file's text)
  npspore show npspore.examples:MLP --input f32[5,4] --grad --weights all
      the adjoint kernel of grad(net, grad_position=0, weights=net.trainable_params())
  npspore show npspore.examples:MulNet --input f32[2] f32[2] f32[2] --grad --grad-position 0 1 2
  npspore show npspore.examples:Scaled --init 'scale=2.0' --input f32[2,3] --grad --grad-position none --weights w
  npspore show npspore.examples:MLP --input f32[8,4] --dump-after specialize
  npspore show npspore.examples:MLP --input f32[8,4] --grad --weights all --graph mlp.svg
  npspore show model.py:Net --input f32[8,16]      (runs model.py's top level, then builds Net())
  npspore show npspore.examples:Recurrent --input f32[2,3] --side-by-side
"""

_EXPORT_EXAMPLES = """\
examples:
  npspore export npspore.examples:MLP --input f32[1,4] --format onnx -o mlp
      writes mlp.onnx: the forward of MLP() for a 1x4 float32 input, in inference mode
  npspore export model.py:Net --input f32[8,16] --format mindir -o build/net.mindir
"""

_CHECK_EXAMPLES = """\
examples:
  npspore check npspore.examples:MLP --input f32[5,4] --weights all
  npspore check npspore.examples:MLPWithLoss --input f32[5,4] f32[5,3] --weights all --train
  npspore check npspore.examples:elementwise --input f32[3] f32[3] f32[3] --grad-position 0 1 2
  npspore check model.py:Net --input @x.npy --eps 1e-5
exit status: 0 all gradients match, 1 some gradient does not, 2 bad input
"""

_CACHE_EXAMPLES = """\
examples:
  npspore cache list
  npspore cache info --json
  npspore cache clear --older-than 30
  npspore cache explain npspore.examples:MLP --input f32[5,4]
the cache directory is $NPSPORE_CACHE_DIR (default ~/.cache/npspore); clear deletes only npspore's sealed kernels
"""

_BENCH_EXAMPLES = """\
examples:
  npspore bench npspore.examples:MLP --input f32[64,4]
  npspore bench npspore.examples:MLP --input f32[64,4] --grad --weights all --repeat 50
"""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line on stderr (exit status 2)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _verb(subparsers, name, help_text, epilog, parents):
    return subparsers.add_parser(name, help=help_text, description=help_text[0].upper() + help_text[1:] + ".",
                                 epilog=epilog, parents=parents, formatter_class=argparse.RawDescriptionHelpFormatter)


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of the ``npspore`` command."""
    debug = _Parser(add_help=False)
    debug.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                       help="show the Python traceback of an error")
    target = _Parser(add_help=False)
    target.add_argument("target", metavar="TARGET", help=_TARGET_HELP)
    target.add_argument("--input", nargs="+", action="extend", default=[], metavar="SPEC", help=SPEC_HELP)
    target.add_argument("--seed", type=count(0), default=0, help="seed of the random input data (default: 0)")
    target.add_argument("--init", metavar="ARGS",
                        help="constructor arguments of a Cell class, as Python literals: --init '3, scale=0.5'")

    parser = _Parser(prog="npspore", description="Run MindSpore programs on npspore; read, check and manage the kernels it generates.",
                     epilog="run 'npspore VERB --help' for a verb's options and examples",
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version",
                        version=f"npspore {__version__} (NumPy {np.__version__}, Python {platform.python_version()})")
    parser.add_argument("--debug", action="store_true", default=False, help="show the Python traceback of an error")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True, parser_class=_Parser)

    run_parser = _verb(verbs, "run", "run a MindSpore program unchanged, its mindspore imports mapped onto npspore",
                       _RUN_EXAMPLES, [])
    run_parser.add_argument("script", metavar="SCRIPT", help="the Python file to run as __main__")
    run_parser.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS",
                            help="the script's own arguments (its sys.argv[1:])")
    run_parser.set_defaults(handler=run.run)

    show_parser = _verb(verbs, "show", "print the generated module that runs (forward or adjoint kernel)",
                        _SHOW_EXAMPLES, [target, debug])
    add_grad_options(show_parser, with_grad_flag=True)
    show_parser.add_argument("--dump-after", choices=STAGES, metavar="STAGE",
                             help=f"print the program after a compiler stage instead: {', '.join(STAGES)}")
    show_parser.add_argument("--train", action="store_true", help="compile the Cell in training mode (set_train())")
    show_parser.add_argument("--side-by-side", action="store_true",
                             help="show each source line next to the generated lines that came from it")
    show_parser.add_argument("--graph", metavar="FILE",
                             help="draw the program (ops, shapes; with --grad forward and adjoint) to FILE.svg/.png "
                                  "with Graphviz's dot, or write its DOT text to FILE.dot (also what FILE.svg/.png "
                                  "becomes without dot)")
    show_parser.add_argument("--no-color", action="store_true", help="no syntax colouring (also: NO_COLOR=1)")
    show_parser.set_defaults(handler=_with_target(show.run))

    export_parser = _verb(verbs, "export", "write the forward computation as an ONNX or MindIR model (ms.export)",
                          _EXPORT_EXAMPLES, [target, debug])
    export_parser.add_argument("--format", choices=sorted(export.FORMATS), required=True,
                               help="the model format: onnx or mindir")
    export_parser.add_argument("-o", "--output", required=True, metavar="FILE",
                               help="the file; .onnx (.mindir) is appended unless it ends with it")
    export_parser.set_defaults(handler=_with_target(export.run))

    check_parser = _verb(verbs, "check", "compare the generated gradients with central finite differences "
                         "(float64 inputs and weights)", _CHECK_EXAMPLES, [target, debug])
    add_grad_options(check_parser, with_grad_flag=False)
    check_parser.add_argument("--train", action="store_true", help="check the Cell in training mode (set_train())")
    chosen = ("; default: chosen from the least precise dtype on the program's path "
              "(float64 {}, float32 {})")
    check_parser.add_argument("--eps", type=finite(positive=True), help="finite-difference step" + chosen.format("1e-6", "1e-3"))
    check_parser.add_argument("--rtol", type=finite(positive=False), help="relative tolerance" + chosen.format("1e-5", "1e-2"))
    check_parser.add_argument("--atol", type=finite(positive=False), help="absolute tolerance" + chosen.format("1e-6", "1e-3"))
    check_parser.add_argument("--max-elements", type=count(0), default=200, metavar="N",
                              help="check at most N random elements per argument, 0 for all (default: 200)")
    check_parser.set_defaults(handler=_with_target(check.run))

    cache_parser = _verb(verbs, "cache", "list, measure, clear or explain the on-disk kernel cache",
                         _CACHE_EXAMPLES, [debug])
    actions = cache_parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=_Parser)
    as_json = _Parser(add_help=False)
    as_json.add_argument("--json", action="store_true", help="print JSON instead of a table")
    _verb(actions, "list", "list cached kernels: key, callable, signature, size, age", _CACHE_EXAMPLES,
          [as_json, debug]).set_defaults(handler=cache.run_list)
    _verb(actions, "info", "print the cache directory, number of kernels and total size", _CACHE_EXAMPLES,
          [as_json, debug]).set_defaults(handler=cache.run_info)
    clear = _verb(actions, "clear", "delete cached kernels (only npspore's own files)", _CACHE_EXAMPLES, [debug])
    clear.add_argument("--older-than", type=finite(positive=False), metavar="DAYS",
                       help="only kernels last written DAYS ago or more")
    clear.set_defaults(handler=cache.run_clear)
    explain = _verb(actions, "explain", "say whether a call would find its kernel on disk, and why not",
                    _CACHE_EXAMPLES, [target, debug])
    explain.add_argument("--train", action="store_true", help="the Cell in training mode (set_train())")
    explain.set_defaults(handler=_with_target(cache.run_explain))

    bench_parser = _verb(verbs, "bench", "time the compiled kernel against eager execution", _BENCH_EXAMPLES,
                         [target, debug])
    add_grad_options(bench_parser, with_grad_flag=True)
    bench_parser.add_argument("--repeat", type=count(1), default=20, metavar="N",
                              help="timing samples per variant (default: 20)")
    bench_parser.set_defaults(handler=_with_target(bench.run))
    return parser


def _with_target(run):
    """A handler that loads TARGET and its inputs, then returns ``run(target, args, options)``."""
    def handler(options):
        target = load_target(options.target, options.init)
        args = make_inputs(options.input, options.seed)
        target.check_input_count(args)
        return run(target, args, options)
    return handler


def main(argv=None) -> int:
    """Run the ``npspore`` command with ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    options = build_parser().parse_args(argv)
    try:
        return options.handler(options)
    except KeyboardInterrupt:
        print("npspore: error: interrupted (KeyboardInterrupt)", file=sys.stderr)
        return 130
    except SystemExit as exit_request:  # the user's program called sys.exit(): not our exit status
        if options.debug:
            traceback.print_exc()
        print(f"npspore: error: the program called sys.exit({exit_request.code!r})", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (`npspore show ... | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as error:  # noqa: BLE001 - every failure becomes one line unless --debug
        if options.debug:
            traceback.print_exc()
        print(f"npspore: error: {_describe(error, options.debug)}", file=sys.stderr)
        return 2


def _describe(error: BaseException, debug: bool) -> str:
    if isinstance(error, (InputError, CompileError)):
        return str(error)  # a compile error's message already ends with the file, line and caret
    first = str(error).splitlines()[0] if str(error) else ""
    hint = "" if debug else " (run with --debug for the traceback)"
    return f"{type(error).__name__}: {first}{hint}"
