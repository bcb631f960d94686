/*===- bundle_query.c - fusecc bundle introspection ---------------*- C -*-===//
 *
 * The read-only queries over a parsed bundle (entries, args, workspaces,
 * steps, launches, constants, graph lines) and the argument checks that
 * fusecc_module_launch runs before launching.
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdint.h>
#include <string.h>

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

fusecc_status_t fusecc_bundle_output_count(fusecc_bundle_t bundle,
                                           size_t entry_index,
                                           size_t *out_count) {
  const fusecc_entry_t *entry = NULL;
  fusecc_status_t status = lookup_entry(bundle, entry_index, out_count,
                                        "fusecc_bundle_output_count", &entry);
  if (status)
    return status;
  *out_count = entry->arg_count - entry->input_count;
  return NULL;
}

fusecc_status_t fusecc_bundle_output_info(fusecc_bundle_t bundle,
                                          size_t entry_index,
                                          size_t output_index,
                                          fusecc_arg_info_t *out_info) {
  const fusecc_entry_t *entry = NULL;
  fusecc_status_t status = lookup_entry(bundle, entry_index, out_info,
                                        "fusecc_bundle_output_info", &entry);
  if (status)
    return status;
  size_t output_count = entry->arg_count - entry->input_count;
  if (output_index >= output_count)
    return fusecc_make_status(FUSECC_STATUS_OUT_OF_RANGE,
                              "fusecc_bundle_output_info: output index %zu out "
                              "of range (entry '%s' has %zu outputs)",
                              output_index, entry->name, output_count);
  return fusecc_bundle_arg_info(bundle, entry_index,
                                entry->input_count + output_index, out_info);
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

fusecc_status_t fusecc_bundle_format_version(fusecc_bundle_t bundle,
                                             uint32_t *out_version) {
  if (!bundle || !out_version)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "fusecc_bundle_format_version: %s is NULL",
                              bundle ? "out_version" : "bundle");
  *out_version = bundle->format_version;
  return NULL;
}

fusecc_status_t
fusecc_bundle_workspace_role(fusecc_bundle_t bundle, size_t entry_index,
                             size_t workspace_index,
                             fusecc_workspace_role_t *out_role) {
  const fusecc_entry_t *entry = NULL;
  fusecc_status_t status = lookup_entry(bundle, entry_index, out_role,
                                        "fusecc_bundle_workspace_role", &entry);
  if (status)
    return status;
  if (workspace_index >= entry->workspace_count)
    return fusecc_make_status(FUSECC_STATUS_OUT_OF_RANGE,
                              "fusecc_bundle_workspace_role: workspace index "
                              "%zu out of range (entry '%s' has %zu "
                              "workspaces)",
                              workspace_index, entry->name,
                              entry->workspace_count);
  *out_role = entry->workspaces[workspace_index].role;
  return NULL;
}

fusecc_status_t fusecc_bundle_step_count(fusecc_bundle_t bundle,
                                         size_t entry_index,
                                         size_t *out_count) {
  const fusecc_entry_t *entry = NULL;
  fusecc_status_t status = lookup_entry(bundle, entry_index, out_count,
                                        "fusecc_bundle_step_count", &entry);
  if (status)
    return status;
  *out_count = entry->step_count;
  return NULL;
}

fusecc_status_t fusecc_bundle_step_info(fusecc_bundle_t bundle,
                                        size_t entry_index, size_t step_index,
                                        fusecc_step_info_t *out_info) {
  const fusecc_entry_t *entry = NULL;
  fusecc_status_t status = lookup_entry(bundle, entry_index, out_info,
                                        "fusecc_bundle_step_info", &entry);
  if (status)
    return status;
  if (step_index >= entry->step_count)
    return fusecc_make_status(FUSECC_STATUS_OUT_OF_RANGE,
                              "fusecc_bundle_step_info: step index %zu out of "
                              "range (entry '%s' has %zu steps)",
                              step_index, entry->name, entry->step_count);
  const fusecc_step_t *step = &entry->steps[step_index];
  memset(out_info, 0, sizeof(*out_info));
  out_info->kind = step->kind;
  out_info->launch_index =
      step->kind == FUSECC_STEP_LAUNCH ? step->index : SIZE_MAX;
  out_info->workspace_index =
      step->kind == FUSECC_STEP_ZERO ? step->index : SIZE_MAX;
  return NULL;
}

fusecc_status_t fusecc_bundle_launch_param(fusecc_bundle_t bundle,
                                           size_t entry_index,
                                           size_t launch_index,
                                           size_t param_index,
                                           fusecc_param_info_t *out_info) {
  const fusecc_entry_t *entry = NULL;
  fusecc_status_t status = lookup_entry(bundle, entry_index, out_info,
                                        "fusecc_bundle_launch_param", &entry);
  if (status)
    return status;
  if (launch_index >= entry->launch_count)
    return fusecc_make_status(FUSECC_STATUS_OUT_OF_RANGE,
                              "fusecc_bundle_launch_param: launch index %zu "
                              "out of range (entry '%s' has %zu launches)",
                              launch_index, entry->name, entry->launch_count);
  const fusecc_launch_t *launch = &entry->launches[launch_index];
  if (param_index >= launch->param_count)
    return fusecc_make_status(FUSECC_STATUS_OUT_OF_RANGE,
                              "fusecc_bundle_launch_param: param index %zu out "
                              "of range (launch %zu of entry '%s' has %zu "
                              "params)",
                              param_index, launch_index, entry->name,
                              launch->param_count);
  size_t value = launch->param_args[param_index];
  memset(out_info, 0, sizeof(*out_info));
  if (value < entry->arg_count) {
    out_info->kind = FUSECC_PARAM_ARG;
    out_info->index = value;
  } else if (value - entry->arg_count < entry->workspace_count) {
    out_info->kind = FUSECC_PARAM_WORKSPACE;
    out_info->index = value - entry->arg_count;
  } else {
    out_info->kind = FUSECC_PARAM_CONST;
    out_info->index = value - entry->arg_count - entry->workspace_count;
  }
  return NULL;
}

fusecc_status_t fusecc_bundle_const_count(fusecc_bundle_t bundle,
                                          size_t *out_count) {
  if (!bundle || !out_count)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "fusecc_bundle_const_count: %s is NULL",
                              bundle ? "out_count" : "bundle");
  *out_count = bundle->const_count;
  return NULL;
}

/// Checks `bundle`, `out` and `const_index`; sets *out_const.
static fusecc_status_t lookup_const(fusecc_bundle_t bundle, size_t const_index,
                                    const void *out, const char *function,
                                    const fusecc_const_t **out_const) {
  if (!bundle || !out)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT, "%s: %s is NULL",
                              function, bundle ? "output pointer" : "bundle");
  if (const_index >= bundle->const_count)
    return fusecc_make_status(FUSECC_STATUS_OUT_OF_RANGE,
                              "%s: const index %zu out of range (bundle has "
                              "%zu constants)",
                              function, const_index, bundle->const_count);
  *out_const = &bundle->consts[const_index];
  return NULL;
}

fusecc_status_t fusecc_bundle_const_info(fusecc_bundle_t bundle,
                                         size_t const_index,
                                         fusecc_const_info_t *out_info) {
  const fusecc_const_t *constant = NULL;
  fusecc_status_t status = lookup_const(bundle, const_index, out_info,
                                        "fusecc_bundle_const_info", &constant);
  if (status)
    return status;
  memset(out_info, 0, sizeof(*out_info));
  out_info->index = const_index;
  out_info->name = constant->name;
  out_info->dtype = constant->dtype;
  out_info->dtype_name = fusecc_dtype_name(constant->dtype);
  out_info->rank = constant->rank;
  memcpy(out_info->dims, constant->dims, sizeof(constant->dims));
  out_info->element_count = constant->element_count;
  out_info->byte_size = constant->byte_size;
  out_info->data_offset = constant->offset;
  return NULL;
}

fusecc_status_t fusecc_bundle_const_data(fusecc_bundle_t bundle,
                                         size_t const_index,
                                         const void **out_data) {
  const fusecc_const_t *constant = NULL;
  fusecc_status_t status = lookup_const(bundle, const_index, out_data,
                                        "fusecc_bundle_const_data", &constant);
  if (status)
    return status;
  // The parser checked that the constant lies inside the data section.
  *out_data = bundle->data + constant->offset;
  return NULL;
}

fusecc_status_t fusecc_check_batch(const fusecc_entry_t *entry, size_t batch) {
  if (!entry->max_batch) {
    if (batch != 0)
      return fusecc_make_status(
          FUSECC_STATUS_INVALID_ARGUMENT,
          "entry '%s' has static shapes (no launch-time batch); pass batch 0, "
          "got %zu",
          entry->name, batch);
    return NULL;
  }
  if (batch < 1 || batch > entry->max_batch)
    return fusecc_make_status(
        FUSECC_STATUS_OUT_OF_RANGE,
        "entry '%s': batch %zu is outside the range it was compiled for "
        "(1 to %zu, the --max-batch bound)",
        entry->name, batch, entry->max_batch);
  for (size_t k = 0; k < entry->workspace_count; ++k)
    if (fusecc_workspace_bytes(&entry->workspaces[k], batch) == SIZE_MAX)
      return fusecc_make_status(FUSECC_STATUS_OUT_OF_RANGE,
                                "entry '%s' workspace %zu: byte size at batch "
                                "%zu overflows",
                                entry->name, k, batch);
  for (size_t i = 0; i < entry->arg_count; ++i)
    if (fusecc_arg_bytes(&entry->args[i], batch) == SIZE_MAX)
      return fusecc_make_status(FUSECC_STATUS_OUT_OF_RANGE,
                                "entry '%s' arg %zu: byte size at batch %zu "
                                "overflows",
                                entry->name, i, batch);
  return NULL;
}

fusecc_status_t fusecc_bundle_entry_max_batch(fusecc_bundle_t bundle,
                                              size_t entry_index,
                                              size_t *out_max_batch) {
  const fusecc_entry_t *entry = NULL;
  fusecc_status_t status =
      lookup_entry(bundle, entry_index, out_max_batch,
                   "fusecc_bundle_entry_max_batch", &entry);
  if (status)
    return status;
  *out_max_batch = entry->max_batch;
  return NULL;
}

fusecc_status_t fusecc_bundle_arg_batched(fusecc_bundle_t bundle,
                                          size_t entry_index, size_t arg_index,
                                          int *out_batched) {
  const fusecc_entry_t *entry = NULL;
  fusecc_status_t status = lookup_entry(
      bundle, entry_index, out_batched, "fusecc_bundle_arg_batched", &entry);
  if (status)
    return status;
  if (arg_index >= entry->arg_count)
    return fusecc_make_status(FUSECC_STATUS_OUT_OF_RANGE,
                              "arg index %zu out of range (entry '%s' has %zu "
                              "args)",
                              arg_index, entry->name, entry->arg_count);
  *out_batched = entry->args[arg_index].batched;
  return NULL;
}

fusecc_status_t fusecc_bundle_batch_of_shapes(fusecc_bundle_t bundle,
                                              size_t entry_index,
                                              const size_t *ranks,
                                              const int64_t *const *shapes,
                                              size_t arg_count,
                                              size_t *out_batch) {
  const fusecc_entry_t *entry = NULL;
  fusecc_status_t status = lookup_entry(
      bundle, entry_index, out_batch, "fusecc_bundle_batch_of_shapes", &entry);
  if (status)
    return status;
  if (arg_count != entry->arg_count)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "entry '%s' takes %zu args, got %zu shapes",
                              entry->name, entry->arg_count, arg_count);
  if (arg_count && (!ranks || !shapes))
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "fusecc_bundle_batch_of_shapes: NULL pointer");
  // The batch: dim 0 of the first batched argument; every other dim, and
  // every argument without the batch, as compiled.
  size_t batch = 0;
  for (size_t i = 0; i < arg_count; ++i) {
    const fusecc_arg_t *arg = &entry->args[i];
    if (ranks[i] != arg->rank || (arg->rank && !shapes[i]))
      return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                                "entry '%s' arg %zu '%s': expected rank %zu, "
                                "got %zu",
                                entry->name, i, arg->name, arg->rank, ranks[i]);
    for (size_t d = 0; d < arg->rank; ++d) {
      int64_t got = shapes[i][d];
      if (d == 0 && arg->batched) {
        if (got < 1 || (uint64_t)got > entry->max_batch)
          return fusecc_make_status(
              FUSECC_STATUS_OUT_OF_RANGE,
              "entry '%s' arg %zu '%s': batch %lld is outside the range it "
              "was compiled for (1 to %zu, the --max-batch bound)",
              entry->name, i, arg->name, (long long)got, entry->max_batch);
        if (batch && (size_t)got != batch)
          return fusecc_make_status(
              FUSECC_STATUS_INVALID_ARGUMENT,
              "entry '%s' arg %zu '%s': batch %lld differs from the batch "
              "%zu of an earlier argument",
              entry->name, i, arg->name, (long long)got, batch);
        batch = (size_t)got;
        continue;
      }
      if (got != arg->dims[d])
        return fusecc_make_status(
            FUSECC_STATUS_INVALID_ARGUMENT,
            "entry '%s' arg %zu '%s': dim %zu is %lld, expected %lld%s",
            entry->name, i, arg->name, d, (long long)got,
            (long long)arg->dims[d],
            entry->max_batch ? " (only the batch dim 0 of batched "
                               "arguments may vary)"
                             : " (the entry has static shapes)");
    }
  }
  if (entry->max_batch && !batch)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "entry '%s' has a launch-time batch but no "
                              "batched argument",
                              entry->name);
  *out_batch = batch;
  return NULL;
}

fusecc_status_t fusecc_bundle_validate_args(fusecc_bundle_t bundle,
                                            size_t entry_index,
                                            const fusecc_buffer_t *args,
                                            size_t arg_count) {
  return fusecc_bundle_validate_args_batch(bundle, entry_index, 0, args,
                                           arg_count);
}

fusecc_status_t fusecc_bundle_validate_args_batch(fusecc_bundle_t bundle,
                                                  size_t entry_index,
                                                  size_t batch,
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
  fusecc_status_t status =
      fusecc_check_batch(&bundle->entries[entry_index], batch);
  if (status)
    return status;
  return fusecc_validate_args_at(bundle, entry_index, batch, args, arg_count);
}

fusecc_status_t fusecc_validate_args_at(fusecc_bundle_t bundle,
                                        size_t entry_index, size_t batch,
                                        const fusecc_buffer_t *args,
                                        size_t arg_count) {
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
    size_t bytes = fusecc_arg_bytes(arg, batch);
    if (args[i].size_bytes != bytes)
      return fusecc_make_status(
          FUSECC_STATUS_INVALID_ARGUMENT,
          "entry '%s' arg %zu '%s': expected a buffer "
          "of %zu bytes (%zu x %s%s), got %zu bytes",
          entry->name, i, arg->name, bytes,
          bytes / fusecc_dtype_size(arg->dtype), fusecc_dtype_name(arg->dtype),
          arg->batched && batch ? " at the call's batch" : "",
          args[i].size_bytes);
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
    // size_bytes >= 1 here (every argument has at least one element).
    if (args[i].size_bytes - 1 > UINT64_MAX - (uint64_t)args[i].ptr)
      return fusecc_make_status(
          FUSECC_STATUS_INVALID_ARGUMENT,
          "entry '%s' arg %zu '%s': buffer of %zu bytes at 0x%llx runs past "
          "the end of the 64-bit address space",
          entry->name, i, arg->name, args[i].size_bytes,
          (unsigned long long)args[i].ptr);
  }
  // Kernels assume their buffers do not overlap (their pointer parameters
  // are `noalias`): an output may share memory with no other argument. The
  // test never forms an end address, so it cannot wrap (a buffer running
  // past 2^64 was rejected above).
  for (size_t i = 0; i < arg_count; ++i) {
    if (!entry->args[i].is_output)
      continue;
    for (size_t j = 0; j < arg_count; ++j) {
      if (j == i)
        continue;
      if (fusecc_ranges_overlap(args[i].ptr, args[i].size_bytes, args[j].ptr,
                                args[j].size_bytes))
        return fusecc_make_status(
            FUSECC_STATUS_INVALID_ARGUMENT,
            "entry '%s' arg %zu '%s' (output) overlaps arg %zu '%s': "
            "outputs must not share memory with other arguments",
            entry->name, i, entry->args[i].name, j, entry->args[j].name);
    }
  }
  return NULL;
}

fusecc_status_t fusecc_bundle_entry_prepare_steps(fusecc_bundle_t bundle,
                                                  size_t entry_index,
                                                  size_t *out_count) {
  const fusecc_entry_t *entry = NULL;
  fusecc_status_t status =
      lookup_entry(bundle, entry_index, out_count,
                   "fusecc_bundle_entry_prepare_steps", &entry);
  if (status)
    return status;
  *out_count = entry->prepare_count;
  return NULL;
}

fusecc_status_t fusecc_bundle_arg_prepared(fusecc_bundle_t bundle,
                                           size_t entry_index, size_t arg_index,
                                           int *out_read) {
  const fusecc_entry_t *entry = NULL;
  fusecc_status_t status = lookup_entry(bundle, entry_index, out_read,
                                        "fusecc_bundle_arg_prepared", &entry);
  if (status)
    return status;
  if (arg_index >= entry->arg_count)
    return fusecc_make_status(FUSECC_STATUS_OUT_OF_RANGE,
                              "arg index %zu out of range (entry '%s' has %zu "
                              "args)",
                              arg_index, entry->name, entry->arg_count);
  int read = 0;
  for (size_t i = 0; i < entry->prepare_count && !read; ++i) {
    const fusecc_launch_t *launch = &entry->launches[entry->steps[i].index];
    for (size_t j = 0; j < launch->param_count; ++j)
      read |= launch->param_args[j] == arg_index;
  }
  *out_read = read;
  return NULL;
}
