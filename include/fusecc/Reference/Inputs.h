//===- Inputs.h - deterministic graph inputs for the checkers ---*- C++ -*-===//
//
// The inputs `fusecc-check` and the graph fuzzer give a graph function, and
// the test that a reference output is degenerate on them. Two draws: as
// PyTorch initialises a layer (the convolution input U[0, 1) as KernelBench
// draws it, weights and biases U(-1/sqrt(fan), 1/sqrt(fan)), other inputs
// N(0, 1)), and a wide one (convolution input N(0, 1), weights and biases
// four times the bound) that moves every value of a graph across zero. A
// check whose reference is mostly one value (kb2_93's gelu(min(conv + 0.5,
// 0)) is zero everywhere on the first draw at small channel counts) compares
// zeros with zeros: the checkers then check the wide draw too
// (bench/gpu_check.py does the same on the GPU). A batch_norm's running
// variance is drawn from U[0.5, 1.5) in both draws: an N(0, 1) variance
// makes half its channels NaN, and through a following convolution the
// whole output (docs/design/checking.md, "Vacuous references", the rule
// python/fusecc/inputs.py's RUNNING_VARIANCE_RANGE states too).
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_REFERENCE_INPUTS_H
#define FUSECC_REFERENCE_INPUTS_H

#include "fusecc/Reference/Reference.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cstdint>
#include <vector>

namespace fusecc::ref {

/// Which values `makeInputs` draws.
enum class InputDraw {
  /// PyTorch's initialisation, the convolution input as KernelBench's.
  PyTorch,
  /// Convolution input N(0, 1), weights and biases four times wider.
  Wide,
};

/// A reference output holding one value in more than this fraction of its
/// finite elements is degenerate: the function is checked on the wide draw
/// too.
constexpr double kDegenerateFraction = 0.5;

/// A batch_norm's running variance is drawn from U[kRunningVarianceMin,
/// kRunningVarianceMax) (plus its `fuse.check.mean`), whatever the draw:
/// positive, so that its channels are finite (docs/design/checking.md,
/// "Vacuous references"; python/fusecc/inputs.py's RUNNING_VARIANCE_RANGE,
/// which a Python test holds equal to these).
constexpr double kRunningVarianceMin = 0.5;
constexpr double kRunningVarianceMax = 1.5;

/// Deterministic inputs for every argument of `func` (seeded by `seed` and
/// the argument's number), already rounded to f32: the reference sees
/// exactly the values a kernel reads. A batch_norm's running variance (not
/// also a convolution's weight or bias) is drawn from
/// U[kRunningVarianceMin, kRunningVarianceMax). An argument attribute
/// `fuse.check.mean = M` shifts that argument's values by M (tests of
/// numerically hard statistics).
std::vector<Tensor> makeInputs(mlir::func::FuncOp func, uint64_t seed,
                               InputDraw draw);

/// `count` values N(0, 1) rounded to f32, the stream of argument
/// `argNumber` under `seed` (the values `makeInputs` gives an argument used
/// by no convolution): `fusecc-check --simulate-only`'s buffers.
std::vector<float> normalValues(uint64_t seed, unsigned argNumber,
                                int64_t count);

/// The fraction of the finite elements of `t` equal to its most common value
/// (+0 and -0 as one; 0 where no finite value occurs twice, as in a
/// one-element output).
double modeFraction(const Tensor &t);

/// The largest `modeFraction` of `outputs`.
double maxModeFraction(const std::vector<Tensor> &outputs);

} // namespace fusecc::ref

#endif // FUSECC_REFERENCE_INPUTS_H
