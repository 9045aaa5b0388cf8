"""Crash test of ModelCheckpoint: kill -9 at seeded random moments while it saves, then look for a checkpoint.

Each run starts a child process that trains a 24 MB model (two float32 Parameters of 1000 x 3000)
with ``ModelCheckpoint`` saving after every step and ``keep_checkpoint_max=1``. Before each step a
callback fills every Parameter with the step number, and ``append_info=["step_num"]`` saves it too,
so a checkpoint is *loadable* only when ``load_checkpoint`` reads it and all its values agree with
its step. Once the child reports its first save (and how long it took), the parent waits a random
time (seeded) of up to three saves and sends SIGKILL; then it checks the directory, and counts the
temporary files of killed saves before and after a new ``ModelCheckpoint`` of the prefix is made
there (as a restarted training does).

    python tools/checkpoint_crash.py [--runs 50] [--seed 0]

It prints one line per failed run and a summary line, and exits 1 if any run left no loadable
checkpoint.
"""
import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np

from npspore.train import ModelCheckpoint

SHAPE = (1000, 3000)   # two Parameters of this shape: 24 MB of float32


def child(directory):
    """Train forever, saving every step; report the first save on stdout."""
    import npspore as ms
    from npspore import nn
    from npspore.train import CheckpointConfig, Model

    class Big(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w1 = ms.Parameter(ms.Tensor(np.zeros(SHAPE, np.float32)), name="w1")
            self.w2 = ms.Parameter(ms.Tensor(np.zeros(SHAPE, np.float32)), name="w2")

        def construct(self, x):
            return x

    class Steps:
        def get_dataset_size(self):
            return 10 ** 6

        def create_tuple_iterator(self, num_epochs=-1, output_numpy=False):
            for _ in range(10 ** 6):
                yield (ms.Tensor(np.zeros(1, np.float32)),)

    class Fill(ms.train.Callback):
        def on_train_step_begin(self, run_context):
            step = run_context.original_args().cur_step_num
            for param in (net.w1, net.w2):
                param.set_data(ms.Tensor(np.full(SHAPE, step, np.float32)))
            self.started = time.perf_counter()

    class ReportFirstSave(ms.train.Callback):
        def on_train_step_end(self, run_context):
            if run_context.original_args().cur_step_num == 1:
                print(f"saved {time.perf_counter() - fill.started:.4f}", flush=True)

    net = Big()
    fill = Fill()
    config = CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=1, append_info=["step_num"])
    checkpoint = ModelCheckpoint(prefix="big", directory=directory, config=config)
    Model(net).train(1, Steps(), callbacks=[fill, checkpoint, ReportFirstSave()])


def loadable_checkpoints(directory):
    """Names of the .ckpt files in ``directory`` that load and whose values all agree with their step."""
    import npspore as ms

    good = []
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".ckpt"):
            continue
        try:
            loaded = ms.load_checkpoint(os.path.join(directory, name))
        except Exception:  # what a reader of a damaged file raises is exactly what this run tests
            continue
        step = int(loaded["step_num"].asnumpy())
        if all(np.all(loaded[key].asnumpy() == step) for key in ("w1", "w2")):
            good.append(name)
    return good


def run_once(rng, directory):
    """One child killed at a random moment: (loadable files, files left, files after a new ModelCheckpoint, delay)."""
    process = subprocess.Popen([sys.executable, __file__, "--child", directory], stdout=subprocess.PIPE,
                               text=True)
    try:
        line = process.stdout.readline()
        if not line.startswith("saved "):
            raise RuntimeError(f"the child did not save: {line!r}")
        delay = rng.uniform(0.0, 3 * float(line.split()[1]))
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
    finally:
        process.kill()
        process.wait()
        process.stdout.close()
    good, files = loadable_checkpoints(directory), sorted(os.listdir(directory))
    ModelCheckpoint(prefix="big", directory=directory)  # what a restarted training does first
    return good, files, sorted(os.listdir(directory)), delay


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return 0
    rng = random.Random(args.seed)
    survived, delays, leftovers, leftovers_after_restart = 0, [], 0, 0
    for run in range(args.runs):
        directory = tempfile.mkdtemp(prefix="npspore-crash-")
        try:
            good, files, files_after_restart, delay = run_once(rng, directory)
        finally:
            shutil.rmtree(directory)
        delays.append(delay)
        survived += bool(good)
        leftovers += sum(name.endswith(".tmp") for name in files)
        leftovers_after_restart += sum(name.endswith(".tmp") for name in files_after_restart)
        if not good:
            print(f"run {run}: killed after {delay:.3f} s, no loadable checkpoint; files: {files}")
    print(f"checkpoint_crash: {survived}/{args.runs} runs left a loadable checkpoint (kill -9 after "
          f"{min(delays):.3f}-{max(delays):.3f} s, seed {args.seed}, 24 MB model, keep_checkpoint_max=1; "
          f"{leftovers} temporary files left by killed saves, {leftovers_after_restart} once a new "
          "ModelCheckpoint of the prefix was made)")
    return 0 if survived == args.runs else 1


if __name__ == "__main__":
    sys.exit(main())
