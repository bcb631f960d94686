/*===- launch_test.c - fusecc_module_launch against a fake driver -*- C -*-===//
 *
 * Runs the load and launch paths against fake_cuda.c
 * (FUSECC_CUDA_DRIVER_LIBRARY), so it needs no GPU: which driver calls a
 * load or launch makes, in which order, on which stream and with which
 * pointers and bytes, for entries with and without workspaces, constants
 * and zero steps; that every failing driver call comes back as a status
 * naming it; and that workspaces and constants are freed on every error
 * path. Prints
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
static void (*fake_fail_call)(const char *call, int nth, int result);
static int (*fake_live_const_allocations)(void);
static void (*fake_set_no_current_context)(int none);
static void (*fake_log_grids)(int on);
static void (*fake_context_calls)(int *pushes, int *pops);

/// The fake driver's log against `expected`, exactly (check.h).
#define CHECK_LOG(expected)                                                    \
  check_log_text(fake_log(), (expected), __FILE__, __LINE__)

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

/// The driver log of sample_v2's entry 0 with arguments 0x100000, 0x200000,
/// 0x300000 on stream 7 (its workspace and the re-layout launch included),
/// which every launch path of that call must produce.
static const char kEntry0LogOnStream7[] =
    "alloc 256 s7 -> 0x10000000\n"
    "alloc 12 s7 -> 0x10100000\n"
    "launch relayout_p2 s7 0x200000 0x10000000\n"
    "launch main_p5 s7 0x100000 0x10000000 0x300000 0x10100000 0x200000\n"
    "free 0x10000000 s7\n"
    "free 0x10100000 s7\n";

static void test_launch(fusecc_module_t module) {
  CUstream stream = (CUstream)(uintptr_t)7;
  fusecc_buffer_t args[3] = {
      {0x100000, 32 * 4}, {0x200000, 8 * 4}, {0x300000, 32 * 4}};

  // Workspaces are allocated on the stream before the first launch, passed
  // where the launch records say w<k>, and freed after the last launch.
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 3, stream));
  CHECK_LOG(kEntry0LogOnStream7);
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
  CHECK_STATUS(fusecc_module_launch(module, 0, args, 3, stream),
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

/// fusecc_module_launch_pointers: sizes from the manifest, the same checks
/// as fusecc_module_launch, the module's context pushed only when another
/// one (or none) is current.
static void test_launch_pointers(fusecc_module_t module) {
  CUstream stream = (CUstream)(uintptr_t)7;
  uint64_t pointers[3] = {0x100000, 0x200000, 0x300000};
  int pushes, pops, pushes_after, pops_after;
  fake_context_calls(&pushes, &pops);
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch_pointers(module, 0, pointers, 3, stream));
  CHECK_LOG(kEntry0LogOnStream7);
  fake_context_calls(&pushes_after, &pops_after);
  CHECK(pushes_after == pushes && pops_after == pops);

  // No context current on this thread: pushed for the call, then popped.
  fake_set_no_current_context(1);
  fake_reset(-1, -1, -1);
  uint64_t only = 0x400000;
  CHECK_OK(fusecc_module_launch_pointers(module, 1, &only, 1, stream));
  CHECK_LOG("launch k_p1 s7 0x400000\n");
  fake_context_calls(&pushes_after, &pops_after);
  CHECK(pushes_after == pushes + 1 && pops_after == pops + 1);
  // A failing push launches nothing.
  fake_reset(-1, -1, -1);
  fake_fail_call("cuCtxPushCurrent", 0, CUDA_ERROR_INVALID_CONTEXT);
  CHECK_STATUS(fusecc_module_launch_pointers(module, 1, &only, 1, stream),
               FUSECC_STATUS_CUDA_ERROR, "cuCtxPushCurrent failed");
  CHECK_LOG("");
  fake_set_no_current_context(0);

  // The checks of fusecc_module_launch, nothing launched.
  fake_reset(-1, -1, -1);
  CHECK_STATUS(fusecc_module_launch_pointers(NULL, 0, pointers, 3, stream),
               FUSECC_STATUS_INVALID_ARGUMENT, "module is NULL");
  CHECK_STATUS(fusecc_module_launch_pointers(module, 2, pointers, 3, stream),
               FUSECC_STATUS_OUT_OF_RANGE, "entry index 2 out of range");
  CHECK_STATUS(fusecc_module_launch_pointers(module, 0, pointers, 2, stream),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'conv' takes 3 args, got 2");
  CHECK_STATUS(fusecc_module_launch_pointers(module, 0, NULL, 3, stream),
               FUSECC_STATUS_INVALID_ARGUMENT, "entry 'conv': pointers is NULL");
  pointers[1] = 0x200004;
  CHECK_STATUS(fusecc_module_launch_pointers(module, 0, pointers, 3, stream),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'conv' arg 1 'weight': device pointer 0x200004 is not "
               "16-byte aligned");
  pointers[1] = 0x200000;
  pointers[2] = 0x100000 + 64; // inside x (128 bytes)
  CHECK_STATUS(fusecc_module_launch_pointers(module, 0, pointers, 3, stream),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'conv' arg 2 'y' (output) overlaps arg 0 'x'");
  CHECK_LOG("");
}

/// fusecc_module_launch_packed: fusecc_module_launch_pointers_batch with its
/// arguments read from one record (module, entry, batch, stream, count,
/// pointers), its checks and errors included.
static void test_launch_packed(fusecc_module_t module) {
  uint64_t record[FUSECC_PACKED_POINTERS + 3] = {
      (uint64_t)(uintptr_t)module, 0, 0, 7, 3, 0x100000, 0x200000, 0x300000};
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch_packed(record));
  CHECK_LOG(kEntry0LogOnStream7);
  // Entry 1 (one argument) on stream 9.
  uint64_t one[FUSECC_PACKED_POINTERS + 1] = {(uint64_t)(uintptr_t)module, 1,
                                              0, 9, 1, 0x400000};
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch_packed(one));
  CHECK_LOG("launch k_p1 s9 0x400000\n");

  fake_reset(-1, -1, -1);
  CHECK_STATUS(fusecc_module_launch_packed(NULL),
               FUSECC_STATUS_INVALID_ARGUMENT, "record is NULL");
  record[FUSECC_PACKED_MODULE] = 0;
  CHECK_STATUS(fusecc_module_launch_packed(record),
               FUSECC_STATUS_INVALID_ARGUMENT, "module is NULL");
  record[FUSECC_PACKED_MODULE] = (uint64_t)(uintptr_t)module;
  record[FUSECC_PACKED_ENTRY] = 2;
  CHECK_STATUS(fusecc_module_launch_packed(record), FUSECC_STATUS_OUT_OF_RANGE,
               "entry index 2 out of range");
  record[FUSECC_PACKED_ENTRY] = 0;
  record[FUSECC_PACKED_BATCH] = 4;
  CHECK_STATUS(fusecc_module_launch_packed(record),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'conv' has static shapes (no launch-time batch); pass "
               "batch 0, got 4");
  record[FUSECC_PACKED_BATCH] = 0;
  record[FUSECC_PACKED_COUNT] = 2;
  CHECK_STATUS(fusecc_module_launch_packed(record),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'conv' takes 3 args, got 2");
  record[FUSECC_PACKED_COUNT] = 3;
  record[FUSECC_PACKED_POINTERS + 1] = 0x200004;
  CHECK_STATUS(fusecc_module_launch_packed(record),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'conv' arg 1 'weight': device pointer 0x200004 is not "
               "16-byte aligned");
  record[FUSECC_PACKED_POINTERS + 1] = 0x200000;
  record[FUSECC_PACKED_POINTERS + 2] = 0x100000 + 64; // inside x
  CHECK_STATUS(fusecc_module_launch_packed(record),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'conv' arg 2 'y' (output) overlaps arg 0 'x'");
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

/// A version-3 bundle: two constants, two workspaces, zero steps between
/// the launches, `c<k>` params; k1_p3's 50000 bytes of dynamic shared memory
/// need a raised limit.
static const char manifest_v3[] =
    "fusecc-bundle 3\n"
    "chip sm_90a\n"
    "precision tf32\n"
    "const 0 weight f32 1 4 offset 0\n"
    "const 1 table u8 1 3 offset 16\n"
    "entry dec args 2 workspaces 2 steps 4\n"
    "arg 0 in x f32 1 8\n"
    "arg 1 out y f32 1 8\n"
    "workspace 0 f32 16 intermediate\n"
    "workspace 1 f32 4 partials\n"
    "zero w1\n"
    "launch k0_p5 grid 2 1 1 block 32 1 1 smem 0 params 5 0 c0 c1 w0 w1\n"
    "zero w0\n"
    "launch k1_p3 grid 1 1 1 block 32 1 1 smem 50000 params 3 w0 w1 1\n"
    "end\n"
    "ptx 13\n"
    ".version 8.0\n"
    "data 32\n";

/// `manifest_v3` followed by its 32 data bytes (0x00, 0x01, ... 0x1f).
static char *bundle_v3_bytes(size_t *out_size) {
  size_t head = strlen(manifest_v3);
  char *bytes = malloc(head + 32);
  memcpy(bytes, manifest_v3, head);
  for (int i = 0; i < 32; ++i)
    bytes[head + i] = (char)i;
  *out_size = head + 32;
  return bytes;
}

/// Loads the version-3 bundle after resetting the fake with the failure
/// `call`/`nth` injected (none for a NULL call); returns the load's status.
static fusecc_status_t load_v3(const char *call, int nth,
                               fusecc_module_t *out_module) {
  size_t size;
  char *bytes = bundle_v3_bytes(&size);
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(fusecc_bundle_parse(bytes, size, &bundle));
  free(bytes);
  fake_reset(-1, -1, -1);
  if (call)
    fake_fail_call(call, nth, CUDA_ERROR_INVALID_VALUE);
  *out_module = NULL;
  if (!bundle)
    return NULL;
  fusecc_status_t status = fusecc_module_load(bundle, out_module);
  fusecc_bundle_release(bundle);
  return status;
}

static void test_launch_v3(void) {
  fusecc_module_t module = NULL;
  CHECK_OK(load_v3(NULL, 0, &module));
  // Load: the smem limit, then each constant allocated and uploaded once.
  CHECK_LOG("setattr k1_p3 smem 50000\n"
            "memalloc 16 -> 0x20000000\n"
            "htod 0x20000000 16 000102030405060708090a0b0c0d0e0f\n"
            "memalloc 3 -> 0x20010000\n"
            "htod 0x20010000 3 101112\n");
  CHECK(fake_live_const_allocations() == 2);
  if (!module)
    return;
  CUdeviceptr pointer = 0;
  CHECK_OK(fusecc_module_const_pointer(module, 1, &pointer));
  CHECK(pointer == 0x20010000);
  CHECK_STATUS(fusecc_module_const_pointer(module, 2, &pointer),
               FUSECC_STATUS_OUT_OF_RANGE,
               "const index 2 out of range (bundle has 2 constants)");
  CHECK_STATUS(fusecc_module_const_pointer(NULL, 0, &pointer),
               FUSECC_STATUS_INVALID_ARGUMENT, "module is NULL");

  // Steps in order on the caller's stream, no synchronisation: each zero
  // step is a cuMemsetD8Async of the whole workspace; c<k> passes the
  // uploaded constant.
  CUstream stream = (CUstream)(uintptr_t)7;
  fusecc_buffer_t args[2] = {{0x1000, 32}, {0x2000, 32}};
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 2, stream));
  CHECK_LOG("alloc 64 s7 -> 0x10000000\n"
            "alloc 16 s7 -> 0x10100000\n"
            "memset 0x10100000 0 16 s7\n"
            "launch k0_p5 s7 0x1000 0x20000000 0x20010000 0x10000000 "
            "0x10100000\n"
            "memset 0x10000000 0 64 s7\n"
            "launch k1_p3 s7 0x10000000 0x10100000 0x2000\n"
            "free 0x10000000 s7\n"
            "free 0x10100000 s7\n");
  CHECK(fake_live_allocations() == 0);

  // A failing zero step stops the call; the workspaces are still freed.
  fake_reset(-1, -1, -1);
  fake_fail_call("cuMemsetD8Async", 1, CUDA_ERROR_INVALID_VALUE);
  CHECK_STATUS(fusecc_module_launch(module, 0, args, 2, stream),
               FUSECC_STATUS_CUDA_ERROR,
               "entry 'dec' step 2 (zero w0, 64 bytes): cuMemsetD8Async "
               "failed: CUDA_ERROR_INVALID_VALUE");
  CHECK_LOG("alloc 64 s7 -> 0x10000000\n"
            "alloc 16 s7 -> 0x10100000\n"
            "memset 0x10100000 0 16 s7\n"
            "launch k0_p5 s7 0x1000 0x20000000 0x20010000 0x10000000 "
            "0x10100000\n"
            "memset 0x10000000 0 64 s7 FAILED\n"
            "free 0x10000000 s7\n"
            "free 0x10100000 s7\n");
  CHECK(fake_live_allocations() == 0);

  // Releasing the module frees the constants.
  fake_reset(-1, -1, -1);
  fusecc_module_release(module);
  CHECK_LOG("memfree 0x20000000\nmemfree 0x20010000\n");
  CHECK(fake_live_const_allocations() == 0);
}

/// An entry with several outputs (batch_norm in training mode returning its
/// output and the updated running mean and variance): the entry's output
/// count and each output's shape are queryable, one call passes every
/// output buffer to the launches that write it, and outputs may overlap
/// nothing, each other included.
static const char manifest_multi_output[] =
    "fusecc-bundle 3\n"
    "chip sm_90\n"
    "precision ieee\n"
    "entry bn args 6 workspaces 1 steps 2\n"
    "arg 0 in x f32 3 2 3 5\n"
    "arg 1 in running_mean f32 1 3\n"
    "arg 2 in running_var f32 1 3\n"
    "arg 3 out result0 f32 3 2 3 5\n"
    "arg 4 out result1 f32 1 3\n"
    "arg 5 out result2 f32 1 3\n"
    "workspace 0 f32 6 partials\n"
    "launch stats_p2 grid 1 1 1 block 32 1 1 smem 0 params 2 0 w0\n"
    "launch norm_p7 grid 1 1 1 block 32 1 1 smem 0 params 7 0 1 2 w0 3 4 5\n"
    "graph %3 %4 %5 = batch_norm %0 %1 %2 training=1 eps=1e-05 momentum=0.1\n"
    "graph return %3 %4 %5\n"
    "end\n"
    "ptx 13\n"
    ".version 8.0\n";

static void test_launch_multi_output(void) {
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(fusecc_bundle_parse(manifest_multi_output,
                               strlen(manifest_multi_output), &bundle));
  if (!bundle)
    return;
  fusecc_entry_info_t entry;
  CHECK_OK(fusecc_bundle_entry_info(bundle, 0, &entry));
  CHECK(entry.arg_count == 6 && entry.input_count == 3);
  size_t outputs = 0;
  CHECK_OK(fusecc_bundle_output_count(bundle, 0, &outputs));
  CHECK(outputs == 3);
  CHECK_STATUS(fusecc_bundle_output_count(bundle, 0, NULL),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "fusecc_bundle_output_count: output pointer is NULL");
  CHECK_STATUS(fusecc_bundle_output_count(bundle, 2, &outputs),
               FUSECC_STATUS_OUT_OF_RANGE,
               "fusecc_bundle_output_count: entry index 2 out of range");
  fusecc_arg_info_t out;
  CHECK_OK(fusecc_bundle_output_info(bundle, 0, 0, &out));
  CHECK(out.index == 3 && out.is_output && out.rank == 3 && out.dims[0] == 2 &&
        out.dims[1] == 3 && out.dims[2] == 5 && out.byte_size == 120 &&
        strcmp(out.name, "result0") == 0);
  CHECK_OK(fusecc_bundle_output_info(bundle, 0, 2, &out));
  CHECK(out.index == 5 && out.rank == 1 && out.dims[0] == 3 &&
        out.byte_size == 12 && strcmp(out.name, "result2") == 0);
  CHECK_STATUS(fusecc_bundle_output_info(bundle, 0, 3, &out),
               FUSECC_STATUS_OUT_OF_RANGE,
               "fusecc_bundle_output_info: output index 3 out of range "
               "(entry 'bn' has 3 outputs)");
  CHECK_STATUS(fusecc_bundle_output_info(bundle, 1, 0, &out),
               FUSECC_STATUS_OUT_OF_RANGE, "entry index 1 out of range");
  CHECK_STATUS(fusecc_bundle_output_info(bundle, 0, 0, NULL),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "fusecc_bundle_output_info: output pointer is NULL");
  CHECK_STATUS(fusecc_bundle_output_info(NULL, 0, 0, &out),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "fusecc_bundle_output_info: bundle is NULL");

  fusecc_module_t module = NULL;
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_load(bundle, &module));
  fusecc_bundle_release(bundle);
  if (!module)
    return;
  CUstream stream = (CUstream)(uintptr_t)5;
  fusecc_buffer_t args[6] = {{0x1000, 120}, {0x2000, 12}, {0x3000, 12},
                             {0x4000, 120}, {0x5000, 12}, {0x6000, 12}};
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_launch(module, 0, args, 6, stream));
  CHECK_LOG("alloc 24 s5 -> 0x10000000\n"
            "launch stats_p2 s5 0x1000 0x10000000\n"
            "launch norm_p7 s5 0x1000 0x2000 0x3000 0x10000000 0x4000 0x5000 "
            "0x6000\n"
            "free 0x10000000 s5\n");
  CHECK(fake_live_allocations() == 0);

  // Two outputs sharing memory are rejected before anything is enqueued.
  args[5].ptr = 0x5000;
  fake_reset(-1, -1, -1);
  CHECK_STATUS(fusecc_module_launch(module, 0, args, 6, stream),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "arg 4 'result1' (output) overlaps arg 5 'result2'");
  CHECK_LOG("");
  // So is a call that passes fewer buffers than the entry has outputs.
  args[5].ptr = 0x6000;
  CHECK_STATUS(fusecc_module_launch(module, 0, args, 5, stream),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'bn' takes 6 args, got 5");
  fusecc_module_release(module);
}

/// Every driver call of a load that fails comes back as a CUDA_ERROR naming
/// it, and nothing stays allocated.
static void test_load_driver_errors(void) {
  static const struct {
    const char *call;
    int nth;
    int no_current_context;
    const char *expected;
  } cases[] = {
      {"cuCtxGetCurrent", 0, 0, "cuCtxGetCurrent failed: "},
      {"cuDeviceGet", 0, 1, "cuDeviceGet(0) failed: "},
      {"cuDevicePrimaryCtxRetain", 0, 1, "cuDevicePrimaryCtxRetain failed: "},
      {"cuCtxSetCurrent", 0, 1, "cuCtxSetCurrent failed: "},
      {"cuModuleLoadDataEx", 0, 0,
       "loading PTX for sm_90a: cuModuleLoadDataEx failed: "
       "CUDA_ERROR_INVALID_VALUE (1): injected by fake_cuda\nPTX JIT log:\n"
       "ptxas fatal: injected"},
      {"cuModuleGetFunction", 1, 0,
       "entry 'dec' launch 1: kernel 'k1_p3' not in the PTX: "
       "cuModuleGetFunction failed: "},
      {"cuFuncSetAttribute", 0, 0,
       "raising the dynamic shared memory of a kernel to 50000 bytes: "
       "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES) failed: "},
      {"cuMemAlloc", 1, 0,
       "const 1 'table' (3 bytes): cuMemAlloc failed: "
       "CUDA_ERROR_INVALID_VALUE"},
      {"cuMemcpyHtoD", 0, 0,
       "const 0 'weight' (16 bytes): cuMemcpyHtoD failed: "},
      {"cuCtxGetDevice", 0, 0, "cuCtxGetDevice failed: "},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    fake_set_no_current_context(cases[i].no_current_context);
    fusecc_module_t module = (fusecc_module_t)1;
    fusecc_status_t status = load_v3(cases[i].call, cases[i].nth, &module);
    char context[64];
    snprintf(context, sizeof(context), "%s case %zu", __func__, i);
    check_status(status, FUSECC_STATUS_CUDA_ERROR, cases[i].expected, __FILE__,
                 context, __LINE__);
    CHECK(module == NULL);
    CHECK(fake_live_const_allocations() == 0);
  }
  fake_set_no_current_context(0);
  // A failing upload frees the constant allocated before it.
  fusecc_module_t module = NULL;
  fusecc_status_free(load_v3("cuMemcpyHtoD", 1, &module));
  CHECK_LOG("setattr k1_p3 smem 50000\n"
            "memalloc 16 -> 0x20000000\n"
            "htod 0x20000000 16 000102030405060708090a0b0c0d0e0f\n"
            "memalloc 3 -> 0x20010000\n"
            "htod 0x20010000 3 101112 FAILED\n"
            "memfree 0x20000000\n"
            "memfree 0x20010000\n");
}

/// Each kernel's dynamic shared memory limit is raised once, to the largest
/// amount any of its launches asks, in the order of first use; kernels
/// launched without dynamic shared memory are left alone.
static void test_smem_limits(void) {
  static const char text[] =
      "fusecc-bundle 1\n"
      "chip sm_90\n"
      "precision ieee\n"
      "entry a args 0 launches 3\n"
      "launch kb_p0 grid 1 1 1 block 1 1 1 smem 100 params 0\n"
      "launch kz_p0 grid 1 1 1 block 1 1 1 smem 0 params 0\n"
      "launch ka_p0 grid 1 1 1 block 1 1 1 smem 5 params 0\n"
      "end\n"
      "entry b args 0 launches 2\n"
      "launch kz_p0 grid 1 1 1 block 1 1 1 smem 0 params 0\n"
      "launch kb_p0 grid 1 1 1 block 1 1 1 smem 70000 params 0\n"
      "end\n"
      "ptx 13\n"
      ".version 8.0\n";
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(fusecc_bundle_parse(text, strlen(text), &bundle));
  if (!bundle)
    return;
  fake_reset(-1, -1, -1);
  fusecc_module_t module = NULL;
  CHECK_OK(fusecc_module_load(bundle, &module));
  CHECK_LOG("setattr kb_p0 smem 70000\nsetattr ka_p0 smem 5\n");
  fusecc_module_release(module);
  fusecc_bundle_release(bundle);
}

/// FUSECC_SANITIZE_BLOCK_LIMIT: launches over the limit run their first
/// blocks (x cut to a multiple of 8, at least 8; y and z kept), launches
/// within it are unchanged, and a value that is not an integer >= 8 fails
/// the load with a status naming the variable.
static void test_sanitize_block_limit(void) {
  static const char text[] =
      "fusecc-bundle 2\n"
      "chip sm_90\n"
      "precision ieee\n"
      "entry e args 1 workspaces 0 launches 4\n"
      "arg 0 out y f32 1 16\n"
      "launch big_p1 grid 1000 2 1 block 32 1 1 smem 0 params 1 0\n"
      "launch small_p1 grid 24 1 1 block 32 1 1 smem 0 params 1 0\n"
      "launch wide_p1 grid 100 40 1 block 32 1 1 smem 0 params 1 0\n"
      "launch edge_p1 grid 64 1 1 block 32 1 1 smem 0 params 1 0\n"
      "end\n"
      "ptx 13\n"
      ".version 8.0\n";
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(fusecc_bundle_parse(text, strlen(text), &bundle));
  if (!bundle)
    return;
  fusecc_buffer_t out = {0x500000, 16 * 4};
  fusecc_module_t module = NULL;
  setenv("FUSECC_SANITIZE_BLOCK_LIMIT", "64", 1);
  fake_log_grids(1);
  fake_reset(-1, -1, -1);
  CHECK_OK(fusecc_module_load(bundle, &module));
  if (module) {
    fake_reset(-1, -1, -1);
    CHECK_OK(fusecc_module_launch(module, 0, &out, 1, NULL));
    CHECK_LOG("launch big_p1 s0 grid 32 2 1 0x500000\n"
              "launch small_p1 s0 grid 24 1 1 0x500000\n"
              "launch wide_p1 s0 grid 8 40 1 0x500000\n"
              "launch edge_p1 s0 grid 64 1 1 0x500000\n");
    fusecc_module_release(module);
  }
  for (int i = 0; i < 3; ++i) {
    static const char *const bad[] = {"7", "abc", "-64"};
    setenv("FUSECC_SANITIZE_BLOCK_LIMIT", bad[i], 1);
    module = NULL;
    CHECK_STATUS(fusecc_module_load(bundle, &module),
                 FUSECC_STATUS_INVALID_ARGUMENT,
                 "FUSECC_SANITIZE_BLOCK_LIMIT must be an integer of at least "
                 "8, got");
    CHECK(module == NULL);
  }
  unsetenv("FUSECC_SANITIZE_BLOCK_LIMIT");
  fake_log_grids(0);
  fusecc_bundle_release(bundle);
}

int main(void) {
  setenv("FUSECC_CUDA_DRIVER_LIBRARY", FUSECC_FAKE_DRIVER, 1);
  // The direct launch path, step by step (launch_graph_test.c tests graphs).
  setenv("FUSECC_LAUNCH_GRAPHS", "0", 1);
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
  *(void **)&fake_fail_pool_create = dlsym(fake, "fake_cuda_fail_pool_create");
  *(void **)&fake_fail_call = dlsym(fake, "fake_cuda_fail_call");
  *(void **)&fake_live_const_allocations =
      dlsym(fake, "fake_cuda_live_const_allocations");
  *(void **)&fake_set_no_current_context =
      dlsym(fake, "fake_cuda_set_no_current_context");
  *(void **)&fake_log_grids = dlsym(fake, "fake_cuda_log_grids");
  *(void **)&fake_context_calls = dlsym(fake, "fake_cuda_context_calls");
  if (!fake_reset || !fake_log || !fake_live_allocations || !fake_pool_state ||
      !fake_fail_pool_create || !fake_fail_call ||
      !fake_live_const_allocations || !fake_set_no_current_context ||
      !fake_log_grids || !fake_context_calls) {
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
    test_launch_pointers(module);
    test_launch_packed(module);
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
  test_launch_v3();
  test_launch_multi_output();
  test_load_driver_errors();
  test_smem_limits();
  test_sanitize_block_limit();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
