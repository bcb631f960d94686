#!/usr/bin/env python3
# ===- bench/random_layers.py - Random-shape benchmark (issue 37) --------=== #
#
# Writes a seeded, deterministic set of fuse-dialect graphs over the shapes
# users have, for timing fusecc against torch.compile on shapes nobody tuned
# for (issue 37):
#   - COUNT single transposed-convolution layers: 1-, 2- and 3-D layers
#     (strides 1-4, kernels, dilation, padding and output padding from
#     vocab_graphs.conv_geometry; channels 3-512; groups 1, 2, 4, 8 or
#     depthwise; batch 1-256; bias or not) with zero to two epilogue ops
#     drawn from the whole vocabulary (vocab_graphs.epilogue_op);
#     FCN-style upscoring heads (stride 8, 16 or 32, kernel twice the
#     stride, up to 64); a convolution followed by pooling and a global
#     mean at large batch;
#   - multi-layer DCGAN-style generators (4x4 stride-2 layers, batch_norm
#     and relu, tanh last) and 2-D / 3-D decoders (norm + activation after
#     each layer), each at batch 1, 16 and 128.
# Single layers are sized so that their floor, max(FLOPs / TF32 rate,
# bytes / bandwidth) on the H200 (bench/chips.py), lands between 0.03 and
# 3 ms (so they run in about 0.05-20 ms), with at most 3 GB of arguments;
# each graph runs alone, so the set fits GPU memory one at a time.
#
# Every graph gets a manifest record: name, family, FLOPs (exact valid
# taps of its convolutions), bytes (every argument and output once), floor
# in ms on the H200, and a split, "fit" or "held-out" (alternating per
# family; a multi-batch design keeps one split), for issue 37's cost-model
# criterion (the model may be fitted on "fit" timings only).
#
# --small writes the same designs at tiny shapes (batch <= 2, a few
# channels, the smallest inputs) for the CPU simulator (fusecc-check, CI:
# test/Reference/random-layers.test).
#
# Usage: random_layers.py [--seed N] [--count N] [--models N] [--out DIR]
#                         [--small]
#   (without --out: all graphs as one module on stdout; with it: one
#   <name>.mlir per graph and manifest.json)
#
# ===--------------------------------------------------------------------=== #

import argparse
import json
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "python"))
from chips import floor_ms  # noqa: E402
from fusecc.flops import transposed_conv_macs  # noqa: E402
from vocab_graphs import conv_geometry, epilogue_op  # noqa: E402
from workload_graphs import Builder, TranslateError, arr, tensor  # noqa: E402

CHANNELS = [3, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512]
BATCHES = [1, 2, 4, 8, 16, 32, 64, 128, 256]
#: Largest kernel per rank for plain layers (upscoring heads go to 64).
MAX_KERNEL = {1: 16, 2: 7, 3: 5}
#: Largest input extent per spatial dim, per rank.
MAX_EXTENT = {1: 1 << 20, 2: 2048, 3: 160}
MAX_BYTES = 3e9
# Every value of the graph (intermediates too: fusecc keeps them on chip,
# but eager PyTorch and the float64 reference of bench/gpu_check.py
# materialise them, the latter at twice the size) stays below this.
MAX_VALUE_BYTES = 4e9
FLOOR_RANGE_MS = (0.03, 3.0)
#: Family of each of COUNT single layers, drawn with these weights.
LAYER_FAMILIES = [("layer1d", 15), ("layer2d", 35), ("layer3d", 20),
                  ("upscore", 15), ("pool_reduce", 15)]
MODEL_BATCHES = [1, 16, 128]


class Graph(Builder):
    """A Builder that counts its convolutions' FLOPs."""

    def __init__(self):
        super().__init__()
        self.flops = 0

    def conv(self, x, cout, k, s, p, op, d, groups=1, bias=True,
             prefix="conv"):
        xs = self.shape[x]
        out = [(xs[2 + j] - 1) * s[j] - 2 * p[j] + d[j] * (k[j] - 1) +
               op[j] + 1 for j in range(len(k))]
        if min(out) < 1:
            raise TranslateError("no output")
        w = self.arg(prefix + ".weight", [xs[1], cout // groups] + list(k))
        operands, types = [x, w], [tensor(xs), tensor(self.shape[w])]
        if bias:
            operands.append(self.arg(prefix + ".bias", [cout]))
            types.append(tensor([cout]))
        y = self.new([xs[0], cout] + out)
        self.lines.append(
            "  %s = fuse.conv_transpose %s {stride = %s, padding = %s, "
            "output_padding = %s, dilation = %s, groups = %d : i64} : (%s) "
            "-> %s" % (y, ", ".join(operands), arr(s), arr(p), arr(op),
                       arr(d), groups, ", ".join(types),
                       tensor(self.shape[y])))
        self.flops += 2 * transposed_conv_macs(xs, self.shape[w], s, p, op, d)
        return y

    def norm(self, kind, x, prefix):
        """group_norm, instance_norm or batch_norm (inference) with affine
        parameters; running variances abs(v) + 1, as a trained model's are
        (a random draw near zero would make the graph ill-conditioned:
        a TF32 rounding flip upstream amplified 30x by each norm)."""
        shape = self.shape[x]
        c = [shape[1]]
        if kind == "batch_norm":
            rm = self.arg(prefix + ".running_mean", c)
            rv = self.binary("add", self.unary(
                "abs", self.arg(prefix + ".running_var", c)), self.const(1.0))
            g, be = self.arg(prefix + ".weight", c), self.arg(
                prefix + ".bias", c)
            y = self.new(shape)
            self.lines.append(
                "  %s = fuse.batch_norm %s, %s, %s weight(%s) bias(%s) "
                "{training = false, epsilon = 1.0e-05 : f64} : (%s) -> %s"
                % (y, x, rm, rv, g, be, ", ".join(
                    tensor(s) for s in [shape, c, c, c, c]), tensor(shape)))
            return y
        g, be = self.arg(prefix + ".weight", c), self.arg(prefix + ".bias", c)
        attrs = "epsilon = 1.0e-05 : f64"
        y = self.new(shape)
        if kind == "group_norm":
            groups = max(gr for gr in (1, 2, 4, 8, 16, 32) if c[0] % gr == 0)
            attrs = "num_groups = %d : i64, " % groups + attrs
        self.lines.append("  %s = fuse.%s %s weight(%s : %s) bias(%s : %s) "
                          "{%s} : %s" % (y, kind, x, g, tensor(c), be,
                                         tensor(c), attrs, tensor(shape)))
        return y

    def activation(self, kind, x):
        if kind == "leaky_relu":
            return self.unary("leaky_relu", x, "slope = 0.2 : f64")
        return self.unary(kind, x)

    def text(self, name, result):
        args = ", ".join('%s: %s {fuse.name = "%s"}' % (ssa, tensor(shape), nm)
                         for ssa, nm, shape in self.args)
        out = tensor(self.shape[result])
        return "\n".join(["func.func @%s(%s) -> %s {" % (name, args, out)] +
                         self.lines + ["  return %s : %s" % (result, out),
                                       "}"]) + "\n"

    def largest_value_bytes(self):
        return 4 * max(math.prod(s) for s in self.shape.values())

    def moved_bytes(self, result):
        return 4 * (sum(math.prod(s) for _, _, s in self.args) +
                    math.prod(self.shape[result]))


# ---------------------------------------------------------------------------
# Designs: everything but the spatial input size, drawn from `rng`
# ---------------------------------------------------------------------------

def round_to(value, multiple):
    return max(multiple, (value + multiple - 1) // multiple * multiple)


def draw_layer(rng, family):
    """A single-layer design: a dict the builders below read."""
    design = {"family": family, "batch": rng.choice(BATCHES),
              "bias": rng.random() < 0.6, "epilogue": rng.choice([0, 1, 1, 2]),
              "target_ms": math.exp(rng.uniform(*map(math.log,
                                                     FLOOR_RANGE_MS)))}
    if family == "upscore":
        rank = 2 if rng.random() < 0.8 else 1
        s = rng.choice([8, 8, 16, 16, 32])
        c = rng.choice([2, 3, 21, 32, 64, 150])
        design.update(rank=rank, k=[2 * s] * rank, s=[s] * rank,
                      p=[s // 2] * rank, op=[0] * rank, d=[1] * rank,
                      cin=c, cout=c, groups=c if rng.random() < 0.3 else 1,
                      batch=rng.choice([1, 2, 4, 8, 16]),
                      epilogue=rng.choice([0, 0, 1]))
        return design
    if family == "pool_reduce":
        k, s, p = rng.choice([(4, 2, 1), (3, 1, 1), (2, 2, 0)])
        design.update(rank=2, k=[k, k], s=[s, s], p=[p, p], op=[0, 0],
                      d=[1, 1], cin=rng.choice(CHANNELS[3:]),
                      cout=rng.choice(CHANNELS[3:]), groups=1,
                      batch=rng.choice([64, 128, 128, 256]),
                      pool=rng.choice(["max_pool", "avg_pool"]),
                      reduce=rng.choice(["mean", "amax", "sum"]))
        return design
    rank = int(family[len("layer")])
    k, s, d, p, op = conv_geometry(rng, rank, MAX_KERNEL[rank], 0.3,
                                   max_stride=4)
    cin, cout = rng.choice(CHANNELS), rng.choice(CHANNELS)
    kind = rng.random()
    groups = 1
    if kind > 0.85:
        groups = cin = cout  # depthwise
    elif kind > 0.7:
        groups = rng.choice([2, 4, 8])
        cin, cout = round_to(cin, groups), round_to(cout, groups)
    design.update(rank=rank, k=k, s=s, d=d, p=p, op=op, cin=cin, cout=cout,
                  groups=groups)
    return design


def build_layer(design, spatial, name, erng):
    """The graph of a single-layer design at input extents `spatial`."""
    b = Graph()
    x = b.arg("x", [design["batch"], design["cin"]] + spatial)
    y = b.conv(x, design["cout"], design["k"], design["s"], design["p"],
               design["op"], design["d"], design["groups"], design["bias"])
    cur = y
    if design["family"] == "pool_reduce":
        shape = b.shape[y]
        if min(shape[2:]) < 2:
            raise TranslateError("too small to pool")
        pooled = shape[:2] + [n // 2 for n in shape[2:]]
        cur = b.window(design["pool"], y, pooled,
                       "kernel_size = %s, stride = %s, padding = %s"
                       % (arr([2, 2]), arr([2, 2]), arr([0, 0])))
        cur = b.reduce(design["reduce"], cur, [2, 3], False)
    else:
        spatial_layout = True
        for _ in range(design["epilogue"]):
            cur, spatial_layout = epilogue_op(b, erng, cur, y, spatial_layout)
    if b.largest_value_bytes() > MAX_VALUE_BYTES:
        raise TranslateError("a value of %.1f GB" %
                             (b.largest_value_bytes() / 1e9))
    return b.text(name, cur), b.flops, b.moved_bytes(cur)


def input_extents(design):
    """The smallest input extents with an output of at least 1 (and 2 where
    pooled)."""
    rank = design["rank"]
    need = 4 if design["family"] == "pool_reduce" else 1
    extents = []
    for j in range(rank):
        n = 1
        while ((n - 1) * design["s"][j] - 2 * design["p"][j] +
               design["d"][j] * (design["k"][j] - 1) + design["op"][j] +
               1) < need:
            n += 1
        extents.append(n)
    return extents


def sized_layer(design, name, seed_text, small):
    """Builds the design at the input size whose floor reaches its target
    (or at the smallest size with --small); (text, flops, bytes)."""
    spatial = input_extents(design)

    def build(extents):
        return build_layer(design, extents, name, random.Random(seed_text))
    if small:
        return build([max(n, 2) if design["rank"] < 3 else n
                      for n in spatial])
    best = build(spatial)
    dim = design["rank"] - 1
    for _ in range(64):
        if floor_ms(best[1], best[2]) >= design["target_ms"]:
            break
        grown = list(spatial)
        # Double one dim at a time, last first, round robin.
        grown[dim] *= 2
        dim = dim - 1 if dim > 0 else design["rank"] - 1
        if max(grown) > MAX_EXTENT[design["rank"]]:
            break
        try:
            candidate = build(grown)
        except TranslateError:
            break
        if candidate[2] > MAX_BYTES:
            break
        spatial, best = grown, candidate
    return best


def shrink(design):
    """The --small version of a design: batch <= 2, at most 6 channels
    (groups kept where they divide), depthwise stays depthwise."""
    small = dict(design)
    small["batch"] = min(design["batch"], 2)
    if design["groups"] == design["cin"] == design["cout"] and \
            design["groups"] > 1:
        small["groups"] = small["cin"] = small["cout"] = 4
    elif design["groups"] > 1:
        g = min(design["groups"], 2)
        small["groups"], small["cin"], small["cout"] = g, 2 * g, 3 * g
    else:
        small["cin"] = min(design["cin"], 5)
        small["cout"] = min(design["cout"], 6)
    return small


# ---------------------------------------------------------------------------
# Multi-layer models
# ---------------------------------------------------------------------------

def draw_generator(rng):
    return {"family": "generator", "nz": rng.choice([64, 100, 128]),
            "width": rng.choice([16, 32, 64]),
            "layers": rng.choice([4, 5]), "bias": False}


def build_generator(design, batch, name, small):
    """DCGAN: z [N, nz, 1, 1] -> 4x4 stride-1 layer -> 4x4 stride-2 layers
    (batch_norm + relu after each) -> 3 channels, tanh."""
    nz, width = design["nz"], design["width"]
    if small:
        nz, width, batch = min(nz, 6), 2, min(batch, 2)
    b = Graph()
    x = b.arg("z", [batch, nz, 1, 1])
    layers = design["layers"]
    for i in range(layers):
        last = i == layers - 1
        cout = 3 if last else width * 2 ** (layers - 2 - i)
        if i == 0:
            x = b.conv(x, cout, [4, 4], [1, 1], [0, 0], [0, 0], [1, 1],
                       bias=False, prefix="g%d" % i)
        else:
            x = b.conv(x, cout, [4, 4], [2, 2], [1, 1], [0, 0], [1, 1],
                       bias=False, prefix="g%d" % i)
        if last:
            x = b.unary("tanh", x)
        else:
            x = b.activation("relu", b.norm("batch_norm", x, "bn%d" % i))
    return b.text(name, x), b.flops, b.moved_bytes(x)


def draw_decoder(rng):
    rank = rng.choice([2, 2, 3])
    return {"family": "decoder%dd" % rank, "rank": rank,
            "channels": rng.choice([64, 128, 256] if rank == 2 else [32, 64]),
            "layers": rng.choice([2, 3]),
            "extent": rng.choice([16, 32, 64] if rank == 2 else [8, 16]),
            "norm": rng.choice(["group_norm", "instance_norm", "batch_norm",
                                None]),
            "activation": rng.choice(["relu", "leaky_relu", "silu", "gelu"]),
            "geometry": rng.choice([(4, 2, 1, 0), (3, 2, 1, 1)])}


def build_decoder(design, batch, name, small):
    """Stride-2 transposed convolutions halving the channels, each followed
    by a norm (or none) and an activation; the input shrinks until the
    arguments fit MAX_BYTES."""
    rank, c, extent = design["rank"], design["channels"], design["extent"]
    if small:
        c, extent, batch = 4, 2, min(batch, 2)
    k, s, p, op = design["geometry"]
    while True:
        b = Graph()
        x = b.arg("x", [batch, c] + [extent] * rank)
        ch = c
        for i in range(design["layers"]):
            ch = max(ch // 2, 2)
            x = b.conv(x, ch, [k] * rank, [s] * rank, [p] * rank,
                       [op] * rank, [1] * rank, prefix="conv%d" % i)
            if design["norm"]:
                x = b.norm(design["norm"], x, "norm%d" % i)
            x = b.activation(design["activation"], x)
        moved = b.moved_bytes(x)
        if small or moved <= MAX_BYTES or extent <= 2:
            return b.text(name, x), b.flops, moved
        extent //= 2


# ---------------------------------------------------------------------------
# The set
# ---------------------------------------------------------------------------

def generate(seed, count, small, models=4):
    """[(name, text, record)] for `count` single layers, `models`
    generators and `models` decoders at each of MODEL_BATCHES."""
    rng = random.Random(seed)
    families = [f for f, w in LAYER_FAMILIES for _ in range(w)]
    out, per_family = [], {}

    def add(name, built, family, split, **extra):
        text, flops, moved = built
        record = {"name": name, "family": family, "flops": flops,
                  "bytes": moved, "floor_ms": floor_ms(flops, moved),
                  "split": split}
        record.update(extra)
        out.append((name, text, record))

    index = 0
    while sum(1 for _, _, r in out if r["family"] not in
              ("generator", "decoder2d", "decoder3d")) < count:
        family = rng.choice(families)
        design = draw_layer(rng, family)
        name = "rand%d_%d_%s" % (seed, index, family)
        seed_text = "%d-%d" % (seed, index)
        index += 1
        try:
            built = sized_layer(shrink(design) if small else design, name,
                                seed_text, small)
        except TranslateError:
            continue
        n = per_family.get(family, 0)
        per_family[family] = n + 1
        add(name, built, family, "fit" if n % 2 == 0 else "held-out",
            batch=min(design["batch"], 2) if small else design["batch"])
    for kind, draw, build in (("gen", draw_generator, build_generator),
                              ("dec", draw_decoder, build_decoder)):
        for i in range(models):
            design = draw(rng)
            split = "fit" if i % 2 == 0 else "held-out"
            for batch in MODEL_BATCHES:
                name = "rand%d_%s%d_b%d" % (seed, kind, i, batch)
                add(name, build(design, batch, name, small), design["family"],
                    split, batch=batch)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--count", type=int, default=100,
                        help="single layers (models come on top)")
    parser.add_argument("--models", type=int, default=4,
                        help="generator and decoder designs (each at batch "
                             "1, 16 and 128)")
    parser.add_argument("--small", action="store_true",
                        help="tiny shapes for the CPU simulator")
    parser.add_argument("--out", help="write <name>.mlir and manifest.json")
    args = parser.parse_args()
    graphs = generate(args.seed, args.count, args.small, args.models)
    if not args.out:
        print("\n".join(text for _, text, _ in graphs))
        return 0
    os.makedirs(args.out, exist_ok=True)
    for name, text, _ in graphs:
        with open(os.path.join(args.out, name + ".mlir"), "w") as f:
            f.write(text)
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump({"seed": args.seed, "small": args.small,
                   "floor": "max(FLOPs / TF32 rate, bytes / bandwidth), "
                            "H200 (bench/chips.py)",
                   "graphs": [r for _, _, r in graphs]}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
