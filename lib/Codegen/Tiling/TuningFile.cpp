//===- TuningFile.cpp - measured tile choices (tuning files) --------------===//
//
// Reads and checks the tuning data of the tile cost model (TuningFile.h).
//
//===----------------------------------------------------------------------===//

#include "fusecc/Codegen/Tiling/TuningFile.h"
#include "fusecc/Codegen/Tiling/TileChoice.h"
#include "fusecc/Dialect/Fuse/IR/FuseDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace fusecc;
using namespace fusecc::fuse;

/// Reads the tuning file `path` into `choices`: its `base` first (`depth`
/// files down a chain of bases), then its own entries, which replace the
/// base's of the same key.
static LogicalResult readTuningFileInto(Location loc, StringRef path,
                                        llvm::StringMap<TunedChoice> &choices,
                                        int depth) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return emitError(loc) << "fuse-tile-kernels: cannot read tuning file '"
                          << path << "': " << buffer.getError().message();
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    return emitError(loc) << "fuse-tile-kernels: tuning file '" << path
                          << "' is not JSON: "
                          << llvm::toString(json.takeError());
  const llvm::json::Object *root = json->getAsObject();
  const llvm::json::Array *entries = root ? root->getArray("entries") : nullptr;
  if (!entries)
    return emitError(loc) << "fuse-tile-kernels: tuning file '" << path
                          << "' has no \"entries\" array";
  if (const llvm::json::Value *baseValue = root->get("base")) {
    std::optional<StringRef> base = baseValue->getAsString();
    if (!base || base->empty())
      return emitError(loc) << "fuse-tile-kernels: tuning file '" << path
                            << "': \"base\" must be a file name";
    if (depth + 1 >= kMaxTuningBaseDepth)
      return emitError(loc) << "fuse-tile-kernels: tuning file '" << path
                            << "': a chain of \"base\" files longer than "
                            << kMaxTuningBaseDepth << " (a cycle?)";
    llvm::SmallString<256> basePath(*base);
    if (!llvm::sys::path::is_absolute(basePath)) {
      basePath = llvm::sys::path::parent_path(path);
      llvm::sys::path::append(basePath, *base);
    }
    if (failed(readTuningFileInto(loc, basePath, choices, depth + 1)))
      return failure();
  }
  for (auto [i, value] : llvm::enumerate(*entries)) {
    const llvm::json::Object *entry = value.getAsObject();
    std::optional<StringRef> key =
        entry ? entry->getString("key") : std::nullopt;
    if (!key)
      return emitError(loc) << "fuse-tile-kernels: tuning file '" << path
                            << "': entry " << i << " has no \"key\" string";
    TunedChoice c;
    for (auto [name, field] : {std::pair<StringRef, int64_t *>{"rows", &c.rows},
                               {"ci_chunk", &c.ciChunk},
                               {"tile_c", &c.tileC},
                               {"threads", &c.threads},
                               {"max_tile_w", &c.maxTileW},
                               {"warps_c", &c.warpsC},
                               {"merge_h", &c.mergeH},
                               {"wgmma", &c.wgmma},
                               {"wgmma_split", &c.wgmmaSplit},
                               {"cluster_c", &c.clusterC},
                               {"positions_m", &c.positionsM},
                               {"samples", &c.samples},
                               {"phase_split", &c.phaseSplit},
                               {"cluster_k", &c.clusterK}})
      if (std::optional<int64_t> v = entry->getInteger(name))
        *field = *v;
    choices[*key] = c;
  }
  return success();
}

FailureOr<llvm::StringMap<TunedChoice>> fuse::readTuningFile(Location loc,
                                                             StringRef path) {
  llvm::StringMap<TunedChoice> choices;
  if (failed(readTuningFileInto(loc, path, choices, /*depth=*/0)))
    return failure();
  return choices;
}

std::string fuse::resolveTuningFile(StringRef path, const TargetInfo &target) {
  if (path.empty() || !llvm::sys::fs::is_directory(path))
    return path.str();
  llvm::SmallString<256> file(path);
  llvm::sys::path::append(file, toString(target.getDevice()) + ".json");
  return llvm::sys::fs::exists(file) ? file.str().str() : std::string();
}

LogicalResult fuse::checkTunedChoice(Operation *op, const TunedChoice &k,
                                     StringRef source) {
  auto error = [&]() {
    InFlightDiagnostic d = op->emitError("fuse-tile-kernels: ");
    if (!source.empty())
      d << source << ": ";
    return d;
  };
  if (k.rows != 0 && k.rows != 1 && k.rows != 2 && k.rows != 4 && k.rows != 8)
    return error() << "rows must be 0 (auto), 1, 2, 4 or 8 (wgmma), got "
                   << k.rows;
  if (k.ciChunk < 0 || k.ciChunk % 8 != 0 || k.ciChunk > 64)
    return error() << "ci-chunk must be 0 (auto) or a multiple of 8 up to "
                      "64, got "
                   << k.ciChunk;
  if (k.tileC < 0 || k.tileC % 16 != 0 || k.tileC > 256)
    return error() << "tile-c must be 0 (auto) or a multiple of 16 up to "
                      "256, got "
                   << k.tileC;
  if (k.warpsC != 0 && k.warpsC != 1 && k.warpsC != 2 && k.warpsC != 4)
    return error() << "warps-c must be 0 (auto), 1, 2 or 4, got " << k.warpsC;
  if (k.mergeH != 0 && k.mergeH != 1)
    return error() << "merge-h-taps must be 0 or 1, got " << k.mergeH;
  const TargetInfo target = getTargetInfo(op);
  if (k.threads && (k.threads < target.warpSize() ||
                    k.threads > target.maxThreadsPerBlock()))
    return error() << "threads must be in [" << target.warpSize() << ", "
                   << target.maxThreadsPerBlock() << "], got " << k.threads;
  if (k.maxTileW && k.maxTileW < 8)
    return error() << "max-tile-w must be >= 8, got " << k.maxTileW;
  if (k.maxTileW > kMaxMaxTileW)
    return error() << "max-tile-w must be at most " << kMaxMaxTileW << ", got "
                   << k.maxTileW;
  if (k.wgmma < -1 || k.wgmma > 1)
    return error() << "wgmma must be -1 (mma.sync), 0 (default) or 1, got "
                   << k.wgmma;
  if (k.wgmmaSplit != 0 && k.wgmmaSplit != 1 && k.wgmmaSplit != 2 &&
      k.wgmmaSplit != 4)
    return error() << "wgmma-split must be 0 (auto), 1, 2 or 4, got "
                   << k.wgmmaSplit;
  if (k.positionsM < -1 || k.positionsM > 1)
    return error() << "positions-m must be -1 (never), 0 (auto) or 1, got "
                   << k.positionsM;
  if (k.phaseSplit != 0 && k.phaseSplit != -1 && k.phaseSplit != 2 &&
      k.phaseSplit != 4)
    return error() << "phase-split must be -1 (never), 0 (auto), 2 or 4, got "
                   << k.phaseSplit;
  if (k.samples < -1 || k.samples > 64)
    return error() << "samples must be -1 (never), 0 (auto) or 1 to 64, got "
                   << k.samples;
  if (k.clusterK != 0 && k.clusterK != -1 && k.clusterK != 2 &&
      k.clusterK != 4 && k.clusterK != 8)
    return error() << "cluster-k must be -1 (never), 0 (auto), 2, 4 or 8, "
                      "got "
                   << k.clusterK;
  if (k.clusterC != 0 && k.clusterC != 1 && k.clusterC != 2 &&
      k.clusterC != 4 && k.clusterC != 8)
    return error() << "cluster-c must be 0 (auto), 1, 2, 4 or 8, got "
                   << k.clusterC;
  return success();
}

std::optional<TunedChoice>
fuse::lookupTunedChoice(const llvm::StringMap<TunedChoice> &tuned,
                        KernelOp kernel, const KernelAnalysis &a, ConvMath math,
                        std::string &source) {
  if (auto it = tuned.find(a.tuningKey(kernel, math)); it != tuned.end()) {
    source = "entry for this kernel";
    return it->second;
  }
  if (math == ConvMath::TF32 && !a.operandCasts.empty()) {
    auto twin = tuned.find(a.tuningKey(kernel, ConvMath::TF32,
                                       /*storageCasts=*/false));
    if (twin == tuned.end())
      return std::nullopt;
    source = "entry for this kernel's f32 twin";
    return twin->second;
  }
  MLIRContext *ctx = kernel.getContext();
  Type operand =
      KernelTypesAttr::operandTypeOf(ctx, math, /*tensorCores=*/true);
  if (!isa<BFloat16Type, Float16Type>(operand))
    return std::nullopt;
  auto twin = tuned.find(a.tuningKey(kernel, ConvMath::TF32,
                                     /*storageCasts=*/false));
  if (twin == tuned.end() || twin->second.wgmma != 1)
    return std::nullopt;
  TunedChoice knobs = twin->second;
  std::optional<MmaShape> half = a.target.mmaShape(operand);
  std::optional<MmaShape> tf32 = a.target.mmaShape(FloatTF32Type::get(ctx));
  if (knobs.ciChunk && half && tf32)
    knobs.ciChunk *= half->k / tf32->k;
  source = "entry for this kernel's tf32 twin";
  return knobs;
}

TunedChoice fuse::mergeTunedChoice(const TunedChoice &options,
                                   const TunedChoice &t) {
  TunedChoice knobs = options;
  knobs.rows = knobs.rows ? knobs.rows : t.rows;
  knobs.ciChunk = knobs.ciChunk ? knobs.ciChunk : t.ciChunk;
  knobs.tileC = knobs.tileC ? knobs.tileC : t.tileC;
  knobs.warpsC = knobs.warpsC ? knobs.warpsC : t.warpsC;
  knobs.mergeH = knobs.mergeH ? knobs.mergeH : t.mergeH;
  knobs.wgmma = t.wgmma;
  knobs.wgmmaSplit = knobs.wgmmaSplit ? knobs.wgmmaSplit : t.wgmmaSplit;
  knobs.clusterC = knobs.clusterC ? knobs.clusterC : t.clusterC;
  knobs.positionsM = knobs.positionsM ? knobs.positionsM : t.positionsM;
  knobs.samples = knobs.samples ? knobs.samples : t.samples;
  knobs.phaseSplit = knobs.phaseSplit ? knobs.phaseSplit : t.phaseSplit;
  knobs.clusterK = knobs.clusterK ? knobs.clusterK : t.clusterK;
  // threads / max-tile-w always have values: the entry's win over the
  // defaults unless the options were changed from them.
  if (t.threads && options.threads == kDefaultThreads)
    knobs.threads = t.threads;
  if (t.maxTileW && options.maxTileW == kDefaultMaxTileW)
    knobs.maxTileW = t.maxTileW;
  return knobs;
}
