/*===- validation_manifest_test.c - Manifest and entry rules ------*- C -*-===//
 *
 * One test per validation rule of docs/bundle.md on the manifest as a
 * whole: its lexical rules, the format version, the header records,
 * integer syntax, and the entries (their limits, header spelling, unique
 * names, record order and exact counts).
 *
 * Usage: fusecc_validation_manifest_test [rule-name | --check-doc path]
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

#include "bundle_text.h"
#include "validation_rules.h"

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
  REJECT(v3, "fusecc-bundle 3", "fusecc-bundle 5",
         "line 1: unsupported bundle format version 5 (this runtime reads "
         "versions 1, 2, 3 and 4)");
  REJECT(v3, "fusecc-bundle 3", "fusecc-bundle 0",
         "unsupported bundle format version 0 (this runtime reads versions "
         "1, 2, 3 and 4)");
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
  REJECT(v3, "precision tf32", "precision f16",
         "line 3: expected precision 'ieee', 'tf32', 'bf16' or 'fp16', got "
         "'f16'");
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

/*===----------------------------------------------------------------------===*
 * Driver
 *===----------------------------------------------------------------------===*/

static const rule_t rules[] = {
    RULE_ENTRY(lex_printable_ascii),   RULE_ENTRY(lex_single_spaces),
    RULE_ENTRY(lex_terminated_lines),  RULE_ENTRY(version_supported),
    RULE_ENTRY(header_chip_precision), RULE_ENTRY(integer_syntax),
    RULE_ENTRY(entry_count_limits),    RULE_ENTRY(entry_header_spelling),
    RULE_ENTRY(entry_names_unique),    RULE_ENTRY(entry_record_order),
    RULE_ENTRY(entry_exact_counts),
};

int main(int argc, char **argv) {
  return run_rules(argc, argv, rules, sizeof(rules) / sizeof(rules[0]));
}
