#!/usr/bin/env python3
#===- gen_models.py - small ONNX models for the importer's lit tests ------===#
#
# gen_models.py <name> <out.onnx>: writes the model <name> (see MODELS) with
# python3-onnx's helpers. Weights are small deterministic ramps.
#
#===----------------------------------------------------------------------===#
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT


def ramp(shape, scale=0.1, offset=0.0):
    n = int(np.prod(shape)) if shape else 1
    return (np.arange(n, dtype=np.float32) * scale + offset).reshape(shape)


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def vi(name, shape, elem=F):
    return helper.make_tensor_value_info(name, elem, shape)


def model(nodes, inputs, outputs, inits=(), opset=17, ir=8):
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = ir
    return m


def conv_bn_relu():
    # ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1) +
    # BatchNorm2d(6) (eval) + ReLU, as PyTorch exports them.
    nodes = [
        helper.make_node("ConvTranspose", ["x", "w", "b"], ["c"], name="deconv",
                         strides=[2, 2], pads=[1, 1, 1, 1],
                         output_padding=[1, 1], kernel_shape=[3, 3]),
        helper.make_node("BatchNormalization",
                         ["c", "gamma", "beta", "mean", "var"], ["n"],
                         name="bn", epsilon=1e-5),
        helper.make_node("Relu", ["n"], ["y"], name="relu"),
    ]
    inits = [init("w", ramp([4, 6, 3, 3], 0.01, -0.5)),
             init("b", ramp([6], 0.1)), init("gamma", ramp([6], 0.2, 0.5)),
             init("beta", ramp([6], -0.1)), init("mean", ramp([6], 0.05)),
             init("var", ramp([6], 0.3, 1.0))]
    return model(nodes, [vi("x", [1, 4, 5, 5])], [vi("y", [1, 6, 10, 10])],
                 inits)


def bn_alone():
    nodes = [helper.make_node("BatchNormalization",
                              ["x", "gamma", "beta", "mean", "var"], ["y"],
                              name="bn")]
    inits = [init("gamma", ramp([3], 0.2, 0.5)), init("beta", ramp([3], -0.1)),
             init("mean", ramp([3], 0.05)), init("var", ramp([3], 0.3, 1.0))]
    return model(nodes, [vi("x", [2, 3, 4])], [vi("y", [2, 3, 4])], inits)


def bn_training():
    m = bn_alone()
    m.graph.node[0].attribute.append(helper.make_attribute("training_mode", 1))
    return m


def bn_train(shape, outputs=("y", "rm", "rv"), opset=15, **attrs):
    # BatchNormalization(training_mode=1) with parameters as initializers;
    # `outputs` are the node's outputs that are graph outputs.
    c = shape[1]
    nodes = [helper.make_node("BatchNormalization",
                              ["x", "gamma", "beta", "mean", "var"],
                              ["y", "rm", "rv"], name="bn", training_mode=1,
                              **attrs)]
    inits = [init("gamma", ramp([c], 0.2, 0.5)), init("beta", ramp([c], -0.1)),
             init("mean", ramp([c], 0.05)), init("var", ramp([c], 0.3, 1.0))]
    outs = [vi(o, shape if o == "y" else [c]) for o in outputs]
    return model(nodes, [vi("x", shape)], outs, inits, opset=opset)


def logsoftmax(shape, opset, op_type="LogSoftmax", **attrs):
    nodes = [helper.make_node(op_type, ["x"], ["y"], name="lsm", **attrs)]
    return model(nodes, [vi("x", shape)], [vi("y", shape)], opset=opset)


def logsoftmax_empty():
    nodes = [helper.make_node("LogSoftmax", ["e"], ["y"], name="lsm")]
    return model(nodes, [], [vi("y", [0, 3])],
                 [init("e", np.zeros((0, 3), np.float32))])


def i64(name, values):
    return init(name, np.asarray(values, dtype=np.int64))


def conv_slice():
    # y = ConvTranspose2d(1, 2, 3, stride=2)(x)[:, :, 1:, :-2], as PyTorch
    # exports it: one Slice per dim (an open end is INT64_MAX).
    nodes = [
        helper.make_node("ConvTranspose", ["x", "w"], ["c"], name="ct",
                         strides=[2, 2]),
        helper.make_node("Slice", ["c", "s0", "e0", "a0"], ["h"], name="sh"),
        helper.make_node("Slice", ["h", "s1", "e1", "a1", "one"], ["y"],
                         name="sw"),
    ]
    inits = [init("w", ramp([1, 2, 3, 3])), i64("s0", [1]),
             i64("e0", [2**63 - 1]), i64("a0", [2]), i64("s1", [0]),
             i64("e1", [-2]), i64("a1", [-1]), i64("one", [1])]
    return model(nodes, [vi("x", [1, 1, 3, 3])], [vi("y", [1, 2, 6, 5])],
                 inits)


def conv_slice_bn():
    # conv_bn_relu with a Slice between ConvTranspose and BatchNorm: the
    # crop and then the BatchNorm fold into the one transposed convolution.
    nodes = [
        helper.make_node("ConvTranspose", ["x", "w", "b"], ["c"], name="ct",
                         strides=[2, 2], pads=[1, 1, 1, 1],
                         output_padding=[1, 1], kernel_shape=[3, 3]),
        helper.make_node("Slice", ["c", "st", "en", "ax"], ["s"], name="sl"),
        helper.make_node("BatchNormalization",
                         ["s", "gamma", "beta", "mean", "var"], ["n"],
                         name="bn", epsilon=1e-5),
        helper.make_node("Relu", ["n"], ["y"], name="relu"),
    ]
    inits = [init("w", ramp([4, 6, 3, 3], 0.01, -0.5)),
             init("b", ramp([6], 0.1)),
             init("gamma", ramp([6], 0.1, 0.5)), init("beta", ramp([6], 0.05)),
             init("mean", ramp([6], 0.02)), init("var", ramp([6], 0.1, 0.5)),
             i64("st", [0, 1]), i64("en", [-1, 100]), i64("ax", [2, 3])]
    return model(nodes, [vi("x", [1, 4, 5, 5])], [vi("y", [1, 6, 9, 9])],
                 inits)


def conv_slice_bad(starts, ends, axes, extra_use=False):
    nodes = [
        helper.make_node("ConvTranspose", ["x", "w"], ["c"], name="ct",
                         strides=[2, 2]),
        helper.make_node("Slice", ["c", "st", "en", "ax"], ["y"], name="sl"),
    ]
    outputs = [vi("y", None)]
    if extra_use:
        outputs.append(vi("c", None))
    inits = [init("w", ramp([1, 2, 3, 3])), i64("st", starts),
             i64("en", ends), i64("ax", axes)]
    return model(nodes, [vi("x", [1, 1, 3, 3])], outputs, inits)


def conv_args():
    nodes = [helper.make_node("ConvTranspose", ["x", "w", "b"], ["y"],
                              name="deconv", strides=[2], group=2)]
    inits = [init("w", ramp([4, 3, 2])), init("b", ramp([6]))]
    return model(nodes, [vi("x", [1, 4, 5])], [vi("y", [1, 6, 10])], inits)


def conv_pads(pads, out, output_shape=None, auto_pad=None, strides=(2, 2),
              k=3):
    kw = dict(strides=list(strides))
    if pads is not None:
        kw["pads"] = pads
    if output_shape is not None:
        kw["output_shape"] = output_shape
    if auto_pad is not None:
        kw["auto_pad"] = auto_pad
    nodes = [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="ct",
                              **kw)]
    return model(nodes, [vi("x", [1, 1, 3, 3])], [vi("y", [1, 2] + out)],
                 [init("w", ramp([1, 2, k, k]))])


def conv3d_dilated():
    nodes = [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="ct3",
                              strides=[1, 2, 2], dilations=[2, 1, 1],
                              pads=[0, 1, 1, 0, 1, 1])]
    return model(nodes, [vi("x", [1, 2, 2, 3, 3])], [vi("y", [1, 2, 4, 5, 5])],
                 [init("w", ramp([2, 2, 2, 3, 3], 0.01))])


def elementwise():
    s = lambda name, v: init(name, np.array(v, dtype=np.float32))
    n = helper.make_node
    nodes = [
        n("Add", ["x", "y"], ["a0"]), n("Sub", ["a0", "x"], ["a1"]),
        n("Mul", ["a1", "half"], ["a2"]), n("Div", ["a2", "y"], ["a3"]),
        n("Max", ["a3", "x", "y"], ["a4"]), n("Min", ["a4", "x"], ["a5"]),
        n("Pow", ["a5", "two"], ["a6"]), n("Neg", ["a6"], ["a7"]),
        n("Abs", ["a7"], ["a8"]), n("Exp", ["a8"], ["a9"]),
        n("Log", ["a9"], ["b0"]), n("Sqrt", ["b0"], ["b1"]),
        n("Reciprocal", ["b1"], ["b2"]), n("Erf", ["b2"], ["b3"]),
        n("Tanh", ["b3"], ["b4"]), n("Sigmoid", ["b4"], ["b5"]),
        n("Relu", ["b5"], ["b6"]), n("LeakyRelu", ["b6"], ["b7"], alpha=0.2),
        n("Softplus", ["b7"], ["b8"]),
        n("HardSigmoid", ["b8"], ["b9"], alpha=1.0 / 6, beta=0.5),
        n("HardSigmoid", ["b9"], ["c0"]), n("HardSwish", ["c0"], ["c1"]),
        n("Clip", ["c1", "lo", "hi"], ["c2"]), n("Clip", ["c2", "", "hi"], ["c3"]),
        n("PRelu", ["c3", "slope"], ["c4"]), n("Identity", ["c4"], ["c5"]),
        n("Softmax", ["c5"], ["z"], axis=1),
    ]
    inits = [s("half", 0.5), s("two", 2.0), s("lo", -1.0), s("hi", 6.0),
             init("slope", ramp([3], 0.1))]
    return model(nodes, [vi("x", [2, 3]), vi("y", [3])], [vi("z", [2, 3])],
                 inits)


def shape_folding():
    # Shape -> Gather -> Unsqueeze -> Concat -> Reshape of a constant, as
    # exporters write for a per-channel bias; then LayerNormalization.
    n = helper.make_node
    nodes = [
        n("Shape", ["x"], ["s"]),
        n("Gather", ["s", "one"], ["c"], axis=0),
        n("Unsqueeze", ["c", "zero_axis"], ["cu"]),
        n("Concat", ["cu", "ones2"], ["shp"], axis=0),
        n("Reshape", ["bias", "shp"], ["b3"]),
        n("Add", ["x", "b3"], ["xa"]),
        n("Flatten", ["scale2d"], ["scale"], axis=0),
        n("Squeeze", ["scale", "zero_axis"], ["scale1"]),
        n("LayerNormalization", ["xa", "scale1", "lnb"], ["y"], axis=-1,
          epsilon=1e-6, name="ln"),
    ]
    inits = [init("one", np.array(1, dtype=np.int64)),
             init("zero_axis", np.array([0], dtype=np.int64)),
             init("ones2", np.array([1, 1], dtype=np.int64)),
             init("bias", ramp([3])), init("scale2d", ramp([2, 2], 1.0, 1.0)),
             init("lnb", ramp([4], -0.1))]
    return model(nodes, [vi("x", [2, 3, 4, 4])], [vi("y", [2, 3, 4, 4])], inits)


def groupnorm_pattern():
    n = helper.make_node
    nodes = [
        n("Reshape", ["x", "gshape"], ["r"], name="view"),
        n("InstanceNormalization", ["r", "ones", "zeros"], ["i"], name="inorm",
          epsilon=1e-5),
        n("Reshape", ["i", "xshape"], ["r2"], name="unview"),
        n("Mul", ["r2", "gamma"], ["m"]),
        n("Add", ["m", "beta"], ["y"]),
    ]
    inits = [init("gshape", np.array([2, 4, -1], dtype=np.int64)),
             init("xshape", np.array([2, 8, 3, 3], dtype=np.int64)),
             init("ones", np.ones(4, np.float32)),
             init("zeros", np.zeros(4, np.float32)),
             init("gamma", ramp([8, 1, 1], 0.1, 1.0)),
             init("beta", ramp([8, 1, 1], 0.01))]
    return model(nodes, [vi("x", [2, 8, 3, 3])], [vi("y", [2, 8, 3, 3])], inits)


def groupnorm_pattern_shared():
    # The normalised tensor is also used by a second Add (no affine fold).
    m = groupnorm_pattern()
    g = m.graph
    g.node[3].output[0] = "m"
    del g.node[4]
    g.node.append(helper.make_node("Add", ["m", "r2"], ["y"]))
    return m


def instancenorm():
    nodes = [helper.make_node("InstanceNormalization", ["x", "s", "b"], ["y"],
                              name="in")]
    return model(nodes, [vi("x", [1, 3, 4, 4])], [vi("y", [1, 3, 4, 4])],
                 [init("s", ramp([3], 0.5, 1.0)), init("b", ramp([3]))])


def groupnormalization():
    nodes = [helper.make_node("GroupNormalization", ["x", "s", "b"], ["y"],
                              name="gn", num_groups=2, epsilon=1e-5)]
    return model(nodes, [vi("x", [1, 4, 3, 3])], [vi("y", [1, 4, 3, 3])],
                 [init("s", ramp([2], 0.5, 1.0)), init("b", ramp([2]))],
                 opset=18)


def dynamic():
    nodes = [helper.make_node("Relu", ["x"], ["y"])]
    return model(nodes, [vi("x", ["N", 100, 1, 1])], [vi("y", ["N", 100, 1, 1])])


def dynamic_view():
    # ConvTranspose2d + softmax over x.view(x.size(0), 6, -1), the view's
    # shape computed from Shape as PyTorch exports it, then the view back.
    n = helper.make_node
    nodes = [
        n("ConvTranspose", ["x", "w", "b"], ["c"], name="deconv",
          strides=[2, 2], pads=[1, 1, 1, 1], output_padding=[1, 1],
          kernel_shape=[3, 3]),
        n("Shape", ["c"], ["s"]),
        n("Gather", ["s", "zero"], ["n"], axis=0),
        n("Unsqueeze", ["n", "zero_axis"], ["nu"]),
        n("Concat", ["nu", "rest"], ["shp"], axis=0),
        n("Reshape", ["c", "shp"], ["v"], name="view"),
        n("Softmax", ["v"], ["sm"], name="softmax", axis=2),
        n("Reshape", ["sm", "s"], ["y"], name="unview"),
    ]
    inits = [init("w", ramp([4, 6, 3, 3], 0.01, -0.5)),
             init("b", ramp([6], 0.1)),
             init("zero", np.array(0, dtype=np.int64)),
             init("zero_axis", np.array([0], dtype=np.int64)),
             init("rest", np.array([6, -1], dtype=np.int64))]
    return model(nodes, [vi("x", ["N", 4, 5, 5])], [vi("y", ["N", 6, 10, 10])],
                 inits)


def dynamic_flatten_all():
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu"),
             helper.make_node("Reshape", ["r", "shp"], ["y"], name="flat_all")]
    return model(nodes, [vi("x", ["N", 3, 4])], [vi("y", [None])],
                 [init("shp", np.array([-1], dtype=np.int64))])


def single(op, **attrs):
    nodes = [helper.make_node(op, ["x"], ["y"], name="n0", **attrs)]
    return model(nodes, [vi("x", [1, 2, 4, 4])], [vi("y", [1, 2, 4, 4])])


def reshape_computed():
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu"),
             helper.make_node("Reshape", ["r", "shp"], ["f"], name="flat"),
             helper.make_node("Sigmoid", ["f"], ["y"], name="sig")]
    return model(nodes, [vi("x", [2, 3])], [vi("y", [6])],
                 [init("shp", np.array([6], dtype=np.int64))])


def bad_attr_type():
    nodes = [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="ct",
                              strides=[2.0, 2.0])]
    return model(nodes, [vi("x", [1, 1, 3, 3])], [vi("y", [1, 2, 7, 7])],
                 [init("w", ramp([1, 2, 3, 3]))])


def huge_stride():
    nodes = [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="ct",
                              strides=[1 << 40, 1])]
    return model(nodes, [vi("x", [1, 1, 3, 3])], [vi("y", [1, 2, 7, 7])],
                 [init("w", ramp([1, 2, 3, 3]))])


def bad_weight_shape():
    nodes = [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="ct")]
    return model(nodes, [vi("x", [1, 3, 3, 3])], [vi("y", [1, 2, 5, 5])],
                 [init("w", ramp([1, 2, 3, 3]))])


def bad_raw_data():
    m = conv_args()
    m.graph.initializer[0].raw_data = b"\0\0\0"
    return m


def unknown_attr():
    return single("Relu", alpha=1.0)


def opset_too_new():
    m = single("Relu")
    m.opset_import[0].version = 21
    return m


def onnx112():
    # As ONNX 1.12 writes by default: IR 8, opset 17.
    m = single("Tanh")
    return m


def train_export():
    # As torch.onnx.export(..., training=TrainingMode.TRAINING) writes a
    # decoder block: ConvTranspose -> BatchNormalization(training_mode=1)
    # whose running-statistics outputs nothing reads -> Relu -> the GroupNorm
    # pattern. The BN's mean and var initializers are read by no kernel.
    n = helper.make_node
    nodes = [
        n("ConvTranspose", ["x", "w", "b"], ["c"], name="deconv",
          strides=[2, 2], pads=[1, 1, 1, 1], output_padding=[1, 1],
          kernel_shape=[3, 3]),
        n("BatchNormalization", ["c", "gamma", "beta", "mean", "var"],
          ["n", "rm", "rv"], name="bn", training_mode=1, momentum=0.9),
        n("Relu", ["n"], ["r"], name="relu"),
        n("Reshape", ["r", "gshape"], ["v"], name="view"),
        n("InstanceNormalization", ["v", "ones", "zeros"], ["i"],
          name="inorm", epsilon=1e-5),
        n("Reshape", ["i", "xshape"], ["u"], name="unview"),
        n("Mul", ["u", "ggamma"], ["m"]),
        n("Add", ["m", "gbeta"], ["y"]),
    ]
    inits = [init("w", ramp([4, 8, 3, 3], 0.01, -0.5)),
             init("b", ramp([8], 0.1)), init("gamma", ramp([8], 0.2, 0.5)),
             init("beta", ramp([8], -0.1)), init("mean", ramp([8], 0.05)),
             init("var", ramp([8], 0.3, 1.0)),
             init("gshape", np.array([1, 2, -1], dtype=np.int64)),
             init("xshape", np.array([1, 8, 10, 10], dtype=np.int64)),
             init("ones", np.ones(2, np.float32)),
             init("zeros", np.zeros(2, np.float32)),
             init("ggamma", ramp([8, 1, 1], 0.1, 1.0)),
             init("gbeta", ramp([8, 1, 1], 0.01))]
    return model(nodes, [vi("x", [1, 4, 5, 5])], [vi("y", [1, 8, 10, 10])],
                 inits, opset=15)


def unread(kind):
    # conv_bn_relu with something nothing reads (issue 36 item 5's audit):
    # an initializer, a graph input, dead nodes (one reading an
    # initializer), unread extra outputs (LayerNormalization's Mean and
    # InvStdDev); or a broken name: an initializer twice, an input twice, a
    # node output redefining a value, an initializer shadowing an input.
    m = conv_bn_relu()
    g = m.graph
    n = helper.make_node
    if kind == "initializer":
        g.initializer.append(init("unused", ramp([5, 7])))
    elif kind == "input":
        g.input.append(vi("extra", [3, 3]))
    elif kind == "dead_nodes":
        g.initializer.append(init("k", ramp([6, 1, 1], 0.5)))
        g.node.append(n("Mul", ["n", "k"], ["dead1"], name="dead_mul"))
        g.node.append(n("Sigmoid", ["dead1"], ["dead2"], name="dead_sigmoid"))
    elif kind == "extra_outputs":
        g.initializer.append(init("ln_scale", ramp([10], 0.1, 1.0)))
        g.node[-1].output[0] = "r"
        g.node.append(n("LayerNormalization", ["r", "ln_scale"],
                        ["y", "ln_mean", "ln_inv_std"], name="ln", axis=-1))
    elif kind == "duplicate_initializer":
        g.initializer.append(init("b", ramp([6], 0.2)))
    elif kind == "duplicate_input":
        g.input.append(vi("x", [1, 4, 5, 5]))
    elif kind == "redefined_value":
        g.node[-1].output[0] = "b"
        g.node.append(n("Identity", ["b"], ["y"], name="id"))
    elif kind == "shadowed_input":
        # IR >= 4: an initializer named like an input is its default value;
        # fusecc compiles it as that constant.
        g.input.append(vi("gamma", [6]))
    return m


def fwd_conv(auto_pad=None, pads=None, strides=(1, 1), group=1, out=(5, 5),
             k=3):
    attrs = {"kernel_shape": [k, k], "strides": list(strides),
             "group": group}
    if auto_pad:
        attrs["auto_pad"] = auto_pad
    if pads:
        attrs["pads"] = pads
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["y"], name="conv",
                              **attrs)]
    inits = [init("w", ramp([6, 4 // group, k, k], 0.01, -0.5)),
             init("b", ramp([6], 0.1))]
    return model(nodes, [vi("x", [1, 4, 5, 5])], [vi("y", [1, 6] + list(out))],
                 inits)


def resize(mode, ctm, nearest_mode=None, sizes=None, scales=None, opset=17):
    attrs = {"mode": mode, "coordinate_transformation_mode": ctm}
    if nearest_mode:
        attrs["nearest_mode"] = nearest_mode
    ins, inits = ["x", ""], []
    if scales:
        ins.append("scales")
        inits.append(init("scales", np.array(scales, dtype=np.float32)))
    else:
        ins += ["", "sizes"]
        inits.append(init("sizes", np.array(sizes, dtype=np.int64)))
    nodes = [helper.make_node("Relu", ["in"], ["x"], name="relu"),
             helper.make_node("Resize", ins, ["y"], name="resize", **attrs)]
    out = sizes or [int(d * s) for d, s in zip([1, 2, 4, 4], scales)]
    return model(nodes, [vi("in", [1, 2, 4, 4])], [vi("y", out)], inits,
                 opset=opset)


def concat_computed():
    # A U-Net skip: cat(relu(x), skip) along the channels.
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu"),
             helper.make_node("Concat", ["r", "skip"], ["y"], name="cat",
                              axis=1)]
    return model(nodes, [vi("x", [1, 2, 4, 4]), vi("skip", [1, 3, 4, 4])],
                 [vi("y", [1, 5, 4, 4])])


MODELS = {
    "conv_bn_relu": conv_bn_relu,
    "bn_alone": bn_alone,
    "bn_training": bn_training,
    "bn_training_stats": lambda: bn_train([2, 3, 4, 5], momentum=0.8),
    "bn_training_mean": lambda: bn_train([2, 3, 4], outputs=("y", "rm"),
                                         opset=14),
    "bn_training_2d": lambda: bn_train([4, 3]),
    "bn_training_momentum": lambda: bn_train([2, 3, 4], momentum=1.5),
    "bn_training_eps": lambda: bn_train([2, 3, 4], epsilon=-1.0),
    "bn_training_single": lambda: bn_train([1, 3, 1]),
    "bn_training_rank6": lambda: bn_train([2, 3, 2, 2, 2, 2]),
    "conv_args": conv_args,
    "conv_sym": lambda: conv_pads([1, 1, 1, 1], [5, 5]),
    "conv_asym": lambda: conv_pads([1, 1, 0, 0], [6, 6]),
    "conv_slice": conv_slice,
    "conv_slice_bn": conv_slice_bn,
    "conv_slice_channels": lambda: conv_slice_bad([1], [2], [1]),
    "conv_slice_shared": lambda: conv_slice_bad([1], [5], [2], True),
    "conv_slice_empty": lambda: conv_slice_bad([3], [2], [2]),
    "conv_slice_axes_count": lambda: conv_slice_bad([0, 0], [1, 1], [2]),
    "conv_slice_ends_count": lambda: conv_slice_bad([0], [1, 1], [2]),
    "conv_slice_axis_twice": lambda: conv_slice_bad([0, 0], [1, 1], [2, 2]),
    "conv_asym_end": lambda: conv_pads([0, 0, 1, 1], [6, 6]),
    "conv_asym_end_3": lambda: conv_pads([0, 1, 2, 0], [5, 6]),
    "conv_output_shape": lambda: conv_pads(None, [8, 8], output_shape=[8, 8]),
    "conv_output_shape_neg": lambda: conv_pads(None, [10, 8],
                                               output_shape=[10, 8]),
    # Kernels below the stride: SAME_* totals < 0, negative begin pads.
    "conv_same_upper_k2s3": lambda: conv_pads(
        None, [9, 9], auto_pad="SAME_UPPER", strides=[3, 3], k=2),
    "conv_same_lower_k1s4": lambda: conv_pads(
        None, [12, 12], auto_pad="SAME_LOWER", strides=[4, 4], k=1),
    "conv_same_upper_k1s4": lambda: conv_pads(
        None, [12, 12], auto_pad="SAME_UPPER", strides=[4, 4], k=1),
    "conv_same_upper": lambda: conv_pads(None, [6, 6], auto_pad="SAME_UPPER"),
    "conv_same_lower": lambda: conv_pads(None, [6, 6], auto_pad="SAME_LOWER"),
    "conv_valid": lambda: conv_pads(None, [7, 7], auto_pad="VALID"),
    "conv_same_upper_s1": lambda: conv_pads(None, [3, 3], auto_pad="SAME_UPPER",
                                            strides=[1, 1], k=4),
    "conv_same_lower_s1": lambda: conv_pads(None, [3, 3], auto_pad="SAME_LOWER",
                                            strides=[1, 1], k=4),
    "conv3d_dilated": conv3d_dilated,
    "elementwise": elementwise,
    "shape_folding": shape_folding,
    "groupnorm_pattern": groupnorm_pattern,
    "groupnorm_pattern_shared": groupnorm_pattern_shared,
    "instancenorm": instancenorm,
    "groupnormalization": groupnormalization,
    "dynamic": dynamic,
    "dynamic_view": dynamic_view,
    "dynamic_flatten_all": dynamic_flatten_all,
    "logsoftmax": lambda: single("LogSoftmax"),
    "logsoftmax_axis1": lambda: logsoftmax([2, 3, 4], 13, axis=1),
    "logsoftmax_v11": lambda: logsoftmax([2, 3, 4, 5], 11, axis=1),
    "logsoftmax_v11_default": lambda: logsoftmax([2, 3, 4], 11),
    "logsoftmax_v11_unit": lambda: logsoftmax([2, 3, 1, 1], 11),
    "logsoftmax_v11_last": lambda: logsoftmax([2, 3, 4], 11, axis=-1),
    "logsoftmax_axis_bad": lambda: logsoftmax([2, 3, 4], 13, axis=3),
    "logsoftmax_scalar": lambda: logsoftmax([], 13),
    "logsoftmax_empty": logsoftmax_empty,
    "softmax_v11_unit": lambda: logsoftmax([2, 3, 1, 1], 11, "Softmax"),
    "softmax_v11_flat": lambda: logsoftmax([2, 3, 4], 11, "Softmax", axis=1),
    "elu": lambda: single("Elu"),
    "conv": lambda: single("Conv"),
    "fwd_conv_same": lambda: fwd_conv(auto_pad="SAME_UPPER", group=2, k=4),
    "fwd_conv_same_lower": lambda: fwd_conv(auto_pad="SAME_LOWER", k=4),
    "fwd_conv_strided": lambda: fwd_conv(pads=[1, 1, 1, 1], strides=(2, 2),
                                         out=(3, 3)),
    "fwd_conv_begin_strided": lambda: fwd_conv(pads=[2, 1, 1, 0],
                                               strides=(2, 2), out=(3, 2)),
    "fwd_conv_big_pad": lambda: fwd_conv(pads=[3, 3, 3, 3], out=(9, 9)),
    "resize_nearest": lambda: resize("nearest", "asymmetric", "floor",
                                     scales=[1, 1, 2, 2]),
    "resize_linear_sizes": lambda: resize("linear", "half_pixel",
                                          sizes=[1, 2, 7, 9]),
    "resize_nearest_half_pixel": lambda: resize(
        "nearest", "half_pixel", "round_prefer_floor", scales=[1, 1, 2, 2]),
    "resize_cubic": lambda: resize("cubic", "half_pixel", scales=[1, 1, 2, 2]),
    "resize_align_scales": lambda: resize("linear", "align_corners",
                                          scales=[1, 1, 2, 1.5]),
    "resize_align_fraction": lambda: resize("linear", "align_corners",
                                            scales=[1, 1, 2, 0.6]),
    "concat_computed": concat_computed,
    "reshape_computed": reshape_computed,
    "bad_attr_type": bad_attr_type,
    "bad_weight_shape": bad_weight_shape,
    "huge_stride": huge_stride,
    "bad_raw_data": bad_raw_data,
    "unknown_attr": unknown_attr,
    "opset_too_new": opset_too_new,
    "onnx112": onnx112,
    "train_export": train_export,
    "unread_initializer": lambda: unread("initializer"),
    "unread_input": lambda: unread("input"),
    "unread_dead_nodes": lambda: unread("dead_nodes"),
    "unread_extra_outputs": lambda: unread("extra_outputs"),
    "duplicate_initializer": lambda: unread("duplicate_initializer"),
    "duplicate_input": lambda: unread("duplicate_input"),
    "redefined_value": lambda: unread("redefined_value"),
    "shadowed_input": lambda: unread("shadowed_input"),
}

def half_conv(elem):
    # model.half() / model.to(torch.bfloat16) of ConvTranspose2d(3, 4, 3) +
    # ReLU: input, weights and output in the half type. bfloat16 arrays are
    # written as raw little-endian bits (numpy has no bfloat16).
    def half_init(name, array):
        a = np.asarray(array, dtype=np.float32)
        if elem == TensorProto.FLOAT16:
            return numpy_helper.from_array(a.astype(np.float16), name)
        bits = (a.view(np.uint32) + 0x7FFF + ((a.view(np.uint32) >> 16) & 1)) >> 16
        t = helper.make_tensor(name, TensorProto.BFLOAT16, a.shape,
                               bits.astype("<u2").tobytes(), raw=True)
        return t
    nodes = [
        helper.make_node("ConvTranspose", ["x", "w", "b"], ["c"], name="deconv",
                         strides=[2, 2], pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
        helper.make_node("Relu", ["c"], ["y"], name="relu"),
    ]
    inits = [half_init("w", ramp([3, 4, 3, 3], 0.01, -0.5)),
             half_init("b", ramp([4], 0.1))]
    return model(nodes, [vi("x", [1, 3, 4, 4], elem)],
                 [vi("y", [1, 4, 7, 7], elem)], inits)


def mixed_cast():
    # A mixed-precision export: float32 input cast to float16, an fp16
    # ConvTranspose, the result cast back to float32 for a float32
    # LayerNormalization (autocast keeps norms in float32).
    nodes = [
        helper.make_node("Cast", ["x"], ["xh"], name="to_half",
                         to=TensorProto.FLOAT16),
        helper.make_node("ConvTranspose", ["xh", "w"], ["c"], name="deconv",
                         kernel_shape=[2, 2]),
        helper.make_node("Cast", ["c"], ["cf"], name="to_float",
                         to=TensorProto.FLOAT),
        helper.make_node("LayerNormalization", ["cf", "g"], ["y"], name="ln",
                         axis=-1),
    ]
    inits = [numpy_helper.from_array(
                 ramp([2, 3, 2, 2], 0.05, -0.3).astype(np.float16), "w"),
             init("g", ramp([4], 0.1, 1.0))]
    return model(nodes, [vi("x", [1, 2, 3, 3])], [vi("y", [1, 3, 4, 4])],
                 inits)


def half_int32_data():
    # A FLOAT16 initializer in int32_data (each value's 16 bits), the
    # non-raw form of onnx.proto (make_tensor stores float16 values so).
    t = helper.make_tensor("k", TensorProto.FLOAT16, [3], [1.0, -2.0, 0.5])
    assert not t.raw_data and len(t.int32_data) == 3
    nodes = [helper.make_node("Add", ["x", "k"], ["y"], name="add")]
    return model(nodes, [vi("x", [2, 3], TensorProto.FLOAT16)],
                 [vi("y", [2, 3], TensorProto.FLOAT16)], [t])


def cast_to_int():
    nodes = [helper.make_node("Cast", ["x"], ["y"], name="to_int",
                              to=TensorProto.INT32)]
    return model(nodes, [vi("x", [2, 3])], [vi("y", [2, 3], TensorProto.INT32)])


MODELS.update({
    "fp16_conv": lambda: half_conv(TensorProto.FLOAT16),
    "bf16_conv": lambda: half_conv(TensorProto.BFLOAT16),
    "mixed_cast": mixed_cast,
    "half_int32_data": half_int32_data,
    "cast_to_int": cast_to_int,
    "double_input": lambda: model(
        [helper.make_node("Relu", ["x"], ["y"])],
        [vi("x", [2], TensorProto.DOUBLE)], [vi("y", [2], TensorProto.DOUBLE)]),
})

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in MODELS:
        sys.exit("usage: gen_models.py {%s} out.onnx" % "|".join(MODELS))
    with open(sys.argv[2], "wb") as f:
        f.write(MODELS[sys.argv[1]]().SerializeToString())
