/*===- runtime_test.c - Unit tests of the fusecc runtime ----------*- C -*-===//
 *
 * Covers bundle parsing (valid version-1 and version-2 bundles field by
 * field, every class of parse error, truncations and random corruptions),
 * argument validation, status messages, and module loading without a CUDA
 * driver. Needs no GPU. Prints
 * "N passed, M failed" last and exits non-zero on any failure.
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

/// A small valid bundle; errors are made by editing copies of it.
static const char valid_manifest[] =
    "fusecc-bundle 1\n"                                            // 1
    "chip sm_90a\n"                                                // 2
    "precision tf32\n"                                             // 3
    "entry e0 args 3 launches 2\n"                                 // 4
    "arg 0 in x f32 4 2 3 4 5\n"                                   // 5
    "arg 1 in w bf16 0\n"                                          // 6
    "arg 2 out y f16 8 1 2 1 2 1 2 1 2\n"                          // 7
    "launch k0 grid 7 2 1 block 128 2 1 smem 65536 params 2 0 2\n" // 8
    "launch k1 grid 1 1 1 block 32 1 1 smem 0 params 0\n"          // 9
    "graph %2 = exp %0\n"                                          // 10
    "graph return %2\n"                                            // 11
    "end\n"                                                        // 12
    "entry e1 args 1 launches 0\n"                                 // 13
    "arg 0 out only f32 1 16\n"                                    // 14
    "end\n";                                                       // 15
static const char valid_ptx[] = ".version 8.0\n.target sm_90a\n";

/// A small valid version-2 bundle with workspaces.
static const char valid_manifest_v2[] =
    "fusecc-bundle 2\n"                                                 // 1
    "chip sm_90\n"                                                      // 2
    "precision ieee\n"                                                  // 3
    "entry conv args 3 workspaces 2 launches 2\n"                       // 4
    "arg 0 in x f32 2 4 8\n"                                            // 5
    "arg 1 in weight f32 1 8\n"                                         // 6
    "arg 2 out y f32 2 4 8\n"                                           // 7
    "workspace 0 f32 64\n"                                              // 8
    "workspace 1 f32 3\n"                                               // 9
    "launch relayout grid 1 1 1 block 64 1 1 smem 0 params 2 1 w0\n"    // 10
    "launch main grid 4 1 1 block 32 1 1 smem 0 params 5 0 w0 2 w1 1\n" // 11
    "graph %2 = add %0 %1\n"                                            // 12
    "graph return %2\n"                                                 // 13
    "end\n"                                                             // 14
    "entry plain args 1 workspaces 0 launches 1\n"                      // 15
    "arg 0 out only f32 1 16\n"                                         // 16
    "launch k grid 1 1 1 block 16 1 1 smem 0 params 1 0\n"              // 17
    "end\n";                                                            // 18

/// Returns malloc'd `manifest` + "ptx <n>\n" + `ptx` with its size.
static char *make_bundle(const char *manifest, const char *ptx,
                         size_t *out_size) {
  size_t ptx_size = strlen(ptx);
  size_t size = strlen(manifest) + 32 + ptx_size;
  char *data = malloc(size);
  int header = snprintf(data, size, "%sptx %zu\n", manifest, ptx_size);
  memcpy(data + header, ptx, ptx_size);
  *out_size = (size_t)header + ptx_size;
  return data;
}

/// Parses exactly `size` bytes from a fresh heap copy, so reads past the end
/// are caught by sanitizers.
static fusecc_status_t parse_copy(const char *data, size_t size,
                                  fusecc_bundle_t *out_bundle) {
  char *copy = malloc(size ? size : 1);
  memcpy(copy, data, size);
  fusecc_status_t status = fusecc_bundle_parse(copy, size, out_bundle);
  free(copy);
  return status;
}

/// Replaces the first occurrence of `from` in `text` by `to` (malloc'd).
static char *replace(const char *text, const char *from, const char *to) {
  const char *at = strstr(text, from);
  if (!at) {
    fprintf(stderr, "test bug: '%s' not in the manifest\n", from);
    exit(2);
  }
  size_t size = strlen(text) - strlen(from) + strlen(to) + 1;
  char *result = malloc(size);
  size_t head = (size_t)(at - text);
  memcpy(result, text, head);
  strcpy(result + head, to);
  strcat(result, at + strlen(from));
  return result;
}

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
  CHECK(fusecc_header_cxx_check() == 1);
}

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

/// One malformed bundle: `from` replaced by `to` in the valid manifest (the
/// PTX section appended unless `raw`), or the raw bytes `to` when `from` is
/// NULL.
typedef struct parse_case_s {
  const char *from;
  const char *to;
  const char *expected;
} parse_case_t;

/// Parses each case of `cases` (edits of `manifest`) and checks that it is
/// the expected PARSE_ERROR and returns no bundle.
static void run_parse_cases(const char *manifest_text,
                            const parse_case_t *cases, size_t count,
                            const char *function) {
  for (size_t i = 0; i < count; ++i) {
    char *manifest = replace(manifest_text, cases[i].from, cases[i].to);
    size_t size;
    char *data = make_bundle(manifest, valid_ptx, &size);
    fusecc_bundle_t bundle = (fusecc_bundle_t)1;
    fusecc_status_t status = parse_copy(data, size, &bundle);
    CHECK(bundle == NULL);
    char context[64];
    snprintf(context, sizeof(context), "%s case %zu", function, i);
    check_status(status, FUSECC_STATUS_PARSE_ERROR, cases[i].expected,
                 __FILE__, context, __LINE__);
    free(data);
    free(manifest);
  }
}

static void test_parse_errors(void) {
  static const parse_case_t cases[] = {
      {"fusecc-bundle 1\n", "fusecc-bundel 1\n",
       "line 1: not a fusecc bundle: expected 'fusecc-bundle 1', got "
       "'fusecc-bundel'"},
      {"fusecc-bundle 1\n", "fusecc-bundle 4\n",
       "line 1: unsupported bundle format version 4 (this runtime reads "
       "versions 1, 2 and 3)"},
      {"fusecc-bundle 1\n", "fusecc-bundle 2\n",
       "line 4: expected 'workspaces' after the arg count, got 'launches'"},
      {"entry e0 args 3 launches 2", "entry e0 args 3 workspaces 0 launches 2",
       "line 4: 'workspaces' in an entry header needs bundle format version "
       "2"},
      {"arg 2 out y f16 8 1 2 1 2 1 2 1 2\n",
       "arg 2 out y f16 8 1 2 1 2 1 2 1 2\nworkspace 0 f32 4\n",
       "line 8: 'workspace' record needs bundle format version 2"},
      {"precision tf32\n", "precision tf32\nworkspace 0 f32 1\n",
       "line 4: 'workspace' record outside an entry"},
      {"fusecc-bundle 1\n", "fusecc-bundle 1 x\n", "line 1: unexpected 'x'"},
      {"chip sm_90a\n", "", "line 3: missing 'chip' record before"},
      {"precision tf32\n", "", "line 3: missing 'precision' record before"},
      {"precision tf32\n", "precision tf32\nchip sm_80\n",
       "line 4: duplicate 'chip' record (first on line 2)"},
      {"chip sm_90a\n", "chip gfx90a\n", "line 2: expected a chip like"},
      {"chip sm_90a\n", "chip sm_\n", "line 2: expected a chip like"},
      {"precision tf32\n", "precision fp16\n",
       "line 3: expected precision 'ieee' or 'tf32', got 'fp16'"},
      {"entry e1", "chip sm_80\nentry e1",
       "line 13: 'chip' must come before the first entry"},
      {"precision tf32\n", "precision tf32\nfoo 1\n",
       "line 4: unknown record 'foo'"},
      {"precision tf32\n", "precision tf32\narg 0 in x f32 0\n",
       "line 4: 'arg' record outside an entry"},
      {"arg 0 out only", "args 0 out only",
       "line 14: unknown record 'args' in entry 'e1'"},
      {"arg 1 in w bf16 0\narg 2 out y f16 8 1 2 1 2 1 2 1 2\n", "",
       "line 6: entry 'e0' declares 3 args but only 1 'arg' records precede "
       "this 'launch'"},
      {"entry e0 args 3", "entry e0 args 2",
       "line 7: entry 'e0' declares 2 args, found another 'arg'"},
      {"arg 1 in w", "arg 2 in w", "line 6: expected arg index 1, got 2"},
      {"arg 1 in w bf16 0\narg 2 out y", "arg 1 out w bf16 0\narg 2 in y",
       "line 7: input arg 2 follows an output arg"},
      {"arg 1 in w", "arg 1 inout w",
       "line 6: expected 'in' or 'out', got 'inout'"},
      {"w bf16 0", "w f64 0", "line 6: expected dtype 'f32', 'f16' or 'bf16'"},
      {"y f16 8 1 2 1 2 1 2 1 2", "y f16 9 1 2 1 2 1 2 1 2 1",
       "line 7: rank 9 is out of range (expected 0 to 8)"},
      {"f32 4 2 3 4 5", "f32 4 2 -3 4 5",
       "line 5: expected dimension (a non-negative decimal integer), got '-3'"},
      {"f32 4 2 3 4 5", "f32 4 2 three 4 5",
       "line 5: expected dimension (a non-negative decimal integer), got "
       "'three'"},
      {"f32 4 2 3 4 5", "f32 4 2 03 4 5",
       "line 5: expected dimension (a non-negative decimal integer), got '03'"},
      {"f32 4 2 3 4 5", "f32 4 2 0 4 5",
       "line 5: dimension 0 is out of range (expected 1 to"},
      {"f32 4 2 3 4 5", "f32 4 2 3 4",
       "line 5: expected dimension (a non-negative decimal integer), got end "
       "of line"},
      {"f32 4 2 3 4 5", "f32 4 2 3 4 5 6",
       "line 5: unexpected '6' after the dimensions"},
      {"f32 4 2 3 4 5", "f32 4 2 99999999999999999999 4 5",
       "line 5: dimension '99999999999999999999' overflows"},
      {"f32 4 2 3 4 5", "f32 4 2 9223372036854775808 4 5",
       "line 5: dimension 9223372036854775808 is out of range"},
      {"f32 4 2 3 4 5", "f32 3 4294967296 4294967296 4294967296",
       "line 5: element count of arg 'x' overflows"},
      {"f32 4 2 3 4 5", "f32 1 4611686018427387904",
       "line 5: byte size of arg 'x' overflows"},
      {"launch k0 grid", "launch k0 grd",
       "line 8: expected 'grid' after the kernel name, got 'grd'"},
      {"grid 7 2 1", "grid 7 0 1",
       "line 8: grid size 0 is out of range (expected 1 to 4294967295)"},
      {"grid 7 2 1", "grid 7 2 4294967296",
       "line 8: grid size 4294967296 is out of range"},
      {"block 128 2 1", "block 128 16 1",
       "line 8: block of 2048 threads exceeds 1024"},
      {"smem 65536", "smem -1",
       "line 8: expected smem bytes (a non-negative decimal integer)"},
      {"params 2 0 2", "params 2 0 3",
       "line 8: param 1 names arg 3 but entry 'e0' has 3 args"},
      {"params 2 0 2", "params 2 0 w0",
       "line 8: workspace param 'w0' is not supported by bundle format "
       "version 1"},
      {"params 2 0 2", "params 2 w0 2",
       "line 8: workspace param 'w0' is not supported by bundle format "
       "version 1"},
      {"params 2 0 2", "params 3 0 2",
       "line 8: expected param arg index (a non-negative decimal integer), "
       "got end of line"},
      {"params 2 0 2", "params 1 0 2",
       "line 8: unexpected '2' after the params"},
      {"params 2 0 2", "params 513 0 2",
       "line 8: param count 513 is out of range (expected 0 to 512)"},
      {"entry e0 args 3 launches 2", "entry e0 args 3 launches 3",
       "line 10: 'graph' line in entry 'e0' before its 3 args and 3 launches "
       "(found 3 and 2)"},
      {"launch k1 grid 1 1 1 block 32 1 1 smem 0 params 0\ngraph %2 = exp "
       "%0\ngraph return %2\n",
       "", "line 9: entry 'e0' declares 2 launches but has 1"},
      {"entry e1 args 1", "entry e1 args 2",
       "line 15: entry 'e1' declares 2 args but has 1"},
      {"launch k1 grid 1 1 1 block 32 1 1 smem 0 params 0\n",
       "launch k1 grid 1 1 1 block 32 1 1 smem 0 params 0\nlaunch k2 grid 1 1 "
       "1 block 32 1 1 smem 0 params 0\n",
       "line 10: entry 'e0' declares 2 launches, found another 'launch'"},
      {"launch k1 grid 1 1 1 block 32 1 1 smem 0 params 0\ngraph %2 = exp %0\n",
       "graph %2 = exp %0\nlaunch k1 grid 1 1 1 block 32 1 1 smem 0 params 0\n",
       "line 9: 'graph' line in entry 'e0' before its 3 args and 2 launches"},
      {"graph return %2\nend\n", "graph return %2\n",
       "line 12: missing 'end' for entry 'e0' (started on line 4) before "
       "'entry'"},
      {"arg 0 out only f32 1 16\nend\n", "arg 0 out only f32 1 16\n",
       "line 15: missing 'end' for entry 'e1' (started on line 13) before "
       "'ptx'"},
      {"end\nentry e1", "end x\nentry e1",
       "line 12: unexpected 'x' after 'end'"},
      {"entry e1", "entry e0", "line 13: duplicate entry name 'e0'"},
      {"entry e1 args 1 launches 0", "entry e1 args 1 launches 4097",
       "line 13: launch count 4097 is out of range (expected 0 to 4096)"},
      {"entry e1 args 1 launches 0", "entry e1 args 1 launches",
       "line 13: expected launch count (a non-negative decimal integer), got "
       "end of line"},
      {"graph return %2\n", "graph\n", "line 11: expected graph text"},
      {"chip sm_90a\n", "chip  sm_90a\n",
       "line 2: stray space at column 5 (tokens are separated by single "
       "spaces)"},
      {"chip sm_90a\n", "chip sm_90a \n", "line 2: stray space at column 12"},
      {"chip sm_90a\n", "chip\tsm_90a\n",
       "line 2: invalid byte 0x09 at column 5 (expected printable ASCII)"},
      {"chip sm_90a\n", "chip sm_90a\r\n", "line 2: invalid byte 0x0d"},
      {"chip sm_90a\n", "chip sm_90a\n\n", "line 3: empty line"},
  };
  run_parse_cases(valid_manifest, cases, sizeof(cases) / sizeof(cases[0]),
                  __func__);
}

static void test_parse_errors_v2(void) {
  static const parse_case_t cases[] = {
      // The entry header.
      {"entry conv args 3 workspaces 2", "entry conv args 3 launches 2",
       "line 4: expected 'workspaces' after the arg count, got 'launches'"},
      {"workspaces 2 launches 2", "workspaces 2 launchs 2",
       "line 4: expected 'launches' after the workspace count, got 'launchs'"},
      {"workspaces 2 launches", "workspaces x launches",
       "line 4: expected workspace count (a non-negative decimal integer), "
       "got 'x'"},
      {"workspaces 2 launches", "workspaces 4097 launches",
       "line 4: workspace count 4097 is out of range (expected 0 to 4096)"},
      // Workspace count mismatches, both ways.
      {"workspaces 2 launches", "workspaces 1 launches",
       "line 9: entry 'conv' declares 1 workspaces, found another "
       "'workspace'"},
      {"workspaces 2 launches", "workspaces 3 launches",
       "line 10: entry 'conv' declares 3 workspaces but only 2 'workspace' "
       "records precede this 'launch'"},
      {"entry plain args 1 workspaces 0 launches 1",
       "entry plain args 1 workspaces 1 launches 0",
       "line 17: entry 'plain' declares 1 workspaces but only 0 'workspace' "
       "records precede this 'launch'"},
      {"entry plain args 1 workspaces 0 launches 1\narg 0 out only f32 1 16\n"
       "launch k grid 1 1 1 block 16 1 1 smem 0 params 1 0\n",
       "entry plain args 1 workspaces 1 launches 0\narg 0 out only f32 1 16\n",
       "line 17: entry 'plain' declares 1 workspaces but has 0"},
      {"entry plain args 1 workspaces 0 launches 1\narg 0 out only f32 1 16\n"
       "launch k grid 1 1 1 block 16 1 1 smem 0 params 1 0\n",
       "entry plain args 1 workspaces 1 launches 0\narg 0 out only f32 1 16\n"
       "graph return %0\n",
       "line 17: 'graph' line in entry 'plain' before its 1 workspaces (found "
       "0)"},
      // Order: workspaces after the args, in index order, before launches.
      {"workspace 1 f32 3\n", "",
       "line 9: entry 'conv' declares 2 "
       "workspaces but only 1 'workspace'"},
      {"workspace 0 f32 64\nworkspace 1 f32 3\n",
       "workspace 1 f32 3\nworkspace 0 f32 64\n",
       "line 8: expected workspace index 0, got 1"},
      {"workspace 1 f32 3", "workspace 2 f32 3",
       "line 9: expected workspace index 1, got 2"},
      {"arg 2 out y f32 2 4 8\nworkspace 0 f32 64\n",
       "workspace 0 f32 64\narg 2 out y f32 2 4 8\n",
       "line 7: entry 'conv' declares 3 args but only 2 'arg' records precede "
       "this 'workspace'"},
      {"workspace 1 f32 3\nlaunch relayout grid 1 1 1 block 64 1 1 smem 0 "
       "params 2 1 w0\n",
       "launch relayout grid 1 1 1 block 64 1 1 smem 0 params 2 1 w0\n"
       "workspace 1 f32 3\n",
       "line 9: entry 'conv' declares 2 workspaces but only 1 'workspace' "
       "records precede this 'launch'"},
      {"precision ieee\n", "precision ieee\nworkspace 0 f32 1\n",
       "line 4: 'workspace' record outside an entry"},
      // The workspace record itself.
      {"workspace 0 f32 64", "workspace 0 f32 0",
       "line 8: workspace element count 0 is out of range (expected 1 to"},
      {"workspace 0 f32 64", "workspace 0 f16 64",
       "line 8: expected workspace dtype 'f32', got 'f16'"},
      {"workspace 0 f32 64", "workspace 0 float 64",
       "line 8: expected workspace dtype 'f32', got 'float'"},
      {"workspace 0 f32 64", "workspace 0 f32",
       "line 8: expected workspace element count (a non-negative decimal "
       "integer), got end of line"},
      {"workspace 0 f32 64", "workspace 0 f32 -64",
       "line 8: expected workspace element count (a non-negative decimal "
       "integer), got '-64'"},
      {"workspace 0 f32 64", "workspace 0 f32 064",
       "line 8: expected workspace element count (a non-negative decimal "
       "integer), got '064'"},
      {"workspace 0 f32 64", "workspace 0 f32 4611686018427387904",
       "line 8: byte size of workspace 0 overflows"},
      {"workspace 0 f32 64", "workspace 0 f32 99999999999999999999",
       "line 8: workspace element count '99999999999999999999' overflows"},
      {"workspace 0 f32 64", "workspace 0 f32 64 1",
       "line 8: unexpected '1' after the workspace element count"},
      {"workspace 0 f32 64", "workspace x f32 64",
       "line 8: expected workspace index (a non-negative decimal integer), "
       "got 'x'"},
      // `w<k>` params.
      {"params 2 1 w0", "params 2 1 w5",
       "line 10: param 1 names workspace 5 but entry 'conv' has 2 "
       "workspaces"},
      {"params 2 1 w0", "params 2 1 w2",
       "line 10: param 1 names workspace 2 but entry 'conv' has 2 "
       "workspaces"},
      {"params 1 0\n", "params 1 w0\n",
       "line 17: param 0 names workspace 0 but entry 'plain' has 0 "
       "workspaces"},
      {"params 2 1 w0", "params 2 1 w",
       "line 10: expected workspace param index (a non-negative decimal "
       "integer), got 'w'"},
      {"params 2 1 w0", "params 2 1 w01",
       "line 10: expected workspace param index (a non-negative decimal "
       "integer), got 'w01'"},
      {"params 2 1 w0", "params 2 1 wx",
       "line 10: expected workspace param index (a non-negative decimal "
       "integer), got 'wx'"},
      {"params 2 1 w0", "params 2 1 w-1",
       "line 10: expected workspace param index (a non-negative decimal "
       "integer), got 'w-1'"},
      {"params 2 1 w0", "params 2 1 w99999999999999999999",
       "line 10: workspace param index 'w99999999999999999999' overflows"},
      {"params 2 1 w0", "params 2 1 W0",
       "line 10: expected param arg index (a non-negative decimal integer), "
       "got 'W0'"},
      {"params 2 1 w0", "params 2 3 w0",
       "line 10: param 0 names arg 3 but entry 'conv' has 3 args"},
      {"params 2 1 w0", "params 3 1 w0",
       "line 10: expected param arg index (a non-negative decimal integer), "
       "got end of line"},
      {"params 2 1 w0", "params 1 1 w0",
       "line 10: unexpected 'w0' after the params"},
      // Versions.
      {"fusecc-bundle 2\n", "fusecc-bundle 4\n",
       "line 1: unsupported bundle format version 4 (this runtime reads "
       "versions 1, 2 and 3)"},
      {"fusecc-bundle 2\n", "fusecc-bundle 3\n",
       "line 4: expected 'steps' after the workspace count, got 'launches' "
       "(the version 1 and 2 spelling)"},
      {"fusecc-bundle 2\n", "fusecc-bundle 0\n",
       "line 1: unsupported bundle format version 0"},
      {"fusecc-bundle 2\n", "fusecc-bundle 02\n",
       "line 1: expected format version (a non-negative decimal integer), got "
       "'02'"},
      {"fusecc-bundle 2\n", "fusecc-bundle 1\n",
       "line 4: 'workspaces' in an entry header needs bundle format version "
       "2"},
  };
  run_parse_cases(valid_manifest_v2, cases, sizeof(cases) / sizeof(cases[0]),
                  __func__);
}

/// Malformed bundles whose damage lies in the framing or the PTX section.
static void test_parse_framing_errors(void) {
  static const struct {
    const char *data;
    const char *expected;
  } cases[] = {
      {"", "line 1: empty input: expected 'fusecc-bundle 1'"},
      {"fusecc-bundle 1", "line 1: unexpected end of data: line is not "
                          "terminated by '\\n'"},
      {"fusecc-bundle 1\nchip sm_90\nprecision ieee\n",
       "line 3: unexpected end of data: expected an 'entry' record"},
      {"fusecc-bundle 1\nchip sm_90\nprecision ieee\nptx 3\nabc",
       "line 4: 'ptx' before any 'entry' record"},
      {"fusecc-bundle 1\nchip sm_90\nprecision ieee\nentry e args 0 "
       "launches 0\nend\n",
       "line 5: unexpected end of data: expected another 'entry' or 'ptx "
       "<bytes>'"},
      {"fusecc-bundle 1\nchip sm_90\nprecision ieee\nentry e args 0 "
       "launches 0\n",
       "line 4: unexpected end of data in entry 'e' (started on line 4): "
       "expected 'end'"},
      {"fusecc-bundle 1\nchip sm_90\nprecision ieee\nentry e args 0 "
       "launches 0\nend\nptx 10\nabc",
       "line 6: 'ptx' declares 10 bytes but only 3 remain"},
      {"fusecc-bundle 1\nchip sm_90\nprecision ieee\nentry e args 0 "
       "launches 0\nend\nptx 2\nabc",
       "line 6: 1 bytes of trailing data after the 2-byte PTX"},
      {"fusecc-bundle 1\nchip sm_90\nprecision ieee\nentry e args 0 "
       "launches 0\nend\nptx 0\n",
       "line 6: PTX byte count 0 is out of range"},
      {"fusecc-bundle 1\nchip sm_90\nprecision ieee\nentry e args 0 "
       "launches 0\nend\nptx 3 4\nabc",
       "line 6: unexpected '4' after the PTX byte count"},
      {"\xff\xfe", "line 1: unexpected end of data"},
      {"\x7f\n", "line 1: invalid byte 0x7f at column 1"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    fusecc_bundle_t bundle = NULL;
    fusecc_status_t status =
        parse_copy(cases[i].data, strlen(cases[i].data), &bundle);
    char context[64];
    snprintf(context, sizeof(context), "%s case %zu", __func__, i);
    check_status(status, FUSECC_STATUS_PARSE_ERROR, cases[i].expected,
                 __FILE__, context, __LINE__);
  }
  // A NUL inside the PTX (strlen-based cases cannot hold one).
  static const char with_nul[] = "fusecc-bundle 1\nchip sm_90\nprecision "
                                 "ieee\nentry e args 0 launches 0\nend\nptx "
                                 "3\na\0c";
  fusecc_bundle_t bundle = NULL;
  CHECK_STATUS(parse_copy(with_nul, sizeof(with_nul) - 1, &bundle),
               FUSECC_STATUS_PARSE_ERROR,
               "line 6: PTX contains a NUL byte at offset 1");
  CHECK_STATUS(fusecc_bundle_parse(NULL, 4, &bundle),
               FUSECC_STATUS_INVALID_ARGUMENT, "data is NULL");
  CHECK_STATUS(fusecc_bundle_parse("x", 1, NULL),
               FUSECC_STATUS_INVALID_ARGUMENT, "out_bundle is NULL");
}

static void test_load_file_parse_error_names_path(void) {
  const char *path = "fusecc_runtime_test_bad.fcb";
  FILE *file = fopen(path, "wb");
  if (!file) {
    CHECK(file != NULL);
    return;
  }
  fputs("fusecc-bundle 7\n", file);
  fclose(file);
  fusecc_bundle_t bundle = NULL;
  CHECK_STATUS(fusecc_bundle_load_file(path, &bundle),
               FUSECC_STATUS_PARSE_ERROR,
               "fusecc_runtime_test_bad.fcb: line 1: unsupported bundle "
               "format version 7");
  remove(path);
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

/// Parses every prefix of the bundle of `manifest` and many randomly
/// corrupted copies: each must return a bundle or a PARSE_ERROR, never crash
/// or over-read; whatever is accepted must be self-consistent.
static void check_truncation_and_corruption(const char *manifest) {
  size_t size;
  char *data = make_bundle(manifest, valid_ptx, &size);
  int prefixes_ok = 1;
  for (size_t length = 0; length < size; ++length) {
    fusecc_bundle_t bundle = NULL;
    fusecc_status_t status = parse_copy(data, length, &bundle);
    if (fusecc_status_code(status) != FUSECC_STATUS_PARSE_ERROR || bundle) {
      fprintf(stderr, "prefix of %zu bytes: %s\n", length,
              fusecc_status_message(status));
      prefixes_ok = 0;
    }
    fusecc_status_free(status);
    fusecc_bundle_release(bundle);
  }
  CHECK(prefixes_ok);

  uint64_t state = 0x9E3779B97F4A7C15ull;
  int corruptions_ok = 1;
  int accepted = 0;
  for (int round = 0; round < 20000; ++round) {
    char *copy = malloc(size);
    memcpy(copy, data, size);
    int flips = 1 + (int)(state % 3);
    for (int f = 0; f < flips; ++f) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      size_t at = (size_t)(state % size);
      // Mostly plausible characters, sometimes arbitrary bytes.
      static const char plausible[] = " \n0123456789-9%ax";
      copy[at] = (state >> 32) % 4 ? plausible[(state >> 40) % 17]
                                   : (char)(state >> 48);
    }
    fusecc_bundle_t bundle = NULL;
    fusecc_status_t status = fusecc_bundle_parse(copy, size, &bundle);
    if (status && fusecc_status_code(status) != FUSECC_STATUS_PARSE_ERROR)
      corruptions_ok = 0;
    if (!status) {
      ++accepted;
      // Walk everything an accepted bundle reports.
      for (size_t e = 0; e < fusecc_bundle_entry_count(bundle); ++e) {
        fusecc_entry_info_t entry;
        fusecc_status_free(fusecc_bundle_entry_info(bundle, e, &entry));
        for (size_t a = 0; a < entry.arg_count; ++a) {
          fusecc_arg_info_t arg;
          fusecc_status_free(fusecc_bundle_arg_info(bundle, e, a, &arg));
        }
        for (size_t k = 0; k < entry.workspace_count; ++k) {
          fusecc_workspace_info_t workspace;
          fusecc_status_t ws_status =
              fusecc_bundle_workspace_info(bundle, e, k, &workspace);
          if (ws_status || workspace.element_count == 0 ||
              workspace.byte_size != workspace.element_count * 4)
            corruptions_ok = 0;
          fusecc_status_free(ws_status);
        }
        for (size_t l = 0; l < entry.launch_count; ++l) {
          fusecc_launch_info_t launch;
          fusecc_status_t launch_status =
              fusecc_bundle_launch_info(bundle, e, l, &launch);
          if (launch_status)
            corruptions_ok = 0;
          else
            for (size_t j = 0; j < launch.param_count; ++j)
              if (launch.param_args[j] >=
                  entry.arg_count + entry.workspace_count)
                corruptions_ok = 0;
          fusecc_status_free(launch_status);
        }
      }
    }
    if ((status != NULL) == (bundle != NULL))
      corruptions_ok = 0;
    fusecc_status_free(status);
    fusecc_bundle_release(bundle);
    free(copy);
  }
  CHECK(corruptions_ok);
  CHECK(accepted < 20000);
  free(data);
}

static void test_truncation_and_corruption(void) {
  check_truncation_and_corruption(valid_manifest);
  check_truncation_and_corruption(valid_manifest_v2);
}

int main(void) {
  setenv("FUSECC_CUDA_DRIVER_LIBRARY", "libfusecc-no-such-driver.so.1", 1);
  test_status_basics();
  test_parse_valid();
  test_parse_valid_v2();
  test_load_file();
  test_parse_errors();
  test_parse_errors_v2();
  test_parse_framing_errors();
  test_load_file_parse_error_names_path();
  test_validate_args();
  test_module_without_driver();
  test_truncation_and_corruption();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
