//===- ExternDynamicSharedMemory.cpp - fuse-extern-dynamic-shared-memory --===//
//
// The kernels' dynamic shared memory declared as CUDA declares it: an
// extern zero-length array in the shared window, sized by the launch.
// `convert-gpu-to-nvvm` gives `gpu.dynamic_shared_memory` an internal
// zero-length global, which NVPTX demotes to a one-byte `.shared`
// variable; ptxas then reports every access past its first byte.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Conversion/FuseToGPU/FuseToGPU.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace fusecc {
#define GEN_PASS_DEF_FUSEEXTERNDYNAMICSHAREDMEMORY
#include "fusecc/Conversion/Passes.h.inc"
} // namespace fusecc

using namespace mlir;

namespace {

/// NVVM's shared (workgroup) address space.
constexpr unsigned kSharedAddressSpace = 3;

/// Whether `global` is a zero-length array in the shared address space:
/// what the GPU-to-NVVM conversion makes of `gpu.dynamic_shared_memory`.
bool isDynamicSharedMemory(LLVM::GlobalOp global) {
  auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
  return array && array.getNumElements() == 0 &&
         global.getAddrSpace() == kSharedAddressSpace &&
         !global.getValueOrNull() && global.getInitializerRegion().empty();
}

struct FuseExternDynamicSharedMemoryPass
    : public fusecc::impl::FuseExternDynamicSharedMemoryBase<
          FuseExternDynamicSharedMemoryPass> {
  void runOnOperation() override {
    for (auto global : getOperation().getOps<LLVM::GlobalOp>()) {
      if (!isDynamicSharedMemory(global))
        continue;
      global.setLinkage(LLVM::Linkage::External);
      global.setVisibility_(LLVM::Visibility::Default);
      global.setDsoLocal(false);
    }
  }
};

} // namespace
