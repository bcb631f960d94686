#!/usr/bin/env python3
# ===- bench/tc_graphs.py - Random tensor-core sized graphs -------------=== #
#
# Prints COUNT random, valid fuse-dialect graphs (seeded, reproducible) at
# the shapes the tensor-core paths take, where bench/vocab_graphs.py's
# tiny graphs mostly stay on the FMA units: a transposed convolution
# (rank 1-3, 1-4 groups of 4-64 input and 8-100 output channels, W
# strides up to 16, kernels of the stride or twice it, dilation, padding,
# output padding, odd rows) and one epilogue: none (a tile of halves),
# relu, gelu, a full-shape residual add, batch_norm + relu, a channel
# softmax, or a chain into a second convolution (a 3x3 forward conv, a
# 1x1 one or a transposed one; half intermediates), optionally with a
# residual add after it. Every tensor in TYPE (f32, bf16 or f16), so the
# half graphs are what `model.half()` gives. --wide: 64-200 output
# channels and rows of 20-120 inputs (several channel tiles, W tiles);
# --dynamic-batch: a dynamic leading dim (check with fusecc-check
# --max-batch=N --batch=...). The session 41 hunt (docs/reliability.md)
# ran them through fusecc-check with the forced paths.
#
# Usage: tc_graphs.py --seed N --count N [--dtype f32|bf16|f16] [--wide]
#                     [--dynamic-batch]
#
# ===--------------------------------------------------------------------=== #

import argparse
import random


class DynamicBatch(int):
    """A batch size printed as a dynamic dim."""

    def __str__(self):
        return "?"


def tensor(shape, dtype):
    return "tensor<%sx%s>" % ("x".join(map(str, shape)), dtype)


def arr(v):
    return "array<i64: %s>" % ", ".join(map(str, v))


def product(v):
    r = 1
    for x in v:
        r *= x
    return r


def conv_transpose_line(res, x, w, bias, s, p, op, d, g, xt, wt, bt, ot):
    return ("  %s = fuse.conv_transpose %s, %s%s {stride = %s, padding = %s, "
            "output_padding = %s, dilation = %s, groups = %d : i64} : "
            "(%s, %s%s) -> %s"
            % (res, x, w, ", " + bias if bias else "", arr(s), arr(p),
               arr(op), arr(d), g, xt, wt, ", " + bt if bias else "", ot))


def conv_line(res, x, w, s, p, xt, wt, ot):
    return ("  %s = fuse.conv %s, %s {stride = %s, padding = %s, dilation = "
            "%s} : (%s, %s) -> %s" % (res, x, w, arr(s), arr(p),
                                      arr([1] * len(s)), xt, wt, ot))


def graph(rng, name, dt, wide=False, dynamic=False):
    """One graph named `name` in type `dt`, or None where no geometry of
    the drawn channels fits the size limits."""
    rank = rng.choice([2, 2, 2, 2, 1, 3])
    g = rng.choice([1, 1, 1, 1, 2, 4])
    cin = g * rng.choice([4, 8, 12, 16, 16, 24, 32, 40, 64])
    cout = g * rng.choice([64, 72, 100, 128, 136, 200] if wide
                          else [8, 12, 16, 21, 24, 32, 48, 64, 72, 100])
    n = rng.choice([1, 1, 2])
    if dynamic:
        n = DynamicBatch(n)
    for _ in range(100):
        s = [rng.choice([1, 1, 2, 2, 3, 4]) for _ in range(rank)]
        if rng.random() < 0.15:
            s[-1] = rng.choice([5, 8, 16])
        k = [rng.choice([1, 2, 3, 4, 5, 2 * s[j], s[j]]) for j in range(rank)]
        d = [rng.choice([1, 1, 1, 2]) for _ in range(rank)]
        p = [rng.randint(0, (k[j] - 1) * d[j]) for j in range(rank)]
        op = [rng.randint(0, max(s[j], d[j]) - 1) if rng.random() < 0.3
              else 0 for j in range(rank)]
        if wide:
            ins = ([rng.randint(1, 2) for _ in range(rank - 1)]
                   + [rng.randint(20, 120)])
        else:
            ins = ([rng.randint(1, 3) for _ in range(rank - 1)]
                   + [rng.randint(1, 40)])
        if rank == 3:
            ins[0] = rng.randint(1, 2)
        out = [(ins[j] - 1) * s[j] - 2 * p[j] + d[j] * (k[j] - 1) + op[j] + 1
               for j in range(rank)]
        if min(out) < 1:
            continue
        el = n * cout * product(out)
        macs = el * (cin // g) * product(k)
        if (el <= 150000 and macs <= 6e7) if wide else \
                (el <= 60000 and macs <= 3e7):
            break
    else:
        return None
    xt = tensor([n, cin] + ins, dt)
    wt = tensor([cin, cout // g] + k, dt)
    args = ["%%x: %s" % xt, "%%w: %s" % wt]
    bias = rng.random() < 0.5
    bt = tensor([cout], dt)
    if bias:
        args.append("%%b: %s" % bt)
    ot = tensor([n, cout] + out, dt)
    lines = [conv_transpose_line("%0", "%x", "%w", "%b" if bias else None,
                                 s, p, op, d, g, xt, wt, bt, ot)]
    count = [0]

    def fresh():
        count[0] += 1
        return "%%%d" % count[0]

    def add_residual(cur, ot):
        """Adds a full-shape residual graph input %r to `cur`."""
        args.append("%%r: %s" % ot)
        r = fresh()
        lines.append("  %s = fuse.add %s, %%r : %s, %s -> %s"
                     % (r, cur, ot, ot, ot))
        return r

    epi = rng.choice(["none", "none", "relu", "gelu", "add", "bn", "softmax",
                      "chain", "chain", "chain1x1", "addchain"])
    cur = "%0"
    if epi in ("relu", "gelu"):
        r = fresh()
        lines.append("  %s = fuse.%s %s : %s" % (r, epi, cur, ot))
        cur = r
    elif epi == "add":
        cur = add_residual(cur, ot)
    elif epi == "bn":
        args += ["%%m: %s" % bt, "%%v: %s" % bt]
        r = fresh()
        lines.append("  %s = fuse.batch_norm %s, %%m, %%v : (%s, %s, %s) -> %s"
                     % (r, cur, ot, bt, bt, ot))
        r2 = fresh()
        lines.append("  %s = fuse.relu %s : %s" % (r2, r, ot))
        cur = r2
    elif epi == "softmax":
        r = fresh()
        lines.append("  %s = fuse.softmax %s {dim = 1 : i64} : %s"
                     % (r, cur, ot))
        cur = r
    elif epi in ("chain", "chain1x1", "addchain"):
        r = fresh()
        lines.append("  %s = fuse.relu %s : %s" % (r, cur, ot))
        cur = r
        c2 = rng.choice([8, 16, 24, 32, 48, 64])
        ones = [1] * rank
        if epi == "chain" and rng.random() < 0.35:
            # A 3x3 forward convolution, padding 1, stride 1 or 2.
            s2 = [rng.choice([1, 2]) for _ in range(rank)]
            o2 = [n, c2] + [(out[j] - 1) // s2[j] + 1 for j in range(rank)]
            w2 = tensor([c2, cout] + [3] * rank, dt)
            args.append("%%w2: %s" % w2)
            r = fresh()
            lines.append(conv_line(r, cur, "%w2", s2, ones, ot, w2,
                                   tensor(o2, dt)))
        elif epi == "chain1x1" or rng.random() < 0.3:
            o2 = [n, c2] + out
            w2 = tensor([c2, cout] + ones, dt)
            args.append("%%w2: %s" % w2)
            r = fresh()
            lines.append(conv_line(r, cur, "%w2", ones, [0] * rank, ot, w2,
                                   tensor(o2, dt)))
        else:
            s2 = [rng.choice([1, 2]) for _ in range(rank)]
            k2 = [rng.choice([1, 2, 3, 4]) for _ in range(rank)]
            p2 = [rng.randint(0, k2[j] - 1) for j in range(rank)]
            o2 = [n, c2] + [(out[j] - 1) * s2[j] - 2 * p2[j] + k2[j]
                            for j in range(rank)]
            if min(o2) < 1 or n * c2 * product(o2[2:]) > 100000:
                s2, k2, p2, o2 = ones, ones, [0] * rank, [n, c2] + out
            w2 = tensor([cout, c2] + k2, dt)
            args.append("%%w2: %s" % w2)
            r = fresh()
            lines.append(conv_transpose_line(r, cur, "%w2", None, s2, p2,
                                             [0] * rank, ones, 1, ot, w2,
                                             None, tensor(o2, dt)))
        cur = r
        ot = tensor(o2, dt)
        if epi == "addchain":
            cur = add_residual(cur, ot)
    lines.append("  return %s : %s" % (cur, ot))
    return "func.func @%s(%s) -> %s {\n%s\n}\n" % (
        name, ", ".join(args), ot, "\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--dtype", choices=["f32", "bf16", "f16"], default="f32")
    ap.add_argument("--wide", action="store_true")
    ap.add_argument("--dynamic-batch", action="store_true")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    prefix = "tw" if args.wide else ("td" if args.dynamic_batch else "tc")
    graphs, i = [], 0
    while len(graphs) < args.count:
        text = graph(rng, "%s%d_%s_%d" % (prefix, args.seed, args.dtype, i),
                     args.dtype, args.wide, args.dynamic_batch)
        i += 1
        if text:
            graphs.append(text)
    print("\n".join(graphs))


if __name__ == "__main__":
    main()
