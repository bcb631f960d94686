/*===- bundle_text.h - Building bundle bytes in the runtime's tests -*- C
 *-*-===//
 *
 * Helpers shared by the version-3 and validation tests: assemble a bundle
 * from a manifest, a PTX text and an optional data section, edit manifests,
 * and parse from an exact-size heap copy so that sanitizers catch any read
 * past the end.
 *
 *===----------------------------------------------------------------------===*/

#ifndef FUSECC_RUNTIME_TEST_BUNDLE_TEXT_H
#define FUSECC_RUNTIME_TEST_BUNDLE_TEXT_H

#include <fusecc/runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The PTX text the test bundles carry (one line).
static const char test_ptx[] = ".version 8.0\n";

/// Returns malloc'd `manifest` + "ptx <n>\n" + `ptx`, then, when `data` is
/// non-NULL, "data <data_size>\n" + the data bytes; its size goes to
/// *out_size.
static inline char *build_bundle(const char *manifest, const char *ptx,
                                 const void *data, size_t data_size,
                                 size_t *out_size) {
  size_t ptx_size = strlen(ptx);
  size_t capacity = strlen(manifest) + ptx_size + data_size + 64;
  char *bytes = malloc(capacity);
  if (!bytes) {
    fprintf(stderr, "test: out of memory\n");
    exit(2);
  }
  int head = snprintf(bytes, capacity, "%sptx %zu\n", manifest, ptx_size);
  size_t size = (size_t)head;
  memcpy(bytes + size, ptx, ptx_size);
  size += ptx_size;
  if (data) {
    size += (size_t)snprintf(bytes + size, capacity - size, "data %zu\n",
                             data_size);
    memcpy(bytes + size, data, data_size);
    size += data_size;
  }
  *out_size = size;
  return bytes;
}

/// Parses exactly `size` bytes from a fresh heap copy.
static inline fusecc_status_t parse_exact(const void *data, size_t size,
                                          fusecc_bundle_t *out_bundle) {
  char *copy = malloc(size ? size : 1);
  if (size)
    memcpy(copy, data, size);
  fusecc_status_t status = fusecc_bundle_parse(copy, size, out_bundle);
  free(copy);
  return status;
}

/// Returns malloc'd `text` with the first occurrence of `from` replaced by
/// `to`; exits if `from` is missing (a broken test).
static inline char *edit_text(const char *text, const char *from,
                              const char *to) {
  const char *at = strstr(text, from);
  if (!at) {
    fprintf(stderr, "test bug: '%s' not in the manifest\n", from);
    exit(2);
  }
  size_t head = (size_t)(at - text);
  size_t size = strlen(text) - strlen(from) + strlen(to) + 1;
  char *result = malloc(size);
  memcpy(result, text, head);
  strcpy(result + head, to);
  strcat(result, at + strlen(from));
  return result;
}

#endif // FUSECC_RUNTIME_TEST_BUNDLE_TEXT_H
