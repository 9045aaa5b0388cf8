"""API patterns of the second round of real MindSpore programs (docs tutorials, mindspore-ai/course,
mindspore-courses/applications), each as our own minimal program, with the values MindSpore 2.10 gives."""
import numpy as np
import pytest

import npspore as ms
from npspore import dataset as ds
from npspore import nn
from npspore.experimental import optim


# ---------------------------------------------------------------- dataset samplers


class EvenSampler(ds.Sampler):
    """A user's sampler: MindSpore iterates ``__iter__`` every pass, ``dataset_size`` set."""

    def __iter__(self):
        for i in range(0, self.dataset_size, 2):
            yield i


class IndexList:
    """An object with ``__getitem__``/``__len__`` only, iterated by the sequence protocol."""

    def __init__(self):
        self.index_ids = [3, 4, 3, 2, 0]

    def __getitem__(self, index):
        return self.index_ids[index]

    def __len__(self):
        return len(self.index_ids)


def _values(dataset):
    return [int(row[0]) for row in dataset.create_tuple_iterator(output_numpy=True)]


def test_a_sampler_subclass_gives_its_iter_indices_every_pass():
    data = ds.NumpySlicesDataset(list(range(10, 17)), column_names=["data"], sampler=EvenSampler())
    assert data.get_dataset_size() == 4
    assert _values(data) == [10, 12, 14, 16]
    assert _values(data) == [10, 12, 14, 16]


def test_a_getitem_object_is_a_sampler():
    data = ds.NumpySlicesDataset(list("abcdef"), column_names=["data"], sampler=IndexList())
    assert [str(row[0]) for row in data.create_tuple_iterator(output_numpy=True)] == ["d", "e", "d", "c", "a"]


def test_a_sampler_subclass_without_iter_is_refused():
    with pytest.raises(TypeError, match="defines no __iter__"):
        ds.NumpySlicesDataset([1, 2], column_names=["data"], sampler=ds.Sampler()).get_dataset_size()


# ---------------------------------------------------------------- printing dataset rows


def test_dataset_rows_and_from_numpy_print_as_numpy_lays_values_out():
    # Observed on MindSpore 2.10: tensors over a NumPy buffer print NumPy's layout; op results do not.
    data = ds.NumpySlicesDataset((np.array([[0.5, 1.25]]), np.array([[[0.1, 2.0], [3.0, 4.5]]]),
                                  np.arange(3000, dtype=np.float32).reshape(1, 3000),
                                  np.array([[np.nan, 1.0]], np.float32), np.array([3.5])),
                                 column_names=list("abcde"), shuffle=False)
    a, b, c, d, e = next(iter(data))
    assert repr(a) == "Tensor(shape=[2], dtype=Float64, value= [0.5 , 1.25])"
    assert repr(b) == "Tensor(shape=[2, 2], dtype=Float64, value=\n[[0.1, 2. ],\n [3. , 4.5]])"
    assert repr(c) == ("Tensor(shape=[3000], dtype=Float32, value= [0.000e+00, 1.000e+00, 2.000e+00, ..., "
                       "2.997e+03, 2.998e+03, 2.999e+03])")
    assert repr(d) == "Tensor(shape=[2], dtype=Float32, value= [nan,  1.])"
    assert repr(e) == "Tensor(shape=[], dtype=Float64, value= 3.5)"
    assert repr(a * 1) == "Tensor(shape=[2], dtype=Float64, value= [ 5.00000000e-01,  1.25000000e+00])"
    assert repr(ms.Tensor.from_numpy(np.array([0.5, 1.25]))) == "Tensor(shape=[2], dtype=Float64, value= [0.5 , 1.25])"
    assert repr(ms.Tensor(np.array([0.5, 1.25]))) == ("Tensor(shape=[2], dtype=Float64, "
                                                     "value= [ 5.00000000e-01,  1.25000000e+00])")


# ---------------------------------------------------------------- experimental LR schedulers


def test_step_and_exponential_lr_follow_mindspores_rates():
    step_opt = optim.Adam(nn.Dense(2, 1).trainable_params(), lr=0.1)
    step = optim.lr_scheduler.StepLR(step_opt, step_size=3, gamma=0.5)
    exp_opt = optim.Adam(nn.Dense(2, 1).trainable_params(), lr=0.2)
    exp = optim.lr_scheduler.ExponentialLR(exp_opt, gamma=0.9)
    rates = []
    for _ in range(7):
        step.step()
        exp.step()
        rates.append((float(step.get_last_lr()[0]), float(exp.get_last_lr()[0])))
    # Printed by MindSpore 2.10 for the same program.
    expected = [(0.10000000149011612, 0.17999999225139618), (0.10000000149011612, 0.16199998557567596),
                (0.05000000074505806, 0.14579997956752777), (0.05000000074505806, 0.1312199831008911),
                (0.05000000074505806, 0.11809798330068588), (0.02500000037252903, 0.10628817975521088),
                (0.02500000037252903, 0.09565936028957367)]
    np.testing.assert_allclose(rates, expected, rtol=1e-7)
    assert float(step_opt.param_groups[0]["lr"]) == pytest.approx(0.025)
    step.step(10)
    exp.step(4)
    np.testing.assert_allclose([float(step.get_last_lr()[0]), float(exp.get_last_lr()[0])], [0.0125, 0.13122],
                               rtol=1e-6)


def test_step_lr_checks_its_arguments():
    opt = optim.Adam(nn.Dense(2, 1).trainable_params(), lr=0.1)
    with pytest.raises(TypeError, match="'step_size' must be int"):
        optim.lr_scheduler.StepLR(opt, step_size=2.0)
    with pytest.raises(TypeError, match="'gamma' must be float"):
        optim.lr_scheduler.ExponentialLR(opt, gamma=1)


def test_param_groups_keep_the_groups_key_order_then_the_defaults():
    # Printed by MindSpore 2.10 (the optimizer tutorial prints `optimizer.param_groups`).
    net = nn.SequentialCell([nn.Dense(2, 2), nn.Dense(2, 1)])
    first, second = net.trainable_params()[:2], net.trainable_params()[2:]
    optimizer = optim.Adam([{"params": first, "weight_decay": 0.01, "lr": 0.9, "amsgrad": True},
                            {"params": second, "lr": 0.66, "eps": 1e-6, "betas": (0.8, 0.88)}], lr=0.01)
    assert list(optimizer.param_groups[0]) == ["params", "weight_decay", "lr", "amsgrad", "betas", "eps", "maximize"]
    assert list(optimizer.param_groups[1]) == ["params", "lr", "eps", "betas", "weight_decay", "amsgrad", "maximize"]


def test_get_activation_knows_mindspores_names():
    # MobileNetV1 (mindspore-ai/models) builds its blocks with nn.get_activation('relu6').
    x = ms.Tensor(np.array([-1.0, 3.0, 7.0], np.float32))
    np.testing.assert_allclose(nn.get_activation("relu6")(x).asnumpy(), [0.0, 3.0, 6.0])
    assert isinstance(nn.get_activation("leakyrelu"), nn.LeakyReLU)
    assert isinstance(nn.get_activation("hswish"), nn.HSwish)
    with pytest.raises(KeyError, match="'name' must be in \\['softmin', 'softmax', 'softmax2d'"):
        nn.get_activation("relu7")


def test_a_shuffled_source_given_num_samples_draws_with_replacement():
    # MindSpore 2.10's select_sampler: shuffle with num_samples is RandomSampler(replacement=True); seeds 0, 1, 2
    # drew 12, 14 and 12 distinct rows of 20 there (the draws themselves are npspore's own).
    for seed in (0, 1, 2):
        ms.set_seed(seed)
        rows = _values(ds.NumpySlicesDataset(list(range(20)), column_names=["x"], shuffle=True, num_samples=20))
        assert len(rows) == 20 and len(set(rows)) < 20 and set(rows) <= set(range(20))
    ms.set_seed(0)
    assert sorted(_values(ds.NumpySlicesDataset(list(range(20)), column_names=["x"], shuffle=True))) == list(range(20))
