# ===- fusecc/module.py - Bundles as callables on PyTorch tensors -------=== #
#
# fusecc.load(path) -> Module: each entry of the bundle is a callable on
# CUDA tensors. Arguments are checked (shape, dtype, device, contiguity,
# 16-byte alignment, outputs aliasing nothing: fusecc/arguments.py) with
# errors naming the argument and what was expected; outputs are allocated
# or passed with out=; the launch is enqueued on PyTorch's current stream
# without any host synchronisation, so calls can be captured into CUDA
# graphs.
#
# The checks only use a tensor's shape, dtype, device, stride() and
# data_ptr(), so they run (and are tested) without PyTorch on any object
# that has those; other frameworks' tensors come in through DLPack.
#
# After a call passed its checks, the arguments' signature (type, shape,
# strides, dtype, device of each tensor) is remembered: a later positional
# call with the same signature only reads the data pointers and launches
# with one foreign call (fusecc_module_launch_packed, which checks their
# alignment and overlap; a failure there goes back through the checks for
# a located error), made by one closure per signature (fusecc/fastpath.py).
# With PyTorch, the signature is compared in C++ by
# PyTorch's own tensor guard (torch._C._dynamo.guards.TensorGuards, what
# torch.compile's guards use) where it exists, else in Python.
#
# Prepare steps (the weight re-layouts of wgmma kernels, docs/bundle.md):
# the module lets the runtime keep their results across calls
# (fusecc_module_set_reuse_prepared; reuse_prepared=False or
# FUSECC_REUSE_PREPARED=0 turns it off), and every call first checks that
# each input they read is the last call's tensor (by identity) at the same
# _version: a change (another tensor, an in-place write: an optimizer step,
# copy_, load_state_dict) invalidates the prepared workspaces, so the next
# launch re-packs. Writes that bypass the version counter (through `.data`, or
# by another framework through DLPack) need Module.invalidate_prepared();
# objects without a _version invalidate at every call.
#
# ===--------------------------------------------------------------------=== #

import os
import struct
import weakref

from . import bundle as bundle_format
from . import fastpath
from .allocation import (EMPTY_LIKE as _EMPTY_LIKE, allocation_recipe,
                         strided_recipe)
# The argument checks (fusecc.arguments), re-exported: fusecc.module's names.
from .arguments import (  # noqa: F401
    ALIGNMENT, TORCH_DTYPE_NAMES, ArgumentError, as_tensor, check_aliasing,
    check_tensor, dtype_name, is_contiguous, torch_dtype)
from . import runtime as runtime_binding

try:
    import torch
except ImportError:  # The package works without PyTorch (metadata, tests).
    torch = None

#: Signatures remembered per entry (the oldest is dropped past this).
SIGNATURE_CACHE_SIZE = 16
#: Tensor guards remembered per entry (the oldest is dropped past this).
GUARD_CACHE_SIZE = 4
#: FUSECC_PACKED_POINTERS of runtime.h: the words of a packed launch
#: record before the argument pointers (module, entry, batch, stream,
#: count).
_PACKED_POINTERS = 5


def _tensor_guards_class():
    """PyTorch's C++ tensor guard class (TensorGuards(*tensors,
    dynamic_dims_sizes=None, dynamic_dims_strides=None).check(*tensors):
    same Python type, dispatch keys, dtype, device, requires_grad, sizes
    and strides, no tensor twice), or None where PyTorch lacks it."""
    if torch is None:
        return None
    try:
        return torch._C._dynamo.guards.TensorGuards
    except Exception:  # AttributeError where PyTorch < 2.0.
        return None


#: The guard class the fast path uses (None: Python signatures only), and
#: the types it guards.
TensorGuards = _tensor_guards_class()
GUARDED_TYPES = (torch.Tensor,) if torch is not None else ()
#: PyTorch's data_ptr, which the fast path calls without looking it up on
#: each tensor where the guarded types do not override it.
_TENSOR_DATA_PTR = torch.Tensor.data_ptr if torch is not None else None


def _stream_from_torch(device_index):
    return torch.cuda.current_stream(device_index).cuda_stream


def _current_stream_handle(device_index):
    """PyTorch's current stream of `device_index` as a CUstream handle: the
    raw getter torch.compile's generated code uses where it exists (a
    fraction of a microsecond), else through torch.cuda.current_stream."""
    return _STREAM_GETTER(device_index)


#: What _current_stream_handle calls (looked up once).
_STREAM_GETTER = (getattr(torch._C, "_cuda_getCurrentRawStream",
                          _stream_from_torch) if torch is not None
                  else None)


class EntryFunction:
    """One entry of a loaded bundle, callable as
    f(*inputs, out=None, stream=None, **named_inputs)."""

    def __init__(self, module, entry):
        self.module = module
        self.entry = entry
        self.name = entry.name
        self.inputs = entry.inputs
        self.outputs = entry.outputs
        # The fast path (see _fast_call): tensor guards (kind of out=,
        # guard's check) and Python signatures that passed the checks, the
        # input count, and the packer of the pointer array (native u64s).
        self._guards = []
        self._checked = {}
        self._input_count = len(entry.inputs)
        self._arg_count = len(entry.inputs) + len(entry.outputs)
        self._pack = struct.Struct("@%dQ" % self._arg_count).pack
        self._pack_record = struct.Struct(
            "@%dQ" % (_PACKED_POINTERS + self._arg_count)).pack
        self._index = entry.index
        self._device_index = module.device_index
        # The runtime's pointer launch and the module handle, bound once
        # (Module.pointer_launch; None where the module has none: a stub,
        # or closed, and Module.launch_pointers is called instead).
        launch = getattr(module, "pointer_launch", None)
        self._launch = launch() if launch is not None else None
        # The inputs the entry's prepare steps read, where the module
        # reuses prepared workspaces (else none), and their last key.
        self._prepared_args = (
            tuple(getattr(entry, "prepared_args", ()))
            if getattr(module, "reuse_prepared", False) else ())
        self._prepared_key = None
        # Per batch, the outputs' (shape, torch dtype, device) (_allocate),
        # and the cached path's templates for them (allocation_recipe).
        self._output_specs = {}
        self._recipes = {}
        # A dynamic batch (bundle version 4): calls take any batch in
        # [1, max_batch], read from the first batched input's dim 0.
        self.max_batch = entry.max_batch
        self._batch_input = next((i for i, a in enumerate(entry.inputs)
                                  if a.batched), None)

        def show(a):
            dims = [("B" if a.batched and i == 0 else d)
                    for i, d in enumerate(a.shape)]
            return "%s: %s%s" % (a.name, a.dtype,
                                 "[%s]" % ", ".join(map(str, dims)))
        self.__doc__ = "fusecc entry '%s': (%s) -> (%s)%s" % (
            entry.name, ", ".join(map(show, entry.inputs)),
            ", ".join(map(show, entry.outputs)),
            " for B in 1..%d" % self.max_batch if self.max_batch else "")

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
            if _STREAM_GETTER is None:
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

    def _allocate(self, stream, batch=0):
        """Fresh outputs for a call at `batch` (0: static shapes) as a list:
        torch.empty on the module's device, on `stream` (None or a handle:
        PyTorch's current stream). Also keeps the cached path's templates
        for the batch (allocation_recipe)."""
        if torch is None:
            raise ArgumentError("entry '%s': allocating outputs needs "
                                "PyTorch; pass out=" % self.name)
        specs = self._output_specs.get(batch)
        if specs is None:
            # (shape, dtype, device) per output, kept per batch: a call
            # builds no device or dtype object.
            device = torch.device("cuda", self.module.device_index)
            specs = [(a.shape_at(batch), torch_dtype(a.dtype), device)
                     for a in self.outputs]
            if len(self._output_specs) >= SIGNATURE_CACHE_SIZE:
                del self._output_specs[next(iter(self._output_specs))]
            self._output_specs[batch] = specs
        if batch not in self._recipes:
            if len(self._recipes) >= SIGNATURE_CACHE_SIZE:
                del self._recipes[next(iter(self._recipes))]
            self._recipes[batch] = allocation_recipe(specs)
        if stream is None or not isinstance(stream, torch.cuda.Stream):
            return [torch.empty(shape, dtype=dtype, device=device)
                    for shape, dtype, device in specs]
        with torch.cuda.stream(stream):
            return [torch.empty(shape, dtype=dtype, device=device)
                    for shape, dtype, device in specs]

    def batch_of(self, inputs):
        """The batch of a call on `inputs` (tensors, in declaration order):
        dim 0 of the first batched input, checked against [1, max_batch];
        0 for an entry with static shapes."""
        if not self.max_batch:
            return 0
        arg = self.inputs[self._batch_input]
        shape = tuple(getattr(inputs[self._batch_input], "shape", ()))
        batch = shape[0] if shape else None
        if not isinstance(batch, int) or not 1 <= batch <= self.max_batch:
            raise ArgumentError(
                "%s: batch %s is outside the batches this bundle serves (1 "
                "to %d, compiled with --max-batch=%d; shape %s)"
                % (self._what(arg), batch, self.max_batch, self.max_batch,
                   list(shape)))
        return batch

    def prepare(self, *args, out=None, stream=None, **kwargs):
        """Checks and binds the arguments: (buffers, returned outputs,
        stream handle, tensors to keep alive). Launches nothing."""
        values = self._bind(args, kwargs)
        device_index = self.module.device_index
        inputs = [as_tensor(value, self._what(arg))
                  for arg, value in zip(self.inputs, values)]
        batch = self.batch_of(inputs)
        tensors, ranges = [], []
        for arg, tensor in zip(self.inputs, inputs):
            what = self._what(arg)
            ranges.append((check_tensor(tensor, arg, what, device_index,
                                        batch), arg.bytes_at(batch)))
            tensors.append(tensor)
        handle = self._stream(stream)
        if out is None:
            results = (self._allocate(stream, batch) if batch
                       else self._allocate(stream))
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
            ranges.append((check_tensor(tensor, arg, what, device_index,
                                        batch), arg.bytes_at(batch)))
            tensors.append(tensor)
        check_aliasing(ranges, self.entry)
        return (runtime_binding.buffers(ranges), results, handle, tensors)

    def __call__(self, *args, out=None, stream=None, **kwargs):
        values = kind = None
        if not kwargs and len(args) == self._input_count:
            kind = type(out)
            if out is None:
                values = args
            elif kind is tuple:
                values = args + out
            elif kind is list:
                values = args + tuple(out)
            else:
                values = args + (out,)
            # _known's guard loop, inlined (the cached path's cost): the
            # signature's closure (fastpath.launcher) makes the call.
            for guard_kind, check, data_ptr, fast in self._guards:
                if guard_kind is kind:
                    try:
                        held = check(*values)
                    except Exception:  # Not tensors, wrong length: a miss.
                        held = False
                    if held:
                        if fast is not None:
                            result = fast(values, out, stream, kwargs)
                            if result is not _MISS:
                                return result
                        return self._fast_call(args, values, out, stream,
                                               kwargs, data_ptr)
            if self._checked:
                fast = self._signature_known(values, kind)
                if fast is not False:
                    if fast is not None:
                        result = fast(values, out, stream, kwargs)
                        if result is not _MISS:
                            return result
                    return self._fast_call(args, values, out, stream, kwargs,
                                           None)
        buffer_array, results, handle, tensors = self.prepare(
            *args, out=out, stream=stream, **kwargs)
        if values is not None and all(
                a is b for a, b in zip(values, tensors)):
            # Only tensors used as they are (no DLPack conversion).
            self._remember(values, kind)
        batch = self.batch_of(tensors) if self.max_batch else 0
        if self._prepared_args:
            self._check_prepared(tensors)
        if batch:
            self.module.launch_buffers(self.entry.index, buffer_array, handle,
                                       batch=batch)
        else:
            self.module.launch_buffers(self.entry.index, buffer_array, handle)
        if out is not None:
            return out
        return results[0] if len(results) == 1 else tuple(results)

    def _check_prepared(self, values):
        """Invalidates the module's prepared workspaces unless each input
        the entry's prepare steps read (`values`: the inputs first) is the
        very tensor of the last call (a weak reference: a new tensor may
        reuse a freed one's address) at the same _version (PyTorch bumps
        it at every in-place write). Objects without either invalidate at
        every call."""
        key = self._prepared_key
        if key is not None:
            try:
                for i, ref, version in key:
                    value = values[i]
                    if ref() is not value or value._version != version:
                        break
                else:
                    return
            except AttributeError:
                pass
        try:
            self._prepared_key = [(i, weakref.ref(values[i]),
                                   values[i]._version)
                                  for i in self._prepared_args]
        except (AttributeError, TypeError):  # No version or weak reference.
            self._prepared_key = None
        self.module.invalidate_prepared()

    def cached_call(self, inputs):
        """The call entry(*inputs) with outputs allocated, when the inputs'
        signature passed the checks before (the cached path): the outputs
        as a list; None, launching nothing, when the signature is not
        known or the runtime rejects a pointer (a view at an unaligned
        offset, overlapping memory), so that the caller can take the
        checked path (`__call__`, whose errors name the argument)."""
        inputs = tuple(inputs)
        if len(inputs) != self._input_count:
            return None
        known = self._known(inputs, _NO_OUT)
        if known is False:
            return None
        data_ptr, fast = known
        results = _MISS
        if fast is not None:
            results = fast(inputs, None, None, None)
        if results is _MISS:
            results = self._fast_call(inputs, inputs, None, None, None,
                                      data_ptr)
        if results is _REJECTED:
            return None
        return list(results) if type(results) is tuple else [results]

    def _known(self, values, kind):
        """Whether `values` (inputs, then the outputs given) match a guard
        or a signature remembered by _remember (newest first): False if
        not, else (how to read their data pointers: an unbound data_ptr,
        or None: each tensor's own; the signature's closure or None)."""
        for guard_kind, check, data_ptr, fast in self._guards:
            if guard_kind is kind:
                try:
                    if check(*values):
                        return data_ptr, fast
                except Exception:  # Not tensors, wrong length: a miss.
                    pass
        if self._checked:
            fast = self._signature_known(values, kind)
            if fast is not False:
                return None, fast
        return False

    def _signature_known(self, values, kind):
        """False where the Python signature of `values` did not pass the
        checks, else its closure (fastpath.launcher; None: none)."""
        try:
            return self._checked.get(self._signature(values, kind), False)
        except TypeError:  # Unhashable metadata: never cached.
            return False

    def _remember(self, values, kind):
        """Remembers the signature of `values`, which passed prepare(): as a
        PyTorch tensor guard where one can be built and holds for them
        (never for a tensor passed twice), else as a Python signature."""
        guard = None
        if TensorGuards is not None and values and all(
                isinstance(v, GUARDED_TYPES) for v in values):
            try:
                guard = TensorGuards(*values, dynamic_dims_sizes=None,
                                     dynamic_dims_strides=None)
                if guard.check(*values) is not True:
                    guard = None
            except Exception:  # Another PyTorch's guard API: Python below.
                guard = None
        if guard is not None:
            # The guard holds for these Python types only.
            data_ptr = None
            if all(type(v).data_ptr is _TENSOR_DATA_PTR for v in values):
                data_ptr = _TENSOR_DATA_PTR
            self._guards.insert(0, (kind, guard.check, data_ptr,
                                    self._launcher(values, kind, data_ptr)))
            del self._guards[GUARD_CACHE_SIZE:]
            return
        try:
            signature = self._signature(values, kind)
            hash(signature)
        except TypeError:  # Unhashable metadata: never cached.
            return
        if signature is None:
            return
        if len(self._checked) >= SIGNATURE_CACHE_SIZE:
            del self._checked[next(iter(self._checked))]
        self._checked[signature] = self._launcher(values, kind, None)

    def _launcher(self, values, kind, data_ptr):
        """The closure of the cached call of the signature of `values`
        (fastpath.launcher), or None where _fast_call makes it: a module
        without the packed launch (a stub, or closed), outputs allocated
        without templates."""
        if self._launch is None:
            return None
        batch = (values[self._batch_input].shape[0] if self.max_batch
                 else 0)
        templates = strided = None
        if kind is _NO_OUT:
            templates = self._recipes.get(batch)
            if not templates:
                return None
            strided = strided_recipe(self._output_specs[batch])
        return fastpath.launcher(self._launch, self._index, batch,
                                 self._arg_count, self._device_index,
                                 _STREAM_GETTER, data_ptr, templates,
                                 self._failed, strided,
                                 self._check_prepared
                                 if self._prepared_args else None)

    def _failed(self, status, values, out, stream, kwargs):
        """A closure's launch returned `status`: FuseccError, or for a
        rejected pointer what _rejected says (prepare()'s located error;
        _REJECTED for cached_call)."""
        try:
            self.module.launch_failed(status)
        except runtime_binding.FuseccError as error:
            if error.code != "INVALID_ARGUMENT":
                raise
            return self._rejected(values[:self._input_count], out, stream,
                                  kwargs, error)

    @staticmethod
    def _signature(values, kind):
        """What prepare()'s checks read of the tensors, save their data
        pointers: per tensor its type, shape, strides, dtype and device, and
        the kind of out= (None: outputs allocated). None when a value has
        none of those."""
        try:
            return tuple([(type(v), v.shape, v.stride(), v.dtype, v.device)
                          for v in values]), kind
        except (AttributeError, TypeError):
            return None

    def _fast_call(self, args, values, out, stream, kwargs, data_ptr):
        """A call whose signature passed prepare() before: reads the data
        pointers (with `data_ptr`, or each tensor's own) and launches with
        one foreign call, fusecc_module_launch_packed (the runtime checks
        the pointers' alignment and overlap). Where the runtime rejects
        them, prepare() reports which argument is wrong; with kwargs None
        (cached_call), _REJECTED is returned instead."""
        if stream is None:
            getter = _STREAM_GETTER
            handle = (getter(self._device_index) if getter is not None
                      else self._stream(stream))  # Raises without one.
        elif type(stream) is int:
            handle = stream
        else:
            handle = self._stream(stream)
        # The signature (shapes included) passed prepare(): its batch.
        batch = (values[self._batch_input].shape[0] if self.max_batch
                 else 0)
        if out is None:
            # Fresh outputs on the current stream, by empty_like of the
            # batch's templates (allocation_recipe); through _allocate for
            # a stream object or where there are none.
            recipe = self._recipes.get(batch)
            if recipe is not None and (stream is None or type(stream) is int):
                results = ((_EMPTY_LIKE(recipe[0]),) if len(recipe) == 1
                           else tuple(map(_EMPTY_LIKE, recipe)))
            else:
                results = tuple(self._allocate(stream, batch) if batch
                                else self._allocate(stream))
            values = args + results
        if self._prepared_args:
            self._check_prepared(values)
        pointers = (map(data_ptr, values) if data_ptr is not None
                    else [t.data_ptr() for t in values])
        launch = self._launch
        record = None
        if launch is not None:  # None: a stub module, or a closed one.
            try:
                # The record of fusecc_module_launch_packed
                # (FUSECC_PACKED_*).
                record = self._pack_record(launch[1], self._index, batch,
                                           handle, self._arg_count,
                                           *pointers)
            except struct.error:  # A stream handle no u64 holds.
                pointers = [t.data_ptr() for t in values]
        try:
            if record is not None:
                status = launch[0](record)
                if status:  # Raises, naming the call and the code.
                    self.module.launch_failed(status)
            elif batch:
                self.module.launch_pointers(self._index, self._pack(*pointers),
                                            self._arg_count, handle,
                                            batch=batch)
            else:
                self.module.launch_pointers(self._index, self._pack(*pointers),
                                            self._arg_count, handle)
        except runtime_binding.FuseccError as error:
            if error.code != "INVALID_ARGUMENT":
                raise
            return self._rejected(args, out, stream, kwargs, error)
        if out is not None:
            return out
        return results[0] if len(results) == 1 else results

    def _rejected(self, args, out, stream, kwargs, error):
        """A pointer the runtime rejected (misaligned, overlapping):
        _REJECTED for cached_call (kwargs None), else prepare()'s located
        error (or `error` should prepare() find none)."""
        if kwargs is None:
            return _REJECTED
        self.prepare(*args, out=out, stream=stream, **kwargs)
        raise error

    def _unbind(self):
        """The module was closed: its handle is never passed again (the
        closures hold it, so they go; the checks they skipped stay
        remembered)."""
        self._launch = None
        self._guards = [g[:3] + (None,) for g in self._guards]
        self._checked = dict.fromkeys(self._checked)


#: What _fast_call returns for cached_call when the runtime rejects a
#: pointer; the kind of out= of a call that allocates its outputs; what a
#: signature's closure returns for a call it leaves to _fast_call.
_REJECTED = object()
_NO_OUT = type(None)
_MISS = fastpath.MISS


class Module:
    """A loaded bundle: entries by attribute (module.decoder), by name
    (module["decoder"]), or module(...) when there is only one."""

    def __init__(self, path, lib=None, device=None, launch_graphs=None,
                 reuse_prepared=None):
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
            if reuse_prepared is None:
                reuse_prepared = os.environ.get("FUSECC_REUSE_PREPARED",
                                                "1") != "0"
            #: Whether the runtime keeps the prepare steps' results across
            #: calls (the entries then check their weights at each call).
            self.reuse_prepared = bool(reuse_prepared) and any(
                e.prepare_count for e in self.bundle.entries)
            if self.reuse_prepared:
                self.runtime.set_reuse_prepared(self._loaded.module, True)
        except BaseException:
            self._loaded.close()
            raise
        self._launch_pointers = self.runtime.lib.fusecc_module_launch_pointers
        self._launch_pointers_batch = \
            self.runtime.lib.fusecc_module_launch_pointers_batch
        self._launch_packed = self.runtime.launch_packed_untyped
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

    def launch_buffers(self, entry_index, buffer_array, stream, batch=0):
        """The unchecked launch (beyond the runtime's own size, alignment
        and overlap checks): `buffer_array` from fusecc.runtime.buffers,
        `stream` a CUstream handle, `batch` the launch-time batch of a
        dynamic-batch entry (0: static shapes)."""
        if not self._loaded.module:
            raise runtime_binding.FuseccError("%s: module is closed"
                                              % self.path)
        self._loaded.launch(entry_index, buffer_array, stream, batch)

    def launch_pointers(self, entry_index, pointers, count, stream, batch=0):
        """The unchecked launch of the fast path: `pointers` the `count`
        argument pointers packed as native u64s (bytes), sizes from the
        manifest (fusecc_module_launch_pointers: the runtime's size,
        alignment and overlap checks; binds the module's context when
        another one is current)."""
        module = self._loaded.module
        if batch:
            status = self._launch_pointers_batch(module, entry_index, batch,
                                                 pointers, count, stream)
        else:
            status = self._launch_pointers(module, entry_index, pointers,
                                           count, stream)
        if status:
            self.launch_failed(status, "fusecc_module_launch_pointers")

    def pointer_launch(self):
        """What the entries' cached path calls, bound once per entry:
        (fusecc_module_launch_packed, the module handle as an int), or None
        when the module is closed. The function takes the packed record
        (bytes) and returns a status handle, 0 or None when the launch was
        enqueued; launch_failed raises for the others. Module.close()
        unbinds it from the entries (a handle of a closed module is never
        packed)."""
        handle = self._loaded.module.value
        if not handle:
            return None
        return (self._launch_packed, handle)

    def launch_failed(self, status, what="fusecc_module_launch_packed"):
        """Raises FuseccError for the failed (non-NULL) status of the
        pointer launch `what`, and frees it."""
        if not self._loaded.module:
            self.runtime.lib.fusecc_status_free(status)
            raise runtime_binding.FuseccError("%s: module is closed"
                                              % self.path)
        self.runtime.check(status, what)

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

    def invalidate_prepared(self):
        """The next call of each entry runs its prepare steps (the weight
        re-layouts) again: for weights written in place behind PyTorch's
        version counter (through `.data`, DLPack); the entries see the
        other changes themselves."""
        if self._loaded.module:
            self.runtime.invalidate_prepared(self._loaded.module)

    def launch_stats(self):
        """The runtime's launch-path counters of this module (a dict:
        direct_calls, graph_calls, graph_builds, graph_updates,
        prepare_runs, prepare_reuses, ...)."""
        return self.runtime.launch_stats(self._loaded.module)

    def close(self):
        """Unloads the module (also when garbage collected)."""
        for entry in self.__dict__.get("_entries", {}).values():
            entry._unbind()  # Module.launch_pointers says "closed".
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


def load(path, lib=None, device=None, launch_graphs=None,
         reuse_prepared=None):
    """Loads the bundle at `path` into the CUDA context of `device` (default:
    PyTorch's current device) through libfusecc_runtime.so (`lib`, default:
    fusecc.runtime.find_library()). `launch_graphs`: True or False turns
    the runtime's CUDA-graph launch path on or off (None: the runtime's
    default, on unless FUSECC_LAUNCH_GRAPHS=0). `reuse_prepared`: whether
    the runtime keeps the weight re-layouts (prepare steps) across calls
    while the weights are unchanged (None: yes unless
    FUSECC_REUSE_PREPARED=0)."""
    return Module(path, lib=lib, device=device, launch_graphs=launch_graphs,
                  reuse_prepared=reuse_prepared)
