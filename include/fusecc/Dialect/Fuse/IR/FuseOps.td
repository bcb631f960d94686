//===- FuseOps.td - fuse dialect ops -----------------------*- tablegen -*-===//
//
// Graph-level ops (transposed convolution, elementwise, normalisations) and
// the fused kernel region formed by `fuse-form-kernels`.
//
//===----------------------------------------------------------------------===//

#ifndef FUSECC_DIALECT_FUSE_IR_FUSEOPS_TD
#define FUSECC_DIALECT_FUSE_IR_FUSEOPS_TD

include "fusecc/Dialect/Fuse/IR/FuseDialect.td"
include "fusecc/Dialect/Fuse/IR/FuseAttrs.td"
include "fusecc/Dialect/Fuse/IR/FuseInterfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

/// Every tensor an op reads or writes fits kMaxTensorBytes (2^62 bytes), so
/// that element counts, byte sizes and indices derived from it fit int64.
def Fuse_RepresentableTensors : NativeOpTrait<"RepresentableTensors"> {
  let cppNamespace = "::fusecc::fuse::OpTrait";
}

/// The element-type rule of docs/design/types.md: every tensor an op reads
/// or writes has the element type of its first operand (its data), except
/// that an op with `Fuse_F32Parameters` may read (and write) f32 parameter
/// tensors beside half data. Ops with `Fuse_MixedElementTypes` (casts,
/// kernels) are exempt.
def Fuse_OneElementType : NativeOpTrait<"OneElementType"> {
  let cppNamespace = "::fusecc::fuse::OpTrait";
}

/// Marks an op whose tensors after the first operand and result (affine
/// weights, biases, running statistics) may stay f32 on bf16/f16 data.
def Fuse_F32Parameters : NativeOpTrait<"F32Parameters"> {
  let cppNamespace = "::fusecc::fuse::OpTrait";
}

/// Marks an op exempt from `Fuse_OneElementType`.
def Fuse_MixedElementTypes : NativeOpTrait<"MixedElementTypes"> {
  let cppNamespace = "::fusecc::fuse::OpTrait";
}

class Fuse_Op<string mnemonic, list<Trait> traits = []>
    : Op<Fuse_Dialect, mnemonic, !listconcat(traits,
             [Fuse_RepresentableTensors, Fuse_OneElementType])>;

/// Statically shaped float tensors: every fusecc graph value. f32, or half
/// storage (bf16, f16) whose arithmetic is f32 (docs/design/types.md).
def Fuse_Tensor : StaticShapeTensorOf<[F32, BF16, F16]>;

//===----------------------------------------------------------------------===//
// Transposed convolution
//===----------------------------------------------------------------------===//

def Fuse_ConvTransposeOp : Fuse_Op<"conv_transpose", [Pure]> {
  let summary = "Transposed convolution (ConvTranspose1d/2d/3d)";
  let description = [{
    PyTorch's transposed convolution over 1, 2 or 3 spatial dims. The input
    is `[N, Cin, *in]`, the weight `[Cin, Cout/groups, *k]` (input channels
    first), the optional bias `[Cout]`. Per spatial dim the output size is
    `(in - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding
    + 1`; `output_padding` is any integer (negative: an end crop, as ONNX
    pads ending past the begin); `groups` divides both channel counts.

    With `forward_weight` (built by `fuse-decompose` from a stride-1
    `fuse.conv`) the weight is a forward convolution's `[Cout, Cin/groups,
    *k]` read with its taps reversed: the logical weight is
    `w[g * Cout/groups + co, ci, K - 1 - k]` for input channel `g *
    Cin/groups + ci`. Every kernel stages it in that layout (no copy); its
    `output_padding` is the forward convolution's end padding minus its
    begin padding.

    Example:
    ```mlir
    %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>,
           padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>,
           dilation = array<i64: 1, 1, 1>, groups = 1 : i64}
         : (tensor<16x32x16x32x32xf32>, tensor<32x64x3x3x3xf32>,
            tensor<64xf32>) -> tensor<16x64x32x64x64xf32>
    ```
  }];
  let arguments = (ins Fuse_Tensor:$input, Fuse_Tensor:$weight,
                       Optional<Fuse_Tensor>:$bias,
                       DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$output_padding,
                       DenseI64ArrayAttr:$dilation,
                       DefaultValuedAttr<I64Attr, "1">:$groups,
                       UnitAttr:$forward_weight);
  let results = (outs Fuse_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Number of spatial dims (1, 2 or 3).
    int64_t getNumSpatialDims() {
      return getInput().getType().getRank() - 2;
    }
  }];
}


//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

class Fuse_UnaryOp<string mnemonic, string formula, list<Trait> traits = [],
                   list<string> overrides = []>
    : Fuse_Op<mnemonic, !listconcat(traits, [Pure, SameOperandsAndResultType,
        DeclareOpInterfaceMethods<Fuse_ElementwiseOpInterface, overrides>])> {
  let summary = "Elementwise " # formula;
  let description = [{
    Applies `}] # formula # [{` to every element (PyTorch semantics).

    Example:
    ```mlir
    %y = fuse.}] # mnemonic # [{ %x : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Fuse_Tensor:$input);
  let results = (outs Fuse_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Fuse_NegOp : Fuse_UnaryOp<"neg", "-x", [], ["isAffineIn"]>;
def Fuse_AbsOp : Fuse_UnaryOp<"abs", "|x|">;
def Fuse_ExpOp : Fuse_UnaryOp<"exp", "exp(x)">;
def Fuse_LogOp : Fuse_UnaryOp<"log", "log(x)">;
def Fuse_SqrtOp : Fuse_UnaryOp<"sqrt", "sqrt(x)">;
def Fuse_RsqrtOp : Fuse_UnaryOp<"rsqrt", "1 / sqrt(x)">;
def Fuse_ErfOp : Fuse_UnaryOp<"erf", "erf(x)">;
def Fuse_TanhOp : Fuse_UnaryOp<"tanh", "tanh(x)">;
def Fuse_SigmoidOp : Fuse_UnaryOp<"sigmoid", "1 / (1 + exp(-x))">;
def Fuse_ReluOp : Fuse_UnaryOp<"relu", "max(x, 0)">;
def Fuse_SiluOp : Fuse_UnaryOp<"silu", "x * sigmoid(x)">;
def Fuse_SoftplusOp
    : Fuse_UnaryOp<"softplus", "log1p(exp(x)), or x where x > 20">;
def Fuse_MishOp : Fuse_UnaryOp<"mish", "x * tanh(softplus(x))">;
def Fuse_HardsigmoidOp
    : Fuse_UnaryOp<"hardsigmoid", "clamp(x / 6 + 1/2, 0, 1)">;
def Fuse_HardswishOp
    : Fuse_UnaryOp<"hardswish", "x * clamp(x + 3, 0, 6) / 6">;

def Fuse_GeluOp : Fuse_UnaryOp<"gelu",
    "0.5 * x * (1 + erf(x / sqrt(2))), or the tanh form if approximate = \"tanh\""> {
  let arguments = (ins Fuse_Tensor:$input,
      DefaultValuedAttr<StrAttr, "\"none\"">:$approximate);
  let hasVerifier = 1;
}

def Fuse_LeakyReluOp : Fuse_UnaryOp<"leaky_relu", "x > 0 ? x : slope * x"> {
  let arguments = (ins Fuse_Tensor:$input,
      DefaultValuedAttr<F64Attr, "0.01">:$slope);
  let hasVerifier = 1;
}

def Fuse_ClampOp : Fuse_UnaryOp<"clamp",
    "min(max(x, min), max) with either bound optional (hardtanh too)"> {
  let arguments = (ins Fuse_Tensor:$input, OptionalAttr<F64Attr>:$min,
                       OptionalAttr<F64Attr>:$max);
  let hasVerifier = 1;
}

class Fuse_BinaryOp<string mnemonic, string formula,
                    list<string> overrides = []>
    : Fuse_Op<mnemonic, [Pure,
        DeclareOpInterfaceMethods<Fuse_ElementwiseOpInterface, overrides>]> {
  let summary = "Elementwise " # formula # " with NumPy broadcasting";
  let description = [{
    Computes `}] # formula # [{` elementwise. The operand shapes broadcast
    as in NumPy/PyTorch (trailing dims aligned, size-1 dims stretched, a
    rank-0 tensor is a scalar); the result has the broadcast shape.

    Example:
    ```mlir
    %y = fuse.}] # mnemonic # [{ %x, %b
         : tensor<16x64x32x64x64xf32>, tensor<64x1x1x1xf32>
         -> tensor<16x64x32x64x64xf32>
    ```
  }];
  let arguments = (ins Fuse_Tensor:$lhs, Fuse_Tensor:$rhs);
  let results = (outs Fuse_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Fuse_AddOp : Fuse_BinaryOp<"add", "lhs + rhs", ["isAffineIn"]>;
def Fuse_SubOp : Fuse_BinaryOp<"sub", "lhs - rhs", ["isAffineIn"]>;
def Fuse_MulOp : Fuse_BinaryOp<"mul", "lhs * rhs", ["isAffineIn"]>;
def Fuse_DivOp : Fuse_BinaryOp<"div", "lhs / rhs", ["isAffineIn"]>;
def Fuse_MaximumOp : Fuse_BinaryOp<"maximum", "max(lhs, rhs) (NaN propagates)">;
def Fuse_MinimumOp : Fuse_BinaryOp<"minimum", "min(lhs, rhs) (NaN propagates)">;
def Fuse_PowOp : Fuse_BinaryOp<"pow", "lhs ^ rhs">;

//===----------------------------------------------------------------------===//
// Normalisations
//===----------------------------------------------------------------------===//

def Fuse_SoftmaxOp : Fuse_Op<"softmax", [Pure, SameOperandsAndResultType,
    DeclareOpInterfaceMethods<Fuse_NormalizationOpInterface,
                              ["getStatisticsKind"]>]> {
  let summary = "Softmax along one dim";
  let description = [{
    `exp(x - max) / sum(exp(x - max))` along `dim` (0 <= dim < rank).

    Example:
    ```mlir
    %y = fuse.softmax %x {dim = 1 : i64} : tensor<16x64x32x64x64xf32>
    ```
  }];
  let arguments = (ins Fuse_Tensor:$input, I64Attr:$dim);
  let results = (outs Fuse_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Fuse_LogSoftmaxOp : Fuse_Op<"log_softmax", [Pure,
    SameOperandsAndResultType,
    DeclareOpInterfaceMethods<Fuse_NormalizationOpInterface,
                              ["getStatisticsKind", "getSoftmaxForm"]>]> {
  let summary = "Log-softmax along one dim (PyTorch F.log_softmax)";
  let description = [{
    `(x - max) - log(sum(exp(x - max)))` along `dim` (0 <= dim < rank): the
    statistics of a softmax, with the log form of its element
    (`SoftmaxForm::Log`). As in PyTorch, a set whose max is +inf, -inf or
    NaN gives NaN throughout (log_softmax of [-inf, -inf] is [nan, nan]),
    and -inf elements of a set with a finite max stay -inf (log_softmax of
    [0, -inf] is [0, -inf]).

    Example:
    ```mlir
    %y = fuse.log_softmax %x {dim = 1 : i64} : tensor<3x5x7xf32>
    ```
  }];
  let arguments = (ins Fuse_Tensor:$input, I64Attr:$dim);
  let results = (outs Fuse_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Fuse_LayerNormOp : Fuse_Op<"layer_norm", [Pure, Fuse_F32Parameters,
    AllTypesMatch<["input", "result"]>, AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<Fuse_NormalizationOpInterface>]> {
  let summary = "Layer normalisation over the trailing dims";
  let description = [{
    Normalises over the last `normalized_rank` dims:
    `(x - mean) / sqrt(var + epsilon) * weight + bias` with the biased
    variance. `weight` and `bias` are optional and, when present, have the
    shape of the normalised dims.

    Example (LayerNorm(64) on the last dim):
    ```mlir
    %y = fuse.layer_norm %x weight(%g : tensor<64xf32>)
           bias(%b : tensor<64xf32>)
           {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64}
         : tensor<32x64x32x64x64xf32>
    ```
  }];
  let arguments = (ins Fuse_Tensor:$input, Optional<Fuse_Tensor>:$weight,
                       Optional<Fuse_Tensor>:$bias,
                       DefaultValuedAttr<I64Attr, "1">:$normalized_rank,
                       DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon);
  let results = (outs Fuse_Tensor:$result);
  let assemblyFormat = [{
    $input (`weight` `(` $weight^ `:` type($weight) `)`)?
           (`bias` `(` $bias^ `:` type($bias) `)`)? attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

def Fuse_GroupNormOp : Fuse_Op<"group_norm", [Pure, Fuse_F32Parameters,
    AllTypesMatch<["input", "result"]>, AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<Fuse_NormalizationOpInterface,
                              ["getChannelGroups"]>]> {
  let summary = "Group normalisation (PyTorch F.group_norm)";
  let description = [{
    Splits the channels (dim 1) of `[N, C, *]` into `num_groups` groups of
    `C / num_groups` consecutive channels and normalises each (sample,
    group) over its channels and all spatial positions:
    `(x - mean) / sqrt(var + epsilon) * weight[c] + bias[c]` with the biased
    variance. `weight` and `bias` are optional `[C]` tensors. InstanceNorm
    is `num_groups = C`, a LayerNorm over (C, *) is `num_groups = 1`.

    Example (GroupNorm(8, 64)):
    ```mlir
    %y = fuse.group_norm %x weight(%g : tensor<64xf32>)
           bias(%b : tensor<64xf32>)
           {num_groups = 8 : i64, epsilon = 1.0e-05 : f64}
         : tensor<16x64x34x34xf32>
    ```
  }];
  let arguments = (ins Fuse_Tensor:$input, Optional<Fuse_Tensor>:$weight,
                       Optional<Fuse_Tensor>:$bias, I64Attr:$num_groups,
                       DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon);
  let results = (outs Fuse_Tensor:$result);
  let assemblyFormat = [{
    $input (`weight` `(` $weight^ `:` type($weight) `)`)?
           (`bias` `(` $bias^ `:` type($bias) `)`)? attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Window ops: pooling, reductions, reshapes
//===----------------------------------------------------------------------===//

class Fuse_WindowOp<string mnemonic, list<Trait> traits = []>
    : Fuse_Op<mnemonic, !listconcat(traits, [Pure,
        DeclareOpInterfaceMethods<Fuse_WindowOpInterface>])>;

class Fuse_PoolOp<string mnemonic, string what, string extraDoc,
                  dag extraArgs>
    : Fuse_Op<mnemonic, [Pure, DeclareOpInterfaceMethods<
        Fuse_WindowOpInterface, ["getSlidingWindow",
                                 "buildWindowFinish"]>]> {
  let summary = what # " pooling over 1, 2 or 3 spatial dims";
  let description = [{
    PyTorch's `}] # mnemonic # [{1d/2d/3d` on `[N, C, *spatial]` with one
    spatial dim per entry of `kernel_size`. Per spatial dim the output size
    is `floor((in + 2 * padding - dilation * (kernel - 1) - 1) / stride) + 1`
    (`ceil` with `ceil_mode`, where a last window that would start in the
    right padding is dropped); `padding` is at most half the kernel.
    }] # extraDoc # [{

    Example (`}] # mnemonic # [{3d(kernel_size=2)`):
    ```mlir
    %y = fuse.}] # mnemonic # [{ %x {kernel_size = array<i64: 2, 2, 2>,
           stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>}
         : tensor<16x32x32x64x64xf32> -> tensor<16x32x16x32x32xf32>
    ```
  }];
  let arguments = !con((ins Fuse_Tensor:$input,
                            DenseI64ArrayAttr:$kernel_size,
                            DenseI64ArrayAttr:$stride,
                            DenseI64ArrayAttr:$padding,
                            DefaultValuedAttr<BoolAttr, "false">:$ceil_mode),
                       extraArgs);
  let results = (outs Fuse_Tensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Fuse_MaxPoolOp : Fuse_PoolOp<"max_pool", "Max",
    [{The window's elements are `dilation` apart (default 1); padding never
    wins (it is minus infinity); a NaN in the window wins.}],
    (ins OptionalAttr<DenseI64ArrayAttr>:$dilation)>;

def Fuse_AvgPoolOp : Fuse_PoolOp<"avg_pool", "Average",
    [{The window's sum is divided by `divisor_override` when given, else by
    the window's size counting padding (`count_include_pad`, the default)
    or counting only input elements; a window clipped by `ceil_mode`
    counts only the positions up to the padded input's end.}],
    (ins DefaultValuedAttr<BoolAttr, "true">:$count_include_pad,
         OptionalAttr<I64Attr>:$divisor_override)>;

class Fuse_AdaptivePoolOp<string mnemonic, string what,
                          list<string> overrides = []>
    : Fuse_Op<mnemonic, [Pure, DeclareOpInterfaceMethods<
        Fuse_WindowOpInterface, overrides>]> {
  let summary = "Adaptive " # what # " pooling (global pooling included)";
  let description = [{
    PyTorch's `}] # mnemonic # [{1d/2d/3d` on `[N, C, *spatial]`: the
    result's spatial sizes are the output size; output position `i` of a
    dim of input size `in` and output size `out` covers input positions
    `floor(i * in / out)` up to `ceil((i + 1) * in / out)` (exclusive).
    An output size of 1 is global pooling.

    Example (global pooling):
    ```mlir
    %y = fuse.}] # mnemonic # [{ %x
         : tensor<16x128x256x256xf32> -> tensor<16x128x1x1xf32>
    ```
  }];
  let arguments = (ins Fuse_Tensor:$input);
  let results = (outs Fuse_Tensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Fuse_AdaptiveAvgPoolOp
    : Fuse_AdaptivePoolOp<"adaptive_avg_pool", "average",
                          ["getReducedDims", "getSetReduction"]>;
def Fuse_AdaptiveMaxPoolOp
    : Fuse_AdaptivePoolOp<"adaptive_max_pool", "max",
                          ["getReducedDims", "getSetReduction"]>;

class Fuse_ReduceOp<string mnemonic, string formula>
    : Fuse_Op<mnemonic, [Pure, DeclareOpInterfaceMethods<
        Fuse_WindowOpInterface, ["getReducedDims", "getSetReduction"]>]> {
  let summary = "Reduction by " # formula # " over a set of dims";
  let description = [{
    PyTorch's `torch.}] # mnemonic # [{(x, dim=dims, keepdim=keepdim)`:
    combines, by }] # formula # [{, the elements that share every
    coordinate outside `dims` (distinct, each in 0..rank-1, any order).
    With `keepdim` the reduced dims stay as size 1, else they are removed.

    Example (mean over H and W, kept):
    ```mlir
    %y = fuse.}] # mnemonic # [{ %x {dims = array<i64: 2, 3>, keepdim = true}
         : tensor<16x128x256x256xf32> -> tensor<16x128x1x1xf32>
    ```
  }];
  let arguments = (ins Fuse_Tensor:$input, DenseI64ArrayAttr:$dims,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs Fuse_Tensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Fuse_SumOp : Fuse_ReduceOp<"sum", "summation">;
def Fuse_MeanOp : Fuse_ReduceOp<"mean", "the arithmetic mean">;
def Fuse_AmaxOp : Fuse_ReduceOp<"amax", "the maximum (a NaN wins)">;
def Fuse_AminOp : Fuse_ReduceOp<"amin", "the minimum (a NaN wins)">;
def Fuse_LogSumExpOp : Fuse_ReduceOp<"logsumexp",
    "`log(sum(exp(x)))`, computed stably as `m + log(sum(exp(x - m)))` "
    "with `m` the maximum">;

def Fuse_VarOp : Fuse_Op<"var", [Pure, DeclareOpInterfaceMethods<
    Fuse_WindowOpInterface, ["getReducedDims", "getSetReduction",
                             "getVarianceCorrection"]>]> {
  let summary = "Variance over a set of dims";
  let description = [{
    PyTorch's `torch.var(x, dim=dims, correction=correction,
    keepdim=keepdim)`: the sum of squared deviations from the mean of the
    elements that share every coordinate outside `dims` (distinct, each in
    0..rank-1, any order), divided by `n - correction` with `n` the set's
    size (`correction = 1`, the default, is the unbiased estimate; 0 the
    biased one). `correction` is non-negative and below `n`. Computed
    stably: deviations about the set's mean (two passes, or Chan's merge of
    partial statistics), never `E[x^2] - E[x]^2`. With `keepdim` the
    reduced dims stay as size 1, else they are removed.

    Example (biased variance per channel over N, H and W, as batch_norm in
    training mode):
    ```mlir
    %v = fuse.var %x {dims = array<i64: 0, 2, 3>, keepdim = true,
                      correction = 0 : i64}
         : tensor<8x64x32x32xf32> -> tensor<1x64x1x1xf32>
    ```
  }];
  let arguments = (ins Fuse_Tensor:$input, DenseI64ArrayAttr:$dims,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim,
                       DefaultValuedAttr<I64Attr, "1">:$correction);
  let results = (outs Fuse_Tensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Fuse_ConvTransposeTapSumsOp : Fuse_Op<"conv_transpose_tap_sums", [Pure,
    DeclareOpInterfaceMethods<Fuse_WindowOpInterface>]> {
  let summary = "Per-tap box sums of a transposed convolution's input";
  let description = [{
    For a transposed convolution of `kernel_size`, `stride`, `padding` and
    `dilation` (one entry per spatial dim) whose output has the spatial
    sizes `output_size` (output_padding included), the sum over its
    output positions is linear in the input: `sum_o conv(x, w)[n, co, o]
    = sum_{ci, k} w[ci, co', k] R[n, ci, k]` with `R[n, ci, k]` the sum of
    `x[n, ci, i]` over the input positions `i` that tap `k` maps into the
    output (`0 <= i_d * stride_d - padding_d + k_d * dilation_d <
    output_size_d` in every spatial dim: per dim an interval, so a box of
    the input). This op computes `R` times `scale`, the taps in reverse
    order: `result[n, c, j] = scale * R[n, c, kernel_size - 1 - j]`, so
    that `conv_transpose(result, w, b)` with stride 1, padding
    `kernel_size - 1`, dilation 1 and no output_padding (output size 1)
    is `b + scale * sum_{o} conv(x, w)[o]`: with `scale = 1 /
    prod(output_size)` the mean of the convolution over its positions,
    bias included (`fuse-reduce-through-conv`). The input is `[N, C,
    *in]`, the result `[N, C, *kernel_size]`; a box sums in the operand's
    element type and visits only its own positions.

    Example (kb2_44: 16x64x128x128 input, 3x3 taps, stride 2, padding 1,
    output 256x256):
    ```mlir
    %r = fuse.conv_transpose_tap_sums %x {kernel_size = array<i64: 3, 3>,
           stride = array<i64: 2, 2>, padding = array<i64: 1, 1>,
           dilation = array<i64: 1, 1>,
           output_size = array<i64: 256, 256>, scale = 1.52587890625e-05}
         : tensor<16x64x128x128xf32> -> tensor<16x64x3x3xf32>
    ```
  }];
  let arguments = (ins Fuse_Tensor:$input, DenseI64ArrayAttr:$kernel_size,
                       DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$dilation,
                       DenseI64ArrayAttr:$output_size,
                       DefaultValuedAttr<F64Attr, "1.0">:$scale);
  let results = (outs Fuse_Tensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The input interval [lo, hi) of result tap index `j` along spatial
    /// dim `dim` (tap `kernel_size - 1 - j`); hi == lo when it is empty.
    std::pair<int64_t, int64_t> getTapInterval(unsigned dim, int64_t j);
    /// The same bounds at run time for the index value `j`; hi may be
    /// below lo where the interval is empty.
    std::pair<::mlir::Value, ::mlir::Value>
    buildTapInterval(::mlir::OpBuilder &b, ::mlir::Location loc,
                     unsigned dim, ::mlir::Value j);
  }];
}

def Fuse_ReshapeOp : Fuse_Op<"reshape", [Pure,
    DeclareOpInterfaceMethods<Fuse_WindowOpInterface, ["isView"]>]> {
  let summary = "Reshape (view, flatten, squeeze, unsqueeze)";
  let description = [{
    The same elements in the same row-major order under another static
    shape with the same element count: PyTorch's `view`/`reshape` of a
    contiguous tensor, `flatten`, `squeeze` and `unsqueeze`.

    Example (softmax over all spatial positions goes through a view):
    ```mlir
    %f = fuse.reshape %x
         : tensor<32x64x32x64x64xf32> -> tensor<32x64x131072xf32>
    ```
  }];
  let arguments = (ins Fuse_Tensor:$input);
  let results = (outs Fuse_Tensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Fuse_ConcatOp : Fuse_Op<"concat", [Pure,
    DeclareOpInterfaceMethods<Fuse_WindowOpInterface, ["buildAtOperands"]>]> {
  let summary = "Concatenation along one dim (torch.cat)";
  let description = [{
    PyTorch's `torch.cat(inputs, dim)`: every other dim equal, the inputs
    laid out along `dim` in argument order. A window op of volume 1 whose
    element reads the one input its coordinate along `dim` falls in: in
    front of a convolution it folds into the input staging (the staging
    reads each input where it lies; the concatenated tensor is never
    stored), elsewhere it is evaluated per element.

    Example (a U-Net skip connection):
    ```mlir
    %y = fuse.concat %up, %skip {dim = 1 : i64}
         : (tensor<2x64x32x32xf32>, tensor<2x32x32x32xf32>)
           -> tensor<2x96x32x32xf32>
    ```
  }];
  let arguments = (ins Variadic<Fuse_Tensor>:$inputs, I64Attr:$dim);
  let results = (outs Fuse_Tensor:$result);
  let assemblyFormat = [{
    $inputs attr-dict `:` functional-type($inputs, results)
  }];
  let hasVerifier = 1;
}

def Fuse_UpsampleOp : Fuse_Op<"upsample", [Pure,
    DeclareOpInterfaceMethods<Fuse_WindowOpInterface>]> {
  let summary = "Nearest or (bi/tri)linear resizing (F.interpolate)";
  let description = [{
    PyTorch's `F.interpolate` on `[N, C, *spatial]` (1 to 3 spatial dims),
    to the result's spatial sizes, `mode="nearest"` (the default) or, with
    `linear`, `"linear"` / `"bilinear"` / `"trilinear"` by rank, with or
    without `align_corners`. `scales` (one per spatial dim, optional) are
    the `scale_factor`s the sizes came from, which PyTorch uses for the
    coordinate scale when given (`recompute_scale_factor` unset). Per
    spatial dim of input size `in` and output size `out`, in f32 as
    PyTorch's CUDA and CPU kernels compute it: the scale `r` is `1 / scale`
    when `scales` is given, else `in / out` (with `align_corners`: `(in -
    1) / (out - 1)`, 0 for `out` = 1). Nearest: output position `o` reads
    `min(floor(o * r), in - 1)`. Linear: the source coordinate is `src = r
    * o` with `align_corners`, else `max(r * (o + 0.5) - 0.5, 0)`; it reads
    `i0 = floor(src)` and `i1 = min(i0 + 1, in - 1)` weighted `1 - l` and
    `l = src - i0`, dims combined outermost first (`h0 * (w0 * a + w1 * b) +
    h1 * (...)`). See docs/design.md ("Upsampling").

    Example (`F.interpolate(x, scale_factor=2, mode="nearest")`):
    ```mlir
    %y = fuse.upsample %x {scales = array<f64: 2.0, 2.0>}
         : tensor<2x64x16x16xf32> -> tensor<2x64x32x32xf32>
    ```
  }];
  let arguments = (ins Fuse_Tensor:$input, UnitAttr:$linear,
                       UnitAttr:$align_corners,
                       OptionalAttr<DenseF64ArrayAttr>:$scales);
  let results = (outs Fuse_Tensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

include "fusecc/Dialect/Fuse/IR/FuseCompositeOps.td"

//===----------------------------------------------------------------------===//
// Element type conversion
//===----------------------------------------------------------------------===//

def Fuse_CastOp : Fuse_Op<"cast", [Pure, Fuse_MixedElementTypes,
    AllShapesMatch<["input", "result"]>,
    DeclareOpInterfaceMethods<Fuse_ElementwiseOpInterface>]> {
  let summary = "Element type conversion between f32, bf16 and f16";
  let description = [{
    Converts every element to the result's element type, as PyTorch's
    `tensor.to(dtype)` and ONNX `Cast` do: to bf16 or f16 by rounding to
    nearest even (f16 overflows to +-inf beyond 65504, rounding included:
    magnitudes from 65520 up), to f32 exactly. The shape is unchanged.
    In a kernel the value stays f32 in registers, rounded to the result's
    precision, and is stored in the result's element type.

    Example (the input of an fp16 graph widened for f32 arithmetic):
    ```mlir
    %y = fuse.cast %x : tensor<2x8x5x5xf16> -> tensor<2x8x5x5xf32>
    ```
  }];
  let arguments = (ins Fuse_Tensor:$input);
  let results = (outs Fuse_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

//===----------------------------------------------------------------------===//
// Fused kernels
//===----------------------------------------------------------------------===//

def Fuse_KernelOp : Fuse_Op<"kernel", [IsolatedFromAbove, SingleBlock,
                                      Fuse_MixedElementTypes]> {
  let summary = "A group of graph ops that becomes one GPU kernel launch";
  let description = [{
    Formed by `fuse-form-kernels`: a transposed convolution and the epilogue
    ops that consume it, computed by one kernel without intermediate tensors
    in device memory. The body's block arguments are the kernel inputs (graph
    values from outside); `fuse.yield` names the one output. `config` is set
    by `fuse-tile-kernels`.

    Example:
    ```mlir
    %r = fuse.kernel "kb2_49_k0" ins(%x, %w, %b : tensor<...>, tensor<...>,
                                     tensor<64xf32>) -> tensor<...> {
    ^bb0(%a: tensor<...>, %bw: tensor<...>, %bb: tensor<64xf32>):
      %c = fuse.conv_transpose %a, %bw, %bb {...} : ...
      %s = fuse.softmax %c {dim = 1 : i64} : tensor<...>
      fuse.yield %s : tensor<...>
    }
    ```
  }];
  let arguments = (ins Variadic<Fuse_Tensor>:$inputs, StrAttr:$kernel_name,
                       OptionalAttr<Fuse_TileConfigAttr>:$config);
  let results = (outs Fuse_Tensor:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $kernel_name `ins` `(` ($inputs^ `:` type($inputs))? `)` attr-dict
    `->` type($result) $body
  }];
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Type":$resultType, "::llvm::StringRef":$name,
                   "::mlir::ValueRange":$inputs)>
  ];
}

def Fuse_YieldOp : Fuse_Op<"yield", [Pure, Terminator, HasParent<"KernelOp">]> {
  let summary = "Names the output of a fused kernel";
  let description = [{
    Terminates a `fuse.kernel` body; its operand is the kernel's result.

    Example: `fuse.yield %s : tensor<16x64x32x64x64xf32>`
  }];
  let arguments = (ins Fuse_Tensor:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

#endif // FUSECC_DIALECT_FUSE_IR_FUSEOPS_TD
