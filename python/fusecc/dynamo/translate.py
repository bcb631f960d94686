# ===- fusecc/dynamo/translate.py - FX graphs -> fuse MLIR text ---------=== #
#
# Translates a torch.fx graph (what torch.compile hands a backend, or
# torch.fx.symbolic_trace of a module) into a fuse dialect function, written
# as MLIR text for the `fusecc` CLI. Nodes may be call_module (nn layers),
# call_function (torch.* / F.* functions, operator.*, aten ops) or
# call_method (Tensor methods); each is mapped to the fuse op it computes by
# the handlers of fusecc.dynamo.ops, which raise Unsupported (with a reason)
# for anything fusecc cannot compute exactly as PyTorch does.
#
# Parameters and buffers of call_module layers become function arguments
# ("weights as arguments"), so the bundle reads their current values at each
# call. Function arguments are numbered in the order the ops first use them,
# and SSA values in op order, so that the text (and the bundle cache key)
# does not depend on node names or placeholder order.
#
# ===--------------------------------------------------------------------=== #

import math

#: PyTorch dtype name -> fuse element type.
ELEMENT_TYPES = {"float32": "f32", "float16": "f16", "bfloat16": "bf16"}


class Unsupported(Exception):
    """A node (or graph) fusecc cannot compute; str() is the reason."""


class Tensor:
    """A tensor value of the fuse function: its SSA name, shape and dtype
    (the PyTorch dtype's name)."""

    def __init__(self, name, shape, dtype):
        self.name = name
        # None: a dynamic batch (dim 0 only; `?` in the text).
        self.shape = tuple(None if s is None else int(s) for s in shape)
        self.dtype = dtype

    @property
    def rank(self):
        return len(self.shape)

    @property
    def type(self):
        return tensor_type(self.shape, self.dtype)


def element_type(dtype):
    """The fuse element type of a PyTorch dtype (or its name)."""
    name = str(dtype).rsplit(".", 1)[-1]
    if name not in ELEMENT_TYPES:
        raise Unsupported("dtype %s (fusecc graphs hold float32, float16 and "
                          "bfloat16 tensors)" % name)
    return ELEMENT_TYPES[name]


def tensor_type(shape, dtype):
    dims = "".join("?x" if d is None else "%dx" % d for d in shape)
    return "tensor<%s%s>" % (dims, element_type(dtype))


#: Whether a symbolic dim 0 translates to a dynamic batch (None, `?`):
#: set by `dynamic_batch()` around a translation (compile_graph), else a
#: symbolic size is Unsupported. _SPECIALISE: None, or the list collecting
#: the symbolic sizes of other dims taken at their hints; _PROTECTED: the
#: symbols such a size must not hold (see dynamic_batch).
_DYNAMIC_BATCH = [False]
_SPECIALISE = [None]
_PROTECTED = [frozenset()]
#: None: any symbolic dim 0 is a batch; else only one whose text is one of
#: these names (the batches of the graph's data inputs).
_BATCHES = [None]


class dynamic_batch:
    """Context in which a symbolic size in dim 0 (torch.compile(...,
    dynamic=True), torch._dynamo.mark_dynamic(x, 0)) is a dynamic batch:
    shapes get None there and the text `?` (a `fusecc --max-batch` graph,
    docs/design/dynamo.md). Symbolic sizes elsewhere are Unsupported, unless
    `specialise` is a list: then each one is its size hint (the example
    value dynamo traced with) and is appended to the list, for the caller
    to guard it (`specialise_sizes`) once the partition is compiled. A size
    holding one of the `protected` symbols (a batch's, or one the user
    marked dynamic) is never specialised: Unsupported. `batches`: the
    names of the batch sizes (None: every symbolic dim 0 is one); a
    symbolic dim 0 that is none of them (a buffer's length under
    dynamic=True) is specialised like the other dims."""

    def __init__(self, enabled=True, specialise=None, protected=(),
                 batches=None):
        self.enabled = enabled
        self.specialise = specialise
        self.protected = frozenset(protected)
        self.batches = None if batches is None else frozenset(batches)

    def __enter__(self):
        self.saved = (_DYNAMIC_BATCH[0], _SPECIALISE[0], _PROTECTED[0],
                      _BATCHES[0])
        _DYNAMIC_BATCH[0] = self.enabled
        _SPECIALISE[0] = self.specialise
        _PROTECTED[0] = self.protected
        _BATCHES[0] = self.batches
        return self

    def __exit__(self, *exc):
        (_DYNAMIC_BATCH[0], _SPECIALISE[0], _PROTECTED[0],
         _BATCHES[0]) = self.saved


def size_symbols(d):
    """The names of the free symbols of a symbolic size (its sympy
    expression's; the text of a stand-in without one)."""
    expr = getattr(getattr(d, "node", None), "expr", None)
    symbols = getattr(expr, "free_symbols", None)
    if symbols is not None:
        return {str(s) for s in symbols}
    return {str(d)}


def specialise_sizes(sizes):
    """Guards each symbolic size of `sizes` at its hint: int() on a
    torch.SymInt records the guard `size == hint` in dynamo's shape
    environment, so a call where it differs recompiles instead of reaching
    the bundle (and the sizes computed from it become constants for the
    rest of the compilation). Raises what PyTorch raises where a size
    cannot be specialised (a dim the user marked dynamic). A size met
    several times is guarded once; a SymFloat (a scalar_value) is guarded
    through float()."""
    return [float(d) if type(d).__name__ == "SymFloat" else int(d)
            for d in {str(d): d for d in sizes}.values()]


class ScalarInput:
    """A graph input that is a symbolic scalar taken at its hint (see
    scalar_value): `value`, a Python int or float."""

    def __init__(self, value):
        self.value = value


def scalar_hint(d):
    """The hint of a SymInt or SymFloat as a Python int or float."""
    hint = getattr(getattr(d, "node", None), "hint", None)
    if hint is None:
        return None
    return float(hint) if type(d).__name__ == "SymFloat" else int(hint)


def scalar_value(node):
    """For an FX node whose value is a symbolic scalar, while sizes are
    specialised (dynamic_batch(specialise=...)): its hint, recorded for
    the guard like a size. Under dynamic=True dynamo leaves a module's
    float attributes (BatchNorm's eps, an interpolation's scale factor, a
    divisor) unspecialised: a 0-d tensor input read by `.item()`, a
    SymFloat the ops take. None for anything else (then such an operand
    stays unsupported as before)."""
    if _SPECIALISE[0] is None:
        return None
    meta = getattr(node, "meta", None) or {}
    value = meta.get("val")
    if value is None:
        value = meta.get("example_value")
    kind = type(value).__name__
    if kind not in ("SymInt", "SymFloat"):
        return None
    if kind == "SymInt" and not _is_symbolic(value):
        return int(str(value))
    hint = scalar_hint(value)
    if hint is None:
        return None
    if kind == "SymInt":
        shared = size_symbols(value) & _PROTECTED[0]
        if shared:
            raise Unsupported("the size %s (%s) holds %s, a batch's size or "
                              "one marked dynamic" % (
                                  getattr(node, "name", node), value,
                                  ", ".join(sorted(shared))))
    _SPECIALISE[0].append(value)
    return hint


def _is_symbolic(d):
    """A size that is not a plain integer (a SymInt with a free symbol).
    A SymInt is read from its text, never through int(): that would make
    dynamo guard on (specialise) the size."""
    if type(d).__name__ == "SymInt":
        return not str(d).lstrip("-").isdigit()
    try:
        int(d)
    except Exception:
        return True
    return False


def size_hint(d):
    """The example value of a symbolic size (its `node.hint`), or None."""
    hint = getattr(getattr(d, "node", None), "hint", None)
    try:
        return int(hint) if hint is not None else None
    except Exception:
        return None


def format_float(value):
    """A float literal MLIR parses back to the same double."""
    value = float(value)
    if math.isnan(value) or math.isinf(value):
        raise Unsupported("non-finite constant %r" % value)
    text = repr(value)
    if "." not in text:  # MLIR float literals need a point: 1e-05 -> 1.0e-05
        mantissa, e, exponent = text.partition("e")
        text = mantissa + ".0" + e + exponent
    return text


def i64_array(values):
    return "array<i64: %s>" % ", ".join(str(int(v)) for v in values)


def tensor_meta(value):
    """(shape, dtype name, requires_grad) of an FX node's result, from the
    metadata dynamo ('example_value'), make_fx/export ('val') or ShapeProp
    ('tensor_meta') leave; None when the node has none or is not a tensor.
    Unsupported for symbolic (dynamic) sizes."""
    meta = getattr(value, "meta", None)
    if meta is None:
        return None
    for key in ("val", "example_value"):
        val = meta.get(key)
        if isinstance(val, (tuple, list)) and val:
            val = val[0]  # aten batch_norm's (result, mean, rstd)
        if val is not None and hasattr(val, "shape") and hasattr(val, "dtype"):
            return (_static_shape(val.shape), str(val.dtype).split(".")[-1],
                    bool(getattr(val, "requires_grad", False)))
    tm = meta.get("tensor_meta")
    if isinstance(tm, (tuple, list)) and tm and not hasattr(tm, "shape"):
        tm = tm[0]
    if tm is not None and hasattr(tm, "shape") and hasattr(tm, "dtype"):
        return (_static_shape(tm.shape), str(tm.dtype).split(".")[-1],
                bool(getattr(tm, "requires_grad", False)))
    return None


def is_tuple_value(node):
    """Whether an FX node's result is a tuple (aten batch_norm's)."""
    meta = getattr(node, "meta", None) or {}
    for key in ("val", "example_value", "tensor_meta"):
        val = meta.get(key)
        if val is not None:
            return isinstance(val, (tuple, list)) and not hasattr(val,
                                                                  "shape")
    return False


def _static_shape(shape):
    dims = []
    for i, d in enumerate(shape):
        if not _is_symbolic(d):
            dims.append(int(str(d)) if type(d).__name__ == "SymInt"
                        else int(d))
        elif i == 0 and _DYNAMIC_BATCH[0] and (
                _BATCHES[0] is None or str(d) in _BATCHES[0]):
            dims.append(None)  # the dynamic batch
        elif _DYNAMIC_BATCH[0] and _SPECIALISE[0] is not None:
            dims.append(_specialised(d, i))
        elif _DYNAMIC_BATCH[0]:
            raise Unsupported("a dynamic size (%s) in dim %d: only dim 0, "
                              "the batch, may be dynamic" % (d, i))
        else:
            raise Unsupported("a dynamic size (%s): fusecc bundles have "
                              "static shapes" % d)
    return tuple(dims)


def _specialised(d, i):
    """A symbolic size in dim `i` (> 0) taken at its hint (see
    dynamic_batch), recorded for the guard."""
    hint = size_hint(d)
    if hint is None:
        raise Unsupported("a dynamic size (%s) in dim %d has no example "
                          "value to specialise it at" % (d, i))
    shared = size_symbols(d) & _PROTECTED[0]
    if shared:
        raise Unsupported(
            "a dynamic size (%s) in dim %d holds %s, a batch's size or one "
            "marked dynamic (dynamo gives equal sizes one symbol: a batch "
            "equal to another dim when traced shares its symbol); only dim "
            "0 may stay dynamic" % (d, i, ", ".join(sorted(shared))))
    _SPECIALISE[0].append(d)
    return hint


def meta_shape(node):
    """The raw shape (ints or SymInts) of an FX node's tensor result from
    its metadata, or None."""
    meta = getattr(node, "meta", None) or {}
    for key in ("val", "example_value", "tensor_meta"):
        val = meta.get(key)
        if isinstance(val, (tuple, list)) and val and \
                not hasattr(val, "shape"):
            val = val[0]
        shape = getattr(val, "shape", None)
        if shape is not None:
            return tuple(shape)
    return None


class Emitter:
    """Builds one fuse function: arguments (in first-use order), constants
    and ops; `text()` is the MLIR module."""

    def __init__(self, name="graph"):
        self.name = name
        self.args = []          # (key, Tensor)
        self._arg_by_key = {}
        self.body = []
        self._count = 0
        self.conv_dtypes = set()  # dtypes the convolutions compute in

    def argument(self, key, shape, dtype):
        """The function argument for `key` (created on first use)."""
        if key in self._arg_by_key:
            return self._arg_by_key[key]
        value = Tensor("%%arg%d" % len(self.args), shape, dtype)
        element_type(dtype)
        self.args.append((key, value))
        self._arg_by_key[key] = value
        return value

    def fresh(self, shape, dtype):
        value = Tensor("%%v%d" % self._count, shape, dtype)
        self._count += 1
        return value

    def scalar(self, value, dtype):
        """A rank-0 constant tensor of `dtype`."""
        result = self.fresh((), dtype)
        self.body.append("%s = arith.constant dense<%s> : %s"
                         % (result.name, format_float(value), result.type))
        return result

    def op(self, text, shape, dtype):
        """Appends `%r = <text with {r} for the result's type>`."""
        result = self.fresh(shape, dtype)
        self.body.append("%s = %s" % (result.name,
                                      text.replace("{r}", result.type)))
        return result

    def raw(self, results, text):
        self.body.append("%s = %s" % (", ".join(r.name for r in results),
                                      text))

    def text(self, outputs):
        args = ",\n    ".join("%s: %s" % (v.name, v.type)
                              for _, v in self.args)
        lines = ["func.func @%s(%s)" % (self.name, args)]
        if len(outputs) == 1:
            lines[0] += " -> %s {" % outputs[0].type
        else:
            lines[0] += " -> (%s) {" % ", ".join(o.type for o in outputs)
        lines += ["  " + line for line in self.body]
        lines.append("  return %s : %s" % (", ".join(o.name for o in outputs),
                                           ", ".join(o.type for o in outputs)))
        lines.append("}")
        return "\n".join(lines) + "\n"


class Translation:
    """The result of translating a graph: the MLIR text, the function's
    arguments as keys (("input", i) for the graph's i-th placeholder,
    ("attr", module, name) for a layer's parameter or buffer), the outputs'
    (shape, dtype) and whether the graph returns a single tensor."""

    def __init__(self, text, arg_keys, outputs, single_output, ops):
        self.text = text
        self.arg_keys = arg_keys
        self.outputs = outputs
        self.single_output = single_output
        self.ops = ops


def translate_graph(gm, input_metas=None, name="graph"):
    """Translates GraphModule `gm` into a fuse function. `input_metas`:
    (shape, dtype name) per placeholder where the placeholders carry no
    metadata (a partition's submodule). Unsupported naming the node
    otherwise."""
    from . import ops as op_table
    emitter = Emitter(name)
    env = {}
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    outputs, single, fuse_ops = None, True, []
    for node in canonical_order(gm.graph):
        if node.op == "placeholder":
            i = placeholders.index(node)
            meta = (input_metas[i] if input_metas is not None
                    else tensor_meta(node))
            if meta is None and input_metas is None:
                scalar = scalar_value(node)
                meta = ScalarInput(scalar) if scalar is not None else None
            if isinstance(meta, ScalarInput):
                env[node] = meta.value  # A specialised scalar: a constant.
                continue
            if meta is None:
                raise Unsupported("input '%s' has no shape metadata"
                                  % node.name)
            env[node] = LazyArg(emitter, ("input", i), meta[0], meta[1])
        elif node.op == "get_attr":
            value = _fetch_attr(gm, node.target)
            env[node] = LazyArg(emitter, ("attr", gm, node.target),
                                tuple(value.shape), str(value.dtype)
                                .split(".")[-1])
        elif node.op in ("call_module", "call_function", "call_method"):
            handler, what = op_table.lookup(gm, node)
            if handler is None:
                raise Unsupported("%s: %s is not supported" % (node.name,
                                                               what))
            try:
                env[node] = handler(Context(emitter, gm, node, env))
            except Unsupported as error:
                raise Unsupported("%s (%s): %s" % (node.name, what,
                                                   error)) from None
            except TypeError as error:
                # A handler's shape arithmetic on a dynamic batch (None).
                if not _DYNAMIC_BATCH[0]:
                    raise
                raise Unsupported("%s (%s): not supported with a dynamic "
                                  "batch (%s)" % (node.name, what, error)) \
                    from None
            fuse_ops.append(what)
        elif node.op == "output":
            result = node.args[0]
            single = not isinstance(result, (tuple, list))
            items = [result] if single else list(result)
            outputs = []
            for item in items:
                value = env.get(item) if hasattr(item, "op") else None
                value = resolve(value)
                if not isinstance(value, Tensor):
                    raise Unsupported("output %s is not a tensor computed "
                                      "by the graph" % (item,))
                outputs.append(value)
    if not outputs:
        raise Unsupported("the graph returns nothing")
    # A graph output that is an argument itself needs no kernel: fusecc
    # entries compute every output.
    for value in outputs:
        if value.name.startswith("%arg"):
            raise Unsupported("an output is an input of the graph")
    text = emitter.text(outputs)
    keys = [key for key, _ in emitter.args]
    result = Translation(text, keys, [(o.shape, o.dtype) for o in outputs],
                         single, fuse_ops)
    result.conv_dtypes = frozenset(emitter.conv_dtypes)
    # A dynamic batch: the first argument carrying it (its dim 0 is the
    # batch of every output with a None dim 0).
    result.batch_arg = next((i for i, (_, v) in enumerate(emitter.args)
                             if v.shape[:1] == (None,)), None)
    result.dynamic = result.batch_arg is not None
    # Per argument its shape (None: the dynamic batch), for the check of a
    # call whose other dims were specialised (driver.CompiledSubgraph).
    result.arg_shapes = [v.shape for _, v in emitter.args]
    if any(o.shape[:1] == (None,) for o in outputs) and not result.dynamic:
        raise Unsupported("an output has a dynamic batch but no input does")
    return result


def canonical_order(graph):
    """The graph's nodes in an order that depends only on its structure: a
    post-order walk from the output over each node's operands in argument
    order. The node list's own order is one topological order among several
    where branches are independent (the partitioner's choice varies from run
    to run), and the text, hence the cache key, must not vary with it."""
    output = next(n for n in graph.nodes if n.op == "output")
    order, done = [], set()
    stack = [(output, False)]
    while stack:
        node, expanded = stack.pop()
        if node in done:
            continue
        if expanded:
            done.add(node)
            order.append(node)
            continue
        stack.append((node, True))
        for operand in reversed(node.all_input_nodes):
            if operand not in done:
                stack.append((operand, False))
    return order


class LazyArg:
    """A graph input or attribute, made a function argument when an op
    first reads it (so argument order follows use)."""

    def __init__(self, emitter, key, shape, dtype):
        self.emitter, self.key = emitter, key
        self.shape, self.dtype = tuple(shape), dtype

    def get(self):
        return self.emitter.argument(self.key, self.shape, self.dtype)


def resolve(value):
    if isinstance(value, LazyArg):
        return value.get()
    if isinstance(value, (tuple, list)):
        return type(value)(resolve(v) for v in value)
    return value


def _fetch_attr(gm, target):
    obj = gm
    for part in target.split("."):
        obj = getattr(obj, part)
    return obj


class Context:
    """What a handler sees: the node, its arguments resolved to Tensors or
    Python values, the emitter, and the owning module."""

    def __init__(self, emitter, gm, node, env):
        self.emitter, self.gm, self.node, self._env = emitter, gm, node, env
        self.module = (gm.get_submodule(node.target)
                       if node.op == "call_module" else None)

    def _value(self, a):
        if hasattr(a, "op") and hasattr(a, "graph"):  # an fx.Node
            if a not in self._env:
                raise Unsupported("operand %s is not available" % a.name)
            return self._env[a]
        if isinstance(a, (tuple, list)):
            return type(a)(self._value(x) for x in a)
        return a

    def arg(self, index, name, default=None, required=False):
        """Argument `index` (positional) or `name` (keyword), resolved."""
        args, kwargs = self.node.args, self.node.kwargs
        if index is not None and index < len(args):
            value = args[index]
        elif name in kwargs:
            value = kwargs[name]
        elif required:
            raise Unsupported("argument '%s' is missing" % name)
        else:
            return default
        return resolve(self._value(value))

    def tensor(self, index, name):
        value = self.arg(index, name, required=True)
        if not isinstance(value, Tensor):
            raise Unsupported("argument '%s' must be a tensor" % name)
        return value

    def param(self, name):
        """A parameter/buffer of the node's module as a function argument,
        None when the module's attribute is None."""
        value = getattr(self.module, name, None)
        if value is None:
            return None
        return self.emitter.argument(("attr", self.module, name),
                                     tuple(value.shape),
                                     str(value.dtype).split(".")[-1])

    def result_meta(self):
        meta = tensor_meta(self.node)
        if meta is None:
            raise Unsupported("no shape metadata for the result")
        return meta
