//===- Reference.h - double-precision interpreter of fuse graphs -*- C++ -*-===//
//
// A slow, obviously-correct evaluation of fuse graphs (func.func on tensors
// with fuse ops and arith.constant), in double precision. It shares no code
// with the kernel generator except the scalar `evaluate` of elementwise ops:
// the transposed convolution is computed in the scatter form (loop over input
// elements and taps), normalisations in the textbook two-pass form.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_REFERENCE_REFERENCE_H
#define FUSECC_REFERENCE_REFERENCE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fusecc::ref {

/// A dense row-major tensor of doubles.
struct Tensor {
  std::vector<int64_t> shape;
  std::vector<double> data;

  Tensor() = default;
  explicit Tensor(std::vector<int64_t> s, double fill = 0.0)
      : shape(std::move(s)), data(numElements(shape), fill) {}
  static int64_t numElements(const std::vector<int64_t> &shape) {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
  int64_t size() const { return static_cast<int64_t>(data.size()); }
};

/// Called with every op's operands and computed result (not constants),
/// which it may change: e.g. round it as an f32 evaluation would, to
/// measure how sensitive a graph is to the rounding of its intermediates.
using ResultHook = std::function<void(
    mlir::Operation &, llvm::ArrayRef<const Tensor *> operands, Tensor &)>;

/// How `evaluate` rounds each convolution's input and weight before it
/// multiplies them: not at all, to TF32 (cvt.rna), or to bf16 / f16 (to
/// nearest even), as a kernel's tensor cores do with its operands.
enum class ConvOperands { Exact, TF32, BF16, F16 };

/// Evaluates `func` on `inputs` (one per function argument, shapes must match
/// the argument types). Returns one tensor per returned value. On an
/// unsupported op or bad input, emits an error on the op and fails. With
/// `convOperands` other than Exact, every convolution's input and weight are
/// rounded (`roundConvOperand`, Compare.h) before it multiplies them, as the
/// tensor cores of a tf32, bf16 or f16 kernel do; the bias is added exactly.
mlir::FailureOr<std::vector<Tensor>> evaluate(mlir::func::FuncOp func,
                                              llvm::ArrayRef<Tensor> inputs,
                                              const ResultHook &hook = {},
                                              ConvOperands convOperands =
                                                  ConvOperands::Exact);

/// How one convolution op's operands are rounded (the kernel that runs it
/// decides: `convOperandsOfKernels`).
using ConvOperandsFn = std::function<ConvOperands(mlir::Operation &conv)>;

/// `evaluate` with the rounding chosen per convolution by `convOperands`.
mlir::FailureOr<std::vector<Tensor>>
evaluate(mlir::func::FuncOp func, llvm::ArrayRef<Tensor> inputs,
         const ResultHook &hook, const ConvOperandsFn &convOperands);

/// How the kernels of `tiled` (after fuse-tile-kernels) round each
/// convolution's operands, from their `#fuse.types` (operand f32: Exact,
/// also for split-operand tf32x3, except where the convolution's input is
/// the operand cast of a bf16 / f16 kernel input: that type; tf32, bf16,
/// f16), keyed by the
/// convolution's location, which the graph it was compiled from shares.
/// With `fallback` for a convolution `tiled` has no kernel for, or that
/// kernels of different operand types recompute. Where the graph-wide
/// choice is not what a kernel does (an FMA-path kernel multiplies in f32
/// in a tf32 graph), a reference rounding every convolution alike matches
/// no mix of paths.
ConvOperandsFn convOperandsOfKernels(mlir::ModuleOp tiled,
                                     ConvOperands fallback);

/// Evaluates one convolution, elementwise, normalisation or window op of a
/// graph on `operands` (one per operand, shapes must match); emits an error
/// on the op and fails for other ops.
mlir::FailureOr<Tensor> evaluateOp(mlir::Operation &op,
                                   llvm::ArrayRef<const Tensor *> operands);

/// Default limits of `checkSimulatable`: 2^30 tensor elements in all (8 GiB
/// of doubles) and 2^36 multiply-adds per convolution.
constexpr int64_t kDefaultMaxElements = int64_t{1} << 30;
constexpr int64_t kDefaultMaxMacs = int64_t{1} << 36;

/// Checks, before anything is allocated, that `func` is small enough to
/// evaluate: the elements of its arguments and of every op result (nested
/// kernel bodies included) add up to at most `maxElements`, and each
/// convolution takes at most `maxMacs` multiply-adds. Emits a located error
/// naming the value and the limit otherwise.
mlir::LogicalResult checkSimulatable(mlir::func::FuncOp func,
                                     int64_t maxElements = kDefaultMaxElements,
                                     int64_t maxMacs = kDefaultMaxMacs);

/// Transposed convolution in the scatter form (exposed for unit use).
/// `bias` may be null. Shapes follow fuse.conv_transpose; inconsistent
/// shapes or attributes (which the verifier rejects) give an empty tensor
/// (shape {}) rather than an out-of-bounds access.
Tensor convTransposeScatter(const Tensor &x, const Tensor &w,
                            const Tensor *bias,
                            llvm::ArrayRef<int64_t> stride,
                            llvm::ArrayRef<int64_t> padding,
                            llvm::ArrayRef<int64_t> outputPadding,
                            llvm::ArrayRef<int64_t> dilation, int64_t groups);

} // namespace fusecc::ref

#endif // FUSECC_REFERENCE_REFERENCE_H
