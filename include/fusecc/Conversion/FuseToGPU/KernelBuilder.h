//===- KernelBuilder.h - build the gpu.func of a fused kernel ---*- C++ -*-===//
//
// Generates the device code of one tiled fuse.kernel as a gpu.func.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_CONVERSION_FUSETOGPU_KERNELBUILDER_H
#define FUSECC_CONVERSION_FUSETOGPU_KERNELBUILDER_H

#include "fusecc/Dialect/Fuse/IR/KernelAnalysis.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace fusecc {

/// Builds the `gpu.func` computing `kernel` (tiled with its `config`) at the
/// end of `gpuModule`. The function takes one memref per kernel input and
/// then the output memref, all with the tensors' static shapes, and expects
/// `LaunchPlan::get` blocks of `LaunchPlan::threads` threads with
/// `SharedMemoryPlan::bytes()` bytes of dynamic shared memory.
mlir::FailureOr<mlir::gpu::GPUFuncOp>
buildKernelFunction(mlir::gpu::GPUModuleOp gpuModule, fuse::KernelOp kernel,
                    const fuse::KernelAnalysis &analysis);

} // namespace fusecc

#endif // FUSECC_CONVERSION_FUSETOGPU_KERNELBUILDER_H
