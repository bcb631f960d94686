/*===- launch_graph_test.c - The graph launch path against a fake driver -===//
 *
 * Runs fusecc_module_launch's graph path (launch_graph.c) against
 * fake_cuda.c, so it needs no GPU: a multi-step entry is built once per
 * (entry, stream) as a graph of kernel and memset nodes in step order with
 * workspaces of its own, replayed with one cuGraphLaunch, re-pointed when
 * argument pointers change; single-launch entries, capturing streams and
 * disabled graphs take the direct path; build failures fall back to it;
 * replay and re-pointing failures come back as statuses; the cache evicts
 * its least recently used graph past FUSECC_GRAPH_CACHE_SLOTS; release frees
 * every graph and workspace. Prints "N passed, M failed" last and exits
 * non-zero on any failure.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200112L

#include "fusecc/runtime.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/// The fake driver's control functions (fake_cuda.c).
static void (*fake_reset)(int alloc_failure, int launch_failure,
                          int free_failure);
static const char *(*fake_log)(void);
static void (*fake_fail_call)(const char *call, int nth, int result);
static int (*fake_live_const_allocations)(void);
static void (*fake_set_capturing)(CUstream stream, int on);
static void (*fake_live_graphs)(int *live_graphs, int *live_execs);

/// The fake driver's log against `expected`, exactly (check.h).
#define CHECK_LOG(expected)                                                    \
  check_log_text(fake_log(), (expected), __FILE__, __LINE__)

/// Kernel names end in _p<N>: the fake logs N pointer params per node.
/// `dec`: zero steps, workspaces, two launches; `conv`: two launches, no
/// workspace; `one`: a single launch (always direct).
static const char manifest[] =
    "fusecc-bundle 3\n"
    "chip sm_90a\n"
    "precision tf32\n"
    "entry dec args 2 workspaces 2 steps 4\n"
    "arg 0 in x f32 1 8\n"
    "arg 1 out y f32 1 8\n"
    "workspace 0 f32 16 intermediate\n"
    "workspace 1 f32 4 partials\n"
    "zero w1\n"
    "launch k0_p3 grid 2 1 1 block 32 1 1 smem 0 params 3 0 w0 w1\n"
    "zero w0\n"
    "launch k1_p3 grid 1 1 1 block 32 1 1 smem 0 params 3 w0 w1 1\n"
    "end\n"
    "entry conv args 3 workspaces 0 steps 2\n"
    "arg 0 in x f32 1 8\n"
    "arg 1 in w f32 1 8\n"
    "arg 2 out y f32 1 8\n"
    "launch a_p2 grid 1 1 1 block 32 1 1 smem 0 params 2 0 2\n"
    "launch b_p2 grid 1 1 1 block 32 1 1 smem 0 params 2 1 2\n"
    "end\n"
    "entry one args 1 workspaces 0 steps 1\n"
    "arg 0 out y f32 1 8\n"
    "launch c_p1 grid 1 1 1 block 32 1 1 smem 0 params 1 0\n"
    "end\n"
    "ptx 13\n"
    ".version 8.0\n";

static fusecc_module_t load(void) {
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(fusecc_bundle_parse(manifest, strlen(manifest), &bundle));
  fusecc_module_t module = NULL;
  if (bundle)
    CHECK_OK(fusecc_module_load(bundle, &module));
  fusecc_bundle_release(bundle);
  return module;
}

static fusecc_launch_stats_t stats_of(fusecc_module_t module) {
  fusecc_launch_stats_t stats;
  memset(&stats, 0xff, sizeof(stats));
  CHECK_OK(fusecc_module_launch_stats(module, &stats));
  return stats;
}

/// Built once, replayed; workspaces owned by the graph, zero steps as
/// memset nodes, all in step order; new pointers re-point only the nodes
/// that read them.
static void test_build_replay_repoint(void) {
  fake_reset(-1, -1, -1);
  fusecc_module_t module = load();
  if (!module)
    return;
  CUstream stream = (CUstream)(uintptr_t)7;
  fusecc_buffer_t args[2] = {{0x1000, 32}, {0x2000, 32}};
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 2, stream));
  CHECK_LOG("memalloc 64 -> 0x20000000\n"
            "memalloc 16 -> 0x20010000\n"
            "graph g1\n"
            "node g1 memset 0x20010000 16 after 0\n"
            "node g1 k0_p3 0x1000 0x20000000 0x20010000 after 1\n"
            "node g1 memset 0x20000000 64 after 1\n"
            "node g1 k1_p3 0x20000000 0x20010000 0x2000 after 1\n"
            "instantiate g1 -> e1\n"
            "graphlaunch e1 s7\n"
            "  memset 0x20010000 16\n"
            "  k0_p3 0x1000 0x20000000 0x20010000\n"
            "  memset 0x20000000 64\n"
            "  k1_p3 0x20000000 0x20010000 0x2000\n");

  // Same pointers: one driver call.
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 2, stream));
  CHECK_LOG("graphlaunch e1 s7\n"
            "  memset 0x20010000 16\n"
            "  k0_p3 0x1000 0x20000000 0x20010000\n"
            "  memset 0x20000000 64\n"
            "  k1_p3 0x20000000 0x20010000 0x2000\n");

  // A new output: only the node reading it is re-pointed.
  fake_reset(-1, -1, -1);
  args[1].ptr = 0x3000;
  CHECK_OK(fusecc_module_launch(module, 0, args, 2, stream));
  CHECK_LOG("setparams e1 k1_p3 0x20000000 0x20010000 0x3000\n"
            "graphlaunch e1 s7\n"
            "  memset 0x20010000 16\n"
            "  k0_p3 0x1000 0x20000000 0x20010000\n"
            "  memset 0x20000000 64\n"
            "  k1_p3 0x20000000 0x20010000 0x3000\n");

  // Another stream: a graph (and workspaces) of its own.
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 2, (CUstream)(uintptr_t)9));
  CHECK(strstr(fake_log(), "memalloc 64 -> 0x20000000\n") == fake_log());
  CHECK(strstr(fake_log(), "instantiate g2 -> e2\ngraphlaunch e2 s9\n"));

  // A two-launch entry without workspaces is a graph too; a one-launch
  // entry is launched directly.
  fusecc_buffer_t conv[3] = {{0x1000, 32}, {0x2000, 32}, {0x3000, 32}};
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 1, conv, 3, stream));
  CHECK_LOG("graph g3\n"
            "node g3 a_p2 0x1000 0x3000 after 0\n"
            "node g3 b_p2 0x2000 0x3000 after 1\n"
            "instantiate g3 -> e3\n"
            "graphlaunch e3 s7\n"
            "  a_p2 0x1000 0x3000\n"
            "  b_p2 0x2000 0x3000\n");
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 2, conv + 2, 1, stream));
  CHECK_LOG("launch c_p1 s7 0x3000\n");

  fusecc_launch_stats_t stats = stats_of(module);
  CHECK(stats.direct_calls == 1 && stats.graph_calls == 5 &&
        stats.graph_builds == 3 && stats.graph_updates == 1 &&
        stats.graph_evictions == 0 && stats.graph_build_failures == 0 &&
        stats.live_graphs == 3);

  // Release: the context is synchronized (graphs own workspaces), then
  // every graph, executable graph and workspace is freed.
  fake_reset(-1, -1, -1);
  int before = fake_live_const_allocations();
  fusecc_module_release(module);
  CHECK(strncmp(fake_log(), "sync\n", 5) == 0);
  CHECK(fake_live_const_allocations() == before - 4);
  int graphs = -1, execs = -1;
  fake_live_graphs(&graphs, &execs);
  CHECK(graphs == 0 && execs == 0);
}

/// A capturing stream (torch.compile reduce-overhead, torch.cuda.graph)
/// gets the steps directly; disabled graphs likewise.
static void test_direct_paths(void) {
  fake_reset(-1, -1, -1);
  fusecc_module_t module = load();
  if (!module)
    return;
  CUstream stream = (CUstream)(uintptr_t)5;
  fusecc_buffer_t conv[3] = {{0x1000, 32}, {0x2000, 32}, {0x3000, 32}};
  fake_set_capturing(stream, 1);
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 1, conv, 3, stream));
  CHECK_LOG("launch a_p2 s5 0x1000 0x3000\n"
            "launch b_p2 s5 0x2000 0x3000\n");
  fake_set_capturing(NULL, 0);

  // A stream the driver cannot query: direct (which reports its errors).
  fake_reset(-1, -1, -1);
  fake_fail_call("cuStreamIsCapturing", 0, CUDA_ERROR_INVALID_VALUE);
  CHECK_OK(fusecc_module_launch(module, 1, conv, 3, stream));
  CHECK_LOG("launch a_p2 s5 0x1000 0x3000\n"
            "launch b_p2 s5 0x2000 0x3000\n");

  CHECK_OK(fusecc_module_set_launch_graphs(module, 0));
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 1, conv, 3, stream));
  CHECK_LOG("launch a_p2 s5 0x1000 0x3000\n"
            "launch b_p2 s5 0x2000 0x3000\n");
  CHECK_OK(fusecc_module_set_launch_graphs(module, 1));
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 1, conv, 3, stream));
  CHECK(strstr(fake_log(), "graphlaunch"));
  CHECK(stats_of(module).direct_calls == 3);
  CHECK_STATUS(fusecc_module_set_launch_graphs(NULL, 1),
               FUSECC_STATUS_INVALID_ARGUMENT, "module is NULL");
  CHECK_STATUS(fusecc_module_launch_stats(module, NULL),
               FUSECC_STATUS_INVALID_ARGUMENT, "out_stats is NULL");
  fusecc_module_release(module);

  // FUSECC_LAUNCH_GRAPHS=0 at load turns the path off.
  setenv("FUSECC_LAUNCH_GRAPHS", "0", 1);
  module = load();
  unsetenv("FUSECC_LAUNCH_GRAPHS");
  if (!module)
    return;
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 1, conv, 3, stream));
  CHECK_LOG("launch a_p2 s5 0x1000 0x3000\n"
            "launch b_p2 s5 0x2000 0x3000\n");
  fusecc_module_release(module);
}

/// Build failures fall back to the direct path (the call succeeds) and
/// leak nothing; a later call builds again. Replay and re-pointing
/// failures are reported.
static void test_failures(void) {
  fake_reset(-1, -1, -1);
  fusecc_module_t module = load();
  if (!module)
    return;
  CUstream stream = (CUstream)(uintptr_t)7;
  fusecc_buffer_t args[2] = {{0x1000, 32}, {0x2000, 32}};
  const char *build_calls[] = {"cuMemAlloc", "cuGraphCreate",
                               "cuGraphAddMemsetNode", "cuGraphAddKernelNode",
                               "cuGraphInstantiate"};
  int live = fake_live_const_allocations();
  for (size_t i = 0; i < sizeof(build_calls) / sizeof(build_calls[0]); ++i) {
    fake_reset(-1, -1, -1);
    fake_fail_call(build_calls[i], i == 0 ? 1 : 0, CUDA_ERROR_OUT_OF_MEMORY);
    CHECK_OK(fusecc_module_launch(module, 0, args, 2, stream));
    // The direct path ran: its workspaces come from the stream.
    CHECK(strstr(fake_log(), "launch k1_p3 s7 0x10000000 0x10100000 0x2000"));
    CHECK(!strstr(fake_log(), "graphlaunch"));
    CHECK(fake_live_const_allocations() == live);
    int graphs = -1, execs = -1;
    fake_live_graphs(&graphs, &execs);
    CHECK(graphs == 0 && execs == 0);
  }
  fusecc_launch_stats_t stats = stats_of(module);
  CHECK(stats.graph_build_failures == 5 && stats.direct_calls == 5 &&
        stats.live_graphs == 0);

  // A failing replay is reported; the graph stays for the next call.
  fake_reset(-1, -1, -1);
  fake_fail_call("cuGraphLaunch", 0, CUDA_ERROR_LAUNCH_FAILED);
  CHECK_STATUS(fusecc_module_launch(module, 0, args, 2, stream),
               FUSECC_STATUS_CUDA_ERROR,
               "entry 'dec': cuGraphLaunch failed: CUDA_ERROR_LAUNCH_FAILED");
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 2, stream));
  CHECK(strncmp(fake_log(), "graphlaunch", 11) == 0);

  // A failing re-pointing is reported and drops the graph (after a
  // synchronization: it owns workspaces); the next call builds anew.
  fake_reset(-1, -1, -1);
  fake_fail_call("cuGraphExecKernelNodeSetParams", 0, CUDA_ERROR_INVALID_VALUE);
  args[0].ptr = 0x5000;
  CHECK_STATUS(fusecc_module_launch(module, 0, args, 2, stream),
               FUSECC_STATUS_CUDA_ERROR,
               "entry 'dec' launch 0 (kernel 'k0_p3'): "
               "cuGraphExecKernelNodeSetParams failed");
  CHECK(strstr(fake_log(), "sync\n"));
  CHECK(stats_of(module).live_graphs == 0);
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 2, stream));
  CHECK(strstr(fake_log(), "graphlaunch"));
  CHECK(strstr(fake_log(), "  k0_p3 0x5000 "));
  fusecc_module_release(module);
}

/// Past FUSECC_GRAPH_CACHE_SLOTS (entry, stream) pairs the least recently
/// used graph is evicted (after a synchronization when it owns workspaces).
static void test_eviction(void) {
  fake_reset(-1, -1, -1);
  fusecc_module_t module = load();
  if (!module)
    return;
  fusecc_buffer_t conv[3] = {{0x1000, 32}, {0x2000, 32}, {0x3000, 32}};
  for (uintptr_t s = 1; s <= 16; ++s)
    CHECK_OK(fusecc_module_launch(module, 1, conv, 3, (CUstream)s));
  // Stream 1 used again: stream 2 is now the least recently used.
  CHECK_OK(fusecc_module_launch(module, 1, conv, 3, (CUstream)1));
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 1, conv, 3, (CUstream)17));
  // No workspaces: no synchronization.
  CHECK(strncmp(fake_log(), "destroy e", 9) == 0);
  CHECK(!strstr(fake_log(), "sync"));
  fusecc_launch_stats_t stats = stats_of(module);
  CHECK(stats.graph_evictions == 1 && stats.live_graphs == 16 &&
        stats.graph_builds == 17);
  // Stream 1's graph survived: a replay, not a build.
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 1, conv, 3, (CUstream)1));
  CHECK(strncmp(fake_log(), "graphlaunch", 11) == 0);
  fusecc_module_release(module);
}

int main(void) {
  setenv("FUSECC_CUDA_DRIVER_LIBRARY", FUSECC_FAKE_DRIVER, 1);
  unsetenv("FUSECC_LAUNCH_GRAPHS");
  void *fake = dlopen(FUSECC_FAKE_DRIVER, RTLD_NOW | RTLD_LOCAL);
  if (!fake) {
    fprintf(stderr, "cannot open the fake driver %s: %s\n", FUSECC_FAKE_DRIVER,
            dlerror());
    return 1;
  }
  *(void **)&fake_reset = dlsym(fake, "fake_cuda_reset");
  *(void **)&fake_log = dlsym(fake, "fake_cuda_log");
  *(void **)&fake_fail_call = dlsym(fake, "fake_cuda_fail_call");
  *(void **)&fake_live_const_allocations =
      dlsym(fake, "fake_cuda_live_const_allocations");
  *(void **)&fake_set_capturing = dlsym(fake, "fake_cuda_set_capturing");
  *(void **)&fake_live_graphs = dlsym(fake, "fake_cuda_live_graphs");
  if (!fake_reset || !fake_log || !fake_fail_call ||
      !fake_live_const_allocations || !fake_set_capturing ||
      !fake_live_graphs) {
    fprintf(stderr, "the fake driver lacks its control functions\n");
    return 1;
  }
  test_build_replay_repoint();
  test_direct_paths();
  test_failures();
  test_eviction();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
