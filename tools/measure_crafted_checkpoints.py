"""The cost of loading crafted checkpoint files: time and peak memory of ``load_checkpoint``, each in a fresh process.

    python tools/measure_crafted_checkpoints.py [--entries 300000]

Files (written to a temporary directory):

- ``many.ckpt``: ``--entries`` tiny Float32 entries of one element (300,000 give 8.9 MB);
- ``many.safetensors``: a third as many tiny tensors in a safetensors file;
- ``big.ckpt``: one 24 MB float32 Parameter, for comparison;
- ``huge_dims.ckpt``: one entry declaring 2**40 x 2**40 elements over 4 bytes;
- ``nested.ckpt``: a valid entry carrying an unknown field of groups nested 100,000 deep.

For the tiny entries, a line "Parameters alone" gives what building that many Parameters costs
without any file (the part of the cost that is the result itself). Peak memory is the growth of
the process's maximum RSS during the call (``VmHWM`` of ``/proc/self/status``: Linux).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

from npspore.train.checkpoint_proto import checkpoint_message

_MEASURE = """
import json, sys, time
import numpy as np
import npspore as ms
def peak_kb():  # this process's own high-water mark (ru_maxrss would start at the parent's)
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
path, format = sys.argv[1], sys.argv[2]
before = peak_kb()
start = time.perf_counter()
if format == "parameters":
    array = np.zeros(1, np.float32)
    result = {f"p{i}": ms.Parameter(array, name=f"p{i}") for i in range(int(path))}
    outcome = f"{len(result)} Parameters"
else:
    try:
        outcome = f"loaded {len(ms.load_checkpoint(path, format=format))} entries"
    except Exception as error:
        outcome = f"refused: {type(error).__name__}"
seconds = time.perf_counter() - start
peak = peak_kb() - before
print(json.dumps({"seconds": seconds, "peak_kb": peak, "outcome": outcome}))
"""


def _message(tag, type_name, dims, content):
    message = checkpoint_message()()
    value = message.value.add()
    value.tag, value.tensor.tensor_type, value.tensor.tensor_content = tag, type_name, content
    value.tensor.dims.extend(dims)
    return message.SerializeToString()


def _write_files(directory, entries):
    """{name: (path, format)} of the crafted files."""
    import safetensors.numpy

    files = {}

    def add(name, data, format="ckpt"):
        path = os.path.join(directory, name)
        with open(path, "wb") as file:
            file.write(data)
        files[name] = (path, format)

    add("many.ckpt", b"".join(_message(f"p{i}", "Float32", [1], np.float32(i).tobytes()) for i in range(entries)))
    tensors = {f"p{i}": np.full(1, i, np.float32) for i in range(entries // 3)}
    add("many.safetensors", safetensors.numpy.save(tensors, metadata={"format": "ms"}), "safetensors")
    add("big.ckpt", _message("w", "Float32", [2000, 3000], np.ones((2000, 3000), np.float32).tobytes()))
    add("huge_dims.ckpt", _message("w", "Float32", [2 ** 40, 2 ** 40], b"\0" * 4))
    # An entry with an unknown field 5 of groups (wire types 3 and 4) nested 100,000 deep.
    value = _message("w", "Float32", [1], b"\0" * 4)[2:] + b"\x2b" * 100000 + b"\x2c" * 100000
    size = len(value)  # as a 3-byte varint
    add("nested.ckpt", b"\x0a" + bytes([size & 0x7F | 0x80, size >> 7 & 0x7F | 0x80, size >> 14]) + value)
    return files


def _measure(path, format):
    result = subprocess.run([sys.executable, "-c", _MEASURE, path, format], capture_output=True, text=True,
                            timeout=600, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=300_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="npspore-crafted-") as directory:
        files = _write_files(directory, args.entries)
        print(f"{'file':<20} {'size MB':>8} {'seconds':>8} {'peak MB':>8}  outcome")
        for name, (path, format) in files.items():
            cost = _measure(path, format)
            print(f"{name:<20} {os.path.getsize(path) / 2 ** 20:8.1f} {cost['seconds']:8.2f} "
                  f"{cost['peak_kb'] / 1024:8.1f}  {cost['outcome']}")
        cost = _measure(str(args.entries), "parameters")
        print(f"{'Parameters alone':<20} {'':>8} {cost['seconds']:8.2f} {cost['peak_kb'] / 1024:8.1f}  "
              f"{cost['outcome']} of one float32 (no file)")


if __name__ == "__main__":
    main()
