"""Run by test_data_parallel.py under ``mpiexec -n 2``: data-parallel training in which rank 1 is lost
at step 3 (``stop``: SIGSTOP, a rank that hangs; ``kill``: SIGKILL). Rank 0 must end with an error
naming rank 1 (NPSPORE_COMM_TIMEOUT bounds the wait), never hang."""
import os
import signal
import sys

import numpy as np

import npspore as ms
from npspore import nn
from npspore.communication import get_rank, init

init()
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
model = nn.Dense(4, 2)
step = nn.TrainOneStepCell(nn.WithLossCell(model, nn.MSELoss()), nn.SGD(model.trainable_params(), 0.1))
data, label = ms.Tensor(np.ones((2, 4), np.float32)), ms.Tensor(np.zeros((2, 2), np.float32))
for i in range(6):
    if get_rank() == 1 and i == 3:
        print("rank 1 lost", flush=True)
        os.kill(os.getpid(), signal.SIGSTOP if sys.argv[1] == "stop" else signal.SIGKILL)
    step(data, label)
print(f"rank {get_rank()} finished", flush=True)
