# ===- fusecc/dynamo/driver.py - The torch.compile backend "fusecc" -----=== #
#
# backend(gm, example_inputs) is what torch.compile(model, backend="fusecc")
# calls with each FX graph dynamo captures:
#  1. partition: the supported subgraphs holding a convolution
#     become submodules (fusecc.dynamo.partition);
#  2. each is translated to a fuse function (fusecc.dynamo.translate), its
#     bundle compiled or taken from the disk cache (fusecc.dynamo.cache)
#     and loaded (fusecc.load); a subgraph that fails any step stays in
#     PyTorch, with one warning naming the reason;
#  3. each compiled subgraph's call is replaced by the custom op
#     `fusecc::run(key, args)` (PyTorch 2.4+; opaque to Inductor and AOT
#     autograd through its fake implementation) or, on older PyTorch, by a
#     module that launches the bundle;
#  4. the graph goes to the inner backend ("inductor", "eager" or
#     "cudagraphs"; options={"inner": ...}), which compiles what is left;
#     a graph that is all fusecc's calls run_direct instead of the custom
#     op and runs as it is (no inner backend: only host time to add).
# Weights and buffers are arguments of the bundles, read at every call
# (options={"frozen_weights": True}: from the first call on they are
# constants, and refresh() announces an in-place write; fusecc.load's
# options, fusecc/options.py, are the backend's too). A symbolic dim 0 is a
# dynamic batch; other symbolic sizes (dynamic=True) are specialised at
# their hints behind dynamo's guards.
#
# ===--------------------------------------------------------------------=== #

import itertools
import warnings

from ..options import LOAD_OPTIONS

from .partition import partition_graph
from .translate import (ScalarInput, Unsupported, dynamic_batch,
                        meta_shape, scalar_hint, scalar_value, size_hint,
                        size_symbols, specialise_sizes, tensor_meta,
                        translate_graph)

#: backend options (torch.compile(..., options={...})) and their defaults.
DEFAULT_OPTIONS = {
    "inner": None,          # "inductor" (default), "eager", "cudagraphs"
    "precision": None,      # "ieee"/"tf32"; default from PyTorch's flags
    "chip": None,           # default: from the current CUDA device
    "cache_dir": None,      # default: fusecc.dynamo.cache.cache_dir()
    "extra_args": (),       # more fusecc CLI arguments
    "cli": None,            # the fusecc compiler; default: find_cli()
    "load": True,           # False: compile (and cache) only, no GPU needed
    "max_batch": None,      # bound of a dynamic batch (default: below)
    "direct": None,         # False: the inner backend even for a graph
                            # that is all fusecc's (see run_direct)
}
# fusecc.load's options (fusecc/options.py: frozen_weights, launch_graphs,
# reuse_prepared), passed to every load.
DEFAULT_OPTIONS.update((o.name, o.default) for o in LOAD_OPTIONS)

#: The bound of a dynamic batch (torch.compile(..., dynamic=True) or
#: torch._dynamo.mark_dynamic(x, 0)) when options give none: one bundle
#: serves batches 1..max(DEFAULT_MAX_BATCH, 2 x the batch dynamo saw).
DEFAULT_MAX_BATCH = 64

_REGISTRY = {}
_counter = itertools.count()
_warned = set()
#: What the last backend call did, for tests and for users' curiosity:
#: {"compiled": [(name, bundle path)], "fallbacks": [(name, reason)],
#:  "unsupported": {node: reason}, "left_in_pytorch": count of call nodes
#:  PyTorch runs, "left_ops": what they compute}
last_report = {}
#: Every backend call's report, in order (cleared by the user).
history = []


class FuseccFallbackWarning(UserWarning):
    """A subgraph fusecc supports in principle runs in PyTorch instead."""


def warn_once(message):
    if message not in _warned:
        _warned.add(message)
        warnings.warn(message, FuseccFallbackWarning, stacklevel=3)


def precision_for(conv_dtypes, explicit=None):
    """The --precision of a subgraph whose convolutions compute in
    `conv_dtypes` (PyTorch dtype names). Convolutions on half operands run
    on tf32 tensor cores, which hold bf16 and f16 values exactly and
    accumulate in f32, as PyTorch's half convolutions do; f32 ones follow
    torch.backends.cudnn.allow_tf32 (PyTorch's switch for convolutions)."""
    if explicit:
        return explicit
    if isinstance(conv_dtypes, str):
        conv_dtypes = (conv_dtypes,)
    if conv_dtypes and all(d in ("float16", "bfloat16")
                           for d in conv_dtypes):
        return "tf32"
    import torch
    return "tf32" if torch.backends.cudnn.allow_tf32 else "ieee"


def chip_for_device(explicit=None):
    """The --chip for the current CUDA device."""
    if explicit:
        return explicit
    import torch
    if not torch.cuda.is_available():
        return "sm_90a"
    major, minor = torch.cuda.get_device_capability()
    if major < 9:
        raise Unsupported("fusecc generates code for sm_90 (Hopper) and "
                          "later; this GPU is sm_%d%d" % (major, minor))
    return "sm_90a" if (major, minor) == (9, 0) else "sm_90"


class CompiledSubgraph:
    """A loaded bundle standing for one partition: `launch(values)` takes
    the function's arguments (inputs and weights) in order."""

    def __init__(self, translation, module, fallback, name):
        self.translation = translation
        self.module = module
        self.entry = next(iter(module))
        self.fallback = fallback
        self.name = name

    def output_shapes(self, values):
        """The outputs' shapes for arguments `values`: a dynamic batch's
        dim 0 is the batch argument's."""
        batch = (values[self.translation.batch_arg].shape[0]
                 if getattr(self.translation, "dynamic", False) else None)
        return [tuple(batch if d is None else d for d in shape)
                for shape, _ in self.translation.outputs]

    def launch(self, values):
        """The outputs (a list) of the function on `values`. The arguments
        of a call whose shapes, dtypes and strides the entry has seen
        launch on the entry's cached path (its tensor guard, one runtime
        call); the others are made contiguous and 16-byte aligned (copies)
        and go through the entry's checks."""
        entry = self.entry
        if entry.max_batch:
            batch = values[self.translation.batch_arg].shape[0]
            if not 1 <= batch <= entry.max_batch:
                return self._in_pytorch(values, BatchOutOfRange(
                    "batch %d is outside the 1..%d its bundle serves "
                    "(options={'max_batch': ...} raises the bound)"
                    % (batch, entry.max_batch)), "at this batch")
        out = entry.cached_call(values)
        if out is not None:
            return out
        if getattr(self.translation, "specialised", None):
            wrong = self._unexpected_shape(values)
            if wrong:
                # Dynamo's guard on the specialised sizes recompiles before
                # such a call; this is the check should one get here.
                return self._in_pytorch(values, ShapeMismatch(wrong),
                                        "at these shapes")
        import torch
        ready = []
        for v in values:
            if not v.is_contiguous():
                v = v.contiguous()
            if v.data_ptr() % 16:  # A view at an offset: a fresh copy.
                v = v.clone()
            ready.append(v)
        with torch.no_grad():
            out = entry(*ready)
        return list(out) if isinstance(out, tuple) else [out]

    def _in_pytorch(self, values, error, where):
        """The partition run by PyTorch on the function's arguments
        `values` (once with a warning naming `error`), or `error` raised
        when they do not hold all of its inputs."""
        inputs = self._partition_inputs(values)
        if inputs is None:
            raise error
        warn_once("fusecc: %s runs in PyTorch %s: %s"
                  % (self.name, where, error))
        out = self.fallback(*inputs)
        return list(out) if isinstance(out, tuple) else [out]

    def _unexpected_shape(self, values):
        """The first argument whose shape differs from the translation's
        (its dim 0 free where that is the batch), described; None."""
        for i, (value, shape) in enumerate(zip(values,
                                               self.translation.arg_shapes)):
            got = tuple(value.shape)
            if len(got) != len(shape) or any(
                    e is not None and e != g for e, g in zip(shape, got)):
                return ("argument %d has shape %s, the bundle was compiled "
                        "for %s (sizes specialised at dynamo's example "
                        "values: %s)" % (
                            i, list(got),
                            ["B" if e is None else e for e in shape],
                            ", ".join("%s=%s" % kv for kv in
                                      self.translation.specialised)))
        return None

    def _partition_inputs(self, values):
        """The partition's own inputs among the function's arguments
        `values` (None when one is not an argument)."""
        count = sum(1 for n in self.fallback.graph.nodes
                    if n.op == "placeholder")
        inputs = [None] * count
        for key, value in zip(self.translation.arg_keys, values):
            if key[0] == "input":
                inputs[key[1]] = value
        for i, value in getattr(self.translation, "scalar_inputs",
                                {}).items():
            inputs[i] = value
        return None if any(v is None for v in inputs) else inputs


class BatchOutOfRange(ValueError):
    """A call of a dynamic-batch subgraph outside its bound."""


class ShapeMismatch(ValueError):
    """A call of a subgraph whose specialised sizes differ."""


def _is_weight(node, example):
    """Whether a placeholder is a parameter or buffer (dynamo lifts an
    inlined module's as inputs: an nn.Parameter, or a source through
    `_parameters`/`_buffers`) or has rank < 2: its dim 0 is no batch."""
    import torch
    shape = meta_shape(node)
    if shape is None or len(shape) < 2 or isinstance(example,
                                                     torch.nn.Parameter):
        return True
    where = "%s %s" % (node.name, getattr(node, "_dynamo_source", ""))
    return any(k in where for k in ("_parameters", "_buffers",
                                    "parameters_", "buffers_"))


def batch_and_protected_symbols(gm, example_inputs):
    """(batches, protected): the names of the data inputs' symbolic dim 0
    (the batches; a weight's dim 0 is not one) and the symbols no size may
    be specialised on: the batches' and those of the dims the user marked
    dynamic (torch._dynamo.mark_dynamic: `_dynamo_dynamic_indices` of the
    example input; specialising one is an error in dynamo)."""
    batches, symbols = set(), set()
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    for i, node in enumerate(placeholders):
        shape = meta_shape(node)
        if not shape:
            continue
        example = example_inputs[i] if i < len(example_inputs) else None
        marked = set(getattr(example, "_dynamo_dynamic_indices", ()))
        data = not _is_weight(node, example)
        for d, size in enumerate(shape):
            if type(size).__name__ == "int" or \
                    str(size).lstrip("-").isdigit():
                continue
            if d == 0 and data:
                batches.add(str(size))
                symbols |= size_symbols(size)
            elif d in marked:
                symbols |= size_symbols(size)
    return frozenset(batches), frozenset(symbols)


def max_batch_for(args, opts):
    """The --max-batch of a dynamic-batch partition called on `args` (FX
    nodes): options' max_batch, else DEFAULT_MAX_BATCH, at least twice the
    batch dynamo saw (its size hint)."""
    if opts.get("max_batch"):
        return int(opts["max_batch"])
    bound = DEFAULT_MAX_BATCH
    for a in args:
        meta = getattr(a, "meta", {}) or {}
        for key in ("val", "example_value", "tensor_meta"):
            value = meta.get(key)
            shape = getattr(value, "shape", None)
            if shape:
                hint = size_hint(shape[0])
                if hint:
                    bound = max(bound, 2 * hint)
                break
    return min(bound, 65535)


def _custom_op():
    """torch.ops.fusecc.run.default, defined once (None before PyTorch
    2.4, which has no torch.library.custom_op)."""
    import torch
    if not hasattr(torch.library, "custom_op"):
        return None
    if _OP:
        return _OP[0]
    from typing import List

    @torch.library.custom_op("fusecc::run", mutates_args=())
    def run(key: str, args: List[torch.Tensor]) -> List[torch.Tensor]:
        return _REGISTRY[key].launch(args)

    @run.register_fake
    def _(key, args):
        compiled = _REGISTRY[key]
        return [args[0].new_empty(shape, dtype=getattr(torch, dtype))
                for shape, (_, dtype) in zip(compiled.output_shapes(args),
                                             compiled.translation.outputs)]

    _OP.append(torch.ops.fusecc.run.default)
    return _OP[0]


_OP = []


class _LaunchModule:
    """Without the custom op: the replacement of a partition's submodule."""

    @staticmethod
    def make(compiled, getters):
        import torch

        class FuseccSubgraph(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fallback = compiled.fallback

            def forward(self, *inputs):
                values = [g(inputs) for g in getters]
                if torch.is_grad_enabled() and any(
                        v.requires_grad for v in values):
                    warn_once("fusecc: %s runs in PyTorch: its inputs require "
                              "grad and grad mode is on (fusecc has no "
                              "backward; use torch.no_grad())"
                              % compiled.name)
                    return self.fallback(*inputs)
                try:
                    out = compiled.launch(values)
                except BatchOutOfRange as error:
                    warn_once("fusecc: %s runs in PyTorch at this batch: %s"
                              % (compiled.name, error))
                    return self.fallback(*inputs)
                return out[0] if compiled.translation.single_output \
                    else tuple(out)

        return FuseccSubgraph()


def _module_paths(sub):
    return {id(m): n for n, m in sub.named_modules()}


def _install(gm, call_node, compiled, key, op):
    """Replaces `call_node` (a call of the partition's submodule) by the
    compiled subgraph."""
    sub = compiled.fallback
    paths = _module_paths(sub)
    graph = gm.graph
    if op is None:
        getters = []
        for k in compiled.translation.arg_keys:
            if k[0] == "input":
                getters.append((lambda i: lambda inputs: inputs[i])(k[1]))
            else:
                getters.append((lambda m, a: lambda inputs: getattr(m, a))(
                    k[1], k[2]))
        setattr(gm, call_node.target, _LaunchModule.make(compiled, getters))
        return
    values = []
    with graph.inserting_before(call_node):
        for k in compiled.translation.arg_keys:
            if k[0] == "input":
                values.append(call_node.args[k[1]])
            else:
                prefix = paths[id(k[1])]
                target = ".".join(p for p in (call_node.target, prefix, k[2])
                                  if p)
                values.append(graph.get_attr(target))
        new = graph.call_function(op, (key, values))
    if compiled.translation.single_output:
        with graph.inserting_after(new):
            import operator
            first = graph.call_function(operator.getitem, (new, 0))
        call_node.replace_all_uses_with(first)
    else:
        call_node.replace_all_uses_with(new)
    graph.erase_node(call_node)


def _ensure_metadata(gm, example_inputs):
    """Runs ShapeProp where the graph carries no shape metadata (a
    symbolic_trace graph called directly)."""
    for node in gm.graph.nodes:
        if any(k in node.meta for k in ("example_value", "val",
                                        "tensor_meta")):
            return
    from torch.fx.passes.shape_prop import ShapeProp
    ShapeProp(gm).propagate(*example_inputs)


def _placeholder_attributes(gm):
    """Dynamo's per-placeholder attributes (`_dynamo_source`: AOT autograd
    asserts every placeholder of a dynamo graph has one), by node name."""
    return {n.name: {k: getattr(n, k) for k in _DYNAMO_NODE_ATTRIBUTES
                     if hasattr(n, k)}
            for n in gm.graph.nodes if n.op == "placeholder"}


_DYNAMO_NODE_ATTRIBUTES = ("_dynamo_source",)


def _restore_placeholder_attributes(gm, saved):
    """Puts them back on the placeholders of the partitioned graph (the
    partitioner's legalize_graph copies nodes: meta, not attributes)."""
    for node in gm.graph.nodes:
        if node.op == "placeholder":
            for key, value in saved.get(node.name, {}).items():
                if not hasattr(node, key):
                    setattr(node, key, value)


def _warn_training(unsupported):
    """One warning when nodes stay in PyTorch because of training (grad
    mode with trainable parameters, training-mode layers)."""
    for key, what in (("torch.no_grad", "grad mode is on and parameters "
                       "require grad (fusecc has no backward): run inference "
                       "under torch.no_grad()"),
                      ("training mode", "layers are in training mode: call "
                       ".eval() for inference")):
        nodes = sorted(n for n, r in unsupported.items() if key in r)
        if nodes:
            warn_once("fusecc: %d node(s) run in PyTorch because %s (%s%s)"
                      % (len(nodes), what, ", ".join(nodes[:5]),
                         ", ..." if len(nodes) > 5 else ""))


def _drop_dead_scalars(gm):
    """Removes the scalar computations (`.item()` of an unspecialised
    float, size arithmetic) nobody reads any more: the partitions that read
    them took their values as constants (scalar_value)."""
    for node in reversed(list(gm.graph.nodes)):
        if node.op not in ("call_method", "call_function") or node.users:
            continue
        meta = node.meta
        value = meta.get("val", meta.get("example_value"))
        if type(value).__name__ in ("SymInt", "SymFloat"):
            gm.graph.erase_node(node)


def _drop_unused_getitems(gm):
    """Removes `getitem` nodes nobody reads (aten batch_norm's unused
    statistics), so that a tuple does not leave a partition for nothing."""
    import operator
    for node in list(gm.graph.nodes):
        if node.op == "call_function" and node.target is operator.getitem \
                and not node.users:
            gm.graph.erase_node(node)


def _inner(gm, example_inputs, inner, mode):
    if inner == "eager":
        return gm.forward
    import torch
    if inner == "cudagraphs" or (inner is None and mode == "reduce-overhead"
                                 and not hasattr(torch, "_inductor")):
        from torch._dynamo.backends.cudagraphs import cudagraphs
        return cudagraphs(gm, example_inputs)
    if inner in (None, "inductor"):
        if not hasattr(torch, "_dynamo"):
            return gm.forward
        from torch import _TorchCompileInductorWrapper
        return _TorchCompileInductorWrapper(mode, None, False)(
            gm, example_inputs)
    if callable(inner):
        return inner(gm, example_inputs)
    from torch._dynamo import lookup_backend
    return lookup_backend(inner)(gm, example_inputs)


def compile_graph(gm, example_inputs, options=None):
    """Partitions, translates, compiles and installs the fusecc subgraphs
    of `gm` (in place); returns gm. Failures become warnings."""
    import torch
    opts = dict(DEFAULT_OPTIONS)
    opts.update(options or {})
    unknown = set(opts) - set(DEFAULT_OPTIONS)
    if unknown:
        raise ValueError("fusecc backend: unknown option(s) %s (known: %s)"
                         % (", ".join(sorted(unknown)),
                            ", ".join(sorted(DEFAULT_OPTIONS))))
    from . import cache
    from .. import compiler as compiler_layer
    from .. import module as module_layer
    from ..runtime import FuseccError, RuntimeLibraryError
    last_report.clear()
    last_report.update({"compiled": [], "fallbacks": [], "unsupported": {},
                        "specialised": {},
                        "left_in_pytorch": 0, "left_ops": []})
    _ensure_metadata(gm, example_inputs)
    _drop_unused_getitems(gm)
    sources = _placeholder_attributes(gm)
    original = gm
    # A symbolic dim 0 is a dynamic batch, other symbolic sizes are taken
    # at their hints (guarded once a partition is installed), for the
    # partitioner's node checks as for the translation below.
    batches, protected = batch_and_protected_symbols(gm, example_inputs)
    with dynamic_batch(specialise=[], protected=protected, batches=batches):
        gm, names = partition_graph(gm, torch.is_grad_enabled(),
                                    last_report["unsupported"])
    _restore_placeholder_attributes(gm, sources)
    if gm is not original and hasattr(gm, "meta"):  # Dynamo's metadata
        gm.meta.update(getattr(original, "meta", {}))
        for key in ("_param_name_to_source", "_unstatic_param_names"):
            if hasattr(original, key) and not hasattr(gm, key):
                setattr(gm, key, getattr(original, key))
    _warn_training(last_report["unsupported"])
    op = _custom_op() if opts["load"] else None
    # The load options given (fusecc.load has the same defaults).
    load_options = {o.name: opts[o.name] for o in LOAD_OPTIONS
                    if opts[o.name] != o.default}
    calls = {n.target: n for n in gm.graph.nodes
             if n.op == "call_module" and n.target in names}
    for name in names:
        sub, call = getattr(gm, name), calls[name]
        try:
            # A symbolic dim 0 is a dynamic batch (a `?` graph compiled
            # with --max-batch); other symbolic sizes are specialised at
            # their hints (dynamic=True makes every size symbolic).
            sizes = []
            with dynamic_batch(specialise=sizes, protected=protected,
                               batches=batches):
                metas = []
                for a in call.args:
                    scalar = scalar_value(a)
                    metas.append(ScalarInput(scalar) if scalar is not None
                                 else tensor_meta(a))
                if any(m is None for m in metas):
                    raise Unsupported("an input has no shape metadata")
                tr = translate_graph(sub, metas, name="fusecc_graph")
            tr.specialised = sorted({(str(d), scalar_hint(d))
                                     for d in sizes})
            # The scalar inputs (by position) the partition was compiled
            # for: what PyTorch's fallback of a call reads (guarded equal).
            tr.scalar_inputs = {i: m.value for i, m in enumerate(metas)
                                if isinstance(m, ScalarInput)}
            extra = tuple(opts["extra_args"])
            if tr.dynamic:
                extra += ("--max-batch=%d" % max_batch_for(call.args,
                                                            opts),)
            bundle = cache.compiled_bundle(
                tr.text, precision_for(getattr(tr, "conv_dtypes", ()),
                                       opts["precision"]),
                chip_for_device(opts["chip"]), extra,
                opts["cli"], opts["cache_dir"])
            if not opts["load"]:
                last_report["compiled"].append((name, bundle))
                if tr.specialised:
                    last_report["specialised"][name] = tr.specialised
                continue
            compiled = CompiledSubgraph(
                tr, module_layer.load(bundle, **load_options), sub, name)
            if sizes:
                _guard_sizes(sizes)
        except (Unsupported, cache.CompileFailed, compiler_layer.CompileError,
                FuseccError, RuntimeLibraryError, OSError) as error:
            ops = ", ".join(sorted(set(
                n.target if n.op != "call_module" else
                type(sub.get_submodule(n.target)).__name__
                for n in sub.graph.nodes if n.op.startswith("call")
                and n.op != "call_function") | set(
                getattr(n.target, "__name__", str(n.target))
                for n in sub.graph.nodes if n.op == "call_function")))
            reason = str(error).strip().splitlines()
            reason = " | ".join(reason[:6]) if reason else type(error).__name__
            warn_once("fusecc: a subgraph (%s) runs in PyTorch: %s"
                      % (ops, reason))
            last_report["fallbacks"].append((name, reason))
            continue
        key = "%s_%d" % (name, next(_counter))
        _REGISTRY[key] = compiled
        _install(gm, call, compiled, key, op)
        last_report["compiled"].append((name, compiled.module.path))
        if tr.specialised:
            last_report["specialised"][name] = tr.specialised
    _drop_dead_scalars(gm)
    gm.graph.lint()
    if op is not None:
        gm.delete_all_unused_submodules()
    gm.recompile()
    _count_left(gm, op, [n for n, _ in last_report["compiled"]])
    last_report["direct"] = False
    if opts["direct"] is not False and opts["load"] and \
            last_report["compiled"] and _all_fusecc(gm, op):
        _call_directly(gm, op)
        last_report["direct"] = True
    history.append(dict(last_report))
    return gm


def refresh():
    """After writing weights in place under options={"frozen_weights":
    True}: the next call of every compiled subgraph prepares again from
    their values then (fusecc.module.Module.refresh)."""
    for compiled in list(_REGISTRY.values()):
        compiled.module.refresh()


def _guard_sizes(sizes):
    """Dynamo's guards on the specialised sizes (specialise_sizes); a size
    PyTorch will not specialise leaves the partition in PyTorch."""
    try:
        specialise_sizes(sizes)
    except Exception as error:  # ConstraintViolation, data-dependent sizes
        raise Unsupported("its sizes %s cannot be specialised: %s: %s"
                          % (", ".join(sorted({str(d) for d in sizes})),
                             type(error).__name__, error)) from None


def run_direct(key, args):
    """What a graph that is all fusecc's calls in place of the custom op
    (the graph runs without an inner backend, so nothing needs to see
    through the call): the compiled subgraph's launch, without PyTorch's
    dispatcher."""
    return _REGISTRY[key].launch(args)


def _all_fusecc(gm, op):
    """Whether every call of `gm` is a compiled subgraph's (or a getitem
    of its result): then an inner backend has nothing to compile, and its
    wrappers (AOT autograd's, Inductor's, CUDA graph trees') would only add
    host time to each call (the bundles replay as CUDA graphs already)."""
    import operator
    for node in gm.graph.nodes:
        if node.op in ("placeholder", "get_attr", "output"):
            continue
        if op is not None and node.op == "call_function" and (
                node.target is op or (
                    node.target is operator.getitem and
                    getattr(node.args[0], "target", None) is op)):
            continue
        if op is None and node.op == "call_module" and type(
                gm.get_submodule(node.target)).__name__ == "FuseccSubgraph":
            continue
        return False
    return True


def _call_directly(gm, op):
    """Points the custom op's calls of `gm` at run_direct."""
    if op is None:
        return  # The launch modules are called directly already.
    for node in gm.graph.nodes:
        if node.op == "call_function" and node.target is op:
            node.target = run_direct
    gm.recompile()


def _count_left(gm, op, compiled_names):
    """Records the call nodes PyTorch still runs (inside the partitions
    that fell back too)."""
    import operator
    from .ops import describe
    left = []

    def visit(module, graph, skip):
        for node in graph.nodes:
            if node.op not in ("call_module", "call_function", "call_method"):
                continue
            if node.target is op or (node.target is operator.getitem and
                                     getattr(node.args[0], "target", None)
                                     is op):
                continue
            if node.op == "call_module" and node.target in skip:
                continue
            sub = (module.get_submodule(node.target)
                   if node.op == "call_module" else None)
            if sub is not None and hasattr(sub, "graph") and \
                    type(sub).__name__ != "FuseccSubgraph":
                visit(sub, sub.graph, ())
                continue
            left.append(describe(module, node))
    visit(gm, gm.graph, set(compiled_names) if op is None else set())
    last_report["left_in_pytorch"] = len(left)
    last_report["left_ops"] = sorted(set(left))


def backend(gm, example_inputs, mode=None, options=None, **kwargs):
    """The torch.compile backend: torch.compile(model, backend="fusecc",
    options={"inner": "eager"}) or backend=fusecc.dynamo.backend.
    `mode` is torch.compile's (passed to Inductor; "reduce-overhead" uses
    CUDA graphs)."""
    opts = dict(options or {})
    for k, v in kwargs.items():
        if k in DEFAULT_OPTIONS:
            opts[k] = v
    inner = opts.pop("inner", None)
    if mode not in (None, "default", "reduce-overhead", "max-autotune",
                    "max-autotune-no-cudagraphs"):
        raise ValueError("fusecc backend: unknown mode %r" % (mode,))
    if inner not in (None, "inductor", "eager", "cudagraphs"):
        opts["direct"] = False  # Another backend asked for: it gets it all.
    gm = compile_graph(gm, example_inputs, opts)
    if last_report.get("direct"):
        # All of it is fusecc's: no inner backend (its per-call wrappers
        # cost more host time than the bundles' launches; docs/perf.md 170).
        return gm.forward
    return _inner(gm, example_inputs, inner, mode)
