//===- CheckedArithmetic.h - overflow-checked int64 shape arithmetic -*- C++
//-*-===//
//
// Sizes, counts and indices computed from a graph are int64 products and
// sums of user-controlled values. These helpers return std::nullopt where
// the exact result does not fit, so that callers can reject the graph with
// a diagnostic instead of computing with a wrapped value.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_SUPPORT_CHECKEDARITHMETIC_H
#define FUSECC_SUPPORT_CHECKEDARITHMETIC_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <initializer_list>
#include <optional>

namespace fusecc {

/// The largest tensor size in bytes that fusecc accepts (2^62): every byte
/// offset and element index of an accepted tensor, and small multiples of
/// them, then fit int64.
constexpr int64_t kMaxTensorBytes = int64_t{1} << 62;

/// a + b, or std::nullopt on overflow.
inline std::optional<int64_t> checkedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    return std::nullopt;
  return r;
}

/// a - b, or std::nullopt on overflow.
inline std::optional<int64_t> checkedSub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r))
    return std::nullopt;
  return r;
}

/// a * b, or std::nullopt on overflow.
inline std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    return std::nullopt;
  return r;
}

/// The product of `values`, or std::nullopt if it (or a partial product)
/// overflows.
inline std::optional<int64_t> checkedProduct(llvm::ArrayRef<int64_t> values) {
  int64_t r = 1;
  for (int64_t v : values)
    if (__builtin_mul_overflow(r, v, &r))
      return std::nullopt;
  return r;
}

/// A running int64 expression that turns into std::nullopt at the first
/// overflow, for formulas with several terms:
/// `(CheckedInt(in) - 1) * stride - CheckedInt(2) * pad + ...`.
class CheckedInt {
public:
  CheckedInt(int64_t v) : value(v) {}
  CheckedInt(std::optional<int64_t> v) : value(v) {}

  std::optional<int64_t> get() const { return value; }
  bool overflowed() const { return !value.has_value(); }

  friend CheckedInt operator+(CheckedInt a, CheckedInt b) {
    if (!a.value || !b.value)
      return CheckedInt(std::nullopt);
    return checkedAdd(*a.value, *b.value);
  }
  friend CheckedInt operator-(CheckedInt a, CheckedInt b) {
    if (!a.value || !b.value)
      return CheckedInt(std::nullopt);
    return checkedSub(*a.value, *b.value);
  }
  friend CheckedInt operator*(CheckedInt a, CheckedInt b) {
    if (!a.value || !b.value)
      return CheckedInt(std::nullopt);
    return checkedMul(*a.value, *b.value);
  }

private:
  std::optional<int64_t> value;
};

/// The size in bytes of a tensor of `shape` with `elementBytes`-byte
/// elements, or std::nullopt if it exceeds kMaxTensorBytes (or overflows).
inline std::optional<int64_t> tensorBytes(llvm::ArrayRef<int64_t> shape,
                                          int64_t elementBytes = 4) {
  std::optional<int64_t> n = checkedProduct(shape);
  if (!n)
    return std::nullopt;
  std::optional<int64_t> bytes = checkedMul(*n, elementBytes);
  if (!bytes || *bytes > kMaxTensorBytes)
    return std::nullopt;
  return bytes;
}

/// Plan sizes (shared memory, workspaces, grids, multiply-adds) saturate
/// here: a plan that needs more is rejected by the limits (shared memory,
/// grid, workspace) and never built, and 4 x this (bytes) still fits int64.
constexpr int64_t kSaturated = int64_t{1} << 60;

/// a * b (both >= 0), saturated at kSaturated.
inline int64_t saturatingMul(int64_t a, int64_t b) {
  std::optional<int64_t> r = checkedMul(a, b);
  return r && *r <= kSaturated ? *r : kSaturated;
}

/// a + b (both >= 0), saturated at kSaturated.
inline int64_t saturatingAdd(int64_t a, int64_t b) {
  std::optional<int64_t> r = checkedAdd(a, b);
  return r && *r <= kSaturated ? *r : kSaturated;
}

} // namespace fusecc

#endif // FUSECC_SUPPORT_CHECKEDARITHMETIC_H
