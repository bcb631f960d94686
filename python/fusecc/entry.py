# ===- fusecc/entry.py - One bundle entry as a callable ----------------=== #
#
# EntryFunction: one entry of a loaded bundle (fusecc.module.Module),
# callable as f(*inputs, out=None, stream=None, **named_inputs). The checked
# path lives here: arguments bound by position and name, checked (shape,
# dtype, device, contiguity, 16-byte alignment, outputs aliasing nothing:
# fusecc/arguments.py) with errors naming the argument and what was
# expected, outputs allocated or passed with out=, and the launch enqueued
# on PyTorch's current stream without host synchronisation. A call whose
# arguments' signature passed the checks before takes the cached path of
# fusecc/callcache.py; the inputs of the prepare steps are keyed by
# fusecc/prepared.py.
#
# ===--------------------------------------------------------------------=== #

import struct

from .allocation import allocation_recipe
from .arguments import (ArgumentError, as_tensor, check_aliasing,
                        check_tensor, torch_dtype)
from .callcache import (_MISS, _PACKED_POINTERS, _STREAM_GETTER,
                        SIGNATURE_CACHE_SIZE, CallCache,
                        _current_stream_handle)
from .prepared import PreparedInputs
from . import runtime as runtime_binding

try:
    import torch
except ImportError:  # The package works without PyTorch (metadata, tests).
    torch = None

class EntryFunction(CallCache):
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
        # reuses prepared workspaces (else none, as under frozen weights,
        # which no call checks), and their last key.
        self._prepared_args = (
            tuple(getattr(entry, "prepared_args", ()))
            if getattr(module, "reuse_prepared", False) and
            not getattr(module, "frozen_weights", False) else ())
        self._prepared = PreparedInputs(self._prepared_args)
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
        """Invalidates the module's prepared workspaces unless the inputs
        the entry's prepare steps read (`values`: the inputs first) are the
        last call's (fusecc.prepared.PreparedInputs)."""
        if not self._prepared.current(values):
            self.module.invalidate_prepared()

