/*===- bundle_lexer.c - fusecc bundle lines and tokens ------------*- C -*-===//
 *
 * Lines, tokens, integers, dtypes and shapes of the bundle manifest
 * (parser.h). Every consumer range-checks what it reads with
 * overflow-safe arithmetic and never reads outside the caller's buffer.
 *
 *===----------------------------------------------------------------------===*/

#include "parser.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

fusecc_status_t fusecc_parse_error(const parser_t *parser, const char *fmt,
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
const char *fusecc_quote_token(token_t token, char buffer[64]) {
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
int fusecc_next_line(parser_t *parser, fusecc_status_t *out_status) {
  *out_status = NULL;
  if (parser->offset >= parser->size)
    return 0;
  ++parser->line_number;
  const char *begin = parser->data + parser->offset;
  size_t remaining = parser->size - parser->offset;
  const char *newline = memchr(begin, '\n', remaining);
  if (!newline) {
    *out_status = fusecc_parse_error(
        parser, "unexpected end of data: line is not terminated by '\\n'");
    return 0;
  }
  size_t length = (size_t)(newline - begin);
  if (length == 0) {
    *out_status = fusecc_parse_error(parser, "empty line");
    return 0;
  }
  for (size_t i = 0; i < length; ++i) {
    unsigned char c = (unsigned char)begin[i];
    if (c < 0x20 || c > 0x7e) {
      *out_status = fusecc_parse_error(
          parser,
          "invalid byte 0x%02x at column %zu (expected printable ASCII)", c,
          i + 1);
      return 0;
    }
    if (c == ' ' && (i == 0 || i + 1 == length || begin[i + 1] == ' ')) {
      *out_status = fusecc_parse_error(parser,
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
token_t fusecc_take_token(cursor_t *cursor) {
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
int fusecc_token_is(token_t token, const char *word) {
  size_t length = strlen(word);
  return token.text && token.length == length &&
         memcmp(token.text, word, length) == 0;
}

/// Consumes the keyword `word`.
fusecc_status_t fusecc_expect_word(parser_t *parser, const char *word,
                                   const char *context) {
  token_t token = fusecc_take_token(&parser->line);
  if (fusecc_token_is(token, word))
    return NULL;
  char quoted[64];
  return fusecc_parse_error(parser, "expected '%s' %s, got %s", word, context,
                            fusecc_quote_token(token, quoted));
}

/// Parses the digits [digits, digits + length) of `token` as a decimal
/// integer in [min, max] (no sign, no leading zeros); errors quote `token`.
fusecc_status_t fusecc_parse_uint(const parser_t *parser, token_t token,
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
      return fusecc_parse_error(parser, "%s %s overflows", what,
                                fusecc_quote_token(token, quoted));
    value = value * 10 + digit;
  }
  if (!well_formed)
    return fusecc_parse_error(
        parser, "expected %s (a non-negative decimal integer), got %s", what,
        fusecc_quote_token(token, quoted));
  if (value < min || value > max)
    return fusecc_parse_error(parser,
                              "%s %llu is out of range (expected %llu to %llu)",
                              what, (unsigned long long)value,
                              (unsigned long long)min, (unsigned long long)max);
  *out_value = value;
  return NULL;
}

/// Consumes a decimal integer in [min, max] (no sign, no leading zeros).
fusecc_status_t fusecc_expect_uint(parser_t *parser, const char *what,
                                   uint64_t min, uint64_t max,
                                   uint64_t *out_value) {
  token_t token = fusecc_take_token(&parser->line);
  return fusecc_parse_uint(parser, token, token.text, token.length, what, min,
                           max, out_value);
}

/// Fails if the current line has tokens left.
fusecc_status_t fusecc_expect_line_end(parser_t *parser, const char *context) {
  token_t token = fusecc_take_token(&parser->line);
  if (!token.text)
    return NULL;
  char quoted[64];
  return fusecc_parse_error(parser, "unexpected %s after %s",
                            fusecc_quote_token(token, quoted), context);
}

/// Copies `token` into a new NUL-terminated string.
char *fusecc_copy_token(token_t token) {
  char *copy = malloc(token.length + 1);
  if (copy) {
    memcpy(copy, token.text, token.length);
    copy[token.length] = '\0';
  }
  return copy;
}

fusecc_status_t fusecc_parse_out_of_memory(void) {
  return fusecc_make_status(FUSECC_STATUS_RESOURCE_EXHAUSTED,
                            "out of memory while parsing a bundle");
}

/// The manifest dtypes and the format version that introduced each.
static const struct {
  const char *name;
  fusecc_dtype_t dtype;
  uint64_t version;
} dtype_table[] = {
    {"f32", FUSECC_DTYPE_F32, 1},   {"f16", FUSECC_DTYPE_F16, 1},
    {"bf16", FUSECC_DTYPE_BF16, 1}, {"i32", FUSECC_DTYPE_I32, 3},
    {"i64", FUSECC_DTYPE_I64, 3},   {"u8", FUSECC_DTYPE_U8, 3},
};

/// Consumes a dtype token valid in the bundle's format version.
fusecc_status_t fusecc_expect_dtype(parser_t *parser, fusecc_dtype_t *out) {
  token_t token = fusecc_take_token(&parser->line);
  char quoted[64];
  for (size_t i = 0; i < sizeof(dtype_table) / sizeof(dtype_table[0]); ++i) {
    if (!fusecc_token_is(token, dtype_table[i].name))
      continue;
    if (parser->version < dtype_table[i].version)
      return fusecc_parse_error(parser,
                                "dtype %s needs bundle format version %llu",
                                fusecc_quote_token(token, quoted),
                                (unsigned long long)dtype_table[i].version);
    *out = dtype_table[i].dtype;
    return NULL;
  }
  if (parser->version >= 3)
    return fusecc_parse_error(
        parser,
        "expected dtype 'f32', 'f16', 'bf16', 'i32', 'i64' or "
        "'u8', got %s",
        fusecc_quote_token(token, quoted));
  return fusecc_parse_error(parser,
                            "expected dtype 'f32', 'f16' or 'bf16', got %s",
                            fusecc_quote_token(token, quoted));
}

/// Multiplies `elements` by the size of `dtype` into *out_bytes; errors name
/// `kind` `name`.
fusecc_status_t fusecc_checked_byte_size(const parser_t *parser,
                                         size_t elements, fusecc_dtype_t dtype,
                                         const char *kind, const char *name,
                                         size_t *out_bytes) {
  size_t element_size = fusecc_dtype_size(dtype);
  if (element_size == 0 || elements > SIZE_MAX / element_size)
    return fusecc_parse_error(parser, "byte size of %s '%s' overflows", kind,
                              name);
  *out_bytes = elements * element_size;
  return NULL;
}

/// Consumes `<rank> <d0> ... <d(rank-1)>` of `kind` `name`: rank 0..8, every
/// extent 1..INT64_MAX, their product (the element count) overflow-checked.
fusecc_status_t fusecc_expect_shape(parser_t *parser, const char *kind,
                                    const char *name, size_t *out_rank,
                                    int64_t dims[FUSECC_MAX_RANK],
                                    size_t *out_elements) {
  fusecc_status_t status;
  uint64_t value;
  if ((status = fusecc_expect_uint(parser, "rank", 0, FUSECC_MAX_RANK, &value)))
    return status;
  size_t rank = (size_t)value;
  size_t elements = 1;
  for (size_t d = 0; d < rank; ++d) {
    if ((status =
             fusecc_expect_uint(parser, "dimension", 1, INT64_MAX, &value)))
      return status;
    if (value > SIZE_MAX / elements)
      return fusecc_parse_error(parser, "element count of %s '%s' overflows",
                                kind, name);
    elements *= (size_t)value;
    dims[d] = (int64_t)value;
  }
  *out_rank = rank;
  *out_elements = elements;
  return NULL;
}

/// Parses the index digits of a `<prefix><k>` param or step token (decimal,
/// no leading zeros); the caller checks the range.
fusecc_status_t fusecc_parse_prefixed_index(const parser_t *parser,
                                            token_t token, const char *what,
                                            uint64_t *out_index) {
  return fusecc_parse_uint(parser, token, token.text + 1, token.length - 1,
                           what, 0, UINT64_MAX, out_index);
}
