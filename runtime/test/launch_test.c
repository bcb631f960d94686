/*===- launch_test.c - fusecc_module_launch against a fake driver -*- C -*-===//
 *
 * Runs the launch path against fake_cuda.c (FUSECC_CUDA_DRIVER_LIBRARY), so
 * it needs no GPU: which driver calls a launch makes, in which order, on
 * which stream and with which pointers, for entries with and without
 * workspaces, and that workspaces are freed on every error path. Prints
 * "N passed, M failed" last and exits non-zero on any failure.
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
static int (*fake_live_allocations)(void);
static void (*fake_pool_state)(int *created, int *destroyed,
                               unsigned long long *threshold);
static void (*fake_fail_pool_create)(int fail);

/// Checks the fake driver's log against `expected` exactly.
static void check_log(const char *expected, int line) {
  const char *log = fake_log();
  if (strcmp(log, expected) == 0) {
    ++passed;
  } else {
    ++failed;
    fprintf(stderr, "%s:%d: driver log mismatch\n--- expected\n%s--- got\n%s",
            __FILE__, line, expected, log);
  }
}

#define CHECK_LOG(expected) check_log((expected), __LINE__)

/// Kernel names end in _p<N>: the fake logs N pointer params per launch.
static const char manifest[] =
    "fusecc-bundle 2\n"
    "chip sm_90\n"
    "precision ieee\n"
    "entry conv args 3 workspaces 2 launches 2\n"
    "arg 0 in x f32 2 4 8\n"
    "arg 1 in weight f32 1 8\n"
    "arg 2 out y f32 2 4 8\n"
    "workspace 0 f32 64\n"
    "workspace 1 f32 3\n"
    "launch relayout_p2 grid 1 1 1 block 64 1 1 smem 0 params 2 1 w0\n"
    "launch main_p5 grid 4 1 1 block 32 1 1 smem 0 params 5 0 w0 2 w1 1\n"
    "end\n"
    "entry plain args 1 workspaces 0 launches 1\n"
    "arg 0 out only f32 1 16\n"
    "launch k_p1 grid 1 1 1 block 16 1 1 smem 0 params 1 0\n"
    "end\n"
    "ptx 13\n"
    ".version 8.0\n";

static const char manifest_v1[] =
    "fusecc-bundle 1\n"
    "chip sm_90\n"
    "precision ieee\n"
    "entry old args 2 launches 2\n"
    "arg 0 in x f32 1 8\n"
    "arg 1 out y f32 1 8\n"
    "launch a_p2 grid 1 1 1 block 8 1 1 smem 0 params 2 0 1\n"
    "launch b_p1 grid 1 1 1 block 8 1 1 smem 0 params 1 1\n"
    "end\n"
    "ptx 13\n"
    ".version 8.0\n";

static void test_launch(fusecc_module_t module) {
  CUstream stream = (CUstream)(uintptr_t)7;
  fusecc_buffer_t args[3] = {
      {0x100000, 32 * 4}, {0x200000, 8 * 4}, {0x300000, 32 * 4}};

  // Workspaces are allocated on the stream before the first launch, passed
  // where the launch records say w<k>, and freed after the last launch.
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK_LOG("alloc 256 s7 -> 0x10000000\n"
            "alloc 12 s7 -> 0x10100000\n"
            "launch relayout_p2 s7 0x200000 0x10000000\n"
            "launch main_p5 s7 0x100000 0x10000000 0x300000 0x10100000 "
            "0x200000\n"
            "free 0x10000000 s7\n"
            "free 0x10100000 s7\n");
  CHECK(fake_live_allocations() == 0);

  // By name, and on the legacy default stream.
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch_by_name(module, "conv", args, 3, NULL));
  CHECK_LOG("alloc 256 s0 -> 0x10000000\n"
            "alloc 12 s0 -> 0x10100000\n"
            "launch relayout_p2 s0 0x200000 0x10000000\n"
            "launch main_p5 s0 0x100000 0x10000000 0x300000 0x10100000 "
            "0x200000\n"
            "free 0x10000000 s0\n"
            "free 0x10100000 s0\n");

  // An entry without workspaces makes no allocator calls.
  fake_reset(-1, -1, -1);
  fusecc_buffer_t only = {0x400000, 16 * 4};
  CHECK_OK(fusecc_module_launch(module, 1, &only, 1, stream));
  CHECK_LOG("launch k_p1 s7 0x400000\n");

  // The second allocation fails: the first is freed, nothing is launched.
  fake_reset(1, -1, -1);
  // (cuMemAllocFromPoolAsync, or cuMemAllocAsync without a module pool.)
  fusecc_status_t oom = fusecc_module_launch(module, 0, args, 3, stream);
  CHECK(strstr(fusecc_status_message(oom),
               "failed: CUDA_ERROR_OUT_OF_MEMORY (2): injected by fake_cuda"));
  CHECK_STATUS(oom, FUSECC_STATUS_CUDA_ERROR,
               "entry 'conv' workspace 1 (12 bytes): cuMemAlloc");
  CHECK_LOG("alloc 256 s7 -> 0x10000000\n"
            "alloc 12 s7 FAILED\n"
            "free 0x10000000 s7\n");
  CHECK(fake_live_allocations() == 0);

  // The first allocation fails: nothing to free.
  fake_reset(0, -1, -1);
  CHECK_STATUS(
      fusecc_module_launch(module, 0, args, 3, stream),
      FUSECC_STATUS_CUDA_ERROR,
      "entry 'conv' workspace 0 (256 bytes): cuMemAlloc");
  CHECK_LOG("alloc 256 s7 FAILED\n");

  // The second launch fails: no further launches, both workspaces freed
  // (stream-ordered, after the launch that was enqueued).
  fake_reset(-1, 1, -1);
  CHECK_STATUS(fusecc_module_launch(module, 0, args, 3, stream),
               FUSECC_STATUS_CUDA_ERROR,
               "entry 'conv' launch 1 (kernel 'main_p5'): cuLaunchKernel "
               "failed: CUDA_ERROR_LAUNCH_FAILED");
  CHECK_LOG("alloc 256 s7 -> 0x10000000\n"
            "alloc 12 s7 -> 0x10100000\n"
            "launch relayout_p2 s7 0x200000 0x10000000\n"
            "launch main_p5 s7 FAILED\n"
            "free 0x10000000 s7\n"
            "free 0x10100000 s7\n");
  CHECK(fake_live_allocations() == 0);

  // A failing free is reported, and the other workspaces are still freed.
  fake_reset(-1, -1, 0);
  CHECK_STATUS(fusecc_module_launch(module, 0, args, 3, stream),
               FUSECC_STATUS_CUDA_ERROR,
               "entry 'conv' workspace 0: cuMemFreeAsync failed: "
               "CUDA_ERROR_INVALID_VALUE");
  CHECK_LOG("alloc 256 s7 -> 0x10000000\n"
            "alloc 12 s7 -> 0x10100000\n"
            "launch relayout_p2 s7 0x200000 0x10000000\n"
            "launch main_p5 s7 0x100000 0x10000000 0x300000 0x10100000 "
            "0x200000\n"
            "free 0x10000000 s7 FAILED\n"
            "free 0x10100000 s7\n");

  // The launch error wins over a later free error.
  fake_reset(-1, 0, 1);
  CHECK_STATUS(fusecc_module_launch(module, 0, args, 3, stream),
               FUSECC_STATUS_CUDA_ERROR,
               "entry 'conv' launch 0 (kernel 'relayout_p2'): cuLaunchKernel");
  CHECK_LOG("alloc 256 s7 -> 0x10000000\n"
            "alloc 12 s7 -> 0x10100000\n"
            "launch relayout_p2 s7 FAILED\n"
            "free 0x10000000 s7\n"
            "free 0x10100000 s7 FAILED\n");

  // Invalid args are rejected before any allocation.
  fake_reset(-1, -1, -1);
  args[2].ptr = args[0].ptr;
  CHECK_STATUS(fusecc_module_launch(module, 0, args, 3, stream),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'conv' arg 2 'y' (output) overlaps arg 0 'x'");
  CHECK_STATUS(fusecc_module_launch(module, 0, args, 5, stream),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'conv' takes 3 args, got 5");
  CHECK_LOG("");
}

static void test_launch_v1(void) {
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(fusecc_bundle_parse(manifest_v1, strlen(manifest_v1), &bundle));
  fusecc_module_t module = NULL;
  CHECK_OK(fusecc_module_load(bundle, &module));
  fusecc_bundle_release(bundle);
  if (!module)
    return;
  fusecc_buffer_t args[2] = {{0x100000, 32}, {0x200000, 32}};
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 2, (CUstream)(uintptr_t)3));
  CHECK_LOG("launch a_p2 s3 0x100000 0x200000\n"
            "launch b_p1 s3 0x200000\n");
  fusecc_module_release(module);
}

int main(void) {
  setenv("FUSECC_CUDA_DRIVER_LIBRARY", FUSECC_FAKE_DRIVER, 1);
  void *fake = dlopen(FUSECC_FAKE_DRIVER, RTLD_NOW | RTLD_LOCAL);
  if (!fake) {
    fprintf(stderr, "cannot open the fake driver %s: %s\n", FUSECC_FAKE_DRIVER,
            dlerror());
    return 1;
  }
  *(void **)&fake_reset = dlsym(fake, "fake_cuda_reset");
  *(void **)&fake_log = dlsym(fake, "fake_cuda_log");
  *(void **)&fake_live_allocations = dlsym(fake, "fake_cuda_live_allocations");
  *(void **)&fake_pool_state = dlsym(fake, "fake_cuda_pool_state");
  *(void **)&fake_fail_pool_create =
      dlsym(fake, "fake_cuda_fail_pool_create");
  if (!fake_reset || !fake_log || !fake_live_allocations || !fake_pool_state ||
      !fake_fail_pool_create) {
    fprintf(stderr, "the fake driver lacks its control functions\n");
    return 1;
  }

  fusecc_bundle_t bundle = NULL;
  CHECK_OK(fusecc_bundle_parse(manifest, strlen(manifest), &bundle));
  fusecc_module_t module = NULL;
  if (bundle)
    CHECK_OK(fusecc_module_load(bundle, &module));
  fusecc_bundle_release(bundle);
  // A module with workspaces owns one pool that never returns memory to
  // the OS between calls; releasing the module destroys it.
  int created = 0, destroyed = 0;
  unsigned long long threshold = 0;
  fake_pool_state(&created, &destroyed, &threshold);
  CHECK(created == 1 && destroyed == 0 && threshold == ~0ull);
  if (module) {
    test_launch(module);
    fusecc_module_release(module);
  }
  fake_pool_state(&created, &destroyed, &threshold);
  CHECK(created == 1 && destroyed == 1);

  // Without memory-pool support the module still loads; workspaces come
  // from the device's default pool (cuMemAllocAsync), same call sequence.
  fake_fail_pool_create(1);
  bundle = NULL;
  module = NULL;
  CHECK_OK(fusecc_bundle_parse(manifest, strlen(manifest), &bundle));
  if (bundle)
    CHECK_OK(fusecc_module_load(bundle, &module));
  fusecc_bundle_release(bundle);
  fake_pool_state(&created, &destroyed, &threshold);
  CHECK(created == 1);
  if (module) {
    test_launch(module);
    fusecc_module_release(module);
  }
  fake_pool_state(&created, &destroyed, &threshold);
  CHECK(created == 1 && destroyed == 1);
  fake_fail_pool_create(0);
  test_launch_v1();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
