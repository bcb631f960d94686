//===- ShapeConverters.cpp - shape ops folded at import time --------------===//
//
// Constant, Shape, Reshape, Flatten, Unsqueeze, Squeeze, Gather, Concat, Cast
// and ConstantOfShape on static shapes. Constant operands fold to new
// constants; a computed tensor viewed with another shape becomes a deferred
// view: the GroupNorm pattern consumes it as is, any other use makes it a
// fuse.reshape.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::onnx_import;
using llvm::StringRef;

namespace {

/// Product of dims, saturating at INT64_MAX on overflow.
int64_t product(llvm::ArrayRef<int64_t> s) {
  int64_t p = 1;
  for (int64_t d : s)
    if (__builtin_mul_overflow(p, d, &p))
      return std::numeric_limits<int64_t>::max();
  return p;
}

/// Output 0 = `in` seen with `shape` (same element count).
void setReshaped(NodeContext &nc, const OValue &in, Shape shape) {
  OValue out;
  out.elemType = in.elemType;
  if (in.isConst()) {
    out = in;
    out.value = nullptr;
    out.convOp = nullptr;
    out.shape = std::move(shape);
  } else if (in.isView()) {
    auto srcShape = cast<RankedTensorType>(in.viewSource.getType()).getShape();
    if (llvm::ArrayRef<int64_t>(shape) == srcShape) {
      out.value = in.viewSource;
    } else {
      out.viewSource = in.viewSource;
      out.viewNode = nc.describe();
    }
    out.shape = std::move(shape);
  } else if (in.shape == shape) {
    out = in;
  } else {
    out.viewSource = in.value;
    out.viewNode = nc.describe();
    out.shape = std::move(shape);
  }
  nc.setOutput(0, std::move(out));
}

/// A constant OValue of integers.
OValue intConstant(Shape shape, std::vector<double> values, StringRef name) {
  OValue v;
  v.shape = std::move(shape);
  v.elemType = onnx::TensorProto::INT64;
  v.data = std::make_shared<const std::vector<double>>(std::move(values));
  v.constName = name.str();
  return v;
}

LogicalResult convertConstant(NodeContext &nc) {
  if (nc.node.attribute_size() != 1)
    return nc.fail("expected exactly one value attribute");
  const onnx::AttributeProto &a = nc.node.attribute(0);
  OValue v;
  v.constName = nc.node.output(0);
  std::vector<double> data;
  if (a.name() == "value") {
    if (a.type() != onnx::AttributeProto::TENSOR)
      return nc.fail("attribute 'value' must be a TENSOR");
    std::string why;
    if (failed(readTensor(a.t(), v.shape, data, why)))
      return nc.fail("attribute 'value': " + why);
    setStorageType(v, a.t().data_type());
  } else if (a.name() == "value_float" &&
             a.type() == onnx::AttributeProto::FLOAT) {
    data = {a.f()};
  } else if (a.name() == "value_floats" &&
             a.type() == onnx::AttributeProto::FLOATS) {
    data.assign(a.floats().begin(), a.floats().end());
    v.shape = {static_cast<int64_t>(data.size())};
  } else if (a.name() == "value_int" && a.type() == onnx::AttributeProto::INT) {
    data = {static_cast<double>(a.i())};
    v.elemType = onnx::TensorProto::INT64;
  } else if (a.name() == "value_ints" &&
             a.type() == onnx::AttributeProto::INTS) {
    for (int64_t i : a.ints())
      data.push_back(static_cast<double>(i));
    v.shape = {static_cast<int64_t>(data.size())};
    v.elemType = onnx::TensorProto::INT64;
  } else {
    return nc.fail("attribute '" + a.name() +
                   "' is not supported (value, value_float(s), value_int(s) "
                   "are)");
  }
  v.data = std::make_shared<const std::vector<double>>(std::move(data));
  nc.setOutput(0, std::move(v));
  return success();
}

LogicalResult convertShape(NodeContext &nc) {
  if (failed(nc.checkAttributes({"start", "end"})))
    return failure();
  FailureOr<const OValue *> x = nc.required(0);
  int64_t rank = failed(x) ? 0 : static_cast<int64_t>((*x)->shape.size());
  FailureOr<int64_t> start = nc.attrInt("start", 0);
  FailureOr<int64_t> end = nc.attrInt("end", rank);
  if (failed(x) || failed(start) || failed(end))
    return failure();
  auto clampAxis = [&](int64_t a) {
    a = a < 0 ? a + rank : a;
    return std::clamp<int64_t>(a, 0, rank);
  };
  int64_t s = clampAxis(*start), e = clampAxis(*end);
  std::vector<double> dims;
  for (int64_t i = s; i < e; ++i)
    dims.push_back(static_cast<double>((*x)->shape[i]));
  Shape shape{static_cast<int64_t>(dims.size())};
  nc.setOutput(0, intConstant(shape, std::move(dims), nc.node.output(0)));
  return success();
}

LogicalResult convertReshape(NodeContext &nc) {
  if (failed(nc.checkAttributes({"allowzero"})))
    return failure();
  FailureOr<const OValue *> x = nc.required(0);
  FailureOr<int64_t> allowZero = nc.attrInt("allowzero", 0);
  if (failed(x) || failed(allowZero))
    return failure();
  FailureOr<std::vector<int64_t>> target = nc.constInts(1, "the shape");
  if (failed(target))
    return failure();
  const Shape &in = (*x)->shape;
  Shape out;
  int inferred = -1;
  for (auto [i, d] : llvm::enumerate(*target)) {
    if (d == 0 && !*allowZero) {
      if (i >= in.size())
        return nc.fail("shape entry " + std::to_string(i) +
                       " is 0 (copy) but the input has rank " +
                       std::to_string(in.size()));
      out.push_back(in[i]);
    } else if (d == -1) {
      if (inferred >= 0)
        return nc.fail("the shape has more than one -1");
      inferred = static_cast<int>(i);
      out.push_back(1);
    } else if (d < 0) {
      return nc.fail("shape entry " + std::to_string(i) + " is " +
                     std::to_string(d));
    } else {
      out.push_back(d);
    }
  }
  int64_t n = product(in), known = product(out);
  if (inferred >= 0) {
    if (known == 0 || n % known)
      return nc.fail("cannot infer the -1 dim reshaping " + shapeStr(in) +
                     " to " + shapeStr(*target));
    out[inferred] = n / known;
  } else if (known != n) {
    return nc.fail("cannot reshape " + shapeStr(in) + " (" + std::to_string(n) +
                   " elements) to " + shapeStr(out));
  }
  setReshaped(nc, **x, std::move(out));
  return success();
}

LogicalResult convertFlatten(NodeContext &nc) {
  if (failed(nc.checkAttributes({"axis"})))
    return failure();
  FailureOr<const OValue *> x = nc.required(0);
  FailureOr<int64_t> axis = nc.attrInt("axis", 1);
  if (failed(x) || failed(axis))
    return failure();
  const Shape &in = (*x)->shape;
  int64_t rank = static_cast<int64_t>(in.size());
  int64_t a = *axis < 0 ? *axis + rank : *axis;
  if (a < 0 || a > rank)
    return nc.fail("axis " + std::to_string(*axis) +
                   " is out of range for rank " + std::to_string(rank));
  Shape out{product(llvm::ArrayRef<int64_t>(in).take_front(a)),
            product(llvm::ArrayRef<int64_t>(in).drop_front(a))};
  setReshaped(nc, **x, std::move(out));
  return success();
}

/// Axes from the attribute (opset < 13) or input 1.
FailureOr<std::optional<std::vector<int64_t>>> axesOf(NodeContext &nc) {
  if (nc.opset() < 13) {
    if (failed(nc.checkAttributes({"axes"})))
      return failure();
    return nc.attrInts("axes");
  }
  if (failed(nc.checkAttributes({})))
    return failure();
  if (!nc.input(1))
    return std::optional<std::vector<int64_t>>();
  FailureOr<std::vector<int64_t>> axes = nc.constInts(1, "axes");
  if (failed(axes))
    return failure();
  return std::optional<std::vector<int64_t>>(*axes);
}

LogicalResult convertUnsqueeze(NodeContext &nc) {
  FailureOr<const OValue *> x = nc.required(0);
  if (failed(x))
    return failure();
  FailureOr<std::optional<std::vector<int64_t>>> axes = axesOf(nc);
  if (failed(axes))
    return failure();
  if (!*axes)
    return nc.fail("axes are required");
  const Shape &in = (*x)->shape;
  int64_t outRank = static_cast<int64_t>(in.size() + (*axes)->size());
  std::vector<bool> isNew(outRank, false);
  for (int64_t a : **axes) {
    FailureOr<int64_t> n = nc.normalizeAxis(a, outRank, "axis");
    if (failed(n))
      return failure();
    if (isNew[*n])
      return nc.fail("axis " + std::to_string(a) + " is repeated");
    isNew[*n] = true;
  }
  Shape out;
  size_t j = 0;
  for (int64_t i = 0; i < outRank; ++i)
    out.push_back(isNew[i] ? 1 : in[j++]);
  setReshaped(nc, **x, std::move(out));
  return success();
}

LogicalResult convertSqueeze(NodeContext &nc) {
  FailureOr<const OValue *> x = nc.required(0);
  if (failed(x))
    return failure();
  FailureOr<std::optional<std::vector<int64_t>>> axes = axesOf(nc);
  if (failed(axes))
    return failure();
  const Shape &in = (*x)->shape;
  int64_t rank = static_cast<int64_t>(in.size());
  std::vector<bool> drop(rank, false);
  if (!*axes) {
    for (int64_t i = 0; i < rank; ++i)
      drop[i] = in[i] == 1;
  } else {
    for (int64_t a : **axes) {
      FailureOr<int64_t> n = nc.normalizeAxis(a, rank, "axis");
      if (failed(n))
        return failure();
      if (in[*n] != 1)
        return nc.fail("cannot squeeze dim " + std::to_string(*n) +
                       " of size " + std::to_string(in[*n]));
      drop[*n] = true;
    }
  }
  Shape out;
  for (int64_t i = 0; i < rank; ++i)
    if (!drop[i])
      out.push_back(in[i]);
  setReshaped(nc, **x, std::move(out));
  return success();
}

LogicalResult convertGather(NodeContext &nc) {
  if (failed(nc.checkAttributes({"axis"})))
    return failure();
  FailureOr<int64_t> axis = nc.attrInt("axis", 0);
  FailureOr<const OValue *> data = nc.constant(0, "the data");
  if (failed(axis) || failed(data))
    return failure();
  FailureOr<const OValue *> idx = nc.constant(1, "the indices");
  if (failed(idx))
    return failure();
  const OValue &d = **data;
  int64_t rank = static_cast<int64_t>(d.shape.size());
  if (rank == 0)
    return nc.fail("the data must have rank >= 1");
  FailureOr<int64_t> a = nc.normalizeAxis(*axis, rank, "axis");
  if (failed(a))
    return failure();
  int64_t outer = product(llvm::ArrayRef<int64_t>(d.shape).take_front(*a));
  int64_t len = d.shape[*a];
  int64_t inner = product(llvm::ArrayRef<int64_t>(d.shape).drop_front(*a + 1));
  std::vector<double> out;
  for (int64_t o = 0; o < outer; ++o)
    for (double iv : *(*idx)->data) {
      int64_t i = static_cast<int64_t>(iv);
      if (i < -len || i >= len)
        return nc.fail("index " + std::to_string(i) +
                       " is out of range for "
                       "a dim of size " +
                       std::to_string(len));
      i = i < 0 ? i + len : i;
      for (int64_t in = 0; in < inner; ++in)
        out.push_back((*d.data)[(o * len + i) * inner + in]);
    }
  Shape shape(d.shape.begin(), d.shape.begin() + *a);
  shape.insert(shape.end(), (*idx)->shape.begin(), (*idx)->shape.end());
  shape.insert(shape.end(), d.shape.begin() + *a + 1, d.shape.end());
  OValue v = intConstant(shape, std::move(out), nc.node.output(0));
  v.elemType = d.elemType;
  nc.setOutput(0, std::move(v));
  return success();
}

/// Concat of computed tensors (constants among them materialised):
/// `fuse.concat`, which a following convolution reads in its input staging.
/// Inputs empty along the axis are left out.
LogicalResult convertConcatComputed(NodeContext &nc, int64_t axis) {
  SmallVector<Value> values;
  Shape shape;
  int64_t rank = 0, a = 0;
  for (int i = 0; i < nc.numInputs(); ++i) {
    FailureOr<const OValue *> in = nc.required(i);
    if (failed(in))
      return failure();
    if (i == 0) {
      shape = (*in)->shape;
      rank = static_cast<int64_t>(shape.size());
      if (rank == 0)
        return nc.fail("inputs must have rank >= 1");
      FailureOr<int64_t> na = nc.normalizeAxis(axis, rank, "axis");
      if (failed(na))
        return failure();
      a = *na;
      shape[a] = 0;
    }
    const Shape &s = (*in)->shape;
    if (static_cast<int64_t>(s.size()) != rank)
      return nc.fail("inputs differ in rank");
    for (int64_t d = 0; d < rank; ++d)
      if (d != a && s[d] != shape[d])
        return nc.fail("input " + std::to_string(i) + " " + shapeStr(s) +
                       " differs from input 0 outside the axis");
    if (s[a] == 0)
      continue;
    FailureOr<Value> v = nc.tensor(i);
    if (failed(v))
      return failure();
    values.push_back(*v);
    shape[a] += s[a];
  }
  if (values.empty())
    return nc.fail("every input is empty along the axis");
  OpBuilder &b = nc.builder();
  auto op = fusecc::fuse::ConcatOp::create(b, nc.loc, nc.f32Type(shape), values,
                                           b.getI64IntegerAttr(a));
  nc.setResult(op.getResult());
  return success();
}

LogicalResult convertConcat(NodeContext &nc) {
  if (failed(nc.checkAttributes({"axis"})))
    return failure();
  FailureOr<int64_t> axis = nc.attrInt("axis", 0);
  if (failed(axis))
    return failure();
  if (nc.numInputs() < 1)
    return nc.fail("expected at least one input");
  bool computed = false;
  for (int i = 0; i < nc.numInputs(); ++i) {
    const OValue *v = nc.input(i);
    computed |= v && !v->isConst();
  }
  if (computed)
    return convertConcatComputed(nc, *axis);
  std::vector<const OValue *> ins;
  for (int i = 0; i < nc.numInputs(); ++i) {
    FailureOr<const OValue *> v = nc.constant(i, "every input");
    if (failed(v))
      return failure();
    ins.push_back(*v);
  }
  Shape shape = ins[0]->shape;
  int64_t rank = static_cast<int64_t>(shape.size());
  if (rank == 0)
    return nc.fail("inputs must have rank >= 1");
  FailureOr<int64_t> a = nc.normalizeAxis(*axis, rank, "axis");
  if (failed(a))
    return failure();
  shape[*a] = 0;
  for (const OValue *v : ins) {
    if (static_cast<int64_t>(v->shape.size()) != rank)
      return nc.fail("inputs differ in rank");
    for (int64_t i = 0; i < rank; ++i)
      if (i != *a && v->shape[i] != ins[0]->shape[i])
        return nc.fail("inputs " + shapeStr(ins[0]->shape) + " and " +
                       shapeStr(v->shape) + " differ outside the axis");
    shape[*a] += v->shape[*a];
  }
  int64_t outer = product(llvm::ArrayRef<int64_t>(shape).take_front(*a));
  std::vector<double> out;
  for (int64_t o = 0; o < outer; ++o)
    for (const OValue *v : ins) {
      int64_t chunk = product(llvm::ArrayRef<int64_t>(v->shape).drop_front(*a));
      out.insert(out.end(), v->data->begin() + o * chunk,
                 v->data->begin() + (o + 1) * chunk);
    }
  OValue v = intConstant(shape, std::move(out), nc.node.output(0));
  v.elemType = ins[0]->elemType;
  nc.setOutput(0, std::move(v));
  return success();
}

LogicalResult convertCast(NodeContext &nc) {
  if (failed(nc.checkAttributes({"to", "saturate"})))
    return failure();
  FailureOr<int64_t> to = nc.attrInt("to", 0);
  FailureOr<const OValue *> x = nc.required(0);
  if (failed(to) || failed(x))
    return failure();
  const OValue &in = **x;
  const int32_t toType = static_cast<int32_t>(*to);
  if (!in.isConst()) {
    // A float tensor is computed in f32 (OValue::storage): a cast to FLOAT
    // is the identity, a cast to FLOAT16/BFLOAT16 rounds (fuse.cast there
    // and back) and marks the value as stored in half.
    if (in.elemType == toType) {
      OValue v = in;
      v.storage = onnx::TensorProto::FLOAT;
      nc.setOutput(0, std::move(v));
      return success();
    }
    if (in.elemType == onnx::TensorProto::FLOAT && isHalfONNXType(toType)) {
      FailureOr<Value> xv = nc.tensor(0);
      if (failed(xv))
        return failure();
      MLIRContext &ctx = *nc.builder().getContext();
      auto halfTy =
          RankedTensorType::get(in.shape, storageElementType(ctx, toType));
      auto f32Ty = RankedTensorType::get(in.shape, nc.builder().getF32Type());
      Value half = fuse::CastOp::create(nc.builder(), nc.loc, halfTy, *xv);
      OValue v;
      v.shape = in.shape;
      v.value = fuse::CastOp::create(nc.builder(), nc.loc, f32Ty, half);
      setStorageType(v, toType);
      nc.setOutput(0, std::move(v));
      return success();
    }
    return nc.fail("casting a computed tensor to " + typeName(toType) +
                   " is not supported");
  }
  std::vector<double> out = *in.data;
  switch (*to) {
  case onnx::TensorProto::FLOAT:
    for (double &d : out)
      d = static_cast<float>(d);
    break;
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16: {
    Type t = storageElementType(*nc.builder().getContext(), toType);
    for (double &d : out)
      d = fuse::roundToElementType(d, t);
    break;
  }
  case onnx::TensorProto::DOUBLE:
    break;
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::INT32:
    for (double &d : out)
      d = std::trunc(d);
    break;
  default:
    return nc.fail("casting to " + typeName(static_cast<int32_t>(*to)) +
                   " is not supported");
  }
  OValue v = intConstant(in.shape, std::move(out), nc.node.output(0));
  setStorageType(v, toType);
  nc.setOutput(0, std::move(v));
  return success();
}

LogicalResult convertConstantOfShape(NodeContext &nc) {
  if (failed(nc.checkAttributes({"value"})))
    return failure();
  FailureOr<std::vector<int64_t>> shape = nc.constInts(0, "the shape");
  if (failed(shape))
    return failure();
  double fill = 0.0;
  int32_t type = onnx::TensorProto::FLOAT;
  if (const onnx::AttributeProto *a = nc.attr("value")) {
    if (a->type() != onnx::AttributeProto::TENSOR)
      return nc.fail("attribute 'value' must be a TENSOR");
    Shape s;
    std::vector<double> d;
    std::string why;
    if (failed(readTensor(a->t(), s, d, why)))
      return nc.fail("attribute 'value': " + why);
    if (d.size() != 1)
      return nc.fail("attribute 'value' must hold one element");
    fill = d[0];
    type = a->t().data_type();
  }
  for (int64_t d : *shape)
    if (d < 0)
      return nc.fail("negative dim " + std::to_string(d));
  if (product(*shape) > (int64_t(1) << 26))
    return nc.fail("the shape is too large");
  OValue v = intConstant(*shape, std::vector<double>(product(*shape), fill),
                         nc.node.output(0));
  v.elemType = type;
  nc.setOutput(0, std::move(v));
  return success();
}

} // namespace

void fusecc::onnx_import::registerShapeConverters(
    llvm::StringMap<Converter> &t) {
  t["Constant"] = convertConstant;
  t["Shape"] = convertShape;
  t["Reshape"] = convertReshape;
  t["Flatten"] = convertFlatten;
  t["Unsqueeze"] = convertUnsqueeze;
  t["Squeeze"] = convertSqueeze;
  t["Gather"] = convertGather;
  t["Concat"] = convertConcat;
  t["Cast"] = convertCast;
  t["ConstantOfShape"] = convertConstantOfShape;
}
