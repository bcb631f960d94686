//===- SimArith.cpp - arith and math ops per thread -----------------------===//
//
// Constants, element moves of vectors and f32 structs, integer ops on
// sign-extended 64-bit registers of any width, f32 float and math ops
// (the PTX approximations modelled as their rounded exact values), and
// the TF32 conversion.
//
//===----------------------------------------------------------------------===//

#include "SimulatorImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::sim;
using namespace fusecc::sim::detail;

namespace {

float maximumF(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<float>::quiet_NaN();
  if (a == 0.0f && b == 0.0f)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
float minimumF(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<float>::quiet_NaN();
  if (a == 0.0f && b == 0.0f)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

/// cvt.{rna,rn,rz}{.satfinite}{.relu}.tf32.f32 on the bit pattern: keep
/// 10 mantissa bits (low 13 bits zero). NaN gives the canonical 0x7FFFFFFF;
/// inf stays inf (satfinite: the largest finite tf32 of that sign); a finite
/// value rounding past the largest finite tf32 becomes inf (satfinite: the
/// largest finite). relu clamps negative results (and -0) to +0.
uint32_t roundTF32(uint32_t u, int mode, bool satfinite, bool relu) {
  const uint32_t sign = u & 0x80000000u, mag = u & 0x7FFFFFFFu;
  const uint32_t maxTf32 = 0x7F7FE000u;
  if (mag > 0x7F800000u)
    return 0x7FFFFFFFu;
  uint32_t r;
  if (mag == 0x7F800000u) {
    r = satfinite ? maxTf32 : mag;
  } else {
    uint32_t m = mag;
    if (mode == 0) // ties away from zero
      m += 0x1000u;
    else if (mode == 1) // ties to even
      m += 0xFFFu + ((m >> 13) & 1u);
    m &= 0xFFFFE000u;
    if (m >= 0x7F800000u)
      m = satfinite ? maxTf32 : 0x7F800000u;
    r = m;
  }
  if (relu && sign)
    return 0;
  return sign | r;
}

bool cmpF(int pred, float a, float b) {
  using P = arith::CmpFPredicate;
  bool uno = std::isnan(a) || std::isnan(b);
  switch (static_cast<P>(pred)) {
  case P::AlwaysFalse:
    return false;
  case P::OEQ:
    return !uno && a == b;
  case P::OGT:
    return !uno && a > b;
  case P::OGE:
    return !uno && a >= b;
  case P::OLT:
    return !uno && a < b;
  case P::OLE:
    return !uno && a <= b;
  case P::ONE:
    return !uno && a != b;
  case P::ORD:
    return !uno;
  case P::UEQ:
    return uno || a == b;
  case P::UGT:
    return uno || a > b;
  case P::UGE:
    return uno || a >= b;
  case P::ULT:
    return uno || a < b;
  case P::ULE:
    return uno || a <= b;
  case P::UNE:
    return uno || a != b;
  case P::UNO:
    return uno;
  case P::AlwaysTrue:
    return true;
  }
  return false;
}

bool cmpI(int pred, int64_t a, int64_t b, int w) {
  using P = arith::CmpIPredicate;
  int64_t sa = sext(a, w), sb = sext(b, w);
  uint64_t ua = zext(a, w), ub = zext(b, w);
  switch (static_cast<P>(pred)) {
  case P::eq:
    return ua == ub;
  case P::ne:
    return ua != ub;
  case P::slt:
    return sa < sb;
  case P::sle:
    return sa <= sb;
  case P::sgt:
    return sa > sb;
  case P::sge:
    return sa >= sb;
  case P::ult:
    return ua < ub;
  case P::ule:
    return ua <= ub;
  case P::ugt:
    return ua > ub;
  case P::uge:
    return ua >= ub;
  }
  return false;
}

} // namespace

LogicalResult BlockExecutor::execArith(const Inst &inst,
                                       const std::vector<int> &lanes) {
  const int w = inst.width;
  auto intBin = [&](auto fn) -> LogicalResult {
    for (int l : lanes) {
      int64_t r;
      if (!fn(I(inst.in[0], l), I(inst.in[1], l), r))
        return fail(inst, l, "integer division by zero or overflow");
      R(inst.out[0], l) = static_cast<uint64_t>(norm(r, w));
    }
    return success();
  };
  auto fUn = [&](auto fn) {
    for (int l : lanes)
      R(inst.out[0], l) = fromF(fn(F(inst.in[0], l)));
    return success();
  };
  // Element by element: a vector operand's slot i gives result slot i.
  auto fEach = [&](auto fn) {
    for (size_t i = 0; i < inst.out.size(); ++i)
      for (int l : lanes)
        R(inst.out[i], l) = fromF(fn(F(inst.in[i], l)));
    return success();
  };
  auto fBin = [&](auto fn) {
    for (int l : lanes)
      R(inst.out[0], l) = fromF(fn(F(inst.in[0], l), F(inst.in[1], l)));
    return success();
  };
  switch (inst.opc) {
  case Opc::ConstBits:
    for (int o : inst.out)
      for (int l : lanes)
        R(o, l) = inst.imm;
    return success();
  case Opc::Copy:
    for (size_t i = 0; i < inst.out.size(); ++i)
      for (int l : lanes)
        R(inst.out[i], l) = R(inst.in[i], l);
    return success();
  case Opc::Extract:
    for (size_t i = 0; i < inst.out.size(); ++i)
      for (int l : lanes)
        R(inst.out[i], l) = R(inst.in[inst.imm + i], l);
    return success();
  case Opc::Insert: {
    size_t n = inst.out.size();
    for (size_t i = 0; i < n; ++i)
      for (int l : lanes)
        R(inst.out[i], l) = R(inst.in[i == inst.imm ? n : i], l);
    return success();
  }
  case Opc::Bitcast:
    if (inst.pred == 2 || inst.pred == 3) {
      // Two bf16 values (held as f32, exactly bf16) packed into an i32:
      // their bf16 bits are the f32 bits' top 16; f16 values (pred 3):
      // their binary16 encodings.
      auto bits = [&](int slot, int l) -> uint64_t {
        if (inst.pred == 2)
          return (R(slot, l) >> 16) & 0xFFFF;
        return halfBits(F(slot, l));
      };
      for (int l : lanes) {
        uint64_t lo = bits(inst.in[0], l);
        uint64_t hi = bits(inst.in[1], l);
        R(inst.out[0], l) =
            static_cast<uint64_t>(norm(static_cast<int64_t>(lo | hi << 16), 32));
      }
      return success();
    }
    for (int l : lanes)
      R(inst.out[0], l) =
          inst.pred ? zext(I(inst.in[0], l), 32)
                    : static_cast<uint64_t>(norm(I(inst.in[0], l), 32));
    return success();
  case Opc::CvtTF32:
    for (int l : lanes)
      R(inst.out[0], l) = static_cast<uint64_t>(
          norm(static_cast<int64_t>(
                   roundTF32(static_cast<uint32_t>(R(inst.in[0], l)), inst.pred,
                             inst.imm & 1, inst.imm & 2)),
               32));
    return success();
  case Opc::AddI:
    return intBin([](int64_t a, int64_t b, int64_t &r) {
      r = static_cast<int64_t>(static_cast<uint64_t>(a) +
                               static_cast<uint64_t>(b));
      return true;
    });
  case Opc::SubI:
    return intBin([](int64_t a, int64_t b, int64_t &r) {
      r = static_cast<int64_t>(static_cast<uint64_t>(a) -
                               static_cast<uint64_t>(b));
      return true;
    });
  case Opc::MulI:
    return intBin([](int64_t a, int64_t b, int64_t &r) {
      r = static_cast<int64_t>(static_cast<uint64_t>(a) *
                               static_cast<uint64_t>(b));
      return true;
    });
  case Opc::DivSI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      a = sext(a, w);
      b = sext(b, w);
      if (b == 0 || (b == -1 && a == norm(INT64_MIN, w)))
        return false;
      r = a / b;
      return true;
    });
  case Opc::RemSI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      a = sext(a, w);
      b = sext(b, w);
      if (b == 0)
        return false;
      r = b == -1 ? 0 : a % b;
      return true;
    });
  case Opc::DivUI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      if (zext(b, w) == 0)
        return false;
      r = static_cast<int64_t>(zext(a, w) / zext(b, w));
      return true;
    });
  case Opc::RemUI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      if (zext(b, w) == 0)
        return false;
      r = static_cast<int64_t>(zext(a, w) % zext(b, w));
      return true;
    });
  case Opc::CeilDivUI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      uint64_t ua = zext(a, w), ub = zext(b, w);
      if (ub == 0)
        return false;
      r = static_cast<int64_t>(ua / ub + (ua % ub != 0));
      return true;
    });
  case Opc::FloorDivSI:
  case Opc::CeilDivSI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      a = sext(a, w);
      b = sext(b, w);
      if (b == 0 || (b == -1 && a == norm(INT64_MIN, w)))
        return false;
      int64_t q = a / b, rem = a % b;
      if (rem != 0) {
        bool neg = (rem < 0) != (b < 0);
        if (inst.opc == Opc::FloorDivSI && neg)
          --q;
        if (inst.opc == Opc::CeilDivSI && !neg)
          ++q;
      }
      r = q;
      return true;
    });
  case Opc::AndI:
    return intBin([](int64_t a, int64_t b, int64_t &r) {
      r = a & b;
      return true;
    });
  case Opc::OrI:
    return intBin([](int64_t a, int64_t b, int64_t &r) {
      r = a | b;
      return true;
    });
  case Opc::XOrI:
    return intBin([](int64_t a, int64_t b, int64_t &r) {
      r = a ^ b;
      return true;
    });
  case Opc::ShLI:
  case Opc::ShRSI:
  case Opc::ShRUI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      uint64_t sh = zext(b, w);
      if (sh >= static_cast<uint64_t>(w))
        return false;
      if (inst.opc == Opc::ShLI)
        r = static_cast<int64_t>(zext(a, w) << sh);
      else if (inst.opc == Opc::ShRUI)
        r = static_cast<int64_t>(zext(a, w) >> sh);
      else
        r = sext(a, w) >> sh;
      return true;
    });
  case Opc::MinSI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      r = std::min(sext(a, w), sext(b, w));
      return true;
    });
  case Opc::MaxSI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      r = std::max(sext(a, w), sext(b, w));
      return true;
    });
  case Opc::MinUI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      r = static_cast<int64_t>(std::min(zext(a, w), zext(b, w)));
      return true;
    });
  case Opc::MaxUI:
    return intBin([&](int64_t a, int64_t b, int64_t &r) {
      r = static_cast<int64_t>(std::max(zext(a, w), zext(b, w)));
      return true;
    });
  case Opc::CmpI:
    for (int l : lanes)
      R(inst.out[0], l) =
          cmpI(inst.pred, I(inst.in[0], l), I(inst.in[1], l), inst.srcWidth);
    return success();
  case Opc::Select: {
    size_t n = inst.out.size();
    for (size_t i = 0; i < n; ++i)
      for (int l : lanes)
        R(inst.out[i], l) = (R(inst.in[0], l) & 1) ? R(inst.in[1 + i], l)
                                                   : R(inst.in[1 + n + i], l);
    return success();
  }
  case Opc::IndexCast:
  case Opc::ExtSI:
  case Opc::TruncI:
    for (int l : lanes)
      R(inst.out[0], l) =
          static_cast<uint64_t>(norm(sext(I(inst.in[0], l), inst.srcWidth), w));
    return success();
  case Opc::IndexCastUI:
  case Opc::ExtUI:
    for (int l : lanes)
      R(inst.out[0], l) = static_cast<uint64_t>(
          norm(static_cast<int64_t>(zext(I(inst.in[0], l), inst.srcWidth)), w));
    return success();

  case Opc::AddF:
    return fBin([](float a, float b) { return a + b; });
  case Opc::SubF:
    return fBin([](float a, float b) { return a - b; });
  case Opc::MulF:
    return fBin([](float a, float b) { return a * b; });
  case Opc::DivF:
    return fBin([](float a, float b) { return a / b; });
  case Opc::RemF:
    return fBin([](float a, float b) { return std::fmod(a, b); });
  case Opc::NegF:
    return fUn([](float a) { return -a; });
  case Opc::MaximumF:
    return fBin(maximumF);
  case Opc::MinimumF:
    return fBin(minimumF);
  case Opc::MaxNumF:
    return fBin([](float a, float b) { return std::fmax(a, b); });
  case Opc::MinNumF:
    return fBin([](float a, float b) { return std::fmin(a, b); });
  case Opc::CopySign:
    return fBin([](float a, float b) { return std::copysign(a, b); });
  case Opc::PowF:
    return fBin([](float a, float b) { return std::pow(a, b); });
  case Opc::CmpF:
    for (int l : lanes)
      R(inst.out[0], l) = cmpF(inst.pred, F(inst.in[0], l), F(inst.in[1], l));
    return success();
  case Opc::SIToFP:
    for (int l : lanes)
      R(inst.out[0], l) =
          fromF(static_cast<float>(sext(I(inst.in[0], l), inst.srcWidth)));
    return success();
  case Opc::UIToFP:
    for (int l : lanes)
      R(inst.out[0], l) =
          fromF(static_cast<float>(zext(I(inst.in[0], l), inst.srcWidth)));
    return success();
  case Opc::FPToSI:
  case Opc::FPToUI:
    for (int l : lanes) {
      float f = F(inst.in[0], l);
      if (!std::isfinite(f) || std::fabs(f) > 9.2e18f)
        return fail(inst, l, "float to integer conversion out of range");
      R(inst.out[0], l) =
          static_cast<uint64_t>(norm(static_cast<int64_t>(f), w));
    }
    return success();
  case Opc::ExtF:
    // Half values are held exactly as f32.
    return fEach([](float a) { return a; });
  case Opc::TruncF: {
    bool f16 = inst.pred == 1;
    return fEach([f16](float a) { return roundToHalf(a, f16); });
  }
  case Opc::Exp:
    return fUn([](float a) { return std::exp(a); });
  case Opc::Ex2ApproxFtz:
    // ex2.approx.ftz.f32: denormal inputs and results flush to zero; the
    // approximation (<= 2 ulp) is modelled as the rounded exp2.
    return fUn(
        [](float a) { return flushDenormal(std::exp2(flushDenormal(a))); });
  case Opc::Exp2:
    return fUn([](float a) { return std::exp2(a); });
  case Opc::Expm1:
    return fUn([](float a) { return std::expm1(a); });
  case Opc::Log:
    return fUn([](float a) { return std::log(a); });
  case Opc::Log2:
    return fUn([](float a) { return std::log2(a); });
  case Opc::Log1p:
    return fUn([](float a) { return std::log1p(a); });
  case Opc::Erf:
    return fUn([](float a) { return std::erf(a); });
  case Opc::Tanh:
    return fUn([](float a) { return std::tanh(a); });
  case Opc::Sqrt:
    return fUn([](float a) { return std::sqrt(a); });
  case Opc::Rsqrt:
    return fUn([](float a) { return 1.0f / std::sqrt(a); });
  case Opc::RcpApproxFtz:
    // rcp.approx.ftz.f32: denormal inputs and results flush to zero; the
    // approximation (<= 1 ulp) is modelled as the rounded reciprocal.
    return fUn([](float a) { return flushDenormal(1.0f / flushDenormal(a)); });
  case Opc::AbsF:
    return fUn([](float a) { return std::fabs(a); });
  case Opc::Floor:
    return fUn([](float a) { return std::floor(a); });
  case Opc::Ceil:
    return fUn([](float a) { return std::ceil(a); });
  case Opc::Sin:
    return fUn([](float a) { return std::sin(a); });
  case Opc::Cos:
    return fUn([](float a) { return std::cos(a); });
  case Opc::Fma:
    for (int l : lanes)
      R(inst.out[0], l) =
          fromF(std::fma(F(inst.in[0], l), F(inst.in[1], l), F(inst.in[2], l)));
    return success();
  default:
    break;
  }
  return fail(inst, -1, "internal error: unhandled instruction");
}

uint64_t fusecc::sim::detail::halfBits(float v) {
  llvm::APFloat a(v);
  bool losesInfo = false;
  a.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  return a.bitcastToAPInt().getZExtValue() & 0xFFFF;
}

float fusecc::sim::detail::halfFromBits(uint64_t bits, bool f16) {
  if (!f16)
    return asF((bits & 0xFFFF) << 16);
  llvm::APFloat a(llvm::APFloat::IEEEhalf(),
                  llvm::APInt(16, bits & 0xFFFF));
  bool losesInfo = false;
  a.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  return a.convertToFloat();
}

float fusecc::sim::detail::roundToHalf(float v, bool f16) {
  if (std::isnan(v))
    return v;
  llvm::APFloat a(v);
  bool losesInfo = false;
  a.convert(f16 ? llvm::APFloat::IEEEhalf() : llvm::APFloat::BFloat(),
            llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return static_cast<float>(a.convertToDouble());
}
