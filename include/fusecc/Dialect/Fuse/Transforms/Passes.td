//===- Passes.td - fuse dialect passes ---------------------*- tablegen -*-===//
//
// Graph-level passes of the fuse dialect: kernel formation and tiling.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_DIALECT_FUSE_TRANSFORMS_PASSES_TD
#define FUSECC_DIALECT_FUSE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseAttachTarget : Pass<"fuse-attach-target", "::mlir::ModuleOp"> {
  let summary = "Record the target GPU on the module as a #fuse.target";
  let description = [{
    Attaches `fuse.target = #fuse.target<chip = ..., device = ...>` to the
    module: the chip (PTX target: which instructions kernels may use) and
    the device (whose facts, `fusecc::TargetInfo`, size the kernels). Every
    later pass reads the target through `fuse::getTargetInfo`. A module
    that already names a different target is an error; the same one is
    kept.

    Example: `fusecc-opt --fuse-attach-target='chip=sm_90a device=h100'`
    gives `module attributes {fuse.target = #fuse.target<chip = sm_90a,
    device = h100>}`.
  }];
  let options = [
    Option<"chip", "chip", "::fusecc::Chip", "::fusecc::Chip::SM90",
           "PTX target: sm_80, sm_90 or sm_90a",
           [{::fusecc::optionValues<::fusecc::Chip>()}]>,
    Option<"device", "device", "::fusecc::Device", "::fusecc::Device::H200",
           "GPU whose facts size the kernels: a100, h100 or h200",
           [{::fusecc::optionValues<::fusecc::Device>()}]>,
  ];
  let dependentDialects = ["::fusecc::fuse::FuseDialect"];
}

def FuseWidenHalf : Pass<"fuse-widen-half", "::mlir::func::FuncOp"> {
  let summary = "Compute a bf16/f16 graph in f32 between its half-stored "
                "values";
  let description = [{
    The first pass of the pipeline (docs/design/types.md). A graph on half
    tensors keeps half storage where values are stored -- graph inputs,
    tensor constants (weights), graph results and the results of an
    explicit `fuse.cast` to bf16/f16 -- and computes in f32 everywhere else:
    every op on half tensors is retyped to f32, a stored half value is read
    through a `fuse.cast` to f32 (built once per value; a splat constant is
    widened in place, exactly), and a half graph result is the `fuse.cast`
    of its f32 value, rounded once (to nearest even) at its store. A cast
    to f32 of a value that is now f32 is dropped. Graphs on f32 tensors
    are unchanged.

    Example:
    ```
    func.func @g(%x: tensor<4xbf16>) -> tensor<4xbf16> {
      %r = fuse.relu %x : tensor<4xbf16>
      return %r : tensor<4xbf16>
    }
    -> %xw = fuse.cast %x : tensor<4xbf16> -> tensor<4xf32>
       %r = fuse.relu %xw : tensor<4xf32>
       %o = fuse.cast %r : tensor<4xf32> -> tensor<4xbf16>
       return %o : tensor<4xbf16>
    ```
  }];
  let dependentDialects = ["::fusecc::fuse::FuseDialect",
                           "::mlir::arith::ArithDialect"];
}

def FuseDecompose : Pass<"fuse-decompose", "::mlir::func::FuncOp"> {
  let summary = "Rewrite every composite op into the fuse ops it is made of";
  let description = [{
    The first pass of the pipeline after fuse-widen-half. Replaces every op of
    `CompositeOpInterface` (batch_norm, instance_norm) by the
    ops its `decompose` builds: elementwise ops, group_norm, reductions
    (mean, with keepdim) and reshapes. The new ops are then moved
    up, in the order built, to just after the last of their operands'
    definitions (graph ops are pure), so that what a decomposition builds
    first from graph inputs alone (a per-channel
    parameter's `[C, 1, ...]` view, `rsqrt(running_var + eps)`) stands
    before a convolution and its epilogue can still read it: inference
    batch_norm after a convolution fuses into the convolution's kernel.
  }];
  let dependentDialects = ["::fusecc::fuse::FuseDialect",
                           "::mlir::arith::ArithDialect"];
}

def FuseSplitReductions
    : Pass<"fuse-split-reductions", "::mlir::func::FuncOp"> {
  let summary = "Split reductions over non-adjacent dims into chains of "
                "reductions over contiguous runs";
  let description = [{
    A set reduction (sum, mean, var, amax, amin, logsumexp) over dims that
    are not one contiguous run -- `x.mean((0, 2, 3))`, batch_norm's
    training statistics -- becomes a chain of reductions over contiguous
    runs, the innermost run first, all with keepdim (a final reshape where
    the op had none), so every link is a set of contiguous runs that the
    plan's reduction layouts and a convolution epilogue's statistics serve.
    sum, amax, amin and logsumexp compose directly, mean as a mean of
    equal-sized subsets' means; var by the law of total variance about the
    combined mean (deviations, never E[x^2] - E[x]^2), the correction once
    at the end:
    `var_c(x, D1+D2) = n / (n - c) * mean(var_0(x, D2) + (m - M)^2, D1)`,
    `m = mean(x, D2)`, `M = mean(m, D1)`. Reductions the chain builds that
    equal one built before (a mean and a var of the same tensor share
    `mean(x, D2)` and `M`) are built once.

    Example (`x: [N, C, H, W]`):
    ```
    fuse.mean %x {dims = array<i64: 0, 2, 3>, keepdim = true}
      -> %m = fuse.mean %x {dims = array<i64: 2, 3>, keepdim = true}
         fuse.mean %m {dims = array<i64: 0>, keepdim = true}
    ```
  }];
  let dependentDialects = ["::fusecc::fuse::FuseDialect",
                           "::mlir::arith::ArithDialect"];
}

def FuseSpecializeBatch : Pass<"fuse-specialize-batch", "::mlir::ModuleOp"> {
  let summary = "Specialise a dynamic-batch graph (tensor<?x...>) to its "
                "per-sample graph";
  let description = [{
    What `fusecc --max-batch=N` does before the pipeline (fusecc-opt needs
    `--mlir-very-unsafe-disable-verifier-on-parsing` to read `?` shapes):
    every dynamic leading dim becomes `batch`, the batched arguments and
    results get `fuse.batched`, the module `fuse.max_batch = max-batch`,
    and an op that mixes samples (a reduction, softmax or layer_norm over
    dim 0, training batch_norm, a concat along dim 0, a reshape folding the
    batch into other dims, a batched weight) is a located error naming it
    (docs/design/plans.md, "Dynamic batch").
  }];
  let options = [
    Option<"batch", "batch", "int64_t", /*default=*/"1",
           "The batch to specialise to (1: the per-sample graph)">,
    Option<"maxBatch", "max-batch", "int64_t", /*default=*/"0",
           "The bound recorded as fuse.max_batch (0: none)">
  ];
}

def FuseComposePools : Pass<"fuse-compose-pools", "::mlir::func::FuncOp"> {
  let summary = "Rewrite a pooling of a pooling as one pooling, and a "
                "global reduction of a pooling as one reduction, where exact";
  let description = [{
    A max_pool or avg_pool whose every window is one element (kernel 1,
    stride 1, no padding, no divisor override) is its operand and goes.

    A max_pool of a max_pool, or an avg_pool of an avg_pool, whose inner
    result has no other use becomes one pooling of the inner operand when
    the two are exactly one sliding window: no padding or ceil_mode; for
    max, contiguous inner windows that the outer taps leave no gap
    between (kernel `(k2 - 1) d2 s1 + k1`, stride `s1 s2`); for average,
    inner windows that tile the dims (`k1 == s1`) and no divisor override
    (kernel `k1 k2`, stride `s1 s2`). A convolution epilogue then applies
    the whole chain, and the first pooling's result never reaches device
    memory.

    Example (kb2_78):
    ```
    %1 = fuse.max_pool %0 {kernel_size = [2, 2, 2], stride = [2, 2, 2]}
    %2 = fuse.max_pool %1 {kernel_size = [3, 3, 3], stride = [3, 3, 3]}
      -> %2 = fuse.max_pool %0 {kernel_size = [6, 6, 6], stride = [6, 6, 6]}
    ```

    A set reduction over all spatial dims of a pooling whose result has no
    other use becomes the same reduction of the pooling's operand where
    exact: a mean of an avg_pool whose windows tile the dims (kernel ==
    stride, no padding, dims multiples of the kernel), a sum of one (then
    times `1 / window volume`), and an amax of a max_pool whose windows
    cover the dims without a gap (stride <= kernel, dilation 1, no padding,
    the last window ending at the dim's end). The reduction of a
    convolution's result then takes epilogue statistics or
    fuse-reduce-through-conv, and the pooled tensor is never computed.
    ```
    %1 = fuse.avg_pool %0 {kernel_size = [2, 2], stride = [2, 2]}
    %2 = fuse.sum %1 {dims = [2, 3]}
      -> %s = fuse.sum %0 {dims = [2, 3]}, %2 = fuse.mul %s, 0.25
    ```
  }];
  let dependentDialects = ["::fusecc::fuse::FuseDialect"];
}

def FuseReduceThroughConv
    : Pass<"fuse-reduce-through-conv", "::mlir::func::FuncOp"> {
  let summary = "Rewrite a sum or mean over spatial dims of a "
                "transposed convolution without the convolution";
  let description = [{
    A sum or mean over all spatial dims of a transposed convolution's result
    (any set reduction of those dims, keepdim or not) is linear in the
    convolution's input: per (sample, input channel) and tap, the sum of
    the inputs the tap maps into the output is a box of the input plane
    (`fuse.conv_transpose_tap_sums`), and the reduction is those box sums
    contracted with the weights, which is a transposed convolution of
    output size 1 (stride 1, padding `kernel - 1`, the same weights,
    bias and groups) of the box sums in reversed tap order. Scaled by
    `1 / prod(output spatial sizes)`, the small convolution gives the mean,
    bias included.

    Matched when the path from the convolution to the reduction is only
    elementwise ops affine in the path's value
    (`ElementwiseOpInterface::isAffineIn`: add, sub, mul, neg, div by)
    whose other operands are constant over the spatial dims (scalars,
    `[C, 1, 1]` or `[N, C, 1, 1]` parameters), nothing else reads the
    convolution or the path's values, and the convolution has more than
    one output position. The affine chain then applies to the mean
    (`mean(a x + c) = a mean(x) + c`), a sum is the mean times the
    positions, and a reshape gives the reduction's shape. The small
    convolution is pinned to FP32 FMA (`fuse.precision = #fuse.conv_math<ieee>`) in
    every precision mode: its few multiply-adds are cheap and its
    operands, sums of up to the whole input plane, must not be rounded
    to TF32. A sum or mean over dims of size 1 that reads the rewritten
    value (a second mean over the dims the first kept, as in kb2_44) is an
    identity and becomes that value (reshaped where keepdim is false).

    A sum or mean over some of the spatial dims (a contiguous run; an
    adaptive average pool whose spatial output sizes are each 1 or the
    input's) is rewritten the same way along the reduced dims, where the
    product over them of `output size / stride` is at least 8 and the box
    sums read no more elements than the convolution writes: a kept dim of
    input size `in` is a tap-sums dim of `in` taps at stride 1, padding
    `in - 1` and output size 1 (the input itself, taps reversed), and the
    small convolution keeps the original stride, padding, dilation and
    output padding along it.

    Example (kb2_44):
    ```
    %c = fuse.conv_transpose %x, %w, %b {stride = [2, 2], padding = [1, 1],
           output_padding = [1, 1], ...} -> tensor<16x128x256x256xf32>
    %m = fuse.mul %c, %half
    %r = fuse.mean %m {dims = [2, 3], keepdim = true}
      -> %t = fuse.conv_transpose_tap_sums %x {kernel_size = [3, 3],
                stride = [2, 2], padding = [1, 1], dilation = [1, 1],
                output_size = [256, 256], scale = 1 / 65536}
              -> tensor<16x64x3x3xf32>
         %s = fuse.conv_transpose %t, %w, %b {stride = [1, 1],
                padding = [2, 2], output_padding = [0, 0],
                dilation = [1, 1], fuse.precision = #fuse.conv_math<ieee>}
              -> tensor<16x128x1x1xf32>
         %r = fuse.mul %s, %half
    ```
  }];
  let dependentDialects = ["::fusecc::fuse::FuseDialect",
                           "::mlir::arith::ArithDialect"];
}

def FuseRecomputeConv : Pass<"fuse-recompute-conv", "::mlir::func::FuncOp"> {
  let summary = "Recompute a convolution instead of storing its result for "
                "a softmax over its spatial dims";
  let description = [{
    A softmax whose sets are whole channels (or whole samples) of a
    transposed convolution's epilogue value P (also through reshape views,
    as kb2_38's `softmax(x.view(B, C, -1), dim=2).view(B, C, D, H, W)`),
    where nothing else reads P, becomes `exp(P' - lse)`: `lse =
    logsumexp(P, spatial or non-batch dims, keepdim)` -- a reduction whose
    only reader is that convolution, so its kernel keeps P on chip and
    writes (max, sum of exp) records -- and P' the same convolution and
    epilogue recomputed after it, whose epilogue then applies the softmax
    and what follows as elementwise ops. P never reaches device memory.
    Applied where the convolution is cheap for its result's bytes: tf32,
    bf16 and fp16 kernels only (the f32 rounding of lse costs |lse| x 2^-24
    relative, below their operands' error but not ieee's), when conv FLOPs /
    rate is below 2 x P's bytes / `tbps` (the write and read it saves); the
    rate is `tflops` (TF32), for half operands scaled by the target's
    ratio of their peak to TF32's (TargetInfo::peakTflops). A log_softmax
    keeps the normalisation plan (recomputed it would be `P' - lse`, not
    PyTorch's `(x - max) - log(sum)`).
  }];
  let options = [
    Option<"precision", "precision", "::fusecc::Precision",
           "::fusecc::Precision::IEEE",
           "Arithmetic of the convolutions: only tf32, bf16 and fp16 ones are recomputed",
           [{::fusecc::optionValues<::fusecc::Precision>()}]>,
    Option<"tflops", "tflops", "double", "300.0",
           "Tensor-core rate of the convolution (TFLOP/s) in the cost rule">,
    Option<"tbps", "tbps", "double", "2.5",
           "Device memory bandwidth (TB/s) in the cost rule">,
  ];
  let dependentDialects = ["::fusecc::fuse::FuseDialect"];
}

def FuseFormKernels : Pass<"fuse-form-kernels", "::mlir::func::FuncOp"> {
  let summary = "Group each transposed convolution and its epilogue into a "
                "fuse.kernel";
  let description = [{
    Starting at every `fuse.conv_transpose`, grows a kernel region over the
    elementwise ops, softmax and layer_norm ops that consume values of the
    region, as long as the region keeps exactly one value used outside it.
    Splat scalar constants are cloned into the region; any other outside
    value becomes a kernel input. The result is one `fuse.kernel` per
    convolution, i.e. one GPU launch per layer, with no intermediate tensor.

    Before that, a convolution may take a prologue: the chain of
    elementwise and window ops (pooling, views) that computes its input,
    when no other op reads the chain's values (every convolution reading
    the chain's result then folds a copy). The conv kernel evaluates the
    chain per staged input element instead of reading a buffer another
    kernel wrote. `prologue=auto` folds where the staged reads (V reads of
    the chain's inputs per element, times S stagings of each input element
    summed over the readers) do not exceed the traffic saved (V + 1 + S:
    the prologue kernel's reads and write, the stagings of its result);
    elementwise prologues (V = 1) always pay. The decision is recorded on
    the convolution (`fuse.prologue`) and printed by `--emit=plan`.

    A 1x1 convolution of few output channels reading a convolution's
    elementwise epilogue value (a channel contraction,
    `isChannelContraction`) joins that convolution's kernel, which then
    holds all channels per block and contracts them in its epilogue
    (`channel-contraction=false`: never; it keeps a kernel of its own).

    A half graph's convolution kernel whose f32 result only convolutions
    read, as their input on tensor cores of one half type, stores that
    result in the half type (a half store), and the readers read it
    directly (half intermediates, docs/design/types.md: their tensor cores
    round the value to that type anyway; `half-intermediates=false`: f32).
  }];
  let options = [
    Option<"prologue", "prologue", "::fusecc::PrologueFusion",
           "::fusecc::PrologueFusion::Auto",
           "Fold a convolution's prologue into its input staging",
           [{::fusecc::optionValues<::fusecc::PrologueFusion>()}]>,
    Option<"channelContraction", "channel-contraction", "bool", "true",
           "Apply a 1x1 convolution of few output channels in the epilogue "
           "of the convolution kernel that produces its input">,
    Option<"halfIntermediates", "half-intermediates", "bool", "true",
           "Store a convolution kernel's f32 result that only half "
           "tensor-core convolutions read as their input in that half type">,
    Option<"precision", "precision", "::fusecc::Precision",
           "::fusecc::Precision::IEEE",
           "Arithmetic of the convolutions (half intermediates only where "
           "their readers multiply in the graph's half type)",
           [{::fusecc::optionValues<::fusecc::Precision>()}]>,
  ];
  let dependentDialects = ["::fusecc::fuse::FuseDialect"];
}

def FuseTileKernels : Pass<"fuse-tile-kernels", "::mlir::func::FuncOp"> {
  let summary = "Choose the block/thread mapping of every fuse.kernel";
  let description = [{
    Attaches a `#fuse.tile<...>` configuration to each `fuse.kernel`: the
    output row segment and channel range of a block, the thread grid, the
    channels and positions per thread and the input-channel chunk staged in
    shared memory. Reductions inside the kernel constrain the tile: a channel
    softmax needs all channels in one block (or, on the wgmma path, in one
    thread block cluster whose blocks combine their statistics), a last-dim
    normalisation the whole last dim. Kernels whose reductions cannot be held by one block are
    rejected with a diagnostic (they need a multi-kernel plan).
  }];
  let options = [
    Option<"precision", "precision", "::fusecc::Precision",
           "::fusecc::Precision::IEEE",
           "Arithmetic of the convolution: ieee (FP32 FMA) or tf32",
           [{::fusecc::optionValues<::fusecc::Precision>()}]>,
    Option<"maxTileW", "max-tile-w", "int64_t", "128",
           "Largest output row segment one block computes">,
    Option<"threads", "threads", "int64_t", "128",
           "Threads per block of the FMA path (128 measured faster than 256 "
           "on all 12 workloads tried, docs/perf.md)">,
    Option<"rows", "rows", "int64_t", "0",
           "Output rows per block on the tensor-core path (0: cost model; "
           "1, 2 or 4)">,
    Option<"ciChunk", "ci-chunk", "int64_t", "0",
           "Input channels staged per round on the tensor-core path (0: "
           "cost model; a multiple of 8)">,
    Option<"tileC", "tile-c", "int64_t", "0",
           "Output channels per block on the tensor-core path (0: cost "
           "model; a multiple of 16). Ignored where a reduction needs all "
           "channels or groups fix the tile">,
    Option<"warpsC", "warps-c", "int64_t", "0",
           "Channel warps of a tensor-core block (0: cost model; 1, 2 or "
           "4)">,
    Option<"mergeHTaps", "merge-h-taps", "bool", "false",
           "Tensor-core rounds stage all valid H taps at once">,
    Option<"wgmma", "wgmma", "::fusecc::WgmmaMode",
           "::fusecc::WgmmaMode::Never",
           "tf32 kernels run on Hopper warpgroup MMA (wgmma.mma_async, "
           "sm_90a) instead of mma.sync: never, always (wherever they fit) "
           "or fills-grid (where they fit and their grid fills the target's "
           "SMs at least once: the sm_90a default); 0, 1, 2 are accepted too",
           [{::fusecc::optionValues<::fusecc::WgmmaMode>()}]>,
    Option<"ieeeTensorCores", "ieee-tensor-cores",
           "::fusecc::IeeeTensorCores", "::fusecc::IeeeTensorCores::Auto",
           "ieee convolutions on the tensor cores with split operands "
           "(3xTF32: precision = \"tf32x3\", FP32-level accuracy; wgmma as "
           "the wgmma option says, else mma.sync): never (FP32 FMA), "
           "auto (where a tensor-core tiling fits, the grid has a block per "
           "SM of the target and a group at least 16 input channels; "
           "default) or "
           "always (wherever one fits)",
           [{::fusecc::optionValues<::fusecc::IeeeTensorCores>()}]>,
    Option<"wgmmaSplit", "wgmma-split", "int64_t", "0",
           "wgmma warpgroups per channel group, each taking rows / split "
           "rows (0: cost model; a power of two dividing rows)">,
    Option<"positionsM", "positions-m", "int64_t", "0",
           "mma.sync tiles with output positions on the MMA's M side and "
           "channels on N, for layers of at most 16 output channels per "
           "group: 1 wherever they fit, -1 never, 0 the cost model "
           "(grouped layers whose groups are not whole 16-channel tiles; "
           "tf32 one-group layers of at most 8 channels with long rows)">,
    Option<"samples", "samples", "int64_t", "0",
           "wgmma blocks of the whole H stride phases of this many samples "
           "(TileConfigAttr::samples) where they fit, -1 never, 0 the cost "
           "model (short phases of one-tile rows, elementwise epilogues)">,
    Option<"phaseSplit", "phase-split", "int64_t", "0",
           "wgmma warpgroups that share a block's W phases "
           "(TileConfigAttr::wgmmaPhaseSplit): 2 or 4 where they fit, -1 "
           "never, 0 the cost model (W strides of 8 or more)">,
    Option<"clusterK", "cluster-k", "int64_t", "0",
           "wgmma blocks of a thread block cluster that split one tile's "
           "reduction (TileConfigAttr::clusterK): 2, 4 or 8 where they fit, "
           "-1 never, 0 the cost model (grids under two blocks an SM with "
           "long reductions)">,
    Option<"clusterC", "cluster-c", "int64_t", "0",
           "Blocks per thread block cluster that share a channel softmax on "
           "the wgmma path, each computing tileC / clusterC channels (0: "
           "cost model; 1, 2, 4 or 8). Ignored for other kernels">,
    Option<"rules", "rules", "::fusecc::TileRules",
           "::fusecc::TileRules::Current",
           "Rules of the cost model: current (default), or for A/B timing "
           "session37, session36, session35 (the rules before that "
           "session; Options.h)",
           [{::fusecc::optionValues<::fusecc::TileRules>()}]>,
    Option<"tuningFile", "tuning-file", "std::string", "\"\"",
           "JSON file of measured tile choices (bench/tune.py), or a "
           "directory of them (its <device>.json for the module's target "
           "device, none if it has none): a kernel "
           "whose tuning key is listed gets its rows, ci-chunk, tile-c, "
           "warps-c, merge-h-taps, wgmma, wgmma-split, cluster-c, "
           "threads and max-tile-w unless the options above set them "
           "(threads and max-tile-w: changed from their defaults)">,
  ];
}

def FusePlanKernels : Pass<"fuse-plan-kernels", "::mlir::func::FuncOp"> {
  let summary = "Plan the kernels of a graph: order, buffers, workspaces";
  let description = [{
    Runs after fuse-tile-kernels. Records the plan of every graph function
    (`fusecc/Dialect/Fuse/Transforms/Plan.h`): the kernels in block order,
    one device buffer per kernel result that a later kernel reads and the
    function does not return (an intermediate; a buffer is reused by a
    later intermediate of the same element type once its last reader has
    run), and a partial-statistics workspace for each normalisation kernel
    whose reduction sets are split over several blocks. A normalisation
    over all non-batch dims (group_norm, layer_norm over C and the spatial
    dims) of a convolution kernel's result takes its partials from that
    kernel's epilogue instead (`epilogue-stats`): each conv block writes the
    statistics of its part of every set it meets, and the normalisation
    kernel merges them and reads the result once (where a set has many
    records and several blocks, once per set by a launch of its own:
    `merge-records`). The function gets
    `fuse.plan.buffers` (role, element type, elements, first and last step
    of each buffer); a kernel gets `fuse.plan.result` (the buffer of its
    result) and `fuse.plan.partials`. `fusecc --emit=plan` prints it.
  }];
  let options = [
    Option<"warpSetLimit", "warp-set-limit", "int64_t", "4096",
           "Longest contiguous reduction set that one warp normalises alone "
           "(longer sets are split over blocks)">,
    Option<"splitChunk", "split-chunk", "int64_t", "16384",
           "Elements per block of a reduction set split over blocks (before "
           "balancing; a multiple of 4 is used)">,
    Option<"mergeRecords", "merge-records", "int64_t", "1024",
           "Records per set of epilogue statistics past which a "
           "normalisation of several blocks per set merges them once per "
           "set in a launch of its own (kDefaultMergeRecords), and the "
           "fewest records one block of that launch takes">,
    Option<"epilogueStats", "epilogue-stats", "bool", "true",
           "A normalisation over all non-batch dims of a convolution "
           "kernel's result takes its partial statistics from that kernel's "
           "epilogue (the result is read once, not twice)">,
  ];
  let dependentDialects = ["::fusecc::fuse::FuseDialect"];
}

#endif // FUSECC_DIALECT_FUSE_TRANSFORMS_PASSES_TD
