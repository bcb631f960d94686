//===- Format.h - text forms shared by the IR and the bundle ----*- C++ -*-===//
//
// Number formatting that reads back exactly, for the bundle's graph lines
// (written by the bundle writer and by ops' `getGraphAttributes`).
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_SUPPORT_FORMAT_H
#define FUSECC_SUPPORT_FORMAT_H

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace fusecc {

/// `%.17g`: the shortest fixed-width form of a double that reads back
/// exactly.
inline std::string formatExact(double v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%.17g", v);
  return s;
}

} // namespace fusecc

#endif // FUSECC_SUPPORT_FORMAT_H
