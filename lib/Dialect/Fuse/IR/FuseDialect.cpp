//===- FuseDialect.cpp - fuse dialect registration ------------------------===//
//
// Registers the fuse dialect's ops and attributes.
//
//===----------------------------------------------------------------------===//

#include "fusecc/Dialect/Fuse/IR/FuseDialect.h"
#include "fusecc/Dialect/Fuse/IR/FuseOps.h"
#include "fusecc/Dialect/Fuse/IR/TileConfigFields.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace fusecc::fuse;

#include "fusecc/Dialect/Fuse/IR/FuseOpsDialect.cpp.inc"

#include "fusecc/Dialect/Fuse/IR/FuseEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "fusecc/Dialect/Fuse/IR/FuseAttrs.cpp.inc"

void FuseDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "fusecc/Dialect/Fuse/IR/FuseOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "fusecc/Dialect/Fuse/IR/FuseAttrs.cpp.inc"
      >();
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 fusecc::Chip chip, fusecc::Device device) {
  if (!fusecc::TargetInfo::supports(device, chip))
    return emitError() << "device '" << fusecc::toString(device)
                       << "' does not run '" << fusecc::toString(chip)
                       << "' code";
  return success();
}

LogicalResult FuseDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() != TargetAttr::kAttrName)
    return success();
  if (!isa<TargetAttr>(attr.getValue()))
    return op->emitError("expected '")
           << TargetAttr::kAttrName << "' to be a #fuse.target, got "
           << attr.getValue();
  if (!isa<ModuleOp>(op))
    return op->emitError("'")
           << TargetAttr::kAttrName << "' belongs on a module, not on '"
           << op->getName() << "'";
  return success();
}

fusecc::TargetInfo fusecc::fuse::getTargetInfo(Operation *op) {
  for (; op; op = op->getParentOp())
    if (auto target = op->getAttrOfType<TargetAttr>(TargetAttr::kAttrName))
      return target.getInfo();
  return fusecc::TargetInfo::getDefault();
}

//===----------------------------------------------------------------------===//
// KernelTypesAttr
//===----------------------------------------------------------------------===//

Type KernelTypesAttr::operandTypeOf(MLIRContext *ctx, ConvMath math,
                                    bool tensorCores) {
  // The FMA units multiply f32 whatever the requested math.
  if (!tensorCores)
    return Float32Type::get(ctx);
  switch (math) {
  case ConvMath::IEEE:
    return Float32Type::get(ctx);
  case ConvMath::TF32:
  case ConvMath::TF32x3: // hi and lo parts, both TF32
    return FloatTF32Type::get(ctx);
  case ConvMath::BF16:
    return BFloat16Type::get(ctx);
  case ConvMath::F16:
    return Float16Type::get(ctx);
  }
  llvm_unreachable("unknown ConvMath");
}

KernelTypesAttr KernelTypesAttr::decide(MLIRContext *ctx, ConvMath math,
                                        Type storage, bool tensorCores) {
  Type f32 = Float32Type::get(ctx);
  return KernelTypesAttr::get(ctx, math, storage,
                              operandTypeOf(ctx, math, tensorCores),
                              /*accumulator=*/f32, /*statistics=*/f32);
}

ConvMath fusecc::fuse::convMathFor(Precision precision, Type storage,
                                   bool pinnedIeee) {
  if (pinnedIeee)
    return ConvMath::IEEE;
  // A half graph multiplies in its storage type unless a half precision is
  // requested (bf16 storage: bf16 operands); f32 graphs in the requested
  // precision.
  if (precision != Precision::BF16 && precision != Precision::FP16) {
    if (isa<BFloat16Type>(storage))
      return ConvMath::BF16;
    if (isa<Float16Type>(storage))
      return ConvMath::F16;
  }
  switch (precision) {
  case Precision::IEEE:
    return ConvMath::IEEE;
  case Precision::TF32:
    return ConvMath::TF32;
  case Precision::BF16:
    return ConvMath::BF16;
  case Precision::FP16:
    return ConvMath::F16;
  }
  llvm_unreachable("unknown Precision");
}

/// The element type `v` is stored in (convStorageType): a half type where
/// `v` is the exact f32 widening of a stored half value.
static Type storedElementType(Value v) {
  // A chain kernel argument -> kernel input -> yielded cast is short; the
  // bound only guards against a malformed graph.
  for (int depth = 0; depth < 16; ++depth) {
    Type t = getElementTypeOrSelf(v.getType());
    if (isHalfType(t))
      return t;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto kernel = dyn_cast_or_null<KernelOp>(arg.getOwner()->getParentOp());
      if (!kernel || arg.getArgNumber() >= kernel.getInputs().size())
        return t;
      v = kernel.getInputs()[arg.getArgNumber()];
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (auto castOp = dyn_cast_or_null<CastOp>(def)) {
      Type from = getElementTypeOrSelf(castOp.getInput().getType());
      return t.isF32() && isHalfType(from) ? from : t;
    }
    if (auto kernel = dyn_cast_or_null<KernelOp>(def)) {
      v = kernel.getBody().front().getTerminator()->getOperand(0);
      continue;
    }
    return t;
  }
  return getElementTypeOrSelf(v.getType());
}

Type fusecc::fuse::convStorageType(ConvTransposeOp conv) {
  // A convolution's operands have one element type in the graph as
  // written (OneElementType): an input computed in f32 next to a stored
  // half weight is a half graph's intermediate, widened by
  // fuse-widen-half.
  Type weight = storedElementType(conv.getWeight());
  Type input = storedElementType(conv.getInput());
  if (input == weight || input.isF32())
    return weight;
  return getElementTypeOrSelf(conv.getInput().getType());
}

LogicalResult
KernelTypesAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        ConvMath math, Type storage, Type operand,
                        Type accumulator, Type statistics) {
  if (!isa<Float32Type, BFloat16Type, Float16Type>(storage))
    return emitError() << "storage must be f32, bf16 or f16, got " << storage;
  MLIRContext *ctx = storage.getContext();
  Type onTensorCores = operandTypeOf(ctx, math, /*tensorCores=*/true);
  if (operand != onTensorCores && !isa<Float32Type>(operand))
    return emitError() << "operand of " << stringifyConvMath(math)
                       << " math must be " << onTensorCores
                       << " (tensor cores) or f32 (FMA), got " << operand;
  if (!isa<Float32Type>(accumulator))
    return emitError() << "accumulator must be f32, got " << accumulator;
  if (!isa<Float32Type>(statistics))
    return emitError() << "statistics must be f32, got " << statistics;
  return success();
}

//===----------------------------------------------------------------------===//
// TileConfigAttr
//===----------------------------------------------------------------------===//

TileConfigAttr
TileConfigFields::getChecked(function_ref<InFlightDiagnostic()> emitError,
                             MLIRContext *ctx) const {
  return TileConfigAttr::getChecked(
      emitError, ctx, tileW, tileC, threadsW, threadsC, chanPerThread, ciChunk,
      types, mmaWarpsC, mmaWarpsW, mmaTilesC, mmaTilesW, rows, mergeHTaps,
      wgmmaN, wgmmaGroups, clusterC, mmaPositionsM, samples, wgmmaPhaseSplit,
      clusterK);
}

TileConfigFields TileConfigFields::of(TileConfigAttr cfg) {
  TileConfigFields f;
  f.tileW = cfg.getTileW();
  f.tileC = cfg.getTileC();
  f.threadsW = cfg.getThreadsW();
  f.threadsC = cfg.getThreadsC();
  f.chanPerThread = cfg.getChanPerThread();
  f.ciChunk = cfg.getCiChunk();
  f.types = cfg.getTypes();
  f.mmaWarpsC = cfg.getMmaWarpsC();
  f.mmaWarpsW = cfg.getMmaWarpsW();
  f.mmaTilesC = cfg.getMmaTilesC();
  f.mmaTilesW = cfg.getMmaTilesW();
  f.rows = cfg.getRows();
  f.mergeHTaps = cfg.getMergeHTaps();
  f.wgmmaN = cfg.getWgmmaN();
  f.wgmmaGroups = cfg.getWgmmaGroups();
  f.clusterC = cfg.getClusterC();
  f.mmaPositionsM = cfg.getMmaPositionsM();
  f.samples = cfg.getSamples();
  f.wgmmaPhaseSplit = cfg.getWgmmaPhaseSplit();
  f.clusterK = cfg.getClusterK();
  return f;
}

LogicalResult TileConfigAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, int64_t tileW, int64_t tileC,
    int64_t threadsW, int64_t threadsC, int64_t chanPerThread, int64_t ciChunk,
    KernelTypesAttr types, int64_t mmaWarpsC, int64_t mmaWarpsW,
    int64_t mmaTilesC, int64_t mmaTilesW, int64_t rows, int64_t mergeHTaps,
    int64_t wgmmaN, int64_t wgmmaGroups, int64_t clusterC,
    int64_t mmaPositionsM, int64_t samples, int64_t wgmmaPhaseSplit,
    int64_t clusterK) {
  if (tileW <= 0 || tileC <= 0 || threadsW <= 0 || threadsC <= 0 ||
      chanPerThread <= 0 || ciChunk <= 0)
    return emitError() << "tile config sizes must be positive";
  if (tileW % threadsW != 0)
    return emitError() << "tileW (" << tileW
                       << ") must be a multiple of threadsW (" << threadsW
                       << ")";
  if (threadsW * threadsC > 1024)
    return emitError() << "threadsW * threadsC = " << threadsW * threadsC
                       << " exceeds 1024 threads per block";
  if (!types)
    return emitError() << "a tile config needs its kernel's types";
  const ConvMath math = types.getMath();
  const bool split = math == ConvMath::TF32x3;
  bool anyMma = mmaWarpsC || mmaWarpsW || mmaTilesC || mmaTilesW;
  bool anyWgmma = wgmmaN || wgmmaGroups;
  if (split && !anyMma && !anyWgmma)
    return emitError() << "math " << stringifyConvMath(math)
                       << " needs the tensor-core path";
  // The operand type is the path's: the tensor cores' for the math, f32 on
  // the FMA units (KernelTypesAttr::decide).
  Type operand = KernelTypesAttr::operandTypeOf(types.getContext(), math,
                                                anyMma || anyWgmma);
  if (types.getOperand() != operand)
    return emitError() << "operand type must be " << operand << " for "
                       << stringifyConvMath(math) << " math on the "
                       << (anyMma || anyWgmma ? "tensor cores" : "FMA units")
                       << ", got " << types.getOperand();
  if (anyMma && anyWgmma)
    return emitError() << "a tile config uses either mma.sync tiles or wgmma, "
                          "not both";
  if (anyWgmma) {
    if (math == ConvMath::IEEE)
      return emitError() << "wgmma needs tf32, tf32x3, bf16 or f16 math, got "
                         << stringifyConvMath(math);
    if (wgmmaN <= 0 || wgmmaN % 8 != 0 || wgmmaN > 256)
      return emitError() << "wgmmaN must be a multiple of 8 in [8, 256], got "
                         << wgmmaN;
    if (tileC % 64 != 0)
      return emitError() << "tileC (" << tileC
                         << ") must be a multiple of 64 with wgmma";
    if (wgmmaGroups <= 0 || wgmmaGroups % (tileC / 64) != 0)
      return emitError() << "wgmmaGroups (" << wgmmaGroups
                         << ") must be a positive multiple of tileC / 64 ("
                         << tileC / 64 << ")";
    // The phase split's warpgroups share their rows (checked below).
    const int64_t rowSplit =
        wgmmaGroups / (tileC / 64) / std::max<int64_t>(1, wgmmaPhaseSplit);
    if (rowSplit < 1 || rows % rowSplit != 0)
      return emitError() << "rows (" << rows
                         << ") must be a multiple of the warpgroups per "
                            "channel group ("
                         << rowSplit << ")";
    if (tileW % wgmmaN != 0)
      return emitError() << "tileW (" << tileW
                         << ") must be stride_w * wgmmaN, a multiple of "
                            "wgmmaN ("
                         << wgmmaN << ")";
    if (threadsW * threadsC != 128 * wgmmaGroups)
      return emitError() << "threadsW * threadsC (" << threadsW * threadsC
                         << ") must be 128 * wgmmaGroups (" << 128 * wgmmaGroups
                         << ")";
    if (ciChunk % 8 != 0)
      return emitError() << "ciChunk (" << ciChunk
                         << ") must be a multiple of 8 with wgmma";
    // Half operands: one k16 wgmma per pair of 4-channel planes.
    if (types.usesHalfOperands() && ciChunk % 16 != 0)
      return emitError() << "ciChunk (" << ciChunk
                         << ") must be a multiple of 16 with "
                         << stringifyConvMath(math) << " wgmma";
  }
  if (rows < 1)
    return emitError() << "rows must be positive, got " << rows;
  if (rows > 1 && !anyMma && !anyWgmma)
    return emitError() << "rows > 1 needs the tensor-core path";
  if (mergeHTaps != 0 && mergeHTaps != 1)
    return emitError() << "mergeHTaps must be 0 or 1, got " << mergeHTaps;
  if (mergeHTaps && !anyMma && !anyWgmma)
    return emitError() << "mergeHTaps needs the tensor-core path";
  if (clusterC != 1 && clusterC != 2 && clusterC != 4 && clusterC != 8)
    return emitError() << "clusterC must be 1, 2, 4 or 8, got " << clusterC;
  if (clusterC > 1 && !anyWgmma)
    return emitError() << "clusterC > 1 needs the wgmma path";
  if (clusterK != 1 && clusterK != 2 && clusterK != 4 && clusterK != 8)
    return emitError() << "clusterK must be 1, 2, 4 or 8, got " << clusterK;
  if (clusterK > 1 && (!anyWgmma || clusterC != 1 || split))
    return emitError() << "clusterK > 1 needs the wgmma path without clusterC "
                          "or tf32x3";
  // wgmma with positions on M: blocks whose W phases are split over
  // warpgroups, each phase's positions the M of its warpgroup's wgmma, the
  // block's channels its N (TilePhaseSplit.cpp).
  if (mmaPositionsM && !anyMma && !(anyWgmma && wgmmaPhaseSplit > 1 && !split))
    return emitError() << "mmaPositionsM needs mma.sync tiles or wgmma phases "
                          "split over warpgroups (not tf32x3)";
  if (mmaPositionsM && anyWgmma && mmaPositionsM != 1)
    return emitError() << "mmaPositionsM must be 0 or 1, got " << mmaPositionsM;
  if (mmaPositionsM && anyWgmma && (wgmmaN > 64 || tileC != 64))
    return emitError() << "wgmma with positions on M takes at most 64 "
                          "positions a phase (wgmmaN, got "
                       << wgmmaN << ") and 64 channels (tileC, got " << tileC
                       << ")";
  if (samples < 0)
    return emitError() << "samples must not be negative, got " << samples;
  // Several warpgroups of a channel group take consecutive rows each (a
  // row split: `rows` a multiple of it, checked above).
  if (samples > 0 &&
      (!anyWgmma || mergeHTaps || clusterC != 1 || rows % samples != 0))
    return emitError() << "samples > 0 needs wgmma with no merged H taps, no "
                          "channel cluster and rows a multiple of samples";
  if (wgmmaPhaseSplit < 1)
    return emitError() << "wgmmaPhaseSplit must be positive, got "
                       << wgmmaPhaseSplit;
  if (wgmmaPhaseSplit > 1 &&
      (!anyWgmma || samples || mergeHTaps || clusterC != 1 ||
       wgmmaGroups % (tileC / 64 * wgmmaPhaseSplit) != 0 ||
       rows != wgmmaGroups / (tileC / 64 * wgmmaPhaseSplit)))
    return emitError() << "wgmmaPhaseSplit > 1 needs wgmma with one row per "
                          "warpgroup, wgmmaGroups = tileC / 64 x rows x "
                          "wgmmaPhaseSplit, no samples, merged H taps or "
                          "cluster";
  if (anyMma) {
    if (mmaWarpsC <= 0 || mmaWarpsW <= 0 || mmaTilesC <= 0 || mmaTilesW <= 0)
      return emitError() << "tensor-core tile sizes must all be positive";
    if (math == ConvMath::IEEE)
      return emitError() << "tensor cores (mma tiles) need tf32, tf32x3, "
                            "bf16 or f16 math, got "
                         << stringifyConvMath(math);
    if (mmaPositionsM != 0 && mmaPositionsM != 1)
      return emitError() << "mmaPositionsM must be 0 or 1, got "
                         << mmaPositionsM;
    if (mmaPositionsM && mmaWarpsC != 1)
      return emitError() << "mmaWarpsC must be 1 with positions on M, got "
                         << mmaWarpsC;
    if (mmaPositionsM && (tileC > 8 * mmaTilesC || tileC <= 8 * (mmaTilesC - 1)))
      return emitError() << "tileC (" << tileC
                         << ") must need all of the mmaTilesC 8-channel N "
                            "tiles ("
                         << mmaTilesC << ") with positions on M";
    if (!mmaPositionsM && tileC != 16 * mmaWarpsC * mmaTilesC)
      return emitError() << "tileC (" << tileC
                         << ") must be 16 * mmaWarpsC * mmaTilesC ("
                         << 16 * mmaWarpsC * mmaTilesC << ")";
    if (ciChunk % 8 != 0)
      return emitError() << "ciChunk (" << ciChunk
                         << ") must be a multiple of 8 with tensor cores";
    // Half operands: pairs of staged k8 steps feed one m16n8k16 MMA.
    if (types.usesHalfOperands() && ciChunk % 16 != 0)
      return emitError() << "ciChunk (" << ciChunk
                         << ") must be a multiple of 16 with "
                         << stringifyConvMath(math) << " tensor cores";
  }
  return success();
}
