"""The cases of tests/test_data_nn_fn_breadth.py: ``(key, expression)`` over ``ms``, ``ops``, ``nn``, ``mint``,
``F`` (``ops.functional``), ``np`` and ``Tensor``, evaluated by the test with npspore and by
``tools/observe_mindspore_data_nn_fn.py`` with MindSpore 2.10 (PyNative, CPU)."""

I64 = "ms.int64"
F32 = "ms.float32"
MED = "Tensor(np.array([[9, 3, 4, 5], [5, 2, 7, 4], [8, 1, 3, 6]]), ms.int64)"
SEQ = "Tensor(np.array([0, 1, 2, 3, 4, 5, 6]), ms.int64)"
# multi_head_attention_forward: E = 4, 2 heads, L = 3, S = 2, N = 2 (query, key/value, packed weights, out weights)
X23 = "Tensor(np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]]), ms.float32)"
MHA_Q = "Tensor(np.sin(np.arange(24.0) * 0.3).reshape(3, 2, 4), ms.float32)"
MHA_KV = "Tensor(np.cos(np.arange(16.0) * 0.7).reshape(2, 2, 4), ms.float32)"
MHA_W = ("Tensor(np.sin(np.arange(48.0)).reshape(12, 4) / 2, ms.float32), Tensor(np.cos(np.arange(12.0)) / 4, "
         "ms.float32)")
MHA_OUT = "Tensor(np.cos(np.arange(16.0)).reshape(4, 4) / 2, ms.float32), Tensor(np.arange(4.0) / 10, ms.float32)"
MHA = f"nn_func.multi_head_attention_forward({MHA_Q}, {MHA_KV}, {MHA_KV}, 4, 2, {MHA_W}, "
CASES = [
    # docstring examples of the MindSpore 2.10 pages
    ("argsort_doc1", "ops.argsort(Tensor(np.array([1, 3, 5, 4, 2, 1]), ms.int64))"),
    ("argsort_doc2", "ops.argsort(Tensor(np.array([[2, 1, 3], [6, 4, 3]]), ms.int64), axis=1)"),
    ("argsort_doc3", "ops.argsort(Tensor(np.array([[2, 1, 3], [6, 4, 3]]), ms.int64), axis=1, descending=True)"),
    ("hstack_doc", "ops.hstack((Tensor(np.array([1, 1, 1]), ms.int64), Tensor(np.array([2, 2, 2]), ms.int64)))"),
    ("vstack_doc1", "ops.vstack((Tensor(np.array([1, 2, 3]), ms.int64), Tensor(np.array([4, 5, 6]), ms.int64)))"),
    ("vstack_doc2", "ops.vstack([Tensor(np.array([[1], [2], [3]]), ms.int64), Tensor(np.array([[4], [5], [6]]), "
                    "ms.int64)])"),
    ("atleast_2d_doc1", "ops.atleast_2d(Tensor(1, ms.int64))"),
    ("atleast_2d_doc2", "ops.atleast_2d(Tensor(np.array([[0, 1], [2, 3]]), ms.int64))"),
    ("atleast_2d_doc3", "ops.atleast_2d([Tensor(1, ms.int64), Tensor(np.array([[0, 1], [2, 3]]), ms.int64)])"),
    ("mm_doc", "ops.mm(ops.ones((2, 3)), ops.ones((3, 4))).shape"),
    ("block_diag_doc", "ops.block_diag(Tensor(np.array([[4], [3], [2]]), ms.int32), Tensor(np.array([7, 6, 5]), "
                       "ms.int32), Tensor(1, ms.int32), Tensor(np.array([[5, 4, 3], [2, 1, 0]]), ms.int32), "
                       "Tensor(np.array([[8, 7], [7, 8]]), ms.int32))"),
    ("median_doc1", f"ops.median({MED})"),
    ("median_doc2", f"ops.median({MED}, axis=0)"),
    ("median_doc3", f"ops.median({MED}, axis=0, keepdims=True)"),
    ("hann_doc1", "ops.hann_window(5)"),
    ("hann_doc2", "ops.hann_window(5, periodic=False)"),
    ("diag_embed_doc1", "ops.diag_embed(Tensor(np.arange(1, 10).reshape(3, 3), ms.int64))"),
    ("diag_embed_doc2", "ops.diag_embed(Tensor(np.arange(1, 10).reshape(3, 3), ms.int64), offset=1, dim1=0, dim2=1)"),
    ("sequence_mask_doc1", "ops.sequence_mask(Tensor(np.array([1, 2, 3, 4]), ms.int64), 5)"),
    ("sequence_mask_doc2", "ops.sequence_mask(Tensor(np.array([[1, 3], [2, 0]]), ms.int64), 5)"),
    ("sequence_mask_doc3", "ops.sequence_mask(Tensor(np.array([[1, 3], [2, 4]]), ms.int64))"),
    ("take_doc", "ops.take(Tensor(np.array([[4, 3, 5], [6, 7, 8]]), ms.float32), Tensor(np.array([0, 2, 5]), "
                 "ms.int64))"),
    ("tensor_split_doc1", "ops.tensor_split(Tensor(np.arange(8), ms.int64), 3)"),
    ("tensor_split_doc2", f"ops.tensor_split({SEQ}, 3)"),
    ("tensor_split_doc3", f"ops.tensor_split({SEQ}, (1, 6))"),
    ("tensor_split_doc4", "ops.tensor_split(Tensor(np.arange(14).reshape(2, 7), ms.int64), 3, axis=1)"),
    ("tensor_split_doc5", "ops.tensor_split(Tensor(np.arange(14).reshape(2, 7), ms.int64), (1, 6), axis=1)"),
    ("scatter_doc1", "ops.scatter(input=Tensor(np.array([[1, 2, 3, 4, 5]]), ms.float32), axis=1, "
                     "index=Tensor(np.array([[2, 4]]), ms.int64), src=Tensor(np.array([[8, 8]]), ms.float32))"),
    ("scatter_doc2", "ops.scatter(input=ops.zeros((5, 5), ms.float32), axis=0, index=Tensor(np.array([[0, 0, 0], "
                     "[2, 2, 2], [4, 4, 4]]), ms.int64), src=Tensor(np.arange(1, 10).reshape(3, 3), ms.float32))"),
    ("scatter_doc3", "ops.scatter(input=ops.zeros((5, 5), ms.float32), axis=1, index=Tensor(np.array([[0, 2, 4], "
                     "[0, 2, 4], [0, 2, 4]]), ms.int64), src=Tensor(np.arange(1, 10).reshape(3, 3), ms.float32))"),
    ("intopk_doc", "ops.intopk(Tensor(np.array([[1, 8, 5, 2, 7], [4, 9, 1, 3, 5]]), ms.float32), "
                   "Tensor(np.array([1, 3]), ms.int32), 3)"),
    ("softmin_doc", "ops.softmin(Tensor(np.array([-1, -2, 0, 2, 1]), ms.float16))"),
    ("hardtanh_doc", "F.hardtanh(Tensor(np.array([-1, -2, 0, 2, 1]), ms.float16), min_val=-1.0, max_val=1.0)"),
    ("tanhshrink_doc", "F.tanhshrink(Tensor(np.array([1., 2., 3., 2., 1.]), ms.float32))"),
    ("mint_inverse_doc", "mint.inverse(Tensor(np.array([[1., 2.], [3., 4.]]), ms.float32))"),
    ("mint_bitwise_and_doc", "mint.bitwise_and(Tensor(np.array([0, 0, 1, -1, 1, 1, 1]), ms.int16), "
                             "Tensor(np.array([0, 1, 1, -1, -1, 2, 3]), ms.int16))"),
    ("celu_doc", "nn.CELU()(Tensor(np.array([-2.0, -1.0, 1.0, 2.0]), ms.float32))"),
    ("instance_norm1d_doc", "nn.InstanceNorm1d(3)(Tensor(np.ones([2, 3, 5]), ms.float32)).shape"),
    ("dropout3d_doc", "nn.Dropout3d(p=0.5)(Tensor(np.ones([2, 1, 2, 1, 2]), ms.float32)).shape"),
    ("embedding_lookup_doc", "nn.EmbeddingLookup(4, 2)(Tensor(np.array([[1, 0], [3, 2]]), ms.int32)).shape"),
    # further cases
    ("argsort_float_desc", "ops.argsort(Tensor(np.array([[0.5, -1.0, 2.0], [3.0, 3.5, -2.0]]), ms.float32), 0, True)"),
    ("argsort_bad_axis", "ops.argsort(Tensor(np.array([1.0, 2.0]), ms.float32), axis=1.5)"),
    ("hstack_2d", "ops.hstack([Tensor(np.ones((2, 1)), ms.float32), Tensor(np.zeros((2, 2)), ms.float32)])"),
    ("hstack_bad", "ops.hstack(Tensor(np.ones(2), ms.float32))"),
    ("vstack_scalars", "ops.vstack([Tensor(1.5, ms.float32), Tensor(2.5, ms.float32)])"),
    ("atleast_2d_1d", "ops.atleast_2d(Tensor(np.array([1.5, 2.5]), ms.float32))"),
    ("mm_values", "ops.mm(Tensor(np.array([[1., 2.], [3., 4.]]), ms.float32), Tensor(np.array([[0.5], [-1.]]), "
                  "ms.float32))"),
    ("mm_bad", "ops.mm(Tensor(np.ones(3), ms.float32), Tensor(np.ones((3, 2)), ms.float32))"),
    ("block_diag_float", "ops.block_diag(Tensor(np.array([[1.5, 2.0]]), ms.float32), Tensor(np.array([[3.0], "
                         "[4.0]]), ms.float32))"),
    ("median_float", "ops.median(Tensor(np.array([[0.5, -1.0, 2.0, 7.0], [3.0, 3.5, -2.0, 0.0]]), ms.float32))"),
    ("median_even_dup", "ops.median(Tensor(np.array([2, 1, 2, 1]), ms.int32), axis=0)"),
    ("hann_one", "ops.hann_window(1)"),
    ("hann_f64", "ops.hann_window(4, dtype=ms.float64)"),
    ("hann_bad", "ops.hann_window(0)"),
    ("diag_embed_neg", "ops.diag_embed(Tensor(np.array([1.5, 2.5]), ms.float32), offset=-1)"),
    ("sequence_mask_int32", "ops.sequence_mask(Tensor(np.array([0, 2]), ms.int32), 3)"),
    ("take_2d_index", "ops.take(Tensor(np.arange(6).reshape(2, 3), ms.int32), Tensor(np.array([[5, 0], [1, 1]]), "
                      "ms.int64))"),
    ("tensor_split_more", "ops.tensor_split(Tensor(np.arange(3), ms.int64), 5)"),
    ("tensor_split_list", "ops.tensor_split(Tensor(np.arange(10).reshape(5, 2), ms.float32), [2, 2, 7], axis=0)"),
    ("scatter_int", "ops.scatter(Tensor(np.zeros((2, 3)), ms.int32), -1, Tensor(np.array([[2, 1], [0, 2]]), "
                    "ms.int64), Tensor(np.array([[7, 8], [9, 10]]), ms.int32))"),
    ("intopk_ties", "ops.intopk(Tensor(np.array([[1.0, 2.0, 2.0, 0.5], [3.0, 3.0, 3.0, 3.0]]), ms.float32), "
                    "Tensor(np.array([2, 0]), ms.int32), 1)"),
    ("softmin_axis0", "ops.softmin(Tensor(np.array([[1.0, -2.0], [0.5, 3.0]]), ms.float32), axis=0)"),
    ("hardtanh_f32", "F.hardtanh(Tensor(np.array([-3.0, -0.25, 0.5, 4.0]), ms.float32), -0.5, 2.0)"),
    ("tanhshrink_neg", "F.tanhshrink(Tensor(np.array([-0.5, 0.0, 4.0]), ms.float32))"),
    ("mint_inverse_batched", "mint.inverse(Tensor(np.array([[[2., 0.], [0., 4.]], [[1., 1.], [0., 1.]]]), "
                             "ms.float32))"),
    ("mint_bitwise_or", "mint.bitwise_or(Tensor(np.array([0, 5, 12]), ms.int32), Tensor(np.array([1, 3, 10]), "
                        "ms.int32))"),
    ("mint_bitwise_xor", "mint.bitwise_xor(Tensor(np.array([0, 5, 12]), ms.int32), Tensor(np.array([1, 3, 10]), "
                         "ms.int32))"),
    ("mint_bitwise_and_bool", "mint.bitwise_and(Tensor(np.array([True, False, True])), "
                              "Tensor(np.array([True, True, False])))"),
    ("celu_alpha", "nn.CELU(alpha=0.5)(Tensor(np.array([[-3.0, -0.1], [0.0, 1.5]]), ms.float32))"),
    ("celu_bad", "nn.CELU(alpha=0.0)(Tensor(np.array([1.0]), ms.float32))"),
    ("instance_norm1d_values", "nn.InstanceNorm1d(2)(Tensor(np.array([[[1.0, 2.0, 4.0], [0.5, -0.5, 3.0]]]), "
                               "ms.float32))"),
    ("instance_norm3d_values", "nn.InstanceNorm3d(1)(Tensor(np.arange(8).reshape(1, 1, 2, 2, 2) * 1.5, ms.float32))"),
    ("instance_norm1d_bad", "nn.InstanceNorm1d(2)(Tensor(np.ones((2, 3)), ms.float32))"),
    ("dropout3d_eval", "nn.Dropout3d(p=0.5).set_train(False)(Tensor(np.arange(4.0).reshape(1, 1, 1, 2, 2), "
                       "ms.float32))"),
    ("dropout3d_bad", "nn.Dropout3d(p=1.5)"),
    ("bidense_shape", "nn.BiDense(2, 3, 4)(Tensor(np.ones((5, 2)), ms.float32), Tensor(np.ones((5, 3)), "
                      "ms.float32)).shape"),
    ("embedding_lookup_values", "nn.EmbeddingLookup(3, 2, param_init=Tensor(np.arange(6).reshape(3, 2) * 1.5, "
                                "ms.float32))(Tensor(np.array([[2, 0], [5, -1]]), ms.int32))"),
    ("embedding_lookup_max_norm", "nn.EmbeddingLookup(3, 2, param_init=Tensor(np.array([[3.0, 4.0], [0.3, 0.4], "
                                  "[-6.0, 8.0]]), ms.float32), max_norm=2.0)(Tensor(np.array([0, 1, 2]), ms.int32))"),
    ("embedding_lookup_bad", "nn.EmbeddingLookup(3, 2, target='CPU', sparse=False)"),
    ("bidense_values", "nn.BiDense(2, 3, 2, weight_init=Tensor(np.arange(12).reshape(2, 2, 3) / 4 - 1, ms.float32), "
                       "bias_init=Tensor(np.array([0.5, -0.5]), ms.float32))(Tensor(np.array([[1.0, -2.0], "
                       "[0.5, 3.0]]), ms.float32), Tensor(np.array([[0.0, 1.0, 2.0], [-1.0, 0.5, 1.5]]), ms.float32))"),
    ("pipeline_cell", "nn.PipelineCell(nn.Dense(2, 1, weight_init=Tensor(np.array([[1.0, -2.0]]), ms.float32), "
                      "bias_init='zeros'), 2)(Tensor(np.arange(8.0).reshape(4, 2), ms.float32))"),
    ("pipeline_cell_bad", "nn.PipelineCell(nn.Dense(2, 1), 0)"),
    ("micro_batch_interleaved", "nn.MicroBatchInterleaved(nn.Dense(2, 1, weight_init=Tensor(np.array([[1.0, -2.0]]), "
                                "ms.float32), bias_init='zeros'), 2)(Tensor(np.arange(8.0).reshape(4, 2), ms.float32))"),
    ("ctc_doc", "nn.CTCLoss(blank=0, reduction='none', zero_infinity=False)(Tensor(np.arange(20).reshape((5, 2, 2)), "
                "ms.float32), Tensor(np.ones((2, 3)), ms.int32), Tensor(np.full(2, 5), ms.int32), "
                "Tensor(np.full(2, 2), ms.int32))"),
    ("ctc_doc_single", "nn.CTCLoss(blank=0, reduction='none')(Tensor(np.arange(10).reshape((5, 2)), ms.float32), "
                       "Tensor(np.ones(2), ms.int32), Tensor([5], ms.int32), Tensor([2], ms.int32))"),
    ("ctc_mean", "nn.CTCLoss()(ops.log_softmax(Tensor(np.sin(np.arange(36.0)).reshape(4, 3, 3), ms.float32), 2), "
                 "Tensor(np.array([[1, 2], [2, 2], [1, 0]]), ms.int32), Tensor([4, 3, 4], ms.int32), "
                 "Tensor([2, 2, 0], ms.int32))"),
    ("ctc_none_impossible", "nn.CTCLoss(reduction='none')(ops.log_softmax(Tensor(np.cos(np.arange(18.0)).reshape("
                            "2, 3, 3), ms.float32), 2), Tensor(np.array([[1, 1], [2, 1], [1, 0]]), ms.int32), Tensor([2, 2, 2], "
                            "ms.int32), Tensor([2, 2, 1], ms.int32))"),
    ("ctc_blank_2", "nn.CTCLoss(blank=2, reduction='none')(ops.log_softmax(Tensor(np.sin(np.arange(36.0)).reshape("
                    "4, 3, 3), ms.float32), 2), Tensor(np.array([[0, 1], [1, 1], [0, 0]]), ms.int32), "
                    "Tensor([4, 4, 2], ms.int32), Tensor([2, 1, 2], ms.int32))"),
    ("tanhshrink_layer_doc", "nn.Tanhshrink()(Tensor(np.array([1, 2, 3, 2, 1]), ms.float16))"),
    ("softshrink_doc", "nn.SoftShrink()(Tensor(np.array([[0.5297, 0.7871, 1.1754], [0.7836, 0.6218, -1.1542]]), "
                       "ms.float16))"),
    ("hshrink_doc", "nn.HShrink()(Tensor(np.array([[0.5, 1, 2.0], [0.0533, 0.0776, -2.1233]]), ms.float32))"),
    ("softmax2d_doc", "nn.Softmax2d()(Tensor(np.array([[[[0.1, 0.2]], [[0.3, 0.4]], [[0.6, 0.5]]]]), ms.float32))"),
    ("softshrink_lambd", "nn.SoftShrink(1.0)(Tensor(np.array([-2.0, -0.5, 0.25, 1.5]), ms.float32))"),
    ("hshrink_lambd", "nn.HShrink(0.1)(Tensor(np.array([-2.0, -0.05, 0.25]), ms.float32))"),
    ("softmax2d_3d", "nn.Softmax2d()(Tensor(np.arange(8.0).reshape(2, 2, 2) / 3, ms.float32))"),
    ("softmax2d_bad", "nn.Softmax2d()(Tensor(np.ones((2, 2)), ms.float32))"),
    ("softshrink_bad", "nn.SoftShrink(-1.0)(Tensor(np.ones(2), ms.float32))"),
    ("mha_basic", f"{MHA}None, None, False, 0.0, {MHA_OUT})"),
    ("mha_masks", f"{MHA}None, None, False, 0.0, {MHA_OUT}, attn_mask=Tensor(np.array([[False, True], [False, False], "
                  f"[False, False]])), key_padding_mask=Tensor(np.array([[False, True], [False, False]])), "
                  f"average_attn_weights=False)"),
    ("mha_float_mask", f"{MHA}None, None, False, 0.0, {MHA_OUT}, attn_mask=Tensor(np.array([[0.0, -1.0], [0.5, 0.0], "
                       f"[0.0, 0.0]]), ms.float32))"),
    ("mha_causal", f"{MHA}None, None, False, 0.0, {MHA_OUT}, is_causal=True)"),
    ("mha_zero_attn_bias_kv", f"{MHA}Tensor(np.full((1, 1, 4), 0.3), ms.float32), Tensor(np.full((1, 1, 4), -0.2), "
                              f"ms.float32), True, 0.0, {MHA_OUT})"),
    ("mha_bad_embed", "nn_func.multi_head_attention_forward(Tensor(np.ones((3, 2, 4)), ms.float32), "
                      "Tensor(np.ones((2, 2, 4)), ms.float32), Tensor(np.ones((2, 2, 4)), ms.float32), 6, 2, "
                      "Tensor(np.ones((12, 4)), ms.float32), None, None, None, False, 0.0, "
                      "Tensor(np.ones((4, 4)), ms.float32), None)"),
    ("pyboost_concat", "pyboost.concat_impl([Tensor(np.ones((1, 2)), ms.float32), Tensor(np.zeros((2, 2)), "
                       "ms.float32)], 0)"),
    ("pyboost_softmax", f"pyboost.softmax_impl({X23}, (1,))"),
    ("pyboost_squeeze", "pyboost.squeeze_impl(Tensor(np.arange(3.0).reshape(1, 3, 1), ms.float32), (0,))"),
    ("pyboost_reduce_all", "pyboost.reduce_all_impl(Tensor(np.array([[True, False], [True, True]])), (1,), False)"),
    ("pyboost_reduce_any", "pyboost.reduce_any_impl(Tensor(np.array([[True, False], [False, False]])), (1,), True)"),
    ("pyboost_reduce_max", f"pyboost.reduce_max_impl({X23}, (0,), False)"),
    ("pyboost_isclose", "pyboost.isclose_impl(Tensor(np.array([1.0, 2.0, np.nan]), ms.float32), "
                        "Tensor(np.array([1.0, 2.1, np.nan]), ms.float32), 1e-5, 1e-8, True)"),
    ("pyboost_argmax_with_value", f"pyboost.argmax_with_value_impl({X23}, 1, False)"),
    ("pyboost_argmin_with_value", f"pyboost.argmin_with_value_impl({X23}, 0, True)"),
    ("pyboost_reverse_v2", f"pyboost.reverse_v2_impl({X23}, (0, 1))"),
    ("pyboost_triu", f"pyboost.triu_impl({X23}, 1)"),
    ("pyboost_meshgrid", "pyboost.meshgrid_impl((Tensor(np.arange(2), ms.int32), Tensor(np.arange(3), ms.int32)), "
                         "'ij')"),
    # no MindSpore 2.10 CPU kernel (StackExt, Roll, OneHotExt): last, as a missing kernel fails what follows
    ("pyboost_stack_ext", "pyboost.stack_ext_impl([Tensor(np.ones(2), ms.float32), Tensor(np.zeros(2), ms.float32)], "
                          "1)"),
    ("pyboost_roll", f"pyboost.roll_impl({X23}, (1,), (1,))"),
    ("pyboost_one_hot_ext", "pyboost.one_hot_ext_impl(Tensor(np.array([0, 2]), ms.int64), 3, Tensor(1.0, ms.float32), "
                            "Tensor(0.0, ms.float32), -1)"),
]
