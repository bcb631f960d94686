//===- NodeContext.cpp - typed access to the node being converted ---------===//
//
// Inputs (materialised, constant or omitted), attributes with type checks,
// outputs, and the error format shared by every converter:
// `node 'name' (#index, OpType): reason`.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace fusecc::onnx_import;
using llvm::StringRef;

std::string NodeContext::describe() const {
  std::string s = "node ";
  if (!node.name().empty())
    s += "'" + node.name() + "' ";
  return s + "(#" + std::to_string(index) + ", " + node.op_type() + ")";
}

LogicalResult NodeContext::fail(const llvm::Twine &reason) const {
  return emitError(loc) << describe() << ": " << reason.str();
}

OpBuilder &NodeContext::builder() { return imp.builder; }

int64_t NodeContext::opset() const { return imp.opsetVersion; }

const OValue *NodeContext::input(int i) const {
  if (i >= node.input_size() || node.input(i).empty())
    return nullptr;
  auto it = imp.values.find(node.input(i));
  return it == imp.values.end() ? nullptr : &it->second;
}

FailureOr<const OValue *> NodeContext::required(int i) const {
  const OValue *v = input(i);
  if (!v) {
    (void)fail("input " + std::to_string(i) + " is required");
    return failure();
  }
  return v;
}

FailureOr<std::pair<Value, Value>> NodeContext::convOperands() {
  if (numInputs() < 2 || numInputs() > 3)
    return fail("expected 2 or 3 inputs, got " + std::to_string(numInputs()));
  FailureOr<Value> x = tensor(0);
  if (failed(x))
    return failure();
  FailureOr<Value> w = tensor(1);
  if (failed(w))
    return failure();
  ArrayRef<int64_t> xs = cast<ShapedType>(x->getType()).getShape();
  ArrayRef<int64_t> ws = cast<ShapedType>(w->getType()).getShape();
  int64_t rank = static_cast<int64_t>(xs.size());
  if (rank < 3 || rank > 5)
    return fail("input rank " + std::to_string(rank) +
                " is not supported (1 to 3 spatial dims: rank 3 to 5)");
  if (static_cast<int64_t>(ws.size()) != rank)
    return fail("weight " + shapeStr(ws) + " must have the input's rank " +
                std::to_string(rank));
  return std::make_pair(*x, *w);
}

FailureOr<Value> NodeContext::optionalBias(int i, int64_t channels) {
  if (!input(i))
    return Value();
  FailureOr<Value> b = tensor(i);
  if (failed(b))
    return failure();
  ArrayRef<int64_t> shape = cast<ShapedType>(b->getType()).getShape();
  if (shape.size() != 1 || shape[0] != channels)
    return fail("bias " + shapeStr(shape) + " must be " +
                std::to_string(channels) + " (the output channels)");
  return *b;
}

FailureOr<Value> NodeContext::tensor(int i) {
  FailureOr<const OValue *> v = required(i);
  if (failed(v))
    return failure();
  const OValue &o = **v;
  if (o.elemType != onnx::TensorProto::FLOAT) {
    (void)fail("input " + std::to_string(i) + " ('" + node.input(i) +
               "') has element type " + typeName(o.elemType) +
               "; only FLOAT (float32) tensors are supported");
    return failure();
  }
  OValue &stored = imp.values[node.input(i)];
  if (stored.isView())
    return imp.materializeView(stored, loc);
  return imp.materialize(stored);
}

FailureOr<const OValue *> NodeContext::constant(int i, StringRef what) const {
  FailureOr<const OValue *> v = required(i);
  if (failed(v))
    return failure();
  if (!(*v)->isConst()) {
    (void)fail(what + " (input " + std::to_string(i) +
               ") must be a constant (an initializer or a folded Constant)");
    return failure();
  }
  return v;
}

FailureOr<std::vector<int64_t>> NodeContext::constInts(int i,
                                                       StringRef what) const {
  FailureOr<const OValue *> v = constant(i, what);
  if (failed(v))
    return failure();
  if ((*v)->shape.size() > 1) {
    (void)fail(what + " must be a 1-D tensor, got " + shapeStr((*v)->shape));
    return failure();
  }
  std::vector<int64_t> out;
  for (double d : *(*v)->data) {
    if (d != std::floor(d)) {
      (void)fail(what + " must hold integers");
      return failure();
    }
    // Values past +-2^62 (INT64_MAX as exporters write an open end, which
    // a double cannot hold exactly) are clamped, not cast out of range.
    out.push_back(d >= 0x1p62    ? (int64_t(1) << 62)
                  : d <= -0x1p62 ? -(int64_t(1) << 62)
                                 : static_cast<int64_t>(d));
  }
  return out;
}

LogicalResult NodeContext::checkAttributes(llvm::ArrayRef<StringRef> known) {
  for (const auto &a : node.attribute())
    if (!llvm::is_contained(known, StringRef(a.name())))
      return fail("attribute '" + a.name() + "' is not supported");
  return success();
}

const onnx::AttributeProto *NodeContext::attr(StringRef name) const {
  for (const auto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

static std::string attrTypeName(const onnx::AttributeProto &a) {
  return onnx::AttributeProto::AttributeType_IsValid(a.type())
             ? onnx::AttributeProto::AttributeType_Name(a.type())
             : "type#" + std::to_string(a.type());
}

FailureOr<int64_t> NodeContext::attrInt(StringRef name, int64_t dflt) const {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return dflt;
  if (a->type() != onnx::AttributeProto::INT) {
    (void)fail("attribute '" + name + "' must be an INT, got " +
               attrTypeName(*a));
    return failure();
  }
  return a->i();
}

FailureOr<float> NodeContext::attrFloat(StringRef name, float dflt) const {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return dflt;
  if (a->type() != onnx::AttributeProto::FLOAT) {
    (void)fail("attribute '" + name + "' must be a FLOAT, got " +
               attrTypeName(*a));
    return failure();
  }
  return a->f();
}

FailureOr<std::string> NodeContext::attrString(StringRef name,
                                               StringRef dflt) const {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return dflt.str();
  if (a->type() != onnx::AttributeProto::STRING) {
    (void)fail("attribute '" + name + "' must be a STRING, got " +
               attrTypeName(*a));
    return failure();
  }
  return a->s();
}

FailureOr<std::optional<std::vector<int64_t>>>
NodeContext::attrInts(StringRef name) const {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return std::optional<std::vector<int64_t>>();
  if (a->type() != onnx::AttributeProto::INTS) {
    (void)fail("attribute '" + name + "' must be INTS, got " +
               attrTypeName(*a));
    return failure();
  }
  return std::optional<std::vector<int64_t>>(
      std::vector<int64_t>(a->ints().begin(), a->ints().end()));
}

LogicalResult NodeContext::onlyOutputs(int n, StringRef why) const {
  for (int i = n; i < node.output_size(); ++i)
    if (!node.output(i).empty() && imp.useCount.lookup(node.output(i)))
      return fail("output " + std::to_string(i) + " ('" + node.output(i) +
                  "') is used, but " + why);
  return success();
}

void NodeContext::setOutput(int i, OValue v) {
  if (i < node.output_size() && !node.output(i).empty())
    imp.values[node.output(i)] = std::move(v);
}

void NodeContext::setResult(Value v) {
  OValue o;
  o.shape = Shape(cast<RankedTensorType>(v.getType()).getShape());
  o.value = v;
  setOutput(0, std::move(o));
}

RankedTensorType NodeContext::f32Type(llvm::ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape, Float32Type::get(&imp.ctx));
}

Value NodeContext::f32Constant(llvm::ArrayRef<int64_t> shape,
                               llvm::ArrayRef<double> values, StringRef name) {
  OValue v;
  v.shape = Shape(shape);
  v.data =
      std::make_shared<const std::vector<double>>(values.begin(), values.end());
  v.constName = name.str();
  return imp.materialize(v);
}

FailureOr<Shape> NodeContext::broadcast(llvm::ArrayRef<int64_t> a,
                                        llvm::ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      (void)fail("shapes " + shapeStr(a) + " and " + shapeStr(b) +
                 " do not broadcast");
      return failure();
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

FailureOr<int64_t> NodeContext::normalizeAxis(int64_t axis, int64_t rank,
                                              StringRef what) const {
  if (axis < -rank || axis >= rank) {
    (void)fail(what + " " + std::to_string(axis) +
               " is out of range for rank " + std::to_string(rank));
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}
