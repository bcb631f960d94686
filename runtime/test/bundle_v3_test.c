/*===- bundle_v3_test.c - Format version 3 through the public API -*- C -*-===//
 *
 * A valid version-3 bundle read back field by field (constants and their
 * bytes, workspace roles, steps, decoded params, the new dtypes), the
 * version-3 sample file, the queries' argument and range errors, and every
 * prefix plus many random corruptions of a version-3 bundle (each must parse
 * or be a PARSE_ERROR; whatever parses must be self-consistent). Needs no
 * GPU. Prints "N passed, M failed" last.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200112L

#include "fusecc/runtime.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bundle_text.h"
#include "check.h"

static const char manifest[] =
    "fusecc-bundle 3\n"
    "chip sm_90a\n"
    "precision tf32\n"
    "const 0 decoder.0.weight f32 4 2 3 2 2 offset 0\n"
    "const 1 decoder.0.bias bf16 1 3 offset 96\n"
    "const 2 steps i64 0 offset 112\n"
    "entry decoder args 2 workspaces 3 steps 4\n"
    "arg 0 in x i32 2 2 8\n"
    "arg 1 out result u8 1 64\n"
    "workspace 0 f32 32 intermediate\n"
    "workspace 1 i64 4 partials\n"
    "workspace 2 f16 8 scratch\n"
    "zero w1\n"
    "launch decoder_k0 grid 4 1 1 block 128 1 1 smem 4096 params 5 0 c0 c1 w0 "
    "w1\n"
    "launch decoder_k1 grid 1 1 1 block 32 1 1 smem 0 params 4 w0 w2 c2 1\n"
    "zero w0\n"
    "graph %1 = const_tensor c0\n"
    "graph return %1\n"
    "end\n"
    "entry second args 1 workspaces 0 steps 1\n"
    "arg 0 out y f32 0\n"
    "launch k grid 1 1 1 block 1 1 1 smem 0 params 2 0 c2\n"
    "end\n";

/// The data section: 96 + 6 (+ 10 padding) + 8 bytes.
static unsigned char data[120];

static void test_parse_v3(void) {
  for (size_t i = 0; i < sizeof(data); ++i)
    data[i] = (unsigned char)(255 - i);
  size_t size;
  char *bytes = build_bundle(manifest, test_ptx, data, sizeof(data), &size);
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(parse_exact(bytes, size, &bundle));
  free(bytes);
  if (!bundle)
    return;
  uint32_t version = 0;
  CHECK_OK(fusecc_bundle_format_version(bundle, &version));
  CHECK(version == 3);
  size_t ptx_size = 0;
  CHECK(strcmp(fusecc_bundle_ptx(bundle, &ptx_size), test_ptx) == 0);
  CHECK(ptx_size == strlen(test_ptx));

  // Constants.
  size_t count = 0;
  CHECK_OK(fusecc_bundle_const_count(bundle, &count));
  CHECK(count == 3);
  fusecc_const_info_t info;
  CHECK_OK(fusecc_bundle_const_info(bundle, 0, &info));
  CHECK(info.index == 0 && strcmp(info.name, "decoder.0.weight") == 0);
  CHECK(info.dtype == FUSECC_DTYPE_F32 && strcmp(info.dtype_name, "f32") == 0);
  CHECK(info.rank == 4 && info.dims[0] == 2 && info.dims[1] == 3 &&
        info.dims[2] == 2 && info.dims[3] == 2 && info.dims[4] == 0);
  CHECK(info.element_count == 24 && info.byte_size == 96);
  CHECK(info.data_offset == 0);
  CHECK_OK(fusecc_bundle_const_info(bundle, 1, &info));
  CHECK(info.dtype == FUSECC_DTYPE_BF16 && info.byte_size == 6 &&
        info.data_offset == 96 && info.rank == 1 && info.dims[0] == 3);
  CHECK_OK(fusecc_bundle_const_info(bundle, 2, &info));
  CHECK(info.dtype == FUSECC_DTYPE_I64 && info.rank == 0 &&
        info.element_count == 1 && info.byte_size == 8 &&
        info.data_offset == 112);
  const void *contents = NULL;
  CHECK_OK(fusecc_bundle_const_data(bundle, 1, &contents));
  CHECK(contents && memcmp(contents, data + 96, 6) == 0);
  CHECK_OK(fusecc_bundle_const_data(bundle, 2, &contents));
  CHECK(contents && memcmp(contents, data + 112, 8) == 0);
  CHECK_STATUS(fusecc_bundle_const_info(bundle, 3, &info),
               FUSECC_STATUS_OUT_OF_RANGE,
               "fusecc_bundle_const_info: const index 3 out of range (bundle "
               "has 3 constants)");
  CHECK_STATUS(fusecc_bundle_const_data(bundle, 3, &contents),
               FUSECC_STATUS_OUT_OF_RANGE, "const index 3 out of range");
  CHECK_STATUS(fusecc_bundle_const_info(NULL, 0, &info),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "fusecc_bundle_const_info: bundle is NULL");
  CHECK_STATUS(fusecc_bundle_const_data(bundle, 0, NULL),
               FUSECC_STATUS_INVALID_ARGUMENT, "output pointer is NULL");
  CHECK_STATUS(fusecc_bundle_const_count(NULL, &count),
               FUSECC_STATUS_INVALID_ARGUMENT, "bundle is NULL");

  // The entry, its args and workspaces.
  fusecc_entry_info_t entry;
  CHECK_OK(fusecc_bundle_entry_info(bundle, 0, &entry));
  CHECK(strcmp(entry.name, "decoder") == 0 && entry.arg_count == 2 &&
        entry.input_count == 1 && entry.workspace_count == 3 &&
        entry.launch_count == 2 && entry.graph_line_count == 2);
  fusecc_arg_info_t arg;
  CHECK_OK(fusecc_bundle_arg_info(bundle, 0, 0, &arg));
  CHECK(arg.dtype == FUSECC_DTYPE_I32 && arg.byte_size == 64 &&
        strcmp(arg.dtype_name, "i32") == 0);
  CHECK_OK(fusecc_bundle_arg_info(bundle, 0, 1, &arg));
  CHECK(arg.dtype == FUSECC_DTYPE_U8 && arg.byte_size == 64 && arg.is_output);
  fusecc_workspace_info_t workspace;
  fusecc_workspace_role_t role;
  static const struct {
    fusecc_dtype_t dtype;
    size_t bytes;
    fusecc_workspace_role_t role;
    const char *role_name;
  } workspaces[] = {
      {FUSECC_DTYPE_F32, 128, FUSECC_WORKSPACE_ROLE_INTERMEDIATE,
       "intermediate"},
      {FUSECC_DTYPE_I64, 32, FUSECC_WORKSPACE_ROLE_PARTIALS, "partials"},
      {FUSECC_DTYPE_F16, 16, FUSECC_WORKSPACE_ROLE_SCRATCH, "scratch"},
  };
  for (size_t k = 0; k < 3; ++k) {
    CHECK_OK(fusecc_bundle_workspace_info(bundle, 0, k, &workspace));
    CHECK(workspace.dtype == workspaces[k].dtype &&
          workspace.byte_size == workspaces[k].bytes);
    CHECK_OK(fusecc_bundle_workspace_role(bundle, 0, k, &role));
    CHECK(role == workspaces[k].role);
    CHECK(strcmp(fusecc_workspace_role_name(role), workspaces[k].role_name) ==
          0);
  }
  CHECK_STATUS(fusecc_bundle_workspace_role(bundle, 0, 3, &role),
               FUSECC_STATUS_OUT_OF_RANGE,
               "fusecc_bundle_workspace_role: workspace index 3 out of range "
               "(entry 'decoder' has 3 workspaces)");
  CHECK_STATUS(fusecc_bundle_workspace_role(bundle, 0, 0, NULL),
               FUSECC_STATUS_INVALID_ARGUMENT, "output pointer is NULL");

  // Steps in execution order; launches numbered without the zero steps.
  size_t steps = 0;
  CHECK_OK(fusecc_bundle_step_count(bundle, 0, &steps));
  CHECK(steps == 4);
  static const struct {
    fusecc_step_kind_t kind;
    size_t launch_index, workspace_index;
  } expected_steps[] = {{FUSECC_STEP_ZERO, SIZE_MAX, 1},
                        {FUSECC_STEP_LAUNCH, 0, SIZE_MAX},
                        {FUSECC_STEP_LAUNCH, 1, SIZE_MAX},
                        {FUSECC_STEP_ZERO, SIZE_MAX, 0}};
  for (size_t i = 0; i < 4; ++i) {
    fusecc_step_info_t step;
    CHECK_OK(fusecc_bundle_step_info(bundle, 0, i, &step));
    CHECK(step.kind == expected_steps[i].kind &&
          step.launch_index == expected_steps[i].launch_index &&
          step.workspace_index == expected_steps[i].workspace_index);
  }
  CHECK(strcmp(fusecc_step_kind_name(FUSECC_STEP_ZERO), "zero") == 0);
  CHECK(strcmp(fusecc_step_kind_name(FUSECC_STEP_LAUNCH), "launch") == 0);
  fusecc_step_info_t step;
  CHECK_STATUS(fusecc_bundle_step_info(bundle, 0, 4, &step),
               FUSECC_STATUS_OUT_OF_RANGE,
               "fusecc_bundle_step_info: step index 4 out of range (entry "
               "'decoder' has 4 steps)");
  CHECK_STATUS(fusecc_bundle_step_count(bundle, 2, &steps),
               FUSECC_STATUS_OUT_OF_RANGE, "entry index 2 out of range");

  // Params: raw encoding A + W + k for constants, and decoded.
  fusecc_launch_info_t launch;
  CHECK_OK(fusecc_bundle_launch_info(bundle, 0, 0, &launch));
  CHECK(strcmp(launch.kernel_name, "decoder_k0") == 0 &&
        launch.param_count == 5 && launch.smem_bytes == 4096);
  CHECK(launch.param_args[0] == 0 && launch.param_args[1] == 5 &&
        launch.param_args[2] == 6 && launch.param_args[3] == 2 &&
        launch.param_args[4] == 3);
  static const struct {
    size_t launch, param;
    fusecc_param_kind_t kind;
    size_t index;
  } params[] = {
      {0, 0, FUSECC_PARAM_ARG, 0},       {0, 1, FUSECC_PARAM_CONST, 0},
      {0, 2, FUSECC_PARAM_CONST, 1},     {0, 3, FUSECC_PARAM_WORKSPACE, 0},
      {0, 4, FUSECC_PARAM_WORKSPACE, 1}, {1, 0, FUSECC_PARAM_WORKSPACE, 0},
      {1, 1, FUSECC_PARAM_WORKSPACE, 2}, {1, 2, FUSECC_PARAM_CONST, 2},
      {1, 3, FUSECC_PARAM_ARG, 1},
  };
  for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); ++i) {
    fusecc_param_info_t param;
    CHECK_OK(fusecc_bundle_launch_param(bundle, 0, params[i].launch,
                                        params[i].param, &param));
    CHECK(param.kind == params[i].kind && param.index == params[i].index);
  }
  fusecc_param_info_t param;
  CHECK_STATUS(fusecc_bundle_launch_param(bundle, 0, 1, 4, &param),
               FUSECC_STATUS_OUT_OF_RANGE,
               "param index 4 out of range (launch 1 of entry 'decoder' has "
               "4 params)");
  CHECK_STATUS(fusecc_bundle_launch_param(bundle, 0, 2, 0, &param),
               FUSECC_STATUS_OUT_OF_RANGE,
               "launch index 2 out of range (entry 'decoder' has 2 launches)");
  // The second entry has no workspaces: c2 is A + 0 + 2.
  CHECK_OK(fusecc_bundle_launch_info(bundle, 1, 0, &launch));
  CHECK(launch.param_args[0] == 0 && launch.param_args[1] == 3);
  CHECK_OK(fusecc_bundle_launch_param(bundle, 1, 0, 1, &param));
  CHECK(param.kind == FUSECC_PARAM_CONST && param.index == 2);
  const char *text = NULL;
  CHECK_OK(fusecc_bundle_graph_line(bundle, 0, 0, &text));
  CHECK(text && strcmp(text, "%1 = const_tensor c0") == 0);
  fusecc_bundle_release(bundle);
}

/// Versions 1 and 2 report no constants, unspecified roles, launch steps.
static void test_older_versions(void) {
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(
      fusecc_bundle_load_file(FUSECC_TEST_DATA_DIR "/sample_v2.fcb", &bundle));
  if (!bundle)
    return;
  uint32_t version = 0;
  size_t count = 99, steps = 0;
  CHECK_OK(fusecc_bundle_format_version(bundle, &version));
  CHECK_OK(fusecc_bundle_const_count(bundle, &count));
  CHECK(version == 2 && count == 0);
  fusecc_workspace_role_t role = FUSECC_WORKSPACE_ROLE_SCRATCH;
  CHECK_OK(fusecc_bundle_workspace_role(bundle, 0, 0, &role));
  CHECK(role == FUSECC_WORKSPACE_ROLE_UNSPECIFIED);
  CHECK(strcmp(fusecc_workspace_role_name(role), "unspecified") == 0);
  CHECK_OK(fusecc_bundle_step_count(bundle, 0, &steps));
  CHECK(steps == 2);
  for (size_t i = 0; i < steps; ++i) {
    fusecc_step_info_t step;
    CHECK_OK(fusecc_bundle_step_info(bundle, 0, i, &step));
    CHECK(step.kind == FUSECC_STEP_LAUNCH && step.launch_index == i);
  }
  fusecc_param_info_t param;
  CHECK_OK(fusecc_bundle_launch_param(bundle, 0, 0, 1, &param));
  CHECK(param.kind == FUSECC_PARAM_WORKSPACE && param.index == 0);
  fusecc_bundle_release(bundle);
  CHECK_OK(
      fusecc_bundle_load_file(FUSECC_TEST_DATA_DIR "/sample.fcb", &bundle));
  if (bundle) {
    CHECK_OK(fusecc_bundle_format_version(bundle, &version));
    CHECK(version == 1);
    fusecc_bundle_release(bundle);
  }
}

static void test_sample_file(void) {
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(
      fusecc_bundle_load_file(FUSECC_TEST_DATA_DIR "/sample_v3.fcb", &bundle));
  if (!bundle)
    return;
  fusecc_const_info_t info;
  CHECK_OK(fusecc_bundle_const_info(bundle, 0, &info));
  CHECK(strcmp(info.name, "weight") == 0 && info.byte_size == 4096);
  const void *contents = NULL;
  CHECK_OK(fusecc_bundle_const_data(bundle, 0, &contents));
  // weight[k] = (k % 13) - 6 as little-endian float32.
  int weights_ok = contents != NULL;
  for (int k = 0; weights_ok && k < 1024; ++k) {
    float value;
    memcpy(&value, (const char *)contents + 4 * k, 4);
    weights_ok = value == (float)((k % 13) - 6);
  }
  CHECK(weights_ok);
  CHECK_OK(fusecc_bundle_const_data(bundle, 1, &contents));
  int32_t table[4];
  memcpy(table, contents, sizeof(table));
  CHECK(table[0] == 1 && table[1] == -2 && table[2] == 3 && table[3] == -4);
  fusecc_bundle_release(bundle);
}

/// Every prefix of the bundle fails to parse; random corruptions parse or
/// fail with PARSE_ERROR, and what parses is self-consistent.
static void test_truncation_and_corruption(void) {
  size_t size;
  char *bytes = build_bundle(manifest, test_ptx, data, sizeof(data), &size);
  int ok = 1;
  for (size_t length = 0; length < size; ++length) {
    fusecc_bundle_t bundle = NULL;
    fusecc_status_t status = parse_exact(bytes, length, &bundle);
    if (fusecc_status_code(status) != FUSECC_STATUS_PARSE_ERROR || bundle)
      ok = 0;
    fusecc_status_free(status);
    fusecc_bundle_release(bundle);
  }
  CHECK(ok);
  uint64_t state = 0x243F6A8885A308D3ull;
  int accepted = 0;
  for (int round = 0; round < 20000; ++round) {
    char *copy = malloc(size);
    memcpy(copy, bytes, size);
    for (int f = 0, flips = 1 + round % 3; f < flips; ++f) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      static const char plausible[] = " \n0123456789-cwz%";
      copy[state % size] = (state >> 32) % 4 ? plausible[(state >> 40) % 17]
                                             : (char)(state >> 48);
    }
    fusecc_bundle_t bundle = NULL;
    fusecc_status_t status = parse_exact(copy, size, &bundle);
    if (status && fusecc_status_code(status) != FUSECC_STATUS_PARSE_ERROR)
      ok = 0;
    if ((status != NULL) == (bundle != NULL))
      ok = 0;
    if (bundle) {
      ++accepted;
      size_t consts = 0;
      fusecc_status_free(fusecc_bundle_const_count(bundle, &consts));
      for (size_t k = 0; k < consts; ++k) {
        fusecc_const_info_t info;
        const void *contents = NULL;
        if (fusecc_bundle_const_info(bundle, k, &info) ||
            fusecc_bundle_const_data(bundle, k, &contents) ||
            info.data_offset % 16 != 0 ||
            info.byte_size !=
                info.element_count * fusecc_dtype_size(info.dtype))
          ok = 0;
      }
      for (size_t e = 0; e < fusecc_bundle_entry_count(bundle); ++e) {
        fusecc_entry_info_t entry;
        size_t steps = 0;
        fusecc_status_free(fusecc_bundle_entry_info(bundle, e, &entry));
        fusecc_status_free(fusecc_bundle_step_count(bundle, e, &steps));
        for (size_t i = 0; i < steps; ++i) {
          fusecc_step_info_t step;
          if (fusecc_bundle_step_info(bundle, e, i, &step) ||
              (step.kind == FUSECC_STEP_ZERO
                   ? step.workspace_index >= entry.workspace_count
                   : step.launch_index >= entry.launch_count))
            ok = 0;
        }
        for (size_t l = 0; l < entry.launch_count; ++l) {
          fusecc_launch_info_t launch;
          if (fusecc_bundle_launch_info(bundle, e, l, &launch)) {
            ok = 0;
            continue;
          }
          for (size_t j = 0; j < launch.param_count; ++j)
            if (launch.param_args[j] >=
                entry.arg_count + entry.workspace_count + consts)
              ok = 0;
        }
      }
    }
    fusecc_status_free(status);
    fusecc_bundle_release(bundle);
    free(copy);
  }
  CHECK(ok);
  CHECK(accepted > 0 && accepted < 20000);
  free(bytes);
}

int main(void) {
  test_parse_v3();
  test_older_versions();
  test_sample_file();
  test_truncation_and_corruption();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
