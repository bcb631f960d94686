//===- Importer.cpp - ONNX model -> fuse graph ----------------------------===//
//
// Reads the model with libonnx's protobuf classes, checks the opset, turns
// initializers and inputs into constants and arguments, converts the nodes
// in order through the converter table and returns the graph outputs.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Endian.h"

#include <cstring>
#include <limits>

using namespace mlir;
using namespace fusecc::onnx_import;
using llvm::StringRef;

namespace {
/// Opset versions of the default domain the converters handle.
constexpr int64_t kMinOpset = 1, kMaxOpset = 18;
/// Largest tensor the importer reads (elements).
constexpr int64_t kMaxElements = int64_t(1) << 32;
} // namespace

int64_t OValue::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string fusecc::onnx_import::typeName(int32_t type) {
  if (onnx::TensorProto::DataType_IsValid(type))
    return onnx::TensorProto::DataType_Name(
        static_cast<onnx::TensorProto::DataType>(type));
  return "type#" + std::to_string(type);
}

std::string fusecc::onnx_import::shapeStr(llvm::ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string s;
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? "x" : "") + std::to_string(d);
  return s;
}

//===----------------------------------------------------------------------===//
// Tensor contents
//===----------------------------------------------------------------------===//

/// The value of the 16 bits `bits` of ONNX type `type` (FLOAT16 or
/// BFLOAT16).
static double halfBitsToDouble(uint16_t bits, int32_t type) {
  APFloat a(type == onnx::TensorProto::FLOAT16 ? APFloat::IEEEhalf()
                                               : APFloat::BFloat(),
            APInt(16, bits));
  return a.convertToDouble();
}

LogicalResult fusecc::onnx_import::readTensor(const onnx::TensorProto &t,
                                              Shape &shape,
                                              std::vector<double> &data,
                                              std::string &error) {
  shape.clear();
  int64_t n = 1;
  for (int64_t d : t.dims()) {
    if (d < 0) {
      error = "negative dim " + std::to_string(d);
      return failure();
    }
    if (d != 0 && n > kMaxElements / d) {
      error = "too many elements";
      return failure();
    }
    n *= d;
    shape.push_back(d);
  }
  if (t.data_location() == onnx::TensorProto::EXTERNAL) {
    error = "external data is not supported (save the model with its "
            "weights inside)";
    return failure();
  }
  if (t.segment().begin() != 0 || t.segment().end() != 0) {
    error = "segmented tensors are not supported";
    return failure();
  }
  size_t elemBytes = 0;
  int32_t ty = t.data_type();
  switch (ty) {
  case onnx::TensorProto::FLOAT:
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::UINT32:
    elemBytes = 4;
    break;
  case onnx::TensorProto::DOUBLE:
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::UINT64:
    elemBytes = 8;
    break;
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::UINT16:
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16:
    elemBytes = 2;
    break;
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8:
  case onnx::TensorProto::BOOL:
    elemBytes = 1;
    break;
  default:
    error = "element type " + typeName(ty) + " is not supported";
    return failure();
  }
  if (t.has_raw_data()) {
    const std::string &raw = t.raw_data();
    if (raw.size() != static_cast<size_t>(n) * elemBytes) {
      error = "raw_data holds " + std::to_string(raw.size()) +
              " bytes, expected " + std::to_string(n * elemBytes) + " for " +
              shapeStr(shape) + " " + typeName(ty);
      return failure();
    }
    data.assign(n, 0.0);
    const char *p = raw.data();
    namespace E = llvm::support::endian;
    for (int64_t i = 0; i < n; ++i, p += elemBytes) {
      switch (ty) {
      case onnx::TensorProto::FLOAT: {
        uint32_t bits = E::read32le(p);
        float f;
        std::memcpy(&f, &bits, 4);
        data[i] = f;
        break;
      }
      case onnx::TensorProto::DOUBLE: {
        uint64_t bits = E::read64le(p);
        double f;
        std::memcpy(&f, &bits, 8);
        data[i] = f;
        break;
      }
      case onnx::TensorProto::INT64:
        data[i] = static_cast<double>(static_cast<int64_t>(E::read64le(p)));
        break;
      case onnx::TensorProto::UINT64:
        data[i] = static_cast<double>(E::read64le(p));
        break;
      case onnx::TensorProto::INT32:
        data[i] = static_cast<int32_t>(E::read32le(p));
        break;
      case onnx::TensorProto::UINT32:
        data[i] = E::read32le(p);
        break;
      case onnx::TensorProto::INT16:
        data[i] = static_cast<int16_t>(E::read16le(p));
        break;
      case onnx::TensorProto::UINT16:
        data[i] = E::read16le(p);
        break;
      case onnx::TensorProto::FLOAT16:
      case onnx::TensorProto::BFLOAT16:
        data[i] = halfBitsToDouble(E::read16le(p), ty);
        break;
      case onnx::TensorProto::INT8:
        data[i] = static_cast<int8_t>(*p);
        break;
      default: // UINT8, BOOL
        data[i] = static_cast<uint8_t>(*p);
        break;
      }
    }
    return success();
  }
  auto check = [&](int count, StringRef field) -> LogicalResult {
    if (count == n) {
      data.assign(n, 0.0);
      return success();
    }
    error = StringRef(field).str() + " holds " + std::to_string(count) +
            " values, expected " + std::to_string(n) + " for " +
            shapeStr(shape);
    return failure();
  };
  switch (ty) {
  case onnx::TensorProto::FLOAT:
    if (failed(check(t.float_data_size(), "float_data")))
      return failure();
    for (int64_t i = 0; i < n; ++i)
      data[i] = t.float_data(i);
    break;
  case onnx::TensorProto::DOUBLE:
    if (failed(check(t.double_data_size(), "double_data")))
      return failure();
    for (int64_t i = 0; i < n; ++i)
      data[i] = t.double_data(i);
    break;
  case onnx::TensorProto::INT64:
    if (failed(check(t.int64_data_size(), "int64_data")))
      return failure();
    for (int64_t i = 0; i < n; ++i)
      data[i] = static_cast<double>(t.int64_data(i));
    break;
  case onnx::TensorProto::UINT32:
  case onnx::TensorProto::UINT64:
    if (failed(check(t.uint64_data_size(), "uint64_data")))
      return failure();
    for (int64_t i = 0; i < n; ++i)
      data[i] = static_cast<double>(t.uint64_data(i));
    break;
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16:
    // int32_data holds each value's 16 bits (onnx.proto).
    if (failed(check(t.int32_data_size(), "int32_data")))
      return failure();
    for (int64_t i = 0; i < n; ++i)
      data[i] = halfBitsToDouble(static_cast<uint16_t>(t.int32_data(i)), ty);
    break;
  default:
    if (failed(check(t.int32_data_size(), "int32_data")))
      return failure();
    for (int64_t i = 0; i < n; ++i)
      data[i] = t.int32_data(i);
    break;
  }
  return success();
}

bool fusecc::onnx_import::isHalfONNXType(int32_t type) {
  return type == onnx::TensorProto::FLOAT16 ||
         type == onnx::TensorProto::BFLOAT16;
}

Type fusecc::onnx_import::storageElementType(MLIRContext &ctx, int32_t type) {
  if (type == onnx::TensorProto::FLOAT16)
    return Float16Type::get(&ctx);
  if (type == onnx::TensorProto::BFLOAT16)
    return BFloat16Type::get(&ctx);
  return Float32Type::get(&ctx);
}

void fusecc::onnx_import::setStorageType(OValue &v, int32_t type) {
  v.elemType = type;
  v.storage = onnx::TensorProto::FLOAT;
  if (isHalfONNXType(type)) {
    v.storage = type;
    v.elemType = onnx::TensorProto::FLOAT;
  }
}

//===----------------------------------------------------------------------===//
// Public helpers
//===----------------------------------------------------------------------===//

bool fusecc::onnx_import::looksLikeONNX(StringRef path, StringRef contents) {
  return path.ends_with_insensitive(".onnx") ||
         (!contents.empty() && contents[0] == '\x08');
}

std::string fusecc::onnx_import::parseInputShape(StringRef spec,
                                                 ImportOptions &options) {
  auto [name, dims] = spec.rsplit('=');
  if (name.empty() || dims.empty() || !spec.contains('='))
    return "--input-shape expects name=d0xd1x..., got '" + spec.str() + "'";
  std::vector<int64_t> shape;
  SmallVector<StringRef> parts;
  dims.split(parts, 'x');
  for (StringRef p : parts) {
    int64_t d;
    if (p.getAsInteger(10, d) || d <= 0)
      return "--input-shape '" + spec.str() +
             "': dims must be positive integers separated by 'x'";
    shape.push_back(d);
  }
  if (options.inputShapes.count(name))
    return "--input-shape names '" + name.str() + "' twice";
  options.inputShapes[name] = std::move(shape);
  return "";
}

FailureOr<ModelInfo> fusecc::onnx_import::inspectONNX(StringRef bytes,
                                                      std::string &error) {
  onnx::ModelProto model;
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())) ||
      !model.has_graph()) {
    error = "not a valid ONNX model (protobuf parse failed or no graph)";
    return failure();
  }
  ModelInfo info;
  llvm::StringSet<> inits;
  for (const auto &t : model.graph().initializer())
    inits.insert(t.name());
  for (const auto &in : model.graph().input()) {
    if (inits.contains(in.name()))
      continue;
    InputInfo i;
    i.name = in.name();
    const auto &tt = in.type().tensor_type();
    if (in.type().has_tensor_type())
      i.elementType = typeName(tt.elem_type());
    for (const auto &d : tt.shape().dim())
      i.shape.push_back(d.has_dim_value() ? d.dim_value() : -1);
    info.inputs.push_back(std::move(i));
  }
  for (const auto &n : model.graph().node())
    info.opTypes.push_back(n.op_type());
  return info;
}

FailureOr<TensorData> fusecc::onnx_import::readTensorProto(StringRef bytes,
                                                           std::string &error) {
  onnx::TensorProto t;
  if (!t.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    error = "not a valid TensorProto";
    return failure();
  }
  TensorData out;
  out.elementType = typeName(t.data_type());
  if (failed(readTensor(t, out.shape, out.data, error)))
    return failure();
  return out;
}

//===----------------------------------------------------------------------===//
// Importer
//===----------------------------------------------------------------------===//

Importer::Importer(MLIRContext &ctx, StringRef fileName,
                   const ImportOptions &options)
    : ctx(ctx), fileName(fileName.str()), options(options), builder(&ctx) {}

Location Importer::fileLoc() {
  return FileLineColLoc::get(&ctx, fileName, 0, 0);
}

LogicalResult Importer::error(const llvm::Twine &message) {
  return emitError(fileLoc()) << message.str();
}

Value Importer::materialize(OValue &v) {
  if (v.value)
    return v.value;
  auto ty = RankedTensorType::get(v.shape, Float32Type::get(&ctx));
  // A half value is stored (argument or constant) in its half type and
  // widened to f32 by a fuse.cast.
  auto stored = RankedTensorType::get(v.shape,
                                      storageElementType(ctx, v.storage));
  auto widen = [&](Value s) -> Value {
    if (s.getType() == ty)
      return s;
    return fuse::CastOp::create(builder, s.getLoc(), ty, s);
  };
  if (options.weightsAsArgs && v.isInitializer) {
    v.value = widen(body->addArgument(stored, fileLoc()));
    argNames.push_back(v.constName);
    return v.value;
  }
  SmallVector<APFloat> f;
  const llvm::fltSemantics &sem =
      cast<FloatType>(stored.getElementType()).getFloatSemantics();
  for (double d : *v.data) {
    APFloat a(d);
    bool losesInfo = false;
    a.convert(sem, APFloat::rmNearestTiesToEven, &losesInfo);
    f.push_back(a);
  }
  auto attr = DenseElementsAttr::get(stored, f);
  Location loc = NameLoc::get(StringAttr::get(&ctx, v.constName), fileLoc());
  auto cst = arith::ConstantOp::create(builder, loc, attr);
  cst->setAttr("fuse.name", StringAttr::get(&ctx, v.constName));
  v.value = widen(cst);
  return v.value;
}

Value Importer::materializeView(OValue &v, Location loc) {
  auto ty = RankedTensorType::get(v.shape, Float32Type::get(&ctx));
  v.value = fuse::ReshapeOp::create(builder, loc, ty, v.viewSource);
  v.viewSource = nullptr;
  v.viewNode.clear();
  return v.value;
}

LogicalResult Importer::addInitializers(const onnx::GraphProto &graph) {
  if (graph.sparse_initializer_size())
    return error("sparse initializers are not supported");
  for (const auto &t : graph.initializer()) {
    if (t.name().empty())
      return error("an initializer has no name");
    if (values.count(t.name()))
      return error("initializer '" + t.name() +
                   "' is defined twice (names must be unique)");
    OValue v;
    std::vector<double> data;
    std::string why;
    if (failed(readTensor(t, v.shape, data, why)))
      return error("initializer '" + t.name() + "': " + why);
    setStorageType(v, t.data_type());
    v.data = std::make_shared<const std::vector<double>>(std::move(data));
    v.constName = t.name();
    v.isInitializer = true;
    values[t.name()] = std::move(v);
  }
  for (const auto &kv : options.boundInputs) {
    onnx::TensorProto t;
    OValue v;
    std::vector<double> data;
    std::string why = "not a valid TensorProto";
    if (!t.ParseFromString(kv.second) ||
        failed(readTensor(t, v.shape, data, why)))
      return error("bound input '" + kv.first() + "': " + why);
    setStorageType(v, t.data_type());
    v.data = std::make_shared<const std::vector<double>>(std::move(data));
    v.constName = kv.first().str();
    values[kv.first().str()] = std::move(v);
  }
  return success();
}

LogicalResult Importer::addInputs(const onnx::GraphProto &graph) {
  llvm::StringSet<> seen;
  for (const auto &in : graph.input())
    if (!seen.insert(in.name()).second)
      return error("input '" + in.name() +
                   "' is listed twice (names must be unique)");
  for (const auto &kv : options.inputShapes) {
    if (!seen.contains(kv.first()) || options.boundInputs.count(kv.first()))
      return error("--input-shape names '" + kv.first() +
                   "', which is not a model input");
    // An input with an initializer of its name (IR >= 4: its default) is
    // compiled as that constant.
    if (values.count(kv.first().str()))
      return error("--input-shape names '" + kv.first() +
                   "', an input with an initializer of the same name, which "
                   "fusecc compiles as that constant");
  }
  for (const auto &in : graph.input()) {
    if (values.count(in.name()))
      continue; // an initializer (IR < 4 lists them as inputs) or bound
    if (in.name().empty())
      return error("a graph input has no name");
    if (!in.type().has_tensor_type())
      return error("input '" + in.name() + "' is not a tensor");
    const auto &tt = in.type().tensor_type();
    if (tt.elem_type() != onnx::TensorProto::FLOAT &&
        !isHalfONNXType(tt.elem_type()))
      return error("input '" + in.name() + "' has element type " +
                   typeName(tt.elem_type()) +
                   "; only FLOAT, FLOAT16 and BFLOAT16 inputs are supported");
    OValue v;
    setStorageType(v, tt.elem_type());
    auto it = options.inputShapes.find(in.name());
    if (!tt.has_shape() && it == options.inputShapes.end())
      return error("input '" + in.name() +
                   "' has no declared shape; give one with --input-shape " +
                   in.name() + "=d0xd1x...");
    if (it != options.inputShapes.end()) {
      v.shape = it->second;
      if (tt.has_shape() &&
          tt.shape().dim_size() != static_cast<int>(v.shape.size()))
        return error("--input-shape " + in.name() + "=" + shapeStr(v.shape) +
                     " has rank " + std::to_string(v.shape.size()) +
                     " but the model declares rank " +
                     std::to_string(tt.shape().dim_size()));
      for (auto [i, d] : llvm::enumerate(tt.shape().dim()))
        if (d.has_dim_value() && d.dim_value() != v.shape[i])
          return error("--input-shape " + in.name() + "=" + shapeStr(v.shape) +
                       " contradicts the model's static "
                       "dim " +
                       std::to_string(i) + " = " +
                       std::to_string(d.dim_value()));
    } else {
      for (auto [i, d] : llvm::enumerate(tt.shape().dim())) {
        // --max-batch: a dynamic dim 0 is the batch.
        if (i == 0 && options.dynamicBatch && !d.has_dim_value()) {
          v.shape.push_back(options.dynamicBatch);
          continue;
        }
        if (!d.has_dim_value() || d.dim_value() <= 0)
          return error("input '" + in.name() + "' has a dynamic dim " +
                       std::to_string(i) +
                       (d.has_dim_param() ? " ('" + d.dim_param() + "')" : "") +
                       "; fix it with --input-shape " + in.name() +
                       "=d0xd1x..." +
                       (i == 0 ? " (or compile for a launch-time batch "
                                 "with --max-batch=N)"
                               : ""));
        v.shape.push_back(d.dim_value());
      }
    }
    auto ty = RankedTensorType::get(v.shape, storageElementType(ctx, v.storage));
    v.value = body->addArgument(ty, fileLoc());
    builder.setInsertionPointToEnd(body);
    if (isHalfONNXType(v.storage))
      v.value = fuse::CastOp::create(
          builder, fileLoc(),
          RankedTensorType::get(v.shape, Float32Type::get(&ctx)), v.value);
    argNames.push_back(in.name());
    values[in.name()] = std::move(v);
  }
  for (const auto &kv : options.boundInputs)
    if (!seen.contains(kv.first()))
      return error("bound input '" + kv.first() + "' is not a model input");
  return success();
}

LogicalResult Importer::convertNodes(const onnx::GraphProto &graph) {
  const llvm::StringMap<Converter> &table = converterTable();
  for (const auto &node : graph.node())
    for (const std::string &in : node.input())
      if (!in.empty())
        ++useCount[in];
  for (const auto &out : graph.output())
    ++useCount[out.name()];

  for (auto [index, node] : llvm::enumerate(graph.node())) {
    std::string label =
        node.name().empty() ? "#" + std::to_string(index) : node.name();
    Location loc = NameLoc::get(StringAttr::get(&ctx, label), fileLoc());
    NodeContext nc(*this, node, static_cast<int>(index), loc);
    if (!node.domain().empty() && node.domain() != "ai.onnx")
      return nc.fail("domain '" + node.domain() +
                     "' is not supported (only "
                     "the default ONNX domain)");
    for (auto [i, in] : llvm::enumerate(node.input()))
      if (!in.empty() && !values.count(in))
        return nc.fail("input " + std::to_string(i) + " ('" + in +
                       "') is not defined by an earlier node, an input or "
                       "an initializer");
    // Every value has one definition (SSA): an output may not redefine an
    // input, an initializer, an earlier node's output or another output.
    llvm::StringSet<> outs;
    for (auto [i, out] : llvm::enumerate(node.output()))
      if (!out.empty() && (values.count(out) || !outs.insert(out).second))
        return nc.fail("output " + std::to_string(i) + " ('" + out +
                       "') is already defined (value names must be "
                       "unique)");
    auto it = table.find(node.op_type());
    if (it == table.end())
      return nc.fail("op type is not supported by the importer");
    builder.setInsertionPointToEnd(body);
    if (failed(it->second(nc)))
      return failure();
    for (auto [i, out] : llvm::enumerate(node.output()))
      if (!out.empty() && useCount.lookup(out) && !values.count(out))
        return nc.fail("output " + std::to_string(i) + " ('" + out +
                       "') is used but the importer does not compute it");
  }
  return success();
}

OwningOpRef<ModuleOp> Importer::run(const onnx::ModelProto &model) {
  if (!model.has_graph()) {
    (void)error("the model has no graph");
    return nullptr;
  }
  for (const auto &op : model.opset_import())
    if (op.domain().empty() || op.domain() == "ai.onnx")
      opsetVersion = op.version();
  if (opsetVersion == 0 && model.opset_import_size() == 0)
    opsetVersion = 1; // IR < 3 models name no opset: version 1
  if (opsetVersion < kMinOpset || opsetVersion > kMaxOpset) {
    (void)error("opset " + std::to_string(opsetVersion) +
                " of the default domain is not supported (supported: " +
                std::to_string(kMinOpset) + " to " + std::to_string(kMaxOpset) +
                ")");
    return nullptr;
  }
  const onnx::GraphProto &graph = model.graph();
  auto module = ModuleOp::create(fileLoc());
  OwningOpRef<ModuleOp> owned(module);
  auto block = std::make_unique<Block>();
  body = block.get();
  if (failed(addInitializers(graph)) || failed(addInputs(graph)) ||
      failed(convertNodes(graph)))
    return nullptr;

  builder.setInsertionPointToEnd(body);
  SmallVector<Value> results;
  if (graph.output_size() == 0) {
    (void)error("the graph has no outputs");
    return nullptr;
  }
  for (const auto &out : graph.output()) {
    auto it = values.find(out.name());
    if (it == values.end()) {
      (void)error("graph output '" + out.name() + "' is not computed");
      return nullptr;
    }
    OValue &v = it->second;
    if (v.isView())
      materializeView(v, fileLoc());
    if (v.elemType != onnx::TensorProto::FLOAT) {
      (void)error("graph output '" + out.name() + "' has element type " +
                  typeName(v.elemType) + "; only FLOAT, FLOAT16 and BFLOAT16 "
                  "outputs are supported");
      return nullptr;
    }
    // The declared element type (else the value's storage): a half output
    // is its f32 value rounded once by a cast.
    int32_t declaredType = v.storage;
    if (out.type().has_tensor_type() && out.type().tensor_type().elem_type())
      declaredType = out.type().tensor_type().elem_type();
    if (declaredType != onnx::TensorProto::FLOAT &&
        !isHalfONNXType(declaredType)) {
      (void)error("graph output '" + out.name() + "' is declared " +
                  typeName(declaredType) + "; only FLOAT, FLOAT16 and "
                  "BFLOAT16 outputs are supported");
      return nullptr;
    }
    const auto &tt = out.type().tensor_type();
    if (tt.has_shape()) {
      bool mismatch = tt.shape().dim_size() != static_cast<int>(v.shape.size());
      for (auto [i, d] : llvm::enumerate(tt.shape().dim()))
        if (!mismatch && d.has_dim_value() && d.dim_value() != v.shape[i])
          mismatch = true;
      if (mismatch) {
        std::string declared;
        for (auto [i, d] : llvm::enumerate(tt.shape().dim()))
          declared += (i ? "x" : "") + (d.has_dim_value()
                                            ? std::to_string(d.dim_value())
                                            : std::string("?"));
        (void)error("graph output '" + out.name() + "' is declared " +
                    (declared.empty() ? std::string("scalar") : declared) +
                    " but computes to " + shapeStr(v.shape));
        return nullptr;
      }
    }
    // A weight returned directly is returned as a constant.
    bool saved = v.isInitializer;
    v.isInitializer = false;
    Value result = materialize(v);
    if (isHalfONNXType(declaredType))
      result = fuse::CastOp::create(
          builder, fileLoc(),
          RankedTensorType::get(v.shape, storageElementType(ctx, declaredType)),
          result);
    results.push_back(result);
    v.isInitializer = saved;
  }
  func::ReturnOp::create(builder, fileLoc(), results);

  SmallVector<Type> argTypes(body->getArgumentTypes());
  auto fnType =
      FunctionType::get(&ctx, argTypes, ValueRange(results).getTypes());
  OpBuilder mb(&ctx);
  mb.setInsertionPointToEnd(module.getBody());
  auto fn = func::FuncOp::create(mb, fileLoc(), options.funcName, fnType);
  fn.getBody().push_back(block.release());
  for (auto [i, name] : llvm::enumerate(argNames))
    fn.setArgAttr(i, "fuse.name", StringAttr::get(&ctx, name));
  if (failed(verify(module)))
    return nullptr;
  return owned;
}

OwningOpRef<ModuleOp>
fusecc::onnx_import::importONNX(MLIRContext &ctx, StringRef bytes,
                                StringRef fileName,
                                const ImportOptions &options) {
  ctx.loadDialect<fuse::FuseDialect, arith::ArithDialect, func::FuncDialect>();
  onnx::ModelProto model;
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    emitError(FileLineColLoc::get(&ctx, fileName, 0, 0))
        << "not a valid ONNX model: the protobuf could not be parsed";
    return nullptr;
  }
  Importer importer(ctx, fileName, options);
  return importer.run(model);
}
