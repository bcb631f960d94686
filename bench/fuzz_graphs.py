#!/usr/bin/env python3
# ===- bench/fuzz_graphs.py - Random conv_transpose + epilogue graphs ----=== #
#
# Prints COUNT random, valid fuse-dialect graphs (seeded, so reproducible):
# rank 1-3, batch 1-2, odd channel counts, kernels 1-5, strides 1-3,
# dilation 1-2, any legal padding and output padding, last dims that are
# multiples of 4 (the 16-byte staging path) or not, with or without bias,
# and an epilogue drawn from softmax over channels, layer_norm + gelu over
# the last dim, softmax + sigmoid, and elementwise activations. Feed them to
# fusecc-check (test/Reference/fuzz.test) or fusecc.
#
# Usage: fuzz_graphs.py [--seed N] [--count N]
#
# ===--------------------------------------------------------------------=== #

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vocab_graphs import conv_geometry  # noqa: E402


def tensor(shape):
    return "tensor<%sxf32>" % "x".join(str(d) for d in shape)


def arr(v):
    return "array<i64: %s>" % ", ".join(str(x) for x in v)


def graph(rng, name, wide=False):
    rank = rng.choice([1, 2, 3])
    n = rng.randint(1, 2)
    cin = rng.choice([1, 3, 4, 8, 12, 20, 33])
    # --wide: more channels than one 64-channel wgmma group, where a channel
    # softmax can be split over a thread block cluster.
    cout = rng.choice([65, 70, 100, 128, 130, 192, 256] if wide
                      else [3, 8, 16, 20, 32, 48, 64])
    k, s, d, p, op = conv_geometry(rng, rank, 5, 0.5)
    sp = [rng.choice([4, 8, 12, 16, 20, 5, 7]) if j == rank - 1
          else rng.randint(1, 4) for j in range(rank)]
    out = [(sp[j] - 1) * s[j] - 2 * p[j] + d[j] * (k[j] - 1) + op[j] + 1
           for j in range(rank)]
    if any(o <= 0 for o in out):
        return None
    xs, ws, ys = [n, cin] + sp, [cin, cout] + k, [n, cout] + out
    bias = rng.random() < 0.6
    epilogue = rng.choice(["softmax", "softmax_sigmoid", "softmax",
                           "layer_norm", "none"] if wide else
                          ["none", "softmax", "layer_norm", "relu", "gelu",
                           "softmax_sigmoid", "tanh"])
    args = ["%%x: %s" % tensor(xs), "%%w: %s" % tensor(ws)]
    if bias:
        args.append("%%b: tensor<%dxf32>" % cout)
    if epilogue == "layer_norm":
        args += ["%%g: tensor<%dxf32>" % out[-1],
                 "%%beta: tensor<%dxf32>" % out[-1]]
    y = tensor(ys)
    lines = ["func.func @%s(%s) -> %s {" % (name, ", ".join(args), y),
             "  %%0 = fuse.conv_transpose %%x, %%w%s {stride = %s, padding = "
             "%s, output_padding = %s, dilation = %s} : (%s, %s%s) -> %s"
             % (", %b" if bias else "", arr(s), arr(p), arr(op), arr(d),
                tensor(xs), tensor(ws),
                ", tensor<%dxf32>" % cout if bias else "", y)]
    result = "%0"
    if epilogue in ("softmax", "softmax_sigmoid"):
        lines.append("  %%1 = fuse.softmax %%0 {dim = 1 : i64} : %s" % y)
        result = "%1"
        if epilogue == "softmax_sigmoid":
            lines.append("  %%2 = fuse.sigmoid %%1 : %s" % y)
            result = "%2"
    elif epilogue == "layer_norm":
        lines.append("  %%1 = fuse.layer_norm %%0 weight(%%g : tensor<%dxf32>)"
                     " bias(%%beta : tensor<%dxf32>) {normalized_rank = 1 : "
                     "i64, epsilon = 1.0e-05 : f64} : %s"
                     % (out[-1], out[-1], y))
        lines.append("  %%2 = fuse.gelu %%1 : %s" % y)
        result = "%2"
    elif epilogue != "none":
        lines.append("  %%1 = fuse.%s %%0 : %s" % (epilogue, y))
        result = "%1"
    lines += ["  return %s : %s" % (result, y), "}"]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=12)
    parser.add_argument("--wide", action="store_true",
                        help="65 to 256 output channels")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    graphs = []
    while len(graphs) < args.count:
        g = graph(rng, "fuzz%d_%d" % (args.seed, len(graphs)), args.wide)
        if g:
            graphs.append(g)
    print("\n\n".join(graphs))


if __name__ == "__main__":
    main()
