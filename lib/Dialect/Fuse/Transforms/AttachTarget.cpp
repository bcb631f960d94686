//===- AttachTarget.cpp - fuse-attach-target ------------------------------===//
//
// Implements `fuse-attach-target`: records the chip and device of the
// compilation on the module as a `#fuse.target`, which every later pass
// reads (`fuse::getTargetInfo`).
//
//===----------------------------------------------------------------------===//

#include "fusecc/Dialect/Fuse/IR/FuseDialect.h"
#include "fusecc/Dialect/Fuse/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace fusecc::fuse {
#define GEN_PASS_DEF_FUSEATTACHTARGET
#include "fusecc/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace fusecc::fuse

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

namespace {

struct AttachTargetPass
    : public fusecc::fuse::impl::FuseAttachTargetBase<AttachTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto emitError = [&] { return module.emitError("fuse-attach-target: "); };
    TargetAttr target = TargetAttr::getChecked(emitError, module.getContext(),
                                               static_cast<Chip>(chip),
                                               static_cast<Device>(device));
    if (!target)
      return signalPassFailure();
    Attribute existing = module->getAttr(TargetAttr::kAttrName);
    if (existing && existing != target) {
      emitError() << "the module targets " << existing
                  << ", the pipeline was asked for " << target;
      return signalPassFailure();
    }
    module->setAttr(TargetAttr::kAttrName, target);
  }
};

} // namespace
