//===- RecomputeConv.cpp - recompute a convolution instead of storing it --===//
//
// Implements `fuse-recompute-conv`: a softmax over whole channels (or whole
// samples) of a convolution's epilogue value P, P's only reader, becomes
//   lse = logsumexp(P, spatial or non-batch dims, keepdim)
//   P'  = the convolution and its epilogue up to P, recomputed
//   y   = exp(P' - (lse + (lse - lse)))   (NaN where lse is infinite)
// so that the plan gives the first convolution a statistics-only kernel
// (its result stays on chip, its epilogue writes (max, sum of exp)
// records), the logsumexp a reduction kernel over those records, and the
// recomputed convolution an epilogue that applies the softmax and
// everything after it as elementwise ops: P is never stored. The cost rule
// weighs one more convolution (its FLOPs at the tensor-core rate) against
// the write and read of P (2 x its bytes at the memory bandwidth).
// A log_softmax is left to the normalisation plan: recomputed, it would be
// P' - lse, with lse rounded at the ulp of the max rather than PyTorch's
// (x - max) - log(sum).
//
//===----------------------------------------------------------------------===//

#include "fusecc/Codegen/GPUPlan.h"
#include "fusecc/Dialect/Fuse/IR/KernelAnalysis.h"
#include "fusecc/Dialect/Fuse/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace fusecc::fuse {
#define GEN_PASS_DEF_FUSERECOMPUTECONV
#include "fusecc/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace fusecc::fuse

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

namespace {

/// What a softmax needs to be recomputed from its convolution.
struct Candidate {
  SoftmaxOp softmax;
  /// The convolution's epilogue value the softmax normalises (through
  /// views), and the convolution.
  Value p;
  ConvTransposeOp conv;
  /// The convolution and the elementwise ops from it to `p`, in block order.
  SmallVector<Operation *> slice;
  /// The reduced dims of `p` (spatial, or all non-batch dims).
  SmallVector<int64_t> dims;
  /// The value the recomputed softmax replaces (in `p`'s shape): the
  /// softmax itself, or the view that maps it back.
  Operation *replaced = nullptr;
};

/// True if `v` is computed from a convolution by elementwise ops.
bool reachesConv(Value v, DenseMap<Value, bool> &memo) {
  auto it = memo.find(v);
  if (it != memo.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  bool r = false;
  if (isa_and_nonnull<ConvTransposeOp>(def))
    r = true;
  else if (isa_and_nonnull<ElementwiseOpInterface>(def))
    r = llvm::any_of(def->getOperands(),
                     [&](Value o) { return reachesConv(o, memo); });
  memo[v] = r;
  return r;
}

/// The convolution and elementwise ops computing `p` (one convolution,
/// every intermediate read only inside the slice), or failure.
LogicalResult collectSlice(Candidate &c) {
  DenseMap<Value, bool> memo;
  if (!reachesConv(c.p, memo))
    return failure();
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work{c.p};
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!slice.insert(def))
      continue;
    if (auto conv = dyn_cast<ConvTransposeOp>(def)) {
      if (c.conv && c.conv != conv)
        return failure(); // Two convolutions meet.
      c.conv = conv;
      continue;
    }
    for (Value o : def->getOperands())
      if (reachesConv(o, memo))
        work.push_back(o);
  }
  for (Operation *op : slice)
    for (Operation *user : op->getResult(0).getUsers())
      if (!slice.contains(user) && op->getResult(0) != c.p)
        return failure(); // An intermediate has another reader.
  c.slice = slice.takeVector();
  llvm::sort(c.slice,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return success();
}

/// The softmax as a candidate, or failure: its sets (read flat, through
/// views) are the channels or the samples of a convolution's f32 epilogue
/// value that nothing else reads, and its result maps back to that shape.
FailureOr<Candidate> candidateOf(SoftmaxOp softmax) {
  Candidate c;
  c.softmax = softmax;
  c.p = viewSource(softmax.getInput());
  auto pTy = dyn_cast<RankedTensorType>(c.p.getType());
  if (!pTy || pTy.getRank() < 3 || !pTy.getElementType().isF32() ||
      !onlyFeeds(c.p, softmax) || failed(collectSlice(c)))
    return failure();
  // validMacs loops over the taps: a kernel past the generator's limit
  // keeps its convolution (and gets kernel analysis's located error).
  if (llvm::any_of(c.conv.getWeight().getType().getShape().drop_front(2),
                   [](int64_t k) { return k > kMaxKernelSize; }))
    return failure();
  ArrayRef<int64_t> in = softmax.getInput().getType().getShape();
  int64_t dim = softmax.getDim();
  if (dim != static_cast<int64_t>(in.size()) - 1)
    return failure(); // Strided sets.
  int64_t spatial = 1;
  for (int64_t d : pTy.getShape().drop_front(2))
    spatial *= d;
  int64_t first;
  if (in[dim] == spatial)
    first = 2;
  else if (in[dim] == spatial * pTy.getDimSize(1))
    first = 1;
  else
    return failure();
  c.dims = llvm::to_vector(llvm::seq<int64_t>(first, pTy.getRank()));
  Value result = softmax.getResult();
  if (result.getType() == pTy) {
    c.replaced = softmax;
  } else if (result.hasOneUse() && isViewOp(*result.getUsers().begin()) &&
             result.getUsers().begin()->getResult(0).getType() == pTy) {
    c.replaced = *result.getUsers().begin();
  } else {
    return failure();
  }
  return c;
}

struct RecomputeConvPass
    : public fusecc::fuse::impl::FuseRecomputeConvBase<RecomputeConvPass> {
  using FuseRecomputeConvBase::FuseRecomputeConvBase;

  /// The cost rule: one more convolution at the tensor-core rate against
  /// the write and read of its result at the memory bandwidth.
  bool pays(const Candidate &c) const {
    const bool half = precision == Precision::BF16 || precision == Precision::FP16;
    if ((precision != Precision::TF32 && !half) || tflops <= 0 || tbps <= 0)
      return false;
    // `tflops` is the TF32 rate; half operands run at the target's ratio
    // of their peak to TF32's (TargetInfo::peakTflops: 2x on Hopper).
    double rate = tflops;
    if (half) {
      ConvTransposeOp conv = c.conv;
      MLIRContext *ctx = conv.getContext();
      TargetInfo target = getTargetInfo(conv);
      Type operand = precision == Precision::BF16
                         ? Type(BFloat16Type::get(ctx))
                         : Type(Float16Type::get(ctx));
      std::optional<double> halfPeak = target.peakTflops(operand),
                            tf32Peak =
                                target.peakTflops(FloatTF32Type::get(ctx));
      if (halfPeak && tf32Peak && *tf32Peak > 0)
        rate *= *halfPeak / *tf32Peak;
    }
    double flops =
        2.0 * static_cast<double>(ConvGeometry::get(c.conv).validMacs());
    double bytes =
        4.0 * static_cast<double>(
                  cast<RankedTensorType>(c.p.getType()).getNumElements());
    return flops / (rate * 1e12) < 2.0 * bytes / (tbps * 1e12);
  }

  void runOnOperation() override {
    SmallVector<Candidate> todo;
    getOperation().walk([&](SoftmaxOp s) {
      FailureOr<Candidate> c = candidateOf(s);
      if (succeeded(c) && pays(*c))
        todo.push_back(std::move(*c));
    });
    for (Candidate &c : todo) {
      OpBuilder b(c.softmax);
      Location loc = c.softmax.getLoc();
      auto pTy = cast<RankedTensorType>(c.p.getType());
      SmallVector<int64_t> lseShape = llvm::to_vector(pTy.getShape());
      for (int64_t d : c.dims)
        lseShape[d] = 1;
      auto lseTy = RankedTensorType::get(lseShape, pTy.getElementType());
      Value lse = LogSumExpOp::create(b, loc, lseTy, c.p, c.dims,
                                      /*keepdim=*/true);
      // A softmax of a set whose max is infinite is NaN (PyTorch), but
      // exp(x - (+inf)) is 0 where x is finite: lse + (lse - lse) is lse
      // where finite and NaN where not (never folded: x - x is not 0 for
      // infinities).
      lse = AddOp::create(b, loc, lseTy, lse,
                          SubOp::create(b, loc, lseTy, lse, lse));
      IRMapping map;
      for (Operation *op : c.slice)
        b.clone(*op, map);
      Value diff = SubOp::create(b, loc, pTy, map.lookup(c.p), lse);
      Value y = ExpOp::create(b, loc, pTy, diff);
      c.replaced->getResult(0).replaceAllUsesWith(y);
      // The replaced op, the softmax and the views feeding it only.
      Operation *op = c.replaced;
      while (op && op->use_empty() && op != c.p.getDefiningOp()) {
        Operation *next = op->getOperand(0).getDefiningOp();
        op->erase();
        op = next && (isViewOp(next) || isa<SoftmaxOp>(next)) ? next : nullptr;
      }
    }
  }
};

} // namespace
