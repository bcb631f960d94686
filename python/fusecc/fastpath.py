# ===- fusecc/fastpath.py - The cached entry call as one closure --------=== #
#
# After an entry call passed the argument checks, its signature is
# remembered (callcache.py, CallCache._remember: a PyTorch tensor guard or
# a Python signature). What a later call of that signature does is then
# fixed but for the data pointers and the stream: read the pointers, pack
# them behind the record's leading words (FUSECC_PACKED_* of runtime.h) and
# make one foreign call, fusecc_module_launch_packed. launcher() builds that
# once per remembered signature as a closure, everything it needs bound in
# its cells (the module handle, entry index, batch, argument count, the
# allocation templates of the outputs, the stream getter), so that a call
# makes no attribute or dict lookup of its own: on the H200 the Python
# around the guard, the pointers and the launch was ~1.6 us of the 8 us
# call (docs/perf.md sections 183, 197, 213).
#
# What the closure leaves to CallCache._fast_call (it returns MISS): a
# stream that is neither None nor an int (a torch.cuda.Stream allocates
# under torch.cuda.stream), and a stream handle no u64 holds. A status the
# runtime returns goes to the entry's `failed` (a located error for a
# rejected pointer, as before).
#
# ===--------------------------------------------------------------------=== #

import operator
import struct

from . import allocation

#: FUSECC_PACKED_POINTERS of runtime.h: the words of a packed launch record
#: before the argument pointers (module, entry, batch, stream, count).
PACKED_POINTERS = 5
#: What a closure returns when the call is not its to make.
MISS = object()
#: Each tensor's own data_ptr (tensor types whose method is not PyTorch's).
OWN_DATA_PTR = operator.methodcaller("data_ptr")


def record_packer(arg_count):
    """struct.pack of a launch record of `arg_count` pointers."""
    return struct.Struct("@%dQ" % (PACKED_POINTERS + arg_count)).pack


def launcher(launch, index, batch, arg_count, device_index, getter,
             data_ptr, templates, failed, strided=None, before=None):
    """The cached call of one remembered signature as a closure
    fast(values, out, stream, kwargs): `values` the inputs then the outputs
    given (the inputs alone when `templates` is not None: the outputs are
    allocated, one empty_like per template), `stream` None (PyTorch's
    current stream of `device_index`, through `getter`) or a CUstream
    handle (int). It returns what the entry call returns, MISS for a call
    it does not make (nothing launched), or what failed(status, values,
    out, stream, kwargs) returns for a status the runtime returned.

    `launch`: (fusecc_module_launch_packed, the module handle), bound once
    (Module.pointer_launch); `index`, `batch`, `arg_count`: the record's
    words; `data_ptr`: how pointers are read (an unbound data_ptr, or None:
    each tensor's own); `strided`: the outputs' allocation.strided_recipe
    (None: empty_like of the templates always), used while the current
    device is `device_index`; `before`: called with `values` before each
    launch (fusecc.entry.EntryFunction._check_prepared; None: nothing)."""
    function, module_handle = launch
    pack = record_packer(arg_count)
    read = data_ptr if data_ptr is not None else OWN_DATA_PTR
    int_type = int

    if templates is None:
        def fast(values, out, stream, kwargs):
            if stream is None:
                handle = getter(device_index)
            elif type(stream) is int_type:
                handle = stream
            else:
                return MISS
            if before is not None:
                before(values)
            try:
                record = pack(module_handle, index, batch, handle, arg_count,
                              *map(read, values))
            except struct.error:  # A stream handle no u64 holds.
                return MISS
            status = function(record)
            if status:
                return failed(status, values, out, stream, kwargs)
            return out
        return fast

    empty_like = allocation.EMPTY_LIKE
    empty_strided = allocation.EMPTY_STRIDED_CUDA
    current_device = allocation.CURRENT_DEVICE
    if strided is None or empty_strided is None or current_device is None:
        strided = None
    if len(templates) == 1:
        template, = templates
        if strided is not None:
            (shape, strides, dtype), = strided

        def fast_one(values, out, stream, kwargs):
            if stream is None:
                handle = getter(device_index)
            elif type(stream) is int_type:
                handle = stream
            else:
                return MISS
            if strided is not None and current_device() == device_index:
                result = empty_strided(shape, strides, dtype)
            else:
                result = empty_like(template)
            if before is not None:
                before(values)
            try:
                record = pack(module_handle, index, batch, handle, arg_count,
                              *map(read, values), read(result))
            except struct.error:  # A stream handle no u64 holds.
                return MISS
            status = function(record)
            if status:
                return failed(status, values, out, stream, kwargs)
            return result
        return fast_one

    def fast_many(values, out, stream, kwargs):
        if stream is None:
            handle = getter(device_index)
        elif type(stream) is int_type:
            handle = stream
        else:
            return MISS
        if strided is not None and current_device() == device_index:
            results = tuple([empty_strided(*spec) for spec in strided])
        else:
            results = tuple(map(empty_like, templates))
        if before is not None:
            before(values)
        try:
            record = pack(module_handle, index, batch, handle, arg_count,
                          *map(read, values), *map(read, results))
        except struct.error:  # A stream handle no u64 holds.
            return MISS
        status = function(record)
        if status:
            return failed(status, values, out, stream, kwargs)
        return results
    return fast_many
