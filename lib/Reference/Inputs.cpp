//===- Inputs.cpp - deterministic graph inputs for the checkers -----------===//
//
// See Inputs.h. splitmix64 streams (small, portable, deterministic across
// machines) and an Irwin-Hall normal, so that no libm result decides an
// input.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Reference/Inputs.h"

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <algorithm>
#include <cmath>

using namespace mlir;

namespace fusecc::ref {
namespace {

/// splitmix64.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  /// Approximately standard normal (Irwin-Hall of 12 uniforms).
  double normal() {
    double s = 0;
    for (int i = 0; i < 12; ++i)
      s += uniform();
    return s - 6.0;
  }
};

/// What an argument is to the first convolution that uses it, or a
/// batch_norm's running variance (unless it is a convolution's weight or
/// bias).
enum class Role { ConvInput, ConvWeight, ConvBias, RunningVariance, Other };

/// Whether `arg` is some batch_norm's running variance.
bool isRunningVariance(BlockArgument arg) {
  return llvm::any_of(arg.getUsers(), [&](Operation *user) {
    auto bn = dyn_cast<fuse::BatchNormOp>(user);
    return bn && bn.getRunningVar() == arg;
  });
}

/// The stream of argument `argNumber` under `seed` in `draw`.
Rng argumentStream(uint64_t seed, unsigned argNumber, InputDraw draw) {
  return Rng(seed * 0x100000001B3ull + argNumber * 7919 + 17 +
             (draw == InputDraw::Wide ? 0x5BD1E995ull : 0));
}

} // namespace

std::vector<float> normalValues(uint64_t seed, unsigned argNumber,
                                int64_t count) {
  Rng rng = argumentStream(seed, argNumber, InputDraw::PyTorch);
  std::vector<float> values;
  values.reserve(count);
  for (int64_t i = 0; i < count; ++i)
    values.push_back(static_cast<float>(rng.normal()));
  return values;
}

std::vector<Tensor> makeInputs(func::FuncOp func, uint64_t seed,
                               InputDraw draw) {
  const bool wide = draw == InputDraw::Wide;
  std::vector<Tensor> inputs;
  for (BlockArgument arg : func.getArguments()) {
    auto ty = cast<RankedTensorType>(arg.getType());
    Tensor t(std::vector<int64_t>(ty.getShape().begin(), ty.getShape().end()));
    Role role = Role::Other;
    double bound = 1.0;
    for (OpOperand &use : arg.getUses()) {
      // Transposed and forward convolutions: PyTorch's default init bound
      // 1 / sqrt(weight dim 1 x taps).
      Operation *owner = use.getOwner();
      if (!isa<fuse::ConvTransposeOp, fuse::ConvOp>(owner))
        continue;
      auto wTy = cast<RankedTensorType>(owner->getOperand(1).getType());
      int64_t fanIn = wTy.getDimSize(1);
      for (int64_t d = 2; d < wTy.getRank(); ++d)
        fanIn *= wTy.getDimSize(d);
      bound = 1.0 / std::sqrt(static_cast<double>(fanIn));
      role = use.getOperandNumber() == 0   ? Role::ConvInput
             : use.getOperandNumber() == 1 ? Role::ConvWeight
                                           : Role::ConvBias;
      break;
    }
    // A convolution's weight or bias first, then a running variance (as
    // bench/gpu_check.py's make_inputs orders them).
    if ((role == Role::Other || role == Role::ConvInput) &&
        isRunningVariance(arg))
      role = Role::RunningVariance;
    double shift = 0.0;
    if (auto m = func.getArgAttrOfType<FloatAttr>(arg.getArgNumber(),
                                                  "fuse.check.mean"))
      shift = m.getValueAsDouble();
    Rng rng = argumentStream(seed, arg.getArgNumber(), draw);
    for (double &v : t.data) {
      double x;
      switch (role) {
      case Role::ConvInput:
        x = wide ? rng.normal() : rng.uniform();
        break;
      case Role::ConvWeight:
      case Role::ConvBias:
        x = (2.0 * rng.uniform() - 1.0) * bound * (wide ? 4.0 : 1.0);
        break;
      case Role::RunningVariance:
        // Positive in both draws (docs/design/checking.md, "Vacuous
        // references").
        x = kRunningVarianceMin +
            (kRunningVarianceMax - kRunningVarianceMin) * rng.uniform();
        break;
      case Role::Other:
        x = rng.normal();
        break;
      }
      // Stored in the argument's element type (bf16/f16: rounded to
      // nearest even, as a half tensor handed to the kernels holds it).
      v = fuse::roundToElementType(
          static_cast<double>(static_cast<float>(x + shift)),
          ty.getElementType());
    }
    inputs.push_back(std::move(t));
  }
  return inputs;
}

double modeFraction(const Tensor &t) {
  std::vector<double> v;
  v.reserve(t.data.size());
  for (double x : t.data)
    if (std::isfinite(x))
      v.push_back(x == 0.0 ? 0.0 : x);
  if (v.empty())
    return 0.0;
  std::sort(v.begin(), v.end());
  size_t best = 1, run = 1;
  for (size_t i = 1; i < v.size(); ++i) {
    run = v[i] == v[i - 1] ? run + 1 : 1;
    best = std::max(best, run);
  }
  // A value that occurs once is no degeneracy (a one-element output).
  if (best == 1)
    return 0.0;
  return static_cast<double>(best) / static_cast<double>(v.size());
}

double maxModeFraction(const std::vector<Tensor> &outputs) {
  double most = 0.0;
  for (const Tensor &t : outputs)
    most = std::max(most, modeFraction(t));
  return most;
}

} // namespace fusecc::ref
