//===- KernelBuilder.h - build the gpu.func of a fused kernel ---*- C++ -*-===//
//
// Generates the device code of one tiled fuse.kernel as a gpu.func.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_CONVERSION_FUSETOGPU_KERNELBUILDER_H
#define FUSECC_CONVERSION_FUSETOGPU_KERNELBUILDER_H

#include "fusecc/Codegen/GPUPlan.h"
#include "fusecc/Dialect/Fuse/IR/KernelAnalysis.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace fusecc {

/// How a kernel's epilogue evaluates `exp` and sigmoid's reciprocal.
enum class EpilogueMath {
  /// libdevice's `expf` (within 2 ulp) and the IEEE reciprocal.
  Exact,
  /// `ex2.approx.ftz(x * log2(e))` (the two instructions Triton emits for
  /// `exp`; results below 2^-126 flush to 0) and `rcp.approx.ftz`:
  /// relative errors around 1e-6.
  Fast,
};

/// Builds the `gpu.func` computing `kernel` (tiled with its `config`) at the
/// end of `gpuModule`. The function takes one memref per kernel input and
/// then the output memref, all with the tensors' static shapes, and expects
/// `LaunchPlan::get` blocks of `LaunchPlan::threads` threads with
/// `SharedMemoryPlan::bytes()` bytes of dynamic shared memory.
///
/// A wgmma kernel (`fuse::WeightPackPlan::get` is set) takes one more
/// argument before the output: the weights re-laid out by the function of
/// `buildWeightPackFunction`, launched before it on the same stream.
///
/// `math` picks how the epilogue evaluates `exp` and the reciprocal of
/// `1 / (1 + exp(y))` (see `EpilogueMath`).
mlir::FailureOr<mlir::gpu::GPUFuncOp>
buildKernelFunction(mlir::gpu::GPUModuleOp gpuModule, fuse::KernelOp kernel,
                    const fuse::KernelAnalysis &analysis,
                    EpilogueMath math = EpilogueMath::Exact);

/// Threads per block of the weight re-layout kernel (one element each).
constexpr int64_t kWeightPackThreads = 256;

/// Builds `<kernel>_wpack(weight, packed)`: writes the `WeightPackPlan`
/// layout of the convolution's weights (TF32-rounded, zero-padded) for the
/// main kernel's asynchronous copies. Grid: ceil(totalElems / 256) blocks of
/// `kWeightPackThreads`.
mlir::FailureOr<mlir::gpu::GPUFuncOp>
buildWeightPackFunction(mlir::gpu::GPUModuleOp gpuModule, fuse::KernelOp kernel,
                        const fuse::KernelAnalysis &analysis);

/// Builds `<kernel>_ipack(input, packed)`: writes the `InputPackPlan` layout
/// of the convolution's input (TF32-rounded, zero-padded), one 16-byte unit
/// per thread, blocks of `kWeightPackThreads`.
mlir::FailureOr<mlir::gpu::GPUFuncOp>
buildInputPackFunction(mlir::gpu::GPUModuleOp gpuModule,
                       fuse::KernelOp kernel,
                       const fuse::KernelAnalysis &analysis);

} // namespace fusecc

#endif // FUSECC_CONVERSION_FUSETOGPU_KERNELBUILDER_H
