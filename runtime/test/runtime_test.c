/*===- runtime_test.c - Unit tests of the fusecc runtime ----------*- C -*-===//
 *
 * Covers the API around the parser: status codes and messages, dtype and
 * precision names, the public header compiled as C++
 * (header_cxx_test.cpp), argument validation of the sample bundle, and
 * module loading without a CUDA driver (parsing is tested by the parse_*
 * programs). Needs no GPU. Prints "N passed, M failed" last and exits
 * non-zero on any failure.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200112L

#include "fusecc/runtime.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fusecc_header_cxx_check(void);

#include "check.h"

static void test_status_basics(void) {
  CHECK(fusecc_status_code(NULL) == FUSECC_STATUS_OK);
  CHECK(strcmp(fusecc_status_message(NULL), "OK") == 0);
  fusecc_status_free(NULL);
  const char *names[] = {
      "OK",         "INVALID_ARGUMENT", "PARSE_ERROR",
      "NOT_FOUND",  "OUT_OF_RANGE",     "UNAVAILABLE",
      "CUDA_ERROR", "IO_ERROR",         "RESOURCE_EXHAUSTED"};
  for (int code = 0; code <= FUSECC_STATUS_RESOURCE_EXHAUSTED; ++code)
    CHECK(strcmp(fusecc_status_code_name((fusecc_status_code_t)code),
                 names[code]) == 0);
  CHECK(strcmp(fusecc_status_code_name((fusecc_status_code_t)99), "UNKNOWN") ==
        0);
  CHECK(strcmp(fusecc_dtype_name(FUSECC_DTYPE_BF16), "bf16") == 0);
  CHECK(fusecc_dtype_size(FUSECC_DTYPE_F32) == 4);
  CHECK(fusecc_dtype_size(FUSECC_DTYPE_F16) == 2);
  CHECK(strcmp(fusecc_precision_name(FUSECC_PRECISION_TF32), "tf32") == 0);
  CHECK(strcmp(fusecc_precision_name(FUSECC_PRECISION_BF16), "bf16") == 0);
  CHECK(strcmp(fusecc_precision_name(FUSECC_PRECISION_FP16), "fp16") == 0);
  CHECK(fusecc_header_cxx_check() == 1);
}

static void test_validate_args(void) {
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(
      fusecc_bundle_load_file(FUSECC_TEST_DATA_DIR "/sample.fcb", &bundle));
  if (!bundle)
    return;
  fusecc_buffer_t args[3] = {{0x100000, 64 * 1024 * 4},
                             {0x200000, 1024 * 4},
                             {0x300000, 64 * 1024 * 4}};
  CHECK_OK(fusecc_bundle_validate_args(bundle, 0, args, 3));
  CHECK_STATUS(fusecc_bundle_validate_args(bundle, 0, args, 2),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'sample_add' takes 3 args, got 2");
  CHECK_STATUS(fusecc_bundle_validate_args(bundle, 0, NULL, 3),
               FUSECC_STATUS_INVALID_ARGUMENT, "args is NULL");
  CHECK_STATUS(fusecc_bundle_validate_args(bundle, 2, args, 3),
               FUSECC_STATUS_OUT_OF_RANGE, "entry index 2 out of range");
  CHECK_STATUS(fusecc_bundle_validate_args(NULL, 0, args, 3),
               FUSECC_STATUS_INVALID_ARGUMENT, "bundle is NULL");

  args[1].size_bytes = 4;
  CHECK_STATUS(fusecc_bundle_validate_args(bundle, 0, args, 3),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'sample_add' arg 1 'y': expected a buffer of 4096 bytes "
               "(1024 x f32), got 4 bytes");
  args[1].size_bytes = 1024 * 4;
  args[2].ptr = 0;
  CHECK_STATUS(fusecc_bundle_validate_args(bundle, 0, args, 3),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'sample_add' arg 2 'result': null device pointer");
  args[2].ptr = 0x300008;
  CHECK_STATUS(
      fusecc_bundle_validate_args(bundle, 0, args, 3),
      FUSECC_STATUS_INVALID_ARGUMENT,
      "arg 2 'result': device pointer 0x300008 is not 16-byte aligned");
  // An output overlapping an input (in place, or partly) is rejected.
  args[2].ptr = 0x100000;
  CHECK_STATUS(fusecc_bundle_validate_args(bundle, 0, args, 3),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'sample_add' arg 2 'result' (output) overlaps arg 0 "
               "'x': outputs must not share memory with other arguments");
  args[2].ptr = 0x200000 + 1024 * 4 - 16;
  CHECK_STATUS(fusecc_bundle_validate_args(bundle, 0, args, 3),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "arg 2 'result' (output) overlaps arg 1 'y'");
  args[2].ptr = 0x200000 + 1024 * 4;
  CHECK_OK(fusecc_bundle_validate_args(bundle, 0, args, 3));
  fusecc_bundle_release(bundle);
}

/// Runs with FUSECC_CUDA_DRIVER_LIBRARY pointing nowhere, so the result is
/// the same with or without a GPU.
static void test_module_without_driver(void) {
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(
      fusecc_bundle_load_file(FUSECC_TEST_DATA_DIR "/sample.fcb", &bundle));
  fusecc_module_t module = (fusecc_module_t)1;
  CHECK_STATUS(fusecc_module_load(bundle, &module), FUSECC_STATUS_UNAVAILABLE,
               "CUDA driver library libfusecc-no-such-driver.so.1 not found: ");
  CHECK(module == NULL);
  // The failure is sticky and the bundle is still usable.
  CHECK_STATUS(fusecc_module_load(bundle, &module), FUSECC_STATUS_UNAVAILABLE,
               "not found");
  CHECK(fusecc_bundle_entry_count(bundle) == 2);
  CHECK_STATUS(fusecc_module_load(NULL, &module),
               FUSECC_STATUS_INVALID_ARGUMENT, "bundle is NULL");
  fusecc_buffer_t args[1] = {{0x10000, 4}};
  CHECK_STATUS(fusecc_module_launch(NULL, 0, args, 1, NULL),
               FUSECC_STATUS_INVALID_ARGUMENT, "module is NULL");
  CHECK_STATUS(fusecc_module_launch_by_name(NULL, "sample_add", args, 1, NULL),
               FUSECC_STATUS_INVALID_ARGUMENT, "module is NULL");
  fusecc_module_release(NULL);
  CHECK(fusecc_module_bundle(NULL) == NULL);
  fusecc_bundle_release(bundle);
}

int main(void) {
  setenv("FUSECC_CUDA_DRIVER_LIBRARY", "libfusecc-no-such-driver.so.1", 1);
  test_status_basics();
  test_validate_args();
  test_module_without_driver();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
