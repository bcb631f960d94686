//===- KernelMembership.cpp - the ops a kernel's group takes --------------===//
//
// Which ops fuse-form-kernels puts in one kernel: the epilogue ops of a
// convolution (elementwise ops, normalisations a block holds, one window op
// or channel contraction, a half store), the ops after a normalisation
// root or an elementwise or window root, the graph ops that root kernels of
// their own, the parameter chains an epilogue takes copies of, the
// prologue candidates of a convolution's input, and the growing of a group
// from its root (FormKernelsInternal.h).
//
//===----------------------------------------------------------------------===//

#include "FormKernelsInternal.h"

#include "fusecc/Codegen/Tiling/TileChoice.h"
#include "fusecc/Dialect/Fuse/IR/KernelAnalysis.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using namespace fusecc::fuse::formkernels;

namespace {

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

/// True if `v`, read by `reader`, is a parameter value
/// (`collectEpilogueParameters`) computed by at least one op.
bool isParameterValue(Operation *reader, Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || isa<arith::ConstantOp>(def))
    return false;
  llvm::SetVector<Operation *> chain;
  return collectEpilogueParameters(reader, v, chain);
}

} // namespace

bool formkernels::isF32Only(Operation *op) {
  auto f32 = [](Value v) {
    auto ty = dyn_cast<RankedTensorType>(v.getType());
    return !ty || ty.getElementType().isF32();
  };
  return llvm::all_of(op->getOperands(), f32) &&
         llvm::all_of(op->getResults(), f32);
}

bool formkernels::isHalfStoreOf(Operation *op, const OpGroup &group) {
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

ConvTransposeOp formkernels::contractionOf(const OpGroup &group) {
  for (Operation *o : llvm::drop_begin(group))
    if (auto conv = dyn_cast<ConvTransposeOp>(o))
      return conv;
  return {};
}

bool formkernels::isHalfStoreCast(Operation *op, const OpGroup &group) {
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

bool formkernels::isConvEpilogueOp(Operation *op, const OpGroup &group,
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

bool formkernels::isNormalizationEpilogueOp(Operation *op) {
  return (isa<ElementwiseOpInterface>(op) || isViewOp(op)) && isF32Only(op);
}

SmallVector<Operation *> formkernels::viewsIntoNormalization(Operation *op) {
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

bool formkernels::windowsSetReduction(Operation *op, const OpGroup &group) {
  auto w = dyn_cast<WindowOpInterface>(op);
  if (!w || w.isView() || w.getWindowVolume() <= 1)
    return false;
  return llvm::any_of(op->getOperands(), [&](Value v) {
    auto def = viewSource(v).getDefiningOp<WindowOpInterface>();
    return def && group.contains(def) &&
           def.getSetReduction() != SetReduction::None;
  });
}

bool formkernels::isElementwiseKernelOp(Operation *op) {
  return isa<ElementwiseOpInterface, WindowOpInterface>(op) &&
         !rebroadcastsWindow(op);
}

bool formkernels::isStandaloneRoot(Operation *op) {
  return isa<ElementwiseOpInterface, NormalizationOpInterface,
             WindowOpInterface>(op);
}

bool formkernels::isScalarConstant(Value v) {
  auto cst = v.getDefiningOp<arith::ConstantOp>();
  if (!cst)
    return false;
  auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
  return dense && dense.getType().getRank() == 0 &&
         dense.getElementType().isF32();
}

bool formkernels::collectParameterChain(Value v,
                                        llvm::SetVector<Operation *> &chain) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return isa<func::FuncOp>(cast<BlockArgument>(v).getOwner()->getParentOp());
  if (isa<arith::ConstantOp>(def) || chain.contains(def))
    return true;
  // A half graph input or constant widened to f32 (fuse-widen-half's cast
  // of a bf16 / f16 batch norm's vectors): the kernel loads the half
  // elements and widens them exactly, as the elementwise kernel that would
  // otherwise write an f32 copy of them does.
  if (auto c = dyn_cast<CastOp>(def);
      c && !def->getParentOfType<KernelOp>() && isStoredHalfWidening(c)) {
    chain.insert(def);
    return true;
  }
  if (def->getParentOfType<KernelOp>() || def->getNumResults() != 1 ||
      !(isa<ElementwiseOpInterface>(def) || isViewOp(def)) || !isF32Only(def))
    return false;
  for (Value o : def->getOperands())
    if (!collectParameterChain(o, chain))
      return false;
  chain.insert(def);
  return true;
}

bool formkernels::collectEpilogueParameters(
    Operation *reader, Value v, llvm::SetVector<Operation *> &chain) {
  if (!collectParameterChain(v, chain))
    return false;
  return isa<ElementwiseOpInterface>(reader) ||
         llvm::none_of(chain, [](Operation *op) { return isa<CastOp>(op); });
}

SmallVector<Value>
formkernels::escapingValues(const llvm::SetVector<Operation *> &group) {
  SmallVector<Value> out;
  for (Operation *op : group)
    for (Value r : op->getResults())
      if (llvm::any_of(r.getUsers(),
                       [&](Operation *u) { return !group.contains(u); }))
        out.push_back(r);
  return out;
}

OpGroup formkernels::growGroup(
    ArrayRef<Operation *> seed,
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
          (isa<ConvTransposeOp>(conv) && isParameterValue(op, v));
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

SmallVector<Operation *> formkernels::prologueChain(Value p) {
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
    if (absorbed == 0
            ? !from || !isa<NormalizationOpInterface>(from) ||
                  from->getParentOfType<KernelOp>() || !isF32Only(from)
            : from != ops[absorbed - 1])
      break;
  }
  ops.erase(ops.begin(), ops.begin() + absorbed);
  return ops;
}
