# ===- fusecc/runtime.py - ctypes binding of libfusecc_runtime.so -------=== #
#
# The part of the C API (runtime/include/fusecc/runtime.h) the package needs:
# status handling, loading a bundle file, loading its module into the
# current CUDA context and launching an entry on a stream. Metadata comes
# from the pure-Python reader (fusecc.bundle), so no C struct other than
# fusecc_buffer_t is mirrored here.
#
# ===--------------------------------------------------------------------=== #

import ctypes
import ctypes.util
import os

LIBRARY_NAME = "libfusecc_runtime.so"
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_REPO_DIR = os.path.dirname(os.path.dirname(_PACKAGE_DIR))
# Where an installed package (python/setup.py) holds the library.
PACKAGED_LIBRARY = os.path.join(_PACKAGE_DIR, "lib", LIBRARY_NAME)


class FuseccError(RuntimeError):
    """A non-OK fusecc_status_t: `code` is its name ("PARSE_ERROR")."""

    def __init__(self, message, code=None):
        super().__init__(message)
        self.code = code


class RuntimeLibraryError(FuseccError):
    """libfusecc_runtime.so could not be found or loaded."""


class Buffer(ctypes.Structure):
    """fusecc_buffer_t: a device pointer and its size in bytes."""

    _fields_ = [("ptr", ctypes.c_uint64), ("size_bytes", ctypes.c_size_t)]


class LaunchStats(ctypes.Structure):
    """fusecc_launch_stats_t: the launch-path counters of a module."""

    _fields_ = [(name, ctypes.c_uint64) for name in (
        "direct_calls", "graph_calls", "graph_builds", "graph_updates",
        "graph_evictions", "graph_build_failures", "live_graphs",
        "prepare_runs", "prepare_reuses", "frozen_prepare_runs",
        "frozen_calls", "frozen_misses")]

    def as_dict(self):
        return {name: getattr(self, name) for name, _ in self._fields_}


def buffers(pairs):
    """A ctypes array of Buffer from (pointer, byte size) pairs."""
    pairs = list(pairs)
    array = (Buffer * len(pairs))()
    for i, (ptr, size) in enumerate(pairs):
        array[i].ptr = ptr
        array[i].size_bytes = size
    return array


def library_candidates():
    """Where find_library looks, in order (after an explicit path)."""
    candidates = []
    env = os.environ.get("FUSECC_RUNTIME_LIBRARY")
    if env:
        candidates.append(env)
    candidates.append(PACKAGED_LIBRARY)
    for build in ("build/runtime", "build-rt", "build"):
        candidates.append(os.path.join(_REPO_DIR, build, LIBRARY_NAME))
    return candidates


def find_library(lib=None):
    """The path of libfusecc_runtime.so: `lib` when given, else
    $FUSECC_RUNTIME_LIBRARY, the installed package's (fusecc/lib/), the
    repository's build directories (build/runtime, build-rt, build), then
    the system's library path. RuntimeLibraryError naming what was tried
    otherwise."""
    if lib is not None:
        lib = os.fspath(lib)
        if not os.path.exists(lib):
            raise RuntimeLibraryError("fusecc runtime library '%s' does not "
                                      "exist" % lib)
        return lib
    candidates = library_candidates()
    env = os.environ.get("FUSECC_RUNTIME_LIBRARY")
    if env and not os.path.exists(env):
        raise RuntimeLibraryError("FUSECC_RUNTIME_LIBRARY='%s' does not exist"
                                  % env)
    for path in candidates:
        if os.path.exists(path):
            return path
    system = ctypes.util.find_library("fusecc_runtime")
    if system:
        return system
    raise RuntimeLibraryError(
        "cannot find %s (tried %s and the system library path); build it "
        "with `cmake -S runtime -B build-rt && cmake --build build-rt` and "
        "set FUSECC_RUNTIME_LIBRARY, or pass lib=" % (
            LIBRARY_NAME, ", ".join(candidates)))


class Runtime:
    """The loaded runtime library with typed entry points. One per path."""

    _instances = {}

    @classmethod
    def get(cls, lib=None):
        path = os.path.realpath(find_library(lib))
        if path not in cls._instances:
            cls._instances[path] = cls(path)
        return cls._instances[path]

    def __init__(self, path):
        self.path = path
        try:
            self.lib = ctypes.CDLL(path)
        except OSError as error:
            raise RuntimeLibraryError("cannot load fusecc runtime '%s': %s"
                                      % (path, error)) from None
        status = ctypes.c_void_p
        size = ctypes.c_size_t
        handle = ctypes.c_void_p
        signatures = {
            "fusecc_status_code": (ctypes.c_int, [status]),
            "fusecc_status_message": (ctypes.c_char_p, [status]),
            "fusecc_status_free": (None, [status]),
            "fusecc_status_code_name": (ctypes.c_char_p, [ctypes.c_int]),
            "fusecc_bundle_load_file": (
                status, [ctypes.c_char_p, ctypes.POINTER(handle)]),
            "fusecc_bundle_release": (None, [handle]),
            "fusecc_bundle_entry_count": (size, [handle]),
            "fusecc_bundle_find_entry": (
                status, [handle, ctypes.c_char_p, ctypes.POINTER(size)]),
            "fusecc_module_load": (status, [handle, ctypes.POINTER(handle)]),
            "fusecc_module_release": (None, [handle]),
            "fusecc_module_context": (ctypes.c_void_p, [handle]),
            "fusecc_module_launch": (
                status, [handle, size, ctypes.POINTER(Buffer), size,
                         ctypes.c_void_p]),
            # The pointer array as a bytes object (native u64s): no ctypes
            # array to build per call.
            "fusecc_module_launch_pointers": (
                status, [handle, size, ctypes.c_char_p, size,
                         ctypes.c_void_p]),
            # A dynamic-batch entry (bundle version 4): the batch first.
            "fusecc_module_launch_batch": (
                status, [handle, size, size, ctypes.POINTER(Buffer), size,
                         ctypes.c_void_p]),
            "fusecc_module_launch_pointers_batch": (
                status, [handle, size, size, ctypes.c_char_p, size,
                         ctypes.c_void_p]),
            # Every argument in one record of native u64s (bytes): one
            # argument to convert per call (the entries' cached path).
            "fusecc_module_launch_packed": (status, [ctypes.c_char_p]),
            "fusecc_module_set_launch_graphs": (status, [handle,
                                                         ctypes.c_int]),
            "fusecc_module_launch_stats": (
                status, [handle, ctypes.POINTER(LaunchStats)]),
            "fusecc_module_set_reuse_prepared": (status, [handle,
                                                          ctypes.c_int]),
            "fusecc_module_invalidate_prepared": (status, [handle]),
            "fusecc_module_set_frozen_weights": (status, [handle,
                                                          ctypes.c_int]),
        }
        for name, (restype, argtypes) in signatures.items():
            try:
                function = getattr(self.lib, name)
            except AttributeError:
                raise RuntimeLibraryError("%s lacks %s (an older runtime?)"
                                          % (path, name)) from None
            function.restype = restype
            function.argtypes = argtypes
        # fusecc_module_launch_packed once more, without argtypes: the
        # record (bytes) goes as a char * with no conversion call, ~20-40
        # ns less per call than through the typed one (the cached entry
        # call's launch; docs/perf.md section 213).
        self.launch_packed_untyped = self.lib["fusecc_module_launch_packed"]
        self.launch_packed_untyped.restype = status

    def check(self, status, what):
        """Raises FuseccError for a non-NULL status (and frees it)."""
        if not status:
            return
        lib = self.lib
        code = lib.fusecc_status_code_name(
            lib.fusecc_status_code(status)).decode()
        message = lib.fusecc_status_message(status).decode(errors="replace")
        lib.fusecc_status_free(status)
        raise FuseccError("%s: %s: %s" % (what, code, message), code)

    def load_bundle(self, path):
        """A new bundle handle (c_void_p) for the file at `path`."""
        handle = ctypes.c_void_p()
        self.check(self.lib.fusecc_bundle_load_file(
            os.fsencode(path), ctypes.byref(handle)), "fusecc_bundle_load_file")
        return handle

    def entry_names_match(self, handle, names):
        """Whether the runtime sees exactly these entries, in this order."""
        if self.lib.fusecc_bundle_entry_count(handle) != len(names):
            return False
        for i, name in enumerate(names):
            index = ctypes.c_size_t()
            status = self.lib.fusecc_bundle_find_entry(
                handle, name.encode(), ctypes.byref(index))
            if status:
                self.lib.fusecc_status_free(status)
                return False
            if index.value != i:
                return False
        return True

    def load_module(self, bundle_handle):
        """Loads the bundle's PTX (and constants) into the current CUDA
        context; a new module handle."""
        module = ctypes.c_void_p()
        self.check(self.lib.fusecc_module_load(bundle_handle,
                                               ctypes.byref(module)),
                   "fusecc_module_load")
        return module

    def set_launch_graphs(self, module, enabled):
        """Turns the module's CUDA-graph launch path on or off."""
        self.check(self.lib.fusecc_module_set_launch_graphs(
            module, 1 if enabled else 0), "fusecc_module_set_launch_graphs")

    def set_reuse_prepared(self, module, enabled):
        """Lets the module's graph path skip an entry's prepare steps while
        the weights they read are unchanged (invalidate_prepared after an
        in-place write of one)."""
        self.check(self.lib.fusecc_module_set_reuse_prepared(
            module, 1 if enabled else 0), "fusecc_module_set_reuse_prepared")

    def set_frozen_weights(self, module, enabled):
        """Turns the module's frozen weights on or off (the prepare steps
        run once, every later call skips them: captures included)."""
        self.check(self.lib.fusecc_module_set_frozen_weights(
            module, 1 if enabled else 0), "fusecc_module_set_frozen_weights")

    def invalidate_prepared(self, module):
        """The next call of each entry of the module runs its prepare steps
        again."""
        self.check(self.lib.fusecc_module_invalidate_prepared(module),
                   "fusecc_module_invalidate_prepared")

    def launch_stats(self, module):
        """The module's launch-path counters as a dict."""
        stats = LaunchStats()
        self.check(self.lib.fusecc_module_launch_stats(
            module, ctypes.byref(stats)), "fusecc_module_launch_stats")
        return stats.as_dict()

    def launch(self, module, entry_index, buffer_array, stream, batch=0):
        """Enqueues entry `entry_index` on `stream` (a CUstream as an int),
        at `batch` for a dynamic-batch entry (0: static shapes)."""
        if batch:
            self.check(self.lib.fusecc_module_launch_batch(
                module, entry_index, batch, buffer_array, len(buffer_array),
                ctypes.c_void_p(stream)), "fusecc_module_launch_batch")
            return
        self.check(self.lib.fusecc_module_launch(
            module, entry_index, buffer_array, len(buffer_array),
            ctypes.c_void_p(stream)), "fusecc_module_launch")


class Driver:
    """The few CUDA driver calls the package makes itself (binding the
    module's context around a launch from a thread where it is not
    current). Loads the same library the runtime does."""

    _instances = {}

    @classmethod
    def get(cls, path=None):
        """The driver at `path` (default: $FUSECC_CUDA_DRIVER_LIBRARY or
        libcuda.so.1, as the runtime does); None if it cannot be loaded."""
        if path is None:
            path = os.environ.get("FUSECC_CUDA_DRIVER_LIBRARY",
                                  "libcuda.so.1")
        if path not in cls._instances:
            try:
                cls._instances[path] = cls(path)
            except (OSError, AttributeError):
                cls._instances[path] = None  # The runtime reports it.
        return cls._instances[path]

    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        pointer = ctypes.POINTER(ctypes.c_void_p)
        for name, argtypes in (("cuCtxGetCurrent", [pointer]),
                               ("cuCtxPushCurrent", [ctypes.c_void_p]),
                               ("cuCtxPopCurrent", [pointer])):
            function = getattr(self.lib, name)
            function.restype = ctypes.c_int
            function.argtypes = argtypes

    def current_context(self):
        context = ctypes.c_void_p()
        result = self.lib.cuCtxGetCurrent(ctypes.byref(context))
        if result != 0:
            raise FuseccError("cuCtxGetCurrent failed with CUresult %d"
                              % result)
        return context.value

    def push(self, context):
        result = self.lib.cuCtxPushCurrent(ctypes.c_void_p(context))
        if result != 0:
            raise FuseccError("cuCtxPushCurrent failed with CUresult %d"
                              % result)

    def pop(self):
        context = ctypes.c_void_p()
        self.lib.cuCtxPopCurrent(ctypes.byref(context))


class LoadedBundle:
    """A bundle handle in the runtime and, once load() ran, its module."""

    def __init__(self, runtime, path):
        self.runtime = runtime
        self.path = path
        self.handle = runtime.load_bundle(path)
        self.module = ctypes.c_void_p()
        self.context = None
        self.driver = None

    def load(self):
        self.module = self.runtime.load_module(self.handle)
        self.context = self.runtime.lib.fusecc_module_context(self.module)
        # The driver the runtime loaded: it reads the same variable.
        self.driver = Driver.get() if self.context else None

    def launch(self, entry_index, buffer_array, stream, batch=0):
        """fusecc_module_launch with the module's context made current
        for the call when another one (or none) is current."""
        driver = self.driver
        if driver is not None and driver.current_context() != self.context:
            driver.push(self.context)
            try:
                self.runtime.launch(self.module, entry_index, buffer_array,
                                    stream, batch)
            finally:
                driver.pop()
            return
        self.runtime.launch(self.module, entry_index, buffer_array, stream,
                            batch)

    def close(self):
        lib = self.runtime.lib
        if self.module:
            lib.fusecc_module_release(self.module)
            self.module = ctypes.c_void_p()
        if self.handle:
            lib.fusecc_bundle_release(self.handle)
            self.handle = ctypes.c_void_p()
