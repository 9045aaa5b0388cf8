"""Benchmarks of the forward compiler (issue: compiler), against hand-written NumPy in the same run.

    python tools/bench_compiler.py

Prints: cache-hit dispatch overhead (of a @jit function and of a gradient function), the call time
added by each value guard (issue 23), compile time of an MLP-sized construct and of W2's gradient (``shared/bench/compare.py``), time for a fresh process
to get a ready kernel from the disk cache, and compiled vs hand-written forward of a 784→256→10 MLP.
BLAS threads are pinned to 1 so the ratios compare the Python around the same BLAS calls.
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import textwrap  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
from timing import best_of, compare, interleaved  # noqa: E402

import npspore as ms  # noqa: E402
from npspore import Tensor, nn, ops  # noqa: E402




def elementwise(x, y, z):
    return x * y + z


class MLP(nn.Cell):
    def __init__(self, sizes=(784, 256, 10)):
        super().__init__()
        self.fc1 = nn.Dense(sizes[0], sizes[1], weight_init="normal", bias_init="zeros")
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(sizes[1], sizes[2], weight_init="normal", bias_init="zeros")

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


class MLP3WithLoss(nn.Cell):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Dense(784, 256)
        self.l2 = nn.Dense(256, 128)
        self.l3 = nn.Dense(128, 10)
        self.loss = nn.MSELoss()

    def construct(self, x, y):
        h = ops.relu(self.l1(x))
        h = ops.relu(self.l2(h))
        return self.loss(self.l3(h), y)


def dispatch_overhead():
    f = ms.jit(elementwise)
    args = [Tensor(np.ones(2, np.float32)) for _ in range(3)]
    f(*args)
    from npspore.compiler.signature import input_key   # imported here: importing this file loads no compiler
    key, _ = input_key(tuple(args))
    kernel = f._cache.entries[key].kernel
    arrays = [a._array for a in args]
    return compare(lambda: f(*args), lambda: kernel(*arrays), 5000)


def _w1(x, y, z):
    return ops.sum(x * ops.exp(y) * z ** 2)


def grad_dispatch_overhead():
    """A cached ``value_and_grad`` call of W1 (``compare.py``) against its bare kernel, in CPU time."""
    grad_fn = ms.value_and_grad(_w1, grad_position=(1, 2))
    rng = np.random.default_rng(0)
    args = [Tensor(rng.standard_normal(2).astype(np.float32)) for _ in range(3)]
    grad_fn(*args)
    (kernel_entry,) = grad_fn._cache.entries.values()
    kernel, arrays = kernel_entry.kernel, [a._array for a in args]
    return compare(lambda: grad_fn(*args), lambda: kernel(*arrays), 5000, timer=time.process_time)


class W2Net(nn.Cell):
    """``shared/bench/compare.py``'s W2: 784-256-10, ReLU, mean squared error."""

    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(0)
        self.W1 = ms.Parameter(Tensor((0.05 * rng.standard_normal((784, 256))).astype(np.float32)), name="W1")
        self.b1 = ms.Parameter(Tensor(np.zeros(256, np.float32)), name="b1")
        self.W2 = ms.Parameter(Tensor((0.05 * rng.standard_normal((256, 10))).astype(np.float32)), name="W2")
        self.b2 = ms.Parameter(Tensor(np.zeros(10, np.float32)), name="b2")

    def construct(self, X, T):
        a = ops.relu(ops.matmul(X, self.W1) + self.b1)
        o = ops.matmul(a, self.W2) + self.b2
        return ops.mean((o - T) ** 2)


def w2_gradient(batch):
    """W2's ``value_and_grad`` over its four weights, and a call's Tensors for ``batch`` rows."""
    net = W2Net()
    rng = np.random.default_rng(1)
    args = (Tensor(rng.standard_normal((batch, 784)).astype(np.float32)),
            Tensor(rng.standard_normal((batch, 10)).astype(np.float32)))
    return ms.value_and_grad(net, None, [net.W1, net.b1, net.W2, net.b2]), args


def gradient_compile_time():
    """Seconds to compile W2's gradient in a process that has compiled before (median of 7 new
    signatures, each a cache miss; the kernel's one run on 1-7 rows is a few microseconds)."""
    grad_fn, _ = w2_gradient(64)
    times = []
    for batch in range(1, 8):
        _, args = w2_gradient(batch)
        start = time.perf_counter()
        grad_fn(*args)
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def fresh_gradient_compile_time():
    """``(call, compiler)`` seconds in a new process: W2's first gradient call (compile, with the
    compiler's first import, and one run), and the part of it spent importing the compiler; the
    median of 3 processes, NumPy's own first matmul done before."""
    script = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r})
        from bench_compiler import w2_gradient
        grad_fn, args = w2_gradient(64)
        (args[0].asnumpy() @ grad_fn.weights[0].asnumpy()).sum()
        start = time.perf_counter()
        import npspore.compiler.pipeline
        imported = time.perf_counter()
        grad_fn(*args)
        print(time.perf_counter() - start, imported - start)
    """)
    runs = []
    for _ in range(3):
        with tempfile.TemporaryDirectory() as directory:
            env = dict(os.environ, NPSPORE_CACHE_DIR=directory)
            done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
            runs.append(tuple(map(float, done.stdout.split())))
    return sorted(runs)[1]


def compile_time():
    from npspore.compiler import pipeline
    net = MLP3WithLoss()
    x = Tensor(np.ones((64, 784), np.float32))
    y = Tensor(np.ones((64, 10), np.float32))
    pipeline.specialize_call(net, (x, y))                        # warm the parse caches once

    def once():
        program = pipeline.specialize_call(net, (x, y))
        pipeline.build_kernel(program.module, layout=None, key=None, header={"callable": "bench"})
    return best_of(once, 5, repeat=5)


def disk_load_time():
    with tempfile.TemporaryDirectory() as directory:
        script = textwrap.dedent(f"""
            import sys, time
            sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r})
            import numpy as np
            import npspore as ms
            from npspore import Tensor
            from bench_compiler import MLP3WithLoss
            net = MLP3WithLoss()
            x = Tensor(np.ones((64, 784), np.float32)); y = Tensor(np.ones((64, 10), np.float32))
            start = time.perf_counter()
            ms.jit(net)(x, y)
            elapsed = time.perf_counter() - start
            info = net.cache_info()
            print(elapsed, info["compiles"], info["disk_loads"])
        """)
        env = dict(os.environ, NPSPORE_CACHE_DIR=directory)
        runs = [subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
                for _ in range(3)]
        first = runs[0].stdout.split()
        warm = [float(r.stdout.split()[0]) for r in runs[1:]]
        assert first[1:] == ["1", "0"] and all(r.stdout.split()[1:] == ["0", "1"] for r in runs[1:])
        return float(first[0]), min(warm)


def mlp_forward():
    net = MLP()
    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal((64, 784)).astype(np.float32))
    run = ms.jit(net)
    run(x)
    w1, b1 = net.fc1.weight._array, net.fc1.bias._array
    w2, b2 = net.fc2.weight._array, net.fc2.bias._array
    xa = x._array

    def by_hand():
        return Tensor._wrap(np.maximum(xa @ w1.T + b1, 0) @ w2.T + b2)

    np.testing.assert_allclose(run(x).asnumpy(), by_hand().asnumpy(), rtol=1e-5)
    return compare(lambda: run(x), by_hand, 100)


GUARD_COUNTS = (0, 8, 32)


def guard_overhead():
    """Per value guard, the growth of a cached call's median time: ``@jit`` functions of one
    signature (a Tensor and 32 bool Tensors) that read ``bool()`` of the first 0, 8 or 32 flags
    (issue 23's value guards), timed interleaved, 10^5 calls each; the least-squares slope, in seconds."""
    width = max(GUARD_COUNTS)
    flags = ", ".join(f"f{i}" for i in range(width))
    module = "import npspore as ms\n" + "".join(
        f"\n\n@ms.jit\ndef guarded_{k}(x, {flags}):\n"
        + "".join(f"    if not bool(f{i}):\n        x = x + 1\n" for i in range(k)) + "    return x\n"
        for k in GUARD_COUNTS)
    folder = tempfile.mkdtemp()
    with open(os.path.join(folder, "guarded_programs.py"), "w") as file:
        file.write(module)
    sys.path.insert(0, folder)
    import guarded_programs   # a file: compiled from its source (a function without one is traced)
    args = (Tensor(np.ones(2, np.float32)),) + tuple(Tensor(np.array(True)) for _ in range(width))
    functions = [getattr(guarded_programs, f"guarded_{k}") for k in GUARD_COUNTS]
    for function, k in zip(functions, GUARD_COUNTS):
        function(*args)
        (kernel,) = function._cache.entries.values()
        assert len(kernel.value_guards) == k
    times = interleaved([lambda f=f: f(*args) for f in functions], 1000, rounds=100)
    slope = np.polyfit(GUARD_COUNTS, times, 1)[0]
    return times, slope


def main():
    os.environ["NPSPORE_CACHE_DIR"] = tempfile.mkdtemp()
    compiled, direct = dispatch_overhead()
    print(f"dispatch, 3 x (2,) inputs:   compiled call {compiled * 1e6:6.2f} us, kernel alone {direct * 1e6:6.2f} us,"
          f" overhead {(compiled - direct) * 1e6:5.2f} us   (target <= 5 us)")
    compiled, direct = grad_dispatch_overhead()
    print(f"gradient dispatch, W1:        grad_fn call {compiled * 1e6:6.2f} us, kernel alone {direct * 1e6:6.2f} us,"
          f" overhead {(compiled - direct) * 1e6:5.2f} us   (target <= 1 us)")
    print(f"compile MLP (3 Dense + MSE):  {compile_time() * 1e3:6.2f} ms                              (target < 50 ms)")
    print(f"compile W2's gradient:        {gradient_compile_time() * 1e3:6.2f} ms                              (target <= 20 ms)")
    call, compiler = fresh_gradient_compile_time()
    print(f"  in a new process:           {call * 1e3:6.2f} ms to the first gradient, of which {compiler * 1e3:.1f} ms"
          f" import the compiler")
    first, warm = disk_load_time()
    print(f"fresh process, disk cache:    {warm * 1e3:6.2f} ms to a ready kernel and one call"
          f" (first process compiled: {first * 1e3:.1f} ms)   (target < 10 ms)")
    times, slope = guard_overhead()
    print(f"value guards {'/'.join(map(str, GUARD_COUNTS))}:          call "
          f"{' / '.join(f'{t * 1e6:.2f}' for t in times)} us, {slope * 1e6:.3f} us per guard   (target <= 0.3 us)")
    compiled, hand = mlp_forward()
    print(f"MLP 784-256-10 forward, b=64: compiled {compiled * 1e6:7.1f} us, by hand {hand * 1e6:7.1f} us,"
          f" ratio {compiled / hand:5.3f}   (target <= 1.05)")


if __name__ == "__main__":
    main()
