"""Training steps on the disk cache: a new process runs its first step of T1-T4 (``tools/train_workloads.py``)
and of the README's example (``examples/train_digits_cnn.py``) from the kernel an earlier process stored,
without loading the compiler's stages, and the kernel says what it is (``kernel: train step``)."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[1]

# The first training step of each workload named on the command line, in one fresh process: for each, its
# loss, its step's cache counts, whether the compiler's stages were loaded by then and the kernel's headers.
_FIRST_STEPS = """
import json, sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
import numpy as np
import npspore as ms
from npspore import nn
import train_digits_cnn as example
import train_workloads
for name in sys.argv[3:]:
    if name == "digits":
        ms.set_seed(0)
        net = example.LeNet()
        loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
        step = ms.jit(nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), optimizer))
        net.set_train()
        rng = np.random.default_rng(0)
        batch = (ms.Tensor(rng.random((32, 1, 8, 8), np.float32)),
                 ms.Tensor(rng.integers(0, 10, 32).astype(np.int32)))
    else:
        workload = train_workloads.workload(name)
        step, batch = workload.step, workload.tensors(0)
    loss = float(step(*batch))
    header = [line for line in step.kernel_source(*batch).splitlines() if line.startswith(("# kernel:", "# key:"))]
    print(json.dumps({"name": name, "loss": loss, "info": step.cache_info(), "header": header,
                      "stages loaded": "npspore.compiler.pipeline" in sys.modules}))
"""

NAMES = ["T1", "T2", "T3", "T4", "digits"]


def _first_steps(cache: pathlib.Path) -> dict:
    """name -> what the first step of that workload gave, all of :data:`NAMES` run in one new process."""
    env = dict(os.environ, NPSPORE_CACHE_DIR=str(cache))
    done = subprocess.run([sys.executable, "-c", _FIRST_STEPS, str(REPO / "tools"), str(REPO / "examples"), *NAMES],
                          env=env, capture_output=True, text=True, check=True)
    steps = [json.loads(line) for line in done.stdout.strip().splitlines()[-len(NAMES):]]
    return {step.pop("name"): step for step in steps}


@pytest.fixture(scope="module")
def first_steps(tmp_path_factory) -> tuple:
    """What each workload's first step gave in a new process that compiled them all into an empty disk cache,
    then in another new process on that cache (each launch imports NumPy and npspore: two launches, not ten)."""
    cache = tmp_path_factory.mktemp("train-step-cache")
    cache.chmod(0o700)
    return _first_steps(cache), _first_steps(cache)


@pytest.mark.parametrize("name", NAMES)
def test_a_new_process_runs_its_first_training_step_from_the_disk_cache(name, first_steps):
    first, again = (steps[name] for steps in first_steps)
    assert first["info"]["compiles"] == 1 and first["stages loaded"]
    kind, key = first["header"]
    assert kind == "# kernel: train step"
    assert key != "# key: (not cached on disk)"
    assert again["info"] == {"hits": 1, "compiles": 0, "disk_loads": 1, "entries": 1}
    assert not again["stages loaded"]
    assert again["loss"] == first["loss"] and again["header"] == first["header"]
