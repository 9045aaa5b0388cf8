"""Print MindSpore 2.10's outputs for the ``ops.operations`` primitives A-L of tests/test_primitives_a_l.py.

Run with a virtualenv holding the real MindSpore (never the project's): ``/work/msvenv/bin/python
tools/observe_mindspore_primitives_a_l.py``. Each case is a MindSpore docstring example or one more case; the
printed ``repr`` of each result is pasted into ``tests/test_primitives_a_l.py``'s ``MINDSPORE_VALUES``. An
optimizer case prints its Parameters after the update (the primitive writes them in place).
"""
import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor
from mindspore.ops import operations as P

VAR = np.array([[0.6, 0.4], [0.1, 0.5]], np.float32)
ACCUM = np.array([[0.6, 0.5], [0.2, 0.6]], np.float32)
GRAD = np.array([[0.3, -0.7], [-0.1, 0.8]], np.float32)


def _updated(prim, n_params, *others, params=(VAR, ACCUM, ACCUM * 0.5, ACCUM * 0.25)):
    """Call ``prim`` on ``n_params`` Parameters (the first of ``params``) and ``others``; the Parameters after."""
    parameters = [Parameter(Tensor(p.copy()), name=f"p{i}") for i, p in enumerate(params[:n_params])]
    prim(*parameters, *others)
    return [p.asnumpy().tolist() for p in parameters]


def _t(value, dtype=np.float32):
    return Tensor(np.array(value, dtype))


SPARSE_VAR = np.array([[0.6, 0.4], [0.1, 0.5], [0.3, -0.2]], np.float32)
SPARSE_GRAD = np.array([[0.3, -0.7], [0.5, 0.1], [0.2, 0.2]], np.float32)


def _sparse_adam(use_nesterov, prim=P.FusedSparseAdam):
    return _updated(prim(use_nesterov=use_nesterov), 3, _t(0.9), _t(0.999), _t(0.1), _t(0.9), _t(0.999),
                    _t(1e-8), Tensor(SPARSE_GRAD), _t([0, 2, 0], np.int32),
                    params=(SPARSE_VAR, np.full((3, 2), 0.2, np.float32), np.full((3, 2), 0.3, np.float32)))


OPTIMIZER_CASES = {
    "fused_sparse_adam": lambda: _sparse_adam(False),
    "fused_sparse_adam_nesterov": lambda: _sparse_adam(True),
    "fused_sparse_lazy_adam": lambda: _sparse_adam(False, P.FusedSparseLazyAdam),
    "fused_sparse_lazy_adam_nesterov": lambda: _sparse_adam(True, P.FusedSparseLazyAdam),
    "apply_ada_max": lambda: _updated(P.ApplyAdaMax(), 3, _t(0.9), _t(0.001), _t(0.9), _t(0.99), _t(1e-10),
                                      Tensor(GRAD)),
    "apply_ada_max_numbers": lambda: _updated(P.ApplyAdaMax(), 3, 0.5, 0.1, 0.8, 0.9, 1e-7, Tensor(GRAD)),
    "apply_adagrad_v2": lambda: _updated(P.ApplyAdagradV2(epsilon=1e-6), 2, _t(0.001), Tensor(GRAD)),
    "apply_adagrad_v2_no_slots": lambda: _updated(P.ApplyAdagradV2(epsilon=0.1, update_slots=False), 2, 0.5,
                                                  Tensor(GRAD)),
    "apply_adam_with_amsgrad": lambda: _updated(P.ApplyAdamWithAmsgrad(), 4, _t(0.3), _t(0.3), _t(0.001),
                                                Tensor(GRAD)),
    "apply_adam_with_amsgrad_betas": lambda: _updated(P.ApplyAdamWithAmsgrad(beta1=0.5, beta2=0.6, epsilon=0.1), 4,
                                                      _t(0.5), _t(0.6), _t(0.2), Tensor(GRAD)),
    "apply_add_sign": lambda: _updated(P.ApplyAddSign(), 2, _t(0.001), _t(1.0), _t(0.99), _t(0.9), Tensor(GRAD)),
    "apply_add_sign_numbers": lambda: _updated(P.ApplyAddSign(), 2, 0.5, 2.0, 0.5, 0.3, Tensor(GRAD)),
    "apply_power_sign": lambda: _updated(P.ApplyPowerSign(), 2, _t(0.001), _t(np.e), _t(0.99), _t(0.9),
                                         Tensor(GRAD)),
    "apply_power_sign_numbers": lambda: _updated(P.ApplyPowerSign(), 2, 0.5, 2.0, 0.5, 0.3, Tensor(GRAD)),
    "apply_keras_momentum": lambda: _updated(P.ApplyKerasMomentum(), 2, _t(0.001), Tensor(GRAD), _t(0.99)),
    "apply_keras_momentum_nesterov": lambda: _updated(P.ApplyKerasMomentum(use_nesterov=True), 2, _t(0.1),
                                                      Tensor(GRAD), _t(0.9)),
    "apply_proximal_adagrad": lambda: _updated(P.ApplyProximalAdagrad(), 2, 0.01, 0.0, 0.0, Tensor(GRAD)),
    "apply_proximal_adagrad_l1_l2": lambda: _updated(P.ApplyProximalAdagrad(), 2, _t(0.5), _t(0.3), _t(0.2),
                                                     Tensor(GRAD)),
    "apply_ftrl": lambda: _updated(P.ApplyFtrl(), 3, Tensor(GRAD), 0.001, 0.0, 0.0, -0.5),
    "apply_ftrl_l1_l2": lambda: _updated(P.ApplyFtrl(), 3, Tensor(abs(GRAD)), _t(0.5), _t(0.05), _t(0.1), _t(-0.5)),
    "apply_adagrad_da": lambda: _updated(P.ApplyAdagradDA(), 3, Tensor(abs(GRAD)), _t(0.001), _t(0.001), _t(0.001),
                                         _t(2, np.int32)),
    "apply_adagrad_da_l1": lambda: _updated(P.ApplyAdagradDA(), 3, Tensor(abs(GRAD)), _t(0.5), _t(0.1), _t(0.0),
                                            _t(3, np.int32)),
    "adam_no_update_param": lambda: [v.asnumpy().tolist() for v in [P.AdamNoUpdateParam()(
        *[Parameter(Tensor(p.copy()), name=f"q{i}") for i, p in enumerate((ACCUM, ACCUM * 0.5))],
        _t(0.9), _t(0.999), _t(0.001), _t(0.9), _t(0.999), _t(1e-8), Tensor(GRAD))]],
    "adam_no_update_param_nesterov": lambda: [v.asnumpy().tolist() for v in [P.AdamNoUpdateParam(use_nesterov=True)(
        *[Parameter(Tensor(p.copy()), name=f"r{i}") for i, p in enumerate((ACCUM, ACCUM * 0.5))],
        _t(0.5), _t(0.6), _t(0.1), _t(0.5), _t(0.6), _t(1e-3), Tensor(GRAD))]],
    "fused_cast_adam_weight_decay_doc": lambda: _updated(
        P.FusedCastAdamWeightDecay(), 3, 0.001, 0.9, 0.999, 1e-8, 0.0, Tensor(np.ones([2, 2]), ms.float16), 1.0,
        params=(np.ones([2, 2], np.float16), np.ones([2, 2], np.float32), np.ones([2, 2], np.float32))),
    "fused_cast_adam_weight_decay_f16": lambda: _updated(
        P.FusedCastAdamWeightDecay(), 3, 0.1, 0.5, 0.6, 1e-3, 0.2, Tensor(GRAD.astype(np.float16)), 2.0,
        params=(VAR.astype(np.float16), ACCUM, ACCUM * 0.5)),
    "fused_cast_adam_weight_decay_f32": lambda: _updated(
        P.FusedCastAdamWeightDecay(), 3, 0.1, 0.5, 0.6, 1e-3, 0.2, Tensor(GRAD.astype(np.float16)), 0.5),
}

X23 = np.array([[0.5, -1.0, 2.0], [3.0, 0.25, -0.5]], np.float32)
DOUT = np.arange(18).reshape(1, 2, 3, 3).astype(np.float32) / 10
WEIGHT = np.arange(8).reshape(2, 1, 2, 2).astype(np.float32) - 3


def _lstm_inputs(input_size, hidden, layers, directions, seq_len=3, batch=2):
    """Deterministic x, h, c, w for ``P.LSTM`` (sines of different frequencies), as NumPy arrays."""
    size = 0
    for layer in range(layers):
        size += (4 * hidden * ((input_size if layer == 0 else hidden * directions) + hidden) + 8 * hidden) * directions
    wave = lambda n, k: np.sin(np.arange(n) * k).astype(np.float32)  # noqa: E731
    return (wave(seq_len * batch * input_size, 0.7).reshape(seq_len, batch, input_size),
            wave(layers * directions * batch * hidden, 1.3).reshape(layers * directions, batch, hidden) * 0.5,
            wave(layers * directions * batch * hidden, 2.1).reshape(layers * directions, batch, hidden) * 0.5,
            wave(size, 0.37).reshape(size, 1, 1) * 0.6)


LSTM_SETTINGS = {"lstm_one_layer": (3, 2, 1, False), "lstm_two_layers": (2, 2, 2, False),
                 "lstm_bidirectional": (3, 2, 1, True)}


def _lstm(setting):
    input_size, hidden, layers, bidirectional = LSTM_SETTINGS[setting]
    inputs = _lstm_inputs(input_size, hidden, layers, 2 if bidirectional else 1)
    out = P.LSTM(input_size, hidden, layers, True, bidirectional, 0.0)(*[Tensor(a) for a in inputs])
    return ms.ops.concat([out[0].reshape(-1), out[1].reshape(-1), out[2].reshape(-1)])


CTC_DOC = (np.array([[[0.3, 0.6, 0.6]], [[0.9, 0.4, 0.2]]], np.float32), np.array([[0, 1]], np.int32),
           np.array([2], np.int32), np.array([1], np.int32))
_LOGITS = np.sin(np.arange(40) * 0.9).reshape(5, 2, 4).astype(np.float32)
CTC_MORE = (_LOGITS - np.log(np.exp(_LOGITS).sum(-1, keepdims=True)), np.array([[1, 2, 2], [3, 1, 0]], np.int32),
            np.array([5, 4], np.int32), np.array([3, 2], np.int32))
CTC_IMPOSSIBLE = (CTC_MORE[0][:2], np.array([[1, 1], [2, 0]], np.int32), np.array([2, 2], np.int32),
                  np.array([2, 0], np.int32))


def _ctc(inputs, output, **options):
    return P.CTCLossV2(**options)(*[Tensor(a) for a in inputs])[output]


Z22 = np.array([[1 + 2j, -3.5 - 1j], [0.5j, 2]], np.complex64)
SPD = np.array([[4.0, 2.0, 0.6], [2.0, 5.0, 1.0], [0.6, 1.0, 3.0]], np.float32)
CHOLESKY_FACTOR = np.array([[2, 0, 0], [4, 1, 0], [-1, 1, 2]], np.float32)
GLU_DOC = np.array([0.3220, 0.9545, 0.7879, 0.0975, 0.3698, 0.5135, 0.5740, 0.3435, 0.1895, 0.8764, 0.4980, 0.9673,
                    0.9879, 0.6988, 0.9022, 0.9304, 0.1558, 0.0153, 0.1559, 0.9852], np.float32).reshape([2, 2, 5])
ROWS = np.array([[1, 2], [3, 4], [5, 6]], np.float32)
FFT_IN = np.array([2, 1, 2], np.complex64)
RFFT_IN = np.array([[2, 1, 2], [3, 1, 6]], np.float32)
RFFT_OUT = np.fft.rfft2(RFFT_IN).astype(np.complex64)
IMAGE = np.arange(24).reshape(1, 2, 3, 4).astype(np.float32)
CASES = {
    "histogram_doc": lambda: P.Histogram(bins=4, min=0.0, max=3.0)(Tensor([1., 2, 1])),
    "histogram_own_range": lambda: P.Histogram(bins=3)(Tensor(np.array([-1.0, 0.5, 2.0, 2.0, 5.0], np.float32))),
    "histogram_outside": lambda: (
        P.Histogram(bins=2, min=0.0, max=1.0)(Tensor(np.array([-1.0, 0.5, 1.0, 2.0], np.float32)))),
    "bincount_doc": lambda: (
        P.Bincount()(Tensor(np.array([1, 2, 2, 3, 3, 3, 4, 4, 4, 4]), ms.int32), Tensor(5, ms.int32)),
                                         Tensor(np.ones(10), ms.float32)),
    "bincount_weights": lambda: P.Bincount()(Tensor(np.array([0, 3, 1, 3, 7]), ms.int32), Tensor(4, ms.int32),
                                             Tensor(np.array([0.5, 1.0, 2.0, 0.25, 9.0]), ms.float32)),
    "bernoulli_doc_p1": lambda: P.Bernoulli()(Tensor([0.1, 0.2, 0.3], ms.float32), Tensor([1.0])),
    "bernoulli_doc_p01": lambda: (
        P.Bernoulli()(Tensor([0.1, 0.2, 0.3], ms.float32), Tensor([0.0, 1.0, 1.0], ms.float32))),
    "log_normal_reverse_doc_shape": lambda: (
        str(P.LogNormalReverse(2.0, 1.0)(Tensor(np.random.randn(3, 4), ms.float64)).shape)),
    "im2col_doc_shape": lambda: str(P.Im2Col(ksizes=3, strides=1, dilations=1)(
        Tensor(np.random.rand(4, 4, 32, 32), ms.float64)).shape),
    "im2col_small": lambda: P.Im2Col(ksizes=2)(Tensor(IMAGE)),
    "im2col_options": lambda: P.Im2Col(ksizes=(2, 3), strides=(2, 1), dilations=(1, 2), pads=(1, 0))(
        Tensor(np.arange(20).reshape(1, 1, 4, 5).astype(np.float32))),
    "fft_doc": lambda: P.FFTWithSize(signal_ndim=1, inverse=False, real=False)(Tensor(FFT_IN)),
    "ifft_doc": lambda: (
        P.FFTWithSize(signal_ndim=1, inverse=True, real=False)(Tensor(np.fft.fft(FFT_IN).astype(np.complex64)))),
    "rfft2_doc": lambda: P.FFTWithSize(signal_ndim=2, inverse=False, real=True)(Tensor(RFFT_IN)),
    "irfft2_doc": lambda: P.FFTWithSize(signal_ndim=2, inverse=True, real=True)(Tensor(RFFT_OUT)),
    "irfft2_sizes": lambda: (
        P.FFTWithSize(signal_ndim=2, inverse=True, real=True, signal_sizes=(2, 3))(Tensor(RFFT_OUT))),
    "fft_ortho_batch": lambda: P.FFTWithSize(1, False, False, norm="ortho")(Tensor(RFFT_IN.astype(np.complex64))),
    "rfft_two_sided_forward": lambda: P.FFTWithSize(1, False, True, norm="forward", onesided=False)(Tensor(RFFT_IN)),
    "bartlett_window_doc": lambda: P.BartlettWindow(periodic=True, dtype=ms.float32)(Tensor(5, ms.int32)),
    "bartlett_window_symmetric_f64": lambda: P.BartlettWindow(periodic=False, dtype=ms.float64)(Tensor(6, ms.int64)),
    "blackman_window_doc": lambda: P.BlackmanWindow(periodic=True, dtype=ms.float32)(Tensor(10, ms.int32)),
    "blackman_window_symmetric": lambda: P.BlackmanWindow(periodic=False)(Tensor(5, ms.int32)),
    "hamming_window_doc_periodic": lambda: P.HammingWindow(periodic=True)(Tensor(np.array([6]).astype(np.int32))),
    "hamming_window_doc_symmetric": lambda: P.HammingWindow(periodic=False)(Tensor(np.array([7]).astype(np.int32))),
    "hamming_window_alpha_beta": lambda: P.HammingWindow(alpha=0.5, beta=0.5, dtype=ms.float64)(Tensor(np.array([4]))),
    "accumulate_n_v2_doc": lambda: P.AccumulateNV2()((Tensor(np.array([1, 2, 3]), ms.float32),
                                                      Tensor(np.array([4, 5, 6]), ms.float32)) * 2),
    "accumulate_n_v2_int": lambda: P.AccumulateNV2()([Tensor(np.array([[1, 2]], np.int32))] * 3),
    "glu_doc": lambda: P.GLU(axis=0)(Tensor(GLU_DOC)),
    "glu_last": lambda: P.GLU()(Tensor(GLU_DOC[:, :, :4])),
    "log_space_doc": lambda: (
        P.LogSpace(steps=10, base=10, dtype=ms.float32)(Tensor(1, ms.float32), Tensor(10, ms.float32))),
    "log_space_base2": lambda: (
        P.LogSpace(steps=5, base=2, dtype=ms.float64)(Tensor(-1.0, ms.float32), Tensor(3.0, ms.float32))),
    "data_format_dim_map_doc": lambda: P.DataFormatDimMap()(Tensor([0, 1, 2, 3], ms.int32)),
    "data_format_dim_map_negative": lambda: P.DataFormatDimMap("NCHW", "NHWC")(Tensor([-1, -4, 2], ms.int32)),
    "data_format_vec_permute_doc": lambda: P.DataFormatVecPermute()(Tensor(np.array([1, 2, 3, 4]).astype(np.int32))),
    "data_format_vec_permute_pairs": lambda: P.DataFormatVecPermute("NCHW", "NHWC")(
        Tensor(np.arange(8).reshape(4, 2).astype(np.int32))),
    "check_numerics_doc": lambda: P.CheckNumerics()(Tensor(np.array([[1, 3], [2, 4]], dtype=np.float32))),
    "check_numerics_nan": lambda: P.CheckNumerics()(Tensor(np.array([1.0, np.nan], dtype=np.float32))),
    "inplace_update_v2_doc": lambda: P.InplaceUpdateV2()(Tensor(ROWS), (0, 1),
                                                         Tensor(np.array([[0.5, 1.0], [1.0, 1.5]]), ms.float32)),
    "inplace_update_v2_int": lambda: P.InplaceUpdateV2()(Tensor(ROWS), 2, Tensor(np.array([[7.0, 8.0]], np.float32))),
    "index_fill_doc": lambda: P.IndexFill()(Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]).astype(np.float32)), 1,
                                            Tensor([0, 2], ms.int32), Tensor(-2.0, ms.float32)),
    "index_fill_dim0_int": lambda: P.IndexFill()(Tensor(np.arange(6).reshape(3, 2).astype(np.int32)), Tensor(0),
                                                 Tensor([1], ms.int32), Tensor(9, ms.int32)),
    "lower_bound_doc": lambda: P.LowerBound(out_type=ms.int32)(Tensor(np.arange(12).reshape(3, 4).astype(np.int8)),
                                                               Tensor(np.array([[3], [4], [8]]).astype(np.int8))),
    "lower_bound_int64": lambda: P.LowerBound(out_type=ms.int64)(Tensor(np.array([[1.0, 2.0, 2.0, 5.0]], np.float32)),
                                                                 Tensor(np.array([[2.0, 0.0, 6.0]], np.float32))),
    "cholesky_doc": lambda: P.Cholesky()(Tensor(np.array([[1.0, 1.0], [1.0, 2.0]]), ms.float32)),
    "cholesky_upper_batch": lambda: (
        P.Cholesky(upper=True)(Tensor(np.stack([SPD, SPD * 2 + np.eye(3, dtype=np.float32)])))),
    "cholesky_solve_doc": lambda: P.CholeskySolve()(Tensor(np.eye(3, dtype=np.float32)), Tensor(CHOLESKY_FACTOR)),
    "cholesky_solve_upper": lambda: P.CholeskySolve(upper=True)(Tensor(SPD[:, :2]), Tensor(CHOLESKY_FACTOR.T.copy())),
    "cholesky_inverse_doc": lambda: P.CholeskyInverse()(Tensor(np.array([[1, 1], [1, 2]]), ms.float32)),
    "cholesky_inverse_upper": lambda: P.CholeskyInverse(upper=True)(Tensor(CHOLESKY_FACTOR.T.copy())),
    "complex_doc": lambda: P.Complex()(Tensor(np.array([1]), ms.float32), Tensor(np.array([2]), ms.float32)),
    "complex_f64": lambda: P.Complex()(Tensor(np.array([1.5, -2.0])), Tensor(np.array([0.25, 3.0]))),
    "imag_doc": lambda: P.Imag()(ms.tensor(1.3 + 0.4j, ms.complex64)),
    "imag_matrix": lambda: P.Imag()(Tensor(Z22)),
    "imag_float": lambda: P.Imag()(Tensor(np.array([1.5], np.float32))),
    "angle_matrix": lambda: P.Angle()(Tensor(Z22)),
    "angle_f64": lambda: P.Angle()(Tensor(np.array([-1 + 0j, 1j], np.complex128))),
    "conj_matrix": lambda: P.Conj()(Tensor(Z22)),
    "conj_float": lambda: P.Conj()(Tensor(np.array([1.5], np.float32))),
    "complex_abs_doc": lambda: P.ComplexAbs()(Tensor(3 + 4j, ms.complex64)),
    "complex_abs_matrix": lambda: P.ComplexAbs()(Tensor(Z22)),
    "conjugate_transpose_doc": lambda: P.ConjugateTranspose()(
        Tensor(np.array([[1 + 1j, 2 + 2j], [3 + 3j, 4 + 4j]]), ms.complex64), (1, 0)),
    "conjugate_transpose_3d": lambda: P.ConjugateTranspose()(Tensor(Z22.reshape(1, 2, 2)), (2, 0, 1)),
    "ctc_loss_v2_doc_loss": lambda: _ctc(CTC_DOC, 0),
    "ctc_loss_v2_doc_alpha": lambda: _ctc(CTC_DOC, 1),
    "ctc_loss_v2_loss": lambda: _ctc(CTC_MORE, 0),
    "ctc_loss_v2_alpha": lambda: _ctc(CTC_MORE, 1),
    "ctc_loss_v2_impossible_and_empty": lambda: _ctc(CTC_IMPOSSIBLE, 0),
    "ctc_loss_v2_zero_infinity": lambda: _ctc(CTC_IMPOSSIBLE, 0, zero_infinity=True),
    "ctc_loss_v2_blank_last": lambda: _ctc(CTC_MORE[:1] + (CTC_MORE[1] % 3,) + CTC_MORE[2:], 0, blank=3),
    "equal_count_doc": lambda: (
        P.EqualCount()(Tensor(np.array([1, 2, 3]), ms.int32), Tensor(np.array([1, 2, 4]), ms.int32))),
    "equal_count_float": lambda: P.EqualCount()(Tensor(X23), Tensor(np.where(X23 > 0, X23, 0))),
    **{name: (lambda name=name: _lstm(name)) for name in LSTM_SETTINGS},
    # no CPU kernel in MindSpore 2.10 for EuclideanNorm, Fmin, Fills: printed as errors, their docstrings' values
    # are the tests'
    "euclidean_norm_doc": lambda: P.EuclideanNorm(keep_dims=True)(Tensor(np.array([[3, 5], [4, 12]]).astype(np.int32)),
                                                                  Tensor([0])),
    "euclidean_norm_float": lambda: P.EuclideanNorm()(Tensor(X23), Tensor([1])),
    "approximate_equal_doc": lambda: P.ApproximateEqual(2.)(Tensor(np.array([1, 2, 3]), ms.float32),
                                                            Tensor(np.array([2, 3, 6]), ms.float32)),
    "approximate_equal_default": lambda: P.ApproximateEqual()(Tensor(X23), Tensor(X23 + 1e-6)),
    "fmax_doc": lambda: (
        P.Fmax()(Tensor(np.array([1.0, 5.0, 3.0]), ms.float32), Tensor(np.array([4.0, 2.0, 6.0]), ms.float32))),
    "fmax_nan": lambda: P.Fmax()(Tensor(np.array([np.nan, 5.0, np.nan]), ms.float32),
                                 Tensor(np.array([4.0, np.nan, np.nan]), ms.float32)),
    "fmin_doc": lambda: (
        P.Fmin()(Tensor(np.array([1.0, 5.0, 3.0]), ms.float32), Tensor(np.array([4.0, 2.0, 6.0]), ms.float32))),
    "fmin_nan": lambda: P.Fmin()(Tensor(np.array([np.nan, 5.0, np.nan]), ms.float32),
                                 Tensor(np.array([4.0, np.nan, np.nan]), ms.float32)),
    "invert_doc": lambda: P.Invert()(Tensor(np.array([25, 4, 13, 9]), ms.int16)),
    "invert_uint8": lambda: P.Invert()(Tensor(np.array([0, 1, 254], np.uint8))),
    "fills_doc": lambda: P.Fills()(Tensor(np.arange(4).reshape((2, 2)).astype('float32')), float(1)),
    "fills_int": lambda: P.Fills()(Tensor(np.arange(3).astype(np.int32)), Tensor(2.7, ms.float32)),
    "identity_n_doc": lambda: P.IdentityN()([Tensor(np.array([1, 2, 3, 4]), ms.int64),
                                             Tensor(np.array([4, 3, 1, 1]), ms.int64)])[1],
    "invert_permutation_doc": lambda: P.InvertPermutation()((3, 4, 0, 2, 1)),
    "invert_permutation_list": lambda: P.InvertPermutation()([1, 2, 0]),
    "conv2d_backprop_input_valid": lambda: P.Conv2DBackpropInput(1, 2)(Tensor(DOUT), Tensor(WEIGHT), (1, 1, 4, 4)),
    "conv2d_backprop_input_same_stride": lambda: P.Conv2DBackpropInput(1, 2, pad_mode="same", stride=2)(
        Tensor(DOUT), Tensor(WEIGHT), (1, 1, 6, 6)),
    "conv2d_backprop_input_pad": lambda: P.Conv2DBackpropInput(1, 2, pad_mode="pad", pad=(1, 0, 0, 1), dilation=2)(
        Tensor(DOUT), Tensor(WEIGHT), (1, 1, 4, 4)),
    "conv2d_transpose_same": lambda: (
        P.Conv2DTranspose(1, 2, pad_mode="same")(Tensor(DOUT), Tensor(WEIGHT), (1, 1, 3, 3))),
    "conv2d_transpose_doc_corner": lambda: P.Conv2DTranspose(out_channel=32, kernel_size=3)(
        Tensor(np.ones([10, 32, 30, 30]), ms.float32), Tensor(np.ones([32, 32, 3, 3]), ms.float32),
        (10, 32, 32, 32))[9, 31, :4, :4],
}


if __name__ == "__main__":
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    for name, case in OPTIMIZER_CASES.items():
        try:
            value = case()
        except Exception as error:  # noqa: BLE001 - a case MindSpore's CPU build rejects is printed as such
            value = f"{type(error).__name__}: {str(error).splitlines()[0]}"
        print(f"    {name!r}: {value!r},")
    for name, case in CASES.items():
        try:
            value = case()
            if isinstance(value, Tensor):
                value = (value.asnumpy().tolist(), str(value.dtype))
        except Exception as error:  # noqa: BLE001 - a case MindSpore's CPU build rejects is printed as such
            value = f"{type(error).__name__}: {' '.join(str(error).strip().splitlines()[:1])[:150]}"
        print(f"    {name!r}: {value!r},")
