# ===- fusecc/module.py - Bundles as callables on PyTorch tensors -------=== #
#
# fusecc.load(path) -> Module: each entry of the bundle is a callable on
# CUDA tensors. Arguments are checked (shape, dtype, device, contiguity,
# 16-byte alignment, outputs aliasing nothing) with errors naming the
# argument and what was expected; outputs are allocated or passed with out=;
# the launch is enqueued on PyTorch's current stream without any host
# synchronisation, so calls can be captured into CUDA graphs.
#
# The checks only use a tensor's shape, dtype, device, stride() and
# data_ptr(), so they run (and are tested) without PyTorch on any object
# that has those; other frameworks' tensors come in through DLPack.
#
# After a call passed its checks, the arguments' signature (type, shape,
# strides, dtype, device of each tensor) is remembered: a later positional
# call with the same signature only reads the data pointers, checks their
# alignment and overlap, and launches (a few microseconds of host time).
#
# ===--------------------------------------------------------------------=== #

import struct

from . import bundle as bundle_format
from . import runtime as runtime_binding

try:
    import torch
except ImportError:  # The package works without PyTorch (metadata, tests).
    torch = None

#: Manifest dtype -> PyTorch dtype name.
TORCH_DTYPE_NAMES = {"f32": "float32", "f16": "float16", "bf16": "bfloat16",
                     "i32": "int32", "i64": "int64", "u8": "uint8"}
_MANIFEST_DTYPES = {v: k for k, v in TORCH_DTYPE_NAMES.items()}
ALIGNMENT = 16
#: Signatures remembered per entry (the oldest is dropped past this).
SIGNATURE_CACHE_SIZE = 16


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


def _current_stream_handle(device_index):
    """PyTorch's current stream of `device_index` as a CUstream handle: the
    raw getter torch.compile's generated code uses where it exists (a
    fraction of a microsecond), else through torch.cuda.current_stream."""
    get = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if get is not None:
        return get(device_index)
    return torch.cuda.current_stream(device_index).cuda_stream


def _device_text(device):
    index = getattr(device, "index", None)
    kind = getattr(device, "type", str(device))
    return kind if index is None else "%s:%d" % (kind, index)


def check_tensor(tensor, arg, what, device_index):
    """Checks one tensor against its manifest `arg`; ArgumentError naming
    `what` and the expectation otherwise. Returns its data pointer."""
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
    if shape != arg.shape:
        raise ArgumentError("%s: expected shape %s, got %s"
                            % (what, list(arg.shape), list(shape)))
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


class EntryFunction:
    """One entry of a loaded bundle, callable as
    f(*inputs, out=None, stream=None, **named_inputs)."""

    def __init__(self, module, entry):
        self.module = module
        self.entry = entry
        self.name = entry.name
        self.inputs = entry.inputs
        self.outputs = entry.outputs
        # The fast path (see _fast_call): signatures that passed the checks,
        # byte sizes in argument order, the output positions, and the
        # layout of a buffer array (fusecc_buffer_t: u64 pointer, size_t).
        self._checked = {}
        self._sizes = [a.byte_size for a in entry.inputs + entry.outputs]
        self._output_positions = range(len(entry.inputs), len(self._sizes))
        self._buffer_type = runtime_binding.Buffer * len(self._sizes)
        self._buffer_format = "@" + "QN" * len(self._sizes)
        self.__doc__ = "fusecc entry '%s': (%s) -> (%s)" % (
            entry.name, ", ".join("%s: %s%s" % (a.name, a.dtype, list(a.shape))
                                  for a in entry.inputs),
            ", ".join("%s: %s%s" % (a.name, a.dtype, list(a.shape))
                      for a in entry.outputs))

    def __repr__(self):
        return "<%s>" % self.__doc__

    def _what(self, arg):
        return "entry '%s' %s %d '%s'" % (
            self.name, "output" if arg.is_output else "input",
            arg.index - (len(self.inputs) if arg.is_output else 0), arg.name)

    def _bind(self, args, kwargs):
        """Positional and named inputs in declaration order."""
        names = [a.name for a in self.inputs]
        if len(args) > len(names):
            raise TypeError("entry '%s' takes %d inputs (%s), got %d"
                            % (self.name, len(names), ", ".join(names),
                               len(args)))
        values = list(args) + [None] * (len(names) - len(args))
        given = [True] * len(args) + [False] * (len(names) - len(args))
        for key, value in kwargs.items():
            if key not in names:
                raise TypeError("entry '%s' got an unexpected keyword argument "
                                "'%s' (inputs: %s)"
                                % (self.name, key, ", ".join(names)))
            i = names.index(key)
            if given[i]:
                raise TypeError("entry '%s' got input '%s' twice"
                                % (self.name, key))
            values[i], given[i] = value, True
        missing = [n for n, g in zip(names, given) if not g]
        if missing:
            raise TypeError("entry '%s' is missing input(s) %s"
                            % (self.name, ", ".join("'%s'" % n
                                                    for n in missing)))
        return values

    def _stream(self, stream):
        if stream is None:
            if torch is None:
                raise ArgumentError("entry '%s': pass stream= (a CUstream "
                                    "handle) when PyTorch is not installed"
                                    % self.name)
            return _current_stream_handle(self.module.device_index)
        if isinstance(stream, int):
            return stream
        handle = getattr(stream, "cuda_stream", None)
        if isinstance(handle, int):
            return handle
        raise TypeError("entry '%s': stream must be a torch.cuda.Stream or a "
                        "CUstream handle (int), got %s"
                        % (self.name, type(stream).__name__))

    def _allocate(self, stream):
        if torch is None:
            raise ArgumentError("entry '%s': allocating outputs needs "
                                "PyTorch; pass out=" % self.name)
        device = torch.device("cuda", self.module.device_index)
        context = (torch.cuda.stream(stream)
                   if isinstance(stream, torch.cuda.Stream) else None)
        if context is None:
            return [torch.empty(a.shape, dtype=torch_dtype(a.dtype),
                                device=device) for a in self.outputs]
        with context:
            return [torch.empty(a.shape, dtype=torch_dtype(a.dtype),
                                device=device) for a in self.outputs]

    def prepare(self, *args, out=None, stream=None, **kwargs):
        """Checks and binds the arguments: (buffers, returned outputs,
        stream handle, tensors to keep alive). Launches nothing."""
        values = self._bind(args, kwargs)
        device_index = self.module.device_index
        tensors, ranges = [], []
        for arg, value in zip(self.inputs, values):
            what = self._what(arg)
            tensor = as_tensor(value, what)
            ranges.append((check_tensor(tensor, arg, what, device_index),
                           arg.byte_size))
            tensors.append(tensor)
        handle = self._stream(stream)
        if out is None:
            results = self._allocate(stream)
        else:
            results = list(out) if isinstance(out, (tuple, list)) else [out]
            if len(results) != len(self.outputs):
                raise ArgumentError(
                    "entry '%s': out= has %d tensors, the entry has %d "
                    "outputs (%s)" % (self.name, len(results),
                                      len(self.outputs),
                                      ", ".join(a.name for a in self.outputs)))
        for arg, value in zip(self.outputs, results):
            what = self._what(arg)
            tensor = as_tensor(value, what)
            ranges.append((check_tensor(tensor, arg, what, device_index),
                           arg.byte_size))
            tensors.append(tensor)
        check_aliasing(ranges, self.entry)
        return (runtime_binding.buffers(ranges), results, handle, tensors)

    def __call__(self, *args, out=None, stream=None, **kwargs):
        signature = None
        if not kwargs and len(args) == len(self.inputs):
            signature = self._signature(args, out)
            try:
                known = signature in self._checked
            except TypeError:  # Unhashable metadata: never cached.
                signature, known = None, False
            if known:
                returned = self._fast_call(args, out, stream)
                if returned is not None:
                    return returned
        buffer_array, results, handle, tensors = self.prepare(
            *args, out=out, stream=stream, **kwargs)
        if signature is not None and all(
                a is b for a, b in zip(args, tensors)) and (
                out is None or all(a is b for a, b in zip(
                    results, tensors[len(self.inputs):]))):
            # Only tensors used as they are (no DLPack conversion).
            if len(self._checked) >= SIGNATURE_CACHE_SIZE:
                del self._checked[next(iter(self._checked))]
            self._checked[signature] = True
        self.module.launch_buffers(self.entry.index, buffer_array, handle)
        if out is not None:
            return out
        return results[0] if len(results) == 1 else tuple(results)

    def _signature(self, args, out):
        """What prepare()'s checks read of the tensors, save their data
        pointers: per tensor its type, shape, strides, dtype and device (and
        whether outputs are allocated). None when a value has none of those
        (the caller finds out whether they are hashable)."""
        values = args
        if out is not None:
            values += tuple(out) if isinstance(out, (tuple, list)) else (out,)
        try:
            signature = tuple([(type(v), tuple(v.shape), tuple(v.stride()),
                                v.dtype, v.device) for v in values])
        except (AttributeError, TypeError):
            return None
        return signature, type(out)

    def _fast_call(self, args, out, stream):
        """A call whose signature passed prepare() before: reads the data
        pointers, checks alignment and overlap, launches. None (nothing
        launched) when a pointer fails: prepare() then reports it."""
        handle = self._stream(stream)
        if out is None:
            results = self._allocate(stream)
        else:
            results = list(out) if isinstance(out, (tuple, list)) else [out]
        pointers = [t.data_ptr() for t in args]
        pointers += [t.data_ptr() for t in results]
        sizes = self._sizes
        for p in pointers:
            if p % ALIGNMENT:
                return None
        for i in self._output_positions:
            a0, a1 = pointers[i], pointers[i] + sizes[i]
            for j, p in enumerate(pointers):
                if j != i and a0 < p + sizes[j] and p < a1:
                    return None
        buffer_array = self._buffer_type()
        flat = [0] * (2 * len(pointers))
        flat[0::2] = pointers
        flat[1::2] = sizes
        struct.pack_into(self._buffer_format, buffer_array, 0, *flat)
        self.module.launch_buffers(self.entry.index, buffer_array, handle)
        if out is not None:
            return out
        return results[0] if len(results) == 1 else tuple(results)


class Module:
    """A loaded bundle: entries by attribute (module.decoder), by name
    (module["decoder"]), or module(...) when there is only one."""

    def __init__(self, path, lib=None, device=None, launch_graphs=None):
        path = str(path)
        self.path = path
        self.bundle = bundle_format.read(path)
        self.runtime = runtime_binding.Runtime.get(lib)
        self.device_index = self._device_index(device)
        self._loaded = runtime_binding.LoadedBundle(self.runtime, path)
        try:
            if not self.runtime.entry_names_match(
                    self._loaded.handle, [e.name for e in self.bundle.entries]):
                raise runtime_binding.FuseccError(
                    "%s: the runtime and fusecc.bundle disagree on the "
                    "entries (a runtime of another format version?)" % path)
            self._load_module()
            if launch_graphs is not None:
                self.set_launch_graphs(launch_graphs)
        except BaseException:
            self._loaded.close()
            raise
        self._entries = {e.name: EntryFunction(self, e)
                         for e in self.bundle.entries}

    @staticmethod
    def _device_index(device):
        if device is None:
            if torch is not None and torch.cuda.is_available():
                return torch.cuda.current_device()
            return 0
        if isinstance(device, int):
            return device
        kind = getattr(device, "type", None)
        if kind is None and isinstance(device, str):
            kind, _, index = device.partition(":")
            if kind == "cuda":
                return int(index) if index else (
                    torch.cuda.current_device() if torch is not None else 0)
        elif kind == "cuda":
            index = device.index
            if index is not None:
                return index
            return torch.cuda.current_device() if torch is not None else 0
        raise ValueError("device must be a CUDA device, got %r" % (device,))

    def _load_module(self):
        if torch is not None and torch.cuda.is_available():
            # PyTorch's (primary) context of the device must be current
            # when the runtime looks for one.
            with torch.cuda.device(self.device_index):
                torch.empty(1, device=torch.device("cuda", self.device_index))
                self._loaded.load()
        else:
            self._loaded.load()

    # Entries -------------------------------------------------------------

    @property
    def entries(self):
        """The entry names, in bundle order."""
        return list(self._entries)

    def __getitem__(self, name):
        try:
            return self._entries[name]
        except KeyError:
            raise KeyError("%s has no entry '%s' (entries: %s)"
                           % (self.path, name, ", ".join(self._entries))) \
                from None

    def __getattr__(self, name):
        entries = self.__dict__.get("_entries")
        if entries is not None and name in entries:
            return entries[name]
        raise AttributeError("%s has no entry or attribute '%s' (entries: %s)"
                             % (self.__dict__.get("path", "module"), name,
                                ", ".join(entries or ())))

    def __contains__(self, name):
        return name in self._entries

    def __iter__(self):
        return iter(self._entries.values())

    def __len__(self):
        return len(self._entries)

    def __call__(self, *args, **kwargs):
        if len(self._entries) != 1:
            raise TypeError("%s has %d entries (%s): call one by name"
                            % (self.path, len(self._entries),
                               ", ".join(self._entries)))
        return next(iter(self._entries.values()))(*args, **kwargs)

    def __repr__(self):
        return "<fusecc.Module %s: %s>" % (self.path, ", ".join(self._entries))

    # Constants and launching ----------------------------------------------

    @property
    def constants(self):
        """The bundle's constants (fusecc.bundle.Const), version 3."""
        return self.bundle.constants

    def constant(self, name_or_index):
        """A constant's value as a CPU torch tensor (from the data section;
        the runtime holds its own copy on the device)."""
        from .reference import constant_tensor
        constants = self.bundle.constants
        if isinstance(name_or_index, int):
            return constant_tensor(self.bundle, name_or_index)
        for const in constants:
            if const.name == name_or_index:
                return constant_tensor(self.bundle, const.index)
        raise KeyError("%s has no constant '%s'" % (self.path, name_or_index))

    def launch_buffers(self, entry_index, buffer_array, stream):
        """The unchecked launch (beyond the runtime's own size, alignment
        and overlap checks): `buffer_array` from fusecc.runtime.buffers,
        `stream` a CUstream handle."""
        if not self._loaded.module:
            raise runtime_binding.FuseccError("%s: module is closed"
                                              % self.path)
        self._loaded.launch(entry_index, buffer_array, stream)

    def launch_raw(self, entry_index, buffer_array, stream):
        """fusecc_module_launch alone: no checks beyond the runtime's and no
        context binding (the module's context must be current). For timing
        loops that prepared their buffers once."""
        self.runtime.launch(self._loaded.module, entry_index, buffer_array,
                            stream)

    def set_launch_graphs(self, enabled):
        """Turns the runtime's CUDA-graph launch path on or off for this
        module (fusecc_module_set_launch_graphs: multi-step entries replayed
        as one graph per stream; on by default unless FUSECC_LAUNCH_GRAPHS=0
        was set at load)."""
        self.runtime.set_launch_graphs(self._loaded.module, enabled)

    def launch_stats(self):
        """The runtime's launch-path counters of this module (a dict:
        direct_calls, graph_calls, graph_builds, graph_updates, ...)."""
        return self.runtime.launch_stats(self._loaded.module)

    def close(self):
        """Unloads the module (also when garbage collected)."""
        loaded = self.__dict__.get("_loaded")
        if loaded is not None:
            loaded.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


def load(path, lib=None, device=None, launch_graphs=None):
    """Loads the bundle at `path` into the CUDA context of `device` (default:
    PyTorch's current device) through libfusecc_runtime.so (`lib`, default:
    fusecc.runtime.find_library()). `launch_graphs`: True or False turns
    the runtime's CUDA-graph launch path on or off (None: the runtime's
    default, on unless FUSECC_LAUNCH_GRAPHS=0)."""
    return Module(path, lib=lib, device=device, launch_graphs=launch_graphs)
