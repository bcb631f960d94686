//===- Compare.cpp - a kernel's output against the float64 reference ------===//
//
// See Compare.h: the criterion fusecc-check and the graph fuzzer share.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Reference/Compare.h"

#include "llvm/ADT/APFloat.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace fusecc;
using namespace fusecc::ref;

double ref::roundToTF32(double x) {
  float v = static_cast<float>(x);
  if (!std::isfinite(v))
    return x;
  uint32_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  bits = (bits + 0x1000u) & ~0x1FFFu;
  std::memcpy(&v, &bits, sizeof(bits));
  return v;
}

double ref::roundToStorage(double x, Storage s) {
  if (s == Storage::F32 || std::isnan(x))
    return s == Storage::F32 ? static_cast<double>(static_cast<float>(x)) : x;
  llvm::APFloat a(x);
  bool losesInfo = false;
  a.convert(s == Storage::F16 ? llvm::APFloat::IEEEhalf()
                              : llvm::APFloat::BFloat(),
            llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return a.convertToDouble();
}

double ref::unitRoundoff(Storage s) {
  switch (s) {
  case Storage::F32:
    return 0x1p-24;
  case Storage::BF16:
    return 0x1p-8;
  case Storage::F16:
    return 0x1p-11;
  }
  return 0x1p-24;
}

double ref::roundConvOperand(double x, ConvOperands r) {
  switch (r) {
  case ConvOperands::Exact:
    return x;
  case ConvOperands::TF32:
    return roundToTF32(x);
  case ConvOperands::BF16:
    // The operand is an f32 value (staged or loaded as f32), rounded once.
    return roundToStorage(static_cast<float>(x), Storage::BF16);
  case ConvOperands::F16:
    return roundToStorage(static_cast<float>(x), Storage::F16);
  }
  return x;
}

double ref::operandUnitRoundoff(ConvOperands r) {
  switch (r) {
  case ConvOperands::Exact:
    return 0;
  case ConvOperands::TF32:
  case ConvOperands::F16:
    return 0x1p-11;
  case ConvOperands::BF16:
    return 0x1p-8;
  }
  return 0;
}

namespace {

/// Relative L2 distance of `a` from `r` over the elements where `r` is
/// finite in storage `s` (the absolute one where `r` is all zero).
template <typename A>
double relL2Of(const Tensor &r, const A &a, Storage s = Storage::F32) {
  double num = 0, den = 0;
  for (int64_t i = 0; i < r.size(); ++i) {
    if (!std::isfinite(r.data[i]) ||
        (s == Storage::F16 && !std::isfinite(roundToStorage(r.data[i], s))))
      continue;
    double d = static_cast<double>(a[i]) - r.data[i];
    num += d * d;
    den += r.data[i] * r.data[i];
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

} // namespace

Comparison ref::compareOutput(const Tensor &ref, const Tensor *tf32Ref,
                              const sim::Buffer &out,
                              const CompareLimits &limits) {
  Comparison c;
  c.relL2Limit = limits.relL2;
  if (tf32Ref) {
    c.rounding = relL2Of(ref, tf32Ref->data);
    c.operandsRelL2 = relL2Of(*tf32Ref, out.data, limits.storage);
    c.relL2Limit = std::max(c.relL2Limit, limits.roundingFactor * c.rounding);
  }
  int64_t refFinite = 0;
  for (int64_t i = 0; i < ref.size(); ++i) {
    double r = ref.data[i], s = out.data[i];
    bool bad = false;
    // A finite reference that overflows f16 when stored is that infinity.
    if (limits.storage == Storage::F16 && std::isfinite(r))
      if (double q = roundToStorage(r, Storage::F16); !std::isfinite(q))
        r = q;
    refFinite += std::isfinite(r);
    if (!out.written[i]) {
      ++c.unwritten;
      bad = true;
    } else if (!std::isfinite(r)) {
      ++c.refNonFinite;
      // Non-finite reference: the kernel must agree exactly in kind.
      if (!(std::isnan(r) ? std::isnan(s) : s == r))
        bad = true, ++c.notClose;
    } else if (!std::isfinite(s)) {
      ++c.nonFinite;
      bad = true;
    } else {
      double d = std::fabs(s - r);
      c.maxAbs = std::max(c.maxAbs, d);
      double tol = limits.absTol + limits.relTolElem * std::fabs(r);
      if (tf32Ref && std::isfinite(tf32Ref->data[i]))
        tol += limits.roundingFactor * std::fabs(tf32Ref->data[i] - r);
      if (limits.elementSlack)
        tol += (*limits.elementSlack)[i];
      if (d > tol)
        bad = true, ++c.notClose;
    }
    if (bad && c.firstBad < 0)
      c.firstBad = i;
  }
  c.relL2 = relL2Of(ref, out.data, limits.storage);
  // No finite reference element: NaN matched NaN, nothing was compared
  // (docs/design/checking.md, "Vacuous references").
  c.vacuous = ref.size() > 0 && refFinite == 0;
  c.pass = c.unwritten == 0 && c.nonFinite == 0 && c.notClose == 0 &&
           !c.vacuous && std::isfinite(c.relL2) && c.relL2 < c.relL2Limit;
  if (tf32Ref && c.pass) {
    const bool onTensorCores = std::isfinite(c.operandsRelL2) &&
                               c.operandsRelL2 < limits.operandsRelL2;
    const bool fp32Fallback = c.relL2 < limits.fp32RelL2;
    c.pass = onTensorCores || fp32Fallback;
  }
  return c;
}
