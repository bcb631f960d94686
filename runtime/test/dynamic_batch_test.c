/*===- dynamic_batch_test.c - launch-time batch (format 4) --------*- C -*-===//
 *
 * A dynamic-batch bundle against fake_cuda.c: the manifest's per-sample
 * records (`b` dims, `<n>*b` workspaces, grid z `b`, `max_batch`), the
 * batch read from argument shapes with a message for a batch outside
 * [1, max_batch] or another dim that differs, argument sizes, workspace
 * bytes and grids scaled by the batch at launch (direct and graph paths,
 * graphs keyed by the batch), and the parse errors of the new records.
 * Prints "N passed, M failed" last and exits non-zero on any failure.
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

static void (*fake_reset)(int alloc_failure, int launch_failure,
                          int free_failure);
static const char *(*fake_log)(void);
static void (*fake_log_grids)(int on);

/// The fake driver's log against `expected`, exactly (check.h).
#define CHECK_LOG(expected)                                                    \
  check_log_text(fake_log(), (expected), __FILE__, __LINE__)

/// Kernel names end in _p<N>: the fake logs N pointer params per launch.
static const char manifest[] =
    "fusecc-bundle 4\n"
    "chip sm_90\n"
    "precision ieee\n"
    "entry dec args 3 workspaces 2 steps 3 max_batch 8\n"
    "arg 0 in x f32 3 b 4 8\n"
    "arg 1 in w f32 1 8\n"
    "arg 2 out y f32 3 b 4 8\n"
    "workspace 0 f32 16 scratch\n"
    "workspace 1 f32 64*b intermediate\n"
    "launch pack_p2 grid 2 1 1 block 64 1 1 smem 0 params 2 1 w0\n"
    "launch main_p3 grid 4 1 b block 32 1 1 smem 0 params 3 0 w0 w1\n"
    "launch tail_p2 grid 4 2 b block 32 1 1 smem 0 params 2 w1 2\n"
    "graph %3 = relu %0\n"
    "graph return %3\n"
    "end\n"
    "entry fixed args 1 workspaces 0 steps 1\n"
    "arg 0 out only f32 1 16\n"
    "launch k_p1 grid 1 1 1 block 16 1 1 smem 0 params 1 0\n"
    "end\n"
    "ptx 13\n"
    ".version 8.0\n";

static void test_queries(fusecc_bundle_t bundle) {
  size_t max_batch = 99;
  CHECK_OK(fusecc_bundle_entry_max_batch(bundle, 0, &max_batch));
  CHECK(max_batch == 8);
  CHECK_OK(fusecc_bundle_entry_max_batch(bundle, 1, &max_batch));
  CHECK(max_batch == 0);
  int batched = -1;
  CHECK_OK(fusecc_bundle_arg_batched(bundle, 0, 0, &batched));
  CHECK(batched == 1);
  CHECK_OK(fusecc_bundle_arg_batched(bundle, 0, 1, &batched));
  CHECK(batched == 0);
  CHECK_STATUS(fusecc_bundle_arg_batched(bundle, 0, 3, &batched),
               FUSECC_STATUS_OUT_OF_RANGE, "arg index 3 out of range");
  // Arg info describes one sample.
  fusecc_arg_info_t info;
  CHECK_OK(fusecc_bundle_arg_info(bundle, 0, 0, &info));
  CHECK(info.rank == 3 && info.dims[0] == 1 && info.dims[1] == 4 &&
        info.byte_size == 32 * 4);
  fusecc_workspace_info_t ws;
  CHECK_OK(fusecc_bundle_workspace_info(bundle, 0, 1, &ws));
  CHECK(ws.element_count == 64);

  // The batch from the arguments' shapes.
  int64_t x[3] = {3, 4, 8}, w[1] = {8}, y[3] = {3, 4, 8};
  const int64_t *shapes[3] = {x, w, y};
  size_t ranks[3] = {3, 1, 3};
  size_t batch = 0;
  CHECK_OK(fusecc_bundle_batch_of_shapes(bundle, 0, ranks, shapes, 3, &batch));
  CHECK(batch == 3);
  x[0] = y[0] = 8;
  CHECK_OK(fusecc_bundle_batch_of_shapes(bundle, 0, ranks, shapes, 3, &batch));
  CHECK(batch == 8);
  x[0] = y[0] = 9;
  CHECK_STATUS(
      fusecc_bundle_batch_of_shapes(bundle, 0, ranks, shapes, 3, &batch),
      FUSECC_STATUS_OUT_OF_RANGE,
      "entry 'dec' arg 0 'x': batch 9 is outside the range it was compiled "
      "for (1 to 8, the --max-batch bound)");
  x[0] = y[0] = 0;
  CHECK_STATUS(
      fusecc_bundle_batch_of_shapes(bundle, 0, ranks, shapes, 3, &batch),
      FUSECC_STATUS_OUT_OF_RANGE, "batch 0 is outside the range");
  x[0] = 2;
  y[0] = 3;
  CHECK_STATUS(
      fusecc_bundle_batch_of_shapes(bundle, 0, ranks, shapes, 3, &batch),
      FUSECC_STATUS_INVALID_ARGUMENT,
      "arg 2 'y': batch 3 differs from the batch 2 of an earlier argument");
  y[0] = 2;
  x[1] = 5;
  CHECK_STATUS(
      fusecc_bundle_batch_of_shapes(bundle, 0, ranks, shapes, 3, &batch),
      FUSECC_STATUS_INVALID_ARGUMENT,
      "arg 0 'x': dim 1 is 5, expected 4 (only the batch dim 0 of batched "
      "arguments may vary)");
  x[1] = 4;
  w[0] = 2;
  CHECK_STATUS(
      fusecc_bundle_batch_of_shapes(bundle, 0, ranks, shapes, 3, &batch),
      FUSECC_STATUS_INVALID_ARGUMENT, "arg 1 'w': dim 0 is 2, expected 8");
  w[0] = 8;
  ranks[1] = 2;
  CHECK_STATUS(
      fusecc_bundle_batch_of_shapes(bundle, 0, ranks, shapes, 3, &batch),
      FUSECC_STATUS_INVALID_ARGUMENT, "arg 1 'w': expected rank 1, got 2");

  // Argument sizes at a batch.
  fusecc_buffer_t args[3] = {
      {0x100000, 2 * 32 * 4}, {0x200000, 8 * 4}, {0x300000, 2 * 32 * 4}};
  CHECK_OK(fusecc_bundle_validate_args_batch(bundle, 0, 2, args, 3));
  CHECK_STATUS(fusecc_bundle_validate_args_batch(bundle, 0, 3, args, 3),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'dec' arg 0 'x': expected a buffer of 384 bytes (96 x "
               "f32 at the call's batch), got 256 bytes");
  CHECK_STATUS(fusecc_bundle_validate_args_batch(bundle, 0, 9, args, 3),
               FUSECC_STATUS_OUT_OF_RANGE,
               "entry 'dec': batch 9 is outside the range it was compiled for "
               "(1 to 8, the --max-batch bound)");
  CHECK_STATUS(fusecc_bundle_validate_args(bundle, 0, args, 3),
               FUSECC_STATUS_OUT_OF_RANGE, "batch 0 is outside the range");
  fusecc_buffer_t only = {0x400000, 16 * 4};
  CHECK_STATUS(fusecc_bundle_validate_args_batch(bundle, 1, 2, &only, 1),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'fixed' has static shapes (no launch-time batch)");
  CHECK_OK(fusecc_bundle_validate_args_batch(bundle, 1, 0, &only, 1));
}

static void test_launch(fusecc_module_t module) {
  CUstream stream = (CUstream)(uintptr_t)7;
  fusecc_buffer_t args[3] = {
      {0x100000, 3 * 32 * 4}, {0x200000, 8 * 4}, {0x300000, 3 * 32 * 4}};
  // Per-sample workspaces and grids scale with the batch; the shared
  // workspace and the once-per-call launch do not.
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch_batch(module, 0, 3, args, 3, stream));
  CHECK_LOG("alloc 64 s7 -> 0x10000000\n"
            "alloc 768 s7 -> 0x10100000\n"
            "launch pack_p2 s7 grid 2 1 1 0x200000 0x10000000\n"
            "launch main_p3 s7 grid 4 1 3 0x100000 0x10000000 0x10100000\n"
            "launch tail_p2 s7 grid 4 2 3 0x10100000 0x300000\n"
            "free 0x10000000 s7\n"
            "free 0x10100000 s7\n");
  // The shapes' batch.
  int64_t x[3] = {1, 4, 8}, w[1] = {8}, y[3] = {1, 4, 8};
  const int64_t *shapes[3] = {x, w, y};
  size_t ranks[3] = {3, 1, 3};
  args[0].size_bytes = args[2].size_bytes = 32 * 4;
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch_shaped(module, 0, args, ranks, shapes, 3,
                                       stream));
  CHECK_LOG("alloc 64 s7 -> 0x10000000\n"
            "alloc 256 s7 -> 0x10100000\n"
            "launch pack_p2 s7 grid 2 1 1 0x200000 0x10000000\n"
            "launch main_p3 s7 grid 4 1 1 0x100000 0x10000000 0x10100000\n"
            "launch tail_p2 s7 grid 4 2 1 0x10100000 0x300000\n"
            "free 0x10000000 s7\n"
            "free 0x10100000 s7\n");
  // Pointers with the manifest's sizes at the batch.
  uint64_t pointers[3] = {0x100000, 0x200000, 0x300000};
  fake_reset(-1, -1, -1);
  CHECK_OK(
      fusecc_module_launch_pointers_batch(module, 0, 8, pointers, 3, stream));
  CHECK(strstr(fake_log(), "alloc 2048 s7") &&
        strstr(fake_log(), "grid 4 2 8"));
  // Out of range, or no batch at all: nothing is enqueued.
  fake_reset(-1, -1, -1);
  CHECK_STATUS(
      fusecc_module_launch_pointers_batch(module, 0, 9, pointers, 3, stream),
      FUSECC_STATUS_OUT_OF_RANGE, "batch 9 is outside the range");
  CHECK_STATUS(fusecc_module_launch(module, 0, args, 3, stream),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'dec' has a launch-time batch (1 to 8): call "
               "fusecc_module_launch_batch or fusecc_module_launch_shaped");
  CHECK_STATUS(fusecc_module_launch_pointers(module, 0, pointers, 3, stream),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "call fusecc_module_launch_pointers_batch");
  x[0] = 9;
  y[0] = 9;
  CHECK_STATUS(
      fusecc_module_launch_shaped(module, 0, args, ranks, shapes, 3, stream),
      FUSECC_STATUS_OUT_OF_RANGE, "arg 0 'x': batch 9 is outside the range");
  CHECK_LOG("");

  // The graph path: one graph per (entry, stream, batch).
  CHECK_OK(fusecc_module_set_launch_graphs(module, 1));
  fusecc_launch_stats_t before, after;
  CHECK_OK(fusecc_module_launch_stats(module, &before));
  CHECK_OK(
      fusecc_module_launch_pointers_batch(module, 0, 2, pointers, 3, stream));
  CHECK_OK(
      fusecc_module_launch_pointers_batch(module, 0, 5, pointers, 3, stream));
  CHECK_OK(
      fusecc_module_launch_pointers_batch(module, 0, 2, pointers, 3, stream));
  CHECK_OK(fusecc_module_launch_stats(module, &after));
  CHECK(after.graph_builds - before.graph_builds == 2);
  CHECK(after.graph_calls - before.graph_calls == 3);
  CHECK_OK(fusecc_module_set_launch_graphs(module, 0));
}

/// Parses `text` and expects a parse error containing `needle`.
static void check_parse_error(const char *text, const char *needle, int line) {
  fusecc_bundle_t bundle = NULL;
  fusecc_status_t status = fusecc_bundle_parse(text, strlen(text), &bundle);
  check_status(status, FUSECC_STATUS_PARSE_ERROR, needle, __FILE__,
               "check_parse_error", line);
  fusecc_bundle_release(bundle);
}
#define CHECK_PARSE_ERROR(text, needle)                                        \
  check_parse_error((text), (needle), __LINE__)

#define HEAD(v) "fusecc-bundle " v "\nchip sm_90\nprecision ieee\n"
#define TAIL "end\nptx 13\n.version 8.0\n"

static void test_parse_errors(void) {
  CHECK_PARSE_ERROR(HEAD("4") "entry e args 1 workspaces 0 steps 1\n"
                              "arg 0 out y f32 2 b 4\n" TAIL,
                    "arg 0 'y' has a batch dim 'b' but entry 'e' has no "
                    "'max_batch'");
  CHECK_PARSE_ERROR(HEAD("3") "entry e args 1 workspaces 0 steps 1 "
                              "max_batch 4\n" TAIL,
                    "unexpected 'max_batch' after the step count");
  CHECK_PARSE_ERROR(HEAD("4") "entry e args 1 workspaces 0 steps 1 "
                              "max_batch 0\n" TAIL,
                    "max_batch 0 is out of range (expected 1 to 65535)");
  CHECK_PARSE_ERROR(HEAD("4") "entry e args 1 workspaces 0 steps 1 "
                              "max_batch 65536\n" TAIL,
                    "max_batch 65536 is out of range");
  CHECK_PARSE_ERROR(HEAD("4") "entry e args 1 workspaces 1 steps 1\n"
                              "arg 0 out y f32 1 4\n"
                              "workspace 0 f32 8*b scratch\n" TAIL,
                    "workspace 0 is per sample ('*b') but entry 'e' has no "
                    "'max_batch'");
  CHECK_PARSE_ERROR(HEAD("4") "entry e args 1 workspaces 0 steps 1\n"
                              "arg 0 out y f32 1 4\n"
                              "launch k_p1 grid 1 1 b block 1 1 1 smem 0 "
                              "params 1 0\n" TAIL,
                    "grid z 'b' but entry 'e' has no 'max_batch'");
  // One sample of 2^62 f32 elements: its bytes at the bound overflow.
  CHECK_PARSE_ERROR(HEAD("4") "entry e args 1 workspaces 0 steps 1 "
                              "max_batch 8\n"
                              "arg 0 out y f32 2 b 1152921504606846976\n" TAIL,
                    "overflows");
  CHECK_PARSE_ERROR(HEAD("4") "entry e args 1 workspaces 1 steps 1 "
                              "max_batch 65535\n"
                              "arg 0 out y f32 2 b 4\n"
                              "workspace 0 f32 1152921504606846976*b "
                              "scratch\n" TAIL,
                    "byte size of workspace 0 overflows");
  CHECK_PARSE_ERROR(HEAD("5") TAIL, "reads versions 1, 2, 3 and 4");
}

int main(void) {
  setenv("FUSECC_CUDA_DRIVER_LIBRARY", FUSECC_FAKE_DRIVER, 1);
  setenv("FUSECC_LAUNCH_GRAPHS", "0", 1);
  void *fake = dlopen(FUSECC_FAKE_DRIVER, RTLD_NOW | RTLD_LOCAL);
  if (!fake) {
    fprintf(stderr, "cannot open the fake driver %s: %s\n", FUSECC_FAKE_DRIVER,
            dlerror());
    return 1;
  }
  *(void **)&fake_reset = dlsym(fake, "fake_cuda_reset");
  *(void **)&fake_log = dlsym(fake, "fake_cuda_log");
  *(void **)&fake_log_grids = dlsym(fake, "fake_cuda_log_grids");
  if (!fake_reset || !fake_log || !fake_log_grids) {
    fprintf(stderr, "the fake driver lacks its control functions\n");
    return 1;
  }
  fake_log_grids(1);
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(fusecc_bundle_parse(manifest, strlen(manifest), &bundle));
  if (bundle) {
    test_queries(bundle);
    fusecc_module_t module = NULL;
    CHECK_OK(fusecc_module_load(bundle, &module));
    if (module) {
      test_launch(module);
      fusecc_module_release(module);
    }
  }
  fusecc_bundle_release(bundle);
  test_parse_errors();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
