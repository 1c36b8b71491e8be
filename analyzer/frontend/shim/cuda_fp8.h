/* cuda_fp8.h: stand-in for the CUDA header of this name: the 8-bit floating-point types and their conversions. */
#pragma clang system_header
#ifndef __CUDA_FP8_H__
#define __CUDA_FP8_H__
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define __CUDA_FP8_TYPES_EXIST__
typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;
typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 } __nv_fp8_interpretation_t;

__host__ __device__ __nv_fp8_storage_t __nv_cvt_float_to_fp8(float x, __nv_saturation_t saturate,
                                                              __nv_fp8_interpretation_t fp8_interpretation);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(float2 x, __nv_saturation_t saturate,
                                                                   __nv_fp8_interpretation_t fp8_interpretation);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_double_to_fp8(double x, __nv_saturation_t saturate,
                                                               __nv_fp8_interpretation_t fp8_interpretation);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(__half_raw x, __nv_saturation_t saturate,
                                                                __nv_fp8_interpretation_t fp8_interpretation);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw x, __nv_saturation_t saturate,
                                                                    __nv_fp8_interpretation_t fp8_interpretation);
__host__ __device__ __half_raw __nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t x,
                                                       __nv_fp8_interpretation_t fp8_interpretation);
__host__ __device__ __half2_raw __nv_cvt_fp8x2_to_halfraw2(__nv_fp8x2_storage_t x,
                                                           __nv_fp8_interpretation_t fp8_interpretation);

/* One struct per format; only the conversion to float is implicit, as in
   cuda_fp16.h. */
#define CUDALINT_FP8(name)                                                     \
    struct __attribute__((aligned(1))) name {                                 \
        __nv_fp8_storage_t __x;                                                \
        name() = default;                                                      \
        __host__ __device__ explicit name(float f);                           \
        __host__ __device__ explicit name(double f);                          \
        __host__ __device__ explicit name(__half f);                          \
        __host__ __device__ explicit name(__nv_bfloat16 f);                   \
        __host__ __device__ explicit name(int v);                             \
        __host__ __device__ explicit name(unsigned int v);                    \
        __host__ __device__ explicit name(long long v);                       \
        __host__ __device__ operator float() const;                           \
        __host__ __device__ explicit operator __half() const;                 \
        __host__ __device__ explicit operator __nv_bfloat16() const;          \
        __host__ __device__ explicit operator double() const;                 \
        __host__ __device__ explicit operator int() const;                    \
        __host__ __device__ explicit operator bool() const;                   \
    };
CUDALINT_FP8(__nv_fp8_e4m3)
CUDALINT_FP8(__nv_fp8_e5m2)
CUDALINT_FP8(__nv_fp8_e8m0)
#undef CUDALINT_FP8
#define CUDALINT_FP8X(name, storage, vec)                                      \
    struct name {                                                              \
        storage __x;                                                           \
        name() = default;                                                      \
        __host__ __device__ explicit name(vec f);                             \
        __host__ __device__ explicit operator vec() const;                    \
    };
CUDALINT_FP8X(__nv_fp8x2_e4m3, __nv_fp8x2_storage_t, float2)
CUDALINT_FP8X(__nv_fp8x2_e5m2, __nv_fp8x2_storage_t, float2)
CUDALINT_FP8X(__nv_fp8x4_e4m3, __nv_fp8x4_storage_t, float4)
CUDALINT_FP8X(__nv_fp8x4_e5m2, __nv_fp8x4_storage_t, float4)
#undef CUDALINT_FP8X

#endif
