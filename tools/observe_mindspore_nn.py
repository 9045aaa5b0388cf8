"""Record MindSpore's outputs for the layer and loss cases of ``tests/nn_cases.py``.

    /path/to/mindspore-venv/bin/python tools/observe_mindspore_nn.py

Runs only where the real ``mindspore`` is installed (npspore itself never imports it) and writes
``tests/golden/mindspore_nn.json``: for each layer case, the output, the gradients of
``sum(output ** 2)`` with respect to the float inputs and then the trainable parameters, and the
value of every parameter after one forward call (moving statistics included); for each function
case, its outputs and their dtypes.
"""
import json
import os
import sys

import mindspore as ms
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
from nn_cases import CASES, FUNCTION_CASES, function_namespace, namespace  # noqa: E402


def values(tensor):
    """A Tensor's values as nested lists, floats to 8 significant digits (float32 has about 7)."""
    array = tensor.asnumpy()
    if array.dtype.kind != "f":
        return array.tolist()
    return np.vectorize(lambda v: float(f"{v:.8g}"), otypes=[object])(array.astype(np.float64)).tolist()


def observe(layer_text, inputs_text, train):
    names = namespace(ms)
    layer = eval(layer_text, names)
    inputs = eval(inputs_text, names)
    layer.set_train(train)
    out = layer(*inputs)
    state = {p.name: values(p) for p in layer.get_parameters()}
    positions = tuple(i for i, x in enumerate(inputs) if x.dtype in (ms.float16, ms.float32, ms.float64))
    weights = layer.trainable_params()
    grads = ms.grad(lambda *xs: (layer(*xs) ** 2).sum(), grad_position=positions, weights=weights or None)(*inputs)
    if weights:
        grads = tuple(grads[0]) + tuple(grads[1])
    elif not isinstance(grads, tuple):
        grads = (grads,)
    return {"out": values(out), "shape": list(out.shape), "grads": [values(g) for g in grads],
            "state": state}


def observe_function(expression):
    try:
        out = eval(expression, function_namespace(ms))
        (out if isinstance(out, tuple) else (out,))[0].asnumpy()
    except Exception as error:  # recorded, so that the test names what MindSpore refused
        return {"error": f"{type(error).__name__}: {str(error).strip().splitlines()[0]}"}
    outs = out if isinstance(out, tuple) else (out,)
    return {"outs": [values(o) for o in outs], "dtypes": [str(o.dtype) for o in outs],
            "tuple": isinstance(out, tuple)}


def main():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    results = {}
    for key, layer, inputs, train in CASES:
        try:
            results[key] = observe(layer, inputs, train)
        except Exception as error:  # recorded, so that the test names what MindSpore refused
            results[key] = {"error": f"{type(error).__name__}: {str(error).strip().splitlines()[0]}"}
    functions = {key: observe_function(expression) for key, expression in FUNCTION_CASES}
    path = os.path.join(HERE, "..", "tests", "golden", "mindspore_nn.json")
    with open(path, "w") as f:
        json.dump({"observed_on": f"MindSpore {ms.__version__} CPU", "cases": results, "functions": functions}, f)
    print(f"wrote {len(results)} cases to {path}")


if __name__ == "__main__":
    main()
