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
/// `sharedBytes` (below) bytes of dynamic shared memory.
///
/// A wgmma kernel (`fuse::WeightPackPlan::get` is set) takes one more
/// argument before the output: the weights re-laid out by the function of
/// `buildWeightPackFunction`, launched before it on the same stream.
///
/// `math` picks how the epilogue evaluates `exp` and the reciprocal of
/// `1 / (1 + exp(y))` (see `EpilogueMath`). `sharedBytes`, where given,
/// receives the dynamic shared memory the launch must give: the plan's, or
/// its staging buffers alone where the epilogue stores from the
/// accumulators (`SharedMemoryPlan::withoutTiles`). `registerSoftmax`
/// lets a channel softmax take its statistics from the wgmma accumulators
/// (`fuse-convert-to-gpu{register-softmax}`).
mlir::FailureOr<mlir::gpu::GPUFuncOp>
buildKernelFunction(mlir::gpu::GPUModuleOp gpuModule, fuse::KernelOp kernel,
                    const fuse::KernelAnalysis &analysis,
                    EpilogueMath math = EpilogueMath::Exact,
                    int64_t *sharedBytes = nullptr,
                    bool registerSoftmax = false);

/// Threads per block of the weight re-layout kernel (one element each).
constexpr int64_t kWeightPackThreads = 256;

/// Most weight taps one thread of the weight re-layout kernel packs.
constexpr int64_t kMaxWeightPackTaps = 32;

/// The H x W taps one thread of the weight re-layout kernel packs: all of
/// a kernel's taps where they are at most kMaxWeightPackTaps, else the W
/// taps of one row where those are, else one.
struct WeightPackTaps {
  int64_t h = 1, w = 1;
};
WeightPackTaps weightPackTaps(const fuse::ConvGeometry &g);

/// Threads the weight re-layout kernel needs: one per `weightPackTaps`
/// elements of the packed weights.
int64_t weightPackThreadsNeeded(const fuse::WeightPackPlan &pack,
                                const fuse::ConvGeometry &g);

/// Builds `<kernel>_wpack(weight, packed)`: writes the `WeightPackPlan`
/// layout of the convolution's weights (TF32-rounded, zero-padded) for the
/// main kernel's asynchronous copies. Grid: ceil(weightPackThreadsNeeded /
/// 256) blocks of `kWeightPackThreads`.
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
