//===- ReduceThroughConv.cpp - spatial sums without the convolution -------===//
//
// Implements `fuse-reduce-through-conv`. The sum of a transposed
// convolution over all its output positions is linear in its input:
//   sum_o conv(x, w)[n, co, o] = sum_{ci, k} w[ci, co', k] R[n, ci, k],
// R[n, ci, k] the sum of x[n, ci, i] over the inputs i that tap k maps
// into the output (per spatial dim an interval, so a box of the plane).
// That contraction is itself a transposed convolution of output size 1:
// stride 1, padding kernel - 1, on R with its taps reversed. So
//   mean(f(conv(x, w, b)), spatial dims)
// with f a chain of elementwise ops affine in the convolution's value
// (coefficients constant over the spatial dims) becomes
//   f(conv_transpose(tap_sums(x, scale = 1 / positions), w, b))
// and a sum is that times the positions. The big convolution is gone; the
// box sums read the input once from memory, the small convolution is a
// few multiply-adds per result (pinned to FP32 FMA).
// A mean or sum over some of the spatial dims (an adaptive average pool to
// size 1 along H only, issue 37's rand37_7) is the same along the reduced
// dims; a kept dim d is a tap-sums dim of `in_d` taps at stride 1 and
// padding `in_d - 1` (tap t covers exactly input `in_d - 1 - t`, so the
// reversed result is the input itself), and the small convolution keeps
// the original stride, padding, dilation and output padding along it.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Dialect/Fuse/IR/KernelAnalysis.h"
#include "fusecc/Dialect/Fuse/Transforms/Passes.h"
#include "fusecc/Support/CheckedArithmetic.h"

#include "llvm/ADT/STLExtras.h"

namespace fusecc::fuse {
#define GEN_PASS_DEF_FUSEREDUCETHROUGHCONV
#include "fusecc/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace fusecc::fuse

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

namespace {

/// A sum or mean over all spatial dims of a transposed convolution, through
/// affine elementwise ops.
struct Candidate {
  WindowOpInterface reduction;
  ConvTransposeOp conv;
  /// The elementwise ops from the convolution to the reduction, in order,
  /// each with the index of the operand that carries the convolution's
  /// value.
  SmallVector<std::pair<Operation *, unsigned>> chain;
  bool isSum = false;
  /// Per spatial dim, whether the reduction sums over it (else it is kept).
  SmallVector<bool> reduced;
};

/// A partial reduction's small convolution multiplies, per result element,
/// this many times fewer products than the convolution it replaces at
/// least (it runs on FP32 FMA, the replaced one on the tensor cores): the
/// product over the reduced dims of `out_d / stride_d` (rand37_7: 128).
constexpr int64_t kMinPartialWorkRatio = 8;

/// The spatial dims an adaptive average pool reduces (output size 1) when
/// every other spatial dim keeps its size; none otherwise.
std::optional<SmallVector<bool>> adaptiveReducedDims(AdaptiveAvgPoolOp pool) {
  ArrayRef<int64_t> in = pool.getInput().getType().getShape();
  ArrayRef<int64_t> out = pool.getResult().getType().getShape();
  SmallVector<bool> reduced;
  for (size_t d = 2; d < in.size(); ++d) {
    if (out[d] != 1 && out[d] != in[d])
      return std::nullopt;
    reduced.push_back(out[d] == 1 && in[d] > 1);
  }
  return reduced;
}

/// True if `v` is the same at every spatial position of a `[N, C,
/// *spatial]` value of rank `rank` it broadcasts against: every spatial dim
/// it has (trailing dims aligned) is of size 1.
bool isSpatiallyConstant(Value v, int64_t rank) {
  auto ty = dyn_cast<RankedTensorType>(v.getType());
  if (!ty || ty.getRank() > rank)
    return false;
  int64_t lead = rank - ty.getRank();
  for (int64_t d = std::max<int64_t>(2, lead); d < rank; ++d)
    if (ty.getDimSize(d - lead) != 1)
      return false;
  return true;
}

/// The reduction as a candidate, or failure.
FailureOr<Candidate> candidateOf(WindowOpInterface reduction) {
  Candidate c;
  c.reduction = reduction;
  Value v = reduction->getOperand(0);
  auto ty = cast<RankedTensorType>(v.getType());
  int64_t rank = ty.getRank();
  if (rank < 3)
    return failure();
  SetReduction kind = reduction.getSetReduction();
  if (kind == SetReduction::Sum || kind == SetReduction::Mean) {
    // Some or all of the spatial dims, none of the others.
    c.reduced.assign(rank - 2, false);
    for (int64_t d : reduction.getReducedDims()) {
      if (d < 2)
        return failure();
      c.reduced[d - 2] = true;
    }
  } else if (auto pool = dyn_cast<AdaptiveAvgPoolOp>(*reduction)) {
    std::optional<SmallVector<bool>> reduced = adaptiveReducedDims(pool);
    if (!reduced)
      return failure();
    c.reduced = std::move(*reduced);
    kind = SetReduction::Mean;
  } else {
    return failure();
  }
  c.isSum = kind == SetReduction::Sum;
  if (llvm::none_of(c.reduced, [](bool r) { return r; }))
    return failure();
  // Back from the reduction: affine elementwise ops whose one full-shaped
  // operand carries the value and whose others are spatially constant,
  // each value read once, up to the convolution.
  while (true) {
    if (!v.hasOneUse())
      return failure();
    Operation *def = v.getDefiningOp();
    if (auto conv = dyn_cast_or_null<ConvTransposeOp>(def)) {
      c.conv = conv;
      break;
    }
    auto ew = dyn_cast_or_null<ElementwiseOpInterface>(def);
    if (!ew || def->getNumResults() != 1 || def->getResult(0).getType() != ty)
      return failure();
    std::optional<unsigned> path;
    for (OpOperand &o : def->getOpOperands()) {
      if (o.get().getType() == ty) {
        if (path)
          return failure(); // Two full-shaped operands.
        path = o.getOperandNumber();
      } else if (!isSpatiallyConstant(o.get(), rank)) {
        return failure();
      }
    }
    if (!path || !ew.isAffineIn(*path))
      return failure();
    c.chain.push_back({def, *path});
    v = def->getOperand(*path);
  }
  std::reverse(c.chain.begin(), c.chain.end());
  // The box sums loop over the taps: a kernel past the generator's limit
  // keeps its convolution (and gets kernel analysis's located error).
  if (llvm::any_of(c.conv.getWeight().getType().getShape().drop_front(2),
                   [](int64_t k) { return k > kMaxKernelSize; }))
    return failure();
  // The tap sums take the padding of a reduced dim and count from the
  // scatter's first position: a negative one (bias-only positions before
  // it) keeps its convolution.
  for (auto [d, r] : llvm::enumerate(c.reduced))
    if (r && c.conv.getPadding()[d] < 0)
      return failure();
  // One output position: the reduction is an identity (folded below), and
  // the rewrite would build the same convolution again.
  if (ty.getNumElements() == ty.getDimSize(0) * ty.getDimSize(1))
    return failure();
  if (llvm::all_of(c.reduced, [](bool r) { return r; }))
    return c;
  // Some dims kept: each is a tap-sums dim of as many taps as the input has
  // positions (within the generated kernels' tap bound), and the rewrite
  // must pay: the small convolution (FP32 FMA) takes kMinPartialWorkRatio
  // times fewer products than the big one, and the box sums (each input
  // read once per reduced-dim tap) read no more than the big convolution
  // writes.
  ArrayRef<int64_t> in = c.conv.getInput().getType().getShape();
  ArrayRef<int64_t> k = c.conv.getWeight().getType().getShape();
  ConvTransposeOp conv = c.conv;
  int64_t ratio = 1, tapsRead = 1;
  for (size_t d = 0; d < c.reduced.size(); ++d) {
    if (!c.reduced[d]) {
      if (in[d + 2] > kMaxKernelSize)
        return failure();
      continue;
    }
    ratio = saturatingMul(ratio, ty.getDimSize(d + 2) / conv.getStride()[d]);
    tapsRead = saturatingMul(tapsRead, k[d + 2]);
  }
  const int64_t inputElems = conv.getInput().getType().getNumElements();
  if (ratio < kMinPartialWorkRatio ||
      saturatingMul(inputElems, tapsRead) > ty.getNumElements())
    return failure();
  return c;
}

/// Builds the mean of the convolution over its positions along the dims
/// `reduced` says (bias included) as box sums and a convolution of output
/// size 1 along them, before the reduction; kept dims keep the
/// convolution's geometry.
Value buildMean(OpBuilder &b, Location loc, ConvTransposeOp conv,
                ArrayRef<bool> reduced) {
  auto xTy = conv.getInput().getType();
  auto wTy = conv.getWeight().getType();
  auto cTy = conv.getResult().getType();
  ArrayRef<int64_t> in = xTy.getShape().drop_front(2);
  ArrayRef<int64_t> k = wTy.getShape().drop_front(2);
  ArrayRef<int64_t> out = cTy.getShape().drop_front(2);
  double positions = 1.0;
  // Per dim: the tap sums' geometry (kept: `in` taps covering one input
  // each) and the small convolution's.
  SmallVector<int64_t> tapK, tapStride, tapPad, tapDil, tapOut;
  SmallVector<int64_t> stride, pad, outPad, dil;
  SmallVector<int64_t> meanShape = {cTy.getDimSize(0), cTy.getDimSize(1)};
  SmallVector<int64_t> tapShape = {xTy.getDimSize(0), xTy.getDimSize(1)};
  for (size_t d = 0; d < reduced.size(); ++d) {
    if (reduced[d]) {
      positions *= static_cast<double>(out[d]);
      tapK.push_back(k[d]);
      tapStride.push_back(conv.getStride()[d]);
      tapPad.push_back(conv.getPadding()[d]);
      tapDil.push_back(conv.getDilation()[d]);
      tapOut.push_back(out[d]);
      stride.push_back(1);
      pad.push_back(k[d] - 1);
      outPad.push_back(0);
      dil.push_back(1);
      meanShape.push_back(1);
    } else {
      tapK.push_back(in[d]);
      tapStride.push_back(1);
      tapPad.push_back(in[d] - 1);
      tapDil.push_back(1);
      tapOut.push_back(1);
      stride.push_back(conv.getStride()[d]);
      pad.push_back(conv.getPadding()[d]);
      outPad.push_back(conv.getOutputPadding()[d]);
      dil.push_back(conv.getDilation()[d]);
      meanShape.push_back(out[d]);
    }
    tapShape.push_back(tapK.back());
  }
  auto taps = ConvTransposeTapSumsOp::create(
      b, loc, RankedTensorType::get(tapShape, xTy.getElementType()),
      conv.getInput(), b.getDenseI64ArrayAttr(tapK),
      b.getDenseI64ArrayAttr(tapStride), b.getDenseI64ArrayAttr(tapPad),
      b.getDenseI64ArrayAttr(tapDil), b.getDenseI64ArrayAttr(tapOut),
      b.getF64FloatAttr(1.0 / positions));
  auto mean = ConvTransposeOp::create(
      b, loc, RankedTensorType::get(meanShape, cTy.getElementType()), taps,
      conv.getWeight(), conv.getBias(), b.getDenseI64ArrayAttr(stride),
      b.getDenseI64ArrayAttr(pad), b.getDenseI64ArrayAttr(outPad),
      b.getDenseI64ArrayAttr(dil), conv.getGroupsAttr(),
      conv.getForwardWeightAttr());
  mean->setAttr(kConvPrecisionAttrName,
               ConvMathAttr::get(b.getContext(), ConvMath::IEEE));
  return mean.getResult();
}

/// Folds the sums and means over dims of size 1 that read `v` (an op's
/// result) into `v`, or a reshape of it: identities, such as a second mean
/// over the dims the first one kept (kb2_44).
void foldIdentityReductions(Value v) {
  SmallVector<Operation *> users(v.getUsers());
  for (Operation *user : users) {
    auto reduction = dyn_cast<WindowOpInterface>(user);
    if (!reduction || (reduction.getSetReduction() != SetReduction::Sum &&
                       reduction.getSetReduction() != SetReduction::Mean))
      continue;
    auto ty = cast<RankedTensorType>(v.getType());
    if (!llvm::all_of(reduction.getReducedDims(),
                      [&](int64_t d) { return ty.getDimSize(d) == 1; }))
      continue;
    Value result = user->getResult(0), replacement = v;
    if (result.getType() != ty) {
      OpBuilder b(user);
      replacement = ReshapeOp::create(b, user->getLoc(), result.getType(), v);
    }
    result.replaceAllUsesWith(replacement);
    user->erase();
    if (replacement != v)
      foldIdentityReductions(replacement);
  }
}

/// Replaces the candidate's reduction by the affine chain applied to the
/// convolution's mean; erases the reduction, the chain and the
/// convolution.
void rewrite(Candidate &c) {
  Operation *reduction = c.reduction;
  OpBuilder b(reduction);
  Location loc = reduction->getLoc();
  Value m = buildMean(b, loc, c.conv, c.reduced);
  // mean(f(x)) = f(mean(x)) for f affine in x with spatially constant
  // coefficients: the same ops on the [N, C, 1, ...] mean.
  for (auto [op, path] : c.chain) {
    Operation *clone = b.clone(*op);
    clone->setOperand(path, m);
    SmallVector<int64_t> shape;
    for (Value o : clone->getOperands()) {
      auto s = broadcastShapes(shape,
                               cast<RankedTensorType>(o.getType()).getShape());
      assert(succeeded(s) && "operands broadcast against the larger value");
      shape = *s;
    }
    m = clone->getResult(0);
    m.setType(RankedTensorType::get(shape, b.getF32Type()));
  }
  if (c.isSum) {
    double positions = 1.0;
    ArrayRef<int64_t> out = c.conv.getResult().getType().getShape();
    for (size_t d = 0; d < c.reduced.size(); ++d)
      if (c.reduced[d])
        positions *= static_cast<double>(out[d + 2]);
    Value p = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(RankedTensorType::get({}, b.getF32Type()),
                               APFloat(static_cast<float>(positions))));
    m = MulOp::create(b, loc, m.getType(), m, p);
  }
  Type resultTy = reduction->getResult(0).getType();
  if (m.getType() != resultTy)
    m = ReshapeOp::create(b, loc, resultTy, m);
  reduction->getResult(0).replaceAllUsesWith(m);
  reduction->erase();
  for (auto [op, path] : llvm::reverse(c.chain))
    op->erase();
  c.conv->erase();
  foldIdentityReductions(m);
}

struct ReduceThroughConvPass
    : public fusecc::fuse::impl::FuseReduceThroughConvBase<
          ReduceThroughConvPass> {
  using FuseReduceThroughConvBase::FuseReduceThroughConvBase;

  void runOnOperation() override {
    SmallVector<Candidate> todo;
    getOperation().walk([&](WindowOpInterface w) {
      FailureOr<Candidate> c = candidateOf(w);
      if (succeeded(c))
        todo.push_back(std::move(*c));
    });
    for (Candidate &c : todo)
      rewrite(c);
  }
};

} // namespace
