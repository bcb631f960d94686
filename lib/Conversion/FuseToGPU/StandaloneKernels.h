//===- StandaloneKernels.h - kernels without a convolution ------*- C++ -*-===//
//
// Emission of the planned kernels that hold no convolution: elementwise
// kernels (ElementwiseKernels.cpp), normalisation kernels whose reduction
// sets span blocks (NormalizationKernels.cpp) and box sums in one pass per
// plane (BoxSumsKernel.cpp), over a small shared context:
// the gpu.func being built, the memref of every kernel input, and the
// evaluation of the kernel's elementwise DAG at one output element.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_LIB_CONVERSION_FUSETOGPU_STANDALONEKERNELS_H
#define FUSECC_LIB_CONVERSION_FUSETOGPU_STANDALONEKERNELS_H

#include "fusecc/Dialect/Fuse/Transforms/Plan.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace fusecc {

/// One launch of a standalone kernel. `params` name its parameters in order:
/// `Input(i)` is kernel input i, `Partials` the plan's partials workspace,
/// `Output` the kernel's result buffer.
struct StandaloneLaunch {
  enum class ParamKind { Input, Partials, Output };
  struct Param {
    ParamKind kind;
    int64_t input = 0;
  };
  mlir::gpu::GPUFuncOp func;
  int64_t gridX = 0, blockX = 0, sharedBytes = 0;
  llvm::SmallVector<Param> params;
};

/// Builds the launches of `kernel` (an elementwise, normalisation,
/// reduction or box-sums kernel), in order, at the end of `gpuModule`.
mlir::FailureOr<llvm::SmallVector<StandaloneLaunch>>
buildStandaloneKernel(mlir::gpu::GPUModuleOp gpuModule, fuse::KernelOp kernel);

namespace detail {

/// The state shared by the standalone emitters while they build one
/// gpu.func: the builder inside it, and the memref of each kernel input.
struct StandaloneContext {
  mlir::ImplicitLocOpBuilder &b;
  fuse::KernelOp kernel;
  mlir::gpu::GPUFuncOp func;
  /// Kernel body argument -> the memref argument of `func`.
  llvm::DenseMap<mlir::Value, mlir::Value> memOf;
  /// The element type the kernel computes in (f32; half inputs are
  /// widened at their loads).
  mlir::Type elementType;
  /// When a warp builds each result element together: the lanes, handed to
  /// the first window op `evaluate` meets (not to the window ops inside its
  /// operand, which every lane evaluates on its own).
  const fuse::WindowLanes *lanes = nullptr;

  mlir::Value c(int64_t v);
  /// A float constant of `elementType`.
  mlir::Value f(double v);
  /// Row-major coordinates of flat index `flat` in `shape`.
  llvm::SmallVector<mlir::Value> coordsOf(mlir::Value flat,
                                          llvm::ArrayRef<int64_t> shape);
  /// Loads kernel input `arg` at the output coordinates `coords`, with
  /// NumPy broadcasting (dims aligned right, size-1 dims read index 0),
  /// widened to f32 if it is stored as bf16/f16.
  mlir::Value loadBroadcast(mlir::Value arg, llvm::ArrayRef<mlir::Value> coords);
  /// Evaluates `v` of the kernel body at output coordinates `coords`;
  /// `special` gives the value of ops the emitter computes itself (the
  /// normalisation root), or null.
  mlir::Value evaluate(mlir::Value v, llvm::ArrayRef<mlir::Value> coords,
                       llvm::function_ref<mlir::Value(mlir::Operation *)> special,
                       llvm::DenseMap<mlir::Value, mlir::Value> &memo);
};

/// Creates `name(argTypes...)` as a kernel of `threads` threads per block
/// (args `noalias`), leaves `b` at the start of its body (before the
/// terminator).
mlir::gpu::GPUFuncOp createStandaloneFunc(mlir::ImplicitLocOpBuilder &b,
                                          mlir::gpu::GPUModuleOp gpuModule,
                                          llvm::StringRef name,
                                          llvm::ArrayRef<mlir::Type> argTypes,
                                          int64_t threads);

mlir::MemRefType memrefOf(mlir::Type tensorType);

mlir::FailureOr<llvm::SmallVector<StandaloneLaunch>>
buildElementwiseKernel(mlir::gpu::GPUModuleOp gpuModule, fuse::KernelOp kernel);
mlir::FailureOr<llvm::SmallVector<StandaloneLaunch>>
buildBoxSumsKernel(mlir::gpu::GPUModuleOp gpuModule, fuse::KernelOp kernel);
mlir::FailureOr<llvm::SmallVector<StandaloneLaunch>>
buildNormalizationKernel(mlir::gpu::GPUModuleOp gpuModule,
                         fuse::KernelOp kernel);

} // namespace detail
} // namespace fusecc

#endif // FUSECC_LIB_CONVERSION_FUSETOGPU_STANDALONEKERNELS_H
