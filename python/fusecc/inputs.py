# ===- fusecc/inputs.py - The GPU checkers' random inputs of an entry ----=== #
#
# The inputs bench/gpu_check.py (and bench/dynbatch_check.py) give an
# entry, the rule lib/Reference/Inputs.cpp follows for fusecc-check and the
# graph fuzzer (docs/design/checking.md): as PyTorch initialises a layer
# (the convolution input U[0, 1) as KernelBench draws it, weights and
# biases U(-1/sqrt(fan), 1/sqrt(fan)), other inputs N(0, 1)), a wide draw
# that moves every value of the graph across zero, and a batch_norm's
# running variance positive in both ("Vacuous references": an N(0, 1)
# variance makes the reference NaN, which compares equal to NaN).
#
# ===--------------------------------------------------------------------=== #

import math

from .arguments import torch_dtype

try:
    import torch
except ImportError:  # Drawing needs PyTorch; the range does not.
    torch = None

# A batch_norm's running variance is drawn from U[low, high)
# (`Graph.variance_inputs`): positive, so that its channels are finite and
# a reference is not all NaN (docs/design/checking.md, "Vacuous
# references"; fusecc-check's kRunningVarianceMin / kRunningVarianceMax in
# include/fusecc/Reference/Inputs.h, held equal by a test).
RUNNING_VARIANCE_RANGE = (0.5, 1.5)


def make_inputs(entry, graph, device, wide=False, batch=0):
    """Fresh random inputs of `entry` (a fusecc.bundle.Entry) whose graph is
    `graph` (a fusecc.reference.Graph), at `batch` for a dynamic-batch entry
    (0: a static entry's shapes): x (input 0) ~ U[0,1) like KernelBench,
    conv weights and biases ~ U(-1/sqrt(fan), 1/sqrt(fan)) like
    nn.ConvTranspose (fan = weight.shape[1] * prod(kernel)), a batch_norm's
    running variance ~ U[0.5, 1.5) (RUNNING_VARIANCE_RANGE), everything
    else ~ N(0, 1).
    `wide`: x ~ N(0, 1) and conv weights and biases four times wider, which
    moves every value of the graph across zero (as fusecc-check's wide
    draw)."""
    roles = graph.roles()
    variances = graph.variance_inputs()
    tensors = []
    for i, arg in enumerate(entry.inputs):
        shape = arg.shape_at(batch) if batch else arg.shape
        dtype = torch_dtype(arg.dtype)
        conv = roles.get(i)
        weight = conv.operands[1] if conv else None
        if weight is not None and weight < len(entry.inputs):
            w_shape = entry.inputs[weight].shape
            fan = w_shape[1] * math.prod(w_shape[2:])
            bound = (4.0 if wide else 1.0) / math.sqrt(fan)
            t = torch.empty(shape, dtype=dtype, device=device)
            t.uniform_(-bound, bound)
        elif not dtype.is_floating_point:
            t = torch.randint(0, 4, shape, dtype=dtype, device=device)
        elif i in variances:
            low, high = RUNNING_VARIANCE_RANGE
            t = low + (high - low) * torch.rand(shape, dtype=dtype,
                                                device=device)
        elif (i == 0 or arg.name in ("x", "input")) and not wide:
            t = torch.rand(shape, dtype=dtype, device=device)
        else:
            t = torch.randn(shape, dtype=dtype, device=device)
        tensors.append(t)
    return tensors
