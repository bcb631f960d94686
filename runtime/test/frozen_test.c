/*===- frozen_test.c - Frozen weights: prepare once, every path --*- C -*-===//
 *
 * Frozen weights (fusecc_module_set_frozen_weights, launch_frozen.c) against
 * fake_cuda.c, so it needs no GPU: the prepare steps run once into the
 * module's own workspaces (cuMemAlloc, the stream synchronized), then every
 * call skips them: graph replays, direct launches and calls on a capturing
 * stream alike; a weight pointer change and fusecc_module_invalidate_prepared
 * (the refresh) prepare again, a stale store on a capturing stream captures
 * every step; fusecc_module_prepare and the errors. Prints "N passed, M
 * failed" last and exits non-zero on any failure.
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
static void (*fake_set_capturing)(CUstream stream, int on);

/// The fake driver's log against `expected`, exactly (check.h).
#define CHECK_LOG(expected)                                                    \
  check_log_text(fake_log(), (expected), __FILE__, __LINE__)

/// Kernel names end in _p<N>: the fake logs N pointer params per launch.
/// `conv`: a weight re-layout of w (arg 1) into w0 (prepared), then a
/// convolution of x with w0 into w1 (intermediate) and an epilogue into y.
static const char manifest[] =
    "fusecc-bundle 3\n"
    "chip sm_90a\n"
    "precision bf16\n"
    "entry conv args 3 workspaces 2 steps 3 prepare 1\n"
    "arg 0 in x f32 1 8\n"
    "arg 1 in w f32 1 8\n"
    "arg 2 out y f32 1 8\n"
    "workspace 0 f32 16 prepared\n"
    "workspace 1 f32 8 intermediate\n"
    "launch k0_wpack_p2 grid 1 1 1 block 32 1 1 smem 0 params 2 1 w0\n"
    "launch k0_p3 grid 2 1 1 block 32 1 1 smem 0 params 3 0 w0 w1\n"
    "launch k1_p2 grid 1 1 1 block 32 1 1 smem 0 params 2 w1 2\n"
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

/// Whether the fake's log holds `text`.
static int logged(const char *text) { return strstr(fake_log(), text) != NULL; }

static const CUstream stream = (CUstream)(uintptr_t)7;

/// The graph path: prepared once into the module's workspace (the first
/// cuMemAlloc, 0x20000000), the stream synchronized; the graph leaves the
/// re-layout out and every call replays it alone; a capture reads the same
/// workspace; the refresh and a new weight prepare again.
static void test_graph_path(void) {
  fake_reset(-1, -1, -1);
  fusecc_module_t module = load();
  if (!module)
    return;
  CHECK_OK(fusecc_module_set_frozen_weights(module, 1));
  fusecc_buffer_t args[3] = {{0x1000, 32}, {0x2000, 32}, {0x3000, 32}};
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK(logged("memalloc 64 -> 0x20000000\n"
               "launch k0_wpack_p2 s7 0x2000 0x20000000\n"
               "streamsync s7\n"
               "memalloc 32 -> 0x20010000\n"));
  CHECK(logged("  k0_p3 0x1000 0x20000000 0x20010000\n"
               "  k1_p2 0x20010000 0x3000\n"));
  CHECK(!logged("node g1 k0_wpack") && !logged("  k0_wpack"));
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK(logged("graphlaunch") && !logged("k0_wpack") && !logged("sync"));

  // A capture of the call: the later steps alone, on the frozen workspace.
  fake_set_capturing(stream, 1);
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK(logged("launch k0_p3 s7 0x1000 0x20000000 0x10000000\n"
               "launch k1_p2 s7 0x10000000 0x3000\n") &&
        !logged("k0_wpack"));
  fake_set_capturing(NULL, 0);
  fusecc_launch_stats_t stats = stats_of(module);
  CHECK(stats.frozen_prepare_runs == 1 && stats.frozen_calls == 3 &&
        stats.frozen_misses == 0 && stats.prepare_runs == 0 &&
        stats.prepare_reuses == 0 && stats.graph_calls == 2 &&
        stats.direct_calls == 1);

  // The refresh: the next call prepares again, into the same workspace.
  CHECK_OK(fusecc_module_invalidate_prepared(module));
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK(logged("launch k0_wpack_p2 s7 0x2000 0x20000000\n"
               "streamsync s7\n"
               "graphlaunch") &&
        !logged("memalloc"));

  // A new weight tensor: prepared from it.
  args[1].ptr = 0x5000;
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK(logged("launch k0_wpack_p2 s7 0x5000 0x20000000\n"));
  // A new input x (read by no prepare step): re-pointed, not re-prepared.
  args[0].ptr = 0x4000;
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK(!logged("k0_wpack") && logged("  k0_p3 0x4000 0x20000000"));

  // Stale on a capturing stream (after a refresh): every step captured on
  // workspaces of the call, the store left stale for the next call.
  CHECK_OK(fusecc_module_invalidate_prepared(module));
  fake_set_capturing(stream, 1);
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK(logged("launch k0_wpack_p2 s7 0x5000 0x10000000\n"
               "launch k0_p3 s7 0x4000 0x10000000 0x10100000\n") &&
        !logged("streamsync"));
  fake_set_capturing(NULL, 0);
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK(logged("launch k0_wpack_p2 s7 0x5000 0x20000000\n"));
  stats = stats_of(module);
  CHECK(stats.frozen_prepare_runs == 4 && stats.frozen_misses == 1 &&
        stats.frozen_calls == 7);

  // Frozen off again: the graph of every step, its own workspaces.
  CHECK_OK(fusecc_module_set_frozen_weights(module, 0));
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK(logged("memalloc 64 -> ") && logged("  k0_wpack_p2 0x5000 "));

  // Release frees the frozen workspace after a synchronization.
  fake_reset(-1, -1, -1);
  fusecc_module_release(module);
  CHECK(logged("memfree 0x20000000\n"));
}

/// The direct path (graphs off): the frozen workspace is passed, the
/// others allocated and freed stream-ordered; the explicit prepare.
static void test_direct_path(void) {
  fake_reset(-1, -1, -1);
  fusecc_module_t module = load();
  if (!module)
    return;
  CHECK_OK(fusecc_module_set_launch_graphs(module, 0));
  fusecc_buffer_t args[3] = {{0x1000, 32}, {0x2000, 32}, {0x3000, 32}};
  CHECK_STATUS(fusecc_module_prepare(module, 0, 0, args, 3, stream),
               FUSECC_STATUS_INVALID_ARGUMENT, "frozen weights are off");
  CHECK_OK(fusecc_module_set_frozen_weights(module, 1));
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_prepare(module, 0, 0, args, 3, stream));
  CHECK_LOG("memalloc 64 -> 0x20000000\n"
            "launch k0_wpack_p2 s7 0x2000 0x20000000\n"
            "streamsync s7\n");
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK_LOG("alloc 32 s7 -> 0x10000000\n"
            "launch k0_p3 s7 0x1000 0x20000000 0x10000000\n"
            "launch k1_p2 s7 0x10000000 0x3000\n"
            "free 0x10000000 s7\n");
  // The explicit prepare runs even when current; not on a capture.
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_prepare(module, 0, 0, args, 3, stream));
  CHECK(logged("launch k0_wpack_p2 s7 0x2000 0x20000000\n"));
  fake_set_capturing(stream, 1);
  CHECK_STATUS(fusecc_module_prepare(module, 0, 0, args, 3, stream),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'conv': frozen weights cannot be prepared on a "
               "capturing stream");
  fake_set_capturing(NULL, 0);
  CHECK_STATUS(fusecc_module_prepare(module, 0, 0, args, 2, stream),
               FUSECC_STATUS_INVALID_ARGUMENT, "takes 3 args, got 2");
  fusecc_launch_stats_t stats = stats_of(module);
  CHECK(stats.frozen_prepare_runs == 2 && stats.frozen_calls == 1 &&
        stats.direct_calls == 1);

  // A failing synchronization is reported; the next call prepares again.
  CHECK_OK(fusecc_module_invalidate_prepared(module));
  fake_reset(-1, -1, -1);
  fake_fail_call("cuStreamSynchronize", 0, CUDA_ERROR_LAUNCH_FAILED);
  CHECK_STATUS(fusecc_module_launch(module, 0, args, 3, stream),
               FUSECC_STATUS_CUDA_ERROR,
               "entry 'conv', preparing frozen weights: cuStreamSynchronize");
  fake_reset(-1, -1, -1);
  fake_fail_call("cuMemAlloc", 0, CUDA_ERROR_OUT_OF_MEMORY);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK(logged("launch k0_wpack_p2 s7 0x2000 0x20000000\n"));
  fusecc_module_release(module);

  // The frozen workspace's allocation failing is reported with its entry.
  fake_reset(-1, -1, -1);
  module = load();
  if (!module)
    return;
  CHECK_OK(fusecc_module_set_frozen_weights(module, 1));
  fake_reset(-1, -1, -1);
  fake_fail_call("cuMemAlloc", 0, CUDA_ERROR_OUT_OF_MEMORY);
  CHECK_STATUS(fusecc_module_launch(module, 0, args, 3, stream),
               FUSECC_STATUS_CUDA_ERROR,
               "entry 'conv' frozen workspace 0 (64 bytes): cuMemAlloc");
  fusecc_module_release(module);

  CHECK_STATUS(fusecc_module_set_frozen_weights(NULL, 1),
               FUSECC_STATUS_INVALID_ARGUMENT, "module is NULL");
  CHECK_STATUS(fusecc_module_prepare(NULL, 0, 0, args, 3, stream),
               FUSECC_STATUS_INVALID_ARGUMENT, "module is NULL");
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
  *(void **)&fake_set_capturing = dlsym(fake, "fake_cuda_set_capturing");
  if (!fake_reset || !fake_log || !fake_fail_call || !fake_set_capturing) {
    fprintf(stderr, "the fake driver lacks its control functions\n");
    return 1;
  }
  test_graph_path();
  test_direct_path();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
