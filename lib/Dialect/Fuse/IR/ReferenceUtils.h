//===- ReferenceUtils.h - shared pieces of the ops' CPU references -*- C++ -*-===//
//
// Helpers the double-precision references of the normalisation and
// composite ops share (NormalizationOps.cpp, CompositeOps.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_LIB_DIALECT_FUSE_IR_REFERENCEUTILS_H
#define FUSECC_LIB_DIALECT_FUSE_IR_REFERENCEUTILS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace fusecc::fuse::reference {

/// Product of `shape[from, to)`.
inline int64_t product(llvm::ArrayRef<int64_t> shape, size_t from,
                       size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to; ++i)
    p *= shape[i];
  return p;
}

/// For every line of `x` (row-major, `shape`) along `dim`: its maximum m and
/// the sum s of exp(x - m), then `emit(at, m, s)` where `at(j)` is the flat
/// index of the line's element j and `len` its length.
inline void forEachSoftmaxLine(
    llvm::ArrayRef<int64_t> shape, int64_t dim, llvm::ArrayRef<double> x,
    llvm::function_ref<void(llvm::function_ref<int64_t(int64_t)> at,
                            int64_t len, double m, double s)>
        emit) {
  int64_t outer = product(shape, 0, dim), len = shape[dim],
          inner = product(shape, dim + 1, shape.size());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in) {
      auto at = [&](int64_t j) { return (o * len + j) * inner + in; };
      double m = -std::numeric_limits<double>::infinity();
      for (int64_t j = 0; j < len; ++j)
        m = std::max(m, x[at(j)]);
      double s = 0.0;
      for (int64_t j = 0; j < len; ++j)
        s += std::exp(x[at(j)] - m);
      emit(at, len, m, s);
    }
}

} // namespace fusecc::fuse::reference

#endif // FUSECC_LIB_DIALECT_FUSE_IR_REFERENCEUTILS_H
