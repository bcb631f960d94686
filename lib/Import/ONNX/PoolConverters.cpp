//===- PoolConverters.cpp - pooling ONNX converters -----------------------===//
//
// MaxPool, AveragePool, GlobalAveragePool and GlobalMaxPool as fuse's window
// ops (PyTorch's pooling). ONNX gives begin and end pads per spatial dim;
// PyTorch pads both sides alike, so a pair of pads is imported only where
// fuse's window (padding = the begin pad, ceil_mode on or off) yields exactly
// the same windows, output size and divisors; otherwise an error says why.
// LpPool and GlobalLpPool are exact compositions: the window sum of |x|^p
// (avg_pool with divisor_override = 1, or sum), then its p-th root.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"

#include <limits>
#include <type_traits>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::onnx_import;
using llvm::StringRef;

namespace {

/// Largest kernel, stride, dilation or pad accepted (keeps every window
/// computation far from int64 overflow).
constexpr int64_t kMaxWindowParam = int64_t(1) << 24;

int64_t floorDiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

int64_t ceilDiv(int64_t a, int64_t b) { return -floorDiv(-a, b); }

/// The output size of a fuse pooling op along one dim (PyTorch's
/// `pooling_output_shape`: with ceil_mode a last window that would start in
/// the right padding is dropped).
int64_t fuseOutputSize(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d,
                       bool ceil) {
  int64_t num = in + 2 * p - d * (k - 1) - 1 + (ceil ? s - 1 : 0);
  int64_t out = floorDiv(num, s) + 1;
  if (ceil && (out - 1) * s >= in + p)
    --out;
  return out;
}

/// The attributes of a MaxPool or AveragePool node, per spatial dim.
struct PoolAttrs {
  Shape kernel, strides, dilations, begin, end;
  bool ceil = false;
  bool countIncludePad = false;
  /// auto_pad SAME_*: the output size is ceil(in / stride).
  bool same = false;
};

/// Reads kernel_shape, strides, dilations, pads, auto_pad and ceil_mode for
/// an input of shape `in`; fills the pads auto_pad implies.
FailureOr<PoolAttrs> readPoolAttrs(NodeContext &nc, const Shape &in,
                                   bool isMax) {
  PoolAttrs a;
  FailureOr<std::optional<std::vector<int64_t>>> kernel =
      nc.attrInts("kernel_shape");
  if (failed(kernel))
    return failure();
  if (!*kernel)
    return nc.fail("attribute 'kernel_shape' is required");
  a.kernel = **kernel;
  int64_t sp = static_cast<int64_t>(a.kernel.size());
  if (sp < 1 || sp > 3)
    return nc.fail("kernel_shape has " + std::to_string(sp) +
                   " entries; fuse pools 1 to 3 spatial dims");
  if (static_cast<int64_t>(in.size()) != sp + 2)
    return nc.fail("input " + shapeStr(in) + " must have rank " +
                   std::to_string(sp + 2) + " ([N, C] and one dim per " +
                   "kernel_shape entry)");
  auto list = [&](StringRef name, Shape &out, size_t n,
                  int64_t dflt) -> LogicalResult {
    FailureOr<std::optional<std::vector<int64_t>>> v = nc.attrInts(name);
    if (failed(v))
      return failure();
    out = *v ? **v : Shape(n, dflt);
    if (out.size() != n)
      return nc.fail("attribute '" + name + "' has " +
                     std::to_string(out.size()) + " entries, expected " +
                     std::to_string(n));
    return success();
  };
  Shape pads;
  if (failed(list("strides", a.strides, sp, 1)) ||
      failed(list("dilations", a.dilations, sp, 1)) ||
      failed(list("pads", pads, 2 * sp, 0)))
    return failure();
  FailureOr<int64_t> ceil = nc.attrInt("ceil_mode", 0);
  FailureOr<std::string> autoPad = nc.attrString("auto_pad", "NOTSET");
  if (failed(ceil) || failed(autoPad))
    return failure();
  a.ceil = *ceil != 0;
  for (int64_t i = 0; i < sp; ++i) {
    auto bad = [&](StringRef what, int64_t v, int64_t lo) {
      return nc.fail("spatial dim " + std::to_string(i) + ": " + what + " " +
                     std::to_string(v) + " is out of range (expected " +
                     std::to_string(lo) + " to " +
                     std::to_string(kMaxWindowParam) + ")");
    };
    if (a.kernel[i] < 1 || a.kernel[i] > kMaxWindowParam)
      return bad("kernel", a.kernel[i], 1);
    if (a.strides[i] < 1 || a.strides[i] > kMaxWindowParam)
      return bad("stride", a.strides[i], 1);
    if (a.dilations[i] < 1 || a.dilations[i] > kMaxWindowParam)
      return bad("dilation", a.dilations[i], 1);
    if (pads[i] < 0 || pads[i] > kMaxWindowParam)
      return bad("begin pad", pads[i], 0);
    if (pads[i + sp] < 0 || pads[i + sp] > kMaxWindowParam)
      return bad("end pad", pads[i + sp], 0);
    if (!isMax && a.dilations[i] != 1)
      return nc.fail("dilations are only supported by MaxPool (fuse.avg_pool "
                     "has none)");
  }
  a.begin.assign(pads.begin(), pads.begin() + sp);
  a.end.assign(pads.begin() + sp, pads.end());
  if (*autoPad == "NOTSET")
    return a;
  if (nc.attr("pads"))
    return nc.fail("pads and auto_pad " + *autoPad + " are both given");
  if (*autoPad == "VALID") {
    a.begin.assign(sp, 0);
    a.end.assign(sp, 0);
    return a;
  }
  if (*autoPad != "SAME_UPPER" && *autoPad != "SAME_LOWER")
    return nc.fail("auto_pad '" + *autoPad +
                   "' is not one of NOTSET, VALID, SAME_UPPER, SAME_LOWER");
  a.same = true;
  for (int64_t i = 0; i < sp; ++i) {
    int64_t eff = a.dilations[i] * (a.kernel[i] - 1) + 1;
    int64_t out = ceilDiv(in[i + 2], a.strides[i]);
    int64_t total =
        std::max<int64_t>((out - 1) * a.strides[i] + eff - in[i + 2], 0);
    int64_t small = total / 2, large = total - small;
    a.begin[i] = *autoPad == "SAME_UPPER" ? small : large;
    a.end[i] = *autoPad == "SAME_UPPER" ? large : small;
  }
  return a;
}

/// Maps the ONNX window of every spatial dim to fuse's padding and
/// ceil_mode; fails naming the dim and the pads where no choice is exact.
/// `padIgnored`: padding never changes a result (max, a sum of |x|^p).
/// Returns the output shape.
FailureOr<Shape> mapPads(NodeContext &nc, const Shape &in, const PoolAttrs &a,
                         bool padIgnored, Shape &padding, bool &fuseCeil) {
  int64_t sp = static_cast<int64_t>(a.kernel.size());
  Shape outShape{in[0], in[1]};
  padding = a.begin;
  std::optional<bool> chosen;
  for (int64_t i = 0; i < sp; ++i) {
    int64_t n = in[i + 2], k = a.kernel[i], s = a.strides[i],
            d = a.dilations[i], b = a.begin[i], e = a.end[i];
    int64_t eff = d * (k - 1) + 1;
    int64_t num = n + b + e - eff;
    int64_t onnxOut =
        a.same ? ceilDiv(n, s)
               : (a.ceil ? ceilDiv(num, s) : floorDiv(num, s)) + 1;
    std::string where = "spatial dim " + std::to_string(i) + ": pads " +
                        std::to_string(b) + " (begin) and " +
                        std::to_string(e) + " (end)";
    if (onnxOut < 1)
      return nc.fail(where + ": the window (" + std::to_string(eff) +
                     " with dilation) does not fit in the input size " +
                     std::to_string(n));
    // PyTorch pads at most half the kernel (fuse: the dilated kernel).
    if (b > k / 2)
      return nc.fail(where + ": PyTorch pads at most half the kernel (" +
                     std::to_string(k / 2) + "); the begin pad cannot be " +
                     "expressed");
    // Does fuse with padding b and ceil mode `c` give ONNX's windows?
    auto exact = [&](bool c) {
      if (fuseOutputSize(n, k, s, b, d, c) != onnxOut)
        return false;
      if (padIgnored || !a.countIncludePad)
        return true; // Same starts; padding never counts.
      // Divisors counting padding: ONNX clips a window to [-b, n + e),
      // fuse to [-b, n + b).
      for (int64_t o = 0; o < onnxOut; ++o) {
        int64_t start = o * s - b;
        if (std::min(start + k, n + e) != std::min(start + k, n + b))
          return false;
      }
      return true;
    };
    bool ok = false;
    for (bool c : {a.ceil, !a.ceil}) {
      if ((chosen && *chosen != c) || !exact(c))
        continue;
      chosen = c;
      ok = true;
      break;
    }
    if (!ok)
      return nc.fail(
          where + (a.ceil ? " with ceil_mode" : "") + " give " +
          std::to_string(onnxOut) +
          " windows that PyTorch's symmetric padding cannot express " +
          "(padding " + std::to_string(b) + " gives " +
          std::to_string(fuseOutputSize(n, k, s, b, d, false)) +
          " (floor) or " +
          std::to_string(fuseOutputSize(n, k, s, b, d, true)) + " (ceil)" +
          (padIgnored || !a.countIncludePad
               ? ""
               : " or other divisors counting padding") +
          (chosen ? ", with the ceil_mode another dim needs" : "") + ")");
    outShape.push_back(onnxOut);
  }
  fuseCeil = chosen.value_or(a.ceil);
  return outShape;
}

enum class PoolKind { Max, Avg, Lp };

/// LpPool's and GlobalLpPool's `p` (at least 1).
FailureOr<int64_t> lpOrder(NodeContext &nc) {
  FailureOr<int64_t> p = nc.attrInt("p", 2);
  if (failed(p))
    return failure();
  if (*p < 1 || *p > 64)
    return nc.fail("p " + std::to_string(*p) + " is out of range (1 to 64)");
  return p;
}

/// |x|^p: |x|, x * x or pow(|x|, p).
Value lpPower(NodeContext &nc, Value x, int64_t p) {
  OpBuilder &b = nc.builder();
  if (p == 2)
    return fuse::MulOp::create(b, nc.loc, x.getType(), x, x);
  Value a = fuse::AbsOp::create(b, nc.loc, x.getType(), x);
  if (p == 1)
    return a;
  return fuse::PowOp::create(b, nc.loc, a.getType(), a,
                             nc.f32Constant({}, {static_cast<double>(p)},
                                            nc.node.output(0) + ".p"));
}

/// The p-th root of a sum: s, sqrt(s) or pow(s, 1 / p).
Value lpRoot(NodeContext &nc, Value s, int64_t p) {
  OpBuilder &b = nc.builder();
  if (p == 1)
    return s;
  if (p == 2)
    return fuse::SqrtOp::create(b, nc.loc, s.getType(), s);
  return fuse::PowOp::create(b, nc.loc, s.getType(), s,
                             nc.f32Constant({}, {1.0 / static_cast<double>(p)},
                                            nc.node.output(0) + ".root"));
}

/// MaxPool, AveragePool and LpPool.
template <PoolKind kind> LogicalResult convertPool(NodeContext &nc) {
  constexpr bool isMax = kind == PoolKind::Max;
  if (isMax) {
    if (failed(nc.checkAttributes({"kernel_shape", "strides", "pads",
                                   "auto_pad", "dilations", "ceil_mode",
                                   "storage_order"})))
      return failure();
    if (failed(nc.onlyOutputs(1, "the Indices output of MaxPool is not "
                                 "supported (fuse.max_pool has no argmax)")))
      return failure();
    FailureOr<int64_t> order = nc.attrInt("storage_order", 0);
    if (failed(order))
      return failure();
    if (*order != 0)
      return nc.fail("storage_order " + std::to_string(*order) +
                     " is not supported (only 0, row major)");
  } else if (failed(nc.checkAttributes(
                 kind == PoolKind::Avg
                     ? llvm::ArrayRef<StringRef>{"kernel_shape", "strides",
                                                 "pads", "auto_pad",
                                                 "ceil_mode",
                                                 "count_include_pad"}
                     : llvm::ArrayRef<StringRef>{"kernel_shape", "strides",
                                                 "pads", "auto_pad",
                                                 "ceil_mode", "dilations",
                                                 "p"}))) {
    return failure();
  }
  FailureOr<Value> x = nc.tensor(0);
  if (failed(x))
    return failure();
  Shape in(cast<RankedTensorType>(x->getType()).getShape());
  FailureOr<PoolAttrs> a = readPoolAttrs(nc, in, isMax);
  if (failed(a))
    return failure();
  FailureOr<int64_t> p = kind == PoolKind::Lp ? lpOrder(nc) : 1;
  if (failed(p))
    return failure();
  if (kind == PoolKind::Avg) {
    FailureOr<int64_t> cip = nc.attrInt("count_include_pad", 0);
    if (failed(cip))
      return failure();
    a->countIncludePad = *cip != 0;
  }
  Shape padding;
  bool ceil = false;
  FailureOr<Shape> out =
      mapPads(nc, in, *a, kind != PoolKind::Avg, padding, ceil);
  if (failed(out))
    return failure();
  OpBuilder &b = nc.builder();
  Value r;
  if (isMax) {
    bool dilated = llvm::any_of(a->dilations, [](int64_t d) { return d != 1; });
    r = fuse::MaxPoolOp::create(
        b, nc.loc, nc.f32Type(*out), *x, a->kernel, a->strides, padding, ceil,
        dilated ? b.getDenseI64ArrayAttr(a->dilations) : DenseI64ArrayAttr());
  } else if (kind == PoolKind::Avg) {
    r = fuse::AvgPoolOp::create(b, nc.loc, nc.f32Type(*out), *x, a->kernel,
                                a->strides, padding, ceil, a->countIncludePad,
                                IntegerAttr());
  } else {
    // The window sum of |x|^p: padding adds zeros, divisor_override 1.
    r = fuse::AvgPoolOp::create(b, nc.loc, nc.f32Type(*out),
                                lpPower(nc, *x, *p), a->kernel, a->strides,
                                padding, ceil, /*count_include_pad=*/true,
                                b.getI64IntegerAttr(1));
    r = lpRoot(nc, r, *p);
  }
  nc.setResult(r);
  return success();
}

/// GlobalAveragePool, GlobalMaxPool: adaptive pooling to size 1;
/// GlobalLpPool (`OpTy` = fuse::SumOp): the root of sum(|x|^p) over the
/// spatial dims.
template <typename OpTy> LogicalResult convertGlobalPool(NodeContext &nc) {
  constexpr bool isLp = std::is_same_v<OpTy, fuse::SumOp>;
  if (failed(nc.checkAttributes(isLp ? llvm::ArrayRef<StringRef>{"p"}
                                     : llvm::ArrayRef<StringRef>{})))
    return failure();
  FailureOr<int64_t> p = isLp ? lpOrder(nc) : 1;
  if (failed(p))
    return failure();
  FailureOr<Value> x = nc.tensor(0);
  if (failed(x))
    return failure();
  Shape in(cast<RankedTensorType>(x->getType()).getShape());
  if (in.size() < 3 || in.size() > 5)
    return nc.fail("input " + shapeStr(in) +
                   " must be [N, C, *spatial] with 1 to 3 spatial dims");
  for (size_t i = 2; i < in.size(); ++i)
    if (in[i] < 1)
      return nc.fail("input " + shapeStr(in) + " has an empty spatial dim");
  Shape out{in[0], in[1]};
  out.resize(in.size(), 1);
  if constexpr (isLp) {
    Shape dims;
    for (int64_t i = 2; i < static_cast<int64_t>(in.size()); ++i)
      dims.push_back(i);
    Value s = fuse::SumOp::create(nc.builder(), nc.loc, nc.f32Type(out),
                                  lpPower(nc, *x, *p), dims, true);
    nc.setResult(lpRoot(nc, s, *p));
  } else {
    nc.setResult(OpTy::create(nc.builder(), nc.loc, nc.f32Type(out), *x));
  }
  return success();
}

} // namespace

void fusecc::onnx_import::registerPoolConverters(
    llvm::StringMap<Converter> &t) {
  t["MaxPool"] = convertPool<PoolKind::Max>;
  t["AveragePool"] = convertPool<PoolKind::Avg>;
  t["LpPool"] = convertPool<PoolKind::Lp>;
  t["GlobalAveragePool"] = convertGlobalPool<fuse::AdaptiveAvgPoolOp>;
  t["GlobalMaxPool"] = convertGlobalPool<fuse::AdaptiveMaxPoolOp>;
  t["GlobalLpPool"] = convertGlobalPool<fuse::SumOp>;
}
