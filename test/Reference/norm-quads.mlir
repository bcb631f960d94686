// RUN: fusecc-check %s --plan-split-chunk=5120 | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --plan-split-chunk=5120 | FileCheck %s
// RUN: fusecc %s --plan-split-chunk=5120 --emit=gpu | FileCheck %s --check-prefix=GPU
// The streaming phase of split and epilogue-statistics normalisations in
// 16-byte quads (NormEmitter::applyChunk): whole rounds of four quads per
// thread (4096 elements a block), then single quads, for sets and chunks
// whose lengths are multiples of 4; element by element otherwise.

// CHECK: @gn_quads_split: PASS
// CHECK: @gn_quads_epilogue: PASS
// CHECK: @gn_odd_len: PASS
// CHECK: @gn_rounds: PASS
// CHECK-NOT: FAIL

// Sets of 2 x 48 x 64 = 6144 elements in chunks of 5120 (one whole round
// and one quad per thread) and 1024 (one quad per thread); ops after the
// normalisation read a per-channel parameter at each quad's elements.
// GPU-LABEL: gpu.func @gn_quads_split_k0(
// GPU: vector.load {{.*}} vector<4xf32>
// GPU: vector.store {{.*}} vector<4xf32>
func.func @gn_quads_split(%x: tensor<2x4x48x64xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>, %s: tensor<4x1x1xf32>) -> tensor<2x4x48x64xf32> {
  %0 = fuse.group_norm %x weight(%g : tensor<4xf32>) bias(%b : tensor<4xf32>) {num_groups = 2 : i64, epsilon = 1.0e-05 : f64} : tensor<2x4x48x64xf32>
  %1 = fuse.silu %0 : tensor<2x4x48x64xf32>
  %2 = fuse.mul %1, %s : tensor<2x4x48x64xf32>, tensor<4x1x1xf32> -> tensor<2x4x48x64xf32>
  return %2 : tensor<2x4x48x64xf32>
}

// A group_norm over a convolution's result from its epilogue records:
// sets of 4 x 34 x 36 = 4896 elements, one chunk: a whole round, then 200
// quads over 256 threads.
// GPU-LABEL: gpu.func @gn_quads_epilogue_k1(
// GPU: vector.load {{.*}} vector<4xf32>
// GPU: vector.store {{.*}} vector<4xf32>
func.func @gn_quads_epilogue(%x: tensor<1x4x32x34xf32>, %w: tensor<4x8x3x3xf32>, %bias: tensor<8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<1x8x34x36xf32> {
  %c = fuse.conv_transpose %x, %w, %bias {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x4x32x34xf32>, tensor<4x8x3x3xf32>, tensor<8xf32>) -> tensor<1x8x34x36xf32>
  %r = fuse.gelu %c : tensor<1x8x34x36xf32>
  %0 = fuse.group_norm %r weight(%g : tensor<8xf32>) bias(%b : tensor<8xf32>) {num_groups = 2 : i64, epsilon = 1.0e-05 : f64} : tensor<1x8x34x36xf32>
  return %0 : tensor<1x8x34x36xf32>
}

// Sets of 3 x 43 x 41 = 5289 elements (not a multiple of 4): element by
// element.
// GPU-LABEL: gpu.func @gn_odd_len_k0(
// GPU-NOT: vector<4xf32>
// GPU: gpu.return
func.func @gn_odd_len(%x: tensor<2x6x43x41xf32>) -> tensor<2x6x43x41xf32> {
  %0 = fuse.group_norm %x {num_groups = 2 : i64, epsilon = 1.0e-05 : f64} : tensor<2x6x43x41xf32>
  return %0 : tensor<2x6x43x41xf32>
}

// 264 sets of 82 x 100 = 8200 elements in two chunks of 4100: a whole
// round of four quads per thread, then one quad for 25 threads; an op after
// the normalisation broadcasts along W.
// GPU-LABEL: gpu.func @gn_rounds_k0(
// GPU-COUNT-5: vector.load {{.*}} vector<4xf32>
func.func @gn_rounds(%x: tensor<264x1x82x100xf32>, %s: tensor<1x1x100xf32>) -> tensor<264x1x82x100xf32> {
  %0 = fuse.group_norm %x {num_groups = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<264x1x82x100xf32>
  %1 = fuse.add %0, %s : tensor<264x1x82x100xf32>, tensor<1x1x100xf32> -> tensor<264x1x82x100xf32>
  return %1 : tensor<264x1x82x100xf32>
}
