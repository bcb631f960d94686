/*===- fake_cuda.c - A scripted stand-in for libcuda.so.1 ---------*- C -*-===//
 *
 * Exports the CUDA driver entry points the runtime resolves (driver.c), with
 * no GPU behind them: contexts, modules and kernels are dummies, device
 * memory is handed out from fake address ranges, and every call that
 * touches a stream (cuMemAllocAsync, cuLaunchKernel, cuMemsetD8Async,
 * cuMemFreeAsync) or device memory (cuMemAlloc, cuMemcpyHtoD, cuMemFree) is
 * appended to a text log with its arguments. launch_test.c points
 * FUSECC_CUDA_DRIVER_LIBRARY here and reads the log (and injects failures,
 * by call name, fake_cuda_fail_call) through the fake_cuda_* functions
 * below.
 *
 * A kernel's parameter count comes from its name: "<anything>_p<N>" takes N
 * device pointers, which cuLaunchKernel logs.
 *
 *===----------------------------------------------------------------------===*/

#include <cuda.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// cuda.h only declares these; the fake gives them bodies.
struct CUctx_st {
  int unused;
};
struct CUmod_st {
  int unused;
};
struct CUfunc_st {
  char name[64];
};

/// The first address cuMemAllocAsync returns after fake_cuda_reset; each
/// allocation takes the next 1 MiB.
#define FAKE_HEAP_BASE 0x10000000ull
#define FAKE_HEAP_STEP 0x100000ull
#define FAKE_MAX_FUNCTIONS 256

static struct CUctx_st fake_context;
static struct CUmod_st fake_module;
static struct CUfunc_st functions[FAKE_MAX_FUNCTIONS];
static int function_count;

/// Addresses cuMemAlloc (constants) hands out, 64 KiB apart.
#define FAKE_CONST_BASE 0x20000000ull
#define FAKE_CONST_STEP 0x10000ull

static char log_text[65536];
static size_t log_length;
static int fail_alloc_at = -1, fail_launch_at = -1, fail_free_at = -1;
static int alloc_calls, launch_calls, free_calls, live_allocations;
static unsigned long long next_address = FAKE_HEAP_BASE;
static unsigned long long next_const_address = FAKE_CONST_BASE;
static int live_const_allocations;

/// Failures injected by name: the `nth` (0-based) call of `call` since the
/// last reset returns `result`.
#define FAKE_MAX_INJECTIONS 4
static struct {
  char call[48];
  int nth;
  int seen;
  CUresult result;
} injections[FAKE_MAX_INJECTIONS];
static int injection_count;

/// Whether this call of `call` is to fail; counts the call.
static CUresult injected(const char *call) {
  for (int i = 0; i < injection_count; ++i)
    if (strcmp(injections[i].call, call) == 0 &&
        injections[i].seen++ == injections[i].nth)
      return injections[i].result;
  return CUDA_SUCCESS;
}

static void log_line(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static void log_line(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  int n = vsnprintf(log_text + log_length, sizeof(log_text) - log_length, fmt,
                    args);
  va_end(args);
  if (n > 0 && (size_t)n < sizeof(log_text) - log_length)
    log_length += (size_t)n;
}

/*===----------------------------------------------------------------------===*
 * Control (called by the test)
 *===----------------------------------------------------------------------===*/

/// Clears the log and counters; the Nth (0-based) call of cuMemAllocAsync,
/// cuLaunchKernel or cuMemFreeAsync fails from now on (-1: never).
void fake_cuda_reset(int alloc_failure, int launch_failure, int free_failure) {
  log_text[0] = '\0';
  log_length = 0;
  fail_alloc_at = alloc_failure;
  fail_launch_at = launch_failure;
  fail_free_at = free_failure;
  alloc_calls = launch_calls = free_calls = live_allocations = 0;
  next_address = FAKE_HEAP_BASE;
  next_const_address = FAKE_CONST_BASE;
  injection_count = 0;
}

/// Makes the `nth` (0-based) call of driver entry point `call` (its API
/// name, e.g. "cuMemcpyHtoD") after the last reset fail with `result`. At
/// most FAKE_MAX_INJECTIONS at a time; fake_cuda_reset clears them.
void fake_cuda_fail_call(const char *call, int nth, int result) {
  if (injection_count == FAKE_MAX_INJECTIONS ||
      strlen(call) >= sizeof(injections[0].call))
    return;
  strcpy(injections[injection_count].call, call);
  injections[injection_count].nth = nth;
  injections[injection_count].seen = 0;
  injections[injection_count].result = (CUresult)result;
  ++injection_count;
}

/// cuMemAlloc buffers not freed with cuMemFree (not reset by
/// fake_cuda_reset: constants outlive launches).
int fake_cuda_live_const_allocations(void) { return live_const_allocations; }

/// Whether a kernel's name gives its pointer count.
static int trust_param_names = 1;

/// Whether launches and kernel nodes read "_p<N>" pointers from their
/// parameters (`on` != 0, the default); a fuzzer whose kernel names come
/// from its input turns it off.
void fake_cuda_trust_param_names(int on) { trust_param_names = on; }

/// The pointer count a kernel's name gives, 0 unless trusted.
static int param_count_of(const char *name) {
  const char *suffix = strrchr(name, 'p');
  return trust_param_names && suffix ? atoi(suffix + 1) : 0;
}

/// The log since the last reset: one line per stream call.
const char *fake_cuda_log(void) { return log_text; }

/// Allocations not (successfully) freed since the last reset.
int fake_cuda_live_allocations(void) { return live_allocations; }

/*===----------------------------------------------------------------------===*
 * Driver entry points
 *===----------------------------------------------------------------------===*/

CUresult CUDAAPI cuInit(unsigned int flags) {
  (void)flags;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGetErrorName(CUresult error, const char **out) {
  switch (error) {
  case CUDA_ERROR_OUT_OF_MEMORY:
    *out = "CUDA_ERROR_OUT_OF_MEMORY";
    return CUDA_SUCCESS;
  case CUDA_ERROR_LAUNCH_FAILED:
    *out = "CUDA_ERROR_LAUNCH_FAILED";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_VALUE:
    *out = "CUDA_ERROR_INVALID_VALUE";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_PTX:
    *out = "CUDA_ERROR_INVALID_PTX";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NOT_FOUND:
    *out = "CUDA_ERROR_NOT_FOUND";
    return CUDA_SUCCESS;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult CUDAAPI cuGetErrorString(CUresult error, const char **out) {
  (void)error;
  *out = "injected by fake_cuda";
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal) {
  CUresult result = injected("cuDeviceGet");
  if (result != CUDA_SUCCESS)
    return result;
  *device = ordinal;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice device) {
  (void)device;
  CUresult result = injected("cuDevicePrimaryCtxRetain");
  if (result != CUDA_SUCCESS)
    return result;
  *context = &fake_context;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice device) {
  (void)device;
  return CUDA_SUCCESS;
}

static int no_current_context;

/// Makes cuCtxGetCurrent report no current context (`none` != 0), so a load
/// takes the primary-context path.
void fake_cuda_set_no_current_context(int none) { no_current_context = none; }

CUresult CUDAAPI cuCtxGetCurrent(CUcontext *context) {
  CUresult result = injected("cuCtxGetCurrent");
  if (result != CUDA_SUCCESS)
    return result;
  *context = no_current_context ? NULL : &fake_context;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSetCurrent(CUcontext context) {
  (void)context;
  return injected("cuCtxSetCurrent");
}

static int context_pushes, context_pops;

/// How many cuCtxPushCurrent and cuCtxPopCurrent calls succeeded so far (not
/// reset by fake_cuda_reset).
void fake_cuda_context_calls(int *pushes, int *pops) {
  *pushes = context_pushes;
  *pops = context_pops;
}

CUresult CUDAAPI cuCtxPushCurrent(CUcontext context) {
  (void)context;
  CUresult result = injected("cuCtxPushCurrent");
  if (result == CUDA_SUCCESS)
    ++context_pushes;
  return result;
}

CUresult CUDAAPI cuCtxPopCurrent(CUcontext *context) {
  *context = &fake_context;
  ++context_pops;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *module, const void *image,
                                    unsigned int count, CUjit_option *options,
                                    void **values) {
  (void)image;
  CUresult result = injected("cuModuleLoadDataEx");
  if (result != CUDA_SUCCESS) {
    // Fill the JIT error log the runtime passed, as the driver does.
    for (unsigned i = 0; i + 1 < count; ++i)
      if (options[i] == CU_JIT_ERROR_LOG_BUFFER &&
          options[i + 1] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES &&
          (uintptr_t)values[i + 1] > 32)
        strcpy((char *)values[i], "ptxas fatal: injected");
    return result;
  }
  *module = &fake_module;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleUnload(CUmodule module) {
  (void)module;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleGetFunction(CUfunction *function, CUmodule module,
                                     const char *name) {
  (void)module;
  CUresult result = injected("cuModuleGetFunction");
  if (result != CUDA_SUCCESS)
    return result;
  for (int i = 0; i < function_count; ++i)
    if (strcmp(functions[i].name, name) == 0) {
      *function = &functions[i];
      return CUDA_SUCCESS;
    }
  if (function_count == FAKE_MAX_FUNCTIONS ||
      strlen(name) >= sizeof(functions[0].name))
    return CUDA_ERROR_INVALID_VALUE;
  strcpy(functions[function_count].name, name);
  *function = &functions[function_count++];
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncSetAttribute(CUfunction function,
                                    CUfunction_attribute attribute, int value) {
  (void)attribute;
  CUresult result = injected("cuFuncSetAttribute");
  log_line("setattr %s smem %d%s\n", function->name, value,
           result == CUDA_SUCCESS ? "" : " FAILED");
  return result;
}

/// Whether launch lines also log the grid (fake_cuda_log_grids).
static int log_grids;

/// Launch lines log " grid X Y Z" after the stream from now on if `on`.
void fake_cuda_log_grids(int on) { log_grids = on; }

CUresult CUDAAPI cuLaunchKernel(CUfunction function, unsigned int gx,
                                unsigned int gy, unsigned int gz,
                                unsigned int bx, unsigned int by,
                                unsigned int bz, unsigned int smem,
                                CUstream stream, void **params, void **extra) {
  (void)bx, (void)by, (void)bz, (void)smem;
  (void)extra;
  if (launch_calls++ == fail_launch_at) {
    log_line("launch %s s%llu FAILED\n", function->name,
             (unsigned long long)(uintptr_t)stream);
    return CUDA_ERROR_LAUNCH_FAILED;
  }
  int count = param_count_of(function->name);
  log_line("launch %s s%llu", function->name,
           (unsigned long long)(uintptr_t)stream);
  if (log_grids)
    log_line(" grid %u %u %u", gx, gy, gz);
  for (int i = 0; i < count; ++i)
    log_line(" 0x%llx", (unsigned long long)*(CUdeviceptr *)params[i]);
  log_line("\n");
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr *pointer, size_t bytes,
                                 CUstream stream) {
  if (alloc_calls++ == fail_alloc_at) {
    log_line("alloc %zu s%llu FAILED\n", bytes,
             (unsigned long long)(uintptr_t)stream);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  *pointer = (CUdeviceptr)next_address;
  next_address += FAKE_HEAP_STEP;
  ++live_allocations;
  log_line("alloc %zu s%llu -> 0x%llx\n", bytes,
           (unsigned long long)(uintptr_t)stream, (unsigned long long)*pointer);
  return CUDA_SUCCESS;
}

static struct CUmemPoolHandle_st *fake_pool = (struct CUmemPoolHandle_st *)0x70;
static int pools_created, pools_destroyed;
static unsigned long long pool_threshold;

CUresult CUDAAPI cuCtxGetDevice(CUdevice *device) {
  CUresult result = injected("cuCtxGetDevice");
  if (result != CUDA_SUCCESS)
    return result;
  *device = 0;
  return CUDA_SUCCESS;
}

static int fail_pool_create;

/// Makes cuMemPoolCreate fail (`fail` != 0), as on devices without
/// memory-pool support.
void fake_cuda_fail_pool_create(int fail) { fail_pool_create = fail; }

CUresult CUDAAPI cuMemPoolCreate(CUmemoryPool *pool,
                                 const CUmemPoolProps *props) {
  if (fail_pool_create)
    return CUDA_ERROR_NOT_SUPPORTED;
  if (props->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
    return CUDA_ERROR_INVALID_VALUE;
  *pool = fake_pool;
  ++pools_created;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemPoolDestroy(CUmemoryPool pool) {
  if (pool != fake_pool)
    return CUDA_ERROR_INVALID_VALUE;
  ++pools_destroyed;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemPoolSetAttribute(CUmemoryPool pool,
                                       CUmemPool_attribute attribute,
                                       void *value) {
  if (pool != fake_pool || attribute != CU_MEMPOOL_ATTR_RELEASE_THRESHOLD)
    return CUDA_ERROR_INVALID_VALUE;
  pool_threshold = *(cuuint64_t *)value;
  return CUDA_SUCCESS;
}

/// Pools created and destroyed so far, and the last release threshold set.
void fake_cuda_pool_state(int *created, int *destroyed,
                          unsigned long long *threshold) {
  *created = pools_created;
  *destroyed = pools_destroyed;
  *threshold = pool_threshold;
}

CUresult CUDAAPI cuMemAllocFromPoolAsync(CUdeviceptr *pointer, size_t bytes,
                                         CUmemoryPool pool, CUstream stream) {
  if (pool != fake_pool)
    return CUDA_ERROR_INVALID_VALUE;
  return cuMemAllocAsync(pointer, bytes, stream);
}

CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr pointer, CUstream stream) {
  if (free_calls++ == fail_free_at) {
    log_line("free 0x%llx s%llu FAILED\n", (unsigned long long)pointer,
             (unsigned long long)(uintptr_t)stream);
    return CUDA_ERROR_INVALID_VALUE;
  }
  --live_allocations;
  log_line("free 0x%llx s%llu\n", (unsigned long long)pointer,
           (unsigned long long)(uintptr_t)stream);
  return CUDA_SUCCESS;
}

/*===----------------------------------------------------------------------===*
 * Constants (cuMemAlloc, cuMemcpyHtoD, cuMemFree) and zero steps
 *===----------------------------------------------------------------------===*/

CUresult CUDAAPI cuMemAlloc(CUdeviceptr *pointer, size_t bytes) {
  CUresult result = injected("cuMemAlloc");
  if (result != CUDA_SUCCESS) {
    log_line("memalloc %zu FAILED\n", bytes);
    return result;
  }
  *pointer = (CUdeviceptr)next_const_address;
  next_const_address += FAKE_CONST_STEP;
  ++live_const_allocations;
  log_line("memalloc %zu -> 0x%llx\n", bytes, (unsigned long long)*pointer);
  return CUDA_SUCCESS;
}

/// Logs the destination, the size and the first (at most 16) bytes in hex.
CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr destination, const void *source,
                              size_t bytes) {
  CUresult result = injected("cuMemcpyHtoD");
  log_line("htod 0x%llx %zu", (unsigned long long)destination, bytes);
  for (size_t i = 0; i < bytes && i < 16; ++i)
    log_line("%s%02x", i ? "" : " ", ((const unsigned char *)source)[i]);
  log_line("%s\n", result == CUDA_SUCCESS ? "" : " FAILED");
  return result;
}

CUresult CUDAAPI cuMemFree(CUdeviceptr pointer) {
  CUresult result = injected("cuMemFree");
  if (result == CUDA_SUCCESS)
    --live_const_allocations;
  log_line("memfree 0x%llx%s\n", (unsigned long long)pointer,
           result == CUDA_SUCCESS ? "" : " FAILED");
  return result;
}

CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr pointer, unsigned char value,
                                 size_t count, CUstream stream) {
  CUresult result = injected("cuMemsetD8Async");
  log_line("memset 0x%llx %u %zu s%llu%s\n", (unsigned long long)pointer,
           (unsigned)value, count, (unsigned long long)(uintptr_t)stream,
           result == CUDA_SUCCESS ? "" : " FAILED");
  return result;
}

/*===----------------------------------------------------------------------===*
 * Graphs (launch_graph.c): built, instantiated, re-pointed and replayed
 *===----------------------------------------------------------------------===*/

#define FAKE_MAX_GRAPHS 64
#define FAKE_MAX_NODES 32 // bench/launch_overhead.py --fake: 21-step entries
#define FAKE_MAX_NODE_PARAMS 8

/// One node: a kernel (its name, grid and pointer values) or a memset.
struct CUgraphNode_st {
  int is_memset;
  const char *kernel;
  unsigned grid[3];
  int param_count;
  unsigned long long params[FAKE_MAX_NODE_PARAMS];
  unsigned long long dst;
  size_t bytes;
  int dependencies;
};

struct CUgraph_st {
  int id;
  int live;
  int node_count;
  struct CUgraphNode_st nodes[FAKE_MAX_NODES];
};

/// An instantiated graph: a copy of its graph's nodes.
struct CUgraphExec_st {
  int id;
  int live;
  struct CUgraph_st *graph;
  int node_count;
  struct CUgraphNode_st nodes[FAKE_MAX_NODES];
};

static struct CUgraph_st graphs[FAKE_MAX_GRAPHS];
static struct CUgraphExec_st execs[FAKE_MAX_GRAPHS];
static int graph_count, exec_count;
static CUstream capturing_stream;
static int any_capturing;

/// Makes cuStreamIsCapturing report ACTIVE for `stream` (`on` != 0) or for
/// none.
void fake_cuda_set_capturing(CUstream stream, int on) {
  capturing_stream = stream;
  any_capturing = on;
}

/// Graphs and executable graphs created and not destroyed.
void fake_cuda_live_graphs(int *live_graphs, int *live_execs) {
  *live_graphs = *live_execs = 0;
  for (int i = 0; i < graph_count; ++i)
    *live_graphs += graphs[i].live;
  for (int i = 0; i < exec_count; ++i)
    *live_execs += execs[i].live;
}

CUresult CUDAAPI cuStreamIsCapturing(CUstream stream,
                                     CUstreamCaptureStatus *status) {
  CUresult result = injected("cuStreamIsCapturing");
  if (result != CUDA_SUCCESS)
    return result;
  *status = any_capturing && stream == capturing_stream
                ? CU_STREAM_CAPTURE_STATUS_ACTIVE
                : CU_STREAM_CAPTURE_STATUS_NONE;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSynchronize(void) {
  log_line("sync\n");
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamSynchronize(CUstream stream) {
  CUresult result = injected("cuStreamSynchronize");
  log_line("streamsync s%llu%s\n", (unsigned long long)(uintptr_t)stream,
           result == CUDA_SUCCESS ? "" : " FAILED");
  return result;
}

CUresult CUDAAPI cuGraphCreate(CUgraph *graph, unsigned int flags) {
  (void)flags;
  CUresult result = injected("cuGraphCreate");
  if (result != CUDA_SUCCESS)
    return result;
  if (graph_count == FAKE_MAX_GRAPHS)
    return CUDA_ERROR_OUT_OF_MEMORY;
  struct CUgraph_st *g = &graphs[graph_count];
  memset(g, 0, sizeof(*g));
  g->id = ++graph_count;
  g->live = 1;
  *graph = g;
  log_line("graph g%d\n", g->id);
  return CUDA_SUCCESS;
}

/// Appends a copy of `node` to `graph`; logs it.
static CUresult add_node(CUgraphNode *out, CUgraph graph,
                         struct CUgraphNode_st node, size_t dependencies) {
  if (graph->node_count == FAKE_MAX_NODES)
    return CUDA_ERROR_OUT_OF_MEMORY;
  node.dependencies = (int)dependencies;
  graph->nodes[graph->node_count] = node;
  *out = &graph->nodes[graph->node_count++];
  return CUDA_SUCCESS;
}

/// A kernel node's contents from its parameters (pointer count from the
/// kernel's name, as cuLaunchKernel does).
static struct CUgraphNode_st kernel_node(const CUDA_KERNEL_NODE_PARAMS *p) {
  struct CUgraphNode_st node;
  memset(&node, 0, sizeof(node));
  node.kernel = p->func->name;
  node.grid[0] = p->gridDimX, node.grid[1] = p->gridDimY;
  node.grid[2] = p->gridDimZ;
  node.param_count = param_count_of(p->func->name);
  if (node.param_count > FAKE_MAX_NODE_PARAMS)
    node.param_count = FAKE_MAX_NODE_PARAMS;
  for (int i = 0; i < node.param_count; ++i)
    node.params[i] = *(CUdeviceptr *)p->kernelParams[i];
  return node;
}

static void log_node(const struct CUgraphNode_st *node) {
  if (node->is_memset) {
    log_line("memset 0x%llx %zu", node->dst, node->bytes);
    return;
  }
  log_line("%s", node->kernel);
  if (log_grids)
    log_line(" grid %u %u %u", node->grid[0], node->grid[1], node->grid[2]);
  for (int i = 0; i < node->param_count; ++i)
    log_line(" 0x%llx", node->params[i]);
}

CUresult CUDAAPI cuGraphAddKernelNode(CUgraphNode *out, CUgraph graph,
                                      const CUgraphNode *dependencies,
                                      size_t count,
                                      const CUDA_KERNEL_NODE_PARAMS *params) {
  (void)dependencies;
  CUresult result = injected("cuGraphAddKernelNode");
  if (result != CUDA_SUCCESS)
    return result;
  result = add_node(out, graph, kernel_node(params), count);
  if (result == CUDA_SUCCESS) {
    log_line("node g%d ", graph->id);
    log_node(*out);
    log_line(" after %zu\n", count);
  }
  return result;
}

CUresult CUDAAPI cuGraphAddMemsetNode(CUgraphNode *out, CUgraph graph,
                                      const CUgraphNode *dependencies,
                                      size_t count,
                                      const CUDA_MEMSET_NODE_PARAMS *params,
                                      CUcontext context) {
  (void)dependencies, (void)context;
  CUresult result = injected("cuGraphAddMemsetNode");
  if (result != CUDA_SUCCESS)
    return result;
  if (params->elementSize != 1 || params->height != 1 || params->value != 0)
    return CUDA_ERROR_INVALID_VALUE;
  struct CUgraphNode_st node;
  memset(&node, 0, sizeof(node));
  node.is_memset = 1;
  node.dst = params->dst;
  node.bytes = params->width;
  result = add_node(out, graph, node, count);
  if (result == CUDA_SUCCESS) {
    log_line("node g%d ", graph->id);
    log_node(*out);
    log_line(" after %zu\n", count);
  }
  return result;
}

CUresult CUDAAPI cuGraphInstantiateWithFlags(CUgraphExec *exec, CUgraph graph,
                                             unsigned long long flags) {
  (void)flags;
  CUresult result = injected("cuGraphInstantiate");
  if (result != CUDA_SUCCESS)
    return result;
  if (exec_count == FAKE_MAX_GRAPHS)
    return CUDA_ERROR_OUT_OF_MEMORY;
  struct CUgraphExec_st *e = &execs[exec_count];
  e->id = ++exec_count;
  e->live = 1;
  e->graph = graph;
  e->node_count = graph->node_count;
  memcpy(e->nodes, graph->nodes, sizeof(e->nodes));
  *exec = e;
  log_line("instantiate g%d -> e%d\n", graph->id, e->id);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphExecKernelNodeSetParams(
    CUgraphExec exec, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS *params) {
  CUresult result = injected("cuGraphExecKernelNodeSetParams");
  if (result != CUDA_SUCCESS)
    return result;
  long index = node - exec->graph->nodes;
  if (index < 0 || index >= exec->node_count || node->is_memset)
    return CUDA_ERROR_INVALID_VALUE;
  exec->nodes[index] = kernel_node(params);
  log_line("setparams e%d ", exec->id);
  log_node(&exec->nodes[index]);
  log_line("\n");
  return CUDA_SUCCESS;
}

/// Logs the replay, then each node as it would run.
CUresult CUDAAPI cuGraphLaunch(CUgraphExec exec, CUstream stream) {
  CUresult result = injected("cuGraphLaunch");
  log_line("graphlaunch e%d s%llu%s\n", exec->id,
           (unsigned long long)(uintptr_t)stream,
           result == CUDA_SUCCESS ? "" : " FAILED");
  if (result != CUDA_SUCCESS)
    return result;
  for (int i = 0; i < exec->node_count; ++i) {
    log_line("  ");
    log_node(&exec->nodes[i]);
    log_line("\n");
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphExecDestroy(CUgraphExec exec) {
  exec->live = 0;
  log_line("destroy e%d\n", exec->id);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphDestroy(CUgraph graph) {
  graph->live = 0;
  log_line("destroy g%d\n", graph->id);
  return CUDA_SUCCESS;
}

/// Forgets every kernel, graph and executable graph handed out (their
/// tables are not reset by fake_cuda_reset): a fuzzer's fresh start between
/// inputs, with no module loaded.
void fake_cuda_forget(void) {
  function_count = 0;
  graph_count = exec_count = 0;
  memset(graphs, 0, sizeof(graphs));
  memset(execs, 0, sizeof(execs));
}
