/*===- internal.h - fusecc runtime internals ----------------------*- C -*-===//
 *
 * Declarations shared by the runtime's sources: status construction, the
 * parsed bundle layout and the dynamically loaded CUDA driver table.
 *
 *===----------------------------------------------------------------------===*/

#ifndef FUSECC_RUNTIME_INTERNAL_H
#define FUSECC_RUNTIME_INTERNAL_H

#include "fusecc/runtime.h"

/// Most kernel parameters one launch record may declare (the CUDA limit on
/// kernel parameter space is 32 KiB, the 4 KiB of 512 pointers is plenty).
#define FUSECC_MAX_PARAMS 512
/// Most arguments, workspaces, launches or steps one entry may declare.
#define FUSECC_MAX_ENTRY_ITEMS 4096
/// Most module-level constants one bundle may declare (format version 3).
#define FUSECC_MAX_CONSTS 65536
/// Largest dynamic shared memory a launch may ask for: cuFuncSetAttribute
/// takes an int.
#define FUSECC_MAX_SMEM_BYTES 2147483647u
/// Alignment of a constant's offset in the data section.
#define FUSECC_CONST_ALIGNMENT 16
/// The newest bundle format version this runtime reads (docs/bundle.md).
#define FUSECC_BUNDLE_FORMAT_VERSION 4
/// Largest batch bound of a dynamic-batch entry (format version 4): the
/// batch is a per-sample launch's grid z.
#define FUSECC_MAX_BATCH 65535

/// Whether the byte range [offset, offset + length) lies inside a region of
/// `size` bytes; never computes offset + length, so it cannot wrap.
static inline int fusecc_range_inside(uint64_t offset, uint64_t length,
                                      uint64_t size) {
  return offset <= size && length <= size - offset;
}

/// Whether the non-empty device ranges [a, a + a_size) and [b, b + b_size)
/// share a byte. Computes differences, never end addresses: with unsigned
/// (modular) arithmetic this is also right for ranges that run up to 2^64.
static inline int fusecc_ranges_overlap(uint64_t a, uint64_t a_size, uint64_t b,
                                        uint64_t b_size) {
  return a <= b ? b - a < a_size : a - b < b_size;
}

/// Returns a new status with `code` and a printf-formatted message; a static
/// RESOURCE_EXHAUSTED status if memory runs out. `code` must not be OK.
fusecc_status_t fusecc_make_status(fusecc_status_code_t code, const char *fmt,
                                   ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/// Returns a new status with the code of `status` and its message prefixed by
/// the formatted text; frees `status`.
fusecc_status_t fusecc_annotate_status(fusecc_status_t status, const char *fmt,
                                       ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/// One `arg` record.
typedef struct fusecc_arg_s {
  char *name;
  int is_output;
  fusecc_dtype_t dtype;
  size_t rank;
  int64_t dims[FUSECC_MAX_RANK];
  /// Of one sample where `batched` (dims[0] is then 1).
  size_t element_count;
  size_t byte_size;
  /// Format version 4: dim 0 is the launch-time batch (`b`).
  int batched;
} fusecc_arg_t;

/// One `workspace` record (format version 2): scratch device memory the
/// runtime allocates for the duration of one call of the entry.
typedef struct fusecc_workspace_s {
  fusecc_dtype_t dtype;
  /// Of one sample where `per_sample`.
  size_t element_count;
  size_t byte_size;
  /// UNSPECIFIED before format version 3.
  fusecc_workspace_role_t role;
  /// Format version 4: one slice per sample (`<elements>*b`).
  int per_sample;
} fusecc_workspace_t;

/// One `const` record (format version 3).
typedef struct fusecc_const_s {
  char *name;
  fusecc_dtype_t dtype;
  size_t rank;
  int64_t dims[FUSECC_MAX_RANK];
  size_t element_count;
  size_t byte_size;
  /// Offset in the data section; validated against it when it is read.
  uint64_t offset;
} fusecc_const_t;

/// One step of an entry: a launch (index into the entry's launches) or a
/// zero (index of the workspace).
typedef struct fusecc_step_s {
  fusecc_step_kind_t kind;
  size_t index;
} fusecc_step_t;

/// One `launch` record.
typedef struct fusecc_launch_s {
  char *kernel_name;
  /// grid[2] is 1 where `per_sample`.
  uint32_t grid[3];
  /// Format version 4: runs once per sample, grid z = the batch (`b`).
  int per_sample;
  uint32_t block[3];
  uint32_t smem_bytes;
  size_t param_count;
  /// Per parameter: an entry-argument index (< arg_count), arg_count + k for
  /// workspace k of the entry, arg_count + workspace_count + k for module
  /// constant k.
  size_t *param_args;
} fusecc_launch_t;

/// One entry point with its records.
typedef struct fusecc_entry_s {
  char *name;
  size_t arg_count;
  size_t input_count;
  fusecc_arg_t *args;
  size_t workspace_count;
  fusecc_workspace_t *workspaces;
  /// Launch records, in step order (launch_count <= step_count).
  size_t launch_count;
  fusecc_launch_t *launches;
  /// Every step in execution order; in versions 1 and 2 step i is launch i.
  size_t step_count;
  fusecc_step_t *steps;
  size_t graph_line_count;
  size_t graph_line_capacity;
  char **graph_lines;
  /// Format version 4: the bound of the launch-time batch; 0 for an entry
  /// with static shapes.
  size_t max_batch;
  /// Format version 3: the first `prepare_count` steps are prepare steps
  /// (launches reading only inputs and constants, writing only `prepared`
  /// workspaces); their launches are launches [0, prepare_count).
  size_t prepare_count;
} fusecc_entry_t;

/// The bytes of argument `arg` at `batch` (0: a static entry), computed
/// with an overflow check (SIZE_MAX when it overflows).
static inline size_t fusecc_arg_bytes(const fusecc_arg_t *arg, size_t batch) {
  if (!arg->batched || batch == 0)
    return arg->byte_size;
  return arg->byte_size > SIZE_MAX / batch ? SIZE_MAX : arg->byte_size * batch;
}

/// The bytes of workspace `w` at `batch` (0: a static entry), as above.
static inline size_t fusecc_workspace_bytes(const fusecc_workspace_t *w,
                                            size_t batch) {
  if (!w->per_sample || batch == 0)
    return w->byte_size;
  return w->byte_size > SIZE_MAX / batch ? SIZE_MAX : w->byte_size * batch;
}

/// The grid of `launch` at `batch` (0: a static entry).
static inline void fusecc_launch_grid(const fusecc_launch_t *launch,
                                      size_t batch, uint32_t out[3]) {
  out[0] = launch->grid[0];
  out[1] = launch->grid[1];
  out[2] = launch->per_sample && batch ? (uint32_t)batch : launch->grid[2];
}

/// Checks `batch` for entry `entry`: 0 for a static entry, 1..max_batch for
/// a dynamic one; every workspace and argument size at it must fit size_t.
fusecc_status_t fusecc_check_batch(const fusecc_entry_t *entry, size_t batch);

/// fusecc_bundle_validate_args at `batch` (checked by the caller).
fusecc_status_t fusecc_validate_args_at(fusecc_bundle_t bundle,
                                        size_t entry_index, size_t batch,
                                        const fusecc_buffer_t *args,
                                        size_t arg_count);

struct fusecc_bundle_s {
  int ref_count;
  /// The format version from the first line (1, 2 or 3).
  unsigned format_version;
  char chip[32];
  fusecc_precision_t precision;
  size_t entry_count;
  size_t entry_capacity;
  fusecc_entry_t *entries;
  /// The PTX with a NUL appended.
  char *ptx;
  size_t ptx_size;
  /// Module-level constants (format version 3).
  size_t const_count;
  size_t const_capacity;
  fusecc_const_t *consts;
  /// The data section (NULL when absent); every constant lies inside it.
  unsigned char *data;
  size_t data_size;
};

/// The CUDA driver entry points the runtime uses, resolved with dlsym.
typedef struct fusecc_driver_s {
  CUresult (*cuInit)(unsigned int);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxGetCurrent)(CUcontext *);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxPushCurrent)(CUcontext);
  CUresult (*cuCtxPopCurrent)(CUcontext *);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned int,
                                 CUjit_option *, void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuFuncSetAttribute)(CUfunction, CUfunction_attribute, int);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned int, unsigned int,
                             unsigned int, unsigned int, unsigned int,
                             unsigned int, unsigned int, CUstream, void **,
                             void **);
  /// Stream-ordered allocation (CUDA 11.2+), used for the workspaces of
  /// format-version-2 entries. Optional: NULL when the driver lacks them, so
  /// bundles without workspaces still run on older drivers.
  CUresult (*cuMemAllocAsync)(CUdeviceptr *, size_t, CUstream);
  CUresult (*cuMemFreeAsync)(CUdeviceptr, CUstream);
  /// A module's own memory pool for its workspaces (CUDA 11.2+, optional
  /// like the two above): it keeps freed memory instead of returning it to
  /// the OS at every synchronisation, so a workspace costs no page mapping
  /// per call.
  CUresult (*cuCtxGetDevice)(CUdevice *);
  CUresult (*cuMemPoolCreate)(CUmemoryPool *, const CUmemPoolProps *);
  CUresult (*cuMemPoolDestroy)(CUmemoryPool);
  CUresult (*cuMemPoolSetAttribute)(CUmemoryPool, CUmemPool_attribute, void *);
  CUresult (*cuMemAllocFromPoolAsync)(CUdeviceptr *, size_t, CUmemoryPool,
                                      CUstream);
  /// Module-level constants (format version 3): uploaded once at load and
  /// freed at release. Optional: a bundle without constants needs none.
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  /// `zero w<k>` steps (format version 3). Optional: needed only by an entry
  /// with a zero step.
  CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
  /// CUDA graphs (launch_graph.c): a multi-step entry is built once per
  /// stream as a graph and replayed with one cuGraphLaunch. Optional: when
  /// any is missing, every launch takes the direct path.
  CUresult (*cuStreamIsCapturing)(CUstream, CUstreamCaptureStatus *);
  CUresult (*cuGraphCreate)(CUgraph *, unsigned int);
  CUresult (*cuGraphAddKernelNode)(CUgraphNode *, CUgraph, const CUgraphNode *,
                                   size_t, const CUDA_KERNEL_NODE_PARAMS *);
  CUresult (*cuGraphAddMemsetNode)(CUgraphNode *, CUgraph, const CUgraphNode *,
                                   size_t, const CUDA_MEMSET_NODE_PARAMS *,
                                   CUcontext);
  CUresult (*cuGraphInstantiate)(CUgraphExec *, CUgraph, unsigned long long);
  CUresult (*cuGraphExecKernelNodeSetParams)(CUgraphExec, CUgraphNode,
                                             const CUDA_KERNEL_NODE_PARAMS *);
  CUresult (*cuGraphLaunch)(CUgraphExec, CUstream);
  CUresult (*cuGraphExecDestroy)(CUgraphExec);
  CUresult (*cuGraphDestroy)(CUgraph);
  CUresult (*cuCtxSynchronize)(void);
  /// Frozen weights (launch_frozen.c): the stream of the call that ran the
  /// prepare steps is synchronized once. Optional.
  CUresult (*cuStreamSynchronize)(CUstream);
} fusecc_driver_t;

/// Whether `driver` has every entry point the graph launch path needs
/// (launch_graph.c) besides cuMemAlloc / cuMemFree for workspaces.
int fusecc_driver_has_graphs(const fusecc_driver_t *driver);

/// Loads libcuda.so.1 (or $FUSECC_CUDA_DRIVER_LIBRARY) and calls cuInit(0)
/// once per process; returns the table, or UNAVAILABLE / CUDA_ERROR.
fusecc_status_t fusecc_driver_get(const fusecc_driver_t **out_driver);

/// Converts a failed `result` of driver call `call` into a CUDA_ERROR status
/// naming the call, the error name and its description. NULL for
/// CUDA_SUCCESS.
fusecc_status_t fusecc_cuda_status(const fusecc_driver_t *driver,
                                   CUresult result, const char *call);

/// The grid of a launch under a FUSECC_SANITIZE_BLOCK_LIMIT of `limit` (0:
/// none): see module.c.
void fusecc_trim_grid(unsigned long long limit, const uint32_t grid[3],
                      uint32_t out[3]);

/// Most executable graphs one module keeps (launch_graph.c): one per
/// (entry, stream) used, least recently used evicted.
#define FUSECC_GRAPH_CACHE_SLOTS 16

/// A module's cache of executable graphs, one per (entry, stream).
typedef struct fusecc_graph_cache_s fusecc_graph_cache_t;

/// What the graph path needs of one call of fusecc_module_launch (args
/// already validated).
typedef struct fusecc_graph_call_s {
  const fusecc_entry_t *entry;
  size_t entry_index;
  /// The entry's kernels, one per launch record.
  const CUfunction *functions;
  /// The module's constants.
  const CUdeviceptr *consts;
  unsigned long long sanitize_block_limit;
  const fusecc_buffer_t *args;
  CUstream stream;
  /// The launch-time batch (0: a static entry); part of the graph's key.
  size_t batch;
  /// Whether prepared workspaces may be reused (fusecc_module_set_reuse_
  /// prepared), and the module's invalidation count: a graph whose prepare
  /// steps ran at another count runs them again.
  int reuse_prepared;
  uint64_t prepare_generation;
  /// Under frozen weights (launch_frozen.c), when the call skips its
  /// prepare steps: the module's frozen workspaces, one pointer per entry
  /// workspace (0 for those not `prepared`); NULL otherwise.
  const CUdeviceptr *frozen;
} fusecc_graph_call_t;

/// A new, empty cache for a module in `context`; NULL when out of memory.
fusecc_graph_cache_t *fusecc_graph_cache_create(const fusecc_driver_t *driver,
                                                CUcontext context);

/// Frees every graph and its workspaces (synchronizing the context first
/// when a graph with workspaces was launched). The module's context must be
/// current. NULL is allowed.
void fusecc_graph_cache_destroy(fusecc_graph_cache_t *cache);

/// Replays `call` as the graph of its (entry, stream), building it first
/// when there is none. `*out_launched` is 0 when the caller must enqueue
/// the steps itself: the stream is capturing, or the graph could not be
/// built; then the status is NULL. Otherwise the status of the replay.
fusecc_status_t fusecc_graph_cache_launch(fusecc_graph_cache_t *cache,
                                          const fusecc_graph_call_t *call,
                                          int *out_launched);

/// Fills the graph counters of `stats` (not direct_calls).
void fusecc_graph_cache_stats(fusecc_graph_cache_t *cache,
                              fusecc_launch_stats_t *stats);

/// Enqueues launch `launch_index` of the call's entry on its stream with
/// cuLaunchKernel: the call's arguments and constants, `workspaces` (one
/// pointer per entry workspace). Errors name the entry, launch and kernel.
fusecc_status_t fusecc_launch_step(const fusecc_driver_t *driver,
                                   const fusecc_graph_call_t *call,
                                   const CUdeviceptr *workspaces,
                                   size_t launch_index);

/// A module's frozen weights (launch_frozen.c): per entry with prepare
/// steps, its `prepared` workspaces kept by the module, and what they were
/// last prepared from.
typedef struct fusecc_frozen_s fusecc_frozen_t;

/// A new store for the entries of `bundle`; NULL when out of memory.
fusecc_frozen_t *fusecc_frozen_create(const fusecc_driver_t *driver,
                                      fusecc_bundle_t bundle);

/// Frees the store and its workspaces (synchronizing the context first
/// when it holds any). The module's context must be current. NULL is
/// allowed.
void fusecc_frozen_destroy(fusecc_frozen_t *frozen);

/// Whether `driver` has what frozen weights need (cuMemAlloc, cuMemFree,
/// cuStreamSynchronize, cuStreamIsCapturing).
int fusecc_driver_has_frozen(const fusecc_driver_t *driver);

/// The frozen workspaces for `call` (an entry with prepare steps) in
/// `*out_workspaces`: current when prepared at the call's invalidation
/// count from the same pointers of the arguments the prepare steps read;
/// else, outside a capture, prepared now on the call's stream (which is
/// then synchronized, so that every stream and capture may read them).
/// NULL (and a NULL status) on a capturing stream they are not current
/// for: the call then runs every step on workspaces of its own. `force`:
/// prepare even when current (fusecc_module_prepare); a capturing stream
/// is then an error.
fusecc_status_t fusecc_frozen_use(fusecc_frozen_t *frozen,
                                  const fusecc_graph_call_t *call, int force,
                                  const CUdeviceptr **out_workspaces);

/// Fills the frozen counters of `stats`.
void fusecc_frozen_stats(fusecc_frozen_t *frozen, fusecc_launch_stats_t *stats);

/// The driver table of `module`.
const fusecc_driver_t *fusecc_module_driver(fusecc_module_t module);

/// An error naming `instead` when entry `entry_index` of `module` takes a
/// launch-time batch (a call without one cannot launch it); NULL otherwise,
/// and for arguments the launch itself rejects.
fusecc_status_t fusecc_batch_required(fusecc_module_t module,
                                      size_t entry_index, const char *instead);

#endif // FUSECC_RUNTIME_INTERNAL_H
