//===- PrepareSteps.cpp - launches that depend on the weights only -------===//
//
// The weight re-layouts of wgmma kernels (`<k>_wpack`) and the small
// kernels that compute per-channel vectors from parameters (a batch_norm's
// scale and shift where no convolution epilogue takes them) read nothing
// but the graph's parameters, so their workspaces hold the same values at
// every call with the same weights. They are marked here as the entry's
// prepare steps; the bundle lists them first (`prepare <P>`) and the
// runtime runs them once per weight value (docs/bundle.md).
//
//===----------------------------------------------------------------------===//

#include "PrepareSteps.h"
#include "BatchLaunches.h"
#include "fusecc/Dialect/Fuse/Transforms/DynamicBatch.h"
#include "fusecc/Dialect/Fuse/Transforms/Plan.h"
#include "fusecc/Target/Bundle.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace fusecc::fuse;

LogicalResult
fusecc::detail::markPrepareSteps(func::FuncOp host, unsigned numInputs,
                                 const llvm::DenseSet<Value> &weights) {
  Block &body = host.getBody().front();
  SmallVector<gpu::LaunchFuncOp> launches(body.getOps<gpu::LaunchFuncOp>());
  // Per launch: which of its operands it may write; per workspace, the
  // launches that may write it.
  SmallVector<SmallVector<bool>> writes;
  llvm::DenseMap<Value, SmallVector<unsigned>> writers, users;
  for (auto [i, l] : llvm::enumerate(launches)) {
    auto f =
        SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(l, l.getKernel());
    if (!f)
      return l.emitOpError("launches a kernel that is not in the module");
    SmallVector<bool> w;
    for (auto [j, v] : llvm::enumerate(l.getKernelOperands())) {
      w.push_back(mayWrite(f.getArgument(j)));
      users[rootOf(v)].push_back(i);
      if (w.back())
        writers[rootOf(v)].push_back(i);
    }
    writes.push_back(std::move(w));
  }
  auto isParameter = [&](Value root) {
    if (root.getDefiningOp<memref::GetGlobalOp>())
      return true;
    auto arg = dyn_cast<BlockArgument>(root);
    if (!arg || arg.getOwner() != &body || arg.getArgNumber() >= numInputs ||
        host.getArgAttr(arg.getArgNumber(), kBatchedAttr))
      return false;
    return weights.contains(arg) ||
           cast<MemRefType>(arg.getType()).getRank() <= 1;
  };
  // Candidates, shrunk to the fixed point.
  SmallVector<bool> prepare(launches.size());
  for (auto [i, l] : llvm::enumerate(launches))
    prepare[i] = !l->hasAttr(kPerSampleAttr);
  for (bool changed = true; changed;) {
    changed = false;
    for (auto [i, l] : llvm::enumerate(launches)) {
      if (!prepare[i])
        continue;
      bool ok = false; // Writes a workspace.
      for (auto [j, v] : llvm::enumerate(l.getKernelOperands())) {
        Value root = rootOf(v);
        if (root.getDefiningOp<memref::AllocOp>()) {
          // Every writer is a prepare step, and the other launches use the
          // workspace only after the last of them: running the prepare
          // steps first (in their order) leaves every use its value.
          const SmallVector<unsigned> &w = writers[root];
          ok |= writes[i][j];
          bool kept = !w.empty() &&
                      !root.getDefiningOp()->hasAttr(kPerSampleAttr) &&
                      llvm::all_of(w, [&](unsigned k) { return prepare[k]; });
          for (unsigned k : users[root])
            kept &= prepare[k] || k > w.back();
          if (!kept) {
            ok = false;
            break;
          }
          continue;
        }
        if (writes[i][j] || !isParameter(root)) {
          ok = false;
          break;
        }
      }
      if (!ok) {
        prepare[i] = false;
        changed = true;
      }
    }
  }
  Builder b(host.getContext());
  for (auto [i, l] : llvm::enumerate(launches)) {
    if (!prepare[i])
      continue;
    l->setAttr(kPrepareAttr, b.getUnitAttr());
    for (Value v : l.getKernelOperands())
      if (auto alloc = rootOf(v).getDefiningOp<memref::AllocOp>())
        alloc->setAttr(kWorkspaceRoleAttr, b.getStringAttr("prepared"));
  }
  return success();
}
