// RUN: fusecc-opt %s --fusecc-pipeline='precision=tf32 chip=sm_90a' | FileCheck %s
// RUN: fusecc-opt %s --fusecc-pipeline | FileCheck %s --check-prefix=IEEE
// RUN: not fusecc-opt %s --fusecc-pipeline='precision=fp8' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not fusecc-opt %s --fusecc-pipeline='chip=gfx90a' 2>&1 | FileCheck %s --check-prefix=BADCHIP
// RUN: not fusecc-opt %s --fusecc-pipeline='epilogue-math=approx' 2>&1 | FileCheck %s --check-prefix=BADMATH
// RUN: not fusecc-opt %s --fusecc-pipeline='tile-wgmma=2' 2>&1 | FileCheck %s --check-prefix=BADWGMMA
// RUN: fusecc-opt %s --fusecc-pipeline='precision=tf32 chip=sm_90a tile-wgmma=always epilogue-math=exact' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASSES

// The registered pipeline runs kernel formation, tiling, the plan and the
// GPU lowering by name, with typed (enum) options: a conv + gelu kernel,
// then the group_norm as its own normalisation kernel reading the
// intermediate buffer.

// CHECK-LABEL: func.func @conv_gn
// CHECK: memref.alloc() {fuse.role = "intermediate"} : memref<400xf32>
// CHECK: gpu.launch_func @fusecc_kernels::@conv_gn_k0
// CHECK: gpu.launch_func @fusecc_kernels::@conv_gn_k1
// CHECK: gpu.func @conv_gn_k0
// CHECK: nvgpu.mma.sync
// CHECK: gpu.func @conv_gn_k1

// IEEE-LABEL: func.func @conv_gn
// IEEE: gpu.func @conv_gn_k0
// IEEE-NOT: nvgpu.mma.sync
// IEEE: gpu.func @conv_gn_k1

// The options take the tools' enums and value lists (fusecc/Support/Options.h)
// and reach the passes' typed options.
// BAD: fusecc-opt: for the --precision option: 'fp8' is not a valid value (expected one of 'ieee', 'tf32', 'bf16', 'fp16', 'f16')
// BADCHIP: fusecc-opt: for the --chip option: 'gfx90a' is not a valid value (expected one of 'sm_80', 'sm_90', 'sm_90a')
// BADMATH: fusecc-opt: for the --epilogue-math option: 'approx' is not a valid value (expected one of 'auto', 'exact', 'fast')
// BADWGMMA: fusecc-opt: for the --tile-wgmma option: '2' is not a valid value (expected one of 'auto', 'never', 'always', 'full-wave', '-1', '0', '1')
// PASSES: fuse-tile-kernels{{{.*}} merge-h-taps=false phase-split=0 positions-m=0 precision=tf32 {{.*}} wgmma=always {{.*}}}
// PASSES: fuse-convert-to-gpu{epilogue-math=exact register-softmax=false}
func.func @conv_gn(%x: tensor<2x4x3x3xf32>, %w: tensor<4x8x3x3xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x8x5x5xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x3xf32>, tensor<4x8x3x3xf32>) -> tensor<2x8x5x5xf32>
  %r = fuse.gelu %c : tensor<2x8x5x5xf32>
  %0 = fuse.group_norm %r weight(%g : tensor<8xf32>) bias(%b : tensor<8xf32>) {num_groups = 4 : i64, epsilon = 1.0e-05 : f64} : tensor<2x8x5x5xf32>
  return %0 : tensor<2x8x5x5xf32>
}
