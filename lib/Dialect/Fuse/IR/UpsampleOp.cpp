//===- UpsampleOp.cpp - nearest and linear resizing -----------------------===//
//
// `fuse.upsample` (PyTorch's F.interpolate, nearest and (bi/tri)linear) as
// a window op: its verifier, the per-element gather kernels evaluate it
// with (one read for nearest, 2^dims weighted reads for linear), its
// double-precision reference and its bundle graph attributes. The source
// coordinates and weights are computed in f32 with PyTorch's formulas
// (`compute_scales_value`, `area_pixel_compute_source_index`,
// `nearest_neighbor_compute_source_index`), so both pick the same source
// elements and weights as PyTorch.
//
//===----------------------------------------------------------------------===//

#include "WindowOpsCommon.h"
#include "fusecc/Support/Format.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::fuse::window;

namespace {

/// Where one output position of one spatial dim reads: nearest, one
/// source `i0`; linear, `i0` and `i1` weighted `l0` and `l1`.
struct Source {
  int64_t i0 = 0, i1 = 0;
  float l0 = 1.0f, l1 = 0.0f;
};

/// The per-dim coordinate parameters of an upsample.
struct DimParams {
  int64_t in, out;
  float scale; ///< The coordinate scale r, in f32 as PyTorch computes it.
};

SmallVector<DimParams> dimParams(UpsampleOp op) {
  ArrayRef<int64_t> in = op.getInput().getType().getShape();
  ArrayRef<int64_t> out = op.getResult().getType().getShape();
  std::optional<ArrayRef<double>> scales = op.getScales();
  SmallVector<DimParams> ps;
  for (size_t d = 2; d < in.size(); ++d) {
    DimParams p{in[d], out[d], 0.0f};
    if (op.getLinear() && op.getAlignCorners())
      p.scale = p.out > 1 ? static_cast<float>(p.in - 1) /
                                static_cast<float>(p.out - 1)
                          : 0.0f;
    else if (scales && (*scales)[d - 2] > 0.0)
      p.scale = static_cast<float>(1.0 / (*scales)[d - 2]);
    else
      p.scale = static_cast<float>(p.in) / static_cast<float>(p.out);
    ps.push_back(p);
  }
  return ps;
}

/// The source of output position `o` (the reference's f32 arithmetic; the
/// kernels build the same operations).
Source sourceOf(const DimParams &p, int64_t o, bool linear, bool alignCorners) {
  Source s;
  const float of = static_cast<float>(o);
  if (!linear) {
    s.i0 = s.i1 =
        std::min(static_cast<int64_t>(std::floor(of * p.scale)), p.in - 1);
    return s;
  }
  float src = alignCorners ? p.scale * of : p.scale * (of + 0.5f) - 0.5f;
  if (src < 0.0f)
    src = 0.0f;
  s.i0 = static_cast<int64_t>(src);
  s.i1 = s.i0 + (s.i0 < p.in - 1 ? 1 : 0);
  s.l1 = src - static_cast<float>(s.i0);
  s.l0 = 1.0f - s.l1;
  return s;
}

} // namespace

LogicalResult UpsampleOp::verify() {
  auto inTy = getInput().getType();
  auto outTy = getResult().getType();
  int64_t rank = inTy.getRank();
  if (rank < 3 || rank > 5)
    return emitOpError("expected an input [N, C, *spatial] with 1 to 3 "
                       "spatial dims, got rank ")
           << rank;
  if (outTy.getRank() != rank)
    return emitOpError("expected a result of rank ")
           << rank << " (the input's), got " << outTy.getRank();
  ArrayRef<int64_t> in = inTy.getShape(), out = outTy.getShape();
  if (in[0] != out[0] || in[1] != out[1])
    return emitOpError("expected the result to keep N and C ")
           << shapeStr(in.take_front(2)) << ", got "
           << shapeStr(out.take_front(2));
  if (getAlignCorners() && !getLinear())
    return emitOpError("align_corners needs linear interpolation (PyTorch "
                       "rejects it for nearest)");
  std::optional<ArrayRef<double>> scales = getScales();
  if (scales && static_cast<int64_t>(scales->size()) != rank - 2)
    return emitOpError("expected ")
           << rank - 2 << " scales (one per spatial dim), got "
           << scales->size();
  for (int64_t d = 2; d < rank; ++d) {
    if (in[d] < 1 || out[d] < 1)
      return emitOpError("expected non-empty spatial dims, dim ")
             << d << " is " << in[d] << " -> " << out[d];
    if (!scales)
      continue;
    double s = (*scales)[d - 2];
    if (!(s > 0.0) || !std::isfinite(s))
      return emitOpError("expected positive finite scales, got ")
             << s << " for dim " << d;
    // PyTorch's output size for a scale factor: floor(in * scale).
    double want = std::floor(static_cast<double>(in[d]) * s);
    if (want != static_cast<double>(out[d]))
      return emitOpError("result dim ")
             << d << " is " << out[d] << ", expected floor(" << in[d] << " * "
             << s << ") = " << want;
  }
  return success();
}

int64_t UpsampleOp::getWindowVolume() {
  return getLinear() ? int64_t(1) << (getInput().getType().getRank() - 2) : 1;
}

Value UpsampleOp::buildAt(OpBuilder &b, Location loc, ValueRange coords,
                          OperandAt operandAt, const WindowLanes *) {
  Emit e{b, loc, elementTypeOf(getInput())};
  auto f32 = b.getF32Type();
  auto fc = [&](float v) {
    return arith::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(v))
        .getResult();
  };
  auto toIndex = [&](Value f) {
    Value i64 = arith::FPToSIOp::create(b, loc, b.getI64Type(), f);
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), i64)
        .getResult();
  };
  const bool linear = getLinear(), align = getAlignCorners();
  struct Built {
    Value i0, i1, l0, l1;
  };
  SmallVector<Built> srcs;
  for (auto [d, p] : llvm::enumerate(dimParams(*this))) {
    Value o = coords[d + 2];
    Value of = arith::SIToFPOp::create(
        b, loc, f32,
        arith::IndexCastOp::create(b, loc, b.getI64Type(), o).getResult());
    Value last = e.idx(p.in - 1);
    if (!linear) {
      Value fl = math::FloorOp::create(
          b, loc, arith::MulFOp::create(b, loc, of, fc(p.scale)));
      Value i = e.mini(toIndex(fl), last);
      srcs.push_back({i, i, Value(), Value()});
      continue;
    }
    Value src = align
                    ? arith::MulFOp::create(b, loc, fc(p.scale), of).getResult()
                    : arith::SubFOp::create(
                          b, loc,
                          arith::MulFOp::create(
                              b, loc, fc(p.scale),
                              arith::AddFOp::create(b, loc, of, fc(0.5f))),
                          fc(0.5f))
                          .getResult();
    src = arith::MaximumFOp::create(b, loc, src, fc(0.0f));
    Value i0 = toIndex(src); // src >= 0: truncation is floor
    Value i1 = arith::SelectOp::create(
        b, loc, e.cmp(arith::CmpIPredicate::slt, i0, last),
        e.addi(i0, e.idx(1)), i0);
    Value l1 = arith::SubFOp::create(
        b, loc, src,
        arith::SIToFPOp::create(
            b, loc, f32,
            arith::IndexCastOp::create(b, loc, b.getI64Type(), i0)));
    Value l0 = arith::SubFOp::create(b, loc, fc(1.0f), l1);
    srcs.push_back({i0, i1, l0, l1});
  }
  SmallVector<Value> pos{coords[0], coords[1]};
  auto read = [&]() -> Value {
    Value v = operandAt(b, loc, pos);
    return e.ft == f32 ? v : arith::ExtFOp::create(b, loc, f32, v).getResult();
  };
  Value result;
  if (!linear) {
    for (const Built &s : srcs)
      pos.push_back(s.i0);
    result = read();
  } else {
    // Outermost dim first: l0 * (inner at i0) + l1 * (inner at i1).
    std::function<Value(size_t)> combine = [&](size_t d) -> Value {
      if (d == srcs.size())
        return read();
      pos.push_back(srcs[d].i0);
      Value a = combine(d + 1);
      pos.back() = srcs[d].i1;
      Value c = combine(d + 1);
      pos.pop_back();
      return arith::AddFOp::create(
          b, loc, arith::MulFOp::create(b, loc, srcs[d].l0, a),
          arith::MulFOp::create(b, loc, srcs[d].l1, c));
    };
    result = combine(0);
  }
  return e.ft == f32
             ? result
             : arith::TruncFOp::create(b, loc, e.ft, result).getResult();
}

void UpsampleOp::evaluateReference(ArrayRef<ArrayRef<double>> operands,
                                   MutableArrayRef<double> out) {
  ArrayRef<int64_t> in = getInput().getType().getShape();
  ArrayRef<int64_t> outShape = getResult().getType().getShape();
  SmallVector<int64_t> inSt = stridesOf(in), outSt = stridesOf(outShape);
  SmallVector<DimParams> ps = dimParams(*this);
  const bool linear = getLinear(), align = getAlignCorners();
  const size_t sp = ps.size();
  ArrayRef<double> x = operands[0];
  forEachIndex(outShape, [&](ArrayRef<int64_t> o) {
    SmallVector<Source> srcs;
    for (size_t d = 0; d < sp; ++d)
      srcs.push_back(sourceOf(ps[d], o[d + 2], linear, align));
    double acc = 0.0;
    // Every corner: bit d of `corner` picks i1 (weight l1) along dim d.
    for (int64_t corner = 0; corner < (int64_t(1) << sp); ++corner) {
      SmallVector<int64_t> pos{o[0], o[1]};
      double w = 1.0;
      for (size_t d = 0; d < sp; ++d) {
        bool hi = (corner >> d) & 1;
        pos.push_back(hi ? srcs[d].i1 : srcs[d].i0);
        w *= hi ? srcs[d].l1 : srcs[d].l0;
      }
      if (!linear) {
        acc = x[flatIndex(pos, inSt)];
        break;
      }
      acc += w * x[flatIndex(pos, inSt)];
    }
    out[flatIndex(o, outSt)] = acc;
  });
}

std::string UpsampleOp::getGraphAttributes() {
  ArrayRef<int64_t> out = getResult().getType().getShape();
  std::string s = "output_size=" + listStr(out.drop_front(2)) +
                  " linear=" + (getLinear() ? "1" : "0") +
                  " align_corners=" + (getAlignCorners() ? "1" : "0");
  if (std::optional<ArrayRef<double>> scales = getScales()) {
    s += " scales=";
    for (auto [i, v] : llvm::enumerate(*scales))
      s += (i ? "," : "") + fusecc::formatExact(v);
  }
  return s;
}
