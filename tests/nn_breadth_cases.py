"""The cases of tests/test_nn_breadth_data_nn.py: ``(key, expression)`` over ``ms``, ``nn``, ``np`` and ``Tensor``,
evaluated by the test with npspore and by ``tools/observe_mindspore_nn_breadth.py`` with MindSpore 2.10."""

F32 = "ms.float32"
CASES = [
    # docstring examples of the MindSpore 2.10 pages
    ("rmse_doc", f"nn.RMSELoss()(Tensor(np.array([1, 2, 3]), {F32}), Tensor(np.array([1, 2, 2]), {F32}))"),
    ("dice_doc", f"nn.DiceLoss(smooth=1e-5)(Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), {F32}), "
                 f"Tensor(np.array([[0, 1], [1, 0], [0, 1]]), {F32}))"),
    ("soft_margin_doc", f"nn.SoftMarginLoss()(Tensor(np.array([[0.3, 0.7], [0.5, 0.5]]), {F32}), "
                        f"Tensor(np.array([[-1, 1], [1, -1]]), {F32}))"),
    ("fast_gelu_doc", f"nn.FastGelu()(Tensor(np.array([[-1, 4, -8], [2, -5, 9]]), {F32}))"),
    ("zero_pad_doc", f"nn.ZeroPad2d((1, 1, 2, 0))(Tensor(np.ones(shape=(1, 2, 3, 4)), {F32}))"),
    ("constant_pad_doc", f"nn.ConstantPad2d((-1, 1, 0, 1), 0.5)(Tensor(np.ones(shape=(1, 2, 3, 4)), {F32}))"),
    ("reflection_pad_doc", f"nn.ReflectionPad2d((1, 1, 2, 0))(Tensor(np.array([[[0, 1, 2], [3, 4, 5], [6, 7, 8]]]), "
                           f"{F32}))"),
    ("pixel_shuffle_doc", "nn.PixelShuffle(2)(Tensor(np.arange(3 * 2 * 8 * 4 * 4).reshape((3, 2, 8, 4, 4)), "
                          "ms.int32)).shape"),
    ("tril_doc", "nn.Tril()(Tensor(np.array([[1, 2, 3, 4], [5, 6, 7, 8], [10, 11, 12, 13], [14, 15, 16, 17]])), 1)"),
    ("triu_doc", "nn.Triu()(Tensor(np.array([[1, 2, 3, 4], [5, 6, 7, 8], [10, 11, 12, 13], [14, 15, 16, 17]])), -1)"),
    ("logsumexp_doc", f"nn.ReduceLogSumExp(1, keep_dims=True)(Tensor(np.ones([3, 4, 5, 6]), {F32})).shape"),
    # further cases
    ("rmse_2d", f"nn.RMSELoss()(Tensor(np.array([[1.5, -2.0], [0.25, 4.0]]), {F32}), "
                f"Tensor(np.array([[1.0, 1.0], [0.0, 3.0]]), {F32}))"),
    ("dice_3d", f"nn.DiceLoss(smooth=0.5)(Tensor(np.linspace(-1, 1, 12).reshape(2, 3, 2), {F32}), "
                f"Tensor(np.linspace(0, 1, 12).reshape(2, 3, 2), {F32}))"),
    ("dice_shape", f"nn.DiceLoss()(Tensor(np.ones((2, 3)), {F32}), Tensor(np.ones((3, 2)), {F32}))"),
    ("dice_smooth", "nn.DiceLoss(smooth=0)"),
    ("soft_margin_none", f"nn.SoftMarginLoss(reduction='none')(Tensor(np.array([[0.3, -2.0], [3.0, 0.0]]), {F32}), "
                         f"Tensor(np.array([[1, 1], [-1, 1]]), {F32}))"),
    ("soft_margin_sum", f"nn.SoftMarginLoss(reduction='sum')(Tensor(np.array([0.3, -2.0, 3.0]), {F32}), "
                        f"Tensor(np.array([1, -1, -1]), {F32}))"),
    ("fast_gelu_small", f"nn.FastGelu()(Tensor(np.array([-0.5, 0.0, 0.1, 1.25]), {F32}))"),
    ("zero_pad_int", f"nn.ZeroPad2d(1)(Tensor(np.arange(6).reshape(1, 2, 3), {F32}))"),
    ("constant_pad_int", f"nn.ConstantPad2d(1, -2.0)(Tensor(np.arange(4).reshape(1, 1, 2, 2), {F32}))"),
    ("reflection_pad_4d", f"nn.ReflectionPad2d(1)(Tensor(np.arange(12).reshape(1, 1, 3, 4), {F32}))"),
    ("reflection_pad_too_big", f"nn.ReflectionPad2d(3)(Tensor(np.arange(12).reshape(1, 1, 3, 4), {F32}))"),
    ("zero_pad_bad", "nn.ZeroPad2d((1, 2, 3))"),
    ("pixel_shuffle_values", f"nn.PixelShuffle(2)(Tensor(np.arange(8).reshape(1, 4, 1, 2), {F32}))"),
    ("pixel_shuffle_3d", f"nn.PixelShuffle(2)(Tensor(np.arange(8).reshape(4, 1, 2), {F32}))"),
    ("pixel_shuffle_indivisible", f"nn.PixelShuffle(2)(Tensor(np.ones((1, 6, 2, 2)), {F32}))"),
    ("tril_float", f"nn.Tril()(Tensor(np.arange(1, 7).reshape(2, 3), {F32}))"),
    ("triu_batched", f"nn.Triu()(Tensor(np.arange(1, 13).reshape(2, 2, 3), {F32}), 1)"),
    ("logsumexp_values", f"nn.ReduceLogSumExp((0, 2))(Tensor(np.arange(12).reshape(2, 3, 2) / 4, {F32}))"),
    ("logsumexp_all", f"nn.ReduceLogSumExp(())(Tensor(np.array([[1000.0, 1000.0], [999.0, 0.0]]), {F32}))"),
    # second batch: docstring examples, then further cases
    ("hardtanh_doc", f"nn.Hardtanh(min_val=-1.0, max_val=1.0)(Tensor(np.array([-1, -2, 0, 2, 1]), ms.float16))"),
    ("hardtanh_values", f"nn.Hardtanh(-0.5, 2)(Tensor(np.array([[-1.0, -0.25], [1.5, 3.0]]), {F32}))"),
    ("hardtanh_bad", "nn.Hardtanh(1.0, -1.0)"),
    ("selu_doc", f"nn.SeLU()(Tensor(np.array([[-1.0, 4.0, -8.0], [2.0, -5.0, 9.0]]), {F32}))"),
    ("softmin_doc", "nn.Softmin()(Tensor(np.array([-1, -2, 0, 2, 1]), ms.float16))"),
    ("softmin_axis", f"nn.Softmin(axis=0)(Tensor(np.array([[1.0, -2.0], [0.5, 3.0]]), {F32}))"),
    ("constant_pad1d_doc", f"nn.ConstantPad1d((0, 1), 0.5)(Tensor(np.ones(shape=(1, 2, 3, 4)), {F32}))"),
    ("constant_pad1d_int", f"nn.ConstantPad1d(2, -1.0)(Tensor(np.arange(3).reshape(1, 3), {F32}))"),
    ("reflection_pad1d_doc", f"nn.ReflectionPad1d((3, 1))(Tensor(np.array([[[0, 1, 2, 3], [4, 5, 6, 7]]]), {F32}))"),
    ("constant_pad3d_doc", f"nn.ConstantPad3d(1, 0.5)(Tensor(np.ones(shape=(1, 2, 2, 3)), {F32}))"),
    ("reflection_pad3d_doc", f"nn.ReflectionPad3d(1)(Tensor(np.arange(8).reshape(1, 2, 2, 2), {F32}))"),
    ("adaptive_avg_pool1d_doc", f"nn.AdaptiveAvgPool1d(output_size=2)(Tensor(np.random.randint(1, 10, (1, 3, 6)), "
                                f"{F32})).shape"),
    ("adaptive_avg_pool1d_values", f"nn.AdaptiveAvgPool1d(3)(Tensor(np.arange(12).reshape(1, 2, 6), {F32}))"),
    ("adaptive_avg_pool1d_indivisible", f"nn.AdaptiveAvgPool1d(3)(Tensor(np.ones((2, 3, 4)), {F32}))"),
    ("central_crop_doc", f"nn.CentralCrop(central_fraction=0.5)(Tensor(np.ones(shape=(4, 3, 4, 4)), {F32})).shape"),
    ("central_crop_values", f"nn.CentralCrop(0.6)(Tensor(np.arange(25).reshape(1, 5, 5), {F32}))"),
    ("central_crop_bad", "nn.CentralCrop(1.5)"),
]
