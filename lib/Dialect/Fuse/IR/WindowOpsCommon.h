//===- WindowOpsCommon.h - helpers of the window op files -------*- C++ -*-===//
//
// Shape and index helpers and the small scalar IR builder shared by
// PoolingOps.cpp and ReductionOps.cpp (the ops of WindowOpInterface).
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_LIB_DIALECT_FUSE_IR_WINDOWOPSCOMMON_H
#define FUSECC_LIB_DIALECT_FUSE_IR_WINDOWOPSCOMMON_H

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"
#include "fusecc/Support/CheckedArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>
#include <functional>
#include <limits>

namespace fusecc::fuse::window {

using namespace mlir;

using OperandAt = function_ref<Value(OpBuilder &, Location, ValueRange)>;

inline std::string listStr(ArrayRef<int64_t> v) {
  std::string s;
  for (auto [i, x] : llvm::enumerate(v))
    s += (i ? "," : "") + std::to_string(x);
  return s;
}

inline std::string shapeStr(ArrayRef<int64_t> shape) {
  return "[" + listStr(shape) + "]";
}

/// Row-major strides of `shape`.
inline SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> st(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    st[i] = st[i + 1] * shape[i + 1];
  return st;
}

/// Calls `fn(coords)` for every coordinate of `shape`, row-major.
inline void forEachIndex(ArrayRef<int64_t> shape,
                         function_ref<void(ArrayRef<int64_t>)> fn) {
  for (int64_t d : shape)
    if (d == 0)
      return;
  SmallVector<int64_t> idx(shape.size(), 0);
  while (true) {
    fn(idx);
    int64_t d = static_cast<int64_t>(shape.size()) - 1;
    for (; d >= 0; --d) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
    if (d < 0)
      return;
  }
}

inline int64_t flatIndex(ArrayRef<int64_t> idx, ArrayRef<int64_t> strides) {
  int64_t f = 0;
  for (auto [i, s] : llvm::zip(idx, strides))
    f += i * s;
  return f;
}

inline double nanMaxD(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
}
inline double nanMinD(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
}

/// Scalar IR helpers on the operand's element type.
struct Emit {
  OpBuilder &b;
  Location loc;
  FloatType ft;

  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value flt(double v) {
    return arith::ConstantOp::create(b, loc, ft, b.getFloatAttr(ft, v));
  }
  Value addi(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value subi(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value muli(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value mini(Value x, Value y) {
    return arith::MinSIOp::create(b, loc, x, y);
  }
  Value maxi(Value x, Value y) {
    return arith::MaxSIOp::create(b, loc, x, y);
  }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value andi(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value toF(Value index) {
    Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
    return arith::SIToFPOp::create(b, loc, ft, i64);
  }
  /// `for i in [lo, hi): acc = body(i, acc)`; returns the final acc values.
  SmallVector<Value>
  loop(Value lo, Value hi, ValueRange init,
       function_ref<SmallVector<Value>(Value, ValueRange)> body) {
    auto f = scf::ForOp::create(b, loc, lo, hi, idx(1), init);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(f.getBody());
    scf::YieldOp::create(b, loc,
                         body(f.getInductionVar(), f.getRegionIterArgs()));
    return SmallVector<Value>(f.getResults().begin(), f.getResults().end());
  }
  /// Nested loops `for ivs[i] in [lo[i], hi[i])`, the first outermost,
  /// folding `acc = body(ivs, acc)` from `init`; returns the final acc.
  Value loopNest(ArrayRef<Value> lo, ArrayRef<Value> hi, Value init,
                 function_ref<Value(ArrayRef<Value>, Value)> body) {
    SmallVector<Value> ivs;
    std::function<Value(size_t, Value)> level = [&](size_t i,
                                                    Value acc) -> Value {
      if (i == lo.size())
        return body(ivs, acc);
      return loop(lo[i], hi[i], acc,
                  [&](Value iv, ValueRange it) -> SmallVector<Value> {
                    ivs.push_back(iv);
                    Value v = level(i + 1, it[0]);
                    ivs.pop_back();
                    return {v};
                  })[0];
    };
    return level(0, init);
  }
  /// `cond ? then() : init` as an scf.if yielding values.
  SmallVector<Value> ifElse(Value cond, ValueRange init,
                            function_ref<SmallVector<Value>()> then) {
    auto op = scf::IfOp::create(b, loc, init.getTypes(), cond, true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&op.getThenRegion().front());
    scf::YieldOp::create(b, loc, then());
    b.setInsertionPointToStart(&op.getElseRegion().front());
    scf::YieldOp::create(b, loc, init);
    return SmallVector<Value>(op.getResults().begin(), op.getResults().end());
  }
};
inline FloatType elementTypeOf(Value v) {
  return cast<FloatType>(cast<RankedTensorType>(v.getType()).getElementType());
}

} // namespace fusecc::fuse::window

#endif // FUSECC_LIB_DIALECT_FUSE_IR_WINDOWOPSCOMMON_H
