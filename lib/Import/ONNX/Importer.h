//===- Importer.h - ONNX importer internals ------------------*- C++ -*-===//
//
// The state shared by the graph walker (Importer.cpp) and the per-op
// converters (Converters*.cpp): ONNX values, the node being converted and
// the table from op type to converter.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_LIB_IMPORT_ONNX_IMPORTER_H
#define FUSECC_LIB_IMPORT_ONNX_IMPORTER_H

#include "fusecc/Import/ONNX.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringMap.h"

#include <onnx/onnx_pb.h>

#include <map>
#include <memory>
#include <optional>

namespace fusecc::onnx_import {

using Shape = std::vector<int64_t>;

/// An ONNX value during import: its static shape and element type, and any
/// of: an IR tensor, compile-time contents, or a deferred view (a reshape of
/// a computed tensor, which fuse cannot express on its own).
struct OValue {
  Shape shape;
  int32_t elemType = onnx::TensorProto::FLOAT;
  /// FLOAT16 or BFLOAT16 for a value stored in half precision (a model
  /// input, an initializer, a Constant or a Cast result): its elemType is
  /// then FLOAT and its IR value the f32 widening of the stored tensor (a
  /// `fuse.cast` of the half argument or constant), so every converter
  /// computes on f32 (docs/design/types.md). FLOAT otherwise.
  int32_t storage = onnx::TensorProto::FLOAT;
  /// The IR value (f32 tensor), once materialised.
  mlir::Value value;
  /// Compile-time contents (row-major), for initializers, Constant nodes and
  /// folded shape computations.
  std::shared_ptr<const std::vector<double>> data;
  /// Name given to the materialised constant (`fuse.name`).
  std::string constName;
  /// An initializer used directly: becomes an argument with weightsAsArgs.
  bool isInitializer = false;
  /// Deferred view: `viewSource` (a computed tensor of another shape) seen
  /// with `shape`; `viewNode` describes the node that made the view. The
  /// GroupNorm export pattern consumes views as they are; any other use
  /// materialises a fuse.reshape (Importer::materializeView).
  mlir::Value viewSource;
  std::string viewNode;
  /// Set on the output of an imported ConvTranspose, for BatchNorm folding:
  /// the op and the ONNX names of its weight and bias (empty: none).
  mlir::Operation *convOp = nullptr;
  std::string convWeightName, convBiasName;

  bool isConst() const { return data != nullptr; }
  bool isView() const { return static_cast<bool>(viewSource); }
  int64_t numElements() const;
};

class Importer;

/// The node being converted, with typed access to its inputs, attributes
/// and outputs. Every failure emits `node 'name' (#index, Op): reason`.
class NodeContext {
public:
  NodeContext(Importer &imp, const onnx::NodeProto &node, int index,
              mlir::Location loc)
      : imp(imp), node(node), index(index), loc(loc) {}

  Importer &imp;
  const onnx::NodeProto &node;
  int index;
  mlir::Location loc;

  /// "node 'name' (#3, Relu)".
  std::string describe() const;
  /// Emits `<describe()>: <reason>` and returns failure.
  mlir::LogicalResult fail(const llvm::Twine &reason) const;
  mlir::OpBuilder &builder();
  int64_t opset() const;

  /// Number of inputs, counting trailing empty (omitted) ones.
  int numInputs() const { return node.input_size(); }
  /// Input `i`, or null where omitted (absent or empty name).
  const OValue *input(int i) const;
  /// Input `i`; fails if omitted.
  mlir::FailureOr<const OValue *> required(int i) const;
  /// Input `i` as an f32 IR tensor (materialising constants); fails on other
  /// element types and on deferred views.
  mlir::FailureOr<mlir::Value> tensor(int i);
  /// A convolution's optional bias, input `i`: a null Value when omitted,
  /// else the tensor, which must be [`channels`] (the output channels);
  /// fails naming its shape otherwise.
  mlir::FailureOr<mlir::Value> optionalBias(int i, int64_t channels);
  /// A Conv or ConvTranspose node's input and weight (inputs 0 and 1 of 2
  /// or 3): an input of rank 3 to 5 (1 to 3 spatial dims) and a weight of
  /// the same rank; fails naming what was expected otherwise.
  mlir::FailureOr<std::pair<mlir::Value, mlir::Value>> convOperands();
  /// Input `i` as compile-time contents; fails unless constant.
  mlir::FailureOr<const OValue *> constant(int i, llvm::StringRef what) const;
  /// Constant integer list from input `i` (e.g. a shape or axes).
  mlir::FailureOr<std::vector<int64_t>> constInts(int i,
                                                  llvm::StringRef what) const;

  /// Fails if the node has an attribute not in `known`.
  mlir::LogicalResult checkAttributes(llvm::ArrayRef<llvm::StringRef> known);
  const onnx::AttributeProto *attr(llvm::StringRef name) const;
  mlir::FailureOr<int64_t> attrInt(llvm::StringRef name, int64_t dflt) const;
  mlir::FailureOr<float> attrFloat(llvm::StringRef name, float dflt) const;
  mlir::FailureOr<std::string> attrString(llvm::StringRef name,
                                          llvm::StringRef dflt) const;
  /// An ints attribute; std::nullopt where absent.
  mlir::FailureOr<std::optional<std::vector<int64_t>>>
  attrInts(llvm::StringRef name) const;

  /// Fails if output `i` or a later one is present and used.
  mlir::LogicalResult onlyOutputs(int n, llvm::StringRef why) const;
  /// Defines output `i`.
  void setOutput(int i, OValue v);
  /// Defines output 0 as an IR tensor.
  void setResult(mlir::Value v);

  /// A ranked f32 tensor type.
  mlir::RankedTensorType f32Type(llvm::ArrayRef<int64_t> shape);
  /// An f32 constant tensor named `name` (materialised now).
  mlir::Value f32Constant(llvm::ArrayRef<int64_t> shape,
                          llvm::ArrayRef<double> values, llvm::StringRef name);
  /// NumPy broadcast of two shapes; fails with a reason naming both.
  mlir::FailureOr<Shape> broadcast(llvm::ArrayRef<int64_t> a,
                                   llvm::ArrayRef<int64_t> b);
  /// Normalises `axis` into [0, rank), failing with a reason otherwise.
  mlir::FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank,
                                         llvm::StringRef what) const;
};

using Converter = mlir::LogicalResult (*)(NodeContext &);

/// Op type (default domain) -> converter.
const llvm::StringMap<Converter> &converterTable();

/// Walks a ModelProto and builds the func.func.
class Importer {
public:
  Importer(mlir::MLIRContext &ctx, llvm::StringRef fileName,
           const ImportOptions &options);

  mlir::OwningOpRef<mlir::ModuleOp> run(const onnx::ModelProto &model);

  mlir::MLIRContext &ctx;
  std::string fileName;
  const ImportOptions &options;
  mlir::OpBuilder builder;
  int64_t opsetVersion = 0;
  /// The function body being built.
  mlir::Block *body = nullptr;
  /// Every ONNX value by name (std::map: stable addresses).
  std::map<std::string, OValue> values;
  /// How many node inputs and graph outputs read each value.
  llvm::StringMap<int> useCount;
  /// Function arguments and their `fuse.name`s.
  std::vector<std::string> argNames;

  mlir::Location fileLoc();
  /// The IR tensor for `v` (materialising a constant or an argument).
  mlir::Value materialize(OValue &v);
  /// Turns the deferred view `v` into a plain value: a fuse.reshape of its
  /// source at `loc` (reused by later uses).
  mlir::Value materializeView(OValue &v, mlir::Location loc);
  mlir::LogicalResult error(const llvm::Twine &message);

private:
  mlir::LogicalResult addInitializers(const onnx::GraphProto &graph);
  mlir::LogicalResult addInputs(const onnx::GraphProto &graph);
  mlir::LogicalResult convertNodes(const onnx::GraphProto &graph);
};

/// Reads a TensorProto's contents as doubles (shape in `shape`).
mlir::LogicalResult readTensor(const onnx::TensorProto &t, Shape &shape,
                               std::vector<double> &data, std::string &error);
/// The ONNX name of a TensorProto data type ("FLOAT", "INT64", ...).
std::string typeName(int32_t type);

/// True for the ONNX half types FLOAT16 and BFLOAT16.
bool isHalfONNXType(int32_t type);

/// The MLIR element type of ONNX float type `type` (f16, bf16, else f32).
mlir::Type storageElementType(mlir::MLIRContext &ctx, int32_t type);

/// Marks `v` as stored in ONNX type `type`: a half type is computed as FLOAT
/// (OValue::storage).
void setStorageType(OValue &v, int32_t type);
/// "2x3x4" (or "scalar" for rank 0).
std::string shapeStr(llvm::ArrayRef<int64_t> shape);

} // namespace fusecc::onnx_import

#endif // FUSECC_LIB_IMPORT_ONNX_IMPORTER_H
