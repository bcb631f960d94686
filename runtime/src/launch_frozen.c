/*===- launch_frozen.c - Prepared workspaces under frozen weights -*- C -*-===//
 *
 * Frozen weights (fusecc_module_set_frozen_weights): the caller promises
 * that the arguments an entry's prepare steps read (its weights) keep their
 * values, so their results (the `prepared` workspaces: weight re-layouts,
 * folded per-channel vectors) are computed once and read by every later
 * call, a call captured into the caller's CUDA graph included.
 *
 * Why a store of the module rather than the graph slots' workspaces
 * (launch_graph.c): a captured call cannot use workspaces of a slot, which
 * belong to one (entry, stream) and may be evicted, and stream-ordered
 * workspaces of the capture live for one replay only. The store's
 * workspaces (cuMemAlloc, one set per entry) live as long as the module, so
 * a capture may hold their addresses; the graph slots of frozen calls borrow
 * them, and the direct path passes them in place of allocating.
 *
 * The prepare steps run directly (cuLaunchKernel) on the stream of the call
 * that finds the store stale, which is then synchronized once: afterwards
 * calls on any stream, and replays of any capture, may read the workspaces
 * without an event to wait on. A stale store on a capturing stream is left
 * stale (the call captures every step on workspaces of its own, as without
 * frozen weights): preparing there would put the prepare steps into the
 * capture and leave the store unwritten until its first replay.
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/// The frozen workspaces of one entry.
typedef struct frozen_entry_s {
  /// One pointer per entry workspace, 0 for those not `prepared`; NULL
  /// until the entry's first preparation.
  CUdeviceptr *workspaces;
  /// Whether they hold the prepare steps' results, at which invalidation
  /// count, and the argument pointers they were computed from.
  int ready;
  uint64_t generation;
  CUdeviceptr *arg_ptrs;
} frozen_entry_t;

struct fusecc_frozen_s {
  const fusecc_driver_t *driver;
  fusecc_bundle_t bundle;
  pthread_mutex_t mutex;
  frozen_entry_t *entries;
  /// Counters of fusecc_launch_stats_t.
  uint64_t prepare_runs, calls, misses;
};

int fusecc_driver_has_frozen(const fusecc_driver_t *driver) {
  return driver->cuMemAlloc && driver->cuMemFree &&
         driver->cuStreamSynchronize && driver->cuStreamIsCapturing;
}

fusecc_frozen_t *fusecc_frozen_create(const fusecc_driver_t *driver,
                                      fusecc_bundle_t bundle) {
  fusecc_frozen_t *frozen = calloc(1, sizeof(*frozen));
  if (!frozen)
    return NULL;
  frozen->entries = calloc(bundle->entry_count ? bundle->entry_count : 1,
                           sizeof(frozen_entry_t));
  if (!frozen->entries || pthread_mutex_init(&frozen->mutex, NULL) != 0) {
    free(frozen->entries);
    free(frozen);
    return NULL;
  }
  frozen->driver = driver;
  frozen->bundle = bundle;
  return frozen;
}

/// Frees the workspaces of `record` (`entry`'s) and its records.
static void free_entry(const fusecc_driver_t *driver,
                       const fusecc_entry_t *entry, frozen_entry_t *record) {
  for (size_t k = 0; record->workspaces && k < entry->workspace_count; ++k)
    if (record->workspaces[k])
      driver->cuMemFree(record->workspaces[k]);
  free(record->workspaces);
  free(record->arg_ptrs);
  memset(record, 0, sizeof(*record));
}

void fusecc_frozen_destroy(fusecc_frozen_t *frozen) {
  if (!frozen)
    return;
  int any = 0;
  for (size_t e = 0; e < frozen->bundle->entry_count; ++e)
    any |= frozen->entries[e].workspaces != NULL;
  // Launches and replays in flight may read them.
  if (any && frozen->driver->cuCtxSynchronize)
    frozen->driver->cuCtxSynchronize();
  for (size_t e = 0; e < frozen->bundle->entry_count; ++e)
    free_entry(frozen->driver, &frozen->bundle->entries[e],
               &frozen->entries[e]);
  pthread_mutex_destroy(&frozen->mutex);
  free(frozen->entries);
  free(frozen);
}

fusecc_status_t fusecc_launch_step(const fusecc_driver_t *driver,
                                   const fusecc_graph_call_t *call,
                                   const CUdeviceptr *workspaces,
                                   size_t launch_index) {
  const fusecc_entry_t *entry = call->entry;
  const fusecc_launch_t *launch = &entry->launches[launch_index];
  size_t workspace_end = entry->arg_count + entry->workspace_count;
  void *params[FUSECC_MAX_PARAMS];
  for (size_t j = 0; j < launch->param_count; ++j) {
    size_t index = launch->param_args[j];
    params[j] = index < entry->arg_count ? (void *)&call->args[index].ptr
                : index < workspace_end
                    ? (void *)&workspaces[index - entry->arg_count]
                    : (void *)&call->consts[index - workspace_end];
  }
  uint32_t full[3], grid[3];
  fusecc_launch_grid(launch, call->batch, full);
  fusecc_trim_grid(call->sanitize_block_limit, full, grid);
  CUresult result = driver->cuLaunchKernel(
      call->functions[launch_index], grid[0], grid[1], grid[2],
      launch->block[0], launch->block[1], launch->block[2], launch->smem_bytes,
      call->stream, params, NULL);
  if (result == CUDA_SUCCESS)
    return NULL;
  return fusecc_annotate_status(
      fusecc_cuda_status(driver, result, "cuLaunchKernel"),
      "entry '%s' launch %zu (kernel '%s'): ", entry->name, launch_index,
      launch->kernel_name);
}

/// Whether `record` holds the prepare steps' results for `call`.
static int is_current(const frozen_entry_t *record,
                      const fusecc_graph_call_t *call) {
  const fusecc_entry_t *entry = call->entry;
  if (!record->ready || record->generation != call->prepare_generation)
    return 0;
  for (size_t l = 0; l < entry->prepare_count; ++l) {
    const fusecc_launch_t *launch = &entry->launches[l];
    for (size_t j = 0; j < launch->param_count; ++j) {
      size_t index = launch->param_args[j];
      if (index < entry->arg_count &&
          record->arg_ptrs[index] != call->args[index].ptr)
        return 0;
    }
  }
  return 1;
}

/// Allocates the records and the `prepared` workspaces of `record` for
/// `entry` (not per sample: the prepare steps are not). On failure what
/// was made stays for free_entry.
static fusecc_status_t allocate_entry(const fusecc_driver_t *driver,
                                      const fusecc_entry_t *entry,
                                      frozen_entry_t *record) {
  record->workspaces = calloc(
      entry->workspace_count ? entry->workspace_count : 1, sizeof(CUdeviceptr));
  record->arg_ptrs =
      calloc(entry->arg_count ? entry->arg_count : 1, sizeof(CUdeviceptr));
  if (!record->workspaces || !record->arg_ptrs)
    return fusecc_make_status(FUSECC_STATUS_RESOURCE_EXHAUSTED,
                              "out of memory freezing entry '%s'", entry->name);
  for (size_t k = 0; k < entry->workspace_count; ++k) {
    const fusecc_workspace_t *workspace = &entry->workspaces[k];
    if (workspace->role != FUSECC_WORKSPACE_ROLE_PREPARED)
      continue;
    size_t bytes = fusecc_workspace_bytes(workspace, 0);
    CUresult result = driver->cuMemAlloc(&record->workspaces[k], bytes);
    if (result != CUDA_SUCCESS) {
      record->workspaces[k] = 0;
      return fusecc_annotate_status(
          fusecc_cuda_status(driver, result, "cuMemAlloc"),
          "entry '%s' frozen workspace %zu (%zu bytes): ", entry->name, k,
          bytes);
    }
  }
  return NULL;
}

/// Runs the prepare steps of `call` into `record`'s workspaces and
/// synchronizes the call's stream; on success the record is current.
static fusecc_status_t prepare_entry(const fusecc_driver_t *driver,
                                     const fusecc_graph_call_t *call,
                                     frozen_entry_t *record) {
  const fusecc_entry_t *entry = call->entry;
  fusecc_status_t status = NULL;
  if (!record->workspaces) {
    status = allocate_entry(driver, entry, record);
    if (status) {
      free_entry(driver, entry, record);
      return status;
    }
  }
  record->ready = 0;
  for (size_t l = 0; l < entry->prepare_count && !status; ++l)
    status = fusecc_launch_step(driver, call, record->workspaces, l);
  if (status)
    return fusecc_annotate_status(status, "preparing frozen weights: ");
  CUresult result = driver->cuStreamSynchronize(call->stream);
  if (result != CUDA_SUCCESS)
    return fusecc_annotate_status(
        fusecc_cuda_status(driver, result, "cuStreamSynchronize"),
        "entry '%s', preparing frozen weights: ", entry->name);
  for (size_t a = 0; a < entry->arg_count; ++a)
    record->arg_ptrs[a] = call->args[a].ptr;
  record->generation = call->prepare_generation;
  record->ready = 1;
  return NULL;
}

fusecc_status_t fusecc_frozen_use(fusecc_frozen_t *frozen,
                                  const fusecc_graph_call_t *call, int force,
                                  const CUdeviceptr **out_workspaces) {
  const fusecc_driver_t *driver = frozen->driver;
  *out_workspaces = NULL;
  pthread_mutex_lock(&frozen->mutex);
  frozen_entry_t *record = &frozen->entries[call->entry_index];
  fusecc_status_t status = NULL;
  if (force || !is_current(record, call)) {
    CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
    CUresult result = driver->cuStreamIsCapturing(call->stream, &capture);
    if (result != CUDA_SUCCESS) {
      status = fusecc_cuda_status(driver, result, "cuStreamIsCapturing");
    } else if (capture != CU_STREAM_CAPTURE_STATUS_NONE) {
      if (force)
        status = fusecc_make_status(
            FUSECC_STATUS_INVALID_ARGUMENT,
            "entry '%s': frozen weights cannot be prepared on a capturing "
            "stream (prepare before the capture)",
            call->entry->name);
      else
        ++frozen->misses;
      pthread_mutex_unlock(&frozen->mutex);
      return status;
    } else {
      status = prepare_entry(driver, call, record);
      if (!status)
        ++frozen->prepare_runs;
    }
  }
  if (!status && !force) {
    ++frozen->calls;
    *out_workspaces = record->workspaces;
  }
  pthread_mutex_unlock(&frozen->mutex);
  return status;
}

void fusecc_frozen_stats(fusecc_frozen_t *frozen,
                         fusecc_launch_stats_t *stats) {
  if (!frozen)
    return;
  pthread_mutex_lock(&frozen->mutex);
  stats->frozen_prepare_runs = frozen->prepare_runs;
  stats->frozen_calls = frozen->calls;
  stats->frozen_misses = frozen->misses;
  pthread_mutex_unlock(&frozen->mutex);
}
