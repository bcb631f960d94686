//===- KernelAnalysis.cpp - shape facts of a fused kernel -----------------===//
//
// Normalises the convolution of a fuse.kernel to three spatial dims and
// checks that its epilogue can be computed on one block's output tile.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Dialect/Fuse/IR/KernelAnalysis.h"
#include "fusecc/Dialect/Fuse/IR/BoxSums.h"
#include "fusecc/Support/CheckedArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <array>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

ConvGeometry ConvGeometry::get(ConvTransposeOp conv) {
  ConvGeometry g;
  auto inTy = conv.getInput().getType();
  auto wTy = conv.getWeight().getType();
  auto outTy = conv.getResult().getType();
  g.rank = inTy.getRank();
  g.n = inTy.getDimSize(0);
  g.cin = inTy.getDimSize(1);
  g.groups = conv.getGroups();
  g.cout = outTy.getDimSize(1);
  g.hasBias = static_cast<bool>(conv.getBias());
  int64_t nsp = g.rank - 2, lead = 3 - nsp;
  for (int64_t i = 0; i < 3; ++i) {
    bool real = i >= lead;
    int64_t j = i - lead;
    g.in[i] = real ? inTy.getDimSize(2 + j) : 1;
    g.out[i] = real ? outTy.getDimSize(2 + j) : 1;
    g.k[i] = real ? wTy.getDimSize(2 + j) : 1;
    g.stride[i] = real ? conv.getStride()[j] : 1;
    g.pad[i] = real ? conv.getPadding()[j] : 0;
    g.dil[i] = real ? conv.getDilation()[j] : 1;
  }
  return g;
}

/// Pairs (output o, tap t) of one spatial dim whose input index
/// (o + pad - t dil) / stride is whole and in [0, in). Per tap t the valid
/// outputs are o = i stride + t dil - pad for the inputs i that put o in
/// [0, out), per input i the taps likewise: a closed form per element of
/// the shorter of the two loops (O(min(k, in)); it looped over every
/// (output, tap) pair: minutes for an output of 2^31). The verifier bounds
/// every term: t dil - pad, out - 1 + pad and i stride fit int64.
static int64_t validPairs(int64_t in, int64_t out, int64_t k, int64_t stride,
                          int64_t pad, int64_t dil) {
  // The j in [0, n) with 0 <= j step + c <= out - 1.
  auto count = [&](int64_t n, int64_t step, int64_t c) {
    int64_t lo = std::max<int64_t>(0, llvm::divideCeilSigned(-c, step));
    int64_t hi = std::min(n - 1, llvm::divideFloorSigned(out - 1 - c, step));
    return std::max<int64_t>(0, hi - lo + 1);
  };
  int64_t cnt = 0;
  if (k <= in) {
    for (int64_t t = 0; t < k; ++t)
      cnt = saturatingAdd(cnt, count(in, stride, t * dil - pad));
  } else {
    for (int64_t i = 0; i < in; ++i)
      cnt = saturatingAdd(cnt, count(k, dil, i * stride - pad));
  }
  return cnt;
}

int64_t ConvGeometry::validMacs() const {
  int64_t pairs = 1;
  for (int i = 0; i < 3; ++i)
    pairs = saturatingMul(
        pairs, validPairs(in[i], out[i], k[i], stride[i], pad[i], dil[i]));
  return saturatingMul(saturatingMul(saturatingMul(n, cout), cinPerGroup()),
                       pairs);
}

std::optional<PooledEpilogue> PooledEpilogue::get(WindowOpInterface op,
                                                  ArrayRef<int64_t> convShape,
                                                  int64_t convStrideH) {
  std::optional<SlidingWindow> w = op.getSlidingWindow();
  auto inTy = cast<RankedTensorType>(op->getOperand(0).getType());
  auto outTy = cast<RankedTensorType>(op->getResult(0).getType());
  const int64_t rank = static_cast<int64_t>(convShape.size());
  if (!w || inTy.getShape() != convShape || outTy.getRank() != rank ||
      w->spatial() != rank - 2 || rank < 3 || rank > 5 || convStrideH < 1)
    return std::nullopt;
  PooledEpilogue p;
  p.op = op;
  p.window = *w;
  const int64_t lead = 3 - (rank - 2);
  for (int64_t i = 0; i < 3; ++i) {
    bool real = i >= lead;
    int64_t j = i - lead;
    if (real && w->padding[j] != 0)
      return std::nullopt; // Windows would start before the tile.
    p.k[i] = real ? w->kernel[j] : 1;
    p.s[i] = real ? w->stride[j] : 1;
    p.dil[i] = real ? w->dilation[j] : 1;
    p.out[i] = real ? outTy.getDimSize(2 + j) : 1;
    if (p.out[i] < 1)
      return std::nullopt;
  }
  std::optional<int64_t> needed = ((CheckedInt(p.out[2]) - 1) * p.s[2] +
                                   (CheckedInt(p.k[2]) - 1) * p.dil[2] + 1)
                                      .get();
  if (!needed || *needed > kMaxPooledRowWidth)
    return std::nullopt;
  p.neededW = std::min(*needed, convShape.back());
  if (p.passesFor(1, convStrideH).count > kMaxPooledPasses)
    return std::nullopt;
  return p;
}

bool fusecc::fuse::isChannelReduction(WindowOpInterface op,
                                      ArrayRef<int64_t> convShape) {
  auto inTy = cast<RankedTensorType>(op->getOperand(0).getType());
  return inTy.getShape() == convShape && convShape.size() >= 3 &&
         op.getSetReduction() != SetReduction::None &&
         op.getReducedDims() == SmallVector<int64_t>{1};
}

int64_t fusecc::fuse::maxContractionChannels(const TargetInfo &target) {
  const DeviceFacts &f = target.getFacts();
  return static_cast<int64_t>(2 * f.fp32Tflops * 1e12 / f.copyBytesPerSecond);
}

bool fusecc::fuse::isChannelContraction(ConvTransposeOp conv,
                                        ArrayRef<int64_t> convShape,
                                        const TargetInfo &target) {
  auto inTy = conv.getInput().getType();
  auto outTy = conv.getResult().getType();
  if (inTy.getShape() != convShape || convShape.size() < 3 ||
      conv.getGroups() != 1 || outTy.getDimSize(1) < 1 ||
      inTy.getDimSize(1) > kMaxContractionInputChannels ||
      outTy.getDimSize(1) > maxContractionChannels(target))
    return false;
  auto wTy = conv.getWeight().getType();
  for (int64_t d = 2; d < inTy.getRank(); ++d)
    if (wTy.getDimSize(d) != 1 || outTy.getDimSize(d) != inTy.getDimSize(d))
      return false;
  auto ones = [](ArrayRef<int64_t> v, int64_t x) {
    return llvm::all_of(v, [&](int64_t e) { return e == x; });
  };
  return ones(conv.getStride(), 1) && ones(conv.getPadding(), 0) &&
         ones(conv.getOutputPadding(), 0);
}

PooledEpilogue::Passes PooledEpilogue::passesFor(int64_t rows,
                                                 int64_t strideH) const {
  Passes ps;
  const int64_t span = rows * strideH;           // rows a group covers
  const int64_t reach = (k[1] - 1) * dil[1] + 1; // rows of one window
  ps.pooledRows = span >= reach ? (span - reach) / s[1] + 1 : 1;
  ps.pooledRows = std::min(ps.pooledRows, out[1]);
  const int64_t needed = (ps.pooledRows - 1) * s[1] + reach;
  ps.hGroups = (needed + span - 1) / span;
  ps.hPasses = ps.hGroups * strideH;
  ps.count = k[0] * ps.hPasses;
  return ps;
}

int64_t fusecc::fuse::prologueReads(Value v,
                                    const DenseSet<Operation *> &chain) {
  Operation *def = v.getDefiningOp();
  if (!def || !chain.contains(def))
    return 1;
  auto own = [](Value x) {
    return cast<RankedTensorType>(x.getType()).getNumElements();
  };
  int64_t reads = 0;
  if (auto window = dyn_cast<WindowOpInterface>(def)) {
    // A window element reads its volume from one operand (a concat's
    // element reads one of its operands).
    int64_t operandReads = 0;
    for (Value o : def->getOperands())
      operandReads = std::max(operandReads, prologueReads(o, chain));
    reads = saturatingMul(std::max<int64_t>(1, window.getWindowVolume()),
                          operandReads);
  } else {
    for (Value o : def->getOperands()) {
      // Broadcast operands (parameters, scalars) stay in the caches.
      Operation *odef = o.getDefiningOp();
      if (own(o) < own(v) && !(odef && chain.contains(odef)))
        continue;
      reads = saturatingAdd(reads, prologueReads(o, chain));
    }
  }
  return reads;
}

int64_t fusecc::fuse::inputStagings(const ConvGeometry &g) {
  int64_t tiles = (g.coutPerGroup() + kPrologueTileC - 1) / kPrologueTileC;
  return saturatingMul(tiles, saturatingMul(g.k[0], g.k[1]));
}

bool KernelAnalysis::prologueIsElementwise() const {
  return llvm::all_of(
      prologue, [](Operation *op) { return isa<ElementwiseOpInterface>(op); });
}

/// True if `v`'s shape broadcasts to `shape` without growing it.
static bool broadcastsTo(Value v, ArrayRef<int64_t> shape) {
  auto ty = cast<RankedTensorType>(v.getType());
  auto b = broadcastShapes(ty.getShape(), shape);
  return succeeded(b) && ArrayRef<int64_t>(*b) == shape;
}

TileReduction fusecc::fuse::tileReductionOf(NormalizationOpInterface op) {
  int64_t rank = cast<RankedTensorType>(op->getResult(0).getType()).getRank();
  SmallVector<int64_t> dims = op.getReducedDims();
  if (op.getChannelGroups() != 1 || dims.size() != 1)
    return TileReduction::SpansBlocks;
  if (dims[0] == 1)
    return TileReduction::Channels;
  if (dims[0] == rank - 1)
    return TileReduction::LastDim;
  return TileReduction::SpansBlocks;
}

bool fusecc::fuse::isViewOp(Operation *op) {
  auto window = dyn_cast_or_null<WindowOpInterface>(op);
  return window && window.isView();
}

bool fusecc::fuse::onlyFeeds(Value v, Operation *user) {
  return llvm::all_of(v.getUses(), [&](OpOperand &use) {
    Operation *op = use.getOwner();
    return op == user || (isViewOp(op) && onlyFeeds(op->getResult(0), user));
  });
}

Value fusecc::fuse::viewSource(Value v) {
  while (isViewOp(v.getDefiningOp()))
    v = v.getDefiningOp()->getOperand(0);
  return v;
}

/// True if `op` maps each operand element to the result element of the same
/// flat index: an elementwise op or an identity window (one element per
/// window, as many results as operand elements).
static bool keepsFlatIndex(Operation *op) {
  if (isa<ElementwiseOpInterface>(op))
    return true;
  auto w = dyn_cast<WindowOpInterface>(op);
  return w && w.getWindowVolume() == 1 &&
         cast<RankedTensorType>(op->getOperand(0).getType()).getNumElements() ==
             cast<RankedTensorType>(op->getResult(0).getType())
                 .getNumElements();
}

StatsRoot StatsRoot::of(KernelOp kernel) {
  Operation *first = nullptr;
  for (Operation &op : kernel.getBody().front())
    if (!isa<arith::ConstantOp>(op) && !isViewOp(&op)) {
      first = &op;
      break;
    }
  StatsRoot r;
  if (auto norm = dyn_cast_or_null<NormalizationOpInterface>(first)) {
    r.op = first;
    r.reducedDims = norm.getReducedDims();
    r.channelGroups = norm.getChannelGroups();
    r.kind = norm.getStatisticsKind();
    r.form = norm.getSoftmaxForm();
    return r;
  }
  auto w = dyn_cast_or_null<WindowOpInterface>(first);
  if (!w || w.getSetReduction() == SetReduction::None)
    return r;
  SmallVector<int64_t> dims = w.getReducedDims();
  for (size_t i = 1; i < dims.size(); ++i)
    if (dims[i] != dims[i - 1] + 1)
      return r; // Not one run per set.
  // Each set's result is one element of the kernel's result: everything
  // after the reduction keeps flat indices.
  for (Operation *op = first->getNextNode(); op && !isa<YieldOp>(op);
       op = op->getNextNode())
    if (!isa<arith::ConstantOp>(op) && !keepsFlatIndex(op))
      return r;
  if (kernel.getResult().getType().getNumElements() !=
      cast<RankedTensorType>(first->getResult(0).getType()).getNumElements())
    return r;
  r.op = first;
  r.reducedDims = std::move(dims);
  r.reduction = w.getSetReduction();
  r.kind = statsKindOf(r.reduction);
  r.correction = w.getVarianceCorrection();
  return r;
}

KernelKind fusecc::fuse::kernelKindOf(KernelOp kernel) {
  // A convolution kernel may hold a prologue before its convolution.
  Block &body = kernel.getBody().front();
  if (llvm::any_of(body,
                   [](Operation &op) { return isa<ConvTransposeOp>(op); }))
    return KernelKind::Convolution;
  for (Operation &op : body)
    if (isa<NormalizationOpInterface>(op))
      return KernelKind::Normalization;
  if (StatsRoot::of(kernel).reduces())
    return KernelKind::Reduction;
  if (BoxSumsLayout::get(kernel))
    return KernelKind::BoxSums;
  return KernelKind::Elementwise;
}

/// Limits of the kernel generator, checked before any plan loops, unrolls or
/// multiplies over the geometry: taps are unrolled along the last dim and
/// phase-selected (unrolled) along all dims, and threads along W are a
/// multiple of the W stride (at most the target's threads per block).
static LogicalResult checkGeometryLimits(ConvTransposeOp conv,
                                         const ConvGeometry &g,
                                         const TargetInfo &target) {
  const int64_t lead = 3 - (g.rank - 2);
  for (int64_t i = lead; i < 3; ++i) {
    if (g.k[i] > kMaxKernelSize)
      return conv.emitOpError("kernel size ")
             << g.k[i] << " along spatial dim " << i - lead << " exceeds "
             << kMaxKernelSize << ", the most the generated kernels unroll";
  }
  if (g.stride[2] > target.maxThreadsPerBlock())
    return conv.emitOpError("stride ")
           << g.stride[2] << " along the last dim needs more than "
           << target.maxThreadsPerBlock()
           << " threads per block (threads along W are a multiple of the "
              "stride)";
  return success();
}

/// True if `c` widens a bf16 / f16 kernel input to f32 for a convolution
/// kernel that reads it directly (an operand cast,
/// KernelAnalysis::operandCasts): every reader of its value is the
/// convolution `conv`, an elementwise op of its epilogue or its channel
/// contraction (after it, reading the weight or bias), a view of a
/// parameter value after it (a half batch norm vector that an epilogue op
/// also reads directly, KernelAnalysis::params), or a prologue op
/// (an elementwise or window op before it, other than a cast: a skip
/// concatenation's half operand), whose loads widen the element.
static bool isOperandCast(CastOp c, Operation *conv) {
  auto arg = dyn_cast<BlockArgument>(c.getInput());
  return arg && isHalfType(getElementTypeOrSelf(arg.getType())) &&
         getElementTypeOrSelf(c.getType()).isF32() && !c->use_empty() &&
         llvm::all_of(c->getUsers(), [&](Operation *u) {
           if (u == conv)
             return true;
           if (!conv || u->getBlock() != conv->getBlock())
             return false;
           if (conv->isBeforeInBlock(u))
             return isa<ElementwiseOpInterface, ConvTransposeOp>(u) ||
                    isViewOp(u);
           return isa<ElementwiseOpInterface, WindowOpInterface>(u) &&
                  !isa<CastOp>(u);
         });
}

Value KernelAnalysis::storedOperand(Value v) const {
  for (CastOp c : operandCasts)
    if (c.getResult() == v)
      return c.getInput();
  return v;
}

FailureOr<KernelAnalysis> KernelAnalysis::analyze(KernelOp kernel) {
  KernelAnalysis a;
  a.target = getTargetInfo(kernel);
  Block &body = kernel.getBody().front();
  Operation *firstConv = nullptr;
  for (Operation &op : body.without_terminator())
    if (isa<ConvTransposeOp>(op)) {
      firstConv = &op;
      break;
    }
  for (Operation &op : body.without_terminator()) {
    if (auto conv = dyn_cast<ConvTransposeOp>(op)) {
      // A second convolution is checked as a channel contraction with the
      // epilogue below.
      if (!a.conv)
        a.conv = conv;
      continue;
    }
    if (!a.conv) {
      if (isa<arith::ConstantOp>(op))
        continue;
      if (auto c = dyn_cast<CastOp>(op); c && isOperandCast(c, firstConv)) {
        a.operandCasts.push_back(c);
        continue;
      }
      if (!isa<ElementwiseOpInterface, WindowOpInterface>(op))
        return op.emitOpError("before the convolution of a fused kernel is "
                              "neither an elementwise nor a window op; a "
                              "prologue computes the convolution's input "
                              "from those");
      a.prologue.push_back(&op);
    }
  }
  if (!a.conv)
    return kernel.emitOpError("has no fuse.conv_transpose to compute");
  a.geom = ConvGeometry::get(a.conv);
  if (failed(checkGeometryLimits(a.conv, a.geom, a.target)))
    return failure();
  for (Operation &op : body.without_terminator())
    if (auto conv = dyn_cast<ConvTransposeOp>(op); conv && conv != a.conv) {
      if (a.contraction)
        return kernel.emitOpError(
            "has more than one convolution after its first; an epilogue "
            "contracts the channels at most once");
      a.contraction = conv;
    }
  for (Value v : a.conv->getOperands())
    if (!isa<BlockArgument>(a.storedOperand(v)) &&
        !(v == a.conv.getInput() && !a.prologue.empty()))
      return a.conv.emitOpError(
          "operands of a fused convolution must be kernel inputs");
  // The prologue's values feed the convolution's input alone.
  DenseSet<Operation *> prologueOps(a.prologue.begin(), a.prologue.end());
  for (Operation *op : a.prologue)
    for (OpOperand &use : op->getResult(0).getUses())
      if (!prologueOps.contains(use.getOwner()) &&
          !(use.getOwner() == a.conv.getOperation() &&
            use.getOperandNumber() == 0))
        return op->emitOpError("is a prologue op whose value is read after "
                               "the convolution; a prologue computes only "
                               "the convolution's input");
  ArrayRef<int64_t> shape = a.conv.getResult().getType().getShape();
  // Parameter ops: after the convolution, reading no value that depends on
  // it (kernel inputs, constants, operand casts, which widen half kernel
  // inputs, and other parameter ops only).
  bool afterConv = false;
  for (Operation &op : body.without_terminator()) {
    if (&op == a.conv.getOperation()) {
      afterConv = true;
      continue;
    }
    if (!afterConv || isa<arith::ConstantOp>(op))
      continue;
    bool param = llvm::all_of(op.getOperands(), [&](Value v) {
      Operation *def = v.getDefiningOp();
      return !def ? cast<BlockArgument>(v).getOwner() == &body
                  : isa<arith::ConstantOp>(def) || a.isParam(def) ||
                        llvm::is_contained(a.operandCasts,
                                           dyn_cast<CastOp>(def));
    });
    if (!param)
      continue;
    if (!isa<ElementwiseOpInterface>(op) && !isViewOp(&op))
      return op.emitOpError("reads no value of the convolution but is "
                            "neither an elementwise op nor a view; a "
                            "convolution kernel's parameter ops compute "
                            "per-element values from its inputs");
    a.params.push_back(&op);
  }
  // The epilogue's ops before its window op: after it, the tile holds the
  // window's result, and their values are not there.
  DenseSet<Operation *> beforeWindow;
  bool contracted = false; // After the channel contraction.
  for (Operation &op : body.without_terminator()) {
    if (a.isParam(&op))
      continue;
    if (&op == a.conv.getOperation() || isa<arith::ConstantOp>(op) ||
        prologueOps.contains(&op) ||
        llvm::is_contained(a.operandCasts, dyn_cast<CastOp>(op))) {
      beforeWindow.insert(&op);
      continue;
    }
    if (a.pool || a.channelWindow || contracted)
      for (Value v : op.getOperands())
        if (Operation *def = v.getDefiningOp();
            def && beforeWindow.contains(def) && !isa<arith::ConstantOp>(def) &&
            !llvm::is_contained(a.operandCasts, dyn_cast<CastOp>(def)) &&
            !a.isParam(def))
          return op.emitOpError("reads a value from before the kernel's "
                                "window op; after it, an epilogue reads the "
                                "pooled or reduced value");
    if (!a.pool && !a.channelWindow && !contracted &&
        !isa<WindowOpInterface>(op) && &op != a.contraction.getOperation())
      beforeWindow.insert(&op);
    if (&op == a.contraction.getOperation()) {
      if (a.pool || a.channelWindow || !a.reductions.empty())
        return op.emitOpError("contracts a pooled, reduced or normalised "
                              "value; a channel contraction in an epilogue "
                              "follows elementwise ops only");
      if (!isChannelContraction(a.contraction, shape, a.target))
        return op.emitOpError("is a second convolution in a kernel but no "
                              "channel contraction of the epilogue's value "
                              "(expected kernel size 1, stride 1, no "
                              "padding, one group and at most ")
               << maxContractionChannels(a.target)
               << " output channels on " << a.target.describe() << ")";
      for (Value v : {a.contraction.getWeight(), a.contraction.getBias()})
        if (v && !isa<BlockArgument>(a.storedOperand(v)))
          return op.emitOpError("weight and bias of a channel contraction "
                                "must be kernel inputs");
      contracted = true;
      a.needsAllChannels = true;
      shape = a.contraction.getResult().getType().getShape();
      continue;
    }
    if (auto window = dyn_cast<WindowOpInterface>(op)) {
      if (contracted)
        return op.emitOpError("follows a channel contraction; its epilogue "
                              "takes elementwise ops only");
      // A pooling may be followed by a reduction over the channels.
      if (a.channelWindow || (a.pool && !isChannelReduction(window, shape)))
        return op.emitOpError("is a second window op in a convolution "
                              "kernel; its epilogue pools, reduces over "
                              "the channels, or pools and then reduces "
                              "over the channels");
      if (!a.reductions.empty())
        return op.emitOpError("pools or reduces the result of a "
                              "normalisation; a window epilogue takes "
                              "elementwise ops only");
      if (isChannelReduction(window, shape)) {
        a.channelWindow = window;
        a.needsAllChannels = true;
        shape = cast<RankedTensorType>(op.getResult(0).getType()).getShape();
        continue;
      }
      a.pool = PooledEpilogue::get(window, shape, a.geom.stride[1]);
      if (!a.pool)
        return op.emitOpError(
                   "cannot be applied in a convolution epilogue (expected a "
                   "pooling of the convolution's shape with no padding, whose "
                   "windows span at most ")
               << kMaxPooledRowWidth << " positions along W and take at most "
               << kMaxPooledPasses << " main-loop passes)";
      shape = cast<RankedTensorType>(op.getResult(0).getType()).getShape();
      continue;
    }
    if (a.channelWindow && static_cast<int64_t>(shape.size()) < a.geom.rank)
      return op.emitOpError("follows a channel reduction without keepdim; "
                            "only the kernel's result may drop the dim");
    for (Value r : op.getResults())
      if (cast<RankedTensorType>(r.getType()).getShape() != shape)
        return op.emitOpError("result shape differs from the ")
               << (a.pool            ? "pooled"
                   : a.channelWindow ? "reduced"
                   : contracted      ? "contracted"
                                     : "convolution")
               << " output; the fused epilogue must keep it";
    if (auto norm = dyn_cast<NormalizationOpInterface>(op)) {
      if (a.pool || a.channelWindow || contracted)
        return op.emitOpError("follows a window epilogue; a normalisation "
                              "after pooling or a reduction gets a kernel "
                              "of its own");
      switch (tileReductionOf(norm)) {
      case TileReduction::Channels:
        a.needsAllChannels = true;
        break;
      case TileReduction::LastDim:
        a.needsWholeRow = true;
        break;
      case TileReduction::SpansBlocks:
        return op.emitOpError("reduces a set that spans several output "
                              "tiles; only the channel dim (1) or the last "
                              "dim is reduced inside a convolution kernel "
                              "(fuse-form-kernels plans the others as "
                              "kernels of their own)");
      }
      a.reductions.push_back(&op);
      continue;
    }
    if (!isa<ElementwiseOpInterface>(op))
      return op.emitOpError("cannot be part of a fused epilogue");
    for (Value v : op.getOperands())
      if (!broadcastsTo(v, shape))
        return op.emitOpError("operand does not broadcast to the kernel's "
                              "output shape");
  }
  if ((a.pool || a.channelWindow || a.contraction) &&
      kernel.getResult().getType().getShape() != shape)
    return kernel.emitOpError("yields a value from before its window op; a "
                              "window epilogue's result is the pooled or "
                              "reduced one");
  a.assignTiles();
  return a;
}

void KernelAnalysis::assignTiles() {
  Block *body = conv->getBlock();
  DenseMap<Operation *, int64_t> position;
  int64_t pos = 0;
  for (Operation &op : *body)
    position[&op] = pos++;
  // The last position at which a tile-backed value is read: through chains
  // of elementwise ops (evaluated where their users are) up to the
  // reductions and the yield that consume it.
  auto lastUse = [&](Operation *def) {
    int64_t last = position[def];
    SmallVector<Operation *> work{def};
    DenseSet<Operation *> seen;
    while (!work.empty()) {
      Operation *op = work.pop_back_val();
      for (Operation *user : op->getUsers()) {
        last = std::max(last, position[user]);
        if (seen.insert(user).second && isa<ElementwiseOpInterface>(user))
          work.push_back(user);
      }
    }
    return last;
  };
  tileOf[conv] = 0;
  SmallVector<Operation *> owner{conv.getOperation()};
  for (Operation *red : reductions) {
    int64_t here = position[red];
    auto it =
        llvm::find_if(owner, [&](Operation *o) { return lastUse(o) <= here; });
    if (it != owner.end()) {
      tileOf[red] = it - owner.begin();
      *it = red;
    } else {
      tileOf[red] = owner.size();
      owner.push_back(red);
    }
  }
  numTiles = owner.size();
}

std::string KernelAnalysis::tuningKey(KernelOp kernel, ConvMath math,
                                      bool storageCasts) const {
  const ConvGeometry &g = geom;
  std::string key;
  llvm::raw_string_ostream os(key);
  auto dims = [&](llvm::StringRef name, const std::array<int64_t, 3> &v) {
    os << " " << name << v[0] << "x" << v[1] << "x" << v[2];
  };
  os << stringifyConvMath(math) << " r" << g.rank << " n" << g.n << " c" << g.cin << "x"
     << g.cout << " g" << g.groups << " b" << (g.hasBias ? 1 : 0);
  dims("in", g.in);
  dims("k", g.k);
  dims("s", g.stride);
  dims("p", g.pad);
  dims("d", g.dil);
  dims("out", g.out);
  os << " |";
  for (Operation &op : kernel.getBody().front().without_terminator())
    if (!isa<arith::ConstantOp>(op) && (storageCasts || !isa<CastOp>(op)))
      os << " " << op.getName().stripDialect();
  return key;
}
