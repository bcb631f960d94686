/*===- parse_fixtures.c - Valid bundles the parse tests edit ------*- C -*-===//
 *
 * The definitions of parse_fixtures.h.
 *
 *===----------------------------------------------------------------------===*/

#include "parse_fixtures.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// A small valid bundle; errors are made by editing copies of it.
const char valid_manifest[] =
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
const char valid_ptx[] = ".version 8.0\n.target sm_90a\n";

/// A small valid version-2 bundle with workspaces.
const char valid_manifest_v2[] =
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
char *make_bundle(const char *manifest, const char *ptx, size_t *out_size) {
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
fusecc_status_t parse_copy(const char *data, size_t size,
                           fusecc_bundle_t *out_bundle) {
  char *copy = malloc(size ? size : 1);
  memcpy(copy, data, size);
  fusecc_status_t status = fusecc_bundle_parse(copy, size, out_bundle);
  free(copy);
  return status;
}

/// Replaces the first occurrence of `from` in `text` by `to` (malloc'd).
char *replace(const char *text, const char *from, const char *to) {
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
