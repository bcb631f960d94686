/*===- fusecc-run.c - Inspect (and load) a fusecc bundle ----------*- C -*-===//
 *
 * Usage: fusecc-run [--load] bundle.fcb
 *
 * Prints the bundle's format version, chip, precision, constants, entries,
 * args, workspaces (with their roles), steps (launches and zeroings, in
 * order) and graph lines (a launch param `wK` is workspace K, `cK` constant
 * K). With --load, also loads
 *its PTX into the current (or device 0's primary) CUDA context and reports the
 *result; without it no GPU is needed. Exits 0 on success, 1 on any error, 2 on
 *bad usage.
 *
 *===----------------------------------------------------------------------===*/

#include "fusecc/runtime.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/// Prints `status` to stderr prefixed with `what`, frees it; returns 1.
static int report(fusecc_status_t status, const char *what) {
  fprintf(stderr, "fusecc-run: %s: %s: %s\n", what,
          fusecc_status_code_name(fusecc_status_code(status)),
          fusecc_status_message(status));
  fusecc_status_free(status);
  return 1;
}

/// Prints the module-level constants (format version 3).
static fusecc_status_t print_consts(fusecc_bundle_t bundle) {
  size_t count = 0;
  fusecc_status_t status = fusecc_bundle_const_count(bundle, &count);
  for (size_t k = 0; k < count && !status; ++k) {
    fusecc_const_info_t info;
    if ((status = fusecc_bundle_const_info(bundle, k, &info)))
      break;
    printf("const c%zu %s %s[", k, info.name, info.dtype_name);
    for (size_t d = 0; d < info.rank; ++d)
      printf("%s%lld", d ? "x" : "", (long long)info.dims[d]);
    printf("] %zu bytes at data offset %llu\n", info.byte_size,
           (unsigned long long)info.data_offset);
  }
  return status;
}

/// Prints every record of entry `e`.
static fusecc_status_t print_entry(fusecc_bundle_t bundle, size_t e) {
  fusecc_entry_info_t entry;
  fusecc_status_t status = fusecc_bundle_entry_info(bundle, e, &entry);
  if (status)
    return status;
  size_t steps = 0;
  if ((status = fusecc_bundle_step_count(bundle, e, &steps)))
    return status;
  printf("entry %s args %zu launches %zu steps %zu workspaces %zu\n",
         entry.name, entry.arg_count, entry.launch_count, steps,
         entry.workspace_count);
  // A launch-time batch (format version 4): sizes below are one sample's.
  size_t max_batch = 0;
  if ((status = fusecc_bundle_entry_max_batch(bundle, e, &max_batch)))
    return status;
  if (max_batch)
    printf("  max_batch %zu (batched args' dim 0 and per-sample sizes are "
           "one sample's)\n",
           max_batch);
  for (size_t a = 0; a < entry.arg_count; ++a) {
    fusecc_arg_info_t arg;
    if ((status = fusecc_bundle_arg_info(bundle, e, a, &arg)))
      return status;
    printf("  arg %zu %s %s %s[", arg.index, arg.is_output ? "out" : "in",
           arg.name, arg.dtype_name);
    for (size_t d = 0; d < arg.rank; ++d)
      printf("%s%lld", d ? "x" : "", (long long)arg.dims[d]);
    printf("] %zu bytes\n", arg.byte_size);
  }
  for (size_t k = 0; k < entry.workspace_count; ++k) {
    fusecc_workspace_info_t workspace;
    if ((status = fusecc_bundle_workspace_info(bundle, e, k, &workspace)))
      return status;
    fusecc_workspace_role_t role;
    if ((status = fusecc_bundle_workspace_role(bundle, e, k, &role)))
      return status;
    printf("  workspace w%zu %s[%zu] %zu bytes%s%s\n", k,
           fusecc_dtype_name(workspace.dtype), workspace.element_count,
           workspace.byte_size,
           role == FUSECC_WORKSPACE_ROLE_UNSPECIFIED ? "" : " ",
           role == FUSECC_WORKSPACE_ROLE_UNSPECIFIED
               ? ""
               : fusecc_workspace_role_name(role));
  }
  size_t step_count = 0;
  if ((status = fusecc_bundle_step_count(bundle, e, &step_count)))
    return status;
  for (size_t i = 0; i < step_count; ++i) {
    fusecc_step_info_t step;
    if ((status = fusecc_bundle_step_info(bundle, e, i, &step)))
      return status;
    if (step.kind == FUSECC_STEP_ZERO) {
      printf("  zero w%zu\n", step.workspace_index);
      continue;
    }
    fusecc_launch_info_t launch;
    if ((status =
             fusecc_bundle_launch_info(bundle, e, step.launch_index, &launch)))
      return status;
    printf("  launch %s grid %ux%ux%u block %ux%ux%u smem %u params",
           launch.kernel_name, launch.grid[0], launch.grid[1], launch.grid[2],
           launch.block[0], launch.block[1], launch.block[2],
           launch.smem_bytes);
    for (size_t p = 0; p < launch.param_count; ++p) {
      fusecc_param_info_t param;
      if ((status = fusecc_bundle_launch_param(bundle, e, step.launch_index, p,
                                               &param)))
        return status;
      printf(" %s%zu",
             param.kind == FUSECC_PARAM_WORKSPACE ? "w"
             : param.kind == FUSECC_PARAM_CONST   ? "c"
                                                  : "",
             param.index);
    }
    printf("\n");
  }
  for (size_t g = 0; g < entry.graph_line_count; ++g) {
    const char *text;
    if ((status = fusecc_bundle_graph_line(bundle, e, g, &text)))
      return status;
    printf("  graph %s\n", text);
  }
  return NULL;
}

int main(int argc, char **argv) {
  int load = 0;
  const char *path = NULL;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--load") == 0) {
      load = 1;
    } else if (!path && argv[i][0] != '-') {
      path = argv[i];
    } else {
      path = NULL;
      break;
    }
  }
  if (!path) {
    fprintf(stderr, "usage: fusecc-run [--load] bundle.fcb\n");
    return 2;
  }

  fusecc_bundle_t bundle;
  fusecc_status_t status = fusecc_bundle_load_file(path, &bundle);
  if (status)
    return report(status, "parsing");
  size_t ptx_size;
  fusecc_bundle_ptx(bundle, &ptx_size);
  printf("bundle %s: chip %s, precision %s, %zu entries, PTX %zu bytes\n", path,
         fusecc_bundle_chip(bundle),
         fusecc_precision_name(fusecc_bundle_precision(bundle)),
         fusecc_bundle_entry_count(bundle), ptx_size);
  uint32_t version = 0;
  int exit_code = 0;
  if ((status = fusecc_bundle_format_version(bundle, &version)))
    exit_code = report(status, "reading the format version");
  else
    printf("format version %u\n", (unsigned)version);
  if (!exit_code && (status = print_consts(bundle)))
    exit_code = report(status, "reading constants");
  for (size_t e = 0; e < fusecc_bundle_entry_count(bundle) && !exit_code; ++e)
    if ((status = print_entry(bundle, e)))
      exit_code = report(status, "reading entries");

  if (load && !exit_code) {
    fusecc_module_t module;
    if ((status = fusecc_module_load(bundle, &module))) {
      exit_code = report(status, "loading the module");
    } else {
      printf("module loaded: all kernels resolved\n");
      fusecc_module_release(module);
    }
  }
  fusecc_bundle_release(bundle);
  return exit_code;
}
