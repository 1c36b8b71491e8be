/* cuda_fp16.h: stand-in for the CUDA header of this name: the IEEE half-precision type __half (half), its pair __half2 and their functions. */
#pragma clang system_header
#ifndef __CUDA_FP16_H__
#define __CUDA_FP16_H__
#include "cudalint_cuda.h"

/* Conversions and operators are __host__ __device__, as since CUDA 12.2.
   Only the conversion to float is implicit: with implicit integer
   conversions too, mixed expressions such as h + 1 would become ambiguous
   here while they compile with nvcc. */
#define CUDALINT_HD __host__ __device__
#define CUDALINT_D extern __device__

#define __CUDA_FP16_TYPES_EXIST__
#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)

struct __half_raw { unsigned short x; };
struct __half2_raw { unsigned short x; unsigned short y; };
typedef struct __half_raw __half_raw;
typedef struct __half2_raw __half2_raw;

struct __attribute__((aligned(2))) __half {
    unsigned short __x;
    __half() = default;
    CUDALINT_HD constexpr __half(const __half_raw &r) : __x(r.x) {}
    CUDALINT_HD __half(float v);
    CUDALINT_HD __half(double v);
    CUDALINT_HD __half(short v);
    CUDALINT_HD __half(unsigned short v);
    CUDALINT_HD __half(int v);
    CUDALINT_HD __half(unsigned int v);
    CUDALINT_HD __half(long v);
    CUDALINT_HD __half(unsigned long v);
    CUDALINT_HD __half(long long v);
    CUDALINT_HD __half(unsigned long long v);
    CUDALINT_HD __half &operator=(const __half_raw &r);
    CUDALINT_HD __half &operator=(float v);
    CUDALINT_HD __half &operator=(double v);
    CUDALINT_HD __half &operator=(short v);
    CUDALINT_HD __half &operator=(unsigned short v);
    CUDALINT_HD __half &operator=(int v);
    CUDALINT_HD __half &operator=(unsigned int v);
    CUDALINT_HD __half &operator=(long v);
    CUDALINT_HD __half &operator=(unsigned long v);
    CUDALINT_HD __half &operator=(long long v);
    CUDALINT_HD __half &operator=(unsigned long long v);
    CUDALINT_HD operator __half_raw() const;
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
typedef struct __half __half;

struct __attribute__((aligned(4))) __half2 {
    __half x, y;
    __half2() = default;
    CUDALINT_HD constexpr __half2(const __half &a, const __half &b) : x(a), y(b) {}
    CUDALINT_HD __half2(const __half2_raw &r);
    CUDALINT_HD __half2 &operator=(const __half2_raw &r);
    CUDALINT_HD operator __half2_raw() const;
};
typedef struct __half2 __half2;
typedef __half half;
typedef __half2 half2;

/* Operators. */
CUDALINT_HD __half operator+(const __half &a, const __half &b);
CUDALINT_HD __half &operator+=(__half &a, const __half &b);
CUDALINT_HD __half operator-(const __half &a, const __half &b);
CUDALINT_HD __half &operator-=(__half &a, const __half &b);
CUDALINT_HD __half operator*(const __half &a, const __half &b);
CUDALINT_HD __half &operator*=(__half &a, const __half &b);
CUDALINT_HD __half operator/(const __half &a, const __half &b);
CUDALINT_HD __half &operator/=(__half &a, const __half &b);
CUDALINT_HD __half operator+(const __half &a);
CUDALINT_HD __half operator-(const __half &a);
CUDALINT_HD __half &operator++(__half &a);
CUDALINT_HD __half &operator--(__half &a);
CUDALINT_HD __half operator++(__half &a, int);
CUDALINT_HD __half operator--(__half &a, int);
CUDALINT_HD bool operator==(const __half &a, const __half &b);
CUDALINT_HD bool operator!=(const __half &a, const __half &b);
CUDALINT_HD bool operator<(const __half &a, const __half &b);
CUDALINT_HD bool operator>(const __half &a, const __half &b);
CUDALINT_HD bool operator<=(const __half &a, const __half &b);
CUDALINT_HD bool operator>=(const __half &a, const __half &b);
CUDALINT_HD __half2 operator+(const __half2 &a, const __half2 &b);
CUDALINT_HD __half2 &operator+=(__half2 &a, const __half2 &b);
CUDALINT_HD __half2 operator-(const __half2 &a, const __half2 &b);
CUDALINT_HD __half2 &operator-=(__half2 &a, const __half2 &b);
CUDALINT_HD __half2 operator*(const __half2 &a, const __half2 &b);
CUDALINT_HD __half2 &operator*=(__half2 &a, const __half2 &b);
CUDALINT_HD __half2 operator/(const __half2 &a, const __half2 &b);
CUDALINT_HD __half2 &operator/=(__half2 &a, const __half2 &b);
CUDALINT_HD __half2 operator+(const __half2 &a);
CUDALINT_HD __half2 operator-(const __half2 &a);
CUDALINT_HD __half2 &operator++(__half2 &a);
CUDALINT_HD __half2 &operator--(__half2 &a);
CUDALINT_HD __half2 operator++(__half2 &a, int);
CUDALINT_HD __half2 operator--(__half2 &a, int);
CUDALINT_HD bool operator==(const __half2 &a, const __half2 &b);
CUDALINT_HD bool operator!=(const __half2 &a, const __half2 &b);
CUDALINT_HD bool operator<(const __half2 &a, const __half2 &b);
CUDALINT_HD bool operator>(const __half2 &a, const __half2 &b);
CUDALINT_HD bool operator<=(const __half2 &a, const __half2 &b);
CUDALINT_HD bool operator>=(const __half2 &a, const __half2 &b);

/* Conversions. */
CUDALINT_HD __half __float2half(float a);
CUDALINT_HD __half __float2half_rn(float a);
CUDALINT_HD __half __double2half(double a);
CUDALINT_HD __half __float2half_rz(float a);
CUDALINT_HD __half __double2half_rz(double a);
CUDALINT_HD __half __float2half_rd(float a);
CUDALINT_HD __half __double2half_rd(double a);
CUDALINT_HD __half __float2half_ru(float a);
CUDALINT_HD __half __double2half_ru(double a);
CUDALINT_HD float __half2float(__half a);
CUDALINT_HD __half2 __float2half2_rn(float a);
CUDALINT_HD __half2 __floats2half2_rn(float a, float b);
CUDALINT_HD __half2 __float22half2_rn(float2 a);
CUDALINT_HD float2 __half22float2(__half2 a);
CUDALINT_HD float __low2float(__half2 a);
CUDALINT_HD float __high2float(__half2 a);
CUDALINT_HD __half __low2half(__half2 a);
CUDALINT_HD __half __high2half(__half2 a);
CUDALINT_HD __half2 __halves2half2(__half a, __half b);
CUDALINT_HD __half2 __half2half2(__half a);
CUDALINT_HD __half2 __lows2half2(__half2 a, __half2 b);
CUDALINT_HD __half2 __highs2half2(__half2 a, __half2 b);
CUDALINT_HD __half2 __low2half2(__half2 a);
CUDALINT_HD __half2 __high2half2(__half2 a);
CUDALINT_HD __half2 __lowhigh2highlow(__half2 a);
CUDALINT_HD __half2 make_half2(__half x, __half y);
CUDALINT_HD int __half2int_rn(__half h);
CUDALINT_HD __half __int2half_rn(int i);
CUDALINT_HD int __half2int_rz(__half h);
CUDALINT_HD __half __int2half_rz(int i);
CUDALINT_HD int __half2int_rd(__half h);
CUDALINT_HD __half __int2half_rd(int i);
CUDALINT_HD int __half2int_ru(__half h);
CUDALINT_HD __half __int2half_ru(int i);
CUDALINT_HD unsigned int __half2uint_rn(__half h);
CUDALINT_HD __half __uint2half_rn(unsigned int i);
CUDALINT_HD unsigned int __half2uint_rz(__half h);
CUDALINT_HD __half __uint2half_rz(unsigned int i);
CUDALINT_HD unsigned int __half2uint_rd(__half h);
CUDALINT_HD __half __uint2half_rd(unsigned int i);
CUDALINT_HD unsigned int __half2uint_ru(__half h);
CUDALINT_HD __half __uint2half_ru(unsigned int i);
CUDALINT_HD short __half2short_rn(__half h);
CUDALINT_HD __half __short2half_rn(short i);
CUDALINT_HD short __half2short_rz(__half h);
CUDALINT_HD __half __short2half_rz(short i);
CUDALINT_HD short __half2short_rd(__half h);
CUDALINT_HD __half __short2half_rd(short i);
CUDALINT_HD short __half2short_ru(__half h);
CUDALINT_HD __half __short2half_ru(short i);
CUDALINT_HD unsigned short __half2ushort_rn(__half h);
CUDALINT_HD __half __ushort2half_rn(unsigned short i);
CUDALINT_HD unsigned short __half2ushort_rz(__half h);
CUDALINT_HD __half __ushort2half_rz(unsigned short i);
CUDALINT_HD unsigned short __half2ushort_rd(__half h);
CUDALINT_HD __half __ushort2half_rd(unsigned short i);
CUDALINT_HD unsigned short __half2ushort_ru(__half h);
CUDALINT_HD __half __ushort2half_ru(unsigned short i);
CUDALINT_HD long long __half2ll_rn(__half h);
CUDALINT_HD __half __ll2half_rn(long long i);
CUDALINT_HD long long __half2ll_rz(__half h);
CUDALINT_HD __half __ll2half_rz(long long i);
CUDALINT_HD long long __half2ll_rd(__half h);
CUDALINT_HD __half __ll2half_rd(long long i);
CUDALINT_HD long long __half2ll_ru(__half h);
CUDALINT_HD __half __ll2half_ru(long long i);
CUDALINT_HD unsigned long long __half2ull_rn(__half h);
CUDALINT_HD __half __ull2half_rn(unsigned long long i);
CUDALINT_HD unsigned long long __half2ull_rz(__half h);
CUDALINT_HD __half __ull2half_rz(unsigned long long i);
CUDALINT_HD unsigned long long __half2ull_rd(__half h);
CUDALINT_HD __half __ull2half_rd(unsigned long long i);
CUDALINT_HD unsigned long long __half2ull_ru(__half h);
CUDALINT_HD __half __ull2half_ru(unsigned long long i);
CUDALINT_HD signed char __half2char_rz(__half h);
CUDALINT_HD unsigned char __half2uchar_rz(__half h);
CUDALINT_HD short __half_as_short(__half h);
CUDALINT_HD unsigned short __half_as_ushort(__half h);
CUDALINT_HD __half __short_as_half(short i);
CUDALINT_HD __half __ushort_as_half(unsigned short i);

/* Arithmetic, comparison and math functions. */
CUDALINT_HD __half __hadd(__half a, __half b);
CUDALINT_HD __half __hsub(__half a, __half b);
CUDALINT_HD __half __hmul(__half a, __half b);
CUDALINT_HD __half __hdiv(__half a, __half b);
CUDALINT_HD __half __hadd_sat(__half a, __half b);
CUDALINT_HD __half __hsub_sat(__half a, __half b);
CUDALINT_HD __half __hmul_sat(__half a, __half b);
CUDALINT_HD __half __hadd_rn(__half a, __half b);
CUDALINT_HD __half __hsub_rn(__half a, __half b);
CUDALINT_HD __half __hmul_rn(__half a, __half b);
CUDALINT_HD __half __hmax(__half a, __half b);
CUDALINT_HD __half __hmin(__half a, __half b);
CUDALINT_HD __half __hmax_nan(__half a, __half b);
CUDALINT_HD __half __hmin_nan(__half a, __half b);
CUDALINT_HD __half2 __hadd2(__half2 a, __half2 b);
CUDALINT_HD __half2 __hsub2(__half2 a, __half2 b);
CUDALINT_HD __half2 __hmul2(__half2 a, __half2 b);
CUDALINT_HD __half2 __h2div(__half2 a, __half2 b);
CUDALINT_HD __half2 __hadd2_sat(__half2 a, __half2 b);
CUDALINT_HD __half2 __hsub2_sat(__half2 a, __half2 b);
CUDALINT_HD __half2 __hmul2_sat(__half2 a, __half2 b);
CUDALINT_HD __half2 __hadd2_rn(__half2 a, __half2 b);
CUDALINT_HD __half2 __hsub2_rn(__half2 a, __half2 b);
CUDALINT_HD __half2 __hmul2_rn(__half2 a, __half2 b);
CUDALINT_HD __half2 __hmax2(__half2 a, __half2 b);
CUDALINT_HD __half2 __hmin2(__half2 a, __half2 b);
CUDALINT_HD __half2 __hmax2_nan(__half2 a, __half2 b);
CUDALINT_HD __half2 __hmin2_nan(__half2 a, __half2 b);
CUDALINT_HD __half __hfma(__half a, __half b, __half c);
CUDALINT_HD __half __hfma_sat(__half a, __half b, __half c);
CUDALINT_HD __half __hfma_relu(__half a, __half b, __half c);
CUDALINT_HD __half2 __hfma2(__half2 a, __half2 b, __half2 c);
CUDALINT_HD __half2 __hfma2_sat(__half2 a, __half2 b, __half2 c);
CUDALINT_HD __half2 __hfma2_relu(__half2 a, __half2 b, __half2 c);
CUDALINT_HD __half2 __hcmadd(__half2 a, __half2 b, __half2 c);
CUDALINT_HD __half __hneg(__half a);
CUDALINT_HD __half __habs(__half a);
CUDALINT_HD __half2 __hneg2(__half2 a);
CUDALINT_HD __half2 __habs2(__half2 a);
CUDALINT_HD bool __heq(__half a, __half b);
CUDALINT_HD __half2 __heq2(__half2 a, __half2 b);
CUDALINT_HD bool __hbeq2(__half2 a, __half2 b);
CUDALINT_HD unsigned int __heq2_mask(__half2 a, __half2 b);
CUDALINT_HD bool __hne(__half a, __half b);
CUDALINT_HD __half2 __hne2(__half2 a, __half2 b);
CUDALINT_HD bool __hbne2(__half2 a, __half2 b);
CUDALINT_HD unsigned int __hne2_mask(__half2 a, __half2 b);
CUDALINT_HD bool __hle(__half a, __half b);
CUDALINT_HD __half2 __hle2(__half2 a, __half2 b);
CUDALINT_HD bool __hble2(__half2 a, __half2 b);
CUDALINT_HD unsigned int __hle2_mask(__half2 a, __half2 b);
CUDALINT_HD bool __hge(__half a, __half b);
CUDALINT_HD __half2 __hge2(__half2 a, __half2 b);
CUDALINT_HD bool __hbge2(__half2 a, __half2 b);
CUDALINT_HD unsigned int __hge2_mask(__half2 a, __half2 b);
CUDALINT_HD bool __hlt(__half a, __half b);
CUDALINT_HD __half2 __hlt2(__half2 a, __half2 b);
CUDALINT_HD bool __hblt2(__half2 a, __half2 b);
CUDALINT_HD unsigned int __hlt2_mask(__half2 a, __half2 b);
CUDALINT_HD bool __hgt(__half a, __half b);
CUDALINT_HD __half2 __hgt2(__half2 a, __half2 b);
CUDALINT_HD bool __hbgt2(__half2 a, __half2 b);
CUDALINT_HD unsigned int __hgt2_mask(__half2 a, __half2 b);
CUDALINT_HD bool __hequ(__half a, __half b);
CUDALINT_HD __half2 __hequ2(__half2 a, __half2 b);
CUDALINT_HD bool __hbequ2(__half2 a, __half2 b);
CUDALINT_HD unsigned int __hequ2_mask(__half2 a, __half2 b);
CUDALINT_HD bool __hneu(__half a, __half b);
CUDALINT_HD __half2 __hneu2(__half2 a, __half2 b);
CUDALINT_HD bool __hbneu2(__half2 a, __half2 b);
CUDALINT_HD unsigned int __hneu2_mask(__half2 a, __half2 b);
CUDALINT_HD bool __hleu(__half a, __half b);
CUDALINT_HD __half2 __hleu2(__half2 a, __half2 b);
CUDALINT_HD bool __hbleu2(__half2 a, __half2 b);
CUDALINT_HD unsigned int __hleu2_mask(__half2 a, __half2 b);
CUDALINT_HD bool __hgeu(__half a, __half b);
CUDALINT_HD __half2 __hgeu2(__half2 a, __half2 b);
CUDALINT_HD bool __hbgeu2(__half2 a, __half2 b);
CUDALINT_HD unsigned int __hgeu2_mask(__half2 a, __half2 b);
CUDALINT_HD bool __hltu(__half a, __half b);
CUDALINT_HD __half2 __hltu2(__half2 a, __half2 b);
CUDALINT_HD bool __hbltu2(__half2 a, __half2 b);
CUDALINT_HD unsigned int __hltu2_mask(__half2 a, __half2 b);
CUDALINT_HD bool __hgtu(__half a, __half b);
CUDALINT_HD __half2 __hgtu2(__half2 a, __half2 b);
CUDALINT_HD bool __hbgtu2(__half2 a, __half2 b);
CUDALINT_HD unsigned int __hgtu2_mask(__half2 a, __half2 b);
CUDALINT_HD bool __hisnan(__half a);
CUDALINT_HD int __hisinf(__half a);
CUDALINT_HD __half2 __hisnan2(__half2 a);
CUDALINT_D __half hsqrt(const __half a);
CUDALINT_D __half2 h2sqrt(const __half2 a);
CUDALINT_D __half hrsqrt(const __half a);
CUDALINT_D __half2 h2rsqrt(const __half2 a);
CUDALINT_D __half hrcp(const __half a);
CUDALINT_D __half2 h2rcp(const __half2 a);
CUDALINT_D __half hexp(const __half a);
CUDALINT_D __half2 h2exp(const __half2 a);
CUDALINT_D __half hexp2(const __half a);
CUDALINT_D __half2 h2exp2(const __half2 a);
CUDALINT_D __half hexp10(const __half a);
CUDALINT_D __half2 h2exp10(const __half2 a);
CUDALINT_D __half hlog(const __half a);
CUDALINT_D __half2 h2log(const __half2 a);
CUDALINT_D __half hlog2(const __half a);
CUDALINT_D __half2 h2log2(const __half2 a);
CUDALINT_D __half hlog10(const __half a);
CUDALINT_D __half2 h2log10(const __half2 a);
CUDALINT_D __half hsin(const __half a);
CUDALINT_D __half2 h2sin(const __half2 a);
CUDALINT_D __half hcos(const __half a);
CUDALINT_D __half2 h2cos(const __half2 a);
CUDALINT_D __half hceil(const __half a);
CUDALINT_D __half2 h2ceil(const __half2 a);
CUDALINT_D __half hfloor(const __half a);
CUDALINT_D __half2 h2floor(const __half2 a);
CUDALINT_D __half htrunc(const __half a);
CUDALINT_D __half2 h2trunc(const __half2 a);
CUDALINT_D __half hrint(const __half a);
CUDALINT_D __half2 h2rint(const __half2 a);
CUDALINT_D __half htanh(const __half a);
CUDALINT_D __half2 h2tanh(const __half2 a);

/* Warp shuffles, cache-hinted loads and stores, atomics. */
CUDALINT_D __half __shfl_sync(unsigned int mask, __half var, int srcLane, int width = 32);
CUDALINT_D __half __shfl_up_sync(unsigned int mask, __half var, unsigned int delta, int width = 32);
CUDALINT_D __half __shfl_down_sync(unsigned int mask, __half var, unsigned int delta, int width = 32);
CUDALINT_D __half __shfl_xor_sync(unsigned int mask, __half var, int laneMask, int width = 32);
CUDALINT_D __half __ldg(const __half *ptr);
CUDALINT_D __half __ldcg(const __half *ptr);
CUDALINT_D __half __ldca(const __half *ptr);
CUDALINT_D __half __ldcs(const __half *ptr);
CUDALINT_D __half __ldlu(const __half *ptr);
CUDALINT_D __half __ldcv(const __half *ptr);
CUDALINT_D void __stwb(__half *ptr, __half value);
CUDALINT_D void __stcg(__half *ptr, __half value);
CUDALINT_D void __stcs(__half *ptr, __half value);
CUDALINT_D void __stwt(__half *ptr, __half value);
CUDALINT_D __half atomicAdd(__half *address, __half val);
CUDALINT_D __half2 __shfl_sync(unsigned int mask, __half2 var, int srcLane, int width = 32);
CUDALINT_D __half2 __shfl_up_sync(unsigned int mask, __half2 var, unsigned int delta, int width = 32);
CUDALINT_D __half2 __shfl_down_sync(unsigned int mask, __half2 var, unsigned int delta, int width = 32);
CUDALINT_D __half2 __shfl_xor_sync(unsigned int mask, __half2 var, int laneMask, int width = 32);
CUDALINT_D __half2 __ldg(const __half2 *ptr);
CUDALINT_D __half2 __ldcg(const __half2 *ptr);
CUDALINT_D __half2 __ldca(const __half2 *ptr);
CUDALINT_D __half2 __ldcs(const __half2 *ptr);
CUDALINT_D __half2 __ldlu(const __half2 *ptr);
CUDALINT_D __half2 __ldcv(const __half2 *ptr);
CUDALINT_D void __stwb(__half2 *ptr, __half2 value);
CUDALINT_D void __stcg(__half2 *ptr, __half2 value);
CUDALINT_D void __stcs(__half2 *ptr, __half2 value);
CUDALINT_D void __stwt(__half2 *ptr, __half2 value);
CUDALINT_D __half2 atomicAdd(__half2 *address, __half2 val);

#undef CUDALINT_HD
#undef CUDALINT_D
#endif
