/*===- bundle_entry.c - fusecc bundle entry records ---------------*- C -*-===//
 *
 * The records of one entry: `arg`, `workspace`, the steps (`launch`, and
 * `zero` in format version 3), `graph` and `end`, with their counts, order
 * and every index they name checked.
 *
 *===----------------------------------------------------------------------===*/

#include "parser.h"

#include <stdlib.h>
#include <string.h>

/// Parses the rest of `arg <i> <in|out> <name> <dtype> <rank> <dims...>` into
/// argument `index` of `entry`.
static fusecc_status_t parse_arg(parser_t *parser, fusecc_entry_t *entry,
                                 size_t index) {
  fusecc_status_t status;
  uint64_t value;
  char quoted[64];
  if ((status = fusecc_expect_uint(parser, "arg index", 0, UINT64_MAX, &value)))
    return status;
  if (value != index)
    return fusecc_parse_error(parser, "expected arg index %zu, got %llu", index,
                              (unsigned long long)value);
  fusecc_arg_t *arg = &entry->args[index];

  token_t token = fusecc_take_token(&parser->line);
  if (fusecc_token_is(token, "in")) {
    if (index > 0 && entry->args[index - 1].is_output)
      return fusecc_parse_error(parser,
                                "input arg %zu follows an output arg (inputs "
                                "come first, then outputs)",
                                index);
    ++entry->input_count;
  } else if (fusecc_token_is(token, "out")) {
    arg->is_output = 1;
  } else {
    return fusecc_parse_error(parser, "expected 'in' or 'out', got %s",
                              fusecc_quote_token(token, quoted));
  }

  token = fusecc_take_token(&parser->line);
  if (!token.text)
    return fusecc_parse_error(parser, "expected an arg name, got end of line");
  if (!(arg->name = fusecc_copy_token(token)))
    return fusecc_parse_out_of_memory();
  if ((status = fusecc_expect_dtype(parser, &arg->dtype)))
    return status;
  // Format version 4: dim 0 may be `b`, the launch-time batch of an entry
  // with a bound; sizes are then those of one sample (dims[0] = 1).
  cursor_t peek = parser->line;
  fusecc_take_token(&peek);
  token_t first = fusecc_take_token(&peek);
  cursor_t rest = peek;
  if (fusecc_token_is(first, "b")) {
    if (!entry->max_batch)
      return fusecc_parse_error(
          parser,
          "arg %zu '%s' has a batch dim 'b' but entry '%s' has no "
          "'max_batch'",
          index, arg->name, entry->name);
    // Parse `<rank> 1 <d1> ...` with the batch read as one sample.
    uint64_t rank;
    if ((status = fusecc_expect_uint(parser, "rank", 1, FUSECC_MAX_RANK,
                                     &rank)))
      return status;
    parser->line = rest;
    size_t elements = 1;
    arg->dims[0] = 1;
    for (size_t d = 1; d < rank; ++d) {
      if ((status = fusecc_expect_uint(parser, "dimension", 1, INT64_MAX,
                                       &value)))
        return status;
      if (value > SIZE_MAX / elements)
        return fusecc_parse_error(parser, "element count of arg '%s' overflows",
                                  arg->name);
      elements *= (size_t)value;
      arg->dims[d] = (int64_t)value;
    }
    arg->rank = (size_t)rank;
    arg->element_count = elements;
    arg->batched = 1;
  } else if ((status = fusecc_expect_shape(parser, "arg", arg->name, &arg->rank,
                                           arg->dims, &arg->element_count))) {
    return status;
  }
  if ((status = fusecc_checked_byte_size(parser, arg->element_count, arg->dtype,
                                         "arg", arg->name, &arg->byte_size)))
    return status;
  if (arg->batched && arg->byte_size > SIZE_MAX / entry->max_batch)
    return fusecc_parse_error(parser,
                              "byte size of arg '%s' at the batch bound %zu "
                              "overflows",
                              arg->name, entry->max_batch);
  return fusecc_expect_line_end(parser, "the dimensions");
}

/// The workspace roles of format version 3.
static const struct {
  const char *name;
  fusecc_workspace_role_t role;
} role_table[] = {
    {"scratch", FUSECC_WORKSPACE_ROLE_SCRATCH},
    {"intermediate", FUSECC_WORKSPACE_ROLE_INTERMEDIATE},
    {"partials", FUSECC_WORKSPACE_ROLE_PARTIALS},
    {"prepared", FUSECC_WORKSPACE_ROLE_PREPARED},
};

/// Parses the rest of `workspace <k> <dtype> <elements>` (version 2) or
/// `workspace <k> <dtype> <elements> <role>` (version 3) into workspace
/// `index` of `entry`.
static fusecc_status_t parse_workspace(parser_t *parser, fusecc_entry_t *entry,
                                       size_t index) {
  fusecc_status_t status;
  uint64_t value;
  char quoted[64];
  if ((status = fusecc_expect_uint(parser, "workspace index", 0, UINT64_MAX,
                                   &value)))
    return status;
  if (value != index)
    return fusecc_parse_error(parser, "expected workspace index %zu, got %llu",
                              index, (unsigned long long)value);
  fusecc_workspace_t *workspace = &entry->workspaces[index];

  if (parser->version >= 3) {
    if ((status = fusecc_expect_dtype(parser, &workspace->dtype)))
      return status;
  } else {
    token_t token = fusecc_take_token(&parser->line);
    if (!fusecc_token_is(token, "f32"))
      return fusecc_parse_error(parser,
                                "expected workspace dtype 'f32', got %s",
                                fusecc_quote_token(token, quoted));
    workspace->dtype = FUSECC_DTYPE_F32;
  }

  // Format version 4: `<elements>*b`, elements per sample of the batch.
  token_t count = fusecc_take_token(&parser->line);
  size_t digits = count.length;
  if (count.text && count.length > 2 && parser->version >= 4 &&
      memcmp(count.text + count.length - 2, "*b", 2) == 0) {
    if (!entry->max_batch)
      return fusecc_parse_error(
          parser,
          "workspace %zu is per sample ('*b') but entry '%s' has no "
          "'max_batch'",
          index, entry->name);
    workspace->per_sample = 1;
    digits -= 2;
  }
  if ((status = fusecc_parse_uint(parser, count, count.text, digits,
                                  "workspace element count", 1, SIZE_MAX,
                                  &value)))
    return status;
  size_t element_size = fusecc_dtype_size(workspace->dtype);
  if (value > SIZE_MAX / element_size ||
      (workspace->per_sample &&
       value * element_size > SIZE_MAX / entry->max_batch))
    return fusecc_parse_error(parser, "byte size of workspace %zu overflows",
                              index);
  workspace->element_count = (size_t)value;
  workspace->byte_size = (size_t)value * element_size;
  if (parser->version < 3) {
    cursor_t peek = parser->line;
    token_t role = fusecc_take_token(&peek);
    for (size_t i = 0;
         role.text && i < sizeof(role_table) / sizeof(role_table[0]); ++i)
      if (fusecc_token_is(role, role_table[i].name))
        return fusecc_parse_error(
            parser, "workspace role %s needs bundle format version 3",
            fusecc_quote_token(role, quoted));
    return fusecc_expect_line_end(parser, "the workspace element count");
  }
  token_t role = fusecc_take_token(&parser->line);
  size_t r = 0;
  while (r < sizeof(role_table) / sizeof(role_table[0]) &&
         !fusecc_token_is(role, role_table[r].name))
    ++r;
  if (r == sizeof(role_table) / sizeof(role_table[0]))
    return fusecc_parse_error(
        parser,
        "expected workspace role 'scratch', 'intermediate', "
        "'partials' or 'prepared', got %s",
        fusecc_quote_token(role, quoted));
  workspace->role = role_table[r].role;
  return fusecc_expect_line_end(parser, "the workspace role");
}

/// Parses the rest of a `launch` record into `launch` of `entry`.
static fusecc_status_t parse_launch(parser_t *parser, fusecc_entry_t *entry,
                                    fusecc_launch_t *launch) {
  fusecc_status_t status;
  uint64_t value;
  token_t token = fusecc_take_token(&parser->line);
  if (!token.text)
    return fusecc_parse_error(parser,
                              "expected a kernel name, got end of line");
  if (!(launch->kernel_name = fusecc_copy_token(token)))
    return fusecc_parse_out_of_memory();

  if ((status = fusecc_expect_word(parser, "grid", "after the kernel name")))
    return status;
  for (int i = 0; i < 3; ++i) {
    // Format version 4: grid z `b`, one block row per sample.
    cursor_t peek = parser->line;
    if (i == 2 && fusecc_token_is(fusecc_take_token(&peek), "b")) {
      if (!entry->max_batch)
        return fusecc_parse_error(parser,
                                  "grid z 'b' but entry '%s' has no "
                                  "'max_batch'",
                                  entry->name);
      parser->line = peek;
      launch->per_sample = 1;
      launch->grid[i] = 1;
      continue;
    }
    if ((status =
             fusecc_expect_uint(parser, "grid size", 1, UINT32_MAX, &value)))
      return status;
    launch->grid[i] = (uint32_t)value;
  }
  if ((status = fusecc_expect_word(parser, "block", "after the grid size")))
    return status;
  uint64_t threads = 1;
  for (int i = 0; i < 3; ++i) {
    if ((status = fusecc_expect_uint(parser, "block size", 1, 1024, &value)))
      return status;
    launch->block[i] = (uint32_t)value;
    threads *= value;
  }
  if (threads > 1024)
    return fusecc_parse_error(parser, "block of %llu threads exceeds 1024",
                              (unsigned long long)threads);
  if ((status = fusecc_expect_word(parser, "smem", "after the block size")))
    return status;
  if ((status = fusecc_expect_uint(parser, "smem bytes", 0,
                                   FUSECC_MAX_SMEM_BYTES, &value)))
    return status;
  launch->smem_bytes = (uint32_t)value;
  if ((status = fusecc_expect_word(parser, "params", "after the smem bytes")))
    return status;
  if ((status = fusecc_expect_uint(parser, "param count", 0, FUSECC_MAX_PARAMS,
                                   &value)))
    return status;
  launch->param_count = (size_t)value;
  launch->param_args =
      calloc(launch->param_count ? launch->param_count : 1, sizeof(size_t));
  if (!launch->param_args)
    return fusecc_parse_out_of_memory();
  char quoted[64];
  for (size_t j = 0; j < launch->param_count; ++j) {
    cursor_t peek = parser->line;
    token = fusecc_take_token(&peek);
    if (token.text && token.text[0] == 'w') {
      if (parser->version < 2)
        return fusecc_parse_error(
            parser,
            "workspace param %s is not supported by bundle "
            "format version 1",
            fusecc_quote_token(token, quoted));
      parser->line = peek;
      if ((status = fusecc_parse_prefixed_index(
               parser, token, "workspace param index", &value)))
        return status;
      if (value >= entry->workspace_count)
        return fusecc_parse_error(
            parser,
            "param %zu names workspace %llu but entry '%s' has "
            "%zu workspaces",
            j, (unsigned long long)value, entry->name, entry->workspace_count);
      launch->param_args[j] = entry->arg_count + (size_t)value;
      continue;
    }
    if (token.text && token.text[0] == 'c') {
      if (parser->version < 3)
        return fusecc_parse_error(
            parser,
            "constant param %s is not supported by bundle "
            "format version %llu",
            fusecc_quote_token(token, quoted),
            (unsigned long long)parser->version);
      parser->line = peek;
      if ((status = fusecc_parse_prefixed_index(
               parser, token, "constant param index", &value)))
        return status;
      if (value >= parser->bundle->const_count)
        return fusecc_parse_error(
            parser,
            "param %zu names constant %llu but the bundle has "
            "%zu constants",
            j, (unsigned long long)value, parser->bundle->const_count);
      launch->param_args[j] =
          entry->arg_count + entry->workspace_count + (size_t)value;
      continue;
    }
    if ((status = fusecc_expect_uint(parser, "param arg index", 0, UINT64_MAX,
                                     &value)))
      return status;
    if (value >= entry->arg_count)
      return fusecc_parse_error(
          parser, "param %zu names arg %llu but entry '%s' has %zu args", j,
          (unsigned long long)value, entry->name, entry->arg_count);
    launch->param_args[j] = (size_t)value;
  }
  return fusecc_expect_line_end(parser, "the params");
}

/// Parses the rest of `zero w<k>` (format version 3) into *out_workspace.
static fusecc_status_t parse_zero(parser_t *parser, const fusecc_entry_t *entry,
                                  size_t *out_workspace) {
  fusecc_status_t status;
  char quoted[64];
  token_t token = fusecc_take_token(&parser->line);
  if (!token.text || token.text[0] != 'w')
    return fusecc_parse_error(
        parser, "expected a workspace 'w<k>' after 'zero', got %s",
        fusecc_quote_token(token, quoted));
  uint64_t value;
  if ((status = fusecc_parse_prefixed_index(parser, token,
                                            "zero workspace index", &value)))
    return status;
  if (value >= entry->workspace_count)
    return fusecc_parse_error(
        parser,
        "'zero' names workspace %llu but entry '%s' has %zu "
        "workspaces",
        (unsigned long long)value, entry->name, entry->workspace_count);
  *out_workspace = (size_t)value;
  return fusecc_expect_line_end(parser, "the zeroed workspace");
}

/// Appends the text after `graph ` to `entry`.
static fusecc_status_t parse_graph(parser_t *parser, fusecc_entry_t *entry) {
  if (parser->line.next >= parser->line.end)
    return fusecc_parse_error(parser, "expected graph text after 'graph'");
  if (entry->graph_line_count == entry->graph_line_capacity) {
    size_t capacity =
        entry->graph_line_capacity ? 2 * entry->graph_line_capacity : 8;
    char **lines = realloc(entry->graph_lines, capacity * sizeof(char *));
    if (!lines)
      return fusecc_parse_out_of_memory();
    entry->graph_lines = lines;
    entry->graph_line_capacity = capacity;
  }
  token_t rest = {parser->line.next,
                  (size_t)(parser->line.end - parser->line.next)};
  char *text = fusecc_copy_token(rest);
  if (!text)
    return fusecc_parse_out_of_memory();
  entry->graph_lines[entry->graph_line_count++] = text;
  return NULL;
}

/// Checks the prepare steps of a complete `entry` (`prepare <P>`): each is
/// a launch, not per sample, whose parameters are inputs that are not
/// batched, constants or `prepared` workspaces that are not per sample;
/// every `prepared` workspace is a parameter of a prepare step.
static fusecc_status_t check_prepare_steps(parser_t *parser,
                                           const fusecc_entry_t *entry) {
  size_t workspace_end = entry->arg_count + entry->workspace_count;
  for (size_t i = 0; i < entry->prepare_count; ++i) {
    const fusecc_step_t *step = &entry->steps[i];
    if (step->kind != FUSECC_STEP_LAUNCH)
      return fusecc_parse_error(parser,
                                "entry '%s': prepare step %zu is not a launch",
                                entry->name, i);
    const fusecc_launch_t *launch = &entry->launches[step->index];
    if (launch->per_sample)
      return fusecc_parse_error(
          parser, "entry '%s': prepare step %zu runs per sample", entry->name,
          i);
    for (size_t j = 0; j < launch->param_count; ++j) {
      size_t index = launch->param_args[j];
      int ok = index >= workspace_end;
      if (index < entry->arg_count)
        ok = !entry->args[index].is_output && !entry->args[index].batched;
      else if (index < workspace_end) {
        const fusecc_workspace_t *w =
            &entry->workspaces[index - entry->arg_count];
        ok = w->role == FUSECC_WORKSPACE_ROLE_PREPARED && !w->per_sample;
      }
      if (!ok)
        return fusecc_parse_error(
            parser,
            "entry '%s': prepare step %zu parameter %zu must be an input "
            "without a batch, a constant or a 'prepared' workspace",
            entry->name, i, j);
    }
  }
  for (size_t k = 0; k < entry->workspace_count; ++k) {
    if (entry->workspaces[k].role != FUSECC_WORKSPACE_ROLE_PREPARED)
      continue;
    int written = 0;
    for (size_t i = 0; i < entry->prepare_count && !written; ++i) {
      const fusecc_launch_t *launch = &entry->launches[entry->steps[i].index];
      for (size_t j = 0; j < launch->param_count; ++j)
        written |= launch->param_args[j] == entry->arg_count + k;
    }
    if (!written)
      return fusecc_parse_error(parser,
                                "entry '%s': 'prepared' workspace %zu is no "
                                "parameter of a prepare step",
                                entry->name, k);
  }
  return NULL;
}

/// Parses the count after `entry <name> args <A> [workspaces <W>]`:
/// `launches <L>` in versions 1 and 2, `steps <S>` in version 3.
static fusecc_status_t parse_step_count(parser_t *parser, const char *after,
                                        fusecc_entry_t *entry) {
  fusecc_status_t status;
  int v3 = parser->version >= 3;
  cursor_t peek = parser->line;
  token_t word = fusecc_take_token(&peek);
  if (v3 && fusecc_token_is(word, "launches"))
    return fusecc_parse_error(
        parser,
        "expected 'steps' %s, got 'launches' (the version 1 "
        "and 2 spelling)",
        after);
  if (!v3 && fusecc_token_is(word, "steps"))
    return fusecc_parse_error(parser, "'steps' in an entry header needs bundle "
                                      "format version 3");
  if (!v3 && parser->version < 2 && fusecc_token_is(word, "workspaces"))
    return fusecc_parse_error(parser,
                              "'workspaces' in an entry header needs bundle "
                              "format version 2");
  if ((status = fusecc_expect_word(parser, v3 ? "steps" : "launches", after)))
    return status;
  uint64_t value;
  if ((status = fusecc_expect_uint(parser, v3 ? "step count" : "launch count",
                                   0, FUSECC_MAX_ENTRY_ITEMS, &value)))
    return status;
  entry->step_count = (size_t)value;
  // Format version 3: `prepare <P>`, the count of leading prepare steps.
  cursor_t peek_prepare = parser->line;
  if (v3 && fusecc_token_is(fusecc_take_token(&peek_prepare), "prepare")) {
    parser->line = peek_prepare;
    if ((status = fusecc_expect_uint(parser, "prepare step count", 1,
                                     entry->step_count, &value)))
      return status;
    entry->prepare_count = (size_t)value;
  }
  // Format version 4: `max_batch <N>`, the bound of the launch-time batch.
  cursor_t peek_batch = parser->line;
  if (parser->version >= 4 &&
      fusecc_token_is(fusecc_take_token(&peek_batch), "max_batch")) {
    parser->line = peek_batch;
    if ((status = fusecc_expect_uint(parser, "max_batch", 1, FUSECC_MAX_BATCH,
                                     &value)))
      return status;
    entry->max_batch = (size_t)value;
    return fusecc_expect_line_end(parser, "the max_batch");
  }
  return fusecc_expect_line_end(parser,
                                v3 ? "the step count" : "the launch count");
}

/// Checks that every arg and workspace record of `entry` precedes the step
/// record `record`, and that one more step is declared.
static fusecc_status_t check_step_position(const parser_t *parser,
                                           const fusecc_entry_t *entry,
                                           token_t record, size_t args_seen,
                                           size_t workspaces_seen,
                                           size_t steps_seen) {
  char quoted[64];
  const char *steps_word = parser->version >= 3 ? "steps" : "launches";
  if (args_seen < entry->arg_count)
    return fusecc_parse_error(parser,
                              "entry '%s' declares %zu args but only %zu 'arg' "
                              "records precede this %s",
                              entry->name, entry->arg_count, args_seen,
                              fusecc_quote_token(record, quoted));
  if (workspaces_seen < entry->workspace_count)
    return fusecc_parse_error(parser,
                              "entry '%s' declares %zu workspaces but only %zu "
                              "'workspace' records precede this %s",
                              entry->name, entry->workspace_count,
                              workspaces_seen,
                              fusecc_quote_token(record, quoted));
  if (steps_seen == entry->step_count)
    return fusecc_parse_error(
        parser, "entry '%s' declares %zu %s, found another %s", entry->name,
        entry->step_count, steps_word, fusecc_quote_token(record, quoted));
  if (entry->graph_line_count > 0)
    return fusecc_parse_error(
        parser, "%s after a 'graph' line in entry '%s' (%s come first)",
        fusecc_quote_token(record, quoted), entry->name, steps_word);
  return NULL;
}

/// FNV-1a over `length` bytes at `text`.
static size_t hash_name(const char *text, size_t length) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < length; ++i)
    hash = (hash ^ (unsigned char)text[i]) * 0x100000001b3ull;
  return (size_t)hash;
}

/// The slot of the name set holding `text`, or the empty slot where it goes.
static size_t *find_name_slot(const parser_t *parser, const char *text,
                              size_t length) {
  size_t mask = parser->name_capacity - 1;
  for (size_t i = hash_name(text, length) & mask;; i = (i + 1) & mask) {
    size_t *slot = &parser->name_slots[i];
    if (*slot == 0)
      return slot;
    const char *name = parser->bundle->entries[*slot - 1].name;
    if (strlen(name) == length && memcmp(name, text, length) == 0)
      return slot;
  }
}

/// Fails if an earlier entry is called `name`.
static fusecc_status_t check_entry_name(const parser_t *parser, token_t name) {
  char quoted[64];
  if (parser->name_capacity &&
      *find_name_slot(parser, name.text, name.length) != 0)
    return fusecc_parse_error(parser, "duplicate entry name %s",
                              fusecc_quote_token(name, quoted));
  return NULL;
}

/// Adds the name of entry `index` to the name set, growing it to keep it at
/// most half full.
static fusecc_status_t add_entry_name(parser_t *parser, size_t index) {
  const fusecc_entry_t *entries = parser->bundle->entries;
  if (2 * (index + 1) > parser->name_capacity) {
    size_t capacity = parser->name_capacity ? 2 * parser->name_capacity : 16;
    size_t *slots = calloc(capacity, sizeof(size_t));
    if (!slots)
      return fusecc_parse_out_of_memory();
    free(parser->name_slots);
    parser->name_slots = slots;
    parser->name_capacity = capacity;
    for (size_t i = 0; i < index; ++i)
      *find_name_slot(parser, entries[i].name, strlen(entries[i].name)) = i + 1;
  }
  *find_name_slot(parser, entries[index].name, strlen(entries[index].name)) =
      index + 1;
  return NULL;
}

/// See parser.h.
fusecc_status_t fusecc_parse_entry(parser_t *parser) {
  fusecc_bundle_t bundle = parser->bundle;
  fusecc_status_t status;
  char quoted[64];
  token_t name = fusecc_take_token(&parser->line);
  if (!name.text)
    return fusecc_parse_error(parser,
                              "expected an entry name, got end of line");
  if ((status = check_entry_name(parser, name)))
    return status;
  if (bundle->entry_count == bundle->entry_capacity) {
    size_t capacity = bundle->entry_capacity ? 2 * bundle->entry_capacity : 4;
    fusecc_entry_t *entries =
        realloc(bundle->entries, capacity * sizeof(fusecc_entry_t));
    if (!entries)
      return fusecc_parse_out_of_memory();
    bundle->entries = entries;
    bundle->entry_capacity = capacity;
  }
  fusecc_entry_t *entry = &bundle->entries[bundle->entry_count++];
  memset(entry, 0, sizeof(*entry));
  if (!(entry->name = fusecc_copy_token(name)))
    return fusecc_parse_out_of_memory();
  if ((status = add_entry_name(parser, bundle->entry_count - 1)))
    return status;

  uint64_t value;
  if ((status = fusecc_expect_word(parser, "args", "after the entry name")))
    return status;
  if ((status = fusecc_expect_uint(parser, "arg count", 0,
                                   FUSECC_MAX_ENTRY_ITEMS, &value)))
    return status;
  entry->arg_count = (size_t)value;
  if (parser->version >= 2) {
    if ((status =
             fusecc_expect_word(parser, "workspaces", "after the arg count")))
      return status;
    if ((status = fusecc_expect_uint(parser, "workspace count", 0,
                                     FUSECC_MAX_ENTRY_ITEMS, &value)))
      return status;
    entry->workspace_count = (size_t)value;
    status = parse_step_count(parser, "after the workspace count", entry);
  } else {
    status = parse_step_count(parser, "after the arg count", entry);
  }
  if (status)
    return status;
  const char *steps_word = parser->version >= 3 ? "steps" : "launches";
  // Each count is at most FUSECC_MAX_ENTRY_ITEMS, so no product overflows.
  entry->args =
      calloc(entry->arg_count ? entry->arg_count : 1, sizeof(fusecc_arg_t));
  entry->workspaces =
      calloc(entry->workspace_count ? entry->workspace_count : 1,
             sizeof(fusecc_workspace_t));
  entry->launches = calloc(entry->step_count ? entry->step_count : 1,
                           sizeof(fusecc_launch_t));
  entry->steps =
      calloc(entry->step_count ? entry->step_count : 1, sizeof(fusecc_step_t));
  if (!entry->args || !entry->workspaces || !entry->launches || !entry->steps)
    return fusecc_parse_out_of_memory();

  size_t start_line = parser->line_number;
  size_t args_seen = 0, workspaces_seen = 0, steps_seen = 0;
  for (;;) {
    if (!fusecc_next_line(parser, &status)) {
      if (status)
        return status;
      return fusecc_parse_error(
          parser,
          "unexpected end of data in entry '%s' (started on "
          "line %zu): expected 'end'",
          entry->name, start_line);
    }
    token_t record = fusecc_take_token(&parser->line);
    if (fusecc_token_is(record, "arg")) {
      if (args_seen == entry->arg_count)
        return fusecc_parse_error(
            parser, "entry '%s' declares %zu args, found another 'arg'",
            entry->name, entry->arg_count);
      if ((status = parse_arg(parser, entry, args_seen++)))
        return status;
    } else if (fusecc_token_is(record, "workspace")) {
      if (parser->version < 2)
        return fusecc_parse_error(parser,
                                  "'workspace' record needs bundle format "
                                  "version 2");
      if (args_seen < entry->arg_count)
        return fusecc_parse_error(
            parser,
            "entry '%s' declares %zu args but only %zu 'arg' "
            "records precede this 'workspace'",
            entry->name, entry->arg_count, args_seen);
      if (workspaces_seen == entry->workspace_count)
        return fusecc_parse_error(
            parser,
            "entry '%s' declares %zu workspaces, found another 'workspace'",
            entry->name, entry->workspace_count);
      if ((status = parse_workspace(parser, entry, workspaces_seen++)))
        return status;
    } else if (fusecc_token_is(record, "launch") ||
               fusecc_token_is(record, "zero")) {
      int is_zero = record.text[0] == 'z';
      if (is_zero && parser->version < 3)
        return fusecc_parse_error(parser,
                                  "'zero' step needs bundle format version 3");
      if ((status = check_step_position(parser, entry, record, args_seen,
                                        workspaces_seen, steps_seen)))
        return status;
      fusecc_step_t *step = &entry->steps[steps_seen++];
      if (is_zero) {
        step->kind = FUSECC_STEP_ZERO;
        status = parse_zero(parser, entry, &step->index);
      } else {
        step->kind = FUSECC_STEP_LAUNCH;
        step->index = entry->launch_count;
        status = parse_launch(parser, entry,
                              &entry->launches[entry->launch_count++]);
      }
      if (status)
        return status;
    } else if (fusecc_token_is(record, "graph")) {
      if (args_seen < entry->arg_count || steps_seen < entry->step_count)
        return fusecc_parse_error(
            parser,
            "'graph' line in entry '%s' before its %zu args and "
            "%zu %s (found %zu and %zu)",
            entry->name, entry->arg_count, entry->step_count, steps_word,
            args_seen, steps_seen);
      if (workspaces_seen < entry->workspace_count)
        return fusecc_parse_error(parser,
                                  "'graph' line in entry '%s' before its %zu "
                                  "workspaces (found %zu)",
                                  entry->name, entry->workspace_count,
                                  workspaces_seen);
      if ((status = parse_graph(parser, entry)))
        return status;
    } else if (fusecc_token_is(record, "end")) {
      if ((status = fusecc_expect_line_end(parser, "'end'")))
        return status;
      if (args_seen < entry->arg_count)
        return fusecc_parse_error(parser,
                                  "entry '%s' declares %zu args but has %zu",
                                  entry->name, entry->arg_count, args_seen);
      if (workspaces_seen < entry->workspace_count)
        return fusecc_parse_error(
            parser, "entry '%s' declares %zu workspaces but has %zu",
            entry->name, entry->workspace_count, workspaces_seen);
      if (steps_seen < entry->step_count)
        return fusecc_parse_error(
            parser, "entry '%s' declares %zu %s but has %zu", entry->name,
            entry->step_count, steps_word, steps_seen);
      return check_prepare_steps(parser, entry);
    } else if (fusecc_token_is(record, "entry") ||
               fusecc_token_is(record, "ptx") ||
               fusecc_token_is(record, "chip") ||
               fusecc_token_is(record, "precision") ||
               fusecc_token_is(record, "const")) {
      return fusecc_parse_error(
          parser,
          "missing 'end' for entry '%s' (started on line %zu) "
          "before %s",
          entry->name, start_line, fusecc_quote_token(record, quoted));
    } else {
      return fusecc_parse_error(parser, "unknown record %s in entry '%s'",
                                fusecc_quote_token(record, quoted),
                                entry->name);
    }
  }
}
