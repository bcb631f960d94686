#!/usr/bin/env python3
# ===- bench/make_variants.py - Small awkward-shape variants of the seeds -=== #
#
# Writes fuse-dialect graphs with the op chains of the seed workloads at
# small, awkward shapes (batch 1 and 3, channel counts that are not
# multiples of any tile, spatial sizes 1, 5, 7, 1-D/2-D/3-D, groups,
# stride 3, dilation), to catch boundary errors on the GPU.
#
# Usage: make_variants.py OUT_DIR
#
# ===--------------------------------------------------------------------=== #

import os
import sys


def out_size(i, k, s, p, op, d):
    return (i - 1) * s - 2 * p + d * (k - 1) + op + 1


def tensor(shape):
    return "tensor<" + "x".join(str(d) for d in shape) + ("x" if shape else "") + "f32>"


def arr(v):
    return "array<i64: " + ", ".join(str(x) for x in v) + ">"


def graph(name, n, cin, cout, spatial, k, s, p, op, d, groups, bias, epilogue):
    nsp = len(spatial)
    ks = [k] * nsp
    out = [out_size(spatial[i], ks[i], s, p, op, d) for i in range(nsp)]
    xin = [n, cin] + spatial
    w = [cin, cout // groups] + ks
    y = [n, cout] + out
    args = [f"%x: {tensor(xin)} {{fuse.name = \"x\"}}",
            f"%w: {tensor(w)} {{fuse.name = \"weight\"}}"]
    operands = "%x, %w"
    types = [tensor(xin), tensor(w)]
    if bias:
        args.append(f"%cb: {tensor([cout])} {{fuse.name = \"conv_bias\"}}")
        operands += ", %cb"
        types.append(tensor([cout]))
    body = []
    extra_args = []
    ty = tensor(y)
    body.append(
        f"  %v0 = fuse.conv_transpose {operands} {{stride = {arr([s] * nsp)}, "
        f"padding = {arr([p] * nsp)}, output_padding = {arr([op] * nsp)}, "
        f"dilation = {arr([d] * nsp)}, groups = {groups} : i64}}\n"
        f"       : ({', '.join(types)}) -> {ty}")
    cur = "%v0"
    for i, step in enumerate(epilogue):
        nxt = f"%v{i + 1}"
        kind = step[0]
        if kind == "softmax":
            dim = step[1] if len(step) > 1 else 1
            body.append(f"  {nxt} = fuse.softmax {cur} {{dim = {dim} : i64}} : {ty}")
        elif kind == "layer_norm":
            wn = [y[-1]]
            extra_args += [f"%lnw: {tensor(wn)} {{fuse.name = \"ln_weight\"}}",
                           f"%lnb: {tensor(wn)} {{fuse.name = \"ln_bias\"}}"]
            body.append(f"  {nxt} = fuse.layer_norm {cur} weight(%lnw : {tensor(wn)}) "
                        f"bias(%lnb : {tensor(wn)}) {{normalized_rank = 1 : i64, "
                        f"epsilon = 1.0e-05 : f64}} : {ty}")
        elif kind == "group_norm":
            wn = [cout]
            extra_args += [f"%gnw: {tensor(wn)} {{fuse.name = \"gn_weight\"}}",
                           f"%gnb: {tensor(wn)} {{fuse.name = \"gn_bias\"}}"]
            body.append(f"  {nxt} = fuse.group_norm {cur} weight(%gnw : {tensor(wn)}) "
                        f"bias(%gnb : {tensor(wn)}) {{num_groups = {step[1]} : i64, "
                        f"epsilon = 1.0e-05 : f64}} : {ty}")
        elif kind == "leaky_relu":
            body.append(f"  {nxt} = fuse.leaky_relu {cur} {{slope = 0.2 : f64}} : {ty}")
        elif kind in ("sigmoid", "gelu", "tanh", "relu"):
            body.append(f"  {nxt} = fuse.{kind} {cur} : {ty}")
        elif kind in ("add", "mul") and step[1] == "chan":
            shape = [cout] + [1] * nsp
            extra_args.append(f"%p{i}: {tensor(shape)} {{fuse.name = \"bias{i}\"}}")
            body.append(f"  {nxt} = fuse.{kind} {cur}, %p{i} : {ty}, {tensor(shape)} -> {ty}")
        elif kind in ("add", "mul") and step[1] == "y":
            body.append(f"  {nxt} = fuse.{kind} {cur}, %v0 : {ty}, {ty} -> {ty}")
        elif kind in ("add", "mul"):
            body.append(f"  %c{i} = arith.constant dense<{step[1]}> : tensor<f32>")
            body.append(f"  {nxt} = fuse.{kind} {cur}, %c{i} : {ty}, tensor<f32> -> {ty}")
        else:
            raise ValueError(kind)
        cur = nxt
    text = (f"// Small awkward-shape variant: {name}\n"
            f"func.func @{name}({', '.join(args + extra_args)}) -> {ty} {{\n"
            + "\n".join(body) + f"\n  return {cur} : {ty}\n}}\n")
    return text


VARIANTS = [
    # name, n, cin, cout, spatial, k, s, p, op, d, groups, bias, epilogue
    ("v49_softmax_sigmoid", 3, 5, 7, [1, 5, 7], 3, 2, 1, 1, 1, 1, True,
     [("softmax",), ("sigmoid",)]),
    ("v77_dilated", 1, 3, 5, [5, 7, 1], 3, 2, 1, 0, 2, 1, False, []),
    ("v34_layernorm_gelu", 3, 5, 6, [1, 5, 7], 4, 2, 1, 0, 1, 1, True,
     [("layer_norm",), ("gelu",), ("mul", "1.0")]),
    ("v20_residual", 1, 3, 70, [5, 1, 7], 3, 2, 1, 1, 1, 1, True,
     [("add", "chan"), ("add", "y"), ("mul", "y"), ("add", "y")]),
    ("v91_softmax_2d", 3, 7, 130, [5, 7], 4, 2, 1, 1, 1, 1, True,
     [("softmax",), ("add", "chan"), ("mul", "2.0"), ("sigmoid",)]),
    ("v_stride3_groups2", 3, 6, 10, [5, 7], 3, 3, 1, 2, 1, 2, True,
     [("relu",)]),
    ("v_conv1d_tanh", 3, 7, 5, [7], 5, 2, 2, 1, 1, 1, True, [("tanh",)]),
    ("v_softmax_last", 1, 4, 9, [5, 7], 3, 1, 0, 0, 1, 1, True,
     [("softmax", 3)]),
    # Plans: group_norm (statistics spanning blocks) behind the conv, and a
    # softmax over a spatial dim (a normalisation kernel of its own).
    ("v_gn_gelu", 3, 5, 6, [5, 7], 3, 1, 0, 0, 1, 1, True,
     [("gelu",), ("group_norm", 3)]),
    ("v_gn3d_leaky", 1, 3, 9, [1, 5, 7], 3, 2, 1, 1, 1, 1, True,
     [("relu",), ("group_norm", 9), ("leaky_relu",)]),
    ("v_gn_one_group_big", 1, 4, 8, [30, 40], 4, 2, 1, 0, 1, 1, False,
     [("group_norm", 1), ("sigmoid",)]),
    ("v_softmax_spatial", 3, 4, 5, [5, 7], 3, 2, 1, 1, 1, 1, True,
     [("softmax", 2), ("add", "chan")]),
]


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "out/variants"
    os.makedirs(out_dir, exist_ok=True)
    for v in VARIANTS:
        path = os.path.join(out_dir, v[0] + ".mlir")
        with open(path, "w") as f:
            f.write(graph(*v))
        print(path)


if __name__ == "__main__":
    main()
