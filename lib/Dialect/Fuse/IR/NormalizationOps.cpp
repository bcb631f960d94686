//===- NormalizationOps.cpp - softmax, log_softmax, layer_norm, group_norm ===//
//
// The ops of NormalizationOpInterface: their reduction sets, their
// double-precision reference (the textbook two-pass form), their bundle graph
// attributes, and the verifiers of log_softmax and group_norm.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"
#include "fusecc/Support/Format.h"

#include "ReferenceUtils.h"

#include "llvm/Support/Format.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace fusecc::fuse;


using fusecc::fuse::reference::product;

/// Normalises contiguous runs of `len` elements of `x` into `y`:
/// `(x - mean) / sqrt(var + eps)` (biased variance, two passes), then
/// `* weight[param(j)] + bias[param(j)]` where given; `param` maps a run
/// position and the run index to the parameter index.
template <typename ParamIndex>
static void normalizeRuns(ArrayRef<double> x, MutableArrayRef<double> y,
                          int64_t len, double eps, ArrayRef<double> weight,
                          ArrayRef<double> bias, ParamIndex param) {
  int64_t runs = len ? static_cast<int64_t>(x.size()) / len : 0;
  for (int64_t r = 0; r < runs; ++r) {
    const double *row = x.data() + r * len;
    double mean = 0.0;
    for (int64_t j = 0; j < len; ++j)
      mean += row[j];
    mean /= len;
    double var = 0.0;
    for (int64_t j = 0; j < len; ++j)
      var += (row[j] - mean) * (row[j] - mean);
    var /= len;
    double inv = 1.0 / std::sqrt(var + eps);
    for (int64_t j = 0; j < len; ++j) {
      double v = (row[j] - mean) * inv;
      int64_t p = param(r, j);
      if (!weight.empty())
        v *= weight[p];
      if (!bias.empty())
        v += bias[p];
      y[r * len + j] = v;
    }
  }
}

//===----------------------------------------------------------------------===//
// softmax
//===----------------------------------------------------------------------===//

StatsKind SoftmaxOp::getStatisticsKind() { return StatsKind::MaxSumExp; }

SmallVector<int64_t> SoftmaxOp::getReducedDims() { return {static_cast<int64_t>(getDim())}; }

void SoftmaxOp::evaluateReference(ArrayRef<ArrayRef<double>> operands,
                                  MutableArrayRef<double> out) {
  ArrayRef<double> x = operands[0];
  reference::forEachSoftmaxLine(
      getInput().getType().getShape(), getDim(), x,
      [&](function_ref<int64_t(int64_t)> at, int64_t len, double m, double s) {
        for (int64_t j = 0; j < len; ++j)
          out[at(j)] = std::exp(x[at(j)] - m) / s;
      });
}

std::string SoftmaxOp::getGraphAttributes() {
  return "dim=" + std::to_string(getDim());
}

//===----------------------------------------------------------------------===//
// log_softmax
//===----------------------------------------------------------------------===//

LogicalResult LogSoftmaxOp::verify() {
  auto ty = getInput().getType();
  int64_t rank = ty.getRank(), dim = getDim();
  if (dim < 0 || dim >= rank)
    return emitOpError("dim ") << dim << " is out of range for a rank-" << rank
                               << " tensor (expected 0.." << rank - 1 << ")";
  if (ty.getDimSize(dim) == 0)
    return emitOpError("dim ") << dim << " has size 0 (an empty set)";
  return success();
}

StatsKind LogSoftmaxOp::getStatisticsKind() { return StatsKind::MaxSumExp; }

SoftmaxForm LogSoftmaxOp::getSoftmaxForm() { return SoftmaxForm::Log; }

SmallVector<int64_t> LogSoftmaxOp::getReducedDims() {
  return {static_cast<int64_t>(getDim())};
}

/// PyTorch's form, (x - m) - log(s). A line whose max m is -inf (all -inf)
/// has s = NaN (exp(-inf - -inf)), one whose max is +inf or NaN a NaN sum
/// too, so such a line is NaN throughout: log_softmax([-inf, -inf]) is
/// [nan, nan], as in PyTorch. A -inf element of a line with a finite max
/// stays -inf: log_softmax([0, -inf]) is [0, -inf].
void LogSoftmaxOp::evaluateReference(ArrayRef<ArrayRef<double>> operands,
                                     MutableArrayRef<double> out) {
  ArrayRef<double> x = operands[0];
  reference::forEachSoftmaxLine(
      getInput().getType().getShape(), getDim(), x,
      [&](function_ref<int64_t(int64_t)> at, int64_t len, double m, double s) {
        double logSum = std::log(s);
        for (int64_t j = 0; j < len; ++j)
          out[at(j)] = (x[at(j)] - m) - logSum;
      });
}

std::string LogSoftmaxOp::getGraphAttributes() {
  return "dim=" + std::to_string(getDim());
}

//===----------------------------------------------------------------------===//
// layer_norm
//===----------------------------------------------------------------------===//

SmallVector<int64_t> LayerNormOp::getReducedDims() {
  int64_t rank = getInput().getType().getRank();
  SmallVector<int64_t> dims;
  for (int64_t d = rank - getNormalizedRank(); d < rank; ++d)
    dims.push_back(d);
  return dims;
}

void LayerNormOp::evaluateReference(ArrayRef<ArrayRef<double>> operands,
                                    MutableArrayRef<double> out) {
  ArrayRef<int64_t> shape = getInput().getType().getShape();
  int64_t len = product(shape, shape.size() - getNormalizedRank(),
                        shape.size());
  ArrayRef<double> weight = getWeight() ? operands[1] : ArrayRef<double>();
  ArrayRef<double> bias =
      getBias() ? operands[getWeight() ? 2 : 1] : ArrayRef<double>();
  normalizeRuns(operands[0], out, len, getEpsilon().convertToDouble(), weight,
                bias, [](int64_t, int64_t j) { return j; });
}

std::string LayerNormOp::getGraphAttributes() {
  return "normalized_rank=" + std::to_string(getNormalizedRank()) +
         " eps=" + fusecc::formatExact(getEpsilon().convertToDouble());
}

//===----------------------------------------------------------------------===//
// group_norm
//===----------------------------------------------------------------------===//

LogicalResult GroupNormOp::verify() {
  auto ty = getInput().getType();
  if (ty.getRank() < 2)
    return emitOpError("expected an input of rank >= 2 ([N, C, *]), got rank ")
           << ty.getRank();
  int64_t channels = ty.getDimSize(1), groups = getNumGroups();
  if (groups < 1 || channels % groups != 0)
    return emitOpError("num_groups ")
           << groups << " must be positive and divide the " << channels
           << " channels (dim 1)";
  double eps = getEpsilon().convertToDouble();
  if (!(eps >= 0.0) || eps > std::numeric_limits<float>::max())
    return emitOpError("epsilon must be a non-negative f32 value, got ")
           << eps;
  for (auto [name, v] : {std::pair<StringRef, Value>{"weight", getWeight()},
                         std::pair<StringRef, Value>{"bias", getBias()}}) {
    if (!v)
      continue;
    auto pty = cast<RankedTensorType>(v.getType());
    if (pty.getRank() != 1 || pty.getDimSize(0) != channels)
      return emitOpError("expected ")
             << name << " of shape [" << channels << "] (one per channel), got "
             << pty;
  }
  return success();
}

SmallVector<int64_t> GroupNormOp::getReducedDims() {
  SmallVector<int64_t> dims;
  for (int64_t d = 1; d < getInput().getType().getRank(); ++d)
    dims.push_back(d);
  return dims;
}

int64_t GroupNormOp::getChannelGroups() { return getNumGroups(); }

void GroupNormOp::evaluateReference(ArrayRef<ArrayRef<double>> operands,
                                    MutableArrayRef<double> out) {
  ArrayRef<int64_t> shape = getInput().getType().getShape();
  int64_t channels = shape[1], groups = getNumGroups();
  int64_t spatial = product(shape, 2, shape.size());
  int64_t perGroup = channels / groups;
  ArrayRef<double> weight = getWeight() ? operands[1] : ArrayRef<double>();
  ArrayRef<double> bias =
      getBias() ? operands[getWeight() ? 2 : 1] : ArrayRef<double>();
  // A (sample, group) is a contiguous run of perGroup x spatial elements.
  normalizeRuns(operands[0], out, perGroup * spatial,
                getEpsilon().convertToDouble(), weight, bias,
                [&](int64_t run, int64_t j) {
                  return (run % groups) * perGroup + j / spatial;
                });
}

std::string GroupNormOp::getGraphAttributes() {
  return "groups=" + std::to_string(getNumGroups()) +
         " eps=" + fusecc::formatExact(getEpsilon().convertToDouble());
}
