//===- FormKernelsInternal.h - fuse-form-kernels' rules ---------*- C++ -*-===//
//
// The rules of fuse-form-kernels (FormKernels.cpp) shared by its files:
// which ops join a kernel's group (KernelMembership.cpp: the epilogue of a
// convolution, the ops after a normalisation or an elementwise or window
// root, the half stores, the parameter chains an epilogue copies in, the
// prologue candidates of a convolution's input, and the growing of a
// group), and the half operands a convolution kernel reads itself
// (HalfIntermediates.cpp: the widenings of stored half values and half
// intermediates).
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_LIB_DIALECT_FUSE_TRANSFORMS_FORMKERNELSINTERNAL_H
#define FUSECC_LIB_DIALECT_FUSE_TRANSFORMS_FORMKERNELSINTERNAL_H

#include "fusecc/Dialect/Fuse/IR/FuseOps.h"

#include "llvm/ADT/SetVector.h"

namespace fusecc::fuse::formkernels {

/// The ops of one kernel in block order, its root first.
using OpGroup = llvm::SetVector<mlir::Operation *>;

//===----------------------------------------------------------------------===//
// KernelMembership.cpp: the ops a kernel's group takes
//===----------------------------------------------------------------------===//

/// True if every tensor `op` reads or writes is f32. Convolution and
/// normalisation kernels load and store f32 only; a value in half storage
/// (a `fuse.cast` to or from bf16/f16, see fuse-widen-half) is read or
/// written by an elementwise kernel, which converts at its loads and store
/// (exceptions: a convolution's operand casts and its half store,
/// `isHalfStoreCast`).
bool isF32Only(mlir::Operation *op);

/// True if `op` is a `fuse.cast` to bf16/f16 of an f32 value of `group`
/// whose result is only returned or widened again (a widening cast roots
/// an elementwise kernel, which reads half storage): the kernel of `group`
/// then stores the half type itself, rounding at its store exactly as the
/// cast kernel would (docs/design/types.md, "Half stores").
bool isHalfStoreOf(mlir::Operation *op, const OpGroup &group);

/// The channel contraction of `group` (a convolution after its root,
/// `isChannelContraction`), or null.
ConvTransposeOp contractionOf(const OpGroup &group);

/// A half store (`isHalfStoreOf`) by a convolution kernel: its epilogue
/// is elementwise, normalises in the tile (a softmax over the channels,
/// a layer norm over the last dim) or pools, and stores through the tile
/// walk, the register runs or the pooled stores, which round a half result
/// (`narrowForStore`), as does a channel contraction's. Channel-reduction
/// epilogues keep the cast kernel: their store paths write f32 only.
bool isHalfStoreCast(mlir::Operation *op, const OpGroup &group);

/// Ops that can run on the tile of a fused kernel after the convolution
/// (the group's root) and the ops of `group`: elementwise ops,
/// normalisations whose reduction sets a block holds, and one window op
/// after elementwise ops only, a pooling (`PooledEpilogue`: blocks then
/// hold whole windows) or a reduction over the channels (blocks hold all
/// channels), followed by elementwise ops on its value; a pooling may be
/// followed (after elementwise ops) by a reduction over the channels. In
/// place of the window op, a channel contraction (`isChannelContraction`:
/// a 1x1 convolution of few output channels, blocks holding all channels)
/// of an elementwise epilogue value, followed by elementwise ops on its
/// value (unless `contractions` is false).
bool isConvEpilogueOp(mlir::Operation *op, const OpGroup &group,
                      bool contractions);

/// Ops that follow a normalisation root: elementwise ops, evaluated at the
/// normalised element, and views (reshapes) of it.
bool isNormalizationEpilogueOp(mlir::Operation *op);

/// The view ops from `op` on through which a value reaches operand 0 of a
/// normalisation, each used once, then that normalisation; empty if `op`
/// does not start such a chain. A normalisation kernel reads its input
/// flat, so the views join its kernel and cost nothing.
llvm::SmallVector<mlir::Operation *>
viewsIntoNormalization(mlir::Operation *op);

/// True if `op` is a window op (not a view) over a set reduction's result
/// that `group` computes (through views): the reduction then ends its
/// kernel -- a reduction kernel whose sets are planned (a warp or thread
/// per set, split, or a convolution epilogue's statistics), as in the
/// chains fuse-split-reductions builds -- instead of being evaluated again
/// inside every window of `op`.
bool windowsSetReduction(mlir::Operation *op, const OpGroup &group);

/// Ops that follow an elementwise or window root: one thread per result
/// element evaluates the whole chain, a window op looping over its window.
bool isElementwiseKernelOp(mlir::Operation *op);

/// Graph ops that root a kernel of their own when no convolution kernel
/// took them.
bool isStandaloneRoot(mlir::Operation *op);

/// A rank-0 f32 constant: cloned into kernels as a scalar.
bool isScalarConstant(mlir::Value v);

/// Collects into `chain` (operands before users) the ops that compute `v`
/// from graph inputs and constants alone, through f32 elementwise ops and
/// views outside kernels, starting from a half input or constant only
/// through its widening cast (`isStoredHalfWidening`, the vectors of a bf16
/// / f16 batch norm); false if `v` depends on anything else. An eval
/// batch_norm's `rsqrt(running_var + eps) * weight` and the `[C] -> [C, 1,
/// 1]` views of its vectors are such *parameter values*: a convolution
/// kernel whose epilogue reads one takes copies of its ops
/// (`KernelAnalysis::params`) and evaluates them per element from its
/// inputs, instead of a kernel of their own writing a buffer (docs/perf.md
/// 156: 12 such kernels in dcgan_generator, 26 us on the H200).
bool collectParameterChain(mlir::Value v,
                           llvm::SetVector<mlir::Operation *> &chain);

/// `collectParameterChain` for operand `v` of the epilogue op `reader`,
/// where a chain from a half value's widening is taken only by an
/// elementwise reader, which evaluates it per element (a normalisation
/// reads its weight and bias as f32 buffers: a half layer_norm's vectors
/// keep their widening kernels).
bool collectEpilogueParameters(mlir::Operation *reader, mlir::Value v,
                               llvm::SetVector<mlir::Operation *> &chain);

/// The values produced in `group` that are used outside it.
llvm::SmallVector<mlir::Value>
escapingValues(const llvm::SetVector<mlir::Operation *> &group);

/// Grows the op group `seed` (its first op the root, its last the latest in
/// the block): later ops of the block accepted by `follows` that read a
/// value of the group and otherwise only values defined before the root (so
/// no cycle through outside ops can form).
OpGroup
growGroup(llvm::ArrayRef<mlir::Operation *> seed,
          llvm::function_ref<bool(mlir::Operation *, const OpGroup &)> follows);

/// The prologue candidates of a value P that convolutions read as their
/// input: the elementwise and window ops (in block order) that compute P,
/// each of whose values is read only by those ops or, for P, only as the
/// input of convolutions (each of which folds a copy). Empty when P's
/// defining op is no such op or P has another reader.
llvm::SmallVector<mlir::Operation *> prologueChain(mlir::Value p);

//===----------------------------------------------------------------------===//
// HalfIntermediates.cpp: half operands a convolution kernel reads itself
//===----------------------------------------------------------------------===//

/// True if `c` widens a stored half value (a graph input or a tensor
/// constant in bf16 / f16, fuse-widen-half's cast) to f32: a convolution
/// reading its value as an operand reads the half elements directly.
bool isStoredHalfWidening(CastOp c);

/// True if `c` widens the half result of a kernel formed earlier (a half
/// intermediate, `storeHalfIntermediate`) for convolutions that read it as
/// their input (directly or through a concatenation): each of them reads
/// the half elements itself.
bool isHalfIntermediateWidening(CastOp c);

/// True if `c` widens a half value that a convolution's prologue may read
/// itself: a stored half value (`isStoredHalfWidening`) or the half result
/// of a kernel formed earlier. The kernel copies the cast (an operand cast
/// read by its prologue ops) and loads the half elements, widened exactly,
/// where an elementwise kernel would otherwise write an f32 copy for it
/// (a half skip input of a U-Net's concatenation: 2 bytes an element read
/// instead of 2 read + 4 written + 4 read).
bool isHalfWideningForPrologue(CastOp c);

/// Half intermediates (docs/design/types.md): where the one value that a
/// convolution kernel's `group` leaves is f32 and only convolutions read
/// it, each as its input on tensor cores of one half type H (directly, or
/// through a concatenation only such inputs read)
/// (`halfOperandType`), the group rounds it to H at its store (a half
/// store, `isHalfStoreCast`) and the readers read the H elements through
/// a widening cast (`isHalfIntermediateWidening`). Their tensor cores
/// round the f32 value to H anyway (the same operands, the same results:
/// the graph as written holds that value in H, as PyTorch eager stores
/// it), and the buffer moves half the bytes. Returns the cast to add to
/// the group, or null where nothing changed.
CastOp storeHalfIntermediate(const OpGroup &group, Precision precision);

} // namespace fusecc::fuse::formkernels

#endif // FUSECC_LIB_DIALECT_FUSE_TRANSFORMS_FORMKERNELSINTERNAL_H
