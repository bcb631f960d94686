/*===- validation_rules.c - Valid bundles the rule tests edit -----*- C -*-===//
 *
 * The definitions of the bundles and parse_edit declared in
 * validation_rules.h.
 *
 *===----------------------------------------------------------------------===*/

#include "validation_rules.h"

#include "bundle_text.h"

/// The valid version-3 bundle the cases edit (line numbers on the right;
/// the PTX is line 18, `data 80` line 19).
const char v3[] =
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
unsigned char v3_data[80];

/// A valid version-2 bundle.
const char v2[] =
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
const char v1[] = "fusecc-bundle 1\n"
                  "chip sm_90\n"
                  "precision ieee\n"
                  "entry e args 1 launches 1\n"
                  "arg 0 out y f32 1 4\n"
                  "launch k grid 1 1 1 block 32 1 1 smem 0 params 1 0\n"
                  "end\n";

void init_v3_data(void) {
  for (size_t i = 0; i < sizeof(v3_data); ++i)
    v3_data[i] = (unsigned char)(i * 7 + 1);
}

/// Parses `manifest` with `from` replaced by `to` (the data section of `v3`
/// appended when `with_data`); returns the status, *out_bundle the bundle.
fusecc_status_t parse_edit(const char *manifest, const char *from,
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
