/*===- check.h - Minimal check macros of the runtime's C tests ---*- C -*-===//
 *
 * Counters, CHECK (a condition) and CHECK_STATUS / CHECK_OK (a status code
 * plus a message substring; the status is freed) shared by the test
 * programs. Each program prints `passed`/`failed` and exits non-zero on a
 * failure.
 *
 *===----------------------------------------------------------------------===*/

#ifndef FUSECC_RUNTIME_TEST_CHECK_H
#define FUSECC_RUNTIME_TEST_CHECK_H

#include <fusecc/runtime.h>

#include <stdio.h>
#include <string.h>

static int passed = 0;
static int failed = 0;

/// Records one check; prints the failing expression and location.
#define CHECK(cond)                                                            \
  do {                                                                         \
    if (cond) {                                                                \
      ++passed;                                                                \
    } else {                                                                   \
      ++failed;                                                                \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

/// Checks that `status` has `code` and a message containing `needle`, then
/// frees it; `file`, `context` (the calling function) and `line` locate a
/// failure. Inline, so a program that checks no status builds without an
/// unused-function warning.
static inline void check_status(fusecc_status_t status,
                                fusecc_status_code_t code, const char *needle,
                                const char *file, const char *context,
                                int line) {
  const char *message = fusecc_status_message(status);
  if (fusecc_status_code(status) == code && strstr(message, needle)) {
    ++passed;
  } else {
    ++failed;
    fprintf(stderr,
            "%s:%d: [%s] expected %s containing \"%s\", got %s: \"%s\"\n", file,
            line, context, fusecc_status_code_name(code), needle,
            fusecc_status_code_name(fusecc_status_code(status)), message);
  }
  fusecc_status_free(status);
}

#define CHECK_STATUS(status, code, needle)                                     \
  check_status((status), (code), (needle), __FILE__, __func__, __LINE__)
#define CHECK_OK(status) CHECK_STATUS((status), FUSECC_STATUS_OK, "OK")

/// Checks that the fake driver's log `log` is exactly `expected`; prints
/// both at `file`:`line` otherwise (CHECK_LOG in the launch tests).
static inline void check_log_text(const char *log, const char *expected,
                                  const char *file, int line) {
  if (strcmp(log, expected) == 0) {
    ++passed;
  } else {
    ++failed;
    fprintf(stderr, "%s:%d: driver log mismatch\n--- expected\n%s--- got\n%s",
            file, line, expected, log);
  }
}

#endif // FUSECC_RUNTIME_TEST_CHECK_H
