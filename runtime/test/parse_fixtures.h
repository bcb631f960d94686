/*===- parse_fixtures.h - Valid bundles the parse tests edit ------*- C -*-===//
 *
 * The small valid version-1 and version-2 manifests and the PTX that the
 * parse tests (parse_valid_test.c, parse_errors_test.c,
 * parse_corruption_test.c) read back or break by editing copies, and the
 * helpers that assemble and parse their bytes. Defined in parse_fixtures.c.
 *
 *===----------------------------------------------------------------------===*/

#ifndef FUSECC_RUNTIME_TEST_PARSE_FIXTURES_H
#define FUSECC_RUNTIME_TEST_PARSE_FIXTURES_H

#include <fusecc/runtime.h>

#include <stddef.h>

/// A small valid version-1 bundle (two entries, e0 and e1; line numbers on
/// the right of its definition); errors are made by editing copies of it.
extern const char valid_manifest[];

/// A small valid version-2 bundle with workspaces (entries conv and plain).
extern const char valid_manifest_v2[];

/// The PTX section of the bundles built from the manifests above.
extern const char valid_ptx[];

/// Returns malloc'd `manifest` + "ptx <n>\n" + `ptx` with its size.
char *make_bundle(const char *manifest, const char *ptx, size_t *out_size);

/// Parses exactly `size` bytes from a fresh heap copy, so reads past the end
/// are caught by sanitizers.
fusecc_status_t parse_copy(const char *data, size_t size,
                           fusecc_bundle_t *out_bundle);

/// Replaces the first occurrence of `from` in `text` by `to` (malloc'd);
/// exits if `from` is missing (a broken test).
char *replace(const char *text, const char *from, const char *to);

#endif // FUSECC_RUNTIME_TEST_PARSE_FIXTURES_H
