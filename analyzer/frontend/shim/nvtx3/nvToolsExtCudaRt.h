/* nvtx3/nvToolsExtCudaRt.h: stand-in for the NVTX header of this name: naming CUDA runtime streams, events and devices. */
#pragma clang system_header
#ifndef NVTOOLSEXT_CUDART_V3
#define NVTOOLSEXT_CUDART_V3
#include <nvtx3/nvToolsExt.h>
#include "cudalint_cuda.h"

extern "C" {
void nvtxNameCudaDeviceA(int device, const char *name);
void nvtxNameCudaStreamA(cudaStream_t stream, const char *name);
void nvtxNameCudaEventA(cudaEvent_t event, const char *name);
}
#define nvtxNameCudaDevice nvtxNameCudaDeviceA
#define nvtxNameCudaStream nvtxNameCudaStreamA
#define nvtxNameCudaEvent nvtxNameCudaEventA

#endif
