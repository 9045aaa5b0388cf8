"""npspore.common.seed._get_graph_seed: the (global seed, op seed) pair a random primitive runs with, and how each
call advances the op seed; every value observed on MindSpore 2.10."""
import pytest

import npspore as ms
from npspore.common import seed
from npspore.common.seed import _get_graph_seed


@pytest.fixture(autouse=True)
def fresh_seeds(monkeypatch, isolated_seeds):
    monkeypatch.setattr(seed, "_seed", None)
    monkeypatch.setattr(seed, "_op_seeds", {})


def test_no_seed_lets_the_kernel_choose():
    assert _get_graph_seed(0, "dropout") == (0, 0)
    assert _get_graph_seed(None, "normal") == (0, 0)


def test_op_seeds_advance_per_kernel_and_reset_with_set_seed():
    ms.set_seed(0)   # a global seed of 0 is MindSpore's default graph seed
    assert _get_graph_seed(0, "dropout") == (87654321, 0)
    assert _get_graph_seed(5, "dropout") == (87654321, 5)
    assert _get_graph_seed(5, "dropout") == (87654321, 533697033)
    assert _get_graph_seed(5, "normal") == (87654321, 5)
    ms.set_seed(1234)
    assert _get_graph_seed(5, "dropout") == (1234, 5)
    assert _get_graph_seed(5, "dropout") == (1234, 533697033)
    assert _get_graph_seed(2 ** 33, "dropout") == (1234, 4)   # truncated to int32


def test_op_seed_alone_pairs_with_global_seed_zero():
    assert _get_graph_seed(7, "uniform") == (0, 7)


@pytest.mark.parametrize("op_seed, error, message", [
    (-1, ValueError, "For 'dropout', the 'seed' must be int and must >= 0, but got '-1' with type 'int'."),
    (1.5, TypeError, "For 'dropout', the 'seed' must be int, but got 'float'"),
])
def test_bad_op_seeds(op_seed, error, message):
    ms.set_seed(1)
    with pytest.raises(error) as info:
        _get_graph_seed(op_seed, "dropout")
    assert str(info.value) == message
