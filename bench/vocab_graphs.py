#!/usr/bin/env python3
# ===- bench/vocab_graphs.py - Random graphs over the whole op vocabulary -=== #
#
# Prints COUNT random, valid fuse-dialect graphs (seeded, reproducible) built
# from the whole vocabulary of docs/design.md, not from the workloads'
# chains: a transposed convolution (rank 1-3, batch 1-3, odd channel counts,
# groups, kernels 1-4, strides 1-3, dilation, padding, output padding, bias
# or not) with an optional prologue on its input (an activation, a scalar
# graph input, a pooling window) and an epilogue of one to four ops drawn
# from: activations, clamp, leaky_relu; binary ops with a constant, a scalar
# graph input, a per-channel parameter, a full-shape graph input or the
# convolution's result; softmax and log_softmax over any dim or the
# flattened spatial dims; layer_norm over trailing dims, group_norm,
# instance_norm, batch_norm (inference and training); max and average
# pooling (kernel, stride, padding, dilation, ceil_mode,
# count_include_pad); adaptive pooling; sum, mean, amax, amin, logsumexp and
# var over any set of dims, keepdim or not. Feed them to fusecc-check (both
# precisions) or compile them for bench/gpu_check.sh.
#
# Usage: vocab_graphs.py [--seed N] [--count N] [--out DIR]
#   (without --out: one module on stdout; with it: one file per graph)
#
# ===--------------------------------------------------------------------=== #

import argparse
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from workload_graphs import Builder, TranslateError, arr, fmt, pool_out, tensor  # noqa: E402

UNARY = ["relu", "gelu", "tanh", "sigmoid", "silu", "mish", "hardswish",
         "abs", "neg", "softplus", "hardsigmoid"]
BINARY = ["add", "sub", "mul", "maximum", "minimum"]


def conv_geometry(rng, rank, max_kernel, output_padding_chance,
                  max_stride=3):
    """Random kernel, stride (1 to max_stride), dilation, padding and output
    padding of a transposed convolution with `rank` spatial dims, each legal
    in PyTorch (padding at most dilation * (kernel - 1), output padding
    below max(stride, dilation)). Shared with fuzz_graphs.py and
    random_layers.py; the seeds of this file and fuzz_graphs.py keep their
    graphs: the draws stay in this order."""
    k = [rng.randint(1, max_kernel) for _ in range(rank)]
    s = [rng.randint(1, max_stride) for _ in range(rank)]
    d = [rng.choice([1, 1, 2]) for _ in range(rank)]
    p = [rng.randint(0, (k[j] - 1) * d[j]) for j in range(rank)]
    op = [rng.randint(0, max(s[j], d[j]) - 1)
          if rng.random() < output_padding_chance else 0
          for j in range(rank)]
    return k, s, d, p, op


def conv(b, rng, x, cin, n_sp):
    """A transposed convolution of x (channels cin); returns its result or
    None where the drawn geometry has no output."""
    groups = rng.choice([1, 1, 1, 2, 3])
    cin_g = cin // groups if cin % groups == 0 else None
    if cin_g is None:
        groups = 1
    cout = groups * rng.choice([1, 3, 5, 7, 9, 13, 16, 32, 48, 70])
    k, s, d, p, op = conv_geometry(rng, n_sp, 4, 0.4)
    xs = b.shape[x]
    out = [(xs[2 + j] - 1) * s[j] - 2 * p[j] + d[j] * (k[j] - 1) + op[j] + 1
           for j in range(n_sp)]
    if min(out) < 1:
        return None
    w = b.arg("weight", [cin, cout // groups] + k)
    operands, types = [x, w], [tensor(xs), tensor(b.shape[w])]
    if rng.random() < 0.6:
        bias = b.arg("conv_bias", [cout])
        operands.append(bias)
        types.append(tensor([cout]))
    y = b.new([xs[0], cout] + out)
    b.lines.append(
        "  %s = fuse.conv_transpose %s {stride = %s, padding = %s, "
        "output_padding = %s, dilation = %s, groups = %d : i64} : (%s) -> %s"
        % (y, ", ".join(operands), arr(s), arr(p), arr(op), arr(d), groups,
           ", ".join(types), tensor(b.shape[y])))
    return y


def pool_attrs(rng, shape, kind):
    """Random pooling attributes that fit `shape` ([N, C, *spatial]), and
    the output shape; None if none fits."""
    n_sp = len(shape) - 2
    k = [rng.randint(1, min(3, shape[2 + j])) for j in range(n_sp)]
    s = [rng.randint(1, k[j]) if rng.random() < 0.5 else k[j]
         for j in range(n_sp)]
    p = [rng.randint(0, k[j] // 2) for j in range(n_sp)]
    d = [1] * n_sp
    if kind == "max_pool" and rng.random() < 0.3:
        d = [rng.randint(1, 2) for _ in range(n_sp)]
    ceil = rng.random() < 0.3
    out = []
    for j in range(n_sp):
        span = d[j] * (k[j] - 1) + 1
        if shape[2 + j] + 2 * p[j] < span:
            return None
        o = pool_out(shape[2 + j], k[j], s[j], p[j], d[j], ceil)
        if o < 1:
            return None
        out.append(o)
    attrs = "kernel_size = %s, stride = %s, padding = %s" % (arr(k), arr(s),
                                                             arr(p))
    if ceil:
        attrs += ", ceil_mode = true"
    if kind == "max_pool" and d != [1] * n_sp:
        attrs += ", dilation = %s" % arr(d)
    if kind == "avg_pool" and rng.random() < 0.4:
        attrs += ", count_include_pad = false"
    return attrs, shape[:2] + out


def prologue(b, rng, x):
    """An op on the convolution's input, or x itself."""
    choice = rng.choice(["none", "none", "unary", "scalar", "pool"])
    if choice == "unary":
        return b.unary(rng.choice(UNARY), x)
    if choice == "scalar":
        return b.binary(rng.choice(["add", "mul"]), x, b.arg("pre_scale", []))
    if choice == "pool":
        kind = rng.choice(["max_pool", "avg_pool"])
        drawn = pool_attrs(rng, b.shape[x], kind)
        if drawn:
            return b.window(kind, x, drawn[1], drawn[0])
    return x


def epilogue_op(b, rng, x, conv_y, spatial):
    """One op on x; `spatial`: x is still [N, C, *spatial]. Returns the new
    value and whether it keeps that layout."""
    shape = b.shape[x]
    rank = len(shape)
    kinds = ["unary", "unary", "clamp", "leaky", "binary", "binary"]
    if rank:
        kinds += ["softmax", "reduce"]
    if spatial:
        kinds += ["softmax_flat", "layer_norm", "group_norm", "instance_norm",
                  "batch_norm", "pool", "pool", "adaptive", "reduce"]
    kind = rng.choice(kinds)
    if kind == "unary":
        return b.unary(rng.choice(UNARY), x), spatial
    if kind == "clamp":
        lo = rng.choice([-1.0, -0.5, 0.0])
        return b.unary("clamp", x, "min = %s : f64, max = %s : f64"
                       % (fmt(lo), fmt(lo + rng.choice([0.5, 1.0, 2.0])))), \
            spatial
    if kind == "leaky":
        return b.unary("leaky_relu", x, "slope = %s : f64"
                       % fmt(rng.choice([0.01, 0.2]))), spatial
    if kind == "binary":
        op = rng.choice(BINARY + ["div"])
        other = rng.choice(["const", "scalar", "channel", "full", "conv"])
        if op == "div" or other == "const":
            rhs = b.const(rng.choice([0.5, 2.0, -1.5, 3.0]))
        elif other == "scalar":
            rhs = b.arg("scale%d" % len(b.args), [])
        elif other == "channel" and rank >= 2:
            rhs = b.arg("param%d" % len(b.args), [shape[1]] + [1] * (rank - 2))
        elif other == "conv" and b.shape[conv_y] == shape:
            rhs = conv_y
        else:
            rhs = b.arg("other%d" % len(b.args), list(shape))
        return b.binary(op, x, rhs), spatial
    if kind == "softmax":
        op = rng.choice(["softmax", "log_softmax"])
        return b.unary(op, x, "dim = %d : i64" % rng.randrange(rank)), spatial
    if kind == "softmax_flat":
        flat = shape[:2] + [math.prod(shape[2:])]
        v = b.window("reshape", x, flat)
        v = b.unary(rng.choice(["softmax", "log_softmax"]), v, "dim = 2 : i64")
        return b.window("reshape", v, shape), spatial
    if kind in ("layer_norm", "group_norm", "instance_norm"):
        if kind == "layer_norm":
            r = rng.randint(1, rank - 2)
            norm = shape[rank - r:]
            attrs = "normalized_rank = %d : i64, epsilon = 1.0e-05 : f64" % r
        else:
            if kind == "group_norm":
                groups = rng.choice([g for g in range(1, shape[1] + 1)
                                     if shape[1] % g == 0])
                attrs = "num_groups = %d : i64, epsilon = 1.0e-05 : f64" % \
                    groups
            else:
                if math.prod(shape[2:]) < 2:
                    return x, spatial
                attrs = "epsilon = 1.0e-05 : f64"
            norm = [shape[1]]
        y = b.new(shape)
        text = "  %s = fuse.%s %s" % (y, kind, x)
        if rng.random() < 0.6:
            g, be = b.arg("nw%d" % len(b.args), norm), \
                b.arg("nb%d" % len(b.args), norm)
            text += " weight(%s : %s) bias(%s : %s)" % (
                g, tensor(norm), be, tensor(norm))
        b.lines.append(text + " {%s} : %s" % (attrs, tensor(shape)))
        return y, spatial
    if kind == "batch_norm":
        c = [shape[1]]
        training = rng.random() < 0.5
        n = shape[0] * math.prod(shape[2:])
        if training and n < 2:
            training = False
        k = len(b.args)
        rm, rv = b.arg("running_mean%d" % k, c), b.arg("running_var%d" % k, c)
        # Running variances are positive.
        rv = b.unary("abs", rv)
        operands = [x, rm, rv]
        text_opt = ""
        if rng.random() < 0.6:
            g, be = b.arg("bn_weight%d" % k, c), b.arg("bn_bias%d" % k, c)
            operands += [g, be]
            text_opt = " weight(%s) bias(%s)" % (g, be)
        y = b.new(shape)
        b.lines.append(
            "  %s = fuse.batch_norm %s, %s, %s%s {training = %s, epsilon = "
            "1.0e-05 : f64} : (%s) -> %s"
            % (y, x, rm, rv, text_opt, "true" if training else "false",
               ", ".join(tensor(b.shape[o]) for o in operands),
               tensor(shape)))
        return y, spatial
    if kind == "pool":
        op = rng.choice(["max_pool", "avg_pool"])
        drawn = pool_attrs(rng, shape, op)
        if not drawn:
            return x, spatial
        return b.window(op, x, drawn[1], drawn[0]), spatial
    if kind == "adaptive":
        op = rng.choice(["adaptive_avg_pool", "adaptive_max_pool"])
        out = shape[:2] + [rng.choice([1, max(1, n // 2), n])
                           for n in shape[2:]]
        return b.window(op, x, out), spatial
    # reduce (and var)
    op = rng.choice(["sum", "mean", "amax", "amin", "logsumexp", "var"])
    dims = sorted(rng.sample(range(rank), rng.randint(1, min(3, rank))))
    keep = rng.random() < 0.5
    n = 1
    for d in dims:
        n *= shape[d]
    if op == "var":
        correction = rng.choice([0, 1])
        if n <= correction:
            return x, spatial
        out = [1 if i in dims else s for i, s in enumerate(shape)
               if keep or i not in dims]
        y = b.window("var", x, out, "dims = %s, keepdim = %s, correction = "
                     "%d : i64" % (arr(dims), "true" if keep else "false",
                                   correction))
    else:
        y = b.reduce(op, x, dims, keep)
    still = spatial and keep and 0 not in dims and 1 not in dims
    return y, still


def graph(rng, name):
    b = Builder()
    n_sp = rng.choice([1, 2, 3])
    n = rng.choice([1, 2, 3])
    cin = rng.choice([1, 3, 4, 5, 6, 9, 16, 24])
    sp = [rng.randint(1, 4) if j < n_sp - 1 else rng.choice([1, 3, 5, 7, 8])
          for j in range(n_sp)]
    x = b.arg("x", [n, cin] + sp)
    x = prologue(b, rng, x)
    y = conv(b, rng, x, cin, n_sp)
    if y is None:
        return None
    cur, spatial = y, True
    for _ in range(rng.randint(1, 4)):
        cur, spatial = epilogue_op(b, rng, cur, y, spatial)
    args = ", ".join('%s: %s {fuse.name = "%s"}' % (ssa, tensor(shape), nm)
                     for ssa, nm, shape in b.args)
    out = tensor(b.shape[cur])
    return "\n".join(["func.func @%s(%s) -> %s {" % (name, args, out)] +
                     b.lines + ["  return %s : %s" % (cur, out), "}"]) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=12)
    parser.add_argument("--out", help="write <name>.mlir files here")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    graphs = []
    while len(graphs) < args.count:
        name = "vocab%d_%d" % (args.seed, len(graphs))
        try:
            g = graph(rng, name)
        except TranslateError:
            g = None
        if g:
            graphs.append((name, g))
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        for name, g in graphs:
            with open(os.path.join(args.out, name + ".mlir"), "w") as f:
                f.write(g)
    else:
        print("\n".join(g for _, g in graphs))


if __name__ == "__main__":
    main()
