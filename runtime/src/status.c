/*===- status.c - fusecc runtime status objects -------------------*- C -*-===//
 *
 * Heap-allocated error statuses with formatted messages, plus the name tables
 * of the public enums.
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fusecc_status_s {
  fusecc_status_code_t code;
  /// 0 for the static out-of-memory status, which is never freed.
  int heap_allocated;
  char message[];
};

/// Returned when a status itself cannot be allocated.
static struct {
  struct fusecc_status_s status;
  char text[64];
} out_of_memory_status = {
    {FUSECC_STATUS_RESOURCE_EXHAUSTED, 0},
    "out of memory while reporting an error",
};

/// Allocates a status whose message is the formatted `fmt`/`args` followed by
/// `suffix`.
static fusecc_status_t make_status_v(fusecc_status_code_t code,
                                     const char *suffix, const char *fmt,
                                     va_list args) {
  va_list measure;
  va_copy(measure, args);
  int body = vsnprintf(NULL, 0, fmt, measure);
  va_end(measure);
  if (body < 0)
    body = 0;
  size_t suffix_length = strlen(suffix);
  fusecc_status_t status =
      malloc(sizeof(*status) + (size_t)body + suffix_length + 1);
  if (!status)
    return &out_of_memory_status.status;
  status->code = code;
  status->heap_allocated = 1;
  vsnprintf(status->message, (size_t)body + 1, fmt, args);
  memcpy(status->message + body, suffix, suffix_length + 1);
  return status;
}

fusecc_status_t fusecc_make_status(fusecc_status_code_t code, const char *fmt,
                                   ...) {
  va_list args;
  va_start(args, fmt);
  fusecc_status_t status = make_status_v(code, "", fmt, args);
  va_end(args);
  return status;
}

fusecc_status_t fusecc_annotate_status(fusecc_status_t status, const char *fmt,
                                       ...) {
  if (!status || !status->heap_allocated)
    return status;
  va_list args;
  va_start(args, fmt);
  fusecc_status_t annotated =
      make_status_v(status->code, status->message, fmt, args);
  va_end(args);
  fusecc_status_free(status);
  return annotated;
}

fusecc_status_code_t fusecc_status_code(fusecc_status_t status) {
  return status ? status->code : FUSECC_STATUS_OK;
}

const char *fusecc_status_message(fusecc_status_t status) {
  return status ? status->message : "OK";
}

void fusecc_status_free(fusecc_status_t status) {
  if (status && status->heap_allocated)
    free(status);
}

const char *fusecc_status_code_name(fusecc_status_code_t code) {
  switch (code) {
  case FUSECC_STATUS_OK:
    return "OK";
  case FUSECC_STATUS_INVALID_ARGUMENT:
    return "INVALID_ARGUMENT";
  case FUSECC_STATUS_PARSE_ERROR:
    return "PARSE_ERROR";
  case FUSECC_STATUS_NOT_FOUND:
    return "NOT_FOUND";
  case FUSECC_STATUS_OUT_OF_RANGE:
    return "OUT_OF_RANGE";
  case FUSECC_STATUS_UNAVAILABLE:
    return "UNAVAILABLE";
  case FUSECC_STATUS_CUDA_ERROR:
    return "CUDA_ERROR";
  case FUSECC_STATUS_IO_ERROR:
    return "IO_ERROR";
  case FUSECC_STATUS_RESOURCE_EXHAUSTED:
    return "RESOURCE_EXHAUSTED";
  }
  return "UNKNOWN";
}

const char *fusecc_dtype_name(fusecc_dtype_t dtype) {
  switch (dtype) {
  case FUSECC_DTYPE_F32:
    return "f32";
  case FUSECC_DTYPE_F16:
    return "f16";
  case FUSECC_DTYPE_BF16:
    return "bf16";
  case FUSECC_DTYPE_I32:
    return "i32";
  case FUSECC_DTYPE_I64:
    return "i64";
  case FUSECC_DTYPE_U8:
    return "u8";
  }
  return "unknown";
}

size_t fusecc_dtype_size(fusecc_dtype_t dtype) {
  switch (dtype) {
  case FUSECC_DTYPE_F32:
    return 4;
  case FUSECC_DTYPE_F16:
  case FUSECC_DTYPE_BF16:
    return 2;
  case FUSECC_DTYPE_I32:
    return 4;
  case FUSECC_DTYPE_I64:
    return 8;
  case FUSECC_DTYPE_U8:
    return 1;
  }
  return 0;
}

const char *fusecc_workspace_role_name(fusecc_workspace_role_t role) {
  switch (role) {
  case FUSECC_WORKSPACE_ROLE_UNSPECIFIED:
    return "unspecified";
  case FUSECC_WORKSPACE_ROLE_SCRATCH:
    return "scratch";
  case FUSECC_WORKSPACE_ROLE_INTERMEDIATE:
    return "intermediate";
  case FUSECC_WORKSPACE_ROLE_PARTIALS:
    return "partials";
  case FUSECC_WORKSPACE_ROLE_PREPARED:
    return "prepared";
  }
  return "unknown";
}

const char *fusecc_step_kind_name(fusecc_step_kind_t kind) {
  switch (kind) {
  case FUSECC_STEP_LAUNCH:
    return "launch";
  case FUSECC_STEP_ZERO:
    return "zero";
  }
  return "unknown";
}

const char *fusecc_precision_name(fusecc_precision_t precision) {
  switch (precision) {
  case FUSECC_PRECISION_IEEE:
    return "ieee";
  case FUSECC_PRECISION_TF32:
    return "tf32";
  case FUSECC_PRECISION_BF16:
    return "bf16";
  case FUSECC_PRECISION_FP16:
    return "fp16";
  }
  return "unknown";
}
