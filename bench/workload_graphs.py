#!/usr/bin/env python3
# ===- bench/workload_graphs.py - fuse graphs of workloads.json layers ---=== #
#
# Writes one fuse-dialect graph per workload of ../shared/workloads/
# workloads.json: the transposed convolution, the prologue on the graph
# input and every epilogue line, translated from the file's PyTorch text
# (`x = max_pool3d(x, kernel=2)`, `x = x + bias`, `y = x`, ...). Parameters
# become named graph inputs of their listed shape (scalars as rank-0
# tensors); literal numbers become scalar constants. A line the translator
# does not know is an error naming the workload and the line.
#
# `--small` writes small-shape versions of the same chains (batch 2, a few
# channels, the smallest spatial sizes for which every window fits) for the
# CPU simulator (fusecc-check) and CI.
#
# Usage: workload_graphs.py OUT_DIR [--workloads FILE] [--names a,b,...]
#        [--small] [--skip-existing DIR]
#
# ===--------------------------------------------------------------------=== #

import argparse
import json
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


#: Shapes of --small graphs (spatial: the first spatial size tried).
SMALL = {"batch": 2, "cin": 3, "cout": 5, "spatial": 1}


class TranslateError(ValueError):
    """A workload line the translator cannot express."""


def tensor(shape):
    return "tensor<%sxf32>" % "".join("%dx" % d for d in shape)[:-1] \
        if shape else "tensor<f32>"


def arr(v):
    return "array<i64: %s>" % ", ".join(str(x) for x in v)


def fmt(v):
    """A float literal MLIR parses."""
    text = repr(float(v))
    mantissa, e, exp = text.partition("e")
    if "." not in mantissa and "n" not in mantissa:
        mantissa += ".0"
    return mantissa + e + exp


def broadcast(a, b):
    out = []
    for i in range(max(len(a), len(b))):
        x = a[len(a) - 1 - i] if i < len(a) else 1
        y = b[len(b) - 1 - i] if i < len(b) else 1
        if x != y and 1 not in (x, y):
            raise TranslateError("shapes %s and %s do not broadcast" % (a, b))
        out.append(max(x, y) if 1 in (x, y) else x)
    return out[::-1]


def pool_out(n, k, s, p, d=1, ceil=False):
    num = n + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil else 0)
    out = num // s + 1
    if ceil and (out - 1) * s >= n + p:
        out -= 1
    return out


def conv_out(c, spatial_in):
    return [(i - 1) * s - 2 * p + d * (k - 1) + op + 1 for i, s, p, d, k, op in
            zip(spatial_in, c["stride"], c["padding"], c["dilation"],
                c["weight"][2:], c["output_padding"])]


class Builder:
    """Emits the graph's ops, tracking each value's shape."""

    def __init__(self):
        self.lines = []
        self.args = []  # (name, shape)
        self.count = 0
        self.shape = {}
        self.consts = {}

    def arg(self, name, shape):
        ssa = "%" + re.sub(r"\W", "_", name)
        self.args.append((ssa, name, shape))
        self.shape[ssa] = shape
        return ssa

    def new(self, shape):
        ssa = "%%%d" % self.count
        self.count += 1
        self.shape[ssa] = shape
        return ssa

    def const(self, value):
        key = fmt(value)
        if key not in self.consts:
            ssa = self.new([])
            self.lines.append("  %s = arith.constant dense<%s> : tensor<f32>"
                              % (ssa, key))
            self.consts[key] = ssa
        return self.consts[key]

    def unary(self, op, x, attrs=""):
        y = self.new(self.shape[x])
        self.lines.append("  %s = fuse.%s %s%s : %s" % (
            y, op, x, " {%s}" % attrs if attrs else "", tensor(self.shape[x])))
        return y

    def binary(self, op, a, b):
        shape = broadcast(self.shape[a], self.shape[b])
        y = self.new(shape)
        self.lines.append("  %s = fuse.%s %s, %s : %s, %s -> %s" % (
            y, op, a, b, tensor(self.shape[a]), tensor(self.shape[b]),
            tensor(shape)))
        return y

    def window(self, op, x, shape, attrs=""):
        y = self.new(shape)
        self.lines.append("  %s = fuse.%s %s%s : %s -> %s" % (
            y, op, x, " {%s}" % attrs if attrs else "", tensor(self.shape[x]),
            tensor(shape)))
        return y

    def pool(self, kind, x, kernel, stride=None, padding=0):
        shape = self.shape[x]
        sp = len(shape) - 2
        k = [kernel] * sp
        s = [stride or kernel] * sp
        p = [padding] * sp
        out = shape[:2] + [pool_out(n, kk, ss, pp)
                           for n, kk, ss, pp in zip(shape[2:], k, s, p)]
        if min(out) < 1:
            raise TranslateError("window does not fit %s" % shape)
        return self.window(kind, x, out, "kernel_size = %s, stride = %s, "
                           "padding = %s" % (arr(k), arr(s), arr(p)))

    def reduce(self, kind, x, dims, keepdim):
        shape = self.shape[x]
        dims = [d % len(shape) for d in dims]
        out = [1 if i in dims else n for i, n in enumerate(shape)
               if keepdim or i not in dims]
        return self.window(kind, x, out, "dims = %s, keepdim = %s" % (
            arr(dims), "true" if keepdim else "false"))


NUMBER = r"-?\d+(?:\.\d*)?(?:e-?\d+)?"
BINARY = {"+": "add", "-": "sub", "*": "mul", "/": "div"}
UNARY = {"gelu": "gelu", "sigmoid": "sigmoid", "tanh": "tanh", "mish": "mish",
         "relu": "relu", "hardswish": "hardswish", "silu": "silu"}


def kwargs(text):
    """`a, b=1, c=(2,3)` -> (positional, keyword) lists of strings."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
            continue
        depth += ch in "([" and 1 or (ch in ")]" and -1 or 0)
        cur += ch
    if cur.strip():
        parts.append(cur.strip())
    pos = [p for p in parts if "=" not in p]
    kw = dict(p.split("=", 1) for p in parts if "=" in p)
    return pos, {k.strip(): v.strip() for k, v in kw.items()}


def ints(text):
    return [int(t) for t in re.findall(r"-?\d+", text)]


def translate(w, small):
    """The graph of workload `w` as text; TranslateError if a line is not
    understood."""
    c = dict(w["conv"])
    sp = c["dims"]
    params = w["parameters"]
    b = Builder()
    lines = [l.split("#")[0].strip() for l in w["epilogue"]]
    prologue = [l.split("#")[0].strip() for l in w["prologue"]]

    x_shape = list(w.get("prologue_input") or c["input"])
    cin, cout = c["input"][1], c["output"][1]
    if small:
        groups = [int(m) for l in lines
                  for m in re.findall(r"groups=(\d+)", l)]
        cin = min(cin, SMALL["cin"]) * c["groups"]
        cout = 2 * groups[0] if groups else min(cout, SMALL["cout"]) * \
            c["groups"]
    # Spatial sizes: as listed, or the smallest for which every window fits.
    candidates = [None] if not small else range(SMALL["spatial"], 12)
    for n in candidates:
        try:
            return build(w, c, sp, params, lines, prologue, x_shape, cin, cout,
                         n)
        except TranslateError as e:
            if not small or "window does not fit" not in str(e):
                raise
    raise TranslateError("no small shape fits the windows")


def build(w, c, sp, params, lines, prologue, x_shape, cin, cout, n):
    b = Builder()
    wshape = [cin, cout // c["groups"]] + c["weight"][2:]
    if n is not None:
        # Small: batch 2, `n` + i along spatial dim i before the conv
        # (or before the prologue's window).
        batch = SMALL["batch"]
        x_shape = [batch, cin] + [n + i for i in range(sp)]
        if w["name"] == "kb2_38":
            x_shape = [batch, cin] + [2 * (n + i) for i in range(sp)]
    else:
        batch = x_shape[0]
    last_dim_of_output = None
    x = b.arg("x", x_shape)
    for line in prologue:
        m = re.fullmatch(r"x = (avg|max)_pool\dd\(x, kernel=(\d+)\)", line)
        if not m:
            raise TranslateError("prologue line '%s'" % line)
        x = b.pool(m.group(1) + "_pool", x, int(m.group(2)))
    conv_in = b.shape[x]
    wt = b.arg("weight", wshape)
    out_shape = [batch, cout] + conv_out(c, conv_in[2:])
    if min(out_shape) < 1:
        raise TranslateError("window does not fit: conv output %s" % out_shape)
    operands = [x, wt]
    if c["bias"]:
        operands.append(b.arg("conv_bias", [cout]))
    y = b.new(out_shape)
    b.lines.append(
        "  %s = fuse.conv_transpose %s {stride = %s, padding = %s, "
        "output_padding = %s, dilation = %s, groups = %d : i64} : (%s) -> %s"
        % (y, ", ".join(operands), arr(c["stride"]), arr(c["padding"]),
           arr(c["output_padding"]), arr(c["dilation"]), c["groups"],
           ", ".join(tensor(b.shape[o]) for o in operands),
           tensor(out_shape)))
    env = {"x": y}

    def param(name):
        shape, init = params[name]
        if "graph input" in init:
            shape = list(b.shape[env["x"]])
        elif n is not None and shape:
            # Per-channel parameters follow the small channel count.
            shape = [cout if i == len(shape) - sp - 1 else d
                     for i, d in enumerate(shape)]
        return b.arg(name, list(shape))

    def operand(tok):
        tok = tok.strip()
        if tok in env:
            return env[tok]
        if tok in params:
            env[tok] = param(tok)
            return env[tok]
        if re.fullmatch(NUMBER, tok):
            return b.const(float(tok))
        m = re.fullmatch(r"(\w+)\((\w+)\)", tok)
        if m and m.group(1) in UNARY:
            return b.unary(UNARY[m.group(1)], operand(m.group(2)))
        raise TranslateError("operand '%s'" % tok)

    for line in lines:
        m = re.fullmatch(r"(\w+) = (\w+)", line)
        if m:
            env[m.group(1)] = operand(m.group(2))
            continue
        m = re.fullmatch(r"x = (\S+) ([-+*/]) (\S+(?:\(\w+\))?)", line)
        if m:
            env["x"] = b.binary(BINARY[m.group(2)], operand(m.group(1)),
                                operand(m.group(3)))
            continue
        m = re.fullmatch(r"x = (\w+)\((.*)\)", line)
        if not m:
            raise TranslateError("line '%s'" % line)
        fn, (pos, kw) = m.group(1), kwargs(m.group(2))
        x = env["x"]
        shape = b.shape[x]
        if fn in UNARY and len(pos) == 1 and not kw:
            env["x"] = b.unary(UNARY[fn], operand(pos[0]))
        elif fn == "leaky_relu":
            env["x"] = b.unary("leaky_relu", x, "slope = %s : f64" % fmt(pos[1]))
        elif fn in ("clamp", "hardtanh"):
            lo = kw.get("min", pos[1] if len(pos) > 1 else None)
            hi = kw.get("max", pos[2] if len(pos) > 2 else None)
            attrs = ", ".join(
                "%s = %s : f64" % (k, fmt(v))
                for k, v in (("min", lo), ("max", hi)) if v is not None)
            env["x"] = b.unary("clamp", x, attrs)
        elif fn == "minimum":
            env["x"] = b.binary("minimum", x, operand(pos[1]))
        elif fn == "softmax" and pos[0] == "x":
            env["x"] = b.unary("softmax", x, "dim = %d : i64" % int(kw["dim"]))
        elif fn == "softmax" and pos[0].startswith("x.view(B, C, -1)"):
            flat = shape[:2] + [eval("*".join(map(str, shape[2:])))]
            v = b.window("reshape", x, flat)
            v = b.unary("softmax", v, "dim = 2 : i64")
            env["x"] = b.window("reshape", v, shape)
        elif fn == "layer_norm":
            norm = ints(kw["normalized_shape"])
            rank = len(norm)
            norm = shape[len(shape) - rank:]
            y = b.new(shape)
            text = "  %s = fuse.layer_norm %s" % (y, x)
            if "affine" in pos:
                g = b.arg("ln_weight", norm)
                be = b.arg("ln_bias", norm)
                text += " weight(%s : %s) bias(%s : %s)" % (
                    g, tensor(norm), be, tensor(norm))
            b.lines.append(text + " {normalized_rank = %d : i64, "
                           "epsilon = %s : f64} : %s" % (
                               rank, fmt(kw.get("eps", "1e-5")),
                               tensor(shape)))
            env["x"] = y
        elif fn == "group_norm":
            y = b.new(shape)
            text = "  %s = fuse.group_norm %s" % (y, x)
            if "affine" in pos:
                g = b.arg("gn_weight", [shape[1]])
                be = b.arg("gn_bias", [shape[1]])
                text += " weight(%s : %s) bias(%s : %s)" % (
                    g, tensor([shape[1]]), be, tensor([shape[1]]))
            b.lines.append(text + " {num_groups = %d : i64, "
                           "epsilon = %s : f64} : %s" % (
                               int(kw["groups"]), fmt(kw.get("eps", "1e-5")),
                               tensor(shape)))
            env["x"] = y
        elif re.fullmatch(r"(avg|max)_pool\dd", fn):
            env["x"] = b.pool(fn[:-2], x, int(kw["kernel"]),
                              int(kw["stride"]) if "stride" in kw else None,
                              int(kw.get("padding", 0)))
        elif fn in ("mean", "sum", "amax", "amin", "logsumexp"):
            env["x"] = b.reduce(fn, x, ints(kw["dim"]),
                                kw.get("keepdim", "False") == "True")
        else:
            raise TranslateError("line '%s'" % line)
    result = env["x"]
    rshape = b.shape[result]
    if n is None and rshape != w["final_output"]:
        raise TranslateError("translated output %s, workloads.json says %s"
                             % (rshape, w["final_output"]))
    args = ", ".join('%s: %s {fuse.name = "%s"}' % (ssa, tensor(shape), name)
                     for ssa, name, shape in b.args)
    suffix = SMALL.get("suffix", "_small") if n is not None else ""
    text = ["// %s: %s" % (w["name"], w["origin"])]
    for l in w["prologue"]:
        text.append("//   prologue: %s" % l)
    for l in w["epilogue"]:
        text.append("//   %s" % l)
    text.append("func.func @%s%s(%s) -> %s {" % (w["name"], suffix, args,
                                                 tensor(rshape)))
    text += b.lines
    text.append("  return %s : %s" % (result, tensor(rshape)))
    text.append("}")
    return "\n".join(text) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out")
    parser.add_argument("--workloads", default=os.path.join(
        REPO, "..", "shared", "workloads", "workloads.json"))
    parser.add_argument("--names", default="",
                        help="comma-separated workload names (default all)")
    parser.add_argument("--small", action="store_true",
                        help="small shapes for the CPU simulator")
    parser.add_argument("--skip-existing", default="",
                        help="skip workloads with a graph of that name in "
                        "this directory")
    parser.add_argument("--small-shape", default="",
                        help="with --small: BATCH,CIN,COUT,SPATIAL (default "
                        "2,3,5,1)")
    parser.add_argument("--suffix", default="_small",
                        help="with --small: suffix of the graph names")
    args = parser.parse_args()
    SMALL["suffix"] = args.suffix
    if args.small_shape:
        values = [int(v) for v in args.small_shape.split(",")]
        SMALL.update(zip(("batch", "cin", "cout", "spatial"), values))
    with open(args.workloads) as f:
        workloads = json.load(f)["workloads"]
    names = set(filter(None, args.names.split(",")))
    os.makedirs(args.out, exist_ok=True)
    failed = 0
    for w in workloads:
        if names and w["name"] not in names:
            continue
        if args.skip_existing and os.path.exists(
                os.path.join(args.skip_existing, w["name"] + ".mlir")):
            continue
        try:
            text = translate(w, args.small)
        except TranslateError as e:
            print("error: %s: %s" % (w["name"], e), file=sys.stderr)
            failed += 1
            continue
        suffix = args.suffix if args.small else ""
        path = os.path.join(args.out, w["name"] + suffix + ".mlir")
        with open(path, "w") as f:
            f.write(text)
        print("wrote %s" % path)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
