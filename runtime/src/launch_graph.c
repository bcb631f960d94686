/*===- launch_graph.c - Multi-step entries replayed as CUDA graphs -*- C
 *-*-===//
 *
 * The graph launch path of fusecc_module_launch. An entry with more than one
 * step, or with workspaces, costs one driver call per kernel launch, zero
 * step, workspace allocation and free on every call when it is enqueued step
 * by step. Here it is built once per (entry, stream) as a CUDA graph with
 * cuGraphCreate / cuGraphAddKernelNode / cuGraphAddMemsetNode (a chain, in
 * step order), instantiated, and replayed with one cuGraphLaunch per call.
 *
 * Why built explicitly rather than captured with cuStreamBeginCapture on the
 * caller's stream: a capture on that stream would swallow work another
 * thread enqueues there meanwhile, and in global capture mode it would make
 * other threads' unsafe calls fail; building the graph touches no stream.
 *
 * The graph owns its workspaces (cuMemAlloc, kept with the graph): graph
 * launches of one executable graph are ordered behind each other (driver
 * guarantee), so the same workspaces serve every replay. Different streams
 * get different graphs (and workspaces), so calls on different streams stay
 * concurrent. When the argument pointers differ from the last replay of that
 * graph, the kernel nodes that read a changed pointer are re-pointed with
 * cuGraphExecKernelNodeSetParams (launches in flight are unaffected).
 *
 * An entry's prepare steps (`prepare <P>`: weight re-layouts into its
 * `prepared` workspaces) come first in its graph, so a call that runs them
 * costs one graph launch like any other. Where the module reuses prepared
 * workspaces (fusecc_module_set_reuse_prepared), the slot also holds a
 * graph of the other steps alone (same workspaces), built at the first call
 * that skips them: the prepare steps run only at the slot's first call,
 * when a pointer they read changed since their last run on it, and after
 * the module's fusecc_module_invalidate_prepared; the other calls replay
 * the graph without them. Both graphs are replayed on the slot's stream, so
 * each is ordered behind the other's earlier replays. Each graph holds its
 * own record of the pointers its nodes read and is re-pointed only when it
 * is the one launched.
 *
 * A call on a capturing stream (a user's torch.cuda.graph, torch.compile's
 * reduce-overhead) runs every step directly, the prepare steps included, at
 * every replay of the capture: the replay does not call the runtime, so
 * nothing could notice a weight written in place between two replays (an
 * optimizer step, a copy_), and its workspaces are the capture's own
 * stream-ordered allocations, which do not outlive one replay.
 *
 * Under frozen weights (launch_frozen.c) a call whose prepare steps'
 * results are the module's frozen workspaces gets a slot of its own (the
 * key holds whether a call is frozen): its `prepared` workspaces are the
 * frozen ones, borrowed, and its one graph leaves the prepare steps out.
 *
 * At most FUSECC_GRAPH_CACHE_SLOTS graphs per module; past that the least
 * recently used is evicted, which synchronizes the context first when it
 * owns workspaces (they may be in use by a replay in flight).
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/// One instantiated graph of a slot: the entry's steps from `first` on.
typedef struct slot_graph_s {
  CUgraph graph;
  CUgraphExec exec;
  /// Per launch record, its kernel node (NULL for launches not in it).
  CUgraphNode *nodes;
  /// The argument pointers its kernel nodes hold now, one per entry arg.
  CUdeviceptr *arg_ptrs;
} slot_graph_t;

/// The graphs of an entry for one stream.
typedef struct graph_slot_s {
  /// 0 when the slot is free.
  int used;
  size_t entry_index;
  CUstream stream;
  /// The launch-time batch it was built for (0: a static entry).
  size_t batch;
  /// Whether it serves frozen calls (launch_frozen.c): then its `prepared`
  /// workspaces are the module's frozen ones (`borrowed`, not freed here)
  /// and its one graph, `whole`, leaves the prepare steps out.
  int frozen;
  unsigned char *borrowed;
  /// The tick of its last replay (least recently used is evicted).
  uint64_t last_use;
  size_t arg_count;
  /// The graphs' own workspaces (cuMemAlloc), one per entry workspace.
  CUdeviceptr *workspaces;
  size_t workspace_count;
  /// Every step of the entry, its prepare steps first.
  slot_graph_t whole;
  /// The steps after the prepare steps, for the calls that reuse the
  /// prepared workspaces (exec NULL until the first such call).
  slot_graph_t reuse;
  /// Whether the prepare steps ran on this slot's workspaces, at which
  /// module invalidation count, and the argument pointers they read then.
  int prepared;
  uint64_t prepared_generation;
  CUdeviceptr *prepared_ptrs;
} graph_slot_t;

struct fusecc_graph_cache_s {
  const fusecc_driver_t *driver;
  CUcontext context;
  pthread_mutex_t mutex;
  uint64_t tick;
  graph_slot_t slots[FUSECC_GRAPH_CACHE_SLOTS];
  /// Counters of fusecc_launch_stats_t (all but direct_calls).
  uint64_t graph_calls, graph_builds, graph_updates, graph_evictions,
      graph_build_failures, prepare_runs, prepare_reuses;
};

fusecc_graph_cache_t *fusecc_graph_cache_create(const fusecc_driver_t *driver,
                                                CUcontext context) {
  fusecc_graph_cache_t *cache = calloc(1, sizeof(*cache));
  if (!cache)
    return NULL;
  if (pthread_mutex_init(&cache->mutex, NULL) != 0) {
    free(cache);
    return NULL;
  }
  cache->driver = driver;
  cache->context = context;
  return cache;
}

/// Frees `graph`'s executable graph, graph and records.
static void free_graph(const fusecc_driver_t *driver, slot_graph_t *graph) {
  if (graph->exec)
    driver->cuGraphExecDestroy(graph->exec);
  if (graph->graph)
    driver->cuGraphDestroy(graph->graph);
  free(graph->nodes);
  free(graph->arg_ptrs);
  memset(graph, 0, sizeof(*graph));
}

/// Frees the slot's graphs and workspaces. `in_flight`: a graph may have
/// been launched, so the context is synchronized before its workspaces are
/// freed.
static void free_slot(fusecc_graph_cache_t *cache, graph_slot_t *slot,
                      int in_flight) {
  const fusecc_driver_t *driver = cache->driver;
  int any_workspace = 0;
  for (size_t k = 0; slot->workspaces && k < slot->workspace_count; ++k)
    any_workspace |= slot->workspaces[k] != 0 && !slot->borrowed[k];
  // An executable graph in flight is freed by the driver when it completes;
  // its workspaces are not: wait for them.
  if (in_flight && any_workspace)
    driver->cuCtxSynchronize();
  free_graph(driver, &slot->whole);
  free_graph(driver, &slot->reuse);
  for (size_t k = 0; any_workspace && k < slot->workspace_count; ++k)
    if (slot->workspaces[k] && !slot->borrowed[k])
      driver->cuMemFree(slot->workspaces[k]);
  free(slot->prepared_ptrs);
  free(slot->borrowed);
  free(slot->workspaces);
  memset(slot, 0, sizeof(*slot));
}

void fusecc_graph_cache_destroy(fusecc_graph_cache_t *cache) {
  if (!cache)
    return;
  for (size_t i = 0; i < FUSECC_GRAPH_CACHE_SLOTS; ++i)
    if (cache->slots[i].used)
      free_slot(cache, &cache->slots[i], 1);
  pthread_mutex_destroy(&cache->mutex);
  free(cache);
}

/// Fills `params` with the addresses of launch `launch`'s pointers: the
/// call's arguments, the slot's workspaces, the module's constants.
static void fill_params(const fusecc_graph_call_t *call,
                        const graph_slot_t *slot, const fusecc_launch_t *launch,
                        void **params) {
  const fusecc_entry_t *entry = call->entry;
  size_t workspace_end = entry->arg_count + entry->workspace_count;
  for (size_t j = 0; j < launch->param_count; ++j) {
    size_t index = launch->param_args[j];
    params[j] = index < entry->arg_count ? (void *)&call->args[index].ptr
                : index < workspace_end
                    ? (void *)&slot->workspaces[index - entry->arg_count]
                    : (void *)&call->consts[index - workspace_end];
  }
}

/// The kernel node parameters of launch `l` of the call's entry.
static CUDA_KERNEL_NODE_PARAMS kernel_params(const fusecc_graph_call_t *call,
                                             size_t l, void **params) {
  const fusecc_launch_t *launch = &call->entry->launches[l];
  uint32_t full[3], grid[3];
  fusecc_launch_grid(launch, call->batch, full);
  fusecc_trim_grid(call->sanitize_block_limit, full, grid);
  CUDA_KERNEL_NODE_PARAMS p;
  memset(&p, 0, sizeof(p));
  p.func = call->functions[l];
  p.gridDimX = grid[0], p.gridDimY = grid[1], p.gridDimZ = grid[2];
  p.blockDimX = launch->block[0], p.blockDimY = launch->block[1];
  p.blockDimZ = launch->block[2];
  p.sharedMemBytes = launch->smem_bytes;
  p.kernelParams = params;
  return p;
}

/// Builds and instantiates steps [first, step_count) of the call's entry as
/// a chain into `graph` on the slot's workspaces (on failure `graph` keeps
/// what was made, for free_graph).
static fusecc_status_t build_graph(fusecc_graph_cache_t *cache,
                                   graph_slot_t *slot,
                                   const fusecc_graph_call_t *call,
                                   size_t first, slot_graph_t *graph) {
  const fusecc_driver_t *driver = cache->driver;
  const fusecc_entry_t *entry = call->entry;
  graph->arg_ptrs =
      calloc(entry->arg_count ? entry->arg_count : 1, sizeof(CUdeviceptr));
  graph->nodes = calloc(entry->launch_count ? entry->launch_count : 1,
                        sizeof(CUgraphNode));
  if (!graph->arg_ptrs || !graph->nodes)
    return fusecc_make_status(FUSECC_STATUS_RESOURCE_EXHAUSTED,
                              "out of memory building a launch graph");
  CUresult result = driver->cuGraphCreate(&graph->graph, 0);
  if (result != CUDA_SUCCESS) {
    graph->graph = NULL;
    return fusecc_cuda_status(driver, result, "cuGraphCreate");
  }
  void *params[FUSECC_MAX_PARAMS];
  CUgraphNode previous = NULL;
  for (size_t i = first; i < entry->step_count; ++i) {
    const fusecc_step_t *step = &entry->steps[i];
    CUgraphNode node = NULL;
    if (step->kind == FUSECC_STEP_ZERO) {
      CUDA_MEMSET_NODE_PARAMS memset_params;
      memset(&memset_params, 0, sizeof(memset_params));
      memset_params.dst = slot->workspaces[step->index];
      memset_params.elementSize = 1;
      memset_params.width =
          fusecc_workspace_bytes(&entry->workspaces[step->index], call->batch);
      memset_params.height = 1;
      result = driver->cuGraphAddMemsetNode(&node, graph->graph, &previous,
                                            previous ? 1 : 0, &memset_params,
                                            cache->context);
      if (result != CUDA_SUCCESS)
        return fusecc_annotate_status(
            fusecc_cuda_status(driver, result, "cuGraphAddMemsetNode"),
            "entry '%s' step %zu (zero w%zu): ", entry->name, i, step->index);
    } else {
      fill_params(call, slot, &entry->launches[step->index], params);
      CUDA_KERNEL_NODE_PARAMS p = kernel_params(call, step->index, params);
      result = driver->cuGraphAddKernelNode(&node, graph->graph, &previous,
                                            previous ? 1 : 0, &p);
      if (result != CUDA_SUCCESS)
        return fusecc_annotate_status(
            fusecc_cuda_status(driver, result, "cuGraphAddKernelNode"),
            "entry '%s' launch %zu (kernel '%s'): ", entry->name, step->index,
            entry->launches[step->index].kernel_name);
      graph->nodes[step->index] = node;
    }
    previous = node;
  }
  result = driver->cuGraphInstantiate(&graph->exec, graph->graph, 0);
  if (result != CUDA_SUCCESS) {
    graph->exec = NULL;
    return fusecc_annotate_status(
        fusecc_cuda_status(driver, result, "cuGraphInstantiate"),
        "entry '%s': ", entry->name);
  }
  for (size_t a = 0; a < entry->arg_count; ++a)
    graph->arg_ptrs[a] = call->args[a].ptr;
  return NULL;
}

/// Allocates the slot's workspaces for the call's entry and builds the
/// graph of all its steps into the empty `slot`. On failure the slot keeps
/// what was made, for free_slot.
static fusecc_status_t build_slot(fusecc_graph_cache_t *cache,
                                  graph_slot_t *slot,
                                  const fusecc_graph_call_t *call) {
  const fusecc_driver_t *driver = cache->driver;
  const fusecc_entry_t *entry = call->entry;
  slot->used = 1;
  slot->entry_index = call->entry_index;
  slot->stream = call->stream;
  slot->batch = call->batch;
  slot->frozen = call->frozen != NULL;
  slot->arg_count = entry->arg_count;
  slot->workspace_count = entry->workspace_count;
  slot->prepared_ptrs =
      calloc(entry->arg_count ? entry->arg_count : 1, sizeof(CUdeviceptr));
  slot->workspaces = calloc(entry->workspace_count ? entry->workspace_count : 1,
                            sizeof(CUdeviceptr));
  slot->borrowed =
      calloc(entry->workspace_count ? entry->workspace_count : 1, 1);
  if (!slot->prepared_ptrs || !slot->workspaces || !slot->borrowed)
    return fusecc_make_status(FUSECC_STATUS_RESOURCE_EXHAUSTED,
                              "out of memory building a launch graph");
  for (size_t k = 0; k < entry->workspace_count; ++k) {
    if (call->frozen && call->frozen[k]) {
      slot->workspaces[k] = call->frozen[k];
      slot->borrowed[k] = 1;
      continue;
    }
    size_t bytes = fusecc_workspace_bytes(&entry->workspaces[k], call->batch);
    CUresult result = driver->cuMemAlloc(&slot->workspaces[k], bytes);
    if (result != CUDA_SUCCESS) {
      slot->workspaces[k] = 0;
      return fusecc_annotate_status(
          fusecc_cuda_status(driver, result, "cuMemAlloc"),
          "entry '%s' graph workspace %zu (%zu bytes): ", entry->name, k,
          bytes);
    }
  }
  return build_graph(cache, slot, call, slot->frozen ? entry->prepare_count : 0,
                     &slot->whole);
}

/// Re-points the kernel nodes of `graph` that read an argument whose
/// pointer differs from the call's. Returns whether it re-pointed any in
/// `out_changed`.
static fusecc_status_t repoint_graph(fusecc_graph_cache_t *cache,
                                     graph_slot_t *slot, slot_graph_t *graph,
                                     const fusecc_graph_call_t *call,
                                     int *out_changed) {
  const fusecc_entry_t *entry = call->entry;
  *out_changed = 0;
  int any = 0;
  for (size_t a = 0; a < entry->arg_count && !any; ++a)
    any = graph->arg_ptrs[a] != call->args[a].ptr;
  if (!any)
    return NULL;
  void *params[FUSECC_MAX_PARAMS];
  for (size_t l = 0; l < entry->launch_count; ++l) {
    const fusecc_launch_t *launch = &entry->launches[l];
    int changed = 0;
    for (size_t j = 0; j < launch->param_count && !changed; ++j) {
      size_t index = launch->param_args[j];
      changed = index < entry->arg_count &&
                graph->arg_ptrs[index] != call->args[index].ptr;
    }
    if (!changed || !graph->nodes[l])
      continue;
    *out_changed = 1;
    fill_params(call, slot, launch, params);
    CUDA_KERNEL_NODE_PARAMS p = kernel_params(call, l, params);
    CUresult result = cache->driver->cuGraphExecKernelNodeSetParams(
        graph->exec, graph->nodes[l], &p);
    if (result != CUDA_SUCCESS)
      return fusecc_annotate_status(
          fusecc_cuda_status(cache->driver, result,
                             "cuGraphExecKernelNodeSetParams"),
          "entry '%s' launch %zu (kernel '%s'): ", entry->name, l,
          launch->kernel_name);
  }
  for (size_t a = 0; a < entry->arg_count; ++a)
    graph->arg_ptrs[a] = call->args[a].ptr;
  return NULL;
}

/// Whether the call must run its entry's prepare steps on the slot's
/// workspaces (see the file comment).
static int must_prepare(const graph_slot_t *slot,
                        const fusecc_graph_call_t *call) {
  const fusecc_entry_t *entry = call->entry;
  if (!entry->prepare_count)
    return 0;
  if (!call->reuse_prepared || !slot->prepared ||
      slot->prepared_generation != call->prepare_generation)
    return 1;
  for (size_t l = 0; l < entry->prepare_count; ++l) {
    const fusecc_launch_t *launch = &entry->launches[l];
    for (size_t j = 0; j < launch->param_count; ++j) {
      size_t index = launch->param_args[j];
      if (index < entry->arg_count &&
          slot->prepared_ptrs[index] != call->args[index].ptr)
        return 1;
    }
  }
  return 0;
}

/// The graph of the slot the call replays: the whole entry when its
/// prepare steps must run (or the graph without them cannot be built),
/// else the graph without them, built here at its first use.
static slot_graph_t *choose_graph(fusecc_graph_cache_t *cache,
                                  graph_slot_t *slot,
                                  const fusecc_graph_call_t *call,
                                  int *out_prepare) {
  *out_prepare = !slot->frozen && must_prepare(slot, call);
  if (*out_prepare || !call->entry->prepare_count || slot->frozen)
    return &slot->whole;
  if (!slot->reuse.exec) {
    fusecc_status_t status = build_graph(
        cache, slot, call, call->entry->prepare_count, &slot->reuse);
    if (status) {
      // Nothing of it was launched. This call runs the prepare steps again
      // with the rest; a later call tries again.
      fusecc_status_free(status);
      free_graph(cache->driver, &slot->reuse);
      ++cache->graph_build_failures;
      *out_prepare = 1;
      return &slot->whole;
    }
  }
  return &slot->reuse;
}

/// The slot of the call's (entry, stream, batch, frozen or not), or NULL.
static graph_slot_t *find_slot(fusecc_graph_cache_t *cache,
                               const fusecc_graph_call_t *call) {
  for (size_t i = 0; i < FUSECC_GRAPH_CACHE_SLOTS; ++i) {
    graph_slot_t *slot = &cache->slots[i];
    if (slot->used && slot->entry_index == call->entry_index &&
        slot->stream == call->stream && slot->batch == call->batch &&
        slot->frozen == (call->frozen != NULL))
      return slot;
  }
  return NULL;
}

/// A free slot, evicting the least recently used one when none is.
static graph_slot_t *take_slot(fusecc_graph_cache_t *cache) {
  graph_slot_t *oldest = NULL;
  for (size_t i = 0; i < FUSECC_GRAPH_CACHE_SLOTS; ++i) {
    graph_slot_t *slot = &cache->slots[i];
    if (!slot->used)
      return slot;
    if (!oldest || slot->last_use < oldest->last_use)
      oldest = slot;
  }
  free_slot(cache, oldest, 1);
  ++cache->graph_evictions;
  return oldest;
}

fusecc_status_t fusecc_graph_cache_launch(fusecc_graph_cache_t *cache,
                                          const fusecc_graph_call_t *call,
                                          int *out_launched) {
  const fusecc_driver_t *driver = cache->driver;
  *out_launched = 0;
  // Inside a capture (torch.compile's reduce-overhead, torch.cuda.graph)
  // the steps are launched directly, into the caller's graph. A stream the
  // driver cannot query takes the direct path too, which reports its error.
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  if (driver->cuStreamIsCapturing(call->stream, &capture) != CUDA_SUCCESS ||
      capture != CU_STREAM_CAPTURE_STATUS_NONE)
    return NULL;

  pthread_mutex_lock(&cache->mutex);
  fusecc_status_t status = NULL;
  graph_slot_t *slot = find_slot(cache, call);
  if (!slot) {
    slot = take_slot(cache);
    status = build_slot(cache, slot, call);
    if (status) {
      // Never launched: nothing in flight. This call launches directly;
      // a later call tries again (a build can fail transiently, e.g. while
      // another thread captures in global mode).
      free_slot(cache, slot, 0);
      fusecc_status_free(status);
      ++cache->graph_build_failures;
      pthread_mutex_unlock(&cache->mutex);
      return NULL;
    }
    ++cache->graph_builds;
  }
  slot->last_use = ++cache->tick;
  int prepare = 0;
  slot_graph_t *graph = choose_graph(cache, slot, call, &prepare);
  int changed = 0;
  status = repoint_graph(cache, slot, graph, call, &changed);
  if (status) {
    // The executable graph may be half re-pointed: drop it.
    free_slot(cache, slot, 1);
    pthread_mutex_unlock(&cache->mutex);
    *out_launched = 1;
    return status;
  }
  cache->graph_updates += (uint64_t)changed;
  // Until the launch succeeds the prepared workspaces are not current.
  if (prepare)
    slot->prepared = 0;
  CUresult result = driver->cuGraphLaunch(graph->exec, call->stream);
  if (result != CUDA_SUCCESS) {
    status = fusecc_annotate_status(
        fusecc_cuda_status(driver, result, "cuGraphLaunch"),
        "entry '%s'%s: ", call->entry->name,
        prepare ? " (with its prepare steps)" : "");
  } else {
    ++cache->graph_calls;
    if (prepare) {
      for (size_t a = 0; a < call->entry->arg_count; ++a)
        slot->prepared_ptrs[a] = call->args[a].ptr;
      slot->prepared_generation = call->prepare_generation;
      slot->prepared = 1;
      ++cache->prepare_runs;
    } else if (call->entry->prepare_count && !slot->frozen) {
      ++cache->prepare_reuses;
    }
  }
  pthread_mutex_unlock(&cache->mutex);
  *out_launched = 1;
  return status;
}

void fusecc_graph_cache_stats(fusecc_graph_cache_t *cache,
                              fusecc_launch_stats_t *stats) {
  if (!cache)
    return;
  pthread_mutex_lock(&cache->mutex);
  stats->graph_calls = cache->graph_calls;
  stats->graph_builds = cache->graph_builds;
  stats->graph_updates = cache->graph_updates;
  stats->graph_evictions = cache->graph_evictions;
  stats->graph_build_failures = cache->graph_build_failures;
  stats->prepare_runs = cache->prepare_runs;
  stats->prepare_reuses = cache->prepare_reuses;
  size_t live = 0;
  for (size_t i = 0; i < FUSECC_GRAPH_CACHE_SLOTS; ++i)
    live += (cache->slots[i].whole.exec != NULL) +
            (cache->slots[i].reuse.exec != NULL);
  stats->live_graphs = live;
  pthread_mutex_unlock(&cache->mutex);
}
