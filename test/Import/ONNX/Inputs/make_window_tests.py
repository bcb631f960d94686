#!/usr/bin/env python3
#===- make_window_tests.py - numpy-checked window models (node-test layout) ===#
#
# make_window_tests.py <dir>: writes <dir>/test_<model>/model.onnx and
# test_data_set_0/{input,output}_0.pb for pooling and view models of
# gen_window_models.py, the expected output computed here in float64 numpy
# from the ONNX definitions (windows placed by begin/end pads, divisors
# counting pads or not), independent of the mapping to PyTorch padding.
#
#===----------------------------------------------------------------------===#
import os
import sys

import numpy as np
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_window_models  # noqa: E402


def pool(x, kind, k, s, pads, dil=None, ceil=False, cip=False, p=2):
    """ONNX MaxPool / AveragePool / LpPool; pads = begins + ends."""
    sp = x.ndim - 2
    dil = dil or [1] * sp
    b, e = pads[:sp], pads[sp:]
    out = []
    for i in range(sp):
        num = x.shape[2 + i] + b[i] + e[i] - dil[i] * (k[i] - 1) - 1
        out.append((-(-num // s[i]) if ceil else num // s[i]) + 1)
    y = np.zeros(x.shape[:2] + tuple(out))
    for o in np.ndindex(*out):
        vals, padded = [], 0
        for t in np.ndindex(*k):
            pos = [o[i] * s[i] - b[i] + t[i] * dil[i] for i in range(sp)]
            if all(-b[i] <= pos[i] < x.shape[2 + i] + e[i] for i in range(sp)):
                padded += 1
            if all(0 <= pos[i] < x.shape[2 + i] for i in range(sp)):
                vals.append(x[(slice(None), slice(None)) + tuple(pos)])
        v = np.stack(vals)
        if kind == "max":
            r = v.max(axis=0)
        elif kind == "avg":
            r = v.sum(axis=0) / (padded if cip else len(vals))
        else:
            r = (np.abs(v) ** p).sum(axis=0) ** (1.0 / p)
        y[(slice(None), slice(None)) + o] = r
    return y


def expected(name, x):
    if name == "maxpool_asym_ceil":
        return pool(x, "max", [2], [2], [0, 1])
    if name == "maxpool_dilated_ceil":
        return pool(x, "max", [2], [2], [0, 0], dil=[2], ceil=True)
    if name == "maxpool_same_upper":
        return pool(x, "max", [3, 3], [2, 2], [1, 1, 1, 1])
    if name == "avgpool_same_lower":
        return pool(x, "avg", [3], [2], [1, 0])
    if name == "avgpool_cip":
        return pool(x, "avg", [3, 3], [1, 1], [1, 1, 1, 1], cip=True)
    if name == "avgpool_ceil":
        return pool(x, "avg", [3, 3], [2, 2], [0, 0, 0, 0], ceil=True)
    if name == "lppool":
        return pool(x, "lp", [2], [1], [0, 0])
    if name == "lppool3":
        return pool(x, "lp", [3, 3], [1, 1], [1, 1, 1, 1], p=3)
    if name == "global_lp":
        return np.abs(x).sum(axis=2, keepdims=True)
    if name == "views":
        r = 1 / (1 + np.exp(-np.maximum(x, 0)))
        return np.tanh(r.reshape(6, 4))
    raise KeyError(name)


def main():
    root = sys.argv[1]
    rng = np.random.default_rng(0)
    for name in ["maxpool_asym_ceil", "maxpool_dilated_ceil",
                 "maxpool_same_upper", "avgpool_same_lower", "avgpool_cip",
                 "avgpool_ceil", "lppool", "lppool3", "global_lp", "views"]:
        m = gen_window_models.MODELS[name]()
        shape = [d.dim_value
                 for d in m.graph.input[0].type.tensor_type.shape.dim]
        x = rng.standard_normal(shape).astype(np.float32)
        y = expected(name, x.astype(np.float64)).astype(np.float32)
        d = os.path.join(root, "test_" + name, "test_data_set_0")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(root, "test_" + name, "model.onnx"), "wb") as f:
            f.write(m.SerializeToString())
        with open(os.path.join(d, "input_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(x).SerializeToString())
        with open(os.path.join(d, "output_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(y).SerializeToString())


if __name__ == "__main__":
    main()
