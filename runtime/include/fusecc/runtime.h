/*===- fusecc/runtime.h - Load and launch fusecc bundles ----------*- C -*-===//
 *
 * The fusecc runtime: a small C API over the CUDA driver API that parses the
 * bundles written by `fusecc` (format: docs/bundle.md), loads their PTX into
 * a CUDA context and launches their entry points on a caller's stream.
 *
 * Conventions (modelled on IREE's hal/drivers/cuda/api.h):
 *  - Every fallible call returns a fusecc_status_t. NULL means success; a
 *    non-NULL status owns a code and a message and must be freed with
 *    fusecc_status_free. Results are written through `out_` parameters, which
 *    are left untouched (or set to NULL/0 where documented) on failure.
 *  - Handles are opaque and reference counted (retain/release).
 *  - The CUDA driver (libcuda.so.1) is never linked: it is loaded with dlopen
 *    at the first call that needs it, so everything except module loading and
 *    launching works on machines without a GPU or driver. The environment
 *    variable FUSECC_CUDA_DRIVER_LIBRARY, read at that first use, overrides
 *    the library name.
 *  - FUSECC_SANITIZE_BLOCK_LIMIT=N, read by fusecc_module_load, makes every
 *    launch of that module run only its first ~N blocks (compute-sanitizer
 *    racecheck of full-size layers, bench/sanitize.sh). Results are then
 *    incomplete; the load says so on stderr. Not for normal use.
 *  - FUSECC_LAUNCH_GRAPHS=0, read by fusecc_module_load, turns the CUDA
 *    graph launch path of multi-step entries off for that module (see
 *    fusecc_module_set_launch_graphs).
 *  - CUresult values are converted at the boundary into a
 *FUSECC_STATUS_CUDA_ERROR status whose message names the failing driver call
 *and includes cuGetErrorName and cuGetErrorString.
 *
 * Thread safety: bundles are immutable after parsing and may be shared by
 * threads. A module may be launched from several threads concurrently as long
 * as its CUDA context is current on each of them.
 *
 *===----------------------------------------------------------------------===*/

#ifndef FUSECC_RUNTIME_H
#define FUSECC_RUNTIME_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===*
 * Status
 *===----------------------------------------------------------------------===*/

/// The class of a failure.
typedef enum fusecc_status_code_e {
  FUSECC_STATUS_OK = 0,
  /// A NULL handle, a bad pointer, a wrong buffer size or alignment.
  FUSECC_STATUS_INVALID_ARGUMENT = 1,
  /// The bundle text does not follow docs/bundle.md.
  FUSECC_STATUS_PARSE_ERROR = 2,
  /// No entry of that name.
  FUSECC_STATUS_NOT_FOUND = 3,
  /// An entry, argument, workspace, step, launch, param, constant or
  /// graph-line index past the end.
  FUSECC_STATUS_OUT_OF_RANGE = 4,
  /// The CUDA driver library or one of its entry points is missing.
  FUSECC_STATUS_UNAVAILABLE = 5,
  /// A CUDA driver call failed.
  FUSECC_STATUS_CUDA_ERROR = 6,
  /// A file could not be opened or read.
  FUSECC_STATUS_IO_ERROR = 7,
  /// Memory allocation failed.
  FUSECC_STATUS_RESOURCE_EXHAUSTED = 8,
} fusecc_status_code_t;

/// An error: NULL means OK, anything else must be freed with
/// fusecc_status_free.
typedef struct fusecc_status_s *fusecc_status_t;

/// The code of `status`; FUSECC_STATUS_OK for NULL.
fusecc_status_code_t fusecc_status_code(fusecc_status_t status);

/// The NUL-terminated message of `status` ("OK" for NULL), valid until the
/// status is freed.
const char *fusecc_status_message(fusecc_status_t status);

/// Frees `status`; NULL is allowed.
void fusecc_status_free(fusecc_status_t status);

/// The upper-case name of `code` ("PARSE_ERROR"), "UNKNOWN" if out of range.
const char *fusecc_status_code_name(fusecc_status_code_t code);

/*===----------------------------------------------------------------------===*
 * Bundles
 *===----------------------------------------------------------------------===*/

/// The largest tensor rank a bundle may declare.
#define FUSECC_MAX_RANK 8

/// Element types of entry arguments, workspaces and constants. Format
/// versions 1 and 2 use f32, f16, bf16 for arguments and f32 for workspaces;
/// version 3 allows every dtype below everywhere.
typedef enum fusecc_dtype_e {
  FUSECC_DTYPE_F32 = 0,
  FUSECC_DTYPE_F16 = 1,
  FUSECC_DTYPE_BF16 = 2,
  /// Format version 3.
  FUSECC_DTYPE_I32 = 3,
  /// Format version 3.
  FUSECC_DTYPE_I64 = 4,
  /// Format version 3.
  FUSECC_DTYPE_U8 = 5,
} fusecc_dtype_t;

/// The manifest name of `dtype` ("f32"), "unknown" if out of range.
const char *fusecc_dtype_name(fusecc_dtype_t dtype);

/// The size in bytes of one element of `dtype`, 0 if out of range.
size_t fusecc_dtype_size(fusecc_dtype_t dtype);

/// The floating-point contract the PTX was compiled under.
typedef enum fusecc_precision_e {
  /// Plain IEEE float32 arithmetic.
  FUSECC_PRECISION_IEEE = 0,
  /// TF32 tensor-core products with float32 accumulation.
  FUSECC_PRECISION_TF32 = 1,
  /// bf16 tensor-core products (operands rounded to nearest even) with
  /// float32 accumulation.
  FUSECC_PRECISION_BF16 = 2,
  /// f16 tensor-core products (operands rounded to nearest even) with
  /// float32 accumulation.
  FUSECC_PRECISION_FP16 = 3,
} fusecc_precision_t;

/// The manifest name of `precision` ("ieee", "tf32", "bf16", "fp16"),
/// "unknown" if out of range.
const char *fusecc_precision_name(fusecc_precision_t precision);

/// A parsed bundle: the manifest plus a NUL-terminated copy of the PTX.
/// Immutable and reference counted.
typedef struct fusecc_bundle_s *fusecc_bundle_t;

/// One device buffer passed to an entry: its address and its size in bytes.
typedef struct fusecc_buffer_t {
  CUdeviceptr ptr;
  size_t size_bytes;
} fusecc_buffer_t;

/// Summary of one entry point.
typedef struct fusecc_entry_info_t {
  /// The entry's name; owned by the bundle.
  const char *name;
  /// Number of `arg` records; inputs come first, then outputs.
  size_t arg_count;
  /// Number of input arguments (those are %0 .. %(input_count-1) in the
  /// graph lines).
  size_t input_count;
  /// Number of `launch` records, run in order.
  size_t launch_count;
  /// Number of `graph` lines.
  size_t graph_line_count;
  /// Number of `workspace` records (0 in format version 1): scratch buffers
  /// the runtime allocates for each call of the entry (see
  /// fusecc_bundle_workspace_info). Appended last so that the layout of the
  /// earlier fields is unchanged.
  size_t workspace_count;
} fusecc_entry_info_t;

/// One argument of an entry.
typedef struct fusecc_arg_info_t {
  /// Position in the entry's argument list.
  size_t index;
  /// The argument's name; owned by the bundle.
  const char *name;
  /// 1 for an output (`out`), 0 for an input (`in`).
  int is_output;
  fusecc_dtype_t dtype;
  /// fusecc_dtype_name(dtype).
  const char *dtype_name;
  /// 0 .. FUSECC_MAX_RANK; a rank-0 argument is a one-element buffer.
  size_t rank;
  /// Extents, row-major; entries past `rank` are 0.
  int64_t dims[FUSECC_MAX_RANK];
  /// Product of dims (1 for rank 0).
  size_t element_count;
  /// element_count * fusecc_dtype_size(dtype): the exact buffer size a launch
  /// must pass.
  size_t byte_size;
} fusecc_arg_info_t;

/// One workspace of an entry (format version 2): device scratch memory that
/// fusecc_module_launch allocates on the caller's stream before the entry's
/// first launch and frees after its last. Its contents are undefined at the
/// start of each call, and callers neither pass nor see it.
typedef struct fusecc_workspace_info_t {
  /// FUSECC_DTYPE_F32 (the only workspace dtype so far).
  fusecc_dtype_t dtype;
  /// Number of elements (at least 1).
  size_t element_count;
  /// element_count * fusecc_dtype_size(dtype): the bytes allocated per call.
  size_t byte_size;
} fusecc_workspace_info_t;

/// One kernel launch of an entry.
typedef struct fusecc_launch_info_t {
  /// The PTX `.entry` name; owned by the bundle.
  const char *kernel_name;
  uint32_t grid[3];
  uint32_t block[3];
  /// Dynamic shared memory in bytes.
  uint32_t smem_bytes;
  /// Number of kernel parameters (one device pointer each).
  size_t param_count;
  /// `param_count` buffer indices; owned by the bundle. With A = arg_count
  /// and W = workspace_count of the entry: a value `v` < A is entry argument
  /// `v`; A <= v < A + W is workspace `v - A` (a `w<k>` param); v >= A + W
  /// is module constant `v - A - W` (a `c<k>` param, format version 3).
  /// fusecc_bundle_launch_param decodes one parameter.
  const size_t *param_args;
} fusecc_launch_info_t;

/// What a workspace is used for (format version 3; informative, but for
/// `prepared`: see "Prepare steps" below).
typedef enum fusecc_workspace_role_e {
  /// Format versions 1 and 2 carry no role.
  FUSECC_WORKSPACE_ROLE_UNSPECIFIED = 0,
  /// Re-laid-out operands.
  FUSECC_WORKSPACE_ROLE_SCRATCH = 1,
  /// A tensor passed from one kernel to a later one.
  FUSECC_WORKSPACE_ROLE_INTERMEDIATE = 2,
  /// Per-block partial statistics of a reduction spanning blocks.
  FUSECC_WORKSPACE_ROLE_PARTIALS = 3,
  /// Written by the entry's prepare steps from its inputs and constants
  /// alone (re-laid-out weights); kept across calls on the graph path.
  FUSECC_WORKSPACE_ROLE_PREPARED = 4,
} fusecc_workspace_role_t;

/// The manifest name of `role` ("scratch", "intermediate", "partials",
/// "prepared"),
/// "unspecified" for FUSECC_WORKSPACE_ROLE_UNSPECIFIED, "unknown" if out of
/// range.
const char *fusecc_workspace_role_name(fusecc_workspace_role_t role);

/// The kind of one step of an entry.
typedef enum fusecc_step_kind_e {
  /// A kernel launch (a `launch` record).
  FUSECC_STEP_LAUNCH = 0,
  /// Setting every byte of a workspace to 0 (a `zero w<k>` record, format
  /// version 3), with cuMemsetD8Async on the caller's stream.
  FUSECC_STEP_ZERO = 1,
} fusecc_step_kind_t;

/// "launch" or "zero"; "unknown" if out of range.
const char *fusecc_step_kind_name(fusecc_step_kind_t kind);

/// One step of an entry, in execution order. In format versions 1 and 2
/// step i is launch i.
typedef struct fusecc_step_info_t {
  fusecc_step_kind_t kind;
  /// FUSECC_STEP_LAUNCH: the launch index to pass to
  /// fusecc_bundle_launch_info (launches are numbered in step order, zero
  /// steps skipped). SIZE_MAX for other kinds.
  size_t launch_index;
  /// FUSECC_STEP_ZERO: the workspace set to zero. SIZE_MAX for other kinds.
  size_t workspace_index;
} fusecc_step_info_t;

/// What one kernel parameter of a launch passes.
typedef enum fusecc_param_kind_e {
  /// Entry argument `index` (a decimal token).
  FUSECC_PARAM_ARG = 0,
  /// Workspace `index` of the entry (a `w<k>` token).
  FUSECC_PARAM_WORKSPACE = 1,
  /// Module constant `index` (a `c<k>` token, format version 3).
  FUSECC_PARAM_CONST = 2,
} fusecc_param_kind_t;

/// One decoded kernel parameter.
typedef struct fusecc_param_info_t {
  fusecc_param_kind_t kind;
  size_t index;
} fusecc_param_info_t;

/// One module-level constant (format version 3): a tensor whose contents the
/// bundle's data section holds and that fusecc_module_load uploads once.
typedef struct fusecc_const_info_t {
  /// Position in the bundle's constant list (the k of `c<k>`).
  size_t index;
  /// The constant's name (e.g. an ONNX initializer's); owned by the bundle.
  const char *name;
  fusecc_dtype_t dtype;
  /// fusecc_dtype_name(dtype).
  const char *dtype_name;
  /// 0 .. FUSECC_MAX_RANK.
  size_t rank;
  /// Extents, row-major; entries past `rank` are 0.
  int64_t dims[FUSECC_MAX_RANK];
  /// Product of dims (1 for rank 0).
  size_t element_count;
  /// element_count * fusecc_dtype_size(dtype).
  size_t byte_size;
  /// Byte offset of the contents in the data section (a multiple of 16).
  uint64_t data_offset;
} fusecc_const_info_t;

/// Parses `size` bytes at `data` into a new bundle (reference count 1).
/// The data is copied; the caller may free it afterwards. Any deviation from
/// docs/bundle.md is a FUSECC_STATUS_PARSE_ERROR naming the line and what was
/// expected. Never reads outside [data, data + size).
fusecc_status_t fusecc_bundle_parse(const void *data, size_t size,
                                    fusecc_bundle_t *out_bundle);

/// Reads the file at `path` and parses it like fusecc_bundle_parse.
/// FUSECC_STATUS_IO_ERROR if it cannot be read; parse errors name the path.
fusecc_status_t fusecc_bundle_load_file(const char *path,
                                        fusecc_bundle_t *out_bundle);

/// Adds a reference to `bundle`; NULL is allowed.
void fusecc_bundle_retain(fusecc_bundle_t bundle);

/// Drops a reference to `bundle`, freeing it at zero; NULL is allowed.
void fusecc_bundle_release(fusecc_bundle_t bundle);

/// The target chip ("sm_90"); NULL for a NULL bundle.
const char *fusecc_bundle_chip(fusecc_bundle_t bundle);

/// The precision the PTX was compiled with (IEEE for a NULL bundle).
fusecc_precision_t fusecc_bundle_precision(fusecc_bundle_t bundle);

/// The NUL-terminated PTX text; its length without the NUL goes to
/// `out_size` when that is non-NULL. NULL for a NULL bundle.
const char *fusecc_bundle_ptx(fusecc_bundle_t bundle, size_t *out_size);

/// The number of entries (0 for a NULL bundle).
size_t fusecc_bundle_entry_count(fusecc_bundle_t bundle);

/// Describes entry `entry_index`.
fusecc_status_t fusecc_bundle_entry_info(fusecc_bundle_t bundle,
                                         size_t entry_index,
                                         fusecc_entry_info_t *out_info);

/// Finds the entry called `name`; FUSECC_STATUS_NOT_FOUND if there is none.
fusecc_status_t fusecc_bundle_find_entry(fusecc_bundle_t bundle,
                                         const char *name,
                                         size_t *out_entry_index);

/// Describes argument `arg_index` of entry `entry_index`.
fusecc_status_t fusecc_bundle_arg_info(fusecc_bundle_t bundle,
                                       size_t entry_index, size_t arg_index,
                                       fusecc_arg_info_t *out_info);

/// The number of outputs of entry `entry_index` (`arg_count - input_count`:
/// one per result of the graph function, in order). A function rather than
/// a field of fusecc_entry_info_t, whose layout callers mirror (ctypes).
/// INVALID_ARGUMENT for a NULL bundle or `out_count`; OUT_OF_RANGE for an
/// entry index past the end.
fusecc_status_t fusecc_bundle_output_count(fusecc_bundle_t bundle,
                                           size_t entry_index,
                                           size_t *out_count);

/// Describes output `output_index` of entry `entry_index` (0-based among the
/// outputs: argument `input_count + output_index`; its `index` field is the
/// argument index). INVALID_ARGUMENT for a NULL bundle or `out_info`;
/// OUT_OF_RANGE for an entry or output index past the end.
fusecc_status_t fusecc_bundle_output_info(fusecc_bundle_t bundle,
                                          size_t entry_index,
                                          size_t output_index,
                                          fusecc_arg_info_t *out_info);

/// Describes workspace `workspace_index` of entry `entry_index`.
/// INVALID_ARGUMENT for a NULL bundle or `out_info`; OUT_OF_RANGE for an
/// entry or workspace index past the end.
fusecc_status_t fusecc_bundle_workspace_info(fusecc_bundle_t bundle,
                                             size_t entry_index,
                                             size_t workspace_index,
                                             fusecc_workspace_info_t *out_info);

/// Describes launch `launch_index` of entry `entry_index`.
fusecc_status_t fusecc_bundle_launch_info(fusecc_bundle_t bundle,
                                          size_t entry_index,
                                          size_t launch_index,
                                          fusecc_launch_info_t *out_info);

/// The text after `graph ` of graph line `line_index` of entry `entry_index`,
/// NUL-terminated and owned by the bundle.
fusecc_status_t fusecc_bundle_graph_line(fusecc_bundle_t bundle,
                                         size_t entry_index, size_t line_index,
                                         const char **out_text);

/// The bundle's format version (1, 2 or 3).
/// INVALID_ARGUMENT for a NULL bundle or `out_version`.
fusecc_status_t fusecc_bundle_format_version(fusecc_bundle_t bundle,
                                             uint32_t *out_version);

/// The role of workspace `workspace_index` of entry `entry_index`
/// (FUSECC_WORKSPACE_ROLE_UNSPECIFIED in format version 2).
/// INVALID_ARGUMENT for a NULL bundle or `out_role`; OUT_OF_RANGE for an
/// entry or workspace index past the end.
fusecc_status_t fusecc_bundle_workspace_role(fusecc_bundle_t bundle,
                                             size_t entry_index,
                                             size_t workspace_index,
                                             fusecc_workspace_role_t *out_role);

/// The number of steps of entry `entry_index`: its `launch` and `zero`
/// records (equal to its launch count in format versions 1 and 2).
fusecc_status_t fusecc_bundle_step_count(fusecc_bundle_t bundle,
                                         size_t entry_index, size_t *out_count);

/// Describes step `step_index` of entry `entry_index`.
/// INVALID_ARGUMENT for a NULL bundle or `out_info`; OUT_OF_RANGE for an
/// entry or step index past the end.
fusecc_status_t fusecc_bundle_step_info(fusecc_bundle_t bundle,
                                        size_t entry_index, size_t step_index,
                                        fusecc_step_info_t *out_info);

/// Decodes parameter `param_index` of launch `launch_index` of entry
/// `entry_index` (see fusecc_launch_info_t.param_args).
fusecc_status_t fusecc_bundle_launch_param(fusecc_bundle_t bundle,
                                           size_t entry_index,
                                           size_t launch_index,
                                           size_t param_index,
                                           fusecc_param_info_t *out_info);

/// The number of module-level constants (0 before format version 3).
/// INVALID_ARGUMENT for a NULL bundle or `out_count`.
fusecc_status_t fusecc_bundle_const_count(fusecc_bundle_t bundle,
                                          size_t *out_count);

/// Describes constant `const_index`.
/// INVALID_ARGUMENT for a NULL bundle or `out_info`; OUT_OF_RANGE for an
/// index past the end.
fusecc_status_t fusecc_bundle_const_info(fusecc_bundle_t bundle,
                                         size_t const_index,
                                         fusecc_const_info_t *out_info);

/// The contents of constant `const_index`: its byte_size bytes in the
/// bundle's data section (little-endian), owned by the bundle.
fusecc_status_t fusecc_bundle_const_data(fusecc_bundle_t bundle,
                                         size_t const_index,
                                         const void **out_data);

/// Checks `args` against entry `entry_index` exactly as fusecc_module_launch
/// does before launching: `arg_count` equals the entry's argument count,
/// every `size_bytes` equals the argument's byte size, every `ptr` is
/// non-zero and 16-byte aligned, no buffer runs past the end of the 64-bit
/// address space, and no output overlaps another argument (kernels treat
/// their buffers as `noalias`; the test computes no end address, so it
/// cannot wrap). FUSECC_STATUS_INVALID_ARGUMENT
/// naming the argument otherwise. Workspaces are not arguments: the runtime
/// allocates them, so `args` never includes them. Needs no GPU.
fusecc_status_t fusecc_bundle_validate_args(fusecc_bundle_t bundle,
                                            size_t entry_index,
                                            const fusecc_buffer_t *args,
                                            size_t arg_count);

/*===----------------------------------------------------------------------===*
 * Dynamic batch (format version 4)
 *
 * An entry compiled with `fusecc --max-batch=N` serves every batch in
 * [1, N]: dim 0 of its batched arguments is the batch, given at each call.
 * The manifest records the sizes of one sample; the runtime scales the
 * batched arguments, the per-sample workspaces and the per-sample launches'
 * grid z by the batch (docs/bundle.md, "Version 4"). Static entries take
 * batch 0.
 *===----------------------------------------------------------------------===*/

/// The batch bound of entry `entry_index` (`--max-batch`), 0 for an entry
/// with static shapes.
fusecc_status_t fusecc_bundle_entry_max_batch(fusecc_bundle_t bundle,
                                              size_t entry_index,
                                              size_t *out_max_batch);

/// Whether dim 0 of argument `arg_index` of entry `entry_index` is the
/// batch (its arg info then describes one sample: dims[0] = 1).
fusecc_status_t fusecc_bundle_arg_batched(fusecc_bundle_t bundle,
                                          size_t entry_index, size_t arg_index,
                                          int *out_batched);

/*===----------------------------------------------------------------------===
 * Prepare steps (format version 3: `prepare <P>` on the entry line)
 *
 * The first P steps of an entry are its prepare steps: launches that read
 * only entry inputs and module constants (the weights) and write only the
 * entry's `prepared` workspaces (the weights re-laid out for the tensor
 * cores). Their result depends on the values of the inputs they read and
 * nothing else, so a call whose weights did not change since the last
 * prepare need not run them. Every call still runs them unless the module
 * is told otherwise (fusecc_module_set_reuse_prepared).
 *===----------------------------------------------------------------------===*/

/// The number of prepare steps of entry `entry_index` (0: none).
fusecc_status_t fusecc_bundle_entry_prepare_steps(fusecc_bundle_t bundle,
                                                  size_t entry_index,
                                                  size_t *out_count);

/// Whether a prepare step of entry `entry_index` reads argument
/// `arg_index`: the arguments whose values the prepared workspaces hold
/// (a caller keys its reuse decision on these). OUT_OF_RANGE for an index
/// past the end.
fusecc_status_t fusecc_bundle_arg_prepared(fusecc_bundle_t bundle,
                                           size_t entry_index, size_t arg_index,
                                           int *out_read);

/// The batch of a call of entry `entry_index` on arguments of the given
/// shapes (`ranks[i]` dims at `shapes[i]`, one per argument): dim 0 of the
/// batched arguments, which must agree and lie in [1, max_batch]; every
/// other dim must be the compiled one. 0 for a static entry (whose shapes
/// must all match). OUT_OF_RANGE naming the argument for a batch outside
/// the bound, INVALID_ARGUMENT naming the argument and dim otherwise.
fusecc_status_t fusecc_bundle_batch_of_shapes(fusecc_bundle_t bundle,
                                              size_t entry_index,
                                              const size_t *ranks,
                                              const int64_t *const *shapes,
                                              size_t arg_count,
                                              size_t *out_batch);

/// fusecc_bundle_validate_args at `batch`: each batched argument's
/// `size_bytes` must be `batch` times one sample's. `batch` must be in
/// [1, max_batch] for a dynamic entry (OUT_OF_RANGE otherwise) and 0 for a
/// static one; fusecc_bundle_validate_args is this with batch 0.
fusecc_status_t fusecc_bundle_validate_args_batch(fusecc_bundle_t bundle,
                                                  size_t entry_index,
                                                  size_t batch,
                                                  const fusecc_buffer_t *args,
                                                  size_t arg_count);

/*===----------------------------------------------------------------------===*
 * Modules
 *===----------------------------------------------------------------------===*/

/// A bundle's PTX loaded into a CUDA context, with every kernel resolved.
/// Reference counted; keeps its bundle alive.
typedef struct fusecc_module_s *fusecc_module_t;

/// Loads the PTX of `bundle` into the CUDA context current on the calling
/// thread, resolves every launch's kernel and raises the dynamic shared
/// memory limit of every kernel launched with dynamic shared memory to the
/// largest amount its launches ask for.
///
/// If no context is current, the primary context of device 0 is retained and
/// made current on the calling thread (as the CUDA runtime, and so PyTorch,
/// would do); the module keeps that reference until it is released.
///
/// Every module-level constant of a format-version-3 bundle is uploaded once
/// (cuMemAlloc + cuMemcpyHtoD, synchronous) and freed when the module is
/// released.
///
/// FUSECC_STATUS_UNAVAILABLE when the driver cannot be loaded, with a message
/// like "CUDA driver library libcuda.so.1 not found: ..." (or when it lacks
/// an entry point the bundle needs); CUDA_ERROR naming the driver call when
/// one fails (PTX JIT errors include the JIT log). On failure everything
/// already allocated is freed.
fusecc_status_t fusecc_module_load(fusecc_bundle_t bundle,
                                   fusecc_module_t *out_module);

/// Adds a reference to `module`; NULL is allowed.
void fusecc_module_retain(fusecc_module_t module);

/// Drops a reference to `module`; at zero the CUDA module is unloaded (in its
/// own context, pushed for the call) and the bundle released. NULL is allowed.
void fusecc_module_release(fusecc_module_t module);

/// The bundle `module` was loaded from (not retained for the caller).
fusecc_bundle_t fusecc_module_bundle(fusecc_module_t module);

/// The CUDA context `module` lives in.
CUcontext fusecc_module_context(fusecc_module_t module);

/// Validates `args` (see fusecc_bundle_validate_args), then enqueues every
/// step of entry `entry_index` in order on `stream` with no host
/// synchronisation: a launch passes the argument, workspace and constant
/// pointers its record names; a zero step (format version 3) sets its
/// workspace to 0 with cuMemsetD8Async(stream). Asynchronous: errors of the
/// kernels themselves surface at the next synchronization. The module's context
/// must be current on the calling thread.
///
/// An entry with workspaces gets each one allocated stream-ordered on
/// `stream` from the module's own memory pool (created at load time; it
/// keeps freed memory for the next call) before its first launch, and freed
/// with cuMemFreeAsync(stream)
/// after its last, so the memory lives exactly as long as this call's
/// kernels on `stream`; on any error the workspaces already allocated are
/// freed the same way. Workspace contents are undefined at the start of each
/// call. FUSECC_STATUS_UNAVAILABLE if the driver lacks stream-ordered
/// allocation (CUDA older than 11.2) and the entry has workspaces, or lacks
/// cuMemsetD8Async and the entry has a zero step. Every failing driver call
/// is reported as CUDA_ERROR naming the call, the entry and the step.
///
/// With the graph launch path on (the default where the driver has CUDA
/// graphs; see fusecc_module_set_launch_graphs), an entry with more than one
/// step or with workspaces is instead replayed as one CUDA graph per
/// (entry, stream), built at its first call on that stream: same steps in
/// the same order on `stream` (where prepared workspaces are reused, a
/// second graph leaves the prepare steps out:
/// fusecc_module_set_reuse_prepared), with workspaces the graph owns for the
/// life of the module (at most FUSECC_GRAPH_CACHE_SLOTS (entry, stream)
/// slots, 16, per module; evicting one synchronizes the context). A stream
/// that is capturing gets the steps directly. Releasing a module whose graphs
/// own workspaces synchronizes its context.
fusecc_status_t fusecc_module_launch(fusecc_module_t module, size_t entry_index,
                                     const fusecc_buffer_t *args,
                                     size_t arg_count, CUstream stream);

/// The device address of constant `const_index` in `module`'s context.
/// INVALID_ARGUMENT for a NULL module or `out_ptr`; OUT_OF_RANGE for an
/// index past the end.
fusecc_status_t fusecc_module_const_pointer(fusecc_module_t module,
                                            size_t const_index,
                                            CUdeviceptr *out_ptr);

/// fusecc_module_launch of the entry called `entry_name`.
fusecc_status_t fusecc_module_launch_by_name(fusecc_module_t module,
                                             const char *entry_name,
                                             const fusecc_buffer_t *args,
                                             size_t arg_count, CUstream stream);

/// fusecc_module_launch with one device pointer per argument of entry
/// `entry_index` (`pointer_count` of them, in argument order) and each
/// argument's byte size taken from the manifest, so the buffers are checked
/// exactly as there (null, alignment, overlap); the entry's argument count
/// must equal `pointer_count`. Unlike fusecc_module_launch it needs no
/// context current: when the module's context is not current on the calling
/// thread it is pushed for the call and popped after it. The cheapest launch
/// for bindings that checked shapes and dtypes themselves (one foreign call
/// per launch, no buffer structs to build).
fusecc_status_t fusecc_module_launch_pointers(fusecc_module_t module,
                                              size_t entry_index,
                                              const uint64_t *pointers,
                                              size_t pointer_count,
                                              CUstream stream);

/// fusecc_module_launch at `batch` (validated as by
/// fusecc_bundle_validate_args_batch): per-sample workspaces are allocated
/// `batch` slices long and per-sample launches get grid z = `batch`. The
/// graph launch path keys its graphs by (entry, stream, batch).
/// fusecc_module_launch is this with batch 0, so a dynamic entry needs one
/// of the batch or shape calls.
fusecc_status_t fusecc_module_launch_batch(fusecc_module_t module,
                                           size_t entry_index, size_t batch,
                                           const fusecc_buffer_t *args,
                                           size_t arg_count, CUstream stream);

/// fusecc_module_launch_pointers at `batch` (byte sizes from the manifest,
/// scaled by the batch for batched arguments).
fusecc_status_t fusecc_module_launch_pointers_batch(fusecc_module_t module,
                                                    size_t entry_index,
                                                    size_t batch,
                                                    const uint64_t *pointers,
                                                    size_t pointer_count,
                                                    CUstream stream);

/// The words of a fusecc_module_launch_packed record, in order; the
/// argument pointers start at FUSECC_PACKED_POINTERS.
enum {
  FUSECC_PACKED_MODULE = 0,   ///< The module (fusecc_module_t).
  FUSECC_PACKED_ENTRY = 1,    ///< The entry index.
  FUSECC_PACKED_BATCH = 2,    ///< The launch-time batch (0: static shapes).
  FUSECC_PACKED_STREAM = 3,   ///< The stream (CUstream).
  FUSECC_PACKED_COUNT = 4,    ///< The number of argument pointers.
  FUSECC_PACKED_POINTERS = 5, ///< The first argument pointer.
};

/// fusecc_module_launch_pointers_batch with all of its arguments in one
/// record of native 64-bit words (see FUSECC_PACKED_*: module, entry index,
/// batch, stream, pointer count N, then the N pointers): the same checks,
/// context handling and errors. For foreign-function bindings that pay per
/// argument converted (Python's ctypes: one pointer instead of five
/// integers per launch). INVALID_ARGUMENT for a NULL record; the module
/// word is trusted as the module argument of the other launch calls is.
fusecc_status_t fusecc_module_launch_packed(const uint64_t *record);

/// fusecc_module_launch_batch at the batch of the arguments' shapes
/// (fusecc_bundle_batch_of_shapes): the call that takes what the caller's
/// tensors are and says what does not fit.
fusecc_status_t fusecc_module_launch_shaped(fusecc_module_t module,
                                            size_t entry_index,
                                            const fusecc_buffer_t *args,
                                            const size_t *ranks,
                                            const int64_t *const *shapes,
                                            size_t arg_count, CUstream stream);

/// Launch-path counters of a module since it was loaded
/// (fusecc_module_launch_stats). New counters are appended.
typedef struct fusecc_launch_stats_t {
  /// Calls whose steps were enqueued one by one (cuLaunchKernel,
  /// cuMemsetD8Async, stream-ordered workspaces).
  uint64_t direct_calls;
  /// Calls replayed as one cuGraphLaunch.
  uint64_t graph_calls;
  /// Graphs built and instantiated (one per entry and stream used).
  uint64_t graph_builds;
  /// Replays whose argument pointers had changed, so kernel nodes were
  /// re-pointed with cuGraphExecKernelNodeSetParams first.
  uint64_t graph_updates;
  /// Graphs dropped to make room for another (entry, stream).
  uint64_t graph_evictions;
  /// Graph builds that failed (those calls were launched directly).
  uint64_t graph_build_failures;
  /// Executable graphs the module holds now (two for an (entry, stream)
  /// whose prepared workspaces were reused: with and without its prepare
  /// steps).
  uint64_t live_graphs;
  /// Graph-path calls that ran their entry's prepare steps (every call
  /// unless prepared workspaces are reused; the first call, and the calls
  /// after a change, when they are).
  uint64_t prepare_runs;
  /// Graph-path calls of an entry with prepare steps that skipped them,
  /// reusing the prepared workspaces.
  uint64_t prepare_reuses;
  /// Frozen weights (fusecc_module_set_frozen_weights): runs of the
  /// prepare steps into the module's frozen workspaces.
  uint64_t frozen_prepare_runs;
  /// Calls, on any path (a captured call included), that skipped their
  /// prepare steps and read the frozen workspaces.
  uint64_t frozen_calls;
  /// Calls under frozen weights on a capturing stream for which the frozen
  /// workspaces were not current: every step captured, as without frozen
  /// weights (the replays re-run the prepare steps).
  uint64_t frozen_misses;
} fusecc_launch_stats_t;

/// Turns the graph launch path of `module` on (`enabled` != 0, the default
/// unless FUSECC_LAUNCH_GRAPHS=0 was set at load) or off. With it on, an
/// entry with more than one step or with workspaces is built once per
/// (entry, stream) as a CUDA graph (kernel and memset nodes in step order,
/// with workspaces of its own) and each later call replays it with one
/// cuGraphLaunch on the caller's stream, re-pointing the kernel nodes whose
/// argument pointers changed. A call on a stream that is capturing (e.g.
/// under torch.compile's reduce-overhead mode) always enqueues its steps
/// directly, into the caller's capture. Graphs already built are kept
/// until release. INVALID_ARGUMENT for a NULL module; UNAVAILABLE when
/// enabling on a driver without the graph entry points.
fusecc_status_t fusecc_module_set_launch_graphs(fusecc_module_t module,
                                                int enabled);

/// Turns the reuse of prepared workspaces on (`enabled` != 0) or off (the
/// default). On the graph launch path an entry's graph holds its prepare
/// steps first and, with reuse off, is replayed whole at every call (one
/// cuGraphLaunch). With it on, a second graph of that (entry, stream) holds
/// the steps after them, on the same workspaces, and is replayed instead,
/// except at the slot's first call, when a pointer of an argument they read
/// differs from their last run there, and at the first call after
/// fusecc_module_invalidate_prepared: those replay the whole graph, so a
/// weight change costs no extra launch. The caller then
/// promises to call fusecc_module_invalidate_prepared after writing new
/// values in place into any argument a prepare step reads
/// (fusecc_bundle_arg_prepared), e.g. after an optimizer step or a weight
/// load: the runtime cannot see writes at the same address. Calls on the
/// direct path (graphs off, a capturing stream) run every step at every
/// call, so a captured call re-packs at each replay: a replay does not call
/// the runtime, which could not see a weight written in place between two
/// replays, and the capture's workspaces live for one replay.
/// INVALID_ARGUMENT for a NULL module.
fusecc_status_t fusecc_module_set_reuse_prepared(fusecc_module_t module,
                                                 int enabled);

/// Marks every prepared workspace of `module` stale: the next call of each
/// entry runs its prepare steps again (the call to make after updating
/// weights in place while reuse is on; the refresh of frozen weights). Cheap (one counter); safe to call
/// at any time from any thread. INVALID_ARGUMENT for a NULL module.
fusecc_status_t fusecc_module_invalidate_prepared(fusecc_module_t module);

/// Turns frozen weights on (`enabled` != 0) or off (the default): the
/// promise that the arguments the prepare steps read (the weights) keep
/// their values, as torch._inductor.config.freezing. Each entry's prepared
/// workspaces are then the module's (cuMemAlloc, freed at release),
/// prepared at its first call or by fusecc_module_prepare (the stream
/// synchronized once), and every later call skips the prepare steps on
/// every path, a capturing stream included, so a captured call replays
/// without them. A new pointer of a weight re-prepares;
/// fusecc_module_invalidate_prepared is the refresh after an in-place
/// write (while no call of the old values is in flight on another
/// stream). A capturing call that finds them stale captures every step
/// (frozen_misses). Overrides fusecc_module_set_reuse_prepared
/// (docs/design/runtime.md). INVALID_ARGUMENT for a NULL module;
/// UNAVAILABLE when enabling on a driver without cuMemAlloc, cuMemFree,
/// cuStreamSynchronize or cuStreamIsCapturing.
fusecc_status_t fusecc_module_set_frozen_weights(fusecc_module_t module,
                                                 int enabled);

/// The explicit prepare: the prepare steps of entry `entry_index` into the
/// frozen workspaces now, from `args` (validated as by
/// fusecc_module_launch_batch; outputs not written), on `stream`, which is
/// then synchronized. NULL for an entry without prepare steps.
/// INVALID_ARGUMENT for a NULL module, frozen weights off or a capturing
/// `stream`; launch errors otherwise. The module's context must be current.
fusecc_status_t fusecc_module_prepare(fusecc_module_t module,
                                      size_t entry_index, size_t batch,
                                      const fusecc_buffer_t *args,
                                      size_t arg_count, CUstream stream);

/// Copies the launch-path counters of `module` to `out_stats`.
/// INVALID_ARGUMENT for a NULL module or `out_stats`.
fusecc_status_t fusecc_module_launch_stats(fusecc_module_t module,
                                           fusecc_launch_stats_t *out_stats);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // FUSECC_RUNTIME_H
