#!/usr/bin/env python3
#===- make_node_tests.py - numpy-checked models in node-test layout -------===#
#
# make_node_tests.py <dir>: writes <dir>/test_<model>/model.onnx and
# test_data_set_0/{input_0,output_*}.pb for models of gen_models.py, with the
# expected output computed here in float64 numpy from the ONNX definitions
# (ConvTranspose as a scatter with ONNX pads, BatchNorm at inference and in
# training mode with its running statistics, the GroupNorm pattern,
# LogSoftmax with opset 11's 2-D coercion), independent of the importer's
# mapping to PyTorch parameters.
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


def conv(x, w, b, strides, pads, group):
    """ONNX Conv (2-D, dilation 1) by gather; pads = begins + ends."""
    n, cin, h, wd = x.shape
    cout, cing, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    oh = (xp.shape[2] - kh) // strides[0] + 1
    ow = (xp.shape[3] - kw) // strides[1] + 1
    y = np.zeros((n, cout, oh, ow))
    coutg = cout // group
    for co in range(cout):
        g = co // coutg
        for i in range(oh):
            for j in range(ow):
                win = xp[:, g * cing:(g + 1) * cing,
                         i * strides[0]:i * strides[0] + kh,
                         j * strides[1]:j * strides[1] + kw]
                y[:, co, i, j] = (win * w[co]).sum(axis=(1, 2, 3)) + b[co]
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


def bn_training(x, p, momentum, eps=1e-5):
    """ONNX BatchNormalization, training_mode = 1: y, running mean and var
    (the running variance updated with the biased batch variance)."""
    axes = (0,) + tuple(range(2, x.ndim))
    sh = (1, -1) + (1,) * (x.ndim - 2)
    mean, var = x.mean(axis=axes), x.var(axis=axes)
    y = ((x - mean.reshape(sh)) / np.sqrt(var.reshape(sh) + eps) *
         p["gamma"].reshape(sh) + p["beta"].reshape(sh))
    return (y, p["mean"] * momentum + mean * (1 - momentum),
            p["var"] * momentum + var * (1 - momentum))


def log_softmax_2d(x, axis):
    """Opset < 13 LogSoftmax: x as 2-D [prod(:axis), prod(axis:)]."""
    r = x.reshape(int(np.prod(x.shape[:axis])), -1)
    m = r.max(axis=1, keepdims=True)
    r = r - m - np.log(np.exp(r - m).sum(axis=1, keepdims=True))
    return r.reshape(x.shape)


def log_softmax(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


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
    # End crops: more padding at the end than at the begin (plus
    # output_padding), SAME_UPPER at stride 1 with an even kernel; SAME_LOWER
    # there gives an output_padding at the stride.
    if name in ("conv_same_upper", "conv_asym_end"):
        return conv_transpose(x, p["w"], None, [2, 2], [0, 0, 1, 1], [1, 1], 1)
    if name == "conv_asym_end_3":
        return conv_transpose(x, p["w"], None, [2, 2], [0, 1, 2, 0], [1, 1], 1)
    # Negative begin pads: an output_shape past the scatter's begin, SAME_*
    # with a kernel below the stride (bias-free: those rows are zero).
    if name == "conv_output_shape_neg":
        return conv_transpose(x, p["w"], None, [2, 2], [-1, 0, -2, -1], [1, 1], 1)
    if name == "conv_same_upper_k2s3":
        return conv_transpose(x, p["w"], None, [3, 3], [-1, -1, 0, 0], [1, 1], 1)
    if name == "conv_same_lower_k1s4":
        return conv_transpose(x, p["w"], None, [4, 4], [-1, -1, -2, -2], [1, 1], 1)
    if name == "conv_same_upper_k1s4":
        return conv_transpose(x, p["w"], None, [4, 4], [-2, -2, -1, -1], [1, 1], 1)
    if name == "conv_same_upper_s1":
        return conv_transpose(x, p["w"], None, [1, 1], [1, 1, 2, 2], [1, 1], 1)
    if name == "conv_same_lower_s1":
        return conv_transpose(x, p["w"], None, [1, 1], [2, 2, 1, 1], [1, 1], 1)
    # A Slice of the output: y[:, :, 1:, :-2] of the 7x7 output.
    if name == "conv_slice":
        return conv_transpose(x, p["w"], None, [2, 2], [1, 0, 0, 2], [1, 1], 1)
    if name == "conv_slice_bn":
        # pads 1/1, output_padding 1 (rows 1..10 of the 11 + 1 extended
        # ones), then rows [0, 9) and cols [1, 10): pads 1, 2 (begin), 1, 0.
        y = conv_transpose(x, p["w"], p["b"], [2, 2], [1, 2, 1, 0], [1, 1], 1)
        return np.maximum(batchnorm(y, p), 0)
    # Conv with more padding at the begin than at the end.
    if name == "fwd_conv_same_lower":
        return conv(x, p["w"], p["b"], [1, 1], [2, 2, 1, 1], 1)
    if name == "fwd_conv_begin_strided":
        return conv(x, p["w"], p["b"], [2, 2], [2, 1, 1, 0], 1)
    if name == "conv3d_dilated":
        return conv_transpose(x, p["w"], None, [1, 2, 2], [0, 1, 1, 0, 1, 1],
                              [2, 1, 1], 1)
    if name == "bn_training_stats":
        return bn_training(x, p, 0.8)
    if name == "bn_training_mean":
        return bn_training(x, p, 0.9)[:2]
    if name == "bn_training_2d":
        return bn_training(x, p, 0.9)
    if name == "logsoftmax_v11":
        return log_softmax_2d(x, 1)
    if name == "logsoftmax_axis1":
        return log_softmax(x, 1)
    raise KeyError(name)


def main():
    root = sys.argv[1]
    rng = np.random.default_rng(0)
    for name in ["conv_bn_relu", "bn_alone", "groupnorm_pattern", "conv_args",
                 "conv_asym", "conv_same_lower", "conv_output_shape",
                 "conv3d_dilated", "bn_training_stats", "bn_training_mean",
                 "bn_training_2d", "logsoftmax_v11", "logsoftmax_axis1",
                 "conv_same_upper", "conv_asym_end", "conv_asym_end_3",
                 "conv_same_upper_s1", "conv_same_lower_s1",
                 "conv_slice", "conv_slice_bn", "conv_output_shape_neg",
                 "conv_same_upper_k2s3", "conv_same_lower_k1s4",
                 "conv_same_upper_k1s4",
                 "fwd_conv_same_lower", "fwd_conv_begin_strided"]:
        m = gen_models.MODELS[name]()
        shape = [d.dim_value for d in m.graph.input[0].type.tensor_type.shape.dim]
        x = rng.standard_normal(shape).astype(np.float32)
        ys = expected(name, m, x.astype(np.float64))
        ys = ys if isinstance(ys, tuple) else (ys,)
        d = os.path.join(root, "test_" + name, "test_data_set_0")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(root, "test_" + name, "model.onnx"), "wb") as f:
            f.write(m.SerializeToString())
        with open(os.path.join(d, "input_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(x).SerializeToString())
        for k, y in enumerate(ys):
            with open(os.path.join(d, "output_%d.pb" % k), "wb") as f:
                f.write(numpy_helper.from_array(
                    y.astype(np.float32)).SerializeToString())


if __name__ == "__main__":
    main()
