# ===- fusecc/callcache.py - The cached path of an entry's calls -------=== #
#
# After a call passed its checks (fusecc/entry.py), the arguments'
# signature (type, shape, strides, dtype, device of each tensor) is
# remembered: a later positional call with the same signature only reads
# the data pointers and launches with one foreign call
# (fusecc_module_launch_packed, which checks their alignment and overlap; a
# failure there goes back through the checks for a located error), made by
# one closure per signature (fusecc/fastpath.py). With PyTorch, the
# signature is compared in C++ by PyTorch's own tensor guard
# (torch._C._dynamo.guards.TensorGuards, what torch.compile's guards use)
# where it exists, else in Python.
#
# ===--------------------------------------------------------------------=== #

import struct

from . import fastpath
from .allocation import EMPTY_LIKE as _EMPTY_LIKE, strided_recipe
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


#: What _fast_call returns for cached_call when the runtime rejects a
#: pointer; the kind of out= of a call that allocates its outputs; what a
#: signature's closure returns for a call it leaves to _fast_call.
_REJECTED = object()
_NO_OUT = type(None)
_MISS = fastpath.MISS


class CallCache:
    """The cached path of EntryFunction (a mixin: the entry's checked path,
    prepare() and _allocate(), and its fields are the entry's)."""

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
