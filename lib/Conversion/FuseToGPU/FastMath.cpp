//===- FastMath.cpp - exp and reciprocal rewrites of a kernel -------------===//
//
// Rewrites of a finished kernel function: the reciprocal of sigmoid / silu
// without the slow-path branch of `rcp.rn` (always), and with
// `EpilogueMath::Fast` every exp as Triton's `ex2.approx.ftz(x * log2(e))`
// and every tanh as the one-instruction `tanh.approx.f32`.
//
//===----------------------------------------------------------------------===//

#include "EmitContext.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::emit;

Value emit::emitEx2ApproxFtz(ImplicitLocOpBuilder &b, Value y) {
  return LLVM::CallIntrinsicOp::create(
             b, b.getF32Type(), b.getStringAttr("llvm.nvvm.ex2.approx.ftz.f"),
             ValueRange{y})
      .getResult(0);
}

/// Rewrites `1 / (1 + exp(y))` (sigmoid, silu) into a branch-free
/// reciprocal. The divisor d is >= 1 or NaN, where the IEEE reciprocal
/// (`rcp.rn.f32`) is exactly its fast path, rcp.approx r0 refined once:
/// r = r0 + r0 (1 - d r0) -- the same FMAs, bit for bit -- except for
/// d >= 2^126, whose result (<= 2^-126, a denormal) is flushed to 0 here.
/// Without the slow-path branch of `rcp.rn`, ptxas interleaves the
/// epilogue's elements (docs/perf.md section 42). With `EpilogueMath::Fast`
/// the reciprocal is `rcp.approx.ftz` alone (within 1 ulp; d >= 2^126 gives
/// 0 as well).
void emit::rewriteSigmoidReciprocals(gpu::GPUFuncOp func, EpilogueMath math) {
  auto isOne = [](Value v) {
    APFloat one(1.0f);
    FloatAttr attr;
    return matchPattern(v, m_Constant(&attr)) &&
           attr.getValue().bitwiseIsEqual(one);
  };
  SmallVector<arith::DivFOp> candidates;
  func.walk([&](arith::DivFOp div) {
    auto sum = div.getRhs().getDefiningOp<arith::AddFOp>();
    if (!isOne(div.getLhs()) || !sum || !div.getType().isF32())
      return;
    Value other = isOne(sum.getLhs())   ? sum.getRhs()
                  : isOne(sum.getRhs()) ? sum.getLhs()
                                        : Value();
    if (other && other.getDefiningOp<math::ExpOp>())
      candidates.push_back(div);
  });
  for (arith::DivFOp div : candidates) {
    ImplicitLocOpBuilder b(div.getLoc(), div);
    Value d = div.getRhs();
    auto f32 = [&](float v) {
      return arith::ConstantOp::create(b, b.getF32FloatAttr(v)).getResult();
    };
    Value r0 = NVVM::RcpApproxFtzF32Op::create(b, b.getF32Type(), d);
    if (math == EpilogueMath::Fast) {
      div.replaceAllUsesWith(r0);
      div.erase();
      continue;
    }
    Value e =
        math::FmaOp::create(b, arith::NegFOp::create(b, d), r0, f32(1.0f));
    Value r = math::FmaOp::create(b, r0, e, r0);
    Value huge =
        arith::CmpFOp::create(b, arith::CmpFPredicate::OGE, d, f32(0x1p126f));
    div.replaceAllUsesWith(
        arith::SelectOp::create(b, huge, f32(0.0f), r).getResult());
    div.erase();
  }
}

/// Returns the power-of-two value of constant `v` (a splat or scalar f32),
/// or 0 if it is not one.
static float powerOfTwoConstant(Value v) {
  FloatAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.getType().isF32())
    return 0.0f;
  float c = attr.getValue().convertToFloat();
  int exp;
  float m = std::frexp(c, &exp);
  return std::isfinite(c) && std::fabs(m) == 0.5f && std::abs(exp) < 64 ? c
                                                                        : 0.0f;
}

/// Rewrites every f32 `math.tanh(x)` of `func` into `tanh.approx.f32`
/// (`llvm.tanh` with `afn`, which the NVPTX backend emits as that one
/// instruction; relative error about 2^-11, against the TF32 operands'
/// 2^-11 and a half result's 2^-8). libdevice's `tanhf`, which it replaces,
/// evaluates both of its branches (`1 - 2 / (exp(2|x|) + 1)` and an odd
/// polynomial) and selects: two MUFU instructions (ex2, rcp) and ~15 others
/// a value, in epilogues that store one value a position (kb2_5's tanh on
/// 539 M outputs; mish's tanh of softplus; gelu's tanh form).
static void approximateTanh(gpu::GPUFuncOp func) {
  SmallVector<math::TanhOp> tanhs;
  func.walk([&](math::TanhOp tanh) {
    if (tanh.getType().isF32())
      tanhs.push_back(tanh);
  });
  for (math::TanhOp tanh : tanhs) {
    ImplicitLocOpBuilder b(tanh.getLoc(), tanh);
    auto approx = LLVM::TanhOp::create(b, tanh.getOperand());
    approx.setFastmathFlags(LLVM::FastmathFlags::afn);
    tanh.replaceAllUsesWith(approx.getResult());
    tanh.erase();
  }
}

/// Rewrites every `math.exp(x)` of `func` into Triton's two instructions,
/// `ex2.approx.ftz(x * log2(e))` (libdevice's `__expf` with flushed
/// denormals: the non-ftz `ex2.approx` takes three more instructions to
/// scale denormal results, which differ from 0 by less than 2^-126). The
/// product absorbs negations and power-of-two factors of x (sigmoid's
/// `exp(-y)`, a `* 2` before it): both are exact, so the one rounded
/// product x * (+-2^k log2(e)) equals the unfused (+-2^k x) * log2(e).
/// (The softmax statistics build their exp in this form directly, as
/// fma(x, log2(e), -max log2(e)): see emitLineReduction.)
void emit::approximateExponentials(gpu::GPUFuncOp func) {
  SmallVector<math::ExpOp> exps;
  func.walk([&](math::ExpOp exp) {
    if (exp.getType().isF32())
      exps.push_back(exp);
  });
  for (math::ExpOp exp : exps) {
    ImplicitLocOpBuilder b(exp.getLoc(), exp);
    Value x = exp.getOperand();
    float scale = llvm::numbers::log2ef;
    SmallVector<Operation *> peeled;
    while (Operation *def = x.getDefiningOp()) {
      if (auto neg = dyn_cast<arith::NegFOp>(def)) {
        x = neg.getOperand();
        scale = -scale;
      } else if (auto mul = dyn_cast<arith::MulFOp>(def)) {
        Value other = mul.getLhs();
        float c = powerOfTwoConstant(mul.getRhs());
        if (!c) {
          other = mul.getRhs();
          c = powerOfTwoConstant(mul.getLhs());
        }
        if (!c)
          break;
        x = other;
        scale *= c;
      } else {
        break;
      }
      peeled.push_back(def);
    }
    Value y = arith::MulFOp::create(
        b, x, arith::ConstantOp::create(b, b.getF32FloatAttr(scale)));
    exp.replaceAllUsesWith(emitEx2ApproxFtz(b, y));
    exp.erase();
    // The peeled negations and products, unless something else reads them.
    for (Operation *op : peeled)
      if (op->use_empty())
        op->erase();
  }
  approximateTanh(func);
}
