// The split-operand (3xTF32) mma.sync lowering of an ieee kernel
// (math tf32x3): operands are staged in full f32 (no TF32 rounding
// between the round's barriers), each fragment element is split in
// registers into hi = cvt.rna.tf32(a) and lo = cvt.rna.tf32(a - hi), and
// every tile takes three MMAs with f32 accumulators, the small products
// first: a_lo b_hi, a_hi b_lo, a_hi b_hi. The epilogue math is exact
// (an ieee graph), as in FMA kernels.

// RUN: fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{ieee-tensor-cores=always},fuse-plan-kernels),fuse-convert-to-gpu)' | FileCheck %s
// RUN: fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{ieee-tensor-cores=always wgmma=always},fuse-plan-kernels),fuse-convert-to-gpu)' | FileCheck %s --check-prefix=WG

// On wgmma (sm_90a) the tensor cores read both operands from shared
// memory, so both parts are staged: the weight re-layout writes a hi and a
// lo image per round (element = lo where the image digit says so), the
// input is split as it is staged (hi and lo 16-byte stores, the lo area a
// constant offset further), and each round's wgmma start from zero
// (scale-d 0 on an accumulator's first) and go to the running sums with
// f32 adds after the round's wait.
// WG-LABEL: gpu.func @bias1d_k0(
// WG: scf.for
// WG: nvvm.wgmma.fence.aligned
// WG: nvvm.wgmma.mma_async {{.*}} D[<f32>, <zero>]
// WG-NOT: D[<f32>, <zero>]
// WG-COUNT-8: D[<f32>, <one>]
// WG-NOT: nvvm.wgmma.mma_async
// WG: nvvm.wgmma.commit.group.sync.aligned
// WG: %[[HI_I:.*]] = nvvm.convert.float.to.tf32 %[[X:.*]] {rnd = #nvvm.fp_rnd_mode<rna>}
// WG-NEXT: %[[HI:.*]] = arith.bitcast %[[HI_I]] : i32 to f32
// WG-NEXT: %[[REST:.*]] = arith.subf %[[X]], %[[HI]] : f32
// WG-NEXT: %[[LO_I:.*]] = nvvm.convert.float.to.tf32 %[[REST]]
// WG-NEXT: %[[LO:.*]] = arith.bitcast %[[LO_I]] : i32 to f32
// WG: %[[HIV:.*]] = vector.from_elements %[[HI]], {{.*}} : vector<4xf32>
// WG-NEXT: vector.store %[[HIV]], %{{.*}}[%[[AT:.*]]] {alignment = 16 : i64}
// WG-NEXT: %[[LOV:.*]] = vector.from_elements %[[LO]], {{.*}} : vector<4xf32>
// WG: %[[LOAT:.*]] = arith.addi %[[AT]], %c{{[0-9_]+}} : index
// WG-NEXT: vector.store %[[LOV]], %{{.*}}[%[[LOAT]]] {alignment = 16 : i64}
// WG: nvvm.wgmma.wait.group.sync.aligned 0
// WG-NEXT: %[[S:.*]] = llvm.extractvalue %[[SUM0:.*]][0]
// WG-NEXT: %[[P:.*]] = llvm.extractvalue %[[ROUND:.*]][0]
// WG-NEXT: %[[ADD:.*]] = arith.addf %[[S]], %[[P]] : f32
// WG-NEXT: llvm.insertvalue %[[ADD]], %[[SUM0]][0]
// WG-LABEL: gpu.func @bias1d_k0_wpack(
// WG: %[[W:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// WG-NEXT: %[[WHI_I:.*]] = nvvm.convert.float.to.tf32 %[[W]]
// WG-NEXT: %[[WHI:.*]] = arith.bitcast %[[WHI_I]] : i32 to f32
// WG-NEXT: %[[WREST:.*]] = arith.subf %[[W]], %[[WHI]] : f32
// WG-NEXT: %[[WLO_I:.*]] = nvvm.convert.float.to.tf32 %[[WREST]]
// WG-NEXT: %[[WLO:.*]] = arith.bitcast %[[WLO_I]] : i32 to f32
// WG: %[[ISLO:.*]] = arith.cmpi ne, %{{.*}}, %c0{{.*}} : index
// WG-NEXT: %[[OUT:.*]] = arith.select %[[ISLO]], %[[WLO]], %[[WHI]] : f32
// WG: memref.store %[[OUT]]

// CHECK-LABEL: gpu.func @bias1d_k0
// Staging: stores only, nothing rounded.
// CHECK: gpu.barrier
// CHECK-NOT: nvvm.convert.float.to.tf32
// CHECK: memref.store {{.*}}#gpu.address_space<workgroup>
// CHECK-NOT: nvvm.convert.float.to.tf32
// CHECK: gpu.barrier
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<2x2xf32>
// The weight fragment (A, 4 elements), split.
// CHECK: %[[A0:.*]] = memref.load %{{.*}} : memref<{{.*}}#gpu.address_space<workgroup>>
// CHECK: %[[A0HI_I:.*]] = nvvm.convert.float.to.tf32 %[[A0]] {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK-NEXT: %[[A0HI:.*]] = arith.bitcast %[[A0HI_I]] : i32 to f32
// CHECK-NEXT: %[[A0REST:.*]] = arith.subf %[[A0]], %[[A0HI]] : f32
// CHECK-NEXT: %[[A0LO_I:.*]] = nvvm.convert.float.to.tf32 %[[A0REST]] {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK-NEXT: %[[A0LO:.*]] = arith.bitcast %[[A0LO_I]] : i32 to f32
// CHECK: %[[AHI:.*]] = vector.from_elements %[[A0HI]], {{.*}} : vector<4x1xf32>
// CHECK-NEXT: %[[ALO:.*]] = vector.from_elements %[[A0LO]], {{.*}} : vector<4x1xf32>
// The input fragment (B, 2 elements), split.
// CHECK: %[[B0:.*]] = memref.load %{{.*}} : memref<{{.*}}#gpu.address_space<workgroup>>
// CHECK: %[[B0HI_I:.*]] = nvvm.convert.float.to.tf32 %[[B0]] {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK-NEXT: %[[B0HI:.*]] = arith.bitcast %[[B0HI_I]] : i32 to f32
// CHECK-NEXT: %[[B0REST:.*]] = arith.subf %[[B0]], %[[B0HI]] : f32
// CHECK-NEXT: %[[B0LO_I:.*]] = nvvm.convert.float.to.tf32 %[[B0REST]] {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK-NEXT: %[[B0LO:.*]] = arith.bitcast %[[B0LO_I]] : i32 to f32
// CHECK: %[[BHI:.*]] = vector.from_elements %[[B0HI]], {{.*}} : vector<2x1xf32>
// CHECK-NEXT: %[[BLO:.*]] = vector.from_elements %[[B0LO]], {{.*}} : vector<2x1xf32>
// Each k-step's three products start from zero on the tensor cores and
// are added to the running sum with IEEE f32 adds (the tensor cores'
// accumulation truncates), element by element.
// CHECK-NEXT: %[[D0:.*]] = nvgpu.mma.sync(%[[ALO]], %[[BHI]], %[[ZERO]]) {mmaShape = [16, 8, 8], tf32Enabled}
// CHECK-NEXT: %[[D1:.*]] = nvgpu.mma.sync(%[[AHI]], %[[BLO]], %[[D0]]) {mmaShape = [16, 8, 8], tf32Enabled}
// CHECK-NEXT: %[[D2:.*]] = nvgpu.mma.sync(%[[AHI]], %[[BHI]], %[[D1]]) {mmaShape = [16, 8, 8], tf32Enabled}
// CHECK-NEXT: %[[S0:.*]] = vector.extract %[[ACC:.*]][0, 0]
// CHECK-NEXT: %[[P0:.*]] = vector.extract %[[D2]][0, 0]
// CHECK-NEXT: %[[R0:.*]] = arith.addf %[[S0]], %[[P0]] : f32
// CHECK-NEXT: %[[V0:.*]] = vector.insert %[[R0]], %[[ACC]] [0, 0]
// CHECK-COUNT-3: arith.addf
// CHECK: %[[V3:.*]] = vector.insert %{{.*}} [1, 1]
// CHECK-NEXT: scf.yield %[[V3]]
// CHECK: gpu.return
func.func @bias1d(%x: tensor<2x8x5xf32>, %w: tensor<8x16x3xf32>,
                  %b: tensor<16xf32>) -> tensor<2x16x7xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<2x8x5xf32>, tensor<8x16x3xf32>, tensor<16xf32>) -> tensor<2x16x7xf32>
  return %0 : tensor<2x16x7xf32>
}

// The epilogue's exp stays libdevice's expf (exact), not ex2.approx.
// CHECK-LABEL: gpu.func @softmax1d_k0
// CHECK: nvgpu.mma.sync
// CHECK-NOT: llvm.nvvm.ex2.approx
// CHECK: math.exp
// CHECK-NOT: llvm.nvvm.ex2.approx
// CHECK: gpu.return
func.func @softmax1d(%x: tensor<2x8x5xf32>, %w: tensor<8x16x3xf32>,
                     %b: tensor<16xf32>) -> tensor<2x16x7xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<2x8x5xf32>, tensor<8x16x3xf32>, tensor<16xf32>) -> tensor<2x16x7xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<2x16x7xf32>
  return %1 : tensor<2x16x7xf32>
}
