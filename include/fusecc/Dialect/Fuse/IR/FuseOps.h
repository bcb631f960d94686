//===- FuseOps.h - fuse dialect ops -----------------------------*- C++ -*-===//
//
// Declares the ops of the fuse dialect.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_DIALECT_FUSE_IR_FUSEOPS_H
#define FUSECC_DIALECT_FUSE_IR_FUSEOPS_H

#include "fusecc/Dialect/Fuse/IR/FuseDialect.h"
#include "fusecc/Support/CheckedArithmetic.h"
#include "fusecc/Support/Options.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace fusecc::fuse {
/// The statistics kept of a reduction set, and so the partial statistics
/// ("records") of any partition of it, which merge into the set's:
///  - Moments: (count, mean, M2), merged with Chan's formula (group_norm,
///    layer_norm, sum, mean, var);
///  - MaxSumExp: (max, sum of exp(x - max)), merged by rescaling the sums to
///    the common max (softmax, logsumexp);
///  - Max, Min: the extreme value, NaN propagating (amax, amin, global max
///    pooling).
enum class StatsKind { Moments, MaxSumExp, Max, Min };

/// How a normalisation with MaxSumExp statistics builds each element from
/// its set's max m and sum s of exp(x - m)
/// (NormalizationOpInterface::getSoftmaxForm):
///  - Exp: exp(x - m) / s (softmax);
///  - Log: (x - m) - log(s) (log_softmax, PyTorch's form: x - m is exact
///    near the max, and a set whose max is infinite or NaN gives NaN).
enum class SoftmaxForm { Exp, Log };

/// A window op that is one statistic of each set of its reduced dims
/// (WindowOpInterface::getSetReduction): the partial statistics of any
/// partition of a set give it, so its sets can be planned like a
/// normalisation's.
enum class SetReduction { None, Sum, Mean, Variance, Max, Min, LogSumExp };

/// The statistics a set reduction is computed from.
inline StatsKind statsKindOf(SetReduction r) {
  switch (r) {
  case SetReduction::Max:
    return StatsKind::Max;
  case SetReduction::Min:
    return StatsKind::Min;
  case SetReduction::LogSumExp:
    return StatsKind::MaxSumExp;
  default:
    return StatsKind::Moments;
  }
}

/// Values per partial statistic of a set: (mean, M2) or (max, sum), or the
/// extreme value alone.
inline int64_t statisticsPerSet(StatsKind k) {
  return k == StatsKind::Max || k == StatsKind::Min ? 1 : 2;
}

/// The threads that build one window op's result together
/// (WindowOpInterface::buildAt): `count` lanes of a warp, `lane` this
/// thread's index among them. An op may give each lane a share of its
/// window and combine the shares with `allReduce` (every lane gets the
/// combination); an op that does not simply builds the whole window in
/// every lane, which is as correct.
struct WindowLanes {
  mlir::Value lane;
  int64_t count = 1;
  llvm::function_ref<mlir::Value(
      mlir::Value, llvm::function_ref<mlir::Value(mlir::Value, mlir::Value)>)>
      allReduce;
};

/// The window of a pooling op over the trailing spatial dims of its
/// operand (WindowOpInterface::getSlidingWindow), one entry per pooled dim:
/// result position `o` of a dim combines operand positions
/// `o * stride - padding + t * dilation` for `t` in `[0, kernel)` that lie
/// inside the operand.
///
/// Partial windows: `buildAt` with every element outside a subset of the
/// window read as `identity` gives the subset's partial result, and the
/// partial results of a partition of the window give the op's result when
/// combined by `combine` (max pooling: the maximum, identity -inf; average
/// pooling: the sum of the partial averages, identity 0, since the divisor
/// depends on the window's position only).
struct SlidingWindow {
  enum class Combine { Max, Add };
  llvm::SmallVector<int64_t, 3> kernel, stride, padding, dilation;
  Combine combine = Combine::Max;
  double identity = 0.0;
  int64_t spatial() const { return static_cast<int64_t>(kernel.size()); }
};
} // namespace fusecc::fuse

#include "fusecc/Dialect/Fuse/IR/FuseInterfaces.h.inc"

namespace fusecc::fuse {
/// Checks that every tensor operand and result of `op` fits kMaxTensorBytes.
mlir::LogicalResult verifyRepresentableTensors(mlir::Operation *op);

/// Checks the element-type rule of docs/design/types.md on `op`.
mlir::LogicalResult verifyOneElementType(mlir::Operation *op);

/// True for the half storage types, bf16 and f16.
inline bool isHalfType(mlir::Type t) { return t.isBF16() || t.isF16(); }

/// `v` rounded to the float type `t` (f32, bf16 or f16: nearest even,
/// overflow to +-inf, as a store in that type does), back as a double.
double roundToElementType(double v, mlir::Type t);

namespace OpTrait {
/// The `RepresentableTensors` trait of every fuse op (FuseOps.td).
template <typename ConcreteType>
class RepresentableTensors
    : public mlir::OpTrait::TraitBase<ConcreteType, RepresentableTensors> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyRepresentableTensors(op);
  }
};

/// Marks an op whose parameter tensors may stay f32 on half data.
template <typename ConcreteType>
class F32Parameters
    : public mlir::OpTrait::TraitBase<ConcreteType, F32Parameters> {};

/// Marks an op exempt from the one-element-type rule (casts, kernels).
template <typename ConcreteType>
class MixedElementTypes
    : public mlir::OpTrait::TraitBase<ConcreteType, MixedElementTypes> {};

/// The `OneElementType` trait of every fuse op (FuseOps.td).
template <typename ConcreteType>
class OneElementType
    : public mlir::OpTrait::TraitBase<ConcreteType, OneElementType> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyOneElementType(op);
  }
};
} // namespace OpTrait
} // namespace fusecc::fuse

#define GET_OP_CLASSES
#include "fusecc/Dialect/Fuse/IR/FuseOps.h.inc"

namespace fusecc::fuse {

/// Computes the NumPy broadcast of two shapes; returns failure if they do not
/// broadcast.
llvm::FailureOr<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs);

/// A discardable `#fuse.conv_math` attribute of a `fuse.conv_transpose`:
/// `#fuse.conv_math<ieee>` pins its kernel to FP32 FMA whatever the
/// pipeline's precision (fuse-tile-kernels). fuse-reduce-through-conv sets
/// it on the small convolution it builds, whose operands (box sums of the
/// input) must not be rounded to TF32 and whose few multiply-adds gain
/// nothing from tensor cores.
inline constexpr llvm::StringLiteral kConvPrecisionAttrName = "fuse.precision";

/// The math of a kernel's convolution: the requested `precision` (the
/// pipeline's option) on tensors stored as `storage` (the graph's element
/// type), or ieee where the convolution is pinned (`pinnedIeee`,
/// kConvPrecisionAttrName). The tiling may still move an ieee kernel onto
/// split-operand tensor cores (tf32x3).
ConvMath convMathFor(Precision precision, mlir::Type storage, bool pinnedIeee);

/// The element type the graph stores `conv`'s operands in: bf16 or f16
/// where its weight is the exact f32 widening of values stored in that
/// type (a `fuse.cast` from it, placed by fuse-widen-half or the ONNX
/// importer, seen through the kernels fuse-form-kernels builds around it
/// and through kernel body arguments) and its input is too or is computed
/// in f32 (a half graph's intermediate, which the graph as written holds
/// in the half type), else the input's element type. This is the storage
/// of the kernel's `#fuse.types`.
mlir::Type convStorageType(ConvTransposeOp conv);

/// The output size of a transposed convolution along one spatial dim, or
/// std::nullopt if it (or a term of it) overflows int64.
inline std::optional<int64_t>
convTransposeOutputSize(int64_t in, int64_t k, int64_t stride, int64_t pad,
                        int64_t outPad, int64_t dilation) {
  using fusecc::CheckedInt;
  return ((CheckedInt(in) - 1) * stride - CheckedInt(2) * pad +
          CheckedInt(dilation) * (CheckedInt(k) - 1) + outPad + 1)
      .get();
}

} // namespace fusecc::fuse

#endif // FUSECC_DIALECT_FUSE_IR_FUSEOPS_H
