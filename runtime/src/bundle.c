/*===- bundle.c - fusecc bundle parser ----------------------------*- C -*-===//
 *
 * A strict parser for the bundle format of docs/bundle.md (versions 1, 2 and
 * 3). Every deviation is a PARSE_ERROR naming the line and what was
 * expected; every count, size, offset and index is range-checked with
 * overflow-safe arithmetic, and the parser never reads outside the caller's
 * buffer, so it can be fed arbitrary bytes (runtime/test/fuzz_bundle.c).
 *
 *===----------------------------------------------------------------------===*/

#include "parser.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===----------------------------------------------------------------------===*
 * Records
 *===----------------------------------------------------------------------===*/

/// Parses the rest of `chip <sm_XX>`.
static fusecc_status_t parse_chip(parser_t *parser) {
  token_t token = fusecc_take_token(&parser->line);
  char quoted[64];
  int valid = token.text && token.length > 3 &&
              token.length < sizeof(parser->bundle->chip) &&
              memcmp(token.text, "sm_", 3) == 0;
  size_t digits = 0;
  for (size_t i = 3; valid && i < token.length; ++i) {
    char c = token.text[i];
    if (c >= '0' && c <= '9' && i == 3 + digits)
      ++digits;
    else if (!(c >= 'a' && c <= 'z' && digits > 0))
      valid = 0;
  }
  if (!valid || digits == 0)
    return fusecc_parse_error(
        parser, "expected a chip like 'sm_90' or 'sm_90a', got %s",
        fusecc_quote_token(token, quoted));
  memcpy(parser->bundle->chip, token.text, token.length);
  parser->bundle->chip[token.length] = '\0';
  return fusecc_expect_line_end(parser, "the chip");
}

/// Parses the rest of `precision <ieee|tf32|bf16|fp16>`.
static fusecc_status_t parse_precision(parser_t *parser) {
  token_t token = fusecc_take_token(&parser->line);
  if (fusecc_token_is(token, "ieee")) {
    parser->bundle->precision = FUSECC_PRECISION_IEEE;
  } else if (fusecc_token_is(token, "tf32")) {
    parser->bundle->precision = FUSECC_PRECISION_TF32;
  } else if (fusecc_token_is(token, "bf16")) {
    parser->bundle->precision = FUSECC_PRECISION_BF16;
  } else if (fusecc_token_is(token, "fp16")) {
    parser->bundle->precision = FUSECC_PRECISION_FP16;
  } else {
    char quoted[64];
    return fusecc_parse_error(
        parser, "expected precision 'ieee', 'tf32', 'bf16' or 'fp16', got %s",
        fusecc_quote_token(token, quoted));
  }
  return fusecc_expect_line_end(parser, "the precision");
}

/// Parses the rest of `const <k> <name> <dtype> <rank> <dims...> offset <o>`
/// (format version 3) as the bundle's next constant. Its range in the data
/// section is checked when that section is read (check_const_ranges).
static fusecc_status_t parse_const(parser_t *parser) {
  fusecc_bundle_t bundle = parser->bundle;
  fusecc_status_t status;
  uint64_t value;
  if (bundle->const_count == FUSECC_MAX_CONSTS)
    return fusecc_parse_error(
        parser,
        "too many 'const' records (a bundle has at most %d "
        "constants)",
        FUSECC_MAX_CONSTS);
  size_t index = bundle->const_count;
  if ((status =
           fusecc_expect_uint(parser, "const index", 0, UINT64_MAX, &value)))
    return status;
  if (value != index)
    return fusecc_parse_error(parser, "expected const index %zu, got %llu",
                              index, (unsigned long long)value);
  if (bundle->const_count == bundle->const_capacity) {
    size_t capacity = bundle->const_capacity ? 2 * bundle->const_capacity : 8;
    fusecc_const_t *consts =
        realloc(bundle->consts, capacity * sizeof(fusecc_const_t));
    if (!consts)
      return fusecc_parse_out_of_memory();
    bundle->consts = consts;
    bundle->const_capacity = capacity;
  }
  fusecc_const_t *constant = &bundle->consts[bundle->const_count++];
  memset(constant, 0, sizeof(*constant));
  token_t name = fusecc_take_token(&parser->line);
  if (!name.text)
    return fusecc_parse_error(parser, "expected a const name, got end of line");
  if (!(constant->name = fusecc_copy_token(name)))
    return fusecc_parse_out_of_memory();
  if ((status = fusecc_expect_dtype(parser, &constant->dtype)) ||
      (status =
           fusecc_expect_shape(parser, "const", constant->name, &constant->rank,
                               constant->dims, &constant->element_count)) ||
      (status = fusecc_checked_byte_size(parser, constant->element_count,
                                         constant->dtype, "const",
                                         constant->name, &constant->byte_size)))
    return status;
  if ((status =
           fusecc_expect_word(parser, "offset", "after the const dimensions")))
    return status;
  if ((status = fusecc_expect_uint(parser, "const offset", 0, UINT64_MAX,
                                   &constant->offset)))
    return status;
  if (constant->offset % FUSECC_CONST_ALIGNMENT != 0)
    return fusecc_parse_error(
        parser, "const %zu '%s': offset %llu is not a multiple of %d", index,
        constant->name, (unsigned long long)constant->offset,
        FUSECC_CONST_ALIGNMENT);
  return fusecc_expect_line_end(parser, "the const offset");
}

/// Checks that every constant lies inside the data section (overflow-safe:
/// no end offset is computed).
static fusecc_status_t check_const_ranges(const parser_t *parser) {
  const fusecc_bundle_t bundle = parser->bundle;
  for (size_t k = 0; k < bundle->const_count; ++k) {
    const fusecc_const_t *constant = &bundle->consts[k];
    if (!fusecc_range_inside(constant->offset, constant->byte_size,
                             bundle->data_size))
      return fusecc_parse_error(
          parser,
          "const %zu '%s' (%zu bytes at offset %llu) lies "
          "outside the %zu-byte data section",
          k, constant->name, constant->byte_size,
          (unsigned long long)constant->offset, bundle->data_size);
  }
  return NULL;
}

/// Parses `data <bytes>` at parser->offset (format version 3, right after
/// the PTX) and the bytes after it, which must end the input.
static fusecc_status_t parse_data(parser_t *parser, size_t ptx_bytes) {
  fusecc_status_t status;
  size_t remaining = parser->size - parser->offset;
  static const char keyword[] = "data ";
  if (remaining < sizeof(keyword) - 1 ||
      memcmp(parser->data + parser->offset, keyword, sizeof(keyword) - 1) != 0)
    return fusecc_parse_error(
        parser,
        "%zu bytes of trailing data after the %zu-byte PTX "
        "(expected 'data <bytes>' or the end of the input)",
        remaining, ptx_bytes);
  if (!fusecc_next_line(parser, &status))
    return status;
  fusecc_take_token(&parser->line);
  uint64_t bytes;
  if ((status = fusecc_expect_uint(parser, "data byte count", 1, UINT64_MAX,
                                   &bytes)))
    return status;
  if ((status = fusecc_expect_line_end(parser, "the data byte count")))
    return status;
  remaining = parser->size - parser->offset;
  if (bytes > remaining)
    return fusecc_parse_error(parser,
                              "'data' declares %llu bytes but only %zu remain",
                              (unsigned long long)bytes, remaining);
  if (bytes < remaining)
    return fusecc_parse_error(
        parser,
        "%zu bytes of trailing data after the %llu-byte data "
        "section",
        remaining - (size_t)bytes, (unsigned long long)bytes);
  if (parser->bundle->const_count == 0)
    return fusecc_parse_error(parser,
                              "'data' section in a bundle without 'const' "
                              "records");
  fusecc_bundle_t bundle = parser->bundle;
  if (!(bundle->data = malloc(remaining)))
    return fusecc_parse_out_of_memory();
  memcpy(bundle->data, parser->data + parser->offset, remaining);
  bundle->data_size = remaining;
  parser->offset = parser->size;
  return check_const_ranges(parser);
}

/// Parses the rest of `ptx <bytes>` and the PTX after it.
static fusecc_status_t parse_ptx(parser_t *parser) {
  fusecc_status_t status;
  uint64_t bytes;
  if ((status =
           fusecc_expect_uint(parser, "PTX byte count", 1, UINT64_MAX, &bytes)))
    return status;
  if ((status = fusecc_expect_line_end(parser, "the PTX byte count")))
    return status;
  size_t remaining = parser->size - parser->offset;
  if (bytes > remaining)
    return fusecc_parse_error(parser,
                              "'ptx' declares %llu bytes but only %zu remain",
                              (unsigned long long)bytes, remaining);
  // Version 3 may follow the PTX with a data section; before it, nothing.
  if (bytes < remaining && parser->version < 3)
    return fusecc_parse_error(parser,
                              "%zu bytes of trailing data after the %llu-byte "
                              "PTX",
                              remaining - (size_t)bytes,
                              (unsigned long long)bytes);
  size_t ptx_size = (size_t)bytes;
  const char *ptx = parser->data + parser->offset;
  const char *nul = memchr(ptx, '\0', ptx_size);
  if (nul)
    return fusecc_parse_error(parser, "PTX contains a NUL byte at offset %zu",
                              (size_t)(nul - ptx));
  fusecc_bundle_t bundle = parser->bundle;
  if (!(bundle->ptx = malloc(ptx_size + 1)))
    return fusecc_parse_out_of_memory();
  memcpy(bundle->ptx, ptx, ptx_size);
  bundle->ptx[ptx_size] = '\0';
  bundle->ptx_size = ptx_size;
  // Keep line numbers right for what follows the PTX.
  for (const char *at = ptx, *stop = ptx + ptx_size;
       (at = memchr(at, '\n', (size_t)(stop - at))) != NULL; ++at)
    ++parser->line_number;
  parser->offset += ptx_size;
  if (parser->offset < parser->size)
    return parse_data(parser, ptx_size);
  if (bundle->const_count > 0)
    return fusecc_parse_error(
        parser,
        "the bundle declares %zu constants but has no 'data' "
        "section after the PTX",
        bundle->const_count);
  return NULL;
}

/// Parses a whole bundle into parser->bundle.
static fusecc_status_t parse_bundle(parser_t *parser) {
  fusecc_status_t status;
  char quoted[64];
  if (!fusecc_next_line(parser, &status)) {
    if (status)
      return status;
    return fusecc_make_status(FUSECC_STATUS_PARSE_ERROR,
                              "line 1: empty input: expected "
                              "'fusecc-bundle 1'");
  }
  token_t magic = fusecc_take_token(&parser->line);
  if (!fusecc_token_is(magic, "fusecc-bundle"))
    return fusecc_parse_error(
        parser,
        "not a fusecc bundle: expected 'fusecc-bundle 1', "
        "got %s",
        fusecc_quote_token(magic, quoted));
  uint64_t version;
  if ((status = fusecc_expect_uint(parser, "format version", 0, UINT64_MAX,
                                   &version)))
    return status;
  if (version < 1 || version > FUSECC_BUNDLE_FORMAT_VERSION)
    return fusecc_parse_error(
        parser,
        "unsupported bundle format version %llu (this runtime "
        "reads versions 1, 2, 3 and 4)",
        (unsigned long long)version);
  parser->version = version;
  parser->bundle->format_version = (unsigned)version;
  if ((status = fusecc_expect_line_end(parser, "the format version")))
    return status;

  size_t chip_line = 0, precision_line = 0;
  for (;;) {
    if (!fusecc_next_line(parser, &status)) {
      if (status)
        return status;
      return fusecc_parse_error(parser, "unexpected end of data: expected %s",
                                parser->bundle->entry_count
                                    ? "another 'entry' or 'ptx <bytes>'"
                                    : "an 'entry' record");
    }
    token_t record = fusecc_take_token(&parser->line);
    if (fusecc_token_is(record, "chip") ||
        fusecc_token_is(record, "precision")) {
      int is_chip = record.text[0] == 'c';
      size_t *seen = is_chip ? &chip_line : &precision_line;
      if (parser->bundle->entry_count > 0)
        return fusecc_parse_error(parser, "%s must come before the first entry",
                                  fusecc_quote_token(record, quoted));
      if (*seen)
        return fusecc_parse_error(parser,
                                  "duplicate %s record (first on line %zu)",
                                  fusecc_quote_token(record, quoted), *seen);
      *seen = parser->line_number;
      if ((status = is_chip ? parse_chip(parser) : parse_precision(parser)))
        return status;
    } else if (fusecc_token_is(record, "const")) {
      if (parser->version < 3)
        return fusecc_parse_error(
            parser, "'const' record needs bundle format version 3");
      if (parser->bundle->entry_count > 0)
        return fusecc_parse_error(parser,
                                  "'const' must come before the first entry");
      if (!chip_line || !precision_line)
        return fusecc_parse_error(parser,
                                  "missing '%s' record before the first const",
                                  chip_line ? "precision" : "chip");
      if ((status = parse_const(parser)))
        return status;
    } else if (fusecc_token_is(record, "entry")) {
      if (!chip_line || !precision_line)
        return fusecc_parse_error(parser,
                                  "missing '%s' record before the first entry",
                                  chip_line ? "precision" : "chip");
      if ((status = fusecc_parse_entry(parser)))
        return status;
    } else if (fusecc_token_is(record, "ptx")) {
      if (parser->bundle->entry_count == 0)
        return fusecc_parse_error(parser,
                                  "'ptx' before any 'entry' record (a bundle "
                                  "has one or more entries)");
      return parse_ptx(parser);
    } else if (fusecc_token_is(record, "data")) {
      return fusecc_parse_error(parser,
                                "'data' section before the 'ptx' section (it "
                                "follows the PTX)");
    } else if (fusecc_token_is(record, "arg") ||
               fusecc_token_is(record, "workspace") ||
               fusecc_token_is(record, "launch") ||
               fusecc_token_is(record, "zero") ||
               fusecc_token_is(record, "graph") ||
               fusecc_token_is(record, "end")) {
      return fusecc_parse_error(parser, "%s record outside an entry",
                                fusecc_quote_token(record, quoted));
    } else {
      return fusecc_parse_error(parser, "unknown record %s",
                                fusecc_quote_token(record, quoted));
    }
  }
}

/*===----------------------------------------------------------------------===*
 * Public API
 *===----------------------------------------------------------------------===*/

static void bundle_free(fusecc_bundle_t bundle) {
  for (size_t i = 0; i < bundle->entry_count; ++i) {
    fusecc_entry_t *entry = &bundle->entries[i];
    if (entry->args)
      for (size_t a = 0; a < entry->arg_count; ++a)
        free(entry->args[a].name);
    if (entry->launches)
      for (size_t l = 0; l < entry->launch_count; ++l) {
        free(entry->launches[l].kernel_name);
        free(entry->launches[l].param_args);
      }
    for (size_t g = 0; g < entry->graph_line_count; ++g)
      free(entry->graph_lines[g]);
    free(entry->name);
    free(entry->args);
    free(entry->workspaces);
    free(entry->launches);
    free(entry->steps);
    free(entry->graph_lines);
  }
  for (size_t k = 0; k < bundle->const_count; ++k)
    free(bundle->consts[k].name);
  free(bundle->consts);
  free(bundle->data);
  free(bundle->entries);
  free(bundle->ptx);
  free(bundle);
}

fusecc_status_t fusecc_bundle_parse(const void *data, size_t size,
                                    fusecc_bundle_t *out_bundle) {
  if (!out_bundle)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "fusecc_bundle_parse: out_bundle is NULL");
  *out_bundle = NULL;
  if (!data && size)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "fusecc_bundle_parse: data is NULL");
  fusecc_bundle_t bundle = calloc(1, sizeof(*bundle));
  if (!bundle)
    return fusecc_parse_out_of_memory();
  bundle->ref_count = 1;
  parser_t parser;
  memset(&parser, 0, sizeof(parser));
  parser.data = data ? (const char *)data : "";
  parser.size = size;
  parser.bundle = bundle;
  fusecc_status_t status = parse_bundle(&parser);
  free(parser.name_slots);
  if (status) {
    bundle_free(bundle);
    return status;
  }
  *out_bundle = bundle;
  return NULL;
}

fusecc_status_t fusecc_bundle_load_file(const char *path,
                                        fusecc_bundle_t *out_bundle) {
  if (!out_bundle || !path)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "fusecc_bundle_load_file: %s is NULL",
                              path ? "out_bundle" : "path");
  *out_bundle = NULL;
  FILE *file = fopen(path, "rb");
  if (!file)
    return fusecc_make_status(FUSECC_STATUS_IO_ERROR, "cannot open '%s': %s",
                              path, strerror(errno));
  size_t size = 0, capacity = 1 << 16;
  char *data = malloc(capacity);
  fusecc_status_t status = NULL;
  while (data) {
    size += fread(data + size, 1, capacity - size, file);
    if (size < capacity)
      break;
    char *grown = capacity <= SIZE_MAX / 2 ? realloc(data, capacity * 2) : NULL;
    if (!grown) {
      free(data);
      data = NULL;
      break;
    }
    data = grown;
    capacity *= 2;
  }
  if (!data)
    status = fusecc_make_status(FUSECC_STATUS_RESOURCE_EXHAUSTED,
                                "out of memory reading '%s'", path);
  else if (ferror(file))
    status = fusecc_make_status(FUSECC_STATUS_IO_ERROR, "cannot read '%s': %s",
                                path, strerror(errno));
  fclose(file);
  if (!status) {
    status = fusecc_bundle_parse(data, size, out_bundle);
    if (status)
      status = fusecc_annotate_status(status, "%s: ", path);
  }
  free(data);
  return status;
}

void fusecc_bundle_retain(fusecc_bundle_t bundle) {
  if (bundle)
    __atomic_fetch_add(&bundle->ref_count, 1, __ATOMIC_RELAXED);
}

void fusecc_bundle_release(fusecc_bundle_t bundle) {
  if (bundle &&
      __atomic_sub_fetch(&bundle->ref_count, 1, __ATOMIC_ACQ_REL) == 0)
    bundle_free(bundle);
}
