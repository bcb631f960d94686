// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels))' | FileCheck %s

// kb2_49: conv -> channel softmax -> sigmoid: one kernel holding all three.

// CHECK-LABEL: func.func @kb2_49
// CHECK-SAME: (%[[X:.*]]: tensor<16x32x16x32x32xf32> {fuse.name = "x"}, %[[W:.*]]: tensor<32x64x3x3x3xf32> {fuse.name = "weight"}, %[[B:.*]]: tensor<64xf32> {fuse.name = "bias"})
// CHECK-NEXT: %[[K:.*]] = fuse.kernel "kb2_49_k0" ins(%[[X]], %[[W]], %[[B]] : tensor<16x32x16x32x32xf32>, tensor<32x64x3x3x3xf32>, tensor<64xf32>) -> tensor<16x64x32x64x64xf32> {
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<16x32x16x32x32xf32>, %[[A1:.*]]: tensor<32x64x3x3x3xf32>, %[[A2:.*]]: tensor<64xf32>):
// CHECK-NEXT:   %[[C:.*]] = fuse.conv_transpose %[[A0]], %[[A1]], %[[A2]] {dilation = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, padding = array<i64: 1, 1, 1>, stride = array<i64: 2, 2, 2>}
// CHECK-NEXT:   %[[S:.*]] = fuse.softmax %[[C]] {dim = 1 : i64}
// CHECK-NEXT:   %[[G:.*]] = fuse.sigmoid %[[S]]
// CHECK-NEXT:   fuse.yield %[[G]] : tensor<16x64x32x64x64xf32>
// CHECK-NEXT: }
// CHECK-NOT: config
// CHECK-NEXT: return %[[K]] : tensor<16x64x32x64x64xf32>
func.func @kb2_49(%x: tensor<16x32x16x32x32xf32> {fuse.name = "x"},
                  %w: tensor<32x64x3x3x3xf32> {fuse.name = "weight"},
                  %b: tensor<64xf32> {fuse.name = "bias"})
    -> tensor<16x64x32x64x64xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>,
         padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>,
         dilation = array<i64: 1, 1, 1>}
       : (tensor<16x32x16x32x32xf32>, tensor<32x64x3x3x3xf32>, tensor<64xf32>)
       -> tensor<16x64x32x64x64xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<16x64x32x64x64xf32>
  %2 = fuse.sigmoid %1 : tensor<16x64x32x64x64xf32>
  return %2 : tensor<16x64x32x64x64xf32>
}

// -----

// kb1_77: a plain convolution (no bias, no epilogue) is a kernel on its own.

// CHECK-LABEL: func.func @kb1_77
// CHECK-SAME: (%[[X:.*]]: tensor<16x32x16x32x32xf32> {fuse.name = "x"}, %[[W:.*]]: tensor<32x64x3x3x3xf32> {fuse.name = "weight"})
// CHECK-NEXT: %[[K:.*]] = fuse.kernel "kb1_77_k0" ins(%[[X]], %[[W]] : tensor<16x32x16x32x32xf32>, tensor<32x64x3x3x3xf32>) -> tensor<16x64x33x65x65xf32> {
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<16x32x16x32x32xf32>, %[[A1:.*]]: tensor<32x64x3x3x3xf32>):
// CHECK-NEXT:   %[[C:.*]] = fuse.conv_transpose %[[A0]], %[[A1]] {dilation = array<i64: 2, 2, 2>, output_padding = array<i64: 0, 0, 0>, padding = array<i64: 1, 1, 1>, stride = array<i64: 2, 2, 2>}
// CHECK-NEXT:   fuse.yield %[[C]] : tensor<16x64x33x65x65xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[K]]
func.func @kb1_77(%x: tensor<16x32x16x32x32xf32> {fuse.name = "x"},
                  %w: tensor<32x64x3x3x3xf32> {fuse.name = "weight"})
    -> tensor<16x64x33x65x65xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>,
         padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>,
         dilation = array<i64: 2, 2, 2>}
       : (tensor<16x32x16x32x32xf32>, tensor<32x64x3x3x3xf32>)
       -> tensor<16x64x33x65x65xf32>
  return %0 : tensor<16x64x33x65x65xf32>
}

// -----

// kb2_34: conv -> layer_norm (weight, bias become kernel inputs) -> gelu ->
// mul by a scalar constant, which is cloned into the kernel (not an input).

// CHECK-LABEL: func.func @kb2_34
// CHECK-SAME: (%[[X:[^:]*]]: tensor<32x32x16x32x32xf32> {{.*}}, %[[W:[^:]*]]: tensor<32x64x4x4x4xf32> {{.*}}, %[[B:[^:]*]]: tensor<64xf32> {{.*}}, %[[G:[^:]*]]: tensor<64xf32> {{.*}}, %[[BETA:[^:]*]]: tensor<64xf32> {{.*}})
// The original constant, dead once cloned, is erased.
// CHECK-NEXT: %[[K:.*]] = fuse.kernel "kb2_34_k0" ins(%[[X]], %[[W]], %[[B]], %[[G]], %[[BETA]] : tensor<32x32x16x32x32xf32>, tensor<32x64x4x4x4xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<32x64x32x64x64xf32> {
// CHECK-NEXT: ^bb0(%[[A0:[^:]*]]: {{.*}}, %[[A1:[^:]*]]: {{.*}}, %[[A2:[^:]*]]: {{.*}}, %[[A3:[^:]*]]: {{.*}}, %[[A4:[^:]*]]: {{.*}}):
// CHECK-NEXT:   %[[C:.*]] = fuse.conv_transpose %[[A0]], %[[A1]], %[[A2]]
// CHECK-NEXT:   %[[LN:.*]] = fuse.layer_norm %[[C]] weight(%[[A3]] : tensor<64xf32>) bias(%[[A4]] : tensor<64xf32>) : tensor<32x64x32x64x64xf32>
// CHECK-NEXT:   %[[GE:.*]] = fuse.gelu %[[LN]] : tensor<32x64x32x64x64xf32>
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:   %[[M:.*]] = fuse.mul %[[GE]], %[[ONE]] : tensor<32x64x32x64x64xf32>, tensor<f32> -> tensor<32x64x32x64x64xf32>
// CHECK-NEXT:   fuse.yield %[[M]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[K]]
func.func @kb2_34(%x: tensor<32x32x16x32x32xf32> {fuse.name = "x"},
                  %w: tensor<32x64x4x4x4xf32> {fuse.name = "weight"},
                  %b: tensor<64xf32> {fuse.name = "bias"},
                  %g: tensor<64xf32> {fuse.name = "ln_weight"},
                  %beta: tensor<64xf32> {fuse.name = "ln_bias"})
    -> tensor<32x64x32x64x64xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>,
         padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>,
         dilation = array<i64: 1, 1, 1>}
       : (tensor<32x32x16x32x32xf32>, tensor<32x64x4x4x4xf32>, tensor<64xf32>)
       -> tensor<32x64x32x64x64xf32>
  %1 = fuse.layer_norm %0 weight(%g : tensor<64xf32>)
         bias(%beta : tensor<64xf32>)
         {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64}
       : tensor<32x64x32x64x64xf32>
  %2 = fuse.gelu %1 : tensor<32x64x32x64x64xf32>
  %c1 = arith.constant dense<1.0> : tensor<f32>
  %3 = fuse.mul %2, %c1 : tensor<32x64x32x64x64xf32>, tensor<f32>
       -> tensor<32x64x32x64x64xf32>
  return %3 : tensor<32x64x32x64x64xf32>
}

// -----

// kb2_20: the residual chain reads the convolution value y four times; all
// of it is one kernel, the bias tensor an input.

// CHECK-LABEL: func.func @kb2_20
// CHECK-SAME: (%[[X:[^:]*]]: {{.*}}, %[[W:[^:]*]]: {{.*}}, %[[CB:[^:]*]]: {{.*}}, %[[B:[^:]*]]: tensor<64x1x1x1xf32> {fuse.name = "bias"})
// CHECK-NEXT: %[[K:.*]] = fuse.kernel "kb2_20_k0" ins(%[[X]], %[[W]], %[[CB]], %[[B]] : tensor<16x32x16x32x32xf32>, tensor<32x64x3x3x3xf32>, tensor<64xf32>, tensor<64x1x1x1xf32>)
// CHECK-NEXT: ^bb0(%[[A0:[^:]*]]: {{.*}}, %[[A1:[^:]*]]: {{.*}}, %[[A2:[^:]*]]: {{.*}}, %[[A3:[^:]*]]: tensor<64x1x1x1xf32>):
// CHECK-NEXT:   %[[Y:.*]] = fuse.conv_transpose %[[A0]], %[[A1]], %[[A2]]
// CHECK-NEXT:   %[[V0:.*]] = fuse.add %[[Y]], %[[A3]] : tensor<16x64x32x64x64xf32>, tensor<64x1x1x1xf32>
// CHECK-NEXT:   %[[V1:.*]] = fuse.add %[[V0]], %[[Y]]
// CHECK-NEXT:   %[[V2:.*]] = fuse.mul %[[V1]], %[[Y]]
// CHECK-NEXT:   %[[V3:.*]] = fuse.add %[[V2]], %[[Y]]
// CHECK-NEXT:   fuse.yield %[[V3]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[K]]
func.func @kb2_20(%x: tensor<16x32x16x32x32xf32> {fuse.name = "x"},
                  %w: tensor<32x64x3x3x3xf32> {fuse.name = "weight"},
                  %cb: tensor<64xf32> {fuse.name = "conv_bias"},
                  %b: tensor<64x1x1x1xf32> {fuse.name = "bias"})
    -> tensor<16x64x32x64x64xf32> {
  %y = fuse.conv_transpose %x, %w, %cb {stride = array<i64: 2, 2, 2>,
         padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>,
         dilation = array<i64: 1, 1, 1>}
       : (tensor<16x32x16x32x32xf32>, tensor<32x64x3x3x3xf32>, tensor<64xf32>)
       -> tensor<16x64x32x64x64xf32>
  %0 = fuse.add %y, %b : tensor<16x64x32x64x64xf32>, tensor<64x1x1x1xf32>
       -> tensor<16x64x32x64x64xf32>
  %1 = fuse.add %0, %y : tensor<16x64x32x64x64xf32>, tensor<16x64x32x64x64xf32>
       -> tensor<16x64x32x64x64xf32>
  %2 = fuse.mul %1, %y : tensor<16x64x32x64x64xf32>, tensor<16x64x32x64x64xf32>
       -> tensor<16x64x32x64x64xf32>
  %3 = fuse.add %2, %y : tensor<16x64x32x64x64xf32>, tensor<16x64x32x64x64xf32>
       -> tensor<16x64x32x64x64xf32>
  return %3 : tensor<16x64x32x64x64xf32>
}

// -----

// kb2_91: 2-D conv -> channel softmax -> + bias -> * 2 -> sigmoid.

// CHECK-LABEL: func.func @kb2_91
// CHECK-SAME: (%[[X:[^:]*]]: {{.*}}, %[[W:[^:]*]]: {{.*}}, %[[CB:[^:]*]]: {{.*}}, %[[B:[^:]*]]: {{.*}})
// CHECK-NEXT: %[[K:.*]] = fuse.kernel "kb2_91_k0" ins(%[[X]], %[[W]], %[[CB]], %[[B]] : tensor<128x64x64x64xf32>, tensor<64x128x4x4xf32>, tensor<128xf32>, tensor<128x1x1xf32>) -> tensor<128x128x129x129xf32> {
// CHECK-NEXT: ^bb0(%[[A0:[^:]*]]: {{.*}}, %[[A1:[^:]*]]: {{.*}}, %[[A2:[^:]*]]: {{.*}}, %[[A3:[^:]*]]: {{.*}}):
// CHECK-NEXT:   %[[C:.*]] = fuse.conv_transpose %[[A0]], %[[A1]], %[[A2]] {dilation = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>}
// CHECK-NEXT:   %[[S:.*]] = fuse.softmax %[[C]] {dim = 1 : i64}
// CHECK-NEXT:   %[[AD:.*]] = fuse.add %[[S]], %[[A3]]
// CHECK-NEXT:   %[[TWO:.*]] = arith.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:   %[[M:.*]] = fuse.mul %[[AD]], %[[TWO]]
// CHECK-NEXT:   %[[SG:.*]] = fuse.sigmoid %[[M]]
// CHECK-NEXT:   fuse.yield %[[SG]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[K]]
func.func @kb2_91(%x: tensor<128x64x64x64xf32> {fuse.name = "x"},
                  %w: tensor<64x128x4x4xf32> {fuse.name = "weight"},
                  %cb: tensor<128xf32> {fuse.name = "conv_bias"},
                  %b: tensor<128x1x1xf32> {fuse.name = "bias"})
    -> tensor<128x128x129x129xf32> {
  %0 = fuse.conv_transpose %x, %w, %cb {stride = array<i64: 2, 2>,
         padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>,
         dilation = array<i64: 1, 1>}
       : (tensor<128x64x64x64xf32>, tensor<64x128x4x4xf32>, tensor<128xf32>)
       -> tensor<128x128x129x129xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<128x128x129x129xf32>
  %2 = fuse.add %1, %b : tensor<128x128x129x129xf32>, tensor<128x1x1xf32>
       -> tensor<128x128x129x129xf32>
  %c2 = arith.constant dense<2.0> : tensor<f32>
  %3 = fuse.mul %2, %c2 : tensor<128x128x129x129xf32>, tensor<f32>
       -> tensor<128x128x129x129xf32>
  %4 = fuse.sigmoid %3 : tensor<128x128x129x129xf32>
  return %4 : tensor<128x128x129x129xf32>
}

// -----

// The convolution result is used by two ops that both escape: a kernel has
// one output, so it shrinks to the bare convolution and each user becomes an
// elementwise kernel of its own reading the convolution's result.

// CHECK-LABEL: func.func @two_escaping_users
// CHECK-NEXT: %[[K:.*]] = fuse.kernel "two_escaping_users_k0" ins(%{{.*}}, %{{.*}} : tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   %[[C:.*]] = fuse.conv_transpose
// CHECK-NEXT:   fuse.yield %[[C]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[R:.*]] = fuse.kernel "two_escaping_users_k1" ins(%[[K]] : tensor<1x8x7xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   fuse.relu
// CHECK-NEXT:   fuse.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[T:.*]] = fuse.kernel "two_escaping_users_k2" ins(%[[K]] : tensor<1x8x7xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   fuse.tanh
// CHECK-NEXT:   fuse.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]], %[[T]]
func.func @two_escaping_users(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>)
    -> (tensor<1x8x7xf32>, tensor<1x8x7xf32>) {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %1 = fuse.relu %0 : tensor<1x8x7xf32>
  %2 = fuse.tanh %0 : tensor<1x8x7xf32>
  return %1, %2 : tensor<1x8x7xf32>, tensor<1x8x7xf32>
}

// -----

// The epilogue's intermediate value is also returned: the kernel stops at
// the last op that keeps a single escaping value; the exp after it is an
// elementwise kernel reading the returned value.

// CHECK-LABEL: func.func @escaping_intermediate
// CHECK-NEXT: %[[K:.*]] = fuse.kernel "escaping_intermediate_k0"
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   %[[C:.*]] = fuse.conv_transpose
// CHECK-NEXT:   %[[R:.*]] = fuse.relu %[[C]]
// CHECK-NEXT:   fuse.yield %[[R]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[E:.*]] = fuse.kernel "escaping_intermediate_k1" ins(%[[K]] : tensor<1x8x7xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   fuse.exp
// CHECK-NEXT:   fuse.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[K]], %[[E]]
func.func @escaping_intermediate(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>)
    -> (tensor<1x8x7xf32>, tensor<1x8x7xf32>) {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %1 = fuse.relu %0 : tensor<1x8x7xf32>
  %2 = fuse.exp %1 : tensor<1x8x7xf32>
  return %1, %2 : tensor<1x8x7xf32>, tensor<1x8x7xf32>
}

// -----

// An epilogue op that also reads a value computed after the convolution
// outside the group is not fused (it could close a cycle through the
// outside op); the ops before it still are. The softmax and the add form a
// normalisation kernel of their own. (A value computed from graph inputs
// by elementwise ops and views alone is a parameter value, which the
// kernel copies in wherever it stands: @parameter_chain below.)

// CHECK-LABEL: func.func @late_operand
// CHECK-SAME: (%[[X:[^:]*]]: {{.*}}, %[[W:[^:]*]]: {{.*}}, %[[Z:[^:]*]]: tensor<1x8x7xf32>)
// CHECK-NEXT: %[[K:.*]] = fuse.kernel "late_operand_k0" ins(%[[X]], %[[W]] : tensor<1x4x5xf32>, tensor<4x8x3xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   %[[C:.*]] = fuse.conv_transpose
// CHECK-NEXT:   %[[R:.*]] = fuse.relu %[[C]]
// CHECK-NEXT:   fuse.yield %[[R]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[A:.*]] = fuse.kernel "late_operand_k1" ins(%[[Z]], %[[K]] : tensor<1x8x7xf32>, tensor<1x8x7xf32>)
// CHECK-NEXT: ^bb0(%[[AZ:[^:]*]]: tensor<1x8x7xf32>, %[[AK:[^:]*]]: tensor<1x8x7xf32>):
// CHECK-NEXT:   %[[E:.*]] = fuse.softmax %[[AZ]]
// CHECK-NEXT:   fuse.add %[[AK]], %[[E]]
// CHECK-NEXT:   fuse.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[A]]
func.func @late_operand(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>,
                        %z: tensor<1x8x7xf32>) -> tensor<1x8x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %1 = fuse.relu %0 : tensor<1x8x7xf32>
  %t = fuse.softmax %z {dim = 1 : i64} : tensor<1x8x7xf32>
  %2 = fuse.add %1, %t : tensor<1x8x7xf32>, tensor<1x8x7xf32> -> tensor<1x8x7xf32>
  return %2 : tensor<1x8x7xf32>
}

// -----

// The same op reading a value computed *before* the convolution is fused,
// with that value (a normalisation kernel's result) as a kernel input.

// CHECK-LABEL: func.func @early_operand
// CHECK-SAME: (%[[X:[^:]*]]: {{.*}}, %[[W:[^:]*]]: {{.*}}, %[[Z:[^:]*]]: tensor<1x8x7xf32>)
// CHECK-NEXT: %[[E:.*]] = fuse.kernel "early_operand_k1" ins(%[[Z]] : tensor<1x8x7xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   fuse.softmax
// CHECK-NEXT:   fuse.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[K:.*]] = fuse.kernel "early_operand_k0" ins(%[[X]], %[[W]], %[[E]] : tensor<1x4x5xf32>, tensor<4x8x3xf32>, tensor<1x8x7xf32>)
// CHECK-NEXT: ^bb0(%{{.*}}, %{{.*}}, %[[AE:[^:]*]]: tensor<1x8x7xf32>):
// CHECK-NEXT:   %[[C:.*]] = fuse.conv_transpose
// CHECK-NEXT:   %[[R:.*]] = fuse.relu %[[C]]
// CHECK-NEXT:   %[[A:.*]] = fuse.add %[[R]], %[[AE]]
// CHECK-NEXT:   fuse.yield %[[A]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[K]]
func.func @early_operand(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>,
                         %z: tensor<1x8x7xf32>) -> tensor<1x8x7xf32> {
  %t = fuse.softmax %z {dim = 1 : i64} : tensor<1x8x7xf32>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %1 = fuse.relu %0 : tensor<1x8x7xf32>
  %2 = fuse.add %1, %t : tensor<1x8x7xf32>, tensor<1x8x7xf32> -> tensor<1x8x7xf32>
  return %2 : tensor<1x8x7xf32>
}

// -----

// A non-splat constant is a kernel input, not cloned; one defined after the
// convolution blocks fusion of its user like any late value.

// CHECK-LABEL: func.func @dense_constant
// CHECK-NEXT: %[[CST:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00]> : tensor<7xf32>
// CHECK-NEXT: %[[K:.*]] = fuse.kernel "dense_constant_k0" ins(%{{.*}}, %{{.*}}, %[[CST]] : tensor<1x4x5xf32>, tensor<4x8x3xf32>, tensor<7xf32>)
// CHECK:        fuse.mul
// CHECK:        fuse.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[LATE:.*]] = arith.constant dense<{{.*}}> : tensor<8x1xf32>
// CHECK-NEXT: %[[A:.*]] = fuse.kernel "dense_constant_k1" ins(%[[K]], %[[LATE]] : tensor<1x8x7xf32>, tensor<8x1xf32>)
// CHECK:        fuse.add
// CHECK:      return %[[A]]
func.func @dense_constant(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<7xf32>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %1 = fuse.mul %0, %c : tensor<1x8x7xf32>, tensor<7xf32> -> tensor<1x8x7xf32>
  %late = arith.constant dense<[[1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [7.0], [8.0]]> : tensor<8x1xf32>
  %2 = fuse.add %1, %late : tensor<1x8x7xf32>, tensor<8x1xf32> -> tensor<1x8x7xf32>
  return %2 : tensor<1x8x7xf32>
}

// -----

// Only rank-0 constants are cloned into kernels: a splat constant of rank 3
// (even all-ones shaped) is a kernel input like any other tensor.

// CHECK-LABEL: func.func @splat_rank3_constant
// CHECK-NEXT: %[[S:.*]] = arith.constant dense<2.000000e+00> : tensor<1x1x1xf32>
// CHECK-NEXT: %[[K:.*]] = fuse.kernel "splat_rank3_constant_k0" ins(%{{.*}}, %{{.*}}, %[[S]] : tensor<1x4x5xf32>, tensor<4x8x3xf32>, tensor<1x1x1xf32>)
// CHECK-NEXT: ^bb0(%{{.*}}, %{{.*}}, %[[IN:[^:]*]]: tensor<1x1x1xf32>):
// CHECK-NOT:    arith.constant
// CHECK:        fuse.mul %{{.*}}, %[[IN]]
// CHECK:        fuse.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[K]]
func.func @splat_rank3_constant(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
  %c = arith.constant dense<2.0> : tensor<1x1x1xf32>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %1 = fuse.mul %0, %c : tensor<1x8x7xf32>, tensor<1x1x1xf32> -> tensor<1x8x7xf32>
  return %1 : tensor<1x8x7xf32>
}

// -----

// Two convolutions in one function: two kernels, numbered in order. The
// second convolution reads the first kernel's result.

// CHECK-LABEL: func.func @two_convs
// CHECK-SAME: (%[[X:[^:]*]]: {{.*}}, %[[W1:[^:]*]]: {{.*}}, %[[W2:[^:]*]]: {{.*}})
// CHECK-NEXT: %[[K0:.*]] = fuse.kernel "two_convs_k0" ins(%[[X]], %[[W1]] : tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   fuse.conv_transpose
// CHECK-NEXT:   %[[R:.*]] = fuse.relu
// CHECK-NEXT:   fuse.yield %[[R]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[K1:.*]] = fuse.kernel "two_convs_k1" ins(%[[K0]], %[[W2]] : tensor<1x8x7xf32>, tensor<8x2x2xf32>) -> tensor<1x2x8xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   fuse.conv_transpose
// CHECK-NEXT:   %[[S:.*]] = fuse.sigmoid
// CHECK-NEXT:   fuse.yield %[[S]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[K1]]
func.func @two_convs(%x: tensor<1x4x5xf32>, %w1: tensor<4x8x3xf32>,
                     %w2: tensor<8x2x2xf32>) -> tensor<1x2x8xf32> {
  %0 = fuse.conv_transpose %x, %w1 {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %1 = fuse.relu %0 : tensor<1x8x7xf32>
  %2 = fuse.conv_transpose %1, %w2 {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x8x7xf32>, tensor<8x2x2xf32>) -> tensor<1x2x8xf32>
  %3 = fuse.sigmoid %2 : tensor<1x2x8xf32>
  return %3 : tensor<1x2x8xf32>
}

// -----

// Two independent convolutions combined at the end: the add reads the
// second convolution (computed after the first) so it joins the second
// kernel, with the first kernel's result as an input.

// CHECK-LABEL: func.func @two_convs_joined
// CHECK-NEXT: %[[K0:.*]] = fuse.kernel "two_convs_joined_k0"
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   %[[C0:.*]] = fuse.conv_transpose
// CHECK-NEXT:   fuse.yield %[[C0]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[K1:.*]] = fuse.kernel "two_convs_joined_k1" ins(%{{.*}}, %{{.*}}, %[[K0]] :
// CHECK-NEXT: ^bb0(%{{.*}}, %{{.*}}, %[[IN:[^:]*]]: tensor<1x8x7xf32>):
// CHECK-NEXT:   %[[C1:.*]] = fuse.conv_transpose
// CHECK-NEXT:   %[[A:.*]] = fuse.add %[[IN]], %[[C1]]
// CHECK-NEXT:   fuse.yield %[[A]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[K1]]
func.func @two_convs_joined(%x: tensor<1x4x5xf32>, %w1: tensor<4x8x3xf32>,
                            %w2: tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
  %0 = fuse.conv_transpose %x, %w1 {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %1 = fuse.conv_transpose %x, %w2 {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %2 = fuse.add %0, %1 : tensor<1x8x7xf32>, tensor<1x8x7xf32> -> tensor<1x8x7xf32>
  return %2 : tensor<1x8x7xf32>
}

// -----

// A dead convolution and its dead epilogue are erased before fusion; the
// live one becomes the only kernel (kernel names count formed kernels only).

// CHECK-LABEL: func.func @dead_conv
// CHECK-NOT: fuse.relu
// CHECK-NEXT: %[[K:.*]] = fuse.kernel "dead_conv_k0"
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   %[[C:.*]] = fuse.conv_transpose
// CHECK-NEXT:   fuse.yield %[[C]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[K]]
func.func @dead_conv(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %1 = fuse.relu %0 : tensor<1x8x7xf32>
  %2 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  return %2 : tensor<1x8x7xf32>
}

// -----

// An op before any convolution roots an elementwise kernel of its own; an
// existing kernel is not re-formed.

// CHECK-LABEL: func.func @no_conv
// CHECK-NEXT: %[[R:.*]] = fuse.kernel "no_conv_k0"
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   fuse.relu
// CHECK-NEXT:   fuse.yield
// CHECK-NEXT: }
// CHECK-NEXT: fuse.kernel "existing" ins(%[[R]],
// CHECK-NOT: fuse.kernel
// CHECK: return
func.func @no_conv(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
  %r = fuse.relu %x : tensor<1x4x5xf32>
  %0 = fuse.kernel "existing" ins(%r, %w : tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
  ^bb0(%a: tensor<1x4x5xf32>, %b: tensor<4x8x3xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
    fuse.yield %c : tensor<1x8x7xf32>
  }
  return %0 : tensor<1x8x7xf32>
}

// -----

// Pooling in the epilogue (PooledEpilogue): the elementwise ops before the
// pool, the pool and the elementwise ops on the pooled value form one
// kernel; a second pool roots a kernel of its own.

// CHECK-LABEL: func.func @pooled_epilogue
// CHECK: %[[K:.*]] = fuse.kernel "pooled_epilogue_k0"
// CHECK:   fuse.conv_transpose
// CHECK-NEXT:   fuse.leaky_relu
// CHECK-NEXT:   fuse.max_pool
// CHECK-NEXT:   fuse.add
// CHECK-NEXT:   fuse.yield
// CHECK: fuse.kernel "pooled_epilogue_k1" ins(%[[K]]
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   fuse.avg_pool
// CHECK-NEXT:   fuse.yield
func.func @pooled_epilogue(%x: tensor<1x4x5x5xf32>, %w: tensor<4x8x2x2xf32>,
                           %b: tensor<8x1x1xf32>) -> tensor<1x8x2x2xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<1x4x5x5xf32>, tensor<4x8x2x2xf32>) -> tensor<1x8x10x10xf32>
  %1 = fuse.leaky_relu %0 {slope = 0.2 : f64} : tensor<1x8x10x10xf32>
  %2 = fuse.max_pool %1 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>,
         padding = array<i64: 0, 0>} : tensor<1x8x10x10xf32> -> tensor<1x8x5x5xf32>
  %3 = fuse.add %2, %b : tensor<1x8x5x5xf32>, tensor<8x1x1xf32> -> tensor<1x8x5x5xf32>
  %4 = fuse.avg_pool %3 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>,
         padding = array<i64: 0, 0>} : tensor<1x8x5x5xf32> -> tensor<1x8x2x2xf32>
  return %4 : tensor<1x8x2x2xf32>
}

// -----

// A reduction over the channels after the pooling joins the kernel (blocks
// then hold all channels), with the elementwise ops between and after it;
// a second reduction roots a kernel of its own.

// CHECK-LABEL: func.func @pool_then_channel_sum
// CHECK: %[[K:.*]] = fuse.kernel "pool_then_channel_sum_k0"
// CHECK:   fuse.conv_transpose
// CHECK-NEXT:   fuse.max_pool
// CHECK-NEXT:   fuse.mul
// CHECK-NEXT:   fuse.sum
// CHECK-NEXT:   fuse.tanh
// CHECK-NEXT:   fuse.yield
// CHECK: fuse.kernel "pool_then_channel_sum_k1" ins(%[[K]]
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   fuse.amax
// CHECK-NEXT:   fuse.yield
func.func @pool_then_channel_sum(%x: tensor<1x4x5x5xf32>, %w: tensor<4x8x2x2xf32>,
                                 %m: tensor<8x1x1xf32>) -> tensor<1x1x5xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<1x4x5x5xf32>, tensor<4x8x2x2xf32>) -> tensor<1x8x10x10xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>,
         padding = array<i64: 0, 0>} : tensor<1x8x10x10xf32> -> tensor<1x8x5x5xf32>
  %2 = fuse.mul %1, %m : tensor<1x8x5x5xf32>, tensor<8x1x1xf32> -> tensor<1x8x5x5xf32>
  %3 = fuse.sum %2 {dims = array<i64: 1>, keepdim = true} : tensor<1x8x5x5xf32> -> tensor<1x1x5x5xf32>
  %4 = fuse.tanh %3 : tensor<1x1x5x5xf32>
  %5 = fuse.amax %4 {dims = array<i64: 2>, keepdim = false} : tensor<1x1x5x5xf32> -> tensor<1x1x5xf32>
  return %5 : tensor<1x1x5xf32>
}

// -----

// Pools that stay out of the convolution kernel: one with padding (its
// windows start before the convolution's first row), one after a
// normalisation in the tile, and one whose operand is also returned (the
// pre-pool tensor must then be stored anyway).

// CHECK-LABEL: func.func @pools_not_fused
// CHECK: fuse.kernel "pools_not_fused_k0"
// CHECK-NOT: _pool
// CHECK: fuse.yield
// CHECK: fuse.kernel "pools_not_fused_k3"
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   fuse.max_pool
// CHECK: fuse.kernel "pools_not_fused_k1"
// CHECK-NOT: _pool
// CHECK: fuse.softmax
// CHECK-NEXT: fuse.yield
// CHECK: fuse.kernel "pools_not_fused_k4"
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   fuse.max_pool
// CHECK: fuse.kernel "pools_not_fused_k2"
// CHECK-NOT: _pool
// CHECK: fuse.yield
// CHECK: fuse.kernel "pools_not_fused_k5"
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   fuse.max_pool
func.func @pools_not_fused(%x: tensor<1x4x5xf32>, %w: tensor<4x8x2xf32>)
    -> (tensor<1x8x6xf32>, tensor<1x8x5xf32>, tensor<1x8x5xf32>, tensor<1x8x10xf32>) {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x2xf32>) -> tensor<1x8x10xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2>, stride = array<i64: 2>,
         padding = array<i64: 1>} : tensor<1x8x10xf32> -> tensor<1x8x6xf32>
  %2 = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x2xf32>) -> tensor<1x8x10xf32>
  %3 = fuse.softmax %2 {dim = 1 : i64} : tensor<1x8x10xf32>
  %4 = fuse.max_pool %3 {kernel_size = array<i64: 2>, stride = array<i64: 2>,
         padding = array<i64: 0>} : tensor<1x8x10xf32> -> tensor<1x8x5xf32>
  %5 = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x2xf32>) -> tensor<1x8x10xf32>
  %6 = fuse.max_pool %5 {kernel_size = array<i64: 2>, stride = array<i64: 2>,
         padding = array<i64: 0>} : tensor<1x8x10xf32> -> tensor<1x8x5xf32>
  return %1, %4, %6, %5 : tensor<1x8x6xf32>, tensor<1x8x5xf32>, tensor<1x8x5xf32>, tensor<1x8x10xf32>
}

// -----

// The seg2d head: log_softmax over the channels is a normalisation whose
// sets a block holds (like a channel softmax), so it joins the conv kernel;
// one over H spans blocks and roots a normalisation kernel of its own.

// CHECK-LABEL: func.func @seg_head
// CHECK-NEXT: %[[K:.*]] = fuse.kernel "seg_head_k0"
// CHECK-NEXT: ^bb0(
// CHECK-NEXT:   %[[C:.*]] = fuse.conv_transpose
// CHECK-NEXT:   %[[L:.*]] = fuse.log_softmax %[[C]] {dim = 1 : i64} : tensor<16x21x64x64xf32>
// CHECK-NEXT:   fuse.yield %[[L]] : tensor<16x21x64x64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[H:.*]] = fuse.kernel "seg_head_k1" ins(%[[K]] : tensor<16x21x64x64xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<16x21x64x64xf32>):
// CHECK-NEXT:   %[[LH:.*]] = fuse.log_softmax %[[A]] {dim = 2 : i64} : tensor<16x21x64x64xf32>
// CHECK-NEXT:   fuse.yield %[[LH]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[H]]
func.func @seg_head(%x: tensor<16x64x32x32xf32>, %w: tensor<64x21x4x4xf32>,
                    %b: tensor<21xf32>) -> tensor<16x21x64x64xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>,
         padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>,
         dilation = array<i64: 1, 1>}
       : (tensor<16x64x32x32xf32>, tensor<64x21x4x4xf32>, tensor<21xf32>)
       -> tensor<16x21x64x64xf32>
  %y = fuse.log_softmax %c {dim = 1 : i64} : tensor<16x21x64x64xf32>
  %z = fuse.log_softmax %y {dim = 2 : i64} : tensor<16x21x64x64xf32>
  return %z : tensor<16x21x64x64xf32>
}

// -----

// A layer_norm over a last dim longer than any tile holds (2050 > 2048 at W
// stride 1, fuse::maxTileRowWidth) roots a normalisation kernel of its own;
// a row of 2048 stays in the convolution's epilogue.

// CHECK-LABEL: func.func @long_row_layer_norm
// CHECK: %[[C:.*]] = fuse.kernel "long_row_layer_norm_k0"
// CHECK:   fuse.conv_transpose
// CHECK-NOT: fuse.layer_norm
// CHECK: fuse.kernel "long_row_layer_norm_k1" ins(%[[C]] : tensor<1x3x2050xf32>)
// CHECK:   fuse.layer_norm
func.func @long_row_layer_norm(%x: tensor<1x2x2048xf32>, %w: tensor<2x3x3xf32>) -> tensor<1x3x2050xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x2x2048xf32>, tensor<2x3x3xf32>) -> tensor<1x3x2050xf32>
  %1 = fuse.layer_norm %0 : tensor<1x3x2050xf32>
  return %1 : tensor<1x3x2050xf32>
}

// -----

// CHECK-LABEL: func.func @row_layer_norm_fits
// CHECK: fuse.kernel "row_layer_norm_fits_k0"
// CHECK:   fuse.conv_transpose
// CHECK-NEXT: fuse.layer_norm
// CHECK-NOT: fuse.kernel
func.func @row_layer_norm_fits(%x: tensor<1x2x2046xf32>, %w: tensor<2x3x3xf32>) -> tensor<1x3x2048xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x2x2046xf32>, tensor<2x3x3xf32>) -> tensor<1x3x2048xf32>
  %1 = fuse.layer_norm %0 : tensor<1x3x2048xf32>
  return %1 : tensor<1x3x2048xf32>
}

// -----

// Parameter values: an eval batch_norm's per-channel scale and shift
// (decomposed: rsqrt(var + eps) * weight and [C] -> [C, 1] views of the
// graph inputs) are computed from graph inputs alone, so every convolution
// kernel whose epilogue reads them takes copies of their ops, placed after
// its convolution (KernelAnalysis::params), and no kernel of their own
// remains. Here two convolutions share the mean's view: each has a copy.

// CHECK-LABEL: func.func @parameter_chain
// CHECK-SAME: (%[[X:[^:]*]]: {{.*}}, %[[W:[^:]*]]: {{.*}}, %[[M:[^:]*]]: tensor<8xf32>, %[[V:[^:]*]]: tensor<8xf32>, %[[G:[^:]*]]: tensor<8xf32>)
// CHECK-NEXT: %[[K0:.*]] = fuse.kernel "parameter_chain_k0" ins(%[[X]], %[[W]], %[[M]], %[[V]], %[[G]] :
// CHECK-NEXT: ^bb0(%{{.*}}, %{{.*}}, %[[KM:[^:]*]]: tensor<8xf32>, %[[KV:[^:]*]]: tensor<8xf32>, %[[KG:[^:]*]]: tensor<8xf32>):
// CHECK-NEXT:   %[[C:.*]] = fuse.conv_transpose
// CHECK-NEXT:   %[[MV:.*]] = fuse.reshape %[[KM]] : tensor<8xf32> -> tensor<8x1xf32>
// CHECK-NEXT:   %[[EPS:.*]] = arith.constant dense<9.99999974E-6> : tensor<f32>
// CHECK-NEXT:   %[[A:.*]] = fuse.add %[[KV]], %[[EPS]]
// CHECK-NEXT:   %[[I:.*]] = fuse.rsqrt %[[A]]
// CHECK-NEXT:   %[[S:.*]] = fuse.mul %[[I]], %[[KG]]
// CHECK-NEXT:   %[[SV:.*]] = fuse.reshape %[[S]] : tensor<8xf32> -> tensor<8x1xf32>
// CHECK-NEXT:   %[[D:.*]] = fuse.sub %[[C]], %[[MV]]
// CHECK-NEXT:   %[[Y:.*]] = fuse.mul %[[D]], %[[SV]]
// CHECK-NEXT:   fuse.relu %[[Y]]
// CHECK-NEXT:   fuse.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[K1:.*]] = fuse.kernel "parameter_chain_k1" ins(%[[X]], %[[W]], %[[M]] :
// CHECK-NEXT: ^bb0(%{{.*}}, %{{.*}}, %[[KM1:[^:]*]]: tensor<8xf32>):
// CHECK-NEXT:   %[[C1:.*]] = fuse.conv_transpose
// CHECK-NEXT:   %[[MV1:.*]] = fuse.reshape %[[KM1]] : tensor<8xf32> -> tensor<8x1xf32>
// CHECK-NEXT:   fuse.sub %[[C1]], %[[MV1]]
// CHECK-NEXT:   fuse.yield
// CHECK-NEXT: }
// CHECK-NOT: fuse.kernel
func.func @parameter_chain(%x: tensor<2x4x5xf32>, %w: tensor<4x8x3xf32>,
                           %m: tensor<8xf32>, %v: tensor<8xf32>,
                           %g: tensor<8xf32>) -> (tensor<2x8x7xf32>, tensor<2x8x7xf32>) {
  %eps = arith.constant dense<1.000000e-05> : tensor<f32>
  %a = fuse.add %v, %eps : tensor<8xf32>, tensor<f32> -> tensor<8xf32>
  %i = fuse.rsqrt %a : tensor<8xf32>
  %s = fuse.mul %i, %g : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
  %sv = fuse.reshape %s : tensor<8xf32> -> tensor<8x1xf32>
  %mv = fuse.reshape %m : tensor<8xf32> -> tensor<8x1xf32>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<2x4x5xf32>, tensor<4x8x3xf32>) -> tensor<2x8x7xf32>
  %d = fuse.sub %0, %mv : tensor<2x8x7xf32>, tensor<8x1xf32> -> tensor<2x8x7xf32>
  %y = fuse.mul %d, %sv : tensor<2x8x7xf32>, tensor<8x1xf32> -> tensor<2x8x7xf32>
  %r = fuse.relu %y : tensor<2x8x7xf32>
  %1 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<2x4x5xf32>, tensor<4x8x3xf32>) -> tensor<2x8x7xf32>
  %d1 = fuse.sub %1, %mv : tensor<2x8x7xf32>, tensor<8x1xf32> -> tensor<2x8x7xf32>
  return %r, %d1 : tensor<2x8x7xf32>, tensor<2x8x7xf32>
}
