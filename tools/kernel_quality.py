"""Write the kernels users read and measure how they read with ``kernel_metrics.py``.

    python tools/kernel_quality.py                       # write to a temporary directory, print the totals
    python tools/kernel_quality.py --out DIR --examples  # keep the kernels in DIR, list redundant statements

The kernels (issue 27's "Done when"): the training step of the README's example
(``examples/train_digits_cnn.py``: its LeNet on 1x8x8 digits, batch 32, Momentum), the training steps of
T1-T4 (``tools/train_workloads.py``, the steps ``bench_train_steps.py`` times) and the gradient kernels of the golden files (the ``--grad`` cases
of ``tools/update_golden.py``, rendered by the ``npspore show`` command as they are there). Then it runs
``kernel_metrics.py`` (the project's shared tool, ``../shared/tools/kernel_metrics.py`` from the repository
root, or ``--metrics PATH``) over all of them and prints its table and totals.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path[:0] = [HERE, os.path.join(REPO, "examples")]

import train_workloads  # noqa: E402
import update_golden  # noqa: E402

import npspore as ms  # noqa: E402
from npspore import Tensor, nn  # noqa: E402


def readme_example_source() -> str:
    """The training step ``examples/train_digits_cnn.py`` prints (its LeNet, batch 32, Momentum)."""
    import train_digits_cnn

    rng = np.random.default_rng(0)
    images = rng.random((32, 1, 8, 8), np.float32)
    labels = rng.integers(0, 10, 32).astype(np.int32)
    net = train_digits_cnn.LeNet()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    step = ms.jit(nn.TrainOneStepCell(nn.WithLossCell(net, loss), optimizer))
    net.set_train()
    return step.kernel_source(Tensor(images), Tensor(labels))


def training_step_sources() -> dict:
    """``{name: kernel text}`` of the README example's and T1-T4's training steps (``train_workloads``: the
    steps ``bench_train_steps.py`` times)."""
    sources = {"readme_example_train_step": readme_example_source()}
    for name, label in zip(train_workloads.NAMES, ("lenet5", "lstm", "transformer", "mlp")):
        step = train_workloads.workload(name)
        sources[f"{name.lower()}_{label}_train_step"] = step.step.kernel_source(*step.tensors(0))
    return sources


def golden_gradient_sources() -> dict:
    """``{name: kernel text}`` of the golden files' gradient cases, rendered now by ``npspore show``."""
    with tempfile.TemporaryDirectory() as cache_dir:
        return {name: update_golden.render(name, cache_dir)
                for name, arguments in update_golden.CASES.items() if "--grad" in arguments}


def default_metrics() -> str:
    """``kernel_metrics.py`` of the shared tools beside the repository (or beside its main checkout)."""
    for root in (os.path.dirname(REPO), os.path.dirname(os.path.dirname(REPO))):
        path = os.path.join(root, "shared", "tools", "kernel_metrics.py")
        if os.path.exists(path):
            return path
    return os.path.join(os.path.dirname(REPO), "shared", "tools", "kernel_metrics.py")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="directory to write the kernels into (default: a temporary one)")
    parser.add_argument("--metrics", default=default_metrics(), help="path of kernel_metrics.py")
    parser.add_argument("--examples", action="store_true", help="list the redundant statements found")
    options = parser.parse_args(argv)
    if not os.path.exists(options.metrics):
        parser.error(f"kernel_metrics.py not found at {options.metrics}: pass --metrics PATH")
    with tempfile.TemporaryDirectory() as scratch:
        out = options.out or scratch
        os.makedirs(out, exist_ok=True)
        os.environ["NPSPORE_CACHE_DIR"] = os.path.join(scratch, "cache")   # compile now, never a stale kernel
        sources = {**training_step_sources(), **golden_gradient_sources()}
        paths = []
        for name, text in sources.items():
            path = os.path.join(out, f"{name}.py")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
            paths.append(path)
        command = [sys.executable, options.metrics, *paths] + (["--examples"] if options.examples else [])
        return subprocess.run(command, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
