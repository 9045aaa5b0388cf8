"""Peak memory of streaming 60,000 images through npspore.dataset pipelines.

    python tools/measure_dataset_memory.py [--rows 60000] [--batch-size 32]

Two pipelines, each iterated over one full epoch while ``tracemalloc`` records the peak of the
memory Python and NumPy allocate (NumPy reports its array buffers to it):

1. a ``GeneratorDataset`` over a generator function yielding 28x28x1 uint8 images and labels,
   through ``map(Rescale)``, ``map(HWC2CHW)`` and ``batch``;
2. a ``MnistDataset`` over IDX files of the same size written to a temporary directory, shuffled,
   through the same operations. Its pixels are copied out of the file as rows are reached (the
   figure counts those copies and the ones the pipeline makes).

Each line prints the peak next to the size of the whole data set, as uint8 on disk and as the
float32 batches the pipeline produces, so the figure reads as "a few batches, not the data set".
"""
import argparse
import os
import struct
import sys
import tempfile
import time
import tracemalloc

import numpy as np

import npspore.dataset as ds
from npspore.dataset import vision

IMAGE_SHAPE = (28, 28)


def synthetic_generator(rows):
    """A generator function yielding ``rows`` (image, label) pairs made on the fly."""
    def generate():
        for i in range(rows):
            yield np.full(IMAGE_SHAPE + (1,), i % 256, np.uint8), np.int32(i % 10)
    return generate


def write_idx_files(directory, rows):
    """Write ``rows`` random images and labels as MNIST's train IDX files, in chunks."""
    rng = np.random.default_rng(0)
    with open(os.path.join(directory, "train-images-idx3-ubyte"), "wb") as f:
        f.write(struct.pack(">IIII", 2051, rows, *IMAGE_SHAPE))
        for start in range(0, rows, 5000):
            f.write(rng.integers(0, 256, (min(5000, rows - start),) + IMAGE_SHAPE, dtype=np.uint8).tobytes())
    with open(os.path.join(directory, "train-labels-idx1-ubyte"), "wb") as f:
        f.write(struct.pack(">II", 2049, rows))
        f.write(rng.integers(0, 10, rows, dtype=np.uint8).tobytes())


def preprocess(dataset, batch_size):
    dataset = dataset.map([vision.Rescale(1 / 255.0, 0.0), vision.HWC2CHW()], input_columns="image")
    return dataset.batch(batch_size, drop_remainder=True)


def count_batches(dataset):
    return sum(1 for _ in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1))


def measure(name, dataset, rows, batch_size):
    """Iterate ``dataset`` for one epoch untraced (timed), then one traced (peak memory), and print both."""
    start = time.perf_counter()
    count_batches(dataset)
    seconds = time.perf_counter() - start
    tracemalloc.start()
    batches = count_batches(dataset)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    pixels = rows * IMAGE_SHAPE[0] * IMAGE_SHAPE[1]
    one_batch = batch_size * IMAGE_SHAPE[0] * IMAGE_SHAPE[1] * 4
    print(f"{name}: {batches} batches of {batch_size} in {seconds:.1f} s; peak traced memory "
          f"{peak / 2**20:.2f} MiB (one float32 batch {one_batch / 2**20:.2f} MiB; whole data set "
          f"{pixels / 2**20:.1f} MiB as uint8, {4 * pixels / 2**20:.1f} MiB as float32)")
    return peak


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=60000)
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args(argv)
    generated = ds.GeneratorDataset(synthetic_generator(args.rows), ["image", "label"])
    measure("GeneratorDataset", preprocess(generated, args.batch_size), args.rows, args.batch_size)
    with tempfile.TemporaryDirectory() as directory:
        write_idx_files(directory, args.rows)
        mnist = ds.MnistDataset(directory, usage="train", shuffle=True)
        measure("MnistDataset (IDX files)", preprocess(mnist, args.batch_size), args.rows, args.batch_size)


if __name__ == "__main__":
    sys.exit(main())
