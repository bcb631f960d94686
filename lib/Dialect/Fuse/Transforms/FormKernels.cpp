//===- FormKernels.cpp - group conv + epilogue into fuse.kernel -----------===//
//
// Implements `fuse-form-kernels`: every transposed convolution and the
// epilogue ops that consume it become one `fuse.kernel` region, i.e. one GPU
// launch with no intermediate tensor in device memory. The graph ops left
// over then root kernels of their own: a normalisation whose reduction sets
// span blocks (with the elementwise ops after it), or elementwise and window
// ops (pooling, reductions, reshapes: one thread per result element).
// Kernel results that later kernels read are the plan's intermediates
// (fuse-plan-kernels). The rules of which ops join a kernel are in
// KernelMembership.cpp, the half operands a convolution kernel reads itself
// in HalfIntermediates.cpp (FormKernelsInternal.h); this file decides the
// prologues, moves each group into its kernel and runs the pass.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Dialect/Fuse/Transforms/Passes.h"

#include "FormKernelsInternal.h"

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
using namespace fusecc::fuse::formkernels;

namespace {

/// The ops a convolution folds into its input staging (its prologue), in
/// block order, and what was decided for them.
struct Prologue {
  SmallVector<Operation *> ops;
  bool folded = false;
};

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
        // A widening cast already copied in front (an epilogue operand
        // cast read by an epilogue op too) is not copied again.
        llvm::SetVector<Operation *> chain;
        if (collectEpilogueParameters(op, v, chain))
          for (Operation *c : chain)
            if (!prologueSet.contains(c))
              params.insert(c);
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
      // So is the widening of a half graph input, constant or kernel
      // result that a prologue op reads (a skip concatenation's half
      // operands, `isHalfWideningForPrologue`): the staging loads the half
      // elements and widens them, with no f32 copy in between.
      for (Operation *op : it->second.ops)
        for (Value v : op->getOperands())
          if (auto c = v.getDefiningOp<CastOp>();
              c && isHalfWideningForPrologue(c) &&
              !llvm::is_contained(copied, c))
            copied.push_back(c);
      OpGroup group = growGroup({root}, [&](Operation *op, const OpGroup &g) {
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
