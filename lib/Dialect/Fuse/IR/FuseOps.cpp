//===- FuseOps.cpp - fuse dialect ops -------------------------------------===//
//
// Verifiers, builders and the scalar semantics of the fuse ops.
//
//===----------------------------------------------------------------------===//

#include "SpatialVerify.h"

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

#include "fusecc/Dialect/Fuse/IR/FuseInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "fusecc/Dialect/Fuse/IR/FuseOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<int64_t>>
fusecc::fuse::broadcastShapes(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t l = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
    int64_t r = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
    if (l != r && l != 1 && r != 1)
      return failure();
    out[i] = l == 1 ? r : l;
  }
  return out;
}

static std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

LogicalResult fusecc::fuse::verifyRepresentableTensors(Operation *op) {
  auto check = [&](Type type, StringRef what, unsigned index) -> LogicalResult {
    auto ty = dyn_cast<RankedTensorType>(type);
    if (!ty || !ty.hasStaticShape() || tensorBytes(ty.getShape()))
      return success();
    return op->emitOpError()
           << what << " #" << index << " of type " << ty
           << " needs more than 2^62 bytes (" << kMaxTensorBytes
           << "), the largest tensor fusecc accepts";
  };
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    if (failed(check(v.getType(), "operand", i)))
      return failure();
  for (auto [i, v] : llvm::enumerate(op->getResults()))
    if (failed(check(v.getType(), "result", i)))
      return failure();
  return success();
}

LogicalResult fusecc::fuse::verifyOneElementType(Operation *op) {
  if (op->hasTrait<OpTrait::MixedElementTypes>())
    return success();
  auto elementOf = [](Value v) -> Type {
    auto ty = dyn_cast<RankedTensorType>(v.getType());
    return ty ? ty.getElementType() : Type();
  };
  if (op->getNumOperands() == 0)
    return success();
  Type data = elementOf(op->getOperand(0));
  if (!data)
    return success();
  bool f32Params = op->hasTrait<OpTrait::F32Parameters>();
  auto check = [&](Value v, StringRef what, unsigned index,
                   bool parameter) -> LogicalResult {
    Type t = elementOf(v);
    if (!t || t == data || (parameter && f32Params && t.isF32()))
      return success();
    InFlightDiagnostic diag = op->emitOpError()
                              << what << " #" << index << " has element type "
                              << t << "; expected " << data;
    if (f32Params && parameter)
      diag << " or f32";
    diag << ", as operand #0 (all tensors of an op share one element type"
         << (f32Params ? "; parameters may stay f32" : "")
         << "; fuse.cast converts)";
    return diag;
  };
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    if (failed(check(v, "operand", i, /*parameter=*/i > 0)))
      return failure();
  for (auto [i, v] : llvm::enumerate(op->getResults()))
    if (failed(check(v, "result", i, /*parameter=*/i > 0)))
      return failure();
  return success();
}

/// Checks that the float attribute `name` of `op` is a finite value that f32
/// (the kernels' arithmetic) represents without overflowing.
static LogicalResult checkF32Attr(Operation *op, StringRef name, double v) {
  if (std::isfinite(v) && std::fabs(v) <= std::numeric_limits<float>::max())
    return success();
  return op->emitOpError("expected '")
         << name << "' to be a finite value representable in f32 (magnitude "
         << "at most " << std::numeric_limits<float>::max() << "), got " << v;
}

static Value f32Const(OpBuilder &b, Location loc, double v) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
}

//===----------------------------------------------------------------------===//
// ConvTransposeOp
//===----------------------------------------------------------------------===//

LogicalResult ConvTransposeOp::verify() {
  auto inTy = getInput().getType();
  auto wTy = getWeight().getType();
  auto outTy = getResult().getType();
  if (failed(verifyConvRanks(*this, inTy, wTy, outTy,
                             "[Cin, Cout/groups, *kernel]")))
    return failure();
  int64_t nsp = inTy.getRank() - 2;
  auto checkArr = [&](StringRef name, ArrayRef<int64_t> a, int64_t minVal) {
    return verifySpatialArray(*this, name, a, nsp, minVal);
  };
  if (failed(checkArr("stride", getStride(), 1)) ||
      // Any integers: a negative padding starts the output before the
      // scatter's first position (bias-only positions), a negative
      // output_padding crops the output's end.
      failed(checkArr("padding", getPadding(),
                      std::numeric_limits<int64_t>::min())) ||
      failed(checkArr("output_padding", getOutputPadding(),
                      std::numeric_limits<int64_t>::min())) ||
      failed(checkArr("dilation", getDilation(), 1)))
    return failure();
  // Empty tensors: no kernel to launch (a grid of 0 blocks) and divisions
  // by zero in the tiling; rejected here.
  if (llvm::is_contained(inTy.getShape(), 0))
    return emitOpError("expected every input dim to be positive (empty "
                       "tensors are not supported), got input shape ")
           << shapeStr(inTy.getShape());
  if (wTy.getDimSize(1) == 0)
    return emitOpError("expected weight dim 1 (Cout/groups) to be positive "
                       "(empty tensors are not supported), got weight shape ")
           << shapeStr(wTy.getShape());
  int64_t groups = getGroups();
  if (groups < 1)
    return emitOpError("expected groups >= 1, got ") << groups;
  int64_t cin = inTy.getDimSize(1);
  if (cin % groups != 0)
    return emitOpError("groups (")
           << groups << ") must divide the input channels (" << cin << ")";
  int64_t cout;
  if (getForwardWeight()) {
    // A forward convolution's [Cout, Cin/groups, *k].
    cout = wTy.getDimSize(0);
    if (cout == 0 || cout % groups != 0)
      return emitOpError("groups (")
             << groups
             << ") must divide the forward weight's dim 0 (Cout), got weight "
                "shape "
             << shapeStr(wTy.getShape());
    if (wTy.getDimSize(1) != cin / groups)
      return emitOpError("forward weight dim 1 must equal the input channels "
                         "per group (")
             << cin / groups << "), got weight shape "
             << shapeStr(wTy.getShape());
  } else {
    if (wTy.getDimSize(0) != cin)
      return emitOpError("weight dim 0 must equal the input channels (")
             << cin << "), got weight shape " << shapeStr(wTy.getShape());
    std::optional<int64_t> coutOr = checkedMul(wTy.getDimSize(1), groups);
    if (!coutOr)
      return emitOpError("output channels = weight dim 1 (")
             << wTy.getDimSize(1) << ") * groups (" << groups
             << ") overflow int64";
    cout = *coutOr;
  }
  if (outTy.getDimSize(0) != inTy.getDimSize(0))
    return emitOpError("result batch (")
           << outTy.getDimSize(0) << ") must equal the input batch ("
           << inTy.getDimSize(0) << ")";
  if (outTy.getDimSize(1) != cout)
    return emitOpError("result channels (")
           << outTy.getDimSize(1)
           << (getForwardWeight() ? ") must equal weight dim 0 ("
                                  : ") must equal weight dim 1 * groups (")
           << cout << ")";
  if (Value bias = getBias()) {
    auto bTy = cast<RankedTensorType>(bias.getType());
    if (bTy.getRank() != 1 || bTy.getDimSize(0) != cout)
      return emitOpError("expected bias of shape [")
             << cout << "], got " << shapeStr(bTy.getShape());
  }
  for (int64_t i = 0; i < nsp; ++i) {
    int64_t s = getStride()[i], d = getDilation()[i];
    // No PyTorch rule (output_padding below the stride or the dilation):
    // the kernels read only `padding` (the begin crop) and the result's
    // size, so any output_padding (an end crop where negative, trailing
    // bias-only positions past the scatter's extent where large) is a
    // plain output window (docs/design.md, "Crops").
    int64_t op = getOutputPadding()[i];
    int64_t k = wTy.getDimSize(2 + i);
    if (k < 1)
      return emitOpError() << "kernel size along spatial dim " << i
                           << " must be positive, got " << k;
    std::optional<int64_t> expectOr = convTransposeOutputSize(
        inTy.getDimSize(2 + i), k, s, getPadding()[i], op, d);
    if (!expectOr)
      return emitOpError() << "output size along spatial dim " << i
                           << " = (in - 1) * stride - 2 * padding + dilation "
                              "* (k - 1) + output_padding + 1 overflows "
                              "int64 (in = "
                           << inTy.getDimSize(2 + i) << ", stride = " << s
                           << ", padding = " << getPadding()[i]
                           << ", dilation = " << d << ", k = " << k
                           << ", output_padding = " << op << ")";
    int64_t expect = *expectOr;
    if (expect <= 0)
      return emitOpError() << "output size along spatial dim " << i
                           << " is " << expect
                           << " (empty output): padding too large";
    if (outTy.getDimSize(2 + i) != expect)
      return emitOpError() << "result spatial dim " << i << " is "
                           << outTy.getDimSize(2 + i) << ", expected "
                           << expect
                           << " = (in - 1) * stride - 2 * padding + "
                              "dilation * (k - 1) + output_padding + 1";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise ops: verifiers
//===----------------------------------------------------------------------===//

static LogicalResult verifyBinary(Operation *op) {
  auto l = cast<RankedTensorType>(op->getOperand(0).getType());
  auto r = cast<RankedTensorType>(op->getOperand(1).getType());
  auto res = cast<RankedTensorType>(op->getResult(0).getType());
  auto b = broadcastShapes(l.getShape(), r.getShape());
  if (failed(b))
    return op->emitOpError("operand shapes ")
           << shapeStr(l.getShape()) << " and " << shapeStr(r.getShape())
           << " do not broadcast";
  if (ArrayRef<int64_t>(*b) != res.getShape())
    return op->emitOpError("result shape ")
           << shapeStr(res.getShape()) << " must be the broadcast shape "
           << shapeStr(*b);
  return success();
}

#define FUSE_BINARY_VERIFIER(OP)                                               \
  LogicalResult OP::verify() { return verifyBinary(getOperation()); }
FUSE_BINARY_VERIFIER(AddOp)
FUSE_BINARY_VERIFIER(SubOp)
FUSE_BINARY_VERIFIER(MulOp)
FUSE_BINARY_VERIFIER(DivOp)
FUSE_BINARY_VERIFIER(MaximumOp)
FUSE_BINARY_VERIFIER(MinimumOp)
FUSE_BINARY_VERIFIER(PowOp)
#undef FUSE_BINARY_VERIFIER

LogicalResult GeluOp::verify() {
  if (getApproximate() != "none" && getApproximate() != "tanh")
    return emitOpError("approximate must be \"none\" or \"tanh\", got \"")
           << getApproximate() << "\"";
  return success();
}

LogicalResult LeakyReluOp::verify() {
  return checkF32Attr(*this, "slope", getSlope().convertToDouble());
}

LogicalResult ClampOp::verify() {
  if (!getMin() && !getMax())
    return emitOpError("expected at least one of 'min' and 'max'");
  if (getMin() &&
      failed(checkF32Attr(*this, "min", getMin()->convertToDouble())))
    return failure();
  if (getMax() &&
      failed(checkF32Attr(*this, "max", getMax()->convertToDouble())))
    return failure();
  if (getMin() && getMax() && getMin()->convertToDouble() >
                                  getMax()->convertToDouble())
    return emitOpError("min (")
           << getMin()->convertToDouble() << ") must not exceed max ("
           << getMax()->convertToDouble() << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise ops: scalar semantics
//===----------------------------------------------------------------------===//

static Value buildSigmoid(OpBuilder &b, Location loc, Value x) {
  Value one = f32Const(b, loc, 1.0);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  return arith::DivFOp::create(b, loc, one,
                               arith::AddFOp::create(b, loc, one, e));
}

static Value buildSoftplus(OpBuilder &b, Location loc, Value x) {
  Value sp = math::Log1pOp::create(b, loc, math::ExpOp::create(b, loc, x));
  Value big = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x,
                                    f32Const(b, loc, 20.0));
  return arith::SelectOp::create(b, loc, big, x, sp);
}

static Value buildClamp(OpBuilder &b, Location loc, Value x,
                        std::optional<double> lo, std::optional<double> hi) {
  if (lo)
    x = arith::MaximumFOp::create(b, loc, x, f32Const(b, loc, *lo));
  if (hi)
    x = arith::MinimumFOp::create(b, loc, x, f32Const(b, loc, *hi));
  return x;
}

static double sigmoidD(double x) { return 1.0 / (1.0 + std::exp(-x)); }
static double softplusD(double x) { return x > 20.0 ? x : std::log1p(std::exp(x)); }
static double clampD(double x, std::optional<double> lo,
                     std::optional<double> hi) {
  if (std::isnan(x))
    return x;
  if (lo && x < *lo)
    x = *lo;
  if (hi && x > *hi)
    x = *hi;
  return x;
}

#define FUSE_UNARY(OP, BUILD, EVAL)                                            \
  Value OP::buildScalar(OpBuilder &b, Location loc, ValueRange operands) {     \
    Value x = operands[0];                                                     \
    (void)x;                                                                   \
    return BUILD;                                                              \
  }                                                                            \
  double OP::evaluate(ArrayRef<double> operands) {                             \
    double x = operands[0];                                                    \
    return EVAL;                                                               \
  }

FUSE_UNARY(NegOp, arith::NegFOp::create(b, loc, x), -x)
FUSE_UNARY(AbsOp, math::AbsFOp::create(b, loc, x), std::fabs(x))
FUSE_UNARY(ExpOp, math::ExpOp::create(b, loc, x), std::exp(x))
FUSE_UNARY(LogOp, math::LogOp::create(b, loc, x), std::log(x))
FUSE_UNARY(SqrtOp, math::SqrtOp::create(b, loc, x), std::sqrt(x))
FUSE_UNARY(RsqrtOp, math::RsqrtOp::create(b, loc, x), 1.0 / std::sqrt(x))
FUSE_UNARY(ErfOp, math::ErfOp::create(b, loc, x), std::erf(x))
FUSE_UNARY(TanhOp, math::TanhOp::create(b, loc, x), std::tanh(x))
FUSE_UNARY(SigmoidOp, buildSigmoid(b, loc, x), sigmoidD(x))
FUSE_UNARY(ReluOp,
           arith::MaximumFOp::create(b, loc, x, f32Const(b, loc, 0.0)),
           std::isnan(x) ? x : (x > 0 ? x : 0.0))
FUSE_UNARY(SiluOp, arith::MulFOp::create(b, loc, x, buildSigmoid(b, loc, x)),
           x * sigmoidD(x))
FUSE_UNARY(SoftplusOp, buildSoftplus(b, loc, x), softplusD(x))
FUSE_UNARY(MishOp,
           arith::MulFOp::create(
               b, loc, x, math::TanhOp::create(b, loc, buildSoftplus(b, loc, x))),
           x * std::tanh(softplusD(x)))
FUSE_UNARY(HardsigmoidOp,
           buildClamp(b, loc,
                      arith::AddFOp::create(
                          b, loc,
                          arith::DivFOp::create(b, loc, x, f32Const(b, loc, 6.0)),
                          f32Const(b, loc, 0.5)),
                      0.0, 1.0),
           clampD(x / 6.0 + 0.5, 0.0, 1.0))
FUSE_UNARY(HardswishOp,
           arith::DivFOp::create(
               b, loc,
               arith::MulFOp::create(
                   b, loc, x,
                   buildClamp(b, loc,
                              arith::AddFOp::create(b, loc, x,
                                                    f32Const(b, loc, 3.0)),
                              0.0, 6.0)),
               f32Const(b, loc, 6.0)),
           x * clampD(x + 3.0, 0.0, 6.0) / 6.0)
#undef FUSE_UNARY

double fusecc::fuse::roundToElementType(double v, Type t) {
  auto ft = dyn_cast<FloatType>(t);
  if (!ft || ft.isF64() || std::isnan(v))
    return v;
  APFloat a(v);
  bool losesInfo = false;
  a.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
  return a.convertToDouble();
}

Value CastOp::buildScalar(OpBuilder &b, Location loc, ValueRange operands) {
  // Kernels compute in f32: a cast to half rounds the value to the half
  // type's precision and range (the store then keeps it exactly); a cast to
  // f32 of a value read from half storage is exact.
  Type to = getResult().getType().getElementType();
  Value x = operands[0];
  if (!isHalfType(to))
    return x;
  Value h = arith::TruncFOp::create(b, loc, to, x);
  return arith::ExtFOp::create(b, loc, b.getF32Type(), h);
}

double CastOp::evaluate(ArrayRef<double> operands) {
  return roundToElementType(operands[0],
                            getResult().getType().getElementType());
}

Value GeluOp::buildScalar(OpBuilder &b, Location loc, ValueRange operands) {
  Value x = operands[0];
  Value half = f32Const(b, loc, 0.5), one = f32Const(b, loc, 1.0);
  Value inner;
  if (getApproximate() == "tanh") {
    // tanh(sqrt(2/pi) * (x + 0.044715 * x^3))
    Value x3 = arith::MulFOp::create(b, loc, x, arith::MulFOp::create(b, loc, x, x));
    Value poly = arith::AddFOp::create(
        b, loc, x,
        arith::MulFOp::create(b, loc, f32Const(b, loc, 0.044715), x3));
    inner = math::TanhOp::create(
        b, loc,
        arith::MulFOp::create(b, loc, f32Const(b, loc, std::sqrt(2.0 / M_PI)),
                              poly));
  } else {
    inner = math::ErfOp::create(
        b, loc, arith::MulFOp::create(b, loc, x, f32Const(b, loc, M_SQRT1_2)));
  }
  return arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, half, x),
                               arith::AddFOp::create(b, loc, one, inner));
}

double GeluOp::evaluate(ArrayRef<double> operands) {
  double x = operands[0];
  if (getApproximate() == "tanh")
    return 0.5 * x *
           (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
  return 0.5 * x * (1.0 + std::erf(x * M_SQRT1_2));
}

Value LeakyReluOp::buildScalar(OpBuilder &b, Location loc,
                               ValueRange operands) {
  Value x = operands[0];
  Value pos = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x,
                                    f32Const(b, loc, 0.0));
  Value neg = arith::MulFOp::create(
      b, loc, x, f32Const(b, loc, getSlope().convertToDouble()));
  return arith::SelectOp::create(b, loc, pos, x, neg);
}

double LeakyReluOp::evaluate(ArrayRef<double> operands) {
  double x = operands[0];
  return x > 0 ? x : x * getSlope().convertToDouble();
}

static std::optional<double> optD(std::optional<APFloat> v) {
  if (!v)
    return std::nullopt;
  return v->convertToDouble();
}

Value ClampOp::buildScalar(OpBuilder &b, Location loc, ValueRange operands) {
  return buildClamp(b, loc, operands[0], optD(getMin()), optD(getMax()));
}

double ClampOp::evaluate(ArrayRef<double> operands) {
  return clampD(operands[0], optD(getMin()), optD(getMax()));
}

#define FUSE_BINARY(OP, BUILD, EVAL)                                           \
  Value OP::buildScalar(OpBuilder &b, Location loc, ValueRange operands) {     \
    Value l = operands[0], r = operands[1];                                    \
    return BUILD;                                                              \
  }                                                                            \
  double OP::evaluate(ArrayRef<double> operands) {                             \
    double l = operands[0], r = operands[1];                                   \
    return EVAL;                                                               \
  }

static double nanMax(double l, double r) {
  return std::isnan(l) || std::isnan(r) ? NAN : std::max(l, r);
}
static double nanMin(double l, double r) {
  return std::isnan(l) || std::isnan(r) ? NAN : std::min(l, r);
}

FUSE_BINARY(AddOp, arith::AddFOp::create(b, loc, l, r), l + r)
FUSE_BINARY(SubOp, arith::SubFOp::create(b, loc, l, r), l - r)
FUSE_BINARY(MulOp, arith::MulFOp::create(b, loc, l, r), l *r)
FUSE_BINARY(DivOp, arith::DivFOp::create(b, loc, l, r), l / r)
FUSE_BINARY(MaximumOp, arith::MaximumFOp::create(b, loc, l, r), nanMax(l, r))
FUSE_BINARY(MinimumOp, arith::MinimumFOp::create(b, loc, l, r), nanMin(l, r))
FUSE_BINARY(PowOp, math::PowFOp::create(b, loc, l, r), std::pow(l, r))
#undef FUSE_BINARY

// Affine in an operand: a sum or mean over a set where the other operands
// are constant commutes with the op (fuse-reduce-through-conv).
bool NegOp::isAffineIn(unsigned) { return true; }
bool AddOp::isAffineIn(unsigned) { return true; }
bool SubOp::isAffineIn(unsigned) { return true; }
bool MulOp::isAffineIn(unsigned) { return true; }
bool DivOp::isAffineIn(unsigned index) { return index == 0; }

//===----------------------------------------------------------------------===//
// Normalisations
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxOp::verify() {
  int64_t rank = getInput().getType().getRank();
  int64_t dim = getDim();
  if (dim < 0 || dim >= rank)
    return emitOpError("dim ") << dim << " is out of range for a rank-"
                               << rank << " tensor (expected 0.."
                               << rank - 1 << ")";
  return success();
}

LogicalResult LayerNormOp::verify() {
  auto inTy = getInput().getType();
  int64_t rank = inTy.getRank();
  int64_t nr = getNormalizedRank();
  if (nr < 1 || nr > rank)
    return emitOpError("normalized_rank ")
           << nr << " is out of range for a rank-" << rank
           << " tensor (expected 1.." << rank << ")";
  if (failed(checkF32Attr(*this, "epsilon", getEpsilon().convertToDouble())))
    return failure();
  if (getEpsilon().convertToDouble() < 0.0)
    return emitOpError("epsilon must be non-negative, got ")
           << getEpsilon().convertToDouble();
  ArrayRef<int64_t> normShape = inTy.getShape().take_back(nr);
  for (auto [name, v] : {std::pair<StringRef, Value>{"weight", getWeight()},
                         std::pair<StringRef, Value>{"bias", getBias()}}) {
    if (!v)
      continue;
    auto ty = cast<RankedTensorType>(v.getType());
    if (ty.getShape() != normShape)
      return emitOpError("expected ")
             << name << " of shape " << shapeStr(normShape)
             << " (the normalised dims), got " << shapeStr(ty.getShape());
  }
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &b, OperationState &state, Type resultType,
                     StringRef name, ValueRange inputs) {
  state.addOperands(inputs);
  state.addAttribute(getKernelNameAttrName(state.name),
                     b.getStringAttr(name));
  state.addTypes(resultType);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value v : inputs)
    block->addArgument(v.getType(), v.getLoc());
}

LogicalResult KernelOp::verifyRegions() {
  Block &block = getBody().front();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError("body has ")
           << block.getNumArguments() << " arguments but the kernel has "
           << getInputs().size() << " inputs";
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(block.getArgumentTypes(), getInputs()))) {
    auto [argTy, in] = pair;
    if (argTy != in.getType())
      return emitOpError("body argument ")
             << i << " has type " << argTy << " but input " << i
             << " has type " << in.getType();
  }
  auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
  if (!yield)
    return emitOpError("body must end with 'fuse.yield'");
  if (yield.getValue().getType() != getResult().getType())
    return emitOpError("yields ")
           << yield.getValue().getType() << " but the kernel result is "
           << getResult().getType();
  return success();
}
