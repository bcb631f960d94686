# ===- fusecc/dynamo/partition.py - Supported subgraphs of an FX graph ---=== #
#
# Splits an FX graph into the subgraphs fusecc compiles and the rest: a node
# is supported when fusecc.dynamo.ops translates it alone (its handler
# accepts its arguments, dtypes and static shapes); torch.fx's
# CapabilityBasedPartitioner groups supported nodes into maximal
# partitions without cycles; a partition is kept when it holds a
# convolution, transposed or forward (what fusecc fuses around), and each
# kept one is made a submodule `fusecc_<i>` of the graph module (the rest
# stays as it was, for PyTorch).
#
# ===--------------------------------------------------------------------=== #

from . import ops as op_table
from .translate import (Context, Emitter, LazyArg, Tensor, Unsupported,
                        is_tuple_value, scalar_value, tensor_meta)


def node_support(gm, node, grad_enabled=False):
    """(supported, reason) of one call node."""
    if node.op not in ("call_module", "call_function", "call_method"):
        return False, None
    handler, what = op_table.lookup(gm, node)
    if handler is None:
        return False, "%s is not supported by fusecc" % what
    if handler is op_table.HANDLERS["slice"] or (
            handler is op_table.HANDLERS["getitem"] and
            not is_tuple_value(node.args[0])):
        # A crop of a transposed convolution: folded into that op.
        try:
            conv = op_table.crop_support(gm, node)
        except Unsupported as error:
            return False, "%s: %s" % (what, error)
        if not node_support(gm, conv, grad_enabled)[0]:
            return False, "%s: a slice of an unsupported %s" % (what,
                                                                conv.name)
        return True, None
    emitter = Emitter()
    env = {}
    try:
        for arg in node.all_input_nodes:
            scalar = scalar_value(arg)
            if scalar is not None:  # A symbolic scalar at its hint.
                env[arg] = scalar
                continue
            meta = tensor_meta(arg)
            if is_tuple_value(arg):
                # A tuple-valued producer (aten batch_norm): stand-ins.
                env[arg] = (Tensor("%%t%d" % len(env), meta[0], meta[1]),
                            None, None)
                continue
            if meta is None:
                raise Unsupported("operand %s has no shape metadata"
                                  % arg.name)
            if grad_enabled and meta[2]:
                raise Unsupported("operand %s requires grad and grad mode is "
                                  "on: fusecc has no backward (run inference "
                                  "under torch.no_grad())" % arg.name)
            env[arg] = LazyArg(emitter, ("node", arg), meta[0], meta[1])
        if node.op == "call_module" and grad_enabled:
            for p in gm.get_submodule(node.target).parameters():
                if p.requires_grad:
                    raise Unsupported(
                        "its parameters require grad and grad mode is on: "
                        "fusecc has no backward (run inference under "
                        "torch.no_grad())")
        result = handler(Context(emitter, gm, node, env))
        if isinstance(result, Tensor) and tensor_meta(node) is None:
            raise Unsupported("no shape metadata for the result")
    except Unsupported as error:
        return False, "%s: %s" % (what, error)
    except Exception as error:  # A malformed call: PyTorch's to judge.
        return False, "%s: %s: %s" % (what, type(error).__name__, error)
    return True, None


def _is_convolution(gm, node):
    handler, _ = op_table.lookup(gm, node)
    return handler in (op_table.HANDLERS["conv_transpose"],
                       op_table.HANDLERS["conv"],
                       op_table.HANDLERS["convolution"])


def make_operator_support(grad_enabled=False, reasons=None):
    """A torch.fx OperatorSupportBase that asks node_support; `reasons`
    (a dict) collects node name -> reason for unsupported nodes."""
    from torch.fx.passes.operator_support import OperatorSupportBase

    class FuseccSupport(OperatorSupportBase):
        def is_node_supported(self, submodules, node):
            gm = node.graph.owning_module
            ok, why = node_support(gm, node, grad_enabled)
            if not ok and why and reasons is not None:
                reasons[node.name] = why
            return ok

    return FuseccSupport()


def partition_graph(gm, grad_enabled=False, reasons=None):
    """Fuses the supported partitions of `gm` that hold a convolution
    (transposed or forward) into submodules named fusecc_<i>; returns (gm,
    names). The node order of every partition is kept (topological)."""
    from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
    support = make_operator_support(grad_enabled, reasons)
    partitioner = CapabilityBasedPartitioner(
        gm, support, allows_single_node_partition=True)
    partitions = partitioner.propose_partitions()
    kept = [p for p in partitions
            if any(_is_convolution(gm, n) for n in p.nodes)]
    if not kept:
        return gm, []
    try:
        fused = partitioner.fuse_partitions(kept, prefix="fusecc_")
    except TypeError:  # PyTorch < 2.1: no prefix (fused_<i>).
        fused = partitioner.fuse_partitions(kept)
    names = [n.target for n in fused.graph.nodes
             if n.op == "call_module" and (n.target.startswith("fusecc_") or
                                           n.target.startswith("fused_"))]
    return fused, names
