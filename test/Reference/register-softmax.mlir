// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --register-softmax --precision=tf32 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --register-softmax --precision=tf32 --epilogue-math=exact | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --register-softmax --precision=bf16 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --register-softmax --precision=fp16 --tile-rows=1 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --register-softmax --precision=tf32 --tile-cluster-c=1 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=bf16 --register-softmax=false | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --register-softmax --precision=ieee --ieee-tensor-cores=always | FileCheck %s
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --register-softmax --precision=tf32 --tile-cluster-c=1 --emit=gpu | FileCheck %s --check-prefix=GPU
// With --register-softmax (off by default: 37% slower on kb2_49 on the
// H200, docs/perf.md 201) a channel softmax whose block holds all the
// convolution's channels takes its statistics from the wgmma accumulators (RegisterSoftmax.cpp): warp
// shuffles over the lanes of a fragment column, an exchange of the warps'
// maxima and sums in the staging buffers, the rest of the epilogue on the
// registers. Checked in the simulator against the float64 reference in
// tf32 (fast and exact exp), bf16 and f16 operands and split (ieee)
// operands, and on the tile path (--register-softmax=false): kb2_49's chain (3-D,
// 64 channels), a plain softmax scaled by 3 (a wrong statistic shows;
// two samples, rows cut at the tensor's edge), kb2_91's chain with 128
// channels (two warpgroups' channel groups in one block with
// --tile-cluster-c=1; a 2-block cluster keeps the tile path otherwise).

// CHECK: @rs_kb2_49: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @rs_plain: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @rs_kb2_91: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK-NOT: FAIL

// The statistics of a position: shuffles 16, 8 and 4 lanes apart (no
// shuffle of 2 or 1: a fragment column's channels are lane / 4's), and no
// output tile walk.
// GPU-LABEL: gpu.func @rs_kb2_49_k0
// GPU: gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32 : f32
// GPU-NOT: gpu.shuffle  xor %{{.*}}, %c2_i32
// GPU: gpu.return
// GPU-LABEL: gpu.func @rs_kb2_91_k0
// GPU: gpu.shuffle  xor %{{.*}}, %c4_i32, %c32_i32 : f32
// GPU-NOT: gpu.shuffle  xor %{{.*}}, %c2_i32
// GPU: gpu.return

func.func @rs_kb2_49(%x: tensor<1x8x2x3x32xf32>, %w: tensor<8x64x3x3x3xf32>,
                     %b: tensor<64xf32>) -> tensor<1x64x4x6x64xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>,
         padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>,
         dilation = array<i64: 1, 1, 1>}
       : (tensor<1x8x2x3x32xf32>, tensor<8x64x3x3x3xf32>, tensor<64xf32>)
       -> tensor<1x64x4x6x64xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<1x64x4x6x64xf32>
  %2 = fuse.sigmoid %1 : tensor<1x64x4x6x64xf32>
  return %2 : tensor<1x64x4x6x64xf32>
}

func.func @rs_plain(%x: tensor<2x16x3x30xf32>, %w: tensor<16x64x3x3xf32>,
                    %b: tensor<64xf32>) -> tensor<2x64x6x60xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>,
         padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>,
         dilation = array<i64: 1, 1>}
       : (tensor<2x16x3x30xf32>, tensor<16x64x3x3xf32>, tensor<64xf32>)
       -> tensor<2x64x6x60xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<2x64x6x60xf32>
  %c3 = arith.constant dense<3.0> : tensor<f32>
  %2 = fuse.mul %1, %c3 : tensor<2x64x6x60xf32>, tensor<f32>
       -> tensor<2x64x6x60xf32>
  return %2 : tensor<2x64x6x60xf32>
}

func.func @rs_kb2_91(%x: tensor<1x8x3x32xf32>, %w: tensor<8x128x4x4xf32>,
                     %cb: tensor<128xf32>, %b: tensor<128x1x1xf32>)
    -> tensor<1x128x6x64xf32> {
  %0 = fuse.conv_transpose %x, %w, %cb {stride = array<i64: 2, 2>,
         padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>,
         dilation = array<i64: 1, 1>}
       : (tensor<1x8x3x32xf32>, tensor<8x128x4x4xf32>, tensor<128xf32>)
       -> tensor<1x128x6x64xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<1x128x6x64xf32>
  %2 = fuse.add %1, %b : tensor<1x128x6x64xf32>, tensor<128x1x1xf32>
       -> tensor<1x128x6x64xf32>
  %c2 = arith.constant dense<2.0> : tensor<f32>
  %3 = fuse.mul %2, %c2 : tensor<1x128x6x64xf32>, tensor<f32>
       -> tensor<1x128x6x64xf32>
  %4 = fuse.sigmoid %3 : tensor<1x128x6x64xf32>
  return %4 : tensor<1x128x6x64xf32>
}
