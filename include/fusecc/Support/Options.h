//===- Options.h - typed code generation options ---------------*- C++ -*-===//
//
// The enumerated code generation options of fusecc (precision, chip,
// epilogue math, wgmma use, ieee on tensor cores, prologue fusion),
// declared once: each enum with its spellings, from which come the one
// `llvm::cl::values(...)` list that every parser uses (the passes' options, the
// registered pipeline's options and the tools' command lines) and the
// `toString` / `parse...` pair.
//
// Header only, on LLVMSupport alone, so that every library (the passes, the
// lowering, the pipeline) and tool can include it without a new dependency.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_SUPPORT_OPTIONS_H
#define FUSECC_SUPPORT_OPTIONS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"

#include <cassert>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>

namespace fusecc {

/// One spelling of a value of an enumerated option: its name on the command
/// line (and in pass option strings) and its help text. An enum's first
/// spelling of a value is the canonical one (`toString`, printed pipelines);
/// later ones are accepted aliases (the numbers that older command lines
/// used).
template <typename E> struct OptionSpelling {
  E value;
  llvm::StringLiteral name;
  llvm::StringLiteral help;
};

namespace detail {
/// The `llvm::cl::parser` of fusecc's enums (specialised for each below):
/// LLVM's generic enum parser, whose error for an unknown value also names
/// the values the option takes. The parsers of `llvm::cl::opt` and of MLIR's
/// pass and pipeline options (`mlir::detail::PassOptions::
/// GenericOptionParser`, which reads `Values`) both build on it.
template <typename E>
class EnumOptionParser : public llvm::cl::generic_parser_base {
protected:
  class OptionInfo : public GenericOptionInfo {
  public:
    OptionInfo(llvm::StringRef name, E v, llvm::StringRef helpStr)
        : GenericOptionInfo(name, helpStr), V(v) {}

    llvm::cl::OptionValue<E> V;
  };
  llvm::SmallVector<OptionInfo, 8> Values;

public:
  EnumOptionParser(llvm::cl::Option &o) : generic_parser_base(o) {}

  using parser_data_type = E;

  unsigned getNumOptions() const override { return unsigned(Values.size()); }
  llvm::StringRef getOption(unsigned n) const override {
    return Values[n].Name;
  }
  llvm::StringRef getDescription(unsigned n) const override {
    return Values[n].HelpStr;
  }
  const llvm::cl::GenericOptionValue &
  getOptionValue(unsigned n) const override {
    return Values[n].V;
  }

  /// Returns true on error.
  bool parse(llvm::cl::Option &o, llvm::StringRef argName, llvm::StringRef arg,
             E &v) {
    llvm::StringRef value = Owner.hasArgStr() ? arg : argName;
    for (const OptionInfo &info : Values)
      if (info.Name == value) {
        v = info.V.getValue();
        return false;
      }
    std::string names;
    for (const OptionInfo &info : Values)
      names += (names.empty() ? "'" : ", '") + info.Name.str() + "'";
    return o.error("'" + value + "' is not a valid value (expected one of " +
                   names + ")");
  }

  template <class DT>
  void addLiteralOption(llvm::StringRef name, const DT &v,
                        llvm::StringRef helpStr) {
    assert(findOption(name) == Values.size() && "option value spelled twice");
    Values.push_back(OptionInfo(name, static_cast<E>(v), helpStr));
    llvm::cl::AddLiteralOption(Owner, name);
  }

  void removeLiteralOption(llvm::StringRef name) {
    unsigned n = findOption(name);
    assert(n != Values.size() && "option value not found");
    Values.erase(Values.begin() + n);
  }
};

template <typename E, size_t N, size_t... I>
llvm::cl::ValuesClass valuesOf(const OptionSpelling<E> (&spellings)[N],
                               std::index_sequence<I...>) {
  return llvm::cl::ValuesClass({llvm::cl::OptionEnumValue{
      spellings[I].name, static_cast<int>(spellings[I].value),
      spellings[I].help}...});
}
} // namespace detail

/// The `llvm::cl::values(...)` list of `spellings`.
template <typename E, size_t N>
llvm::cl::ValuesClass valuesOf(const OptionSpelling<E> (&spellings)[N]) {
  return detail::valuesOf(spellings, std::make_index_sequence<N>());
}

/// The canonical spelling of `value`.
template <typename E, size_t N>
llvm::StringRef spellingOf(const OptionSpelling<E> (&spellings)[N], E value) {
  for (const OptionSpelling<E> &s : spellings)
    if (s.value == value)
      return s.name;
  llvm_unreachable("enum value without a spelling");
}

/// The value spelled `name`, or std::nullopt.
template <typename E, size_t N>
std::optional<E> parseSpelling(const OptionSpelling<E> (&spellings)[N],
                               llvm::StringRef name) {
  for (const OptionSpelling<E> &s : spellings)
    if (s.name == name)
      return s.value;
  return std::nullopt;
}

/// The spelling table of an option enum: specialised once per enum below
/// (`FUSECC_OPTION_SPELLINGS`), so that the values list, the printing and
/// the parsing of every enum are the same three templates.
template <typename E> struct OptionSpellings;

/// The `llvm::cl::values(...)` list of enum `E` (for cl::opt, pass options
/// in Passes.td and pipeline options).
template <typename E> llvm::cl::ValuesClass optionValues() {
  return valuesOf(OptionSpellings<E>::table);
}
/// The canonical spelling of `value`.
template <typename E, typename = decltype(OptionSpellings<E>::table)>
llvm::StringRef toString(E value) {
  return spellingOf(OptionSpellings<E>::table, value);
}
/// The value of `E` spelled `name`, or std::nullopt.
template <typename E> std::optional<E> parseOption(llvm::StringRef name) {
  return parseSpelling(OptionSpellings<E>::table, name);
}

#define FUSECC_OPTION_SPELLINGS(E, TABLE)                                      \
  template <> struct OptionSpellings<E> {                                      \
    static constexpr const auto &table = TABLE;                                \
  };

//===----------------------------------------------------------------------===//
// Precision: the arithmetic of the convolutions.
//===----------------------------------------------------------------------===//

// The requested precision; each kernel's math (`#fuse.conv_math`) is
// decided from it and the graph's storage type by fuse::convMathFor.
enum class Precision { IEEE, TF32, BF16, FP16 };

inline constexpr OptionSpelling<Precision> kPrecisionSpellings[] = {
    {Precision::IEEE, "ieee", "FP32 FMA"},
    {Precision::TF32, "tf32",
     "TF32 tensor cores (wgmma on sm_90a, else mma.sync)"},
    {Precision::BF16, "bf16",
     "bf16 tensor-core operands (rounded to nearest even), f32 "
     "accumulation, I/O and epilogue"},
    {Precision::FP16, "fp16",
     "f16 tensor-core operands (rounded to nearest even), f32 "
     "accumulation, I/O and epilogue"},
    {Precision::FP16, "f16", "spelling of fp16 (the #fuse.conv_math name)"},
};
FUSECC_OPTION_SPELLINGS(Precision, kPrecisionSpellings)

//===----------------------------------------------------------------------===//
// Chip: the target GPU (nvvm-attach-target's chip, the bundle's chip line).
//===----------------------------------------------------------------------===//

enum class Chip { SM80, SM90, SM90a };

inline constexpr OptionSpelling<Chip> kChipSpellings[] = {
    {Chip::SM80, "sm_80", "Ampere (FMA and mma.sync kernels)"},
    {Chip::SM90, "sm_90", "Hopper (default)"},
    {Chip::SM90a, "sm_90a", "Hopper with wgmma"},
};
FUSECC_OPTION_SPELLINGS(Chip, kChipSpellings)

//===----------------------------------------------------------------------===//
// Device: the GPU whose facts size the kernels (SMs, shared memory, rates;
// fusecc/Target/GPU/TargetInfo.h); the chip says which instructions run.
//===----------------------------------------------------------------------===//

enum class Device { A100, H100, H200 };

inline constexpr OptionSpelling<Device> kDeviceSpellings[] = {
    {Device::A100, "a100",
     "NVIDIA A100 SXM (108 SMs, 163 KiB shared memory per block; sm_80)"},
    {Device::H100, "h100", "NVIDIA H100 SXM (132 SMs, 3.0 TB/s)"},
    {Device::H200, "h200", "NVIDIA H200 (132 SMs, 4.26 TB/s; default)"},
};
FUSECC_OPTION_SPELLINGS(Device, kDeviceSpellings)

//===----------------------------------------------------------------------===//
// EpilogueMathMode: how epilogues evaluate exp and reciprocals
// (fuse-convert-to-gpu{epilogue-math}); resolved per kernel to the
// lowering's `EpilogueMath`.
//===----------------------------------------------------------------------===//

enum class EpilogueMathMode { Auto, Exact, Fast };

inline constexpr OptionSpelling<EpilogueMathMode> kEpilogueMathSpellings[] = {
    {EpilogueMathMode::Auto, "auto",
     "fast in tf32 kernels, exact in ieee ones (default)"},
    {EpilogueMathMode::Exact, "exact", "libdevice expf, IEEE reciprocal"},
    {EpilogueMathMode::Fast, "fast", "ex2.approx.ftz, rcp.approx.ftz"},
};
FUSECC_OPTION_SPELLINGS(EpilogueMathMode, kEpilogueMathSpellings)

//===----------------------------------------------------------------------===//
// WgmmaMode: where fuse-tile-kernels{wgmma} puts tf32 kernels on Hopper
// warpgroup MMA (the pass knows no chip: the tools resolve a WgmmaChoice).
//===----------------------------------------------------------------------===//

enum class WgmmaMode { Never, Always, FillsGrid, FullWave };

inline constexpr OptionSpelling<WgmmaMode> kWgmmaModeSpellings[] = {
    {WgmmaMode::Never, "never", "mma.sync only (default)"},
    {WgmmaMode::Always, "always", "wgmma wherever a kernel fits"},
    {WgmmaMode::FillsGrid, "fills-grid",
     "wgmma where a kernel fits and its grid fills the target's SMs at "
     "least once or has as many blocks as the mma.sync tiling (the sm_90a "
     "default)"},
    {WgmmaMode::FullWave, "full-wave",
     "wgmma where a kernel fits and its grid fills the target's SMs at "
     "least once (the sm_90a default before session 35)"},
    {WgmmaMode::Never, "0", "old spelling of never"},
    {WgmmaMode::Always, "1", "old spelling of always"},
    {WgmmaMode::FillsGrid, "2", "old spelling of fills-grid"},
};
FUSECC_OPTION_SPELLINGS(WgmmaMode, kWgmmaModeSpellings)

//===----------------------------------------------------------------------===//
// WgmmaChoice: the tools' --tile-wgmma, resolved with the chip.
//===----------------------------------------------------------------------===//

enum class WgmmaChoice { Auto, Never, Always, FullWave };

inline constexpr OptionSpelling<WgmmaChoice> kWgmmaChoiceSpellings[] = {
    {WgmmaChoice::Auto, "auto",
     "the chip decides: on sm_90a for grids of at least one block per SM "
     "or at least as many blocks as on mma.sync (default)"},
    {WgmmaChoice::Never, "never", "mma.sync"},
    {WgmmaChoice::Always, "always",
     "wgmma wherever a kernel fits (needs --chip=sm_90a)"},
    {WgmmaChoice::FullWave, "full-wave",
     "on sm_90a for grids of at least one block per SM only (the default "
     "before session 35; A/B timing)"},
    {WgmmaChoice::Auto, "-1", "old spelling of auto"},
    {WgmmaChoice::Never, "0", "old spelling of never"},
    {WgmmaChoice::Always, "1", "old spelling of always"},
};
FUSECC_OPTION_SPELLINGS(WgmmaChoice, kWgmmaChoiceSpellings)

/// The fuse-tile-kernels mode of `choice` on `chip`: `auto` is fills-grid on
/// sm_90a and never elsewhere, `full-wave` likewise full-wave.
inline WgmmaMode wgmmaModeFor(WgmmaChoice choice, Chip chip) {
  switch (choice) {
  case WgmmaChoice::Never:
    return WgmmaMode::Never;
  case WgmmaChoice::Always:
    return WgmmaMode::Always;
  case WgmmaChoice::FullWave:
    return chip == Chip::SM90a ? WgmmaMode::FullWave : WgmmaMode::Never;
  case WgmmaChoice::Auto:
    break;
  }
  return chip == Chip::SM90a ? WgmmaMode::FillsGrid : WgmmaMode::Never;
}

//===----------------------------------------------------------------------===//
// IeeeTensorCores: where fuse-tile-kernels{ieee-tensor-cores} runs ieee
// convolutions on the tensor cores (mma.sync, or wgmma where the pass's
// wgmma mode takes it) with split operands (3xTF32: each f32 operand as
// hi = rna_tf32(a) plus lo = rna_tf32(a - hi), three products per step;
// `#fuse.types<tf32x3, ...>`), keeping FP32 accuracy (~2^-21
// relative per product).
//===----------------------------------------------------------------------===//

enum class IeeeTensorCores { Never, Auto, Always };

inline constexpr OptionSpelling<IeeeTensorCores> kIeeeTensorCoresSpellings[] = {
    {IeeeTensorCores::Never, "never", "FP32 FMA only"},
    {IeeeTensorCores::Auto, "auto",
     "split-operand tensor cores where a tensor-core tiling fits, the "
     "grid has a block per SM of the target (one wave) and a group has at "
     "least 16 input channels, else FP32 FMA (default)"},
    {IeeeTensorCores::Always, "always",
     "split-operand tensor cores wherever a tensor-core tiling fits"},
};
FUSECC_OPTION_SPELLINGS(IeeeTensorCores, kIeeeTensorCoresSpellings)

//===----------------------------------------------------------------------===//
// PrologueFusion: where fuse-form-kernels{prologue} folds the elementwise
// and window ops that compute a convolution's input (a prologue) into the
// convolution's input staging.
//===----------------------------------------------------------------------===//

enum class PrologueFusion { Auto, Always, Never };

inline constexpr OptionSpelling<PrologueFusion> kPrologueFusionSpellings[] = {
    {PrologueFusion::Auto, "auto",
     "where the staged re-reads of the prologue's inputs cost less than "
     "writing and re-reading its result (default)"},
    {PrologueFusion::Always, "always",
     "wherever a prologue's values have no other reader"},
    {PrologueFusion::Never, "never", "a prologue is a kernel of its own"},
};
FUSECC_OPTION_SPELLINGS(PrologueFusion, kPrologueFusionSpellings)

//===----------------------------------------------------------------------===//
// TileRules: which rules of the tile cost model fuse-tile-kernels{rules}
// applies (the older set is kept for A/B timing).
//===----------------------------------------------------------------------===//

/// Newest first: a set holds the rules of every older one but those it
/// replaced (`fuse::rulesSince`).
enum class TileRules { Current, Session42, Session37, Session36, Session35 };

inline constexpr OptionSpelling<TileRules> kTileRulesSpellings[] = {
    {TileRules::Current, "current", "the cost model's rules (default)"},
    {TileRules::Session42, "session42",
     "the rules before session 43: 16-channel wgmma rounds and 4 rows of "
     "positions on M whatever blocks per SM they leave (A/B timing)"},
    {TileRules::Session37, "session37",
     "the rules before session 38: wgmma at large W strides whatever the "
     "positions a phase (A/B timing)"},
    {TileRules::Session36, "session36",
     "the rules before session 37: layers of 17-32 output channels and "
     "channel reductions of few channels on wgmma whatever their reduction, "
     "one-group layers never with positions on M (A/B timing)"},
    {TileRules::Session35, "session35",
     "the input-channel chunk and few-channel wgmma rules before session 36: "
     "wgmma chunks without the residency rule, mma.sync chunks of 16, "
     "layers of <= 16 output channels on mma.sync whatever their reduction "
     "(A/B timing)"},
};
FUSECC_OPTION_SPELLINGS(TileRules, kTileRulesSpellings)

#undef FUSECC_OPTION_SPELLINGS

} // namespace fusecc

/// Every enum above parses with `fusecc::detail::EnumOptionParser`.
#define FUSECC_ENUM_OPTION_PARSER(E)                                           \
  template <>                                                                  \
  class llvm::cl::parser<E> : public fusecc::detail::EnumOptionParser<E> {     \
  public:                                                                      \
    using EnumOptionParser::EnumOptionParser;                                  \
  };
FUSECC_ENUM_OPTION_PARSER(fusecc::Precision)
FUSECC_ENUM_OPTION_PARSER(fusecc::Chip)
FUSECC_ENUM_OPTION_PARSER(fusecc::Device)
FUSECC_ENUM_OPTION_PARSER(fusecc::EpilogueMathMode)
FUSECC_ENUM_OPTION_PARSER(fusecc::WgmmaMode)
FUSECC_ENUM_OPTION_PARSER(fusecc::WgmmaChoice)
FUSECC_ENUM_OPTION_PARSER(fusecc::IeeeTensorCores)
FUSECC_ENUM_OPTION_PARSER(fusecc::PrologueFusion)
#undef FUSECC_ENUM_OPTION_PARSER

#endif // FUSECC_SUPPORT_OPTIONS_H
