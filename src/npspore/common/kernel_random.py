"""The random numbers of MindSpore 2.10's CPU random kernels, bit for bit.

A seeded random primitive of MindSpore (``Dropout``, ``StandardNormal``, ``UniformReal``, ``UniformInt``,
``RandomShuffle``) carries two seeds, ``_get_graph_seed``'s (global seed, op seed). Its CPU kernel mixes them into
one 64-bit seed with one Philox4x32-10 block (counter: the two seeds' words; a fixed key) and seeds a C++
standard-library engine with it once, when the kernel is made: ``Dropout``, ``StandardNormal`` and
``RandomShuffle`` a ``std::minstd_rand0`` (Lehmer's ``x -> 16807 x mod (2**31 - 1)``), ``UniformReal`` and
``UniformInt`` a ``std::mt19937`` (only the seed's low 32 bits). ``Bernoulli`` runs Philox itself, keyed by its
``(seed, offset)`` (:class:`PhiloxFloats`). Each launch of the kernel continues its engine, so a primitive (an ``nn.Dropout``'s) called again draws new
numbers, while ``ops.dropout`` and the other functions make a new primitive, with new seeds, at each call.

The engines' outputs become samples as GCC's libstdc++ makes them: ``generate_canonical`` (one minstd word per
float, two mt19937 words per double), the Marsaglia polar method of ``std::normal_distribution<float>`` (its
``logf`` is glibc's, reproduced here), the rejection of ``std::uniform_int_distribution`` and ``std::shuffle``. Everything is
vectorized over the engines' outputs: minstd's ``k``-th word is ``seed * 16807**k mod (2**31 - 1)``, and NumPy's
``MT19937`` is the same engine as ``std::mt19937``.

A kernel's engine lives in :func:`stream`, by kernel and seeds, and, as MindSpore's, a compiled kernel (a graph)
has engines of its own: the eager calls of one primitive on one input shape and dtype continue one engine (a new
shape starts another from the seeds), each call of it in a compiled kernel starts its own from the seeds and
continues it at each run, except in a gradient taken in PYNATIVE mode, whose draws are eager ones
(:func:`pynative_draws`). Making a primitive (:func:`new_kernel`: a primitive's
``__init__``, or each eager call of a function such as ``ops.dropout``) starts its engines afresh. With
neither seed set (``(0, 0)``) MindSpore seeds from ``std::random_device``: npspore draws such seeds from the
operating system's entropy, so those numbers are not reproducible, as MindSpore's are not.
"""
from __future__ import annotations

import sys
from collections import OrderedDict

import numpy as np

from ..core.libstdcxx_random import shuffle_in_place
from .philox import philox_block
from .seed import _get_graph_seed, default_rng

__all__ = ["kernel_seed", "stream", "new_kernel", "function_kernel", "pynative_draws"]

_WORD = 0xFFFFFFFF
_MIX_KEY = (0x3EC8F720, 0x02461E29)     # the key of the Philox block that mixes a kernel's two seeds
_LEHMER_MODULUS = 2**31 - 1
_LEHMER_MULTIPLIER = 16807
_STREAMS_KEPT = 4096                   # kernels' engines remembered (the least recently used go first)


def kernel_seed(seed0: int, seed1: int) -> int:
    """The 64-bit seed a MindSpore CPU kernel made with seeds ``(seed0, seed1)`` gives its engine: the first two
    words of the Philox4x32-10 block at counter ``(seed0 lo, seed0 hi, seed1 lo, seed1 hi)``, low word first; both
    seeds 0: a seed from the operating system's entropy (MindSpore: ``std::random_device``)."""
    if seed0 == 0 and seed1 == 0:
        return int(np.random.SeedSequence().generate_state(1, np.uint32)[0])
    counter = tuple(np.array([word], np.uint64) for word in
                    (seed0 & _WORD, (seed0 >> 32) & _WORD, seed1 & _WORD, (seed1 >> 32) & _WORD))
    low, high = (int(word[0]) for word in philox_block(counter, _MIX_KEY)[:2])
    return (high << 32) | low


# ---------------------------------------------------------------- std::minstd_rand0


_powers = np.array([_LEHMER_MULTIPLIER], np.uint64)    # 16807**k mod (2**31 - 1) for k = 1, 2, ...


def _lehmer_powers(count: int) -> np.ndarray:
    """``16807**k mod (2**31 - 1)`` for ``k = 1 .. count`` (uint64), grown by doubling and kept."""
    global _powers
    while _powers.size < count:
        step = np.uint64(pow(_LEHMER_MULTIPLIER, _powers.size, _LEHMER_MODULUS))
        _powers = np.concatenate((_powers, _powers * step % np.uint64(_LEHMER_MODULUS)))
    return _powers[:count]


class Lehmer:
    """``std::minstd_rand0`` seeded with a 64-bit seed (``seed mod (2**31 - 1)``, 1 for 0), the engine of the
    ``Dropout`` and ``StandardNormal`` kernels."""

    def __init__(self, seed: int) -> None:
        self.state = seed % _LEHMER_MODULUS or 1

    def peek(self, count: int) -> np.ndarray:
        """The engine's next ``count`` words (int64 in [1, 2**31 - 2]), without advancing it."""
        return (np.uint64(self.state) * _lehmer_powers(count) % np.uint64(_LEHMER_MODULUS)).astype(np.int64)

    def skip(self, count: int) -> None:
        if count:
            self.state = self.state * pow(_LEHMER_MULTIPLIER, count, _LEHMER_MODULUS) % _LEHMER_MODULUS

    def floats(self, count: int) -> np.ndarray:
        """``count`` float32 samples of ``std::uniform_real_distribution<float>(0, 1)``."""
        words = self.peek(count)
        self.skip(count)
        return _canonical_float(words)

    def dropout_mask(self, shape: tuple, keep_prob: float, dtype) -> np.ndarray:
        """The ``Dropout`` kernel's scaled keep mask of ``shape``: ``1.f / keep_prob`` where the sample is below
        the float ``keep_prob``, else 0 (in ``dtype``)."""
        keep = np.float32(keep_prob)
        kept = self.floats(int(np.prod(shape, dtype=np.int64))).reshape(shape) < keep
        return (kept * (np.float32(1.0) / keep)).astype(dtype)

    def permutation(self, n: int) -> np.ndarray:
        """The int64 order ``std::shuffle`` of ``0 .. n - 1`` makes (``RandomShuffle``: output ``i`` is input
        ``order[i]``)."""
        order = list(range(n))
        shuffle_in_place(order, self._word, _LEHMER_MODULUS - 3)
        return np.array(order, np.int64)

    def _word(self) -> int:
        """The next word less the engine's minimum 1 (the engine advanced)."""
        self.state = self.state * _LEHMER_MULTIPLIER % _LEHMER_MODULUS
        return self.state - 1

    def standard_normal(self, shape: tuple) -> np.ndarray:
        """float32 ``std::normal_distribution<float>`` samples of ``shape`` (one launch: a pair's second sample
        left over at an odd count is dropped with the distribution)."""
        count = int(np.prod(shape, dtype=np.int64))
        samples, words = np.empty(0, np.float32), 0
        while samples.size < count:   # pairs of words are accepted with probability pi/4
            wanted = (count - samples.size + 1) // 2
            pairs = int(wanted * 1.3) + 16
            u = _canonical_float(self.peek(words + 2 * pairs)[words:]).reshape(pairs, 2)
            x, y = np.float32(2.0) * u[:, 0] - np.float32(1.0), np.float32(2.0) * u[:, 1] - np.float32(1.0)
            r2 = x * x + y * y
            accepted = np.flatnonzero((r2 <= 1.0) & (r2 != 0.0))[:wanted]
            if accepted.size:
                x, y, r2 = x[accepted], y[accepted], r2[accepted]
                scale = np.sqrt(np.float32(-2.0) * logf(r2) / r2)
                samples = np.concatenate((samples, np.stack((y * scale, x * scale), axis=1).reshape(-1)))
                words += 2 * (int(accepted[-1]) + 1) if accepted.size == wanted else 2 * pairs
            else:
                words += 2 * pairs
        self.skip(words)
        return samples[:count].reshape(shape)


def _canonical_float(words: np.ndarray) -> np.ndarray:
    """``generate_canonical<float, 24>`` of minstd words: ``float(w - 1) / 2**31``, below 1."""
    return np.minimum((words - 1).astype(np.float32) * np.float32(2.0**-31), np.float32(1.0 - 2.0**-24))


# ---------------------------------------------------------------- std::mt19937


class Mersenne:
    """``std::mt19937`` seeded with the low 32 bits of a seed, the engine of ``UniformReal``/``UniformInt``."""

    def __init__(self, seed: int) -> None:
        self.engine = np.random.MT19937()   # RandomState's seeding of an int is std::mt19937's (init_genrand)
        self.engine.state = np.random.RandomState(seed & _WORD).get_state(legacy=False)

    def words(self, count: int) -> np.ndarray:
        return self.engine.random_raw(count).astype(np.uint64)

    def uniform(self, shape: tuple) -> np.ndarray:
        """float32 samples of ``std::uniform_real_distribution<double>(0, 1)`` of ``shape``: two words ``a, b``
        per sample, ``(a + b 2**32) / 2**64`` rounded to float."""
        count = int(np.prod(shape, dtype=np.int64))
        words = self.words(2 * count).astype(np.float64).reshape(count, 2)
        doubles = np.minimum((words[:, 0] + words[:, 1] * 2.0**32) * 2.0**-64, 1.0 - 2.0**-53)
        return doubles.astype(np.float32).reshape(shape)

    def integers(self, shape: tuple, low: int, high: int) -> np.ndarray:
        """int32 samples of ``std::uniform_int_distribution<int>(low, high - 1)`` of ``shape``: a word is
        accepted below the largest multiple of the range and divided down by ``2**32 div range``."""
        count = int(np.prod(shape, dtype=np.int64))
        span = high - low
        scaling = (_WORD) // span
        past = span * scaling
        out = np.empty(0, np.int64)
        while out.size < count:
            words = self.words(count - out.size)
            out = np.concatenate((out, (words[words < past] // scaling).astype(np.int64)))
        return (out[:count] + low).astype(np.int32).reshape(shape)


# ---------------------------------------------------------------- Bernoulli's Philox


class PhiloxFloats:
    """The ``Bernoulli`` kernel's generator: Philox4x32-10 keyed by ``seed`` with the counter ``(k, offset)``, restarted
    at block 0 by each launch, but a launch first uses up the words of the previous launch's last block."""

    def __init__(self, seeds: tuple) -> None:
        self.seed, self.offset = (value % 2**64 for value in seeds)
        self.left = np.empty(0, np.uint32)

    def floats(self, count: int) -> np.ndarray:
        """The next ``count`` float32 samples in [0, 1): each word's 23 low bits as the fraction of 1.x, minus 1."""
        fresh = max(count - self.left.size, 0)
        block = np.arange((fresh + 3) // 4, dtype=np.uint64)
        counter = (block & np.uint64(_WORD), block >> np.uint64(32),
                   np.full_like(block, self.offset & _WORD), np.full_like(block, self.offset >> 32))
        words = np.stack(philox_block(counter, (self.seed & _WORD, self.seed >> 32)), axis=1).reshape(-1)
        words = np.concatenate((self.left, words.astype(np.uint32)))
        self.left = words[count:]
        fractions = (words[:count] & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)
        return fractions.view(np.float32) - np.float32(1.0)


# ---------------------------------------------------------------- glibc's logf

_LOGF_TABLE = np.array([float.fromhex(word) for word in (   # (1/c, log c) of 16 subintervals, glibc's logf (ARM's)
    "0x1.661ec79f8f3bep+0", "-0x1.57bf7808caadep-2", "0x1.571ed4aaf883dp+0", "-0x1.2bef0a7c06ddbp-2",
    "0x1.49539f0f010bp+0", "-0x1.01eae7f513a67p-2", "0x1.3c995b0b80385p+0", "-0x1.b31d8a68224e9p-3",
    "0x1.30d190c8864a5p+0", "-0x1.6574f0ac07758p-3", "0x1.25e227b0b8eap+0", "-0x1.1aa2bc79c81p-3",
    "0x1.1bb4a4a1a343fp+0", "-0x1.a4e76ce8c0e5ep-4", "0x1.12358f08ae5bap+0", "-0x1.1973c5a611cccp-4",
    "0x1.0953f419900a7p+0", "-0x1.252f438e10c1ep-5", "0x1p+0", "0x0p+0",
    "0x1.e608cfd9a47acp-1", "0x1.aa5aa5df25984p-5", "0x1.ca4b31f026aap-1", "0x1.c5e53aa362eb4p-4",
    "0x1.b2036576afce6p-1", "0x1.526e57720db08p-3", "0x1.9c2d163a1aa2dp-1", "0x1.bc2860d22477p-3",
    "0x1.886e6037841edp-1", "0x1.1058bc8a07ee1p-2", "0x1.767dcf5534862p-1", "0x1.4043057b6ee09p-2",)]).reshape(16, 2)
_LOGF_POLY = tuple(float.fromhex(word) for word in
                   ("-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2", "-0x1.ffffef20a4123p-2"))
_LN2 = float.fromhex("0x1.62e42fefa39efp-1")


def logf(x: np.ndarray) -> np.ndarray:
    """glibc's ``logf`` of positive normal float32 ``x`` (its table method in double, not correctly rounded:
    NumPy's float32 ``log`` and the float64 ``log`` rounded differ from it in about 1 % of the samples)."""
    bits = x.view(np.uint32).astype(np.int64)
    tmp = bits - 0x3F330000
    index = (tmp >> 19) % 16
    exponent = tmp >> 23
    z = (bits - (tmp & ~0x7FFFFF)).astype(np.uint32).view(np.float32).astype(np.float64)
    inverse, log_c = _LOGF_TABLE[index, 0], _LOGF_TABLE[index, 1]
    r = z * inverse - 1.0
    y0 = log_c + exponent * _LN2
    r2 = r * r
    y = _LOGF_POLY[1] * r + _LOGF_POLY[2]
    y = _LOGF_POLY[0] * r2 + y
    return np.where(bits == 0x3F800000, 0.0, y * r2 + (y0 + r)).astype(np.float32)


# ---------------------------------------------------------------- the kernels' engines

_ENGINES = {"Dropout": Lehmer, "StandardNormal": Lehmer, "RandomShuffle": Lehmer, "UniformReal": Mersenne,
            "UniformInt": Mersenne}
_streams: OrderedDict = OrderedDict()
_pynative = [0]   # > 0 while a gradient runs in PYNATIVE mode: its kernel draws from the eager engines
_made_by_functions: dict = {}   # (kernel, seeds) -> [op seed, function name, seeds not drawn yet] (function_kernel)
_TEMPLATES = "npspore.codegen_templates"   # the op templates' modules: their forward runs an eager call


def stream(kernel: str, seeds: tuple, caller=None, signature: tuple = ()) -> Lehmer | Mersenne | PhiloxFloats:
    """The engine of the MindSpore ``kernel`` made with ``seeds``, made on first use, as MindSpore keeps them: an eager
    call's engine is that of the primitive's kernel for the ``signature`` of its input (MindSpore's PYNATIVE mode
    makes one kernel per input shape and dtype: a Dropout called on a new shape starts from its seeds); a compiled
    kernel has one engine per place that draws (MindSpore's graph: one kernel per call of the primitive).

    Args:
        kernel (str): ``'Dropout'``, ``'StandardNormal'``, ``'RandomShuffle'`` (a minstd engine), ``'UniformReal'``,
            ``'UniformInt'`` (an mt19937) or ``'Bernoulli'`` (Philox, keyed by its ``(seed, offset)``).
        seeds (tuple[int, int] | None): the primitive's ``_get_graph_seed`` pair; None: a new engine of that kind
            for one draw, seeded from npspore's seeded generator (``set_seed``).
        caller (frame): the frame of the code that draws: an op template's (an eager call) or a compiled kernel's.
        signature (tuple): the shape and dtype of the eager call's input.
    """
    if seeds is None:
        return _ENGINES[kernel](_seed_of(None))
    names = caller.f_globals if caller is not None else None
    in_kernel = names is not None and not names.get("__name__", "").startswith(_TEMPLATES)
    if in_kernel and _pynative[0] and (kernel, seeds) in _made_by_functions:
        return _eager_function_call(kernel, seeds)
    compiled = in_kernel and not _pynative[0]
    engines = _streams.get((kernel, seeds))   # by the compiled kernel's globals and line, or the eager signature
    if engines is None:
        engines = _streams[kernel, seeds] = {}
        if len(_streams) > _STREAMS_KEPT:
            _streams.popitem(last=False)
    else:
        _streams.move_to_end((kernel, seeds))
    place = (id(names), caller.f_lineno) if compiled else signature
    entry = engines.get(place)
    if entry is None:   # the entry holds the kernel's globals: their id stays theirs while the engine lives
        engine = PhiloxFloats(seeds) if kernel == "Bernoulli" else _ENGINES[kernel](_seed_of(seeds))
        entry = engines[place] = (engine, names if compiled else None)
    return entry[0]


def function_kernel(kernel: str, op_seed, name: str) -> tuple:
    """The seeds of the new primitive of ``kernel`` that a call of the random function ``name`` (``ops.rand``,
    ``ops.dropout`` ...) makes, ``_get_graph_seed(op_seed, name)``; remembered, so that a compiled kernel that took
    them when compiling draws as MindSpore's PYNATIVE gradient does, with new seeds at each call after its first."""
    seeds = new_kernel(kernel, _get_graph_seed(op_seed, name))
    if len(_made_by_functions) > _STREAMS_KEPT:
        _made_by_functions.pop(next(iter(_made_by_functions)))
    _made_by_functions[kernel, seeds] = [op_seed, name, True]
    return seeds


def _eager_function_call(kernel: str, seeds: tuple) -> Lehmer | Mersenne:
    """The engine of a random function's call in a PYNATIVE gradient: the seeds taken when compiling at the first
    call, then the next ``_get_graph_seed`` of the function at each call (a new primitive each time)."""
    made = _made_by_functions[kernel, seeds]
    drawn, made[2] = (seeds if made[2] else _get_graph_seed(made[0], made[1])), False
    return _ENGINES[kernel](_seed_of(drawn))


class _PynativeDraws:
    """The context of :func:`pynative_draws` (a class, not a generator: a gradient function enters it at every
    call, and W1 of ``compare.py`` calls one in 8 µs)."""

    def __enter__(self) -> None:
        _pynative[0] += 1

    def __exit__(self, *error) -> None:
        _pynative[0] -= 1


_PYNATIVE_DRAWS = _PynativeDraws()


def pynative_draws() -> _PynativeDraws:
    """While it lasts, compiled kernels draw from the eager engines (by input signature), as the forward pass of a
    gradient in MindSpore's PYNATIVE mode runs its primitives eagerly: an ``nn.Dropout`` in a ``value_and_grad``
    continues the masks of its eager calls, and a Cell called twice in one loss draws two masks of one engine."""
    return _PYNATIVE_DRAWS


def _seed_of(seeds: tuple | None) -> int:
    """An engine's seed: the kernel's, or for a draw of no primitive (``seeds`` None: npspore's compositions such
    as ``bernoulli``) one from npspore's seeded generator, so that ``set_seed`` makes it reproducible."""
    if seeds is None:
        return int(default_rng().integers(1, 2**63))
    return kernel_seed(*seeds)


def new_kernel(kernel: str, seeds: tuple) -> tuple:
    """A new MindSpore primitive of ``kernel`` made with ``seeds``: its engines start afresh at their first draws,
    the eager one and those of compiled kernels (npspore's kernel cache gives a new cell of the same code and seeds,
    made after ``set_seed``, the kernel an older one compiled; MindSpore compiles it a new graph).

    Returns:
        tuple[int, int]: ``seeds``, for the op that draws.
    """
    _streams.pop((kernel, seeds), None)
    _made_by_functions.pop((kernel, seeds), None)
    return seeds


# ---------------------------------------------------------------- the draws of the op templates (``rt.draw_*``)
# Each draws from the engine of its caller: the eager one when an op template's forward calls it, else that of the
# compiled kernel whose code calls it.


def draw_dropout_mask(shape: tuple, keep_prob: float, dtype, seeds: tuple) -> np.ndarray:
    """The ``Dropout`` kernel's scaled keep mask (see :meth:`Lehmer.dropout_mask`) of the primitive ``seeds``."""
    engine = stream("Dropout", seeds, sys._getframe(1), (shape, np.dtype(dtype).str))
    return engine.dropout_mask(shape, keep_prob, dtype)


def draw_normal(shape: tuple, seeds: tuple) -> np.ndarray:
    """The ``StandardNormal`` kernel's float32 samples of ``shape``, of the primitive ``seeds``."""
    return stream("StandardNormal", seeds, sys._getframe(1), (shape,)).standard_normal(shape)


def draw_uniform(shape: tuple, seeds: tuple) -> np.ndarray:
    """The ``UniformReal`` kernel's float32 samples of ``shape``, of the primitive ``seeds``."""
    return stream("UniformReal", seeds, sys._getframe(1), (shape,)).uniform(shape)


def draw_uniform_int(low: np.ndarray, high: np.ndarray, shape: tuple, seeds: tuple) -> np.ndarray:
    """The ``UniformInt`` kernel's int32 samples in [``low``, ``high``) of ``shape``, of the primitive ``seeds``.

    Raises:
        ValueError: if ``high <= low`` (MindSpore's kernel: ``invalid min/max values``).
    """
    low, high = int(np.asarray(low).reshape(-1)[0]), int(np.asarray(high).reshape(-1)[0])
    if high <= low:
        raise ValueError(f"For 'UniformInt', invalid min/max values: ({low}/{high})")
    return stream("UniformInt", seeds, sys._getframe(1), (shape,)).integers(shape, low, high)


def draw_bernoulli(p: np.ndarray, shape: tuple, dtype, seeds: tuple) -> np.ndarray:
    """The ``Bernoulli`` kernel of ``seeds = (seed, offset)``: 1 where the sample is not above ``p`` (broadcast to
    ``shape``), else 0, in ``dtype``."""
    engine = stream("Bernoulli", seeds, sys._getframe(1))
    samples = engine.floats(int(np.prod(shape, dtype=np.int64))).reshape(shape)
    return (samples <= p).astype(dtype)


def draw_permutation(n: int, seeds: tuple) -> np.ndarray:
    """The ``RandomShuffle`` kernel's int64 order of ``n`` slices, of the primitive ``seeds``."""
    return stream("RandomShuffle", seeds, sys._getframe(1), (n,)).permutation(n)
