/*===- launch_pointers.c - Launches from bare device pointers -----*- C -*-===//
 *
 * fusecc_module_launch_pointers[_batch] and fusecc_module_launch_packed: the
 * launch calls of bindings that checked shapes and dtypes themselves (one
 * foreign call per launch, no buffer structs to build). They fill the
 * buffers' sizes from the manifest, bind the module's context when another
 * one is current, and call fusecc_module_launch_batch.
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdlib.h>

fusecc_status_t fusecc_module_launch_pointers(fusecc_module_t module,
                                              size_t entry_index,
                                              const uint64_t *pointers,
                                              size_t pointer_count,
                                              CUstream stream) {
  fusecc_status_t status = fusecc_batch_required(
      module, entry_index, "fusecc_module_launch_pointers_batch");
  if (status)
    return status;
  return fusecc_module_launch_pointers_batch(module, entry_index, 0, pointers,
                                             pointer_count, stream);
}

fusecc_status_t
fusecc_module_launch_pointers_batch(fusecc_module_t module, size_t entry_index,
                                    size_t batch, const uint64_t *pointers,
                                    size_t pointer_count, CUstream stream) {
  if (!module)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "fusecc_module_launch_pointers: module is NULL");
  const fusecc_bundle_t bundle = fusecc_module_bundle(module);
  if (entry_index >= bundle->entry_count)
    return fusecc_bundle_validate_args(bundle, entry_index, NULL, 0);
  const fusecc_entry_t *entry = &bundle->entries[entry_index];
  // Validation's order (fusecc_bundle_validate_args_batch): the batch, then
  // the arguments, so that a call with both wrong reports what the other
  // launch calls report.
  fusecc_status_t batch_status = fusecc_check_batch(entry, batch);
  if (batch_status)
    return batch_status;
  if (pointer_count != entry->arg_count)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "entry '%s' takes %zu args, got %zu", entry->name,
                              entry->arg_count, pointer_count);
  if (pointer_count && !pointers)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "entry '%s': pointers is NULL", entry->name);
  fusecc_buffer_t local[32];
  fusecc_buffer_t *args = local;
  if (pointer_count > sizeof(local) / sizeof(local[0])) {
    args = malloc(pointer_count * sizeof(*args));
    if (!args)
      return fusecc_make_status(FUSECC_STATUS_RESOURCE_EXHAUSTED,
                                "out of memory launching entry '%s'",
                                entry->name);
  }
  for (size_t i = 0; i < pointer_count; ++i) {
    args[i].ptr = pointers[i];
    args[i].size_bytes = fusecc_arg_bytes(&entry->args[i], batch);
  }
  // The module's context for the call, when another one (or none) is
  // current on this thread.
  const fusecc_driver_t *driver = fusecc_module_driver(module);
  CUcontext current = NULL;
  int pushed = 0;
  if (fusecc_module_context(module) &&
      (driver->cuCtxGetCurrent(&current) != CUDA_SUCCESS ||
       current != fusecc_module_context(module))) {
    CUresult result = driver->cuCtxPushCurrent(fusecc_module_context(module));
    if (result != CUDA_SUCCESS) {
      if (args != local)
        free(args);
      return fusecc_cuda_status(driver, result, "cuCtxPushCurrent");
    }
    pushed = 1;
  }
  fusecc_status_t status = fusecc_module_launch_batch(
      module, entry_index, batch, args, pointer_count, stream);
  if (pushed) {
    CUcontext popped;
    driver->cuCtxPopCurrent(&popped);
  }
  if (args != local)
    free(args);
  return status;
}

fusecc_status_t fusecc_module_launch_packed(const uint64_t *record) {
  if (!record)
    return fusecc_make_status(FUSECC_STATUS_INVALID_ARGUMENT,
                              "fusecc_module_launch_packed: record is NULL");
  fusecc_module_t module =
      (fusecc_module_t)(uintptr_t)record[FUSECC_PACKED_MODULE];
  CUstream stream = (CUstream)(uintptr_t)record[FUSECC_PACKED_STREAM];
  return fusecc_module_launch_pointers_batch(
      module, (size_t)record[FUSECC_PACKED_ENTRY],
      (size_t)record[FUSECC_PACKED_BATCH], record + FUSECC_PACKED_POINTERS,
      (size_t)record[FUSECC_PACKED_COUNT], stream);
}
