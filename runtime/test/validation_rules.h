/*===- validation_rules.h - Shared parts of the rule tests --------*- C -*-===//
 *
 * The validation rules of docs/bundle.md ("Validation rules") are tested by
 * four programs, one per group of rules: validation_manifest_test.c (the
 * lexical rules, the header, entries), validation_records_test.c (the
 * records of an entry), validation_data_test.c (constants, the data and
 * PTX sections) and validation_args_test.c (launch arguments). Each
 * RULE(name) checks one rule, which the document names `rule_<name>`: the
 * bundles it builds break exactly that rule and must be rejected with a
 * message naming what was expected; the nearest valid bundles must be
 * accepted. CMake registers each rule as its own ctest (fusecc_rule_<name>)
 * by reading the RULE lines of the programs; `--check-doc docs/bundle.md`
 * fails if one of a program's rules is missing from the document.
 *
 * This header holds the valid bundles the rules edit (defined in
 * validation_rules.c), the REJECT / ACCEPT checks and the programs' shared
 * main (run_rules). It includes check.h, so each program's checks count in
 * its own counters.
 *
 *===----------------------------------------------------------------------===*/

#ifndef FUSECC_RUNTIME_TEST_VALIDATION_RULES_H
#define FUSECC_RUNTIME_TEST_VALIDATION_RULES_H

#include <fusecc/runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bundle_text.h"
#include "check.h"

/// The valid version-3 bundle the cases edit (line numbers on the right of
/// its definition; the PTX is line 18, `data 80` line 19).
extern const char v3[];

/// The data section of `v3`: 64 bytes of c0, 16 of c1 (filled by
/// init_v3_data).
extern unsigned char v3_data[80];

/// A valid version-2 bundle: entry e, args x f32[4] in and y f32[128] out,
/// one f32 workspace and one launch.
extern const char v2[];

/// A valid version-1 bundle: entry e, one output arg and one launch.
extern const char v1[];

/// Fills `v3_data`; run_rules calls it before any rule.
void init_v3_data(void);

/// Parses `manifest` with `from` replaced by `to` (the data section of `v3`
/// appended when `with_data`); returns the status, *out_bundle the bundle.
fusecc_status_t parse_edit(const char *manifest, const char *from,
                           const char *to, int with_data,
                           fusecc_bundle_t *out_bundle);

/// Checks that the edited manifest is a PARSE_ERROR containing `expected`
/// and yields no bundle.
static inline void check_reject(const char *manifest, const char *from,
                                const char *to, const char *expected,
                                int line) {
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
static inline void check_accept(const char *manifest, const char *from,
                                const char *to, int line) {
  fusecc_bundle_t bundle = NULL;
  fusecc_status_t status =
      parse_edit(manifest, from, to, manifest == v3, &bundle);
  check_status(status, FUSECC_STATUS_OK, "OK", __FILE__, "check_accept", line);
  fusecc_bundle_release(bundle);
}

/// Checks raw bytes against a PARSE_ERROR containing `expected`.
static inline void check_reject_bytes(const void *bytes, size_t size,
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

/// One rule test: the name after `rule_` and the function RULE defined.
typedef struct rule_s {
  const char *name;
  void (*run)(void);
} rule_t;

/// A rule_t of RULE(name), for a program's table of its rules.
#define RULE_ENTRY(name)                                                       \
  { #name, rule_##name }

/// Fails unless `path` mentions `rule_<name>` for each of the `count`
/// rules of `rules`.
static inline int check_doc(const char *path, const rule_t *rules,
                            size_t count) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    fprintf(stderr, "cannot open %s\n", path);
    return 1;
  }
  static char text[1 << 20];
  size_t size = fread(text, 1, sizeof(text) - 1, file);
  fclose(file);
  text[size] = '\0';
  for (size_t i = 0; i < count; ++i) {
    char needle[96];
    snprintf(needle, sizeof(needle), "rule_%s", rules[i].name);
    CHECK(strstr(text, needle) != NULL);
    if (!strstr(text, needle))
      fprintf(stderr, "%s does not name the test %s\n", path, needle);
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}

/// The main of a rule program: `[rule-name | --check-doc path]`; with no
/// argument every rule of `rules` runs. Prints "N passed, M failed" last and
/// returns non-zero on any failure (2 for a bad command line).
static inline int run_rules(int argc, char **argv, const rule_t *rules,
                            size_t count) {
  init_v3_data();
  if (argc == 3 && strcmp(argv[1], "--check-doc") == 0)
    return check_doc(argv[2], rules, count);
  if (argc > 2) {
    fprintf(stderr, "usage: %s [rule | --check-doc path]\n", argv[0]);
    return 2;
  }
  int ran = 0;
  for (size_t i = 0; i < count; ++i) {
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

#endif // FUSECC_RUNTIME_TEST_VALIDATION_RULES_H
