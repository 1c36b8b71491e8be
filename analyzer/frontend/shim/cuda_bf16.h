/* cuda_bf16.h: stand-in for the CUDA header of this name: the bfloat16 type __nv_bfloat16 (nv_bfloat16), its pair __nv_bfloat162 and their functions. */
#pragma clang system_header
#ifndef __CUDA_BF16_H__
#define __CUDA_BF16_H__
#include "cudalint_cuda.h"

/* Conversions and operators are __host__ __device__, as since CUDA 12.2.
   Only the conversion to float is implicit: with implicit integer
   conversions too, mixed expressions such as h + 1 would become ambiguous
   here while they compile with nvcc. */
#define CUDALINT_HD __host__ __device__
#define CUDALINT_D extern __device__

#define __CUDA_BF16_TYPES_EXIST__
#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)

struct __nv_bfloat16_raw { unsigned short x; };
struct __nv_bfloat162_raw { unsigned short x; unsigned short y; };
typedef struct __nv_bfloat16_raw __nv_bfloat16_raw;
typedef struct __nv_bfloat162_raw __nv_bfloat162_raw;

struct __attribute__((aligned(2))) __nv_bfloat16 {
    unsigned short __x;
    __nv_bfloat16() = default;
    CUDALINT_HD constexpr __nv_bfloat16(const __nv_bfloat16_raw &r) : __x(r.x) {}
    CUDALINT_HD __nv_bfloat16(float v);
    CUDALINT_HD __nv_bfloat16(double v);
    CUDALINT_HD __nv_bfloat16(short v);
    CUDALINT_HD __nv_bfloat16(unsigned short v);
    CUDALINT_HD __nv_bfloat16(int v);
    CUDALINT_HD __nv_bfloat16(unsigned int v);
    CUDALINT_HD __nv_bfloat16(long v);
    CUDALINT_HD __nv_bfloat16(unsigned long v);
    CUDALINT_HD __nv_bfloat16(long long v);
    CUDALINT_HD __nv_bfloat16(unsigned long long v);
    CUDALINT_HD __nv_bfloat16 &operator=(const __nv_bfloat16_raw &r);
    CUDALINT_HD __nv_bfloat16 &operator=(float v);
    CUDALINT_HD __nv_bfloat16 &operator=(double v);
    CUDALINT_HD __nv_bfloat16 &operator=(short v);
    CUDALINT_HD __nv_bfloat16 &operator=(unsigned short v);
    CUDALINT_HD __nv_bfloat16 &operator=(int v);
    CUDALINT_HD __nv_bfloat16 &operator=(unsigned int v);
    CUDALINT_HD __nv_bfloat16 &operator=(long v);
    CUDALINT_HD __nv_bfloat16 &operator=(unsigned long v);
    CUDALINT_HD __nv_bfloat16 &operator=(long long v);
    CUDALINT_HD __nv_bfloat16 &operator=(unsigned long long v);
    CUDALINT_HD operator __nv_bfloat16_raw() const;
    CUDALINT_HD operator float() const;
    CUDALINT_HD explicit operator signed char() const;
    CUDALINT_HD explicit operator unsigned char() const;
    CUDALINT_HD explicit operator char() const;
    CUDALINT_HD explicit operator short() const;
    CUDALINT_HD explicit operator unsigned short() const;
    CUDALINT_HD explicit operator int() const;
    CUDALINT_HD explicit operator unsigned int() const;
    CUDALINT_HD explicit operator long() const;
    CUDALINT_HD explicit operator unsigned long() const;
    CUDALINT_HD explicit operator long long() const;
    CUDALINT_HD explicit operator unsigned long long() const;
    CUDALINT_HD explicit operator bool() const;
};
typedef struct __nv_bfloat16 __nv_bfloat16;

struct __attribute__((aligned(4))) __nv_bfloat162 {
    __nv_bfloat16 x, y;
    __nv_bfloat162() = default;
    CUDALINT_HD constexpr __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
    CUDALINT_HD __nv_bfloat162(const __nv_bfloat162_raw &r);
    CUDALINT_HD __nv_bfloat162 &operator=(const __nv_bfloat162_raw &r);
    CUDALINT_HD operator __nv_bfloat162_raw() const;
};
typedef struct __nv_bfloat162 __nv_bfloat162;
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

/* Operators. */
CUDALINT_HD __nv_bfloat16 operator+(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
CUDALINT_HD __nv_bfloat16 &operator+=(__nv_bfloat16 &a, const __nv_bfloat16 &b);
CUDALINT_HD __nv_bfloat16 operator-(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
CUDALINT_HD __nv_bfloat16 &operator-=(__nv_bfloat16 &a, const __nv_bfloat16 &b);
CUDALINT_HD __nv_bfloat16 operator*(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
CUDALINT_HD __nv_bfloat16 &operator*=(__nv_bfloat16 &a, const __nv_bfloat16 &b);
CUDALINT_HD __nv_bfloat16 operator/(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
CUDALINT_HD __nv_bfloat16 &operator/=(__nv_bfloat16 &a, const __nv_bfloat16 &b);
CUDALINT_HD __nv_bfloat16 operator+(const __nv_bfloat16 &a);
CUDALINT_HD __nv_bfloat16 operator-(const __nv_bfloat16 &a);
CUDALINT_HD __nv_bfloat16 &operator++(__nv_bfloat16 &a);
CUDALINT_HD __nv_bfloat16 &operator--(__nv_bfloat16 &a);
CUDALINT_HD __nv_bfloat16 operator++(__nv_bfloat16 &a, int);
CUDALINT_HD __nv_bfloat16 operator--(__nv_bfloat16 &a, int);
CUDALINT_HD bool operator==(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
CUDALINT_HD bool operator!=(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
CUDALINT_HD bool operator<(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
CUDALINT_HD bool operator>(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
CUDALINT_HD bool operator<=(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
CUDALINT_HD bool operator>=(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
CUDALINT_HD __nv_bfloat162 operator+(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
CUDALINT_HD __nv_bfloat162 &operator+=(__nv_bfloat162 &a, const __nv_bfloat162 &b);
CUDALINT_HD __nv_bfloat162 operator-(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
CUDALINT_HD __nv_bfloat162 &operator-=(__nv_bfloat162 &a, const __nv_bfloat162 &b);
CUDALINT_HD __nv_bfloat162 operator*(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
CUDALINT_HD __nv_bfloat162 &operator*=(__nv_bfloat162 &a, const __nv_bfloat162 &b);
CUDALINT_HD __nv_bfloat162 operator/(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
CUDALINT_HD __nv_bfloat162 &operator/=(__nv_bfloat162 &a, const __nv_bfloat162 &b);
CUDALINT_HD __nv_bfloat162 operator+(const __nv_bfloat162 &a);
CUDALINT_HD __nv_bfloat162 operator-(const __nv_bfloat162 &a);
CUDALINT_HD __nv_bfloat162 &operator++(__nv_bfloat162 &a);
CUDALINT_HD __nv_bfloat162 &operator--(__nv_bfloat162 &a);
CUDALINT_HD __nv_bfloat162 operator++(__nv_bfloat162 &a, int);
CUDALINT_HD __nv_bfloat162 operator--(__nv_bfloat162 &a, int);
CUDALINT_HD bool operator==(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
CUDALINT_HD bool operator!=(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
CUDALINT_HD bool operator<(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
CUDALINT_HD bool operator>(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
CUDALINT_HD bool operator<=(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
CUDALINT_HD bool operator>=(const __nv_bfloat162 &a, const __nv_bfloat162 &b);

/* Conversions. */
CUDALINT_HD __nv_bfloat16 __float2bfloat16(float a);
CUDALINT_HD __nv_bfloat16 __float2bfloat16_rn(float a);
CUDALINT_HD __nv_bfloat16 __double2bfloat16(double a);
CUDALINT_HD __nv_bfloat16 __float2bfloat16_rz(float a);
CUDALINT_HD __nv_bfloat16 __double2bfloat16_rz(double a);
CUDALINT_HD __nv_bfloat16 __float2bfloat16_rd(float a);
CUDALINT_HD __nv_bfloat16 __double2bfloat16_rd(double a);
CUDALINT_HD __nv_bfloat16 __float2bfloat16_ru(float a);
CUDALINT_HD __nv_bfloat16 __double2bfloat16_ru(double a);
CUDALINT_HD float __bfloat162float(__nv_bfloat16 a);
CUDALINT_HD __nv_bfloat162 __float2bfloat162_rn(float a);
CUDALINT_HD __nv_bfloat162 __floats2bfloat162_rn(float a, float b);
CUDALINT_HD __nv_bfloat162 __float22bfloat162_rn(float2 a);
CUDALINT_HD float2 __bfloat1622float2(__nv_bfloat162 a);
CUDALINT_HD float __low2float(__nv_bfloat162 a);
CUDALINT_HD float __high2float(__nv_bfloat162 a);
CUDALINT_HD __nv_bfloat16 __low2bfloat16(__nv_bfloat162 a);
CUDALINT_HD __nv_bfloat16 __high2bfloat16(__nv_bfloat162 a);
CUDALINT_HD __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a);
CUDALINT_HD __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD __nv_bfloat162 __low2bfloat162(__nv_bfloat162 a);
CUDALINT_HD __nv_bfloat162 __high2bfloat162(__nv_bfloat162 a);
CUDALINT_HD __nv_bfloat162 __lowhigh2highlow(__nv_bfloat162 a);
CUDALINT_HD __nv_bfloat162 make_bfloat162(__nv_bfloat16 x, __nv_bfloat16 y);
CUDALINT_HD int __bfloat162int_rn(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __int2bfloat16_rn(int i);
CUDALINT_HD int __bfloat162int_rz(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __int2bfloat16_rz(int i);
CUDALINT_HD int __bfloat162int_rd(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __int2bfloat16_rd(int i);
CUDALINT_HD int __bfloat162int_ru(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __int2bfloat16_ru(int i);
CUDALINT_HD unsigned int __bfloat162uint_rn(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __uint2bfloat16_rn(unsigned int i);
CUDALINT_HD unsigned int __bfloat162uint_rz(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __uint2bfloat16_rz(unsigned int i);
CUDALINT_HD unsigned int __bfloat162uint_rd(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __uint2bfloat16_rd(unsigned int i);
CUDALINT_HD unsigned int __bfloat162uint_ru(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __uint2bfloat16_ru(unsigned int i);
CUDALINT_HD short __bfloat162short_rn(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __short2bfloat16_rn(short i);
CUDALINT_HD short __bfloat162short_rz(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __short2bfloat16_rz(short i);
CUDALINT_HD short __bfloat162short_rd(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __short2bfloat16_rd(short i);
CUDALINT_HD short __bfloat162short_ru(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __short2bfloat16_ru(short i);
CUDALINT_HD unsigned short __bfloat162ushort_rn(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __ushort2bfloat16_rn(unsigned short i);
CUDALINT_HD unsigned short __bfloat162ushort_rz(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __ushort2bfloat16_rz(unsigned short i);
CUDALINT_HD unsigned short __bfloat162ushort_rd(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __ushort2bfloat16_rd(unsigned short i);
CUDALINT_HD unsigned short __bfloat162ushort_ru(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __ushort2bfloat16_ru(unsigned short i);
CUDALINT_HD long long __bfloat162ll_rn(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __ll2bfloat16_rn(long long i);
CUDALINT_HD long long __bfloat162ll_rz(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __ll2bfloat16_rz(long long i);
CUDALINT_HD long long __bfloat162ll_rd(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __ll2bfloat16_rd(long long i);
CUDALINT_HD long long __bfloat162ll_ru(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __ll2bfloat16_ru(long long i);
CUDALINT_HD unsigned long long __bfloat162ull_rn(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __ull2bfloat16_rn(unsigned long long i);
CUDALINT_HD unsigned long long __bfloat162ull_rz(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __ull2bfloat16_rz(unsigned long long i);
CUDALINT_HD unsigned long long __bfloat162ull_rd(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __ull2bfloat16_rd(unsigned long long i);
CUDALINT_HD unsigned long long __bfloat162ull_ru(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __ull2bfloat16_ru(unsigned long long i);
CUDALINT_HD signed char __bfloat162char_rz(__nv_bfloat16 h);
CUDALINT_HD unsigned char __bfloat162uchar_rz(__nv_bfloat16 h);
CUDALINT_HD short __bfloat16_as_short(__nv_bfloat16 h);
CUDALINT_HD unsigned short __bfloat16_as_ushort(__nv_bfloat16 h);
CUDALINT_HD __nv_bfloat16 __short_as_bfloat16(short i);
CUDALINT_HD __nv_bfloat16 __ushort_as_bfloat16(unsigned short i);

/* Arithmetic, comparison and math functions. */
CUDALINT_HD __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat16 __hdiv(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat16 __hadd_sat(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat16 __hsub_sat(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat16 __hmul_sat(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat16 __hadd_rn(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat16 __hsub_rn(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat16 __hmul_rn(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat16 __hmax_nan(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat16 __hmin_nan(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat162 __hadd2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD __nv_bfloat162 __hsub2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD __nv_bfloat162 __hmul2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD __nv_bfloat162 __h2div(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD __nv_bfloat162 __hadd2_sat(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD __nv_bfloat162 __hsub2_sat(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD __nv_bfloat162 __hmul2_sat(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD __nv_bfloat162 __hadd2_rn(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD __nv_bfloat162 __hsub2_rn(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD __nv_bfloat162 __hmul2_rn(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD __nv_bfloat162 __hmax2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD __nv_bfloat162 __hmin2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD __nv_bfloat162 __hmax2_nan(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD __nv_bfloat162 __hmin2_nan(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c);
CUDALINT_HD __nv_bfloat16 __hfma_sat(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c);
CUDALINT_HD __nv_bfloat16 __hfma_relu(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c);
CUDALINT_HD __nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c);
CUDALINT_HD __nv_bfloat162 __hfma2_sat(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c);
CUDALINT_HD __nv_bfloat162 __hfma2_relu(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c);
CUDALINT_HD __nv_bfloat162 __hcmadd(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c);
CUDALINT_HD __nv_bfloat16 __hneg(__nv_bfloat16 a);
CUDALINT_HD __nv_bfloat16 __habs(__nv_bfloat16 a);
CUDALINT_HD __nv_bfloat162 __hneg2(__nv_bfloat162 a);
CUDALINT_HD __nv_bfloat162 __habs2(__nv_bfloat162 a);
CUDALINT_HD bool __heq(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat162 __heq2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hbeq2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD unsigned int __heq2_mask(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hne(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat162 __hne2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hbne2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD unsigned int __hne2_mask(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hle(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat162 __hle2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hble2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD unsigned int __hle2_mask(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hge(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat162 __hge2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hbge2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD unsigned int __hge2_mask(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hlt(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat162 __hlt2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hblt2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD unsigned int __hlt2_mask(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hgt(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat162 __hgt2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hbgt2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD unsigned int __hgt2_mask(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hequ(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat162 __hequ2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hbequ2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD unsigned int __hequ2_mask(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hneu(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat162 __hneu2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hbneu2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD unsigned int __hneu2_mask(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hleu(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat162 __hleu2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hbleu2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD unsigned int __hleu2_mask(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hgeu(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat162 __hgeu2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hbgeu2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD unsigned int __hgeu2_mask(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hltu(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat162 __hltu2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hbltu2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD unsigned int __hltu2_mask(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hgtu(__nv_bfloat16 a, __nv_bfloat16 b);
CUDALINT_HD __nv_bfloat162 __hgtu2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hbgtu2(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD unsigned int __hgtu2_mask(__nv_bfloat162 a, __nv_bfloat162 b);
CUDALINT_HD bool __hisnan(__nv_bfloat16 a);
CUDALINT_HD int __hisinf(__nv_bfloat16 a);
CUDALINT_HD __nv_bfloat162 __hisnan2(__nv_bfloat162 a);
CUDALINT_D __nv_bfloat16 hsqrt(const __nv_bfloat16 a);
CUDALINT_D __nv_bfloat162 h2sqrt(const __nv_bfloat162 a);
CUDALINT_D __nv_bfloat16 hrsqrt(const __nv_bfloat16 a);
CUDALINT_D __nv_bfloat162 h2rsqrt(const __nv_bfloat162 a);
CUDALINT_D __nv_bfloat16 hrcp(const __nv_bfloat16 a);
CUDALINT_D __nv_bfloat162 h2rcp(const __nv_bfloat162 a);
CUDALINT_D __nv_bfloat16 hexp(const __nv_bfloat16 a);
CUDALINT_D __nv_bfloat162 h2exp(const __nv_bfloat162 a);
CUDALINT_D __nv_bfloat16 hexp2(const __nv_bfloat16 a);
CUDALINT_D __nv_bfloat162 h2exp2(const __nv_bfloat162 a);
CUDALINT_D __nv_bfloat16 hexp10(const __nv_bfloat16 a);
CUDALINT_D __nv_bfloat162 h2exp10(const __nv_bfloat162 a);
CUDALINT_D __nv_bfloat16 hlog(const __nv_bfloat16 a);
CUDALINT_D __nv_bfloat162 h2log(const __nv_bfloat162 a);
CUDALINT_D __nv_bfloat16 hlog2(const __nv_bfloat16 a);
CUDALINT_D __nv_bfloat162 h2log2(const __nv_bfloat162 a);
CUDALINT_D __nv_bfloat16 hlog10(const __nv_bfloat16 a);
CUDALINT_D __nv_bfloat162 h2log10(const __nv_bfloat162 a);
CUDALINT_D __nv_bfloat16 hsin(const __nv_bfloat16 a);
CUDALINT_D __nv_bfloat162 h2sin(const __nv_bfloat162 a);
CUDALINT_D __nv_bfloat16 hcos(const __nv_bfloat16 a);
CUDALINT_D __nv_bfloat162 h2cos(const __nv_bfloat162 a);
CUDALINT_D __nv_bfloat16 hceil(const __nv_bfloat16 a);
CUDALINT_D __nv_bfloat162 h2ceil(const __nv_bfloat162 a);
CUDALINT_D __nv_bfloat16 hfloor(const __nv_bfloat16 a);
CUDALINT_D __nv_bfloat162 h2floor(const __nv_bfloat162 a);
CUDALINT_D __nv_bfloat16 htrunc(const __nv_bfloat16 a);
CUDALINT_D __nv_bfloat162 h2trunc(const __nv_bfloat162 a);
CUDALINT_D __nv_bfloat16 hrint(const __nv_bfloat16 a);
CUDALINT_D __nv_bfloat162 h2rint(const __nv_bfloat162 a);
CUDALINT_D __nv_bfloat16 htanh(const __nv_bfloat16 a);
CUDALINT_D __nv_bfloat162 h2tanh(const __nv_bfloat162 a);

/* Warp shuffles, cache-hinted loads and stores, atomics. */
CUDALINT_D __nv_bfloat16 __shfl_sync(unsigned int mask, __nv_bfloat16 var, int srcLane, int width = 32);
CUDALINT_D __nv_bfloat16 __shfl_up_sync(unsigned int mask, __nv_bfloat16 var, unsigned int delta, int width = 32);
CUDALINT_D __nv_bfloat16 __shfl_down_sync(unsigned int mask, __nv_bfloat16 var, unsigned int delta, int width = 32);
CUDALINT_D __nv_bfloat16 __shfl_xor_sync(unsigned int mask, __nv_bfloat16 var, int laneMask, int width = 32);
CUDALINT_D __nv_bfloat16 __ldg(const __nv_bfloat16 *ptr);
CUDALINT_D __nv_bfloat16 __ldcg(const __nv_bfloat16 *ptr);
CUDALINT_D __nv_bfloat16 __ldca(const __nv_bfloat16 *ptr);
CUDALINT_D __nv_bfloat16 __ldcs(const __nv_bfloat16 *ptr);
CUDALINT_D __nv_bfloat16 __ldlu(const __nv_bfloat16 *ptr);
CUDALINT_D __nv_bfloat16 __ldcv(const __nv_bfloat16 *ptr);
CUDALINT_D void __stwb(__nv_bfloat16 *ptr, __nv_bfloat16 value);
CUDALINT_D void __stcg(__nv_bfloat16 *ptr, __nv_bfloat16 value);
CUDALINT_D void __stcs(__nv_bfloat16 *ptr, __nv_bfloat16 value);
CUDALINT_D void __stwt(__nv_bfloat16 *ptr, __nv_bfloat16 value);
CUDALINT_D __nv_bfloat16 atomicAdd(__nv_bfloat16 *address, __nv_bfloat16 val);
CUDALINT_D __nv_bfloat162 __shfl_sync(unsigned int mask, __nv_bfloat162 var, int srcLane, int width = 32);
CUDALINT_D __nv_bfloat162 __shfl_up_sync(unsigned int mask, __nv_bfloat162 var, unsigned int delta, int width = 32);
CUDALINT_D __nv_bfloat162 __shfl_down_sync(unsigned int mask, __nv_bfloat162 var, unsigned int delta, int width = 32);
CUDALINT_D __nv_bfloat162 __shfl_xor_sync(unsigned int mask, __nv_bfloat162 var, int laneMask, int width = 32);
CUDALINT_D __nv_bfloat162 __ldg(const __nv_bfloat162 *ptr);
CUDALINT_D __nv_bfloat162 __ldcg(const __nv_bfloat162 *ptr);
CUDALINT_D __nv_bfloat162 __ldca(const __nv_bfloat162 *ptr);
CUDALINT_D __nv_bfloat162 __ldcs(const __nv_bfloat162 *ptr);
CUDALINT_D __nv_bfloat162 __ldlu(const __nv_bfloat162 *ptr);
CUDALINT_D __nv_bfloat162 __ldcv(const __nv_bfloat162 *ptr);
CUDALINT_D void __stwb(__nv_bfloat162 *ptr, __nv_bfloat162 value);
CUDALINT_D void __stcg(__nv_bfloat162 *ptr, __nv_bfloat162 value);
CUDALINT_D void __stcs(__nv_bfloat162 *ptr, __nv_bfloat162 value);
CUDALINT_D void __stwt(__nv_bfloat162 *ptr, __nv_bfloat162 value);
CUDALINT_D __nv_bfloat162 atomicAdd(__nv_bfloat162 *address, __nv_bfloat162 val);

#undef CUDALINT_HD
#undef CUDALINT_D
#endif
