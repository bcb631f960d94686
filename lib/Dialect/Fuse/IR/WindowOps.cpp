//===- WindowOps.cpp - pooling, reductions and reshapes -------------------===//
//
// The ops of WindowOpInterface: their verifiers (PyTorch's shape rules,
// overflow-checked), the per-element loops kernels evaluate them with, their
// double-precision reference, and their bundle graph attributes. Pooling
// windows follow PyTorch's `pooling_output_shape` and the divisor rules of
// `avg_pool*d`; adaptive windows are `[floor(i in / out), ceil((i+1) in /
// out))`; logsumexp subtracts the maximum (an infinite maximum counts as 0,
// as in PyTorch).
//
//===----------------------------------------------------------------------===//

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"
#include "fusecc/Support/CheckedArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

using OperandAt = function_ref<Value(OpBuilder &, Location, ValueRange)>;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

static std::string listStr(ArrayRef<int64_t> v) {
  std::string s;
  for (auto [i, x] : llvm::enumerate(v))
    s += (i ? "," : "") + std::to_string(x);
  return s;
}

static std::string shapeStr(ArrayRef<int64_t> shape) {
  return "[" + listStr(shape) + "]";
}

/// Row-major strides of `shape`.
static SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> st(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    st[i] = st[i + 1] * shape[i + 1];
  return st;
}

/// Calls `fn(coords)` for every coordinate of `shape`, row-major.
static void forEachIndex(ArrayRef<int64_t> shape,
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

static int64_t flatIndex(ArrayRef<int64_t> idx, ArrayRef<int64_t> strides) {
  int64_t f = 0;
  for (auto [i, s] : llvm::zip(idx, strides))
    f += i * s;
  return f;
}

static double nanMaxD(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
}
static double nanMinD(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
}

namespace {
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
} // namespace

static FloatType elementTypeOf(Value v) {
  return cast<FloatType>(cast<RankedTensorType>(v.getType()).getElementType());
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// PyTorch's `pooling_output_shape`, overflow-checked: std::nullopt when a
/// term overflows.
static std::optional<int64_t> poolOutputSize(int64_t in, int64_t k, int64_t s,
                                             int64_t p, int64_t d, bool ceil) {
  std::optional<int64_t> num =
      (CheckedInt(in) + CheckedInt(2) * p - CheckedInt(d) * (CheckedInt(k) - 1) -
       1 + (ceil ? CheckedInt(s) - 1 : CheckedInt(0)))
          .get();
  if (!num)
    return std::nullopt;
  // Floor division without overflow (num may be any int64).
  int64_t q = *num >= 0 ? *num / s : -1 - (-(*num + 1)) / s;
  int64_t out = q + 1;
  // A last window that would start in the right padding is dropped.
  if (ceil) {
    std::optional<int64_t> start = ((CheckedInt(out) - 1) * s).get();
    std::optional<int64_t> limit = (CheckedInt(in) + p).get();
    if (!start || !limit)
      return std::nullopt;
    if (*start >= *limit)
      --out;
  }
  return out;
}

namespace {
/// The per-dim window parameters of a max_pool or avg_pool.
struct PoolParams {
  SmallVector<int64_t> k, s, p, d;
  bool ceil = false;
  int64_t spatial() const { return static_cast<int64_t>(k.size()); }
};
} // namespace

static PoolParams paramsOf(MaxPoolOp op) {
  PoolParams pp;
  pp.k = llvm::to_vector(op.getKernelSize());
  pp.s = llvm::to_vector(op.getStride());
  pp.p = llvm::to_vector(op.getPadding());
  if (auto d = op.getDilation())
    pp.d = llvm::to_vector(*d);
  else
    pp.d.assign(pp.k.size(), 1);
  pp.ceil = op.getCeilMode();
  return pp;
}

static PoolParams paramsOf(AvgPoolOp op) {
  PoolParams pp;
  pp.k = llvm::to_vector(op.getKernelSize());
  pp.s = llvm::to_vector(op.getStride());
  pp.p = llvm::to_vector(op.getPadding());
  pp.d.assign(pp.k.size(), 1);
  pp.ceil = op.getCeilMode();
  return pp;
}

/// Checks a pooling op's attributes against its operand and result types.
static LogicalResult verifyPool(Operation *op, const PoolParams &pp,
                                bool hasDilation) {
  auto inTy = cast<RankedTensorType>(op->getOperand(0).getType());
  auto outTy = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t sp = pp.spatial();
  if (sp < 1 || sp > 3)
    return op->emitOpError("expected 1 to 3 entries in 'kernel_size' (the "
                           "spatial dims), got ")
           << sp;
  if (inTy.getRank() != sp + 2)
    return op->emitOpError("expected a rank-")
           << sp + 2 << " input [N, C, " << sp
           << " spatial dims] for a kernel_size of " << sp
           << " entries, got rank " << inTy.getRank();
  auto sameLength = [&](StringRef name, size_t n) -> LogicalResult {
    if (static_cast<int64_t>(n) == sp)
      return success();
    return op->emitOpError("expected ")
           << sp << " entries in '" << name << "' (one per kernel_size "
           << "entry), got " << n;
  };
  if (failed(sameLength("stride", pp.s.size())) ||
      failed(sameLength("padding", pp.p.size())) ||
      (hasDilation && failed(sameLength("dilation", pp.d.size()))))
    return failure();
  ArrayRef<int64_t> in = inTy.getShape();
  SmallVector<int64_t> expected = {in[0], in[1]};
  for (int64_t i = 0; i < sp; ++i) {
    if (pp.k[i] < 1 || pp.s[i] < 1 || pp.d[i] < 1 || pp.p[i] < 0)
      return op->emitOpError("expected kernel_size, stride and dilation "
                             "of at least 1 and padding of at least 0 in "
                             "spatial dim ")
             << i << ", got kernel " << pp.k[i] << ", stride " << pp.s[i]
             << ", dilation " << pp.d[i] << ", padding " << pp.p[i];
    std::optional<int64_t> eff =
        (CheckedInt(pp.d[i]) * (CheckedInt(pp.k[i]) - 1) + 1).get();
    if (!eff)
      return op->emitOpError("the dilated kernel size of spatial dim ")
             << i << " overflows int64";
    // PyTorch bounds the padding by half the kernel size, dilation aside
    // (so no window lies wholly in the padding).
    if (pp.p[i] > pp.k[i] / 2)
      return op->emitOpError("padding ")
             << pp.p[i] << " in spatial dim " << i
             << " exceeds half the kernel size " << pp.k[i]
             << " (PyTorch requires padding <= kernel_size / 2)";
    std::optional<int64_t> out =
        poolOutputSize(in[i + 2], pp.k[i], pp.s[i], pp.p[i], pp.d[i], pp.ceil);
    if (!out)
      return op->emitOpError("output size of spatial dim ")
             << i << " overflows int64";
    if (*out < 1)
      return op->emitOpError("the window does not fit in spatial dim ")
             << i << " (input " << in[i + 2] << " with padding " << pp.p[i]
             << " against a dilated kernel of " << *eff
             << "): the output would be empty";
    expected.push_back(*out);
  }
  if (outTy.getShape() != ArrayRef<int64_t>(expected))
    return op->emitOpError("expected result shape ")
           << shapeStr(expected) << ", got " << shapeStr(outTy.getShape());
  if (!checkedProduct(pp.k))
    return op->emitOpError("the window's volume overflows int64");
  return success();
}

/// The window of output position `o` along spatial dim `i`: its first input
/// position (may be negative) and, for avg_pool, the end clipped to the
/// padded input.
static int64_t windowStart(const PoolParams &pp, int64_t i, int64_t o) {
  return o * pp.s[i] - pp.p[i];
}

/// True when every window of spatial dim `i` lies inside the input.
static bool alwaysInside(const PoolParams &pp, int64_t i, int64_t inSize,
                         int64_t outSize) {
  return pp.p[i] == 0 &&
         (outSize - 1) * pp.s[i] + (pp.k[i] - 1) * pp.d[i] < inSize;
}

/// Reference: max (`isMax`) or sum of the in-bounds elements of every
/// window; `divisor(out coords)` divides the sum (avg) when given.
static void evaluatePool(Operation *op, const PoolParams &pp, bool isMax,
                         ArrayRef<double> x, MutableArrayRef<double> y,
                         function_ref<double(ArrayRef<int64_t>)> divisor) {
  ArrayRef<int64_t> in =
      cast<RankedTensorType>(op->getOperand(0).getType()).getShape();
  ArrayRef<int64_t> out =
      cast<RankedTensorType>(op->getResult(0).getType()).getShape();
  SmallVector<int64_t> inSt = stridesOf(in), outSt = stridesOf(out);
  int64_t sp = pp.spatial();
  forEachIndex(out, [&](ArrayRef<int64_t> o) {
    double acc = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
    forEachIndex(pp.k, [&](ArrayRef<int64_t> kk) {
      SmallVector<int64_t> pos = {o[0], o[1]};
      for (int64_t i = 0; i < sp; ++i) {
        int64_t v = windowStart(pp, i, o[i + 2]) + kk[i] * pp.d[i];
        if (v < 0 || v >= in[i + 2])
          return;
        pos.push_back(v);
      }
      double e = x[flatIndex(pos, inSt)];
      acc = isMax ? nanMaxD(acc, e) : acc + e;
    });
    y[flatIndex(o, outSt)] = isMax ? acc : acc / divisor(o);
  });
}

/// Builds the window loop of a pooling op at result coordinates `coords`:
/// max, or the sum of the in-bounds elements.
static Value buildPoolAccumulate(Operation *op, const PoolParams &pp,
                                 bool isMax, OpBuilder &b, Location loc,
                                 ValueRange coords, OperandAt operandAt) {
  Emit e{b, loc, elementTypeOf(op->getOperand(0))};
  ArrayRef<int64_t> in =
      cast<RankedTensorType>(op->getOperand(0).getType()).getShape();
  ArrayRef<int64_t> out =
      cast<RankedTensorType>(op->getResult(0).getType()).getShape();
  int64_t sp = pp.spatial();
  Value init = e.flt(isMax ? -std::numeric_limits<double>::infinity() : 0.0);
  SmallVector<Value> pos = {coords[0], coords[1]};
  Value inside; // i1 conjunction of the bounds checks so far, or null.
  std::function<Value(int64_t, Value)> level = [&](int64_t i,
                                                   Value acc) -> Value {
    if (i == sp) {
      auto combine = [&]() -> SmallVector<Value> {
        Value v = operandAt(b, loc, pos);
        Value r = isMax ? Value(arith::MaximumFOp::create(b, loc, acc, v))
                        : Value(arith::AddFOp::create(b, loc, acc, v));
        return {r};
      };
      return inside ? e.ifElse(inside, acc, combine)[0] : combine()[0];
    }
    Value start = e.subi(e.muli(coords[i + 2], e.idx(pp.s[i])), e.idx(pp.p[i]));
    return e.loop(e.idx(0), e.idx(pp.k[i]), acc,
                  [&](Value kk, ValueRange it) -> SmallVector<Value> {
                    Value p = e.addi(start, e.muli(kk, e.idx(pp.d[i])));
                    Value saved = inside;
                    if (!alwaysInside(pp, i, in[i + 2], out[i + 2])) {
                      Value ok = e.andi(
                          e.cmp(arith::CmpIPredicate::sge, p, e.idx(0)),
                          e.cmp(arith::CmpIPredicate::slt, p,
                                e.idx(in[i + 2])));
                      inside = inside ? e.andi(inside, ok) : ok;
                    }
                    pos.push_back(p);
                    Value r = level(i + 1, it[0]);
                    pos.pop_back();
                    inside = saved;
                    return {r};
                  })[0];
  };
  return level(0, init);
}

static std::string poolAttrs(const PoolParams &pp) {
  return "kernel_size=" + listStr(pp.k) + " stride=" + listStr(pp.s) +
         " padding=" + listStr(pp.p);
}

// max_pool ----------------------------------------------------------------

LogicalResult MaxPoolOp::verify() {
  return verifyPool(*this, paramsOf(*this), getDilation().has_value());
}

int64_t MaxPoolOp::getWindowVolume() {
  return *checkedProduct(paramsOf(*this).k);
}

Value MaxPoolOp::buildAt(OpBuilder &b, Location loc, ValueRange coords,
                         OperandAt operandAt, const WindowLanes *) {
  return buildPoolAccumulate(*this, paramsOf(*this), /*isMax=*/true, b, loc,
                             coords, operandAt);
}

void MaxPoolOp::evaluateReference(ArrayRef<ArrayRef<double>> operands,
                                  MutableArrayRef<double> out) {
  evaluatePool(*this, paramsOf(*this), /*isMax=*/true, operands[0], out,
               nullptr);
}

std::string MaxPoolOp::getGraphAttributes() {
  PoolParams pp = paramsOf(*this);
  return poolAttrs(pp) + " dilation=" + listStr(pp.d) +
         " ceil_mode=" + (pp.ceil ? "1" : "0");
}

// avg_pool ----------------------------------------------------------------

/// The divisor of avg_pool's window at output coordinates `o` (PyTorch's
/// `avg_pool*d` rules).
static int64_t avgDivisor(AvgPoolOp op, const PoolParams &pp,
                          ArrayRef<int64_t> in, ArrayRef<int64_t> o) {
  if (auto d = op.getDivisorOverrideAttr())
    return d.getInt();
  int64_t withPad = 1, inside = 1;
  for (int64_t i = 0; i < pp.spatial(); ++i) {
    int64_t start = windowStart(pp, i, o[i + 2]);
    int64_t end = std::min(start + pp.k[i], in[i + 2] + pp.p[i]);
    withPad *= end - start;
    inside *= std::min(end, in[i + 2]) - std::max(start, int64_t{0});
  }
  return op.getCountIncludePad() ? withPad : inside;
}

LogicalResult AvgPoolOp::verify() {
  if (failed(verifyPool(*this, paramsOf(*this), /*hasDilation=*/false)))
    return failure();
  if (auto d = getDivisorOverrideAttr(); d && d.getInt() < 1)
    return emitOpError("expected a positive divisor_override, got ")
           << d.getInt();
  return success();
}

int64_t AvgPoolOp::getWindowVolume() {
  return *checkedProduct(paramsOf(*this).k);
}

Value AvgPoolOp::buildAt(OpBuilder &b, Location loc, ValueRange coords,
                         OperandAt operandAt, const WindowLanes *) {
  PoolParams pp = paramsOf(*this);
  Value sum = buildPoolAccumulate(*this, pp, /*isMax=*/false, b, loc, coords,
                                  operandAt);
  Emit e{b, loc, elementTypeOf(getInput())};
  if (auto d = getDivisorOverrideAttr())
    return arith::DivFOp::create(b, loc, sum,
                                 e.flt(static_cast<double>(d.getInt())));
  ArrayRef<int64_t> in = getInput().getType().getShape();
  ArrayRef<int64_t> out = getResult().getType().getShape();
  // The divisor is a product of per-dim window lengths; dims whose windows
  // are all whole contribute a constant.
  Value count = e.idx(1);
  int64_t constant = 1;
  for (int64_t i = 0; i < pp.spatial(); ++i) {
    if (alwaysInside(pp, i, in[i + 2], out[i + 2])) {
      constant *= pp.k[i];
      continue;
    }
    Value start =
        e.subi(e.muli(coords[i + 2], e.idx(pp.s[i])), e.idx(pp.p[i]));
    Value end = e.mini(e.addi(start, e.idx(pp.k[i])),
                       e.idx(in[i + 2] + pp.p[i]));
    Value len = getCountIncludePad()
                    ? e.subi(end, start)
                    : e.subi(e.mini(end, e.idx(in[i + 2])),
                             e.maxi(start, e.idx(0)));
    count = e.muli(count, len);
  }
  count = e.muli(count, e.idx(constant));
  return arith::DivFOp::create(b, loc, sum, e.toF(count));
}

void AvgPoolOp::evaluateReference(ArrayRef<ArrayRef<double>> operands,
                                  MutableArrayRef<double> out) {
  PoolParams pp = paramsOf(*this);
  ArrayRef<int64_t> in = getInput().getType().getShape();
  evaluatePool(*this, pp, /*isMax=*/false, operands[0], out,
               [&](ArrayRef<int64_t> o) {
                 return static_cast<double>(avgDivisor(*this, pp, in, o));
               });
}

std::string AvgPoolOp::getGraphAttributes() {
  std::string s = poolAttrs(paramsOf(*this)) +
                  " ceil_mode=" + (getCeilMode() ? "1" : "0") +
                  " count_include_pad=" + (getCountIncludePad() ? "1" : "0");
  if (auto d = getDivisorOverrideAttr())
    s += " divisor_override=" + std::to_string(d.getInt());
  return s;
}

//===----------------------------------------------------------------------===//
// Adaptive pooling
//===----------------------------------------------------------------------===//

static LogicalResult verifyAdaptivePool(Operation *op) {
  auto inTy = cast<RankedTensorType>(op->getOperand(0).getType());
  auto outTy = cast<RankedTensorType>(op->getResult(0).getType());
  if (inTy.getRank() < 3 || inTy.getRank() > 5)
    return op->emitOpError("expected an input [N, C, *spatial] with 1 to 3 "
                           "spatial dims, got rank ")
           << inTy.getRank();
  if (outTy.getRank() != inTy.getRank())
    return op->emitOpError("expected a result of rank ")
           << inTy.getRank() << " (the input's), got " << outTy.getRank();
  ArrayRef<int64_t> in = inTy.getShape(), out = outTy.getShape();
  if (in[0] != out[0] || in[1] != out[1])
    return op->emitOpError("expected the result to keep N and C ")
           << shapeStr(in.take_front(2)) << ", got "
           << shapeStr(out.take_front(2));
  for (int64_t i = 2; i < inTy.getRank(); ++i) {
    if (in[i] < 1)
      return op->emitOpError("expected non-empty spatial dims, dim ")
             << i << " has size " << in[i];
    if (out[i] < 1)
      return op->emitOpError("expected output sizes of at least 1, dim ")
             << i << " has size " << out[i];
  }
  return success();
}

/// Window `[start, end)` of adaptive output position `o` (input size `in`,
/// output size `out`), as PyTorch computes it.
static std::pair<int64_t, int64_t> adaptiveWindow(int64_t o, int64_t in,
                                                  int64_t out) {
  return {(o * in) / out, ((o + 1) * in + out - 1) / out};
}

/// The longest adaptive window along a dim.
static int64_t adaptiveMaxLength(int64_t in, int64_t out) {
  int64_t m = 0;
  // Window lengths take at most two values; the first and a middle one
  // cover both only for small sizes, so take every position while cheap.
  for (int64_t o = 0; o < out && o < 4096; ++o) {
    auto [s, e] = adaptiveWindow(o, in, out);
    m = std::max(m, e - s);
  }
  return std::max(m, (in + out - 1) / out + 1);
}

static int64_t adaptiveVolume(Operation *op) {
  ArrayRef<int64_t> in =
      cast<RankedTensorType>(op->getOperand(0).getType()).getShape();
  ArrayRef<int64_t> out =
      cast<RankedTensorType>(op->getResult(0).getType()).getShape();
  int64_t v = 1;
  for (size_t i = 2; i < in.size(); ++i)
    v = checkedMul(v, std::min(in[i], adaptiveMaxLength(in[i], out[i])))
            .value_or(std::numeric_limits<int64_t>::max());
  return v;
}

static void evaluateAdaptive(Operation *op, bool isMax, ArrayRef<double> x,
                             MutableArrayRef<double> y) {
  ArrayRef<int64_t> in =
      cast<RankedTensorType>(op->getOperand(0).getType()).getShape();
  ArrayRef<int64_t> out =
      cast<RankedTensorType>(op->getResult(0).getType()).getShape();
  SmallVector<int64_t> inSt = stridesOf(in), outSt = stridesOf(out);
  int64_t sp = static_cast<int64_t>(in.size()) - 2;
  forEachIndex(out, [&](ArrayRef<int64_t> o) {
    SmallVector<int64_t> start, len;
    for (int64_t i = 0; i < sp; ++i) {
      auto [s, e] = adaptiveWindow(o[i + 2], in[i + 2], out[i + 2]);
      start.push_back(s);
      len.push_back(e - s);
    }
    double acc = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
    int64_t count = 0;
    forEachIndex(len, [&](ArrayRef<int64_t> w) {
      SmallVector<int64_t> pos = {o[0], o[1]};
      for (int64_t i = 0; i < sp; ++i)
        pos.push_back(start[i] + w[i]);
      double v = x[flatIndex(pos, inSt)];
      acc = isMax ? nanMaxD(acc, v) : acc + v;
      ++count;
    });
    y[flatIndex(o, outSt)] = isMax ? acc : acc / count;
  });
}

static Value buildAdaptive(Operation *op, bool isMax, OpBuilder &b,
                           Location loc, ValueRange coords,
                           OperandAt operandAt) {
  Emit e{b, loc, elementTypeOf(op->getOperand(0))};
  ArrayRef<int64_t> in =
      cast<RankedTensorType>(op->getOperand(0).getType()).getShape();
  ArrayRef<int64_t> out =
      cast<RankedTensorType>(op->getResult(0).getType()).getShape();
  int64_t sp = static_cast<int64_t>(in.size()) - 2;
  SmallVector<Value> pos = {coords[0], coords[1]};
  Value count = e.idx(1);
  SmallVector<std::pair<Value, Value>> bounds;
  for (int64_t i = 0; i < sp; ++i) {
    Value start, end;
    if (out[i + 2] == 1) { // Global along this dim.
      start = e.idx(0);
      end = e.idx(in[i + 2]);
    } else {
      Value o = coords[i + 2];
      start = arith::DivUIOp::create(b, loc, e.muli(o, e.idx(in[i + 2])),
                                     e.idx(out[i + 2]));
      end = arith::CeilDivUIOp::create(
          b, loc, e.muli(e.addi(o, e.idx(1)), e.idx(in[i + 2])),
          e.idx(out[i + 2]));
    }
    bounds.push_back({start, end});
    count = e.muli(count, e.subi(end, start));
  }
  std::function<Value(int64_t, Value)> level = [&](int64_t i,
                                                   Value acc) -> Value {
    if (i == sp) {
      Value v = operandAt(b, loc, pos);
      return isMax ? Value(arith::MaximumFOp::create(b, loc, acc, v))
                   : Value(arith::AddFOp::create(b, loc, acc, v));
    }
    return e.loop(bounds[i].first, bounds[i].second, acc,
                  [&](Value p, ValueRange it) -> SmallVector<Value> {
                    pos.push_back(p);
                    Value r = level(i + 1, it[0]);
                    pos.pop_back();
                    return {r};
                  })[0];
  };
  Value acc =
      level(0, e.flt(isMax ? -std::numeric_limits<double>::infinity() : 0.0));
  if (isMax)
    return acc;
  return arith::DivFOp::create(b, loc, acc, e.toF(count));
}

static std::string adaptiveAttrs(Operation *op) {
  ArrayRef<int64_t> out =
      cast<RankedTensorType>(op->getResult(0).getType()).getShape();
  return "output_size=" + listStr(out.drop_front(2));
}

#define FUSE_ADAPTIVE(OP, IS_MAX)                                              \
  LogicalResult OP::verify() { return verifyAdaptivePool(*this); }             \
  int64_t OP::getWindowVolume() { return adaptiveVolume(*this); }              \
  Value OP::buildAt(OpBuilder &b, Location loc, ValueRange coords,             \
                    OperandAt operandAt, const WindowLanes *) {                \
    return buildAdaptive(*this, IS_MAX, b, loc, coords, operandAt);            \
  }                                                                            \
  void OP::evaluateReference(ArrayRef<ArrayRef<double>> operands,              \
                             MutableArrayRef<double> out) {                    \
    evaluateAdaptive(*this, IS_MAX, operands[0], out);                         \
  }                                                                            \
  std::string OP::getGraphAttributes() { return adaptiveAttrs(*this); }

FUSE_ADAPTIVE(AdaptiveAvgPoolOp, false)
FUSE_ADAPTIVE(AdaptiveMaxPoolOp, true)
#undef FUSE_ADAPTIVE

/// Global average pooling (every output size 1) is the mean over the
/// spatial dims; other adaptive windows are not whole dims.
SmallVector<int64_t> AdaptiveAvgPoolOp::getReducedDims() {
  ArrayRef<int64_t> out = getResult().getType().getShape();
  if (llvm::any_of(out.drop_front(2), [](int64_t d) { return d != 1; }))
    return {};
  return llvm::to_vector(llvm::seq<int64_t>(2, out.size()));
}

MomentReduction AdaptiveAvgPoolOp::getMomentReduction() {
  return getReducedDims().empty() ? MomentReduction::None
                                  : MomentReduction::Mean;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

namespace {
enum class ReduceKind { Sum, Mean, Max, Min, LogSumExp };

/// The reduced dims of a reduction op, and where each result dim reads its
/// coordinate from.
struct ReduceShape {
  SmallVector<int64_t> in;
  SmallVector<bool> reduced;
  bool keepdim = false;

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
                                 bool keepdim) {
  ReduceShape rs;
  rs.in = llvm::to_vector(
      cast<RankedTensorType>(op->getOperand(0).getType()).getShape());
  rs.reduced.assign(rs.in.size(), false);
  for (int64_t d : dims)
    rs.reduced[d] = true;
  rs.keepdim = keepdim;
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
  SmallVector<Value> out(coords.begin(), coords.end()), r;
  std::function<Value(size_t, Value)> level = [&](size_t i,
                                                  Value acc) -> Value {
    if (i == red.size()) {
      SmallVector<Value> pos = rs.inputCoords<Value>(out, r);
      return step(acc, operandAt(e.b, e.loc, pos));
    }
    return e.loop(e.idx(0), e.idx(red[i]), acc,
                  [&](Value iv, ValueRange it) -> SmallVector<Value> {
                    r.push_back(iv);
                    Value v = level(i + 1, it[0]);
                    r.pop_back();
                    return {v};
                  })[0];
  };
  return level(0, init);
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

/// The moment form of a reduction kind.
static MomentReduction momentOf(ReduceKind kind) {
  return kind == ReduceKind::Sum    ? MomentReduction::Sum
         : kind == ReduceKind::Mean ? MomentReduction::Mean
                                    : MomentReduction::None;
}

#define FUSE_REDUCE(OP, KIND)                                                  \
  SmallVector<int64_t> OP::getReducedDims() {                                  \
    SmallVector<int64_t> dims = llvm::to_vector(getDims());                    \
    llvm::sort(dims);                                                          \
    return dims;                                                               \
  }                                                                            \
  MomentReduction OP::getMomentReduction() { return momentOf(KIND); }          \
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
