/*===- parse_valid_test.c - Valid bundles read back ---------------*- C -*-===//
 *
 * Parses the valid version-1 and version-2 bundles of parse_fixtures.h and
 * reads every field back through the query API (entries, args, workspaces,
 * launches and their encoded params, graph lines), with the queries' range
 * and argument errors; loads test/data/sample.fcb and the file-level I/O
 * errors. Needs no GPU. Prints "N passed, M failed" last and exits non-zero
 * on any failure.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200112L

#include "fusecc/runtime.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "parse_fixtures.h"

static void test_parse_valid(void) {
  size_t size;
  char *data = make_bundle(valid_manifest, valid_ptx, &size);
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(parse_copy(data, size, &bundle));
  free(data);
  if (!bundle)
    return;
  CHECK(strcmp(fusecc_bundle_chip(bundle), "sm_90a") == 0);
  CHECK(fusecc_bundle_precision(bundle) == FUSECC_PRECISION_TF32);
  size_t ptx_size = 0;
  const char *ptx = fusecc_bundle_ptx(bundle, &ptx_size);
  CHECK(ptx_size == strlen(valid_ptx));
  CHECK(ptx && strcmp(ptx, valid_ptx) == 0);
  CHECK(fusecc_bundle_entry_count(bundle) == 2);

  fusecc_entry_info_t entry;
  CHECK_OK(fusecc_bundle_entry_info(bundle, 0, &entry));
  CHECK(strcmp(entry.name, "e0") == 0);
  CHECK(entry.arg_count == 3 && entry.input_count == 2);
  CHECK(entry.launch_count == 2 && entry.graph_line_count == 2);
  CHECK(entry.workspace_count == 0);

  fusecc_arg_info_t arg;
  CHECK_OK(fusecc_bundle_arg_info(bundle, 0, 0, &arg));
  CHECK(arg.index == 0 && strcmp(arg.name, "x") == 0 && !arg.is_output);
  CHECK(arg.dtype == FUSECC_DTYPE_F32 && strcmp(arg.dtype_name, "f32") == 0);
  CHECK(arg.rank == 4 && arg.dims[0] == 2 && arg.dims[1] == 3 &&
        arg.dims[2] == 4 && arg.dims[3] == 5 && arg.dims[4] == 0);
  CHECK(arg.element_count == 120 && arg.byte_size == 480);
  CHECK_OK(fusecc_bundle_arg_info(bundle, 0, 1, &arg));
  CHECK(arg.rank == 0 && arg.element_count == 1 && arg.byte_size == 2);
  CHECK(arg.dtype == FUSECC_DTYPE_BF16);
  CHECK_OK(fusecc_bundle_arg_info(bundle, 0, 2, &arg));
  CHECK(arg.is_output && strcmp(arg.name, "y") == 0 && arg.rank == 8);
  CHECK(arg.dtype == FUSECC_DTYPE_F16 && arg.element_count == 16 &&
        arg.byte_size == 32 && arg.dims[7] == 2);

  fusecc_launch_info_t launch;
  CHECK_OK(fusecc_bundle_launch_info(bundle, 0, 0, &launch));
  CHECK(strcmp(launch.kernel_name, "k0") == 0);
  CHECK(launch.grid[0] == 7 && launch.grid[1] == 2 && launch.grid[2] == 1);
  CHECK(launch.block[0] == 128 && launch.block[1] == 2 && launch.block[2] == 1);
  CHECK(launch.smem_bytes == 65536 && launch.param_count == 2);
  CHECK(launch.param_args[0] == 0 && launch.param_args[1] == 2);
  CHECK_OK(fusecc_bundle_launch_info(bundle, 0, 1, &launch));
  CHECK(strcmp(launch.kernel_name, "k1") == 0 && launch.param_count == 0);

  const char *text = NULL;
  CHECK_OK(fusecc_bundle_graph_line(bundle, 0, 0, &text));
  CHECK(text && strcmp(text, "%2 = exp %0") == 0);
  CHECK_OK(fusecc_bundle_graph_line(bundle, 0, 1, &text));
  CHECK(text && strcmp(text, "return %2") == 0);

  CHECK_OK(fusecc_bundle_entry_info(bundle, 1, &entry));
  CHECK(strcmp(entry.name, "e1") == 0 && entry.input_count == 0 &&
        entry.launch_count == 0 && entry.graph_line_count == 0);
  CHECK(entry.workspace_count == 0);
  fusecc_workspace_info_t workspace;
  CHECK_STATUS(fusecc_bundle_workspace_info(bundle, 0, 0, &workspace),
               FUSECC_STATUS_OUT_OF_RANGE,
               "workspace index 0 out of range (entry 'e0' has 0 workspaces)");

  size_t index = 99;
  CHECK_OK(fusecc_bundle_find_entry(bundle, "e1", &index));
  CHECK(index == 1);
  CHECK_STATUS(fusecc_bundle_find_entry(bundle, "nope", &index),
               FUSECC_STATUS_NOT_FOUND, "no entry named 'nope'");
  CHECK_STATUS(fusecc_bundle_entry_info(bundle, 2, &entry),
               FUSECC_STATUS_OUT_OF_RANGE, "entry index 2 out of range");
  CHECK_STATUS(fusecc_bundle_arg_info(bundle, 0, 3, &arg),
               FUSECC_STATUS_OUT_OF_RANGE, "arg index 3 out of range");
  CHECK_STATUS(fusecc_bundle_launch_info(bundle, 1, 0, &launch),
               FUSECC_STATUS_OUT_OF_RANGE, "launch index 0 out of range");
  CHECK_STATUS(fusecc_bundle_graph_line(bundle, 0, 2, &text),
               FUSECC_STATUS_OUT_OF_RANGE, "line index 2 out of range");
  CHECK_STATUS(fusecc_bundle_entry_info(NULL, 0, &entry),
               FUSECC_STATUS_INVALID_ARGUMENT, "bundle is NULL");
  CHECK_STATUS(fusecc_bundle_arg_info(bundle, 0, 0, NULL),
               FUSECC_STATUS_INVALID_ARGUMENT, "is NULL");

  fusecc_bundle_retain(bundle);
  fusecc_bundle_release(bundle);
  CHECK(fusecc_bundle_entry_count(bundle) == 2);
  fusecc_bundle_release(bundle);
  CHECK(fusecc_bundle_entry_count(NULL) == 0 && !fusecc_bundle_chip(NULL));
}

static void test_parse_valid_v2(void) {
  size_t size;
  char *data = make_bundle(valid_manifest_v2, valid_ptx, &size);
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(parse_copy(data, size, &bundle));
  free(data);
  if (!bundle)
    return;
  CHECK(fusecc_bundle_entry_count(bundle) == 2);

  fusecc_entry_info_t entry;
  memset(&entry, 0xab, sizeof(entry));
  CHECK_OK(fusecc_bundle_entry_info(bundle, 0, &entry));
  CHECK(strcmp(entry.name, "conv") == 0);
  CHECK(entry.arg_count == 3 && entry.input_count == 2);
  CHECK(entry.workspace_count == 2);
  CHECK(entry.launch_count == 2 && entry.graph_line_count == 2);

  fusecc_workspace_info_t workspace;
  CHECK_OK(fusecc_bundle_workspace_info(bundle, 0, 0, &workspace));
  CHECK(workspace.dtype == FUSECC_DTYPE_F32);
  CHECK(workspace.element_count == 64 && workspace.byte_size == 256);
  CHECK_OK(fusecc_bundle_workspace_info(bundle, 0, 1, &workspace));
  CHECK(workspace.dtype == FUSECC_DTYPE_F32);
  CHECK(workspace.element_count == 3 && workspace.byte_size == 12);

  // Workspace params are encoded as arg_count + k.
  fusecc_launch_info_t launch;
  CHECK_OK(fusecc_bundle_launch_info(bundle, 0, 0, &launch));
  CHECK(strcmp(launch.kernel_name, "relayout") == 0);
  CHECK(launch.param_count == 2);
  CHECK(launch.param_args[0] == 1 && launch.param_args[1] == 3 + 0);
  CHECK_OK(fusecc_bundle_launch_info(bundle, 0, 1, &launch));
  CHECK(strcmp(launch.kernel_name, "main") == 0 && launch.param_count == 5);
  CHECK(launch.param_args[0] == 0 && launch.param_args[1] == 3 + 0 &&
        launch.param_args[2] == 2 && launch.param_args[3] == 3 + 1 &&
        launch.param_args[4] == 1);

  CHECK_OK(fusecc_bundle_entry_info(bundle, 1, &entry));
  CHECK(strcmp(entry.name, "plain") == 0 && entry.workspace_count == 0 &&
        entry.arg_count == 1 && entry.launch_count == 1);
  CHECK_OK(fusecc_bundle_launch_info(bundle, 1, 0, &launch));
  CHECK(launch.param_count == 1 && launch.param_args[0] == 0);

  CHECK_STATUS(fusecc_bundle_workspace_info(bundle, 0, 2, &workspace),
               FUSECC_STATUS_OUT_OF_RANGE,
               "fusecc_bundle_workspace_info: workspace index 2 out of range "
               "(entry 'conv' has 2 workspaces)");
  CHECK_STATUS(fusecc_bundle_workspace_info(bundle, 1, 0, &workspace),
               FUSECC_STATUS_OUT_OF_RANGE,
               "workspace index 0 out of range (entry 'plain' has 0 "
               "workspaces)");
  CHECK_STATUS(fusecc_bundle_workspace_info(bundle, 2, 0, &workspace),
               FUSECC_STATUS_OUT_OF_RANGE, "entry index 2 out of range");
  CHECK_STATUS(fusecc_bundle_workspace_info(NULL, 0, 0, &workspace),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "fusecc_bundle_workspace_info: bundle is NULL");
  CHECK_STATUS(fusecc_bundle_workspace_info(bundle, 0, 0, NULL),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "fusecc_bundle_workspace_info: output pointer is NULL");

  // Validation covers the caller's buffers only: workspaces are not args.
  fusecc_buffer_t args[3] = {
      {0x100000, 32 * 4}, {0x200000, 8 * 4}, {0x300000, 32 * 4}};
  CHECK_OK(fusecc_bundle_validate_args(bundle, 0, args, 3));
  CHECK_STATUS(fusecc_bundle_validate_args(bundle, 0, args, 5),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'conv' takes 3 args, got 5");
  fusecc_bundle_release(bundle);

  // Version 2 with no workspaces at all.
  char *manifest = replace(valid_manifest_v2,
                           "entry conv args 3 workspaces 2 launches 2\n"
                           "arg 0 in x f32 2 4 8\n"
                           "arg 1 in weight f32 1 8\n"
                           "arg 2 out y f32 2 4 8\n"
                           "workspace 0 f32 64\n"
                           "workspace 1 f32 3\n"
                           "launch relayout grid 1 1 1 block 64 1 1 smem 0 "
                           "params 2 1 w0\n"
                           "launch main grid 4 1 1 block 32 1 1 smem 0 params "
                           "5 0 w0 2 w1 1\n"
                           "graph %2 = add %0 %1\n"
                           "graph return %2\n"
                           "end\n",
                           "");
  data = make_bundle(manifest, valid_ptx, &size);
  bundle = NULL;
  CHECK_OK(parse_copy(data, size, &bundle));
  if (bundle) {
    CHECK(fusecc_bundle_entry_count(bundle) == 1);
    CHECK_OK(fusecc_bundle_entry_info(bundle, 0, &entry));
    CHECK(strcmp(entry.name, "plain") == 0 && entry.workspace_count == 0);
    fusecc_bundle_release(bundle);
  }
  free(data);
  free(manifest);
}

static void test_load_file(void) {
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(
      fusecc_bundle_load_file(FUSECC_TEST_DATA_DIR "/sample.fcb", &bundle));
  if (bundle) {
    CHECK(fusecc_bundle_entry_count(bundle) == 2);
    CHECK(fusecc_bundle_precision(bundle) == FUSECC_PRECISION_IEEE);
    size_t index;
    CHECK_OK(fusecc_bundle_find_entry(bundle, "sample_relu_scale", &index));
    fusecc_launch_info_t launch;
    CHECK_OK(fusecc_bundle_launch_info(bundle, index, 1, &launch));
    CHECK(launch.param_count == 1 && launch.param_args[0] == 1);
    const char *ptx = fusecc_bundle_ptx(bundle, NULL);
    CHECK(ptx && strstr(ptx, ".target sm_90"));
    fusecc_bundle_release(bundle);
  }
  CHECK_STATUS(fusecc_bundle_load_file("/nonexistent/dir/x.fcb", &bundle),
               FUSECC_STATUS_IO_ERROR, "cannot open '/nonexistent/dir/x.fcb'");
  CHECK(bundle == NULL);
  CHECK_STATUS(fusecc_bundle_load_file(FUSECC_TEST_DATA_DIR, &bundle),
               FUSECC_STATUS_IO_ERROR, "cannot read");
  CHECK_STATUS(fusecc_bundle_load_file(NULL, &bundle),
               FUSECC_STATUS_INVALID_ARGUMENT, "path is NULL");
}

int main(void) {
  test_parse_valid();
  test_parse_valid_v2();
  test_load_file();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
