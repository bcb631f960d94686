/*===- validation_records_test.c - Rules of entry records ---------*- C -*-===//
 *
 * One test per validation rule of docs/bundle.md on the records inside an
 * entry: arg indices and directions, dtypes by version, shapes and their
 * overflows, workspace records, launch grids, blocks, shared memory and
 * params (arg, workspace and constant indices), and zero steps.
 *
 * Usage: fusecc_validation_records_test [rule-name | --check-doc path]
 * (with no argument every rule runs). Prints "N passed, M failed" last.
 * See validation_rules.h.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200112L

#include "fusecc/runtime.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation_rules.h"

/*===----------------------------------------------------------------------===*
 * The records of an entry
 *===----------------------------------------------------------------------===*/

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
         "line 9: expected workspace role 'scratch', 'intermediate', "
         "'partials' or 'prepared', got end of line");
  REJECT(v3, "16 intermediate", "16 temp",
         "line 9: expected workspace role 'scratch', 'intermediate', "
         "'partials' or 'prepared', got 'temp'");
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

RULE(prepare_steps) {
  // v3 with w1 `prepared`, written by a first launch from the input x.
  static const char *const from = "steps 3\narg 0 in x f32 2 4 8\n"
                                  "arg 1 out y f16 1 32\n"
                                  "workspace 0 f32 16 intermediate\n"
                                  "workspace 1 u8 8 partials\nzero w1\n";
  static const char *const to =
      "steps 3 prepare 1\narg 0 in x f32 2 4 8\narg 1 out y f16 1 32\n"
      "workspace 0 f32 16 intermediate\nworkspace 1 u8 8 prepared\n"
      "launch p grid 1 1 1 block 32 1 1 smem 0 params 3 0 c0 w1\n";
  ACCEPT(v3, from, to);
  REJECT(v3, "steps 3\n", "steps 3 prepare 1\n",
         "line 16: entry 'e': prepare step 0 is not a launch");
  REJECT(v3, "steps 3\n", "steps 3 prepare 4\n",
         "line 6: prepare step count 4 is out of range (expected 1 to 3)");
  REJECT(v3, "steps 3\n", "steps 3 prepare 0\n",
         "line 6: prepare step count 0 is out of range (expected 1 to 3)");
  REJECT(v2, "launches 1", "launches 1 prepare 1",
         "line 4: unexpected 'prepare' after the launch count");
  REJECT(v3, "partials\nzero w1\n",
         "prepared\nlaunch p grid 1 1 1 block 32 1 1 smem 0 params 1 0\n",
         "line 16: entry 'e': 'prepared' workspace 1 is no parameter of a "
         "prepare step");
  REJECT(v3, "steps 3\n", "steps 3 prepare 2\n",
         "line 16: entry 'e': prepare step 0 is not a launch");
}

/*===----------------------------------------------------------------------===*
 * Driver
 *===----------------------------------------------------------------------===*/

static const rule_t rules[] = {
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
    RULE_ENTRY(prepare_steps),
};

int main(int argc, char **argv) {
  return run_rules(argc, argv, rules, sizeof(rules) / sizeof(rules[0]));
}
