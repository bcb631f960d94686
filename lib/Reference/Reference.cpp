//===- Reference.cpp - double-precision interpreter of fuse graphs --------===//
//
// See Reference.h. Deliberately independent from the kernel generator: the
// convolution is the scatter form of SEMANTICS.md, not the gather/phase form
// of the kernels.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Reference/Reference.h"

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"
#include "fusecc/Reference/Compare.h"
#include "fusecc/Support/CheckedArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"

#include <cmath>
#include <limits>
#include <memory>
#include <optional>

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;
using fusecc::ref::Tensor;

namespace {

std::vector<int64_t> shapeOf(Value v) {
  auto ty = cast<RankedTensorType>(v.getType());
  return std::vector<int64_t>(ty.getShape().begin(), ty.getShape().end());
}

/// Row-major strides of `shape`.
std::vector<int64_t> stridesOf(const std::vector<int64_t> &shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    s[i] = s[i + 1] * shape[i + 1];
  return s;
}

/// Strides to read `opShape` broadcast (NumPy rules) to `outShape`: 0 for
/// stretched dims and the leading dims the operand lacks.
std::vector<int64_t> broadcastStrides(const std::vector<int64_t> &opShape,
                                      const std::vector<int64_t> &outShape) {
  std::vector<int64_t> own = stridesOf(opShape);
  std::vector<int64_t> s(outShape.size(), 0);
  size_t lead = outShape.size() - opShape.size();
  for (size_t i = 0; i < opShape.size(); ++i)
    s[lead + i] = opShape[i] == 1 ? 0 : own[i];
  return s;
}

Tensor elementwise(Operation *op, ElementwiseOpInterface ew,
                   ArrayRef<const Tensor *> operands) {
  Tensor out(shapeOf(op->getResult(0)));
  const std::vector<int64_t> &shape = out.shape;
  size_t rank = shape.size();
  std::vector<std::vector<int64_t>> strides;
  for (const Tensor *t : operands)
    strides.push_back(broadcastStrides(t->shape, shape));
  std::vector<int64_t> idx(rank, 0);
  SmallVector<double, 4> args(operands.size());
  for (int64_t e = 0; e < out.size(); ++e) {
    for (size_t k = 0; k < operands.size(); ++k) {
      int64_t off = 0;
      for (size_t d = 0; d < rank; ++d)
        off += idx[d] * strides[k][d];
      args[k] = operands[k]->data[off];
    }
    out.data[e] = ew.evaluate(args);
    for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 0; --d) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
  return out;
}

FailureOr<Tensor> constant(arith::ConstantOp cst) {
  auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
  auto ty = dyn_cast<RankedTensorType>(cst.getType());
  if (!dense || !ty ||
      !isa<Float32Type, BFloat16Type, Float16Type>(ty.getElementType()))
    return cst.emitOpError("reference: only dense f32, bf16 or f16 tensor "
                           "constants are supported");
  Tensor t(std::vector<int64_t>(ty.getShape().begin(), ty.getShape().end()));
  int64_t i = 0;
  for (APFloat v : dense.getValues<APFloat>())
    t.data[i++] = v.convertToDouble();
  return t;
}

FailureOr<std::vector<Tensor>> evalBlock(Block &block, ArrayRef<Tensor> args);

} // namespace

Tensor ref::convTransposeScatter(const Tensor &x, const Tensor &w,
                                 const Tensor *bias, ArrayRef<int64_t> stride,
                                 ArrayRef<int64_t> padding,
                                 ArrayRef<int64_t> outputPadding,
                                 ArrayRef<int64_t> dilation, int64_t groups) {
  const int64_t nsp = static_cast<int64_t>(x.shape.size()) - 2;
  // Shapes the verifier would reject: no result rather than an access out
  // of bounds.
  auto consistent = [&] {
    if (nsp < 1 || nsp > 3 || w.shape.size() != x.shape.size() ||
        static_cast<int64_t>(stride.size()) != nsp ||
        static_cast<int64_t>(padding.size()) != nsp ||
        static_cast<int64_t>(outputPadding.size()) != nsp ||
        static_cast<int64_t>(dilation.size()) != nsp || groups < 1 ||
        x.shape[1] % groups != 0 || w.shape[0] != x.shape[1] ||
        (bias && (bias->shape.size() != 1 || !checkedMul(w.shape[1], groups) ||
                  bias->shape[0] != w.shape[1] * groups)))
      return false;
    for (const Tensor *t : {&x, &w, bias})
      if (t && (!tensorBytes(t->shape, 8) ||
                Tensor::numElements(t->shape) != t->size()))
        return false;
    for (int64_t j = 0; j < nsp; ++j) {
      std::optional<int64_t> o = fuse::convTransposeOutputSize(
          x.shape[2 + j], w.shape[2 + j], stride[j], padding[j],
          outputPadding[j], dilation[j]);
      if (!o || *o < 1 || stride[j] < 1 || dilation[j] < 1)
        return false;
    }
    std::vector<int64_t> outShape(x.shape);
    outShape[1] = w.shape[1] * groups;
    return tensorBytes(outShape, 8).has_value();
  };
  if (!consistent())
    return Tensor();
  const int64_t N = x.shape[0], cin = x.shape[1];
  const int64_t coutG = w.shape[1], cout = coutG * groups,
                cinG = cin / groups;
  // Normalise to 3 spatial dims (leading dims of size 1).
  int64_t in[3], k[3], out[3], s[3], p[3], d[3];
  for (int i = 0; i < 3; ++i) {
    int j = i - (3 - static_cast<int>(nsp));
    bool real = j >= 0;
    in[i] = real ? x.shape[2 + j] : 1;
    k[i] = real ? w.shape[2 + j] : 1;
    s[i] = real ? stride[j] : 1;
    p[i] = real ? padding[j] : 0;
    d[i] = real ? dilation[j] : 1;
    int64_t op = real ? outputPadding[j] : 0;
    out[i] = *fuse::convTransposeOutputSize(in[i], k[i], s[i], p[i], op, d[i]);
  }
  std::vector<int64_t> outShape{N, cout};
  for (int i = 3 - static_cast<int>(nsp); i < 3; ++i)
    outShape.push_back(out[i]);
  Tensor y(outShape);
  const int64_t inSp = in[0] * in[1] * in[2], kSp = k[0] * k[1] * k[2],
                outSp = out[0] * out[1] * out[2];
  for (int64_t n = 0; n < N; ++n)
    for (int64_t ci = 0; ci < cin; ++ci) {
      int64_t g = ci / cinG;
      for (int64_t i0 = 0; i0 < in[0]; ++i0)
        for (int64_t i1 = 0; i1 < in[1]; ++i1)
          for (int64_t i2 = 0; i2 < in[2]; ++i2) {
            double xv = x.data[(n * cin + ci) * inSp +
                               (i0 * in[1] + i1) * in[2] + i2];
            for (int64_t t0 = 0; t0 < k[0]; ++t0) {
              int64_t o0 = i0 * s[0] - p[0] + t0 * d[0];
              if (o0 < 0 || o0 >= out[0])
                continue;
              for (int64_t t1 = 0; t1 < k[1]; ++t1) {
                int64_t o1 = i1 * s[1] - p[1] + t1 * d[1];
                if (o1 < 0 || o1 >= out[1])
                  continue;
                for (int64_t t2 = 0; t2 < k[2]; ++t2) {
                  int64_t o2 = i2 * s[2] - p[2] + t2 * d[2];
                  if (o2 < 0 || o2 >= out[2])
                    continue;
                  int64_t tap = (t0 * k[1] + t1) * k[2] + t2;
                  int64_t o = (o0 * out[1] + o1) * out[2] + o2;
                  for (int64_t cg = 0; cg < coutG; ++cg) {
                    double wv = w.data[(ci * coutG + cg) * kSp + tap];
                    y.data[(n * cout + g * coutG + cg) * outSp + o] += xv * wv;
                  }
                }
              }
            }
          }
    }
  if (bias)
    for (int64_t n = 0; n < N; ++n)
      for (int64_t co = 0; co < cout; ++co)
        for (int64_t o = 0; o < outSp; ++o)
          y.data[(n * cout + co) * outSp + o] += bias->data[co];
  return y;
}

LogicalResult ref::checkSimulatable(func::FuncOp func, int64_t maxElements,
                                    int64_t maxMacs) {
  int64_t total = 0;
  auto count = [&](Value v, Location loc) -> LogicalResult {
    auto ty = dyn_cast<RankedTensorType>(v.getType());
    if (!ty)
      return success();
    std::optional<int64_t> n =
        ty.hasStaticShape() ? checkedProduct(ty.getShape()) : std::nullopt;
    std::optional<int64_t> sum = n ? checkedAdd(total, *n) : std::nullopt;
    if (!sum || *sum > maxElements)
      return emitError(loc)
             << "reference: graph too large to simulate: "
                "its tensors up to this "
             << ty << " hold more than " << maxElements << " elements";
    total = *sum;
    return success();
  };
  for (BlockArgument arg : func.getArguments()) {
    auto ty = dyn_cast<RankedTensorType>(arg.getType());
    if (!ty || !ty.hasStaticShape() ||
        !isa<Float32Type, BFloat16Type, Float16Type>(ty.getElementType()))
      return emitError(arg.getLoc())
             << "reference: expected a statically shaped f32, bf16 or f16 "
                "tensor argument, got "
             << arg.getType();
    if (failed(count(arg, arg.getLoc())))
      return failure();
  }
  WalkResult r = func.walk([&](Operation *op) {
    for (Value v : op->getResults())
      if (failed(count(v, op->getLoc())))
        return WalkResult::interrupt();
    if (auto window = dyn_cast<WindowOpInterface>(op)) {
      // One window per result element.
      auto ty = cast<RankedTensorType>(op->getResult(0).getType());
      std::optional<int64_t> work = checkedMul(
          checkedProduct(ty.getShape()).value_or(INT64_MAX),
          window.getWindowVolume());
      if (!work || *work > maxMacs) {
        op->emitOpError("reference: graph too large to simulate: its "
                        "windows read more than ")
            << maxMacs << " elements";
        return WalkResult::interrupt();
      }
    }
    auto conv = dyn_cast<ConvTransposeOp>(op);
    if (!conv)
      return WalkResult::advance();
    // Scatter loop: every input element times every tap and channel of its
    // group.
    auto inTy = conv.getInput().getType();
    auto wTy = conv.getWeight().getType();
    std::optional<int64_t> macs = checkedProduct(inTy.getShape());
    for (int64_t d = 1; d < wTy.getRank() && macs; ++d)
      macs = checkedMul(*macs, wTy.getDimSize(d));
    if (!macs || *macs > maxMacs) {
      conv.emitOpError("reference: graph too large to simulate: the "
                       "convolution takes more than ")
          << maxMacs << " multiply-adds";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

namespace {

/// A `forward_weight` convolution's [Cout, Cin/groups, *k] weight as the
/// transposed convolution's [Cin, Cout/groups, *k] it stands for: the
/// channel roles swapped per group and the taps reversed.
Tensor transposedWeight(const Tensor &w, int64_t groups) {
  if (w.shape.size() < 3 || groups < 1 || w.shape[0] % groups != 0)
    return Tensor();
  const int64_t cout = w.shape[0], cinG = w.shape[1], coutG = cout / groups;
  const int64_t taps = Tensor::numElements(w.shape) / (cout * cinG);
  std::vector<int64_t> shape(w.shape);
  shape[0] = cinG * groups;
  shape[1] = coutG;
  Tensor t(shape);
  for (int64_t co = 0; co < cout; ++co)
    for (int64_t ci = 0; ci < cinG; ++ci) {
      int64_t g = co / coutG;
      for (int64_t k = 0; k < taps; ++k)
        t.data[((g * cinG + ci) * coutG + co % coutG) * taps + taps - 1 - k] =
            w.data[(co * cinG + ci) * taps + k];
    }
  return t;
}

/// A convolution, elementwise, normalisation or window op on `ins`.
Tensor evalSimpleOp(Operation &op, ArrayRef<const Tensor *> ins) {
  if (auto conv = dyn_cast<ConvTransposeOp>(op))
    return ref::convTransposeScatter(
        *ins[0],
        conv.getForwardWeight() ? transposedWeight(*ins[1], conv.getGroups())
                                : *ins[1],
        conv.getBias() ? ins[2] : nullptr, conv.getStride(), conv.getPadding(),
        conv.getOutputPadding(), conv.getDilation(), conv.getGroups());
  if (auto ew = dyn_cast<ElementwiseOpInterface>(op))
    return elementwise(&op, ew, ins);
  Tensor result(shapeOf(op.getResult(0)));
  SmallVector<ArrayRef<double>> data;
  for (const Tensor *t : ins)
    data.push_back(t->data);
  if (auto norm = dyn_cast<NormalizationOpInterface>(op))
    norm.evaluateReference(data, result.data);
  else
    cast<WindowOpInterface>(op).evaluateReference(data, result.data);
  return result;
}

FailureOr<std::vector<Tensor>> evalBlock(Block &block, ArrayRef<Tensor> args,
                                         const ref::ResultHook &hook,
                                         const ref::ConvOperandsFn &convOperands) {
  DenseMap<Value, Tensor> env;
  for (auto [arg, t] : llvm::zip(block.getArguments(), args)) {
    if (shapeOf(arg) != t.shape) {
      emitError(arg.getLoc()) << "reference: input shape mismatch";
      return failure();
    }
    env[arg] = t;
  }
  auto get = [&](Value v) -> const Tensor * {
    auto it = env.find(v);
    return it == env.end() ? nullptr : &it->second;
  };
  for (Operation &op : block) {
    SmallVector<const Tensor *> ins;
    for (Value v : op.getOperands()) {
      const Tensor *t = get(v);
      if (!t)
        return op.emitOpError("reference: operand has no value");
      ins.push_back(t);
    }
    if (isa<func::ReturnOp, YieldOp>(op)) {
      std::vector<Tensor> res;
      for (const Tensor *t : ins)
        res.push_back(*t);
      return res;
    }
    // A convolution's input and weight as the tensor cores read them
    // (rounded to TF32 or a half type; transposed and forward convolutions).
    Tensor x, w;
    ref::ConvOperands rounding = isa<ConvTransposeOp, ConvOp>(op)
                                     ? convOperands(op)
                                     : ref::ConvOperands::Exact;
    if (rounding != ref::ConvOperands::Exact) {
      x = *ins[0], w = *ins[1];
      for (Tensor *t : {&x, &w})
        for (double &v : t->data)
          v = ref::roundConvOperand(v, rounding);
      ins[0] = &x, ins[1] = &w;
    }
    Tensor result;
    if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      FailureOr<Tensor> t = constant(cst);
      if (failed(t))
        return failure();
      result = std::move(*t);
    } else if (isa<ConvTransposeOp, ElementwiseOpInterface,
                   NormalizationOpInterface, WindowOpInterface>(op)) {
      result = evalSimpleOp(op, ins);
    } else if (auto composite = dyn_cast<CompositeOpInterface>(op)) {
      // Evaluated directly (not through its decomposition), every result.
      std::vector<Tensor> results;
      for (Value r : op.getResults())
        results.emplace_back(shapeOf(r));
      SmallVector<ArrayRef<double>> data;
      for (const Tensor *t : ins)
        data.push_back(t->data);
      SmallVector<MutableArrayRef<double>> out;
      for (Tensor &t : results)
        out.push_back(t.data);
      composite.evaluateReference(data, out);
      for (auto [r, t] : llvm::zip(op.getResults(), results)) {
        if (hook)
          hook(op, ins, t);
        env[r] = std::move(t);
      }
      continue;
    } else if (auto k = dyn_cast<KernelOp>(op)) {
      std::vector<Tensor> kargs;
      for (const Tensor *t : ins)
        kargs.push_back(*t);
      FailureOr<std::vector<Tensor>> r =
          evalBlock(k.getBody().front(), kargs, hook, convOperands);
      if (failed(r))
        return failure();
      result = std::move((*r)[0]);
    } else {
      return op.emitOpError("is not supported by the reference interpreter");
    }
    if (op.getNumResults() != 1)
      return op.emitOpError("reference: expected one result");
    if (result.shape != shapeOf(op.getResult(0)))
      return op.emitOpError("reference: computed shape differs from the "
                            "result type");
    if (hook && !isa<arith::ConstantOp, KernelOp>(op))
      hook(op, ins, result);
    env[op.getResult(0)] = std::move(result);
  }
  emitError(block.getParent()->getLoc()) << "reference: block has no return";
  return failure();
}

} // namespace

FailureOr<std::vector<Tensor>> ref::evaluate(func::FuncOp func,
                                             ArrayRef<Tensor> inputs,
                                             const ResultHook &hook,
                                             ConvOperands convOperands) {
  return evaluate(func, inputs, hook,
                  [convOperands](Operation &) { return convOperands; });
}

FailureOr<std::vector<Tensor>> ref::evaluate(func::FuncOp func,
                                             ArrayRef<Tensor> inputs,
                                             const ResultHook &hook,
                                             const ConvOperandsFn &convOperands) {
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return func.emitOpError("reference: expected a single-block function");
  if (inputs.size() != func.getNumArguments())
    return func.emitOpError("reference: expected ")
           << func.getNumArguments() << " inputs, got " << inputs.size();
  return evalBlock(func.getBody().front(), inputs, hook, convOperands);
}

ref::ConvOperandsFn ref::convOperandsOfKernels(ModuleOp tiled,
                                               ConvOperands fallback) {
  // Per location: the rounding of the kernels holding a convolution there,
  // or nothing where two disagree.
  auto byLoc = std::make_shared<DenseMap<Location, std::optional<ConvOperands>>>();
  tiled.walk([&](KernelOp kernel) {
    auto config = kernel.getConfigAttr();
    if (!config)
      return;
    KernelTypesAttr types = config.getTypes();
    ConvOperands r = ConvOperands::Exact;
    if (!types.usesSplitTF32()) {
      Type operand = types.getOperand();
      if (isa<FloatTF32Type>(operand))
        r = ConvOperands::TF32;
      else if (isa<BFloat16Type>(operand))
        r = ConvOperands::BF16;
      else if (isa<Float16Type>(operand))
        r = ConvOperands::F16;
    }
    kernel.getBody().walk([&](Operation *op) {
      if (!isa<ConvTransposeOp, ConvOp>(op))
        return;
      // An FMA-path convolution multiplies in f32 what the kernel loads:
      // an input the kernel reads in a half type (a half intermediate, its
      // operand cast) is rounded to it, as the graph's reference is not.
      ConvOperands own = r;
      if (own == ConvOperands::Exact)
        if (auto cast = op->getOperand(0).getDefiningOp<CastOp>()) {
          Type from = getElementTypeOrSelf(cast.getOperand().getType());
          if (isa<BFloat16Type>(from))
            own = ConvOperands::BF16;
          else if (isa<Float16Type>(from))
            own = ConvOperands::F16;
        }
      auto [it, inserted] = byLoc->try_emplace(op->getLoc(), own);
      if (!inserted && it->second != own)
        it->second = std::nullopt;
    });
  });
  return [byLoc, fallback](Operation &conv) {
    auto it = byLoc->find(conv.getLoc());
    if (it == byLoc->end() || !it->second)
      return fallback;
    return *it->second;
  };
}

FailureOr<Tensor> ref::evaluateOp(Operation &op,
                                  ArrayRef<const Tensor *> operands) {
  if (!isa<ConvTransposeOp, ElementwiseOpInterface, NormalizationOpInterface,
           WindowOpInterface>(op) ||
      op.getNumResults() != 1 || operands.size() != op.getNumOperands())
    return op.emitOpError("reference: expected a single-result convolution, "
                          "elementwise, normalisation or window op");
  for (auto [v, t] : llvm::zip(op.getOperands(), operands))
    if (!t || shapeOf(v) != t->shape)
      return op.emitOpError("reference: operand shape mismatch");
  return evalSimpleOp(op, operands);
}
