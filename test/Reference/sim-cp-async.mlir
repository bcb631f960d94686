// RUN: not fusecc-check --simulate-only %s | FileCheck %s
// Simulator semantics of nvgpu.device_async_copy (cp.async) global -> shared
// with zero fill, device_async_create_group (cp.async.commit_group) and
// device_async_wait (cp.async.wait_group), on hand-written GPU IR. A copy's
// destination words are written only when a wait completes its group (as a
// write of the issuing thread, visible to others after the next barrier);
// any access before that is reported.

// Thread t copies 4 elements of which the first t come from the source and
// the rest are zero-filled; thread (t + 3) % 4 checks them after the wait and
// a barrier: copied elements minus the source, zero-filled elements as they
// are. All zero, none NaN (uninitialised) or equal to minus the source.
// CHECK-LABEL: @zero_fill: OK
// CHECK-COUNT-16: @zero_fill: arg 1 [{{[0-9]+}}] = 0 (0x00000000)
// CHECK-NOT: @zero_fill: arg

// Reading another thread's destination before any wait (after a barrier).
// CHECK: @read_before_wait: FAIL (simulator: read of shared memory word 1 while thread 1's cp.async (nvgpu.device_async_copy) to it is pending (no nvgpu.device_async_wait covering it) in 'memref.load' {{.*}}, block (0, 0, 0), thread (0, 0, 0))

// The issuing thread itself must wait too.
// CHECK: @own_read_before_wait: FAIL (simulator: read of shared memory word 0 while thread 0's cp.async (nvgpu.device_async_copy) to it is pending

// After the wait the data is the issuing thread's write: others need a
// barrier.
// CHECK: @wait_without_barrier: FAIL (simulator: shared memory race: word 1 read without a barrier after thread 1 wrote it in 'memref.load'

// wait {numGroups = 1} completes the first of two groups only: words 0-3
// are readable, words 4-7 are still pending.
// CHECK: @wait_one_of_two: FAIL (simulator: read of shared memory word 5 while thread 1's cp.async

// A plain store to a pending destination is unordered with the copy.
// CHECK: @store_to_pending: FAIL (simulator: store to shared memory word 0 while thread 0's cp.async (nvgpu.device_async_copy) to it is pending in 'memref.store'

// A wait does not cover copies never committed to a group.
// CHECK: @uncommitted_at_wait: FAIL (simulator: 1 cp.async copies not committed to a group (nvgpu.device_async_create_group) at a wait, which does not cover them in 'nvgpu.device_async_wait'

// CHECK: @pending_at_exit: FAIL (simulator: 1 cp.async copies still pending at kernel exit (no nvgpu.device_async_wait for them) in 'gpu.return'

// Two threads' copies to one word.
// CHECK: @two_threads_one_word: FAIL (simulator: shared memory race: word 0 is the destination of pending cp.async copies of two threads (other: 0) in 'nvgpu.device_async_copy' {{.*}} thread (1, 0, 0))

// Copy after another thread read the word, with no barrier between.
// CHECK: @copy_after_read: FAIL (simulator: shared memory race: cp.async to word 0 without a barrier after another thread read it in 'nvgpu.device_async_copy' {{.*}} thread (0, 0, 0))

// Per-thread sink words: every thread zero-fills its own word several times
// (srcElements 0: the source index is not even read, out of bounds here),
// nothing reads them: no report.
// CHECK-LABEL: @sink_words: OK
// CHECK-COUNT-4: @sink_words: arg 1 [{{[0-9]}}] = 1 (0x3f800000)
// CHECK-NOT: @sink_words: arg

// With srcElements > 0 the source must be in bounds.
// CHECK: @source_oob: FAIL (simulator: out-of-bounds access [16] to argument 0 of shape 16 in 'nvgpu.device_async_copy' {{.*}} thread (3, 0, 0))

// 16-byte copies need 16-byte aligned addresses.
// CHECK: @misaligned_dst: FAIL (simulator: misaligned cp.async destination: byte offset 4 of shared memory is not a multiple of the 16-byte copy size

// Double-buffered pipeline as the kernel builder emits it: the token of
// round q + 1 flows through scf.for iter_args; wait {numGroups = 1} then
// completes round q. Sums of 3 rounds minus the same sums from global: 0.
// CHECK-LABEL: @pipeline: OK
// CHECK-COUNT-4: @pipeline: arg 1 [{{[0-9]}}] = 0 (0x00000000)
// CHECK-NOT: @pipeline: arg

// The same pipeline waiting for one group too few reads round q's buffer
// while its copy is pending.
// CHECK: @pipeline_waits_too_little: FAIL (simulator: read of shared memory word 1 while thread 1's cp.async (nvgpu.device_async_copy) to it is pending
module attributes {gpu.container_module} {
  func.func @zero_fill(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : i32
    gpu.launch_func @k::@zero_fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @read_before_wait(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : i32
    gpu.launch_func @k::@read_before_wait blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @own_read_before_wait(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : i32
    gpu.launch_func @k::@own_read_before_wait blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @wait_without_barrier(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : i32
    gpu.launch_func @k::@wait_without_barrier blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @wait_one_of_two(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : i32
    gpu.launch_func @k::@wait_one_of_two blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @store_to_pending(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : i32
    gpu.launch_func @k::@store_to_pending blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @uncommitted_at_wait(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : i32
    gpu.launch_func @k::@uncommitted_at_wait blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @pending_at_exit(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : i32
    gpu.launch_func @k::@pending_at_exit blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @two_threads_one_word(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : i32
    gpu.launch_func @k::@two_threads_one_word blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @copy_after_read(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : i32
    gpu.launch_func @k::@copy_after_read blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @sink_words(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : i32
    gpu.launch_func @k::@sink_words blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @source_oob(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : i32
    gpu.launch_func @k::@source_oob blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @misaligned_dst(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : i32
    gpu.launch_func @k::@misaligned_dst blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%in : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  func.func @pipeline(%in: memref<3x4xf32>, %out: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : i32
    gpu.launch_func @k::@pipeline blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c32 args(%in : memref<3x4xf32>, %out : memref<4xf32>)
    return
  }
  func.func @pipeline_waits_too_little(%in: memref<3x4xf32>, %out: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : i32
    gpu.launch_func @k::@pipeline_waits_too_little blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c32 args(%in : memref<3x4xf32>, %out : memref<4xf32>)
    return
  }
  gpu.module @k {
    gpu.func @zero_fill(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %zero = arith.constant 0.0 : f32
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %base = arith.muli %t, %c4 : index
      %cp = nvgpu.device_async_copy %in[%base], %s[%base], 4, %t : memref<16xf32> to memref<16xf32, #gpu.address_space<workgroup>>
      %g = nvgpu.device_async_create_group %cp
      nvgpu.device_async_wait %g {numGroups = 0 : i32}
      gpu.barrier
      %t1 = arith.addi %t, %c1 : index
      %u = arith.remui %t1, %c4 : index
      %ub = arith.muli %u, %c4 : index
      scf.for %j = %c0 to %c4 step %c1 {
        %i = arith.addi %ub, %j : index
        %v = memref.load %s[%i] : memref<16xf32, #gpu.address_space<workgroup>>
        %x = memref.load %in[%i] : memref<16xf32>
        %copied = arith.cmpi ult, %j, %u : index
        %e = arith.select %copied, %x, %zero : f32
        %d = arith.subf %v, %e : f32
        memref.store %d, %out[%i] : memref<16xf32>
      }
      gpu.return
    }
    gpu.func @read_before_wait(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %cp = nvgpu.device_async_copy %in[%t], %s[%t], 1 : memref<16xf32> to memref<16xf32, #gpu.address_space<workgroup>>
      %g = nvgpu.device_async_create_group %cp
      gpu.barrier
      %t1 = arith.addi %t, %c1 : index
      %u = arith.remui %t1, %c4 : index
      %v = memref.load %s[%u] : memref<16xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%t] : memref<16xf32>
      nvgpu.device_async_wait %g
      gpu.return
    }
    gpu.func @own_read_before_wait(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %cp = nvgpu.device_async_copy %in[%t], %s[%t], 1 : memref<16xf32> to memref<16xf32, #gpu.address_space<workgroup>>
      %g = nvgpu.device_async_create_group %cp
      %v = memref.load %s[%t] : memref<16xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%t] : memref<16xf32>
      nvgpu.device_async_wait %g
      gpu.return
    }
    gpu.func @wait_without_barrier(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %cp = nvgpu.device_async_copy %in[%t], %s[%t], 1 : memref<16xf32> to memref<16xf32, #gpu.address_space<workgroup>>
      %g = nvgpu.device_async_create_group %cp
      nvgpu.device_async_wait %g
      %t1 = arith.addi %t, %c1 : index
      %u = arith.remui %t1, %c4 : index
      %v = memref.load %s[%u] : memref<16xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%t] : memref<16xf32>
      gpu.return
    }
    gpu.func @wait_one_of_two(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %t4 = arith.addi %t, %c4 : index
      %cp0 = nvgpu.device_async_copy %in[%t], %s[%t], 1 : memref<16xf32> to memref<16xf32, #gpu.address_space<workgroup>>
      %g0 = nvgpu.device_async_create_group %cp0
      %cp1 = nvgpu.device_async_copy %in[%t4], %s[%t4], 1 : memref<16xf32> to memref<16xf32, #gpu.address_space<workgroup>>
      %g1 = nvgpu.device_async_create_group %cp1
      nvgpu.device_async_wait %g0 {numGroups = 1 : i32}
      gpu.barrier
      %t1 = arith.addi %t, %c1 : index
      %u = arith.remui %t1, %c4 : index
      %v0 = memref.load %s[%u] : memref<16xf32, #gpu.address_space<workgroup>>
      memref.store %v0, %out[%t] : memref<16xf32>
      %u4 = arith.addi %u, %c4 : index
      %v1 = memref.load %s[%u4] : memref<16xf32, #gpu.address_space<workgroup>>
      memref.store %v1, %out[%t4] : memref<16xf32>
      nvgpu.device_async_wait %g1
      gpu.return
    }
    gpu.func @store_to_pending(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %cp = nvgpu.device_async_copy %in[%t], %s[%t], 1 : memref<16xf32> to memref<16xf32, #gpu.address_space<workgroup>>
      %g = nvgpu.device_async_create_group %cp
      memref.store %one, %s[%t] : memref<16xf32, #gpu.address_space<workgroup>>
      nvgpu.device_async_wait %g
      gpu.return
    }
    gpu.func @uncommitted_at_wait(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %cp = nvgpu.device_async_copy %in[%t], %s[%t], 1 : memref<16xf32> to memref<16xf32, #gpu.address_space<workgroup>>
      nvgpu.device_async_wait %cp
      gpu.return
    }
    gpu.func @pending_at_exit(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %cp = nvgpu.device_async_copy %in[%t], %s[%t], 1 : memref<16xf32> to memref<16xf32, #gpu.address_space<workgroup>>
      %g = nvgpu.device_async_create_group %cp
      gpu.return
    }
    gpu.func @two_threads_one_word(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %cp = nvgpu.device_async_copy %in[%t], %s[%c0], 1 : memref<16xf32> to memref<16xf32, #gpu.address_space<workgroup>>
      %g = nvgpu.device_async_create_group %cp
      nvgpu.device_async_wait %g
      gpu.return
    }
    gpu.func @copy_after_read(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %one = arith.constant 1.0 : f32
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      memref.store %one, %s[%t] : memref<16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %t1 = arith.addi %t, %c1 : index
      %u = arith.remui %t1, %c4 : index
      %v = memref.load %s[%u] : memref<16xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%t] : memref<16xf32>
      %cp = nvgpu.device_async_copy %in[%t], %s[%t], 1 : memref<16xf32> to memref<16xf32, #gpu.address_space<workgroup>>
      %g = nvgpu.device_async_create_group %cp
      nvgpu.device_async_wait %g
      gpu.return
    }
    gpu.func @sink_words(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c12 = arith.constant 12 : index
      %c99 = arith.constant 99 : index
      %one = arith.constant 1.0 : f32
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %sink = arith.addi %t, %c12 : index
      // Round 1: a peeled copy and a loop of copies (unused tokens), all in
      // one group; round 2 likewise, waited for one round later.
      %a = nvgpu.device_async_copy %in[%c99], %s[%sink], 1, %c0 : memref<16xf32> to memref<16xf32, #gpu.address_space<workgroup>>
      scf.for %j = %c0 to %c3 step %c1 {
        %b = nvgpu.device_async_copy %in[%c0], %s[%sink], 1, %c0 : memref<16xf32> to memref<16xf32, #gpu.address_space<workgroup>>
      }
      %g0 = nvgpu.device_async_create_group %a
      %a2 = nvgpu.device_async_copy %in[%c99], %s[%sink], 1, %c0 : memref<16xf32> to memref<16xf32, #gpu.address_space<workgroup>>
      %g1 = nvgpu.device_async_create_group %a2
      nvgpu.device_async_wait %g1 {numGroups = 1 : i32}
      gpu.barrier
      nvgpu.device_async_wait %g1
      memref.store %one, %out[%t] : memref<16xf32>
      gpu.return
    }
    gpu.func @source_oob(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c13 = arith.constant 13 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %src = arith.addi %t, %c13 : index
      %n = arith.constant 1 : index
      %cp = nvgpu.device_async_copy %in[%src], %s[%t], 1, %n : memref<16xf32> to memref<16xf32, #gpu.address_space<workgroup>>
      %g = nvgpu.device_async_create_group %cp
      nvgpu.device_async_wait %g
      gpu.return
    }
    gpu.func @misaligned_dst(%in: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
      %cp = nvgpu.device_async_copy %in[%c0], %s[%c1], 4 : memref<16xf32> to memref<16xf32, #gpu.address_space<workgroup>>
      %g = nvgpu.device_async_create_group %cp
      nvgpu.device_async_wait %g
      gpu.return
    }
    gpu.func @pipeline(%in: memref<3x4xf32>, %out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %zero = arith.constant 0.0 : f32
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %t1 = arith.addi %t, %c1 : index
      %u = arith.remui %t1, %c4 : index
      %cp0 = nvgpu.device_async_copy %in[%c0, %t], %s[%t], 1 : memref<3x4xf32> to memref<8xf32, #gpu.address_space<workgroup>>
      %g0 = nvgpu.device_async_create_group %cp0
      %r:2 = scf.for %q = %c0 to %c3 step %c1 iter_args(%acc = %zero, %tok = %g0) -> (f32, !nvgpu.device.async.token) {
        %stage = arith.remui %q, %c2 : index
        %other = arith.subi %c1, %stage : index
        %q1 = arith.addi %q, %c1 : index
        %live = arith.cmpi ult, %q1, %c3 : index
        %qc = arith.select %live, %q1, %c0 : index
        %n = arith.select %live, %c1, %c0 : index
        %ob = arith.muli %other, %c4 : index
        %dst = arith.addi %ob, %t : index
        %cp = nvgpu.device_async_copy %in[%qc, %t], %s[%dst], 1, %n : memref<3x4xf32> to memref<8xf32, #gpu.address_space<workgroup>>
        %next = nvgpu.device_async_create_group %cp
        nvgpu.device_async_wait %tok {numGroups = 1 : i32}
        gpu.barrier
        %sb = arith.muli %stage, %c4 : index
        %i = arith.addi %sb, %u : index
        %v = memref.load %s[%i] : memref<8xf32, #gpu.address_space<workgroup>>
        %acc2 = arith.addf %acc, %v : f32
        gpu.barrier
        scf.yield %acc2, %next : f32, !nvgpu.device.async.token
      }
      nvgpu.device_async_wait %r#1 {numGroups = 0 : i32}
      %x0 = memref.load %in[%c0, %u] : memref<3x4xf32>
      %x1 = memref.load %in[%c1, %u] : memref<3x4xf32>
      %x2 = memref.load %in[%c2, %u] : memref<3x4xf32>
      %s0 = arith.addf %zero, %x0 : f32
      %s1 = arith.addf %s0, %x1 : f32
      %s2 = arith.addf %s1, %x2 : f32
      %d = arith.subf %r#0, %s2 : f32
      memref.store %d, %out[%t] : memref<4xf32>
      gpu.return
    }
    gpu.func @pipeline_waits_too_little(%in: memref<3x4xf32>, %out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %zero = arith.constant 0.0 : f32
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %t1 = arith.addi %t, %c1 : index
      %u = arith.remui %t1, %c4 : index
      %cp0 = nvgpu.device_async_copy %in[%c0, %t], %s[%t], 1 : memref<3x4xf32> to memref<8xf32, #gpu.address_space<workgroup>>
      %g0 = nvgpu.device_async_create_group %cp0
      %r:2 = scf.for %q = %c0 to %c3 step %c1 iter_args(%acc = %zero, %tok = %g0) -> (f32, !nvgpu.device.async.token) {
        %stage = arith.remui %q, %c2 : index
        %other = arith.subi %c1, %stage : index
        %q1 = arith.addi %q, %c1 : index
        %live = arith.cmpi ult, %q1, %c3 : index
        %qc = arith.select %live, %q1, %c0 : index
        %n = arith.select %live, %c1, %c0 : index
        %ob = arith.muli %other, %c4 : index
        %dst = arith.addi %ob, %t : index
        %cp = nvgpu.device_async_copy %in[%qc, %t], %s[%dst], 1, %n : memref<3x4xf32> to memref<8xf32, #gpu.address_space<workgroup>>
        %next = nvgpu.device_async_create_group %cp
        nvgpu.device_async_wait %tok {numGroups = 2 : i32}
        gpu.barrier
        %sb = arith.muli %stage, %c4 : index
        %i = arith.addi %sb, %u : index
        %v = memref.load %s[%i] : memref<8xf32, #gpu.address_space<workgroup>>
        %acc2 = arith.addf %acc, %v : f32
        gpu.barrier
        scf.yield %acc2, %next : f32, !nvgpu.device.async.token
      }
      nvgpu.device_async_wait %r#1 {numGroups = 0 : i32}
      memref.store %r#0, %out[%t] : memref<4xf32>
      gpu.return
    }
  }
}
