# ===- fusecc/reference_ops.py - The ops of bundle graphs in PyTorch ---=== #
#
# One row of OPS per op of a bundle's graph lines (docs/bundle.md): its
# operand count, its attributes, how they are converted once at parse time
# (`prepare`) and the PyTorch function that evaluates it (`evaluate`).
# fusecc/reference.py parses the lines into ops and runs them; this file
# is where an op's PyTorch semantics live (docs/design/design.md, Adding
# an op). Parsing and validation need no PyTorch; evaluating does.
#
# ===--------------------------------------------------------------------=== #


import itertools
import struct

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # Parsing and validation work without PyTorch.
    torch = None
    F = None


class GraphError(ValueError):
    """A graph line that cannot be rebuilt."""


def f32(value):
    """Rounds a Python float to the nearest float32, as the kernels see it."""
    return struct.unpack("f", struct.pack("f", float(value)))[0]



class OpSpec:
    """A row of OPS: operand count, literal count, allowed attributes, the
    attribute conversion (op -> None, fills op.params), the evaluation
    (op, operand values, (first input, constants)) -> value (a tuple for
    several results) and the allowed result counts."""

    def __init__(self, operands, attrs, evaluate, prepare=None, literals=0,
                 results=(1,)):
        self.low, self.high = operands
        self.attrs = frozenset(attrs)
        self.evaluate = evaluate
        self.prepare = prepare
        self.literals = literals
        # The result counts a line may define; an op with several returns a
        # tuple of that many values.
        self.results = tuple(results)


def _tensor(env, v):
    """`v` as a tensor: a Python-float constant becomes a rank-0 tensor of
    the first input's dtype and device. `env` is the evaluation's (first
    input, constants) pair: a plain tuple, so that torch.compile traces
    the evaluation without user objects."""
    if isinstance(v, float):
        like = env[0]
        if like is None:
            raise GraphError("a scalar constant needs a tensor input to "
                             "take its dtype from")
        return torch.tensor(v, dtype=like.dtype, device=like.device)
    return v


# Evaluations -------------------------------------------------------------

def _unary(function):
    return lambda op, a, env: function(_tensor(env, a[0]))


def _extremum(kind):
    def evaluate(op, a, env):
        p, q = a
        if isinstance(p, float) and isinstance(q, float):
            return max(p, q) if kind == "maximum" else min(p, q)
        function = torch.maximum if kind == "maximum" else torch.minimum
        return function(_tensor(env, p), _tensor(env, q))
    return evaluate


def _conv_transpose(op, a, env):
    x, w = a[0], a[1]
    b = a[2] if len(a) == 3 else None
    rank = x.dim() - 2
    function = {1: F.conv_transpose1d, 2: F.conv_transpose2d,
                3: F.conv_transpose3d}.get(rank)
    if function is None:
        raise GraphError("conv_transpose of rank-%d input" % x.dim())
    if op.attrs.get("forward_weight", "0") == "1":
        w = _forward_as_transposed(w, op.params["groups"])
    stride = op.int_list("stride", rank, 1)
    dilation = op.int_list("dilation", rank, 1)
    output_padding = op.int_list("output_padding", rank, 0)
    padding = op.int_list("padding", rank, 0)
    if all(0 <= p < max(s, d)
           for p, s, d in zip(output_padding, stride, dilation)) and \
            all(p >= 0 for p in padding):
        return function(x, w, b, stride=stride, padding=padding,
                        output_padding=output_padding,
                        groups=op.params["groups"], dilation=dilation)
    # A padding or output_padding PyTorch refuses (a negative padding:
    # bias-only positions before the scatter's first one; a negative
    # output_padding: an end crop; or one not below the stride or the
    # dilation): the whole scatter, then its window [padding, padding + out)
    # per dim, zero-extended past both ends (F.pad lists the last dim first;
    # a negative pad cuts), then the bias.
    y = function(x, w, None, stride=stride, padding=0, groups=op.params[
        "groups"], dilation=dilation)
    cuts = []
    for d in reversed(range(rank)):
        full = y.shape[2 + d]
        out = full - 2 * padding[d] + output_padding[d]
        cuts += [-padding[d], padding[d] + out - full]
    y = F.pad(y, cuts)
    if b is not None:
        y = y + b.reshape((1, -1) + (1,) * rank)
    return y


def _forward_as_transposed(w, groups):
    """A forward convolution's [Cout, Cin/groups, *k] weight as the
    [Cin, Cout/groups, *k] transposed-convolution weight it stands for
    (conv_transpose forward_weight=1): channel roles swapped per group,
    taps reversed."""
    cout, cin_g = w.shape[0], w.shape[1]
    taps = tuple(w.shape[2:])
    w = w.flip(list(range(2, w.dim())))
    w = w.reshape((groups, cout // groups, cin_g) + taps).transpose(1, 2)
    return w.reshape((groups * cin_g, cout // groups) + taps)


def _conv(op, a, env):
    x, w = a[0], a[1]
    b = a[2] if len(a) == 3 else None
    rank = x.dim() - 2
    function = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}.get(rank)
    if function is None:
        raise GraphError("conv of rank-%d input" % x.dim())
    begin = op.int_list("padding", rank, 0)
    end = op.int_list("padding_end", rank, 0) \
        if "padding_end" in op.attrs else begin
    padding = begin
    if end != begin:
        # F.pad lists the last dim first: (begin, end) pairs.
        x = F.pad(x, [p for i in reversed(range(rank))
                      for p in (begin[i], end[i])])
        padding = [0] * rank
    return function(x, w, b, stride=op.int_list("stride", rank, 1),
                    padding=padding, groups=op.params["groups"],
                    dilation=op.int_list("dilation", rank, 1))


def _layer_norm(op, a, env):
    x = _tensor(env, a[0])
    rank = op.params["rank"]
    if not 1 <= rank <= x.dim():
        raise GraphError("normalized_rank=%d for a rank-%d input"
                         % (rank, x.dim()))
    weight = a[1] if len(a) > 1 else None
    bias = a[2] if len(a) > 2 else None
    return F.layer_norm(x, tuple(x.shape[x.dim() - rank:]), weight, bias,
                        op.params["eps"])


def _group_norm(op, a, env):
    x = _tensor(env, a[0])
    groups = op.params["groups"]
    if x.dim() < 2 or x.shape[1] % groups:
        raise GraphError("groups=%d does not divide the %s channels of a "
                         "rank-%d input in '%s'"
                         % (groups, x.shape[1] if x.dim() > 1 else "missing",
                            x.dim(), op.line))
    weight = a[1] if len(a) > 1 else None
    bias = a[2] if len(a) > 2 else None
    return F.group_norm(x, groups, weight, bias, op.params["eps"])


def _batch_norm(op, a, env):
    x = _tensor(env, a[0])
    if not 3 <= x.dim() <= 5:
        raise GraphError("batch_norm of a rank-%d input in '%s'"
                         % (x.dim(), op.line))
    weight = a[3] if len(a) > 3 else None
    bias = a[4] if len(a) > 4 else None
    # F.batch_norm updates the running statistics in place in training
    # mode: it gets copies, the caller's tensors stay as they are. With
    # three results the copies are results #1 and #2, as PyTorch updates
    # them: (1 - momentum) * running + momentum * batch statistic, the
    # variance unbiased.
    running_mean, running_var = a[1].clone(), a[2].clone()
    y = F.batch_norm(x, running_mean, running_var, weight, bias,
                     training=op.params["training"],
                     momentum=op.params["momentum"], eps=op.params["eps"])
    if len(op.results) == 3:
        return y, running_mean, running_var
    return y


def _instance_norm(op, a, env):
    x = _tensor(env, a[0])
    if not 3 <= x.dim() <= 5:
        raise GraphError("instance_norm of a rank-%d input in '%s'"
                         % (x.dim(), op.line))
    weight = a[1] if len(a) > 1 else None
    bias = a[2] if len(a) > 2 else None
    return F.instance_norm(x, weight=weight, bias=bias,
                           use_input_stats=True, eps=op.params["eps"])


def _check_rank(op, x, rank):
    """A pool's input must be [N, C, *spatial] with one spatial dim per
    entry of its size list."""
    if x.dim() != rank + 2:
        raise GraphError("'%s' needs a rank-%d input [N, C, %d spatial], got "
                         "rank %d" % (op.line, rank + 2, rank, x.dim()))


def _max_pool(op, a, env):
    x = _tensor(env, a[0])
    p = op.params
    _check_rank(op, x, p["rank"])
    function = (F.max_pool1d, F.max_pool2d, F.max_pool3d)[p["rank"] - 1]
    return function(x, p["kernel_size"], p["stride"], p["padding"],
                    p["dilation"], ceil_mode=p["ceil_mode"])


def _avg_pool(op, a, env):
    x = _tensor(env, a[0])
    p = op.params
    _check_rank(op, x, p["rank"])
    if p["rank"] == 1:
        if p["divisor_override"] is None:
            return F.avg_pool1d(x, p["kernel_size"], p["stride"],
                                p["padding"], p["ceil_mode"],
                                p["count_include_pad"])
        # avg_pool1d has no divisor_override; PyTorch computes it as
        # avg_pool2d on [N, C, 1, W] anyway, so this is the same sum and
        # the same divisor (a height-1 window without padding counts 1).
        return F.avg_pool2d(x.unsqueeze(-2), (1,) + p["kernel_size"],
                            (1,) + p["stride"], (0,) + p["padding"],
                            p["ceil_mode"], p["count_include_pad"],
                            p["divisor_override"]).squeeze(-2)
    function = (F.avg_pool2d, F.avg_pool3d)[p["rank"] - 2]
    return function(x, p["kernel_size"], p["stride"], p["padding"],
                    p["ceil_mode"], p["count_include_pad"],
                    p["divisor_override"])


def _adaptive_pool(kind):
    def evaluate(op, a, env):
        x = _tensor(env, a[0])
        rank = op.params["rank"]
        _check_rank(op, x, rank)
        if kind == "avg":
            function = (F.adaptive_avg_pool1d, F.adaptive_avg_pool2d,
                        F.adaptive_avg_pool3d)[rank - 1]
        else:
            function = (F.adaptive_max_pool1d, F.adaptive_max_pool2d,
                        F.adaptive_max_pool3d)[rank - 1]
        return function(x, op.params["output_size"])
    return evaluate


def _upsample(op, a, env):
    """F.interpolate: to output_size, or by the scale factors the sizes came
    from (PyTorch then scales coordinates by 1 / scale)."""
    x = _tensor(env, a[0])
    rank = op.params["rank"]
    _check_rank(op, x, rank)
    linear = op.params["linear"]
    mode = ("linear", "bilinear", "trilinear")[rank - 1] if linear \
        else "nearest"
    align = op.params["align_corners"] if linear else None
    scales = op.params["scales"]
    if scales is not None:
        return F.interpolate(x, scale_factor=scales, mode=mode,
                             align_corners=align)
    return F.interpolate(x, size=op.params["output_size"], mode=mode,
                         align_corners=align)


def _reduction(name):
    def evaluate(op, a, env):
        x = _tensor(env, a[0])
        dims = op.params["dims"]
        if max(dims) >= x.dim():
            raise GraphError("dims=%s for a rank-%d input in '%s'"
                             % (",".join(map(str, dims)), x.dim(), op.line))
        function = {"sum": torch.sum, "mean": torch.mean,
                    "amax": torch.amax, "amin": torch.amin,
                    "logsumexp": torch.logsumexp}[name]
        return function(x, dim=dims, keepdim=op.params["keepdim"])
    return evaluate


def _var(op, a, env):
    x = _tensor(env, a[0])
    dims = op.params["dims"]
    if max(dims) >= x.dim():
        raise GraphError("dims=%s for a rank-%d input in '%s'"
                         % (",".join(map(str, dims)), x.dim(), op.line))
    return torch.var(x, dim=dims, correction=op.params["correction"],
                     keepdim=op.params["keepdim"])


def _reshape(op, a, env):
    x = _tensor(env, a[0])
    shape, elements = op.params["shape"], op.params["elements"]
    if shape[:1] == (-1,):
        # A dynamic-batch bundle's reshape (version 4): dim 0 is the batch,
        # the input's dim 0; `elements` counts one sample.
        if x.dim() == 0 or x.numel() != x.shape[0] * elements:
            raise GraphError("'%s' reshapes %d elements to batches of %d"
                             % (op.line, x.numel(), elements))
        return x.reshape((x.shape[0],) + shape[1:])
    if x.numel() != elements:
        raise GraphError("'%s' reshapes %d elements to %d" % (
            op.line, x.numel(), elements))
    return x.reshape(shape)


def _const_tensor(op, a, env):
    index = op.params["index"]
    if env[1] is None or index >= len(env[1]):
        raise GraphError("'%s' needs constant c%d, but %s constants were "
                         "given" % (op.line, index,
                                    len(env[1]) if env[1]
                                    is not None else "no"))
    value = env[1][index]
    like = env[0]
    if like is not None:
        dtype = like.dtype if value.is_floating_point() else value.dtype
        if value.dtype != dtype or value.device != like.device:
            value = value.to(device=like.device, dtype=dtype)
    return value


#: Manifest dtypes a `cast` line converts to -> PyTorch dtype names.
CAST_DTYPES = {"f32": "float32", "bf16": "bfloat16", "f16": "float16"}


def _cast(op, a, env):
    """fuse.cast: the value rounded to the target dtype (to nearest even;
    f16 overflows to inf) and kept in the evaluation's dtype, so a float64
    evaluation rounds exactly where the graph stores a half value."""
    x = _tensor(env, a[0])
    return x.to(getattr(torch, CAST_DTYPES[op.params["to"]])).to(x.dtype)


# Attribute conversions ---------------------------------------------------

def _prepare_cast(op):
    to = op.attrs.get("to")
    if to not in CAST_DTYPES:
        raise GraphError("cast to=%s in '%s' (expected one of %s)"
                         % (to, op.line, ", ".join(CAST_DTYPES)))
    op.params["to"] = to


def _prepare_conv(op):
    op.params["groups"] = int(op.attrs.get("groups", "1"))


def _prepare_gelu(op):
    op.params["approximate"] = op.attrs.get("approximate", "none")
    if op.params["approximate"] not in ("none", "tanh"):
        raise GraphError("gelu approximate=%s in '%s'"
                         % (op.params["approximate"], op.line))


def _prepare_leaky_relu(op):
    op.params["slope"] = f32(op.attrs.get("slope", "0.01"))


def _prepare_clamp(op):
    for key in ("min", "max"):
        op.params[key] = f32(op.attrs[key]) if key in op.attrs else None


def _prepare_const(op):
    op.params["value"] = f32(op.literals[0])


def _prepare_const_tensor(op):
    token = op.literals[0]
    digits = token[1:]
    if not token.startswith("c") or not digits.isdigit() or (
            len(digits) > 1 and digits[0] == "0"):
        raise GraphError("expected a constant like 'c0', got '%s' in '%s'"
                         % (token, op.line))
    op.params["index"] = int(digits)


def _prepare_softmax(op):
    op.params["dim"] = int(op.attrs["dim"])


def _prepare_layer_norm(op):
    op.params["rank"] = int(op.attrs["normalized_rank"])
    op.params["eps"] = f32(op.attrs.get("eps", "1e-5"))


def _prepare_group_norm(op):
    op.params["groups"] = int(op.attrs["groups"])
    if op.params["groups"] < 1:
        raise GraphError("groups=%d in '%s'" % (op.params["groups"], op.line))
    op.params["eps"] = f32(op.attrs.get("eps", "1e-5"))
    if len(op.operands) == 2:
        raise GraphError("group_norm takes a weight and a bias or neither in "
                         "'%s'" % op.line)


def _prepare_batch_norm(op):
    op.params["training"] = _flag(op, "training", False)
    op.params["eps"] = f32(op.attrs.get("eps", "1e-5"))
    op.params["momentum"] = f32(op.attrs.get("momentum", "0.1"))
    if not 0.0 <= op.params["momentum"] <= 1.0:
        raise GraphError("momentum=%s is not in [0, 1] in '%s'"
                         % (op.attrs["momentum"], op.line))
    if len(op.results) == 3 and not op.params["training"]:
        raise GraphError("the updated running statistics (three results) "
                         "need training=1 in '%s'" % op.line)


def _prepare_instance_norm(op):
    op.params["eps"] = f32(op.attrs.get("eps", "1e-5"))


def _ints(op, key, minimum, lengths=None, required=True, empty=False):
    """Attribute `key` as a tuple of comma-separated integers, each at least
    `minimum`, with a length in `lengths` (when given); None when absent
    and not required. `empty` allows `key=` as the empty tuple."""
    text = op.attrs.get(key)
    if text is None:
        if required:
            raise GraphError("'%s' needs %s= in '%s'"
                             % (op.kind, key, op.line))
        return None
    if text == "" and empty:
        values = ()
    else:
        try:
            values = tuple(int(v) for v in text.split(","))
        except ValueError:
            raise GraphError("%s=%s is not a list of integers in '%s'"
                             % (key, text, op.line)) from None
    for v in values:
        if v < minimum:
            raise GraphError("%s=%s has %d, below the minimum %d in '%s'"
                             % (key, text, v, minimum, op.line))
    if lengths is not None and len(values) not in lengths:
        raise GraphError("%s has %d values, expected %s in '%s'"
                         % (key, len(values),
                            " or ".join(str(n) for n in lengths), op.line))
    return values


def _flag(op, key, default=None):
    """Boolean attribute `key` spelled 0 or 1 (required when no default)."""
    text = op.attrs.get(key)
    if text is None:
        if default is None:
            raise GraphError("'%s' needs %s=0|1 in '%s'"
                             % (op.kind, key, op.line))
        return default
    if text not in ("0", "1"):
        raise GraphError("%s=%s is not 0 or 1 in '%s'" % (key, text, op.line))
    return text == "1"


def _prepare_pool(op):
    """max_pool and avg_pool: kernel_size fixes the number of spatial dims
    (1 to 3); stride, padding (and dilation) have as many entries."""
    kernel = _ints(op, "kernel_size", 1, (1, 2, 3))
    rank = len(kernel)
    params = {"rank": rank, "kernel_size": kernel,
              "stride": _ints(op, "stride", 1, (rank,)),
              "padding": _ints(op, "padding", 0, (rank,)),
              "ceil_mode": _flag(op, "ceil_mode")}
    if op.kind == "max_pool":
        params["dilation"] = _ints(op, "dilation", 1, (rank,))
    # PyTorch's limit is half the kernel size, dilation aside:
    # padding <= kernel_size // 2.
    for k, pad in zip(kernel, params["padding"]):
        if pad > k // 2:
            raise GraphError("padding=%s is more than half of kernel_size=%s "
                             "in '%s'" % (op.attrs["padding"],
                                          op.attrs["kernel_size"], op.line))
    if op.kind == "avg_pool":
        params["count_include_pad"] = _flag(op, "count_include_pad")
        divisor = _ints(op, "divisor_override", 1, (1,), required=False)
        params["divisor_override"] = None if divisor is None else divisor[0]
    op.params.update(params)


def _tap_interval(n, k, s, p, d, out, j):
    """Inputs x of one spatial dim with 0 <= x s - p + t d < out for tap
    t = k - 1 - j (a tap-sums result index runs over the taps reversed), as
    the half-open range [lo, hi)."""
    t = k - 1 - j
    lo = max(0, -((t * d - p) // s))
    hi = min(n, (out - 1 + p - t * d) // s + 1)
    return lo, max(lo, hi)


def _tap_sums(op, a, env):
    """conv_transpose_tap_sums: per tap, scale x the sum of the input box
    whose elements the tap maps into the convolution's output."""
    x = _tensor(env, a[0])
    prm = op.params
    rank = prm["rank"]
    _check_rank(op, x, rank)
    spatial = x.shape[2:]
    result = x.new_zeros(tuple(x.shape[:2]) + tuple(prm["kernel_size"]))
    for taps in itertools.product(*(range(k) for k in prm["kernel_size"])):
        box = [slice(None), slice(None)]
        for i, j in enumerate(taps):
            lo, hi = _tap_interval(spatial[i], prm["kernel_size"][i],
                                   prm["stride"][i], prm["padding"][i],
                                   prm["dilation"][i], prm["output_size"][i],
                                   j)
            box.append(slice(lo, hi))
        part = x[tuple(box)]
        total = part.sum(dim=tuple(range(2, 2 + rank))) if part.numel() \
            else x.new_zeros(tuple(x.shape[:2]))
        result[(slice(None), slice(None)) + tuple(taps)] = total
    return result * prm["scale"]


def _prepare_tap_sums(op):
    kernel = _ints(op, "kernel_size", 1, (1, 2, 3))
    rank = len(kernel)
    op.params.update(rank=rank, kernel_size=kernel,
                     stride=_ints(op, "stride", 1, (rank,)),
                     padding=_ints(op, "padding", 0, (rank,)),
                     dilation=_ints(op, "dilation", 1, (rank,)),
                     output_size=_ints(op, "output_size", 1, (rank,)),
                     scale=float(op.attrs.get("scale", "1")))


def _prepare_adaptive_pool(op):
    size = _ints(op, "output_size", 1, (1, 2, 3))
    op.params.update(rank=len(size), output_size=size)


def _prepare_concat(op):
    op.params["dim"] = int(op.attrs.get("dim", "0"))


def _prepare_upsample(op):
    size = _ints(op, "output_size", 1, (1, 2, 3))
    scales = None
    if "scales" in op.attrs:
        try:
            scales = [float(v) for v in op.attrs["scales"].split(",")]
        except ValueError:
            raise GraphError("scales=%s is not a list of numbers in '%s'"
                             % (op.attrs["scales"], op.line)) from None
        if len(scales) != len(size):
            raise GraphError("scales has %d values, expected %d in '%s'"
                             % (len(scales), len(size), op.line))
    op.params.update(rank=len(size), output_size=size, scales=scales,
                     linear=_flag(op, "linear"),
                     align_corners=_flag(op, "align_corners"))


def _prepare_reduction(op):
    dims = _ints(op, "dims", 0)
    if len(set(dims)) != len(dims):
        raise GraphError("dims=%s names a dim twice in '%s'"
                         % (op.attrs["dims"], op.line))
    op.params.update(dims=dims, keepdim=_flag(op, "keepdim"))


def _prepare_var(op):
    _prepare_reduction(op)
    correction = _ints(op, "correction", 0, (1,), required=False)
    op.params["correction"] = 1 if correction is None else correction[0]


def _prepare_reshape(op):
    # `-1` first: the batch of a dynamic-batch bundle (version 4).
    batch = op.attrs.get("shape", "").startswith("-1,")
    if batch:
        op.attrs["shape"] = op.attrs["shape"][3:]
    shape = _ints(op, "shape", 0, empty=True)
    if batch:
        op.attrs["shape"] = "-1," + op.attrs["shape"]
        shape = (-1,) + shape
    elements = 1
    for n in shape[1:] if batch else shape:
        elements *= n
    op.params.update(shape=shape, elements=elements)


#: The convolutions: their weight and bias operands are drawn from the
#: weight's fan, and their operands are TF32-rounded in tf32 checks.
CONV_OPS = ("conv_transpose", "conv")
BINARY_OPS = ("add", "sub", "mul", "div", "maximum", "minimum", "pow")
UNARY_OPS = ("neg", "abs", "exp", "log", "sqrt", "rsqrt", "erf", "tanh",
             "sigmoid", "relu", "silu", "softplus", "mish", "hardsigmoid",
             "hardswish", "gelu", "leaky_relu", "clamp")
REDUCTION_OPS = ("sum", "mean", "amax", "amin", "logsumexp")

#: Op name -> OpSpec. The PyTorch functions are looked up when called, so
#: the table (and parsing) exists without PyTorch.
OPS = {
    "conv_transpose": OpSpec((2, 3), ("stride", "padding", "output_padding",
                                      "dilation", "groups",
                                      "forward_weight"),
                             _conv_transpose, _prepare_conv),
    "conv": OpSpec((2, 3), ("stride", "padding", "padding_end", "dilation",
                            "groups"), _conv, _prepare_conv),
    "add": OpSpec((2, 2), (), lambda op, a, env: a[0] + a[1]),
    "sub": OpSpec((2, 2), (), lambda op, a, env: a[0] - a[1]),
    "mul": OpSpec((2, 2), (), lambda op, a, env: a[0] * a[1]),
    "div": OpSpec((2, 2), (), lambda op, a, env: a[0] / a[1]),
    "pow": OpSpec((2, 2), (), lambda op, a, env: a[0] ** a[1]),
    "maximum": OpSpec((2, 2), (), _extremum("maximum")),
    "minimum": OpSpec((2, 2), (), _extremum("minimum")),
    "neg": OpSpec((1, 1), (), _unary(lambda x: -x)),
    "abs": OpSpec((1, 1), (), _unary(lambda x: torch.abs(x))),
    "exp": OpSpec((1, 1), (), _unary(lambda x: torch.exp(x))),
    "log": OpSpec((1, 1), (), _unary(lambda x: torch.log(x))),
    "sqrt": OpSpec((1, 1), (), _unary(lambda x: torch.sqrt(x))),
    "rsqrt": OpSpec((1, 1), (), _unary(lambda x: torch.rsqrt(x))),
    "erf": OpSpec((1, 1), (), _unary(lambda x: torch.erf(x))),
    "tanh": OpSpec((1, 1), (), _unary(lambda x: torch.tanh(x))),
    "sigmoid": OpSpec((1, 1), (), _unary(lambda x: torch.sigmoid(x))),
    "relu": OpSpec((1, 1), (), _unary(lambda x: torch.relu(x))),
    "silu": OpSpec((1, 1), (), _unary(lambda x: F.silu(x))),
    "softplus": OpSpec((1, 1), (), _unary(lambda x: F.softplus(x))),
    "mish": OpSpec((1, 1), (), _unary(lambda x: F.mish(x))),
    "hardsigmoid": OpSpec((1, 1), (), _unary(lambda x: F.hardsigmoid(x))),
    "hardswish": OpSpec((1, 1), (), _unary(lambda x: F.hardswish(x))),
    "gelu": OpSpec((1, 1), ("approximate",), lambda op, a, env: F.gelu(
        _tensor(env, a[0]), approximate=op.params["approximate"]),
        _prepare_gelu),
    "leaky_relu": OpSpec((1, 1), ("slope",), lambda op, a, env: F.leaky_relu(
        _tensor(env, a[0]), op.params["slope"]), _prepare_leaky_relu),
    "clamp": OpSpec((1, 1), ("min", "max"), lambda op, a, env: torch.clamp(
        _tensor(env, a[0]), op.params["min"], op.params["max"]),
        _prepare_clamp),
    "cast": OpSpec((1, 1), ("to",), _cast, _prepare_cast),
    "const": OpSpec((0, 0), (), lambda op, a, env: op.params["value"],
                    _prepare_const, literals=1),
    "const_tensor": OpSpec((0, 0), (), _const_tensor, _prepare_const_tensor,
                           literals=1),
    "softmax": OpSpec((1, 1), ("dim",), lambda op, a, env: torch.softmax(
        _tensor(env, a[0]), dim=op.params["dim"]), _prepare_softmax),
    "layer_norm": OpSpec((1, 3), ("normalized_rank", "eps"), _layer_norm,
                         _prepare_layer_norm),
    "group_norm": OpSpec((1, 3), ("groups", "eps"), _group_norm,
                         _prepare_group_norm),
    "batch_norm": OpSpec((3, 5), ("training", "eps", "momentum"),
                         _batch_norm, _prepare_batch_norm, results=(1, 3)),
    "instance_norm": OpSpec((1, 3), ("eps",), _instance_norm,
                            _prepare_instance_norm),
    "log_softmax": OpSpec((1, 1), ("dim",), lambda op, a, env: F.log_softmax(
        _tensor(env, a[0]), dim=op.params["dim"]), _prepare_softmax),
    "max_pool": OpSpec((1, 1), ("kernel_size", "stride", "padding",
                                "dilation", "ceil_mode"), _max_pool,
                       _prepare_pool),
    "avg_pool": OpSpec((1, 1), ("kernel_size", "stride", "padding",
                                "ceil_mode", "count_include_pad",
                                "divisor_override"), _avg_pool,
                       _prepare_pool),
    "adaptive_avg_pool": OpSpec((1, 1), ("output_size",),
                                _adaptive_pool("avg"), _prepare_adaptive_pool),
    "adaptive_max_pool": OpSpec((1, 1), ("output_size",),
                                _adaptive_pool("max"), _prepare_adaptive_pool),
    "concat": OpSpec((1, 1 << 16), ("dim",),
                     lambda op, a, env: torch.cat(
                         [_tensor(env, t) for t in a], dim=op.params["dim"]),
                     _prepare_concat),
    "upsample": OpSpec((1, 1), ("output_size", "linear", "align_corners",
                                "scales"), _upsample, _prepare_upsample),
    "reshape": OpSpec((1, 1), ("shape",), _reshape, _prepare_reshape),
    "conv_transpose_tap_sums": OpSpec(
        (1, 1), ("kernel_size", "stride", "padding", "dilation",
                 "output_size", "scale"), _tap_sums, _prepare_tap_sums),
}
for _name in REDUCTION_OPS:
    OPS[_name] = OpSpec((1, 1), ("dims", "keepdim"), _reduction(_name),
                        _prepare_reduction)
OPS["var"] = OpSpec((1, 1), ("dims", "keepdim", "correction"), _var,
                    _prepare_var)


def validate(op):
    """Checks `op` against its row of OPS and converts its attributes into
    op.params; GraphError naming the line otherwise."""
    spec = OPS.get(op.kind)
    if spec is None:
        raise GraphError("unknown op '%s' in '%s' (known: %s)"
                         % (op.kind, op.line, ", ".join(sorted(OPS))))
    if len(op.results) not in spec.results:
        raise GraphError("'%s' defines %s in '%s'" % (
            op.kind, " or ".join("%d value%s" % (n, "" if n == 1 else "s")
                                 for n in spec.results), op.line))
    if not spec.low <= len(op.operands) <= spec.high:
        raise GraphError("'%s' takes %d to %d operands in '%s'"
                         % (op.kind, spec.low, spec.high, op.line))
    if len(op.literals) != spec.literals:
        if spec.literals:
            raise GraphError("'%s' without a value in '%s'"
                             % (op.kind, op.line))
        raise GraphError("unexpected token '%s' in '%s'"
                         % (op.literals[0], op.line))
    unknown = set(op.attrs) - spec.attrs
    if unknown:
        raise GraphError("unknown attribute(s) %s in '%s'"
                         % (", ".join(sorted(unknown)), op.line))
    if spec.prepare is not None:
        try:
            spec.prepare(op)
        except GraphError:
            raise
        except (KeyError, ValueError) as error:
            raise GraphError("bad or missing attribute (%s) in '%s'"
                             % (error, op.line)) from None
    op.evaluate = spec.evaluate
