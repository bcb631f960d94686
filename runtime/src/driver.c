/*===- driver.c - Dynamically loaded CUDA driver ------------------*- C -*-===//
 *
 * Loads libcuda.so.1 with dlopen on first use and resolves the driver entry
 * points the runtime needs, so the runtime links and runs (minus module
 * loading) on machines without a CUDA driver.
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The driver library opened when $FUSECC_CUDA_DRIVER_LIBRARY is unset.
#define FUSECC_DEFAULT_DRIVER_LIBRARY "libcuda.so.1"

static pthread_once_t driver_once = PTHREAD_ONCE_INIT;
static fusecc_driver_t driver_table;
/// UNAVAILABLE reason, empty on success.
static char driver_error[512];
/// The result of cuInit(0) once the library is loaded.
static CUresult driver_init_result = CUDA_SUCCESS;

/// One symbol to resolve: its exported name and where the pointer goes.
typedef struct symbol_s {
  const char *name;
  void **slot;
} symbol_t;

static void load_driver(void) {
  const char *library = getenv("FUSECC_CUDA_DRIVER_LIBRARY");
  if (!library || !*library)
    library = FUSECC_DEFAULT_DRIVER_LIBRARY;
  void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    snprintf(driver_error, sizeof(driver_error),
             "CUDA driver library %s not found: %s", library,
             reason ? reason : "dlopen failed");
    return;
  }
  // Exported names: cuda.h maps several API names onto versioned symbols.
  const symbol_t symbols[] = {
      {"cuInit", (void **)&driver_table.cuInit},
      {"cuGetErrorName", (void **)&driver_table.cuGetErrorName},
      {"cuGetErrorString", (void **)&driver_table.cuGetErrorString},
      {"cuDeviceGet", (void **)&driver_table.cuDeviceGet},
      {"cuDevicePrimaryCtxRetain",
       (void **)&driver_table.cuDevicePrimaryCtxRetain},
      {"cuDevicePrimaryCtxRelease_v2",
       (void **)&driver_table.cuDevicePrimaryCtxRelease},
      {"cuCtxGetCurrent", (void **)&driver_table.cuCtxGetCurrent},
      {"cuCtxSetCurrent", (void **)&driver_table.cuCtxSetCurrent},
      {"cuCtxPushCurrent_v2", (void **)&driver_table.cuCtxPushCurrent},
      {"cuCtxPopCurrent_v2", (void **)&driver_table.cuCtxPopCurrent},
      {"cuModuleLoadDataEx", (void **)&driver_table.cuModuleLoadDataEx},
      {"cuModuleUnload", (void **)&driver_table.cuModuleUnload},
      {"cuModuleGetFunction", (void **)&driver_table.cuModuleGetFunction},
      {"cuFuncSetAttribute", (void **)&driver_table.cuFuncSetAttribute},
      {"cuLaunchKernel", (void **)&driver_table.cuLaunchKernel},
  };
  for (size_t i = 0; i < sizeof(symbols) / sizeof(symbols[0]); ++i) {
    void *address = dlsym(handle, symbols[i].name);
    if (!address) {
      snprintf(driver_error, sizeof(driver_error),
               "CUDA driver library %s lacks the entry point %s", library,
               symbols[i].name);
      dlclose(handle);
      memset(&driver_table, 0, sizeof(driver_table));
      return;
    }
    *symbols[i].slot = address;
  }
  // Optional entry points: left NULL when missing; the launch of an entry
  // that needs one reports UNAVAILABLE then.
  const symbol_t optional_symbols[] = {
      {"cuMemAllocAsync", (void **)&driver_table.cuMemAllocAsync},
      {"cuMemFreeAsync", (void **)&driver_table.cuMemFreeAsync},
      {"cuCtxGetDevice", (void **)&driver_table.cuCtxGetDevice},
      {"cuMemPoolCreate", (void **)&driver_table.cuMemPoolCreate},
      {"cuMemPoolDestroy", (void **)&driver_table.cuMemPoolDestroy},
      {"cuMemPoolSetAttribute", (void **)&driver_table.cuMemPoolSetAttribute},
      {"cuMemAllocFromPoolAsync",
       (void **)&driver_table.cuMemAllocFromPoolAsync},
      {"cuMemAlloc_v2", (void **)&driver_table.cuMemAlloc},
      {"cuMemcpyHtoD_v2", (void **)&driver_table.cuMemcpyHtoD},
      {"cuMemFree_v2", (void **)&driver_table.cuMemFree},
      {"cuMemsetD8Async", (void **)&driver_table.cuMemsetD8Async},
      {"cuStreamIsCapturing", (void **)&driver_table.cuStreamIsCapturing},
      {"cuGraphCreate", (void **)&driver_table.cuGraphCreate},
      {"cuGraphAddKernelNode_v2", (void **)&driver_table.cuGraphAddKernelNode},
      {"cuGraphAddMemsetNode", (void **)&driver_table.cuGraphAddMemsetNode},
      {"cuGraphInstantiateWithFlags",
       (void **)&driver_table.cuGraphInstantiate},
      {"cuGraphExecKernelNodeSetParams_v2",
       (void **)&driver_table.cuGraphExecKernelNodeSetParams},
      {"cuGraphLaunch", (void **)&driver_table.cuGraphLaunch},
      {"cuGraphExecDestroy", (void **)&driver_table.cuGraphExecDestroy},
      {"cuGraphDestroy", (void **)&driver_table.cuGraphDestroy},
      {"cuCtxSynchronize", (void **)&driver_table.cuCtxSynchronize},
      {"cuStreamSynchronize", (void **)&driver_table.cuStreamSynchronize},
  };
  for (size_t i = 0; i < sizeof(optional_symbols) / sizeof(optional_symbols[0]);
       ++i)
    *optional_symbols[i].slot = dlsym(handle, optional_symbols[i].name);
  // The handle stays open for the life of the process.
  driver_init_result = driver_table.cuInit(0);
}

fusecc_status_t fusecc_driver_get(const fusecc_driver_t **out_driver) {
  pthread_once(&driver_once, load_driver);
  if (driver_error[0])
    return fusecc_make_status(FUSECC_STATUS_UNAVAILABLE, "%s", driver_error);
  if (driver_init_result != CUDA_SUCCESS)
    return fusecc_cuda_status(&driver_table, driver_init_result, "cuInit");
  *out_driver = &driver_table;
  return NULL;
}

fusecc_status_t fusecc_cuda_status(const fusecc_driver_t *driver,
                                   CUresult result, const char *call) {
  if (result == CUDA_SUCCESS)
    return NULL;
  const char *name = NULL;
  const char *description = NULL;
  if (driver->cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = "unrecognized CUresult";
  if (driver->cuGetErrorString(result, &description) != CUDA_SUCCESS ||
      !description)
    description = "no description";
  return fusecc_make_status(FUSECC_STATUS_CUDA_ERROR, "%s failed: %s (%d): %s",
                            call, name, (int)result, description);
}

int fusecc_driver_has_graphs(const fusecc_driver_t *driver) {
  return driver->cuStreamIsCapturing && driver->cuGraphCreate &&
         driver->cuGraphAddKernelNode && driver->cuGraphAddMemsetNode &&
         driver->cuGraphInstantiate && driver->cuGraphExecKernelNodeSetParams &&
         driver->cuGraphLaunch && driver->cuGraphExecDestroy &&
         driver->cuGraphDestroy && driver->cuCtxSynchronize &&
         driver->cuMemAlloc && driver->cuMemFree;
}
