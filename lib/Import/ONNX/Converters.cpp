//===- Converters.cpp - elementwise and shape-folding ONNX converters -----===//
//
// The converter table (op type -> function), the elementwise ops and
// activations that have a fuse op or an exact composition of fuse ops, and
// the shape ops folded at import time (Constant, Shape, Reshape, ...).
// A reshape of a computed tensor becomes a deferred view: the GroupNorm
// export pattern consumes it, any other use makes it a fuse.reshape.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <limits>
#include <type_traits>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::onnx_import;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

namespace {

/// Builds a broadcasting binary fuse op on two IR tensors.
template <typename OpTy>
FailureOr<Value> binaryOp(NodeContext &nc, Value lhs, Value rhs) {
  FailureOr<Shape> shape =
      nc.broadcast(cast<RankedTensorType>(lhs.getType()).getShape(),
                   cast<RankedTensorType>(rhs.getType()).getShape());
  if (failed(shape))
    return failure();
  return OpTy::create(nc.builder(), nc.loc, nc.f32Type(*shape), lhs, rhs)
      .getResult();
}

/// A rank-0 f32 constant named after the node.
Value scalar(NodeContext &nc, double v, StringRef what) {
  std::string base =
      nc.node.name().empty() ? nc.node.output(0) : nc.node.name();
  return nc.f32Constant({}, {v}, base + "." + what.str());
}

template <typename OpTy> LogicalResult binary(NodeContext &nc) {
  if (failed(nc.checkAttributes({})))
    return failure();
  if (nc.numInputs() != 2)
    return nc.fail("expected 2 inputs, got " + std::to_string(nc.numInputs()));
  if constexpr (std::is_same_v<OpTy, fuse::MulOp> ||
                std::is_same_v<OpTy, fuse::AddOp>) {
    FailureOr<bool> folded =
        foldAffineIntoGroupNorm(nc, std::is_same_v<OpTy, fuse::MulOp>);
    if (failed(folded))
      return failure();
    if (*folded)
      return success();
  }
  FailureOr<Value> lhs = nc.tensor(0);
  if (failed(lhs))
    return failure();
  FailureOr<Value> rhs = nc.tensor(1);
  if (failed(rhs))
    return failure();
  FailureOr<Value> r = binaryOp<OpTy>(nc, *lhs, *rhs);
  if (failed(r))
    return failure();
  nc.setResult(*r);
  return success();
}

/// Pow: the exponent may be an integer constant (converted to f32).
LogicalResult convertPow(NodeContext &nc) {
  if (nc.numInputs() != 2)
    return nc.fail("expected 2 inputs, got " + std::to_string(nc.numInputs()));
  const OValue *e = nc.input(1);
  if (e && e->isConst() && e->elemType != onnx::TensorProto::FLOAT &&
      !e->isView()) {
    if (failed(nc.checkAttributes({})))
      return failure();
    FailureOr<Value> base = nc.tensor(0);
    if (failed(base))
      return failure();
    Value exp = nc.f32Constant(e->shape, *e->data, e->constName);
    FailureOr<Value> r = binaryOp<fuse::PowOp>(nc, *base, exp);
    if (failed(r))
      return failure();
    nc.setResult(*r);
    return success();
  }
  return binary<fuse::PowOp>(nc);
}

/// Max, Min, Sum, Mean: one or more inputs folded left to right.
template <typename OpTy, bool isMean = false>
LogicalResult variadic(NodeContext &nc) {
  if (failed(nc.checkAttributes({})))
    return failure();
  if (nc.numInputs() < 1)
    return nc.fail("expected at least one input");
  FailureOr<Value> acc = nc.tensor(0);
  if (failed(acc))
    return failure();
  for (int i = 1; i < nc.numInputs(); ++i) {
    FailureOr<Value> next = nc.tensor(i);
    if (failed(next))
      return failure();
    acc = binaryOp<OpTy>(nc, *acc, *next);
    if (failed(acc))
      return failure();
  }
  if (isMean && nc.numInputs() > 1) {
    acc = binaryOp<fuse::DivOp>(nc, *acc, scalar(nc, nc.numInputs(), "count"));
    if (failed(acc))
      return failure();
  }
  nc.setResult(*acc);
  return success();
}

template <typename OpTy> LogicalResult unary(NodeContext &nc) {
  if (failed(nc.checkAttributes({})))
    return failure();
  FailureOr<Value> x = nc.tensor(0);
  if (failed(x))
    return failure();
  nc.setResult(OpTy::create(nc.builder(), nc.loc, x->getType(), *x));
  return success();
}

LogicalResult convertReciprocal(NodeContext &nc) {
  if (failed(nc.checkAttributes({})))
    return failure();
  FailureOr<Value> x = nc.tensor(0);
  if (failed(x))
    return failure();
  FailureOr<Value> r = binaryOp<fuse::DivOp>(nc, scalar(nc, 1.0, "one"), *x);
  if (failed(r))
    return failure();
  nc.setResult(*r);
  return success();
}

LogicalResult convertLeakyRelu(NodeContext &nc) {
  if (failed(nc.checkAttributes({"alpha"})))
    return failure();
  FailureOr<float> alpha = nc.attrFloat("alpha", 0.01f);
  FailureOr<Value> x = nc.tensor(0);
  if (failed(alpha) || failed(x))
    return failure();
  nc.setResult(fuse::LeakyReluOp::create(
      nc.builder(), nc.loc, x->getType(), *x,
      nc.builder().getF64FloatAttr(static_cast<double>(*alpha))));
  return success();
}

/// HardSigmoid: fuse.hardsigmoid for PyTorch's alpha = 1/6, beta = 1/2,
/// else clamp(alpha * x + beta, 0, 1).
LogicalResult convertHardSigmoid(NodeContext &nc) {
  if (failed(nc.checkAttributes({"alpha", "beta"})))
    return failure();
  FailureOr<float> alpha = nc.attrFloat("alpha", 0.2f);
  FailureOr<float> beta = nc.attrFloat("beta", 0.5f);
  FailureOr<Value> x = nc.tensor(0);
  if (failed(alpha) || failed(beta) || failed(x))
    return failure();
  OpBuilder &b = nc.builder();
  if (*alpha == static_cast<float>(1.0 / 6.0) && *beta == 0.5f) {
    nc.setResult(fuse::HardsigmoidOp::create(b, nc.loc, x->getType(), *x));
    return success();
  }
  FailureOr<Value> ax =
      binaryOp<fuse::MulOp>(nc, *x, scalar(nc, *alpha, "alpha"));
  if (failed(ax))
    return failure();
  FailureOr<Value> axb =
      binaryOp<fuse::AddOp>(nc, *ax, scalar(nc, *beta, "beta"));
  if (failed(axb))
    return failure();
  nc.setResult(fuse::ClampOp::create(b, nc.loc, axb->getType(), *axb,
                                     b.getF64FloatAttr(0.0),
                                     b.getF64FloatAttr(1.0)));
  return success();
}

LogicalResult convertGelu(NodeContext &nc) {
  if (failed(nc.checkAttributes({"approximate"})))
    return failure();
  FailureOr<std::string> approx = nc.attrString("approximate", "none");
  FailureOr<Value> x = nc.tensor(0);
  if (failed(approx) || failed(x))
    return failure();
  if (*approx != "none" && *approx != "tanh")
    return nc.fail("approximate must be 'none' or 'tanh', got '" + *approx +
                   "'");
  nc.setResult(fuse::GeluOp::create(nc.builder(), nc.loc, x->getType(), *x,
                                    nc.builder().getStringAttr(*approx)));
  return success();
}

/// Clip: constant scalar bounds become fuse.clamp; computed bounds become
/// maximum/minimum (exact).
LogicalResult convertClip(NodeContext &nc) {
  bool attrs = nc.opset() < 11;
  if (failed(nc.checkAttributes(attrs ? llvm::ArrayRef<StringRef>{"min", "max"}
                                      : llvm::ArrayRef<StringRef>{})))
    return failure();
  FailureOr<Value> x = nc.tensor(0);
  if (failed(x))
    return failure();
  OpBuilder &b = nc.builder();
  FloatAttr lo, hi;
  Value v = *x;
  if (attrs) {
    FailureOr<float> mn =
        nc.attrFloat("min", -std::numeric_limits<float>::infinity());
    FailureOr<float> mx =
        nc.attrFloat("max", std::numeric_limits<float>::infinity());
    if (failed(mn) || failed(mx))
      return failure();
    if (nc.attr("min"))
      lo = b.getF64FloatAttr(*mn);
    if (nc.attr("max"))
      hi = b.getF64FloatAttr(*mx);
  } else {
    for (int i : {1, 2}) {
      const OValue *bound = nc.input(i);
      if (!bound)
        continue;
      if (!bound->shape.empty() && bound->numElements() != 1)
        return nc.fail(std::string(i == 1 ? "min" : "max") +
                       " must be a scalar, got " + shapeStr(bound->shape));
      if (bound->isConst() && bound->elemType == onnx::TensorProto::FLOAT) {
        (i == 1 ? lo : hi) = b.getF64FloatAttr(
            static_cast<double>(static_cast<float>((*bound->data)[0])));
        continue;
      }
      FailureOr<Value> bv = nc.tensor(i);
      if (failed(bv))
        return failure();
      FailureOr<Value> r = i == 1 ? binaryOp<fuse::MaximumOp>(nc, v, *bv)
                                  : binaryOp<fuse::MinimumOp>(nc, v, *bv);
      if (failed(r))
        return failure();
      v = *r;
    }
  }
  if (lo && hi && lo.getValueAsDouble() > hi.getValueAsDouble())
    return nc.fail("min " + std::to_string(lo.getValueAsDouble()) +
                   " is above max " + std::to_string(hi.getValueAsDouble()) +
                   " (fuse.clamp requires min <= max)");
  if (lo || hi)
    v = fuse::ClampOp::create(b, nc.loc, v.getType(), v, lo, hi);
  nc.setResult(v);
  return success();
}

/// PRelu: max(x, 0) + slope * min(x, 0) (exact).
LogicalResult convertPRelu(NodeContext &nc) {
  if (failed(nc.checkAttributes({})))
    return failure();
  FailureOr<Value> x = nc.tensor(0);
  if (failed(x))
    return failure();
  FailureOr<Value> slope = nc.tensor(1);
  if (failed(slope))
    return failure();
  Value zero = scalar(nc, 0.0, "zero");
  FailureOr<Value> pos = binaryOp<fuse::MaximumOp>(nc, *x, zero);
  FailureOr<Value> neg = binaryOp<fuse::MinimumOp>(nc, *x, zero);
  if (failed(pos) || failed(neg))
    return failure();
  FailureOr<Value> scaled = binaryOp<fuse::MulOp>(nc, *neg, *slope);
  if (failed(scaled))
    return failure();
  FailureOr<Value> r = binaryOp<fuse::AddOp>(nc, *pos, *scaled);
  if (failed(r))
    return failure();
  nc.setResult(*r);
  return success();
}

LogicalResult convertIdentity(NodeContext &nc) {
  if (failed(nc.checkAttributes({})))
    return failure();
  FailureOr<const OValue *> x = nc.required(0);
  if (failed(x))
    return failure();
  nc.setOutput(0, **x);
  return success();
}

/// Dropout at inference: the identity (the mask output is not supported).
LogicalResult convertDropout(NodeContext &nc) {
  if (failed(nc.checkAttributes({"seed", "ratio", "is_test"})) ||
      failed(nc.onlyOutputs(1, "the dropout mask is not supported")))
    return failure();
  if (const OValue *t = nc.input(2)) {
    if (!t->isConst() || t->numElements() != 1)
      return nc.fail("training_mode must be a constant scalar");
    if ((*t->data)[0] != 0.0)
      return nc.fail("training mode dropout is not supported");
  }
  FailureOr<const OValue *> x = nc.required(0);
  if (failed(x))
    return failure();
  nc.setOutput(0, **x);
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Table
//===----------------------------------------------------------------------===//

const llvm::StringMap<Converter> &fusecc::onnx_import::converterTable() {
  static const llvm::StringMap<Converter> table = [] {
    llvm::StringMap<Converter> t;
    // Elementwise.
    t["Add"] = binary<fuse::AddOp>;
    t["Sub"] = binary<fuse::SubOp>;
    t["Mul"] = binary<fuse::MulOp>;
    t["Div"] = binary<fuse::DivOp>;
    t["Pow"] = convertPow;
    t["Max"] = variadic<fuse::MaximumOp>;
    t["Min"] = variadic<fuse::MinimumOp>;
    t["Sum"] = variadic<fuse::AddOp>;
    t["Mean"] = variadic<fuse::AddOp, true>;
    t["Neg"] = unary<fuse::NegOp>;
    t["Abs"] = unary<fuse::AbsOp>;
    t["Exp"] = unary<fuse::ExpOp>;
    t["Log"] = unary<fuse::LogOp>;
    t["Sqrt"] = unary<fuse::SqrtOp>;
    t["Erf"] = unary<fuse::ErfOp>;
    t["Tanh"] = unary<fuse::TanhOp>;
    t["Sigmoid"] = unary<fuse::SigmoidOp>;
    t["Relu"] = unary<fuse::ReluOp>;
    t["Softplus"] = unary<fuse::SoftplusOp>;
    t["Mish"] = unary<fuse::MishOp>;
    t["HardSwish"] = unary<fuse::HardswishOp>;
    t["Reciprocal"] = convertReciprocal;
    t["LeakyRelu"] = convertLeakyRelu;
    t["HardSigmoid"] = convertHardSigmoid;
    t["Gelu"] = convertGelu;
    t["Clip"] = convertClip;
    t["PRelu"] = convertPRelu;
    t["Identity"] = convertIdentity;
    t["Dropout"] = convertDropout;
    // Shapes and constants, folded.
    registerShapeConverters(t);
    // Convolution and normalisations.
    registerNNConverters(t);
    registerConvConverters(t);
    registerResizeConverters(t);
    // Pooling and reductions (fuse's window ops).
    registerPoolConverters(t);
    registerReduceConverters(t);
    // Known ops without a fuse op: one converter each that says why
    // (replace the entry when the op exists).
    for (StringRef op : {"Elu", "Selu", "Celu", "ThresholdedRelu"})
      t[op] = [](NodeContext &nc) {
        return nc.fail("no fuse op and no exact composition of fuse ops "
                       "(it needs a select)");
      };
    return t;
  }();
  return table;
}
