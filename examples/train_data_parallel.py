"""Data-parallel training of the digits LeNet (``train_digits_cnn.py``), as a MindSpore script writes it.

    pip install 'npspore[mpi,examples]'
    mpiexec -n 2 python examples/train_data_parallel.py

Every rank reads its shard of each global batch (``num_shards=get_group_size(), shard_id=get_rank()``),
computes gradients on it, and ``Model.train`` all-reduces them (mean) before the Momentum update: the
ranks end with the same parameters as one process training on the whole global batches (run the
script without ``mpiexec``, or with ``-n 1``, to compare; ``--save`` writes them to an ``.npz``).
Nothing in the script names the number of ranks or machines: ``mpiexec`` decides.
"""
import argparse

import numpy as np

import npspore as ms
import npspore.dataset as ds
from npspore import nn
from npspore.communication import get_group_size, get_rank, init
from npspore.train import LossMonitor, Model
from train_digits_cnn import LeNet, digits_split


def digits_shard(global_batch, samples, rank, group_size):
    """This rank's dataset: the training digits of ``train_digits_cnn.digits_split`` (one fixed shuffled
    order), cut to whole global batches, each global batch split over the ranks (rank r takes rows r,
    r + N, r + 2N ... of it)."""
    (images, labels), _ = digits_split()
    samples = min(samples, len(labels)) // global_batch * global_batch
    data = ds.NumpySlicesDataset((images[:samples], labels[:samples]), column_names=["image", "label"],
                                 shuffle=False, num_shards=group_size, shard_id=rank)
    return data.batch(global_batch // group_size, drop_remainder=True)


def train(epochs=2, global_batch=32, samples=1408, learning_rate=0.05, graph_mode=True, callbacks=()):
    """Train the digits LeNet data-parallel over the MPI job joined by ``init()`` (or alone); returns the network."""
    rank, group_size = get_rank(), get_group_size()
    if global_batch % group_size:
        raise ValueError(f"the global batch {global_batch} must be divisible by the number of ranks {group_size}")
    ms.set_context(mode=ms.GRAPH_MODE if graph_mode else ms.PYNATIVE_MODE)
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    ms.set_seed(0)
    net = LeNet()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=learning_rate, momentum=0.9)
    model = Model(net, loss, optimizer)
    model.train(epochs, digits_shard(global_batch, samples, rank, group_size), callbacks=list(callbacks))
    return net


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--global-batch", type=int, default=32)
    parser.add_argument("--samples", type=int, default=1408, help="training samples (whole global batches)")
    parser.add_argument("--pynative", action="store_true", help="run construct eagerly (default: GRAPH_MODE)")
    parser.add_argument("--save", help="rank 0 writes the trained parameters to this .npz file")
    args = parser.parse_args()
    init()
    monitor = [LossMonitor(per_print_times=22)] if get_rank() == 0 else []
    net = train(args.epochs, args.global_batch, args.samples, graph_mode=not args.pynative, callbacks=monitor)
    if get_rank() == 0:
        print(f"trained on {get_group_size()} rank(s), global batch {args.global_batch}")
        if args.save:
            np.savez(args.save, **{p.name: p.asnumpy() for p in net.trainable_params()})


if __name__ == "__main__":
    main()
