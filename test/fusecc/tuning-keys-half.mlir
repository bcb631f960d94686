// RUN: fusecc %s --chip=sm_90a --emit=tuning-keys | FileCheck %s
// RUN: fusecc %s --chip=sm_90a --emit=tuning-keys | sed -n 's/^few_k0\t\(.*\)$/{"entries": [{"key": "\1", "rows": 1, "wgmma": -1}]}/p' > %t.json
// RUN: fusecc %s --chip=sm_90a --tuning=%t.json --emit=fused | FileCheck %s --check-prefix=TUNED
// A graph stored in bf16: the key names the math fuse-tile-kernels runs,
// bf16 where the convolution has enough input channels, tf32 where it has
// at most one TF32 k-step of them (tensorCoreMath), and the storage casts;
// that is the key its tuning-file lookup uses (regression: tuning-keys
// printed bf16 for the few-channel kernel, whose entry then never applied,
// so bench/tune.py could not tune it).

// CHECK-DAG: few_k0{{[[:space:]]}}tf32 r4 n2 c3x16 {{.*}} | cast cast conv_transpose cast
// CHECK-DAG: wide_k0{{[[:space:]]}}bf16 r4 n2 c32x16 {{.*}} | cast cast conv_transpose cast

// The few-channel kernel's entry (one row, where the cost model takes 4)
// applies.
// TUNED: fuse.kernel "few_k0" {{.*}}types = <tf32, storage = bf16, operand = tf32, {{[^>]*}}>, mmaWarpsC = 1, mmaWarpsW = 1, mmaTilesC = 1, mmaTilesW = {{[0-9]+}}{{(, mergeHTaps = 1)?}}>}
// The other keeps the cost model's tile (its grid under half a wave: the
// small-grid tile of one row, all 32 input channels a round, docs/perf.md
// 315).
// TUNED: fuse.kernel "wide_k0" {{.*}}ciChunk = 32, types = <bf16, storage = bf16, operand = bf16, {{[^>]*}}>, mmaWarpsC = 1, mmaWarpsW = 1, mmaTilesC = 1, mmaTilesW = 3>}

func.func @few(%x: tensor<2x3x16x16xbf16>, %w: tensor<3x16x3x3xbf16>) -> tensor<2x16x33x33xbf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x16x16xbf16>, tensor<3x16x3x3xbf16>) -> tensor<2x16x33x33xbf16>
  return %0 : tensor<2x16x33x33xbf16>
}

func.func @wide(%x: tensor<2x32x16x16xbf16>, %w: tensor<32x16x3x3xbf16>) -> tensor<2x16x33x33xbf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x16x16xbf16>, tensor<32x16x3x3xbf16>) -> tensor<2x16x33x33xbf16>
  return %0 : tensor<2x16x33x33xbf16>
}
