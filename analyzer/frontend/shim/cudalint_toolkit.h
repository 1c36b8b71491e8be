/* cudalint_toolkit.h: force-included after clang's CUDA wrapper in toolkit mode to close the gaps between clang's view of the real CUDA headers and nvcc's. */
#pragma clang system_header
#ifndef CUDALINT_TOOLKIT_H
#define CUDALINT_TOOLKIT_H

/* nvcc's cuda_runtime.h pulls these C/C++ headers in on the host (through
   crt/common_functions.h and crt/math_functions.h); clang's wrapper skips
   those two files, so code that calls isfinite(), clock(), memcpy() or
   placement new without including the header itself parses with nvcc only. */
/* nvcc defines __CUDACC__ as 1; clang's wrapper leaves it defined empty,
   so `#if __CUDACC__` (written for nvcc, as in the toolkit's own NCCL device
   headers) stops the parse with "expected value in expression". */
#undef __CUDACC__
#define __CUDACC__ 1

#include <assert.h>
#include <math.h>
#include <new>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A device-only parse with -nocudalib leaves clang without the toolkit
   version, and clang then lowers <<<...>>> to the pre-9.2 cudaConfigureCall,
   which the runtime headers dropped in CUDA 11.  Older toolkits declare it
   with default arguments, which a redeclaration inherits but must not
   repeat. */
#if defined(CUDART_VERSION) && CUDART_VERSION >= 11000
extern "C" __host__ cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                                                  cudaStream_t stream = 0);
#else
extern "C" __host__ cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                                  cudaStream_t stream);
#endif

/* CUDA 13 changed cudaMemAdvise and cudaMemPrefetchAsync to take a
   cudaMemLocation.  Code written for CUDA 12 passes a device number; the
   older forms are declared as C++ overloads so that such code still parses
   (a lint is not the place to report toolkit version skew). */
#if defined(CUDART_VERSION) && CUDART_VERSION >= 13000
extern __host__ cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                          int device);
extern __host__ cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
                                                 cudaStream_t stream = 0);
#endif

/* nvcc's math_functions.h gives min/max these host+device overloads; clang's
   wrapper compiles that file for the device only, so host code calling
   min(a, b) or max(a, b) finds no candidate.  Host-only declarations overload
   the device definitions (clang overloads on __host__/__device__). */
#define CUDALINT_MINMAX_(name)                                                        \
    __host__ int name(int, int);                                                      \
    __host__ unsigned int name(unsigned int, unsigned int);                           \
    __host__ unsigned int name(int, unsigned int);                                    \
    __host__ unsigned int name(unsigned int, int);                                    \
    __host__ long name(long, long);                                                   \
    __host__ unsigned long name(unsigned long, unsigned long);                        \
    __host__ unsigned long name(long, unsigned long);                                 \
    __host__ unsigned long name(unsigned long, long);                                 \
    __host__ long long name(long long, long long);                                    \
    __host__ unsigned long long name(unsigned long long, unsigned long long);         \
    __host__ unsigned long long name(long long, unsigned long long);                  \
    __host__ unsigned long long name(unsigned long long, long long);                  \
    __host__ float name(float, float);                                                \
    __host__ double name(double, double);                                             \
    __host__ double name(float, double);                                              \
    __host__ double name(double, float);
CUDALINT_MINMAX_(min)
CUDALINT_MINMAX_(max)
#undef CUDALINT_MINMAX_

/* Cache-hinted loads and stores that clang's __clang_cuda_intrinsics.h does
   not define (it has __ldcg, __ldcs, __ldcv, __stwt); nvcc declares them in
   sm_32_intrinsics.h, which clang's wrapper does not include. */
#define CUDALINT_CACHE_HINTS_(T)                                                 \
    __device__ T __ldca(const T *);                                              \
    __device__ T __ldlu(const T *);                                              \
    __device__ void __stcg(T *, T);                                              \
    __device__ void __stcs(T *, T);                                              \
    __device__ void __stwb(T *, T);
CUDALINT_CACHE_HINTS_(char)
CUDALINT_CACHE_HINTS_(signed char)
CUDALINT_CACHE_HINTS_(unsigned char)
CUDALINT_CACHE_HINTS_(short)
CUDALINT_CACHE_HINTS_(unsigned short)
CUDALINT_CACHE_HINTS_(int)
CUDALINT_CACHE_HINTS_(unsigned int)
CUDALINT_CACHE_HINTS_(long)
CUDALINT_CACHE_HINTS_(unsigned long)
CUDALINT_CACHE_HINTS_(long long)
CUDALINT_CACHE_HINTS_(unsigned long long)
CUDALINT_CACHE_HINTS_(float)
CUDALINT_CACHE_HINTS_(double)
CUDALINT_CACHE_HINTS_(char2)
CUDALINT_CACHE_HINTS_(char4)
CUDALINT_CACHE_HINTS_(uchar2)
CUDALINT_CACHE_HINTS_(uchar4)
CUDALINT_CACHE_HINTS_(short2)
CUDALINT_CACHE_HINTS_(short4)
CUDALINT_CACHE_HINTS_(ushort2)
CUDALINT_CACHE_HINTS_(ushort4)
CUDALINT_CACHE_HINTS_(int2)
CUDALINT_CACHE_HINTS_(int4)
CUDALINT_CACHE_HINTS_(uint2)
CUDALINT_CACHE_HINTS_(uint4)
CUDALINT_CACHE_HINTS_(longlong2)
CUDALINT_CACHE_HINTS_(ulonglong2)
CUDALINT_CACHE_HINTS_(float2)
CUDALINT_CACHE_HINTS_(float4)
CUDALINT_CACHE_HINTS_(double2)
#undef CUDALINT_CACHE_HINTS_

/* What CUDA 12 and 13 removed and old code still calls: declared so that
   the code parses and CU507 reports it (the same header serves shim mode). */
#include "cudalint/removed_api.h"

#endif
