//===- Decompose.cpp - rewrite composite ops into fuse ops ----------------===//
//
// Implements `fuse-decompose`: every op of CompositeOpInterface is replaced
// by the ops its `decompose` builds, which are then moved up, in the order
// built, to just after the last definition of their operands (graph ops are
// pure), so that a leading run of ops on graph inputs alone (parameter
// views, rsqrt(running_var + eps)) stands before a convolution whose
// epilogue reads it.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Dialect/Fuse/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace fusecc::fuse {
#define GEN_PASS_DEF_FUSEDECOMPOSE
#include "fusecc/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace fusecc::fuse

using namespace mlir;
using namespace fusecc::fuse;

namespace {

/// Moves each op of `built` (in the order built) up to just after the
/// latest of its operands' definitions and the op of `built` before it (to
/// the block's start when there are none in the block): the order of the
/// decomposition is kept, and a leading run of ops on graph inputs alone
/// moves to the block's start.
void hoist(ArrayRef<Operation *> built) {
  Operation *previous = nullptr;
  for (Operation *op : built) {
    Block *block = op->getBlock();
    Operation *latest = previous;
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      if (!def)
        continue;
      def = block->findAncestorOpInBlock(*def);
      if (def && (!latest || latest->isBeforeInBlock(def)))
        latest = def;
    }
    if (latest)
      op->moveAfter(latest);
    else
      op->moveBefore(&block->front());
    previous = op;
  }
}

struct DecomposePass
    : public fusecc::fuse::impl::FuseDecomposeBase<DecomposePass> {
  void runOnOperation() override {
    SmallVector<CompositeOpInterface> composites;
    getOperation().walk(
        [&](CompositeOpInterface op) { composites.push_back(op); });
    for (CompositeOpInterface composite : composites) {
      Operation *op = composite.getOperation();
      Block *block = op->getBlock();
      Operation *before = op->getPrevNode();
      OpBuilder b(op);
      SmallVector<Value> replacement = composite.decompose(b);
      if (replacement.size() != op->getNumResults()) {
        op->emitOpError("decomposed into ")
            << replacement.size() << " values for " << op->getNumResults()
            << " results";
        return signalPassFailure();
      }
      SmallVector<Operation *> built;
      for (Operation *o = before ? before->getNextNode() : &block->front();
           o != op; o = o->getNextNode())
        built.push_back(o);
      op->replaceAllUsesWith(replacement);
      op->erase();
      hoist(built);
    }
  }
};

} // namespace
