//===- NNConverters.cpp - ConvTranspose and normalisation converters ------===//
//
// ConvTranspose (every attribute; ONNX pads as a signed padding, a begin
// crop or bias-only leading positions, + a signed output_padding, an end
// crop), BatchNormalization at inference (folded into a directly preceding
// ConvTranspose, else a per-channel mul/add) and in training mode
// (fuse.batch_norm {training = true} with the running statistics), Softmax,
// LogSoftmax (fuse.log_softmax), LayerNormalization, and InstanceNormalization
// / GroupNormalization / the PyTorch GroupNorm export pattern (->
// fuse.group_norm).
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::onnx_import;
using llvm::StringRef;

namespace {

Shape shapeOf(Value v) {
  return Shape(cast<RankedTensorType>(v.getType()).getShape());
}

int64_t floorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

/// An ints attribute with one value per spatial dim (default `dflt`), each
/// at least `minValue`.
FailureOr<std::vector<int64_t>> spatialList(NodeContext &nc, StringRef name,
                                            size_t count, int64_t dflt,
                                            int64_t minValue) {
  FailureOr<std::optional<std::vector<int64_t>>> v = nc.attrInts(name);
  if (failed(v))
    return failure();
  if (!*v)
    return std::vector<int64_t>(count, dflt);
  if ((*v)->size() != count) {
    (void)nc.fail("attribute '" + name + "' has " +
                  std::to_string((*v)->size()) + " values, expected " +
                  std::to_string(count));
    return failure();
  }
  for (int64_t x : **v)
    if (x < minValue || x > (int64_t(1) << 24)) {
      (void)nc.fail("attribute '" + name + "' has value " + std::to_string(x) +
                    ", expected " + std::to_string(minValue) + " to 16777216");
      return failure();
    }
  return **v;
}

LogicalResult convertConvTranspose(NodeContext &nc) {
  if (failed(nc.checkAttributes({"auto_pad", "dilations", "group",
                                 "kernel_shape", "output_padding",
                                 "output_shape", "pads", "strides"})))
    return failure();
  FailureOr<std::pair<Value, Value>> operands = nc.convOperands();
  if (failed(operands))
    return failure();
  Value x = operands->first, w = operands->second;
  Shape xs = shapeOf(x), ws = shapeOf(w);
  int64_t rank = static_cast<int64_t>(xs.size());
  size_t nsp = rank - 2;
  FailureOr<int64_t> group = nc.attrInt("group", 1);
  FailureOr<std::string> autoPad = nc.attrString("auto_pad", "NOTSET");
  FailureOr<std::vector<int64_t>> strides =
      spatialList(nc, "strides", nsp, 1, 1);
  FailureOr<std::vector<int64_t>> dilations =
      spatialList(nc, "dilations", nsp, 1, 1);
  FailureOr<std::vector<int64_t>> outPad =
      spatialList(nc, "output_padding", nsp, 0, 0);
  FailureOr<std::vector<int64_t>> pads = spatialList(nc, "pads", 2 * nsp, 0, 0);
  FailureOr<std::optional<std::vector<int64_t>>> kernel =
      nc.attrInts("kernel_shape");
  FailureOr<std::optional<std::vector<int64_t>>> outShape =
      nc.attrInts("output_shape");
  if (failed(group) || failed(autoPad) || failed(strides) ||
      failed(dilations) || failed(outPad) || failed(pads) || failed(kernel) ||
      failed(outShape))
    return failure();
  if (*autoPad != "NOTSET" && *autoPad != "SAME_UPPER" &&
      *autoPad != "SAME_LOWER" && *autoPad != "VALID")
    return nc.fail("auto_pad '" + *autoPad +
                   "' is not NOTSET, SAME_UPPER, SAME_LOWER or VALID");
  int64_t cin = xs[1];
  if (*group < 1 || cin % *group)
    return nc.fail("group " + std::to_string(*group) +
                   " must be positive and divide the " + std::to_string(cin) +
                   " input channels");
  if (ws[0] != cin)
    return nc.fail("weight " + shapeStr(ws) + " must have " +
                   std::to_string(cin) + " (the input channels) in dim 0");
  llvm::ArrayRef<int64_t> k = llvm::ArrayRef<int64_t>(ws).drop_front(2);
  if (*kernel && llvm::ArrayRef<int64_t>(**kernel) != k)
    return nc.fail("kernel_shape " + shapeStr(**kernel) +
                   " differs from the weight's spatial dims " + shapeStr(k));
  std::vector<int64_t> wantOut;
  if (*outShape) {
    wantOut = **outShape;
    if (wantOut.size() == nsp + 2)
      wantOut.erase(wantOut.begin(), wantOut.begin() + 2);
    if (wantOut.size() != nsp)
      return nc.fail("output_shape has " + std::to_string(wantOut.size()) +
                     " values, expected " + std::to_string(nsp));
  }
  int64_t cout = ws[1] * *group;
  Shape resultShape{xs[0], cout};
  std::vector<int64_t> padding(nsp), outputPadding(nsp);
  bool upper = *autoPad == "SAME_UPPER";
  for (size_t i = 0; i < nsp; ++i) {
    int64_t in = xs[2 + i], s = (*strides)[i], d = (*dilations)[i];
    int64_t op = (*outPad)[i];
    int64_t full = s * (in - 1) + op + (k[i] - 1) * d + 1;
    int64_t begin = (*pads)[i], end = (*pads)[i + nsp];
    auto split = [&](int64_t total) {
      if (upper) {
        begin = floorDiv(total, 2);
        end = total - begin;
      } else {
        end = floorDiv(total, 2);
        begin = total - end;
      }
    };
    if (!wantOut.empty()) {
      if (wantOut[i] <= 0)
        return nc.fail("output_shape " + shapeStr(wantOut) +
                       " must be positive");
      split(full - wantOut[i]);
    } else if (*autoPad == "SAME_UPPER" || *autoPad == "SAME_LOWER") {
      split(full - in * s);
    } else if (*autoPad == "VALID") {
      begin = end = 0;
    }
    std::string dim = "spatial dim " + std::to_string(i) + ": ";
    // PyTorch padding `begin` crops the begin and, with it, the end; the
    // output_padding `op + begin - end` puts the end where the ONNX pads
    // put it: an end crop where negative (more padding at the end than at
    // the begin plus output_padding, SAME_UPPER at stride 1 with an even
    // kernel), any size otherwise (fuse.conv_transpose has no PyTorch rule
    // that it stays below the stride or the dilation). A negative `begin`
    // (an output_shape past the scatter's extent, SAME_* with a kernel
    // below the stride) is a negative padding: bias-only positions before
    // the scatter's first one.
    int64_t op2 = op + begin - end;
    int64_t out = full - begin - end;
    if (out <= 0)
      return nc.fail(dim + "the output size " + std::to_string(out) +
                     " is not positive");
    padding[i] = begin;
    outputPadding[i] = op2;
    resultShape.push_back(out);
  }
  FailureOr<Value> bias = nc.optionalBias(2, cout);
  if (failed(bias))
    return failure();
  OpBuilder &b = nc.builder();
  auto conv = fuse::ConvTransposeOp::create(
      b, nc.loc, nc.f32Type(resultShape), x, w, *bias,
      b.getDenseI64ArrayAttr(*strides), b.getDenseI64ArrayAttr(padding),
      b.getDenseI64ArrayAttr(outputPadding), b.getDenseI64ArrayAttr(*dilations),
      b.getI64IntegerAttr(*group), UnitAttr());
  OValue out;
  out.shape = resultShape;
  out.value = conv;
  out.convOp = conv;
  if (nc.input(1)->isConst())
    out.convWeightName = nc.node.input(1);
  if (nc.input(2))
    out.convBiasName = nc.node.input(2);
  nc.setOutput(0, std::move(out));
  return success();
}

/// Erases `v`'s defining arith.constant if unused and forgets it.
void dropConstant(NodeContext &nc, Value v, const std::string &name) {
  auto cst = v ? v.getDefiningOp<arith::ConstantOp>() : nullptr;
  if (!cst || !cst->use_empty())
    return;
  cst->erase();
  auto it = nc.imp.values.find(name);
  if (it != nc.imp.values.end() && it->second.value == v)
    it->second.value = nullptr;
}

/// Folds y = x * scale[c] + shift[c] into the ConvTranspose producing x.
LogicalResult foldIntoConv(NodeContext &nc, const OValue &x,
                           llvm::ArrayRef<double> scale,
                           llvm::ArrayRef<double> shift) {
  auto conv = cast<fuse::ConvTransposeOp>(x.convOp);
  const OValue &w = nc.imp.values.at(x.convWeightName);
  Shape ws = w.shape;
  int64_t groups = conv.getGroups(), cin = ws[0], coutG = ws[1];
  int64_t taps = w.numElements() / (cin * coutG), cinG = cin / groups;
  std::vector<double> nw(*w.data);
  for (int64_t ci = 0; ci < cin; ++ci)
    for (int64_t cg = 0; cg < coutG; ++cg) {
      double s = scale[(ci / cinG) * coutG + cg];
      for (int64_t t = 0; t < taps; ++t)
        nw[(ci * coutG + cg) * taps + t] *= s;
    }
  std::vector<double> nb(shift.begin(), shift.end());
  std::string biasName = x.convWeightName + ".bn_folded_bias";
  if (!x.convBiasName.empty()) {
    const OValue &b = nc.imp.values.at(x.convBiasName);
    for (size_t c = 0; c < nb.size(); ++c)
      nb[c] += (*b.data)[c] * scale[c];
    biasName = x.convBiasName + ".bn_folded";
  }
  OpBuilder &b = nc.builder();
  Value newW = nc.f32Constant(ws, nw, x.convWeightName + ".bn_folded");
  Value newB = nc.f32Constant({static_cast<int64_t>(nb.size())}, nb, biasName);
  auto folded = fuse::ConvTransposeOp::create(
      b, conv.getLoc(), conv.getType(), conv.getInput(), newW, newB,
      conv.getStrideAttr(), conv.getPaddingAttr(), conv.getOutputPaddingAttr(),
      conv.getDilationAttr(), conv.getGroupsAttr(),
      conv.getForwardWeightAttr());
  Value oldW = conv.getWeight(), oldB = conv.getBias();
  conv.getResult().replaceAllUsesWith(folded.getResult());
  conv->erase();
  dropConstant(nc, oldW, x.convWeightName);
  dropConstant(nc, oldB, x.convBiasName);
  nc.imp.values[nc.node.input(0)].value = folded;
  nc.imp.values[nc.node.input(0)].convOp = nullptr;
  OValue out;
  out.shape = x.shape;
  out.value = folded;
  out.convOp = folded;
  out.convWeightName = x.convWeightName;
  out.convBiasName = x.convBiasName;
  nc.setOutput(0, std::move(out));
  return success();
}

/// An f32 IR value for output `i` of the node.
void setValueOutput(NodeContext &nc, int i, Value v) {
  OValue o;
  o.shape = shapeOf(v);
  o.value = v;
  nc.setOutput(i, std::move(o));
}

/// BatchNormalization with training_mode = 1 (opset 14/15) as
/// fuse.batch_norm {training = true}. ONNX's momentum weighs the old running
/// statistics, PyTorch's (fuse's) the batch ones: fuse momentum = 1 -
/// momentum. ONNX updates the running variance with the biased batch
/// variance, fuse with the unbiased one (times n / (n - 1)): the op is given
/// input_var * n / (n - 1) and its result is scaled by (n - 1) / n, which is
/// ONNX's `input_var * momentum + var * (1 - momentum)`.
LogicalResult convertBatchNormTraining(NodeContext &nc, float eps) {
  FailureOr<float> momentum = nc.attrFloat("momentum", 0.9f);
  if (failed(momentum))
    return failure();
  if (!(*momentum >= 0.0f && *momentum <= 1.0f))
    return nc.fail("momentum " + std::to_string(*momentum) +
                   " is outside [0, 1]");
  if (!(eps >= 0.0f))
    return nc.fail("epsilon " + std::to_string(eps) + " is negative");
  if (nc.numInputs() != 5)
    return nc.fail("expected 5 inputs, got " + std::to_string(nc.numInputs()));
  FailureOr<Value> x = nc.tensor(0);
  if (failed(x))
    return failure();
  Shape xs = shapeOf(*x);
  int64_t rank = static_cast<int64_t>(xs.size());
  if (rank < 2 || rank > 5)
    return nc.fail("input " + shapeStr(xs) +
                   ": training mode takes [N, C] or [N, C, *spatial] with 1 "
                   "to 3 spatial dims (fuse.batch_norm)");
  int64_t c = xs[1], count = 1;
  for (int64_t d : xs)
    count *= d;
  if (c == 0 || count / c < 2)
    return nc.fail("input " + shapeStr(xs) +
                   ": training mode needs more than one value per channel "
                   "(N * spatial = " +
                   std::to_string(c ? count / c : 0) + ")");
  const char *names[] = {"scale", "B", "input_mean", "input_var"};
  Value params[4];
  for (int i = 0; i < 4; ++i) {
    FailureOr<Value> p = nc.tensor(i + 1);
    if (failed(p))
      return failure();
    if (shapeOf(*p) != Shape{c})
      return nc.fail(std::string(names[i]) + " " + shapeStr(shapeOf(*p)) +
                     " must be " + std::to_string(c) + " (the channels)");
    params[i] = *p;
  }
  auto used = [&](int i) {
    return i < nc.node.output_size() && !nc.node.output(i).empty() &&
           nc.imp.useCount.lookup(nc.node.output(i));
  };
  bool wantStats = used(1) || used(2);
  OpBuilder &b = nc.builder();
  std::string base =
      nc.node.name().empty() ? nc.node.output(0) : nc.node.name();
  double n = static_cast<double>(count / c);
  auto scaled = [&](Value v, double factor, StringRef name) -> Value {
    Value k = nc.f32Constant({}, {factor}, base + "." + name.str());
    return fuse::MulOp::create(b, nc.loc, v.getType(), v, k);
  };
  Value runningVar = params[3];
  if (used(2))
    runningVar = scaled(runningVar, n / (n - 1.0), "var_unbiased");
  // [N, C] is normalised as [N, C, 1].
  Value input = *x;
  if (rank == 2)
    input = fuse::ReshapeOp::create(b, nc.loc, nc.f32Type({xs[0], c, 1}), *x);
  SmallVector<Type> types{input.getType()};
  if (wantStats)
    types.append(2, nc.f32Type({c}));
  auto bn = fuse::BatchNormOp::create(
      b, nc.loc, types, input, params[2], runningVar, params[0], params[1],
      b.getBoolAttr(true), b.getF64FloatAttr(static_cast<double>(eps)),
      b.getF64FloatAttr(1.0 - static_cast<double>(*momentum)));
  Value y = bn.getResult();
  if (rank == 2)
    y = fuse::ReshapeOp::create(b, nc.loc, x->getType(), y);
  nc.setResult(y);
  if (used(1))
    setValueOutput(nc, 1, bn.getNewRunningStats()[0]);
  if (used(2))
    setValueOutput(nc, 2,
                   scaled(bn.getNewRunningStats()[1], (n - 1.0) / n,
                          "var_biased"));
  return success();
}

LogicalResult convertBatchNorm(NodeContext &nc) {
  if (failed(nc.checkAttributes({"epsilon", "momentum", "training_mode",
                                 "spatial", "is_test", "consumed_inputs"})))
    return failure();
  FailureOr<int64_t> training = nc.attrInt("training_mode", 0);
  FailureOr<int64_t> spatial = nc.attrInt("spatial", 1);
  FailureOr<float> eps = nc.attrFloat("epsilon", 1e-5f);
  if (failed(training) || failed(spatial) || failed(eps))
    return failure();
  if (*training)
    return convertBatchNormTraining(nc, *eps);
  if (!*spatial)
    return nc.fail("spatial = 0 is not supported");
  if (failed(nc.onlyOutputs(1, "running statistics exist in training mode "
                               "only")))
    return failure();
  if (nc.numInputs() != 5)
    return nc.fail("expected 5 inputs, got " + std::to_string(nc.numInputs()));
  FailureOr<const OValue *> x = nc.required(0);
  if (failed(x))
    return failure();
  if ((*x)->shape.size() < 2)
    return nc.fail("input " + shapeStr((*x)->shape) + " has no channel dim");
  int64_t c = (*x)->shape[1];
  const char *names[] = {"scale", "B", "input_mean", "input_var"};
  const OValue *params[4];
  for (int i = 0; i < 4; ++i) {
    FailureOr<const OValue *> p = nc.constant(i + 1, names[i]);
    if (failed(p))
      return failure();
    if ((*p)->shape != Shape{c})
      return nc.fail(std::string(names[i]) + " " + shapeStr((*p)->shape) +
                     " must be " + std::to_string(c) + " (the channels)");
    params[i] = *p;
  }
  std::vector<double> scale(c), shift(c);
  for (int64_t i = 0; i < c; ++i) {
    scale[i] = (*params[0]->data)[i] /
               std::sqrt((*params[3]->data)[i] + static_cast<double>(*eps));
    shift[i] = (*params[1]->data)[i] - (*params[2]->data)[i] * scale[i];
  }
  const OValue &xv = **x;
  if (xv.convOp && !xv.convWeightName.empty() &&
      nc.imp.useCount.lookup(nc.node.input(0)) == 1 &&
      !nc.imp.options.weightsAsArgs &&
      (xv.convBiasName.empty() || nc.imp.values.at(xv.convBiasName).isConst()))
    return foldIntoConv(nc, xv, scale, shift);
  FailureOr<Value> t = nc.tensor(0);
  if (failed(t))
    return failure();
  Shape bc(xv.shape.size() - 1, 1);
  bc[0] = c;
  std::string base =
      nc.node.name().empty() ? nc.node.output(0) : nc.node.name();
  Value s = nc.f32Constant(bc, scale, base + ".scale");
  Value h = nc.f32Constant(bc, shift, base + ".shift");
  OpBuilder &b = nc.builder();
  Value m = fuse::MulOp::create(b, nc.loc, t->getType(), *t, s);
  nc.setResult(fuse::AddOp::create(b, nc.loc, t->getType(), m, h));
  return success();
}

/// Input 0 of a node normalising along an axis (rank >= 1), its shape and
/// the node's `axis` normalised for it.
struct AxisInput {
  Value x;
  Shape shape;
  int64_t axis;
};

/// Input 0 and the node's `axis` (as read, failed if it could not be)
/// checked together (Softmax, LogSoftmax, LayerNormalization).
FailureOr<AxisInput> inputAlongAxis(NodeContext &nc, FailureOr<int64_t> axis) {
  FailureOr<Value> x = nc.tensor(0);
  if (failed(axis) || failed(x))
    return failure();
  Shape xs = shapeOf(*x);
  int64_t rank = static_cast<int64_t>(xs.size());
  if (rank == 0)
    return nc.fail("the input must have rank >= 1");
  FailureOr<int64_t> a = nc.normalizeAxis(*axis, rank, "axis");
  if (failed(a))
    return failure();
  return AxisInput{*x, std::move(xs), *a};
}

/// A Softmax or LogSoftmax's input and axis (default 1 before opset 13, -1
/// from 13).
FailureOr<AxisInput> softmaxInput(NodeContext &nc) {
  if (failed(nc.checkAttributes({"axis"})))
    return failure();
  return inputAlongAxis(nc, nc.attrInt("axis", nc.opset() < 13 ? 1 : -1));
}

/// Before opset 13 a Softmax or LogSoftmax normalises dims `axis`.. of
/// `xs` flattened: the one of them that is not 1 (the last if all are) and
/// how many are not 1 (more than one: they must be flattened).
std::pair<int64_t, int> coercedSoftmaxDim(const Shape &xs, int64_t axis) {
  const int64_t rank = static_cast<int64_t>(xs.size());
  int64_t dim = rank - 1;
  int nonUnit = 0;
  for (int64_t i = axis; i < rank; ++i)
    if (xs[i] != 1) {
      dim = i;
      ++nonUnit;
    }
  return {dim, nonUnit};
}

LogicalResult convertSoftmax(NodeContext &nc) {
  FailureOr<AxisInput> in = softmaxInput(nc);
  if (failed(in))
    return failure();
  int64_t dim = in->axis;
  if (nc.opset() < 13) {
    // Softmax over the dims axis.. flattened: one dim if the others are 1.
    auto [coerced, nonUnit] = coercedSoftmaxDim(in->shape, in->axis);
    if (nonUnit > 1)
      return nc.fail("opset " + std::to_string(nc.opset()) +
                     " Softmax normalises dims " + std::to_string(in->axis) +
                     ".. of " + shapeStr(in->shape) +
                     " together; fuse.softmax takes one dim");
    dim = coerced;
  }
  nc.setResult(fuse::SoftmaxOp::create(nc.builder(), nc.loc, in->x.getType(),
                                       in->x,
                                       nc.builder().getI64IntegerAttr(dim)));
  return success();
}

/// LogSoftmax. Opset 13 normalises one axis; older opsets coerce the input
/// to 2-D [prod(dims ..axis-1), prod(dims axis..)] and normalise the second
/// dim: one fuse.log_softmax dim when at most one of dims axis.. is not 1,
/// else fuse.reshape to dims ..axis-1 and their product, fuse.log_softmax
/// along it, and a fuse.reshape back.
LogicalResult convertLogSoftmax(NodeContext &nc) {
  FailureOr<AxisInput> in = softmaxInput(nc);
  if (failed(in))
    return failure();
  const Shape &xs = in->shape;
  const int64_t rank = static_cast<int64_t>(xs.size()), a = in->axis;
  Value x = in->x;
  for (int64_t d : xs)
    if (d == 0)
      return nc.fail("input " + shapeStr(xs) +
                     " is empty (empty tensors are not supported)");
  OpBuilder &b = nc.builder();
  auto logSoftmax = [&](Value v, int64_t dim) -> Value {
    return fuse::LogSoftmaxOp::create(b, nc.loc, v.getType(), v,
                                      b.getI64IntegerAttr(dim));
  };
  int64_t dim = a;
  bool flatten = false;
  if (nc.opset() < 13) {
    auto [coerced, nonUnit] = coercedSoftmaxDim(xs, a);
    dim = coerced;
    flatten = nonUnit > 1;
  }
  if (!flatten) {
    nc.setResult(logSoftmax(x, dim));
    return success();
  }
  Shape flat(xs.begin(), xs.begin() + a);
  int64_t inner = 1;
  for (int64_t i = a; i < rank; ++i)
    inner *= xs[i];
  flat.push_back(inner);
  Value r = fuse::ReshapeOp::create(b, nc.loc, nc.f32Type(flat), x);
  Value y = logSoftmax(r, a);
  nc.setResult(fuse::ReshapeOp::create(b, nc.loc, x.getType(), y));
  return success();
}

/// A LayerNormalization scale/bias of the normalised shape: the tensor
/// itself, or a constant broadcast to that shape.
FailureOr<Value> normParam(NodeContext &nc, int i,
                           llvm::ArrayRef<int64_t> norm) {
  const OValue *p = nc.input(i);
  if (p && p->shape != Shape(norm) && p->isConst() &&
      p->elemType == onnx::TensorProto::FLOAT) {
    FailureOr<Shape> bs = nc.broadcast(p->shape, norm);
    if (failed(bs))
      return failure();
    if (*bs != Shape(norm))
      return nc.fail("input " + std::to_string(i) + " " + shapeStr(p->shape) +
                     " does not broadcast to the normalised dims " +
                     shapeStr(norm));
    // Expand the constant to the normalised shape.
    int64_t n = 1;
    for (int64_t d : norm)
      n *= d;
    std::vector<double> data(n);
    size_t lead = norm.size() - p->shape.size();
    for (int64_t e = 0; e < n; ++e) {
      int64_t rem = e, off = 0, stride = 1;
      for (int64_t d = static_cast<int64_t>(norm.size()) - 1; d >= 0; --d) {
        int64_t idx = rem % norm[d];
        rem /= norm[d];
        if (d >= static_cast<int64_t>(lead)) {
          int64_t pd = p->shape[d - lead];
          off += (pd == 1 ? 0 : idx) * stride;
          stride *= pd;
        }
      }
      data[e] = (*p->data)[off];
    }
    return nc.f32Constant(norm, data, p->constName);
  }
  FailureOr<Value> v = nc.tensor(i);
  if (failed(v))
    return failure();
  if (shapeOf(*v) != Shape(norm))
    return nc.fail("input " + std::to_string(i) + " " + shapeStr(shapeOf(*v)) +
                   " must have the normalised shape " + shapeStr(norm));
  return v;
}

LogicalResult convertLayerNorm(NodeContext &nc) {
  if (failed(nc.checkAttributes({"axis", "epsilon", "stash_type"})))
    return failure();
  FailureOr<int64_t> axis = nc.attrInt("axis", -1);
  FailureOr<float> eps = nc.attrFloat("epsilon", 1e-5f);
  FailureOr<int64_t> stash = nc.attrInt("stash_type", 1);
  if (failed(axis) || failed(eps) || failed(stash))
    return failure();
  if (*stash != onnx::TensorProto::FLOAT)
    return nc.fail("stash_type " + std::to_string(*stash) +
                   " is not supported (1: float)");
  if (failed(nc.onlyOutputs(1, "the Mean and InvStdDev outputs are not "
                               "supported")))
    return failure();
  FailureOr<AxisInput> in = inputAlongAxis(nc, axis);
  if (failed(in))
    return failure();
  const Shape &xs = in->shape;
  const int64_t rank = static_cast<int64_t>(xs.size()), a = in->axis;
  Value x = in->x;
  llvm::ArrayRef<int64_t> norm = llvm::ArrayRef<int64_t>(xs).drop_front(a);
  FailureOr<Value> scale = normParam(nc, 1, norm);
  if (failed(scale))
    return failure();
  Value bias;
  if (nc.input(2)) {
    FailureOr<Value> bv = normParam(nc, 2, norm);
    if (failed(bv))
      return failure();
    bias = *bv;
  }
  OpBuilder &b = nc.builder();
  nc.setResult(fuse::LayerNormOp::create(
      b, nc.loc, x.getType(), x, *scale, bias, b.getI64IntegerAttr(rank - a),
      b.getF64FloatAttr(static_cast<double>(*eps))));
  return success();
}

/// fuse.group_norm(x) with `groups` groups; weight/bias may be null.
FailureOr<Value> buildGroupNorm(NodeContext &nc, Value x, int64_t groups,
                                double eps, Value weight, Value bias) {
  if (eps < 0.0) {
    (void)nc.fail("epsilon " + std::to_string(eps) + " is negative");
    return failure();
  }
  OpBuilder &b = nc.builder();
  return fuse::GroupNormOp::create(b, nc.loc, x.getType(), x, weight, bias,
                                   b.getI64IntegerAttr(groups),
                                   b.getF64FloatAttr(eps))
      .getResult();
}

/// InstanceNormalization as fuse.group_norm with one group per channel:
/// fuse.instance_norm decomposes to that same group_norm, but rejects inputs
/// the group_norm takes (one spatial element, more than 3 spatial dims), and
/// the GroupNorm export pattern needs the group_norm anyway.
LogicalResult convertInstanceNorm(NodeContext &nc) {
  if (failed(nc.checkAttributes({"epsilon"})))
    return failure();
  FailureOr<float> eps = nc.attrFloat("epsilon", 1e-5f);
  FailureOr<const OValue *> x = nc.required(0);
  if (failed(eps) || failed(x))
    return failure();
  if (nc.numInputs() != 3)
    return nc.fail("expected 3 inputs, got " + std::to_string(nc.numInputs()));
  const OValue &xv = **x;
  if (xv.shape.size() < 3)
    return nc.fail("input " + shapeStr(xv.shape) +
                   " needs a batch, a channel and a spatial dim");
  int64_t c = xv.shape[1];
  if (xv.isView()) {
    // PyTorch's GroupNorm export: x [N, C, *] viewed as [N, G, ...], then
    // InstanceNormalization with unit scale and zero bias.
    Shape src = shapeOf(xv.viewSource);
    if (src.size() < 3 || src[0] != xv.shape[0] || src[1] % c)
      return nc.fail("the input is a view " + shapeStr(xv.shape) + " of " +
                     shapeStr(src) +
                     " that is not the GroupNorm pattern "
                     "[N, C, *] -> [N, G, ...] with G dividing C");
    for (int i : {1, 2}) {
      FailureOr<const OValue *> p = nc.constant(i, i == 1 ? "scale" : "B");
      if (failed(p))
        return failure();
      for (double v : *(*p)->data)
        if (v != (i == 1 ? 1.0 : 0.0))
          return nc.fail("in the GroupNorm pattern the " +
                         std::string(i == 1 ? "scale must be all ones"
                                            : "bias must be all zeros") +
                         " (the affine part follows as Mul/Add)");
    }
    FailureOr<Value> y =
        buildGroupNorm(nc, xv.viewSource, c, *eps, Value(), Value());
    if (failed(y))
      return failure();
    OValue out;
    out.shape = xv.shape;
    out.viewSource = *y;
    out.viewNode = nc.describe();
    nc.setOutput(0, std::move(out));
    return success();
  }
  FailureOr<Value> t = nc.tensor(0);
  if (failed(t))
    return failure();
  FailureOr<Value> scale = nc.tensor(1);
  if (failed(scale))
    return failure();
  FailureOr<Value> bias = nc.tensor(2);
  if (failed(bias))
    return failure();
  for (Value p : {*scale, *bias})
    if (shapeOf(p) != Shape{c})
      return nc.fail("scale and B must be " + std::to_string(c) +
                     " (the channels), got " + shapeStr(shapeOf(p)));
  FailureOr<Value> y = buildGroupNorm(nc, *t, c, *eps, *scale, *bias);
  if (failed(y))
    return failure();
  nc.setResult(*y);
  return success();
}

LogicalResult convertGroupNorm(NodeContext &nc) {
  if (failed(nc.checkAttributes({"epsilon", "num_groups", "stash_type"})))
    return failure();
  FailureOr<float> eps = nc.attrFloat("epsilon", 1e-5f);
  FailureOr<int64_t> groups = nc.attrInt("num_groups", 0);
  FailureOr<Value> x = nc.tensor(0);
  if (failed(eps) || failed(groups) || failed(x))
    return failure();
  Shape xs = shapeOf(*x);
  if (xs.size() < 3)
    return nc.fail("input " + shapeStr(xs) +
                   " needs a batch, a channel and a spatial dim");
  int64_t c = xs[1];
  if (*groups < 1 || c % *groups)
    return nc.fail("num_groups " + std::to_string(*groups) +
                   " must be positive and divide the " + std::to_string(c) +
                   " channels");
  // Opset 18 gives scale and bias per group: expand constants per channel.
  Value params[2];
  for (int i : {1, 2}) {
    FailureOr<const OValue *> p = nc.required(i);
    if (failed(p))
      return failure();
    if ((*p)->shape == Shape{c}) {
      FailureOr<Value> v = nc.tensor(i);
      if (failed(v))
        return failure();
      params[i - 1] = *v;
      continue;
    }
    if ((*p)->shape != Shape{*groups} || !(*p)->isConst())
      return nc.fail("scale and bias must be constants of " +
                     std::to_string(*groups) + " (per group) or " +
                     std::to_string(c) + " (per channel) values, got " +
                     shapeStr((*p)->shape));
    std::vector<double> perChannel(c);
    for (int64_t ch = 0; ch < c; ++ch)
      perChannel[ch] = (*(*p)->data)[ch / (c / *groups)];
    params[i - 1] =
        nc.f32Constant({c}, perChannel, (*p)->constName + ".per_channel");
  }
  FailureOr<Value> y =
      buildGroupNorm(nc, *x, *groups, *eps, params[0], params[1]);
  if (failed(y))
    return failure();
  nc.setResult(*y);
  return success();
}

} // namespace

FailureOr<bool> fusecc::onnx_import::foldAffineIntoGroupNorm(NodeContext &nc,
                                                             bool isMul) {
  for (int xi : {0, 1}) {
    const OValue *x = nc.input(xi), *p = nc.input(1 - xi);
    if (!x || !p || x->isView() || !x->value || !p->isConst() ||
        p->elemType != onnx::TensorProto::FLOAT ||
        nc.imp.useCount.lookup(nc.node.input(xi)) != 1)
      continue;
    auto gn = x->value.getDefiningOp<fuse::GroupNormOp>();
    if (!gn || !gn->use_empty() || gn.getBias() || (isMul && gn.getWeight()))
      continue;
    // The constant must be per channel: [C, 1, ...] or [1, C, 1, ...].
    Shape xs = shapeOf(x->value);
    int64_t c = xs[1], rank = static_cast<int64_t>(xs.size());
    int64_t prank = static_cast<int64_t>(p->shape.size());
    if (prank > rank || prank < rank - 1 || p->numElements() != c)
      continue;
    int64_t channelDim = prank - (rank - 1);
    bool perChannel = true;
    for (int64_t d = 0; d < prank; ++d)
      if (p->shape[d] != (d == channelDim ? c : 1))
        perChannel = false;
    if (!perChannel)
      continue;
    // Set the weight (Mul) or the bias (Add, with a unit weight if none) in
    // place; the constants go before the group_norm.
    OpBuilder &b = nc.builder();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(gn);
    std::vector<double> values(*p->data);
    if (isMul) {
      gn.getWeightMutable().assign(nc.f32Constant({c}, values, p->constName));
    } else {
      if (!gn.getWeight())
        gn.getWeightMutable().assign(nc.f32Constant(
            {c}, std::vector<double>(c, 1.0), p->constName + ".unit_weight"));
      gn.getBiasMutable().assign(nc.f32Constant({c}, values, p->constName));
    }
    nc.setResult(gn.getResult());
    return true;
  }
  return false;
}

void fusecc::onnx_import::registerNNConverters(llvm::StringMap<Converter> &t) {
  t["ConvTranspose"] = convertConvTranspose;
  t["BatchNormalization"] = convertBatchNorm;
  t["Softmax"] = convertSoftmax;
  t["LogSoftmax"] = convertLogSoftmax;
  t["LayerNormalization"] = convertLayerNorm;
  t["InstanceNormalization"] = convertInstanceNorm;
  t["GroupNormalization"] = convertGroupNorm;
}
