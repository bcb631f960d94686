#!/usr/bin/env python3
#===- make_node_tests.py - numpy-checked models in node-test layout -------===#
#
# make_node_tests.py <dir>: writes <dir>/test_<model>/model.onnx and
# test_data_set_0/{input,output}_0.pb for models of gen_models.py, with the
# expected output computed here in float64 numpy from the ONNX definitions
# (ConvTranspose as a scatter with ONNX pads, BatchNorm, the GroupNorm
# pattern), independent of the importer's mapping to PyTorch parameters.
#
#===----------------------------------------------------------------------===#
import os
import sys

import numpy as np
from onnx import numpy_helper

import gen_models


def conv_transpose(x, w, b, strides, pads, dil, group, out_shape=None):
    """ONNX ConvTranspose by scatter; pads = begins + ends."""
    n, cin = x.shape[:2]
    nsp = x.ndim - 2
    k = w.shape[2:]
    coutg = w.shape[1]
    full = [(x.shape[2 + i] - 1) * strides[i] + (k[i] - 1) * dil[i] + 1
            for i in range(nsp)]
    big = np.zeros((n, coutg * group) + tuple(full))
    cing = cin // group
    for idx in np.ndindex(*x.shape[2:]):
        for t in np.ndindex(*k):
            o = tuple(idx[i] * strides[i] + t[i] * dil[i] for i in range(nsp))
            for g in range(group):
                xs = x[(slice(None), slice(g * cing, (g + 1) * cing)) + idx]
                ws = w[(slice(g * cing, (g + 1) * cing), slice(None)) + t]
                big[(slice(None), slice(g * coutg, (g + 1) * coutg)) + o] += xs @ ws
    out = []
    for i in range(nsp):
        out.append(full[i] - pads[i] - pads[i + nsp])
    y = np.zeros((n, coutg * group) + tuple(out))
    src, dst = [], []
    for i in range(nsp):
        lo, hi = pads[i], pads[i] + out[i]  # window of `big` along dim i
        s0, s1 = max(lo, 0), min(hi, full[i])
        src.append(slice(s0, s1))
        dst.append(slice(s0 - lo, s1 - lo))
    y[(slice(None), slice(None)) + tuple(dst)] = big[(slice(None), slice(None)) + tuple(src)]
    if b is not None:
        y += b.reshape((1, -1) + (1,) * nsp)
    return y


def inits(m):
    return {t.name: numpy_helper.to_array(t).astype(np.float64)
            for t in m.graph.initializer}


def batchnorm(x, p, eps=1e-5):
    sh = (1, -1) + (1,) * (x.ndim - 2)
    s = p["gamma"] / np.sqrt(p["var"] + eps)
    return x * s.reshape(sh) + (p["beta"] - p["mean"] * s).reshape(sh)


def group_norm(x, g, eps):
    n, c = x.shape[:2]
    r = x.reshape(n, g, -1)
    mean = r.mean(axis=2, keepdims=True)
    var = r.var(axis=2, keepdims=True)
    return ((r - mean) / np.sqrt(var + eps)).reshape(x.shape)


def expected(name, m, x):
    p = inits(m)
    if name == "conv_bn_relu":
        # pads 1/1 with output_padding 1 = pads 1 (begin) / 0 (end)
        y = conv_transpose(x, p["w"], p["b"], [2, 2], [1, 1, 0, 0], [1, 1], 1)
        return np.maximum(batchnorm(y, p), 0)
    if name == "bn_alone":
        return batchnorm(x, p)
    if name == "groupnorm_pattern":
        return group_norm(x, 4, 1e-5) * p["gamma"] + p["beta"]
    if name == "conv_args":
        return conv_transpose(x, p["w"], p["b"], [2], [0, 0], [1], 2)
    if name == "conv_asym":
        return conv_transpose(x, p["w"], None, [2, 2], [1, 1, 0, 0], [1, 1], 1)
    if name == "conv_same_lower":
        return conv_transpose(x, p["w"], None, [2, 2], [1, 1, 0, 0], [1, 1], 1)
    if name == "conv_output_shape":  # total padding -1: begin 0, end -1
        return conv_transpose(x, p["w"], None, [2, 2], [0, 0, -1, -1], [1, 1], 1)
    if name == "conv3d_dilated":
        return conv_transpose(x, p["w"], None, [1, 2, 2], [0, 1, 1, 0, 1, 1],
                              [2, 1, 1], 1)
    raise KeyError(name)


def main():
    root = sys.argv[1]
    rng = np.random.default_rng(0)
    for name in ["conv_bn_relu", "bn_alone", "groupnorm_pattern", "conv_args",
                 "conv_asym", "conv_same_lower", "conv_output_shape",
                 "conv3d_dilated"]:
        m = gen_models.MODELS[name]()
        shape = [d.dim_value for d in m.graph.input[0].type.tensor_type.shape.dim]
        x = rng.standard_normal(shape).astype(np.float32)
        y = expected(name, m, x.astype(np.float64)).astype(np.float32)
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
