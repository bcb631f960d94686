//===- header_cxx_test.cpp - fusecc/runtime.h compiles as C++ -------------===//
//
// Proves the public header is valid C++ with C linkage; runtime_test.c calls
// the check below.
//
//===----------------------------------------------------------------------===//

#include "fusecc/runtime.h"

#include <cstddef>
#include <cstring>

/// Returns 1 when the header's declarations link from C++ and the structs
/// have the layouts Python's ctypes mirror assumes.
extern "C" int fusecc_header_cxx_check(void) {
  static_assert(sizeof(fusecc_buffer_t) == 16, "two 8-byte fields");
  // bench/gpu_check.py mirrors these with ctypes: workspace_count was
  // appended after the version-1 fields, which keep their offsets.
  static_assert(offsetof(fusecc_entry_info_t, graph_line_count) == 32,
                "version-1 fields unchanged");
  static_assert(offsetof(fusecc_entry_info_t, workspace_count) == 40 &&
                    sizeof(fusecc_entry_info_t) == 48,
                "workspace_count is the last field");
  static_assert(sizeof(fusecc_workspace_info_t) == 24,
                "dtype (padded), element_count, byte_size");
  // Format version 3 added structs and functions only: the layouts above
  // (and those of fusecc_arg_info_t and fusecc_launch_info_t) are unchanged.
  static_assert(sizeof(fusecc_arg_info_t) == 120 &&
                    offsetof(fusecc_arg_info_t, byte_size) == 112,
                "fusecc_arg_info_t unchanged");
  static_assert(sizeof(fusecc_launch_info_t) == 56 &&
                    offsetof(fusecc_launch_info_t, param_args) == 48,
                "fusecc_launch_info_t unchanged");
  static_assert(sizeof(fusecc_step_info_t) == 24, "kind, two indices");
  static_assert(sizeof(fusecc_param_info_t) == 16, "kind, index");
  static_assert(sizeof(fusecc_const_info_t) == 128 &&
                    offsetof(fusecc_const_info_t, data_offset) == 120,
                "data_offset is the last field");
  fusecc_status_t status = nullptr;
  return fusecc_status_code(status) == FUSECC_STATUS_OK &&
         std::strcmp(fusecc_status_code_name(FUSECC_STATUS_CUDA_ERROR),
                     "CUDA_ERROR") == 0;
}
