/*===- module.c - Loading and launching bundle PTX ----------------*- C -*-===//
 *
 * fusecc_module_t: a bundle's PTX JIT-compiled into a CUDA context with every
 * launch record's kernel resolved and its constants uploaded, and the launch
 * path that enqueues an entry's steps (kernel launches, workspace zeroing) on
 * a caller's stream.
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Size of the JIT error log captured by cuModuleLoadDataEx.
#define FUSECC_JIT_LOG_SIZE 8192

struct fusecc_module_s {
  int ref_count;
  fusecc_bundle_t bundle;
  const fusecc_driver_t *driver;
  CUcontext context;
  /// Whether the primary context of `device` was retained by the load.
  int retained_primary;
  CUdevice device;
  CUmodule module;
  /// Per entry, the index of its first launch in `functions`.
  size_t *launch_offsets;
  /// One resolved kernel per launch record, entries in order.
  CUfunction *functions;
  /// Pool of the entries' workspaces (NULL when no entry has one or the
  /// driver has no memory pools: then the device's default pool is used).
  CUmemoryPool pool;
  /// One device buffer per module-level constant (format version 3), 0 for
  /// those not (yet) allocated.
  CUdeviceptr *consts;
  /// FUSECC_SANITIZE_BLOCK_LIMIT at load (0: unset): launches run at most
  /// about this many blocks (see trim_grid).
  unsigned long long sanitize_block_limit;
  /// Executable graphs of multi-step entries (launch_graph.c); NULL when the
  /// driver lacks the graph entry points.
  fusecc_graph_cache_t *graphs;
  /// Whether launches use `graphs` (fusecc_module_set_launch_graphs).
  int launch_graphs;
  /// Calls enqueued step by step (fusecc_launch_stats_t.direct_calls).
  uint64_t direct_calls;
  /// Whether the graph path may skip prepare steps
  /// (fusecc_module_set_reuse_prepared), and how many times the prepared
  /// workspaces were invalidated (fusecc_module_invalidate_prepared).
  int reuse_prepared;
  uint64_t prepare_generation;
  /// Frozen weights (launch_frozen.c): whether they are on
  /// (fusecc_module_set_frozen_weights), and the store of their workspaces.
  int frozen_weights;
  fusecc_frozen_t *frozen;
};

/// Reads FUSECC_SANITIZE_BLOCK_LIMIT. compute-sanitizer's racecheck tracks
/// every shared-memory access, so a full-size layer of 10^5 blocks takes
/// hours; its hazards are within one block, so the first blocks of each
/// launch (which include whole images, with their edge tiles, when the
/// limit exceeds the blocks per image) exercise the same code. Results are
/// then incomplete: the variable is for sanitizer runs only, and the load
/// says so on stderr.
static fusecc_status_t read_sanitize_block_limit(fusecc_module_t module) {
  const char *text = getenv("FUSECC_SANITIZE_BLOCK_LIMIT");
  if (!text || !*text)
    return NULL;
  char *end = NULL;
  unsigned long long limit = strtoull(text, &end, 10);
  if (*end || limit < 8 || text[0] == '-')
    return fusecc_make_status(
        FUSECC_STATUS_INVALID_ARGUMENT,
        "FUSECC_SANITIZE_BLOCK_LIMIT must be an integer of at least 8, got "
        "'%s'",
        text);
  module->sanitize_block_limit = limit;
  fprintf(stderr,
          "fusecc: FUSECC_SANITIZE_BLOCK_LIMIT=%llu: every launch runs at "
          "most that many blocks; results are incomplete (for sanitizer runs "
          "only)\n",
          limit);
  return NULL;
}

/// The grid of a launch under a block limit: x cut to a multiple of 8
/// (cluster sizes divide it) and at least 8 so that y x z x x' <= limit
/// where y x z allows; y and z are kept.
void fusecc_trim_grid(unsigned long long limit, const uint32_t grid[3],
                      uint32_t out[3]) {
  out[0] = grid[0], out[1] = grid[1], out[2] = grid[2];
  if (!limit)
    return;
  unsigned long long yz = (unsigned long long)grid[1] * grid[2];
  if (yz == 0 || grid[0] <= limit / yz)
    return;
  unsigned long long x = limit / yz / 8 * 8;
  if (x < 8)
    x = 8;
  if (x < out[0])
    out[0] = (uint32_t)x;
}

/// Unloads and frees a (possibly partially loaded) module.
static void module_free(fusecc_module_t module) {
  const fusecc_driver_t *driver = module->driver;
  int any_const = 0;
  for (size_t k = 0; module->consts && k < module->bundle->const_count; ++k)
    any_const |= module->consts[k] != 0;
  if (module->module || any_const || module->graphs || module->frozen) {
    CUcontext popped;
    int pushed = driver->cuCtxPushCurrent(module->context) == CUDA_SUCCESS;
    // Graphs first: their kernel nodes refer to the module's kernels.
    fusecc_graph_cache_destroy(module->graphs);
    // Then the frozen workspaces the graphs borrowed.
    fusecc_frozen_destroy(module->frozen);
    if (module->module)
      driver->cuModuleUnload(module->module);
    // Release cannot report errors; a failing free leaks the buffer.
    for (size_t k = 0; any_const && k < module->bundle->const_count; ++k)
      if (module->consts[k])
        driver->cuMemFree(module->consts[k]);
    if (pushed)
      driver->cuCtxPopCurrent(&popped);
  }
  // Outstanding stream-ordered frees complete first; the driver releases
  // the pool's memory when they have.
  if (module->pool)
    driver->cuMemPoolDestroy(module->pool);
  if (module->retained_primary)
    driver->cuDevicePrimaryCtxRelease(module->device);
  fusecc_bundle_release(module->bundle);
  free(module->launch_offsets);
  free(module->functions);
  free(module->consts);
  free(module);
}

/// Creates the module's graph cache when the driver has graphs, and turns
/// the graph launch path on unless FUSECC_LAUNCH_GRAPHS is "0".
static fusecc_status_t create_graph_cache(fusecc_module_t module) {
  if (!fusecc_driver_has_graphs(module->driver))
    return NULL;
  module->graphs = fusecc_graph_cache_create(module->driver, module->context);
  if (!module->graphs)
    return fusecc_make_status(FUSECC_STATUS_RESOURCE_EXHAUSTED,
                              "out of memory loading a module");
  const char *text = getenv("FUSECC_LAUNCH_GRAPHS");
  module->launch_graphs = !(text && strcmp(text, "0") == 0);
  return NULL;
}

/// Binds `module` to the current context, or to the primary context of
/// device 0 made current when there is none.
static fusecc_status_t acquire_context(fusecc_module_t module) {
  const fusecc_driver_t *driver = module->driver;
  fusecc_status_t status = fusecc_cuda_status(
      driver, driver->cuCtxGetCurrent(&module->context), "cuCtxGetCurrent");
  if (status || module->context)
    return status;
  if ((status = fusecc_cuda_status(
           driver, driver->cuDeviceGet(&module->device, 0), "cuDeviceGet(0)")))
    return status;
  if ((status = fusecc_cuda_status(
           driver,
           driver->cuDevicePrimaryCtxRetain(&module->context, module->device),
           "cuDevicePrimaryCtxRetain")))
    return status;
  module->retained_primary = 1;
  return fusecc_cuda_status(driver, driver->cuCtxSetCurrent(module->context),
                            "cuCtxSetCurrent");
}

/// JIT-compiles the bundle's PTX; failures carry the JIT error log.
static fusecc_status_t load_ptx(fusecc_module_t module) {
  const fusecc_driver_t *driver = module->driver;
  char log[FUSECC_JIT_LOG_SIZE];
  log[0] = '\0';
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, (void *)(uintptr_t)sizeof(log)};
  CUresult result = driver->cuModuleLoadDataEx(
      &module->module, module->bundle->ptx, 2, options, values);
  if (result == CUDA_SUCCESS)
    return NULL;
  module->module = NULL;
  log[sizeof(log) - 1] = '\0';
  fusecc_status_t cuda_status =
      fusecc_cuda_status(driver, result, "cuModuleLoadDataEx");
  fusecc_status_t status = fusecc_make_status(
      FUSECC_STATUS_CUDA_ERROR, "loading PTX for %s: %s%s%s",
      module->bundle->chip, fusecc_status_message(cuda_status),
      log[0] ? "\nPTX JIT log:\n" : "", log);
  fusecc_status_free(cuda_status);
  return status;
}

/// One launch's kernel, its position among all launches, its smem bytes.
typedef struct kernel_use_s {
  uintptr_t kernel;
  size_t first;
  uint32_t smem;
} kernel_use_t;

/// Orders kernel uses by kernel, then by position.
static int compare_kernel_use(const void *a, const void *b) {
  const kernel_use_t *x = a, *y = b;
  if (x->kernel != y->kernel)
    return x->kernel < y->kernel ? -1 : 1;
  return x->first < y->first ? -1 : x->first > y->first;
}

/// Orders kernel uses by position.
static int compare_first_use(const void *a, const void *b) {
  const kernel_use_t *x = a, *y = b;
  return x->first < y->first ? -1 : x->first > y->first;
}

/// Resolves every launch's kernel and raises dynamic shared memory limits to
/// the largest request of each kernel.
static fusecc_status_t resolve_kernels(fusecc_module_t module) {
  const fusecc_driver_t *driver = module->driver;
  fusecc_bundle_t bundle = module->bundle;
  size_t total = 0;
  for (size_t e = 0; e < bundle->entry_count; ++e)
    total += bundle->entries[e].launch_count;
  module->launch_offsets = calloc(bundle->entry_count, sizeof(size_t));
  module->functions = calloc(total ? total : 1, sizeof(CUfunction));
  if (!module->launch_offsets || !module->functions)
    return fusecc_make_status(FUSECC_STATUS_RESOURCE_EXHAUSTED,
                              "out of memory loading a module");
  size_t next = 0;
  for (size_t e = 0; e < bundle->entry_count; ++e) {
    const fusecc_entry_t *entry = &bundle->entries[e];
    module->launch_offsets[e] = next;
    for (size_t l = 0; l < entry->launch_count; ++l, ++next) {
      const fusecc_launch_t *launch = &entry->launches[l];
      CUresult result = driver->cuModuleGetFunction(
          &module->functions[next], module->module, launch->kernel_name);
      if (result != CUDA_SUCCESS)
        return fusecc_annotate_status(
            fusecc_cuda_status(driver, result, "cuModuleGetFunction"),
            "entry '%s' launch %zu: kernel '%s' not in the PTX: ", entry->name,
            l, launch->kernel_name);
    }
  }
  // Raise each kernel's limit once, to the largest smem any launch asks, in
  // the order of first use: sort the launches by kernel (then by position),
  // so that this stays O(n log n) for bundles with very many launches.
  kernel_use_t *uses = malloc((total ? total : 1) * sizeof(kernel_use_t));
  if (!uses)
    return fusecc_make_status(FUSECC_STATUS_RESOURCE_EXHAUSTED,
                              "out of memory loading a module");
  size_t flat = 0;
  for (size_t e = 0; e < bundle->entry_count; ++e)
    for (size_t l = 0; l < bundle->entries[e].launch_count; ++l, ++flat) {
      uses[flat].kernel = (uintptr_t)module->functions[flat];
      uses[flat].first = flat;
      uses[flat].smem = bundle->entries[e].launches[l].smem_bytes;
    }
  qsort(uses, total, sizeof(kernel_use_t), compare_kernel_use);
  // Collapse each kernel's run into its first entry (first use, largest).
  size_t kernels = 0;
  for (size_t i = 0; i < total; ++i) {
    if (kernels && uses[kernels - 1].kernel == uses[i].kernel) {
      if (uses[i].smem > uses[kernels - 1].smem)
        uses[kernels - 1].smem = uses[i].smem;
      continue;
    }
    uses[kernels++] = uses[i];
  }
  qsort(uses, kernels, sizeof(kernel_use_t), compare_first_use);
  fusecc_status_t status = NULL;
  for (size_t i = 0; i < kernels && !status; ++i) {
    // Always raise it when dynamic shared memory is used: the kernel's own
    // static shared memory counts against the default 48 KiB as well.
    if (uses[i].smem == 0)
      continue;
    CUresult result = driver->cuFuncSetAttribute(
        (CUfunction)uses[i].kernel,
        CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)uses[i].smem);
    if (result != CUDA_SUCCESS)
      status = fusecc_annotate_status(
          fusecc_cuda_status(
              driver, result,
              "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)"),
          "raising the dynamic shared memory of a kernel to %u bytes: ",
          (unsigned)uses[i].smem);
  }
  free(uses);
  return status;
}

/// Uploads every module-level constant once: cuMemAlloc + cuMemcpyHtoD
/// (synchronous) in the module's context, which is current. Buffers already
/// allocated when a call fails stay in module->consts for module_free.
static fusecc_status_t upload_constants(fusecc_module_t module) {
  const fusecc_driver_t *driver = module->driver;
  fusecc_bundle_t bundle = module->bundle;
  if (bundle->const_count == 0)
    return NULL;
  if (!driver->cuMemAlloc || !driver->cuMemcpyHtoD || !driver->cuMemFree)
    return fusecc_make_status(
        FUSECC_STATUS_UNAVAILABLE,
        "the bundle has %zu constants but the CUDA driver lacks %s",
        bundle->const_count,
        !driver->cuMemAlloc     ? "cuMemAlloc"
        : !driver->cuMemcpyHtoD ? "cuMemcpyHtoD"
                                : "cuMemFree");
  module->consts = calloc(bundle->const_count, sizeof(CUdeviceptr));
  if (!module->consts)
    return fusecc_make_status(FUSECC_STATUS_RESOURCE_EXHAUSTED,
                              "out of memory loading a module");
  for (size_t k = 0; k < bundle->const_count; ++k) {
    const fusecc_const_t *constant = &bundle->consts[k];
    CUdeviceptr pointer = 0;
    CUresult result = driver->cuMemAlloc(&pointer, constant->byte_size);
    if (result != CUDA_SUCCESS)
      return fusecc_annotate_status(
          fusecc_cuda_status(driver, result, "cuMemAlloc"),
          "const %zu '%s' (%zu bytes): ", k, constant->name,
          constant->byte_size);
    module->consts[k] = pointer;
    result = driver->cuMemcpyHtoD(pointer, bundle->data + constant->offset,
                                  constant->byte_size);
    if (result != CUDA_SUCCESS)
      return fusecc_annotate_status(
          fusecc_cuda_status(driver, result, "cuMemcpyHtoD"),
          "const %zu '%s' (%zu bytes): ", k, constant->name,
          constant->byte_size);
  }
  return NULL;
}

/// Creates the module's workspace pool on the context's device when an
/// entry has workspaces: memory freed at the end of a call stays in the
/// pool (release threshold: never) for the next call.
static fusecc_status_t create_workspace_pool(fusecc_module_t module) {
  const fusecc_driver_t *driver = module->driver;
  int any = 0;
  for (size_t e = 0; e < module->bundle->entry_count; ++e)
    any |= module->bundle->entries[e].workspace_count != 0;
  if (!any || !driver->cuCtxGetDevice || !driver->cuMemPoolCreate ||
      !driver->cuMemPoolDestroy || !driver->cuMemPoolSetAttribute ||
      !driver->cuMemAllocFromPoolAsync)
    return NULL;
  CUdevice device;
  fusecc_status_t status = fusecc_cuda_status(
      driver, driver->cuCtxGetDevice(&device), "cuCtxGetDevice");
  if (status)
    return status;
  CUmemPoolProps props;
  memset(&props, 0, sizeof(props));
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
  props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  props.location.id = device;
  // A device or driver without memory-pool support (some virtualised
  // GPUs) keeps the default pool: slower calls, same results.
  if (driver->cuMemPoolCreate(&module->pool, &props) != CUDA_SUCCESS) {
    module->pool = NULL;
    return NULL;
  }
  cuuint64_t keep = ~(cuuint64_t)0;
  if (driver->cuMemPoolSetAttribute(module->pool,
                                    CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                                    &keep) != CUDA_SUCCESS) {
    driver->cuMemPoolDestroy(module->pool);
    module->pool = NULL;
  }
  return NULL;
}

fusecc_status_t fusecc_module_load(fusecc_bundle_t bundle,
                                   fusecc_module_t *out_module) {
  if (!bundle || !out_module)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "fusecc_module_load: %s is NULL",
                              bundle ? "out_module" : "bundle");
  *out_module = NULL;
  const fusecc_driver_t *driver;
  fusecc_status_t status = fusecc_driver_get(&driver);
  if (status)
    return status;
  fusecc_module_t module = calloc(1, sizeof(*module));
  if (!module)
    return fusecc_make_status(FUSECC_STATUS_RESOURCE_EXHAUSTED,
                              "out of memory loading a module");
  module->ref_count = 1;
  module->driver = driver;
  module->bundle = bundle;
  fusecc_bundle_retain(bundle);
  if (!(status = read_sanitize_block_limit(module)) &&
      !(status = acquire_context(module)) && !(status = load_ptx(module)) &&
      !(status = resolve_kernels(module)) &&
      !(status = upload_constants(module)) &&
      !(status = create_workspace_pool(module)))
    status = create_graph_cache(module);
  if (!status &&
      !(module->frozen = fusecc_frozen_create(module->driver, module->bundle)))
    status = fusecc_make_status(FUSECC_STATUS_RESOURCE_EXHAUSTED,
                                "out of memory loading a module");
  if (status) {
    module_free(module);
    return status;
  }
  *out_module = module;
  return NULL;
}

void fusecc_module_retain(fusecc_module_t module) {
  if (module)
    __atomic_fetch_add(&module->ref_count, 1, __ATOMIC_RELAXED);
}

void fusecc_module_release(fusecc_module_t module) {
  if (module &&
      __atomic_sub_fetch(&module->ref_count, 1, __ATOMIC_ACQ_REL) == 0)
    module_free(module);
}

fusecc_bundle_t fusecc_module_bundle(fusecc_module_t module) {
  return module ? module->bundle : NULL;
}

CUcontext fusecc_module_context(fusecc_module_t module) {
  return module ? module->context : NULL;
}

const fusecc_driver_t *fusecc_module_driver(fusecc_module_t module) {
  return module->driver;
}

fusecc_status_t fusecc_module_const_pointer(fusecc_module_t module,
                                            size_t const_index,
                                            CUdeviceptr *out_ptr) {
  if (!module || !out_ptr)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "fusecc_module_const_pointer: %s is NULL",
                              module ? "out_ptr" : "module");
  if (const_index >= module->bundle->const_count)
    return fusecc_make_status(FUSECC_STATUS_OUT_OF_RANGE,
                              "fusecc_module_const_pointer: const index %zu "
                              "out of range (bundle has %zu constants)",
                              const_index, module->bundle->const_count);
  *out_ptr = module->consts[const_index];
  return NULL;
}

/// Allocates the `entry`'s workspaces stream-ordered on `stream` into
/// `pointers` (zeroed by the caller), but for those `frozen` (when not NULL)
/// holds. On failure the ones already allocated
/// are left in `pointers` for free_workspaces.
static fusecc_status_t allocate_workspaces(const fusecc_driver_t *driver,
                                           CUmemoryPool pool,
                                           const fusecc_entry_t *entry,
                                           size_t batch, CUdeviceptr *pointers,
                                           const CUdeviceptr *frozen,
                                           CUstream stream) {
  if (!driver->cuMemAllocAsync || !driver->cuMemFreeAsync)
    return fusecc_make_status(
        FUSECC_STATUS_UNAVAILABLE,
        "entry '%s' has %zu workspaces but the CUDA driver lacks %s "
        "(stream-ordered allocation needs CUDA 11.2 or newer)",
        entry->name, entry->workspace_count,
        driver->cuMemAllocAsync ? "cuMemFreeAsync" : "cuMemAllocAsync");
  for (size_t k = 0; k < entry->workspace_count; ++k) {
    if (frozen && frozen[k])
      continue; // The module's, passed by the caller.
    const fusecc_workspace_t *workspace = &entry->workspaces[k];
    size_t bytes = fusecc_workspace_bytes(workspace, batch);
    CUresult result =
        pool ? driver->cuMemAllocFromPoolAsync(&pointers[k], bytes, pool,
                                               stream)
             : driver->cuMemAllocAsync(&pointers[k], bytes, stream);
    if (result != CUDA_SUCCESS) {
      pointers[k] = 0;
      return fusecc_annotate_status(
          fusecc_cuda_status(driver, result,
                             pool ? "cuMemAllocFromPoolAsync"
                                  : "cuMemAllocAsync"),
          "entry '%s' workspace %zu (%zu bytes): ", entry->name, k, bytes);
    }
  }
  return NULL;
}

/// Frees (stream-ordered, after the work already enqueued on `stream`) every
/// non-zero pointer of `pointers`. Returns the first failure, annotated, or
/// `status` unchanged when it is already an error (the earlier failure is
/// the one to report; the later ones are dropped).
static fusecc_status_t free_workspaces(const fusecc_driver_t *driver,
                                       const fusecc_entry_t *entry,
                                       CUdeviceptr *pointers, CUstream stream,
                                       fusecc_status_t status) {
  for (size_t k = 0; k < entry->workspace_count; ++k) {
    if (!pointers[k])
      continue;
    CUresult result = driver->cuMemFreeAsync(pointers[k], stream);
    pointers[k] = 0;
    if (result != CUDA_SUCCESS && !status)
      status = fusecc_annotate_status(
          fusecc_cuda_status(driver, result, "cuMemFreeAsync"),
          "entry '%s' workspace %zu: ", entry->name, k);
  }
  return status;
}

/// An error naming `instead` when `entry_index` of `module` takes a
/// launch-time batch (a call without one cannot launch it); NULL otherwise,
/// and for arguments the launch itself rejects.
fusecc_status_t fusecc_batch_required(fusecc_module_t module,
                                      size_t entry_index, const char *instead) {
  if (!module || entry_index >= module->bundle->entry_count ||
      !module->bundle->entries[entry_index].max_batch)
    return NULL;
  return fusecc_make_status(
      FUSECC_STATUS_INVALID_ARGUMENT,
      "entry '%s' has a launch-time batch (1 to %zu): call %s",
      module->bundle->entries[entry_index].name,
      module->bundle->entries[entry_index].max_batch, instead);
}

fusecc_status_t fusecc_module_launch(fusecc_module_t module, size_t entry_index,
                                     const fusecc_buffer_t *args,
                                     size_t arg_count, CUstream stream) {
  fusecc_status_t status = fusecc_batch_required(
      module, entry_index,
      "fusecc_module_launch_batch or fusecc_module_launch_shaped");
  if (status)
    return status;
  return fusecc_module_launch_batch(module, entry_index, 0, args, arg_count,
                                    stream);
}

fusecc_status_t fusecc_module_launch_shaped(fusecc_module_t module,
                                            size_t entry_index,
                                            const fusecc_buffer_t *args,
                                            const size_t *ranks,
                                            const int64_t *const *shapes,
                                            size_t arg_count, CUstream stream) {
  if (!module)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "fusecc_module_launch_shaped: module is NULL");
  size_t batch = 0;
  fusecc_status_t status = fusecc_bundle_batch_of_shapes(
      module->bundle, entry_index, ranks, shapes, arg_count, &batch);
  if (status)
    return status;
  return fusecc_module_launch_batch(module, entry_index, batch, args,
                                    arg_count, stream);
}

fusecc_status_t fusecc_module_launch_batch(fusecc_module_t module,
                                           size_t entry_index, size_t batch,
                                           const fusecc_buffer_t *args,
                                           size_t arg_count, CUstream stream) {
  if (!module)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "fusecc_module_launch: module is NULL");
  fusecc_status_t status = fusecc_bundle_validate_args_batch(
      module->bundle, entry_index, batch, args, arg_count);
  if (status)
    return status;
  const fusecc_driver_t *driver = module->driver;
  const fusecc_entry_t *entry = &module->bundle->entries[entry_index];
  const CUfunction *functions =
      module->functions + module->launch_offsets[entry_index];

  if (!driver->cuMemsetD8Async)
    for (size_t i = 0; i < entry->step_count; ++i)
      if (entry->steps[i].kind == FUSECC_STEP_ZERO)
        return fusecc_make_status(
            FUSECC_STATUS_UNAVAILABLE,
            "entry '%s' step %zu zeroes a workspace but the CUDA driver "
            "lacks cuMemsetD8Async",
            entry->name, i);

  fusecc_graph_call_t call = {
      entry,
      entry_index,
      functions,
      module->consts,
      module->sanitize_block_limit,
      args,
      stream,
      batch,
      __atomic_load_n(&module->reuse_prepared, __ATOMIC_RELAXED),
      __atomic_load_n(&module->prepare_generation, __ATOMIC_ACQUIRE),
      NULL};
  // Frozen weights: the prepare steps' results are the module's
  // (launch_frozen.c); `call.frozen` is NULL where the call runs them.
  if (entry->prepare_count &&
      __atomic_load_n(&module->frozen_weights, __ATOMIC_RELAXED)) {
    status = fusecc_frozen_use(module->frozen, &call, 0, &call.frozen);
    if (status)
      return status;
  }

  // A multi-step entry (or one with workspaces) replays its graph for this
  // stream when it can (launch_graph.c).
  if (__atomic_load_n(&module->launch_graphs, __ATOMIC_RELAXED) &&
      (entry->step_count > 1 || entry->workspace_count)) {
    int launched = 0;
    status = fusecc_graph_cache_launch(module->graphs, &call, &launched);
    if (launched)
      return status;
  }
  __atomic_fetch_add(&module->direct_calls, 1, __ATOMIC_RELAXED);

  // Workspaces: stream-ordered scratch memory for this call only, but for
  // the frozen ones.
  CUdeviceptr *workspaces = NULL;
  if (entry->workspace_count) {
    workspaces = calloc(entry->workspace_count, sizeof(CUdeviceptr));
    if (!workspaces)
      return fusecc_make_status(FUSECC_STATUS_RESOURCE_EXHAUSTED,
                                "out of memory launching entry '%s'",
                                entry->name);
    status = allocate_workspaces(driver, module->pool, entry, batch,
                                 workspaces, call.frozen, stream);
    for (size_t k = 0; call.frozen && k < entry->workspace_count; ++k)
      if (call.frozen[k])
        workspaces[k] = call.frozen[k];
  }

  for (size_t i = call.frozen ? entry->prepare_count : 0;
       i < entry->step_count && !status; ++i) {
    const fusecc_step_t *step = &entry->steps[i];
    if (step->kind == FUSECC_STEP_ZERO) {
      // Checked above: an entry with a zero step has the entry point.
      size_t k = step->index;
      size_t bytes = fusecc_workspace_bytes(&entry->workspaces[k], batch);
      CUresult result =
          driver->cuMemsetD8Async(workspaces[k], 0, bytes, stream);
      if (result != CUDA_SUCCESS)
        status = fusecc_annotate_status(
            fusecc_cuda_status(driver, result, "cuMemsetD8Async"),
            "entry '%s' step %zu (zero w%zu, %zu bytes): ", entry->name, i, k,
            bytes);
      continue;
    }
    status = fusecc_launch_step(driver, &call, workspaces, step->index);
  }

  if (workspaces) {
    // The frozen ones are the module's, not to be freed.
    for (size_t k = 0; call.frozen && k < entry->workspace_count; ++k)
      if (call.frozen[k])
        workspaces[k] = 0;
    status = free_workspaces(driver, entry, workspaces, stream, status);
    free(workspaces);
  }
  return status;
}

fusecc_status_t fusecc_module_launch_by_name(fusecc_module_t module,
                                             const char *entry_name,
                                             const fusecc_buffer_t *args,
                                             size_t arg_count,
                                             CUstream stream) {
  if (!module)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "fusecc_module_launch_by_name: module is NULL");
  size_t entry_index;
  fusecc_status_t status =
      fusecc_bundle_find_entry(module->bundle, entry_name, &entry_index);
  if (status)
    return status;
  return fusecc_module_launch(module, entry_index, args, arg_count, stream);
}

fusecc_status_t fusecc_module_set_launch_graphs(fusecc_module_t module,
                                                int enabled) {
  if (!module)
    return fusecc_make_status(
        FUSECC_STATUS_INVALID_ARGUMENT,
        "fusecc_module_set_launch_graphs: module is NULL");
  if (enabled && !module->graphs)
    return fusecc_make_status(
        FUSECC_STATUS_UNAVAILABLE,
        "fusecc_module_set_launch_graphs: the CUDA driver lacks the graph "
        "entry points (cuGraphCreate, cuGraphInstantiateWithFlags, ...)");
  __atomic_store_n(&module->launch_graphs, enabled != 0, __ATOMIC_RELAXED);
  return NULL;
}

fusecc_status_t fusecc_module_set_reuse_prepared(fusecc_module_t module,
                                                 int enabled) {
  if (!module)
    return fusecc_make_status(
        FUSECC_STATUS_INVALID_ARGUMENT,
        "fusecc_module_set_reuse_prepared: module is NULL");
  __atomic_store_n(&module->reuse_prepared, enabled != 0, __ATOMIC_RELAXED);
  return NULL;
}

fusecc_status_t fusecc_module_invalidate_prepared(fusecc_module_t module) {
  if (!module)
    return fusecc_make_status(
        FUSECC_STATUS_INVALID_ARGUMENT,
        "fusecc_module_invalidate_prepared: module is NULL");
  __atomic_add_fetch(&module->prepare_generation, 1, __ATOMIC_RELEASE);
  return NULL;
}

fusecc_status_t fusecc_module_set_frozen_weights(fusecc_module_t module,
                                                 int enabled) {
  if (!module)
    return fusecc_make_status(
        FUSECC_STATUS_INVALID_ARGUMENT,
        "fusecc_module_set_frozen_weights: module is NULL");
  if (enabled && !fusecc_driver_has_frozen(module->driver))
    return fusecc_make_status(
        FUSECC_STATUS_UNAVAILABLE,
        "fusecc_module_set_frozen_weights: the CUDA driver lacks cuMemAlloc, "
        "cuMemFree, cuStreamSynchronize or cuStreamIsCapturing");
  __atomic_store_n(&module->frozen_weights, enabled != 0, __ATOMIC_RELAXED);
  return NULL;
}

fusecc_status_t fusecc_module_prepare(fusecc_module_t module,
                                      size_t entry_index, size_t batch,
                                      const fusecc_buffer_t *args,
                                      size_t arg_count, CUstream stream) {
  if (!module)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "fusecc_module_prepare: module is NULL");
  fusecc_status_t status = fusecc_bundle_validate_args_batch(
      module->bundle, entry_index, batch, args, arg_count);
  if (status)
    return status;
  const fusecc_entry_t *entry = &module->bundle->entries[entry_index];
  if (!__atomic_load_n(&module->frozen_weights, __ATOMIC_RELAXED))
    return fusecc_make_status(
        FUSECC_STATUS_INVALID_ARGUMENT,
        "fusecc_module_prepare: entry '%s': frozen weights are off "
        "(fusecc_module_set_frozen_weights)",
        entry->name);
  if (!entry->prepare_count)
    return NULL;
  fusecc_graph_call_t call = {
      entry,
      entry_index,
      module->functions + module->launch_offsets[entry_index],
      module->consts,
      module->sanitize_block_limit,
      args,
      stream,
      batch,
      0,
      __atomic_load_n(&module->prepare_generation, __ATOMIC_ACQUIRE),
      NULL};
  const CUdeviceptr *unused = NULL;
  return fusecc_frozen_use(module->frozen, &call, 1, &unused);
}

fusecc_status_t fusecc_module_launch_stats(fusecc_module_t module,
                                           fusecc_launch_stats_t *out_stats) {
  if (!module || !out_stats)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "fusecc_module_launch_stats: %s is NULL",
                              module ? "out_stats" : "module");
  memset(out_stats, 0, sizeof(*out_stats));
  out_stats->direct_calls =
      __atomic_load_n(&module->direct_calls, __ATOMIC_RELAXED);
  fusecc_graph_cache_stats(module->graphs, out_stats);
  fusecc_frozen_stats(module->frozen, out_stats);
  return NULL;
}
