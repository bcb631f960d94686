#!/usr/bin/env python3
"""Writes whole decoder graphs as fuse MLIR (weights as named arguments).

    python3 examples/models/mlir/decoders.py OUT_DIR [--small]

Four decoders, each one bundle (`fusecc OUT_DIR/<name>.mlir --emit=plan`
shows how it is fused):
  unet_decoder   a pix2pix-style U-Net decoder: ConvTranspose2d(k4, s2, p1)
                 + BatchNorm + ReLU, cat with the skip tensor, three times,
                 then ConvTranspose2d to 3 channels and Tanh.
  heatmap_head   Simple-Baselines pose head: three ConvTranspose2d(k4, s2,
                 p1) + BatchNorm + ReLU, then a 1x1 Conv2d to 17 heatmaps.
  vae_up_block   a Stable-Diffusion-VAE-style up block: a ResNet block
                 (GroupNorm(32) + SiLU + 3x3 conv, twice, plus the skip),
                 nearest x2 upsampling and a 3x3 conv.
  residual_block a residual decoder block whose branches are both computed:
                 upsample by ConvTranspose2d, then relu(conv3x3(relu(bn(
                 conv3x3(u)))) + conv1x1(u)).
`--small` writes the same graphs at shapes the CPU simulator checks in
seconds (test/Reference/decoders.test). Needs only the standard library.
"""

import argparse
import os


class Graph:
    """Collects arguments and ops of one func.func in MLIR text."""

    def __init__(self, name):
        self.name = name
        self.args = []
        self.lines = []
        self.count = 0

    @staticmethod
    def ty(shape):
        return "tensor<%sxf32>" % "x".join(str(d) for d in shape)

    def arg(self, name, shape, check_mean=None):
        value = "%%a%d" % len(self.args)
        # fuse.check.mean: fusecc-check draws the input about this mean (a
        # running variance must be positive, or the outputs are all NaN).
        extra = ("" if check_mean is None
                 else ", fuse.check.mean = %s : f64" % check_mean)
        self.args.append('%s: %s {fuse.name = "%s"%s}'
                         % (value, self.ty(shape), name, extra))
        return value, list(shape)

    def op(self, text, shape):
        value = "%%v%d" % self.count
        self.count += 1
        self.lines.append("  %s = %s" % (value, text))
        return value, list(shape)

    def unary(self, kind, x):
        return self.op("fuse.%s %s : %s" % (kind, x[0], self.ty(x[1])), x[1])

    def binary(self, kind, a, b):
        return self.op("fuse.%s %s, %s : %s, %s -> %s"
                       % (kind, a[0], b[0], self.ty(a[1]), self.ty(b[1]),
                          self.ty(a[1])), a[1])

    def conv(self, prefix, x, cout, k, padding, bias=True):
        n, cin, h, w = x[1]
        wt = self.arg(prefix + ".weight", [cout, cin, k, k])
        operands = [x, wt]
        if bias:
            operands.append(self.arg(prefix + ".bias", [cout]))
        out = [n, cout, h + 2 * padding - k + 1, w + 2 * padding - k + 1]
        return self.op(
            "fuse.conv %s {stride = array<i64: 1, 1>, padding = array<i64: "
            "%d, %d>, dilation = array<i64: 1, 1>} : (%s) -> %s"
            % (", ".join(o[0] for o in operands), padding, padding,
               ", ".join(self.ty(o[1]) for o in operands), self.ty(out)), out)

    def deconv(self, prefix, x, cout, bias=True):
        """ConvTranspose2d(k4, s2, p1): doubles H and W."""
        n, cin, h, w = x[1]
        wt = self.arg(prefix + ".weight", [cin, cout, 4, 4])
        operands = [x, wt]
        if bias:
            operands.append(self.arg(prefix + ".bias", [cout]))
        out = [n, cout, 2 * h, 2 * w]
        return self.op(
            "fuse.conv_transpose %s {stride = array<i64: 2, 2>, padding = "
            "array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = "
            "array<i64: 1, 1>} : (%s) -> %s"
            % (", ".join(o[0] for o in operands),
               ", ".join(self.ty(o[1]) for o in operands), self.ty(out)), out)

    def batch_norm(self, prefix, x):
        c = x[1][1]
        ps = [self.arg(prefix + "." + p, [c],
                       4.0 if p == "running_var" else None)
              for p in ("running_mean", "running_var", "weight", "bias")]
        types = ", ".join(self.ty(v[1]) for v in [x] + ps)
        return self.op(
            "fuse.batch_norm %s, %s, %s weight(%s) bias(%s) {epsilon = "
            "1.0e-05 : f64} : (%s) -> %s"
            % (x[0], ps[0][0], ps[1][0], ps[2][0], ps[3][0], types,
               self.ty(x[1])), x[1])

    def group_norm(self, prefix, x, groups):
        c = x[1][1]
        g = self.arg(prefix + ".weight", [c])
        b = self.arg(prefix + ".bias", [c])
        return self.op(
            "fuse.group_norm %s weight(%s : %s) bias(%s : %s) {num_groups = "
            "%d : i64, epsilon = 1.0e-06 : f64} : %s"
            % (x[0], g[0], self.ty(g[1]), b[0], self.ty(b[1]), groups,
               self.ty(x[1])), x[1])

    def concat(self, xs):
        out = list(xs[0][1])
        out[1] = sum(x[1][1] for x in xs)
        return self.op("fuse.concat %s {dim = 1 : i64} : (%s) -> %s"
                       % (", ".join(x[0] for x in xs),
                          ", ".join(self.ty(x[1]) for x in xs),
                          self.ty(out)), out)

    def upsample_nearest2x(self, x):
        n, c, h, w = x[1]
        out = [n, c, 2 * h, 2 * w]
        return self.op("fuse.upsample %s {scales = array<f64: 2.0, 2.0>} : "
                       "%s -> %s" % (x[0], self.ty(x[1]), self.ty(out)), out)

    def text(self, doc, result):
        head = "".join("// %s\n" % line for line in doc)
        sig = (",\n" + " " * (len(self.name) + 11)).join(self.args)
        return ("%sfunc.func @%s(%s)\n    -> %s {\n%s\n  return %s : %s\n}\n"
                % (head, self.name, sig, self.ty(result[1]),
                   "\n".join(self.lines), result[0], self.ty(result[1])))


def unet_decoder(small):
    n, c, hw = (1, 16, 2) if small else (8, 512, 8)
    g = Graph("unet_decoder")
    x = g.arg("x", [n, c, hw, hw])
    skips = [g.arg("skip%d" % i,
                   [n, c >> (i + 1), hw << (i + 1), hw << (i + 1)])
             for i in range(3)]
    for i, skip in enumerate(skips):
        u = g.deconv("up%d" % i, x, c >> (i + 1), bias=False)
        u = g.unary("relu", g.batch_norm("up%d.bn" % i, u))
        x = g.concat([u, skip])
    y = g.unary("tanh", g.deconv("final", x, 3))
    return g.text(["A pix2pix-style U-Net decoder: 3 x (ConvTranspose2d(k4, "
                   "s2, p1) + BatchNorm + ReLU,",
                   "cat with the encoder's skip tensor), then "
                   "ConvTranspose2d to 3 channels and Tanh."], y)


def heatmap_head(small):
    n, c, hw, joints = (1, 16, 4, 5) if small else (16, 256, 16, 17)
    g = Graph("heatmap_head")
    x = g.arg("x", [n, c, hw, hw])
    for i in range(3):
        x = g.deconv("deconv%d" % i, x, c, bias=False)
        x = g.unary("relu", g.batch_norm("bn%d" % i, x))
    y = g.conv("final", x, joints, 1, 0)
    return g.text(["Simple-Baselines pose head: 3 x (ConvTranspose2d(k4, s2, "
                   "p1) + BatchNorm + ReLU),",
                   "then a 1x1 Conv2d to %d heatmaps." % joints], y)


def vae_up_block(small):
    n, c, hw, groups = (1, 16, 4, 4) if small else (4, 256, 64, 32)
    g = Graph("vae_up_block")
    x = g.arg("x", [n, c, hw, hw])
    h = g.unary("silu", g.group_norm("res.norm1", x, groups))
    h = g.conv("res.conv1", h, c, 3, 1)
    h = g.unary("silu", g.group_norm("res.norm2", h, groups))
    h = g.conv("res.conv2", h, c, 3, 1)
    r = g.binary("add", x, h)
    u = g.upsample_nearest2x(r)
    y = g.conv("upsample.conv", u, c, 3, 1)
    return g.text(["A Stable-Diffusion-VAE-style up block: a ResNet block "
                   "(GroupNorm + SiLU + 3x3",
                   "conv, twice, plus the skip), nearest x2 upsampling, a "
                   "3x3 conv."], y)


def residual_block(small):
    n, cin, c, hw = (1, 8, 16, 4) if small else (8, 256, 128, 32)
    g = Graph("residual_block")
    x = g.arg("x", [n, cin, hw, hw])
    u = g.unary("relu", g.deconv("up", x, c))
    a = g.conv("branch.conv1", u, c, 3, 1, bias=False)
    a = g.unary("relu", g.batch_norm("branch.bn1", a))
    a = g.conv("branch.conv2", a, c, 3, 1)
    b = g.conv("shortcut", u, c, 1, 0)
    y = g.unary("relu", g.binary("add", a, b))
    return g.text(["A residual decoder block, both branches computed: "
                   "ConvTranspose2d upsampling,",
                   "then relu(conv3x3(relu(bn(conv3x3(u)))) + "
                   "conv1x1(u))."], y)


MODELS = {"unet_decoder": unet_decoder, "heatmap_head": heatmap_head,
          "vae_up_block": vae_up_block, "residual_block": residual_block}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir")
    parser.add_argument("--small", action="store_true",
                        help="shapes the CPU simulator checks quickly")
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    for name, build in MODELS.items():
        with open(os.path.join(args.out_dir, name + ".mlir"), "w") as f:
            f.write("// Generated by examples/models/mlir/decoders.py%s.\n"
                    % (" --small" if args.small else ""))
            f.write(build(args.small))


if __name__ == "__main__":
    main()
