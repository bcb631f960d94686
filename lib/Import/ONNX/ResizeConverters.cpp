//===- ResizeConverters.cpp - the ONNX Resize and Upsample converters -----===//
//
// Resize (opset 11 and later) and the deprecated Upsample as
// `fuse.upsample`, where the ONNX coordinate rule is one of PyTorch's
// F.interpolate: nearest with `asymmetric` coordinates and `floor` rounding
// (mode="nearest"), linear with `half_pixel` or `pytorch_half_pixel`
// (align_corners=False) or `align_corners` (align_corners=True). Any other
// rule is an error that names it. Scales given as scales keep them (PyTorch
// then scales coordinates by 1 / scale); sizes give the output directly.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"

#include <cmath>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::onnx_import;
using llvm::StringRef;

namespace {

/// What a resize converter found: the output shape and, where the node gave
/// scales, the spatial ones.
struct ResizeShape {
  Shape out;
  std::optional<std::vector<double>> scales;
};

/// The output of resizing `in` by `scales` (one per dim, N and C must be 1)
/// or to `sizes`; exactly one is non-empty.
FailureOr<ResizeShape> resizeShape(NodeContext &nc, const Shape &in,
                                   const std::vector<double> &scales,
                                   const std::vector<int64_t> &sizes) {
  const size_t rank = in.size();
  if (rank < 3 || rank > 5)
    return nc.fail("input rank " + std::to_string(rank) +
                   " is not supported (an [N, C, *spatial] input with 1 to 3 "
                   "spatial dims)");
  ResizeShape r;
  if (!scales.empty()) {
    if (scales.size() != rank)
      return nc.fail("scales has " + std::to_string(scales.size()) +
                     " values, expected " + std::to_string(rank));
    if (scales[0] != 1.0 || scales[1] != 1.0)
      return nc.fail("scales of N and C must be 1 (only spatial dims are "
                     "resized)");
    r.out = {in[0], in[1]};
    r.scales.emplace();
    for (size_t d = 2; d < rank; ++d) {
      double s = scales[d];
      double o = std::floor(static_cast<double>(in[d]) * s);
      if (!(s > 0.0) || !std::isfinite(s) || !(o >= 1.0) || o > 1e15)
        return nc.fail("scale " + std::to_string(s) + " of dim " +
                       std::to_string(d) +
                       " must be positive, finite and give a non-empty "
                       "output");
      r.out.push_back(static_cast<int64_t>(o));
      r.scales->push_back(s);
    }
    return r;
  }
  if (sizes.size() != rank)
    return nc.fail("sizes has " + std::to_string(sizes.size()) +
                   " values, expected " + std::to_string(rank));
  if (sizes[0] != in[0] || sizes[1] != in[1])
    return nc.fail("sizes must keep N and C (" + std::to_string(in[0]) + ", " +
                   std::to_string(in[1]) + ")");
  for (size_t d = 2; d < rank; ++d)
    if (sizes[d] < 1 || sizes[d] > (int64_t(1) << 40))
      return nc.fail("size " + std::to_string(sizes[d]) + " of dim " +
                     std::to_string(d) + " must be positive");
  r.out = sizes;
  return r;
}

/// Builds the fuse.upsample of input 0.
LogicalResult emitUpsample(NodeContext &nc, const ResizeShape &r, bool linear,
                           bool alignCorners) {
  FailureOr<Value> x = nc.tensor(0);
  if (failed(x))
    return failure();
  OpBuilder &b = nc.builder();
  auto op = fuse::UpsampleOp::create(
      b, nc.loc, nc.f32Type(r.out), *x, linear ? b.getUnitAttr() : UnitAttr(),
      alignCorners ? b.getUnitAttr() : UnitAttr(),
      r.scales ? b.getDenseF64ArrayAttr(*r.scales) : DenseF64ArrayAttr());
  nc.setResult(op.getResult());
  return success();
}

/// The float contents of optional input `i` (empty where omitted or empty).
FailureOr<std::vector<double>> optionalFloats(NodeContext &nc, int i,
                                              StringRef what) {
  if (i >= nc.numInputs() || !nc.input(i))
    return std::vector<double>();
  FailureOr<const OValue *> c = nc.constant(i, what);
  if (failed(c))
    return failure();
  return *(*c)->data;
}

LogicalResult convertResize(NodeContext &nc) {
  if (failed(nc.checkAttributes(
          {"mode", "coordinate_transformation_mode", "nearest_mode",
           "cubic_coeff_a", "exclude_outside", "extrapolation_value",
           "antialias", "axes", "keep_aspect_ratio_policy"})))
    return failure();
  if (nc.opset() < 11)
    return nc.fail("Resize before opset 11 is not supported (its coordinate "
                   "rule is not stated); export with opset 11 or later");
  FailureOr<std::string> mode = nc.attrString("mode", "nearest");
  FailureOr<std::string> ctm =
      nc.attrString("coordinate_transformation_mode", "half_pixel");
  FailureOr<std::string> nearestMode =
      nc.attrString("nearest_mode", "round_prefer_floor");
  FailureOr<int64_t> antialias = nc.attrInt("antialias", 0);
  FailureOr<std::optional<std::vector<int64_t>>> axes = nc.attrInts("axes");
  FailureOr<std::string> policy =
      nc.attrString("keep_aspect_ratio_policy", "stretch");
  if (failed(mode) || failed(ctm) || failed(nearestMode) || failed(antialias) ||
      failed(axes) || failed(policy))
    return failure();
  if (*axes)
    return nc.fail("the axes attribute is not supported (give scales or "
                   "sizes for every dim)");
  if (*policy != "stretch")
    return nc.fail("keep_aspect_ratio_policy '" + *policy +
                   "' is not supported (only stretch)");
  if (*antialias != 0)
    return nc.fail("antialias is not supported (F.interpolate's default has "
                   "none)");
  bool linear = *mode == "linear";
  if (!linear && *mode != "nearest")
    return nc.fail("mode '" + *mode +
                   "' is not supported (nearest and linear are)");
  bool align = false;
  if (!linear) {
    if (*ctm != "asymmetric" || *nearestMode != "floor")
      return nc.fail("nearest with coordinate_transformation_mode '" + *ctm +
                     "' and nearest_mode '" + *nearestMode +
                     "' is not PyTorch's nearest (asymmetric and floor)");
  } else if (*ctm == "align_corners") {
    align = true;
  } else if (*ctm != "half_pixel" && *ctm != "pytorch_half_pixel") {
    return nc.fail("linear with coordinate_transformation_mode '" + *ctm +
                   "' is not one of PyTorch's (half_pixel, "
                   "pytorch_half_pixel, align_corners)");
  }
  FailureOr<const OValue *> x = nc.required(0);
  if (failed(x))
    return failure();
  FailureOr<std::vector<double>> scales = optionalFloats(nc, 2, "scales");
  if (failed(scales))
    return failure();
  std::vector<int64_t> sizes;
  if (nc.numInputs() > 3 && nc.input(3)) {
    FailureOr<std::vector<int64_t>> s = nc.constInts(3, "sizes");
    if (failed(s))
      return failure();
    sizes = *s;
  }
  if (scales->empty() == sizes.empty())
    return nc.fail("expected exactly one of scales and sizes");
  FailureOr<ResizeShape> r = resizeShape(nc, (*x)->shape, *scales, sizes);
  if (failed(r))
    return failure();
  // pytorch_half_pixel reads position 0 for an output of size 1, PyTorch
  // (and half_pixel) the centre.
  if (*ctm == "pytorch_half_pixel")
    for (size_t d = 2; d < r->out.size(); ++d)
      if (r->out[d] == 1 && (*x)->shape[d] != 1)
        return nc.fail("pytorch_half_pixel with an output size of 1 reads "
                       "position 0, not PyTorch's interpolation");
  // align_corners by scales: ONNX aligns the corners of the unrounded
  // output length (in * scale), PyTorch those of the output size; the same
  // where that product is the output size (or the output has one element).
  if (align && r->scales)
    for (size_t d = 2; d < r->out.size(); ++d) {
      double exact = static_cast<double>((*x)->shape[d]) * (*r->scales)[d - 2];
      if (r->out[d] > 1 && exact != static_cast<double>(r->out[d]))
        return nc.fail(
            "align_corners with scale " + std::to_string((*r->scales)[d - 2]) +
            " of dim " + std::to_string(d) + ": ONNX aligns the corners of " +
            "the unrounded length " + std::to_string(exact) + ", PyTorch " +
            "those of the output size " + std::to_string(r->out[d]) +
            " (give sizes instead)");
    }
  return emitUpsample(nc, *r, linear, align);
}

/// Upsample (deprecated; opset 7 scales attribute, opset 9 scales input):
/// nearest as floor(x / scale).
LogicalResult convertUpsample(NodeContext &nc) {
  if (failed(nc.checkAttributes({"mode", "scales"})))
    return failure();
  FailureOr<std::string> mode = nc.attrString("mode", "nearest");
  if (failed(mode))
    return failure();
  if (*mode != "nearest")
    return nc.fail("Upsample mode '" + *mode +
                   "' is not supported (its linear mode uses asymmetric "
                   "coordinates, which F.interpolate has not)");
  std::vector<double> scales;
  if (const onnx::AttributeProto *a = nc.attr("scales")) {
    for (float s : a->floats())
      scales.push_back(s);
  } else {
    FailureOr<std::vector<double>> s = optionalFloats(nc, 1, "scales");
    if (failed(s))
      return failure();
    scales = *s;
  }
  if (scales.empty())
    return nc.fail("expected scales");
  FailureOr<const OValue *> x = nc.required(0);
  if (failed(x))
    return failure();
  FailureOr<ResizeShape> r = resizeShape(nc, (*x)->shape, scales, {});
  if (failed(r))
    return failure();
  return emitUpsample(nc, *r, /*linear=*/false, /*alignCorners=*/false);
}

} // namespace

void fusecc::onnx_import::registerResizeConverters(
    llvm::StringMap<Converter> &t) {
  t["Resize"] = convertResize;
  t["Upsample"] = convertUpsample;
}
