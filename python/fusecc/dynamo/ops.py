# ===- fusecc/dynamo/ops.py - FX nodes -> fuse ops ----------------------=== #
#
# One handler per PyTorch computation fusecc supports, found from an FX
# node by `lookup` (forward convolutions, cat and interpolation in
# ops_decoders.py; norms, pools, reductions and reshape in ops_norms.py):
# call_module by the layer's class (nn.ConvTranspose2d,
# nn.BatchNorm2d in eval mode, ...), call_function by the function
# (torch.conv_transpose2d, F.relu, operator.add, torch.ops.aten.* ...),
# call_method by the Tensor method's name. A handler reads its arguments
# through the Context (positional or keyword, as PyTorch's signature has
# them), emits fuse ops and returns the result Tensor; it raises
# Unsupported with the reason where the arguments are outside what fusecc
# computes exactly as PyTorch does (training-mode batch_norm, integer
# dtypes, approximate forms it lacks, ...).
#
# ===--------------------------------------------------------------------=== #


from .translate import (Tensor, Unsupported, element_type, format_float,
                        i64_array)

HANDLERS = {}       # canonical name -> handler
_FUNCTIONS = {}     # id(function object) -> canonical name
_MODULES = {}       # nn.Module class name -> canonical name
_METHODS = {}       # Tensor method name -> canonical name


def handler(name, functions=(), modules=(), methods=(), aten=()):
    """Registers a handler under `name` for the torch/F function names
    (e.g. "torch.relu", "torch.nn.functional.relu"), nn module class names,
    Tensor method names and aten overload packets ("relu")."""
    def wrap(fn):
        HANDLERS[name] = fn
        for f in functions:
            _pending_functions.append((f, name))
        for m in modules:
            _MODULES[m] = name
        for m in methods:
            _METHODS[m] = name
        for a in aten:
            _pending_aten.append((a, name))
        return fn
    return wrap


_pending_functions, _pending_aten = [], []
_resolved = [False]


def _resolve_tables():
    """Maps function objects (imported lazily: PyTorch is optional)."""
    if _resolved[0]:
        return
    import importlib
    import torch
    for dotted, name in _pending_functions:
        parts = dotted.split(".")
        try:
            obj = importlib.import_module(parts[0])
            for i, part in enumerate(parts[1:], 1):
                try:
                    obj = getattr(obj, part)
                except AttributeError:
                    obj = importlib.import_module(".".join(parts[:i + 1]))
        except (ImportError, AttributeError):
            continue
        _FUNCTIONS.setdefault(id(obj), (obj, name))
    aten = getattr(getattr(torch, "ops", None), "aten", None)
    for packet_name, name in _pending_aten:
        try:
            packet = getattr(aten, packet_name)
        except (AttributeError, RuntimeError):
            continue
        _FUNCTIONS[id(packet)] = (packet, name)
        for overload in packet.overloads():
            obj = getattr(packet, overload)
            _FUNCTIONS[id(obj)] = (obj, name)
    _resolved[0] = True


def describe(gm, node):
    """What a node computes, for messages: 'ConvTranspose2d', 'torch.relu',
    '.view', 'aten.relu.default'."""
    if node.op == "call_module":
        return type(gm.get_submodule(node.target)).__name__
    if node.op == "call_method":
        return "." + str(node.target)
    target = node.target
    module = getattr(target, "__module__", None) or ""
    name = getattr(target, "__name__", None) or str(target)
    if module.startswith("torch._ops"):
        return str(target)
    return "%s.%s" % (module, name) if module else name


def lookup(gm, node):
    """(handler or None, description) of an FX call node."""
    _resolve_tables()
    what = describe(gm, node)
    if node.op == "call_module":
        name = _MODULES.get(type(gm.get_submodule(node.target)).__name__)
    elif node.op == "call_method":
        name = _METHODS.get(node.target)
    else:
        entry = _FUNCTIONS.get(id(node.target))
        name = entry[1] if entry is not None and entry[0] is node.target \
            else None
    return (HANDLERS[name] if name else None), what


# Helpers -------------------------------------------------------------------


def _tuple(value, n, what):
    if isinstance(value, int):
        return (value,) * n
    value = tuple(value)
    if len(value) == 1 and n > 1:
        return value * n
    if len(value) != n:
        raise Unsupported("%s has %d entries, expected %d"
                          % (what, len(value), n))
    return tuple(int(v) for v in value)


def _dim(dim, rank):
    dim = int(dim)
    if not -rank <= dim < max(rank, 1):
        raise Unsupported("dim %d is out of range for rank %d" % (dim, rank))
    return dim % rank if rank else 0


def _same_dtype(ctx, *values):
    shape, dtype, _ = ctx.result_meta()
    for v in values:
        if isinstance(v, Tensor) and v.dtype != dtype:
            raise Unsupported("mixed dtypes (%s and %s)" % (v.dtype, dtype))
    return shape, dtype


#: The half dtypes (PyTorch names).
HALF = ("float16", "bfloat16")


def cast(ctx, value, dtype):
    """`value` read as `dtype`: itself, or a fuse.cast (to a half type it
    rounds to nearest even, to float32 it is exact)."""
    if not isinstance(value, Tensor) or value.dtype == dtype:
        return value
    element_type(value.dtype)
    return ctx.emitter.op("fuse.cast %s : %s -> {r}" % (value.name,
                                                         value.type),
                          value.shape, dtype)


def _operands(ctx, *values, params=0):
    """(shape, dtype, values) of an op: its result's shape and dtype (from
    the node's metadata), and `values` read at that dtype. An operand of
    another float dtype -- PyTorch's type promotion (bf16 + f32 -> f32), or
    torch.autocast, whose casts FX graphs do not show (a conv_transpose of
    f32 tensors with a bf16 result) -- is read through a fuse.cast, which
    rounds where PyTorch rounds. The last `params` values are a
    normalisation's parameters: f32 ones stay f32 on half data (the
    dialect's F32Parameters rule, docs/design/types.md)."""
    shape, dtype, _ = ctx.result_meta()
    element_type(dtype)
    out = []
    for i, v in enumerate(values):
        is_param = i >= len(values) - params
        if is_param and isinstance(v, Tensor) and v.dtype == "float32" \
                and dtype in HALF:
            out.append(v)
        else:
            out.append(cast(ctx, v, dtype))
    return shape, dtype, out


def _unary(ctx, mnemonic, x, attrs=""):
    shape, dtype, (x,) = _operands(ctx, x)
    if tuple(shape) != x.shape:
        raise Unsupported("result shape differs from the input's")
    return ctx.emitter.op("fuse.%s %s%s : {r}" % (mnemonic, x.name, attrs),
                          shape, dtype)


# Transposed convolution ------------------------------------------------------


class _ConvTransposeLine:
    """Where a conv_transpose's result was emitted (its line in the body)
    and its operands and parameters: a slice of the result rewrites it."""

    def __init__(self, line, operands, stride, padding, output_padding,
                 dilation, groups):
        self.line, self.operands = line, operands
        self.stride, self.padding = stride, padding
        self.output_padding, self.dilation = output_padding, dilation
        self.groups = groups

    def text(self):
        attrs = ("stride = %s, padding = %s, output_padding = %s, "
                 "dilation = %s, groups = %d : i64" % (
                     i64_array(self.stride), i64_array(self.padding),
                     i64_array(self.output_padding),
                     i64_array(self.dilation), self.groups))
        return "fuse.conv_transpose %s {%s} : (%s) -> {r}" % (
            ", ".join(o.name for o in self.operands), attrs,
            ", ".join(o.type for o in self.operands))


def _conv_transpose(ctx, x, w, b, stride, padding, output_padding, groups,
                    dilation):
    n = x.rank - 2
    if n not in (1, 2, 3) or w.rank != x.rank:
        raise Unsupported("transposed convolution of rank %d" % x.rank)
    if isinstance(padding, str):
        raise Unsupported("padding='%s'" % padding)
    shape, dtype, (x, w, b) = _operands(ctx, x, w, b)
    ctx.emitter.conv_dtypes.add(dtype)
    line = _ConvTransposeLine(
        len(ctx.emitter.body), [x, w] + ([b] if b is not None else []),
        _tuple(stride, n, "stride"), _tuple(padding, n, "padding"),
        _tuple(output_padding, n, "output_padding"),
        _tuple(dilation, n, "dilation"), int(groups))
    result = ctx.emitter.op(line.text(), shape, dtype)
    result.conv_transpose = line
    return result


def _slice_bounds(index, shape):
    """(start, stop) per dim of a basic index `index` (slices of step 1,
    at most one Ellipsis) of a tensor of `shape`, or Unsupported."""
    index = index if isinstance(index, tuple) else (index,)
    ellipses = [i for i, e in enumerate(index) if e is Ellipsis]
    if len(ellipses) > 1:
        raise Unsupported("an index with two ellipses")
    if ellipses:
        k = ellipses[0]
        index = (index[:k] + (slice(None),) * (len(shape) - len(index) + 1)
                 + index[k + 1:])
    index = index + (slice(None),) * (len(shape) - len(index))
    if len(index) != len(shape) or not all(isinstance(e, slice)
                                           for e in index):
        raise Unsupported("an index other than slices")
    bounds = []
    for e, size in zip(index, shape):
        if e == slice(None):
            bounds.append((0, size))
            continue
        if e.step not in (None, 1) or size is None or not all(
                v is None or isinstance(v, int)
                for v in (e.start, e.stop)):
            raise Unsupported("a slice of step %s or with non-constant "
                              "bounds" % (e.step,))
        start, stop, _ = e.indices(size)
        if stop <= start:
            raise Unsupported("an empty slice")
        bounds.append((start, stop))
    return bounds


def _crop_index(gm, node):
    """A slice node's (source node, index): getitem's or aten.slice's."""
    if node.target is not None and "slice" in str(node.target):
        args = list(node.args) + [None] * 5
        dim = node.kwargs.get("dim", args[1] if args[1] is not None else 0)
        rank = len(tensor_meta_shape(node.args[0]))
        index = [slice(None)] * rank
        index[dim] = slice(node.kwargs.get("start", args[2]),
                           node.kwargs.get("end", args[3]),
                           node.kwargs.get("step", args[4] or 1))
        return node.args[0], tuple(index)
    return node.args[0], node.args[1]


def tensor_meta_shape(node):
    from .translate import tensor_meta
    meta = tensor_meta(node)
    if meta is None:
        raise Unsupported("operand %s has no shape metadata" % node.name)
    return meta[0]


def crop_support(gm, node):
    """Whether slice node `node` (getitem or aten.slice of a tensor) is a
    crop _crop_conv_transpose folds: its source a transposed convolution
    (or such a crop) read by nothing else, its index slices of step 1 of
    spatial dims; returns that convolution's node. Judged on the graph:
    alone, a slice is unsupported."""
    source, index = _crop_index(gm, node)
    if not hasattr(source, "users") or len(source.users) != 1:
        raise Unsupported("indexing a tensor (only slices of a "
                          "conv_transpose result nothing else reads)")
    shape = tensor_meta_shape(source)
    bounds = _slice_bounds(index, shape)
    if any(b != (0, size) for b, size in zip(bounds[:2], shape[:2])):
        raise Unsupported("a slice of the batch or channel dim")
    handler, _ = lookup(gm, source)
    if handler in (HANDLERS["getitem"], HANDLERS["slice"]):
        return crop_support(gm, source)
    transposed = handler is HANDLERS["conv_transpose"] or (
        handler is HANDLERS["convolution"] and (
            list(source.args) + [None] * 7)[6])
    if not transposed:
        raise Unsupported("indexing a tensor (only slices of a "
                          "conv_transpose result nothing else reads)")
    return source


def _crop_conv_transpose(ctx, source, index):
    """`source[index]` of a conv_transpose result that nothing else reads:
    the same fuse.conv_transpose with the crop in it -- the begin in its
    padding, the end in its (signed) output_padding -- so that the kernel
    computes and stores only the positions kept (the ONNX importer maps
    pads ending past the begin the same way)."""
    line = getattr(source, "conv_transpose", None)
    if line is None or len(ctx.node.args[0].users) != 1:
        raise Unsupported("indexing a tensor (only slices of a "
                          "conv_transpose result nothing else reads)")
    bounds = _slice_bounds(index, source.shape)
    if any(b != (0, size) for b, size in zip(bounds[:2], source.shape[:2])):
        raise Unsupported("a slice of the batch or channel dim")
    padding, output_padding = list(line.padding), list(line.output_padding)
    shape = list(source.shape)
    for d, (start, stop) in enumerate(bounds[2:]):
        size = source.shape[2 + d]
        padding[d] += start
        output_padding[d] += start - (size - stop)
        shape[2 + d] = stop - start
    line.padding, line.output_padding = tuple(padding), tuple(output_padding)
    result = Tensor(source.name, shape, source.dtype)
    ctx.emitter.body[line.line] = "%s = %s" % (
        result.name, line.text().replace("{r}", result.type))
    result.conv_transpose = line
    return result


def _output_size_padding(ctx, m):
    """The output_padding of a ConvTranspose module called with
    `output_size=` (a list, a tuple, a torch.Size; full or spatial, as a
    keyword or positionally): the result's recorded spatial size minus the
    smallest one, per dim. PyTorch checked the size when the graph was
    shape-propagated, so the recorded shape is the one asked for. A size
    read off a tensor is a node under symbolic_trace (dynamo and make_fx
    record the number), which the graph's own translation refuses."""
    if set(ctx.node.kwargs) - {"output_size"} or len(ctx.node.args) > 2:
        raise Unsupported("arguments other than input and output_size")
    x = tensor_meta_shape(ctx.node.args[0])
    out = ctx.result_meta()[0]
    n = len(x) - 2
    if len(out) != len(x) or any(not isinstance(v, int) for v in out[2:]):
        raise Unsupported("an output_size without a static result shape")
    k = m.weight.shape[2:]
    stride, padding = _tuple(m.stride, n, "stride"), _tuple(m.padding, n,
                                                              "padding")
    dilation = _tuple(m.dilation, n, "dilation")
    return tuple(out[2 + d] - ((x[2 + d] - 1) * stride[d] - 2 * padding[d]
                               + dilation[d] * (k[d] - 1) + 1)
                 for d in range(n))


@handler("conv_transpose",
         functions=["torch.conv_transpose1d", "torch.conv_transpose2d",
                    "torch.conv_transpose3d",
                    "torch.nn.functional.conv_transpose1d",
                    "torch.nn.functional.conv_transpose2d",
                    "torch.nn.functional.conv_transpose3d"],
         modules=["ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"],
         aten=["conv_transpose1d", "conv_transpose2d", "conv_transpose3d"])
def conv_transpose(ctx):
    if ctx.module is not None:
        m = ctx.module
        if getattr(m, "padding_mode", "zeros") != "zeros":
            raise Unsupported("padding_mode='%s'" % m.padding_mode)
        output_padding = m.output_padding
        if len(ctx.node.args) > 1 or ctx.node.kwargs:
            output_padding = _output_size_padding(ctx, m)
        return _conv_transpose(ctx, ctx.tensor(0, "input"),
                               ctx.param("weight"), ctx.param("bias"),
                               m.stride, m.padding,
                               output_padding, m.groups, m.dilation)
    return _conv_transpose(
        ctx, ctx.tensor(0, "input"), ctx.tensor(1, "weight"),
        ctx.arg(2, "bias"), ctx.arg(3, "stride", 1), ctx.arg(4, "padding", 0),
        ctx.arg(5, "output_padding", 0), ctx.arg(6, "groups", 1),
        ctx.arg(7, "dilation", 1))


@handler("convolution", aten=["convolution"])
def convolution(ctx):
    if not ctx.arg(6, "transposed", False):
        # aten.convolution(input, weight, bias, stride, padding, dilation,
        # transposed, output_padding, groups): a forward convolution.
        from .ops_decoders import forward_conv
        return forward_conv(
            ctx, ctx.tensor(0, "input"), ctx.tensor(1, "weight"),
            ctx.arg(2, "bias"), ctx.arg(3, "stride"), ctx.arg(4, "padding"),
            ctx.arg(5, "dilation"), ctx.arg(8, "groups"))
    return _conv_transpose(
        ctx, ctx.tensor(0, "input"), ctx.tensor(1, "weight"),
        ctx.arg(2, "bias"), ctx.arg(3, "stride"), ctx.arg(4, "padding"),
        ctx.arg(7, "output_padding"), ctx.arg(8, "groups"),
        ctx.arg(5, "dilation"))


# Elementwise -----------------------------------------------------------------


def _check_inplace(ctx, asked):
    """Unsupported when an op asked to write its input in place (`asked`)
    would change a tensor others can see; writing a computed tensor that
    nothing else reads is the same as writing a new one."""
    if not asked:
        return
    source = ctx.node.args[0] if ctx.node.args else None
    if not (getattr(source, "op", "") in ("call_module", "call_function",
                                          "call_method")
            and len(source.users) == 1):
        raise Unsupported("inplace=True on a tensor others read (fusecc "
                          "writes a new tensor)")


def _asked_inplace(ctx, index):
    """Whether the node asks for in-place: its layer's `inplace`, else
    argument `index` or the `inplace` keyword."""
    if ctx.module is not None:
        return bool(getattr(ctx.module, "inplace", False))
    args = ctx.node.args
    if len(args) > index:
        return args[index] is True
    return bool(ctx.node.kwargs.get("inplace", False))


_ACTIVATION_MODULES = {"relu": "ReLU", "sigmoid": "Sigmoid", "tanh": "Tanh",
                       "silu": "SiLU", "mish": "Mish",
                       "hardsigmoid": "Hardsigmoid",
                       "hardswish": "Hardswish"}


def _register_unary(mnemonic):
    def fn(ctx):
        _check_inplace(ctx, _asked_inplace(ctx, 1))
        return _unary(ctx, mnemonic, ctx.tensor(0, "input"))
    module = _ACTIVATION_MODULES.get(mnemonic)
    handler(mnemonic,
            functions=["torch." + mnemonic, "torch.nn.functional." + mnemonic,
                       "torch._C._nn." + mnemonic],
            modules=[module] if module else [], methods=[mnemonic],
            aten=[mnemonic])(fn)


for _name in ("relu", "sigmoid", "tanh", "exp", "log", "sqrt", "rsqrt",
              "abs", "neg", "erf", "silu", "mish", "hardsigmoid",
              "hardswish"):
    _register_unary(_name)


def _register_inplace_unary(mnemonic):
    """torch.relu_, x.relu_(), aten.relu_ ...: the in-place forms, the
    same computation where nothing else reads the operand."""
    def fn(ctx):
        _check_inplace(ctx, True)
        return _unary(ctx, mnemonic, ctx.tensor(0, "input"))
    handler(mnemonic + "_", functions=["torch." + mnemonic + "_",
                                       "torch._C._nn." + mnemonic + "_"],
            methods=[mnemonic + "_"], aten=[mnemonic + "_"])(fn)


for _name in ("relu", "sigmoid", "tanh", "silu", "hardsigmoid",
              "hardswish", "exp", "neg", "abs"):
    _register_inplace_unary(_name)


@handler("gelu", functions=["torch.nn.functional.gelu", "torch._C._nn.gelu"],
         modules=["GELU"],
         aten=["gelu"])
def gelu(ctx):
    approx = (ctx.module.approximate if ctx.module is not None
              else ctx.arg(1, "approximate", "none"))
    if approx not in ("none", "tanh"):
        raise Unsupported("approximate='%s'" % approx)
    attrs = " {approximate = \"tanh\"}" if approx == "tanh" else ""
    return _unary(ctx, "gelu", ctx.tensor(0, "input"), attrs)


@handler("leaky_relu", functions=["torch.nn.functional.leaky_relu",
                                  "torch._C._nn.leaky_relu"],
         modules=["LeakyReLU"], aten=["leaky_relu"])
def leaky_relu(ctx):
    _check_inplace(ctx, _asked_inplace(ctx, 2))
    slope = (ctx.module.negative_slope if ctx.module is not None
             else ctx.arg(1, "negative_slope", 0.01))
    return _unary(ctx, "leaky_relu", ctx.tensor(0, "input"),
                  " {slope = %s : f64}" % format_float(slope))


def _clamp_attrs(lo, hi):
    parts = []
    for key, v in (("min", lo), ("max", hi)):
        if v is not None:
            if isinstance(v, Tensor):
                raise Unsupported("tensor clamp bounds")
            parts.append("%s = %s : f64" % (key, format_float(v)))
    if not parts:
        raise Unsupported("clamp without bounds")
    return " {%s}" % ", ".join(parts)


@handler("clamp", functions=["torch.clamp", "torch.clip"],
         methods=["clamp", "clip"], aten=["clamp"])
def clamp(ctx):
    return _unary(ctx, "clamp", ctx.tensor(0, "input"),
                  _clamp_attrs(ctx.arg(1, "min"), ctx.arg(2, "max")))


@handler("hardtanh", functions=["torch.nn.functional.hardtanh",
                                "torch.nn.functional.relu6",
                                "torch._C._nn.hardtanh"],
         modules=["Hardtanh", "ReLU6"], aten=["hardtanh"])
def hardtanh(ctx):
    relu6 = getattr(ctx.node.target, "__name__", "") == "relu6"
    _check_inplace(ctx, _asked_inplace(ctx, 1 if relu6 else 3))
    if ctx.module is not None:
        lo, hi = ctx.module.min_val, ctx.module.max_val
    elif relu6:
        lo, hi = 0.0, 6.0
    else:
        lo, hi = ctx.arg(1, "min_val", -1.0), ctx.arg(2, "max_val", 1.0)
    return _unary(ctx, "clamp", ctx.tensor(0, "input"), _clamp_attrs(lo, hi))


@handler("softplus", functions=["torch.nn.functional.softplus",
                                "torch._C._nn.softplus"],
         modules=["Softplus"], aten=["softplus"])
def softplus(ctx):
    if ctx.module is not None:
        beta, threshold = ctx.module.beta, ctx.module.threshold
    else:
        beta, threshold = ctx.arg(1, "beta", 1), ctx.arg(2, "threshold", 20)
    if beta != 1 or threshold != 20:
        raise Unsupported("softplus with beta=%s, threshold=%s (fusecc: 1, "
                          "20)" % (beta, threshold))
    return _unary(ctx, "softplus", ctx.tensor(0, "input"))


@handler("identity", functions=["torch.nn.functional.dropout",
                                "torch.nn.functional.dropout2d",
                                "torch.nn.functional.dropout3d"],
         modules=["Dropout", "Dropout2d", "Dropout3d", "Identity"],
         methods=["contiguous"], aten=["clone"])
def identity(ctx):
    training = (ctx.module.training if ctx.module is not None and
                hasattr(ctx.module, "p") else
                (ctx.arg(2, "training", True) if ctx.node.op == "call_function"
                 and "dropout" in getattr(ctx.node.target, "__name__", "")
                 else False))
    if training:
        raise Unsupported("dropout in training mode")
    x = ctx.tensor(0, "input")
    shape, dtype, (x,) = _operands(ctx, x)
    # An explicit copy keeps every op's result distinct from its input.
    one = ctx.emitter.scalar(1.0, dtype)
    return ctx.emitter.op("fuse.mul %s, %s : %s, %s -> {r}"
                          % (x.name, one.name, x.type, one.type), shape, dtype)


_BINARY = {"add": "add", "sub": "sub", "mul": "mul", "div": "div",
           "pow": "pow", "maximum": "maximum", "minimum": "minimum"}


def _binary(ctx, mnemonic, a, b, alpha=1):
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        raise Unsupported("no tensor operand")
    for v in (a, b):
        if not isinstance(v, (Tensor, int, float)) or isinstance(v, bool):
            raise Unsupported("operand of type %s" % type(v).__name__)
    if alpha != 1 and not isinstance(b, Tensor):
        b, alpha = b * alpha, 1
    shape, dtype, (a, b) = _operands(ctx, a, b)
    scalars = [v for v in (a, b, alpha) if not isinstance(v, Tensor)]
    if dtype in HALF and not all(_exact(v, dtype) for v in scalars):
        # PyTorch computes `half_tensor op scalar` with the scalar in f32
        # (its opmath type) and rounds the result: the same here, where
        # the scalar has no exact half value (0.1, 1e-3 ...).
        a, b = cast(ctx, a, "float32"), cast(ctx, b, "float32")
        return cast(ctx, _binary_at(ctx.emitter, mnemonic, a, b, alpha,
                                    shape, "float32"), dtype)
    return _binary_at(ctx.emitter, mnemonic, a, b, alpha, shape, dtype)


def _exact(value, dtype):
    """Whether the number `value` is a value of the half `dtype`."""
    import torch
    return float(torch.tensor(float(value), dtype=getattr(torch, dtype))
                 .float()) == float(value)


def _binary_at(em, mnemonic, a, b, alpha, shape, dtype):
    if alpha != 1:
        if mnemonic not in ("add", "sub") or not isinstance(b, Tensor):
            b = b * alpha if not isinstance(b, Tensor) else b
        if isinstance(b, Tensor):
            k = em.scalar(alpha, dtype)
            b = em.op("fuse.mul %s, %s : %s, %s -> {r}"
                      % (b.name, k.name, b.type, k.type), b.shape, dtype)
    a = a if isinstance(a, Tensor) else em.scalar(a, dtype)
    b = b if isinstance(b, Tensor) else em.scalar(b, dtype)
    return em.op("fuse.%s %s, %s : %s, %s -> {r}"
                 % (mnemonic, a.name, b.name, a.type, b.type), shape, dtype)


def _make_binary(mnemonic, functions, methods, aten, reflected=False):
    def fn(ctx):
        if ctx.node.op == "call_method":
            a, b = ctx.arg(0, "self"), ctx.arg(1, "other")
        else:
            a, b = ctx.arg(0, "input"), ctx.arg(1, "other")
        if reflected:
            a, b = b, a
        if getattr(ctx.node.target, "__name__", "").startswith("i"):
            _check_inplace(ctx, True)  # operator.iadd: x += y
        if mnemonic == "div" and ctx.arg(None, "rounding_mode") is not None:
            raise Unsupported("div with rounding_mode")
        return _binary(ctx, mnemonic, a, b, ctx.arg(None, "alpha", 1)
                       if mnemonic in ("add", "sub") else 1)
    key = mnemonic + ("_r" if reflected else "")
    handler(key, functions=functions, methods=methods, aten=aten)(fn)


_make_binary("add", ["torch.add", "_operator.add", "operator.add",
                     "_operator.iadd"], ["add"], ["add"])
_make_binary("sub", ["torch.sub", "_operator.sub", "operator.sub"], ["sub"],
             ["sub"])
_make_binary("mul", ["torch.mul", "_operator.mul", "operator.mul"], ["mul"],
             ["mul"])
_make_binary("div", ["torch.div", "_operator.truediv", "operator.truediv"],
             ["div"], ["div"])
_make_binary("pow", ["torch.pow", "_operator.pow", "operator.pow"], ["pow"],
             ["pow"])
_make_binary("maximum", ["torch.maximum"], ["maximum"], ["maximum"])
_make_binary("minimum", ["torch.minimum"], ["minimum"], ["minimum"])
_make_binary("sub", [], ["rsub"], ["rsub"], reflected=True)


# Casts -----------------------------------------------------------------------


@handler("cast", functions=["torch.ops.prims.convert_element_type.default"],
         methods=["to", "type", "half", "bfloat16", "float", "double",
                  "type_as"],
         aten=["_to_copy", "to"])
def to_dtype(ctx):
    """x.to(dtype), .half(), .bfloat16(), .float(), .type(dtype),
    .double() (float64: unsupported, the reason says so),
    .type_as(y), aten._to_copy / prims.convert_element_type: a fuse.cast
    to the result's dtype (the node's metadata says which), nothing where
    the dtype does not change. Devices, layouts and memory formats are
    PyTorch's business: a call naming one stays in PyTorch."""
    x = ctx.tensor(0, "input")
    args = list(ctx.node.args[1:])
    kwargs = dict(ctx.node.kwargs)
    import torch
    kept = (None, False, torch.strided, torch.preserve_format,
            torch.contiguous_format)
    for key in ("non_blocking", "copy", "layout", "pin_memory",
                "memory_format"):
        if kwargs.get(key, None) in kept:
            kwargs.pop(key, None)
    if "device" in kwargs and kwargs["device"] is not None and \
            _device(ctx.node) == _device(ctx.node.args[0]):
        kwargs.pop("device")  # aten._to_copy names the device it keeps.
    if ctx.node.op == "call_method" and ctx.node.target == "type_as":
        args = []  # The other tensor only gives the dtype.
    for a in args + list(kwargs.values()):
        if not isinstance(a, torch.dtype) and a is not None:
            raise Unsupported("a cast to %r (fusecc casts between float "
                              "dtypes only)" % (a,))
    shape, dtype, _ = ctx.result_meta()
    element_type(dtype)
    if tuple(shape) != x.shape:
        raise Unsupported("result shape differs from the input's")
    if dtype == x.dtype:
        return x
    return cast(ctx, x, dtype)


def _device(node):
    """The device of an FX node's example value (None where unknown)."""
    meta = getattr(node, "meta", None) or {}
    for key in ("val", "example_value"):
        if meta.get(key) is not None and hasattr(meta[key], "device"):
            return str(meta[key].device)
    return None


# Normalisations --------------------------------------------------------------


@handler("softmax", functions=["torch.softmax",
                               "torch.nn.functional.softmax"],
         modules=["Softmax"], methods=["softmax"], aten=["_softmax",
                                                         "softmax"])
def softmax(ctx):
    return _softmax(ctx, "softmax")


@handler("log_softmax", functions=["torch.log_softmax",
                                   "torch.nn.functional.log_softmax"],
         modules=["LogSoftmax"], methods=["log_softmax"],
         aten=["_log_softmax", "log_softmax"])
def log_softmax(ctx):
    return _softmax(ctx, "log_softmax")


def _softmax(ctx, mnemonic):
    x = ctx.tensor(0, "input")
    dim = ctx.module.dim if ctx.module is not None else ctx.arg(1, "dim")
    if dim is None:
        raise Unsupported("softmax without dim")
    if ctx.node.op != "call_module" and ctx.arg(None, "dtype") is not None:
        raise Unsupported("softmax with a dtype")
    return _unary(ctx, mnemonic, x, " {dim = %d : i64}" % _dim(dim, x.rank))


@handler("getitem", functions=["_operator.getitem", "operator.getitem"])
def getitem(ctx):
    source = ctx.arg(0, "a")
    index = ctx.node.args[1]
    if isinstance(source, tuple) and isinstance(index, int):
        value = source[index]
        if value is None:
            raise Unsupported("an unused result of batch_norm")
        return value
    if isinstance(source, Tensor):
        return _crop_conv_transpose(ctx, source, ctx.arg(1, "b"))
    raise Unsupported("indexing a tensor")


@handler("slice", aten=["slice"])
def slice_(ctx):
    """aten.slice(self, dim, start, end, step): a crop of one dim."""
    x = ctx.tensor(0, "self")
    dim = ctx.arg(1, "dim", 0)
    index = [slice(None)] * x.rank
    index[dim] = slice(ctx.arg(2, "start"), ctx.arg(3, "end"),
                       ctx.arg(4, "step", 1))
    return _crop_conv_transpose(ctx, x, tuple(index))


# Forward convolutions, cat and interpolation; norms, pools, reductions and
# reshape register themselves here.
from . import ops_decoders, ops_norms  # noqa: E402,F401

DECODER_OPS = ops_decoders.__name__
SUPPORTED_SUMMARY = sorted(HANDLERS)
