//===- ReductionOps.cpp - sum, mean, var, amax, amin, logsumexp, reshape --===//
//
// The reductions and the reshape of WindowOpInterface: verifiers, the
// per-element loops (shared by the lanes of a warp on request), the
// double-precision reference and the graph attributes. logsumexp subtracts
// the maximum (an infinite maximum counts as 0, as in PyTorch); var sums
// squared deviations from the mean of data shifted by the set's first
// element (two passes, never E[x^2] - E[x]^2).
//
//===----------------------------------------------------------------------===//

#include "WindowOpsCommon.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::fuse::window;

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

namespace {
enum class ReduceKind { Sum, Mean, Variance, Max, Min, LogSumExp };

/// The reduced dims of a reduction op, and where each result dim reads its
/// coordinate from.
struct ReduceShape {
  SmallVector<int64_t> in;
  SmallVector<bool> reduced;
  bool keepdim = false;
  /// Variance: subtracted from the set size in the divisor.
  int64_t correction = 0;

  /// Input coordinates of result coordinates `out`, reduced dims at `red`
  /// (one value per reduced dim, in dim order).
  template <typename T>
  SmallVector<T> inputCoords(ArrayRef<T> out, ArrayRef<T> red) const {
    SmallVector<T> pos;
    size_t o = 0, r = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      if (reduced[i]) {
        pos.push_back(red[r++]);
        if (keepdim)
          ++o;
      } else {
        pos.push_back(out[o++]);
      }
    }
    return pos;
  }
  SmallVector<int64_t> reducedSizes() const {
    SmallVector<int64_t> s;
    for (size_t i = 0; i < in.size(); ++i)
      if (reduced[i])
        s.push_back(in[i]);
    return s;
  }
};
} // namespace

static ReduceShape reduceShapeOf(Operation *op, ArrayRef<int64_t> dims,
                                 bool keepdim, int64_t correction = 0) {
  ReduceShape rs;
  rs.in = llvm::to_vector(
      cast<RankedTensorType>(op->getOperand(0).getType()).getShape());
  rs.reduced.assign(rs.in.size(), false);
  for (int64_t d : dims)
    rs.reduced[d] = true;
  rs.keepdim = keepdim;
  rs.correction = correction;
  return rs;
}

static LogicalResult verifyReduce(Operation *op, ArrayRef<int64_t> dims,
                                  bool keepdim) {
  auto inTy = cast<RankedTensorType>(op->getOperand(0).getType());
  auto outTy = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t rank = inTy.getRank();
  if (dims.empty())
    return op->emitOpError("expected at least one dim in 'dims'");
  SmallVector<bool> seen(rank, false);
  for (int64_t d : dims) {
    if (d < 0 || d >= rank)
      return op->emitOpError("dim ")
             << d << " is out of range for a rank-" << rank
             << " tensor (expected 0.." << rank - 1 << ")";
    if (seen[d])
      return op->emitOpError("dim ") << d << " appears twice in 'dims'";
    seen[d] = true;
    if (inTy.getDimSize(d) == 0)
      return op->emitOpError("reduces dim ")
             << d << " of size 0 (an empty set)";
  }
  SmallVector<int64_t> expected;
  for (int64_t i = 0; i < rank; ++i)
    if (!seen[i])
      expected.push_back(inTy.getDimSize(i));
    else if (keepdim)
      expected.push_back(1);
  if (outTy.getShape() != ArrayRef<int64_t>(expected))
    return op->emitOpError("expected result shape ")
           << shapeStr(expected) << ", got " << shapeStr(outTy.getShape());
  return success();
}

static void evaluateReduce(const ReduceShape &rs, ReduceKind kind,
                           ArrayRef<int64_t> outShape, ArrayRef<double> x,
                           MutableArrayRef<double> y) {
  SmallVector<int64_t> inSt = stridesOf(rs.in), outSt = stridesOf(outShape);
  SmallVector<int64_t> red = rs.reducedSizes();
  forEachIndex(outShape, [&](ArrayRef<int64_t> o) {
    auto at = [&](ArrayRef<int64_t> r) {
      return x[flatIndex(rs.inputCoords<int64_t>(o, r), inSt)];
    };
    double acc;
    int64_t count = 0;
    switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Mean:
      acc = 0.0;
      forEachIndex(red, [&](ArrayRef<int64_t> r) {
        acc += at(r);
        ++count;
      });
      if (kind == ReduceKind::Mean)
        acc /= count;
      break;
    case ReduceKind::Variance: {
      double mean = 0.0;
      forEachIndex(red, [&](ArrayRef<int64_t> r) {
        mean += at(r);
        ++count;
      });
      mean /= count;
      acc = 0.0;
      forEachIndex(red, [&](ArrayRef<int64_t> r) {
        acc += (at(r) - mean) * (at(r) - mean);
      });
      acc /= static_cast<double>(count - rs.correction);
      break;
    }
    case ReduceKind::Max:
    case ReduceKind::Min:
      acc = kind == ReduceKind::Max ? -INFINITY : INFINITY;
      forEachIndex(red, [&](ArrayRef<int64_t> r) {
        acc = kind == ReduceKind::Max ? nanMaxD(acc, at(r))
                                      : nanMinD(acc, at(r));
      });
      break;
    case ReduceKind::LogSumExp: {
      double m = -INFINITY;
      forEachIndex(red, [&](ArrayRef<int64_t> r) { m = nanMaxD(m, at(r)); });
      if (std::isinf(m))
        m = 0.0;
      double s = 0.0;
      forEachIndex(red, [&](ArrayRef<int64_t> r) { s += std::exp(at(r) - m); });
      acc = std::log(s) + m;
      break;
    }
    }
    y[flatIndex(o, outSt)] = acc;
  });
}

/// Builds the loops over the reduced dims at result coordinates `coords`,
/// folding `step(acc, element)` into `init`. With `lanes`, lane l takes the
/// positions l, l + count, ... of the flattened reduced dims, and the lanes'
/// partial results combine with `combine` (every lane gets the total).
static Value buildReduceLoop(const ReduceShape &rs, Emit &e, ValueRange coords,
                             OperandAt operandAt, Value init,
                             function_ref<Value(Value, Value)> step,
                             const WindowLanes *lanes,
                             function_ref<Value(Value, Value)> combine) {
  SmallVector<int64_t> red = rs.reducedSizes();
  if (lanes && lanes->count > 1) {
    // One strided loop over the flattened reduced positions, delinearised.
    int64_t volume = *checkedProduct(red);
    SmallVector<Value> out(coords.begin(), coords.end());
    auto loop = scf::ForOp::create(e.b, e.loc, lanes->lane, e.idx(volume),
                                   e.idx(lanes->count), ValueRange{init});
    {
      OpBuilder::InsertionGuard g(e.b);
      e.b.setInsertionPointToStart(loop.getBody());
      Value flat = loop.getInductionVar();
      SmallVector<Value> r(red.size());
      for (int64_t i = static_cast<int64_t>(red.size()) - 1; i >= 0; --i) {
        if (i == 0) {
          r[i] = flat;
          break;
        }
        r[i] = arith::RemUIOp::create(e.b, e.loc, flat, e.idx(red[i]));
        flat = arith::DivUIOp::create(e.b, e.loc, flat, e.idx(red[i]));
      }
      SmallVector<Value> pos = rs.inputCoords<Value>(out, r);
      scf::YieldOp::create(
          e.b, e.loc,
          ValueRange{step(loop.getRegionIterArgs()[0],
                          operandAt(e.b, e.loc, pos))});
    }
    return lanes->allReduce(loop.getResult(0), combine);
  }
  SmallVector<Value> out(coords.begin(), coords.end()), lo, hi;
  for (int64_t size : red) {
    lo.push_back(e.idx(0));
    hi.push_back(e.idx(size));
  }
  return e.loopNest(lo, hi, init, [&](ArrayRef<Value> r, Value acc) {
    SmallVector<Value> pos = rs.inputCoords<Value>(out, r);
    return step(acc, operandAt(e.b, e.loc, pos));
  });
}

static Value buildReduce(const ReduceShape &rs, ReduceKind kind, OpBuilder &b,
                         Location loc, FloatType ft, ValueRange coords,
                         OperandAt operandAt, const WindowLanes *lanes) {
  Emit e{b, loc, ft};
  auto add = [&](Value a, Value v) -> Value {
    return arith::AddFOp::create(b, loc, a, v);
  };
  auto max = [&](Value a, Value v) -> Value {
    return arith::MaximumFOp::create(b, loc, a, v);
  };
  auto min = [&](Value a, Value v) -> Value {
    return arith::MinimumFOp::create(b, loc, a, v);
  };
  int64_t count = *checkedProduct(rs.reducedSizes());
  switch (kind) {
  case ReduceKind::Sum:
    return buildReduceLoop(rs, e, coords, operandAt, e.flt(0.0), add, lanes,
                           add);
  case ReduceKind::Mean:
    return arith::DivFOp::create(
        b, loc,
        buildReduceLoop(rs, e, coords, operandAt, e.flt(0.0), add, lanes, add),
        e.flt(static_cast<double>(count)));
  case ReduceKind::Variance: {
    // Shifted by the set's first element: the mean's rounding then scales
    // with the spread, not the magnitude (a mean of 1e3 and a std of 1).
    SmallVector<Value> zeros(rs.reducedSizes().size(), e.idx(0));
    Value shift = operandAt(
        b, loc, rs.inputCoords<Value>(llvm::to_vector(coords), zeros));
    auto shifted = [&](Value v) -> Value {
      return arith::SubFOp::create(b, loc, v, shift);
    };
    Value delta = arith::DivFOp::create(
        b, loc,
        buildReduceLoop(
            rs, e, coords, operandAt, e.flt(0.0),
            [&](Value a, Value v) { return add(a, shifted(v)); }, lanes, add),
        e.flt(static_cast<double>(count)));
    Value m2 = buildReduceLoop(
        rs, e, coords, operandAt, e.flt(0.0),
        [&](Value a, Value v) -> Value {
          Value d = arith::SubFOp::create(b, loc, shifted(v), delta);
          return add(a, arith::MulFOp::create(b, loc, d, d));
        },
        lanes, add);
    return arith::DivFOp::create(
        b, loc, m2, e.flt(static_cast<double>(count - rs.correction)));
  }
  case ReduceKind::Max:
    return buildReduceLoop(rs, e, coords, operandAt, e.flt(-INFINITY), max,
                           lanes, max);
  case ReduceKind::Min:
    return buildReduceLoop(rs, e, coords, operandAt, e.flt(INFINITY), min,
                           lanes, min);
  case ReduceKind::LogSumExp: {
    Value m = buildReduceLoop(rs, e, coords, operandAt, e.flt(-INFINITY), max,
                              lanes, max);
    Value isInf = arith::CmpFOp::create(
        b, loc, arith::CmpFPredicate::OEQ, math::AbsFOp::create(b, loc, m),
        e.flt(INFINITY));
    m = arith::SelectOp::create(b, loc, isInf, e.flt(0.0), m);
    Value s = buildReduceLoop(
        rs, e, coords, operandAt, e.flt(0.0), [&](Value a, Value v) -> Value {
          return add(a, math::ExpOp::create(
                            b, loc, arith::SubFOp::create(b, loc, v, m)));
        },
        lanes, add);
    return add(math::LogOp::create(b, loc, s), m);
  }
  }
  llvm_unreachable("reduction kind");
}

/// The set statistic a reduction kind is.
static SetReduction setReductionOf(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::Sum:
    return SetReduction::Sum;
  case ReduceKind::Mean:
    return SetReduction::Mean;
  case ReduceKind::Variance:
    return SetReduction::Variance;
  case ReduceKind::Max:
    return SetReduction::Max;
  case ReduceKind::Min:
    return SetReduction::Min;
  case ReduceKind::LogSumExp:
    return SetReduction::LogSumExp;
  }
  llvm_unreachable("reduction kind");
}

#define FUSE_REDUCE(OP, KIND)                                                  \
  SmallVector<int64_t> OP::getReducedDims() {                                  \
    SmallVector<int64_t> dims = llvm::to_vector(getDims());                    \
    llvm::sort(dims);                                                          \
    return dims;                                                               \
  }                                                                            \
  SetReduction OP::getSetReduction() { return setReductionOf(KIND); }          \
  LogicalResult OP::verify() {                                                 \
    return verifyReduce(*this, getDims(), getKeepdim());                       \
  }                                                                            \
  int64_t OP::getWindowVolume() {                                              \
    return *checkedProduct(                                                    \
        reduceShapeOf(*this, getDims(), getKeepdim()).reducedSizes());         \
  }                                                                            \
  Value OP::buildAt(OpBuilder &b, Location loc, ValueRange coords,             \
                    OperandAt operandAt, const WindowLanes *lanes) {           \
    return buildReduce(reduceShapeOf(*this, getDims(), getKeepdim()), KIND, b, \
                       loc, elementTypeOf(getInput()), coords, operandAt,      \
                       lanes);                                                 \
  }                                                                            \
  void OP::evaluateReference(ArrayRef<ArrayRef<double>> operands,              \
                             MutableArrayRef<double> out) {                    \
    evaluateReduce(reduceShapeOf(*this, getDims(), getKeepdim()), KIND,        \
                   getResult().getType().getShape(), operands[0], out);        \
  }                                                                            \
  std::string OP::getGraphAttributes() {                                       \
    return "dims=" + listStr(getDims()) +                                      \
           " keepdim=" + (getKeepdim() ? "1" : "0");                           \
  }

FUSE_REDUCE(SumOp, ReduceKind::Sum)
FUSE_REDUCE(MeanOp, ReduceKind::Mean)
FUSE_REDUCE(AmaxOp, ReduceKind::Max)
FUSE_REDUCE(AminOp, ReduceKind::Min)
FUSE_REDUCE(LogSumExpOp, ReduceKind::LogSumExp)
#undef FUSE_REDUCE

//===----------------------------------------------------------------------===//
// var
//===----------------------------------------------------------------------===//

LogicalResult VarOp::verify() {
  if (failed(verifyReduce(*this, getDims(), getKeepdim())))
    return failure();
  int64_t correction = getCorrection();
  if (correction < 0)
    return emitOpError("expected a non-negative 'correction', got ")
           << correction;
  std::optional<int64_t> size = checkedProduct(
      reduceShapeOf(*this, getDims(), getKeepdim()).reducedSizes());
  if (!size)
    return emitOpError("reduces sets whose size overflows int64");
  int64_t n = *size;
  if (n <= correction)
    return emitOpError("reduces sets of ")
           << n << " element" << (n == 1 ? "" : "s")
           << "; expected more than 'correction' = " << correction
           << " (the divisor n - correction must be positive)";
  return success();
}

SmallVector<int64_t> VarOp::getReducedDims() {
  SmallVector<int64_t> dims = llvm::to_vector(getDims());
  llvm::sort(dims);
  return dims;
}

SetReduction VarOp::getSetReduction() { return SetReduction::Variance; }

int64_t VarOp::getVarianceCorrection() { return getCorrection(); }

int64_t VarOp::getWindowVolume() {
  return *checkedProduct(
      reduceShapeOf(*this, getDims(), getKeepdim()).reducedSizes());
}

Value VarOp::buildAt(OpBuilder &b, Location loc, ValueRange coords,
                     OperandAt operandAt, const WindowLanes *lanes) {
  return buildReduce(
      reduceShapeOf(*this, getDims(), getKeepdim(), getCorrection()),
      ReduceKind::Variance, b, loc, elementTypeOf(getInput()), coords,
      operandAt, lanes);
}

void VarOp::evaluateReference(ArrayRef<ArrayRef<double>> operands,
                              MutableArrayRef<double> out) {
  evaluateReduce(reduceShapeOf(*this, getDims(), getKeepdim(), getCorrection()),
                 ReduceKind::Variance, getResult().getType().getShape(),
                 operands[0], out);
}

std::string VarOp::getGraphAttributes() {
  return "dims=" + listStr(getDims()) +
         " keepdim=" + (getKeepdim() ? "1" : "0") +
         " correction=" + std::to_string(getCorrection());
}

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  int64_t in = getInput().getType().getNumElements();
  int64_t out = getResult().getType().getNumElements();
  if (in != out)
    return emitOpError("expected a result with the input's ")
           << in << " elements, got " << out << " (shape "
           << shapeStr(getResult().getType().getShape()) << ")";
  return success();
}

int64_t ReshapeOp::getWindowVolume() { return 1; }

bool ReshapeOp::isView() { return true; }

Value ReshapeOp::buildAt(OpBuilder &b, Location loc, ValueRange coords,
                         OperandAt operandAt, const WindowLanes *) {
  Emit e{b, loc, elementTypeOf(getInput())};
  ArrayRef<int64_t> in = getInput().getType().getShape();
  ArrayRef<int64_t> out = getResult().getType().getShape();
  SmallVector<int64_t> outSt = stridesOf(out), inSt = stridesOf(in);
  Value flat = e.idx(0);
  for (auto [c, s] : llvm::zip(coords, outSt))
    flat = s == 1 ? e.addi(flat, c) : e.addi(flat, e.muli(c, e.idx(s)));
  SmallVector<Value> pos;
  for (auto [i, s] : llvm::enumerate(inSt)) {
    Value q = s == 1 ? flat : arith::DivUIOp::create(b, loc, flat, e.idx(s));
    pos.push_back(i == 0 ? q
                         : arith::RemUIOp::create(b, loc, q, e.idx(in[i])));
  }
  return operandAt(b, loc, pos);
}

void ReshapeOp::evaluateReference(ArrayRef<ArrayRef<double>> operands,
                                  MutableArrayRef<double> out) {
  llvm::copy(operands[0], out.begin());
}

std::string ReshapeOp::getGraphAttributes() {
  return "shape=" + listStr(getResult().getType().getShape());
}
