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
//
//===----------------------------------------------------------------------===//

#include "fusecc/Dialect/Fuse/IR/KernelAnalysis.h"
#include "fusecc/Dialect/Fuse/Transforms/Passes.h"

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
};

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
  SetReduction kind = reduction.getSetReduction();
  if (kind != SetReduction::Sum && kind != SetReduction::Mean)
    return failure();
  c.isSum = kind == SetReduction::Sum;
  Value v = reduction->getOperand(0);
  auto ty = cast<RankedTensorType>(v.getType());
  int64_t rank = ty.getRank();
  if (rank < 3 || reduction.getReducedDims() !=
                      llvm::to_vector(llvm::seq<int64_t>(2, rank)))
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
  // One output position: the reduction is an identity (folded below), and
  // the rewrite would build the same convolution again.
  if (ty.getNumElements() == ty.getDimSize(0) * ty.getDimSize(1))
    return failure();
  return c;
}

/// Builds the mean of the convolution over its positions (bias included)
/// as box sums and a convolution of output size 1, before the reduction.
Value buildMean(OpBuilder &b, Location loc, ConvTransposeOp conv) {
  auto xTy = conv.getInput().getType();
  auto wTy = conv.getWeight().getType();
  auto cTy = conv.getResult().getType();
  int64_t nsp = conv.getNumSpatialDims();
  ArrayRef<int64_t> k = wTy.getShape().drop_front(2);
  ArrayRef<int64_t> out = cTy.getShape().drop_front(2);
  double positions = 1.0;
  for (int64_t o : out)
    positions *= static_cast<double>(o);
  SmallVector<int64_t> tapShape = {xTy.getDimSize(0), xTy.getDimSize(1)};
  llvm::append_range(tapShape, k);
  auto taps = ConvTransposeTapSumsOp::create(
      b, loc, RankedTensorType::get(tapShape, xTy.getElementType()),
      conv.getInput(), b.getDenseI64ArrayAttr(k), conv.getStrideAttr(),
      conv.getPaddingAttr(), conv.getDilationAttr(),
      b.getDenseI64ArrayAttr(out), b.getF64FloatAttr(1.0 / positions));
  SmallVector<int64_t> ones(nsp, 1), zeros(nsp, 0), pad;
  for (int64_t t : k)
    pad.push_back(t - 1);
  SmallVector<int64_t> meanShape = {cTy.getDimSize(0), cTy.getDimSize(1)};
  meanShape.append(ones);
  auto mean = ConvTransposeOp::create(
      b, loc, RankedTensorType::get(meanShape, cTy.getElementType()), taps,
      conv.getWeight(), conv.getBias(), b.getDenseI64ArrayAttr(ones),
      b.getDenseI64ArrayAttr(pad), b.getDenseI64ArrayAttr(zeros),
      b.getDenseI64ArrayAttr(ones), conv.getGroupsAttr(),
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
  Value m = buildMean(b, loc, c.conv);
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
    for (int64_t o : c.conv.getResult().getType().getShape().drop_front(2))
      positions *= static_cast<double>(o);
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
