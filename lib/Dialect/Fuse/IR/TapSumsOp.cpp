//===- TapSumsOp.cpp - per-tap box sums of a transposed convolution -------===//
//
// `fuse.conv_transpose_tap_sums` (WindowOpInterface): for each tap of a
// transposed convolution, the sum of the input elements that the tap maps
// into the output. Per spatial dim those inputs are an interval, so each
// result element is a box sum of its (sample, channel) plane; the loops
// run over the box only (no masks). A warp shares a box: its lanes walk
// the flattened box in steps of the lane count, consecutive lanes on
// consecutive positions of the innermost dim (coalesced), carrying the
// box coordinates instead of dividing per element. (A kernel of this op
// alone on its input builds a plane's box sums in one pass instead:
// BoxSums.h; `buildTapInterval` is the interval both use.)
//
//===----------------------------------------------------------------------===//

#include "SpatialVerify.h"
#include "WindowOpsCommon.h"

#include "fusecc/Dialect/Fuse/IR/KernelAnalysis.h"
#include "fusecc/Support/Format.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::fuse::window;

namespace {
/// Box positions a lane loads per loop iteration of a long box.
constexpr int64_t kLaneUnroll = 8;

/// The geometry of a tap-sums op, one entry per spatial dim.
struct TapGeometry {
  SmallVector<int64_t> in, k, s, p, d, out;

  static TapGeometry of(ConvTransposeTapSumsOp op) {
    TapGeometry g;
    g.in = llvm::to_vector(op.getInput().getType().getShape().drop_front(2));
    g.k = llvm::to_vector(op.getKernelSize());
    g.s = llvm::to_vector(op.getStride());
    g.p = llvm::to_vector(op.getPadding());
    g.d = llvm::to_vector(op.getDilation());
    g.out = llvm::to_vector(op.getOutputSize());
    return g;
  }

  /// The input interval [lo, hi) of result tap index `j` along dim `i`
  /// (tap `k - 1 - j`): the inputs `x` with `0 <= x s - p + t d < out`.
  /// Empty intervals have hi == lo.
  std::pair<int64_t, int64_t> interval(size_t i, int64_t j) const {
    int64_t t = k[i] - 1 - j;
    // x >= ceil((p - t d) / s), x <= floor((out - 1 + p - t d) / s).
    int64_t lo = std::max<int64_t>(
        0, llvm::divideFloorSigned(p[i] - t * d[i] + s[i] - 1, s[i]));
    int64_t hi = std::min<int64_t>(
        in[i], llvm::divideFloorSigned(out[i] - 1 + p[i] - t * d[i], s[i]) + 1);
    return {lo, std::max(lo, hi)};
  }
};
} // namespace

LogicalResult ConvTransposeTapSumsOp::verify() {
  auto inTy = getInput().getType();
  auto outTy = getResult().getType();
  int64_t rank = inTy.getRank();
  if (rank < 3 || rank > 5)
    return emitOpError("expected an input of rank 3, 4 or 5 ([N, C, "
                       "*spatial] with 1 to 3 spatial dims), got rank ")
           << rank;
  int64_t nsp = rank - 2;
  auto checkArr = [&](StringRef name, ArrayRef<int64_t> a, int64_t minVal) {
    return verifySpatialArray(*this, name, a, nsp, minVal);
  };
  if (failed(checkArr("kernel_size", getKernelSize(), 1)) ||
      failed(checkArr("stride", getStride(), 1)) ||
      failed(checkArr("padding", getPadding(), 0)) ||
      failed(checkArr("dilation", getDilation(), 1)) ||
      failed(checkArr("output_size", getOutputSize(), 1)))
    return failure();
  // The box sums and the window volume loop over the taps (and the taps
  // are a convolution's, which kernel analysis bounds the same way).
  for (int64_t k : getKernelSize())
    if (k > kMaxKernelSize)
      return emitOpError("kernel size ")
             << k << " exceeds " << kMaxKernelSize
             << ", the most the generated kernels unroll";
  double scale = getScale().convertToDouble();
  if (!std::isfinite(scale))
    return emitOpError("expected a finite 'scale', got ") << scale;
  TapGeometry g = TapGeometry::of(*this);
  for (int64_t i = 0; i < nsp; ++i) {
    // The interval bounds compute `p - t d + s - 1` and `out - 1 + p - t d`
    // with 0 <= t < k.
    CheckedInt low = (CheckedInt(g.k[i]) - 1) * g.d[i] - g.p[i] - g.s[i] + 1;
    CheckedInt high = CheckedInt(g.out[i]) - 1 + g.p[i] + g.s[i];
    if (low.overflowed() || high.overflowed())
      return emitOpError("the tap intervals of spatial dim ")
             << i << " (kernel_size " << g.k[i] << ", dilation " << g.d[i]
             << ", padding " << g.p[i] << ", stride " << g.s[i]
             << ", output_size " << g.out[i] << ") overflow int64";
  }
  SmallVector<int64_t> expected = {inTy.getDimSize(0), inTy.getDimSize(1)};
  llvm::append_range(expected, g.k);
  if (outTy.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("expected result shape ")
           << shapeStr(expected) << " ([N, C, *kernel_size]), got "
           << shapeStr(outTy.getShape());
  return success();
}

int64_t ConvTransposeTapSumsOp::getWindowVolume() {
  // The largest box: per dim the longest interval of any tap.
  TapGeometry g = TapGeometry::of(*this);
  int64_t volume = 1;
  for (size_t i = 0; i < g.k.size(); ++i) {
    int64_t longest = 0;
    for (int64_t j = 0; j < g.k[i]; ++j) {
      auto [lo, hi] = g.interval(i, j);
      longest = std::max(longest, hi - lo);
    }
    // Bounded by the input's dims: the product fits int64.
    volume *= longest;
  }
  return volume;
}

void ConvTransposeTapSumsOp::evaluateReference(
    ArrayRef<ArrayRef<double>> operands, MutableArrayRef<double> out) {
  TapGeometry g = TapGeometry::of(*this);
  ArrayRef<int64_t> inShape = getInput().getType().getShape();
  ArrayRef<int64_t> outShape = getResult().getType().getShape();
  SmallVector<int64_t> inSt = stridesOf(inShape), outSt = stridesOf(outShape);
  double scale = getScale().convertToDouble();
  forEachIndex(outShape, [&](ArrayRef<int64_t> o) {
    SmallVector<int64_t> lo, ext;
    for (size_t i = 0; i < g.k.size(); ++i) {
      auto [l, h] = g.interval(i, o[i + 2]);
      lo.push_back(l);
      ext.push_back(h - l);
    }
    double acc = 0.0;
    forEachIndex(ext, [&](ArrayRef<int64_t> r) {
      SmallVector<int64_t> pos = {o[0], o[1]};
      for (auto [l, x] : llvm::zip(lo, r))
        pos.push_back(l + x);
      acc += operands[0][flatIndex(pos, inSt)];
    });
    out[flatIndex(o, outSt)] = scale * acc;
  });
}

std::pair<int64_t, int64_t> ConvTransposeTapSumsOp::getTapInterval(unsigned dim,
                                                                   int64_t j) {
  return TapGeometry::of(*this).interval(dim, j);
}

std::pair<Value, Value> ConvTransposeTapSumsOp::buildTapInterval(OpBuilder &b,
                                                                 Location loc,
                                                                 unsigned dim,
                                                                 Value j) {
  Emit e{b, loc, elementTypeOf(getInput())};
  TapGeometry g = TapGeometry::of(*this);
  const size_t i = dim;
  Value t = e.subi(e.idx(g.k[i] - 1), j);
  Value td = g.d[i] == 1 ? t : e.muli(t, e.idx(g.d[i]));
  auto floorDiv = [&](Value v) -> Value {
    return g.s[i] == 1 ? v
                       : arith::FloorDivSIOp::create(b, loc, v, e.idx(g.s[i]));
  };
  Value l = e.maxi(e.idx(0), floorDiv(e.subi(e.idx(g.p[i] + g.s[i] - 1), td)));
  Value h = e.mini(
      e.idx(g.in[i]),
      e.addi(floorDiv(e.subi(e.idx(g.out[i] - 1 + g.p[i]), td)), e.idx(1)));
  return {l, h};
}

Value ConvTransposeTapSumsOp::buildAt(OpBuilder &b, Location loc,
                                      ValueRange coords, OperandAt operandAt,
                                      const WindowLanes *lanes) {
  Emit e{b, loc, elementTypeOf(getInput())};
  TapGeometry g = TapGeometry::of(*this);
  size_t nsp = g.k.size();
  // The box of the result element at `coords`: per dim [lo, lo + ext).
  SmallVector<Value> lo, ext;
  for (size_t i = 0; i < nsp; ++i) {
    auto [l, h] = buildTapInterval(b, loc, i, coords[i + 2]);
    lo.push_back(l);
    ext.push_back(e.maxi(e.idx(0), e.subi(h, l)));
  }
  auto elementAt = [&](ArrayRef<Value> r) {
    SmallVector<Value> pos = {coords[0], coords[1]};
    for (auto [l, x] : llvm::zip(lo, r))
      pos.push_back(e.addi(l, x));
    return operandAt(b, loc, pos);
  };
  auto add = [&](Value a, Value v) -> Value {
    return arith::AddFOp::create(b, loc, a, v);
  };
  Value sum;
  if (lanes && lanes->count > 1) {
    // Lane l takes the flattened box positions l, l + count, ...; its box
    // coordinates start at l's digits and advance by count's digits with
    // one carry per dim (both digits are below the extent). Divisors are
    // at least 1 (an empty box runs no iteration).
    SmallVector<Value> div;
    Value volume = e.idx(1);
    for (Value x : ext) {
      div.push_back(e.maxi(x, e.idx(1)));
      volume = e.muli(volume, x);
    }
    auto digits = [&](Value flat) {
      SmallVector<Value> r(nsp);
      for (size_t i = nsp; i-- > 0;) {
        if (i == 0) {
          r[i] = flat;
          break;
        }
        r[i] = arith::RemUIOp::create(b, loc, flat, div[i]);
        flat = arith::DivUIOp::create(b, loc, flat, div[i]);
      }
      return r;
    };
    SmallVector<Value> step = digits(e.idx(lanes->count));
    auto advance = [&](ArrayRef<Value> r) {
      SmallVector<Value> nr(nsp);
      Value carry = e.idx(0);
      for (size_t i = nsp; i-- > 0;) {
        Value v = e.addi(e.addi(r[i], step[i]), carry);
        if (i == 0) {
          nr[i] = v; // Past the box only where the walk ends.
          break;
        }
        Value wraps = e.cmp(arith::CmpIPredicate::sge, v, div[i]);
        nr[i] = arith::SelectOp::create(b, loc, wraps, e.subi(v, div[i]), v);
        carry = arith::SelectOp::create(b, loc, wraps, e.idx(1), e.idx(0));
      }
      return nr;
    };
    // Long boxes: kLaneUnroll positions per lane and iteration, loaded
    // independently (one load in flight per lane would leave the kernel
    // bound by memory latency); the positions past the box load the box's
    // first element (in bounds) and add 0.
    const int64_t unroll =
        getWindowVolume() >= 2 * kLaneUnroll * lanes->count ? kLaneUnroll : 1;
    SmallVector<Value> init = {e.flt(0.0)};
    llvm::append_range(init, digits(lanes->lane));
    auto loop = scf::ForOp::create(b, loc, lanes->lane, volume,
                                   e.idx(lanes->count * unroll), init);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      ValueRange it = loop.getRegionIterArgs();
      SmallVector<Value> r(it.begin() + 1, it.end());
      SmallVector<Value> values;
      for (int64_t u = 0; u < unroll; ++u) {
        if (u == 0) {
          values.push_back(elementAt(r));
        } else {
          Value inside = e.cmp(
              arith::CmpIPredicate::ult,
              e.addi(loop.getInductionVar(), e.idx(u * lanes->count)), volume);
          SmallVector<Value> pos;
          for (Value x : r)
            pos.push_back(arith::SelectOp::create(b, loc, inside, x, e.idx(0)));
          values.push_back(arith::SelectOp::create(b, loc, inside,
                                                   elementAt(pos), e.flt(0.0)));
        }
        r = advance(r);
      }
      SmallVector<Value> next = {it[0]};
      for (Value v : values)
        next[0] = add(next[0], v);
      llvm::append_range(next, r);
      scf::YieldOp::create(b, loc, next);
    }
    sum = lanes->allReduce(loop.getResult(0), add);
  } else {
    SmallVector<Value> zeros(nsp, e.idx(0));
    sum = e.loopNest(zeros, ext, e.flt(0.0), [&](ArrayRef<Value> r, Value acc) {
      return add(acc, elementAt(r));
    });
  }
  double scale = getScale().convertToDouble();
  return scale == 1.0 ? sum : arith::MulFOp::create(b, loc, sum, e.flt(scale));
}

std::string ConvTransposeTapSumsOp::getGraphAttributes() {
  return "kernel_size=" + listStr(getKernelSize()) +
         " stride=" + listStr(getStride()) +
         " padding=" + listStr(getPadding()) +
         " dilation=" + listStr(getDilation()) +
         " output_size=" + listStr(getOutputSize()) +
         " scale=" + formatExact(getScale().convertToDouble());
}
