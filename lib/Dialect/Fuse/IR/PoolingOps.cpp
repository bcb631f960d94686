//===- PoolingOps.cpp - max, average and adaptive pooling -----------------===//
//
// The pooling ops of WindowOpInterface: their verifiers (PyTorch's shape
// rules, overflow-checked), the per-element window loops kernels evaluate
// them with, their double-precision reference and their bundle graph
// attributes. Windows follow PyTorch's `pooling_output_shape` and the
// divisor rules of `avg_pool*d`; adaptive windows are
// `[floor(i in / out), ceil((i+1) in / out))`.
//
//===----------------------------------------------------------------------===//

#include "WindowOpsCommon.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::fuse::window;

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

static SlidingWindow slidingWindowOf(const PoolParams &pp,
                                     SlidingWindow::Combine combine,
                                     double identity) {
  SlidingWindow w;
  w.combine = combine;
  w.identity = identity;
  w.kernel.assign(pp.k.begin(), pp.k.end());
  w.stride.assign(pp.s.begin(), pp.s.end());
  w.padding.assign(pp.p.begin(), pp.p.end());
  w.dilation.assign(pp.d.begin(), pp.d.end());
  return w;
}

static std::string poolAttrs(const PoolParams &pp) {
  return "kernel_size=" + listStr(pp.k) + " stride=" + listStr(pp.s) +
         " padding=" + listStr(pp.p);
}

// max_pool ----------------------------------------------------------------

LogicalResult MaxPoolOp::verify() {
  return verifyPool(*this, paramsOf(*this), getDilation().has_value());
}

std::optional<SlidingWindow> MaxPoolOp::getSlidingWindow() {
  return slidingWindowOf(paramsOf(*this), SlidingWindow::Combine::Max,
                         -std::numeric_limits<double>::infinity());
}

Value MaxPoolOp::buildWindowFinish(OpBuilder &, Location, ValueRange,
                                   Value combined) {
  return combined;
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

std::optional<SlidingWindow> AvgPoolOp::getSlidingWindow() {
  return slidingWindowOf(paramsOf(*this), SlidingWindow::Combine::Add, 0.0);
}

int64_t AvgPoolOp::getWindowVolume() {
  return *checkedProduct(paramsOf(*this).k);
}

Value AvgPoolOp::buildAt(OpBuilder &b, Location loc, ValueRange coords,
                         OperandAt operandAt, const WindowLanes *) {
  Value sum = buildPoolAccumulate(*this, paramsOf(*this), /*isMax=*/false, b,
                                  loc, coords, operandAt);
  return buildWindowFinish(b, loc, coords, sum);
}

Value AvgPoolOp::buildWindowFinish(OpBuilder &b, Location loc,
                                   ValueRange coords, Value sum) {
  PoolParams pp = paramsOf(*this);
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

/// Row positions a lane loads per loop iteration of a long adaptive row.
static constexpr int64_t kAdaptiveLaneUnroll = 8;

/// Builds the adaptive window at result coordinates `coords`. A dim whose
/// output size divides its input size has windows of one constant length
/// `in / out` starting at `o * (in / out)` (PyTorch's bounds, exactly), so
/// its loop has a constant trip count; other dims compute PyTorch's
/// `[floor(o in / out), ceil((o + 1) in / out))`. With `lanes`, the lanes
/// share the window: the outer window dims are walked by every lane, the
/// innermost (contiguous) one strided by lane, and the lanes' partial
/// results combine with the window's rule (sum or NaN-propagating max).
static Value buildAdaptive(Operation *op, bool isMax, OpBuilder &b,
                           Location loc, ValueRange coords, OperandAt operandAt,
                           const WindowLanes *lanes) {
  Emit e{b, loc, elementTypeOf(op->getOperand(0))};
  ArrayRef<int64_t> in =
      cast<RankedTensorType>(op->getOperand(0).getType()).getShape();
  ArrayRef<int64_t> out =
      cast<RankedTensorType>(op->getResult(0).getType()).getShape();
  int64_t sp = static_cast<int64_t>(in.size()) - 2;
  SmallVector<Value> pos = {coords[0], coords[1]};
  Value count = e.idx(1);
  SmallVector<Value> lo, hi;
  for (int64_t i = 0; i < sp; ++i) {
    Value start, end;
    if (out[i + 2] == 1) { // Global along this dim.
      start = e.idx(0);
      end = e.idx(in[i + 2]);
    } else if (in[i + 2] % out[i + 2] == 0) { // Windows of one length.
      int64_t k = in[i + 2] / out[i + 2];
      start = e.muli(coords[i + 2], e.idx(k));
      end = e.addi(start, e.idx(k));
    } else {
      Value o = coords[i + 2];
      start = arith::DivUIOp::create(b, loc, e.muli(o, e.idx(in[i + 2])),
                                     e.idx(out[i + 2]));
      end = arith::CeilDivUIOp::create(
          b, loc, e.muli(e.addi(o, e.idx(1)), e.idx(in[i + 2])),
          e.idx(out[i + 2]));
    }
    lo.push_back(start);
    hi.push_back(end);
    count = e.muli(count, e.subi(end, start));
  }
  auto combine = [&](Value acc, Value v) -> Value {
    return isMax ? Value(arith::MaximumFOp::create(b, loc, acc, v))
                 : Value(arith::AddFOp::create(b, loc, acc, v));
  };
  Value init = e.flt(isMax ? -std::numeric_limits<double>::infinity() : 0.0);
  Value acc;
  if (lanes && lanes->count > 1) {
    // Long rows: kAdaptiveLaneUnroll positions per lane and iteration,
    // loaded independently (one load in flight per lane would leave the
    // kernel bound by memory latency); positions past the row load its
    // first element and combine the identity.
    const int64_t rowMax =
        out.back() == 1 ? in.back() : adaptiveMaxLength(in.back(), out.back());
    const int64_t unroll = rowMax >= 2 * kAdaptiveLaneUnroll * lanes->count
                               ? kAdaptiveLaneUnroll
                               : 1;
    Value innerLo = lo.pop_back_val(), innerHi = hi.pop_back_val();
    Value part = e.loopNest(lo, hi, init, [&](ArrayRef<Value> r, Value a) {
      auto inner = scf::ForOp::create(b, loc, e.addi(innerLo, lanes->lane),
                                      innerHi, e.idx(lanes->count * unroll),
                                      ValueRange{a});
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(inner.getBody());
      SmallVector<Value> at(pos);
      llvm::append_range(at, r);
      at.push_back(Value());
      SmallVector<Value> values;
      for (int64_t u = 0; u < unroll; ++u) {
        Value w = e.addi(inner.getInductionVar(), e.idx(u * lanes->count));
        if (u == 0) {
          at.back() = w;
          values.push_back(operandAt(b, loc, at));
          continue;
        }
        Value inside = e.cmp(arith::CmpIPredicate::slt, w, innerHi);
        at.back() = arith::SelectOp::create(b, loc, inside, w, innerLo);
        values.push_back(arith::SelectOp::create(
            b, loc, inside, operandAt(b, loc, at), init));
      }
      Value next = inner.getRegionIterArgs()[0];
      for (Value v : values)
        next = combine(next, v);
      scf::YieldOp::create(b, loc, ValueRange{next});
      return inner.getResult(0);
    });
    acc = lanes->allReduce(part, combine);
  } else {
    acc = e.loopNest(lo, hi, init, [&](ArrayRef<Value> r, Value a) -> Value {
      SmallVector<Value> at(pos);
      llvm::append_range(at, r);
      return combine(a, operandAt(b, loc, at));
    });
  }
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
                    OperandAt operandAt, const WindowLanes *lanes) {           \
    return buildAdaptive(*this, IS_MAX, b, loc, coords, operandAt, lanes);     \
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

SetReduction AdaptiveAvgPoolOp::getSetReduction() {
  return getReducedDims().empty() ? SetReduction::None : SetReduction::Mean;
}

/// Global max pooling is the max over the spatial dims (NaN propagating, as
/// amax).
SmallVector<int64_t> AdaptiveMaxPoolOp::getReducedDims() {
  ArrayRef<int64_t> out = getResult().getType().getShape();
  if (llvm::any_of(out.drop_front(2), [](int64_t d) { return d != 1; }))
    return {};
  return llvm::to_vector(llvm::seq<int64_t>(2, out.size()));
}

SetReduction AdaptiveMaxPoolOp::getSetReduction() {
  return getReducedDims().empty() ? SetReduction::None : SetReduction::Max;
}
