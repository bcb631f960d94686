//===- fusecc-onnx-test.cpp - run ONNX node tests through the reference ---===//
//
// fusecc-onnx-test <dir>: for every ONNX node test under <dir> (Debian
// libonnx-testdata: /usr/share/libonnx-testdata/data/node) whose model uses
// an op of the importer's scope, imports model.onnx, evaluates the graph
// with the CPU reference on each test_data_set_*/input_*.pb and compares to
// output_*.pb. Prints one line per test (PASS, FAIL, or SKIP with the
// reason), per-op counts and a total. Inputs that are not float tensors
// (float32, float16, bfloat16; shapes, axes, integer exponents) are bound as
// constants. Exits 1 on any FAIL.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Import/ONNX.h"
#include "fusecc/Reference/Reference.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace mlir;
using namespace llvm;
namespace oi = fusecc::onnx_import;

namespace {

cl::opt<std::string> testDir(cl::Positional, cl::Required,
                             cl::desc("<onnx node test directory>"));
cl::opt<double> rtol("rtol", cl::desc("relative tolerance"), cl::init(1e-4));
cl::opt<double> atol("atol", cl::desc("absolute tolerance"), cl::init(1e-5));

/// The ops of issue 16's import scope: a node test using one is reported.
const llvm::StringSet<> &scope() {
  static const llvm::StringSet<> s = {"ConvTranspose",
                                      "Conv",
                                      "Concat",
                                      "Resize",
                                      "Upsample",
                                      "BatchNormalization",
                                      "InstanceNormalization",
                                      "LayerNormalization",
                                      "GroupNormalization",
                                      "Softmax",
                                      "LogSoftmax",
                                      "MaxPool",
                                      "AveragePool",
                                      "GlobalAveragePool",
                                      "GlobalMaxPool",
                                      "LpPool",
                                      "GlobalLpPool",
                                      "ReduceSum",
                                      "ReduceMean",
                                      "ReduceMax",
                                      "ReduceMin",
                                      "ReduceLogSumExp",
                                      "ReduceSumSquare",
                                      "ReduceL1",
                                      "ReduceL2",
                                      "ReduceLogSum",
                                      "ReduceProd",
                                      "Add",
                                      "Sub",
                                      "Mul",
                                      "Div",
                                      "Max",
                                      "Min",
                                      "Pow",
                                      "Neg",
                                      "Abs",
                                      "Exp",
                                      "Log",
                                      "Sqrt",
                                      "Reciprocal",
                                      "Erf",
                                      "Tanh",
                                      "Sigmoid",
                                      "Relu",
                                      "LeakyRelu",
                                      "Elu",
                                      "Softplus",
                                      "Mish",
                                      "HardSigmoid",
                                      "HardSwish",
                                      "Gelu",
                                      "Clip",
                                      "PRelu",
                                      "Sum",
                                      "Mean",
                                      "Identity",
                                      "Cast",
                                      "Constant",
                                      "Shape",
                                      "Reshape",
                                      "Unsqueeze",
                                      "Squeeze",
                                      "Flatten"};
  return s;
}

enum class Outcome { Pass, Fail, Skip };

/// The bfloat16 value of the 16 bits `bits` (a UINT16 element).
double bf16Bits(double bits) {
  llvm::APFloat a(llvm::APFloat::BFloat(),
                  llvm::APInt(16, static_cast<uint64_t>(bits)));
  return a.convertToDouble();
}

struct Result {
  Outcome outcome;
  std::string detail;
};

std::string readFile(StringRef path, bool &ok) {
  auto buf = MemoryBuffer::getFile(path, /*IsText=*/false);
  ok = static_cast<bool>(buf);
  return ok ? (*buf)->getBuffer().str() : std::string();
}

/// Sorted `prefix*` entries of `dir`.
std::vector<std::string> listDir(StringRef dir, StringRef prefix) {
  std::vector<std::string> out;
  std::error_code ec;
  for (sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (sys::path::filename(it->path()).starts_with(prefix))
      out.push_back(it->path());
  std::sort(out.begin(), out.end());
  return out;
}

/// Runs one data set of one test. With `bindParams`, every input after the
/// first is bound as a constant (parameters such as BatchNormalization's
/// statistics are initializers in real models).
Result runDataSet(StringRef model, const oi::ModelInfo &info, StringRef dataDir,
                  bool bindParams) {
  oi::ImportOptions options;
  std::vector<fusecc::ref::Tensor> args;
  for (auto [i, in] : llvm::enumerate(info.inputs)) {
    bool ok;
    std::string path = (dataDir + "/input_" + Twine(i) + ".pb").str();
    std::string bytes = readFile(path, ok);
    if (!ok)
      return {Outcome::Skip, "missing " + path};
    if (in.elementType.empty())
      return {Outcome::Skip, "input '" + in.name +
                                 "' is not a tensor (sequence and optional "
                                 "types are not supported)"};
    bool isFloat = in.elementType == "FLOAT" || in.elementType == "FLOAT16" ||
                   in.elementType == "BFLOAT16";
    if (!isFloat || (bindParams && i > 0)) {
      options.boundInputs[in.name] = bytes;
      continue;
    }
    std::string error;
    FailureOr<oi::TensorData> t = oi::readTensorProto(bytes, error);
    if (failed(t))
      return {Outcome::Skip, path + ": " + error};
    fusecc::ref::Tensor r;
    r.shape = t->shape;
    r.data = t->data;
    // Older test data stores a BFLOAT16 tensor as UINT16 bits (numpy has
    // no bfloat16).
    if (in.elementType == "BFLOAT16" && t->elementType == "UINT16")
      for (double &v : r.data)
        v = bf16Bits(v);
    options.inputShapes[in.name] = t->shape;
    args.push_back(std::move(r));
  }

  MLIRContext ctx;
  std::string diag;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    if (diag.empty() && d.getSeverity() == DiagnosticSeverity::Error)
      diag = d.str();
    return success();
  });
  OwningOpRef<ModuleOp> module =
      oi::importONNX(ctx, model, "model.onnx", options);
  if (!module)
    return {Outcome::Skip, "import: " + diag};
  auto funcs = module->getOps<func::FuncOp>();
  if (funcs.empty())
    return {Outcome::Skip, "import produced no function"};
  func::FuncOp func = *funcs.begin();
  FailureOr<std::vector<fusecc::ref::Tensor>> outs =
      fusecc::ref::evaluate(*funcs.begin(), args);
  if (failed(outs))
    return {Outcome::Skip, "reference: " + diag};

  for (size_t k = 0; k < outs->size(); ++k) {
    bool ok;
    std::string path = (dataDir + "/output_" + Twine(k) + ".pb").str();
    std::string bytes = readFile(path, ok);
    if (!ok)
      return {Outcome::Fail, "missing " + path};
    std::string error;
    FailureOr<oi::TensorData> want = oi::readTensorProto(bytes, error);
    if (failed(want))
      return {Outcome::Fail, path + ": " + error};
    const fusecc::ref::Tensor &got = (*outs)[k];
    Type resultType =
        cast<RankedTensorType>(func.getResultTypes()[k]).getElementType();
    if (resultType.isBF16() && want->elementType == "UINT16")
      for (double &v : want->data)
        v = bf16Bits(v);
    if (got.shape != want->shape)
      return {Outcome::Fail, "output " + std::to_string(k) +
                                 ": shape differs from the expected one"};
    // A half output is compared to within one unit in its last place
    // (2^-7 relative for bfloat16, 2^-10 for float16): the stored outputs of
    // older ONNX releases round FLOAT -> BFLOAT16 toward zero, fusecc (as
    // PyTorch and ONNX >= 1.14) to nearest even.
    double relTol = rtol;
    if (resultType.isBF16())
      relTol = std::max(relTol, 0x1p-7);
    else if (resultType.isF16())
      relTol = std::max(relTol, 0x1p-10);
    for (size_t e = 0; e < got.data.size(); ++e) {
      double g = static_cast<float>(got.data[e]), w = want->data[e];
      bool same = (std::isnan(g) && std::isnan(w)) || g == w ||
                  std::fabs(g - w) <= atol + relTol * std::fabs(w);
      if (!same)
        return {Outcome::Fail, "output " + std::to_string(k) + " element " +
                                   std::to_string(e) + ": got " +
                                   std::to_string(g) + ", expected " +
                                   std::to_string(w)};
    }
  }
  return {Outcome::Pass, ""};
}

struct Counts {
  int pass = 0, fail = 0, skip = 0;
};

} // namespace

int main(int argc, char **argv) {
  InitLLVM y(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "run ONNX node tests through the fusecc ONNX "
                              "importer and the CPU reference\n");
  std::vector<std::string> tests = listDir(testDir, "test_");
  if (tests.empty()) {
    errs() << "fusecc-onnx-test: error: no test_* directories in '" << testDir
           << "'\n";
    return 2;
  }
  // Op type of each single-node test, to name the expanded variants.
  StringMap<std::string> singleOp;
  struct Test {
    std::string name, model, op;
    oi::ModelInfo info;
  };
  std::vector<Test> inScope;
  int others = 0;
  for (const std::string &dir : tests) {
    Test t;
    t.name = sys::path::filename(dir).str();
    bool ok;
    t.model = readFile(dir + "/model.onnx", ok);
    std::string error;
    FailureOr<oi::ModelInfo> info = failure();
    if (ok)
      info = oi::inspectONNX(t.model, error);
    if (failed(info)) {
      outs() << "SKIP " << t.name << ": cannot read model.onnx: " << error
             << "\n";
      continue;
    }
    t.info = *info;
    if (t.info.opTypes.size() == 1)
      singleOp[t.name] = t.info.opTypes[0];
    // An expanded test belongs to the op it expands (listed just before it).
    StringRef base = StringRef(t.name);
    bool expanded = base.consume_back("_expanded") && singleOp.count(base);
    if (expanded ? !scope().contains(singleOp[base])
                 : !llvm::any_of(t.info.opTypes, [](const std::string &op) {
                     return scope().contains(op);
                   })) {
      ++others;
      continue;
    }
    inScope.push_back(std::move(t));
  }

  std::map<std::string, Counts> perOp;
  Counts total;
  for (Test &t : inScope) {
    if (t.info.opTypes.size() == 1) {
      t.op = t.info.opTypes[0];
    } else if (StringRef(t.name).ends_with("_expanded") &&
               singleOp.count(StringRef(t.name).drop_back(9))) {
      t.op = singleOp[StringRef(t.name).drop_back(9)] + " (expanded)";
    } else {
      t.op = *llvm::find_if(t.info.opTypes, [](const std::string &op) {
        return scope().contains(op);
      });
      t.op += " (multi-node)";
    }
    std::vector<std::string> sets =
        listDir((Twine(testDir) + "/" + t.name).str(), "test_data_set_");
    Result r{Outcome::Skip, "no test_data_set_* directory"};
    bool bindParams = false;
    for (const std::string &set : sets) {
      r = runDataSet(t.model, t.info, set, bindParams);
      if (r.outcome == Outcome::Skip && !bindParams &&
          StringRef(r.detail).contains("must be a constant")) {
        bindParams = true;
        r = runDataSet(t.model, t.info, set, bindParams);
      }
      if (r.outcome != Outcome::Pass)
        break;
    }
    if (r.outcome == Outcome::Pass && bindParams)
      r.detail = " (inputs after the first bound as constants)";
    Counts &c = perOp[t.op];
    switch (r.outcome) {
    case Outcome::Pass:
      ++c.pass, ++total.pass;
      outs() << "PASS " << t.name << " [" << t.op << "]" << r.detail << "\n";
      break;
    case Outcome::Fail:
      ++c.fail, ++total.fail;
      outs() << "FAIL " << t.name << " [" << t.op << "]: " << r.detail << "\n";
      break;
    case Outcome::Skip:
      ++c.skip, ++total.skip;
      outs() << "SKIP " << t.name << " [" << t.op << "]: " << r.detail << "\n";
      break;
    }
  }
  outs() << "per op:\n";
  for (const auto &[op, c] : perOp)
    outs() << "  " << op << ": " << c.pass << " pass, " << c.fail << " fail, "
           << c.skip << " skip\n";
  outs() << "total: " << total.pass << " pass, " << total.fail << " fail, "
         << total.skip << " skip (" << others
         << " tests of other ops not run)\n";
  return total.fail ? 1 : 0;
}
