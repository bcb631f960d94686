//===- CompositeOps.cpp - batch_norm, instance_norm -----------------------===//
//
// The ops of CompositeOpInterface: their verifiers, their decomposition into
// other fuse ops (fuse-decompose), their double-precision reference (written
// directly, not through the decomposition) and their bundle graph
// attributes.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"
#include "fusecc/Support/Format.h"

#include "ReferenceUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace fusecc::fuse;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

using fusecc::fuse::reference::product;

/// `[N, C, *spatial]` with 1 to 3 spatial dims, none empty.
static LogicalResult verifyChannelInput(Operation *op, RankedTensorType ty) {
  if (ty.getRank() < 3 || ty.getRank() > 5)
    return op->emitOpError("expected an input of rank 3, 4 or 5 ([N, C, "
                           "*spatial] with 1 to 3 spatial dims), got rank ")
           << ty.getRank();
  if (llvm::is_contained(ty.getShape(), 0))
    return op->emitOpError("expected every input dim to be positive (empty "
                           "tensors are not supported), got input shape ")
           << shapeString(ty.getShape());
  return success();
}

/// A per-channel operand `name` (`v` may be null: absent) of shape [C].
static LogicalResult verifyPerChannel(Operation *op, StringRef name, Value v,
                                      int64_t channels) {
  if (!v)
    return success();
  auto ty = cast<RankedTensorType>(v.getType());
  if (ty.getRank() != 1 || ty.getDimSize(0) != channels)
    return op->emitOpError("expected ")
           << name << " of shape [" << channels << "] (one per channel), got "
           << ty;
  return success();
}

static LogicalResult verifyEpsilon(Operation *op, double eps) {
  if (!(eps >= 0.0) || eps > std::numeric_limits<float>::max())
    return op->emitOpError("expected 'epsilon' to be a non-negative value "
                           "representable in f32, got ")
           << eps;
  return success();
}

/// A rank-0 f32 constant (a scalar the kernels clone).
static Value scalar(OpBuilder &b, Location loc, double v) {
  auto ty = RankedTensorType::get({}, b.getF32Type());
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(ty, APFloat(static_cast<float>(v))));
}

/// An elementwise binary op on `lhs` and `rhs`, of their broadcast shape.
template <typename OpTy>
static Value binary(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  auto l = cast<RankedTensorType>(lhs.getType());
  auto r = cast<RankedTensorType>(rhs.getType());
  SmallVector<int64_t> shape = *broadcastShapes(l.getShape(), r.getShape());
  return OpTy::create(b, loc, RankedTensorType::get(shape, l.getElementType()),
                      lhs, rhs);
}

static Value reshape(OpBuilder &b, Location loc, Value v,
                     ArrayRef<int64_t> shape) {
  auto ty = cast<RankedTensorType>(v.getType());
  return ReshapeOp::create(b, loc,
                           RankedTensorType::get(shape, ty.getElementType()),
                           v);
}

/// A per-channel `[C]` tensor as `[C, 1, ...]`, which broadcasts against
/// `[N, C, *spatial]` of rank `rank`.
static Value channelView(OpBuilder &b, Location loc, Value v, int64_t rank) {
  SmallVector<int64_t> shape(rank - 1, 1);
  shape[0] = cast<RankedTensorType>(v.getType()).getDimSize(0);
  return reshape(b, loc, v, shape);
}

template <typename OpTy>
static Value reduce(OpBuilder &b, Location loc, Value v,
                    ArrayRef<int64_t> dims) {
  auto ty = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape(ty.getShape());
  for (int64_t d : dims)
    shape[d] = 1;
  return OpTy::create(b, loc, RankedTensorType::get(shape, ty.getElementType()),
                      v, b.getDenseI64ArrayAttr(dims), b.getBoolAttr(true));
}

/// Graph lines list the optional weight and bias positionally.
static LogicalResult checkAffineOperands(Operation *op, Value weight,
                                         Value bias) {
  if (bias && !weight)
    return op->emitOpError("a bias without a weight is not supported in a "
                           "bundle graph line");
  return success();
}

//===----------------------------------------------------------------------===//
// batch_norm
//===----------------------------------------------------------------------===//

LogicalResult BatchNormOp::verify() {
  auto ty = getInput().getType();
  if (failed(verifyChannelInput(*this, ty)))
    return failure();
  if (getResult().getType() != ty)
    return emitOpError("expected result #0 of the input's type ")
           << ty << ", got " << getResult().getType();
  int64_t channels = ty.getDimSize(1);
  if (failed(verifyPerChannel(*this, "running_mean", getRunningMean(),
                              channels)) ||
      failed(verifyPerChannel(*this, "running_var", getRunningVar(),
                              channels)) ||
      failed(verifyPerChannel(*this, "weight", getWeight(), channels)) ||
      failed(verifyPerChannel(*this, "bias", getBias(), channels)) ||
      failed(verifyEpsilon(*this, getEpsilon().convertToDouble())))
    return failure();
  double momentum = getMomentum().convertToDouble();
  if (!(momentum >= 0.0 && momentum <= 1.0))
    return emitOpError("expected 'momentum' in [0, 1], got ") << momentum;
  auto stats = getNewRunningStats();
  if (!stats.empty() && stats.size() != 2)
    return emitOpError("expected 1 or 3 results (the output, then "
                       "optionally the updated running mean and variance), "
                       "got ")
           << getNumResults();
  if (!stats.empty() && !getTraining())
    return emitOpError("the updated running statistics (results #1 and #2) "
                       "need training = true");
  for (auto [i, v] : llvm::enumerate(stats)) {
    auto sty = cast<RankedTensorType>(v.getType());
    if (sty.getRank() != 1 || sty.getDimSize(0) != channels)
      return emitOpError("expected result #")
             << i + 1 << " (the updated running "
             << (i == 0 ? "mean" : "variance") << ") of shape [" << channels
             << "], got " << sty;
  }
  if (getTraining() && ty.getNumElements() / channels == 1)
    return emitOpError("training needs more than one value per channel "
                       "(N * spatial is 1), as in PyTorch");
  return success();
}

// fuse-decompose keeps the order of the ops built here and moves each up to
// just after its operands: what depends on graph inputs alone is built
// first, so that it can stand before a convolution whose epilogue reads it.
SmallVector<Value> BatchNormOp::decompose(OpBuilder &b) {
  Location loc = getLoc();
  Value x = getInput();
  auto ty = getInput().getType();
  int64_t rank = ty.getRank(), channels = ty.getDimSize(1);
  Value eps = scalar(b, loc, getEpsilon().convertToDouble());
  if (!getTraining()) {
    // Per channel: scale = weight / sqrt(running_var + eps), then
    // (x - running_mean) * scale + bias (x - mean first: no cancellation
    // between x * scale and mean * scale).
    Value scale =
        RsqrtOp::create(b, loc, binary<AddOp>(b, loc, getRunningVar(), eps));
    if (getWeight())
      scale = binary<MulOp>(b, loc, scale, getWeight());
    Value scaleView = channelView(b, loc, scale, rank);
    Value meanView = channelView(b, loc, getRunningMean(), rank);
    Value biasView = getBias() ? channelView(b, loc, getBias(), rank) : Value();
    Value y = binary<MulOp>(b, loc, binary<SubOp>(b, loc, x, meanView),
                            scaleView);
    return {biasView ? binary<AddOp>(b, loc, y, biasView) : y};
  }
  Value weightView =
      getWeight() ? channelView(b, loc, getWeight(), rank) : Value();
  Value biasView = getBias() ? channelView(b, loc, getBias(), rank) : Value();
  SmallVector<int64_t> dims{0};
  for (int64_t d = 2; d < rank; ++d)
    dims.push_back(d);
  // The batch statistics: a mean and a biased variance (fuse.var, stable:
  // squared deviations from the mean, never E[x^2] - E[x]^2) over
  // (N, spatial). fuse-split-reductions makes both per-(sample, channel)
  // statistics (from a convolution's epilogue) combined over N.
  Value mean = reduce<MeanOp>(b, loc, x, dims);
  auto statsTy = cast<RankedTensorType>(mean.getType());
  Value var = VarOp::create(b, loc, statsTy, x, b.getDenseI64ArrayAttr(dims),
                            b.getBoolAttr(true), b.getI64IntegerAttr(0));
  Value inv = RsqrtOp::create(b, loc, binary<AddOp>(b, loc, var, eps));
  Value y = binary<MulOp>(b, loc, binary<SubOp>(b, loc, x, mean), inv);
  if (weightView)
    y = binary<MulOp>(b, loc, y, weightView);
  if (biasView)
    y = binary<AddOp>(b, loc, y, biasView);
  if (getNewRunningStats().empty())
    return {y};
  // The running statistics, updated as running + momentum * (batch -
  // running) (PyTorch's (1 - momentum) * running + momentum * batch up to
  // rounding), so that each update is one chain rooted at the batch
  // statistic: one elementwise kernel each. The variance is the unbiased
  // batch variance, a fuse.var of its own (correction 1): its combine over
  // N then ends in this update, and the biased var's in rsqrt(var + eps).
  Value unbiased =
      VarOp::create(b, loc, statsTy, x, b.getDenseI64ArrayAttr(dims),
                    b.getBoolAttr(true), b.getI64IntegerAttr(1));
  double m = getMomentum().convertToDouble();
  auto update = [&](Value running, Value batch) {
    // One op per statement: the order of the ops built must not depend on
    // the compiler's order of evaluating arguments.
    Value flat = reshape(b, loc, batch, {channels});
    Value diff = binary<SubOp>(b, loc, flat, running);
    Value step = binary<MulOp>(b, loc, diff, scalar(b, loc, m));
    return binary<AddOp>(b, loc, running, step);
  };
  Value newMean = update(getRunningMean(), mean);
  Value newVar = update(getRunningVar(), unbiased);
  return {y, newMean, newVar};
}

void BatchNormOp::evaluateReference(ArrayRef<ArrayRef<double>> operands,
                                    ArrayRef<MutableArrayRef<double>> results) {
  ArrayRef<int64_t> shape = getInput().getType().getShape();
  int64_t batch = shape[0], channels = shape[1];
  int64_t spatial = product(shape, 2, shape.size());
  ArrayRef<double> x = operands[0], rm = operands[1], rv = operands[2];
  ArrayRef<double> weight = getWeight() ? operands[3] : ArrayRef<double>();
  ArrayRef<double> bias =
      getBias() ? operands[getWeight() ? 4 : 3] : ArrayRef<double>();
  double eps = getEpsilon().convertToDouble();
  double m = getMomentum().convertToDouble();
  MutableArrayRef<double> y = results[0];
  auto at = [&](int64_t n, int64_t c, int64_t s) {
    return (n * channels + c) * spatial + s;
  };
  for (int64_t c = 0; c < channels; ++c) {
    double mean = rm[c], var = rv[c];
    if (getTraining()) {
      double count = static_cast<double>(batch * spatial);
      mean = 0.0;
      for (int64_t n = 0; n < batch; ++n)
        for (int64_t s = 0; s < spatial; ++s)
          mean += x[at(n, c, s)];
      mean /= count;
      var = 0.0;
      for (int64_t n = 0; n < batch; ++n)
        for (int64_t s = 0; s < spatial; ++s)
          var += (x[at(n, c, s)] - mean) * (x[at(n, c, s)] - mean);
      var /= count;
      if (results.size() == 3) {
        results[1][c] = (1.0 - m) * rm[c] + m * mean;
        results[2][c] = (1.0 - m) * rv[c] + m * var * count / (count - 1.0);
      }
    }
    double inv = 1.0 / std::sqrt(var + eps);
    double w = weight.empty() ? 1.0 : weight[c];
    double sh = bias.empty() ? 0.0 : bias[c];
    for (int64_t n = 0; n < batch; ++n)
      for (int64_t s = 0; s < spatial; ++s)
        y[at(n, c, s)] = (x[at(n, c, s)] - mean) * inv * w + sh;
  }
}

FailureOr<std::string> BatchNormOp::getGraphAttributes() {
  if (failed(checkAffineOperands(*this, getWeight(), getBias())))
    return failure();
  return std::string("training=") + (getTraining() ? "1" : "0") +
         " eps=" + fusecc::formatExact(getEpsilon().convertToDouble()) +
         " momentum=" + fusecc::formatExact(getMomentum().convertToDouble());
}

//===----------------------------------------------------------------------===//
// instance_norm
//===----------------------------------------------------------------------===//

LogicalResult InstanceNormOp::verify() {
  auto ty = getInput().getType();
  if (failed(verifyChannelInput(*this, ty)))
    return failure();
  ArrayRef<int64_t> shape = ty.getShape();
  if (product(shape, 2, shape.size()) == 1)
    return emitOpError("expected more than one spatial element per (sample, "
                       "channel) (as PyTorch), got spatial shape ")
           << shapeString(shape.drop_front(2));
  int64_t channels = ty.getDimSize(1);
  if (failed(verifyPerChannel(*this, "weight", getWeight(), channels)) ||
      failed(verifyPerChannel(*this, "bias", getBias(), channels)))
    return failure();
  return verifyEpsilon(*this, getEpsilon().convertToDouble());
}

SmallVector<Value> InstanceNormOp::decompose(OpBuilder &b) {
  auto ty = getInput().getType();
  return {GroupNormOp::create(b, getLoc(), ty, getInput(), getWeight(),
                              getBias(),
                              b.getI64IntegerAttr(ty.getDimSize(1)),
                              getEpsilonAttr())
              .getResult()};
}

void InstanceNormOp::evaluateReference(
    ArrayRef<ArrayRef<double>> operands,
    ArrayRef<MutableArrayRef<double>> results) {
  ArrayRef<int64_t> shape = getInput().getType().getShape();
  int64_t channels = shape[1];
  int64_t spatial = product(shape, 2, shape.size());
  int64_t runs = shape[0] * channels;
  ArrayRef<double> x = operands[0];
  ArrayRef<double> weight = getWeight() ? operands[1] : ArrayRef<double>();
  ArrayRef<double> bias =
      getBias() ? operands[getWeight() ? 2 : 1] : ArrayRef<double>();
  double eps = getEpsilon().convertToDouble();
  MutableArrayRef<double> y = results[0];
  for (int64_t r = 0; r < runs; ++r) {
    const double *row = x.data() + r * spatial;
    double mean = 0.0, var = 0.0;
    for (int64_t s = 0; s < spatial; ++s)
      mean += row[s];
    mean /= spatial;
    for (int64_t s = 0; s < spatial; ++s)
      var += (row[s] - mean) * (row[s] - mean);
    var /= spatial;
    double inv = 1.0 / std::sqrt(var + eps);
    int64_t c = r % channels;
    double w = weight.empty() ? 1.0 : weight[c];
    double sh = bias.empty() ? 0.0 : bias[c];
    for (int64_t s = 0; s < spatial; ++s)
      y[r * spatial + s] = (row[s] - mean) * inv * w + sh;
  }
}

FailureOr<std::string> InstanceNormOp::getGraphAttributes() {
  if (failed(checkAffineOperands(*this, getWeight(), getBias())))
    return failure();
  return "eps=" + fusecc::formatExact(getEpsilon().convertToDouble());
}
