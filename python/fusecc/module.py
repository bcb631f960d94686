# ===- fusecc/module.py - Bundles as callables on PyTorch tensors -------=== #
#
# fusecc.load(path) -> Module: each entry of the bundle is a callable on
# CUDA tensors (fusecc.entry.EntryFunction: the argument checks, outputs
# allocated or passed with out=, the launch enqueued on PyTorch's current
# stream without host synchronisation, so calls can be captured into CUDA
# graphs; the cached path of repeated calls: fusecc/callcache.py).
#
# The checks only use a tensor's shape, dtype, device, stride() and
# data_ptr(), so they run (and are tested) without PyTorch on any object
# that has those; other frameworks' tensors come in through DLPack.
#
# Prepare steps (the weight re-layouts of wgmma kernels, docs/bundle.md):
# the module lets the runtime keep their results across calls
# (fusecc_module_set_reuse_prepared; reuse_prepared=False or
# FUSECC_REUSE_PREPARED=0 turns it off), and every call first checks that
# the inputs they read are unchanged (fusecc/prepared.py); a change
# invalidates the prepared workspaces, so the next launch re-packs. Writes
# that bypass PyTorch's version counter (through `.data`, or by another
# framework through DLPack) need Module.invalidate_prepared().
#
# Frozen weights (frozen_weights=True, fusecc_module_set_frozen_weights):
# the weights are declared constant after the first call. The runtime keeps
# the prepare steps' results in workspaces of the module, and no later call
# runs them or checks the weights, a call captured into the caller's CUDA
# graph included (whose replays then run without them). Writing weights in
# place is then the caller's to announce: Module.refresh().
#
# ===--------------------------------------------------------------------=== #

import os

from . import bundle as bundle_format
from .options import load_options
# The argument checks (fusecc.arguments) and the entries' names,
# re-exported: fusecc.module's names.
from .arguments import (  # noqa: F401
    ALIGNMENT, TORCH_DTYPE_NAMES, ArgumentError, as_tensor, check_aliasing,
    check_tensor, dtype_name, is_contiguous, torch_dtype)
from .callcache import (  # noqa: F401
    GUARD_CACHE_SIZE, SIGNATURE_CACHE_SIZE, TensorGuards)
from .entry import EntryFunction
from . import runtime as runtime_binding

try:
    import torch
except ImportError:  # The package works without PyTorch (metadata, tests).
    torch = None


class Module:
    """A loaded bundle: entries by attribute (module.decoder), by name
    (module["decoder"]), or module(...) when there is only one."""

    def __init__(self, path, lib=None, device=None, **options):
        options = load_options(options)
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
            if options["launch_graphs"] is not None:
                self.set_launch_graphs(options["launch_graphs"])
            reuse_prepared = options["reuse_prepared"]
            if reuse_prepared is None:
                reuse_prepared = os.environ.get("FUSECC_REUSE_PREPARED",
                                                "1") != "0"
            #: Whether the runtime keeps the prepare steps' results across
            #: calls (the entries then check their weights at each call).
            self.reuse_prepared = bool(reuse_prepared) and any(
                e.prepare_count for e in self.bundle.entries)
            if self.reuse_prepared:
                self.runtime.set_reuse_prepared(self._loaded.module, True)
            #: Whether the weights are frozen (see the file comment): the
            #: entries then check none of them.
            self.frozen_weights = bool(options["frozen_weights"]) and any(
                e.prepare_count for e in self.bundle.entries)
            if self.frozen_weights:
                self.runtime.set_frozen_weights(self._loaded.module, True)
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

    def refresh(self):
        """Frozen weights: the next call of each entry prepares again from
        the weights' values then (call it after writing weights in place:
        an optimizer step, copy_, load_state_dict), while no call of the
        old values is in flight on another stream. A CUDA graph captured
        before reads the refreshed values at its next replay. Without
        frozen weights, invalidate_prepared."""
        self.invalidate_prepared()

    def launch_stats(self):
        """The runtime's launch-path counters of this module (a dict:
        direct_calls, graph_calls, graph_builds, graph_updates,
        prepare_runs, prepare_reuses, frozen_prepare_runs, frozen_calls,
        frozen_misses, ...)."""
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


def load(path, lib=None, device=None, **options):
    """Loads the bundle at `path` into the CUDA context of `device` (default:
    PyTorch's current device) through libfusecc_runtime.so (`lib`, default:
    fusecc.runtime.find_library()). `options`: the load options of
    fusecc.options.LOAD_OPTIONS: launch_graphs (True or False turns the
    runtime's CUDA-graph launch path on or off; None: the runtime's
    default, on unless FUSECC_LAUNCH_GRAPHS=0), reuse_prepared (whether
    the runtime keeps the weight re-layouts (prepare steps) across calls
    while the weights are unchanged; None: yes unless
    FUSECC_REUSE_PREPARED=0), frozen_weights (the weights are constant from
    the first call on: the prepare steps run once, no call checks the
    weights, captured calls included; Module.refresh() after writing them
    in place)."""
    return Module(path, lib=lib, device=device, **options)
