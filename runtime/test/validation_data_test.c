/*===- validation_data_test.c - Constant and section rules --------*- C -*-===//
 *
 * One test per validation rule of docs/bundle.md on the constants of a
 * version-3 bundle (position, index order, count limit, offset alignment,
 * range in the data section) and on the PTX and data sections.
 *
 * Usage: fusecc_validation_data_test [rule-name | --check-doc path]
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
 * Constants, the data section and the PTX section
 *===----------------------------------------------------------------------===*/

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
 * Driver
 *===----------------------------------------------------------------------===*/

static const rule_t rules[] = {
    RULE_ENTRY(const_position),      RULE_ENTRY(const_index_order),
    RULE_ENTRY(const_count_limit),   RULE_ENTRY(const_offset_alignment),
    RULE_ENTRY(const_range_in_data), RULE_ENTRY(data_section),
    RULE_ENTRY(ptx_section),
};

int main(int argc, char **argv) {
  return run_rules(argc, argv, rules, sizeof(rules) / sizeof(rules[0]));
}
