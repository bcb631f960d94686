# ===- fusecc/dynamo/ops_norms.py - Norms, pools, reductions, reshape ---=== #
#
# The handlers of the ops that normalise, pool or reduce (batch_norm of
# an eval-mode module, group_norm, instance_norm, layer_norm, max and
# average pooling, adaptive pooling, sum/mean/amax/amin/var/logsumexp) and
# of reshape. Registered in fusecc.dynamo.ops' tables by importing this
# module there; each raises Unsupported where fusecc would not compute
# exactly what PyTorch does, so the node stays in PyTorch.
#
# ===--------------------------------------------------------------------=== #

from .ops import _dim, _operands, _tuple, handler
from .translate import Unsupported, format_float, i64_array



@handler("batch_norm", functions=["torch.nn.functional.batch_norm",
                                  "torch.batch_norm"],
         modules=["BatchNorm1d", "BatchNorm2d", "BatchNorm3d"],
         aten=["_native_batch_norm_legit_no_training", "native_batch_norm"])
def batch_norm(ctx):
    x = ctx.tensor(0, "input")
    if ctx.module is not None:
        m = ctx.module
        if m.training or m.running_mean is None:
            raise Unsupported("BatchNorm in training mode (fusecc computes "
                              "inference batch_norm here; call .eval())")
        rm, rv = ctx.param("running_mean"), ctx.param("running_var")
        w, b, eps = ctx.param("weight"), ctx.param("bias"), m.eps
    else:
        # F.batch_norm(input, running_mean, running_var, weight, bias, ...);
        # torch.batch_norm and aten's take weight and bias first.
        stats_first = _is_functional(ctx)
        rm = ctx.arg(1 if stats_first else 3, "running_mean")
        rv = ctx.arg(2 if stats_first else 4, "running_var")
        w = ctx.arg(3 if stats_first else 1, "weight")
        b = ctx.arg(4 if stats_first else 2, "bias")
        # aten's _legit_no_training has no training flag: (..., momentum,
        # eps); native_batch_norm has (..., training, momentum, eps).
        no_flag = "no_training" in str(ctx.node.target)
        training = False if no_flag else ctx.arg(5, "training", False)
        eps = ctx.arg(6 if no_flag else 7, "eps", 1e-5)
        if training or rm is None or rv is None:
            raise Unsupported("batch_norm in training mode (fusecc computes "
                              "inference batch_norm here; call .eval())")
    if x.rank not in (3, 4, 5):
        raise Unsupported("batch_norm of rank %d" % x.rank)
    shape, dtype, (x, rm, rv, w, b) = _operands(ctx, x, rm, rv, w, b,
                                                params=4)
    operands = [x, rm, rv] + [v for v in (w, b) if v is not None]
    text = "fuse.batch_norm %s, %s, %s" % (x.name, rm.name, rv.name)
    if w is not None:
        text += " weight(%s)" % w.name
    if b is not None:
        text += " bias(%s)" % b.name
    text += " {epsilon = %s : f64} : (%s) -> {r}" % (
        format_float(eps), ", ".join(o.type for o in operands))
    result = ctx.emitter.op(text, shape, dtype)
    if ctx.node.op == "call_function" and "aten" in str(ctx.node.target):
        return (result, None, None)
    return result


def _is_functional(ctx):
    """Whether a call_function node calls torch.nn.functional's form."""
    return getattr(ctx.node.target, "__module__", "") == "torch.nn.functional"


def _affine_pair(ctx, w, b, channels, dtype):
    """Weight and bias both or neither (a bundle's graph line cannot say
    which one a lone operand is): the missing one as a splat constant."""
    if (w is None) == (b is None):
        return w, b
    em = ctx.emitter
    missing = em.fresh((channels,), (w or b).dtype)
    em.body.append("%s = arith.constant dense<%s> : %s"
                   % (missing.name, "1.0" if w is None else "0.0",
                      missing.type))
    return (missing, b) if w is None else (w, missing)


def _norm_operands(w, b):
    text = ""
    if w is not None:
        text += " weight(%s : %s)" % (w.name, w.type)
    if b is not None:
        text += " bias(%s : %s)" % (b.name, b.type)
    return text


@handler("group_norm", functions=["torch.nn.functional.group_norm",
                                  "torch.group_norm"],
         modules=["GroupNorm"])
def group_norm(ctx):
    x = ctx.tensor(0, "input")
    if ctx.module is not None:
        groups, eps = ctx.module.num_groups, ctx.module.eps
        w, b = ctx.param("weight"), ctx.param("bias")
    else:
        groups, w = ctx.arg(1, "num_groups"), ctx.arg(2, "weight")
        b, eps = ctx.arg(3, "bias"), ctx.arg(4, "eps", 1e-5)
    shape, dtype, (x, w, b) = _operands(ctx, x, w, b, params=2)
    w, b = _affine_pair(ctx, w, b, x.shape[1], dtype)
    return ctx.emitter.op(
        "fuse.group_norm %s%s {num_groups = %d : i64, epsilon = %s : f64}"
        " : {r}"
        % (x.name, _norm_operands(w, b), int(groups), format_float(eps)),
        shape, dtype)


@handler("instance_norm", functions=["torch.nn.functional.instance_norm",
                                     "torch.instance_norm"],
         modules=["InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"])
def instance_norm(ctx):
    x = ctx.tensor(0, "input")
    if ctx.module is not None:
        m = ctx.module
        if m.track_running_stats:
            raise Unsupported("InstanceNorm with track_running_stats")
        w, b, eps = ctx.param("weight"), ctx.param("bias"), m.eps
    else:
        if not ctx.arg(5, "use_input_stats", True):
            raise Unsupported("instance_norm with running statistics")
        # F.instance_norm has the running statistics before weight and bias,
        # torch.instance_norm after.
        first = 3 if _is_functional(ctx) else 1
        w, b, eps = ctx.arg(first, "weight"), ctx.arg(first + 1, "bias"), \
            ctx.arg(7, "eps", 1e-5)
    shape, dtype, (x, w, b) = _operands(ctx, x, w, b, params=2)
    w, b = _affine_pair(ctx, w, b, x.shape[1], dtype)
    return ctx.emitter.op("fuse.instance_norm %s%s {epsilon = %s : f64} : {r}"
                          % (x.name, _norm_operands(w, b), format_float(eps)),
                          shape, dtype)


@handler("layer_norm", functions=["torch.nn.functional.layer_norm",
                                  "torch.layer_norm"],
         modules=["LayerNorm"])
def layer_norm(ctx):
    x = ctx.tensor(0, "input")
    if ctx.module is not None:
        normalized = tuple(ctx.module.normalized_shape)
        w, b, eps = ctx.param("weight"), ctx.param("bias"), ctx.module.eps
    else:
        normalized = ctx.arg(1, "normalized_shape")
        normalized = (normalized,) if isinstance(normalized, int) else tuple(
            normalized)
        w, b, eps = ctx.arg(2, "weight"), ctx.arg(3, "bias"), ctx.arg(
            4, "eps", 1e-5)
    if tuple(x.shape[x.rank - len(normalized):]) != tuple(normalized):
        raise Unsupported("normalized_shape %s does not end the input's "
                          "shape" % (list(normalized),))
    shape, dtype, (x, w, b) = _operands(ctx, x, w, b, params=2)
    return ctx.emitter.op(
        "fuse.layer_norm %s%s {normalized_rank = %d : i64, epsilon = %s : f64}"
        " : {r}" % (x.name, _norm_operands(w, b), len(normalized),
                    format_float(eps)), shape, dtype)


# Pooling, reductions, views --------------------------------------------------


def _pool(ctx, kind):
    x = ctx.tensor(0, "input")
    n = x.rank - 2
    m = ctx.module
    get = (lambda i, name, d: getattr(m, name, d)) if m is not None else (
        lambda i, name, d: ctx.arg(i, name, d))
    kernel = _tuple(get(1, "kernel_size", None), n, "kernel_size")
    stride = get(2, "stride", None)
    stride = kernel if stride is None or stride == [] or stride == () else \
        _tuple(stride, n, "stride")
    padding = _tuple(get(3, "padding", 0), n, "padding")
    shape, dtype, (x,) = _operands(ctx, x)
    attrs = ["kernel_size = %s" % i64_array(kernel),
             "stride = %s" % i64_array(stride),
             "padding = %s" % i64_array(padding)]
    if kind == "max_pool":
        dilation = _tuple(get(4, "dilation", 1), n, "dilation")
        ceil = get(5, "ceil_mode", False)
        if get(6, "return_indices", False):
            raise Unsupported("return_indices=True")
        attrs.append("dilation = %s" % i64_array(dilation))
    else:
        ceil = get(4, "ceil_mode", False)
        attrs.append("count_include_pad = %s"
                     % ("true" if get(5, "count_include_pad", True)
                        else "false"))
        divisor = get(6, "divisor_override", None)
        if divisor is not None:
            attrs.append("divisor_override = %d : i64" % int(divisor))
    if ceil:
        attrs.append("ceil_mode = true")
    return ctx.emitter.op("fuse.%s %s {%s} : %s -> {r}"
                          % (kind, x.name, ", ".join(attrs), x.type),
                          shape, dtype)


@handler("max_pool", functions=["torch.nn.functional.max_pool1d",
                                "torch.nn.functional.max_pool2d",
                                "torch.nn.functional.max_pool3d",
                                "torch.max_pool1d", "torch.max_pool2d",
                                "torch.max_pool3d"],
         modules=["MaxPool1d", "MaxPool2d", "MaxPool3d"],
         aten=["max_pool2d", "max_pool3d"])
def max_pool(ctx):
    return _pool(ctx, "max_pool")


@handler("avg_pool", functions=["torch.nn.functional.avg_pool1d",
                                "torch.nn.functional.avg_pool2d",
                                "torch.nn.functional.avg_pool3d",
                                "torch.avg_pool1d", "torch._C._nn.avg_pool2d",
                                "torch._C._nn.avg_pool3d"],
         modules=["AvgPool1d", "AvgPool2d", "AvgPool3d"],
         aten=["avg_pool2d", "avg_pool3d"])
def avg_pool(ctx):
    return _pool(ctx, "avg_pool")


def _adaptive(ctx, kind):
    x = ctx.tensor(0, "input")
    if ctx.module is not None and getattr(ctx.module, "return_indices", False):
        raise Unsupported("return_indices=True")
    if ctx.module is None and ctx.arg(2, "return_indices", False):
        raise Unsupported("return_indices=True")
    shape, dtype, (x,) = _operands(ctx, x)
    return ctx.emitter.op("fuse.%s %s : %s -> {r}" % (kind, x.name, x.type),
                          shape, dtype)


@handler("adaptive_avg_pool",
         functions=["torch.nn.functional.adaptive_avg_pool1d",
                    "torch.nn.functional.adaptive_avg_pool2d",
                    "torch.nn.functional.adaptive_avg_pool3d",
                    "torch.adaptive_avg_pool1d",
                    "torch._C._nn.adaptive_avg_pool2d",
                    "torch._C._nn.adaptive_avg_pool3d"],
         modules=["AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
                  "AdaptiveAvgPool3d"],
         aten=["_adaptive_avg_pool2d", "_adaptive_avg_pool3d"])
def adaptive_avg_pool(ctx):
    return _adaptive(ctx, "adaptive_avg_pool")


@handler("adaptive_max_pool",
         functions=["torch.nn.functional.adaptive_max_pool1d",
                    "torch.nn.functional.adaptive_max_pool2d",
                    "torch.nn.functional.adaptive_max_pool3d"],
         modules=["AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
                  "AdaptiveMaxPool3d"])
def adaptive_max_pool(ctx):
    return _adaptive(ctx, "adaptive_max_pool")


def _reduce(ctx, kind):
    x = ctx.tensor(0, "input")
    dims = ctx.arg(1, "dim")
    if dims is None:
        dims = list(range(x.rank))
    dims = [dims] if isinstance(dims, int) else list(dims)
    if not dims:
        dims = list(range(x.rank))
    keepdim = ctx.arg(2, "keepdim", False)
    if ctx.arg(None, "dtype") is not None:
        raise Unsupported("a reduction with a dtype")
    shape, dtype, (x,) = _operands(ctx, x)
    dims = sorted(_dim(d, x.rank) for d in dims)
    extra = ""
    if kind == "var":
        correction = ctx.arg(None, "correction")
        unbiased = ctx.arg(None, "unbiased")
        if correction is None:
            correction = 1 if unbiased is None or unbiased else 0
        extra = ", correction = %d : i64" % int(correction)
    return ctx.emitter.op(
        "fuse.%s %s {dims = %s, keepdim = %s%s} : %s -> {r}"
        % (kind, x.name, i64_array(dims), "true" if keepdim else "false",
           extra, x.type), shape, dtype)


for _kind, _fn in (("sum", "sum"), ("mean", "mean"), ("amax", "amax"),
                   ("amin", "amin"), ("logsumexp", "logsumexp"),
                   ("var", "var")):
    handler(_kind, functions=["torch." + _fn], methods=[_fn],
            aten=[_fn] if _kind in ("sum", "mean", "amax", "amin") else ())(
        (lambda k: lambda ctx: _reduce(ctx, k))(_kind))


@handler("reshape", functions=["torch.reshape", "torch.flatten",
                               "torch.squeeze", "torch.unsqueeze"],
         modules=["Flatten", "Unflatten"],
         methods=["view", "reshape", "flatten", "squeeze", "unsqueeze",
                  "unflatten"],
         aten=["view", "_unsafe_view", "reshape", "squeeze", "unsqueeze"])
def reshape(ctx):
    x = ctx.tensor(0, "input")
    shape, dtype, (x,) = _operands(ctx, x)
    return ctx.emitter.op("fuse.reshape %s : %s -> {r}" % (x.name, x.type),
                          shape, dtype)
