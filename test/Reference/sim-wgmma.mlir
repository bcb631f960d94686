// RUN: not fusecc-check --simulate-only %s | FileCheck %s
// Simulator semantics of Hopper wgmma on hand-written GPU IR:
// nvvm.wgmma.mma_async m64nNk8 (tf32 x tf32 + f32, operands in shared memory
// through no-swizzle K-major descriptors, accumulators in an
// !llvm.struct of f32), wgmma.fence / commit.group / wait.group per
// warpgroup, nvvm.fence.proxy (async.shared) and
// memref.extract_aligned_pointer_as_index (shared-window address: dynamic
// shared memory starts at 1024, not 0).

// Two warpgroups, m64n16k8, K = 16 in two wgmma chained through scf.for
// iter_args on an accumulator initialised from C (llvm.insertvalue), then
// k-step 0 again with scale-d zero on a poison accumulator; two groups,
// wait 1 then wait 0. A: LBO 128, SBO 512 (k-chunks interleaved); B: window
// 16 bytes into a core matrix, LBO 288 (32 mod 128), SBO 128; the view at
// byte 256. Data: floor(4 x), small integers. Each thread subtracts a scalar
// reference of its 16 fragment elements (C + A B over k < 16, and A B over
// k < 8) and stores the sum of the absolute differences: all 0, none NaN.
// CHECK-LABEL: @mma: OK
// CHECK-COUNT-256: @mma: arg 3 [{{[0-9]+}}] = 0 (0x00000000)
// CHECK-NOT: @mma: arg

// m64n8k8 of all 1 + 2^-11: the tensor cores ignore the low 13 mantissa
// bits, D = 8 exactly. After the wait the warpgroup may overwrite the
// operands (here another thread's staging word) without a barrier.
// CHECK-LABEL: @store_after_wait: OK
// CHECK-COUNT-128: @store_after_wait: arg 1 [{{[0-9]+}}] = 8 (0x41000000)
// CHECK-NOT: @store_after_wait: arg

// Generic stores must be followed by fence.proxy.async in the writer before
// the barrier: without one, and with one after the barrier.
// CHECK: @no_fence_proxy: FAIL (simulator: shared memory word 0 written by thread 0 is read by a wgmma (nvvm.wgmma.mma_async, async proxy) without an nvvm.fence.proxy (async.shared) of that thread between the write and the next barrier in 'nvvm.wgmma.mma_async'
// CHECK: @fence_after_barrier: FAIL (simulator: shared memory word 0 written by thread 0 is read by a wgmma (nvvm.wgmma.mma_async, async proxy) without an nvvm.fence.proxy (async.shared)

// CHECK: @no_barrier: FAIL (simulator: shared memory race: word 0 written by thread 0 without a barrier before a wgmma (nvvm.wgmma.mma_async) reads it in 'nvvm.wgmma.mma_async'

// The operands are read until the wait retires the wgmma.
// CHECK: @store_while_pending: FAIL (simulator: store to shared memory word 0 while a wgmma (nvvm.wgmma.mma_async) of warpgroup 0 reading it is pending (no nvvm.wgmma.wait.group.sync.aligned retiring it) in 'memref.store' {{.*}} thread (0, 0, 0))

// CHECK: @half_warpgroup: FAIL (simulator: nvvm.wgmma.mma_async executed by 64 of the 128 threads of warpgroup 0
// CHECK: @incomplete_warpgroup: FAIL (simulator: nvvm.wgmma.fence.aligned executed by threads of an incomplete warpgroup (the block has 64 threads

// CHECK: @descriptors_differ: FAIL (simulator: wgmma descriptors differ within warpgroup 0: A 0x800400041, B 0x10000800C0 here, A 0x800400040, B 0x10000800C0 in thread 0 in 'nvvm.wgmma.mma_async' {{.*}} thread (64, 0, 0))

// CHECK: @pending_at_exit: FAIL (simulator: 1 wgmma (nvvm.wgmma.mma_async) still pending at kernel exit (no nvvm.wgmma.wait.group.sync.aligned retiring them) in 'gpu.return'
// CHECK: @uncommitted_at_wait: FAIL (simulator: 1 wgmma (nvvm.wgmma.mma_async) not committed to a group (nvvm.wgmma.commit.group.sync.aligned) at a wait, which does not cover them in 'nvvm.wgmma.wait.group.sync.aligned'

// CHECK: @swizzle: FAIL (simulator: wgmma descriptor A (0x4000000800400040) has swizzle mode 1; only 0 (no swizzle) is supported in 'nvvm.wgmma.mma_async'

// CHECK: @no_wgmma_fence: FAIL (simulator: nvvm.wgmma.mma_async of warpgroup 0 without an earlier nvvm.wgmma.fence.aligned in 'nvvm.wgmma.mma_async'

// Words 0-63 of A never written.
// CHECK: @uninitialised: FAIL (simulator: read of uninitialised shared memory (word 0) by a wgmma (nvvm.wgmma.mma_async) in 'nvvm.wgmma.mma_async'

// A descriptor built as if dynamic shared memory started at address 0.
// CHECK: @window_base_zero: FAIL (simulator: wgmma operand A element (0, 0) at shared address 0 is outside the dynamic shared memory [1024, 3328) (wgmma descriptor A (0x800400000): start 0, LBO 1024, SBO 128) in 'nvvm.wgmma.mma_async'

// An A operand whose words lie inside shared memory but whose span of 64
// rows x 32 bytes from its start does not: compute-sanitizer's memcheck
// reports that read, so the simulator does too.
// CHECK: @span_past_end: FAIL (simulator: wgmma operand A's span [1792, +2048) (rows x 32 bytes, as compute-sanitizer memcheck reads it) passes the end of the dynamic shared memory at 3328 (wgmma descriptor A (0x800200070)) in 'nvvm.wgmma.mma_async'

// A retired wgmma's reads are reads by its warpgroup: a store by a thread of
// another warpgroup needs a barrier.
// CHECK: @other_warpgroup_store: FAIL (simulator: shared memory race: word 0 written without a barrier after a wgmma (nvvm.wgmma.mma_async) of warpgroup 0 read it in 'memref.store' {{.*}} thread (128, 0, 0))

// A cp.async completion is a generic write of the copying thread: it needs
// the fence after its wait too.
// CHECK: @cp_async_no_fence: FAIL (simulator: shared memory word 0 written by thread 0 is read by a wgmma (nvvm.wgmma.mma_async, async proxy) without an nvvm.fence.proxy (async.shared)

// A descriptor built from a global buffer's address (a kernel argument's:
// bit 40 and up, SimulatorImpl.h) points at no shared memory.
// CHECK: @pointer_of_global: FAIL (simulator: wgmma operand A element (0, 0) at shared address 0 is outside the dynamic shared memory
module attributes {gpu.container_module} {
  func.func @mma(%a: memref<64x16xf32>, %b: memref<16x16xf32>, %c: memref<64x16xf32>, %out: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %nt = arith.constant 256 : index
    %smem = arith.constant 5520 : i32
    gpu.launch_func @k::@mma blocks in (%c1, %c1, %c1) threads in (%nt, %c1, %c1) dynamic_shared_memory_size %smem args(%a : memref<64x16xf32>, %b : memref<16x16xf32>, %c : memref<64x16xf32>, %out : memref<256xf32>)
    return
  }
  func.func @store_after_wait(%in: memref<576xf32>, %out: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %nt = arith.constant 128 : index
    %smem = arith.constant 2304 : i32
    gpu.launch_func @k::@store_after_wait blocks in (%c1, %c1, %c1) threads in (%nt, %c1, %c1) dynamic_shared_memory_size %smem args(%in : memref<576xf32>, %out : memref<128xf32>)
    return
  }
  func.func @no_fence_proxy(%in: memref<576xf32>, %out: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %nt = arith.constant 128 : index
    %smem = arith.constant 2304 : i32
    gpu.launch_func @k::@no_fence_proxy blocks in (%c1, %c1, %c1) threads in (%nt, %c1, %c1) dynamic_shared_memory_size %smem args(%in : memref<576xf32>, %out : memref<128xf32>)
    return
  }
  func.func @fence_after_barrier(%in: memref<576xf32>, %out: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %nt = arith.constant 128 : index
    %smem = arith.constant 2304 : i32
    gpu.launch_func @k::@fence_after_barrier blocks in (%c1, %c1, %c1) threads in (%nt, %c1, %c1) dynamic_shared_memory_size %smem args(%in : memref<576xf32>, %out : memref<128xf32>)
    return
  }
  func.func @no_barrier(%in: memref<576xf32>, %out: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %nt = arith.constant 128 : index
    %smem = arith.constant 2304 : i32
    gpu.launch_func @k::@no_barrier blocks in (%c1, %c1, %c1) threads in (%nt, %c1, %c1) dynamic_shared_memory_size %smem args(%in : memref<576xf32>, %out : memref<128xf32>)
    return
  }
  func.func @store_while_pending(%in: memref<576xf32>, %out: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %nt = arith.constant 128 : index
    %smem = arith.constant 2304 : i32
    gpu.launch_func @k::@store_while_pending blocks in (%c1, %c1, %c1) threads in (%nt, %c1, %c1) dynamic_shared_memory_size %smem args(%in : memref<576xf32>, %out : memref<128xf32>)
    return
  }
  func.func @half_warpgroup(%in: memref<576xf32>, %out: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %nt = arith.constant 128 : index
    %smem = arith.constant 2304 : i32
    gpu.launch_func @k::@half_warpgroup blocks in (%c1, %c1, %c1) threads in (%nt, %c1, %c1) dynamic_shared_memory_size %smem args(%in : memref<576xf32>, %out : memref<128xf32>)
    return
  }
  func.func @incomplete_warpgroup(%in: memref<576xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %nt = arith.constant 64 : index
    %smem = arith.constant 2304 : i32
    gpu.launch_func @k::@incomplete_warpgroup blocks in (%c1, %c1, %c1) threads in (%nt, %c1, %c1) dynamic_shared_memory_size %smem args(%in : memref<576xf32>, %out : memref<64xf32>)
    return
  }
  func.func @descriptors_differ(%in: memref<576xf32>, %out: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %nt = arith.constant 128 : index
    %smem = arith.constant 2304 : i32
    gpu.launch_func @k::@descriptors_differ blocks in (%c1, %c1, %c1) threads in (%nt, %c1, %c1) dynamic_shared_memory_size %smem args(%in : memref<576xf32>, %out : memref<128xf32>)
    return
  }
  func.func @pending_at_exit(%in: memref<576xf32>, %out: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %nt = arith.constant 128 : index
    %smem = arith.constant 2304 : i32
    gpu.launch_func @k::@pending_at_exit blocks in (%c1, %c1, %c1) threads in (%nt, %c1, %c1) dynamic_shared_memory_size %smem args(%in : memref<576xf32>, %out : memref<128xf32>)
    return
  }
  func.func @uncommitted_at_wait(%in: memref<576xf32>, %out: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %nt = arith.constant 128 : index
    %smem = arith.constant 2304 : i32
    gpu.launch_func @k::@uncommitted_at_wait blocks in (%c1, %c1, %c1) threads in (%nt, %c1, %c1) dynamic_shared_memory_size %smem args(%in : memref<576xf32>, %out : memref<128xf32>)
    return
  }
  func.func @swizzle(%in: memref<576xf32>, %out: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %nt = arith.constant 128 : index
    %smem = arith.constant 2304 : i32
    gpu.launch_func @k::@swizzle blocks in (%c1, %c1, %c1) threads in (%nt, %c1, %c1) dynamic_shared_memory_size %smem args(%in : memref<576xf32>, %out : memref<128xf32>)
    return
  }
  func.func @no_wgmma_fence(%in: memref<576xf32>, %out: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %nt = arith.constant 128 : index
    %smem = arith.constant 2304 : i32
    gpu.launch_func @k::@no_wgmma_fence blocks in (%c1, %c1, %c1) threads in (%nt, %c1, %c1) dynamic_shared_memory_size %smem args(%in : memref<576xf32>, %out : memref<128xf32>)
    return
  }
  func.func @uninitialised(%in: memref<576xf32>, %out: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %nt = arith.constant 128 : index
    %smem = arith.constant 2304 : i32
    gpu.launch_func @k::@uninitialised blocks in (%c1, %c1, %c1) threads in (%nt, %c1, %c1) dynamic_shared_memory_size %smem args(%in : memref<576xf32>, %out : memref<128xf32>)
    return
  }
  func.func @window_base_zero(%in: memref<576xf32>, %out: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %nt = arith.constant 128 : index
    %smem = arith.constant 2304 : i32
    gpu.launch_func @k::@window_base_zero blocks in (%c1, %c1, %c1) threads in (%nt, %c1, %c1) dynamic_shared_memory_size %smem args(%in : memref<576xf32>, %out : memref<128xf32>)
    return
  }
  func.func @span_past_end(%in: memref<576xf32>, %out: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %nt = arith.constant 128 : index
    %smem = arith.constant 2304 : i32
    gpu.launch_func @k::@span_past_end blocks in (%c1, %c1, %c1) threads in (%nt, %c1, %c1) dynamic_shared_memory_size %smem args(%in : memref<576xf32>, %out : memref<128xf32>)
    return
  }
  func.func @other_warpgroup_store(%in: memref<576xf32>, %out: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %nt = arith.constant 256 : index
    %smem = arith.constant 2304 : i32
    gpu.launch_func @k::@other_warpgroup_store blocks in (%c1, %c1, %c1) threads in (%nt, %c1, %c1) dynamic_shared_memory_size %smem args(%in : memref<576xf32>, %out : memref<256xf32>)
    return
  }
  func.func @cp_async_no_fence(%in: memref<576xf32>, %out: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %nt = arith.constant 128 : index
    %smem = arith.constant 2304 : i32
    gpu.launch_func @k::@cp_async_no_fence blocks in (%c1, %c1, %c1) threads in (%nt, %c1, %c1) dynamic_shared_memory_size %smem args(%in : memref<576xf32>, %out : memref<128xf32>)
    return
  }
  func.func @pointer_of_global(%in: memref<576xf32>, %out: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %nt = arith.constant 128 : index
    %smem = arith.constant 2304 : i32
    gpu.launch_func @k::@pointer_of_global blocks in (%c1, %c1, %c1) threads in (%nt, %c1, %c1) dynamic_shared_memory_size %smem args(%in : memref<576xf32>, %out : memref<128xf32>)
    return
  }
  gpu.module @k {
    gpu.func @mma(%a: memref<64x16xf32>, %b: memref<16x16xf32>, %c: memref<64x16xf32>, %out: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c9 = arith.constant 9 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c72 = arith.constant 72 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      %f4 = arith.constant 4.0 : f32
      %zero = arith.constant 0.0 : f32
      %t = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c256][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1316xf32, #gpu.address_space<workgroup>>
      // A (m, k) -> word (m / 8) * 128 + (k / 4) * 32 + (m % 8) * 4 + k % 4:
      // LBO 128 bytes, SBO 512 bytes.
      scf.for %e = %t to %c1024 step %c256 {
        %m = arith.divui %e, %c16 : index
        %k = arith.remui %e, %c16 : index
        %x = memref.load %a[%m, %k] : memref<64x16xf32>
        %x4 = arith.mulf %x, %f4 : f32
        %v = math.floor %x4 : f32
        %m8 = arith.divui %m, %c8 : index
        %mr = arith.remui %m, %c8 : index
        %kc = arith.divui %k, %c4 : index
        %kr = arith.remui %k, %c4 : index
        %w0 = arith.muli %m8, %c128 : index
        %w1 = arith.muli %kc, %c32 : index
        %w2 = arith.muli %mr, %c4 : index
        %w3 = arith.addi %w0, %w1 : index
        %w4 = arith.addi %w3, %w2 : index
        %w = arith.addi %w4, %kr : index
        memref.store %v, %s[%w] : memref<1316xf32, #gpu.address_space<workgroup>>
      }
      // B (n, k) -> word 1024 + (k / 4) * 72 + (n + 1) * 4 + k % 4: the
      // window starts 16 bytes into a core matrix, LBO 288 bytes, SBO 128.
      scf.for %e = %t to %c256 step %c256 {
        %n = arith.divui %e, %c16 : index
        %k = arith.remui %e, %c16 : index
        %x = memref.load %b[%n, %k] : memref<16x16xf32>
        %x4 = arith.mulf %x, %f4 : f32
        %v = math.floor %x4 : f32
        %kc = arith.divui %k, %c4 : index
        %kr = arith.remui %k, %c4 : index
        %n1 = arith.addi %n, %c1 : index
        %w0 = arith.muli %kc, %c72 : index
        %w1 = arith.muli %n1, %c4 : index
        %w2 = arith.addi %w0, %w1 : index
        %w3 = arith.addi %w2, %kr : index
        %w = arith.addi %w3, %c1024 : index
        memref.store %v, %s[%w] : memref<1316xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %p = memref.extract_aligned_pointer_as_index %s : memref<1316xf32, #gpu.address_space<workgroup>> -> index
      %pi = arith.index_cast %p : index to i64
      %mask = arith.constant 262143 : i64
      %sh4 = arith.constant 4 : i64
      // (LBO >> 4) << 16 | (SBO >> 4) << 32
      %lsA = arith.constant 137439477760 : i64
      %lsB = arith.constant 34360918016 : i64
      %i256 = arith.constant 256 : i64
      %i576 = arith.constant 576 : i64
      %i4112 = arith.constant 4112 : i64
      %pb = arith.addi %pi, %i4112 : i64
      %tw = arith.divui %t, %c32 : index
      %warp = arith.remui %tw, %c4 : index
      %lane = arith.remui %t, %c32 : index
      %g = arith.divui %lane, %c4 : index
      %tg = arith.remui %lane, %c4 : index
      %r0a = arith.muli %warp, %c16 : index
      %r0 = arith.addi %r0a, %g : index
      %r1 = arith.addi %r0, %c8 : index
      %col0 = arith.muli %tg, %c2 : index
      %col1 = arith.addi %col0, %c1 : index
      %col2 = arith.addi %col0, %c8 : index
      %col3 = arith.addi %col0, %c9 : index
      // Accumulator: element 4j + q = D(16 warp + g + 8 (q / 2), 8j + 2 tg + q % 2).
      %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %cx0 = memref.load %c[%r0, %col0] : memref<64x16xf32>
      %cy0 = arith.mulf %cx0, %f4 : f32
      %cv0 = math.floor %cy0 : f32
      %init0 = llvm.insertvalue %cv0, %u[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %cx1 = memref.load %c[%r0, %col1] : memref<64x16xf32>
      %cy1 = arith.mulf %cx1, %f4 : f32
      %cv1 = math.floor %cy1 : f32
      %init1 = llvm.insertvalue %cv1, %init0[1] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %cx2 = memref.load %c[%r1, %col0] : memref<64x16xf32>
      %cy2 = arith.mulf %cx2, %f4 : f32
      %cv2 = math.floor %cy2 : f32
      %init2 = llvm.insertvalue %cv2, %init1[2] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %cx3 = memref.load %c[%r1, %col1] : memref<64x16xf32>
      %cy3 = arith.mulf %cx3, %f4 : f32
      %cv3 = math.floor %cy3 : f32
      %init3 = llvm.insertvalue %cv3, %init2[3] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %cx4 = memref.load %c[%r0, %col2] : memref<64x16xf32>
      %cy4 = arith.mulf %cx4, %f4 : f32
      %cv4 = math.floor %cy4 : f32
      %init4 = llvm.insertvalue %cv4, %init3[4] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %cx5 = memref.load %c[%r0, %col3] : memref<64x16xf32>
      %cy5 = arith.mulf %cx5, %f4 : f32
      %cv5 = math.floor %cy5 : f32
      %init5 = llvm.insertvalue %cv5, %init4[5] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %cx6 = memref.load %c[%r1, %col2] : memref<64x16xf32>
      %cy6 = arith.mulf %cx6, %f4 : f32
      %cv6 = math.floor %cy6 : f32
      %init6 = llvm.insertvalue %cv6, %init5[6] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %cx7 = memref.load %c[%r1, %col3] : memref<64x16xf32>
      %cy7 = arith.mulf %cx7, %f4 : f32
      %cv7 = math.floor %cy7 : f32
      %init7 = llvm.insertvalue %cv7, %init6[7] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      nvvm.wgmma.fence.aligned
      %acc = scf.for %st = %c0 to %c2 step %c1 iter_args(%x = %init7) -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) {
        %sti = arith.index_cast %st : index to i64
        %oa = arith.muli %sti, %i256 : i64
        %pa = arith.addi %pi, %oa : i64
        %a0 = arith.andi %pa, %mask : i64
        %a1 = arith.shrui %a0, %sh4 : i64
        %da = arith.ori %a1, %lsA : i64
        %ob = arith.muli %sti, %i576 : i64
        %pbs = arith.addi %pb, %ob : i64
        %b0 = arith.andi %pbs, %mask : i64
        %b1 = arith.shrui %b0, %sh4 : i64
        %db = arith.ori %b1, %lsB : i64
        %y = nvvm.wgmma.mma_async %da, %db, %x, #nvvm.shape<m = 64, n = 16, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
        scf.yield %y : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      }
      nvvm.wgmma.commit.group.sync.aligned
      // k-step 0 again with scale-d zero: the poison (NaN) accumulator is
      // not read.
      %za0 = arith.andi %pi, %mask : i64
      %za1 = arith.shrui %za0, %sh4 : i64
      %zda = arith.ori %za1, %lsA : i64
      %zb0 = arith.andi %pb, %mask : i64
      %zb1 = arith.shrui %zb0, %sh4 : i64
      %zdb = arith.ori %zb1, %lsB : i64
      %pz = llvm.mlir.poison : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %z = nvvm.wgmma.mma_async %zda, %zdb, %pz, #nvvm.shape<m = 64, n = 16, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 1
      nvvm.wgmma.wait.group.sync.aligned 0
      %all = arith.cmpi ult, %t, %c256 : index
      %fin = scf.if %all -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) {
        scf.yield %acc : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      } else {
        scf.yield %z : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      }
      // Scalar reference: C + A B over k < 16, and A B over k < 8.
      %ref:16 = scf.for %k = %c0 to %c16 step %c1 iter_args(%q0 = %cv0, %q1 = %cv1, %q2 = %cv2, %q3 = %cv3, %q4 = %cv4, %q5 = %cv5, %q6 = %cv6, %q7 = %cv7, %o0 = %zero, %o1 = %zero, %o2 = %zero, %o3 = %zero, %o4 = %zero, %o5 = %zero, %o6 = %zero, %o7 = %zero) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
        %ar0x = memref.load %a[%r0, %k] : memref<64x16xf32>
        %ar0y = arith.mulf %ar0x, %f4 : f32
        %ar0 = math.floor %ar0y : f32
        %ar1x = memref.load %a[%r1, %k] : memref<64x16xf32>
        %ar1y = arith.mulf %ar1x, %f4 : f32
        %ar1 = math.floor %ar1y : f32
        %bc0x = memref.load %b[%col0, %k] : memref<16x16xf32>
        %bc0y = arith.mulf %bc0x, %f4 : f32
        %bc0 = math.floor %bc0y : f32
        %bc1x = memref.load %b[%col1, %k] : memref<16x16xf32>
        %bc1y = arith.mulf %bc1x, %f4 : f32
        %bc1 = math.floor %bc1y : f32
        %bc2x = memref.load %b[%col2, %k] : memref<16x16xf32>
        %bc2y = arith.mulf %bc2x, %f4 : f32
        %bc2 = math.floor %bc2y : f32
        %bc3x = memref.load %b[%col3, %k] : memref<16x16xf32>
        %bc3y = arith.mulf %bc3x, %f4 : f32
        %bc3 = math.floor %bc3y : f32
        %lo = arith.cmpi ult, %k, %c8 : index
        %pr0 = arith.mulf %ar0, %bc0 : f32
        %nq0 = arith.addf %q0, %pr0 : f32
        %pz0 = arith.select %lo, %pr0, %zero : f32
        %no0 = arith.addf %o0, %pz0 : f32
        %pr1 = arith.mulf %ar0, %bc1 : f32
        %nq1 = arith.addf %q1, %pr1 : f32
        %pz1 = arith.select %lo, %pr1, %zero : f32
        %no1 = arith.addf %o1, %pz1 : f32
        %pr2 = arith.mulf %ar1, %bc0 : f32
        %nq2 = arith.addf %q2, %pr2 : f32
        %pz2 = arith.select %lo, %pr2, %zero : f32
        %no2 = arith.addf %o2, %pz2 : f32
        %pr3 = arith.mulf %ar1, %bc1 : f32
        %nq3 = arith.addf %q3, %pr3 : f32
        %pz3 = arith.select %lo, %pr3, %zero : f32
        %no3 = arith.addf %o3, %pz3 : f32
        %pr4 = arith.mulf %ar0, %bc2 : f32
        %nq4 = arith.addf %q4, %pr4 : f32
        %pz4 = arith.select %lo, %pr4, %zero : f32
        %no4 = arith.addf %o4, %pz4 : f32
        %pr5 = arith.mulf %ar0, %bc3 : f32
        %nq5 = arith.addf %q5, %pr5 : f32
        %pz5 = arith.select %lo, %pr5, %zero : f32
        %no5 = arith.addf %o5, %pz5 : f32
        %pr6 = arith.mulf %ar1, %bc2 : f32
        %nq6 = arith.addf %q6, %pr6 : f32
        %pz6 = arith.select %lo, %pr6, %zero : f32
        %no6 = arith.addf %o6, %pz6 : f32
        %pr7 = arith.mulf %ar1, %bc3 : f32
        %nq7 = arith.addf %q7, %pr7 : f32
        %pz7 = arith.select %lo, %pr7, %zero : f32
        %no7 = arith.addf %o7, %pz7 : f32
        scf.yield %nq0, %nq1, %nq2, %nq3, %nq4, %nq5, %nq6, %nq7, %no0, %no1, %no2, %no3, %no4, %no5, %no6, %no7 : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
      }
      %d0 = llvm.extractvalue %fin[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %dd0 = arith.subf %d0, %ref#0 : f32
      %da0 = math.absf %dd0 : f32
      %zz0 = llvm.extractvalue %z[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %zd0 = arith.subf %zz0, %ref#8 : f32
      %zab0 = math.absf %zd0 : f32
      %sa0 = arith.addf %zero, %da0 : f32
      %sz0 = arith.addf %sa0, %zab0 : f32
      %d1 = llvm.extractvalue %fin[1] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %dd1 = arith.subf %d1, %ref#1 : f32
      %da1 = math.absf %dd1 : f32
      %zz1 = llvm.extractvalue %z[1] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %zd1 = arith.subf %zz1, %ref#9 : f32
      %zab1 = math.absf %zd1 : f32
      %sa1 = arith.addf %sz0, %da1 : f32
      %sz1 = arith.addf %sa1, %zab1 : f32
      %d2 = llvm.extractvalue %fin[2] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %dd2 = arith.subf %d2, %ref#2 : f32
      %da2 = math.absf %dd2 : f32
      %zz2 = llvm.extractvalue %z[2] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %zd2 = arith.subf %zz2, %ref#10 : f32
      %zab2 = math.absf %zd2 : f32
      %sa2 = arith.addf %sz1, %da2 : f32
      %sz2 = arith.addf %sa2, %zab2 : f32
      %d3 = llvm.extractvalue %fin[3] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %dd3 = arith.subf %d3, %ref#3 : f32
      %da3 = math.absf %dd3 : f32
      %zz3 = llvm.extractvalue %z[3] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %zd3 = arith.subf %zz3, %ref#11 : f32
      %zab3 = math.absf %zd3 : f32
      %sa3 = arith.addf %sz2, %da3 : f32
      %sz3 = arith.addf %sa3, %zab3 : f32
      %d4 = llvm.extractvalue %fin[4] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %dd4 = arith.subf %d4, %ref#4 : f32
      %da4 = math.absf %dd4 : f32
      %zz4 = llvm.extractvalue %z[4] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %zd4 = arith.subf %zz4, %ref#12 : f32
      %zab4 = math.absf %zd4 : f32
      %sa4 = arith.addf %sz3, %da4 : f32
      %sz4 = arith.addf %sa4, %zab4 : f32
      %d5 = llvm.extractvalue %fin[5] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %dd5 = arith.subf %d5, %ref#5 : f32
      %da5 = math.absf %dd5 : f32
      %zz5 = llvm.extractvalue %z[5] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %zd5 = arith.subf %zz5, %ref#13 : f32
      %zab5 = math.absf %zd5 : f32
      %sa5 = arith.addf %sz4, %da5 : f32
      %sz5 = arith.addf %sa5, %zab5 : f32
      %d6 = llvm.extractvalue %fin[6] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %dd6 = arith.subf %d6, %ref#6 : f32
      %da6 = math.absf %dd6 : f32
      %zz6 = llvm.extractvalue %z[6] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %zd6 = arith.subf %zz6, %ref#14 : f32
      %zab6 = math.absf %zd6 : f32
      %sa6 = arith.addf %sz5, %da6 : f32
      %sz6 = arith.addf %sa6, %zab6 : f32
      %d7 = llvm.extractvalue %fin[7] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %dd7 = arith.subf %d7, %ref#7 : f32
      %da7 = math.absf %dd7 : f32
      %zz7 = llvm.extractvalue %z[7] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %zd7 = arith.subf %zz7, %ref#15 : f32
      %zab7 = math.absf %zd7 : f32
      %sa7 = arith.addf %sz6, %da7 : f32
      %sz7 = arith.addf %sa7, %zab7 : f32
      memref.store %sz7, %out[%t] : memref<256xf32>
      gpu.return
    }
    gpu.func @store_after_wait(%in: memref<576xf32>, %out: memref<128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c576 = arith.constant 576 : index
      %cnt = arith.constant 128 : index
      %val = arith.constant 1.00048828125 : f32
      %t = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<576xf32, #gpu.address_space<workgroup>>
      scf.for %e = %t to %c576 step %cnt {
        memref.store %val, %s[%e] : memref<576xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %p = memref.extract_aligned_pointer_as_index %s : memref<576xf32, #gpu.address_space<workgroup>> -> index
      %pi = arith.index_cast %p : index to i64
      %mask = arith.constant 262143 : i64
      %sh4 = arith.constant 4 : i64
      // A in bytes [0, 2048): LBO 1024, SBO 128; B at 2048: LBO 128, SBO 256.
      %lsA = arith.constant 34363932672 : i64
      %lsB = arith.constant 68720001024 : i64
      %i2048 = arith.constant 2048 : i64
      %a0 = arith.andi %pi, %mask : i64
      %a1 = arith.shrui %a0, %sh4 : i64
      %da = arith.ori %a1, %lsA : i64
      %pb = arith.addi %pi, %i2048 : i64
      %b0 = arith.andi %pb, %mask : i64
      %b1 = arith.shrui %b0, %sh4 : i64
      %db = arith.ori %b1, %lsB : i64
      %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.fence.aligned
      %r = nvvm.wgmma.mma_async %da, %db, %u, #nvvm.shape<m = 64, n = 8, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      %t1 = arith.addi %t, %c1 : index
      %w = arith.remui %t1, %c128 : index
      memref.store %val, %s[%w] : memref<576xf32, #gpu.address_space<workgroup>>
      %x = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32)>
      memref.store %x, %out[%t] : memref<128xf32>
      gpu.return
    }
    gpu.func @no_fence_proxy(%in: memref<576xf32>, %out: memref<128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c576 = arith.constant 576 : index
      %cnt = arith.constant 128 : index
      %val = arith.constant 1.0 : f32
      %t = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<576xf32, #gpu.address_space<workgroup>>
      scf.for %e = %t to %c576 step %cnt {
        memref.store %val, %s[%e] : memref<576xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %p = memref.extract_aligned_pointer_as_index %s : memref<576xf32, #gpu.address_space<workgroup>> -> index
      %pi = arith.index_cast %p : index to i64
      %mask = arith.constant 262143 : i64
      %sh4 = arith.constant 4 : i64
      // A in bytes [0, 2048): LBO 1024, SBO 128; B at 2048: LBO 128, SBO 256.
      %lsA = arith.constant 34363932672 : i64
      %lsB = arith.constant 68720001024 : i64
      %i2048 = arith.constant 2048 : i64
      %a0 = arith.andi %pi, %mask : i64
      %a1 = arith.shrui %a0, %sh4 : i64
      %da = arith.ori %a1, %lsA : i64
      %pb = arith.addi %pi, %i2048 : i64
      %b0 = arith.andi %pb, %mask : i64
      %b1 = arith.shrui %b0, %sh4 : i64
      %db = arith.ori %b1, %lsB : i64
      %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.fence.aligned
      %r = nvvm.wgmma.mma_async %da, %db, %u, #nvvm.shape<m = 64, n = 8, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      %x = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32)>
      memref.store %x, %out[%t] : memref<128xf32>
      gpu.return
    }
    gpu.func @fence_after_barrier(%in: memref<576xf32>, %out: memref<128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c576 = arith.constant 576 : index
      %cnt = arith.constant 128 : index
      %val = arith.constant 1.0 : f32
      %t = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<576xf32, #gpu.address_space<workgroup>>
      scf.for %e = %t to %c576 step %cnt {
        memref.store %val, %s[%e] : memref<576xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      %p = memref.extract_aligned_pointer_as_index %s : memref<576xf32, #gpu.address_space<workgroup>> -> index
      %pi = arith.index_cast %p : index to i64
      %mask = arith.constant 262143 : i64
      %sh4 = arith.constant 4 : i64
      // A in bytes [0, 2048): LBO 1024, SBO 128; B at 2048: LBO 128, SBO 256.
      %lsA = arith.constant 34363932672 : i64
      %lsB = arith.constant 68720001024 : i64
      %i2048 = arith.constant 2048 : i64
      %a0 = arith.andi %pi, %mask : i64
      %a1 = arith.shrui %a0, %sh4 : i64
      %da = arith.ori %a1, %lsA : i64
      %pb = arith.addi %pi, %i2048 : i64
      %b0 = arith.andi %pb, %mask : i64
      %b1 = arith.shrui %b0, %sh4 : i64
      %db = arith.ori %b1, %lsB : i64
      %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.fence.aligned
      %r = nvvm.wgmma.mma_async %da, %db, %u, #nvvm.shape<m = 64, n = 8, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      %x = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32)>
      memref.store %x, %out[%t] : memref<128xf32>
      gpu.return
    }
    gpu.func @no_barrier(%in: memref<576xf32>, %out: memref<128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c576 = arith.constant 576 : index
      %cnt = arith.constant 128 : index
      %val = arith.constant 1.0 : f32
      %t = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<576xf32, #gpu.address_space<workgroup>>
      scf.for %e = %t to %c576 step %cnt {
        memref.store %val, %s[%e] : memref<576xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      %p = memref.extract_aligned_pointer_as_index %s : memref<576xf32, #gpu.address_space<workgroup>> -> index
      %pi = arith.index_cast %p : index to i64
      %mask = arith.constant 262143 : i64
      %sh4 = arith.constant 4 : i64
      // A in bytes [0, 2048): LBO 1024, SBO 128; B at 2048: LBO 128, SBO 256.
      %lsA = arith.constant 34363932672 : i64
      %lsB = arith.constant 68720001024 : i64
      %i2048 = arith.constant 2048 : i64
      %a0 = arith.andi %pi, %mask : i64
      %a1 = arith.shrui %a0, %sh4 : i64
      %da = arith.ori %a1, %lsA : i64
      %pb = arith.addi %pi, %i2048 : i64
      %b0 = arith.andi %pb, %mask : i64
      %b1 = arith.shrui %b0, %sh4 : i64
      %db = arith.ori %b1, %lsB : i64
      %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.fence.aligned
      %r = nvvm.wgmma.mma_async %da, %db, %u, #nvvm.shape<m = 64, n = 8, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      %x = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32)>
      memref.store %x, %out[%t] : memref<128xf32>
      gpu.return
    }
    gpu.func @store_while_pending(%in: memref<576xf32>, %out: memref<128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c576 = arith.constant 576 : index
      %cnt = arith.constant 128 : index
      %val = arith.constant 1.0 : f32
      %t = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<576xf32, #gpu.address_space<workgroup>>
      scf.for %e = %t to %c576 step %cnt {
        memref.store %val, %s[%e] : memref<576xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %p = memref.extract_aligned_pointer_as_index %s : memref<576xf32, #gpu.address_space<workgroup>> -> index
      %pi = arith.index_cast %p : index to i64
      %mask = arith.constant 262143 : i64
      %sh4 = arith.constant 4 : i64
      // A in bytes [0, 2048): LBO 1024, SBO 128; B at 2048: LBO 128, SBO 256.
      %lsA = arith.constant 34363932672 : i64
      %lsB = arith.constant 68720001024 : i64
      %i2048 = arith.constant 2048 : i64
      %a0 = arith.andi %pi, %mask : i64
      %a1 = arith.shrui %a0, %sh4 : i64
      %da = arith.ori %a1, %lsA : i64
      %pb = arith.addi %pi, %i2048 : i64
      %b0 = arith.andi %pb, %mask : i64
      %b1 = arith.shrui %b0, %sh4 : i64
      %db = arith.ori %b1, %lsB : i64
      %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.fence.aligned
      %r = nvvm.wgmma.mma_async %da, %db, %u, #nvvm.shape<m = 64, n = 8, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      memref.store %val, %s[%t] : memref<576xf32, #gpu.address_space<workgroup>>
      nvvm.wgmma.wait.group.sync.aligned 0
      %x = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32)>
      memref.store %x, %out[%t] : memref<128xf32>
      gpu.return
    }
    gpu.func @half_warpgroup(%in: memref<576xf32>, %out: memref<128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c576 = arith.constant 576 : index
      %cnt = arith.constant 128 : index
      %val = arith.constant 1.0 : f32
      %t = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<576xf32, #gpu.address_space<workgroup>>
      scf.for %e = %t to %c576 step %cnt {
        memref.store %val, %s[%e] : memref<576xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %p = memref.extract_aligned_pointer_as_index %s : memref<576xf32, #gpu.address_space<workgroup>> -> index
      %pi = arith.index_cast %p : index to i64
      %mask = arith.constant 262143 : i64
      %sh4 = arith.constant 4 : i64
      // A in bytes [0, 2048): LBO 1024, SBO 128; B at 2048: LBO 128, SBO 256.
      %lsA = arith.constant 34363932672 : i64
      %lsB = arith.constant 68720001024 : i64
      %i2048 = arith.constant 2048 : i64
      %a0 = arith.andi %pi, %mask : i64
      %a1 = arith.shrui %a0, %sh4 : i64
      %da = arith.ori %a1, %lsA : i64
      %pb = arith.addi %pi, %i2048 : i64
      %b0 = arith.andi %pb, %mask : i64
      %b1 = arith.shrui %b0, %sh4 : i64
      %db = arith.ori %b1, %lsB : i64
      %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.fence.aligned
      %lo = arith.cmpi ult, %t, %c64 : index
      %r = scf.if %lo -> (!llvm.struct<(f32, f32, f32, f32)>) {
        %y = nvvm.wgmma.mma_async %da, %db, %u, #nvvm.shape<m = 64, n = 8, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
        scf.yield %y : !llvm.struct<(f32, f32, f32, f32)>
      } else {
        scf.yield %u : !llvm.struct<(f32, f32, f32, f32)>
      }
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      %x = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32)>
      memref.store %x, %out[%t] : memref<128xf32>
      gpu.return
    }
    gpu.func @incomplete_warpgroup(%in: memref<576xf32>, %out: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c576 = arith.constant 576 : index
      %cnt = arith.constant 64 : index
      %val = arith.constant 1.0 : f32
      %t = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<576xf32, #gpu.address_space<workgroup>>
      scf.for %e = %t to %c576 step %cnt {
        memref.store %val, %s[%e] : memref<576xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %p = memref.extract_aligned_pointer_as_index %s : memref<576xf32, #gpu.address_space<workgroup>> -> index
      %pi = arith.index_cast %p : index to i64
      %mask = arith.constant 262143 : i64
      %sh4 = arith.constant 4 : i64
      // A in bytes [0, 2048): LBO 1024, SBO 128; B at 2048: LBO 128, SBO 256.
      %lsA = arith.constant 34363932672 : i64
      %lsB = arith.constant 68720001024 : i64
      %i2048 = arith.constant 2048 : i64
      %a0 = arith.andi %pi, %mask : i64
      %a1 = arith.shrui %a0, %sh4 : i64
      %da = arith.ori %a1, %lsA : i64
      %pb = arith.addi %pi, %i2048 : i64
      %b0 = arith.andi %pb, %mask : i64
      %b1 = arith.shrui %b0, %sh4 : i64
      %db = arith.ori %b1, %lsB : i64
      %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.fence.aligned
      %r = nvvm.wgmma.mma_async %da, %db, %u, #nvvm.shape<m = 64, n = 8, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      %x = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32)>
      memref.store %x, %out[%t] : memref<64xf32>
      gpu.return
    }
    gpu.func @descriptors_differ(%in: memref<576xf32>, %out: memref<128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c576 = arith.constant 576 : index
      %cnt = arith.constant 128 : index
      %val = arith.constant 1.0 : f32
      %t = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<576xf32, #gpu.address_space<workgroup>>
      scf.for %e = %t to %c576 step %cnt {
        memref.store %val, %s[%e] : memref<576xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %p = memref.extract_aligned_pointer_as_index %s : memref<576xf32, #gpu.address_space<workgroup>> -> index
      %pi = arith.index_cast %p : index to i64
      %mask = arith.constant 262143 : i64
      %sh4 = arith.constant 4 : i64
      // A in bytes [0, 2048): LBO 1024, SBO 128; B at 2048: LBO 128, SBO 256.
      %lsA = arith.constant 34363932672 : i64
      %lsB = arith.constant 68720001024 : i64
      %i2048 = arith.constant 2048 : i64
      %a0 = arith.andi %pi, %mask : i64
      %a1 = arith.shrui %a0, %sh4 : i64
      %da0 = arith.ori %a1, %lsA : i64
      %half = arith.divui %t, %c64 : index
      %hi = arith.index_cast %half : index to i64
      %da = arith.addi %da0, %hi : i64
      %pb = arith.addi %pi, %i2048 : i64
      %b0 = arith.andi %pb, %mask : i64
      %b1 = arith.shrui %b0, %sh4 : i64
      %db = arith.ori %b1, %lsB : i64
      %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.fence.aligned
      %r = nvvm.wgmma.mma_async %da, %db, %u, #nvvm.shape<m = 64, n = 8, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      %x = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32)>
      memref.store %x, %out[%t] : memref<128xf32>
      gpu.return
    }
    gpu.func @pending_at_exit(%in: memref<576xf32>, %out: memref<128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c576 = arith.constant 576 : index
      %cnt = arith.constant 128 : index
      %val = arith.constant 1.0 : f32
      %t = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<576xf32, #gpu.address_space<workgroup>>
      scf.for %e = %t to %c576 step %cnt {
        memref.store %val, %s[%e] : memref<576xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %p = memref.extract_aligned_pointer_as_index %s : memref<576xf32, #gpu.address_space<workgroup>> -> index
      %pi = arith.index_cast %p : index to i64
      %mask = arith.constant 262143 : i64
      %sh4 = arith.constant 4 : i64
      // A in bytes [0, 2048): LBO 1024, SBO 128; B at 2048: LBO 128, SBO 256.
      %lsA = arith.constant 34363932672 : i64
      %lsB = arith.constant 68720001024 : i64
      %i2048 = arith.constant 2048 : i64
      %a0 = arith.andi %pi, %mask : i64
      %a1 = arith.shrui %a0, %sh4 : i64
      %da = arith.ori %a1, %lsA : i64
      %pb = arith.addi %pi, %i2048 : i64
      %b0 = arith.andi %pb, %mask : i64
      %b1 = arith.shrui %b0, %sh4 : i64
      %db = arith.ori %b1, %lsB : i64
      %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.fence.aligned
      %r = nvvm.wgmma.mma_async %da, %db, %u, #nvvm.shape<m = 64, n = 8, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      %x = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32)>
      memref.store %x, %out[%t] : memref<128xf32>
      gpu.return
    }
    gpu.func @uncommitted_at_wait(%in: memref<576xf32>, %out: memref<128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c576 = arith.constant 576 : index
      %cnt = arith.constant 128 : index
      %val = arith.constant 1.0 : f32
      %t = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<576xf32, #gpu.address_space<workgroup>>
      scf.for %e = %t to %c576 step %cnt {
        memref.store %val, %s[%e] : memref<576xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %p = memref.extract_aligned_pointer_as_index %s : memref<576xf32, #gpu.address_space<workgroup>> -> index
      %pi = arith.index_cast %p : index to i64
      %mask = arith.constant 262143 : i64
      %sh4 = arith.constant 4 : i64
      // A in bytes [0, 2048): LBO 1024, SBO 128; B at 2048: LBO 128, SBO 256.
      %lsA = arith.constant 34363932672 : i64
      %lsB = arith.constant 68720001024 : i64
      %i2048 = arith.constant 2048 : i64
      %a0 = arith.andi %pi, %mask : i64
      %a1 = arith.shrui %a0, %sh4 : i64
      %da = arith.ori %a1, %lsA : i64
      %pb = arith.addi %pi, %i2048 : i64
      %b0 = arith.andi %pb, %mask : i64
      %b1 = arith.shrui %b0, %sh4 : i64
      %db = arith.ori %b1, %lsB : i64
      %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.fence.aligned
      %r = nvvm.wgmma.mma_async %da, %db, %u, #nvvm.shape<m = 64, n = 8, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.wait.group.sync.aligned 0
      %x = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32)>
      memref.store %x, %out[%t] : memref<128xf32>
      gpu.return
    }
    gpu.func @swizzle(%in: memref<576xf32>, %out: memref<128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c576 = arith.constant 576 : index
      %cnt = arith.constant 128 : index
      %val = arith.constant 1.0 : f32
      %t = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<576xf32, #gpu.address_space<workgroup>>
      scf.for %e = %t to %c576 step %cnt {
        memref.store %val, %s[%e] : memref<576xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %p = memref.extract_aligned_pointer_as_index %s : memref<576xf32, #gpu.address_space<workgroup>> -> index
      %pi = arith.index_cast %p : index to i64
      %mask = arith.constant 262143 : i64
      %sh4 = arith.constant 4 : i64
      // A in bytes [0, 2048): LBO 1024, SBO 128; B at 2048: LBO 128, SBO 256.
      %lsA = arith.constant 34363932672 : i64
      %lsB = arith.constant 68720001024 : i64
      %i2048 = arith.constant 2048 : i64
      %a0 = arith.andi %pi, %mask : i64
      %a1 = arith.shrui %a0, %sh4 : i64
      %da0 = arith.ori %a1, %lsA : i64
      %sw = arith.constant 4611686018427387904 : i64
      %da = arith.ori %da0, %sw : i64
      %pb = arith.addi %pi, %i2048 : i64
      %b0 = arith.andi %pb, %mask : i64
      %b1 = arith.shrui %b0, %sh4 : i64
      %db = arith.ori %b1, %lsB : i64
      %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.fence.aligned
      %r = nvvm.wgmma.mma_async %da, %db, %u, #nvvm.shape<m = 64, n = 8, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      %x = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32)>
      memref.store %x, %out[%t] : memref<128xf32>
      gpu.return
    }
    gpu.func @no_wgmma_fence(%in: memref<576xf32>, %out: memref<128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c576 = arith.constant 576 : index
      %cnt = arith.constant 128 : index
      %val = arith.constant 1.0 : f32
      %t = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<576xf32, #gpu.address_space<workgroup>>
      scf.for %e = %t to %c576 step %cnt {
        memref.store %val, %s[%e] : memref<576xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %p = memref.extract_aligned_pointer_as_index %s : memref<576xf32, #gpu.address_space<workgroup>> -> index
      %pi = arith.index_cast %p : index to i64
      %mask = arith.constant 262143 : i64
      %sh4 = arith.constant 4 : i64
      // A in bytes [0, 2048): LBO 1024, SBO 128; B at 2048: LBO 128, SBO 256.
      %lsA = arith.constant 34363932672 : i64
      %lsB = arith.constant 68720001024 : i64
      %i2048 = arith.constant 2048 : i64
      %a0 = arith.andi %pi, %mask : i64
      %a1 = arith.shrui %a0, %sh4 : i64
      %da = arith.ori %a1, %lsA : i64
      %pb = arith.addi %pi, %i2048 : i64
      %b0 = arith.andi %pb, %mask : i64
      %b1 = arith.shrui %b0, %sh4 : i64
      %db = arith.ori %b1, %lsB : i64
      %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      %r = nvvm.wgmma.mma_async %da, %db, %u, #nvvm.shape<m = 64, n = 8, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      %x = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32)>
      memref.store %x, %out[%t] : memref<128xf32>
      gpu.return
    }
    gpu.func @uninitialised(%in: memref<576xf32>, %out: memref<128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c576 = arith.constant 576 : index
      %cnt = arith.constant 128 : index
      %val = arith.constant 1.0 : f32
      %t = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<576xf32, #gpu.address_space<workgroup>>
      scf.for %e = %t to %c576 step %cnt {
        %x = arith.constant 1.0 : f32
        %lo = arith.cmpi ult, %e, %c64 : index
        scf.if %lo {
        } else {
          memref.store %x, %s[%e] : memref<576xf32, #gpu.address_space<workgroup>>
        }
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %p = memref.extract_aligned_pointer_as_index %s : memref<576xf32, #gpu.address_space<workgroup>> -> index
      %pi = arith.index_cast %p : index to i64
      %mask = arith.constant 262143 : i64
      %sh4 = arith.constant 4 : i64
      // A in bytes [0, 2048): LBO 1024, SBO 128; B at 2048: LBO 128, SBO 256.
      %lsA = arith.constant 34363932672 : i64
      %lsB = arith.constant 68720001024 : i64
      %i2048 = arith.constant 2048 : i64
      %a0 = arith.andi %pi, %mask : i64
      %a1 = arith.shrui %a0, %sh4 : i64
      %da = arith.ori %a1, %lsA : i64
      %pb = arith.addi %pi, %i2048 : i64
      %b0 = arith.andi %pb, %mask : i64
      %b1 = arith.shrui %b0, %sh4 : i64
      %db = arith.ori %b1, %lsB : i64
      %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.fence.aligned
      %r = nvvm.wgmma.mma_async %da, %db, %u, #nvvm.shape<m = 64, n = 8, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      %x = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32)>
      memref.store %x, %out[%t] : memref<128xf32>
      gpu.return
    }
    gpu.func @window_base_zero(%in: memref<576xf32>, %out: memref<128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c576 = arith.constant 576 : index
      %cnt = arith.constant 128 : index
      %val = arith.constant 1.0 : f32
      %t = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<576xf32, #gpu.address_space<workgroup>>
      scf.for %e = %t to %c576 step %cnt {
        memref.store %val, %s[%e] : memref<576xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %p = memref.extract_aligned_pointer_as_index %s : memref<576xf32, #gpu.address_space<workgroup>> -> index
      %pi = arith.index_cast %p : index to i64
      %mask = arith.constant 262143 : i64
      %sh4 = arith.constant 4 : i64
      // A in bytes [0, 2048): LBO 1024, SBO 128; B at 2048: LBO 128, SBO 256.
      %lsA = arith.constant 34363932672 : i64
      %lsB = arith.constant 68720001024 : i64
      %i2048 = arith.constant 2048 : i64
      %a0 = arith.andi %pi, %mask : i64
      %a1 = arith.shrui %a0, %sh4 : i64
      %da0 = arith.ori %a1, %lsA : i64
      %nobase = arith.constant 0 : i64
      %da = arith.ori %nobase, %lsA : i64
      %pb = arith.addi %pi, %i2048 : i64
      %b0 = arith.andi %pb, %mask : i64
      %b1 = arith.shrui %b0, %sh4 : i64
      %db = arith.ori %b1, %lsB : i64
      %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.fence.aligned
      %r = nvvm.wgmma.mma_async %da, %db, %u, #nvvm.shape<m = 64, n = 8, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      %x = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32)>
      memref.store %x, %out[%t] : memref<128xf32>
      gpu.return
    }
    gpu.func @span_past_end(%in: memref<576xf32>, %out: memref<128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c576 = arith.constant 576 : index
      %cnt = arith.constant 128 : index
      %val = arith.constant 1.0 : f32
      %t = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<576xf32, #gpu.address_space<workgroup>>
      scf.for %e = %t to %c576 step %cnt {
        memref.store %val, %s[%e] : memref<576xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %p = memref.extract_aligned_pointer_as_index %s : memref<576xf32, #gpu.address_space<workgroup>> -> index
      %pi = arith.index_cast %p : index to i64
      %mask = arith.constant 262143 : i64
      %sh4 = arith.constant 4 : i64
      // A from byte 768: LBO 512, SBO 128 (its words end at byte 2304, the
      // end of shared memory; its 2 KB span at 2816); B at 0: LBO 128,
      // SBO 256.
      %lsA = arith.constant 34361835520 : i64
      %lsB = arith.constant 68720001024 : i64
      %i768 = arith.constant 768 : i64
      %pa = arith.addi %pi, %i768 : i64
      %a0 = arith.andi %pa, %mask : i64
      %a1 = arith.shrui %a0, %sh4 : i64
      %da = arith.ori %a1, %lsA : i64
      %b0 = arith.andi %pi, %mask : i64
      %b1 = arith.shrui %b0, %sh4 : i64
      %db = arith.ori %b1, %lsB : i64
      %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.fence.aligned
      %r = nvvm.wgmma.mma_async %da, %db, %u, #nvvm.shape<m = 64, n = 8, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      %x = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32)>
      memref.store %x, %out[%t] : memref<128xf32>
      gpu.return
    }
    gpu.func @other_warpgroup_store(%in: memref<576xf32>, %out: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c576 = arith.constant 576 : index
      %cnt = arith.constant 256 : index
      %val = arith.constant 1.0 : f32
      %t = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<576xf32, #gpu.address_space<workgroup>>
      scf.for %e = %t to %c576 step %cnt {
        memref.store %val, %s[%e] : memref<576xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %p = memref.extract_aligned_pointer_as_index %s : memref<576xf32, #gpu.address_space<workgroup>> -> index
      %pi = arith.index_cast %p : index to i64
      %mask = arith.constant 262143 : i64
      %sh4 = arith.constant 4 : i64
      // A in bytes [0, 2048): LBO 1024, SBO 128; B at 2048: LBO 128, SBO 256.
      %lsA = arith.constant 34363932672 : i64
      %lsB = arith.constant 68720001024 : i64
      %i2048 = arith.constant 2048 : i64
      %a0 = arith.andi %pi, %mask : i64
      %a1 = arith.shrui %a0, %sh4 : i64
      %da = arith.ori %a1, %lsA : i64
      %pb = arith.addi %pi, %i2048 : i64
      %b0 = arith.andi %pb, %mask : i64
      %b1 = arith.shrui %b0, %sh4 : i64
      %db = arith.ori %b1, %lsB : i64
      %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      %wg0 = arith.cmpi ult, %t, %c128 : index
      %r = scf.if %wg0 -> (!llvm.struct<(f32, f32, f32, f32)>) {
        nvvm.wgmma.fence.aligned
        %y = nvvm.wgmma.mma_async %da, %db, %u, #nvvm.shape<m = 64, n = 8, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 0
        scf.yield %y : !llvm.struct<(f32, f32, f32, f32)>
      } else {
        %w = arith.subi %t, %c128 : index
        memref.store %val, %s[%w] : memref<576xf32, #gpu.address_space<workgroup>>
        scf.yield %u : !llvm.struct<(f32, f32, f32, f32)>
      }
      %x = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32)>
      memref.store %x, %out[%t] : memref<256xf32>
      gpu.return
    }
    gpu.func @cp_async_no_fence(%in: memref<576xf32>, %out: memref<128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c576 = arith.constant 576 : index
      %cnt = arith.constant 128 : index
      %val = arith.constant 1.0 : f32
      %t = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<576xf32, #gpu.address_space<workgroup>>
      %cp = nvgpu.device_async_copy %in[%t], %s[%t], 1 : memref<576xf32> to memref<576xf32, #gpu.address_space<workgroup>>
      scf.for %e = %t to %c576 step %cnt {
        %cpe = nvgpu.device_async_copy %in[%e], %s[%e], 1 : memref<576xf32> to memref<576xf32, #gpu.address_space<workgroup>>
      }
      %g = nvgpu.device_async_create_group %cp
      nvgpu.device_async_wait %g
      gpu.barrier
      %p = memref.extract_aligned_pointer_as_index %s : memref<576xf32, #gpu.address_space<workgroup>> -> index
      %pi = arith.index_cast %p : index to i64
      %mask = arith.constant 262143 : i64
      %sh4 = arith.constant 4 : i64
      // A in bytes [0, 2048): LBO 1024, SBO 128; B at 2048: LBO 128, SBO 256.
      %lsA = arith.constant 34363932672 : i64
      %lsB = arith.constant 68720001024 : i64
      %i2048 = arith.constant 2048 : i64
      %a0 = arith.andi %pi, %mask : i64
      %a1 = arith.shrui %a0, %sh4 : i64
      %da = arith.ori %a1, %lsA : i64
      %pb = arith.addi %pi, %i2048 : i64
      %b0 = arith.andi %pb, %mask : i64
      %b1 = arith.shrui %b0, %sh4 : i64
      %db = arith.ori %b1, %lsB : i64
      %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.fence.aligned
      %r = nvvm.wgmma.mma_async %da, %db, %u, #nvvm.shape<m = 64, n = 8, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      %x = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32)>
      memref.store %x, %out[%t] : memref<128xf32>
      gpu.return
    }
    gpu.func @pointer_of_global(%in: memref<576xf32>, %out: memref<128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c576 = arith.constant 576 : index
      %cnt = arith.constant 128 : index
      %val = arith.constant 1.0 : f32
      %t = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<576xf32, #gpu.address_space<workgroup>>
      scf.for %e = %t to %c576 step %cnt {
        memref.store %val, %s[%e] : memref<576xf32, #gpu.address_space<workgroup>>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %p = memref.extract_aligned_pointer_as_index %out : memref<128xf32> -> index
      %pi = arith.index_cast %p : index to i64
      %mask = arith.constant 262143 : i64
      %sh4 = arith.constant 4 : i64
      // A in bytes [0, 2048): LBO 1024, SBO 128; B at 2048: LBO 128, SBO 256.
      %lsA = arith.constant 34363932672 : i64
      %lsB = arith.constant 68720001024 : i64
      %i2048 = arith.constant 2048 : i64
      %a0 = arith.andi %pi, %mask : i64
      %a1 = arith.shrui %a0, %sh4 : i64
      %da = arith.ori %a1, %lsA : i64
      %pb = arith.addi %pi, %i2048 : i64
      %b0 = arith.andi %pb, %mask : i64
      %b1 = arith.shrui %b0, %sh4 : i64
      %db = arith.ori %b1, %lsB : i64
      %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.fence.aligned
      %r = nvvm.wgmma.mma_async %da, %db, %u, #nvvm.shape<m = 64, n = 8, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      %x = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32)>
      memref.store %x, %out[%t] : memref<128xf32>
      gpu.return
    }
  }
}
