/*===- parser.h - fusecc bundle lexing helpers ---------------------*- C
 *-*-===//
 *
 * The line and token layer shared by the bundle parser's sources (bundle.c:
 * the bundle's framing, constants and data; bundle_entry.c: entry records):
 * parser state, tokens, and consumers that return a PARSE_ERROR naming the
 * line and what was expected.
 *
 *===----------------------------------------------------------------------===*/

#ifndef FUSECC_RUNTIME_PARSER_H
#define FUSECC_RUNTIME_PARSER_H

#include "internal.h"

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
  /// Open-addressing hash set of the entry names seen (entry index + 1 per
  /// slot, 0 when empty; `name_capacity` a power of two), so that checking
  /// names for duplicates stays linear in the number of entries.
  size_t *name_slots;
  size_t name_capacity;
} parser_t;

/// Returns a PARSE_ERROR "line N: <formatted>" for the current line.
fusecc_status_t fusecc_parse_error(const parser_t *parser, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/// Writes `token` quoted into `buffer` for messages, shortened if long.
const char *fusecc_quote_token(token_t token, char buffer[64]);

/// Reads the next line into parser->line. Returns 1 with *out_status NULL on
/// success, 0 with *out_status NULL at the end of the data, 0 with an error
/// for an unterminated line or one that breaks the lexical rules (printable
/// ASCII, tokens separated by single spaces).
int fusecc_next_line(parser_t *parser, fusecc_status_t *out_status);

/// Takes the next token of `cursor`; a token with NULL text at end of line.
token_t fusecc_take_token(cursor_t *cursor);

/// Whether `token` is exactly `word`.
int fusecc_token_is(token_t token, const char *word);

/// Consumes the keyword `word`; `context` says where ("after the grid").
fusecc_status_t fusecc_expect_word(parser_t *parser, const char *word,
                                   const char *context);

/// Parses the digits [digits, digits + length) of `token` as a decimal
/// integer in [min, max] (no sign, no leading zeros); errors quote `token`.
fusecc_status_t fusecc_parse_uint(const parser_t *parser, token_t token,
                                  const char *digits, size_t length,
                                  const char *what, uint64_t min, uint64_t max,
                                  uint64_t *out_value);

/// Consumes a decimal integer in [min, max] (no sign, no leading zeros).
fusecc_status_t fusecc_expect_uint(parser_t *parser, const char *what,
                                   uint64_t min, uint64_t max,
                                   uint64_t *out_value);

/// Fails if the current line has tokens left.
fusecc_status_t fusecc_expect_line_end(parser_t *parser, const char *context);

/// Copies `token` into a new NUL-terminated string (NULL if out of memory).
char *fusecc_copy_token(token_t token);

/// The RESOURCE_EXHAUSTED status of a failed allocation while parsing.
fusecc_status_t fusecc_parse_out_of_memory(void);

/// Consumes a dtype token valid in the bundle's format version.
fusecc_status_t fusecc_expect_dtype(parser_t *parser, fusecc_dtype_t *out);

/// Multiplies `elements` by the size of `dtype` into *out_bytes; errors name
/// `kind` `name`.
fusecc_status_t fusecc_checked_byte_size(const parser_t *parser,
                                         size_t elements, fusecc_dtype_t dtype,
                                         const char *kind, const char *name,
                                         size_t *out_bytes);

/// Consumes `<rank> <d0> ... <d(rank-1)>` of `kind` `name`: rank 0..8, every
/// extent 1..INT64_MAX, their product (the element count) overflow-checked.
fusecc_status_t fusecc_expect_shape(parser_t *parser, const char *kind,
                                    const char *name, size_t *out_rank,
                                    int64_t dims[FUSECC_MAX_RANK],
                                    size_t *out_elements);

/// Parses the index digits of a `<prefix><k>` param or step token (decimal,
/// no leading zeros); the caller checks the range.
fusecc_status_t fusecc_parse_prefixed_index(const parser_t *parser,
                                            token_t token, const char *what,
                                            uint64_t *out_index);

/// Parses an entry from the rest of its `entry` line through its `end`
/// (bundle_entry.c).
fusecc_status_t fusecc_parse_entry(parser_t *parser);

#endif // FUSECC_RUNTIME_PARSER_H
