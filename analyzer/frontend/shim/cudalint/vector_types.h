/* cudalint/vector_types.h: the built-in vector types (char1 ... double4), dim3 and the make_ functions. */
#pragma clang system_header
#ifndef CUDALINT_VECTOR_TYPES_H
#define CUDALINT_VECTOR_TYPES_H

/* Sizes and alignments follow the CUDA Programming Guide's table of vector
   types (a 2- or 4-element vector is aligned to its size up to 16 bytes;
   3-element vectors have their element's alignment), so that sizeof and
   alignof tests in user code agree with nvcc on 64-bit Linux. */

struct __attribute__((aligned(1))) char1 { signed char x; };
struct __attribute__((aligned(2))) char2 { signed char x, y; };
struct __attribute__((aligned(1))) char3 { signed char x, y, z; };
struct __attribute__((aligned(4))) char4 { signed char x, y, z, w; };

struct __attribute__((aligned(1))) uchar1 { unsigned char x; };
struct __attribute__((aligned(2))) uchar2 { unsigned char x, y; };
struct __attribute__((aligned(1))) uchar3 { unsigned char x, y, z; };
struct __attribute__((aligned(4))) uchar4 { unsigned char x, y, z, w; };

struct __attribute__((aligned(2))) short1 { short x; };
struct __attribute__((aligned(4))) short2 { short x, y; };
struct __attribute__((aligned(2))) short3 { short x, y, z; };
struct __attribute__((aligned(8))) short4 { short x, y, z, w; };

struct __attribute__((aligned(2))) ushort1 { unsigned short x; };
struct __attribute__((aligned(4))) ushort2 { unsigned short x, y; };
struct __attribute__((aligned(2))) ushort3 { unsigned short x, y, z; };
struct __attribute__((aligned(8))) ushort4 { unsigned short x, y, z, w; };

struct __attribute__((aligned(4))) int1 { int x; };
struct __attribute__((aligned(8))) int2 { int x, y; };
struct __attribute__((aligned(4))) int3 { int x, y, z; };
struct __attribute__((aligned(16))) int4 { int x, y, z, w; };

struct __attribute__((aligned(4))) uint1 { unsigned int x; };
struct __attribute__((aligned(8))) uint2 { unsigned int x, y; };
struct __attribute__((aligned(4))) uint3 { unsigned int x, y, z; };
struct __attribute__((aligned(16))) uint4 { unsigned int x, y, z, w; };

struct __attribute__((aligned(8))) long1 { long x; };
struct __attribute__((aligned(16))) long2 { long x, y; };
struct __attribute__((aligned(8))) long3 { long x, y, z; };
struct __attribute__((aligned(16))) long4 { long x, y, z, w; };

struct __attribute__((aligned(8))) ulong1 { unsigned long x; };
struct __attribute__((aligned(16))) ulong2 { unsigned long x, y; };
struct __attribute__((aligned(8))) ulong3 { unsigned long x, y, z; };
struct __attribute__((aligned(16))) ulong4 { unsigned long x, y, z, w; };

struct __attribute__((aligned(8))) longlong1 { long long x; };
struct __attribute__((aligned(16))) longlong2 { long long x, y; };
struct __attribute__((aligned(8))) longlong3 { long long x, y, z; };
struct __attribute__((aligned(16))) longlong4 { long long x, y, z, w; };

struct __attribute__((aligned(8))) ulonglong1 { unsigned long long x; };
struct __attribute__((aligned(16))) ulonglong2 { unsigned long long x, y; };
struct __attribute__((aligned(8))) ulonglong3 { unsigned long long x, y, z; };
struct __attribute__((aligned(16))) ulonglong4 { unsigned long long x, y, z, w; };

struct __attribute__((aligned(4))) float1 { float x; };
struct __attribute__((aligned(8))) float2 { float x, y; };
struct __attribute__((aligned(4))) float3 { float x, y, z; };
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };

struct __attribute__((aligned(8))) double1 { double x; };
struct __attribute__((aligned(16))) double2 { double x, y; };
struct __attribute__((aligned(8))) double3 { double x, y, z; };
struct __attribute__((aligned(16))) double4 { double x, y, z, w; };

typedef struct char1 char1;
typedef struct char2 char2;
typedef struct char3 char3;
typedef struct char4 char4;
typedef struct uchar1 uchar1;
typedef struct uchar2 uchar2;
typedef struct uchar3 uchar3;
typedef struct uchar4 uchar4;
typedef struct short1 short1;
typedef struct short2 short2;
typedef struct short3 short3;
typedef struct short4 short4;
typedef struct ushort1 ushort1;
typedef struct ushort2 ushort2;
typedef struct ushort3 ushort3;
typedef struct ushort4 ushort4;
typedef struct int1 int1;
typedef struct int2 int2;
typedef struct int3 int3;
typedef struct int4 int4;
typedef struct uint1 uint1;
typedef struct uint2 uint2;
typedef struct uint3 uint3;
typedef struct uint4 uint4;
typedef struct long1 long1;
typedef struct long2 long2;
typedef struct long3 long3;
typedef struct long4 long4;
typedef struct ulong1 ulong1;
typedef struct ulong2 ulong2;
typedef struct ulong3 ulong3;
typedef struct ulong4 ulong4;
typedef struct longlong1 longlong1;
typedef struct longlong2 longlong2;
typedef struct longlong3 longlong3;
typedef struct longlong4 longlong4;
typedef struct ulonglong1 ulonglong1;
typedef struct ulonglong2 ulonglong2;
typedef struct ulonglong3 ulonglong3;
typedef struct ulonglong4 ulonglong4;
typedef struct float1 float1;
typedef struct float2 float2;
typedef struct float3 float3;
typedef struct float4 float4;
typedef struct double1 double1;
typedef struct double2 double2;
typedef struct double3 double3;
typedef struct double4 double4;

/* CUDA 13 names for the 32-byte aligned 4-vectors of 8-byte elements. */
struct __attribute__((aligned(16))) long4_16a { long x, y, z, w; };
struct __attribute__((aligned(32))) long4_32a { long x, y, z, w; };
struct __attribute__((aligned(16))) ulong4_16a { unsigned long x, y, z, w; };
struct __attribute__((aligned(32))) ulong4_32a { unsigned long x, y, z, w; };
struct __attribute__((aligned(16))) longlong4_16a { long long x, y, z, w; };
struct __attribute__((aligned(32))) longlong4_32a { long long x, y, z, w; };
struct __attribute__((aligned(16))) ulonglong4_16a { unsigned long long x, y, z, w; };
struct __attribute__((aligned(32))) ulonglong4_32a { unsigned long long x, y, z, w; };
struct __attribute__((aligned(16))) double4_16a { double x, y, z, w; };
struct __attribute__((aligned(32))) double4_32a { double x, y, z, w; };

/* dim3 converts from and to uint3 and defaults missing extents to 1. */
struct dim3 {
    unsigned int x, y, z;
    __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
        : x(vx), y(vy), z(vz) {}
    __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};
typedef struct dim3 dim3;

/* make_<type>N(...) builds a vector from its elements. */
static __inline__ __host__ __device__ char1 make_char1(signed char x) { return char1{x}; }
static __inline__ __host__ __device__ char2 make_char2(signed char x, signed char y) { return char2{x, y}; }
static __inline__ __host__ __device__ char3 make_char3(signed char x, signed char y, signed char z) { return char3{x, y, z}; }
static __inline__ __host__ __device__ char4 make_char4(signed char x, signed char y, signed char z, signed char w) { return char4{x, y, z, w}; }
static __inline__ __host__ __device__ uchar1 make_uchar1(unsigned char x) { return uchar1{x}; }
static __inline__ __host__ __device__ uchar2 make_uchar2(unsigned char x, unsigned char y) { return uchar2{x, y}; }
static __inline__ __host__ __device__ uchar3 make_uchar3(unsigned char x, unsigned char y, unsigned char z) { return uchar3{x, y, z}; }
static __inline__ __host__ __device__ uchar4 make_uchar4(unsigned char x, unsigned char y, unsigned char z, unsigned char w) { return uchar4{x, y, z, w}; }
static __inline__ __host__ __device__ short1 make_short1(short x) { return short1{x}; }
static __inline__ __host__ __device__ short2 make_short2(short x, short y) { return short2{x, y}; }
static __inline__ __host__ __device__ short3 make_short3(short x, short y, short z) { return short3{x, y, z}; }
static __inline__ __host__ __device__ short4 make_short4(short x, short y, short z, short w) { return short4{x, y, z, w}; }
static __inline__ __host__ __device__ ushort1 make_ushort1(unsigned short x) { return ushort1{x}; }
static __inline__ __host__ __device__ ushort2 make_ushort2(unsigned short x, unsigned short y) { return ushort2{x, y}; }
static __inline__ __host__ __device__ ushort3 make_ushort3(unsigned short x, unsigned short y, unsigned short z) { return ushort3{x, y, z}; }
static __inline__ __host__ __device__ ushort4 make_ushort4(unsigned short x, unsigned short y, unsigned short z, unsigned short w) { return ushort4{x, y, z, w}; }
static __inline__ __host__ __device__ int1 make_int1(int x) { return int1{x}; }
static __inline__ __host__ __device__ int2 make_int2(int x, int y) { return int2{x, y}; }
static __inline__ __host__ __device__ int3 make_int3(int x, int y, int z) { return int3{x, y, z}; }
static __inline__ __host__ __device__ int4 make_int4(int x, int y, int z, int w) { return int4{x, y, z, w}; }
static __inline__ __host__ __device__ uint1 make_uint1(unsigned int x) { return uint1{x}; }
static __inline__ __host__ __device__ uint2 make_uint2(unsigned int x, unsigned int y) { return uint2{x, y}; }
static __inline__ __host__ __device__ uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { return uint3{x, y, z}; }
static __inline__ __host__ __device__ uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w) { return uint4{x, y, z, w}; }
static __inline__ __host__ __device__ long1 make_long1(long x) { return long1{x}; }
static __inline__ __host__ __device__ long2 make_long2(long x, long y) { return long2{x, y}; }
static __inline__ __host__ __device__ long3 make_long3(long x, long y, long z) { return long3{x, y, z}; }
static __inline__ __host__ __device__ long4 make_long4(long x, long y, long z, long w) { return long4{x, y, z, w}; }
static __inline__ __host__ __device__ ulong1 make_ulong1(unsigned long x) { return ulong1{x}; }
static __inline__ __host__ __device__ ulong2 make_ulong2(unsigned long x, unsigned long y) { return ulong2{x, y}; }
static __inline__ __host__ __device__ ulong3 make_ulong3(unsigned long x, unsigned long y, unsigned long z) { return ulong3{x, y, z}; }
static __inline__ __host__ __device__ ulong4 make_ulong4(unsigned long x, unsigned long y, unsigned long z, unsigned long w) { return ulong4{x, y, z, w}; }
static __inline__ __host__ __device__ longlong1 make_longlong1(long long x) { return longlong1{x}; }
static __inline__ __host__ __device__ longlong2 make_longlong2(long long x, long long y) { return longlong2{x, y}; }
static __inline__ __host__ __device__ longlong3 make_longlong3(long long x, long long y, long long z) { return longlong3{x, y, z}; }
static __inline__ __host__ __device__ longlong4 make_longlong4(long long x, long long y, long long z, long long w) { return longlong4{x, y, z, w}; }
static __inline__ __host__ __device__ ulonglong1 make_ulonglong1(unsigned long long x) { return ulonglong1{x}; }
static __inline__ __host__ __device__ ulonglong2 make_ulonglong2(unsigned long long x, unsigned long long y) { return ulonglong2{x, y}; }
static __inline__ __host__ __device__ ulonglong3 make_ulonglong3(unsigned long long x, unsigned long long y, unsigned long long z) { return ulonglong3{x, y, z}; }
static __inline__ __host__ __device__ ulonglong4 make_ulonglong4(unsigned long long x, unsigned long long y, unsigned long long z, unsigned long long w) { return ulonglong4{x, y, z, w}; }
static __inline__ __host__ __device__ float1 make_float1(float x) { return float1{x}; }
static __inline__ __host__ __device__ float2 make_float2(float x, float y) { return float2{x, y}; }
static __inline__ __host__ __device__ float3 make_float3(float x, float y, float z) { return float3{x, y, z}; }
static __inline__ __host__ __device__ float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }
static __inline__ __host__ __device__ double1 make_double1(double x) { return double1{x}; }
static __inline__ __host__ __device__ double2 make_double2(double x, double y) { return double2{x, y}; }
static __inline__ __host__ __device__ double3 make_double3(double x, double y, double z) { return double3{x, y, z}; }
static __inline__ __host__ __device__ double4 make_double4(double x, double y, double z, double w) { return double4{x, y, z, w}; }

/* The built-in variables come from clang's own header, exactly as in a parse
   with the toolkit, so rules see the same AST (threadIdx.x is a property
   reference there) in both modes. */
#include <__clang_cuda_builtin_vars.h>

__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const { return uint3{x, y, z}; }
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const { return uint3{x, y, z}; }
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const { return uint3{x, y, z}; }
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const { return uint3{x, y, z}; }

#endif
