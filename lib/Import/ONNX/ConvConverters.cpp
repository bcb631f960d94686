//===- ConvConverters.cpp - Conv, and Slice of a ConvTranspose ------------===//
//
// Conv (every attribute: kernel_shape, strides, dilations, group, pads,
// auto_pad) as `fuse.conv`; its ONNX pads become `padding` (begin) and
// `padding_end` (end, written only where they differ). Slice of spatial
// dims of a ConvTranspose output nothing else reads: the crop folded into
// the `fuse.conv_transpose` (as PyTorch's exporter writes `y[..., a:b]`).
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::onnx_import;
using llvm::StringRef;

namespace {

/// Largest kernel, stride, dilation or pad an attribute may give.
constexpr int64_t kMaxConvParam = int64_t(1) << 24;

LogicalResult convertConv(NodeContext &nc) {
  if (failed(nc.checkAttributes({"auto_pad", "dilations", "group",
                                 "kernel_shape", "pads", "strides"})))
    return failure();
  FailureOr<std::pair<Value, Value>> operands = nc.convOperands();
  if (failed(operands))
    return failure();
  Value x = operands->first, w = operands->second;
  auto shapeOf = [](Value v) {
    return Shape(cast<RankedTensorType>(v.getType()).getShape());
  };
  Shape xs = shapeOf(x), ws = shapeOf(w);
  int64_t rank = static_cast<int64_t>(xs.size());
  const size_t nsp = rank - 2;
  // An ints attribute with `count` values (default `dflt`), each in
  // [minValue, 2^24].
  auto list = [&](StringRef name, size_t count, int64_t dflt,
                  int64_t minValue) -> FailureOr<std::vector<int64_t>> {
    FailureOr<std::optional<std::vector<int64_t>>> v = nc.attrInts(name);
    if (failed(v))
      return failure();
    if (!*v)
      return std::vector<int64_t>(count, dflt);
    if ((*v)->size() != count)
      return nc.fail("attribute '" + name + "' has " +
                     std::to_string((*v)->size()) + " values, expected " +
                     std::to_string(count));
    for (int64_t e : **v)
      if (e < minValue || e > kMaxConvParam)
        return nc.fail("attribute '" + name + "' has value " +
                       std::to_string(e) + ", expected " +
                       std::to_string(minValue) + " to 16777216");
    return **v;
  };
  FailureOr<int64_t> group = nc.attrInt("group", 1);
  FailureOr<std::string> autoPad = nc.attrString("auto_pad", "NOTSET");
  FailureOr<std::vector<int64_t>> strides = list("strides", nsp, 1, 1);
  FailureOr<std::vector<int64_t>> dilations = list("dilations", nsp, 1, 1);
  FailureOr<std::vector<int64_t>> pads = list("pads", 2 * nsp, 0, 0);
  FailureOr<std::optional<std::vector<int64_t>>> kernel =
      nc.attrInts("kernel_shape");
  if (failed(group) || failed(autoPad) || failed(strides) ||
      failed(dilations) || failed(pads) || failed(kernel))
    return failure();
  if (*autoPad != "NOTSET" && *autoPad != "SAME_UPPER" &&
      *autoPad != "SAME_LOWER" && *autoPad != "VALID")
    return nc.fail("auto_pad '" + *autoPad +
                   "' is not NOTSET, SAME_UPPER, SAME_LOWER or VALID");
  int64_t cin = xs[1], cout = ws[0];
  if (*group < 1 || cin % *group != 0 || cout % *group != 0)
    return nc.fail("group " + std::to_string(*group) +
                   " must be positive and divide the " + std::to_string(cin) +
                   " input and " + std::to_string(cout) + " output channels");
  if (ws[1] != cin / *group)
    return nc.fail("weight " + shapeStr(ws) + " must have " +
                   std::to_string(cin / *group) +
                   " (the input channels per group) in dim 1");
  llvm::ArrayRef<int64_t> k = llvm::ArrayRef<int64_t>(ws).drop_front(2);
  if (*kernel && llvm::ArrayRef<int64_t>(**kernel) != k)
    return nc.fail("kernel_shape " + shapeStr(**kernel) +
                   " differs from the weight's spatial dims " + shapeStr(k));
  Shape resultShape{xs[0], cout};
  std::vector<int64_t> begin(nsp), end(nsp);
  bool asymmetric = false;
  for (size_t i = 0; i < nsp; ++i) {
    int64_t in = xs[2 + i], s = (*strides)[i], d = (*dilations)[i];
    int64_t reach = d * (k[i] - 1); // k, d <= 2^24: no overflow
    begin[i] = (*pads)[i];
    end[i] = (*pads)[i + nsp];
    if (*autoPad == "VALID") {
      begin[i] = end[i] = 0;
    } else if (*autoPad != "NOTSET") {
      // Output ceil(in / s); the total padding split evenly, the odd one
      // at the end (SAME_UPPER) or at the begin (SAME_LOWER).
      int64_t out = (in + s - 1) / s;
      int64_t total = std::max<int64_t>(0, (out - 1) * s + reach + 1 - in);
      begin[i] = *autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      end[i] = total - begin[i];
    }
    std::string dim = "spatial dim " + std::to_string(i) + ": ";
    if (begin[i] > reach)
      return nc.fail(
          dim + "begin padding " + std::to_string(begin[i]) +
          " exceeds dilation * (kernel - 1) = " + std::to_string(reach) +
          " (windows wholly in the padding are not supported)");
    int64_t span = in + begin[i] + end[i] - reach - 1;
    if (span < 0)
      return nc.fail(dim + "the kernel's extent " + std::to_string(reach + 1) +
                     " exceeds the padded input " +
                     std::to_string(in + begin[i] + end[i]));
    resultShape.push_back(span / s + 1);
    asymmetric |= begin[i] != end[i];
  }
  FailureOr<Value> bias = nc.optionalBias(2, cout);
  if (failed(bias))
    return failure();
  OpBuilder &b = nc.builder();
  auto conv = fuse::ConvOp::create(
      b, nc.loc, nc.f32Type(resultShape), x, w, *bias,
      b.getDenseI64ArrayAttr(*strides), b.getDenseI64ArrayAttr(begin),
      asymmetric ? b.getDenseI64ArrayAttr(end) : DenseI64ArrayAttr(),
      b.getDenseI64ArrayAttr(*dilations), b.getI64IntegerAttr(*group));
  OValue out;
  out.shape = resultShape;
  out.value = conv;
  nc.setOutput(0, std::move(out));
  return success();
}

/// Input `i` of a Slice (or, before opset 10, attribute `name`): integers,
/// with values past int64 (INT64_MAX ends, as exporters write an open end)
/// clamped. std::nullopt where the optional input or attribute is absent.
FailureOr<std::optional<std::vector<int64_t>>> sliceInts(NodeContext &nc, int i,
                                                         StringRef name) {
  if (nc.opset() < 10)
    return nc.attrInts(name);
  if (!nc.input(i))
    return std::optional<std::vector<int64_t>>();
  FailureOr<std::vector<int64_t>> ints = nc.constInts(i, name);
  if (failed(ints))
    return failure();
  return std::optional<std::vector<int64_t>>(std::move(*ints));
}

/// Slice of a ConvTranspose's output that nothing else reads, of spatial
/// dims with step 1: the same fuse.conv_transpose with the crop in it
/// (padding + the begin cut, output_padding - the end cut), so that its
/// kernel computes and stores only the positions kept. Any other Slice is
/// refused (there is no general slice op).
LogicalResult convertSlice(NodeContext &nc) {
  static const StringRef kAttributes[] = {"axes", "ends", "starts"};
  if (failed(nc.checkAttributes(nc.opset() < 10 ? ArrayRef(kAttributes)
                                                : ArrayRef<StringRef>())))
    return failure();
  FailureOr<const OValue *> xOr = nc.required(0);
  if (failed(xOr))
    return failure();
  const OValue &x = **xOr;
  auto conv = dyn_cast_or_null<fuse::ConvTransposeOp>(x.convOp);
  if (!conv || x.value != conv.getResult() ||
      nc.imp.useCount.lookup(nc.node.input(0)) != 1)
    return nc.fail("only a Slice of a ConvTranspose output that nothing "
                   "else reads is supported (a crop folded into the "
                   "transposed convolution)");
  auto starts = sliceInts(nc, 1, "starts"), ends = sliceInts(nc, 2, "ends"),
       axes = sliceInts(nc, 3, "axes"), steps = sliceInts(nc, 4, "steps");
  if (failed(starts) || failed(ends) || failed(axes) || failed(steps))
    return failure();
  if (!*starts || !*ends || (*starts)->size() != (*ends)->size())
    return nc.fail("starts and ends must be given, of one length");
  size_t count = (*starts)->size();
  int64_t rank = static_cast<int64_t>(x.shape.size());
  std::vector<int64_t> axisList(count);
  for (size_t j = 0; j < count; ++j)
    axisList[j] = *axes ? (**axes)[j < (*axes)->size() ? j : 0] : j;
  if ((*axes && (*axes)->size() != count) ||
      (*steps && (*steps)->size() != count))
    return nc.fail("axes and steps must have as many values as starts");
  Shape lo(rank, 0), hi(x.shape);
  std::vector<bool> seen(rank, false);
  for (size_t j = 0; j < count; ++j) {
    int64_t a = axisList[j] < 0 ? axisList[j] + rank : axisList[j];
    if (a < 0 || a >= rank || seen[a])
      return nc.fail("axis " + std::to_string(axisList[j]) +
                     " is out of range or repeated");
    seen[a] = true;
    if (*steps && (**steps)[j] != 1)
      return nc.fail("step " + std::to_string((**steps)[j]) +
                     ": only step 1 is supported");
    int64_t dim = x.shape[a];
    auto clampIndex = [&](int64_t v) {
      return std::clamp<int64_t>(v < 0 ? v + dim : v, 0, dim);
    };
    lo[a] = clampIndex((**starts)[j]);
    hi[a] = clampIndex((**ends)[j]);
    if (hi[a] <= lo[a])
      return nc.fail("axis " + std::to_string(a) + ": an empty slice");
    if (a < 2 && (lo[a] != 0 || hi[a] != dim))
      return nc.fail("a Slice of the batch or channel dim is not supported");
  }
  SmallVector<int64_t> padding(conv.getPadding()),
      outputPadding(conv.getOutputPadding());
  Shape shape(x.shape);
  for (int64_t a = 2; a < rank; ++a) {
    padding[a - 2] += lo[a];
    outputPadding[a - 2] += lo[a] - (x.shape[a] - hi[a]);
    shape[a] = hi[a] - lo[a];
  }
  OpBuilder &b = nc.builder();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(conv);
  auto cropped = fuse::ConvTransposeOp::create(
      b, conv.getLoc(),
      RankedTensorType::get(shape, conv.getType().getElementType()),
      conv.getInput(), conv.getWeight(), conv.getBias(), conv.getStrideAttr(),
      b.getDenseI64ArrayAttr(padding), b.getDenseI64ArrayAttr(outputPadding),
      conv.getDilationAttr(), conv.getGroupsAttr(),
      conv.getForwardWeightAttr());
  conv->erase();
  OValue &source = nc.imp.values[nc.node.input(0)];
  source.value = nullptr;
  source.convOp = nullptr;
  OValue out;
  out.shape = shape;
  out.value = cropped;
  out.convOp = cropped;
  out.convWeightName = x.convWeightName;
  out.convBiasName = x.convBiasName;
  nc.setOutput(0, std::move(out));
  return success();
}

} // namespace

void fusecc::onnx_import::registerConvConverters(
    llvm::StringMap<Converter> &t) {
  t["Conv"] = convertConv;
  t["Slice"] = convertSlice;
}
