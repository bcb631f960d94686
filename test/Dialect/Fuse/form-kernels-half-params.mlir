// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-widen-half,fuse-form-kernels))' | FileCheck %s

// Parameter values of a half graph (collectParameterChain): the vectors of
// a bf16 / f16 batch norm are read through fuse-widen-half's casts, and a
// chain from such a widening is copied into the convolution kernel after
// its convolution like an f32 chain: the kernel reads the half vectors
// itself and evaluates the scale and shift per element, so no one-block
// kernel per vector remains (unet_decoder bf16: 16 of them).

// CHECK-LABEL: func.func @bf16_batch_norm
// CHECK-SAME: (%[[X:[^:]*]]: {{.*}}, %[[W:[^:]*]]: {{.*}}, %[[M:[^:]*]]: tensor<8xbf16>, %[[V:[^:]*]]: tensor<8xbf16>, %[[G:[^:]*]]: tensor<8xbf16>, %[[B:[^:]*]]: tensor<8xbf16>)
// CHECK-NEXT: %[[K:.*]] = fuse.kernel "bf16_batch_norm_k0" ins(%[[X]], %[[W]], %[[M]], %[[V]], %[[G]], %[[B]] :
// CHECK-NEXT: ^bb0(%{{.*}}, %{{.*}}, %[[KM:[^:]*]]: tensor<8xbf16>, %[[KV:[^:]*]]: tensor<8xbf16>, %[[KG:[^:]*]]: tensor<8xbf16>, %[[KB:[^:]*]]: tensor<8xbf16>):
// CHECK-NEXT:   fuse.cast
// CHECK-NEXT:   fuse.cast
// CHECK-NEXT:   %[[C:.*]] = fuse.conv_transpose
// CHECK-NEXT:   %[[MF:.*]] = fuse.cast %[[KM]] : tensor<8xbf16> -> tensor<8xf32>
// CHECK-NEXT:   %[[MV:.*]] = fuse.reshape %[[MF]] : tensor<8xf32> -> tensor<8x1xf32>
// CHECK-NEXT:   %[[VF:.*]] = fuse.cast %[[KV]] : tensor<8xbf16> -> tensor<8xf32>
// CHECK-NEXT:   %[[EPS:.*]] = arith.constant
// CHECK-NEXT:   %[[A:.*]] = fuse.add %[[VF]], %[[EPS]]
// CHECK-NEXT:   %[[I:.*]] = fuse.rsqrt %[[A]]
// CHECK-NEXT:   %[[GF:.*]] = fuse.cast %[[KG]] : tensor<8xbf16> -> tensor<8xf32>
// CHECK-NEXT:   %[[S:.*]] = fuse.mul %[[I]], %[[GF]]
// CHECK-NEXT:   %[[SV:.*]] = fuse.reshape %[[S]] : tensor<8xf32> -> tensor<8x1xf32>
// CHECK-NEXT:   %[[BF:.*]] = fuse.cast %[[KB]] : tensor<8xbf16> -> tensor<8xf32>
// CHECK-NEXT:   %[[BV:.*]] = fuse.reshape %[[BF]] : tensor<8xf32> -> tensor<8x1xf32>
// CHECK-NEXT:   %[[D:.*]] = fuse.sub %[[C]], %[[MV]]
// CHECK-NEXT:   %[[Y:.*]] = fuse.mul %[[D]], %[[SV]]
// CHECK-NEXT:   %[[Z:.*]] = fuse.add %[[Y]], %[[BV]]
// CHECK-NEXT:   %[[R:.*]] = fuse.relu %[[Z]]
// CHECK-NEXT:   %[[H:.*]] = fuse.cast %[[R]] : tensor<2x8x7xf32> -> tensor<2x8x7xbf16>
// CHECK-NEXT:   fuse.yield %[[H]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[K]]
func.func @bf16_batch_norm(%x: tensor<2x4x5xbf16>, %w: tensor<4x8x3xbf16>,
                           %m: tensor<8xbf16>, %v: tensor<8xbf16>,
                           %g: tensor<8xbf16>, %b: tensor<8xbf16>) -> tensor<2x8x7xbf16> {
  %eps = arith.constant dense<1.000000e-05> : tensor<bf16>
  %a = fuse.add %v, %eps : tensor<8xbf16>, tensor<bf16> -> tensor<8xbf16>
  %i = fuse.rsqrt %a : tensor<8xbf16>
  %s = fuse.mul %i, %g : tensor<8xbf16>, tensor<8xbf16> -> tensor<8xbf16>
  %sv = fuse.reshape %s : tensor<8xbf16> -> tensor<8x1xbf16>
  %mv = fuse.reshape %m : tensor<8xbf16> -> tensor<8x1xbf16>
  %bv = fuse.reshape %b : tensor<8xbf16> -> tensor<8x1xbf16>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<2x4x5xbf16>, tensor<4x8x3xbf16>) -> tensor<2x8x7xbf16>
  %d = fuse.sub %0, %mv : tensor<2x8x7xbf16>, tensor<8x1xbf16> -> tensor<2x8x7xbf16>
  %y = fuse.mul %d, %sv : tensor<2x8x7xbf16>, tensor<8x1xbf16> -> tensor<2x8x7xbf16>
  %z = fuse.add %y, %bv : tensor<2x8x7xbf16>, tensor<8x1xbf16> -> tensor<2x8x7xbf16>
  %r = fuse.relu %z : tensor<2x8x7xbf16>
  return %r : tensor<2x8x7xbf16>
}

// -----

// A half constant vector: its widening is copied in too.

// CHECK-LABEL: func.func @f16_constant
// CHECK: %[[CST:.*]] = arith.constant dense<{{.*}}> : tensor<8xf16>
// CHECK-NEXT: fuse.kernel "f16_constant_k0" ins(%{{.*}}, %{{.*}}, %[[CST]] : {{.*}}, tensor<8xf16>)
// CHECK: fuse.conv_transpose
// CHECK-NEXT: %[[F:.*]] = fuse.cast %{{.*}} : tensor<8xf16> -> tensor<8xf32>
// CHECK-NEXT: %[[SV:.*]] = fuse.reshape %[[F]]
// CHECK-NEXT: fuse.mul %{{.*}}, %[[SV]]
// CHECK-NOT: fuse.kernel
func.func @f16_constant(%x: tensor<2x4x5xf16>, %w: tensor<4x8x3xf16>) -> tensor<2x8x7xf16> {
  %s = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf16>
  %sv = fuse.reshape %s : tensor<8xf16> -> tensor<8x1xf16>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<2x4x5xf16>, tensor<4x8x3xf16>) -> tensor<2x8x7xf16>
  %d = fuse.mul %0, %sv : tensor<2x8x7xf16>, tensor<8x1xf16> -> tensor<2x8x7xf16>
  return %d : tensor<2x8x7xf16>
}

// -----

// A half vector an epilogue op reads directly (an epilogue operand cast,
// copied in front of the convolution) and through a chain: the chain's
// ops read that one cast, nothing is copied twice.

// CHECK-LABEL: func.func @shared_widening
// CHECK: fuse.kernel "shared_widening_k0"
// CHECK: %[[CF:.*]] = fuse.cast %{{.*}} : tensor<8xbf16> -> tensor<8xf32>
// CHECK-NEXT: %[[C:.*]] = fuse.conv_transpose
// CHECK-NEXT: %[[V:.*]] = fuse.reshape %[[CF]] : tensor<8xf32> -> tensor<8x1xf32>
// CHECK-NEXT: %[[A:.*]] = fuse.add %[[C]], %[[CF]]
// CHECK-NEXT: fuse.mul %[[A]], %[[V]]
// CHECK-NOT: fuse.cast {{.*}} : tensor<8xbf16> -> tensor<8xf32>
// CHECK-NOT: fuse.kernel
func.func @shared_widening(%x: tensor<2x4x6xbf16>, %w: tensor<4x8x3xbf16>,
                           %c: tensor<8xbf16>) -> tensor<2x8x8xbf16> {
  %cv = fuse.reshape %c : tensor<8xbf16> -> tensor<8x1xbf16>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<2x4x6xbf16>, tensor<4x8x3xbf16>) -> tensor<2x8x8xbf16>
  %a = fuse.add %0, %c : tensor<2x8x8xbf16>, tensor<8xbf16> -> tensor<2x8x8xbf16>
  %m = fuse.mul %a, %cv : tensor<2x8x8xbf16>, tensor<8x1xbf16> -> tensor<2x8x8xbf16>
  return %m : tensor<2x8x8xbf16>
}

// -----

// Not parameter chains: a layer_norm reads its weight and bias as f32
// buffers, so a half layer_norm's vectors keep their widening kernels; an
// f32 vector rounded to bf16 in the graph is computed by a kernel of its
// own (the rounding is not a stored half value's widening).

// CHECK-LABEL: func.func @layer_norm_vectors
// CHECK: fuse.kernel "layer_norm_vectors_k{{[12]}}" ins(%{{.*}} : tensor<7xbf16>) -> tensor<7xf32>
// CHECK: fuse.kernel "layer_norm_vectors_k{{[12]}}" ins(%{{.*}} : tensor<7xbf16>) -> tensor<7xf32>
// CHECK: fuse.kernel "layer_norm_vectors_k0"
// CHECK: fuse.layer_norm
func.func @layer_norm_vectors(%x: tensor<2x4x5xbf16>, %w: tensor<4x8x3xbf16>,
                              %g: tensor<7xbf16>, %b: tensor<7xbf16>) -> tensor<2x8x7xbf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<2x4x5xbf16>, tensor<4x8x3xbf16>) -> tensor<2x8x7xbf16>
  %1 = fuse.layer_norm %0 weight(%g : tensor<7xbf16>) bias(%b : tensor<7xbf16>)
         {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<2x8x7xbf16>
  return %1 : tensor<2x8x7xbf16>
}

// -----

// CHECK-LABEL: func.func @rounded_parameter
// CHECK: fuse.kernel "rounded_parameter_k1" ins(%{{.*}} : tensor<8xf32>) -> tensor<8x1xf32>
// CHECK: fuse.kernel "rounded_parameter_k0"
func.func @rounded_parameter(%x: tensor<2x4x5xf32>, %w: tensor<4x8x3xf32>,
                             %m: tensor<8xf32>) -> tensor<2x8x7xf32> {
  %r = fuse.cast %m : tensor<8xf32> -> tensor<8xbf16>
  %e = fuse.cast %r : tensor<8xbf16> -> tensor<8xf32>
  %mv = fuse.reshape %e : tensor<8xf32> -> tensor<8x1xf32>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<2x4x5xf32>, tensor<4x8x3xf32>) -> tensor<2x8x7xf32>
  %d = fuse.sub %0, %mv : tensor<2x8x7xf32>, tensor<8x1xf32> -> tensor<2x8x7xf32>
  return %d : tensor<2x8x7xf32>
}
