"""T1-T4 (``train_workloads.py``) in PyTorch eager and in JAX jit, from the same initial weights.

``torch_step(name, weights, threads)`` and ``jax_step(name, weights)`` return ``step(x, labels) -> loss``
(a float, which also waits for the step to finish). PyTorch's optimizers are its own (``SGD(momentum)``
is MindSpore's Momentum; ``Adam`` differs from MindSpore's only in where ``eps`` sits); the JAX step
writes MindSpore's updates. Each is imported only when called: the benchmark runs without them.
"""
from __future__ import annotations

import math

import numpy as np

import train_workloads as tw

# ---------------------------------------------------------------- PyTorch eager


def torch_step(name: str, weights: dict, threads: int):
    """One training step of workload ``name`` in PyTorch eager on ``threads`` threads."""
    import torch
    from torch import nn
    import torch.nn.functional as tf

    torch.set_num_threads(threads)
    if name == "T1":
        net = nn.ModuleDict({"conv1": nn.Conv2d(1, 6, 5, bias=False), "conv2": nn.Conv2d(6, 16, 5, bias=False),
                             "fc1": nn.Linear(400, 120), "fc2": nn.Linear(120, 84), "fc3": nn.Linear(84, 10)})

        def logits(x):
            h = tf.max_pool2d(torch.relu(net["conv1"](x)), 2)
            h = tf.max_pool2d(torch.relu(net["conv2"](h)), 2).flatten(1)
            return net["fc3"](torch.relu(net["fc2"](torch.relu(net["fc1"](h)))))
    elif name == "T2":
        net = nn.ModuleDict({"embedding": nn.Embedding(tw.VOCAB, tw.EMBED), "lstm": nn.LSTM(tw.EMBED, tw.HIDDEN, 2),
                             "decoder": nn.Linear(tw.HIDDEN, tw.VOCAB)})

        def logits(tokens):
            return net["decoder"](net["lstm"](net["embedding"](tokens))[0].reshape(-1, tw.HIDDEN))
    elif name == "T3":
        layer = nn.TransformerEncoderLayer(tw.D_MODEL, tw.HEADS, tw.FEEDFORWARD, dropout=0.0)
        net = nn.ModuleDict({"encoder": nn.TransformerEncoder(layer, 2, enable_nested_tensor=False),
                             "classifier": nn.Linear(tw.D_MODEL, tw.CLASSES_T3)})

        def logits(x):
            return net["classifier"](net["encoder"](x).reshape(-1, tw.D_MODEL))
    else:
        net = nn.ModuleDict({"fc1": nn.Linear(784, 512), "fc2": nn.Linear(512, 512), "fc3": nn.Linear(512, 10)})

        def logits(x):
            return net["fc3"](torch.relu(net["fc2"](torch.relu(net["fc1"](x)))))
    state = {_torch_name(k): torch.tensor(v) for k, v in weights.items()}
    net.load_state_dict(state, strict=True)
    net.train()
    if name == "T1":
        optimizer = torch.optim.SGD(net.parameters(), lr=tw.MOMENTUM_LR, momentum=tw.MOMENTUM)
    else:
        optimizer = torch.optim.Adam(net.parameters(), lr=tw.ADAM_LR, eps=1e-8)

    def step(x, labels):
        x = torch.from_numpy(x).long() if x.dtype.kind == "i" else torch.from_numpy(x)
        loss = tf.cross_entropy(logits(x), torch.from_numpy(labels).long().reshape(-1))
        optimizer.zero_grad(set_to_none=False)
        loss.backward()
        optimizer.step()
        return loss.item()

    return step


def _torch_name(name: str) -> str:
    """npspore's parameter name -> PyTorch's (``gamma``/``beta``, ``embedding_table``, ``dense1``)."""
    return (name.replace("embedding.embedding_table", "embedding.weight").replace(".gamma", ".weight")
            .replace(".beta", ".bias").replace(".dense1.", ".linear1.").replace(".dense2.", ".linear2."))


# ---------------------------------------------------------------- JAX jit


def jax_step(name: str, weights: dict):
    """One training step of workload ``name`` as one ``jax.jit`` function (MindSpore's optimizer)."""
    import jax
    import jax.numpy as jnp

    params = {k: jnp.asarray(v) for k, v in weights.items()}

    def dense(p, prefix, x):
        return x @ p[prefix + ".weight"].T + p[prefix + ".bias"]

    def lenet(p, x):
        def conv(x, w):
            return jax.lax.conv_general_dilated(x, w, (1, 1), "VALID")

        def pool(x):
            return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")
        h = pool(jax.nn.relu(conv(x, p["conv1.weight"])))
        h = pool(jax.nn.relu(conv(h, p["conv2.weight"]))).reshape(x.shape[0], -1)
        return dense(p, "fc3", jax.nn.relu(dense(p, "fc2", jax.nn.relu(dense(p, "fc1", h)))))

    def language_model(p, tokens):
        h = p["embedding.embedding_table"][tokens]
        for layer in range(2):
            w_ih, w_hh = p[f"lstm.weight_ih_l{layer}"], p[f"lstm.weight_hh_l{layer}"]
            gates_x = h @ w_ih.T + p[f"lstm.bias_ih_l{layer}"] + p[f"lstm.bias_hh_l{layer}"]

            def cell(carry, gx, w_hh=w_hh):
                h_t, c_t = carry
                i, f, g, o = jnp.split(gx + h_t @ w_hh.T, 4, axis=-1)
                c_t = jax.nn.sigmoid(f) * c_t + jax.nn.sigmoid(i) * jnp.tanh(g)
                h_t = jax.nn.sigmoid(o) * jnp.tanh(c_t)
                return (h_t, c_t), h_t
            zeros = jnp.zeros((tokens.shape[1], tw.HIDDEN), h.dtype)
            _, h = jax.lax.scan(cell, (zeros, zeros), gates_x)
        return dense(p, "decoder", h.reshape(-1, tw.HIDDEN))

    def layer_norm(x, gamma, beta):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / jnp.sqrt(var + 1e-5) * gamma + beta

    def encoder(p, x):
        seq, batch, width = x.shape
        heads, dh = tw.HEADS, width // tw.HEADS
        for layer in range(2):
            prefix = f"encoder.layers.{layer}."
            qkv = x @ p[prefix + "self_attn.in_proj_weight"].T + p[prefix + "self_attn.in_proj_bias"]
            q, k, v = (part.reshape(seq, batch, heads, dh).transpose(1, 2, 0, 3) for part in jnp.split(qkv, 3, -1))
            weights_ = jax.nn.softmax(q @ k.transpose(0, 1, 3, 2) / math.sqrt(dh), axis=-1)
            attn = (weights_ @ v).transpose(2, 0, 1, 3).reshape(seq, batch, width)
            x = layer_norm(x + dense(p, prefix + "self_attn.out_proj", attn), p[prefix + "norm1.gamma"],
                           p[prefix + "norm1.beta"])
            ff = dense(p, prefix + "dense2", jax.nn.relu(dense(p, prefix + "dense1", x)))
            x = layer_norm(x + ff, p[prefix + "norm2.gamma"], p[prefix + "norm2.beta"])
        return dense(p, "classifier", x.reshape(-1, width))

    def mlp(p, x):
        return dense(p, "fc3", jax.nn.relu(dense(p, "fc2", jax.nn.relu(dense(p, "fc1", x)))))

    model = {"T1": lenet, "T2": language_model, "T3": encoder, "T4": mlp}[name]

    def loss_fn(p, x, labels):
        logp = jax.nn.log_softmax(model(p, x), axis=-1)
        return -jnp.take_along_axis(logp, labels.reshape(-1, 1), axis=-1).mean()

    if name == "T1":
        state = {k: jnp.zeros_like(v) for k, v in params.items()}

        @jax.jit
        def train(p, state, x, labels):
            loss, g = jax.value_and_grad(loss_fn)(p, x, labels)
            state = {k: tw.MOMENTUM * state[k] + g[k] for k in p}
            return {k: p[k] - tw.MOMENTUM_LR * state[k] for k in p}, state, loss
    else:
        state = ({k: jnp.zeros_like(v) for k, v in params.items()}, {k: jnp.zeros_like(v) for k, v in params.items()},
                 jnp.float32(1), jnp.float32(1))

        @jax.jit
        def train(p, state, x, labels):
            loss, g = jax.value_and_grad(loss_fn)(p, x, labels)
            m, v, power1, power2 = state
            power1, power2 = power1 * 0.9, power2 * 0.999
            m = {k: 0.9 * m[k] + 0.1 * g[k] for k in p}
            v = {k: 0.999 * v[k] + 0.001 * g[k] * g[k] for k in p}
            lr = tw.ADAM_LR * jnp.sqrt(1 - power2) / (1 - power1)
            return {k: p[k] - lr * m[k] / (jnp.sqrt(v[k]) + 1e-8) for k in p}, (m, v, power1, power2), loss

    holder = {"p": params, "state": state}

    def step(x, labels):
        holder["p"], holder["state"], loss = train(holder["p"], holder["state"], x, labels)
        return float(loss)

    return step
