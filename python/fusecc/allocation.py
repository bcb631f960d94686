# ===- fusecc/allocation.py - Fresh outputs for the cached entry call ---=== #
#
# An entry called without out= allocates its outputs on every call. The
# first call (and any call on a stream object) allocates them with
# torch.empty(shape, dtype=, device=); the cached call (callcache.py,
# CallCache._fast_call) with torch.empty_like of a template per output,
# built here once per batch: PyTorch then reads the shape from the template
# instead of parsing it from Python, which is most of what torch.empty
# costs the host beyond the allocator itself (docs/perf.md section 197).
# Each output is still a new tensor of its own: nothing is shared between
# calls or between the outputs of one call.
#
# Where PyTorch has it (2.x), the cached call allocates instead with
# torch._C._dynamo.guards._empty_strided_cuda(shape, strides, dtype), what
# Inductor's generated code allocates with: no argument parser, no
# dispatcher, a CUDA tensor on the current device (strided_recipe; the
# call checks that the current device is the module's, else empty_like).
#
# ===--------------------------------------------------------------------=== #

try:
    import torch
except ImportError:  # The package works without PyTorch (metadata, tests).
    torch = None

#: What the cached call allocates each output with, from its template.
EMPTY_LIKE = torch.empty_like if torch is not None else None


def _lookup(path):
    """torch.<path> (dotted), or None where this PyTorch lacks it."""
    found = torch
    try:
        for name in path.split("."):
            found = getattr(found, name)
    except AttributeError:
        return None
    return found


#: PyTorch's lower-overhead CUDA allocation (shape, strides, dtype) on the
#: current device, and the current device's index; None where absent.
EMPTY_STRIDED_CUDA = (_lookup("_C._dynamo.guards._empty_strided_cuda")
                      if torch is not None else None)
CURRENT_DEVICE = (_lookup("_C._cuda_getDevice") if torch is not None
                  else None)


def allocation_recipe(specs):
    """The templates the cached call allocates outputs from, one per (shape,
    torch dtype, torch device) of `specs`: a 1-element tensor of that dtype
    on that device, expanded (stride 0) to that shape (a few bytes of device
    memory however large the output), such that EMPTY_LIKE(template) is a
    new tensor with the shape, dtype, device and strides torch.empty gives.
    Each template is tried once here: None (outputs by torch.empty) where
    one's EMPTY_LIKE differs in any of those (a PyTorch that lays out such
    views otherwise)."""
    templates = []
    for shape, dtype, device in specs:
        made = torch.empty(shape, dtype=dtype, device=device)
        template = torch.empty((1,) * len(shape), dtype=dtype,
                               device=device).expand(shape)
        probe = EMPTY_LIKE(template)
        if (probe.shape != made.shape or probe.dtype != made.dtype
                or probe.device != made.device
                or probe.stride() != made.stride()
                or probe.requires_grad or probe.numel() == 0):
            return None
        templates.append(template)
    return tuple(templates)


def strided_recipe(specs):
    """What the cached call allocates outputs with by EMPTY_STRIDED_CUDA,
    per (shape, torch dtype, CUDA torch device) of `specs`: (shape tuple,
    strides tuple, dtype) of torch.empty's output. Each is tried once here,
    on the output's device: None (outputs by EMPTY_LIKE of the templates)
    where PyTorch lacks the call, an output is not on a CUDA device, or
    one's tensor differs from torch.empty's in shape, dtype, device,
    strides or requires_grad (or has no elements)."""
    if EMPTY_STRIDED_CUDA is None or CURRENT_DEVICE is None or not specs:
        return None
    recipe = []
    for shape, dtype, device in specs:
        if getattr(device, "type", None) != "cuda":
            return None
        try:
            with torch.cuda.device(device):
                made = torch.empty(shape, dtype=dtype, device=device)
                strides = made.stride()
                probe = EMPTY_STRIDED_CUDA(tuple(shape), strides, dtype)
        except Exception:  # Another PyTorch's signature: empty_like.
            return None
        if (probe.shape != made.shape or probe.dtype != made.dtype
                or probe.device != made.device
                or probe.stride() != strides or probe.requires_grad
                or type(probe) is not type(made) or probe.numel() == 0):
            return None
        recipe.append((tuple(shape), strides, dtype))
    return tuple(recipe)
