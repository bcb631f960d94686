//===- ConvConverters.cpp - the ONNX Conv converter -----------------------===//
//
// Conv (every attribute: kernel_shape, strides, dilations, group, pads,
// auto_pad) as `fuse.conv`; its ONNX pads become `padding` (begin) and
// `padding_end` (end, written only where they differ).
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"

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
    if (end[i] < begin[i])
      return nc.fail(dim + "pads " + std::to_string(begin[i]) +
                     " (begin) and " + std::to_string(end[i]) +
                     " (end): more padding at the begin than at the end is "
                     "not supported");
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

} // namespace

void fusecc::onnx_import::registerConvConverters(
    llvm::StringMap<Converter> &t) {
  t["Conv"] = convertConv;
}
