"""The optimizer cases of ``tests/test_optim.py``, written against an ``nn`` module so that
``tools/observe_mindspore_optim.py`` runs the same cases on the real MindSpore."""
import numpy as np

W0 = np.array([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]], np.float32)
B0 = np.array([0.01, -0.02], np.float32)
GRADS = [
    (np.array([[0.5, -1.0, 0.25], [2.0, -0.5, 1.5]], np.float32), np.array([0.3, -0.6], np.float32)),
    (np.array([[-0.3, 0.8, 0.1], [0.6, 1.2, -0.9]], np.float32), np.array([-0.2, 0.4], np.float32)),
    (np.array([[1.1, 0.2, -0.4], [-0.7, 0.3, 0.9]], np.float32), np.array([0.5, 0.1], np.float32)),
]


def optimizers(nn, Tensor):
    """Factories ``name -> f(dense) -> optimizer`` over a Dense(3, 2), for MindSpore's or npspore's ``nn``."""
    return {
        "sgd": lambda n: nn.SGD(n.trainable_params(), learning_rate=0.1),
        "sgd_mom": lambda n: nn.SGD(n.trainable_params(), learning_rate=0.1, momentum=0.9, dampening=0.1,
                                    weight_decay=0.01),
        "sgd_nesterov": lambda n: nn.SGD(n.trainable_params(), learning_rate=0.1, momentum=0.9, nesterov=True),
        "momentum": lambda n: nn.Momentum(n.trainable_params(), learning_rate=0.1, momentum=0.9),
        "momentum_loss_scale": lambda n: nn.Momentum(n.trainable_params(), learning_rate=0.1, momentum=0.9,
                                                     weight_decay=0.01, loss_scale=2.0),
        "momentum_lr_list": lambda n: nn.Momentum(n.trainable_params(), learning_rate=[0.1, 0.05, 0.01, 0.001],
                                                  momentum=0.9),
        "momentum_lr_tensor": lambda n: nn.Momentum(
            n.trainable_params(), learning_rate=Tensor(np.array([0.2, 0.1, 0.05, 0.02], np.float32)), momentum=0.9),
        "momentum_lr_schedule": lambda n: nn.Momentum(n.trainable_params(),
                                                      learning_rate=nn.ExponentialDecayLR(0.1, 0.5, 1), momentum=0.9),
        "momentum_groups": lambda n: nn.Momentum([{"params": [n.weight], "lr": 0.05, "weight_decay": 0.01},
                                                  {"params": [n.bias]}], learning_rate=0.1, momentum=0.9),
        "adam": lambda n: nn.Adam(n.trainable_params(), learning_rate=0.01),
        "adam_nesterov_wd": lambda n: nn.Adam(n.trainable_params(), learning_rate=0.01, use_nesterov=True,
                                              weight_decay=0.1),
        "adam_amsgrad": lambda n: nn.Adam(n.trainable_params(), learning_rate=0.01, use_amsgrad=True, beta1=0.8,
                                          beta2=0.9, eps=1e-6),
        "adam_weight_decay": lambda n: nn.AdamWeightDecay(n.trainable_params(), learning_rate=0.01, weight_decay=0.1),
        "rmsprop": lambda n: nn.RMSProp(n.trainable_params(), learning_rate=0.01),
        "rmsprop_centered": lambda n: nn.RMSProp(n.trainable_params(), learning_rate=0.01, momentum=0.5, centered=True,
                                                 epsilon=1e-6),
        "adagrad": lambda n: nn.Adagrad(n.trainable_params(), learning_rate=0.1),
        "momentum_group_schedule": lambda n: nn.Momentum([{"params": [n.weight], "lr": nn.WarmUpLR(0.1, 2)},
                                                          {"params": [n.bias], "weight_decay": 0.1}],
                                                         learning_rate=0.05, momentum=0.9),
        "adam_weight_decay_schedule": lambda n: nn.Adam(n.trainable_params(), learning_rate=0.01,
                                                        weight_decay=nn.ExponentialDecayLR(0.1, 0.5, 1)),
        "adam_weight_decay_groups": lambda n: nn.AdamWeightDecay(
            [{"params": [n.weight], "weight_decay": 0.1, "lr": 0.02}, {"params": [n.bias]}], learning_rate=0.01),
    }


def adamw_optimizers(AdamW):
    """Factories ``name -> f(dense) -> optimizer`` of the AdamW cases, for MindSpore's
    ``experimental.optim.AdamW`` or ``npspore.nn.AdamW``."""
    return {
        "default": lambda n: AdamW(n.trainable_params(), lr=0.01),
        "amsgrad": lambda n: AdamW(n.trainable_params(), lr=0.01, betas=(0.8, 0.9), eps=1e-6, weight_decay=0.1,
                                   amsgrad=True),
        "maximize": lambda n: AdamW(n.trainable_params(), lr=0.02, weight_decay=0.0, maximize=True),
        "groups": lambda n: AdamW([{"params": [n.weight], "lr": 0.05, "weight_decay": 0.1},
                                   {"params": [n.bias], "betas": (0.5, 0.6), "amsgrad": True}], lr=0.01),
    }


def tail_optimizers(nn):
    """Factories ``name -> f(dense) -> optimizer`` of tests/test_optim_tail.py (FTRL), for MindSpore's or npspore's
    ``nn``."""
    return {
        "ftrl": lambda n: nn.FTRL(n.trainable_params()),
        "ftrl_l2": lambda n: nn.FTRL(n.trainable_params(), initial_accum=0.5, learning_rate=0.1, l2=0.1),
        "ftrl_power_wd": lambda n: nn.FTRL(n.trainable_params(), learning_rate=0.05, lr_power=-0.25,
                                           weight_decay=0.1, loss_scale=2.0),
        "ftrl_l1": lambda n: nn.FTRL(n.trainable_params(), learning_rate=0.1, l1=0.05),
    }
