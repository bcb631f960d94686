//===- BatchLaunches.cpp - per-sample launches of a dynamic batch ---------===//
//
// A dynamic-batch module (`fuse.max_batch`) is the per-sample graph
// compiled as usual. Here its host functions learn which launches run once
// per sample (grid z = the batch, given at launch) and which once per call,
// which workspaces hold one slice per sample, and each per-sample kernel
// the byte stride of its batched parameters; `fuse-batch-offsets` then
// advances those pointers by `ctaid.z` slices in the NVVM kernels
// (docs/design/plans.md, "Dynamic batch").
//
//===----------------------------------------------------------------------===//

#include "BatchLaunches.h"
#include "fusecc/Conversion/FuseToGPU/FuseToGPU.h"
#include "fusecc/Dialect/Fuse/Transforms/DynamicBatch.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace fusecc {
#define GEN_PASS_DEF_FUSEBATCHOFFSETS
#include "fusecc/Conversion/Passes.h.inc"
} // namespace fusecc

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

bool fusecc::detail::mayWrite(Value v) {
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    if (auto view = dyn_cast<ViewLikeOpInterface>(user);
        view && view.getViewSource() == v) {
      for (Value r : user->getResults())
        if (isa<MemRefType>(r.getType()) && mayWrite(r))
          return true;
      continue;
    }
    if (isa<memref::ExtractAlignedPointerAsIndexOp,
            memref::ExtractStridedMetadataOp>(user))
      return true;
    auto effects = dyn_cast<MemoryEffectOpInterface>(user);
    if (!effects)
      return true;
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffectsOnValue(v, list);
    for (auto &e : list)
      if (!isa<MemoryEffects::Read>(e.getEffect()))
        return true;
  }
  return false;
}

Value fusecc::detail::rootOf(Value v) {
  while (auto view = v.getDefiningOp<memref::ReinterpretCastOp>())
    v = view.getSource();
  return v;
}

namespace {

int64_t bytesOf(MemRefType t) {
  return t.getNumElements() *
         static_cast<int64_t>(t.getElementTypeBitWidth() / 8);
}

} // namespace

LogicalResult fusecc::detail::assignBatchedLaunches(func::FuncOp host) {
  Block &body = host.getBody().front();
  SmallVector<gpu::LaunchFuncOp> launches(body.getOps<gpu::LaunchFuncOp>());
  // Per launch: the kernel and which of its parameters it may write.
  SmallVector<gpu::GPUFuncOp> funcs;
  SmallVector<SmallVector<bool>> writes;
  for (gpu::LaunchFuncOp l : launches) {
    auto f = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
        l, l.getKernel());
    if (!f)
      return l.emitOpError("launches a kernel that is not in the module");
    funcs.push_back(f);
    SmallVector<bool> w;
    for (BlockArgument a : f.getArguments())
      w.push_back(mayWrite(a));
    writes.push_back(std::move(w));
  }
  llvm::DenseSet<Value> batched;
  for (BlockArgument a : body.getArguments())
    if (host.getArgAttr(a.getArgNumber(), kBatchedAttr))
      batched.insert(a);
  // A launch runs per sample where it touches a batched buffer; a buffer it
  // writes then is batched (one slice per sample). To the fixed point: a
  // launch writing a workspace that a later per-sample launch also writes
  // (a reused plan buffer) runs per sample too.
  SmallVector<bool> perSample(launches.size(), false);
  for (bool changed = true; changed;) {
    changed = false;
    for (auto [i, l] : llvm::enumerate(launches)) {
      if (!perSample[i] &&
          llvm::any_of(l.getKernelOperands(),
                       [&](Value v) { return batched.contains(rootOf(v)); }))
        perSample[i] = changed = true;
      if (!perSample[i])
        continue;
      for (auto [j, v] : llvm::enumerate(l.getKernelOperands())) {
        Value root = rootOf(v);
        if (!writes[i][j] || batched.contains(root))
          continue;
        if (!root.getDefiningOp<memref::AllocOp>())
          return l.emitOpError("kernel ")
                 << l.getKernelName() << " runs per sample but may write "
                 << "parameter " << j << ", which has no batch dim";
        batched.insert(root);
        changed = true;
      }
    }
  }
  Builder b(host.getContext());
  for (auto [i, l] : llvm::enumerate(launches)) {
    if (!perSample[i])
      continue;
    l->setAttr(kPerSampleAttr, b.getUnitAttr());
    SmallVector<int64_t> strides;
    for (Value v : l.getKernelOperands()) {
      Value root = rootOf(v);
      strides.push_back(batched.contains(root)
                            ? bytesOf(cast<MemRefType>(root.getType()))
                            : 0);
    }
    auto attr = b.getDenseI64ArrayAttr(strides);
    if (auto old = funcs[i]->getAttr(kBatchStridesAttr); old && old != attr)
      return l.emitOpError("kernel ")
             << l.getKernelName()
             << " is launched with different batched parameters";
    funcs[i]->setAttr(kBatchStridesAttr, attr);
  }
  for (auto alloc : body.getOps<memref::AllocOp>())
    if (batched.contains(alloc.getResult()))
      alloc->setAttr(kPerSampleAttr, b.getUnitAttr());
  return success();
}

namespace {

struct FuseBatchOffsetsPass
    : public fusecc::impl::FuseBatchOffsetsBase<FuseBatchOffsetsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      auto strides = func->getAttrOfType<DenseI64ArrayAttr>(kBatchStridesAttr);
      if (!strides)
        continue;
      func->removeAttr(kBatchStridesAttr);
      if (func.isExternal() ||
          static_cast<int64_t>(func.getNumArguments()) != strides.size()) {
        func.emitOpError("fuse.batch_strides does not match the kernel's "
                         "parameters");
        return signalPassFailure();
      }
      Block &entry = func.getBody().front();
      OpBuilder b = OpBuilder::atBlockBegin(&entry);
      Location loc = func.getLoc();
      auto i64 = b.getI64Type();
      Value sample;
      for (auto [k, stride] : llvm::enumerate(strides.asArrayRef())) {
        BlockArgument arg = entry.getArgument(k);
        if (!stride || arg.use_empty())
          continue;
        if (!isa<LLVM::LLVMPointerType>(arg.getType())) {
          func.emitOpError("batched parameter ")
              << k << " is not a pointer (bare-pointer convention)";
          return signalPassFailure();
        }
        if (!sample) {
          Value z = NVVM::BlockIdZOp::create(b, loc, b.getI32Type());
          sample = LLVM::ZExtOp::create(b, loc, i64, z);
        }
        Value off = LLVM::MulOp::create(
            b, loc, sample, LLVM::ConstantOp::create(b, loc, i64, stride));
        auto gep = LLVM::GEPOp::create(b, loc, arg.getType(), b.getI8Type(),
                                       arg, ValueRange{off});
        arg.replaceAllUsesExcept(gep, gep);
      }
    }
  }
};

} // namespace
