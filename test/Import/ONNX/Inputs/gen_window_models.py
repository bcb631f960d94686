#!/usr/bin/env python3
#===- gen_window_models.py - ONNX models of pooling, reductions, reshapes -===#
#
# gen_window_models.py <name> <out.onnx>: writes the model <name> (see
# MODELS) for the window-op lit tests, with gen_models.py's helpers.
#
#===----------------------------------------------------------------------===#
import os
import sys

import numpy as np
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_models import init, model, vi  # noqa: E402

n = helper.make_node


def pool(op, in_shape, out_shape, opset=17, outputs=("y",), **attrs):
    nodes = [n(op, ["x"], list(outputs), name="p", **attrs)]
    return model(nodes, [vi("x", in_shape)],
                 [vi(o, out_shape) for o in outputs], opset=opset)


def ints(name, values):
    return init(name, np.array(values, dtype=np.int64))


def reduce_attr():
    # Opset 17: axes as an attribute (ReduceSum: as input 1).
    nodes = [
        n("ReduceMean", ["x"], ["mean"], name="mean", axes=[1, 2]),
        n("ReduceMax", ["x"], ["max"], name="max", axes=[-1], keepdims=0),
        n("ReduceMin", ["x"], ["min"], name="min", keepdims=0),
        n("ReduceLogSumExp", ["x"], ["lse"], name="lse", axes=[0]),
        n("ReduceSum", ["x", "ax"], ["sum"], name="sum", keepdims=0),
        n("ReduceSum", ["x"], ["all"], name="all"),
        n("ReduceSum", ["x", "none"], ["noop"], name="noop",
          noop_with_empty_axes=1),
        n("ReduceSumSquare", ["x"], ["ss"], name="ss", axes=[2]),
        n("ReduceL1", ["x"], ["l1"], name="l1", axes=[2]),
        n("ReduceL2", ["x"], ["l2"], name="l2", axes=[2]),
        n("ReduceLogSum", ["x"], ["ls"], name="ls", axes=[2]),
    ]
    outs = [vi("mean", [2, 1, 1]), vi("max", [2, 3]), vi("min", []),
            vi("lse", [1, 3, 4]), vi("sum", [2, 4]), vi("all", [1, 1, 1]),
            vi("noop", [2, 3, 4]), vi("ss", [2, 3, 1]), vi("l1", [2, 3, 1]),
            vi("l2", [2, 3, 1]), vi("ls", [2, 3, 1])]
    return model(nodes, [vi("x", [2, 3, 4])], outs,
                 [ints("ax", [-2]), ints("none", [])])


def reduce_opset18():
    nodes = [n("ReduceMax", ["x", "ax"], ["max"], name="max"),
             n("ReduceMean", ["x"], ["mean"], name="mean", keepdims=0)]
    # noop_with_empty_axes: only the elementwise part, sqrt(x * x).
    nodes.append(n("ReduceL2", ["x"], ["l2"], name="l2",
                   noop_with_empty_axes=1))
    return model(nodes, [vi("x", [2, 3])],
                 [vi("max", [1, 3]), vi("mean", []), vi("l2", [2, 3])],
                 [ints("ax", [0])], opset=18)


def reduce_bad(kind):
    if kind == "prod":
        nodes = [n("ReduceProd", ["x"], ["y"], name="r", axes=[0])]
        inits = []
    elif kind == "repeat":
        nodes = [n("ReduceMean", ["x"], ["y"], name="r", axes=[1, -1])]
        inits = []
    else:  # computed axes
        nodes = [n("Shape", ["x"], ["s"]),
                 n("ReduceSum", ["x", "x"], ["y"], name="r")]
        inits = []
    return model(nodes, [vi("x", [2, 3])], [vi("y", [2, 1])], inits)


def views():
    # Reshape (0 and -1 entries), Flatten, Squeeze and Unsqueeze of computed
    # tensors: fuse.reshape; a view the output itself.
    nodes = [
        n("Relu", ["x"], ["r"], name="relu"),
        n("Reshape", ["r", "shp"], ["a"], name="reshape"),
        n("Sigmoid", ["a"], ["as"], name="sig"),
        n("Flatten", ["as"], ["f"], name="flatten", axis=2),
        n("Unsqueeze", ["f", "ax"], ["u"], name="unsqueeze"),
        n("Tanh", ["u"], ["ut"], name="tanh"),
        n("Squeeze", ["ut", "ax"], ["y"], name="squeeze"),
    ]
    return model(nodes, [vi("x", [2, 3, 4])], [vi("y", [6, 4])],
                 [ints("shp", [0, -1, 2, 2]), ints("ax", [0])])


MODELS = {
    "maxpool_2d": lambda: pool("MaxPool", [1, 2, 7, 7], [1, 2, 4, 4],
                               kernel_shape=[3, 3], strides=[2, 2],
                               pads=[1, 1, 1, 1]),
    "maxpool_dilated_ceil": lambda: pool("MaxPool", [1, 1, 8], [1, 1, 4],
                                         kernel_shape=[2], strides=[2],
                                         dilations=[2], ceil_mode=1),
    # End pad 1 only: exactly PyTorch's ceil_mode with padding 0.
    "maxpool_asym_ceil": lambda: pool("MaxPool", [1, 1, 5], [1, 1, 3],
                                      kernel_shape=[2], strides=[2],
                                      pads=[0, 1]),
    "maxpool_same_upper": lambda: pool("MaxPool", [1, 1, 5, 5], [1, 1, 3, 3],
                                       kernel_shape=[3, 3], strides=[2, 2],
                                       auto_pad="SAME_UPPER"),
    "maxpool_valid": lambda: pool("MaxPool", [1, 1, 5, 5, 5], [1, 1, 2, 2, 2],
                                  kernel_shape=[2, 2, 2], strides=[2, 2, 2],
                                  auto_pad="VALID"),
    "maxpool_same_bad": lambda: pool("MaxPool", [1, 1, 32], [1, 1, 32],
                                     kernel_shape=[2], auto_pad="SAME_UPPER"),
    "maxpool_big_pad": lambda: pool("MaxPool", [1, 1, 8], [1, 1, 10],
                                    kernel_shape=[3], pads=[2, 2]),
    "maxpool_indices": lambda: pool("MaxPool", [1, 1, 4], [1, 1, 3],
                                    outputs=("y", "i"), kernel_shape=[2]),
    "maxpool_order": lambda: pool("MaxPool", [1, 1, 4, 4], [1, 1, 3, 3],
                                  kernel_shape=[2, 2], storage_order=1),
    "maxpool_4d": lambda: pool("MaxPool", [1, 1, 2, 2, 2, 2],
                               [1, 1, 1, 1, 1, 1], kernel_shape=[2, 2, 2, 2]),
    "avgpool_cip": lambda: pool("AveragePool", [1, 1, 4, 4], [1, 1, 4, 4],
                                kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                                count_include_pad=1),
    "avgpool_same_lower": lambda: pool("AveragePool", [1, 1, 6], [1, 1, 3],
                                       kernel_shape=[3], strides=[2],
                                       auto_pad="SAME_LOWER"),
    "avgpool_ceil": lambda: pool("AveragePool", [1, 1, 4, 4], [1, 1, 2, 2],
                                 kernel_shape=[3, 3], strides=[2, 2],
                                 ceil_mode=1),
    # The ceil window would count the end pad in its divisor.
    "avgpool_asym_cip": lambda: pool("AveragePool", [1, 1, 5], [1, 1, 3],
                                     kernel_shape=[2], strides=[2],
                                     pads=[0, 1], count_include_pad=1),
    "lppool": lambda: pool("LpPool", [1, 1, 4], [1, 1, 3], kernel_shape=[2]),
    "lppool3": lambda: pool("LpPool", [1, 1, 4, 4], [1, 1, 4, 4], p=3,
                            kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
    "global_lp": lambda: pool("GlobalLpPool", [1, 2, 3], [1, 2, 1], p=1),
    "global_avg": lambda: pool("GlobalAveragePool", [1, 2, 3, 4],
                               [1, 2, 1, 1]),
    "global_max": lambda: pool("GlobalMaxPool", [2, 3, 5], [2, 3, 1]),
    "reduce_attr": reduce_attr,
    "reduce_opset18": reduce_opset18,
    "reduce_prod": lambda: reduce_bad("prod"),
    "reduce_repeat": lambda: reduce_bad("repeat"),
    "reduce_computed_axes": lambda: reduce_bad("computed"),
    "views": views,
}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in MODELS:
        sys.exit("usage: gen_window_models.py {%s} out.onnx" % "|".join(MODELS))
    with open(sys.argv[2], "wb") as f:
        f.write(MODELS[sys.argv[1]]().SerializeToString())
