/*===- parse_corruption_test.c - Truncated and corrupted bundles --*- C -*-===//
 *
 * Every prefix and many randomly corrupted copies of the valid version-1
 * and version-2 bundles of parse_fixtures.h: each must parse or be a
 * PARSE_ERROR, never crash or read past the end (run it under the
 * sanitizers), and whatever parses must be self-consistent. Needs no GPU.
 * Prints "N passed, M failed" last and exits non-zero on any failure.
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
  test_truncation_and_corruption();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
