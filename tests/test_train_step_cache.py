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

# One first training step in a fresh process: prints the loss, the step's cache counts, whether the
# compiler's stages were loaded and the kernel's header lines.
_FIRST_STEP = """
import json, sys
sys.path[:0] = [sys.argv[2], sys.argv[3]]
import numpy as np
import npspore as ms
from npspore import nn
if sys.argv[1] == "digits":
    import train_digits_cnn as example
    ms.set_seed(0)
    net = example.LeNet()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    step = ms.jit(nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), optimizer))
    net.set_train()
    rng = np.random.default_rng(0)
    batch = (ms.Tensor(rng.random((32, 1, 8, 8), np.float32)), ms.Tensor(rng.integers(0, 10, 32).astype(np.int32)))
else:
    import train_workloads
    workload = train_workloads.workload(sys.argv[1])
    step, batch = workload.step, workload.tensors(0)
loss = float(step(*batch))
header = [line for line in step.kernel_source(*batch).splitlines() if line.startswith(("# kernel:", "# key:"))]
print(json.dumps({"loss": loss, "info": step.cache_info(), "header": header,
                  "stages loaded": "npspore.compiler.pipeline" in sys.modules}))
"""


def _first_step(name: str, cache: pathlib.Path) -> dict:
    env = dict(os.environ, NPSPORE_CACHE_DIR=str(cache))
    done = subprocess.run([sys.executable, "-c", _FIRST_STEP, name, str(REPO / "tools"), str(REPO / "examples")],
                          env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", ["T1", "T2", "T3", "T4", "digits"])
def test_a_new_process_runs_its_first_training_step_from_the_disk_cache(name, tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    first = _first_step(name, cache)
    assert first["info"]["compiles"] == 1 and first["stages loaded"]
    kind, key = first["header"]
    assert kind == "# kernel: train step"
    assert key != "# key: (not cached on disk)"
    again = _first_step(name, cache)
    assert again["info"] == {"hits": 1, "compiles": 0, "disk_loads": 1, "entries": 1}
    assert not again["stages loaded"]
    assert again["loss"] == first["loss"] and again["header"] == first["header"]
