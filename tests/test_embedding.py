"""``nn.Embedding`` against MindSpore 2.10 CPU (values observed there), compiled and differentiated."""
from __future__ import annotations

import numpy as np
import pytest

import npspore as ms
from npspore import Tensor, nn

TABLE = np.random.default_rng(0).uniform(-1, 1, (5, 3)).astype(np.float32)
IDS = np.array([[0, 4, 2], [2, 1, 0]], np.int32)

# Observed on MindSpore 2.10 CPU: the gradient of sum(e(ids) ** 2) w.r.t. the table (rows 0 and 2 are
# looked up twice, row 3 never).
EXPECTED_TABLE_GRAD = [
    [1.0956934690475464, -1.8417062759399414, -3.6722118854522705],
    [-1.9338895082473755, 1.25308096408844, 1.6510223150253296],
    [0.8530862331390381, 1.8359724283218384, 0.34899991750717163],
    [0.0, 0.0, 0.0],
    [1.4296170473098755, -1.8656576871871948, 0.9186217784881592],
]


@pytest.mark.parametrize("use_one_hot", [False, True])
def test_lookup_matches_mindspore_eager_and_compiled(use_one_hot):
    # On MindSpore 2.10 the output is TABLE[IDS] for both lookups.
    net = nn.Embedding(5, 3, use_one_hot=use_one_hot, embedding_table=Tensor(TABLE))
    eager = net(Tensor(IDS)).asnumpy()
    np.testing.assert_array_equal(eager, TABLE[IDS])
    np.testing.assert_array_equal(ms.jit(net)(Tensor(IDS)).asnumpy(), eager)


def test_padding_idx_zeroes_its_row_and_repr_matches_mindspore():
    net = nn.Embedding(5, 3, use_one_hot=True, embedding_table=Tensor(TABLE), padding_idx=2)
    expected = TABLE[IDS].copy()
    expected[IDS == 2] = 0
    np.testing.assert_array_equal(net(Tensor(IDS)).asnumpy(), expected)
    assert repr(net) == ("Embedding(vocab_size=5, embedding_size=3, use_one_hot=True, embedding_table=Parameter "
                         "(name=embedding_table, shape=(5, 3), dtype=Float32, requires_grad=True), dtype=Float32, "
                         "padding_idx=2)")
    assert not nn.Embedding(5, 3, padding_idx=1).embedding_table.asnumpy()[1].any()


@pytest.mark.parametrize("use_one_hot", [False, True])
def test_table_gradient_matches_mindspore(use_one_hot):
    net = nn.Embedding(5, 3, use_one_hot=use_one_hot, embedding_table=Tensor(TABLE))
    grads = ms.grad(lambda ids: (net(ids) * net(ids)).sum(), grad_position=None,
                    weights=net.trainable_params())(Tensor(IDS))
    np.testing.assert_allclose(grads[0].asnumpy(), EXPECTED_TABLE_GRAD, rtol=1e-6)


def test_bad_arguments_raise():
    with pytest.raises(TypeError, match="vocab_size"):
        nn.Embedding(5.0, 3)
    with pytest.raises(TypeError, match="use_one_hot"):
        nn.Embedding(5, 3, use_one_hot=1)
    with pytest.raises(ValueError, match="padding_idx"):
        nn.Embedding(5, 3, padding_idx=5)
