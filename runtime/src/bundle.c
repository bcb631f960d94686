/*===- bundle.c - fusecc bundle parser and introspection ----------*- C -*-===//
 *
 * A strict parser for the bundle format of docs/bundle.md. Every deviation is
 * a PARSE_ERROR naming the line and what was expected; the parser never reads
 * outside the caller's buffer, so it can be fed arbitrary bytes.
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===----------------------------------------------------------------------===*
 * Lexing
 *===----------------------------------------------------------------------===*/

/// The tokens of one line not yet consumed.
typedef struct cursor_s {
  const char *next;
  const char *end;
} cursor_t;

/// One token: a non-empty run of non-space printable characters.
typedef struct token_s {
  const char *text;
  size_t length;
} token_t;

/// Parser state over the caller's buffer.
typedef struct parser_s {
  const char *data;
  size_t size;
  /// Offset of the first byte after the current line's '\n'.
  size_t offset;
  /// 1-based number of the current line (0 before the first).
  size_t line_number;
  /// The current line without its '\n'.
  cursor_t line;
  fusecc_bundle_t bundle;
  /// The format version from the first line (0 before it is read).
  uint64_t version;
} parser_t;

/// Returns a PARSE_ERROR "line N: <formatted>" for the current line.
static fusecc_status_t parse_error(const parser_t *parser, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static fusecc_status_t parse_error(const parser_t *parser, const char *fmt,
                                   ...) {
  char text[512];
  va_list args;
  va_start(args, fmt);
  vsnprintf(text, sizeof(text), fmt, args);
  va_end(args);
  return fusecc_make_status(FUSECC_STATUS_PARSE_ERROR, "line %zu: %s",
                            parser->line_number, text);
}

/// Writes `token` quoted into `buffer` for messages, shortened if long.
static const char *quote(token_t token, char buffer[64]) {
  if (!token.text) {
    snprintf(buffer, 64, "end of line");
  } else if (token.length > 40) {
    snprintf(buffer, 64, "'%.40s...'", token.text);
  } else {
    snprintf(buffer, 64, "'%.*s'", (int)token.length, token.text);
  }
  return buffer;
}

/// Reads the next line into parser->line. Returns 1 with *out_status NULL on
/// success, 0 with *out_status NULL at the end of the data, 0 with an error
/// for an unterminated line or one that breaks the lexical rules (printable
/// ASCII, tokens separated by single spaces).
static int next_line(parser_t *parser, fusecc_status_t *out_status) {
  *out_status = NULL;
  if (parser->offset >= parser->size)
    return 0;
  ++parser->line_number;
  const char *begin = parser->data + parser->offset;
  size_t remaining = parser->size - parser->offset;
  const char *newline = memchr(begin, '\n', remaining);
  if (!newline) {
    *out_status = parse_error(
        parser, "unexpected end of data: line is not terminated by '\\n'");
    return 0;
  }
  size_t length = (size_t)(newline - begin);
  if (length == 0) {
    *out_status = parse_error(parser, "empty line");
    return 0;
  }
  for (size_t i = 0; i < length; ++i) {
    unsigned char c = (unsigned char)begin[i];
    if (c < 0x20 || c > 0x7e) {
      *out_status = parse_error(
          parser,
          "invalid byte 0x%02x at column %zu (expected printable ASCII)", c,
          i + 1);
      return 0;
    }
    if (c == ' ' && (i == 0 || i + 1 == length || begin[i + 1] == ' ')) {
      *out_status = parse_error(parser,
                                "stray space at column %zu (tokens are "
                                "separated by single spaces)",
                                i + 1);
      return 0;
    }
  }
  parser->line.next = begin;
  parser->line.end = newline;
  parser->offset += length + 1;
  return 1;
}

/// Takes the next token of `cursor`; a token with NULL text at end of line.
static token_t take_token(cursor_t *cursor) {
  token_t token = {NULL, 0};
  if (cursor->next >= cursor->end)
    return token;
  const char *space =
      memchr(cursor->next, ' ', (size_t)(cursor->end - cursor->next));
  const char *stop = space ? space : cursor->end;
  token.text = cursor->next;
  token.length = (size_t)(stop - cursor->next);
  cursor->next = space ? space + 1 : cursor->end;
  return token;
}

/// Whether `token` is exactly `word`.
static int token_is(token_t token, const char *word) {
  size_t length = strlen(word);
  return token.text && token.length == length &&
         memcmp(token.text, word, length) == 0;
}

/// Consumes the keyword `word`.
static fusecc_status_t expect_word(parser_t *parser, const char *word,
                                   const char *context) {
  token_t token = take_token(&parser->line);
  if (token_is(token, word))
    return NULL;
  char quoted[64];
  return parse_error(parser, "expected '%s' %s, got %s", word, context,
                     quote(token, quoted));
}

/// Parses the digits [digits, digits + length) of `token` as a decimal
/// integer in [min, max] (no sign, no leading zeros); errors quote `token`.
static fusecc_status_t parse_uint(const parser_t *parser, token_t token,
                                  const char *digits, size_t length,
                                  const char *what, uint64_t min, uint64_t max,
                                  uint64_t *out_value) {
  char quoted[64];
  int well_formed =
      digits && length > 0 && length <= 20 && !(length > 1 && digits[0] == '0');
  uint64_t value = 0;
  for (size_t i = 0; well_formed && i < length; ++i) {
    char c = digits[i];
    if (c < '0' || c > '9') {
      well_formed = 0;
      break;
    }
    uint64_t digit = (uint64_t)(c - '0');
    if (value > (UINT64_MAX - digit) / 10)
      return parse_error(parser, "%s %s overflows", what, quote(token, quoted));
    value = value * 10 + digit;
  }
  if (!well_formed)
    return parse_error(parser,
                       "expected %s (a non-negative decimal integer), got %s",
                       what, quote(token, quoted));
  if (value < min || value > max)
    return parse_error(parser,
                       "%s %llu is out of range (expected %llu to %llu)", what,
                       (unsigned long long)value, (unsigned long long)min,
                       (unsigned long long)max);
  *out_value = value;
  return NULL;
}

/// Consumes a decimal integer in [min, max] (no sign, no leading zeros).
static fusecc_status_t expect_uint(parser_t *parser, const char *what,
                                   uint64_t min, uint64_t max,
                                   uint64_t *out_value) {
  token_t token = take_token(&parser->line);
  return parse_uint(parser, token, token.text, token.length, what, min, max,
                    out_value);
}

/// Fails if the current line has tokens left.
static fusecc_status_t expect_line_end(parser_t *parser, const char *context) {
  token_t token = take_token(&parser->line);
  if (!token.text)
    return NULL;
  char quoted[64];
  return parse_error(parser, "unexpected %s after %s", quote(token, quoted),
                     context);
}

/// Copies `token` into a new NUL-terminated string.
static char *copy_token(token_t token) {
  char *copy = malloc(token.length + 1);
  if (copy) {
    memcpy(copy, token.text, token.length);
    copy[token.length] = '\0';
  }
  return copy;
}

static fusecc_status_t out_of_memory(void) {
  return fusecc_make_status(FUSECC_STATUS_RESOURCE_EXHAUSTED,
                            "out of memory while parsing a bundle");
}

/*===----------------------------------------------------------------------===*
 * Records
 *===----------------------------------------------------------------------===*/

/// Parses the rest of `chip <sm_XX>`.
static fusecc_status_t parse_chip(parser_t *parser) {
  token_t token = take_token(&parser->line);
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
    return parse_error(parser,
                       "expected a chip like 'sm_90' or 'sm_90a', got %s",
                       quote(token, quoted));
  memcpy(parser->bundle->chip, token.text, token.length);
  parser->bundle->chip[token.length] = '\0';
  return expect_line_end(parser, "the chip");
}

/// Parses the rest of `precision <ieee|tf32>`.
static fusecc_status_t parse_precision(parser_t *parser) {
  token_t token = take_token(&parser->line);
  if (token_is(token, "ieee")) {
    parser->bundle->precision = FUSECC_PRECISION_IEEE;
  } else if (token_is(token, "tf32")) {
    parser->bundle->precision = FUSECC_PRECISION_TF32;
  } else {
    char quoted[64];
    return parse_error(parser, "expected precision 'ieee' or 'tf32', got %s",
                       quote(token, quoted));
  }
  return expect_line_end(parser, "the precision");
}

/// Parses the rest of `arg <i> <in|out> <name> <dtype> <rank> <dims...>` into
/// argument `index` of `entry`.
static fusecc_status_t parse_arg(parser_t *parser, fusecc_entry_t *entry,
                                 size_t index) {
  fusecc_status_t status;
  uint64_t value;
  char quoted[64];
  if ((status = expect_uint(parser, "arg index", 0, UINT64_MAX, &value)))
    return status;
  if (value != index)
    return parse_error(parser, "expected arg index %zu, got %llu", index,
                       (unsigned long long)value);
  fusecc_arg_t *arg = &entry->args[index];

  token_t token = take_token(&parser->line);
  if (token_is(token, "in")) {
    if (index > 0 && entry->args[index - 1].is_output)
      return parse_error(parser,
                         "input arg %zu follows an output arg (inputs "
                         "come first, then outputs)",
                         index);
    ++entry->input_count;
  } else if (token_is(token, "out")) {
    arg->is_output = 1;
  } else {
    return parse_error(parser, "expected 'in' or 'out', got %s",
                       quote(token, quoted));
  }

  token = take_token(&parser->line);
  if (!token.text)
    return parse_error(parser, "expected an arg name, got end of line");
  if (!(arg->name = copy_token(token)))
    return out_of_memory();

  token = take_token(&parser->line);
  if (token_is(token, "f32"))
    arg->dtype = FUSECC_DTYPE_F32;
  else if (token_is(token, "f16"))
    arg->dtype = FUSECC_DTYPE_F16;
  else if (token_is(token, "bf16"))
    arg->dtype = FUSECC_DTYPE_BF16;
  else
    return parse_error(parser, "expected dtype 'f32', 'f16' or 'bf16', got %s",
                       quote(token, quoted));

  if ((status = expect_uint(parser, "rank", 0, FUSECC_MAX_RANK, &value)))
    return status;
  arg->rank = (size_t)value;
  size_t elements = 1;
  for (size_t d = 0; d < arg->rank; ++d) {
    if ((status = expect_uint(parser, "dimension", 1, INT64_MAX, &value)))
      return status;
    if (value > SIZE_MAX / elements)
      return parse_error(parser, "element count of arg '%s' overflows",
                         arg->name);
    elements *= (size_t)value;
    arg->dims[d] = (int64_t)value;
  }
  size_t element_size = fusecc_dtype_size(arg->dtype);
  if (elements > SIZE_MAX / element_size)
    return parse_error(parser, "byte size of arg '%s' overflows", arg->name);
  arg->element_count = elements;
  arg->byte_size = elements * element_size;
  return expect_line_end(parser, "the dimensions");
}

/// Parses the rest of `workspace <k> <dtype> <elements>` into workspace
/// `index` of `entry`.
static fusecc_status_t parse_workspace(parser_t *parser, fusecc_entry_t *entry,
                                       size_t index) {
  fusecc_status_t status;
  uint64_t value;
  char quoted[64];
  if ((status = expect_uint(parser, "workspace index", 0, UINT64_MAX, &value)))
    return status;
  if (value != index)
    return parse_error(parser, "expected workspace index %zu, got %llu", index,
                       (unsigned long long)value);
  fusecc_workspace_t *workspace = &entry->workspaces[index];

  token_t token = take_token(&parser->line);
  if (token_is(token, "f32"))
    workspace->dtype = FUSECC_DTYPE_F32;
  else
    return parse_error(parser, "expected workspace dtype 'f32', got %s",
                       quote(token, quoted));

  if ((status =
           expect_uint(parser, "workspace element count", 1, SIZE_MAX, &value)))
    return status;
  size_t element_size = fusecc_dtype_size(workspace->dtype);
  if (value > SIZE_MAX / element_size)
    return parse_error(parser, "byte size of workspace %zu overflows", index);
  workspace->element_count = (size_t)value;
  workspace->byte_size = (size_t)value * element_size;
  return expect_line_end(parser, "the workspace element count");
}

/// Parses the rest of a `launch` record into `launch` of `entry`.
static fusecc_status_t parse_launch(parser_t *parser, fusecc_entry_t *entry,
                                    fusecc_launch_t *launch) {
  fusecc_status_t status;
  uint64_t value;
  token_t token = take_token(&parser->line);
  if (!token.text)
    return parse_error(parser, "expected a kernel name, got end of line");
  if (!(launch->kernel_name = copy_token(token)))
    return out_of_memory();

  if ((status = expect_word(parser, "grid", "after the kernel name")))
    return status;
  for (int i = 0; i < 3; ++i) {
    if ((status = expect_uint(parser, "grid size", 1, UINT32_MAX, &value)))
      return status;
    launch->grid[i] = (uint32_t)value;
  }
  if ((status = expect_word(parser, "block", "after the grid size")))
    return status;
  uint64_t threads = 1;
  for (int i = 0; i < 3; ++i) {
    if ((status = expect_uint(parser, "block size", 1, 1024, &value)))
      return status;
    launch->block[i] = (uint32_t)value;
    threads *= value;
  }
  if (threads > 1024)
    return parse_error(parser, "block of %llu threads exceeds 1024",
                       (unsigned long long)threads);
  if ((status = expect_word(parser, "smem", "after the block size")))
    return status;
  if ((status = expect_uint(parser, "smem bytes", 0, UINT32_MAX, &value)))
    return status;
  launch->smem_bytes = (uint32_t)value;
  if ((status = expect_word(parser, "params", "after the smem bytes")))
    return status;
  if ((status =
           expect_uint(parser, "param count", 0, FUSECC_MAX_PARAMS, &value)))
    return status;
  launch->param_count = (size_t)value;
  launch->param_args =
      calloc(launch->param_count ? launch->param_count : 1, sizeof(size_t));
  if (!launch->param_args)
    return out_of_memory();
  for (size_t j = 0; j < launch->param_count; ++j) {
    cursor_t peek = parser->line;
    token = take_token(&peek);
    if (token.text && token.text[0] == 'w') {
      char quoted[64];
      if (parser->version < 2)
        return parse_error(parser,
                           "workspace param %s is not supported by bundle "
                           "format version 1",
                           quote(token, quoted));
      parser->line = peek;
      if ((status = parse_uint(parser, token, token.text + 1, token.length - 1,
                               "workspace param index", 0, UINT64_MAX, &value)))
        return status;
      if (value >= entry->workspace_count)
        return parse_error(parser,
                           "param %zu names workspace %llu but entry '%s' has "
                           "%zu workspaces",
                           j, (unsigned long long)value, entry->name,
                           entry->workspace_count);
      launch->param_args[j] = entry->arg_count + (size_t)value;
      continue;
    }
    if ((status =
             expect_uint(parser, "param arg index", 0, UINT64_MAX, &value)))
      return status;
    if (value >= entry->arg_count)
      return parse_error(
          parser, "param %zu names arg %llu but entry '%s' has %zu args", j,
          (unsigned long long)value, entry->name, entry->arg_count);
    launch->param_args[j] = (size_t)value;
  }
  return expect_line_end(parser, "the params");
}

/// Appends the text after `graph ` to `entry`.
static fusecc_status_t parse_graph(parser_t *parser, fusecc_entry_t *entry) {
  if (parser->line.next >= parser->line.end)
    return parse_error(parser, "expected graph text after 'graph'");
  if (entry->graph_line_count == entry->graph_line_capacity) {
    size_t capacity =
        entry->graph_line_capacity ? 2 * entry->graph_line_capacity : 8;
    char **lines = realloc(entry->graph_lines, capacity * sizeof(char *));
    if (!lines)
      return out_of_memory();
    entry->graph_lines = lines;
    entry->graph_line_capacity = capacity;
  }
  token_t rest = {parser->line.next,
                  (size_t)(parser->line.end - parser->line.next)};
  char *text = copy_token(rest);
  if (!text)
    return out_of_memory();
  entry->graph_lines[entry->graph_line_count++] = text;
  return NULL;
}

/// Parses an entry from the rest of its `entry` line through its `end`.
static fusecc_status_t parse_entry(parser_t *parser) {
  fusecc_bundle_t bundle = parser->bundle;
  fusecc_status_t status;
  char quoted[64];
  token_t name = take_token(&parser->line);
  if (!name.text)
    return parse_error(parser, "expected an entry name, got end of line");
  for (size_t i = 0; i < bundle->entry_count; ++i) {
    if (strlen(bundle->entries[i].name) == name.length &&
        memcmp(bundle->entries[i].name, name.text, name.length) == 0)
      return parse_error(parser, "duplicate entry name %s",
                         quote(name, quoted));
  }
  if (bundle->entry_count == bundle->entry_capacity) {
    size_t capacity = bundle->entry_capacity ? 2 * bundle->entry_capacity : 4;
    fusecc_entry_t *entries =
        realloc(bundle->entries, capacity * sizeof(fusecc_entry_t));
    if (!entries)
      return out_of_memory();
    bundle->entries = entries;
    bundle->entry_capacity = capacity;
  }
  fusecc_entry_t *entry = &bundle->entries[bundle->entry_count++];
  memset(entry, 0, sizeof(*entry));
  if (!(entry->name = copy_token(name)))
    return out_of_memory();

  uint64_t value;
  if ((status = expect_word(parser, "args", "after the entry name")))
    return status;
  if ((status =
           expect_uint(parser, "arg count", 0, FUSECC_MAX_ENTRY_ITEMS, &value)))
    return status;
  entry->arg_count = (size_t)value;
  if (parser->version >= 2) {
    if ((status = expect_word(parser, "workspaces", "after the arg count")))
      return status;
    if ((status = expect_uint(parser, "workspace count", 0,
                              FUSECC_MAX_ENTRY_ITEMS, &value)))
      return status;
    entry->workspace_count = (size_t)value;
    if ((status = expect_word(parser, "launches", "after the workspace count")))
      return status;
  } else {
    cursor_t peek = parser->line;
    if (token_is(take_token(&peek), "workspaces"))
      return parse_error(parser, "'workspaces' in an entry header needs bundle "
                                 "format version 2");
    if ((status = expect_word(parser, "launches", "after the arg count")))
      return status;
  }
  if ((status = expect_uint(parser, "launch count", 0, FUSECC_MAX_ENTRY_ITEMS,
                            &value)))
    return status;
  entry->launch_count = (size_t)value;
  if ((status = expect_line_end(parser, "the launch count")))
    return status;
  entry->args =
      calloc(entry->arg_count ? entry->arg_count : 1, sizeof(fusecc_arg_t));
  entry->workspaces =
      calloc(entry->workspace_count ? entry->workspace_count : 1,
             sizeof(fusecc_workspace_t));
  entry->launches = calloc(entry->launch_count ? entry->launch_count : 1,
                           sizeof(fusecc_launch_t));
  if (!entry->args || !entry->workspaces || !entry->launches)
    return out_of_memory();

  size_t start_line = parser->line_number;
  size_t args_seen = 0, workspaces_seen = 0, launches_seen = 0;
  for (;;) {
    if (!next_line(parser, &status)) {
      if (status)
        return status;
      return parse_error(parser,
                         "unexpected end of data in entry '%s' (started on "
                         "line %zu): expected 'end'",
                         entry->name, start_line);
    }
    token_t record = take_token(&parser->line);
    if (token_is(record, "arg")) {
      if (args_seen == entry->arg_count)
        return parse_error(parser,
                           "entry '%s' declares %zu args, found another 'arg'",
                           entry->name, entry->arg_count);
      if ((status = parse_arg(parser, entry, args_seen++)))
        return status;
    } else if (token_is(record, "workspace")) {
      if (parser->version < 2)
        return parse_error(parser, "'workspace' record needs bundle format "
                                   "version 2");
      if (args_seen < entry->arg_count)
        return parse_error(parser,
                           "entry '%s' declares %zu args but only %zu 'arg' "
                           "records precede this 'workspace'",
                           entry->name, entry->arg_count, args_seen);
      if (workspaces_seen == entry->workspace_count)
        return parse_error(
            parser,
            "entry '%s' declares %zu workspaces, found another 'workspace'",
            entry->name, entry->workspace_count);
      if ((status = parse_workspace(parser, entry, workspaces_seen++)))
        return status;
    } else if (token_is(record, "launch")) {
      if (args_seen < entry->arg_count)
        return parse_error(parser,
                           "entry '%s' declares %zu args but only %zu 'arg' "
                           "records precede this 'launch'",
                           entry->name, entry->arg_count, args_seen);
      if (workspaces_seen < entry->workspace_count)
        return parse_error(parser,
                           "entry '%s' declares %zu workspaces but only %zu "
                           "'workspace' records precede this 'launch'",
                           entry->name, entry->workspace_count,
                           workspaces_seen);
      if (launches_seen == entry->launch_count)
        return parse_error(
            parser, "entry '%s' declares %zu launches, found another 'launch'",
            entry->name, entry->launch_count);
      if (entry->graph_line_count > 0)
        return parse_error(parser,
                           "'launch' after a 'graph' line in entry "
                           "'%s' (launches come first)",
                           entry->name);
      if ((status =
               parse_launch(parser, entry, &entry->launches[launches_seen++])))
        return status;
    } else if (token_is(record, "graph")) {
      if (args_seen < entry->arg_count || launches_seen < entry->launch_count)
        return parse_error(parser,
                           "'graph' line in entry '%s' before its %zu args and "
                           "%zu launches (found %zu and %zu)",
                           entry->name, entry->arg_count, entry->launch_count,
                           args_seen, launches_seen);
      if (workspaces_seen < entry->workspace_count)
        return parse_error(parser,
                           "'graph' line in entry '%s' before its %zu "
                           "workspaces (found %zu)",
                           entry->name, entry->workspace_count,
                           workspaces_seen);
      if ((status = parse_graph(parser, entry)))
        return status;
    } else if (token_is(record, "end")) {
      if ((status = expect_line_end(parser, "'end'")))
        return status;
      if (args_seen < entry->arg_count)
        return parse_error(parser, "entry '%s' declares %zu args but has %zu",
                           entry->name, entry->arg_count, args_seen);
      if (workspaces_seen < entry->workspace_count)
        return parse_error(
            parser, "entry '%s' declares %zu workspaces but has %zu",
            entry->name, entry->workspace_count, workspaces_seen);
      if (launches_seen < entry->launch_count)
        return parse_error(parser,
                           "entry '%s' declares %zu launches but has %zu",
                           entry->name, entry->launch_count, launches_seen);
      return NULL;
    } else if (token_is(record, "entry") || token_is(record, "ptx") ||
               token_is(record, "chip") || token_is(record, "precision")) {
      return parse_error(parser,
                         "missing 'end' for entry '%s' (started on line %zu) "
                         "before %s",
                         entry->name, start_line, quote(record, quoted));
    } else {
      return parse_error(parser, "unknown record %s in entry '%s'",
                         quote(record, quoted), entry->name);
    }
  }
}

/// Parses the rest of `ptx <bytes>` and the PTX after it.
static fusecc_status_t parse_ptx(parser_t *parser) {
  fusecc_status_t status;
  uint64_t bytes;
  if ((status = expect_uint(parser, "PTX byte count", 1, UINT64_MAX, &bytes)))
    return status;
  if ((status = expect_line_end(parser, "the PTX byte count")))
    return status;
  size_t remaining = parser->size - parser->offset;
  if (bytes > remaining)
    return parse_error(parser, "'ptx' declares %llu bytes but only %zu remain",
                       (unsigned long long)bytes, remaining);
  if (bytes < remaining)
    return parse_error(parser,
                       "%zu bytes of trailing data after the %llu-byte "
                       "PTX",
                       remaining - (size_t)bytes, (unsigned long long)bytes);
  const char *ptx = parser->data + parser->offset;
  const char *nul = memchr(ptx, '\0', remaining);
  if (nul)
    return parse_error(parser, "PTX contains a NUL byte at offset %zu",
                       (size_t)(nul - ptx));
  fusecc_bundle_t bundle = parser->bundle;
  if (!(bundle->ptx = malloc(remaining + 1)))
    return out_of_memory();
  memcpy(bundle->ptx, ptx, remaining);
  bundle->ptx[remaining] = '\0';
  bundle->ptx_size = remaining;
  parser->offset = parser->size;
  return NULL;
}

/// Parses a whole bundle into parser->bundle.
static fusecc_status_t parse_bundle(parser_t *parser) {
  fusecc_status_t status;
  char quoted[64];
  if (!next_line(parser, &status)) {
    if (status)
      return status;
    return fusecc_make_status(FUSECC_STATUS_PARSE_ERROR,
                              "line 1: empty input: expected "
                              "'fusecc-bundle 1'");
  }
  token_t magic = take_token(&parser->line);
  if (!token_is(magic, "fusecc-bundle"))
    return parse_error(parser,
                       "not a fusecc bundle: expected 'fusecc-bundle 1', "
                       "got %s",
                       quote(magic, quoted));
  uint64_t version;
  if ((status = expect_uint(parser, "format version", 0, UINT64_MAX, &version)))
    return status;
  if (version < 1 || version > FUSECC_BUNDLE_FORMAT_VERSION)
    return parse_error(parser,
                       "unsupported bundle format version %llu (this runtime "
                       "reads versions 1 to %d)",
                       (unsigned long long)version,
                       FUSECC_BUNDLE_FORMAT_VERSION);
  parser->version = version;
  parser->bundle->format_version = (unsigned)version;
  if ((status = expect_line_end(parser, "the format version")))
    return status;

  size_t chip_line = 0, precision_line = 0;
  for (;;) {
    if (!next_line(parser, &status)) {
      if (status)
        return status;
      return parse_error(parser, "unexpected end of data: expected %s",
                         parser->bundle->entry_count
                             ? "another 'entry' or 'ptx <bytes>'"
                             : "an 'entry' record");
    }
    token_t record = take_token(&parser->line);
    if (token_is(record, "chip") || token_is(record, "precision")) {
      int is_chip = record.text[0] == 'c';
      size_t *seen = is_chip ? &chip_line : &precision_line;
      if (parser->bundle->entry_count > 0)
        return parse_error(parser, "%s must come before the first entry",
                           quote(record, quoted));
      if (*seen)
        return parse_error(parser, "duplicate %s record (first on line %zu)",
                           quote(record, quoted), *seen);
      *seen = parser->line_number;
      if ((status = is_chip ? parse_chip(parser) : parse_precision(parser)))
        return status;
    } else if (token_is(record, "entry")) {
      if (!chip_line || !precision_line)
        return parse_error(parser, "missing '%s' record before the first entry",
                           chip_line ? "precision" : "chip");
      if ((status = parse_entry(parser)))
        return status;
    } else if (token_is(record, "ptx")) {
      if (parser->bundle->entry_count == 0)
        return parse_error(parser, "'ptx' before any 'entry' record (a bundle "
                                   "has one or more entries)");
      return parse_ptx(parser);
    } else if (token_is(record, "arg") || token_is(record, "workspace") ||
               token_is(record, "launch") || token_is(record, "graph") ||
               token_is(record, "end")) {
      return parse_error(parser, "%s record outside an entry",
                         quote(record, quoted));
    } else {
      return parse_error(parser, "unknown record %s", quote(record, quoted));
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
    free(entry->graph_lines);
  }
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
    return out_of_memory();
  bundle->ref_count = 1;
  parser_t parser = {
      data ? (const char *)data : "", size, 0, 0, {NULL, NULL}, bundle, 0};
  fusecc_status_t status = parse_bundle(&parser);
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

const char *fusecc_bundle_chip(fusecc_bundle_t bundle) {
  return bundle ? bundle->chip : NULL;
}

fusecc_precision_t fusecc_bundle_precision(fusecc_bundle_t bundle) {
  return bundle ? bundle->precision : FUSECC_PRECISION_IEEE;
}

const char *fusecc_bundle_ptx(fusecc_bundle_t bundle, size_t *out_size) {
  if (out_size)
    *out_size = bundle ? bundle->ptx_size : 0;
  return bundle ? bundle->ptx : NULL;
}

size_t fusecc_bundle_entry_count(fusecc_bundle_t bundle) {
  return bundle ? bundle->entry_count : 0;
}

/// Checks `bundle`, `out` and `entry_index`; sets *out_entry.
static fusecc_status_t lookup_entry(fusecc_bundle_t bundle, size_t entry_index,
                                    const void *out, const char *function,
                                    const fusecc_entry_t **out_entry) {
  if (!bundle || !out)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT, "%s: %s is NULL",
                              function, bundle ? "output pointer" : "bundle");
  if (entry_index >= bundle->entry_count)
    return fusecc_make_status(FUSECC_STATUS_OUT_OF_RANGE,
                              "%s: entry index %zu out of range (bundle has "
                              "%zu entries)",
                              function, entry_index, bundle->entry_count);
  *out_entry = &bundle->entries[entry_index];
  return NULL;
}

fusecc_status_t fusecc_bundle_entry_info(fusecc_bundle_t bundle,
                                         size_t entry_index,
                                         fusecc_entry_info_t *out_info) {
  const fusecc_entry_t *entry = NULL;
  fusecc_status_t status = lookup_entry(bundle, entry_index, out_info,
                                        "fusecc_bundle_entry_info", &entry);
  if (status)
    return status;
  out_info->name = entry->name;
  out_info->arg_count = entry->arg_count;
  out_info->input_count = entry->input_count;
  out_info->launch_count = entry->launch_count;
  out_info->graph_line_count = entry->graph_line_count;
  out_info->workspace_count = entry->workspace_count;
  return NULL;
}

fusecc_status_t fusecc_bundle_find_entry(fusecc_bundle_t bundle,
                                         const char *name,
                                         size_t *out_entry_index) {
  if (!bundle || !name || !out_entry_index)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "fusecc_bundle_find_entry: %s is NULL",
                              !bundle ? "bundle"
                              : !name ? "name"
                                      : "out_entry_index");
  for (size_t i = 0; i < bundle->entry_count; ++i) {
    if (strcmp(bundle->entries[i].name, name) == 0) {
      *out_entry_index = i;
      return NULL;
    }
  }
  return fusecc_make_status(FUSECC_STATUS_NOT_FOUND,
                            "bundle has no entry named '%s'", name);
}

fusecc_status_t fusecc_bundle_arg_info(fusecc_bundle_t bundle,
                                       size_t entry_index, size_t arg_index,
                                       fusecc_arg_info_t *out_info) {
  const fusecc_entry_t *entry = NULL;
  fusecc_status_t status = lookup_entry(bundle, entry_index, out_info,
                                        "fusecc_bundle_arg_info", &entry);
  if (status)
    return status;
  if (arg_index >= entry->arg_count)
    return fusecc_make_status(FUSECC_STATUS_OUT_OF_RANGE,
                              "fusecc_bundle_arg_info: arg index %zu out of "
                              "range (entry '%s' has %zu args)",
                              arg_index, entry->name, entry->arg_count);
  const fusecc_arg_t *arg = &entry->args[arg_index];
  memset(out_info, 0, sizeof(*out_info));
  out_info->index = arg_index;
  out_info->name = arg->name;
  out_info->is_output = arg->is_output;
  out_info->dtype = arg->dtype;
  out_info->dtype_name = fusecc_dtype_name(arg->dtype);
  out_info->rank = arg->rank;
  memcpy(out_info->dims, arg->dims, sizeof(arg->dims));
  out_info->element_count = arg->element_count;
  out_info->byte_size = arg->byte_size;
  return NULL;
}

fusecc_status_t
fusecc_bundle_workspace_info(fusecc_bundle_t bundle, size_t entry_index,
                             size_t workspace_index,
                             fusecc_workspace_info_t *out_info) {
  const fusecc_entry_t *entry = NULL;
  fusecc_status_t status = lookup_entry(bundle, entry_index, out_info,
                                        "fusecc_bundle_workspace_info", &entry);
  if (status)
    return status;
  if (workspace_index >= entry->workspace_count)
    return fusecc_make_status(FUSECC_STATUS_OUT_OF_RANGE,
                              "fusecc_bundle_workspace_info: workspace index "
                              "%zu out of range (entry '%s' has %zu "
                              "workspaces)",
                              workspace_index, entry->name,
                              entry->workspace_count);
  const fusecc_workspace_t *workspace = &entry->workspaces[workspace_index];
  memset(out_info, 0, sizeof(*out_info));
  out_info->dtype = workspace->dtype;
  out_info->element_count = workspace->element_count;
  out_info->byte_size = workspace->byte_size;
  return NULL;
}

fusecc_status_t fusecc_bundle_launch_info(fusecc_bundle_t bundle,
                                          size_t entry_index,
                                          size_t launch_index,
                                          fusecc_launch_info_t *out_info) {
  const fusecc_entry_t *entry = NULL;
  fusecc_status_t status = lookup_entry(bundle, entry_index, out_info,
                                        "fusecc_bundle_launch_info", &entry);
  if (status)
    return status;
  if (launch_index >= entry->launch_count)
    return fusecc_make_status(FUSECC_STATUS_OUT_OF_RANGE,
                              "fusecc_bundle_launch_info: launch index %zu out "
                              "of range (entry '%s' has %zu launches)",
                              launch_index, entry->name, entry->launch_count);
  const fusecc_launch_t *launch = &entry->launches[launch_index];
  out_info->kernel_name = launch->kernel_name;
  memcpy(out_info->grid, launch->grid, sizeof(launch->grid));
  memcpy(out_info->block, launch->block, sizeof(launch->block));
  out_info->smem_bytes = launch->smem_bytes;
  out_info->param_count = launch->param_count;
  out_info->param_args = launch->param_args;
  return NULL;
}

fusecc_status_t fusecc_bundle_graph_line(fusecc_bundle_t bundle,
                                         size_t entry_index, size_t line_index,
                                         const char **out_text) {
  const fusecc_entry_t *entry = NULL;
  fusecc_status_t status = lookup_entry(bundle, entry_index, out_text,
                                        "fusecc_bundle_graph_line", &entry);
  if (status)
    return status;
  if (line_index >= entry->graph_line_count)
    return fusecc_make_status(FUSECC_STATUS_OUT_OF_RANGE,
                              "fusecc_bundle_graph_line: line index %zu out of "
                              "range (entry '%s' has %zu graph lines)",
                              line_index, entry->name, entry->graph_line_count);
  *out_text = entry->graph_lines[line_index];
  return NULL;
}

fusecc_status_t fusecc_bundle_validate_args(fusecc_bundle_t bundle,
                                            size_t entry_index,
                                            const fusecc_buffer_t *args,
                                            size_t arg_count) {
  if (!bundle)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "fusecc_bundle_validate_args: bundle is NULL");
  if (entry_index >= bundle->entry_count)
    return fusecc_make_status(FUSECC_STATUS_OUT_OF_RANGE,
                              "entry index %zu out of range (bundle has %zu "
                              "entries)",
                              entry_index, bundle->entry_count);
  const fusecc_entry_t *entry = &bundle->entries[entry_index];
  if (arg_count != entry->arg_count)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "entry '%s' takes %zu args, got %zu", entry->name,
                              entry->arg_count, arg_count);
  if (arg_count && !args)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "entry '%s': args is NULL", entry->name);
  for (size_t i = 0; i < arg_count; ++i) {
    const fusecc_arg_t *arg = &entry->args[i];
    if (args[i].size_bytes != arg->byte_size)
      return fusecc_make_status(
          FUSECC_STATUS_INVALID_ARGUMENT,
          "entry '%s' arg %zu '%s': expected a buffer "
          "of %zu bytes (%zu x %s), got %zu bytes",
          entry->name, i, arg->name, arg->byte_size, arg->element_count,
          fusecc_dtype_name(arg->dtype), args[i].size_bytes);
    if (args[i].ptr == 0)
      return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                                "entry '%s' arg %zu '%s': null device pointer",
                                entry->name, i, arg->name);
    if (args[i].ptr % 16 != 0)
      return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                                "entry '%s' arg %zu '%s': device pointer "
                                "0x%llx is not 16-byte aligned",
                                entry->name, i, arg->name,
                                (unsigned long long)args[i].ptr);
  }
  // Kernels assume their buffers do not overlap (their pointer parameters
  // are `noalias`): an output may share memory with no other argument.
  for (size_t i = 0; i < arg_count; ++i) {
    if (!entry->args[i].is_output)
      continue;
    for (size_t j = 0; j < arg_count; ++j) {
      if (j == i)
        continue;
      uint64_t a0 = args[i].ptr, a1 = a0 + args[i].size_bytes;
      uint64_t b0 = args[j].ptr, b1 = b0 + args[j].size_bytes;
      if (a0 < b1 && b0 < a1)
        return fusecc_make_status(
            FUSECC_STATUS_INVALID_ARGUMENT,
            "entry '%s' arg %zu '%s' (output) overlaps arg %zu '%s': "
            "outputs must not share memory with other arguments",
            entry->name, i, entry->args[i].name, j, entry->args[j].name);
    }
  }
  return NULL;
}
