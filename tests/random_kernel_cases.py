"""The cases of tests/test_random_kernels.py: seeded programs of MindSpore's random ops, each a function of the
framework module (``mindspore`` or ``npspore``) returning Tensors, lists of them, or (for large draws) a digest.

``tools/observe_mindspore_random_kernels.py`` runs them under MindSpore 2.10 (CPU) and prints the ``RECORDED``
literals of the test, which runs them under npspore and asserts the same bits. Each case sets its own seed first
(``set_seed`` resets the op seeds), so the cases do not depend on their order.
"""
import hashlib

import numpy as np

F32 = np.float32


def digest(tensor) -> str:
    """A large result as 16 hex digits of the SHA-256 of its bytes (bit for bit, without printing it)."""
    return hashlib.sha256(np.ascontiguousarray(tensor.asnumpy()).tobytes()).hexdigest()[:16]


def _ones(ms, *shape):
    return ms.Tensor(np.ones(shape, F32))


def dropout_cell_calls(ms):
    """One nn.Dropout called three times (its primitive's engine continues), then ops.dropout (the next op seed)."""
    ms.set_seed(1)
    drop = ms.nn.Dropout(p=0.5)
    drop.set_train()
    x = _ones(ms, 2, 8)
    return [drop(x), drop(x), drop(x), ms.ops.dropout(x, 0.5)]


def dropout_odd_shape(ms):
    ms.set_seed(7)
    drop = ms.nn.Dropout(p=0.3)
    drop.set_train()
    x = ms.Tensor(np.arange(105, dtype=F32).reshape(3, 5, 7) / 10)
    return [drop(x), drop(x)]


def dropout_keep_prob(ms):
    """The deprecated keep_prob, a float64 input and an op seed of the call's own."""
    ms.set_seed(3)
    drop = ms.nn.Dropout(keep_prob=0.9)
    drop.set_train()
    x = ms.Tensor(np.linspace(-1, 1, 12).reshape(3, 4))
    return [drop(x), ms.ops.dropout(x, 0.25, seed=5), ms.ops.dropout(x, 0.25, seed=5)]


def dropout_seed_zero(ms):
    """``set_seed(0)``: MindSpore's default graph seed 87654321 takes its place."""
    ms.set_seed(0)
    return ms.ops.dropout(_ones(ms, 3, 3), 0.5)


def dropout_large(ms):
    ms.set_seed(2)
    x = _ones(ms, 300, 1000)
    return [digest(ms.ops.dropout(x, 0.2)), digest(ms.ops.dropout(x, 0.7))]


def dropout_primitive(ms):
    ms.set_seed(1)
    drop = ms.ops.Dropout(keep_prob=0.6, Seed0=3, Seed1=4)
    x = ms.Tensor(np.arange(10, dtype=F32))
    return [*drop(x), drop(x)[1]]


def uniform_seeded(ms):
    ms.set_seed(1)
    low, high = ms.Tensor(0.0, ms.float32), ms.Tensor(1.0, ms.float32)
    return [ms.ops.uniform((4,), low, high, seed=3), ms.ops.uniform((4,), low, high, seed=3),
            ms.ops.uniform((2, 3), ms.Tensor(-2.0, ms.float32), ms.Tensor(5.0, ms.float32))]


def uniform_int32(ms):
    ms.set_seed(5)
    return ms.ops.uniform((7,), ms.Tensor(1, ms.int32), ms.Tensor(100, ms.int32), dtype=ms.int32)


def standard_normal(ms):
    ms.set_seed(1)
    return [ms.ops.standard_normal((4,)), ms.ops.standard_normal((3, 5)), ms.ops.standard_normal((2,), seed=11)]


def standard_normal_large(ms):
    ms.set_seed(3)
    return [digest(ms.ops.standard_normal((999,))), digest(ms.ops.standard_normal((1000, 101)))]


def normal(ms):
    ms.set_seed(2)
    return ms.ops.normal((3, 3), ms.Tensor(1.0, ms.float32), ms.Tensor(2.0, ms.float32), seed=2)


def rand_randn(ms):
    ms.set_seed(4)
    x = ms.Tensor(np.zeros((2, 3), F32))
    return [ms.ops.rand(2, 3), ms.ops.randn(5), ms.ops.rand_like(x), ms.ops.randn_like(x)]


def randint(ms):
    ms.set_seed(1)
    return [ms.ops.randint(0, 10, (20,)), ms.ops.randint(-5, 1000, (3, 3)),
            ms.ops.randint(0, 2, (8,), dtype=ms.int32)]


def primitives(ms):
    """Primitives made once and called twice: their kernels' engines continue."""
    ms.set_seed(1)
    normal_op = ms.ops.StandardNormal(seed=4, seed2=9)
    uniform_op = ms.ops.UniformReal(seed=2, seed2=3)
    int_op = ms.ops.UniformInt(seed=1, seed2=1)
    low, high = ms.Tensor(0, ms.int32), ms.Tensor(7, ms.int32)
    return [normal_op((5,)), normal_op((5,)), uniform_op((3,)), uniform_op((3,)),
            int_op((5,), low, high), int_op((5,), low, high)]


def bernoulli(ms):
    """A seeded bernoulli: each call restarts its Philox generator after the words its last call left."""
    x = ms.Tensor(np.zeros(5, F32))
    p = ms.Tensor(np.linspace(0, 1, 11).astype(F32))
    return [ms.ops.bernoulli(x, 0.5, seed=3), ms.ops.bernoulli(x, 0.5, seed=3), ms.ops.bernoulli(x, 0.5, seed=3),
            ms.ops.bernoulli(ms.Tensor(np.zeros(11)), p, seed=7)]


def shuffle(ms):
    """ops.shuffle: libstdc++'s std::shuffle on the kernel's minstd engine (two swaps per draw)."""
    ms.set_seed(1)
    rows = ms.Tensor(np.arange(26, dtype=F32).reshape(13, 2))
    return [ms.ops.shuffle(ms.Tensor(np.arange(8, dtype=np.int32))), ms.ops.shuffle(rows),
            ms.ops.shuffle(ms.Tensor(np.arange(5, dtype=np.int64)), seed=4),
            ms.ops.shuffle(ms.Tensor(np.arange(5, dtype=np.int64)), seed=4)]


def shuffle_large(ms):
    """Past 46340 slices (n * n beyond the engine's range) std::shuffle draws one position per swap."""
    ms.set_seed(6)
    return [digest(ms.ops.shuffle(ms.Tensor(np.arange(n, dtype=np.int32)))) for n in (46340, 50001)]


def multinomial(ms):
    """Without replacement: the top num_samples of log(u) / (input + 1e-6), u a UniformReal's samples."""
    ms.set_seed(1)
    weights = ms.Tensor(np.array([[0.1, 0.2, 0.3, 0.4, 0.0], [5.0, 1.0, 1.0, 2.0, 3.0]], F32))
    return [ms.ops.multinomial(ms.Tensor(np.array([0.1, 0.2, 0.3, 0.4], F32)), 3, replacement=False),
            ms.ops.multinomial(weights, 4, replacement=False),
            ms.ops.multinomial(weights, 2, replacement=False, seed=5)]


def jit_dropout(ms):
    """ops.dropout under jit: its seeds are taken once, when compiling, and each call continues the kernel."""
    ms.set_seed(1)

    @ms.jit
    def drop(x):
        return ms.ops.dropout(x, 0.5)

    x = _ones(ms, 2, 8)
    return [drop(x), drop(x), ms.ops.dropout(x, 0.5)]


def eager_then_jit(ms):
    """One nn.Dropout called eagerly, then compiled, then eagerly: the compiled kernel has its own engine."""
    ms.set_seed(3)
    drop = ms.nn.Dropout(p=0.5)
    drop.set_train()
    x = _ones(ms, 16)
    compiled = ms.jit(drop)
    return [drop(x), drop(x), compiled(x), compiled(x), drop(x)]


def compiled_cell(ms):
    """A Cell compiled by jit whose construct calls nn.Dropout and ops.dropout (whose seeds are taken when
    compiling), then an eager ops.dropout, which takes the op seed after the compiled one's."""
    ms.set_seed(2)

    class DropNet(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.drop = ms.nn.Dropout(p=0.5)

        def construct(self, x):
            return self.drop(x) * 10 + ms.ops.dropout(x, 0.5)

    net = DropNet()
    net.set_train()
    run = ms.jit(net)
    x = _ones(ms, 2, 6)
    return [run(x), run(x), ms.ops.dropout(x, 0.5)]


def train_steps(ms):
    """A Dense net with nn.Dropout trained three steps by TrainOneStepCell (compiled in both frameworks)."""
    ms.set_seed(1)

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.drop = ms.nn.Dropout(p=0.5)
            self.fc = ms.nn.Dense(8, 1)

        def construct(self, x):
            return self.fc(self.drop(x))

    net = Net()
    net.set_train()
    step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(net, ms.nn.MSELoss()),
                                  ms.nn.SGD(net.trainable_params(), 0.1))
    x = ms.Tensor(np.arange(16, dtype=F32).reshape(2, 8) / 8)
    y = ms.Tensor(np.zeros((2, 1), F32))
    return [step(x, y) for _ in range(3)] + [net.fc.weight.value()]


CASES = [(case.__name__, case) for case in (
    dropout_cell_calls, dropout_odd_shape, dropout_keep_prob, dropout_seed_zero, dropout_large, dropout_primitive,
    uniform_seeded, uniform_int32, standard_normal, standard_normal_large, normal, rand_randn, randint, primitives,
    bernoulli, shuffle, shuffle_large, multinomial, jit_dropout, eager_then_jit, compiled_cell, train_steps)]
