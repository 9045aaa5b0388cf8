"""A MindSpore training run with a SummaryCollector, run unchanged by MindSpore 2.10 and ``npspore run``.

``python summary_collector_training.py SUMMARY_DIR``: two epochs of four steps of a Dense layer on a
fixed data set, the collector recording every 3 steps. ``tests/test_summary_record.py`` compares the
summary file with the one MindSpore wrote (``tests/fixtures/summary/collector.summary``).
"""
import sys

import numpy as np
import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn
from mindspore.train import Model
from mindspore.train.callback import SummaryCollector

x = np.linspace(-1, 1, 32, dtype=np.float32).reshape(16, 2)
y = (x.sum(1, keepdims=True) * 2).astype(np.float32)
data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(4)
net = nn.Dense(2, 1, weight_init="zeros", bias_init="zeros")
model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
model.train(2, data, callbacks=[SummaryCollector(sys.argv[1], collect_freq=3)], dataset_sink_mode=False)
ms.set_seed(0)   # nothing is random: the seed only makes that explicit
