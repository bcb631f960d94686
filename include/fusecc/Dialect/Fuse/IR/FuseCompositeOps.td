//===- FuseCompositeOps.td - composite fuse ops ------------*- tablegen -*-===//
//
// The composite ops of the fuse dialect (conv, batch_norm, instance_norm):
// each is rewritten into other fuse ops by fuse-decompose before kernels
// are formed. Included by FuseOps.td, in its place among the op
// definitions.
//
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Composite ops: rewritten into other fuse ops by fuse-decompose
//===----------------------------------------------------------------------===//

class Fuse_CompositeOp<string mnemonic, list<Trait> traits = []>
    : Fuse_Op<mnemonic, !listconcat(traits, [Pure,
        DeclareOpInterfaceMethods<Fuse_CompositeOpInterface>])>;

def Fuse_ConvOp : Fuse_CompositeOp<"conv"> {
  let summary = "Forward convolution (Conv1d/2d/3d)";
  let description = [{
    PyTorch's (cross-correlation) convolution over 1, 2 or 3 spatial dims.
    The input is `[N, Cin, *in]`, the weight `[Cout, Cin/groups, *k]`, the
    optional bias `[Cout]`. `padding` pads each spatial dim at its begin,
    `padding_end` (default: `padding`) at its end; per spatial dim the
    output size is `floor((in + padding + padding_end - dilation * (k - 1)
    - 1) / stride) + 1`. `groups` must divide both channel counts
    (depthwise: groups = Cin). The padding must satisfy `padding <=
    dilation * (k - 1)` (the transposed form below has non-negative
    padding); `padding_end` may be below it (an end crop).

    `fuse-decompose` makes it the same gather as a stride-1 transposed
    convolution: `fuse.conv_transpose {forward_weight}` with stride 1,
    padding `dilation * (k - 1) - padding`, output_padding `padding_end -
    padding`, reading this op's weight with its taps reversed, so every
    tiling, main loop and epilogue of a transposed convolution serves it.
    A stride above 1 is that stride-1 convolution followed by a
    `fuse.max_pool` of kernel 1 and the stride (a subsampling), which joins
    the convolution's epilogue where a pooled epilogue fits: correct, but it
    computes every stride-1 position.

    Example (Conv2d(16, 32, 3, padding=1)):
    ```mlir
    %y = fuse.conv %x, %w, %b {stride = array<i64: 1, 1>,
           padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>,
           groups = 1 : i64}
         : (tensor<2x16x8x8xf32>, tensor<32x16x3x3xf32>, tensor<32xf32>)
           -> tensor<2x32x8x8xf32>
    ```
  }];
  let arguments = (ins Fuse_Tensor:$input, Fuse_Tensor:$weight,
                       Optional<Fuse_Tensor>:$bias,
                       DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$padding_end,
                       DenseI64ArrayAttr:$dilation,
                       DefaultValuedAttr<I64Attr, "1">:$groups);
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
    /// The end padding of spatial dim `i` (`padding_end`, else `padding`).
    int64_t getPaddingEndAt(int64_t i) {
      if (auto e = getPaddingEnd())
        return (*e)[i];
      return getPadding()[i];
    }
  }];
}

def Fuse_BatchNormOp : Fuse_CompositeOp<"batch_norm",
    [AttrSizedOperandSegments, Fuse_F32Parameters]> {
  let summary = "Batch normalisation (PyTorch F.batch_norm)";
  let description = [{
    Normalises `[N, C, *spatial]` (1 to 3 spatial dims) per channel:
    `(x - mean[c]) / sqrt(var[c] + epsilon) * weight[c] + bias[c]`.
    `running_mean` and `running_var` are `[C]`; `weight` and `bias` are
    optional `[C]` tensors.

    Inference (`training = false`, the default): `mean` and `var` are the
    running statistics. Training (`training = true`): they are the
    statistics of the batch over dims (0, 2, ...), the variance biased;
    the running statistics are not read unless the op has the two optional
    extra results, the updated running statistics as PyTorch computes them
    in place: `(1 - momentum) * running_mean + momentum * mean` and
    `(1 - momentum) * running_var + momentum * var * n / (n - 1)` (the
    unbiased batch variance, `n = N * prod(spatial)`, which must exceed 1).

    Example (BatchNorm2d(5).train(), running statistics updated):
    ```mlir
    %y, %rm1, %rv1 = fuse.batch_norm %x, %rm, %rv weight(%g) bias(%b)
           {training = true, epsilon = 1.0e-05 : f64, momentum = 0.1 : f64}
         : (tensor<3x5x7x7xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>,
            tensor<5xf32>) -> (tensor<3x5x7x7xf32>, tensor<5xf32>,
                               tensor<5xf32>)
    ```
  }];
  let arguments = (ins Fuse_Tensor:$input, Fuse_Tensor:$running_mean,
                       Fuse_Tensor:$running_var,
                       Optional<Fuse_Tensor>:$weight,
                       Optional<Fuse_Tensor>:$bias,
                       DefaultValuedAttr<BoolAttr, "false">:$training,
                       DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon,
                       DefaultValuedAttr<F64Attr, "0.1">:$momentum);
  let results = (outs Fuse_Tensor:$result,
                      Variadic<Fuse_Tensor>:$new_running_stats);
  let assemblyFormat = [{
    $input `,` $running_mean `,` $running_var (`weight` `(` $weight^ `)`)?
           (`bias` `(` $bias^ `)`)? attr-dict `:`
           functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Fuse_InstanceNormOp : Fuse_CompositeOp<"instance_norm",
    [AllTypesMatch<["input", "result"]>, AttrSizedOperandSegments,
     Fuse_F32Parameters]> {
  let summary = "Instance normalisation (PyTorch F.instance_norm)";
  let description = [{
    Normalises each (sample, channel) of `[N, C, *spatial]` (1 to 3 spatial
    dims, more than one spatial element) over its spatial positions with
    the statistics of the input (`use_input_stats`):
    `(x - mean) / sqrt(var + epsilon) * weight[c] + bias[c]`, the variance
    biased; `weight` and `bias` are optional `[C]` tensors. It is
    `fuse.group_norm` with `num_groups = C`, which `fuse-decompose` makes
    of it.

    Example (InstanceNorm3d(5, affine=True)):
    ```mlir
    %y = fuse.instance_norm %x weight(%g : tensor<5xf32>)
           bias(%b : tensor<5xf32>) {epsilon = 1.0e-05 : f64}
         : tensor<3x5x7x5x1xf32>
    ```
  }];
  let arguments = (ins Fuse_Tensor:$input, Optional<Fuse_Tensor>:$weight,
                       Optional<Fuse_Tensor>:$bias,
                       DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon);
  let results = (outs Fuse_Tensor:$result);
  let assemblyFormat = [{
    $input (`weight` `(` $weight^ `:` type($weight) `)`)?
           (`bias` `(` $bias^ `:` type($bias) `)`)? attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}
