//===- ConvOp.cpp - the forward convolution (a composite op) --------------===//
//
// `fuse.conv`: its verifier, its decomposition into the stride-1 transposed
// convolution that is the same gather (`fuse.conv_transpose
// {forward_weight}`: taps reversed, the weight read in the forward layout,
// no copy), followed for a stride above 1 by a subsampling `fuse.max_pool`
// of kernel 1; its double-precision reference (a direct gather, not through
// the decomposition) and its bundle graph attributes.
//
//===----------------------------------------------------------------------===//

#include "SpatialVerify.h"

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"
#include "fusecc/Support/CheckedArithmetic.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

static std::string shapeText(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

static std::string joinText(ArrayRef<int64_t> v) {
  std::string s;
  for (auto [i, x] : llvm::enumerate(v))
    s += (i ? "," : "") + std::to_string(x);
  return s;
}

/// The forward convolution's output size along one spatial dim:
/// floor((in + begin + end - dilation * (k - 1) - 1) / stride) + 1, or
/// std::nullopt on overflow or when no window fits.
static std::optional<int64_t> convOutputSize(int64_t in, int64_t k,
                                             int64_t stride, int64_t begin,
                                             int64_t end, int64_t dilation) {
  std::optional<int64_t> span =
      (CheckedInt(in) + begin + end - CheckedInt(dilation) * (k - 1) - 1).get();
  if (!span || *span < 0)
    return std::nullopt;
  return *span / stride + 1;
}

LogicalResult ConvOp::verify() {
  auto inTy = getInput().getType();
  auto wTy = getWeight().getType();
  auto outTy = getResult().getType();
  if (failed(verifyConvRanks(*this, inTy, wTy, outTy,
                             "[Cout, Cin/groups, *kernel]")))
    return failure();
  int64_t nsp = inTy.getRank() - 2;
  auto checkArr = [&](StringRef name, ArrayRef<int64_t> a, int64_t minVal) {
    return verifySpatialArray(*this, name, a, nsp, minVal);
  };
  if (failed(checkArr("stride", getStride(), 1)) ||
      failed(checkArr("padding", getPadding(), 0)) ||
      (getPaddingEnd() &&
       failed(checkArr("padding_end", *getPaddingEnd(), 0))) ||
      failed(checkArr("dilation", getDilation(), 1)))
    return failure();
  if (llvm::is_contained(inTy.getShape(), 0) ||
      llvm::is_contained(wTy.getShape(), 0))
    return emitOpError("expected every input and weight dim to be positive "
                       "(empty tensors are not supported), got input shape ")
           << shapeText(inTy.getShape()) << " and weight shape "
           << shapeText(wTy.getShape());
  int64_t groups = getGroups(), cin = inTy.getDimSize(1),
          cout = wTy.getDimSize(0);
  if (groups < 1 || cin % groups != 0 || cout % groups != 0)
    return emitOpError("groups (")
           << groups << ") must be positive and divide the input channels ("
           << cin << ") and the output channels (" << cout << ")";
  if (wTy.getDimSize(1) != cin / groups)
    return emitOpError("weight dim 1 must equal the input channels per group (")
           << cin / groups << "), got weight shape "
           << shapeText(wTy.getShape());
  if (outTy.getDimSize(0) != inTy.getDimSize(0) || outTy.getDimSize(1) != cout)
    return emitOpError("expected result batch ")
           << inTy.getDimSize(0) << " and channels " << cout
           << " (weight dim 0), got result shape "
           << shapeText(outTy.getShape());
  if (Value bias = getBias()) {
    auto bTy = cast<RankedTensorType>(bias.getType());
    if (bTy.getRank() != 1 || bTy.getDimSize(0) != cout)
      return emitOpError("expected bias of shape [")
             << cout << "], got " << shapeText(bTy.getShape());
  }
  for (int64_t i = 0; i < nsp; ++i) {
    int64_t k = wTy.getDimSize(2 + i), s = getStride()[i], d = getDilation()[i],
            begin = getPadding()[i], end = getPaddingEndAt(i);
    std::optional<int64_t> reach = (CheckedInt(d) * (k - 1)).get();
    if (!reach)
      return emitOpError() << "dilation * (kernel - 1) overflows int64 along "
                              "spatial dim "
                           << i;
    // The stride-1 transposed form pads by reach - begin (non-negative)
    // and adds end - begin output positions (an end crop where negative).
    if (begin > *reach)
      return emitOpError() << "padding[" << i << "] = " << begin
                           << " exceeds dilation * (kernel - 1) = " << *reach
                           << " (a window wholly in the padding is not "
                              "supported)";
    std::optional<int64_t> expect =
        convOutputSize(inTy.getDimSize(2 + i), k, s, begin, end, d);
    if (!expect)
      return emitOpError() << "no window fits along spatial dim " << i
                           << " (in = " << inTy.getDimSize(2 + i)
                           << ", padding = " << begin << " + " << end
                           << ", dilation * (kernel - 1) = " << *reach << ")";
    if (outTy.getDimSize(2 + i) != *expect)
      return emitOpError() << "result spatial dim " << i << " is "
                           << outTy.getDimSize(2 + i) << ", expected "
                           << *expect
                           << " = floor((in + padding + padding_end - "
                              "dilation * (kernel - 1) - 1) / stride) + 1";
  }
  return success();
}

// The stride-1 transposed convolution with padding reach - begin and output
// padding end - begin computes y[o] = sum_k x[o - begin + k d] w[K-1-k]...
// with the taps reversed: exactly the forward gather at stride 1. A stride
// s keeps every s-th of those positions: a max_pool of kernel 1.
SmallVector<Value> ConvOp::decompose(OpBuilder &b) {
  Location loc = getLoc();
  auto inTy = getInput().getType();
  auto wTy = getWeight().getType();
  auto outTy = getResult().getType();
  int64_t nsp = getNumSpatialDims();
  SmallVector<int64_t> shape{outTy.getDimSize(0), outTy.getDimSize(1)};
  SmallVector<int64_t> pad, outPad, ones(nsp, 1), zeros(nsp, 0);
  bool strided = false;
  for (int64_t i = 0; i < nsp; ++i) {
    int64_t k = wTy.getDimSize(2 + i), d = getDilation()[i];
    int64_t begin = getPadding()[i], end = getPaddingEndAt(i);
    pad.push_back(d * (k - 1) - begin);
    outPad.push_back(end - begin);
    shape.push_back(inTy.getDimSize(2 + i) + begin + end - d * (k - 1));
    strided |= getStride()[i] != 1;
  }
  auto conv = ConvTransposeOp::create(
      b, loc, RankedTensorType::get(shape, outTy.getElementType()), getInput(),
      getWeight(), getBias(), b.getDenseI64ArrayAttr(ones),
      b.getDenseI64ArrayAttr(pad), b.getDenseI64ArrayAttr(outPad),
      getDilationAttr(), getGroupsAttr(), b.getUnitAttr());
  if (Attribute p = (*this)->getAttr(kConvPrecisionAttrName))
    conv->setAttr(kConvPrecisionAttrName, p);
  if (!strided)
    return {conv.getResult()};
  auto pool = MaxPoolOp::create(b, loc, outTy, conv.getResult(),
                                b.getDenseI64ArrayAttr(ones), getStrideAttr(),
                                b.getDenseI64ArrayAttr(zeros),
                                b.getBoolAttr(false), DenseI64ArrayAttr());
  return {pool.getResult()};
}

void ConvOp::evaluateReference(ArrayRef<ArrayRef<double>> operands,
                               ArrayRef<MutableArrayRef<double>> results) {
  ArrayRef<int64_t> xs = getInput().getType().getShape();
  ArrayRef<int64_t> ws = getWeight().getType().getShape();
  ArrayRef<int64_t> ys = getResult().getType().getShape();
  const int64_t nsp = getNumSpatialDims();
  ArrayRef<double> x = operands[0], w = operands[1];
  ArrayRef<double> bias = getBias() ? operands[2] : ArrayRef<double>();
  MutableArrayRef<double> y = results[0];
  // Normalised to 3 spatial dims (leading dims of size 1).
  int64_t in[3], k[3], out[3], s[3], p[3], d[3];
  for (int i = 0; i < 3; ++i) {
    int j = i - (3 - static_cast<int>(nsp));
    bool real = j >= 0;
    in[i] = real ? xs[2 + j] : 1;
    k[i] = real ? ws[2 + j] : 1;
    out[i] = real ? ys[2 + j] : 1;
    s[i] = real ? getStride()[j] : 1;
    p[i] = real ? getPadding()[j] : 0;
    d[i] = real ? getDilation()[j] : 1;
  }
  const int64_t batch = xs[0], cin = xs[1], cout = ws[0];
  const int64_t groups = getGroups(), cinG = cin / groups,
                coutG = cout / groups;
  const int64_t inPlane = in[0] * in[1] * in[2], taps = k[0] * k[1] * k[2];
  int64_t at = 0;
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t co = 0; co < cout; ++co) {
      int64_t g = co / coutG;
      for (int64_t o0 = 0; o0 < out[0]; ++o0)
        for (int64_t o1 = 0; o1 < out[1]; ++o1)
          for (int64_t o2 = 0; o2 < out[2]; ++o2) {
            double acc = bias.empty() ? 0.0 : bias[co];
            for (int64_t ci = 0; ci < cinG; ++ci) {
              const double *xp = x.data() + (n * cin + g * cinG + ci) * inPlane;
              const double *wp = w.data() + (co * cinG + ci) * taps;
              for (int64_t t0 = 0; t0 < k[0]; ++t0) {
                int64_t i0 = o0 * s[0] - p[0] + t0 * d[0];
                if (i0 < 0 || i0 >= in[0])
                  continue;
                for (int64_t t1 = 0; t1 < k[1]; ++t1) {
                  int64_t i1 = o1 * s[1] - p[1] + t1 * d[1];
                  if (i1 < 0 || i1 >= in[1])
                    continue;
                  for (int64_t t2 = 0; t2 < k[2]; ++t2) {
                    int64_t i2 = o2 * s[2] - p[2] + t2 * d[2];
                    if (i2 < 0 || i2 >= in[2])
                      continue;
                    acc += xp[(i0 * in[1] + i1) * in[2] + i2] *
                           wp[(t0 * k[1] + t1) * k[2] + t2];
                  }
                }
              }
            }
            y[at++] = acc;
          }
    }
}

FailureOr<std::string> ConvOp::getGraphAttributes() {
  std::string s =
      "stride=" + joinText(getStride()) + " padding=" + joinText(getPadding());
  if (getPaddingEnd())
    s += " padding_end=" + joinText(*getPaddingEnd());
  return s + " dilation=" + joinText(getDilation()) +
         " groups=" + std::to_string(getGroups());
}
