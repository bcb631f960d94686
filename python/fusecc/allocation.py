# ===- fusecc/allocation.py - Fresh outputs for the cached entry call ---=== #
#
# An entry called without out= allocates its outputs on every call. The
# first call (and any call on a stream object) allocates them with
# torch.empty(shape, dtype=, device=); the cached call (module.py,
# EntryFunction._fast_call) with torch.empty_like of a template per output,
# built here once per batch: PyTorch then reads the shape from the template
# instead of parsing it from Python, which is most of what torch.empty
# costs the host beyond the allocator itself (docs/perf.md section 197).
# Each output is still a new tensor of its own: nothing is shared between
# calls or between the outputs of one call.
#
# ===--------------------------------------------------------------------=== #

try:
    import torch
except ImportError:  # The package works without PyTorch (metadata, tests).
    torch = None

#: What the cached call allocates each output with, from its template.
EMPTY_LIKE = torch.empty_like if torch is not None else None


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
