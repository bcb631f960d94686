//===- fusecc-check.cpp - check generated kernels on the CPU --------------===//
//
// fusecc-check graph.mlir [--precision=ieee|tf32] [--chip=...] [--seed=N]
//
// For every graph function: makes deterministic random inputs, evaluates the
// graph with the double-precision reference, compiles it with the fusion and
// GPU pipelines, runs the generated kernels with the CPU simulator (f32) and
// compares. Prints one PASS/FAIL line per function; exits non-zero on any
// failure (including a graph the pipeline rejects). A function whose
// reference output is mostly one value on these inputs (kb2_93's
// gelu(min(conv + 0.5, 0)) is zero wherever conv > -0.5) is checked again on
// wide inputs, with its own PASS/FAIL line: a check that compares zeros with
// zeros checks nothing. One whose reference has no finite element fails,
// with a line that says so: NaN against NaN checks nothing either.
//
// --reference-only evaluates only the reference and prints a checksum
// (--print-output: every element), for tests of the reference itself.
// --print-gpu-ir prints the compiled module (GPU IR for --simulate-only).
//
//===----------------------------------------------------------------------===//

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"
#include "fusecc/Dialect/Fuse/Transforms/DynamicBatch.h"
#include "fusecc/Pipeline/Pipeline.h"
#include "fusecc/Reference/Compare.h"
#include "fusecc/Reference/Conditioning.h"
#include "fusecc/Reference/Inputs.h"
#include "fusecc/Reference/Reference.h"
#include "fusecc/Reference/Simulator.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <cstring>

using namespace mlir;
using namespace llvm;
using fusecc::ref::InputDraw;
using fusecc::ref::Tensor;

namespace {

cl::opt<std::string> inputFile(cl::Positional,
                               cl::cat(fusecc::optionCategory()),
                               cl::desc("<graph.mlir>"), cl::Required);
cl::opt<uint64_t> seed("seed", cl::cat(fusecc::optionCategory()),
                       cl::desc("Seed of the random inputs"), cl::init(1));
cl::opt<bool> referenceOnly("reference-only", cl::cat(fusecc::optionCategory()),
                            cl::desc("Only evaluate the reference"),
                            cl::init(false));
cl::opt<bool> printOutput("print-output", cl::cat(fusecc::optionCategory()),
                          cl::desc("With --reference-only: print every "
                                   "output element"),
                          cl::init(false));
cl::opt<bool> keepGoing(
    "keep-going", cl::cat(fusecc::optionCategory()),
    cl::desc("Continue past uninitialised shared memory reads and races "
             "(still a FAIL) to show their effect on the output"),
    cl::init(false));
cl::opt<bool> simulateOnly(
    "simulate-only", cl::cat(fusecc::optionCategory()),
    cl::desc("The input is already GPU IR (gpu.module + host functions): "
             "simulate each host function on deterministic buffers and print "
             "every element the kernels wrote (value and bit pattern)"),
    cl::init(false));
cl::opt<bool>
    printGPUIR("print-gpu-ir", cl::cat(fusecc::optionCategory()),
               cl::desc("Print the module after the GPU pipeline (input for "
                        "--simulate-only) instead of checking it"),
               cl::init(false));
cl::opt<bool> verbose("v", cl::cat(fusecc::optionCategory()),
                      cl::desc("Print launch statistics and timings"),
                      cl::init(false));
cl::opt<int64_t> maxElements(
    "max-elements", cl::cat(fusecc::optionCategory()),
    cl::desc("Refuse graphs whose tensors hold more elements in all "
             "(default 2^30)"),
    cl::init(fusecc::ref::kDefaultMaxElements));
cl::opt<int64_t> maxMacs("max-macs", cl::cat(fusecc::optionCategory()),
                         cl::desc("Refuse convolutions of more multiply-adds "
                                  "(default 2^36)"),
                         cl::init(fusecc::ref::kDefaultMaxMacs));
cl::opt<int64_t> maxBatch(
    "max-batch", cl::cat(fusecc::optionCategory()),
    cl::desc("A graph with a dynamic batch (tensor<?x...>): compile it as "
             "fusecc --max-batch=N does and check it at each --batch"),
    cl::value_desc("N"), cl::init(0));
cl::list<int64_t> batches(
    "batch", cl::cat(fusecc::optionCategory()), cl::CommaSeparated,
    cl::desc("With --max-batch: the batches to run the one compiled module "
             "at (default: 1 and N)"),
    cl::value_desc("b1,b2,..."));
std::string indexStr(const std::vector<int64_t> &shape, int64_t linear) {
  std::vector<int64_t> idx(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    idx[d] = linear % shape[d];
    linear /= shape[d];
  }
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d)
    s += (d ? ", " : "") + std::to_string(idx[d]);
  return s + "]";
}

double elapsed(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
      .count();
}

/// --simulate-only: buffers hold seeded normal values (the kernel sees them
/// as f32); prints `@host: OK` and each written element, or `@host: FAIL`.
int simulate(ModuleOp module) {
  bool ok = true;
  for (auto host : module.getOps<func::FuncOp>()) {
    if (host.isExternal())
      continue;
    std::vector<fusecc::sim::Buffer> bufs;
    for (BlockArgument a : host.getArguments()) {
      fusecc::sim::Buffer b;
      auto mt = dyn_cast<MemRefType>(a.getType());
      if (mt && mt.hasStaticShape())
        b.shape.assign(mt.getShape().begin(), mt.getShape().end());
      std::optional<int64_t> n = fusecc::checkedProduct(b.shape);
      if (!n || *n > maxElements) {
        errs() << "fusecc-check: error: @" << host.getSymName() << " argument "
               << a.getArgNumber() << " " << a.getType()
               << " is too large to simulate (at most " << maxElements
               << " elements, --max-elements)\n";
        return 1;
      }
      std::vector<float> values =
          fusecc::ref::normalValues(seed, a.getArgNumber(), *n);
      b.data.assign(values.begin(), values.end());
      bufs.push_back(std::move(b));
    }
    fusecc::sim::Stats stats;
    std::string error;
    if (failed(fusecc::sim::run(module, host, bufs, stats, error,
                                keepGoing))) {
      outs() << "@" << host.getSymName() << ": FAIL (" << error << ")\n";
      ok = false;
      continue;
    }
    outs() << "@" << host.getSymName() << ": OK\n";
    for (auto [bi, b] : llvm::enumerate(bufs))
      for (size_t i = 0; i < b.data.size(); ++i) {
        if (!b.written[i])
          continue;
        uint32_t bits;
        std::memcpy(&bits, &b.data[i], 4);
        outs() << "@" << host.getSymName() << ": arg " << bi << " "
               << indexStr(b.shape, static_cast<int64_t>(i)) << " = "
               << format("%.9g", b.data[i]) << " (" << format_hex(bits, 10)
               << ")\n";
      }
  }
  return ok ? 0 : 1;
}

int run(MLIRContext &ctx, SourceMgr &sourceMgr) {
  // Unverified: a dynamic batch (`?`) verifies once specialised.
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(
      sourceMgr, ParserConfig(&ctx, /*verifyAfterParse=*/false));
  if (!module)
    return 1;
  // A dynamic batch: the reference graphs at each batch checked, the
  // kernels compiled once from the per-sample graph (batch 1).
  namespace fuse = fusecc::fuse;
  std::vector<OwningOpRef<ModuleOp>> batchGraphs;
  SmallVector<int64_t> runBatches;
  if (fuse::hasDynamicDims(*module) && !simulateOnly) {
    if (maxBatch < 1 || maxBatch > fuse::kMaxBatchBound) {
      errs() << "fusecc-check: error: the graph has a dynamic batch; give "
                "--max-batch=N (1.."
             << fuse::kMaxBatchBound << ")\n";
      return 1;
    }
    runBatches.assign(batches.begin(), batches.end());
    if (runBatches.empty())
      runBatches = {1, maxBatch};
    for (int64_t b : runBatches) {
      if (b < 1 || b > maxBatch) {
        errs() << "fusecc-check: error: --batch " << b
               << " is outside [1, --max-batch]\n";
        return 1;
      }
      batchGraphs.emplace_back(module->clone());
      if (failed(fuse::specializeBatch(*batchGraphs.back(), b)) ||
          failed(verify(*batchGraphs.back())))
        return 1;
    }
    if (failed(fuse::specializeBatch(*module, 1)))
      return 1;
    (*module)->setAttr(fuse::kMaxBatchAttr,
                       IntegerAttr::get(mlir::IntegerType::get(&ctx, 64),
                                        maxBatch));
  } else if (maxBatch.getNumOccurrences()) {
    errs() << "fusecc-check: error: --max-batch needs a graph with a "
              "dynamic batch (tensor<?x...>)\n";
    return 1;
  }
  if (failed(verify(*module)))
    return 1;
  if (simulateOnly)
    return simulate(*module);
  // Options first: a bad one is reported before the (long) reference runs.
  // Precision, chip and tiling choices to check, as fusecc takes them
  // (tuning file, knobs).
  fusecc::PipelineOptions options;
  fusecc::applyCodegenCLOptions(options);
  if (std::string message; failed(fusecc::verifyCodegenOptions(
          options, /*forTarget=*/false, message))) {
    errs() << "fusecc-check: error: " << message << "\n";
    return 1;
  }
  // The graph before compilation (the pipeline rewrites `module`), or
  // the graph at each batch checked.
  if (batchGraphs.empty()) {
    batchGraphs.emplace_back(module->clone());
    runBatches = {0};
  }
  SmallVector<func::FuncOp> funcs;
  SmallVector<int64_t> funcBatch;
  for (auto [g, b] : llvm::zip(batchGraphs, runBatches))
    for (auto f : g->getOps<func::FuncOp>())
      if (!f.isExternal()) {
        funcs.push_back(f);
        funcBatch.push_back(b);
      }

  struct Case {
    func::FuncOp func;
    InputDraw draw;
    /// `tf32Ref`: the reference on TF32-rounded convolution operands (tf32).
    std::vector<Tensor> inputs, ref, tf32Ref;
    double refSeconds;
    /// The batch the kernels run at (0: a static graph).
    int64_t batch = 0;
    /// How `tf32Ref` rounds each convolution's operands.
    fusecc::ref::ConvOperandsFn rounding = {};
  };
  std::vector<Case> cases;
  // Refuse what cannot be simulated before allocating anything.
  for (func::FuncOp f : funcs)
    if (failed(fusecc::ref::checkSimulatable(f, maxElements, maxMacs))) {
      outs() << "@" << f.getSymName() << ": FAIL (too large to simulate)\n";
      return 1;
    }
  // How the kernels of `f` round their convolution operands: its first
  // convolution's math (transposed or forward) as fuse-tile-kernels
  // decides it (convMathFor).
  auto convOperandsOf = [&](func::FuncOp f) {
    using fusecc::ref::ConvOperands;
    ConvOperands r = ConvOperands::Exact;
    f.walk([&](Operation *op) {
      // Transposed and forward convolutions (fuse.conv, not yet decomposed
      // here).
      Type storage;
      if (auto conv = dyn_cast<fusecc::fuse::ConvTransposeOp>(op))
        storage = fusecc::fuse::convStorageType(conv);
      else if (auto conv = dyn_cast<fusecc::fuse::ConvOp>(op))
        // As written, a forward convolution's operands share the element
        // type they are stored in (its decomposition is what
        // convStorageType sees through fuse-widen-half's casts).
        storage = getElementTypeOrSelf(conv.getWeight().getType());
      else
        return WalkResult::advance();
      switch (fusecc::fuse::convMathFor(
          options.precision, storage,
          op->hasAttr(fusecc::fuse::kConvPrecisionAttrName))) {
      case fusecc::fuse::ConvMath::TF32:
        r = ConvOperands::TF32;
        break;
      case fusecc::fuse::ConvMath::BF16:
        r = ConvOperands::BF16;
        break;
      case fusecc::fuse::ConvMath::F16:
        r = ConvOperands::F16;
        break;
      case fusecc::fuse::ConvMath::IEEE:
      case fusecc::fuse::ConvMath::TF32x3:
        break;
      }
      return WalkResult::interrupt();
    });
    return r;
  };
  auto addCase = [&](func::FuncOp f, InputDraw draw,
                     int64_t batch) -> LogicalResult {
    Case c{f, draw, fusecc::ref::makeInputs(f, seed, draw), {}, {}, 0, batch};
    auto t0 = std::chrono::steady_clock::now();
    FailureOr<std::vector<Tensor>> r = fusecc::ref::evaluate(f, c.inputs);
    if (failed(r))
      return failure();
    c.ref = std::move(*r);
    c.refSeconds = elapsed(t0);
    cases.push_back(std::move(c));
    return success();
  };
  for (auto [f, batch] : llvm::zip(funcs, funcBatch)) {
    if (failed(addCase(f, InputDraw::PyTorch, batch))) {
      outs() << "@" << f.getSymName() << ": FAIL (reference evaluation)\n";
      return 1;
    }
    if (referenceOnly)
      continue;
    double degenerate = fusecc::ref::maxModeFraction(cases.back().ref);
    if (degenerate <= fusecc::ref::kDegenerateFraction)
      continue;
    outs() << "@" << f.getSymName() << ": "
           << format("%.1f", 100.0 * degenerate)
           << "% of an output is one value: checked on wide inputs too\n";
    if (failed(addCase(f, InputDraw::Wide, batch))) {
      outs() << "@" << f.getSymName() << ": FAIL (reference evaluation)\n";
      return 1;
    }
  }

  if (referenceOnly) {
    for (Case &c : cases)
      for (auto [i, t] : llvm::enumerate(c.ref)) {
        double sum = 0, asum = 0;
        for (double v : t.data)
          sum += v, asum += std::fabs(v);
        outs() << "@" << c.func.getSymName() << ": result " << i
               << " elements " << t.size() << " sum "
               << format("%.9g", sum) << " abs-sum " << format("%.9g", asum)
               << "\n";
        if (printOutput) {
          for (int64_t e = 0; e < t.size(); ++e)
            outs() << format("%.9g", t.data[e])
                   << ((e + 1) % t.shape.back() == 0 ? "\n" : " ");
        }
      }
    return 0;
  }

  PassManager fusion(&ctx), gpu(&ctx);
  fusecc::buildFusionPipeline(fusion, options);
  fusecc::buildGPUPipeline(gpu, options);
  auto tc = std::chrono::steady_clock::now();
  if (failed(fusion.run(*module))) {
    outs() << "FAIL: the pipeline rejected the graph\n";
    return 1;
  }
  double compileSeconds = elapsed(tc);
  // The reference on rounded convolution operands, each convolution rounded
  // as the kernel that runs it rounds it (an FMA-path kernel not at all).
  for (Case &c : cases) {
    fusecc::ref::ConvOperands operands = convOperandsOf(c.func);
    if (operands == fusecc::ref::ConvOperands::Exact)
      continue;
    auto t0 = std::chrono::steady_clock::now();
    c.rounding = fusecc::ref::convOperandsOfKernels(*module, operands);
    FailureOr<std::vector<Tensor>> r32 =
        fusecc::ref::evaluate(c.func, c.inputs, {}, c.rounding);
    if (failed(r32)) {
      outs() << "@" << c.func.getSymName() << ": FAIL (reference evaluation)\n";
      return 1;
    }
    c.tf32Ref = std::move(*r32);
    c.refSeconds += elapsed(t0);
  }
  tc = std::chrono::steady_clock::now();
  if (failed(gpu.run(*module))) {
    outs() << "FAIL: the pipeline rejected the graph\n";
    return 1;
  }
  compileSeconds += elapsed(tc);
  if (printGPUIR) {
    module->print(outs());
    outs() << "\n";
    return 0;
  }

  bool allPass = true;
  for (Case &c : cases) {
    StringRef fname = c.func.getSymName();
    std::string name = fname.str();
    if (c.batch)
      name += "[batch=" + std::to_string(c.batch) + "]";
    const char *drawNote = c.draw == InputDraw::Wide ? ", wide inputs" : "";
    auto host = module->lookupSymbol<func::FuncOp>(fname);
    if (!host) {
      outs() << "@" << name << ": FAIL (no host function after the pipeline)\n";
      allPass = false;
      continue;
    }
    std::vector<fusecc::sim::Buffer> bufs;
    for (const Tensor &t : c.inputs) {
      fusecc::sim::Buffer b;
      b.shape = t.shape;
      b.data.assign(t.data.begin(), t.data.end());
      bufs.push_back(std::move(b));
    }
    for (const Tensor &t : c.ref) {
      fusecc::sim::Buffer b;
      b.shape = t.shape;
      b.data.assign(t.size(), std::numeric_limits<float>::quiet_NaN());
      bufs.push_back(std::move(b));
    }
    fusecc::sim::Stats stats;
    std::string error;
    auto t0 = std::chrono::steady_clock::now();
    if (failed(fusecc::sim::run(*module, host, bufs, stats, error, keepGoing,
                                c.batch))) {
      outs() << "@" << name << ": FAIL (" << error << drawNote << ")\n";
      allPass = false;
      continue;
    }
    double simSeconds = elapsed(t0);
    if (verbose)
      outs() << "@" << name << ": launches " << stats.launches << " blocks "
             << stats.blocks << " threads/block " << stats.threadsPerBlockMax
             << " smem " << stats.sharedBytesMax << " thread-instructions "
             << stats.instructions << " reference "
             << format("%.3f", c.refSeconds) << "s compile "
             << format("%.3f", compileSeconds) << "s simulate "
             << format("%.3f", simSeconds) << "s\n";
    if (stats.violations) {
      outs() << "@" << name << ": FAIL (" << stats.violations
             << " memory-model violations; first: " << stats.firstViolation
             << drawNote << ")\n";
      allPass = false;
    }
    for (auto [i, t] : llvm::enumerate(c.ref)) {
      const fusecc::sim::Buffer &out = bufs[c.inputs.size() + i];
      // `fuse.check.rel_tol` on a function: a graph whose f32 evaluation is
      // itself ill-conditioned (values rounded at mean 1e3, spread 0.1)
      // states the accuracy it can reach.
      const fusecc::ref::ConvOperands operands = convOperandsOf(c.func);
      fusecc::ref::CompareLimits lim =
          fusecc::ref::CompareLimits::forConvOperands(operands);
      // A bf16/f16 result: the half storage rule (Compare.h).
      Type stored =
          cast<RankedTensorType>(c.func.getResultTypes()[i]).getElementType();
      using fusecc::ref::Storage;
      lim.forStorage(stored.isBF16()  ? Storage::BF16
                     : stored.isF16() ? Storage::F16
                                      : Storage::F32);
      if (auto a = c.func->getAttrOfType<FloatAttr>("fuse.check.rel_tol"))
        lim.widen(a.getValueAsDouble());
      // A graph ill-conditioned in f32 itself (Conditioning.h): the limits
      // widen by what its own rounding moves the reference, as the graph
      // fuzzer's do, and the line says by how much.
      fusecc::ref::Conditioning cond;
      fusecc::ref::Comparison cmp = fusecc::ref::compareWithConditioning(
          c.func, c.inputs, i, t, c.tf32Ref.empty() ? nullptr : &c.tf32Ref[i],
          out, lim, cond, c.tf32Ref.empty() ? nullptr : &c.rounding);
      bool pass = cmp.pass;
      allPass &= pass;
      outs() << "@" << name << (c.ref.size() > 1 ? "#" + std::to_string(i) : "")
             << ": " << (pass ? "PASS" : "FAIL") << " rel-L2 "
             << format("%.3e", cmp.relL2) << " max-abs "
             << format("%.3e", cmp.maxAbs) << " non-finite " << cmp.nonFinite
             << " unwritten " << cmp.unwritten << " not-close " << cmp.notClose
             << " elements " << t.size();
      if (cmp.operandsRelL2 >= 0)
        outs() << " "
               << (operands == fusecc::ref::ConvOperands::TF32   ? "tf32"
                   : operands == fusecc::ref::ConvOperands::BF16 ? "bf16"
                                                                 : "f16")
               << "-operands rel-L2 " << format("%.3e", cmp.operandsRelL2)
               << " rounding " << format("%.3e", cmp.rounding);
      if (verbose && !lim.elementSlack) {
        // -v: both conditionings even where the fixed limits held (how
        // close a chain of convolutions is to needing them).
        cond = fusecc::ref::measureConditioning(c.func, c.inputs, t, i);
        lim.elementSlack = &cond.slack;
        if (!c.tf32Ref.empty())
          cond.operandsRelL2 =
              fusecc::ref::measureConditioning(c.func, c.inputs, c.tf32Ref[i],
                                               i, &c.rounding)
                  .relL2;
      }
      if (lim.elementSlack)
        outs() << " conditioning " << format("%.3e", cond.relL2);
      if (cond.operandsRelL2 >= 0)
        outs() << " operands-conditioning "
               << format("%.3e", cond.operandsRelL2);
      if (lim.storage != Storage::F32)
        outs() << " storage " << stored;
      outs() << " (" << fusecc::toString(options.precision) << drawNote
             << ")\n";
      if (cmp.vacuous)
        outs() << "@" << name << ": the reference has no finite element: "
               << "nothing was compared (NaN matches NaN; "
               << "docs/design/checking.md, \"Vacuous references\")\n";
      if (!pass && cmp.firstBad >= 0)
        outs() << "@" << name << ": first bad element "
               << indexStr(t.shape, cmp.firstBad) << ": reference "
               << format("%.9g", t.data[cmp.firstBad]) << ", kernel "
               << format("%.9g", out.data[cmp.firstBad])
               << (out.written[cmp.firstBad] ? "" : " (unwritten)") << "\n";
    }
  }
  return allPass ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM y(argc, argv);
  fusecc::registerCodegenCLOptions();
  cl::HideUnrelatedOptions(fusecc::optionCategory());
  cl::ParseCommandLineOptions(
      argc, argv, "fusecc-check: run generated kernels on the CPU and "
                  "compare with a double-precision reference\n");
  DialectRegistry registry;
  fusecc::registerAllDialectsAndTranslations(registry);
  MLIRContext ctx(registry);
  ctx.printOpOnDiagnostic(false);
  ctx.loadAllAvailableDialects();
  std::string errorMessage;
  auto file = openInputFile(inputFile, &errorMessage);
  if (!file) {
    errs() << "fusecc-check: error: " << errorMessage << "\n";
    return 1;
  }
  SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
  return run(ctx, sourceMgr);
}
