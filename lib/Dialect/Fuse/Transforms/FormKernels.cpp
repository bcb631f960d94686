//===- FormKernels.cpp - group conv + epilogue into fuse.kernel -----------===//
//
// Implements `fuse-form-kernels`: every transposed convolution and the
// epilogue ops that consume it become one `fuse.kernel` region, i.e. one GPU
// launch with no intermediate tensor in device memory. The graph ops left
// over then root kernels of their own: a normalisation whose reduction sets
// span blocks (with the elementwise ops after it), or elementwise and window
// ops (pooling, reductions, reshapes: one thread per result element).
// Kernel results that later kernels read are the plan's intermediates
// (fuse-plan-kernels).
//
//===----------------------------------------------------------------------===//

#include "fusecc/Dialect/Fuse/Transforms/Passes.h"

#include "fusecc/Codegen/Tiling/TileChoice.h"
#include "fusecc/Dialect/Fuse/IR/KernelAnalysis.h"
#include "fusecc/Support/CheckedArithmetic.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/raw_ostream.h"

namespace fusecc::fuse {
#define GEN_PASS_DEF_FUSEFORMKERNELS
#include "fusecc/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace fusecc::fuse

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

namespace {

using OpGroup = llvm::SetVector<Operation *>;

/// True if every tensor `op` reads or writes is f32. Convolution and
/// normalisation kernels load and store f32 only; a value in half storage
/// (a `fuse.cast` to or from bf16/f16, see fuse-widen-half) is read or
/// written by an elementwise kernel, which converts at its loads and store
/// (exceptions: a convolution's operand casts and its half store,
/// `isHalfStoreCast`).
bool isF32Only(Operation *op) {
  auto f32 = [](Value v) {
    auto ty = dyn_cast<RankedTensorType>(v.getType());
    return !ty || ty.getElementType().isF32();
  };
  return llvm::all_of(op->getOperands(), f32) &&
         llvm::all_of(op->getResults(), f32);
}

/// True if `op` is a `fuse.cast` to bf16/f16 of an f32 value of `group`
/// whose result is only returned or widened again (a widening cast roots
/// an elementwise kernel, which reads half storage): the kernel of `group`
/// then stores the half type itself, rounding at its store exactly as the
/// cast kernel would (docs/design/types.md, "Half stores").
bool isHalfStoreOf(Operation *op, const OpGroup &group) {
  auto c = dyn_cast<CastOp>(op);
  if (!c)
    return false;
  auto to = cast<RankedTensorType>(c.getResult().getType());
  auto from = cast<RankedTensorType>(c.getInput().getType());
  if (!isHalfType(to.getElementType()) || !from.getElementType().isF32())
    return false;
  Operation *def = c.getInput().getDefiningOp();
  if (!def || !group.contains(def))
    return false;
  return llvm::all_of(c->getUsers(), [](Operation *u) {
    return isa<func::ReturnOp>(u) || isa<CastOp>(u);
  });
}

/// The channel contraction of `group` (a convolution after its root,
/// `isChannelContraction`), or null.
ConvTransposeOp contractionOf(const OpGroup &group) {
  for (Operation *o : llvm::drop_begin(group))
    if (auto conv = dyn_cast<ConvTransposeOp>(o))
      return conv;
  return {};
}

/// A half store (`isHalfStoreOf`) by a convolution kernel: its epilogue
/// is elementwise, normalises in the tile (a softmax over the channels,
/// a layer norm over the last dim) or pools, and stores through the tile
/// walk, the register runs or the pooled stores, which round a half result
/// (`narrowForStore`), as does a channel contraction's. Channel-reduction
/// epilogues keep the cast kernel: their store paths write f32 only.
bool isHalfStoreCast(Operation *op, const OpGroup &group) {
  if (!isHalfStoreOf(op, group))
    return false;
  auto conv = cast<ConvTransposeOp>(group.front());
  ArrayRef<int64_t> convShape = conv.getResult().getType().getShape();
  // Each window op's operand shape: the convolution's for the first, the
  // previous window's result for a channel reduction after a pooling.
  ArrayRef<int64_t> shape = convShape;
  for (Operation *o : group)
    if (auto w = dyn_cast<WindowOpInterface>(o)) {
      if (isChannelReduction(w, shape))
        return false;
      shape = cast<RankedTensorType>(o->getResult(0).getType()).getShape();
    }
  return true;
}

/// Ops that can run on the tile of a fused kernel after the convolution
/// (the group's root) and the ops of `group`: elementwise ops,
/// normalisations whose reduction sets a block holds, and one window op
/// after elementwise ops only, a pooling (`PooledEpilogue`: blocks then
/// hold whole windows) or a reduction over the channels (blocks hold all
/// channels), followed by elementwise ops on its value; a pooling may be
/// followed (after elementwise ops) by a reduction over the channels. In
/// place of the window op, a channel contraction (`isChannelContraction`:
/// a 1x1 convolution of few output channels, blocks holding all channels)
/// of an elementwise epilogue value, followed by elementwise ops on its
/// value (unless `contractions` is false).
bool isConvEpilogueOp(Operation *op, const OpGroup &group,
                      bool contractions) {
  if (isHalfStoreCast(op, group))
    return true;
  if (!isF32Only(op))
    return false;
  if (ConvTransposeOp contraction = contractionOf(group)) {
    // After it, the tile holds no value the ops could read: only the
    // contraction's result and what follows it.
    ArrayRef<Operation *> ops = group.getArrayRef();
    ArrayRef<Operation *> before(ops.begin(),
                                 llvm::find(ops, contraction.getOperation()));
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp())
        if (llvm::is_contained(before, def))
          return false;
    return isa<ElementwiseOpInterface>(op) &&
           op->getResult(0).getType() == contraction.getResult().getType();
  }
  if (auto conv = dyn_cast<ConvTransposeOp>(op)) {
    if (!contractions)
      return false;
    auto root = cast<ConvTransposeOp>(group.front());
    Operation *in = conv.getInput().getDefiningOp();
    auto outside = [&](Value v) {
      return !v || !llvm::is_contained(group, v.getDefiningOp());
    };
    // The kernel rounds the contraction's operands as its convolution's
    // (emitChannelContractionEpilogue): both must be stored alike.
    return in && group.contains(in) && outside(conv.getWeight()) &&
           outside(conv.getBias()) &&
           convStorageType(conv) == convStorageType(root) &&
           llvm::all_of(group,
                        [&](Operation *o) {
                          return o == root || isa<ElementwiseOpInterface>(o);
                        }) &&
           isChannelContraction(conv, root.getResult().getType().getShape(),
                                getTargetInfo(root));
  }
  Operation *lastWindow = nullptr;
  int64_t windows = 0;
  for (Operation *o : group)
    if (isa<WindowOpInterface>(o)) {
      lastWindow = o;
      ++windows;
    }
  auto conv = cast<ConvTransposeOp>(group.front());
  ArrayRef<int64_t> convShape = conv.getResult().getType().getShape();
  if (lastWindow) {
    // After a window op, the tile holds its result: an op there cannot
    // read a value of the group from before it (the convolution's, at a
    // pooled position), only the window's result and what follows it.
    ArrayRef<Operation *> ops = group.getArrayRef();
    ArrayRef<Operation *> before(ops.begin(), llvm::find(ops, lastWindow));
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp())
        if (llvm::is_contained(before, def))
          return false;
    auto windowTy = cast<RankedTensorType>(lastWindow->getResult(0).getType());
    if (auto channels = dyn_cast<WindowOpInterface>(op))
      return windows == 1 &&
             !isChannelReduction(cast<WindowOpInterface>(lastWindow),
                                 convShape) &&
             isChannelReduction(channels, windowTy.getShape());
    // Ops on a channel reduction's result need its rank (keepdim).
    return isa<ElementwiseOpInterface>(op) &&
           op->getResult(0).getType() == windowTy &&
           windowTy.getRank() == static_cast<int64_t>(convShape.size());
  }
  if (isa<ElementwiseOpInterface>(op))
    return true;
  if (auto window = dyn_cast<WindowOpInterface>(op)) {
    bool onlyElementwise = llvm::all_of(group, [&](Operation *o) {
      return o == conv || isa<ElementwiseOpInterface>(o);
    });
    return onlyElementwise &&
           (isChannelReduction(window, convShape) ||
            PooledEpilogue::get(window, convShape,
                                ConvGeometry::get(conv).stride[1]));
  }
  auto norm = dyn_cast<NormalizationOpInterface>(op);
  if (!norm)
    return false;
  switch (tileReductionOf(norm)) {
  case TileReduction::SpansBlocks:
    return false;
  case TileReduction::Channels:
    return true;
  case TileReduction::LastDim:
    // A row longer than any tile holds is normalised by a kernel of its
    // own, whose planned phases take sets of any length.
    return convShape.back() <=
           maxTileRowWidth(getTargetInfo(conv),
                           ConvGeometry::get(conv).stride[2]);
  }
  llvm_unreachable("unknown tile reduction");
}

/// Ops that follow a normalisation root: elementwise ops, evaluated at the
/// normalised element, and views (reshapes) of it.
bool isNormalizationEpilogueOp(Operation *op) {
  return (isa<ElementwiseOpInterface>(op) || isViewOp(op)) && isF32Only(op);
}

/// The view ops from `op` on through which a value reaches operand 0 of a
/// normalisation, each used once, then that normalisation; empty if `op`
/// does not start such a chain. A normalisation kernel reads its input
/// flat, so the views join its kernel and cost nothing.
SmallVector<Operation *> viewsIntoNormalization(Operation *op) {
  SmallVector<Operation *> chain;
  while (isViewOp(op) && op->getResult(0).hasOneUse()) {
    chain.push_back(op);
    OpOperand &use = *op->getResult(0).getUses().begin();
    Operation *user = use.getOwner();
    if (isa<NormalizationOpInterface>(user) && use.getOperandNumber() == 0) {
      chain.push_back(user);
      return chain;
    }
    op = user;
  }
  return {};
}

/// True if `op` reads a window op's result (other than a view's) broadcast
/// to a larger shape: in one kernel every element of the larger result
/// would evaluate the window again, so the window's result is computed once
/// by a kernel of its own and read from its buffer.
bool rebroadcastsWindow(Operation *op) {
  auto resultTy = cast<RankedTensorType>(op->getResult(0).getType());
  return llvm::any_of(op->getOperands(), [&](Value v) {
    auto w = v.getDefiningOp<WindowOpInterface>();
    return w && !w.isView() && w.getWindowVolume() > 1 &&
           cast<RankedTensorType>(v.getType()).getNumElements() <
               resultTy.getNumElements();
  });
}

/// True if `op` is a window op (not a view) over a set reduction's result
/// that `group` computes (through views): the reduction then ends its
/// kernel -- a reduction kernel whose sets are planned (a warp or thread
/// per set, split, or a convolution epilogue's statistics), as in the
/// chains fuse-split-reductions builds -- instead of being evaluated again
/// inside every window of `op`.
bool windowsSetReduction(Operation *op, const OpGroup &group) {
  auto w = dyn_cast<WindowOpInterface>(op);
  if (!w || w.isView() || w.getWindowVolume() <= 1)
    return false;
  return llvm::any_of(op->getOperands(), [&](Value v) {
    auto def = viewSource(v).getDefiningOp<WindowOpInterface>();
    return def && group.contains(def) &&
           def.getSetReduction() != SetReduction::None;
  });
}

/// Ops that follow an elementwise or window root: one thread per result
/// element evaluates the whole chain, a window op looping over its window.
bool isElementwiseKernelOp(Operation *op) {
  return isa<ElementwiseOpInterface, WindowOpInterface>(op) &&
         !rebroadcastsWindow(op);
}

/// Graph ops that root a kernel of their own when no convolution kernel
/// took them.
bool isStandaloneRoot(Operation *op) {
  return isa<ElementwiseOpInterface, NormalizationOpInterface,
             WindowOpInterface>(op);
}

/// A rank-0 f32 constant: cloned into kernels as a scalar.
bool isScalarConstant(Value v) {
  auto cst = v.getDefiningOp<arith::ConstantOp>();
  if (!cst)
    return false;
  auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
  return dense && dense.getType().getRank() == 0 &&
         dense.getElementType().isF32();
}

/// Collects into `chain` (operands before users) the ops that compute `v`
/// from graph inputs and constants alone, through f32 elementwise ops and
/// views outside kernels; false if `v` depends on anything else. An eval
/// batch_norm's `rsqrt(running_var + eps) * weight` and the `[C] -> [C, 1,
/// 1]` views of its vectors are such *parameter values*: a convolution
/// kernel whose epilogue reads one takes copies of its ops
/// (`KernelAnalysis::params`) and evaluates them per element from its
/// inputs, instead of a kernel of their own writing a buffer (docs/perf.md
/// 156: 12 such kernels in dcgan_generator, 26 us on the H200).
bool collectParameterChain(Value v, llvm::SetVector<Operation *> &chain) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return isa<func::FuncOp>(
        cast<BlockArgument>(v).getOwner()->getParentOp());
  if (isa<arith::ConstantOp>(def) || chain.contains(def))
    return true;
  if (def->getParentOfType<KernelOp>() || def->getNumResults() != 1 ||
      !(isa<ElementwiseOpInterface>(def) || isViewOp(def)) ||
      !isF32Only(def))
    return false;
  for (Value o : def->getOperands())
    if (!collectParameterChain(o, chain))
      return false;
  chain.insert(def);
  return true;
}

/// True if `v` is a parameter value (`collectParameterChain`) computed by
/// at least one op.
bool isParameterValue(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || isa<arith::ConstantOp>(def))
    return false;
  llvm::SetVector<Operation *> chain;
  return collectParameterChain(v, chain);
}

/// The values produced in `group` that are used outside it.
SmallVector<Value> escapingValues(const llvm::SetVector<Operation *> &group) {
  SmallVector<Value> out;
  for (Operation *op : group)
    for (Value r : op->getResults())
      if (llvm::any_of(r.getUsers(),
                       [&](Operation *u) { return !group.contains(u); }))
        out.push_back(r);
  return out;
}

/// Grows the op group `seed` (its first op the root, its last the latest in
/// the block): later ops of the block accepted by `follows` that read a
/// value of the group and otherwise only values defined before the root (so
/// no cycle through outside ops can form).
OpGroup growGroup(ArrayRef<Operation *> seed,
                  function_ref<bool(Operation *, const OpGroup &)> follows) {
  Operation *conv = seed.front();
  OpGroup group;
  group.insert(seed.begin(), seed.end());
  for (Operation *op = seed.back()->getNextNode(); op; op = op->getNextNode()) {
    if (!follows(op, group))
      continue;
    bool readsGroup = false, operandsOk = true;
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      if (def && group.contains(def)) {
        readsGroup = true;
        continue;
      }
      bool before =
          !def || isScalarConstant(v) ||
          (def->getBlock() == conv->getBlock() && def->isBeforeInBlock(conv)) ||
          (isa<ConvTransposeOp>(conv) && isParameterValue(v));
      operandsOk &= before;
    }
    if (readsGroup && operandsOk)
      group.insert(op);
  }
  // A kernel has one output: drop trailing ops until one value escapes.
  while (group.size() > 1 && escapingValues(group).size() > 1)
    group.pop_back();
  return group;
}

/// The ops a convolution folds into its input staging (its prologue), in
/// block order, and what was decided for them.
struct Prologue {
  SmallVector<Operation *> ops;
  bool folded = false;
};

/// The prologue candidates of a value P that convolutions read as their
/// input: the elementwise and window ops (in block order) that compute P,
/// each of whose values is read only by those ops or, for P, only as the
/// input of convolutions (each of which folds a copy). Empty when P's
/// defining op is no such op or P has another reader.
SmallVector<Operation *> prologueChain(Value p) {
  Operation *def = p.getDefiningOp();
  if (!def || def->getParentOfType<KernelOp>() ||
      !isa<ElementwiseOpInterface, WindowOpInterface>(def) ||
      def->getNumResults() != 1 || !isF32Only(def))
    return {};
  for (OpOperand &use : p.getUses())
    if (!isa<ConvTransposeOp>(use.getOwner()) || use.getOperandNumber() != 0)
      return {};
  // Walk back in block order: every user of an op is decided before it.
  llvm::SetVector<Operation *> chain;
  chain.insert(def);
  for (Operation *op = def->getPrevNode(); op; op = op->getPrevNode()) {
    if (!isa<ElementwiseOpInterface, WindowOpInterface>(op) ||
        op->getNumResults() != 1 || op->use_empty() || !isF32Only(op))
      continue;
    if (llvm::all_of(op->getUsers(),
                     [&](Operation *u) { return chain.contains(u); }))
      chain.insert(op);
  }
  SmallVector<Operation *> ops(chain.begin(), chain.end());
  std::reverse(ops.begin(), ops.end());
  // Leave to a normalisation the unary elementwise ops that follow it
  // alone (a VAE decoder's silu after a group_norm that spans blocks): its
  // kernel stores its result anyway and applies them once per element
  // there (isNormalizationEpilogueOp), where the staging would evaluate
  // them at every staging of the element (3 x 3 taps, and 4 times more
  // behind a nearest upsample: vae_decoder's conv_out evaluated silu's exp
  // and reciprocal 8 times per element).
  size_t absorbed = 0;
  for (; absorbed < ops.size(); ++absorbed) {
    Operation *op = ops[absorbed];
    if (!isa<ElementwiseOpInterface>(op))
      break;
    Value src;
    bool unary = true;
    for (Value v : op->getOperands()) {
      if (isScalarConstant(v))
        continue;
      unary &= !src;
      src = v;
    }
    if (!unary || !src || !src.hasOneUse())
      break;
    Operation *from = src.getDefiningOp();
    if (absorbed == 0 ? !from || !isa<NormalizationOpInterface>(from) ||
                            from->getParentOfType<KernelOp>() ||
                            !isF32Only(from)
                      : from != ops[absorbed - 1])
      break;
  }
  ops.erase(ops.begin(), ops.begin() + absorbed);
  return ops;
}

/// True if `c` widens a stored half value (a graph input or a tensor
/// constant in bf16 / f16, fuse-widen-half's cast) to f32: a convolution
/// reading its value as an operand reads the half elements directly.
bool isStoredHalfWidening(CastOp c) {
  Value in = c.getInput();
  Operation *def = in.getDefiningOp();
  return (!def || isa<arith::ConstantOp>(def)) &&
         isHalfType(cast<RankedTensorType>(in.getType()).getElementType()) &&
         cast<RankedTensorType>(c.getResult().getType())
             .getElementType()
             .isF32();
}

/// True if `c` widens the half result of a kernel formed earlier (a half
/// intermediate, `storeHalfIntermediate`) for convolutions that read it as
/// their input: each of them reads the half elements itself.
bool isHalfIntermediateWidening(CastOp c) {
  return c.getInput().getDefiningOp<KernelOp>() &&
         isHalfType(
             cast<RankedTensorType>(c.getInput().getType()).getElementType()) &&
         cast<RankedTensorType>(c.getResult().getType())
             .getElementType()
             .isF32() &&
         llvm::all_of(c->getUses(), [](OpOperand &use) {
           return isa<ConvTransposeOp>(use.getOwner()) &&
                  use.getOperandNumber() == 0;
         });
}

/// The half type the convolution `conv` (not yet in a kernel) rounds its
/// input to under `precision`, or null: a half graph's convolution
/// (`convStorageType`: stored half weights, an input computed in f32) runs
/// on tensor cores of its storage type (`convMathFor`), except with at
/// most a TF32 k-step of input channels per group (`tensorCoreMath`:
/// TF32), pinned to FP32 or where `precision` asks for the other half
/// type; on an FMA tiling it multiplies the same half values as its
/// tensor cores would.
Type halfOperandType(ConvTransposeOp conv, Precision precision) {
  if (conv->getParentOfType<KernelOp>() ||
      conv->hasAttr(kConvPrecisionAttrName))
    return {};
  Type storage = convStorageType(conv);
  const ConvMath math = convMathFor(precision, storage, /*pinnedIeee=*/false);
  const bool sameHalf = (storage.isBF16() && math == ConvMath::BF16) ||
                        (storage.isF16() && math == ConvMath::F16);
  if (!sameHalf || ConvGeometry::get(conv).cinPerGroup() <= 8)
    return {};
  return storage;
}

/// Half intermediates (docs/design/types.md): where the one value that a
/// convolution kernel's `group` leaves is f32 and only convolutions read
/// it, each as its input on tensor cores of one half type H
/// (`halfOperandType`), the group rounds it to H at its store (a half
/// store, `isHalfStoreCast`) and the readers read the H elements through
/// a widening cast (`isHalfIntermediateWidening`). Their tensor cores
/// round the f32 value to H anyway (the same operands, the same results:
/// the graph as written holds that value in H, as PyTorch eager stores
/// it), and the buffer moves half the bytes. Returns the cast to add to
/// the group, or null where nothing changed.
CastOp storeHalfIntermediate(const OpGroup &group, Precision precision) {
  SmallVector<Value> escaping = escapingValues(group);
  if (escaping.size() != 1)
    return {};
  Value v = escaping.front();
  auto ty = dyn_cast<RankedTensorType>(v.getType());
  if (!ty || !ty.getElementType().isF32() || v.use_empty())
    return {};
  Type half;
  for (OpOperand &use : v.getUses()) {
    auto conv = dyn_cast<ConvTransposeOp>(use.getOwner());
    if (!conv || use.getOperandNumber() != 0)
      return {};
    Type h = halfOperandType(conv, precision);
    if (!h || (half && h != half))
      return {};
    half = h;
  }
  OpBuilder b(v.getContext());
  b.setInsertionPointAfterValue(v);
  auto store = CastOp::create(b, v.getLoc(),
                              RankedTensorType::get(ty.getShape(), half), v);
  auto widen = CastOp::create(b, v.getLoc(), ty, store.getResult());
  v.replaceUsesWithIf(widen.getResult(),
                      [&](OpOperand &u) { return u.getOwner() != store; });
  OpGroup with = group;
  with.insert(store);
  if (isHalfStoreCast(store, with))
    return store;
  widen.getResult().replaceAllUsesWith(v);
  widen.erase();
  store.erase();
  return {};
}

/// Decides the prologue of the value `p` that `conv` reads (once per value:
/// every convolution reading it shares the decision) and records it on
/// each of those convolutions (`kPrologueAttr`).
Prologue decidePrologue(Value p, PrologueFusion mode) {
  Prologue pro;
  pro.ops = prologueChain(p);
  if (pro.ops.empty())
    return pro;
  DenseSet<Operation *> chainSet(pro.ops.begin(), pro.ops.end());
  PrologueCost cost;
  cost.reads = std::max<int64_t>(1, prologueReads(p, chainSet));
  for (Operation *user : p.getUsers())
    cost.stagings = saturatingAdd(
        cost.stagings,
        inputStagings(ConvGeometry::get(cast<ConvTransposeOp>(user))));
  pro.folded = mode == PrologueFusion::Always ||
               (mode == PrologueFusion::Auto && cost.pays());
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      pro.ops, os, [&](Operation *op) { os << op->getName().stripDialect(); },
      " -> ");
  os << (pro.folded ? " folded into input staging"
                    : " kept in a kernel of its own");
  if (mode != PrologueFusion::Auto)
    os << " (forced " << (pro.folded ? "on" : "off") << ")";
  else
    os << " (reads V x stagings S = " << cost.reads << " x " << cost.stagings
       << " = " << cost.folded() << (pro.folded ? " <= " : " > ")
       << "V + 1 + S = " << cost.separate() << ")";
  for (Operation *user : p.getUsers())
    user->setAttr(kPrologueAttr, StringAttr::get(user->getContext(), text));
  if (!pro.folded)
    pro.ops.clear();
  return pro;
}

/// Moves `group` into a new `fuse.kernel` named `<func>_k<counter>`, with
/// copies of the `prologue` ops (which compute its convolution's input, or
/// widen its half operands, and stay where they are for other readers) in
/// front; returns it (null when
/// nothing of the group is used).
KernelOp formKernel(func::FuncOp func,
                    const llvm::SetVector<Operation *> &group,
                    unsigned &counter, ArrayRef<Operation *> prologue = {}) {
  SmallVector<Value> escaping = escapingValues(group);
  if (escaping.empty())
    return nullptr; // Cannot happen after the dead-op sweep.
  Value output = escaping.front();

  // A convolution kernel's epilogue takes copies of the parameter chains
  // it reads (collectParameterChain), placed after the convolution.
  Operation *root = group.front();
  DenseSet<Operation *> prologueSet(prologue.begin(), prologue.end());
  llvm::SetVector<Operation *> params;
  if (isa<ConvTransposeOp>(root))
    for (Operation *op : group)
      for (Value v : op->getOperands()) {
        Operation *def = v.getDefiningOp();
        if (op == root || !def || group.contains(def) ||
            prologueSet.contains(def) || isa<arith::ConstantOp>(def))
          continue;
        llvm::SetVector<Operation *> chain;
        if (collectParameterChain(v, chain))
          params.insert(chain.begin(), chain.end());
      }

  // Kernel inputs: outside values, except scalar constants (cloned).
  llvm::SetVector<Value> inputs;
  auto inside = [&](Operation *def) {
    return def && (group.contains(def) || prologueSet.contains(def) ||
                   params.contains(def));
  };
  for (Operation *op : prologue)
    for (Value v : op->getOperands())
      if (!inside(v.getDefiningOp()) && !isScalarConstant(v))
        inputs.insert(v);
  for (Operation *op : llvm::concat<Operation *const>(group, params))
    for (Value v : op->getOperands()) {
      if (inside(v.getDefiningOp()) || isScalarConstant(v))
        continue;
      inputs.insert(v);
    }

  // Inputs are defined before the root (a parameter chain's tensor
  // constants are moved there), so the kernel may stand where the output
  // was defined, ahead of all of its users.
  Operation *at = output.getDefiningOp();
  for (Value in : inputs)
    if (auto cst = in.getDefiningOp<arith::ConstantOp>();
        cst && cst->getBlock() == at->getBlock() && at->isBeforeInBlock(cst))
      cst->moveBefore(at);
  OpBuilder b(at);
  std::string name =
      (func.getSymName() + "_k" + std::to_string(counter++)).str();
  auto kernel = KernelOp::create(b, root->getLoc(), output.getType(), name,
                                 inputs.getArrayRef());
  Block &body = kernel.getBody().front();
  IRMapping map;
  for (auto [in, arg] : llvm::zip(inputs, body.getArguments()))
    map.map(in, arg);
  OpBuilder bb = OpBuilder::atBlockEnd(&body);
  for (Operation *op : prologue) {
    for (Value v : op->getOperands())
      if (isScalarConstant(v) && !map.contains(v))
        map.map(v, bb.clone(*v.getDefiningOp())->getResult(0));
    bb.clone(*op, map);
  }
  auto cloneWithScalars = [&](Operation *op) {
    for (Value v : op->getOperands())
      if (isScalarConstant(v) && !map.contains(v))
        map.map(v, bb.clone(*v.getDefiningOp())->getResult(0));
    bb.clone(*op, map);
  };
  for (Operation *op : group) {
    cloneWithScalars(op);
    if (op == root)
      for (Operation *param : params)
        cloneWithScalars(param);
  }
  YieldOp::create(bb, root->getLoc(), map.lookup(output));
  output.replaceAllUsesWith(kernel.getResult());
  for (Operation *op : llvm::reverse(group))
    op->erase();
  return kernel;
}

/// Gives every output argument a kernel of its own that writes it: a
/// returned value that no kernel computes (a graph input or a constant
/// returned as it is) or that is returned a second time is routed through
/// a copy kernel, a `fuse.kernel` whose body yields its input (a scalar
/// constant is cloned into it). The plan then writes each output once, and
/// the copy of a value returned twice reads the first output argument.
void addCopyKernels(func::FuncOp func, unsigned &counter) {
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  DenseSet<Value> written;
  for (OpOperand &operand : ret->getOpOperands()) {
    Value v = operand.get();
    if (v.getDefiningOp<KernelOp>() && written.insert(v).second)
      continue;
    OpBuilder b(ret);
    SmallVector<Value> inputs;
    if (!isScalarConstant(v))
      inputs.push_back(v);
    std::string name =
        (func.getSymName() + "_k" + std::to_string(counter++)).str();
    auto kernel = KernelOp::create(b, ret.getLoc(), v.getType(), name, inputs);
    Block &body = kernel.getBody().front();
    OpBuilder bb = OpBuilder::atBlockEnd(&body);
    Value copied = inputs.empty() ? bb.clone(*v.getDefiningOp())->getResult(0)
                                  : Value(body.getArgument(0));
    YieldOp::create(bb, ret.getLoc(), copied);
    operand.set(kernel.getResult());
    written.insert(kernel.getResult());
  }
}

/// Graph ops are pure: drops those whose results nobody uses.
void eraseDeadOps(func::FuncOp func) {
  for (Operation &op : llvm::make_early_inc_range(
           llvm::reverse(func.getBody().front().getOperations())))
    if (isOpTriviallyDead(&op))
      op.erase();
}

struct FormKernelsPass
    : public fusecc::fuse::impl::FuseFormKernelsBase<FormKernelsPass> {
  using FuseFormKernelsBase::FuseFormKernelsBase;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    // Drop unused values, so that they neither block fusion nor reach the
    // lowering.
    eraseDeadOps(func);
    // Convolution kernels first (they take their prologues and epilogues),
    // then kernels rooted at the graph ops no convolution took, in block
    // order. A prologue is decided at the first convolution that reads its
    // value (an earlier convolution's epilogue may have taken the ops) and
    // copied into every convolution reading it; the originals die with
    // their last reader.
    SmallVector<Operation *> roots;
    func.walk([&](ConvTransposeOp conv) {
      if (!conv->getParentOfType<KernelOp>())
        roots.push_back(conv);
    });
    unsigned counter = 0;
    DenseMap<Value, Prologue> prologues;
    // Convolutions taken into an earlier kernel (erased; compared by
    // address only).
    DenseSet<Operation *> absorbed;
    for (Operation *root : roots) {
      if (absorbed.contains(root))
        continue; // A channel contraction in an earlier kernel's epilogue.
      Value input = cast<ConvTransposeOp>(root).getInput();
      auto it = prologues.find(input);
      if (it == prologues.end())
        it =
            prologues.try_emplace(input, decidePrologue(input, prologue)).first;
      // Operand casts (KernelAnalysis::operandCasts): the widening of a
      // half graph input or constant that the convolution reads as its
      // input (without another prologue), weight or bias is copied in, so
      // that the kernel reads the half elements itself.
      // So is the widening of a half intermediate that it reads as its
      // input (`storeHalfIntermediate`).
      SmallVector<Operation *> copied;
      for (Value v : root->getOperands())
        if (auto c = v.getDefiningOp<CastOp>();
            c &&
            (isStoredHalfWidening(c) ||
             (v == input && isHalfIntermediateWidening(c))) &&
            !llvm::is_contained(copied, c) &&
            !(v == input && !it->second.ops.empty()))
          copied.push_back(c);
      OpGroup group =
          growGroup({root}, [&](Operation *op, const OpGroup &g) {
            return isConvEpilogueOp(op, g, channelContraction);
          });
      if (halfIntermediates)
        if (CastOp store = storeHalfIntermediate(group, precision))
          group.insert(store);
      // Epilogue operand casts: a half graph input or constant that the
      // epilogue's elementwise ops read (a residual, kb2_26's add_input) is
      // read by the kernel itself, widened as it is loaded, instead of
      // through an f32 copy that an elementwise kernel writes (2 + 4 + 4
      // bytes an element moved instead of 2).
      // A channel contraction's weight and bias likewise (its input is the
      // epilogue's value).
      for (Operation *op : group) {
        if (op == root || !isa<ElementwiseOpInterface, ConvTransposeOp>(op))
          continue;
        auto operands = op->getOperands();
        if (isa<ConvTransposeOp>(op))
          operands = operands.drop_front();
        for (Value v : operands) {
          auto c = v.getDefiningOp<CastOp>();
          if (!c || !isStoredHalfWidening(c) || llvm::is_contained(copied, c))
            continue;
          if (llvm::all_of(c->getUsers(), [&](Operation *u) {
                return !group.contains(u) ||
                       isa<ElementwiseOpInterface, ConvTransposeOp>(u);
              }))
            copied.push_back(c);
        }
      }
      llvm::append_range(copied, it->second.ops);
      if (ConvTransposeOp contraction = contractionOf(group))
        absorbed.insert(contraction);
      formKernel(func, group, counter, copied);
    }
    eraseDeadOps(func);
    // Each new kernel removes its root, so this ends.
    while (true) {
      Operation *root = nullptr;
      for (Operation &op : func.getBody().front())
        if (isStandaloneRoot(&op)) {
          root = &op;
          break;
        }
      if (!root)
        break;
      // The widening of a half graph input that only tap sums read (a
      // reduce-through-conv box sum, kb2_44) is copied into the tap sums'
      // kernel, which loads the half elements itself (a box-sums kernel,
      // BoxSumsLayout), instead of rooting an elementwise kernel that would
      // evaluate the tap sums element by element.
      SmallVector<Operation *> copied;
      if (auto c = dyn_cast<CastOp>(root);
          c && isStoredHalfWidening(c) && c->hasOneUse() &&
          isa<ConvTransposeTapSumsOp>(*c->getUsers().begin())) {
        copied.push_back(c);
        root = *c->getUsers().begin();
      }
      SmallVector<Operation *> seed = viewsIntoNormalization(root);
      if (seed.empty())
        seed.push_back(root);
      bool (*follows)(Operation *) = isa<NormalizationOpInterface>(seed.back())
                                         ? isNormalizationEpilogueOp
                                         : isElementwiseKernelOp;
      // A cast to or from half storage joins only a kernel rooted at an
      // elementwise op (an elementwise kernel, which converts at its loads
      // and store), except that a normalisation kernel stores its half
      // result itself (`isHalfStoreOf`: NormEmitter rounds at the store);
      // after a set reduction it roots an elementwise kernel of its own.
      bool elementwiseRoot = isa<ElementwiseOpInterface>(seed.front());
      bool normalisation = isa<NormalizationOpInterface>(seed.back());
      auto accepts = [&](Operation *op, const OpGroup &group) {
        if (normalisation && isHalfStoreOf(op, group))
          return true;
        return follows(op) && !windowsSetReduction(op, group) &&
               (elementwiseRoot || isF32Only(op));
      };
      if (!formKernel(func, growGroup(seed, accepts), counter, copied))
        root->erase(); // Unused (the dead-op sweep leaves none).
    }
    if (isa<func::ReturnOp>(func.getBody().front().getTerminator()))
      addCopyKernels(func, counter);
  }
};

} // namespace
