"""The digits CNN of ``train_digits_cnn.py`` trained the high-level way: ``mindspore.dataset`` ->
``Model.train`` with ``LossMonitor`` -> ``Model.eval`` with ``Accuracy`` -> a checkpoint saved and loaded
back into a fresh network -> ``Model.predict``.

Run with ``python examples/train_digits_model.py`` (needs ``pip install '.[examples,checkpoint]'``).
"""
import tempfile
from pathlib import Path

import numpy as np

import npspore as ms
from npspore import dataset as ds
from npspore import nn
from npspore.train import Accuracy, LossMonitor, Model
from train_digits_cnn import LeNet, digits_split


def main(epochs=10, batch_size=32):
    ms.set_seed(0)
    (train_x, train_y), (test_x, test_y) = digits_split()
    train_data = ds.NumpySlicesDataset({"image": train_x, "label": train_y}, shuffle=True).batch(batch_size)
    test_data = ds.NumpySlicesDataset({"image": test_x, "label": test_y}, shuffle=False).batch(batch_size)

    net = LeNet()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    model = Model(net, loss_fn, optimizer, metrics={"accuracy": Accuracy()})
    model.train(epochs, train_data, callbacks=[LossMonitor(per_print_times=45)])
    print("eval:", model.eval(test_data))

    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "lenet.ckpt")
        ms.save_checkpoint(net, path)
        restored = LeNet()
        param_not_load, _ = ms.load_param_into_net(restored, ms.load_checkpoint(path))
        print("parameters not loaded:", param_not_load)
    images = ms.Tensor(test_x[:8])
    restored_logits = Model(restored).predict(images).asnumpy()
    print("predicted:", restored_logits.argmax(axis=1), "labels:", test_y[:8])
    same = np.array_equal(restored_logits, model.predict(images).asnumpy())
    print("the restored network predicts what the trained one does:", bool(same))


if __name__ == "__main__":
    main()
