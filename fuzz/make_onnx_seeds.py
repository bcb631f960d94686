#!/usr/bin/env python3
#===- make_onnx_seeds.py - seed corpus of the ONNX importer fuzzer -------===#
#
# make_onnx_seeds.py <out dir> [--per-base N] [--seed S]
#
# Writes the seed corpus of onnx-fuzzer: every model of the importer's lit
# generators (test/Import/ONNX/Inputs/gen_models.py, gen_window_models.py:
# the shapes PyTorch exports) and a selection of the ONNX node tests
# (Debian's libonnx-testdata, when installed), unchanged, then N structured
# mutations of each (default 3), chosen by a seeded random generator so the
# corpus is reproducible:
#   dims         an input's or output's dim set to 0, 1, -1, 2^31, 2^62 or
#                a small value; a dim added or dropped
#   attributes   an int, ints or float attribute set to an edge value (0,
#                -1, 2^31, 2^63 - 1, NaN, inf, 1e300), dropped, duplicated,
#                or given another type; an unknown attribute added
#   initializers dims changed with or without the data, raw_data cut or
#                grown, the element type changed, NaN / inf contents, a
#                duplicate name, a name shadowing an input
#   wiring       an input replaced by another value's name, dropped, or
#                made empty; an output renamed, duplicated or unused; two
#                nodes swapped (a use before its definition)
#   op types     a node's op_type replaced by another one the importer
#                knows, or by an unknown one
#   opsets       the default domain's version set to 0, 1, 6, 13, 18, 19
#                or 10^9, removed, or a node moved to another domain
# The files are named <base>-<k>.onnx (k = 0: unchanged).
#
#===----------------------------------------------------------------------===#
import argparse
import glob
import math
import os
import random
import sys

import onnx
from onnx import AttributeProto, TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "..", "test", "Import", "ONNX", "Inputs")
NODE_TESTS = "/usr/share/libonnx-testdata/data/node"
# Node tests of ops the importer converts (a few of each family).
NODE_TEST_PREFIXES = (
    "test_convtranspose", "test_batchnorm", "test_instancenorm",
    "test_layer_normalization_3d", "test_group_normalization",
    "test_softmax_axis", "test_logsoftmax_axis", "test_relu", "test_sigmoid",
    "test_tanh", "test_gelu", "test_leakyrelu", "test_clip_example",
    "test_elu_example", "test_add_bcast", "test_mul_bcast", "test_div_bcast",
    "test_sub_bcast", "test_flatten_axis", "test_reshape_reduced",
    "test_averagepool_2d", "test_maxpool_2d", "test_reduce_mean_keepdims",
    "test_reduce_sum_keepdims", "test_reduce_max_keepdims", "test_constant",
)
OP_TYPES = (
    "ConvTranspose", "BatchNormalization", "InstanceNormalization",
    "GroupNormalization", "LayerNormalization", "Relu", "Sigmoid", "Tanh",
    "Gelu", "LeakyRelu", "Clip", "Elu", "Add", "Mul", "Sub", "Div", "Reshape",
    "Flatten", "Softmax", "LogSoftmax", "MaxPool", "AveragePool",
    "ReduceMean", "ReduceSum", "Shape", "Gather", "Concat", "Unsqueeze",
    "Squeeze", "Constant", "Identity", "Transpose", "Conv", "NoSuchOp",
)
EDGE_INTS = (0, 1, -1, 2, 3, 2**31 - 1, 2**31, 2**62, 2**63 - 1, -2**63)
EDGE_FLOATS = (0.0, -1.0, 1e-30, 1e300, float("nan"), float("inf"),
               -float("inf"), 3.4e38)


def base_models():
    sys.path.insert(0, INPUTS)
    import gen_models
    import gen_window_models
    out = []
    for mod, prefix in ((gen_models, ""), (gen_window_models, "w_")):
        for name in sorted(mod.MODELS):
            try:
                out.append((prefix + name, mod.MODELS[name]()))
            except Exception as e:  # a generator needing something absent
                print("skipped %s: %s" % (name, e), file=sys.stderr)
    for d in sorted(glob.glob(os.path.join(NODE_TESTS, "test_*"))):
        name = os.path.basename(d)
        if name.endswith("_expanded") or not name.startswith(
                NODE_TEST_PREFIXES):
            continue
        path = os.path.join(d, "model.onnx")
        if os.path.exists(path):
            out.append(("n_" + name[5:], onnx.load(path)))
    return out


def value_names(g):
    names = [v.name for v in g.input] + [t.name for t in g.initializer]
    for n in g.node:
        names += [o for o in n.output if o]
    return names or ["x"]


def mutate_dims(r, m):
    g = m.graph
    vis = list(g.input) + list(g.output)
    if not vis:
        return
    vi = r.choice(vis)
    dims = vi.type.tensor_type.shape.dim
    what = r.randrange(3)
    if what == 0 and len(dims):
        d = r.choice(dims)
        d.Clear()
        if r.random() < 0.2:
            d.dim_param = "N"
        else:
            d.dim_value = r.choice((0, 1, -1, 2**31, 2**62, r.randrange(1, 9)))
    elif what == 1:
        dims.add().dim_value = r.randrange(1, 5)
    elif len(dims):
        del dims[r.randrange(len(dims))]


def mutate_attribute(r, m):
    nodes = [n for n in m.graph.node if n.attribute]
    if not nodes:
        n = r.choice(m.graph.node) if m.graph.node else None
        if n is not None:
            n.attribute.append(helper.make_attribute(
                r.choice(("axis", "group", "epsilon", "bogus")),
                r.choice(EDGE_INTS)))
        return
    n = r.choice(nodes)
    a = r.choice(n.attribute)
    what = r.randrange(6)
    if what == 0:
        n.attribute.remove(a)
    elif what == 1:
        n.attribute.append(a)  # duplicate
    elif what == 2:
        n.attribute.append(helper.make_attribute("no_such_attribute", 1))
    elif a.type == AttributeProto.INT:
        a.i = r.choice(EDGE_INTS) if what != 3 else a.i + r.choice((-1, 1))
    elif a.type == AttributeProto.INTS and len(a.ints):
        i = r.randrange(len(a.ints))
        a.ints[i] = r.choice(EDGE_INTS)
        if what == 5:
            a.ints.append(r.randrange(4))
    elif a.type == AttributeProto.FLOAT:
        a.f = r.choice(EDGE_FLOATS)
    else:
        a.type = r.choice((AttributeProto.INT, AttributeProto.FLOAT,
                           AttributeProto.STRING, AttributeProto.INTS))


def mutate_initializer(r, m):
    g = m.graph
    if not g.initializer:
        return
    t = r.choice(g.initializer)
    what = r.randrange(8)
    if what == 0 and len(t.dims):
        t.dims[r.randrange(len(t.dims))] = r.choice((0, 1, 2, 7, 2**31, 2**40))
    elif what == 1:
        t.dims.append(r.choice((1, 2)))
    elif what == 2 and t.raw_data:
        cut = r.randrange(len(t.raw_data) + 1)
        t.raw_data = t.raw_data[:cut] + (b"\x7f" * r.randrange(3))
    elif what == 3:
        t.data_type = r.choice((TensorProto.FLOAT, TensorProto.DOUBLE,
                                TensorProto.INT64, TensorProto.INT8,
                                TensorProto.FLOAT16, TensorProto.STRING, 99))
    elif what == 4 and t.data_type == TensorProto.FLOAT:
        n = math.prod(t.dims) if len(t.dims) else 1
        if n <= 4096:
            vals = [r.choice(EDGE_FLOATS) for _ in range(n)]
            t.ClearField("raw_data")
            del t.float_data[:]
            t.float_data.extend(vals)
    elif what == 5:
        g.initializer.append(t)  # the same name twice
    elif what == 6 and g.input:
        t.name = r.choice(g.input).name  # shadows an input
    else:
        t.data_location = TensorProto.EXTERNAL


def mutate_wiring(r, m):
    g = m.graph
    if not g.node:
        return
    n = r.choice(g.node)
    what = r.randrange(7)
    if what == 0 and len(n.input):
        n.input[r.randrange(len(n.input))] = r.choice(value_names(g))
    elif what == 1 and len(n.input):
        del n.input[r.randrange(len(n.input))]
    elif what == 2:
        n.input.append("" if r.random() < 0.5 else r.choice(value_names(g)))
    elif what == 3 and len(n.output):
        n.output[r.randrange(len(n.output))] = r.choice(value_names(g))
    elif what == 4:
        n.output.append("unused_%d" % r.randrange(100))
    elif what == 5 and len(g.node) > 1:
        i, j = r.sample(range(len(g.node)), 2)
        a, b = onnx.NodeProto(), onnx.NodeProto()
        a.CopyFrom(g.node[i])
        b.CopyFrom(g.node[j])
        g.node[i].CopyFrom(b)
        g.node[j].CopyFrom(a)
    elif g.output:
        g.output.append(r.choice(g.output))


def mutate_op_type(r, m):
    if m.graph.node:
        r.choice(m.graph.node).op_type = r.choice(OP_TYPES)


def mutate_opset(r, m):
    what = r.randrange(4)
    if what == 0 or not m.opset_import:
        del m.opset_import[:]
        if what:
            m.opset_import.append(helper.make_opsetid("", 13))
    elif what == 1:
        m.opset_import[0].version = r.choice((0, 1, 6, 13, 18, 19, 10**9))
    elif what == 2 and m.graph.node:
        r.choice(m.graph.node).domain = r.choice(("com.microsoft", "ai.onnx",
                                                  "x"))
    else:
        m.ir_version = r.choice((0, 3, 4, 9, 100))


MUTATIONS = (mutate_dims, mutate_attribute, mutate_initializer,
             mutate_wiring, mutate_op_type, mutate_opset)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--per-base", type=int, default=3)
    ap.add_argument("--seed", type=int, default=38)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    r = random.Random(args.seed)
    count = 0
    for name, model in base_models():
        data = model.SerializeToString()
        with open(os.path.join(args.out, "%s-0.onnx" % name), "wb") as f:
            f.write(data)
        count += 1
        for k in range(1, args.per_base + 1):
            m = onnx.ModelProto()
            m.ParseFromString(data)
            for _ in range(r.choice((1, 1, 2, 3))):
                r.choice(MUTATIONS)(r, m)
            with open(os.path.join(args.out, "%s-%d.onnx" % (name, k)),
                      "wb") as f:
                f.write(m.SerializeToString())
            count += 1
    print("make_onnx_seeds: %d files in %s" % (count, args.out))


if __name__ == "__main__":
    main()
