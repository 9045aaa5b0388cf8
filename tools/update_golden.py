"""Regenerate the golden files of ``npspore show`` output that tests/test_cli.py compares against.

    python tools/update_golden.py           # rewrite tests/golden/*.txt
    python tools/update_golden.py --check   # exit 1 if any golden file is out of date

Each case runs the installed ``npspore`` command from the repository root with a fresh disk cache
and stores its output after :func:`normalize` (which replaces what changes with the machine or with
unrelated edits: cache keys, source-file digests, the repository's absolute path). Review the diff
of tests/golden/ like any code change: it is exactly what changed in the generated kernels.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN_DIR = os.path.join(REPO, "tests", "golden")
# where the npspore that runs the cases lives: the checkout's src/, or site-packages after a non-editable install
INSTALLED_SOURCES = os.path.dirname(os.path.dirname(importlib.util.find_spec("npspore").origin))

# name -> arguments of `npspore`: a Cell with a tensor-dependent `if` and a `for` loop (forward, and
# side by side with its source), seed 002's Net (gradient with respect to all inputs), an MLP (gradient
# with respect to its input and every weight), a convolution with pooling (gradient with respect to every
# weight), and programs that each show one of optimize's rewrites.
CASES = {
    "gated_cell_forward": ["show", "tests/catalogue.py:GatedCell", "--input", "f32[2,3]"],
    "gated_cell_side_by_side": ["show", "tests/catalogue.py:GatedCell", "--input", "f32[2,3]", "--side-by-side"],
    "mulnet_grad": ["show", "tests/catalogue.py:MulNet", "--input", "f32[2]", "f32[2]", "f32[2]",
                    "--grad", "--grad-position", "0", "1", "2"],
    "mlp_grad_weights": ["show", "tests/catalogue.py:MLP", "--input", "f32[5,4]", "--grad", "--weights", "all"],
    # optimize: CSE of forward and adjoint, sum(a*b) as dot, negation folded, updates in place
    "sin_cos_loss_grad": ["show", "tests/catalogue.py:sin_cos_loss", "--input", "f32[70]", "--grad"],
    # optimize: the ones seed of a row mean's gradient, through expand_dims and broadcast_to, one scalar
    "row_means_grad": ["show", "tests/catalogue.py:row_means", "--input", "f32[4,5]", "f32[4,5]", "--grad"],
    # optimize: X[t] @ Wx + b hoisted as one GEMM and one add, the tape as stacked rows (one history
    # buffer of h), weight gradients batched over the steps reading the tape and X's rows directly
    "tanh_rnn_grad_weights": ["show", "tests/catalogue.py:TanhRNN", "--input", "f32[4,2,3]", "f32[2,5]",
                              "--grad", "--weights", "all"],
    # im2col kept for the filter gradient, col2im and max pooling as loops over the kernel taps
    "conv_pool_grad_weights": ["show", "tests/catalogue.py:ConvPool", "--input", "f32[2,1,4,4]", "--grad",
                               "--weights", "all"],
    # optimize: the sub-cell's unread second output is pruned from its function (dead outputs across calls)
    "discards_state_grad": ["show", "tests/catalogue.py:DiscardsState", "--input", "f32[2,3]", "--grad"],
    # optimize: loop-invariant ops (cos(w) * 2, and sin(w) of the adjoint) hoisted out of the loops
    "invariant_in_loop_grad": ["show", "tests/catalogue.py:InvariantInLoop", "--input", "f32[2,3]", "--grad",
                               "--weights", "all"],
}


def command() -> list:
    """The installed ``npspore`` command, or ``python -m npspore`` when it is not on PATH."""
    found = shutil.which("npspore")
    return [found] if found else [sys.executable, "-m", "npspore"]


def environment(cache_dir: str) -> dict:
    """The environment the CLI runs in: a private cache, plain output, a fixed terminal width."""
    env = dict(os.environ, NPSPORE_CACHE_DIR=str(cache_dir), COLUMNS="120")
    env.pop("NO_COLOR", None)
    return env


def normalize(text: str) -> str:
    """``text`` with cache keys, sha256 digests and the repository path replaced by placeholders."""
    text = re.sub(r"^# key: .*$", "# key: <key>", text, flags=re.MULTILINE)
    text = re.sub(r"\b[0-9a-f]{64}\b", "<sha256>", text)
    text = text.replace(INSTALLED_SOURCES, os.path.join("<repo>", "src"))   # a non-editable install
    return text.replace(REPO, "<repo>")


def render(name: str, cache_dir: str) -> str:
    """The normalized output of case ``name``; raises RuntimeError if the command fails."""
    result = subprocess.run(command() + CASES[name], cwd=REPO, env=environment(cache_dir),
                            capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"npspore {' '.join(CASES[name])} exited {result.returncode}: {result.stderr.strip()}")
    return normalize(result.stdout)


def golden_path(name: str) -> str:
    return os.path.join(GOLDEN_DIR, f"{name}.txt")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing; exit 1 on a difference")
    options = parser.parse_args(argv)
    os.makedirs(GOLDEN_DIR, exist_ok=True)
    stale = []
    with tempfile.TemporaryDirectory() as cache_dir:
        for name in CASES:
            text = render(name, cache_dir)
            path = golden_path(name)
            old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
            if text == old:
                continue
            stale.append(name)
            if not options.check:
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(text)
                print(f"updated {os.path.relpath(path, REPO)}")
    if options.check and stale:
        print(f"out of date: {', '.join(stale)} (run python tools/update_golden.py)")
        return 1
    if not stale:
        print("golden files are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
