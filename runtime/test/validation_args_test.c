/*===- validation_args_test.c - Launch argument rules -------------*- C -*-===//
 *
 * One test per validation rule of docs/bundle.md on the arguments of a
 * launch, checked by fusecc_bundle_validate_args (run by every launch):
 * count, size, alignment, address wrap-around and output overlap.
 *
 * Usage: fusecc_validation_args_test [rule-name | --check-doc path]
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

static const rule_t rules[] = {
    RULE_ENTRY(args_count_size_alignment),
    RULE_ENTRY(args_address_wrap),
    RULE_ENTRY(args_output_overlap),
};

int main(int argc, char **argv) {
  return run_rules(argc, argv, rules, sizeof(rules) / sizeof(rules[0]));
}
