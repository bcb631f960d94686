/*===- parse_errors_test.c - Every class of parse error -----------*- C -*-===//
 *
 * Malformed bundles made by editing the valid manifests of parse_fixtures.h
 * (version 1 and version 2, one case per class of error), broken framing
 * and PTX sections, and a file's parse error naming its path: each must be
 * a PARSE_ERROR with the expected message and return no bundle. Needs no
 * GPU. Prints "N passed, M failed" last and exits non-zero on any failure.
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
    check_status(status, FUSECC_STATUS_PARSE_ERROR, cases[i].expected, __FILE__,
                 context, __LINE__);
    free(data);
    free(manifest);
  }
}

static void test_parse_errors(void) {
  static const parse_case_t cases[] = {
      {"fusecc-bundle 1\n", "fusecc-bundel 1\n",
       "line 1: not a fusecc bundle: expected 'fusecc-bundle 1', got "
       "'fusecc-bundel'"},
      {"fusecc-bundle 1\n", "fusecc-bundle 5\n",
       "line 1: unsupported bundle format version 5 (this runtime reads "
       "versions 1, 2, 3 and 4)"},
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
      {"precision tf32\n", "precision fp8\n",
       "line 3: expected precision 'ieee', 'tf32', 'bf16' or 'fp16', got "
       "'fp8'"},
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
      {"fusecc-bundle 2\n", "fusecc-bundle 5\n",
       "line 1: unsupported bundle format version 5 (this runtime reads "
       "versions 1, 2, 3 and 4)"},
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
    check_status(status, FUSECC_STATUS_PARSE_ERROR, cases[i].expected, __FILE__,
                 context, __LINE__);
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

int main(void) {
  test_parse_errors();
  test_parse_errors_v2();
  test_parse_framing_errors();
  test_load_file_parse_error_names_path();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
