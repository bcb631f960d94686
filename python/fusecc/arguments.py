# ===- fusecc/arguments.py - A call's tensors against its entry ---------=== #
#
# The checks of fusecc.module's entry calls, one tensor at a time: a value
# as a tensor (PyTorch's, another framework's through DLPack, or any
# object with shape/dtype/device/stride()/data_ptr()), its device, dtype,
# shape, contiguity and 16-byte alignment against the entry's manifest
# argument, and outputs that alias no other argument; ArgumentError names
# the argument and what was expected. They use only a tensor's shape,
# dtype, device, stride() and data_ptr(), so they run (and are tested)
# without PyTorch. fusecc.module re-exports every name.
#
# ===--------------------------------------------------------------------=== #

try:
    import torch
except ImportError:  # The checks work without PyTorch (tests).
    torch = None


#: Manifest dtype -> PyTorch dtype name.
TORCH_DTYPE_NAMES = {"f32": "float32", "f16": "float16", "bf16": "bfloat16",
                     "i32": "int32", "i64": "int64", "u8": "uint8"}
_MANIFEST_DTYPES = {v: k for k, v in TORCH_DTYPE_NAMES.items()}
ALIGNMENT = 16


class ArgumentError(ValueError):
    """An argument that does not match the entry's declaration."""


def torch_dtype(name):
    """The PyTorch dtype of manifest dtype `name` ("f32")."""
    if torch is None:
        raise ImportError("PyTorch is not installed")
    return getattr(torch, TORCH_DTYPE_NAMES[name])


def dtype_name(dtype):
    """The manifest name of a tensor dtype (torch.float32 -> "f32"), or its
    own text when it has none."""
    text = str(dtype)
    short = text.rsplit(".", 1)[-1]
    if short in _MANIFEST_DTYPES:
        return _MANIFEST_DTYPES[short]
    return short if short in TORCH_DTYPE_NAMES else text


def is_contiguous(shape, strides):
    """Row-major contiguity as PyTorch defines it (size-1 dims are free)."""
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size != 1 and stride != expected:
            return False
        expected *= size
    return True


def _is_tensor_like(value):
    return all(hasattr(value, a) for a in ("shape", "dtype", "device",
                                           "stride", "data_ptr"))


def as_tensor(value, what):
    """`value` as a tensor: a torch.Tensor as is, another framework's tensor
    through DLPack, or any object with shape/dtype/device/stride/data_ptr
    (used as is)."""
    if torch is not None and isinstance(value, torch.Tensor):
        return value
    if hasattr(value, "__dlpack__") and torch is not None:
        try:
            return torch.from_dlpack(value)
        except Exception as error:
            raise ArgumentError("%s: DLPack conversion failed: %s"
                                % (what, error)) from None
    if _is_tensor_like(value):
        return value
    raise TypeError("%s: expected a torch.Tensor or a tensor with "
                    "__dlpack__%s, got %s"
                    % (what, "" if torch is not None else
                       " (DLPack needs PyTorch, which is not installed)",
                       type(value).__name__))


def _device_text(device):
    index = getattr(device, "index", None)
    kind = getattr(device, "type", str(device))
    return kind if index is None else "%s:%d" % (kind, index)


def check_tensor(tensor, arg, what, device_index, batch=0):
    """Checks one tensor against its manifest `arg` (at `batch` for a
    dynamic-batch entry); ArgumentError naming `what` and the expectation
    otherwise. Returns its data pointer."""
    device = tensor.device
    if getattr(device, "type", None) != "cuda" or (
            device_index is not None and device.index != device_index):
        raise ArgumentError("%s: expected a CUDA tensor on cuda:%s, got one "
                            "on %s" % (what, device_index,
                                       _device_text(device)))
    got = dtype_name(tensor.dtype)
    if got != arg.dtype:
        raise ArgumentError("%s: expected dtype %s (%s), got %s"
                            % (what, TORCH_DTYPE_NAMES[arg.dtype], arg.dtype,
                               TORCH_DTYPE_NAMES.get(got, got)))
    shape = tuple(tensor.shape)
    expected = arg.shape_at(batch)
    if shape != expected:
        raise ArgumentError("%s: expected shape %s, got %s"
                            % (what, list(expected), list(shape)))
    if not is_contiguous(shape, tuple(tensor.stride())):
        raise ArgumentError("%s: expected a contiguous tensor, got strides "
                            "%s (call .contiguous())"
                            % (what, list(tensor.stride())))
    ptr = tensor.data_ptr()
    if ptr % ALIGNMENT:
        raise ArgumentError("%s: data pointer 0x%x is not %d-byte aligned (a "
                            "view at an offset? call .clone())"
                            % (what, ptr, ALIGNMENT))
    return ptr


def check_aliasing(ranges, entry):
    """`ranges`: (pointer, byte size) per entry arg. Outputs may share
    memory with no other argument (the kernels' buffers are noalias)."""
    for i, arg in enumerate(entry.args):
        if not arg.is_output:
            continue
        a0, a1 = ranges[i][0], ranges[i][0] + ranges[i][1]
        for j, other in enumerate(entry.args):
            b0, b1 = ranges[j][0], ranges[j][0] + ranges[j][1]
            if j != i and a0 < b1 and b0 < a1:
                raise ArgumentError(
                    "entry '%s': output '%s' overlaps %s '%s' (outputs must "
                    "not share memory with other arguments)"
                    % (entry.name, arg.name,
                       "output" if other.is_output else "input", other.name))
