"""``mindspore.mint``'s functions against MindSpore 2.10: the values and dtypes it printed for the cases of
``tools/observe_mindspore_mint.py`` (run on the real MindSpore 2.10 CPU), the examples of its docstrings where
its CPU build has no kernel ("The kernel ArgMaxExt unregistered"), eager and compiled, and gradients against
central differences in float64."""
import math

import numpy as np
import pytest

import npspore as ms
import npspore.mint as mint
from npspore import Tensor
from npspore.mint.nn import functional as F
from composition_checks import check_composition

NAN = math.nan
X = np.array([[1.0, -2.0, 3.0], [4.0, 0.5, -6.0]], np.float32)
XI = np.array([[1, 5, 3], [4, 2, 6]], np.int32)
M = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
P = np.array([[0.1, 0.7, 0.2], [0.5, 0.25, 0.25]], np.float32)
IMG = np.arange(32).reshape(1, 2, 4, 4).astype(np.float32) / 8 - 2
VOLUME = np.arange(2 * 3 * 4 * 5).reshape(1, 2, 3, 4, 5).astype(np.float32) / 7
W = (np.arange(36).reshape(2, 2, 3, 3).astype(np.float32) - 18) / 10


def _batch_norm_step(layer):
    """A training step of a mint BatchNorm layer on ``X``: its output and running statistics."""
    layer.set_train(True)
    return layer(Tensor(X)), layer.running_mean.value(), layer.running_var.value()


# name: (call, where the value comes from, MindSpore 2.10's (dtype, values)); 'mint': mindspore.mint printed it;
# 'ops': mint has no CPU kernel, so the ops function computing the same on CPU printed it (values only: ops
# gives Int32 indices where mint documents Int64)
RECORDED = {
    'argmax_all': (lambda: mint.argmax(Tensor(X)),
        'ops', ('Int64', 3)),
    'argmax_keepdim': (lambda: mint.argmax(Tensor(XI), dim=0, keepdim=True),
        'ops', ('Int64', [[1, 0, 1]])),
    'cat_doc': (lambda: mint.cat((Tensor(np.array([[0, 1], [2, 1]], np.float32)),
                                 Tensor(np.array([[0, 1], [2, 1]], np.float32)))),
        'mint', ('Float32', [[0.0, 1.0], [2.0, 1.0], [0.0, 1.0], [2.0, 1.0]])),
    'cat_dim1': (lambda: mint.cat([Tensor(X), Tensor(X)], dim=1),
        'mint', ('Float32', [[1.0, -2.0, 3.0, 1.0, -2.0, 3.0], [4.0, 0.5, -6.0, 4.0, 0.5, -6.0]])),
    'mul_doc': (lambda: mint.mul(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), Tensor(np.array([4.0, 5.0, 6.0], np.float32))),
        'mint', ('Float32', [4.0, 10.0, 18.0])),
    'mul_int_float': (lambda: mint.mul(Tensor(XI), 1.5),
        'mint', ('Float32', [[1.5, 7.5, 4.5], [6.0, 3.0, 9.0]])),
    'add_doc': (lambda: mint.add(Tensor(np.array([1, 2, 3]).astype(np.float32)), Tensor(np.array(2).astype(np.int32)), alpha=0.5),
        'mint', ('Float32', [2.0, 3.0, 4.0])),
    'add_alpha': (lambda: mint.add(Tensor(X), Tensor(X), alpha=2),
        'mint', ('Float32', [[3.0, -6.0, 9.0], [12.0, 1.5, -18.0]])),
    'add_int': (lambda: mint.add(Tensor(XI), 2),
        'mint', ('Int32', [[3, 7, 5], [6, 4, 8]])),
    'sub_doc': (lambda: mint.sub(Tensor(np.array([4, 5, 6]).astype(np.float32)), Tensor(1, ms.int32), alpha=0.5),
        'mint', ('Float32', [3.5, 4.5, 5.5])),
    'sub_alpha': (lambda: mint.sub(Tensor(X), Tensor(M[0, :1]), alpha=3),
        'mint', ('Float32', [[-2.0, -5.0, 0.0], [1.0, -2.5, -9.0]])),
    'div_doc': (lambda: mint.div(Tensor(np.array([1.0, 2.0, 3.0]), ms.float32), Tensor(np.array([4.0, 5.0, 6.0]), ms.float32)),
        'mint', ('Float32', [0.25, 0.4000000059604645, 0.5])),
    'div_int': (lambda: mint.div(Tensor(XI), 4),
        'mint', ('Float32', [[0.25, 1.25, 0.75], [1.0, 0.5, 1.5]])),
    'sum_all': (lambda: mint.sum(Tensor(X)),
        'mint', ('Float32', 0.5)),
    'sum_dim': (lambda: mint.sum(Tensor(X), dim=1, keepdim=True),
        'mint', ('Float32', [[2.0], [-1.5]])),
    'sum_int': (lambda: mint.sum(Tensor(XI), dim=0),
        'mint', ('Int64', [5, 7, 9])),
    'sum_dtype': (lambda: mint.sum(Tensor(XI), dtype=ms.float32),
        'mint', ('Float32', 21.0)),
    'sum_bool': (lambda: mint.sum(Tensor(np.array([True, False, True]))),
        'mint', ('Int64', 2)),
    'mean_all': (lambda: mint.mean(Tensor(X)),
        'mint', ('Float32', 0.0833333358168602)),
    'mean_dim': (lambda: mint.mean(Tensor(X), dim=(0, 1), keepdim=True),
        'mint', ('Float32', [[0.0833333358168602]])),
    'mean_dim0': (lambda: mint.mean(Tensor(X), 0),
        'mint', ('Float32', [2.5, -0.75, -1.5])),
    'prod_dim': (lambda: mint.prod(Tensor(X), 1),
        'mint', ('Float32', [-6.0, -12.0])),
    'prod_int': (lambda: mint.prod(Tensor(XI)),
        'mint', ('Int64', 720)),
    'permute_doc': (lambda: mint.permute(Tensor(np.arange(12).reshape(1, 2, 2, 3).astype(np.float32)), (0, 2, 1, 3)),
        'mint', ('Float32', [[[[0.0, 1.0, 2.0], [6.0, 7.0, 8.0]], [[3.0, 4.0, 5.0], [9.0, 10.0, 11.0]]]])),
    'flatten_doc': (lambda: mint.flatten(Tensor(np.ones((1, 2, 3, 4), np.float32))).shape,
        'mint', [24]),
    'flatten_dims': (lambda: mint.flatten(Tensor(np.arange(24).reshape(2, 3, 4).astype(np.float32)), 1, 2),
        'mint', ('Float32', [[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0]])),
    'flatten_scalar': (lambda: mint.flatten(Tensor(3.0)),
        'mint', ('Float32', [3.0])),
    'stack_dim': (lambda: mint.stack([Tensor(X), Tensor(X)], dim=-1),
        'ops', ('Float32', [[[1.0, 1.0], [-2.0, -2.0], [3.0, 3.0]], [[4.0, 4.0], [0.5, 0.5], [-6.0, -6.0]]])),
    'zeros_doc': (lambda: mint.zeros((2, 2), dtype=ms.float32),
        'mint', ('Float32', [[0.0, 0.0], [0.0, 0.0]])),
    'zeros_default': (lambda: mint.zeros(3),
        'mint', ('Float32', [0.0, 0.0, 0.0])),
    'ones_default': (lambda: mint.ones((1, 2)),
        'mint', ('Float32', [[1.0, 1.0]])),
    'ones_int': (lambda: mint.ones([2], dtype=ms.int32),
        'mint', ('Int32', [1, 1])),
    'zeros_like': (lambda: mint.zeros_like(Tensor(XI)),
        'ops', ('Int32', [[0, 0, 0], [0, 0, 0]])),
    'ones_like_dtype': (lambda: mint.ones_like(Tensor(XI), dtype=ms.float32),
        'ops', ('Float32', [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]])),
    'full_like_dtype': (lambda: mint.full_like(Tensor(X), 2, dtype=ms.int32),
        'ops', ('Int32', [[2, 2, 2], [2, 2, 2]])),
    'arange_end': (lambda: mint.arange(3),
        'ops', ('Int64', [0, 1, 2])),
    'arange_dtype': (lambda: mint.arange(0, 3, dtype=ms.float32),
        'ops', ('Float32', [0.0, 1.0, 2.0])),
    'split_doc': (lambda: mint.split(Tensor(np.arange(9).astype("float32")), 3),
        'mint', [('Float32', [0.0, 1.0, 2.0]), ('Float32', [3.0, 4.0, 5.0]), ('Float32', [6.0, 7.0, 8.0])]),
    'split_uneven': (lambda: mint.split(Tensor(np.arange(10).astype("float32")), 4),
        'mint', [('Float32', [0.0, 1.0, 2.0, 3.0]), ('Float32', [4.0, 5.0, 6.0, 7.0]), ('Float32', [8.0, 9.0])]),
    'split_sections': (lambda: mint.split(Tensor(X), [1, 2], dim=1),
        'mint', [('Float32', [[1.0], [4.0]]), ('Float32', [[-2.0, 3.0], [0.5, -6.0]])]),
    'softmax_doc': (lambda: mint.softmax(Tensor(np.array([1, 2, 3, 4, 5]), ms.float32), dim=-1),
        'mint', ('Float32', [0.011656222864985466, 0.03168490529060364, 0.08612853288650513, 0.23412136733531952, 0.6364089250564575])),
    'softmax_dim0': (lambda: mint.softmax(Tensor(X), 0),
        'mint', ('Float32', [[0.04742587357759476, 0.07585817575454712, 0.9998766183853149], [0.9525741338729858, 0.9241418242454529, 0.00012339458044152707]])),
    'index_select_rows': (lambda: mint.index_select(Tensor(X), 1, Tensor([2, 0, 2], ms.int64)),
        'ops', ('Float32', [[3.0, 1.0, 3.0], [-6.0, 4.0, -6.0]])),
    'topk_smallest': (lambda: mint.topk(Tensor(X), 1, dim=0, largest=False),
        'ops', [('Float32', [[1.0, -2.0, -6.0]]), ('Int32', [[0, 0, 1]])]),
    'sqrt_doc': (lambda: mint.sqrt(Tensor(np.array([1.0, 4.0, 9.0]), ms.float32)),
        'mint', ('Float32', [1.0, 2.0, 3.0])),
    'sqrt_int': (lambda: mint.sqrt(Tensor(np.array([1, 4]), ms.int32)),
        'mint', ('Float32', [1.0, 2.0])),
    'scatter_add_dim0': (lambda: mint.scatter_add(Tensor(np.zeros((3, 3), np.float32)), 0,
                                                 Tensor(np.array([[0, 1, 2], [0, 0, 0]]), ms.int64),
                                                 Tensor(np.array([[1, 2, 3], [4, 5, 6]]), ms.float32)),
        'ops', ('Float32', [[5.0, 5.0, 6.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]])),
    'scatter_doc': (lambda: mint.scatter(Tensor(np.array([[1, 2, 3, 4, 5]]), dtype=ms.float32), 1,
                                        Tensor(np.array([[2, 4]]), dtype=ms.int64),
                                        Tensor(np.array([[8, 8]]), dtype=ms.float32)),
        'mint', ('Float32', [[1.0, 2.0, 8.0, 4.0, 8.0]])),
    'scatter_value': (lambda: mint.scatter(Tensor(np.zeros((2, 3), np.float32)), 1,
                                          Tensor(np.array([[0], [2]]), ms.int64), 1.5),
        'mint', ('Float32', [[1.5, 0.0, 0.0], [0.0, 0.0, 1.5]])),
    'gather_doc': (lambda: mint.gather(Tensor(np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]]), ms.float32), 1,
                                      Tensor(np.array([[0, 0], [1, 1]]), ms.int32)),
        'mint', ('Float32', [[-0.10000000149011612, -0.10000000149011612], [0.5, 0.5]])),
    'narrow_doc': (lambda: mint.narrow(Tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]], ms.int32), 0, 0, 2),
        'mint', ('Int32', [[1, 2, 3], [4, 5, 6]])),
    'narrow_dim1': (lambda: mint.narrow(Tensor(X), 1, 1, 2),
        'mint', ('Float32', [[-2.0, 3.0], [0.5, -6.0]])),
    'reshape': (lambda: mint.reshape(Tensor(X), (3, -1)),
        'mint', ('Float32', [[1.0, -2.0], [3.0, 4.0], [0.5, -6.0]])),
    'pow_doc': (lambda: mint.pow(Tensor(np.array([1.0, 2.0, 4.0]), ms.float32), 3.0),
        'mint', ('Float32', [1.0, 8.0, 64.0])),
    'pow_tensor': (lambda: mint.pow(Tensor(np.array([1.0, 2.0, 4.0]), ms.float32), Tensor(np.array([2.0, 4.0, 3.0]), ms.float32)),
        'mint', ('Float32', [1.0, 16.0, 64.0])),
    'pow_int': (lambda: mint.pow(Tensor(XI), 2),
        'mint', ('Int32', [[1, 25, 9], [16, 4, 36]])),
    'bmm': (lambda: mint.bmm(Tensor(np.arange(12).reshape(2, 2, 3).astype(np.float32)),
                            Tensor(np.arange(12).reshape(2, 3, 2).astype(np.float32))),
        'mint', ('Float32', [[[10.0, 13.0], [28.0, 40.0]], [[172.0, 193.0], [244.0, 274.0]]])),
    'mm': (lambda: mint.mm(Tensor(X), Tensor(X.T)),
        'ops', ('Float32', [[14.0, -15.0], [-15.0, 52.25]])),
    'mv': (lambda: mint.mv(Tensor(X), Tensor(np.array([1.0, 2.0, 3.0], np.float32))),
        'ops', ('Float32', [6.0, -13.0])),
    'outer': (lambda: mint.outer(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), Tensor(np.array([1.0, 2.0], np.float32))),
        'ops', ('Float32', [[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])),
    'select_doc': (lambda: mint.select(Tensor([[2, 3, 4, 5], [3, 2, 4, 5]]), 1, 0),
        'mint', ('Int64', [2, 3])),
    'select_neg': (lambda: mint.select(Tensor(X), 0, -1),
        'mint', ('Float32', [4.0, 0.5, -6.0])),
    'eq': (lambda: mint.eq(Tensor(XI), 4),
        'mint', ('Bool', [[False, False, False], [True, False, False]])),
    'equal_false': (lambda: mint.equal(Tensor(X), Tensor(X[:, ::-1].copy())),
        'ops', ('Bool', False)),
    'greater_equal': (lambda: mint.greater_equal(Tensor(X), 1.0),
        'mint', ('Bool', [[True, False, True], [True, False, False]])),
    'cumsum_int': (lambda: mint.cumsum(Tensor(XI), 1),
        'ops', ('Int32', [[1, 6, 9], [4, 6, 12]])),
    'any': (lambda: mint.any(Tensor(X > 2)),
        'mint', ('Bool', True)),
    'any_dim': (lambda: mint.any(Tensor(X > 2), 1, True),
        'mint', ('Bool', [[True], [True]])),
    'all_dim': (lambda: mint.all(Tensor(X > -3), dim=0),
        'mint', ('Bool', [True, True, False])),
    'where': (lambda: mint.where(Tensor(X > 0), Tensor(X), 0.0),
        'mint', ('Float32', [[1.0, 0.0, 3.0], [4.0, 0.5, 0.0]])),
    'unsqueeze': (lambda: mint.unsqueeze(Tensor(X), 1).shape,
        'mint', [2, 1, 3]),
    'squeeze': (lambda: mint.squeeze(Tensor(np.ones((1, 2, 1), np.float32)), 2).shape,
        'mint', [1, 2]),
    'unbind': (lambda: mint.unbind(Tensor(X), 1),
        'mint', [('Float32', [1.0, 4.0]), ('Float32', [-2.0, 0.5]), ('Float32', [3.0, -6.0])]),
    'tril_k': (lambda: mint.tril(Tensor(np.arange(9).reshape(3, 3).astype(np.float32)), -1),
        'ops', ('Float32', [[0.0, 0.0, 0.0], [3.0, 0.0, 0.0], [6.0, 7.0, 0.0]])),
    'linspace_dtype': (lambda: mint.linspace(0, 1, 3, dtype=ms.float64),
        'ops', ('Float32', [0.0, 0.5, 1.0])),
    'clamp_doc': (lambda: mint.clamp(Tensor(np.array([[-1.3, 0.7], [1.5, 2.0]]), ms.float32), 0.0, 1.0),
        'mint', ('Float32', [[0.0, 0.699999988079071], [1.0, 1.0]])),
    'clamp_min': (lambda: mint.clamp(Tensor(XI), min=3),
        'mint', ('Int32', [[3, 5, 3], [4, 3, 6]])),
    'broadcast_to': (lambda: mint.broadcast_to(Tensor(np.array([1.0, 2.0], np.float32)), (2, 2)),
        'mint', ('Float32', [[1.0, 2.0], [1.0, 2.0]])),
    'isfinite': (lambda: mint.isfinite(Tensor(np.array([np.nan, 1, -np.inf]), ms.float32)),
        'mint', ('Bool', [False, True, False])),
    'isclose_doc': (lambda: mint.isclose(Tensor(np.array([1.3, 2.1, 3.2, 4.1, 5.1]), ms.float16),
                                        Tensor(np.array([1.3, 3.3, 2.3, 3.1, 5.1]), ms.float16)),
        'mint', ('Bool', [True, False, False, False, True])),
    'isclose_nan': (lambda: mint.isclose(Tensor(np.array([np.nan, 1.0], np.float32)), Tensor(np.array([np.nan, 1.0 + 1e-6], np.float32)), equal_nan=True),
        'mint', ('Bool', [True, True])),
    'allclose_doc': (lambda: mint.allclose(Tensor(np.array([1.3, 2.1, 3.2, 4.1, 5.1]), ms.float16),
                                          Tensor(np.array([1.3, 3.3, 2.3, 3.1, 5.1]), ms.float16)),
        'mint', False),
    'allclose_true': (lambda: mint.allclose(Tensor(X), Tensor(X + 1e-6)),
        'mint', True),
    'max_all': (lambda: mint.max(Tensor(X)),
        'mint', ('Float32', 4.0)),
    'max_dim': (lambda: mint.max(Tensor(X), dim=1),
        'mint', [('Float32', [3.0, 4.0]), ('Int64', [2, 0])]),
    'max_dim_keepdim': (lambda: mint.max(Tensor(X), 0, True),
        'mint', [('Float32', [[4.0, 0.5, 3.0]]), ('Int64', [[1, 1, 0]])]),
    'max_pair': (lambda: mint.max(Tensor(X), Tensor(X[::-1].copy())),
        'mint', ('Float32', [[4.0, 0.5, 3.0], [4.0, 0.5, 3.0]])),
    'min_all': (lambda: mint.min(Tensor(XI)),
        'mint', ('Int32', 1)),
    'min_dim': (lambda: mint.min(Tensor(X), dim=0),
        'mint', [('Float32', [1.0, -2.0, -6.0]), ('Int64', [0, 0, 1])]),
    'amax': (lambda: mint.amax(Tensor(X), 1),
        'mint', ('Float32', [3.0, 4.0])),
    'amax_all': (lambda: mint.amax(Tensor(X)),
        'mint', ('Float32', 4.0)),
    'amin_keepdim': (lambda: mint.amin(Tensor(X), dim=0, keepdim=True),
        'mint', ('Float32', [[1.0, -2.0, -6.0]])),
    'transpose': (lambda: mint.transpose(Tensor(np.ones((2, 3, 4), np.float32)), 0, 2).shape,
        'mint', [4, 3, 2]),
    'swapaxes': (lambda: mint.swapaxes(Tensor(X), 0, 1),
        'mint', ('Float32', [[1.0, 4.0], [-2.0, 0.5], [3.0, -6.0]])),
    't': (lambda: mint.t(Tensor(X)),
        'mint', ('Float32', [[1.0, 4.0], [-2.0, 0.5], [3.0, -6.0]])),
    't_vector': (lambda: mint.t(Tensor(np.array([1.0, 2.0], np.float32))),
        'mint', ('Float32', [1.0, 2.0])),
    'chunk_doc': (lambda: mint.chunk(Tensor(np.arange(9).astype("float32")), 3),
        'mint', [('Float32', [0.0, 1.0, 2.0]), ('Float32', [3.0, 4.0, 5.0]), ('Float32', [6.0, 7.0, 8.0])]),
    'chunk_uneven': (lambda: mint.chunk(Tensor(np.arange(10).astype("float32")), 4),
        'mint', [('Float32', [0.0, 1.0, 2.0]), ('Float32', [3.0, 4.0, 5.0]), ('Float32', [6.0, 7.0, 8.0]), ('Float32', [9.0])]),
    'chunk_dim1': (lambda: mint.chunk(Tensor(X), 2, 1),
        'mint', [('Float32', [[1.0, -2.0], [4.0, 0.5]]), ('Float32', [[3.0], [-6.0]])]),
    'clone': (lambda: mint.clone(Tensor(XI)),
        'ops', ('Int32', [[1, 5, 3], [4, 2, 6]])),
    'sort': (lambda: mint.sort(Tensor(X), dim=1, descending=True),
        'ops', [('Float32', [[3.0, 1.0, -2.0], [4.0, 0.5, -6.0]]), ('Int32', [[2, 0, 1], [0, 1, 2]])]),
    'argsort': (lambda: mint.argsort(Tensor(X), dim=0),
        'ops', ('Int32', [[0, 0, 1], [1, 1, 0]])),
    'repeat_interleave_flat': (lambda: mint.repeat_interleave(Tensor(XI), 2),
        'ops', ('Int32', [1, 1, 5, 5, 3, 3, 4, 4, 2, 2, 6, 6])),
    'logsumexp': (lambda: mint.logsumexp(Tensor(X), 1),
        'ops', ('Float32', [3.132845163345337, 4.029794692993164])),
    'log2': (lambda: mint.log2(Tensor(np.array([2.0, 4.0, 8.0], np.float32))),
        'ops', ('Float32', [1.0, 2.0, 3.0])),
    'log10': (lambda: mint.log10(Tensor(np.array([2.0, 4.0, 10.0], np.float32))),
        'ops', ('Float32', [0.3010299801826477, 0.6020599603652954, 1.0])),
    'exp2': (lambda: mint.exp2(Tensor(np.array([2.0, 3.0, 4.0], np.float32))),
        'ops', ('Float32', [4.0, 8.0, 16.0])),
    'var_all': (lambda: mint.var(Tensor(X)),
        'ops', ('Float32', 13.241666793823242)),
    'var_c0': (lambda: mint.var(Tensor(X), 1, correction=0),
        'ops', ('Float32', [4.222222805023193, 17.16666603088379])),
    'std_all': (lambda: mint.std(Tensor(X)),
        'ops', ('Float32', 3.6389100551605225)),
    'var_mean': (lambda: mint.var_mean(Tensor(X), 1),
        'ops', [('Float32', [6.333333969116211, 25.75]), ('Float32', [0.6666666865348816, -0.5])]),
    'std_mean': (lambda: mint.std_mean(Tensor(X), 0, keepdim=True),
        'ops', [('Float32', [[2.1213202476501465, 1.7677669525146484, 6.363961219787598]]), ('Float32', [[2.5, -0.75, -1.5]])]),
    'count_nonzero_dim': (lambda: mint.count_nonzero(Tensor([[0, 1, 0], [1, 1, 0]], ms.float32), dim=1),
        'ops', ('Int32', [1, 2])),
    'diag_vector_k': (lambda: mint.diag(Tensor([1.0, 2.0], ms.float32), -1),
        'ops', ('Float32', [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 2.0, 0.0]])),
    'trace_rect': (lambda: mint.trace(Tensor(X)),
        'ops', ('Float32', 1.5)),
    'diff_doc': (lambda: mint.diff(Tensor([1, 3, -1, 0, 4])),
        'mint', ('Int64', [2, -4, 1, 4])),
    'diff_dim0': (lambda: mint.diff(Tensor(X), dim=0),
        'mint', ('Float32', [[3.0, 2.5, -9.0]])),
    'diff_n2': (lambda: mint.diff(Tensor(np.array([1.0, 4.0, 9.0, 16.0], np.float32)), n=2),
        'mint', ('Float32', [2.0, 2.0])),
    'diff_prepend': (lambda: mint.diff(Tensor(np.array([1.0, 4.0], np.float32)), prepend=Tensor(np.array([0.0], np.float32)),
                                      append=Tensor(np.array([10.0], np.float32))),
        'mint', ('Float32', [1.0, 3.0, 6.0])),
    'addmm': (lambda: mint.addmm(Tensor(M), Tensor(M), Tensor(M), beta=0.5, alpha=2),
        'ops', ('Float32', [[14.5, 21.0], [31.5, 46.0]])),
    'baddbmm': (lambda: mint.baddbmm(Tensor(np.ones((1, 2, 2), np.float32)), Tensor(M[None]), Tensor(M[None]), beta=2, alpha=0.5),
        'ops', ('Float32', [[[5.5, 7.0], [9.5, 13.0]]])),
    'addbmm': (lambda: mint.addbmm(Tensor(M), Tensor(np.stack([M, M])), Tensor(np.stack([M, M.T])), beta=1, alpha=1),
        'ops', ('Float32', [[13.0, 23.0], [29.0, 51.0]])),
    'addmv': (lambda: mint.addmv(Tensor(np.array([1.0, 1.0], np.float32)), Tensor(M), Tensor(np.array([1.0, -1.0], np.float32)), beta=3),
        'ops', ('Float32', [2.0, 2.0])),
    'lerp': (lambda: mint.lerp(Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32)), Tensor(np.array([10.0, 10.0, 10.0, 10.0], np.float32)), 0.5),
        'mint', ('Float32', [5.5, 6.0, 6.5, 7.0])),
    'lerp_tensor': (lambda: mint.lerp(Tensor(X), Tensor(X * 0), Tensor(np.array([0.25, 0.5, 1.0], np.float32))),
        'mint', ('Float32', [[0.75, -1.0, 0.0], [3.0, 0.25, 0.0]])),
    'frac': (lambda: mint.frac(Tensor(np.array([2.0, 4.2, -2.5], np.float32))),
        'ops', ('Float32', [0.0, 0.19999980926513672, -0.5])),
    'fmod': (lambda: mint.fmod(Tensor(np.array([-3.0, -2, -1, 1, 2, 3], np.float32)), 1.5),
        'mint', ('Float32', [0.0, -0.5, -1.0, 1.0, 0.5, 0.0])),
    'fmod_int': (lambda: mint.fmod(Tensor(np.array([-7, 7], np.int32)), 3),
        'mint', ('Int32', [-1, 1])),
    'remainder': (lambda: mint.remainder(Tensor(np.array([-3.0, -2, -1, 1, 2, 3], np.float32)), 1.5),
        'mint', ('Float32', [0.0, 1.0, 0.5, 1.0, 0.5, 0.0])),
    'logaddexp': (lambda: mint.logaddexp(Tensor(np.array([1, 2, 3], np.float32)), Tensor(2.0, ms.float32)),
        'ops', ('Float32', [2.3132612705230713, 2.6931471824645996, 3.3132612705230713])),
    'logaddexp2': (lambda: mint.logaddexp2(Tensor(np.array([1, 2, 3], np.float32)), Tensor(np.array([2], np.float32))),
        'ops', ('Float32', [2.5849623680114746, 3.0, 3.5849623680114746])),
    'float_power': (lambda: mint.float_power(Tensor(np.array([-1.5, 0.0, 2.0], np.float32)), 2),
        'mint', ('Float64', [2.25, 0.0, 4.0])),
    'float_power_int': (lambda: mint.float_power(Tensor(XI), 0.5),
        'mint', ('Float64', [[1.0, 2.23606797749979, 1.7320508075688774], [2.0, 1.4142135623730951, 2.4494897427831783]])),
    'nansum': (lambda: mint.nansum(Tensor(np.array([[1.0, np.nan], [2.0, 3.0]], np.float32))),
        'mint', ('Float32', 6.0)),
    'nan_to_num_doc': (lambda: mint.nan_to_num(Tensor(np.array([float('nan'), float('inf'), -float('inf'), 5.0]), ms.float32), 1.0, 2.0, 3.0),
        'mint', ('Float32', [1.0, 2.0, 3.0, 5.0])),
    'nan_to_num_default': (lambda: mint.nan_to_num(Tensor(np.array([float('nan'), float('inf'), -float('inf'), 5.0]), ms.float32)),
        'mint', ('Float32', [0.0, 3.4028234663852886e+38, -3.4028234663852886e+38, 5.0])),
    'isneginf': (lambda: mint.isneginf(Tensor(np.array([-np.inf, np.inf, 1.2]), ms.float32)),
        'ops', ('Bool', [True, False, False])),
    'logical_xor': (lambda: mint.logical_xor(Tensor(np.array([True, False, True])), Tensor(np.array([True, True, False]))),
        'mint', ('Bool', [False, True, True])),
    'logical_xor_num': (lambda: mint.logical_xor(Tensor(X), Tensor(XI - 1)),
        'mint', ('Bool', [[True, False, False], [False, False, False]])),
    'ravel': (lambda: mint.ravel(Tensor(X)),
        'mint', ('Float32', [1.0, -2.0, 3.0, 4.0, 0.5, -6.0])),
    'cross_doc': (lambda: mint.cross(Tensor([1, 2, 3], ms.int8), Tensor([1, 2, 3], ms.int8)),
        'mint', ('Int8', [0, 0, 0])),
    'cross_rows': (lambda: mint.cross(Tensor(np.arange(6).reshape(2, 3).astype(np.float32)), Tensor(X)),
        'mint', ('Float32', [[7.0, 2.0, -1.0], [-26.5, 38.0, -14.5]])),
    'meshgrid': (lambda: mint.meshgrid(Tensor(np.array([1, 2, 3], np.int32)), Tensor(np.array([4, 5], np.int32)), indexing="xy"),
        'mint', [('Int32', [[1, 2, 3], [1, 2, 3]]), ('Int32', [[4, 4, 4], [5, 5, 5]])]),
    'meshgrid_default': (lambda: mint.meshgrid(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), Tensor(np.array([4.0, 5.0], np.float32))),
        'mint', [('Float32', [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]), ('Float32', [[4.0, 5.0], [4.0, 5.0], [4.0, 5.0]])]),
    'sinc': (lambda: mint.sinc(Tensor(np.array([0.0, 0.5, 1.0, 2.5], np.float32))),
        'mint', ('Float32', [1.0, 0.6366197466850281, -2.7827534054836178e-08, 0.1273239552974701])),
    'trunc': (lambda: mint.trunc(Tensor(np.array([3.4742, 0.5466, -0.8008, -3.9079], np.float32))),
        'mint', ('Float32', [3.0, 0.0, -0.0, -3.0])),
    'erfc': (lambda: mint.erfc(Tensor(np.array([-1, 0, 1, 2, 3]), ms.float32)),
        'mint', ('Float32', [1.8427008390426636, 1.0, 0.15729920566082, 0.004677734803408384, 2.2090496713644825e-05])),
    'expm1': (lambda: mint.expm1(Tensor(np.array([0.0, 1.0, 2.0, 4.0]), ms.float32)),
        'mint', ('Float32', [0.0, 1.7182817459106445, 6.389056205749512, 53.598148345947266])),
    'xlogy': (lambda: mint.xlogy(Tensor(np.array([-5, 0, 4]), ms.float32), Tensor(np.array([2, 2, 2]), ms.float32)),
        'mint', ('Float32', [-3.465735912322998, 0.0, 2.7725887298583984])),
    'xlogy_zero': (lambda: mint.xlogy(Tensor(np.array([0.0, 1.0]), ms.float32), Tensor(np.array([0.0, 3.0]), ms.float32)),
        'mint', ('Float32', [NAN, 1.0986123085021973])),
    'median_dim': (lambda: mint.median(Tensor(np.array([[0.57, 0.11, 0.21], [0.38, 0.5, 0.57], [0.36, 0.16, 0.44]]), ms.float32), dim=0),
        'ops', [('Float32', [0.3799999952316284, 0.1599999964237213, 0.4399999976158142]), ('Int64', [1, 2, 2])]),
    'cummax': (lambda: mint.cummax(Tensor(np.array([[3, 4, 6, 10], [1, 6, 7, 9], [4, 3, 8, 7], [1, 3, 7, 9]]).astype(np.float32)), 0),
        'mint', [('Float32', [[3.0, 4.0, 6.0, 10.0], [3.0, 6.0, 7.0, 10.0], [4.0, 6.0, 8.0, 10.0], [4.0, 6.0, 8.0, 10.0]]), ('Int64', [[0, 0, 0, 0], [0, 1, 1, 0], [2, 1, 2, 0], [2, 1, 2, 0]])]),
    'cummin': (lambda: mint.cummin(Tensor([-0.2284, -0.6628, 0.0975, 0.2680, -1.3298, -0.4220], ms.float32), 0),
        'ops', [('Float32', [-0.22840000689029694, -0.6628000140190125, -0.6628000140190125, -0.6628000140190125, -1.329800009727478, -1.329800009727478]), ('Int32', [0, 1, 1, 1, 4, 4])]),
    'cdist': (lambda: mint.cdist(Tensor(np.array([[[1.0, 1.0], [2.0, 2.0]]]).astype(np.float32)),
                                Tensor(np.array([[[3.0, 3.0], [3.0, 3.0]]]).astype(np.float32)), p=2.0),
        'mint', ('Float32', [[[2.8284270763397217, 2.8284270763397217], [1.4142135381698608, 1.4142135381698608]]])),
    'cdist_p1': (lambda: mint.cdist(Tensor(X), Tensor(X[:1]), p=1.0),
        'mint', ('Float32', [[0.0], [14.5]])),
    'histc': (lambda: mint.histc(Tensor([1., 2, 1]), bins=4, min=0, max=3),
        'ops', ('Float32', [0.0, 2.0, 1.0, 0.0])),
    'index_add': (lambda: mint.index_add(Tensor(np.ones((3, 3), np.float32)), 0, Tensor([0, 2], ms.int32), Tensor(M[:, :1].repeat(3, 1)), alpha=2),
        'mint', ('Float32', [[3.0, 3.0, 3.0], [1.0, 1.0, 1.0], [7.0, 7.0, 7.0]])),
    'asinh': (lambda: mint.asinh(Tensor(np.array([-5.0, 1.5, 3.0, 100.0]), ms.float32)),
        'ops', ('Float32', [-2.3124382495880127, 1.19476318359375, 1.8184465169906616, 5.298342227935791])),
    'acosh': (lambda: mint.acosh(Tensor(np.array([1.0, 1.5, 3.0, 100.0]), ms.float32)),
        'ops', ('Float32', [0.0, 0.9624236226081848, 1.7627471685409546, 5.29829216003418])),
    'atanh': (lambda: mint.atanh(Tensor(np.array([0, -0.5]), ms.float32)),
        'mint', ('Float32', [0.0, -0.5493061542510986])),
    'expm1_small': (lambda: mint.expm1(Tensor(np.array([1e-7, -1e-4, 0.05, -0.5], np.float32))),
        'mint', ('Float32', [1.1920928955078125e-07, -0.00010001659393310547, 0.05127108097076416, -0.39346933364868164])),
    'asinh_more': (lambda: mint.arcsinh(Tensor(np.array([-0.5, 0.25], np.float32))),
        'ops', ('Float32', [-0.4812118113040924, 0.24746645987033844])),
    'searchsorted_doc': (lambda: mint.searchsorted(Tensor(np.array([[0, 1, 3, 5, 7], [2, 4, 6, 8, 10]]), ms.float32),
                                                  Tensor(np.array([[3, 6, 9], [3, 6, 9]]), ms.float32)),
        'mint', ('Int64', [[2, 4, 5], [1, 2, 4]])),
    'searchsorted_right': (lambda: mint.searchsorted(Tensor(np.array([1.0, 2.0, 2.0, 3.0], np.float32)),
                                                    Tensor(np.array([2.0, 0.0, 5.0], np.float32)), right=True),
        'mint', ('Int64', [3, 0, 4])),
    'cummax_ties': (lambda: mint.cummax(Tensor(np.array([1.0, 3.0, 3.0, 2.0, 3.0], np.float32)), 0),
        'mint', [('Float32', [1.0, 3.0, 3.0, 3.0, 3.0]), ('Int64', [0, 1, 2, 2, 4])]),
    'histc_auto': (lambda: mint.histc(Tensor(X.ravel()), bins=3),
        'ops', ('Float32', [1.0, 2.0, 3.0])),
    'multinomial_certain': (lambda: mint.multinomial(Tensor(np.array([0.0, 10.0, 0.0], np.float32)), 2, replacement=True),
        'ops', ('Int32', [1, 1])),
    'cross_entropy': (lambda: F.cross_entropy(Tensor(X), Tensor(np.array([2, 0]), ms.int32)),
        'ops', ('Float32', 0.08131992816925049)),
    'cross_entropy_smooth': (lambda: F.cross_entropy(Tensor(X), Tensor(np.array([1, 2]), ms.int32), reduction="sum",
                                                    label_smoothing=0.1),
        'ops', ('Float32', 14.345973014831543)),
    'silu': (lambda: F.silu(Tensor(X)),
        'mint', ('Float32', [[0.7310588955879211, -0.2384057343006134, 2.857722282409668], [3.9280550479888916, 0.3112297058105469, -0.01483571995049715]])),
    'mse_loss': (lambda: F.mse_loss(Tensor(X), Tensor(X * 0.5)),
        'ops', ('Float32', 2.7604167461395264)),
    'mse_loss_none': (lambda: F.mse_loss(Tensor(X), Tensor(M[:1, :1]), reduction="none"),
        'ops', ('Float32', [[0.0, 9.0, 4.0], [9.0, 0.25, 49.0]])),
    'softmax': (lambda: F.softmax(Tensor(X), dim=1),
        'mint', ('Float32', [[0.11849959194660187, 0.005899743176996708, 0.8756006360054016], [0.9706449508666992, 0.029310911893844604, 4.406705193105154e-05]])),
    'log_softmax': (lambda: F.log_softmax(Tensor(X), dim=0),
        'ops', ('Float32', [[-3.048590660095215, -2.5788867473602295, -0.00012194349255878478], [-0.04859074205160141, -0.07888684421777725, -9.0001220703125]])),
    'one_hot': (lambda: F.one_hot(Tensor(np.array([0, 2, 1]), ms.int64), 4),
        'ops', ('Int64', [[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0]])),
    'relu6': (lambda: F.relu6(Tensor(X * 2)),
        'ops', ('Float32', [[2.0, 0.0, 6.0], [6.0, 1.0, 0.0]])),
    'leaky_relu': (lambda: F.leaky_relu(Tensor(X)),
        'ops', ('Float32', [[1.0, -0.019999999552965164, 3.0], [4.0, 0.5, -0.05999999865889549]])),
    'leaky_relu_slope': (lambda: F.leaky_relu(Tensor(X), 0.2),
        'ops', ('Float32', [[1.0, -0.4000000059604645, 3.0], [4.0, 0.5, -1.2000000476837158]])),
    'gelu': (lambda: F.gelu(Tensor(X)),
        'ops', ('Float32', [[0.8413447141647339, -0.04550027847290039, 2.995950222015381], [3.999873161315918, 0.3457312285900116, -0.0]])),
    'gelu_tanh': (lambda: F.gelu(Tensor(X), approximate="tanh"),
        'ops', ('Float32', [[0.8411920070648193, -0.04540228843688965, 2.9963626861572266], [3.999929904937744, 0.3457140028476715, -0.0]])),
    'selu': (lambda: F.selu(Tensor(X)),
        'ops', ('Float32', [[1.0507010221481323, -1.5201665163040161, 3.1521029472351074], [4.202804088592529, 0.5253505110740662, -1.7537413835525513]])),
    'logsigmoid': (lambda: F.logsigmoid(Tensor(X)),
        'ops', ('Float32', [[-0.3132612407207489, -2.1269285678863525, -0.04858734458684921], [-0.018149957060813904, -0.47407686710357666, -6.002477169036865]])),
    'mish': (lambda: F.mish(Tensor(X)),
        'ops', ('Float32', [[0.865098237991333, -0.25250133872032166, 2.98653507232666], [3.997412919998169, 0.37524521350860596, -0.014853879809379578]])),
    'softplus': (lambda: F.softplus(Tensor(X), beta=2, threshold=5),
        'mint', ('Float32', [[1.0634640455245972, 0.009074964560568333, 3.0], [4.0, 0.6566308736801147, 3.0720966606168076e-06]])),
    'glu': (lambda: F.glu(Tensor(np.arange(8).reshape(2, 4).astype(np.float32) / 4)),
        'mint', ('Float32', [[0.0, 0.16979467868804932], [0.8175744414329529, 1.0649409294128418]])),
    'hardshrink': (lambda: F.hardshrink(Tensor(np.array([-0.7, 0.3, 0.5, 0.6], np.float32))),
        'mint', ('Float32', [-0.699999988079071, 0.0, 0.0, 0.6000000238418579])),
    'normalize': (lambda: F.normalize(Tensor(X)),
        'ops', ('Float32', [[0.26726123690605164, -0.5345224738121033, 0.8017836809158325], [0.5533716082572937, 0.06917145103216171, -0.8300573825836182]])),
    'smooth_l1_loss': (lambda: F.smooth_l1_loss(Tensor(X), Tensor(X * 0.5)),
        'mint', ('Float32', 0.9427083134651184)),
    'l1_loss': (lambda: F.l1_loss(Tensor(X), Tensor(M[:1, :1]), reduction="sum"),
        'ops', ('Float32', 15.5)),
    'kl_div': (lambda: F.kl_div(Tensor(np.log(P)), Tensor(P[::-1].copy()), reduction="sum"),
        'ops', ('Float32', 1.1182610988616943)),
    'kl_div_batchmean': (lambda: F.kl_div(Tensor(np.log(P)), Tensor(P[::-1].copy()), reduction="batchmean"),
        'ops', ('Float32', 0.5591305494308472)),
    'nll_loss': (lambda: F.nll_loss(Tensor(np.log(P)), Tensor(np.array([1, 0]), ms.int32)),
        'mint', ('Float32', 0.5249110460281372)),
    'binary_cross_entropy': (lambda: F.binary_cross_entropy(Tensor(P), Tensor(np.array([[0, 1, 0], [1, 0, 1]], np.float32))),
        'mint', ('Float32', 0.5087171196937561)),
    'bce_with_logits': (lambda: F.binary_cross_entropy_with_logits(Tensor(X), Tensor(np.array([[0, 1, 0], [1, 0, 1]], np.float32)),
                                                                  pos_weight=Tensor(np.array([1.0, 2.0, 0.5], np.float32))),
        'mint', ('Float32', 2.1015284061431885)),
    'pad': (lambda: F.pad(Tensor(X), (1, 2), value=9.0),
        'ops', ('Float32', [[9.0, 1.0, -2.0, 3.0, 9.0, 9.0], [9.0, 4.0, 0.5, -6.0, 9.0, 9.0]])),
    'pad_reflect': (lambda: F.pad(Tensor(IMG), (1, 1, 0, 1), mode="reflect"),
        'ops', ('Float32', [[[[-1.875, -2.0, -1.875, -1.75, -1.625, -1.75], [-1.375, -1.5, -1.375, -1.25, -1.125, -1.25], [-0.875, -1.0, -0.875, -0.75, -0.625, -0.75], [-0.375, -0.5, -0.375, -0.25, -0.125, -0.25], [-0.875, -1.0, -0.875, -0.75, -0.625, -0.75]], [[0.125, 0.0, 0.125, 0.25, 0.375, 0.25], [0.625, 0.5, 0.625, 0.75, 0.875, 0.75], [1.125, 1.0, 1.125, 1.25, 1.375, 1.25], [1.625, 1.5, 1.625, 1.75, 1.875, 1.75], [1.125, 1.0, 1.125, 1.25, 1.375, 1.25]]]])),
    'conv2d': (lambda: F.conv2d(Tensor(IMG), Tensor(W), padding=1),
        'ops', ('Float32', [[[[8.050000190734863, 11.949999809265137, 10.750000953674316, 6.899999618530273], [11.36250114440918, 16.462501525878906, 14.324999809265137, 8.887499809265137], [5.962499618530273, 7.912502288818359, 5.774998188018799, 2.887500286102295], [1.2999999523162842, 0.9999998211860657, -0.6500000953674316, -1.250000238418579]], [[-1.8499999046325684, -1.5500001907348633, -0.05000007152557373, 0.5999997854232788], [1.9125001430511475, 4.312499523162842, 6.224999904632568, 4.837499618530273], [7.3125, 11.96250057220459, 13.875, 9.637499809265137], [5.800000190734863, 9.09999942779541, 10.149999618530273, 6.850000381469727]]]])),
    'conv2d_bias_stride': (lambda: F.conv2d(Tensor(IMG), Tensor(W), Tensor(np.array([1.0, -1.0], np.float32)), stride=2),
        'ops', ('Float32', [[[[17.462501525878906]], [[3.312499523162842]]]])),
    'conv2d_same': (lambda: F.conv2d(Tensor(IMG), Tensor(W), padding="same"),
        'ops', ('Float32', [[[[8.050000190734863, 11.949999809265137, 10.750000953674316, 6.899999618530273], [11.36250114440918, 16.462501525878906, 14.324999809265137, 8.887499809265137], [5.962499618530273, 7.912502288818359, 5.774998188018799, 2.887500286102295], [1.2999999523162842, 0.9999998211860657, -0.6500000953674316, -1.250000238418579]], [[-1.8499999046325684, -1.5500001907348633, -0.05000007152557373, 0.5999997854232788], [1.9125001430511475, 4.312499523162842, 6.224999904632568, 4.837499618530273], [7.3125, 11.96250057220459, 13.875, 9.637499809265137], [5.800000190734863, 9.09999942779541, 10.149999618530273, 6.850000381469727]]]])),
    'avg_pool2d': (lambda: F.avg_pool2d(Tensor(IMG), 2),
        'ops', ('Float32', [[[[-1.6875, -1.4375], [-0.6875, -0.4375]], [[0.3125, 0.5625], [1.3125, 1.5625]]]])),
    'avg_pool2d_pad': (lambda: F.avg_pool2d(Tensor(IMG), 3, stride=2, padding=1, count_include_pad=False),
        'ops', ('Float32', [[[[-1.6875, -1.5], [-0.9375, -0.75]], [[0.3125, 0.5], [1.0625, 1.25]]]])),
    'avg_pool1d': (lambda: F.avg_pool1d(Tensor(IMG[0]), 2),
        'ops', ('Float32', [[[-1.9375, -1.6875], [-1.4375, -1.1875], [-0.9375, -0.6875], [-0.4375, -0.1875]], [[0.0625, 0.3125], [0.5625, 0.8125], [1.0625, 1.3125], [1.5625, 1.8125]]])),
    'max_pool2d': (lambda: F.max_pool2d(Tensor(IMG), 2),
        'ops', ('Float32', [[[[-1.375, -1.125], [-0.375, -0.125]], [[0.625, 0.875], [1.625, 1.875]]]])),
    'max_pool2d_stride': (lambda: F.max_pool2d(Tensor(IMG), 3, stride=1, padding=1),
        'ops', ('Float32', [[[[-1.375, -1.25, -1.125, -1.125], [-0.875, -0.75, -0.625, -0.625], [-0.375, -0.25, -0.125, -0.125], [-0.375, -0.25, -0.125, -0.125]], [[0.625, 0.75, 0.875, 0.875], [1.125, 1.25, 1.375, 1.375], [1.625, 1.75, 1.875, 1.875], [1.625, 1.75, 1.875, 1.875]]]])),
    'adaptive_avg_pool1d': (lambda: F.adaptive_avg_pool1d(Tensor(IMG[0]), 2),
        'ops', ('Float32', [[[-1.9375, -1.6875], [-1.4375, -1.1875], [-0.9375, -0.6875], [-0.4375, -0.1875]], [[0.0625, 0.3125], [0.5625, 0.8125], [1.0625, 1.3125], [1.5625, 1.8125]]])),
    'adaptive_avg_pool2d': (lambda: F.adaptive_avg_pool2d(Tensor(IMG), (2, 3)),
        'ops', ('Float32', [[[[-1.6875, -1.5625, -1.4375], [-0.6875, -0.5625, -0.4375]], [[0.3125, 0.4375, 0.5625], [1.3125, 1.4375, 1.5625]]]])),
    'batch_norm': (lambda: F.batch_norm(Tensor(IMG), Tensor(np.array([0.5, -0.5], np.float32)),
                                       Tensor(np.array([2.0, 0.5], np.float32))),
        'ops', ('Float32', [[[[-1.7677624225616455, -1.67937433719635, -1.5909862518310547, -1.5025980472564697], [-1.4142099618911743, -1.325821876525879, -1.237433671951294, -1.1490455865859985], [-1.0606575012207031, -0.9722693562507629, -0.8838812112808228, -0.7954931259155273], [-0.7071049809455872, -0.618716835975647, -0.5303287506103516, -0.4419406056404114]], [[0.7070996761322021, 0.8838745951652527, 1.0606495141983032, 1.237424373626709], [1.4141993522644043, 1.5909743309020996, 1.7677491903305054, 1.9445240497589111], [2.1212990283966064, 2.2980740070343018, 2.474848747253418, 2.6516237258911133], [2.8283987045288086, 3.005173683166504, 3.181948661804199, 3.3587234020233154]]]])),
    'batch_norm_affine': (lambda: F.batch_norm(Tensor(IMG), Tensor(np.zeros(2, np.float32)), Tensor(np.ones(2, np.float32)),
                                              Tensor(np.array([2.0, 1.0], np.float32)), Tensor(np.array([0.0, 1.0], np.float32))),
        'ops', ('Float32', [[[[-3.9999799728393555, -3.749981164932251, -3.4999823570251465, -3.249983787536621], [-2.9999849796295166, -2.749986171722412, -2.4999876022338867, -2.2499887943267822], [-1.9999899864196777, -1.7499911785125732, -1.4999924898147583, -1.2499938011169434], [-0.9999949932098389, -0.7499962449073792, -0.49999749660491943, -0.24999874830245972]], [[1.0, 1.1249994039535522, 1.2499988079071045, 1.3749980926513672], [1.4999974966049194, 1.6249969005584717, 1.7499961853027344, 1.8749955892562866], [1.9999949932098389, 2.1249942779541016, 2.2499938011169434, 2.374993085861206], [2.4999923706054688, 2.6249918937683105, 2.7499911785125732, 2.874990463256836]]]])),
    'embedding': (lambda: F.embedding(Tensor(np.array([[0, 2], [1, 1]]), ms.int64), Tensor(X.T.copy())),
        'ops', ('Float32', [[[1.0, 4.0], [3.0, -6.0]], [[-2.0, 0.5], [-2.0, 0.5]]])),
    'adaptive_max_pool1d': (lambda: F.adaptive_max_pool1d(Tensor(np.arange(12).reshape(1, 2, 6).astype(np.float32) % 5), 3),
        'ops', ('Float32', [[[1.0, 3.0, 4.0], [2.0, 4.0, 1.0]]])),
    'max_unpool2d': (lambda: F.max_unpool2d(Tensor(np.array([[[[5.0, 7.0], [13.0, 15.0]]]], np.float32)),
                                           Tensor(np.array([[[[5, 7], [13, 15]]]], np.int64)), 2),
        'ops', ('Float32', [[[[0.0, 0.0, 0.0, 0.0], [0.0, 5.0, 0.0, 7.0], [0.0, 0.0, 0.0, 0.0], [0.0, 13.0, 0.0, 15.0]]]])),
    'adaptive_avg_pool3d': (lambda: F.adaptive_avg_pool3d(Tensor(VOLUME), (2, 3, 2)),
        'ops', ('Float32', [[[[[1.9285714626312256, 2.2142856121063232], [2.642857074737549, 2.9285714626312256], [3.357142925262451, 3.642857074737549]], [[4.785714149475098, 5.0714287757873535], [5.5, 5.785714149475098], [6.214285850524902, 6.5]]], [[[10.5, 10.785714149475098], [11.214285850524902, 11.5], [11.928571701049805, 12.214285850524902]], [[13.35714340209961, 13.64285659790039], [14.071428298950195, 14.35714340209961], [14.785714149475098, 15.071428298950195]]]]])),
    'adaptive_avg_pool3d_none': (lambda: F.adaptive_avg_pool3d(Tensor(VOLUME[0]), (None, 1, 3)),
        'ops', ('Float32', [[[[1.1428571939468384, 1.3571429252624512, 1.5714285373687744]], [[4.0, 4.214285850524902, 4.428571701049805]], [[6.857142925262451, 7.0714287757873535, 7.285714149475098]]], [[[9.714285850524902, 9.928571701049805, 10.142857551574707]], [[12.571428298950195, 12.785714149475098, 13.0]], [[15.428571701049805, 15.64285659790039, 15.85714340209961]]]])),
    'unfold': (lambda: F.unfold(Tensor(IMG), 2),
        'ops', ('Float32', [[[-2.0, -1.875, -1.75, -1.5, -1.375, -1.25, -1.0, -0.875, -0.75], [-1.875, -1.75, -1.625, -1.375, -1.25, -1.125, -0.875, -0.75, -0.625], [-1.5, -1.375, -1.25, -1.0, -0.875, -0.75, -0.5, -0.375, -0.25], [-1.375, -1.25, -1.125, -0.875, -0.75, -0.625, -0.375, -0.25, -0.125], [0.0, 0.125, 0.25, 0.5, 0.625, 0.75, 1.0, 1.125, 1.25], [0.125, 0.25, 0.375, 0.625, 0.75, 0.875, 1.125, 1.25, 1.375], [0.5, 0.625, 0.75, 1.0, 1.125, 1.25, 1.5, 1.625, 1.75], [0.625, 0.75, 0.875, 1.125, 1.25, 1.375, 1.625, 1.75, 1.875]]])),
    'unfold_args': (lambda: F.unfold(Tensor(IMG), (2, 3), dilation=1, padding=1, stride=(2, 1)),
        'ops', ('Float32', [[[0.0, 0.0, 0.0, 0.0, 0.0, -1.5, -1.375, -1.25, 0.0, -0.5, -0.375, -0.25], [0.0, 0.0, 0.0, 0.0, -1.5, -1.375, -1.25, -1.125, -0.5, -0.375, -0.25, -0.125], [0.0, 0.0, 0.0, 0.0, -1.375, -1.25, -1.125, 0.0, -0.375, -0.25, -0.125, 0.0], [0.0, -2.0, -1.875, -1.75, 0.0, -1.0, -0.875, -0.75, 0.0, 0.0, 0.0, 0.0], [-2.0, -1.875, -1.75, -1.625, -1.0, -0.875, -0.75, -0.625, 0.0, 0.0, 0.0, 0.0], [-1.875, -1.75, -1.625, 0.0, -0.875, -0.75, -0.625, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.625, 0.75, 0.0, 1.5, 1.625, 1.75], [0.0, 0.0, 0.0, 0.0, 0.5, 0.625, 0.75, 0.875, 1.5, 1.625, 1.75, 1.875], [0.0, 0.0, 0.0, 0.0, 0.625, 0.75, 0.875, 0.0, 1.625, 1.75, 1.875, 0.0], [0.0, 0.0, 0.125, 0.25, 0.0, 1.0, 1.125, 1.25, 0.0, 0.0, 0.0, 0.0], [0.0, 0.125, 0.25, 0.375, 1.0, 1.125, 1.25, 1.375, 0.0, 0.0, 0.0, 0.0], [0.125, 0.25, 0.375, 0.0, 1.125, 1.25, 1.375, 0.0, 0.0, 0.0, 0.0, 0.0]]])),
    'fold': (lambda: F.fold(Tensor(np.arange(16 * 9).reshape(1, 16, 9).astype(np.float32)), (4, 4), 2),
        'ops', ('Float32', [[[[0.0, 10.0, 12.0, 11.0], [21.0, 62.0, 66.0, 43.0], [27.0, 74.0, 78.0, 49.0], [24.0, 58.0, 60.0, 35.0]], [[36.0, 82.0, 84.0, 47.0], [93.0, 206.0, 210.0, 115.0], [99.0, 218.0, 222.0, 121.0], [60.0, 130.0, 132.0, 71.0]], [[72.0, 154.0, 156.0, 83.0], [165.0, 350.0, 354.0, 187.0], [171.0, 362.0, 366.0, 193.0], [96.0, 202.0, 204.0, 107.0]], [[108.0, 226.0, 228.0, 119.0], [237.0, 494.0, 498.0, 259.0], [243.0, 506.0, 510.0, 265.0], [132.0, 274.0, 276.0, 143.0]]]])),
    'fold_args': (lambda: F.fold(Tensor(np.arange(2 * 6 * 12).reshape(1, 12, 12).astype(np.float32) / 10), (4, 4), (2, 3),
                                padding=1, stride=(2, 1)),
        'ops', ('Float32', [[[[8.5, 14.699999809265137, 15.0, 11.299999237060547], [2.0999999046325684, 5.100000381469727, 5.400000095367432, 4.900000095367432], [9.299999237060547, 15.899999618530273, 16.200000762939453, 12.100000381469727], [2.9000000953674316, 6.300000190734863, 6.600000381469727, 5.699999809265137]], [[22.899999618530273, 36.29999923706055, 36.599998474121094, 25.700000762939453], [16.5, 26.700000762939453, 27.0, 19.299999237060547], [23.700000762939453, 37.5, 37.79999923706055, 26.5], [17.299999237060547, 27.899999618530273, 28.200000762939453, 20.100000381469727]]]])),
    'pixel_shuffle': (lambda: F.pixel_shuffle(Tensor(np.arange(16).reshape(1, 4, 2, 2).astype(np.float32)), 2),
        'mint', ('Float32', [[[[0.0, 4.0, 1.0, 5.0], [8.0, 12.0, 9.0, 13.0], [2.0, 6.0, 3.0, 7.0], [10.0, 14.0, 11.0, 15.0]]]])),
    'vector_norm': (lambda: mint.linalg.vector_norm(Tensor(X)),
        'ops', ('Float32', 8.139410018920898)),
    'vector_norm_dim': (lambda: mint.linalg.vector_norm(Tensor(X), ord=1, dim=1, keepdim=True),
        'ops', ('Float32', [[6.0], [10.5]])),
    'vector_norm_inf': (lambda: mint.linalg.vector_norm(Tensor(X), ord=float("inf"), dim=0),
        'ops', ('Float32', [4.0, 2.0, 6.0])),
    'linalg_norm_vector': (lambda: mint.linalg.norm(Tensor(X), 1, dim=1),
        'ops', ('Float32', [6.0, 10.5])),
    'norm_p1_dim': (lambda: mint.norm(Tensor(X), 1, dim=0),
        'ops', ('Float32', [5.0, 2.5, 9.0])),
    'layer_cross_entropy': (lambda: mint.nn.CrossEntropyLoss()(Tensor(X), Tensor(np.array([2, 0]), ms.int32)),
        'ops', ('Float32', 0.08131992816925049)),
    'layer_bce_with_logits': (lambda: mint.nn.BCEWithLogitsLoss(reduction="sum")(Tensor(X), Tensor(np.ones((2, 3), np.float32))),
        'mint', ('Float32', 8.983480453491211)),
    'layer_avg_pool2d': (lambda: mint.nn.AvgPool2d(2, stride=1)(Tensor(IMG)),
        'ops', ('Float32', [[[[-1.6875, -1.5625, -1.4375], [-1.1875, -1.0625, -0.9375], [-0.6875, -0.5625, -0.4375]], [[0.3125, 0.4375, 0.5625], [0.8125, 0.9375, 1.0625], [1.3125, 1.4375, 1.5625]]]])),
    'layer_relu6': (lambda: mint.nn.ReLU6()(Tensor(X * 2)),
        'ops', ('Float32', [[2.0, 0.0, 6.0], [6.0, 1.0, 0.0]])),
    'layer_linear_shapes': (lambda: [p.shape for p in mint.nn.Linear(3, 4).get_parameters()],
        'mint', [[4, 3], [4]]),
    'layer_linear_names': (lambda: [p.name for p in mint.nn.Linear(3, 4, bias=False).get_parameters()],
        'mint', ['weight']),
    'layer_conv2d_shapes': (lambda: [p.shape for p in mint.nn.Conv2d(2, 3, 3, padding=1).get_parameters()],
        'mint', [[3, 2, 3, 3], [3]]),
    'layer_conv2d_out': (lambda: mint.nn.Conv2d(2, 3, 3, padding=1)(Tensor(IMG)).shape,
        'ops', [1, 3, 4, 4]),
    'layer_conv3d_out': (lambda: mint.nn.Conv3d(2, 3, (1, 3, 3), padding=(0, 1, 1))(Tensor(IMG[:, :, None])).shape,
        'ops', [1, 3, 1, 4, 4]),
    'layer_embedding': (lambda: [p.name for p in mint.nn.Embedding(5, 3, padding_idx=1).get_parameters()],
        'mint', ['weight']),
    'layer_group_norm': (lambda: mint.nn.GroupNorm(1, 2)(Tensor(IMG)),
        'mint', ('Float32', [[[[-1.678737759590149, -1.570432186126709, -1.4621264934539795, -1.35382080078125], [-1.2455151081085205, -1.1372095346450806, -1.028903841972351, -0.9205981492996216], [-0.8122925162315369, -0.7039868235588074, -0.5956811904907227, -0.48737549781799316], [-0.37906983494758606, -0.27076417207717896, -0.16245849430561066, -0.05415283143520355]], [[0.05415283143520355, 0.16245849430561066, 0.27076417207717896, 0.37906983494758606], [0.48737549781799316, 0.5956811904907227, 0.7039868235588074, 0.8122925162315369], [0.9205981492996216, 1.028903841972351, 1.1372095346450806, 1.2455151081085205], [1.35382080078125, 1.4621264934539795, 1.570432186126709, 1.678737759590149]]]])),
    'layer_batch_norm1d_names': (lambda: [p.name for p in mint.nn.BatchNorm1d(3).get_parameters()],
        'mint', ['weight', 'bias', 'running_mean', 'running_var', 'num_batches_tracked']),
    'layer_norm_names': (lambda: [p.name for c in (mint.nn.GroupNorm(1, 3), mint.nn.LayerNorm(3))
                                 for p in c.get_parameters()],
        'mint', ['weight', 'bias', 'weight', 'bias']),
    'layer_batch_norm1d_train': (lambda: _batch_norm_step(mint.nn.BatchNorm1d(3)),
        'ops', [('Float32', [[-0.9999977946281433, -0.9999967217445374, 0.9999998211860657], [0.9999977946281433, 0.9999967217445374, -0.9999998211860657]]), ('Float32', [0.25, -0.07500000298023224, -0.15000000596046448]), ('Float32', [1.350000023841858, 1.212499976158142, 4.950000286102295])]),
}

# name: (call, MindSpore 2.10's docstring example: dtype (None where it prints none), values)
DOCSTRING = {
    "argmax": (lambda: mint.argmax(Tensor(np.array([[1, 20, 5], [67, 8, 9], [130, 24, 15]], np.float32)), dim=-1),
               "Int64", [1, 0, 0]),
    "argmin": (lambda: mint.argmin(Tensor(np.array([[1, 20, 5], [67, 8, 9], [130, 24, 15]], np.float32)), dim=-1,
                                   keepdim=False), "Int64", [0, 1, 2]),
    "stack": (lambda: mint.stack([Tensor(np.array([0, 1], np.float32)), Tensor(np.array([2, 3], np.float32))], 0),
              "Float32", [[0.0, 1.0], [2.0, 3.0]]),
    "full": (lambda: mint.full((2, 2), 1), "Float32", [[1.0, 1.0], [1.0, 1.0]]),
    "full_zero": (lambda: mint.full((3, 3), 0), "Float32", np.zeros((3, 3))),
    "full_like": (lambda: mint.full_like(Tensor([[0, 1], [2, 1]], ms.int32), 1), "Int32", [[1, 1], [1, 1]]),
    "full_like_dtype": (lambda: mint.full_like(Tensor([[0, 1, 1], [2, 1, 2], [1, 3, 4]], ms.int32), 0,
                                               dtype=ms.float32), "Float32", np.zeros((3, 3))),
    "arange": (lambda: mint.arange(1, 6), "Int64", [1, 2, 3, 4, 5]),
    "arange_float": (lambda: mint.arange(0, 3, 1.2), "Float32", [0.0, 1.2, 2.4]),
    "arange_down": (lambda: mint.arange(7, 1, -2), "Int64", [7, 5, 3]),
    "index_select": (lambda: mint.index_select(Tensor(np.arange(16).astype(np.float32).reshape(2, 2, 4)), 1,
                                               Tensor([0], ms.int32)), None,
                     [[[0.0, 1.0, 2.0, 3.0]], [[8.0, 9.0, 10.0, 11.0]]]),
    "topk": (lambda: mint.topk(Tensor([[0.5368, 0.2447, 0.4302, 0.9673], [0.4388, 0.6525, 0.4685, 0.1868],
                                       [0.3563, 0.5152, 0.9675, 0.8230]], ms.float32), 2, dim=1),
             ("Float32", "Int64"), ([[0.9673, 0.5368], [0.6525, 0.4685], [0.9675, 0.8230]], [[3, 0], [1, 2], [2, 3]])),
    "topk_smallest": (lambda: mint.topk(Tensor([[0.5368, 0.2447, 0.4302, 0.9673], [0.4388, 0.6525, 0.4685, 0.1868],
                                                [0.3563, 0.5152, 0.9675, 0.8230]], ms.float32), 2, dim=1,
                                        largest=False),
                      ("Float32", "Int64"), ([[0.2447, 0.4302], [0.1868, 0.4388], [0.3563, 0.5152]],
                                             [[1, 2], [3, 0], [0, 1]])),
    "scatter_add": (lambda: mint.scatter_add(Tensor(np.array([[1, 2, 3, 4, 5]]), ms.float32), 1,
                                             Tensor(np.array([[2, 4]]), ms.int64), Tensor(np.array([[8, 8]]), ms.float32)),
                    None, [[1.0, 2.0, 11.0, 4.0, 13.0]]),
    "scatter_add_rows": (lambda: mint.scatter_add(Tensor(np.zeros((5, 5)), ms.float32), 0,
                                                  Tensor(np.array([[0, 0, 0], [2, 2, 2], [4, 4, 4]]), ms.int64),
                                                  Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ms.float32)),
                         None, [[1, 2, 3, 0, 0], [0, 0, 0, 0, 0], [4, 5, 6, 0, 0], [0, 0, 0, 0, 0], [7, 8, 9, 0, 0]]),
    "dot": (lambda: mint.dot(Tensor([2.0, 3.0]), Tensor([2.0, 1.0])), "Float32", 7.0),
    "mv": (lambda: mint.mv(Tensor(np.array([[3.0, 4.0], [1.0, 6.0], [1.0, 3.0]], np.float32)),
                           Tensor(np.array([1.0, 2.0], np.float32))), None, [11.0, 13.0, 7.0]),
    "outer": (lambda: mint.outer(Tensor(np.array([1, 2, 3])), Tensor(np.array([4, 5, 6]))), "Int64",
              [[4, 5, 6], [8, 10, 12], [12, 15, 18]]),
    "equal": (lambda: mint.equal(Tensor([1, 2, 3], ms.int32), Tensor([1, 2, 4], ms.int32)), None, False),
    "cumsum": (lambda: mint.cumsum(Tensor(np.array([[3, 4, 6, 10], [1, 6, 7, 9], [4, 3, 8, 7], [1, 3, 7, 9]])), 0),
               "Int64", [[3, 4, 6, 10], [4, 10, 13, 19], [8, 13, 21, 26], [9, 16, 28, 35]]),
    "cumsum_dim1": (lambda: mint.cumsum(Tensor(np.array([[3, 4, 6, 10], [1, 6, 7, 9], [4, 3, 8, 7], [1, 3, 7, 9]])), 1),
                    "Int64", [[3, 7, 13, 23], [1, 7, 14, 23], [4, 7, 15, 22], [1, 4, 11, 20]]),
    "tril": (lambda: mint.tril(Tensor(np.array([[1, 2, 3, 4], [5, 6, 7, 8], [10, 11, 12, 13], [14, 15, 16, 17]])), 1),
             "Int64", [[1, 2, 0, 0], [5, 6, 7, 0], [10, 11, 12, 13], [14, 15, 16, 17]]),
    "linspace": (lambda: mint.linspace(3, 10, 5), "Float32", [3.0, 4.75, 6.5, 8.25, 10.0]),
    "linspace_one": (lambda: mint.linspace(-10, 10, 1), "Float32", [-10.0]),
    "sort": (lambda: mint.sort(Tensor([[8, 2, 1], [5, 9, 3], [4, 6, 7]], ms.float16)), ("Float16", "Int64"),
             ([[1, 2, 8], [3, 5, 9], [4, 6, 7]], [[2, 1, 0], [2, 0, 1], [0, 1, 2]])),
    "argsort": (lambda: mint.argsort(Tensor([[8, 2, 1], [5, 9, 3], [4, 6, 7]], ms.float16)), "Int64",
                [[2, 1, 0], [2, 0, 1], [0, 1, 2]]),
    "repeat_interleave": (lambda: mint.repeat_interleave(Tensor([[0, 1, 2], [3, 4, 5]]), repeats=2, dim=0), "Int64",
                          [[0, 1, 2], [0, 1, 2], [3, 4, 5], [3, 4, 5]]),
    "repeat_interleave_list": (lambda: mint.repeat_interleave(Tensor([[0, 1, 2], [3, 4, 5]]), repeats=[1, 2], dim=0),
                               "Int64", [[0, 1, 2], [3, 4, 5], [3, 4, 5]]),
    "repeat_interleave_dim1": (lambda: mint.repeat_interleave(Tensor([[0, 1, 2], [3, 4, 5]]), repeats=2, dim=1),
                               "Int64", [[0, 0, 1, 1, 2, 2], [3, 3, 4, 4, 5, 5]]),
    "roll": (lambda: mint.roll(Tensor([0, 1, 2, 3, 4], ms.float32), shifts=2, dims=0), "Float32", [3, 4, 0, 1, 2]),
    "roll_back": (lambda: mint.roll(Tensor([0, 1, 2, 3, 4], ms.float32), shifts=-2, dims=0), "Float32",
                  [2, 3, 4, 0, 1]),
    "log2": (lambda: mint.log2(Tensor(np.array([3.0, 5.0, 7.0]), ms.float32)), "Float32",
             [1.5849625, 2.321928, 2.807355]),
    "log10": (lambda: mint.log10(Tensor(np.array([3.0, 5.0, 7.0]), ms.float32)), "Float32",
              [0.47712136, 0.69897, 0.845098]),
    "exp2": (lambda: mint.exp2(Tensor(np.array([0.0, 1.0, 2.0, 4.0]), ms.float32)), "Float32", [1.0, 2.0, 4.0, 16.0]),
    "var": (lambda: mint.var(Tensor([[8, 2, 1], [5, 9, 3], [4, 6, 7]], ms.float32), dim=0, correction=1,
                             keepdim=True), "Float32", [[4.333333, 12.333333, 9.333333]]),
    "std": (lambda: mint.std(Tensor([[1, 2, 3], [-1, 1, 4]], ms.float32), dim=1, correction=1), "Float32",
            [1.0, 2.51661134]),
    "std_all_dims": (lambda: mint.std(Tensor([[1, 2, 3], [-1, 1, 4]], ms.float32), dim=[0, 1], correction=2,
                                      keepdim=True), "Float32", [[1.95789003]]),
    "count_nonzero": (lambda: mint.count_nonzero(Tensor(np.array([[0, 1, 0], [1, 1, 0]], np.float32))), None, 3),
    "count_nonzero_dim0": (lambda: mint.count_nonzero(Tensor(np.array([[0, 1, 0], [1, 1, 0]], np.float32)), dim=[0]),
                           None, [1, 2, 0]),
    "diag": (lambda: mint.diag(Tensor([1, 2, 3, 4])), "Int64", np.diag([1, 2, 3, 4])),
    "diag_above": (lambda: mint.diag(Tensor([1, 2, 3, 4]), diagonal=1), "Int64", np.diag([1, 2, 3, 4], 1)),
    "trace": (lambda: mint.trace(Tensor(np.arange(1, 13).reshape(3, 4), ms.float32)), "Float32", 18.0),
    "addmm": (lambda: mint.addmm(mint.ones([3, 3]), Tensor([[8.0, 7.0, 6.0], [5.0, 4.0, 3.0], [2.0, 1.0, 0.0]]),
                                 Tensor([[5.0, 4.0, 3.0], [2.0, 1.0, 0.0], [8.0, 7.0, 6.0]])), "Float32",
              [[103.0, 82.0, 61.0], [58.0, 46.0, 34.0], [13.0, 10.0, 7.0]]),
    "frac": (lambda: mint.frac(Tensor([2, 4.2, -2.5], ms.float16)), "Float16", [0.0, 0.1992, -0.5]),
    "logaddexp": (lambda: mint.logaddexp(Tensor(np.array([1, 2, 3]).astype(np.float16)),
                                         Tensor(np.array(2).astype(np.float16))), "Float16", [2.312, 2.693, 3.312]),
    "isneginf": (lambda: mint.isneginf(Tensor([[-math.inf, math.inf], [1, -math.inf]], ms.float32)), "Bool",
                 [[True, False], [False, True]]),
    "nansum": (lambda: mint.nansum(Tensor(np.array([[NAN, 2, 3], [1, 2, NAN]]), ms.float32), dim=0, keepdim=True,
                                   dtype=ms.float32), "Float32", [[1.0, 4.0, 3.0]]),
    "empty": (lambda: mint.empty((2, 3), dtype=ms.float32).shape, None, [2, 3]),
    "randn": (lambda: mint.randn(2, 3).shape, None, [2, 3]),
}


def _check(out, dtype, expected, rtol):
    if isinstance(out, (tuple, list)) and not isinstance(expected, np.ndarray) and isinstance(dtype, tuple):
        assert len(out) == len(expected)
        for part, part_dtype, part_expected in zip(out, dtype, expected):
            _check(part, part_dtype, part_expected, rtol)
        return
    if isinstance(out, (tuple, list)) and not any(isinstance(part, Tensor) for part in out):
        assert [list(part) if isinstance(part, tuple) else part for part in out] == list(expected)
        return
    if isinstance(out, Tensor):
        if dtype is not None:
            assert str(out.dtype) == dtype
        out = out.asnumpy()
    expected = np.asarray(expected, dtype=np.float64)
    got = np.asarray(out, dtype=np.float64)
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol, equal_nan=True)


def _recorded(value):
    """``('Float32', [...])``, a list of them (a tuple result), or a plain value, as (dtype, values)."""
    if isinstance(value, list) and value and isinstance(value[0], tuple):
        return tuple(part[0] for part in value), tuple(part[1] for part in value)
    if isinstance(value, tuple):
        return value
    return None, value


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_values_match_mindspore(name):
    call, origin, value = RECORDED[name]
    dtype, expected = _recorded(value)
    if origin == "ops":
        dtype = tuple(None for _ in dtype) if isinstance(dtype, tuple) else None
    _check(call(), dtype, expected, 1e-5)


@pytest.mark.parametrize("name", sorted(DOCSTRING))
def test_docstring_examples(name):
    call, dtype, expected = DOCSTRING[name]
    _check(call(), dtype, expected, 1e-3 if "Float16" in str(dtype) else 1e-5)


def _elementwise(a, b):
    return (mint.add(a, b, alpha=0.5) * mint.sub(a, b, alpha=2) + mint.logaddexp(a, b) + mint.logaddexp2(a, b)
            + mint.lerp(a, b, 0.25) + mint.sinc(a) + mint.erfc(a) + mint.xlogy(a, mint.exp2(b)) + mint.log2(a * a + 1)
            + mint.log10(b * b + 1) + mint.fmod(a, 0.7) + mint.frac(b) + mint.float_power(a, 2)
            + mint.atanh(a * 0.1) + mint.nan_to_num(a) + mint.clamp(a, -0.5, 0.5) + mint.asinh(a)
            + mint.acosh(b * b + 1.5) + mint.expm1(b)
            + mint.cross(mint.cat([a, b], dim=1)[:, :3], mint.cat([b, a], dim=1)[:, :3], dim=1).sum()
            + mint.cdist(a, b).sum() + mint.addmm(a @ b.T, a, b.T, beta=0.5, alpha=2).sum()
            + mint.baddbmm(mint.unsqueeze(a @ b.T, 0), mint.unsqueeze(a, 0), mint.unsqueeze(b.T, 0), beta=2).sum()
            + mint.addmv(a[:, 0], a @ b.T, b[:, 1]).sum() + mint.dot(a[0], b[1]) + mint.mv(a, b[0]).sum())


def _reductions(a, b):
    values, _ = mint.max(a, 1)
    median, _ = mint.median(b, 0)
    return (mint.sum(a, dim=1, keepdim=True) * mint.mean(b, dim=(0, 1)) + mint.prod(a, 1, True) + values[0]
            + mint.amax(a, 0).sum() + mint.amin(b).sum() + mint.logsumexp(a, 1, keepdim=True)
            + mint.var(a, 1, keepdim=True) + mint.std(b, correction=0) + mint.var_mean(a, 0)[0].sum()
            + mint.std_mean(b)[1] + mint.nansum(a) + median.sum() + mint.trace(a @ b.T) + mint.cumsum(a, 1)
            + mint.max(a) + mint.min(a, b) + mint.norm(a, 1) + mint.linalg.vector_norm(b, 3, dim=0).sum()
            + mint.linalg.norm(a) + mint.cummax(a, 1)[0] + mint.cummin(b, 0)[0].sum(0))


def _shapes(a, b):
    first, second = mint.split(mint.cat([a, b], dim=0), [1, 3], dim=0)
    chunks = mint.chunk(a, 2, 1)
    values, _ = mint.topk(a, 2, dim=1)
    ordered, _ = mint.sort(b, dim=0, descending=True)
    index = Tensor(np.array([[0, 1, 0], [1, 0, 1]]), ms.int64)
    return (mint.stack([a, b], dim=2).sum(2) + first.sum() + second.sum(0) + chunks[-1].sum()
            + mint.flatten(mint.permute(mint.reshape(a, (1, 2, 3)), (2, 0, 1)), 1).sum() + mint.t(b).T
            + mint.transpose(mint.swapaxes(a, 0, 1), 0, 1) + mint.squeeze(mint.unsqueeze(b, 1), 1)
            + mint.narrow(a, 1, 1, 2).sum() + mint.select(b, 0, -1) + mint.index_select(a, 1, Tensor([2, 0, 1]))
            + mint.gather(a, 1, index) + mint.scatter_add(a, 0, index, b) + mint.scatter(b, 1, index[:, :1], a)
            + mint.index_add(a, 1, Tensor([2, 0]), b[:, :2], alpha=3) + values.sum() + ordered
            + mint.roll(a, (1, -1), (0, 1)) + mint.tril(a) + mint.triu(b, 1)
            + mint.diff(a, dim=1, prepend=b[:, :1]).sum() + mint.repeat_interleave(a, 2, 0)[1:3]
            + mint.broadcast_to(b[:1], (2, 3)) + mint.ravel(a)[:3] + mint.diag(mint.diag(a @ b.T)).sum()
            + mint.unbind(b, 0)[1] + mint.where(a > 0, a, b) + mint.meshgrid(a[0], b[:, 0])[1].sum())


RUNNING_MEAN, RUNNING_VAR = Tensor(np.zeros(2)), Tensor(np.ones(2))


def _functional(a, b):
    image = mint.reshape(mint.cat([a, b, a * b, a - b], dim=0), (1, 2, 2, 6))
    weight = mint.reshape(mint.cat([b, a], dim=1), (2, 2, 1, 3))
    labels = Tensor(np.array([2, 0]), ms.int32)
    probabilities = F.softmax(a, dim=1)
    return (F.silu(a).sum() + F.gelu(b).sum() + F.gelu(a, approximate="tanh").sum() + F.elu(a, 0.5).sum()
            + F.selu(b).sum() + F.leaky_relu(a, 0.2).sum() + F.logsigmoid(b).sum() + F.mish(a).sum()
            + F.softplus(a, 2, 1).sum() + F.log_softmax(b, dim=0).sum() + F.glu(mint.cat([a, b], 1), 1).sum()
            + F.hardshrink(a, 0.3).sum() + F.normalize(a).sum() + F.relu6(a * 4).sum()
            + F.cross_entropy(a, labels, label_smoothing=0.1) + F.mse_loss(a, b) + F.l1_loss(a, b)
            + F.smooth_l1_loss(a, b) + F.kl_div(F.log_softmax(a, dim=1), F.softmax(b, dim=1), reduction="batchmean")
            + F.nll_loss(F.log_softmax(b, dim=1), labels) + F.binary_cross_entropy(probabilities, F.softmax(b, dim=1))
            + F.binary_cross_entropy_with_logits(a, F.softmax(b, dim=1)) + F.pad(a, (1, 1), value=0.5).sum()
            + F.conv2d(image, weight, padding=(0, 1)).sum() + F.avg_pool2d(image, 2).sum()
            + F.max_pool2d(image, (1, 2)).sum() + F.adaptive_avg_pool1d(a, 1).sum()
            + F.batch_norm(image, RUNNING_MEAN, RUNNING_VAR, training=True).sum()
            + F.embedding(Tensor(np.array([1, 0, 1])), a).sum()
            + F.adaptive_max_pool1d(a, 2).sum() * F.max_unpool2d(mint.reshape(b, (1, 1, 2, 3)),
                                                                  Tensor(np.array([[[[0, 3, 4], [9, 10, 14]]]])),
                                                                  2, output_size=(4, 6))[0, 0, 2, 3]
            + F.fold(F.unfold(mint.reshape(mint.cat([a, b], 0), (1, 1, 4, 3)), 2, padding=1), (4, 3), 2,
                     padding=1).sum() * F.unfold(mint.reshape(b, (1, 1, 2, 3)), (1, 2))[0, 1, 0]
            + F.adaptive_avg_pool3d(mint.reshape(mint.cat([a, b], 0), (1, 1, 2, 2, 3)), (1, 2, 2)).sum()
            + F.pixel_shuffle(mint.reshape(mint.cat([a, b, b, a], 0), (1, 4, 2, 3)), 2).sum())


@pytest.mark.parametrize("fn", [_elementwise, _reductions, _shapes, _functional])
def test_compiled_and_gradients_against_central_differences(fn):
    check_composition(fn)


@pytest.mark.parametrize("fn", [_elementwise, _reductions])
def test_second_order_gradients(fn):
    check_composition(fn, seed=1, orders=(2,))


def test_embedding_padding_row_gets_no_gradient():
    # MindSpore 2.10's docstring: "the corresponding row of `weight` will not be updated in training"
    weight = Tensor(X.T.copy())
    grad = ms.grad(lambda w: F.embedding(Tensor(np.array([1, 0, 1])), w, padding_idx=1).sum())(weight)
    np.testing.assert_array_equal(grad.asnumpy(), [[1.0, 1.0], [0.0, 0.0], [0.0, 0.0]])
    layer = mint.nn.Embedding(4, 2, padding_idx=1)
    np.testing.assert_array_equal(layer(Tensor(np.array([1]))).asnumpy(), [[0.0, 0.0]])


def test_embedding_table_is_standard_normal():
    # MindSpore 2.10's mint.nn.Embedding draws its table from Normal(1, 0) (sigma 1), not the 0.01 of 'normal'
    ms.set_seed(0)
    table = mint.nn.Embedding(1000, 20).weight.asnumpy()
    assert 0.95 < table.std() < 1.05 and abs(table.mean()) < 0.05


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="'narrow'"):
        mint.narrow(Tensor(X), 1, 2, 5)
    with pytest.raises(ValueError, match="'mm'"):
        mint.mm(Tensor(X[0]), Tensor(X))
    with pytest.raises(ValueError, match="'cross'"):
        mint.cross(Tensor(M), Tensor(M))
    with pytest.raises(ValueError, match="'chunk'"):
        mint.chunk(Tensor(X), 0)
    with pytest.raises(TypeError, match="generator"):
        mint.randn(2, generator=object())
    with pytest.raises(ValueError, match="padding_mode='zeros'"):
        mint.nn.Conv2d(1, 1, 3, padding_mode="reflect")
    with pytest.raises(AttributeError, match="'mindspore.mint.unique_consecutive' is not implemented in npspore"):
        mint.unique_consecutive


def test_names_shared_with_ops_are_the_ops_objects():
    # MindSpore 2.10: mint.matmul is ops.matmul, mint.flip is ops.flip, mint.nn.ReLU is nn.ReLU ...
    assert mint.matmul is ms.ops.matmul and mint.flip is ms.ops.flip and mint.tan is ms.ops.tan
    assert mint.nn.ReLU is ms.nn.ReLU and mint.nn.Cell is ms.nn.Cell
    assert mint.nn.functional.group_norm is ms.ops.group_norm


def test_random_creation_shapes_and_dtypes():
    ms.set_seed(3)
    assert mint.rand(2, 3).shape == (2, 3) and mint.randn((4,)).dtype == ms.float32
    ints = mint.randint(2, 5, (100,))
    assert ints.dtype == ms.int64 and set(np.unique(ints.asnumpy())) <= {2, 3, 4}
    assert sorted(mint.randperm(6).asnumpy().tolist()) == list(range(6))
    assert mint.randn_like(Tensor(X)).shape == (2, 3) and mint.normal(0.0, 2.0, (3, 2)).shape == (3, 2)


class _MintNet(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = mint.nn.Conv2d(1, 2, 3, padding=1)
        self.norm = mint.nn.BatchNorm2d(2)
        self.pool = mint.nn.AvgPool2d(2)
        self.fc = mint.nn.Linear(8, 3)

    def construct(self, x):
        h = self.pool(F.gelu(self.norm(self.conv(x))))
        return self.fc(mint.flatten(h, 1))


def _train(compiled):
    ms.set_seed(5)
    net = _MintNet()
    loss = mint.nn.CrossEntropyLoss()
    optimizer = mint.optim.AdamW(net.trainable_params(), lr=0.01)
    grad_fn = ms.value_and_grad(lambda x, y: loss(net(x), y), None, optimizer.parameters)

    def step(x, y):
        value, grads = grad_fn(x, y)
        optimizer(grads)
        return value

    step = ms.jit(step) if compiled else step
    x = Tensor(np.random.default_rng(0).standard_normal((4, 1, 4, 4)).astype(np.float32))
    y = Tensor(np.array([0, 1, 2, 1]), ms.int32)
    return [float(step(x, y).asnumpy()) for _ in range(4)]


def test_mint_layers_train_the_same_compiled_and_eager():
    eager = _train(compiled=False)
    np.testing.assert_allclose(_train(compiled=True), eager, rtol=1e-5)
    assert eager[-1] < eager[0]


# layer: (constructor arguments, the mint.nn.functional call it must equal; those functions' values are recorded
# from MindSpore 2.10 above)
LAYER_FUNCTIONALS = {
    "ELU": ((0.5,), lambda x: F.elu(x, 0.5)),
    "SELU": ((), F.selu),
    "GLU": ((), lambda x: F.glu(x, -1)),
    "Hardshrink": ((0.3,), lambda x: F.hardshrink(x, 0.3)),
    "Hardsigmoid": ((), F.hardsigmoid),
    "Hardswish": ((), F.hardswish),
    "Hardtanh": ((-0.5, 0.25), lambda x: mint.clamp(x, -0.5, 0.25)),
    "Threshold": ((0.15, 20.0), lambda x: mint.where(x > 0.15, x, 20.0)),
    "LogSigmoid": ((), F.logsigmoid),
    "LogSoftmax": ((1,), lambda x: F.log_softmax(x, 1)),
    "PixelShuffle": ((2,), lambda x: F.pixel_shuffle(x, 2)),
    "Unfold": ((2,), lambda x: F.unfold(x, 2)),
    "AdaptiveAvgPool1d": ((2,), lambda x: F.adaptive_avg_pool1d(x, 2)),
    "AdaptiveAvgPool3d": (((1, 2, 2),), lambda x: F.adaptive_avg_pool3d(x, (1, 2, 2))),
    "AdaptiveMaxPool1d": ((3,), lambda x: F.adaptive_max_pool1d(x, 3)),
    "AvgPool1d": ((2,), lambda x: F.avg_pool1d(x, 2)),
    "ZeroPad2d": ((1,), lambda x: F.pad(x, (1, 1, 1, 1))),
    "ConstantPad1d": (((1, 2), 3.0), lambda x: F.pad(x, (1, 2), value=3.0)),
    "ReflectionPad2d": (((1, 1, 1, 0),), lambda x: F.pad(x, (1, 1, 1, 0), mode="reflect")),
}
LAYER_INPUT_SHAPES = {"PixelShuffle": (1, 4, 2, 3), "AdaptiveAvgPool3d": (2, 2, 3, 4), "AdaptiveMaxPool1d": (1, 2, 6),
                      "AvgPool1d": (1, 2, 6), "AdaptiveAvgPool1d": (1, 2, 6)}


@pytest.mark.parametrize("name", sorted(LAYER_FUNCTIONALS))
def test_functional_layers_apply_their_function(name):
    arguments, functional = LAYER_FUNCTIONALS[name]
    shape = LAYER_INPUT_SHAPES.get(name, (1, 2, 3, 4))
    x = Tensor(np.linspace(-1.05, 1.3, math.prod(shape)).reshape(shape))
    layer = getattr(mint.nn, name)(*arguments)
    expected = functional(x).asnumpy()
    np.testing.assert_allclose(layer(x).asnumpy(), expected, rtol=1e-12)
    np.testing.assert_allclose(ms.jit(lambda t: layer(t))(x).asnumpy(), expected, rtol=1e-12)


def test_functional_layers_take_inputs_and_check_arguments():
    values = Tensor(np.array([[[[5.0, 7.0], [13.0, 15.0]]]], np.float32))
    unpooled = mint.nn.MaxUnpool2d(2)(values, Tensor(np.array([[[[5, 7], [13, 15]]]], np.int64)))
    np.testing.assert_array_equal(unpooled.asnumpy()[0, 0, 1], [0.0, 5.0, 0.0, 7.0])
    assert type(mint.nn.Fold((4, 4), 2)).__name__ == "Fold"
    with pytest.raises(TypeError, match="'Threshold', the argument 'value' is required"):
        mint.nn.Threshold(0.1)
    with pytest.raises(TypeError, match="'ELU', unexpected arguments"):
        mint.nn.ELU(beta=2)
