/*===- validation_test.c - One test per bundle validation rule ----*- C -*-===//
 *
 * Each RULE(name) below checks one validation rule of docs/bundle.md
 * ("Validation rules"), which names the test `rule_<name>`: the bundles it
 * builds break exactly that rule and must be rejected with a message naming
 * what was expected; the nearest valid bundles must be accepted. CMake
 * registers each rule as its own ctest (fusecc_rule_<name>) by reading the
 * RULE lines of this file; `--check-doc docs/bundle.md` fails if a rule is
 * missing from the document.
 *
 * Usage: fusecc_validation_test [rule-name | --check-doc path]; with no
 * argument every rule runs. Prints "N passed, M failed" last.
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

/// The valid version-3 bundle the cases edit (line numbers on the right;
/// the PTX is line 18, `data 80` line 19).
static const char v3[] =
    "fusecc-bundle 3\n"                                              // 1
    "chip sm_90a\n"                                                  // 2
    "precision tf32\n"                                               // 3
    "const 0 w f32 2 4 4 offset 0\n"                                 // 4
    "const 1 b i64 1 2 offset 64\n"                                  // 5
    "entry e args 2 workspaces 2 steps 3\n"                          // 6
    "arg 0 in x f32 2 4 8\n"                                         // 7
    "arg 1 out y f16 1 32\n"                                         // 8
    "workspace 0 f32 16 intermediate\n"                              // 9
    "workspace 1 u8 8 partials\n"                                    // 10
    "zero w1\n"                                                      // 11
    "launch k0 grid 1 1 1 block 32 1 1 smem 0 params 4 0 c0 w0 w1\n" // 12
    "launch k1 grid 2 1 1 block 64 1 1 smem 1024 params 3 w0 c1 1\n" // 13
    "graph %1 = const_tensor c0\n"                                   // 14
    "graph return %1\n"                                              // 15
    "end\n";                                                         // 16

/// The data section of `v3`: 64 bytes of c0, 16 of c1.
static unsigned char v3_data[80];

/// A valid version-2 bundle.
static const char v2[] =
    "fusecc-bundle 2\n"                                         // 1
    "chip sm_90\n"                                              // 2
    "precision ieee\n"                                          // 3
    "entry e args 2 workspaces 1 launches 1\n"                  // 4
    "arg 0 in x f32 1 4\n"                                      // 5
    "arg 1 out y f32 1 128\n"                                   // 6
    "workspace 0 f32 8\n"                                       // 7
    "launch k grid 1 1 1 block 32 1 1 smem 0 params 3 0 w0 1\n" // 8
    "end\n";                                                    // 9

/// A valid version-1 bundle.
static const char v1[] = "fusecc-bundle 1\n"
                         "chip sm_90\n"
                         "precision ieee\n"
                         "entry e args 1 launches 1\n"
                         "arg 0 out y f32 1 4\n"
                         "launch k grid 1 1 1 block 32 1 1 smem 0 params 1 0\n"
                         "end\n";

/// Parses `manifest` with `from` replaced by `to` (the data section of `v3`
/// appended when `with_data`); returns the status, *out_bundle the bundle.
static fusecc_status_t parse_edit(const char *manifest, const char *from,
                                  const char *to, int with_data,
                                  fusecc_bundle_t *out_bundle) {
  char *text = edit_text(manifest, from, to);
  size_t size;
  char *bytes = build_bundle(text, test_ptx, with_data ? v3_data : NULL,
                             sizeof(v3_data), &size);
  fusecc_status_t status = parse_exact(bytes, size, out_bundle);
  free(bytes);
  free(text);
  return status;
}

/// Checks that the edited manifest is a PARSE_ERROR containing `expected`
/// and yields no bundle.
static void check_reject(const char *manifest, const char *from, const char *to,
                         const char *expected, int line) {
  fusecc_bundle_t bundle = (fusecc_bundle_t)1;
  fusecc_status_t status =
      parse_edit(manifest, from, to, manifest == v3, &bundle);
  if (bundle) {
    ++failed;
    fprintf(stderr, "%s:%d: a rejected bundle was returned\n", __FILE__, line);
    if (bundle != (fusecc_bundle_t)1)
      fusecc_bundle_release(bundle);
  }
  check_status(status, FUSECC_STATUS_PARSE_ERROR, expected, __FILE__,
               "check_reject", line);
}

/// Checks that the edited manifest parses.
static void check_accept(const char *manifest, const char *from, const char *to,
                         int line) {
  fusecc_bundle_t bundle = NULL;
  fusecc_status_t status =
      parse_edit(manifest, from, to, manifest == v3, &bundle);
  check_status(status, FUSECC_STATUS_OK, "OK", __FILE__, "check_accept", line);
  fusecc_bundle_release(bundle);
}

/// Checks raw bytes against a PARSE_ERROR containing `expected`.
static void check_reject_bytes(const void *bytes, size_t size,
                               const char *expected, int line) {
  fusecc_bundle_t bundle = NULL;
  check_status(parse_exact(bytes, size, &bundle), FUSECC_STATUS_PARSE_ERROR,
               expected, __FILE__, "check_reject_bytes", line);
  CHECK(bundle == NULL);
}

#define REJECT(manifest, from, to, expected)                                   \
  check_reject((manifest), (from), (to), (expected), __LINE__)
#define ACCEPT(manifest, from, to)                                             \
  check_accept((manifest), (from), (to), __LINE__)

#define RULE(name) static void rule_##name(void)

/*===----------------------------------------------------------------------===*
 * Lexical rules and the header
 *===----------------------------------------------------------------------===*/

RULE(lex_printable_ascii) {
  REJECT(v3, "chip sm_90a", "chip\tsm_90a",
         "line 2: invalid byte 0x09 at column 5 (expected printable ASCII)");
  REJECT(v3, "arg 0 in x", "arg 0 in \x80x", "line 7: invalid byte 0x80");
  REJECT(v3, "end\n", "end\r\n", "line 16: invalid byte 0x0d");
  REJECT(v3, "const 0 w", "const 0 \x7fw", "line 4: invalid byte 0x7f");
}

RULE(lex_single_spaces) {
  REJECT(v3, "zero w1", "zero  w1",
         "line 11: stray space at column 5 (tokens are separated by single "
         "spaces)");
  REJECT(v3, "zero w1", " zero w1", "line 11: stray space at column 1");
  REJECT(v3, "zero w1", "zero w1 ", "line 11: stray space at column 8");
}

RULE(lex_terminated_lines) {
  REJECT(v3, "end\n", "end\n\n", "line 17: empty line");
  static const char unterminated[] = "fusecc-bundle 3\nchip sm_90";
  check_reject_bytes(unterminated, sizeof(unterminated) - 1,
                     "line 2: unexpected end of data: line is not terminated "
                     "by '\\n'",
                     __LINE__);
  check_reject_bytes("", 0, "line 1: empty input", __LINE__);
}

RULE(version_supported) {
  ACCEPT(v1, "", "");
  ACCEPT(v2, "", "");
  ACCEPT(v3, "", "");
  REJECT(v3, "fusecc-bundle 3", "fusecc-bundle 4",
         "line 1: unsupported bundle format version 4 (this runtime reads "
         "versions 1, 2 and 3)");
  REJECT(v3, "fusecc-bundle 3", "fusecc-bundle 0",
         "unsupported bundle format version 0 (this runtime reads versions "
         "1, 2 and 3)");
  REJECT(v3, "fusecc-bundle 3", "fusecc-bundle 18446744073709551615",
         "unsupported bundle format version 18446744073709551615");
  REJECT(v3, "fusecc-bundle 3", "fusecc-bundle 03",
         "line 1: expected format version (a non-negative decimal integer), "
         "got '03'");
  REJECT(v3, "fusecc-bundle 3", "fusecc-bundel 3",
         "line 1: not a fusecc bundle");
}

RULE(header_chip_precision) {
  REJECT(v3, "chip sm_90a\n", "",
         "line 3: missing 'chip' record before the "
         "first const");
  REJECT(v3, "precision tf32\n", "",
         "line 3: missing 'precision' record before the first const");
  REJECT(v3, "precision tf32\n", "precision tf32\nprecision ieee\n",
         "line 4: duplicate 'precision' record (first on line 3)");
  REJECT(v3, "chip sm_90a", "chip 90a", "line 2: expected a chip like");
  REJECT(v3, "precision tf32", "precision bf16",
         "line 3: expected precision 'ieee' or 'tf32', got 'bf16'");
  REJECT(v3, "end\n", "end\nchip sm_80\n",
         "line 17: 'chip' must come before the first entry");
}

RULE(integer_syntax) {
  REJECT(v3, "grid 2 1 1", "grid +2 1 1",
         "line 13: expected grid size (a non-negative decimal integer), got "
         "'+2'");
  REJECT(v3, "grid 2 1 1", "grid 02 1 1",
         "line 13: expected grid size (a non-negative decimal integer), got "
         "'02'");
  REJECT(v3, "offset 64", "offset 184467440737095516160",
         "line 5: expected const offset (a non-negative decimal integer), got "
         "'184467440737095516160'");
  REJECT(v3, "offset 64", "offset 99999999999999999999",
         "line 5: const offset '99999999999999999999' overflows");
}

/*===----------------------------------------------------------------------===*
 * Entries and their records
 *===----------------------------------------------------------------------===*/

RULE(entry_count_limits) {
  REJECT(v3, "args 2 workspaces", "args 4097 workspaces",
         "line 6: arg count 4097 is out of range (expected 0 to 4096)");
  REJECT(v3, "workspaces 2 steps", "workspaces 4097 steps",
         "line 6: workspace count 4097 is out of range (expected 0 to 4096)");
  REJECT(v3, "steps 3", "steps 4097",
         "line 6: step count 4097 is out of range (expected 0 to 4096)");
  REJECT(v2, "launches 1", "launches 4097",
         "line 4: launch count 4097 is out of range (expected 0 to 4096)");
}

RULE(entry_header_spelling) {
  REJECT(v3, "steps 3", "launches 3",
         "line 6: expected 'steps' after the workspace count, got 'launches' "
         "(the version 1 and 2 spelling)");
  REJECT(v2, "launches 1", "steps 1",
         "line 4: 'steps' in an entry header needs bundle format version 3");
  REJECT(v1, "args 1 launches", "args 1 workspaces 0 launches",
         "line 4: 'workspaces' in an entry header needs bundle format version "
         "2");
  REJECT(v3, "entry e args", "entry e argz",
         "line 6: expected 'args' after the entry name, got 'argz'");
}

RULE(entry_names_unique) {
  REJECT(v3, "end\n", "end\nentry e args 0 workspaces 0 steps 0\nend\n",
         "line 17: duplicate entry name 'e'");
  ACCEPT(v3, "end\n", "end\nentry f args 0 workspaces 0 steps 0\nend\n");
  // Many entries: names are checked with a hash set, in linear time; a
  // duplicate of one far back is still found.
  enum { kEntries = 50000 };
  size_t capacity = (size_t)kEntries * 48 + 256;
  char *manifest = malloc(capacity);
  size_t length = (size_t)snprintf(manifest, capacity,
                                   "fusecc-bundle 3\nchip sm_90\nprecision "
                                   "ieee\n");
  for (int i = 0; i < kEntries; ++i)
    length +=
        (size_t)snprintf(manifest + length, capacity - length,
                         "entry e%d args 0 workspaces 0 steps 0\nend\n", i);
  size_t head = length;
  size_t size;
  char *bytes = build_bundle(manifest, test_ptx, NULL, 0, &size);
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(parse_exact(bytes, size, &bundle));
  CHECK(fusecc_bundle_entry_count(bundle) == kEntries);
  fusecc_bundle_release(bundle);
  free(bytes);
  snprintf(manifest + head, capacity - head,
           "entry e17 args 0 workspaces 0 steps 0\nend\n");
  bytes = build_bundle(manifest, test_ptx, NULL, 0, &size);
  check_reject_bytes(bytes, size, "line 100004: duplicate entry name 'e17'",
                     __LINE__);
  free(bytes);
  free(manifest);
}

RULE(entry_record_order) {
  REJECT(v3, "arg 1 out y f16 1 32\nworkspace 0 f32 16 intermediate\n",
         "workspace 0 f32 16 intermediate\narg 1 out y f16 1 32\n",
         "line 8: entry 'e' declares 2 args but only 1 'arg' records precede "
         "this 'workspace'");
  REJECT(v3, "workspace 1 u8 8 partials\nzero w1\n",
         "zero w1\nworkspace 1 u8 8 partials\n",
         "line 10: entry 'e' declares 2 workspaces but only 1 'workspace' "
         "records precede this 'zero'");
  REJECT(v3,
         "launch k1 grid 2 1 1 block 64 1 1 smem 1024 params 3 w0 c1 1\n"
         "graph %1 = const_tensor c0\n",
         "graph %1 = const_tensor c0\n"
         "launch k1 grid 2 1 1 block 64 1 1 smem 1024 params 3 w0 c1 1\n",
         "line 13: 'graph' line in entry 'e' before its 2 args and 3 steps "
         "(found 2 and 2)");
  REJECT(v3, "graph return %1\nend\n", "graph return %1\n",
         "line 16: missing 'end' for entry 'e' (started on line 6) before "
         "'ptx'");
  REJECT(v3, "precision tf32\n", "precision tf32\narg 0 in x f32 0\n",
         "line 4: 'arg' record outside an entry");
}

RULE(entry_exact_counts) {
  REJECT(v3, "steps 3", "steps 2",
         "line 13: entry 'e' declares 2 steps, found another 'launch'");
  REJECT(v3, "steps 3", "steps 4",
         "line 14: 'graph' line in entry 'e' before its 2 args and 4 steps "
         "(found 2 and 3)");
  REJECT(v3, "args 2 workspaces", "args 1 workspaces",
         "line 8: entry 'e' declares 1 args, found another 'arg'");
  REJECT(v3, "workspaces 2 steps", "workspaces 1 steps",
         "line 10: entry 'e' declares 1 workspaces, found another "
         "'workspace'");
  REJECT(v3, "end\n", "end\nentry f args 1 workspaces 0 steps 0\nend\n",
         "line 18: entry 'f' declares 1 args but has 0");
  REJECT(v3, "end\n", "end\nentry f args 0 workspaces 1 steps 0\nend\n",
         "line 18: entry 'f' declares 1 workspaces but has 0");
  REJECT(v3, "end\n", "end\nentry f args 0 workspaces 0 steps 1\nend\n",
         "line 18: entry 'f' declares 1 steps but has 0");
}

RULE(arg_index_and_direction) {
  REJECT(v3, "arg 1 out", "arg 2 out", "line 8: expected arg index 1, got 2");
  REJECT(v3, "arg 0 in x f32 2 4 8\narg 1 out y",
         "arg 0 out x f32 2 4 8\narg 1 in y",
         "line 8: input arg 1 follows an output arg");
  REJECT(v3, "arg 1 out", "arg 1 inout",
         "line 8: expected 'in' or 'out', got 'inout'");
}

RULE(dtype_by_version) {
  ACCEPT(v3, "arg 1 out y f16 1 32", "arg 1 out y u8 1 64");
  ACCEPT(v3, "arg 0 in x f32 2 4 8", "arg 0 in x i32 2 4 8");
  ACCEPT(v3, "workspace 0 f32 16", "workspace 0 i64 8");
  ACCEPT(v3, "const 1 b i64 1 2 offset 64", "const 1 b bf16 1 8 offset 64");
  REJECT(v3, "arg 1 out y f16", "arg 1 out y f64",
         "line 8: expected dtype 'f32', 'f16', 'bf16', 'i32', 'i64' or 'u8', "
         "got 'f64'");
  REJECT(v2, "arg 0 in x f32", "arg 0 in x i32",
         "line 5: dtype 'i32' needs bundle format version 3");
  REJECT(v1, "arg 0 out y f32", "arg 0 out y u8",
         "line 5: dtype 'u8' needs bundle format version 3");
  REJECT(v2, "workspace 0 f32", "workspace 0 f16",
         "line 7: expected workspace dtype 'f32', got 'f16'");
}

RULE(shape_rank_limit) {
  REJECT(v3, "f32 2 4 4 offset", "f32 9 1 1 1 1 1 1 1 1 1 offset",
         "line 4: rank 9 is out of range (expected 0 to 8)");
  ACCEPT(v3, "f32 2 4 4 offset", "f32 8 1 1 4 1 1 4 1 1 offset");
  ACCEPT(v3, "const 1 b i64 1 2 offset 64", "const 1 b i64 0 offset 64");
}

RULE(shape_dims_positive) {
  REJECT(v3, "arg 0 in x f32 2 4 8", "arg 0 in x f32 2 4 -8",
         "line 7: expected dimension (a non-negative decimal integer), got "
         "'-8'");
  REJECT(v3, "f32 2 4 4 offset", "f32 2 4 0 offset",
         "line 4: dimension 0 is out of range (expected 1 to "
         "9223372036854775807)");
  REJECT(v3, "f32 2 4 4 offset", "f32 2 4 9223372036854775808 offset",
         "line 4: dimension 9223372036854775808 is out of range");
  REJECT(v3, "f32 2 4 4 offset", "f32 2 4 offset",
         "line 4: expected dimension (a non-negative decimal integer), got "
         "'offset'");
}

RULE(shape_element_count_overflow) {
  REJECT(v3, "f32 2 4 4 offset", "f32 3 4294967296 4294967296 2 offset",
         "line 4: element count of const 'w' overflows");
  REJECT(v3, "arg 0 in x f32 2 4 8", "arg 0 in x f32 2 9223372036854775807 3",
         "line 7: element count of arg 'x' overflows");
}

RULE(byte_size_overflow) {
  REJECT(v3, "f32 2 4 4 offset", "f32 1 4611686018427387904 offset",
         "line 4: byte size of const 'w' overflows");
  REJECT(v3, "const 1 b i64 1 2", "const 1 b i64 1 2305843009213693952",
         "line 5: byte size of const 'b' overflows");
  REJECT(v3, "arg 1 out y f16 1 32", "arg 1 out y f16 2 4611686018427387904 2",
         "line 8: byte size of arg 'y' overflows");
  REJECT(v3, "workspace 0 f32 16", "workspace 0 f32 4611686018427387904",
         "line 9: byte size of workspace 0 overflows");
  REJECT(v3, "workspace 1 u8 8", "workspace 1 i64 2305843009213693952",
         "line 10: byte size of workspace 1 overflows");
  // The largest u8 workspace has no overflow to detect.
  ACCEPT(v3, "workspace 1 u8 8", "workspace 1 u8 18446744073709551615");
}

RULE(workspace_record) {
  REJECT(v3, "workspace 0 f32 16", "workspace 0 f32 0",
         "line 9: workspace element count 0 is out of range (expected 1 to");
  REJECT(v3, "workspace 0 f32 16 intermediate", "workspace 0 f32 16",
         "line 9: expected workspace role 'scratch', 'intermediate' or "
         "'partials', got end of line");
  REJECT(v3, "16 intermediate", "16 temp",
         "line 9: expected workspace role 'scratch', 'intermediate' or "
         "'partials', got 'temp'");
  REJECT(v3, "16 intermediate", "16 intermediate x",
         "line 9: unexpected 'x' after the workspace role");
  REJECT(v2, "workspace 0 f32 8", "workspace 0 f32 8 scratch",
         "line 7: workspace role 'scratch' needs bundle format version 3");
  REJECT(v3, "workspace 1 u8", "workspace 2 u8",
         "line 10: expected workspace index 1, got 2");
  ACCEPT(v3, "16 intermediate", "16 scratch");
}

RULE(launch_grid_block) {
  REJECT(v3, "grid 2 1 1", "grid 2 0 1",
         "line 13: grid size 0 is out of range (expected 1 to 4294967295)");
  REJECT(v3, "grid 2 1 1", "grid 4294967296 1 1",
         "line 13: grid size 4294967296 is out of range");
  REJECT(v3, "block 64 1 1", "block 64 32 1",
         "line 13: block of 2048 threads exceeds 1024");
  REJECT(v3, "block 64 1 1", "block 1025 1 1",
         "line 13: block size 1025 is out of range (expected 1 to 1024)");
}

RULE(launch_smem_limit) {
  REJECT(v3, "smem 1024", "smem 2147483648",
         "line 13: smem bytes 2147483648 is out of range (expected 0 to "
         "2147483647)");
  ACCEPT(v3, "smem 1024", "smem 2147483647");
}

RULE(launch_param_count) {
  REJECT(v3, "params 3 w0 c1 1", "params 513 w0 c1 1",
         "line 13: param count 513 is out of range (expected 0 to 512)");
  REJECT(v3, "params 3 w0 c1 1", "params 4 w0 c1 1",
         "line 13: expected param arg index (a non-negative decimal integer), "
         "got end of line");
  REJECT(v3, "params 3 w0 c1 1", "params 2 w0 c1 1",
         "line 13: unexpected '1' after the params");
}

RULE(param_arg_index) {
  REJECT(v3, "params 3 w0 c1 1", "params 3 w0 c1 2",
         "line 13: param 2 names arg 2 but entry 'e' has 2 args");
  REJECT(v3, "params 3 w0 c1 1", "params 3 w0 c1 x",
         "line 13: expected param arg index (a non-negative decimal integer), "
         "got 'x'");
}

RULE(param_workspace_index) {
  REJECT(v3, "params 3 w0 c1 1", "params 3 w2 c1 1",
         "line 13: param 0 names workspace 2 but entry 'e' has 2 workspaces");
  REJECT(v3, "params 3 w0 c1 1", "params 3 w00 c1 1",
         "line 13: expected workspace param index (a non-negative decimal "
         "integer), got 'w00'");
  REJECT(v3, "params 3 w0 c1 1", "params 3 w18446744073709551616 c1 1",
         "line 13: workspace param index 'w18446744073709551616' overflows");
  REJECT(v1, "params 1 0", "params 1 w0",
         "line 6: workspace param 'w0' is not supported by bundle format "
         "version 1");
}

RULE(param_const_index) {
  REJECT(v3, "params 3 w0 c1 1", "params 3 w0 c2 1",
         "line 13: param 1 names constant 2 but the bundle has 2 constants");
  REJECT(v3, "params 3 w0 c1 1", "params 3 w0 c 1",
         "line 13: expected constant param index (a non-negative decimal "
         "integer), got 'c'");
  REJECT(v3, "params 3 w0 c1 1", "params 3 w0 c01 1",
         "line 13: expected constant param index (a non-negative decimal "
         "integer), got 'c01'");
  REJECT(v3, "params 3 w0 c1 1", "params 3 w0 c-1 1", "got 'c-1'");
  REJECT(v2, "params 3 0 w0 1", "params 3 0 c0 1",
         "line 8: constant param 'c0' is not supported by bundle format "
         "version 2");
}

RULE(zero_step) {
  REJECT(v3, "zero w1", "zero w2",
         "line 11: 'zero' names workspace 2 but entry 'e' has 2 workspaces");
  REJECT(v3, "zero w1", "zero 1",
         "line 11: expected a workspace 'w<k>' after 'zero', got '1'");
  REJECT(v3, "zero w1", "zero",
         "line 11: expected a workspace 'w<k>' after 'zero', got end of line");
  REJECT(v3, "zero w1", "zero w1 w0",
         "line 11: unexpected 'w0' after the zeroed workspace");
  REJECT(v3, "zero w1", "zero wx",
         "line 11: expected zero workspace index (a non-negative decimal "
         "integer), got 'wx'");
  REJECT(v2, "launch k", "zero w0\nlaunch k",
         "line 8: 'zero' step needs bundle format version 3");
  REJECT(v3, "precision tf32\n", "precision tf32\nzero w0\n",
         "line 4: 'zero' record outside an entry");
}

RULE(const_position) {
  REJECT(v2, "precision ieee\n", "precision ieee\nconst 0 w f32 1 4 offset 0\n",
         "line 4: 'const' record needs bundle format version 3");
  REJECT(v3, "end\n", "end\nconst 2 z u8 1 1 offset 0\n",
         "line 17: 'const' must come before the first entry");
  REJECT(v3, "graph return %1\n",
         "graph return %1\nconst 2 z u8 1 1 offset 0\n",
         "line 16: missing 'end' for entry 'e' (started on line 6) before "
         "'const'");
}

RULE(const_index_order) {
  REJECT(v3, "const 1 b", "const 2 b", "line 5: expected const index 1, got 2");
  REJECT(v3, "const 0 w", "const 1 w", "line 4: expected const index 0, got 1");
  REJECT(v3, "const 1 b i64 1 2 offset 64", "const 1",
         "line 5: expected a const name, got end of line");
  REJECT(v3, "offset 64", "ofset 64",
         "line 5: expected 'offset' after the const dimensions, got 'ofset'");
  REJECT(v3, "offset 64", "offset 64 1",
         "line 5: unexpected '1' after the const offset");
}

RULE(const_count_limit) {
  // 65536 one-byte constants fit; a 65537th is rejected.
  size_t capacity = 70000 * 40 + 256;
  char *manifest = malloc(capacity);
  size_t length = (size_t)snprintf(manifest, capacity,
                                   "fusecc-bundle 3\nchip sm_90\nprecision "
                                   "ieee\n");
  for (int k = 0; k < 65536; ++k)
    length += (size_t)snprintf(manifest + length, capacity - length,
                               "const %d c%d u8 0 offset %d\n", k, k, k * 16);
  size_t head = length;
  strcpy(manifest + length, "entry e args 0 workspaces 0 steps 0\nend\n");
  unsigned char *data = calloc(65536, 16);
  size_t size;
  char *bytes = build_bundle(manifest, test_ptx, data, 65536 * 16, &size);
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(parse_exact(bytes, size, &bundle));
  size_t count = 0;
  if (bundle)
    CHECK_OK(fusecc_bundle_const_count(bundle, &count));
  CHECK(count == 65536);
  fusecc_bundle_release(bundle);
  free(bytes);
  snprintf(manifest + head, capacity - head,
           "const 65536 extra u8 0 offset 0\nentry e args 0 workspaces 0 "
           "steps 0\nend\n");
  bytes = build_bundle(manifest, test_ptx, data, 65536 * 16, &size);
  check_reject_bytes(bytes, size,
                     "line 65540: too many 'const' records (a bundle has at "
                     "most 65536 constants)",
                     __LINE__);
  free(bytes);
  free(data);
  free(manifest);
}

RULE(const_offset_alignment) {
  REJECT(v3, "offset 64", "offset 72",
         "line 5: const 1 'b': offset 72 is not a multiple of 16");
  REJECT(v3, "offset 64", "offset 1",
         "line 5: const 1 'b': offset 1 is not a multiple of 16");
  ACCEPT(v3, "const 1 b i64 1 2 offset 64", "const 1 b i64 1 1 offset 48");
}

RULE(const_range_in_data) {
  REJECT(v3, "offset 64", "offset 80",
         "line 19: const 1 'b' (16 bytes at offset 80) lies outside the "
         "80-byte data section");
  REJECT(v3, "const 1 b i64 1 2", "const 1 b i64 1 3",
         "line 19: const 1 'b' (24 bytes at offset 64) lies outside the "
         "80-byte data section");
  // offset + size wraps to 0 in 64 bits: still outside.
  REJECT(v3, "offset 64", "offset 18446744073709551600",
         "line 19: const 1 'b' (16 bytes at offset 18446744073709551600) lies "
         "outside the 80-byte data section");
  // Constants may share bytes; a constant may end exactly at the end.
  ACCEPT(v3, "offset 64", "offset 48");
}

RULE(data_section) {
  size_t size;
  // Constants need a data section.
  char *bytes = build_bundle(v3, test_ptx, NULL, 0, &size);
  check_reject_bytes(bytes, size,
                     "line 18: the bundle declares 2 constants but has no "
                     "'data' section after the PTX",
                     __LINE__);
  free(bytes);
  // A data section needs constants.
  char *text = edit_text(v3,
                         "const 0 w f32 2 4 4 offset 0\nconst 1 b i64 1 2 "
                         "offset 64\n",
                         "");
  char *plain = edit_text(text, "params 4 0 c0 w0 w1", "params 3 0 w0 w1");
  char *plain2 = edit_text(plain, "params 3 w0 c1 1", "params 2 w0 1");
  bytes = build_bundle(plain2, test_ptx, v3_data, sizeof(v3_data), &size);
  check_reject_bytes(bytes, size,
                     "line 17: 'data' section in a bundle without 'const' "
                     "records",
                     __LINE__);
  free(bytes);
  bytes = build_bundle(plain2, test_ptx, NULL, 0, &size);
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(parse_exact(bytes, size, &bundle));
  fusecc_bundle_release(bundle);
  free(bytes);
  free(plain2);
  free(plain);
  free(text);
  // Exactly the declared bytes, then the end of the input.
  bytes = build_bundle(v3, test_ptx, v3_data, sizeof(v3_data), &size);
  check_reject_bytes(bytes, size - 1,
                     "line 19: 'data' declares 80 bytes but only 79 remain",
                     __LINE__);
  char *longer = malloc(size + 3);
  memcpy(longer, bytes, size);
  memcpy(longer + size, "xyz", 3);
  check_reject_bytes(longer, size + 3,
                     "line 19: 3 bytes of trailing data after the 80-byte "
                     "data section",
                     __LINE__);
  free(longer);
  free(bytes);
  // Anything but `data` after the PTX.
  bytes = build_bundle(v3, test_ptx, NULL, 0, &size);
  longer = malloc(size + 8);
  memcpy(longer, bytes, size);
  memcpy(longer + size, "dat 80\n\0", 8);
  check_reject_bytes(longer, size + 8,
                     "line 18: 8 bytes of trailing data after the 13-byte PTX "
                     "(expected 'data <bytes>' or the end of the input)",
                     __LINE__);
  memcpy(longer + size, "data 0\n", 7);
  check_reject_bytes(longer, size + 7,
                     "line 19: data byte count 0 is out of range", __LINE__);
  memcpy(longer + size, "data 1 2", 8);
  check_reject_bytes(longer, size + 8,
                     "line 19: unexpected end of data: line is not terminated",
                     __LINE__);
  free(longer);
  free(bytes);
  // Not before the PTX, and not in versions 1 and 2.
  REJECT(v3, "end\n", "end\ndata 80\n",
         "line 17: 'data' section before the 'ptx' section (it follows the "
         "PTX)");
  bytes = build_bundle(v2, test_ptx, v3_data, sizeof(v3_data), &size);
  check_reject_bytes(bytes, size,
                     "line 10: 88 bytes of trailing data after the 13-byte PTX",
                     __LINE__);
  free(bytes);
}

RULE(ptx_section) {
  static const char with_nul[] = "fusecc-bundle 1\nchip sm_90\nprecision "
                                 "ieee\nentry e args 0 launches 0\nend\nptx "
                                 "3\na\0c";
  check_reject_bytes(with_nul, sizeof(with_nul) - 1,
                     "line 6: PTX contains a NUL byte at offset 1", __LINE__);
  static const char empty_ptx[] = "fusecc-bundle 3\nchip sm_90\nprecision "
                                  "ieee\nentry e args 0 workspaces 0 steps "
                                  "0\nend\nptx 0\n";
  check_reject_bytes(empty_ptx, sizeof(empty_ptx) - 1,
                     "line 6: PTX byte count 0 is out of range", __LINE__);
  static const char short_ptx[] = "fusecc-bundle 3\nchip sm_90\nprecision "
                                  "ieee\nentry e args 0 workspaces 0 steps "
                                  "0\nend\nptx 18446744073709551615\nabc";
  check_reject_bytes(short_ptx, sizeof(short_ptx) - 1,
                     "line 6: 'ptx' declares 18446744073709551615 bytes but "
                     "only 3 remain",
                     __LINE__);
}

/*===----------------------------------------------------------------------===*
 * Launch arguments (fusecc_bundle_validate_args, run by every launch)
 *===----------------------------------------------------------------------===*/

/// Parses `v2` (args: x f32[4] = 16 bytes in, y f32[128] = 0x200 bytes out).
static fusecc_bundle_t parse_v2(void) {
  size_t size;
  char *bytes = build_bundle(v2, test_ptx, NULL, 0, &size);
  fusecc_bundle_t bundle = NULL;
  CHECK_OK(parse_exact(bytes, size, &bundle));
  free(bytes);
  return bundle;
}

RULE(args_count_size_alignment) {
  fusecc_bundle_t bundle = parse_v2();
  if (!bundle)
    return;
  fusecc_buffer_t args[2] = {{0x1000, 16}, {0x2000, 0x200}};
  CHECK_OK(fusecc_bundle_validate_args(bundle, 0, args, 2));
  CHECK_STATUS(fusecc_bundle_validate_args(bundle, 0, args, 1),
               FUSECC_STATUS_INVALID_ARGUMENT, "entry 'e' takes 2 args, got 1");
  args[0].size_bytes = 17;
  CHECK_STATUS(fusecc_bundle_validate_args(bundle, 0, args, 2),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'e' arg 0 'x': expected a buffer of 16 bytes (4 x f32), "
               "got 17 bytes");
  args[0].size_bytes = 16;
  args[1].ptr = 0;
  CHECK_STATUS(fusecc_bundle_validate_args(bundle, 0, args, 2),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'e' arg 1 'y': null device pointer");
  args[1].ptr = 0x2008;
  CHECK_STATUS(fusecc_bundle_validate_args(bundle, 0, args, 2),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "device pointer 0x2008 is not 16-byte aligned");
  fusecc_bundle_release(bundle);
}

RULE(args_address_wrap) {
  fusecc_bundle_t bundle = parse_v2();
  if (!bundle)
    return;
  // The output's range [0xffffffffffffff00, +0x200) wraps past 2^64 onto x
  // at 0x10 (ptr + size computed in 64 bits would be 0x100).
  fusecc_buffer_t args[2] = {{0x10, 16}, {0xFFFFFFFFFFFFFF00ull, 0x200}};
  CHECK_STATUS(fusecc_bundle_validate_args(bundle, 0, args, 2),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'e' arg 1 'y': buffer of 512 bytes at 0xffffffffffffff00 "
               "runs past the end of the 64-bit address space");
  // Ending exactly at 2^64 is fine.
  args[1].ptr = 0xFFFFFFFFFFFFFE00ull;
  CHECK_OK(fusecc_bundle_validate_args(bundle, 0, args, 2));
  args[0].ptr = 0xFFFFFFFFFFFFFFF0ull;
  CHECK_STATUS(fusecc_bundle_validate_args(bundle, 0, args, 2),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'e' arg 1 'y' (output) overlaps arg 0 'x'");
  fusecc_bundle_release(bundle);
}

RULE(args_output_overlap) {
  fusecc_bundle_t bundle = parse_v2();
  if (!bundle)
    return;
  // The output ends exactly at 2^64 (a 64-bit end address would be 0) and
  // x lies inside it: the overlap must still be found.
  fusecc_buffer_t args[2] = {{0xFFFFFFFFFFFFFF00ull, 16},
                             {0xFFFFFFFFFFFFFE00ull, 0x200}};
  CHECK_STATUS(fusecc_bundle_validate_args(bundle, 0, args, 2),
               FUSECC_STATUS_INVALID_ARGUMENT,
               "entry 'e' arg 1 'y' (output) overlaps arg 0 'x': outputs must "
               "not share memory with other arguments");
  // Touching ranges do not overlap, in either order.
  args[0].ptr = 0xFFFFFFFFFFFFFDF0ull;
  CHECK_OK(fusecc_bundle_validate_args(bundle, 0, args, 2));
  args[0].ptr = 0x1000;
  args[1].ptr = 0x1010;
  CHECK_OK(fusecc_bundle_validate_args(bundle, 0, args, 2));
  args[1].ptr = 0x1000 - 0x200;
  CHECK_OK(fusecc_bundle_validate_args(bundle, 0, args, 2));
  args[1].ptr = 0x1000 - 0x1F0;
  CHECK_STATUS(fusecc_bundle_validate_args(bundle, 0, args, 2),
               FUSECC_STATUS_INVALID_ARGUMENT, "overlaps arg 0 'x'");
  fusecc_bundle_release(bundle);
}

/*===----------------------------------------------------------------------===*
 * Driver
 *===----------------------------------------------------------------------===*/

typedef struct rule_s {
  const char *name;
  void (*run)(void);
} rule_t;

#define RULE_ENTRY(name)                                                       \
  { #name, rule_##name }

static const rule_t rules[] = {
    RULE_ENTRY(lex_printable_ascii),
    RULE_ENTRY(lex_single_spaces),
    RULE_ENTRY(lex_terminated_lines),
    RULE_ENTRY(version_supported),
    RULE_ENTRY(header_chip_precision),
    RULE_ENTRY(integer_syntax),
    RULE_ENTRY(entry_count_limits),
    RULE_ENTRY(entry_header_spelling),
    RULE_ENTRY(entry_names_unique),
    RULE_ENTRY(entry_record_order),
    RULE_ENTRY(entry_exact_counts),
    RULE_ENTRY(arg_index_and_direction),
    RULE_ENTRY(dtype_by_version),
    RULE_ENTRY(shape_rank_limit),
    RULE_ENTRY(shape_dims_positive),
    RULE_ENTRY(shape_element_count_overflow),
    RULE_ENTRY(byte_size_overflow),
    RULE_ENTRY(workspace_record),
    RULE_ENTRY(launch_grid_block),
    RULE_ENTRY(launch_smem_limit),
    RULE_ENTRY(launch_param_count),
    RULE_ENTRY(param_arg_index),
    RULE_ENTRY(param_workspace_index),
    RULE_ENTRY(param_const_index),
    RULE_ENTRY(zero_step),
    RULE_ENTRY(const_position),
    RULE_ENTRY(const_index_order),
    RULE_ENTRY(const_count_limit),
    RULE_ENTRY(const_offset_alignment),
    RULE_ENTRY(const_range_in_data),
    RULE_ENTRY(data_section),
    RULE_ENTRY(ptx_section),
    RULE_ENTRY(args_count_size_alignment),
    RULE_ENTRY(args_address_wrap),
    RULE_ENTRY(args_output_overlap),
};

#define RULE_COUNT (sizeof(rules) / sizeof(rules[0]))

/// Fails unless `path` mentions `rule_<name>` for every rule.
static int check_doc(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    fprintf(stderr, "cannot open %s\n", path);
    return 1;
  }
  static char text[1 << 20];
  size_t size = fread(text, 1, sizeof(text) - 1, file);
  fclose(file);
  text[size] = '\0';
  for (size_t i = 0; i < RULE_COUNT; ++i) {
    char needle[96];
    snprintf(needle, sizeof(needle), "rule_%s", rules[i].name);
    CHECK(strstr(text, needle) != NULL);
    if (!strstr(text, needle))
      fprintf(stderr, "%s does not name the test %s\n", path, needle);
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}

int main(int argc, char **argv) {
  for (size_t i = 0; i < sizeof(v3_data); ++i)
    v3_data[i] = (unsigned char)(i * 7 + 1);
  if (argc == 3 && strcmp(argv[1], "--check-doc") == 0)
    return check_doc(argv[2]);
  if (argc > 2) {
    fprintf(stderr, "usage: %s [rule | --check-doc path]\n", argv[0]);
    return 2;
  }
  int ran = 0;
  for (size_t i = 0; i < RULE_COUNT; ++i) {
    if (argc == 2 && strcmp(argv[1], rules[i].name) != 0)
      continue;
    int before = failed;
    rules[i].run();
    ++ran;
    if (failed != before)
      fprintf(stderr, "rule %s: %d checks failed\n", rules[i].name,
              failed - before);
  }
  if (!ran) {
    fprintf(stderr, "no rule named '%s'\n", argc == 2 ? argv[1] : "");
    return 2;
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
