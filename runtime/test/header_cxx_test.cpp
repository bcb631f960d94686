//===- header_cxx_test.cpp - fusecc/runtime.h compiles as C++ -------------===//
//
// Proves the public header is valid C++ with C linkage; runtime_test.c calls
// the check below.
//
//===----------------------------------------------------------------------===//

#include "fusecc/runtime.h"

#include <cstring>

/// Returns 1 when the header's declarations link from C++ and the buffer
/// struct has the layout Python's ctypes mirror assumes.
extern "C" int fusecc_header_cxx_check(void) {
  static_assert(sizeof(fusecc_buffer_t) == 16, "two 8-byte fields");
  fusecc_status_t status = nullptr;
  return fusecc_status_code(status) == FUSECC_STATUS_OK &&
         std::strcmp(fusecc_status_code_name(FUSECC_STATUS_CUDA_ERROR),
                     "CUDA_ERROR") == 0;
}
