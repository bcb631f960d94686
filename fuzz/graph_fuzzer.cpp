//===- graph_fuzzer.cpp - libFuzzer target: valid graphs vs the reference -===//
//
// Structure-aware: the fuzzer's bytes choose a valid graph of the existing
// vocabulary at small shapes (rank, channels, groups, kernel, stride,
// dilation, padding, output padding, bias, then a chain of up to four
// epilogue ops: activations, broadcast binary ops with extra inputs,
// softmax over the channels or the last dim, layer_norm), then at times a
// tail (a pool; a reduction; a group_norm; a softmax over the flattened
// sample; a pool and a reduction over its spatial dims, which the pooled
// epilogue's records or fuse-compose-pools take; a 1x1 convolution, which
// joins the epilogue as a channel contraction where its channels are few)
// and the code generation options (precision, wgmma, merged H taps). Each graph is
// compiled with the fusion and GPU pipelines, run on the CPU simulator and
// compared with the float64 reference as `fusecc-check` does (where the
// graph is ill-conditioned in f32, the tolerance grows with the
// reference's sensitivity to one-ulp changes of every op's result), on
// fusecc-check's inputs, and on its wide draw too where the reference is
// mostly one value (Inputs.h). Findings: a
// generated graph the verifier rejects, a pipeline failure after tiling
// accepted it, a simulator error (out-of-bounds access, race, read of
// uninitialised shared memory) or a result that is not close.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"
#include "fusecc/Reference/Compare.h"
#include "fusecc/Reference/Conditioning.h"
#include "fusecc/Reference/Inputs.h"
#include "fusecc/Reference/Reference.h"
#include "fusecc/Reference/Simulator.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Parser/Parser.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace mlir;
using fusecc::ref::Tensor;

namespace {

std::string tensorTy(const std::vector<int64_t> &shape) {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + "f32>";
}

std::string arr(const std::vector<int64_t> &v) {
  std::string s = "array<i64: ";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + ">";
}

/// The generated graph and the options it is compiled with.
struct Case {
  std::string text;
  fusecc::PipelineOptions options;
};

Case generate(FuzzedDataProvider &fdp) {
  Case c;
  const int nsp = fdp.ConsumeIntegralInRange(1, 3);
  const int64_t n = fdp.ConsumeIntegralInRange(1, 2);
  const int64_t groups = fdp.ConsumeIntegralInRange(1, 3);
  const int64_t cin = groups * fdp.ConsumeIntegralInRange(1, 8);
  const int64_t cout = groups * fdp.ConsumeIntegralInRange(1, 24);
  std::vector<int64_t> k, s, d, p, op, in, out;
  for (int j = 0; j < nsp; ++j) {
    k.push_back(fdp.ConsumeIntegralInRange(1, 4));
    s.push_back(fdp.ConsumeIntegralInRange(1, 3));
    d.push_back(fdp.ConsumeIntegralInRange(1, 2));
    p.push_back(fdp.ConsumeIntegralInRange<int64_t>(0, d[j] * (k[j] - 1)));
    op.push_back(
        fdp.ConsumeIntegralInRange<int64_t>(0, std::max(s[j], d[j]) - 1));
    in.push_back(j == nsp - 1 ? fdp.ConsumeIntegralInRange(1, 12)
                              : fdp.ConsumeIntegralInRange(1, 4));
    int64_t o = (in[j] - 1) * s[j] - 2 * p[j] + d[j] * (k[j] - 1) + op[j] + 1;
    if (o < 1) { // too much padding for this input: none
      p[j] = 0;
      o = (in[j] - 1) * s[j] + d[j] * (k[j] - 1) + op[j] + 1;
    }
    out.push_back(o);
  }
  const bool bias = fdp.ConsumeBool();
  std::vector<int64_t> xs{n, cin}, ws{cin, cout / groups}, ys{n, cout};
  xs.insert(xs.end(), in.begin(), in.end());
  ws.insert(ws.end(), k.begin(), k.end());
  ys.insert(ys.end(), out.begin(), out.end());
  const std::string y = tensorTy(ys);
  const int64_t rank = static_cast<int64_t>(ys.size());

  std::vector<std::string> args{"%x: " + tensorTy(xs), "%w: " + tensorTy(ws)};
  if (bias)
    args.push_back("%b: tensor<" + std::to_string(cout) + "xf32>");
  std::string body =
      "  %v0 = fuse.conv_transpose %x, %w" + std::string(bias ? ", %b" : "") +
      " {stride = " + arr(s) + ", padding = " + arr(p) +
      ", output_padding = " + arr(op) + ", dilation = " + arr(d) +
      ", groups = " + std::to_string(groups) + " : i64} : (" + tensorTy(xs) +
      ", " + tensorTy(ws) +
      (bias ? ", tensor<" + std::to_string(cout) + "xf32>" : std::string()) +
      ") -> " + y + "\n";
  int v = 0;
  auto value = [&](int i) { return "%v" + std::to_string(i); };
  static const char *unary[] = {"relu",     "sigmoid",   "tanh",        "silu",
                                "softplus", "mish",      "neg",         "abs",
                                "erf",      "hardswish", "hardsigmoid", "gelu"};
  const int numOps = fdp.ConsumeIntegralInRange(0, 4);
  // A layer_norm somewhere in the chain: its rows sum to exactly zero, so
  // a sum or mean over the last dim after it is pure cancellation, and over
  // other dims it adds up the layer_norm's own amplified rounding (over the
  // near-equal outputs of a softmax of a softmax). No f32 evaluation can be
  // judged against either (ill-conditioned, not a kernel error: the graph
  // fuzzer's findings of session 15); no reduction tail follows one, and
  // no average pooling (its windows sum parts of the rows: a window over a
  // whole row of 3 gave 1e-17 exactly and 2e-8 in f32, session 22).
  bool normalizedLastDim = false;
  for (int i = 0; i < numOps; ++i) {
    std::string line = "  " + value(v + 1) + " = ";
    switch (fdp.ConsumeIntegralInRange(0, 7)) {
    case 0:
    case 1: {
      const char *name = unary[fdp.ConsumeIntegralInRange<size_t>(
          0, sizeof(unary) / sizeof(*unary) - 1)];
      line += std::string("fuse.") + name + " " + value(v);
      if (std::string(name) == "gelu" && fdp.ConsumeBool())
        line += " {approximate = \"tanh\"}";
      line += " : " + y;
      break;
    }
    case 2:
      line += "fuse.leaky_relu " + value(v) + " {slope = " +
              std::to_string(fdp.ConsumeIntegralInRange(-20, 20) / 10.0) +
              " : f64} : " + y;
      break;
    case 3: {
      double lo = fdp.ConsumeIntegralInRange(-30, 0) / 10.0;
      double hi = lo + fdp.ConsumeIntegralInRange(0, 30) / 10.0;
      line += "fuse.clamp " + value(v) + " {min = " + std::to_string(lo) +
              " : f64, max = " + std::to_string(hi) + " : f64} : " + y;
      break;
    }
    case 4: {
      // A broadcast operand: per channel, per last-dim position or full.
      std::vector<int64_t> shape;
      switch (fdp.ConsumeIntegralInRange(0, 2)) {
      case 0:
        shape = {cout};
        shape.insert(shape.end(), nsp, 1);
        break;
      case 1:
        shape = {ys.back()};
        break;
      default:
        shape = ys;
      }
      static const char *binary[] = {"add", "sub", "mul", "maximum", "minimum"};
      std::string arg = "%a" + std::to_string(i);
      args.push_back(arg + ": " + tensorTy(shape));
      bool swap = fdp.ConsumeBool();
      line += std::string("fuse.") + binary[fdp.ConsumeIntegralInRange(0, 4)] +
              " " + (swap ? arg + ", " + value(v) : value(v) + ", " + arg) +
              " : " +
              (swap ? tensorTy(shape) + ", " + y : y + ", " + tensorTy(shape)) +
              " -> " + y;
      break;
    }
    case 5:
      line += "fuse.softmax " + value(v) + " {dim = 1 : i64} : " + y;
      break;
    case 6:
      line += "fuse.softmax " + value(v) +
              " {dim = " + std::to_string(rank - 1) + " : i64} : " + y;
      break;
    default: {
      std::string w = "%g" + std::to_string(i), b = "%h" + std::to_string(i);
      std::string lt = "tensor<" + std::to_string(ys.back()) + "xf32>";
      bool hasW = fdp.ConsumeBool(), hasB = fdp.ConsumeBool();
      // One layer_norm per chain, and no group_norm tail after it: a
      // second normalisation normalises the first's rounding noise
      // wherever the first saw a constant row (rows a strided convolution
      // leaves at the bias, a clamp below a softmax's range): O(1) noise
      // in any f32 evaluation (session 22's CI, session 23).
      if (normalizedLastDim) {
        line += "fuse.softmax " + value(v) +
                " {dim = " + std::to_string(rank - 1) + " : i64} : " + y;
        break;
      }
      line += "fuse.layer_norm " + value(v);
      normalizedLastDim = true;
      if (hasW) {
        args.push_back(w + ": " + lt);
        line += " weight(" + w + " : " + lt + ")";
      }
      if (hasB) {
        args.push_back(b + ": " + lt);
        line += " bias(" + b + " : " + lt + ")";
      }
      line += " {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : " + y;
    }
    }
    body += line + "\n";
    ++v;
  }
  // Optionally a tail that is not elementwise: a pool, a reduction over
  // some dims, a group_norm or a view (the result's shape may change).
  std::string result = y;
  std::vector<int64_t> pooledShape;
  auto pooled = [](int64_t size, int64_t kk, int64_t st, int64_t pad,
                   bool ceil) {
    int64_t num = size + 2 * pad - kk + (ceil ? st - 1 : 0);
    int64_t o = (num >= 0 ? num / st : -1 - (-(num + 1)) / st) + 1;
    if (ceil && (o - 1) * st >= size + pad)
      --o;
    return o;
  };
  // A pool of `y` (max, or avg with its count_include_pad), appended to the
  // body; its result type, or "" when a dim pools to nothing.
  auto emitPool = [&](bool isMax) -> std::string {
    bool ceil = fdp.ConsumeBool();
    std::vector<int64_t> kk, st, pad, rs{n, cout};
    for (int j = 0; j < nsp; ++j) {
      kk.push_back(fdp.ConsumeIntegralInRange(1, 3));
      st.push_back(fdp.ConsumeIntegralInRange(1, 2));
      pad.push_back(fdp.ConsumeIntegralInRange<int64_t>(0, kk[j] / 2));
      rs.push_back(pooled(out[j], kk[j], st[j], pad[j], ceil));
    }
    if (*std::min_element(rs.begin(), rs.end()) < 1)
      return std::string();
    std::string pooledTy = tensorTy(rs);
    body += "  " + value(v + 1) + " = fuse." + (isMax ? "max" : "avg") +
            "_pool " + value(v) + " {kernel_size = " + arr(kk) +
            ", stride = " + arr(st) + ", padding = " + arr(pad) +
            ", ceil_mode = " + (ceil ? "true" : "false") +
            (isMax ? std::string()
                   : std::string(", count_include_pad = ") +
                         (fdp.ConsumeBool() ? "true" : "false")) +
            "} : " + y + " -> " + pooledTy + "\n";
    ++v;
    pooledShape = rs;
    return pooledTy;
  };
  switch (fdp.ConsumeIntegralInRange(0, 5)) {
  case 1:
  case 2: {
    std::string pooledTy = emitPool(fdp.ConsumeBool() || normalizedLastDim);
    if (!pooledTy.empty())
      result = pooledTy;
    break;
  }
  case 3: {
    static const char *reductions[] = {"sum", "mean", "amax", "amin",
                                       "logsumexp"};
    const char *name = reductions[fdp.ConsumeIntegralInRange(0, 4)];
    bool keep = fdp.ConsumeBool();
    std::vector<int64_t> dims, rs;
    for (int64_t dim = 0; dim < rank; ++dim) {
      bool reduce = fdp.ConsumeBool() && !normalizedLastDim;
      if (reduce)
        dims.push_back(dim);
      if (!reduce)
        rs.push_back(ys[dim]);
      else if (keep)
        rs.push_back(1);
    }
    if (dims.empty())
      break;
    result = tensorTy(rs);
    body += "  " + value(v + 1) + " = fuse." + name + " " + value(v) +
            " {dims = " + arr(dims) + ", keepdim = " +
            (keep ? "true" : "false") + "} : " + y + " -> " + result + "\n";
    ++v;
    break;
  }
  case 4: {
    int64_t g = fdp.ConsumeIntegralInRange<int64_t>(1, cout);
    while (cout % g)
      --g;
    // Not after a layer_norm, for the reason there is one per chain: rows
    // it saw constant (a clamp whose window lies below a softmax's range)
    // leave its rounding noise, which the group_norm scales to O(1)
    // (session 23).
    if (normalizedLastDim)
      break;
    body += "  " + value(v + 1) + " = fuse.group_norm " + value(v) +
            " {num_groups = " + std::to_string(g) + " : i64} : " + y + "\n";
    ++v;
    break;
  }
  case 5: {
    // Channels and spatial dims flattened, then a softmax over them.
    int64_t flat = 1;
    for (int64_t dim = 1; dim < rank; ++dim)
      flat *= ys[dim];
    std::string ft = tensorTy({n, flat});
    body += "  " + value(v + 1) + " = fuse.reshape " + value(v) + " : " + y +
            " -> " + ft + "\n  " + value(v + 2) + " = fuse.softmax " +
            value(v + 1) + " {dim = 1 : i64} : " + ft + "\n";
    v += 2;
    result = ft;
    break;
  }
  default:
    break;
  }

  c.options.precision =
      fdp.ConsumeBool() ? fusecc::Precision::TF32 : fusecc::Precision::IEEE;
  // sm_90a with wgmma wherever a kernel fits: tf32, or ieee with split
  // operands (3xTF32 on wgmma).
  if (fdp.ConsumeBool()) {
    c.options.chip = fusecc::Chip::SM90a;
    c.options.tileWgmma = fusecc::WgmmaChoice::Always;
    if (c.options.precision == fusecc::Precision::IEEE)
      c.options.ieeeTensorCores = fusecc::IeeeTensorCores::Always;
  } else {
    c.options.tileWgmma = fusecc::WgmmaChoice::Never;
  }
  c.options.tileMergeH = fdp.ConsumeBool();
  // A tail of two ops where the choice above left none, drawn last: an
  // input of earlier runs (fuzz/regressions) with a tail reads the graph it
  // was found with, one without a tail and with bytes left may read one of
  // these after it (session 34; each finding also has its lit test).
  switch (result == y ? fdp.ConsumeIntegralInRange(0, 2) : 0) {
  case 0:
    break;
  case 1: {
    // A pool, then a reduction over all its spatial dims (and the channels
    // at times): the pooled epilogue's records (a mean, sum or var of a
    // max_pool, an amax or amin of an avg_pool), or what
    // fuse-compose-pools rewrites. Not after a layer_norm (cancellation:
    // the comment above the chain).
    if (normalizedLastDim)
      break;
    bool isMax = fdp.ConsumeBool();
    std::string pooledTy = emitPool(isMax);
    if (pooledTy.empty())
      break;
    static const char *reductions[] = {"sum", "mean", "amax", "amin", "var"};
    const char *name = reductions[fdp.ConsumeIntegralInRange(0, 4)];
    bool keep = fdp.ConsumeBool();
    bool channels = fdp.ConsumeIntegralInRange(0, 3) == 0;
    std::vector<int64_t> dims, rs{n};
    int64_t count = 1;
    if (channels) {
      dims.push_back(1);
      count *= pooledShape[1];
      if (keep)
        rs.push_back(1);
    } else {
      rs.push_back(pooledShape[1]);
    }
    for (int64_t dim = 2; dim < rank; ++dim) {
      dims.push_back(dim);
      count *= pooledShape[dim];
      if (keep)
        rs.push_back(1);
    }
    result = tensorTy(rs);
    std::string attrs = "{dims = " + arr(dims);
    if (std::string(name) == "var")
      attrs += ", correction = " +
               std::string(count > 1 && fdp.ConsumeBool() ? "1" : "0") +
               " : i64";
    body += "  " + value(v + 1) + " = fuse." + name + " " + value(v) + " " +
            attrs + ", keepdim = " + (keep ? "true" : "false") + "} : " +
            pooledTy + " -> " + result + "\n";
    ++v;
    break;
  }
  case 2: {
    // A 1x1 convolution of the chain's result to J channels (with bias at
    // times, then an activation at times): few channels join the producing
    // kernel's epilogue (a channel contraction), more run in a kernel of
    // their own.
    int64_t j = fdp.ConsumeIntegralInRange<int64_t>(1, 28);
    bool hb = fdp.ConsumeBool();
    std::vector<int64_t> hws{j, cout}, zeros, ones, rs{n, j};
    for (int i = 0; i < nsp; ++i) {
      hws.push_back(1);
      zeros.push_back(0);
      ones.push_back(1);
      rs.push_back(out[i]);
    }
    args.push_back("%hw: " + tensorTy(hws));
    if (hb)
      args.push_back("%hb: tensor<" + std::to_string(j) + "xf32>");
    result = tensorTy(rs);
    body += "  " + value(v + 1) + " = fuse.conv " + value(v) + ", %hw" +
            (hb ? ", %hb" : "") + " {stride = " + arr(ones) +
            ", padding = " + arr(zeros) + ", dilation = " + arr(ones) +
            "} : (" + y + ", " + tensorTy(hws) +
            (hb ? ", tensor<" + std::to_string(j) + "xf32>" : std::string()) +
            ") -> " + result + "\n";
    ++v;
    if (fdp.ConsumeBool()) {
      body += "  " + value(v + 1) + " = fuse." +
              unary[fdp.ConsumeIntegralInRange(0, 11)] + " " + value(v) +
              " : " + result + "\n";
      ++v;
    }
    break;
  }
  }
  std::string sig;
  for (size_t i = 0; i < args.size(); ++i)
    sig += (i ? ", " : "") + args[i];
  c.text = "func.func @g(" + sig + ") -> " + result + " {\n" + body +
           "  return " + value(v) + " : " + result + "\n}\n";
  return c;
}

[[noreturn]] void finding(const Case &c, const std::string &what) {
  std::fprintf(stderr,
               "graph_fuzzer: %s\n--- precision=%s chip=%s tile-wgmma=%s "
               "ieee-tensor-cores=%s tile-merge-h=%d\n%s",
               what.c_str(), fusecc::toString(c.options.precision).data(),
               fusecc::toString(c.options.chip).data(),
               fusecc::toString(c.options.tileWgmma).data(),
               fusecc::toString(c.options.ieeeTensorCores).data(),
               c.options.tileMergeH ? 1 : 0, c.text.c_str());
  std::abort();
}

/// Runs the compiled `host` of `module` on the simulator with `inputs` and
/// compares its output with `r`, the reference of `f` on them (a finding
/// otherwise, its message starting with `draw`).
void checkDraw(const Case &c, func::FuncOp f, ModuleOp module,
               func::FuncOp host, const fusecc::ref::ConvOperandsFn &rounding,
               const std::vector<Tensor> &inputs, const Tensor &r,
               const char *draw) {
  std::vector<fusecc::sim::Buffer> bufs;
  for (const Tensor &t : inputs) {
    fusecc::sim::Buffer b;
    b.shape = t.shape;
    b.data.assign(t.data.begin(), t.data.end());
    bufs.push_back(std::move(b));
  }
  fusecc::sim::Buffer outBuf;
  outBuf.shape = r.shape;
  outBuf.data.assign(r.size(), std::numeric_limits<float>::quiet_NaN());
  bufs.push_back(std::move(outBuf));
  fusecc::sim::Stats stats;
  std::string error;
  if (failed(fusecc::sim::run(module, host, bufs, stats, error)))
    finding(c, std::string(draw) + "simulator: " + error);
  // fusecc-check's comparison (Compare.h); tf32 kernels also against the
  // reference on TF32-rounded convolution operands (each convolution
  // rounded as its kernel rounds it: `rounding`).
  const bool tf32 = c.options.precision == fusecc::Precision::TF32;
  std::vector<Tensor> tf32Ref;
  if (tf32) {
    FailureOr<std::vector<Tensor>> r32 =
        fusecc::ref::evaluate(f, inputs, {}, rounding);
    if (failed(r32))
      finding(c, std::string(draw) +
                     "the reference on TF32-rounded operands failed");
    tf32Ref = std::move(*r32);
  }
  const fusecc::sim::Buffer &o = bufs.back();
  fusecc::ref::CompareLimits limits =
      fusecc::ref::CompareLimits::forPrecision(tf32);
  // A graph ill-conditioned in f32 itself: the limits widen by what its
  // own rounding moves the reference (Conditioning.h).
  fusecc::ref::Conditioning cond;
  fusecc::ref::Comparison cmp = fusecc::ref::compareWithConditioning(
      f, inputs, 0, r, tf32 ? &tf32Ref[0] : nullptr, o, limits, cond,
      tf32 ? &rounding : nullptr);
  if (cmp.pass)
    return;
  if (cmp.vacuous)
    finding(c, std::string(draw) + "the reference has no finite element: "
                                   "nothing was compared");
  const int64_t i = cmp.firstBad;
  if (cmp.unwritten)
    finding(c,
            std::string(draw) + "element " + std::to_string(i) + " unwritten");
  if (cmp.nonFinite || cmp.notClose)
    finding(c, std::string(draw) + "element " + std::to_string(i) +
                   ": reference " + std::to_string(r.data[i]) + ", kernel " +
                   std::to_string(o.data[i]));
  finding(c, std::string(draw) + "rel-L2 " + std::to_string(cmp.relL2) +
                 " above " + std::to_string(cmp.relL2Limit) +
                 (tf32 ? ", against TF32-rounded operands " +
                             std::to_string(cmp.operandsRelL2) + " (limit " +
                             std::to_string(limits.operandsRelL2) + ")"
                       : std::string()));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider fdp(data, size);
  Case c = generate(fdp);
  fusecc::fuzz::FuzzContext fc;
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(c.text, &fc.ctx, "graph.mlir");
  if (!module)
    finding(c, "the verifier rejected a generated (valid) graph");
  OwningOpRef<ModuleOp> graph(module->clone());
  auto f = *graph->getOps<func::FuncOp>().begin();
  const uint64_t seed = size * 7919 + 17;
  std::vector<Tensor> inputs =
      fusecc::ref::makeInputs(f, seed, fusecc::ref::InputDraw::PyTorch);
  FailureOr<std::vector<Tensor>> ref = fusecc::ref::evaluate(f, inputs);
  if (failed(ref))
    finding(c, "the reference failed");
  if (!fusecc::fuzz::runStage(*module, [&](OpPassManager &pm) {
        fusecc::buildFusionPipeline(pm, c.options);
      }))
    return 0; // outside what one kernel can do (a diagnostic): fine
  const fusecc::ref::ConvOperandsFn rounding =
      fusecc::ref::convOperandsOfKernels(*module,
                                         fusecc::ref::ConvOperands::TF32);
  if (!fusecc::fuzz::runStage(*module, [&](OpPassManager &pm) {
        fusecc::buildGPUPipeline(pm, c.options);
      }))
    finding(c, "fuse-convert-to-gpu rejected a graph fuse-tile-kernels "
               "accepted");
  auto host = module->lookupSymbol<func::FuncOp>("g");
  if (!host)
    finding(c, "no host function after the pipeline");
  checkDraw(c, f, *module, host, rounding, inputs, (*ref)[0], "");
  // A reference mostly of one value (a min, a clamp or a structural zero on
  // these inputs) checks little: the wide draw too (Inputs.h).
  if (fusecc::ref::maxModeFraction(*ref) > fusecc::ref::kDegenerateFraction) {
    std::vector<Tensor> wide =
        fusecc::ref::makeInputs(f, seed, fusecc::ref::InputDraw::Wide);
    FailureOr<std::vector<Tensor>> wideRef = fusecc::ref::evaluate(f, wide);
    if (failed(wideRef))
      finding(c, "the reference failed on wide inputs");
    checkDraw(c, f, *module, host, rounding, wide, (*wideRef)[0],
              "wide inputs: ");
  }
  return 0;
}
