/* cudalint/defines.h: version macros and the CUDA qualifier keywords, spelled as clang's CUDA attributes. */
#pragma clang system_header
#ifndef CUDALINT_DEFINES_H
#define CUDALINT_DEFINES_H

/* The newest API is declared, so claim the newest version: code that tests
   the version then takes the branch whose names exist here. */
#ifndef CUDART_VERSION
#define CUDART_VERSION 13000
#endif
#ifndef CUDA_VERSION
#define CUDA_VERSION 13000
#endif
#define __CUDART_API_VERSION CUDART_VERSION
/* clang does not define __CUDACC__ without the toolkit (the toolkit's
   wrapper does).  nvcc's version macros (__NVCC__, __CUDACC_VER_MAJOR__ ...)
   come from the command line (frontend/toolkit.c), with this header's
   version (SHIM_CUDA_VERSION), so that a compile database's -U removes them. */
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif

/* Include guards of the real headers: helper code (for example the samples'
   helper_cuda.h) tests them to learn whether the runtime API is present. */
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#define __VECTOR_TYPES_H__
#define __VECTOR_FUNCTIONS_H__
#define __BUILTIN_TYPES_H__
#define __DEVICE_TYPES_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
#define __TEXTURE_TYPES_H__
#define __SURFACE_TYPES_H__
#define __CHANNEL_DESCRIPTOR_H__
#define __DRIVER_FUNCTIONS_H__
#define __DEVICE_FUNCTIONS_H__
#define __MATH_FUNCTIONS_H__
#define __COMMON_FUNCTIONS_H__
#define __SM_20_ATOMIC_FUNCTIONS_H__
#define __SM_32_INTRINSICS_H__
#define __DEVICE_ATOMIC_FUNCTIONS_H__

/* Execution space and memory space qualifiers. */
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __grid_constant__ __attribute__((grid_constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#if __has_attribute(cluster_dims)
#define __cluster_dims__(...) __attribute__((cluster_dims(__VA_ARGS__)))
#else
#define __cluster_dims__(...)
#endif
/* clang has no register-count attribute; the hint does not change meaning. */
#define __maxnreg__(n)
/* __noinline__ is a keyword of clang's CUDA mode: a macro would break
   __attribute__((__noinline__)) in the C++ library headers. */
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __inline_hint__
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __cdecl
#define CUDARTAPI
#define CUDAAPI
#define CUDART_CB
#define CUDA_CB
#define __CUDA_DEPRECATED
#define __device_builtin__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#define __cudart_builtin__
#define __nv_pure__ __attribute__((pure))

#endif
