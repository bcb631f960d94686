# ===- fusecc/dynamo/ops_decoders.py - Decoder ops: conv, cat, resize ---=== #
#
# The handlers of what real decoders hold besides transposed convolutions
# (issue 36): forward convolutions (nn.Conv1d/2d/3d, F.conv*d, torch.conv*d,
# aten conv*d and aten.convolution with transposed=False) as fuse.conv;
# torch.cat (skip connections) as fuse.concat; F.interpolate, nn.Upsample
# and aten upsample_* in nearest and (bi/tri)linear modes as fuse.upsample.
# Registered in fusecc.dynamo.ops' tables by importing this module there.
#
# Each handler raises Unsupported where fusecc would not compute exactly
# what PyTorch does, or where the compiler would reject the op, so that the
# partitioner leaves such a node to PyTorch instead of failing the whole
# partition at compile time.
#
# ===--------------------------------------------------------------------=== #

from .ops import _dim, _same_dtype, _tuple, handler
from .translate import Tensor, Unsupported, format_float, i64_array


# Forward convolution ---------------------------------------------------------


def _conv_padding(padding, n, kernel, dilation, stride):
    """(begin, end) paddings per spatial dim from PyTorch's `padding`: an
    int or tuple (both sides), 'valid' (none) or 'same' (total d*(k-1),
    the odd one at the end, as PyTorch pads)."""
    if isinstance(padding, str):
        if padding == "valid":
            return (0,) * n, (0,) * n
        if padding != "same":
            raise Unsupported("padding='%s'" % padding)
        if any(s != 1 for s in stride):
            raise Unsupported("padding='same' with a stride")  # PyTorch too
        total = [d * (k - 1) for k, d in zip(kernel, dilation)]
        begin = tuple(t // 2 for t in total)
        return begin, tuple(t - b for t, b in zip(total, begin))
    begin = _tuple(padding, n, "padding")
    return begin, begin


def forward_conv(ctx, x, w, b, stride, padding, dilation, groups):
    """Emits `fuse.conv` (PyTorch's F.conv{1,2,3}d arguments)."""
    n = x.rank - 2
    if n not in (1, 2, 3) or w.rank != x.rank:
        raise Unsupported("convolution of rank %d" % x.rank)
    shape, dtype = _same_dtype(ctx, x, w, b)
    stride = _tuple(stride, n, "stride")
    dilation = _tuple(dilation, n, "dilation")
    kernel = w.shape[2:]
    begin, end = _conv_padding(padding, n, kernel, dilation, stride)
    for i in range(n):
        reach = dilation[i] * (kernel[i] - 1)
        if begin[i] > reach:
            # fuse.conv's rule (a window wholly in the padding): e.g. a 1x1
            # convolution with padding 1.
            raise Unsupported(
                "padding %d exceeds dilation * (kernel - 1) = %d along "
                "spatial dim %d (fusecc: a window wholly in the padding is "
                "not supported)" % (begin[i], reach, i))
    if 0 in x.shape or 0 in w.shape:
        raise Unsupported("an empty input or weight")
    operands = [x, w] + ([b] if b is not None else [])
    attrs = "stride = %s, padding = %s, " % (i64_array(stride),
                                             i64_array(begin))
    if end != begin:
        attrs += "padding_end = %s, " % i64_array(end)
    attrs += "dilation = %s, groups = %d : i64" % (i64_array(dilation),
                                                    int(groups))
    return ctx.emitter.op(
        "fuse.conv %s {%s} : (%s) -> {r}"
        % (", ".join(o.name for o in operands), attrs,
           ", ".join(o.type for o in operands)), shape, dtype)


@handler("conv",
         functions=["torch.conv1d", "torch.conv2d", "torch.conv3d",
                    "torch.nn.functional.conv1d", "torch.nn.functional.conv2d",
                    "torch.nn.functional.conv3d"],
         modules=["Conv1d", "Conv2d", "Conv3d"],
         aten=["conv1d", "conv2d", "conv3d"])
def conv(ctx):
    if ctx.module is not None:
        m = ctx.module
        if getattr(m, "padding_mode", "zeros") != "zeros":
            raise Unsupported("padding_mode='%s'" % m.padding_mode)
        return forward_conv(ctx, ctx.tensor(0, "input"), ctx.param("weight"),
                            ctx.param("bias"), m.stride, m.padding,
                            m.dilation, m.groups)
    return forward_conv(
        ctx, ctx.tensor(0, "input"), ctx.tensor(1, "weight"),
        ctx.arg(2, "bias"), ctx.arg(3, "stride", 1), ctx.arg(4, "padding", 0),
        ctx.arg(5, "dilation", 1), ctx.arg(6, "groups", 1))


# Concatenation ---------------------------------------------------------------


@handler("cat", functions=["torch.cat", "torch.concat", "torch.concatenate"],
         aten=["cat", "concat"])
def cat(ctx):
    tensors = ctx.arg(0, "tensors", required=True)
    if not isinstance(tensors, (list, tuple)) or not tensors:
        raise Unsupported("cat of no tensors")
    if not all(isinstance(t, Tensor) for t in tensors):
        raise Unsupported("cat of a value that is not a tensor of the graph")
    shape, dtype = _same_dtype(ctx, *tensors)
    rank = len(shape)
    dim = _dim(ctx.arg(1, "dim", 0), rank)
    for t in tensors:
        if t.rank != rank:
            raise Unsupported("cat of tensors of different ranks (PyTorch's "
                              "legacy empty 1-D inputs)")
        if 0 in t.shape:
            raise Unsupported("cat of an empty tensor")
    return ctx.emitter.op(
        "fuse.concat %s {dim = %d : i64} : (%s) -> {r}"
        % (", ".join(t.name for t in tensors), dim,
           ", ".join(t.type for t in tensors)), shape, dtype)


# Upsampling ------------------------------------------------------------------


_LINEAR_MODES = {"linear": 1, "bilinear": 2, "trilinear": 3}


def upsample(ctx, x, mode, align_corners, scales):
    """Emits `fuse.upsample`: `mode` 'nearest' or a linear mode, `scales`
    the scale factors PyTorch computes the coordinates from (None: from
    the sizes)."""
    n = x.rank - 2
    if n not in (1, 2, 3):
        raise Unsupported("interpolation of rank %d" % x.rank)
    if mode == "nearest":
        if align_corners:
            raise Unsupported("align_corners with mode='nearest'")
        attrs = []
    elif mode in _LINEAR_MODES:
        if _LINEAR_MODES[mode] != n:
            raise Unsupported("mode='%s' on %d spatial dims" % (mode, n))
        attrs = ["linear"] + (["align_corners"] if align_corners else [])
    else:
        raise Unsupported("mode='%s' (fusecc: nearest, linear, bilinear, "
                          "trilinear)" % mode)
    shape, dtype = _same_dtype(ctx, x)
    if len(shape) != x.rank or tuple(shape[:2]) != x.shape[:2]:
        raise Unsupported("result shape %s from input %s"
                          % (list(shape), list(x.shape)))
    if 0 in x.shape or 0 in shape:
        raise Unsupported("an empty input or result")
    if scales is not None and "align_corners" in attrs:
        scales = None  # PyTorch's corner-aligned coordinates ignore them
    if scales is not None:
        if any(s is None for s in scales):
            raise Unsupported("scale factors given for some dims only")
        scales = [float(s) for s in scales]
        for i, s in enumerate(scales):
            # PyTorch's size for a scale factor: floor(in * scale).
            if not s > 0 or int(x.shape[2 + i] * s // 1) != shape[2 + i]:
                raise Unsupported("scale factor %r does not give size %d "
                                  "from %d" % (s, shape[2 + i],
                                               x.shape[2 + i]))
        attrs.append("scales = array<f64: %s>"
                     % ", ".join(format_float(s) for s in scales))
    text = "fuse.upsample %s" % x.name
    if attrs:
        text += " {%s}" % ", ".join(attrs)
    return ctx.emitter.op("%s : %s -> {r}" % (text, x.type), shape, dtype)


def _factors(scale_factor, n):
    if scale_factor is None:
        return None
    if isinstance(scale_factor, (list, tuple)):
        if len(scale_factor) != n:
            raise Unsupported("%d scale factors for %d spatial dims"
                              % (len(scale_factor), n))
        return list(scale_factor)
    return [scale_factor] * n


@handler("interpolate",
         functions=["torch.nn.functional.interpolate",
                    "torch.nn.functional.upsample"],
         modules=["Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d"])
def interpolate(ctx):
    x = ctx.tensor(0, "input")
    if ctx.module is not None:
        m = ctx.module
        size, factor = m.size, m.scale_factor
        mode, align = m.mode, m.align_corners
        recompute = getattr(m, "recompute_scale_factor", None)
        antialias = False
    else:
        size, factor = ctx.arg(1, "size"), ctx.arg(2, "scale_factor")
        mode, align = ctx.arg(3, "mode", "nearest"), ctx.arg(4,
                                                             "align_corners")
        recompute = ctx.arg(5, "recompute_scale_factor")
        antialias = ctx.arg(6, "antialias", False)
    if antialias:
        raise Unsupported("antialias=True")
    if isinstance(size, Tensor) or isinstance(factor, Tensor):
        raise Unsupported("a size or scale factor given as a tensor")
    # With a scale factor and no recomputation PyTorch's kernels take their
    # coordinate scale from the factor; otherwise from the sizes.
    scales = None
    if size is None and not recompute:
        scales = _factors(factor, x.rank - 2)
    return upsample(ctx, x, mode, bool(align), scales)


@handler("upsample_fixed",
         functions=["torch.nn.functional.upsample_nearest",
                    "torch.nn.functional.upsample_bilinear"])
def upsample_fixed(ctx):
    # F.upsample_nearest: F.interpolate(..., mode='nearest');
    # F.upsample_bilinear: mode='bilinear', align_corners=True.
    x = ctx.tensor(0, "input")
    size, factor = ctx.arg(1, "size"), ctx.arg(2, "scale_factor")
    if isinstance(size, Tensor) or isinstance(factor, Tensor):
        raise Unsupported("a size or scale factor given as a tensor")
    if "bilinear" in getattr(ctx.node.target, "__name__", ""):
        return upsample(ctx, x, "bilinear", True, None)
    return upsample(ctx, x, "nearest", False,
                    _factors(factor, x.rank - 2) if size is None else None)


def _aten_upsample(mode, linear):
    """aten.upsample_<mode>{1,2,3}d and torch._C._nn's (what F.interpolate
    calls, and dynamo may record): the .vec overload (input, output_size,
    [align_corners,] scale_factors) and the default one (input,
    output_size, [align_corners,] scales_d...)."""
    def fn(ctx):
        x = ctx.tensor(0, "input")
        n = x.rank - 2
        first = 3 if linear else 2
        align = bool(ctx.arg(2, "align_corners", False)) if linear else False
        factors = ctx.arg(first, "scale_factors")
        if "vec" in str(ctx.node.target) or isinstance(factors,
                                                         (list, tuple)):
            scales = list(factors) if factors is not None else None
        else:
            names = (("scales",) if n == 1 else
                     ("scales_d", "scales_h", "scales_w")[3 - n:])
            scales = [ctx.arg(first + i, name) for i, name in
                      enumerate(names)]
            if all(s is None for s in scales):
                scales = None
        return upsample(ctx, x, mode, align, scales)
    return fn


for _packet, _mode, _linear in (
        ("upsample_nearest1d", "nearest", False),
        ("upsample_nearest2d", "nearest", False),
        ("upsample_nearest3d", "nearest", False),
        ("upsample_linear1d", "linear", True),
        ("upsample_bilinear2d", "bilinear", True),
        ("upsample_trilinear3d", "trilinear", True)):
    handler("aten_" + _packet, functions=["torch._C._nn." + _packet],
            aten=[_packet])(_aten_upsample(_mode, _linear))
