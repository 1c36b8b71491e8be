/* cudalint/math.h: device overloads of the C math library, CUDA's extra math functions, and min/max. */
#pragma clang system_header
#ifndef CUDALINT_MATH_H
#define CUDALINT_MATH_H

/* The host declarations come from the system's <math.h>/<cmath>.  Device
   code needs its own overloads: clang lets a __device__ function overload a
   host function of the same signature, and picks by the caller's side.
   Each function comes as name(double), namef(float) and name(float), as
   CUDA's math headers provide. */
#define CUDALINT_D extern __device__

#define CUDALINT_MATH1(name)                                                   \
    CUDALINT_D double name(double x);                                          \
    CUDALINT_D float name##f(float x);                                         \
    CUDALINT_D float name(float x);
#define CUDALINT_MATH2(name)                                                   \
    CUDALINT_D double name(double x, double y);                                \
    CUDALINT_D float name##f(float x, float y);                                \
    CUDALINT_D float name(float x, float y);
#define CUDALINT_MATH_INT1(ret, name)                                          \
    CUDALINT_D ret name(double x);                                             \
    CUDALINT_D ret name##f(float x);                                           \
    CUDALINT_D ret name(float x);

CUDALINT_MATH1(acos)
CUDALINT_MATH1(acosh)
CUDALINT_MATH1(asin)
CUDALINT_MATH1(asinh)
CUDALINT_MATH1(atan)
CUDALINT_MATH1(atanh)
CUDALINT_MATH1(cbrt)
CUDALINT_MATH1(ceil)
CUDALINT_MATH1(cos)
CUDALINT_MATH1(cosh)
CUDALINT_MATH1(cospi)
CUDALINT_MATH1(erf)
CUDALINT_MATH1(erfc)
CUDALINT_MATH1(erfcinv)
CUDALINT_MATH1(erfcx)
CUDALINT_MATH1(erfinv)
CUDALINT_MATH1(exp)
CUDALINT_MATH1(exp10)
CUDALINT_MATH1(exp2)
CUDALINT_MATH1(expm1)
CUDALINT_MATH1(fabs)
CUDALINT_MATH1(floor)
CUDALINT_MATH1(j0)
CUDALINT_MATH1(j1)
CUDALINT_MATH1(lgamma)
CUDALINT_MATH1(log)
CUDALINT_MATH1(log10)
CUDALINT_MATH1(log1p)
CUDALINT_MATH1(log2)
CUDALINT_MATH1(logb)
CUDALINT_MATH1(nearbyint)
CUDALINT_MATH1(normcdf)
CUDALINT_MATH1(normcdfinv)
CUDALINT_MATH1(rcbrt)
CUDALINT_MATH1(rint)
CUDALINT_MATH1(round)
CUDALINT_MATH1(rsqrt)
CUDALINT_MATH1(sin)
CUDALINT_MATH1(sinh)
CUDALINT_MATH1(sinpi)
CUDALINT_MATH1(sqrt)
CUDALINT_MATH1(tan)
CUDALINT_MATH1(tanh)
CUDALINT_MATH1(tgamma)
CUDALINT_MATH1(trunc)
CUDALINT_MATH1(y0)
CUDALINT_MATH1(y1)
CUDALINT_MATH1(cyl_bessel_i0)
CUDALINT_MATH1(cyl_bessel_i1)
CUDALINT_MATH2(atan2)
CUDALINT_MATH2(copysign)
CUDALINT_MATH2(fdim)
CUDALINT_MATH2(fmax)
CUDALINT_MATH2(fmin)
CUDALINT_MATH2(fmod)
CUDALINT_MATH2(hypot)
CUDALINT_MATH2(nextafter)
CUDALINT_MATH2(pow)
CUDALINT_MATH2(remainder)
CUDALINT_MATH2(rhypot)
CUDALINT_MATH_INT1(int, ilogb)
CUDALINT_MATH_INT1(long, lrint)
CUDALINT_MATH_INT1(long, lround)
CUDALINT_MATH_INT1(long long, llrint)
CUDALINT_MATH_INT1(long long, llround)

CUDALINT_D double fma(double x, double y, double z);
CUDALINT_D float fmaf(float x, float y, float z);
CUDALINT_D float fma(float x, float y, float z);
CUDALINT_D double ldexp(double x, int e);
CUDALINT_D float ldexpf(float x, int e);
CUDALINT_D float ldexp(float x, int e);
CUDALINT_D double scalbn(double x, int n);
CUDALINT_D float scalbnf(float x, int n);
CUDALINT_D float scalbn(float x, int n);
CUDALINT_D double scalbln(double x, long n);
CUDALINT_D float scalblnf(float x, long n);
CUDALINT_D float scalbln(float x, long n);
CUDALINT_D double frexp(double x, int *e);
CUDALINT_D float frexpf(float x, int *e);
CUDALINT_D float frexp(float x, int *e);
CUDALINT_D double modf(double x, double *ip);
CUDALINT_D float modff(float x, float *ip);
CUDALINT_D float modf(float x, float *ip);
CUDALINT_D double remquo(double x, double y, int *quo);
CUDALINT_D float remquof(float x, float y, int *quo);
CUDALINT_D float remquo(float x, float y, int *quo);
CUDALINT_D double jn(int n, double x);
CUDALINT_D float jnf(int n, float x);
CUDALINT_D double yn(int n, double x);
CUDALINT_D float ynf(int n, float x);
CUDALINT_D double nan(const char *tag);
CUDALINT_D float nanf(const char *tag);
CUDALINT_D void sincos(double x, double *s, double *c);
CUDALINT_D void sincosf(float x, float *s, float *c);
CUDALINT_D void sincos(float x, float *s, float *c);
CUDALINT_D void sincospi(double x, double *s, double *c);
CUDALINT_D void sincospif(float x, float *s, float *c);
CUDALINT_D void sincospi(float x, float *s, float *c);
CUDALINT_D double norm3d(double a, double b, double c);
CUDALINT_D float norm3df(float a, float b, float c);
CUDALINT_D double rnorm3d(double a, double b, double c);
CUDALINT_D float rnorm3df(float a, float b, float c);
CUDALINT_D double norm4d(double a, double b, double c, double d);
CUDALINT_D float norm4df(float a, float b, float c, float d);
CUDALINT_D double rnorm4d(double a, double b, double c, double d);
CUDALINT_D float rnorm4df(float a, float b, float c, float d);
CUDALINT_D double norm(int dim, const double *p);
CUDALINT_D float normf(int dim, const float *p);
CUDALINT_D double rnorm(int dim, const double *p);
CUDALINT_D float rnormf(int dim, const float *p);
CUDALINT_D float fdividef(float x, float y);
CUDALINT_D double fdivide(double x, double y);
CUDALINT_D double pow(double x, int y);
CUDALINT_D float pow(float x, int y);

/* Mixed argument types (pow(float, double), fmax(x, 0) ...): CUDA's headers
   (and clang's own for the real toolkit) give these templates, which promote
   both arguments to double.  Without them device code would find only the
   C++ library's host template. */
template <bool B, typename T> struct cudalint_enable_if {};
template <typename T> struct cudalint_enable_if<true, T> { typedef T type; };
#define CUDALINT_MATH2_MIXED(name)                                                         \
    template <typename T1, typename T2>                                                    \
    __device__ typename cudalint_enable_if<__is_arithmetic(T1) && __is_arithmetic(T2),      \
                                           double>::type                                   \
    name(T1 x, T2 y)                                                                       \
    {                                                                                      \
        return name((double)x, (double)y);                                                 \
    }
CUDALINT_MATH2_MIXED(atan2)
CUDALINT_MATH2_MIXED(copysign)
CUDALINT_MATH2_MIXED(fdim)
CUDALINT_MATH2_MIXED(fmax)
CUDALINT_MATH2_MIXED(fmin)
CUDALINT_MATH2_MIXED(fmod)
CUDALINT_MATH2_MIXED(hypot)
CUDALINT_MATH2_MIXED(nextafter)
CUDALINT_MATH2_MIXED(pow)
CUDALINT_MATH2_MIXED(remainder)
#undef CUDALINT_MATH2_MIXED

/* Classification; glibc's own names included, as device code uses them. */
CUDALINT_D bool isfinite(float x);
CUDALINT_D bool isfinite(double x);
CUDALINT_D bool isinf(float x);
CUDALINT_D bool isinf(double x);
CUDALINT_D bool isnan(float x);
CUDALINT_D bool isnan(double x);
CUDALINT_D bool signbit(float x);
CUDALINT_D bool signbit(double x);
extern "C" {
CUDALINT_D int __finitef(float x);
CUDALINT_D int __finite(double x);
CUDALINT_D int __isinff(float x);
CUDALINT_D int __isinf(double x);
CUDALINT_D int __isnanf(float x);
CUDALINT_D int __isnan(double x);
CUDALINT_D int __signbitf(float x);
CUDALINT_D int __signbit(double x);
}

/* Integer absolute values. */
CUDALINT_D int abs(int x);
CUDALINT_D long labs(long x);
CUDALINT_D long long llabs(long long x);
CUDALINT_D long abs(long x);
CUDALINT_D long long abs(long long x);
CUDALINT_D float abs(float x);
CUDALINT_D double abs(double x);

/* min and max: nvcc declares these overloads for host and device alike,
   including the mixed signed/unsigned and float/double pairs. */
#define CUDALINT_MINMAX(name)                                                              \
    extern __host__ __device__ int name(int a, int b);                                     \
    extern __host__ __device__ unsigned int name(unsigned int a, unsigned int b);          \
    extern __host__ __device__ unsigned int name(int a, unsigned int b);                   \
    extern __host__ __device__ unsigned int name(unsigned int a, int b);                   \
    extern __host__ __device__ long name(long a, long b);                                  \
    extern __host__ __device__ unsigned long name(unsigned long a, unsigned long b);       \
    extern __host__ __device__ unsigned long name(long a, unsigned long b);                \
    extern __host__ __device__ unsigned long name(unsigned long a, long b);                \
    extern __host__ __device__ long long name(long long a, long long b);                   \
    extern __host__ __device__ unsigned long long name(unsigned long long a,               \
                                                       unsigned long long b);              \
    extern __host__ __device__ unsigned long long name(long long a, unsigned long long b); \
    extern __host__ __device__ unsigned long long name(unsigned long long a, long long b); \
    extern __host__ __device__ float name(float a, float b);                               \
    extern __host__ __device__ double name(double a, double b);                            \
    extern __host__ __device__ double name(float a, double b);                             \
    extern __host__ __device__ double name(double a, float b);
CUDALINT_MINMAX(min)
CUDALINT_MINMAX(max)
CUDALINT_D unsigned int umin(unsigned int a, unsigned int b);
CUDALINT_D unsigned int umax(unsigned int a, unsigned int b);
CUDALINT_D long long llmin(long long a, long long b);
CUDALINT_D long long llmax(long long a, long long b);
CUDALINT_D unsigned long long ullmin(unsigned long long a, unsigned long long b);
CUDALINT_D unsigned long long ullmax(unsigned long long a, unsigned long long b);

/* std:: names: <cmath> imported the host functions into std before these
   device overloads existed; import them again so that std::sqrt(x) and
   friends in device code see the device forms too. */
namespace std {
using ::abs;
using ::fabs;
using ::acos;
using ::acosh;
using ::asin;
using ::asinh;
using ::atan;
using ::atan2;
using ::atanh;
using ::cbrt;
using ::ceil;
using ::copysign;
using ::cos;
using ::cosh;
using ::erf;
using ::erfc;
using ::exp;
using ::exp2;
using ::expm1;
using ::fdim;
using ::floor;
using ::fma;
using ::fmax;
using ::fmin;
using ::fmod;
using ::frexp;
using ::hypot;
using ::ilogb;
using ::isfinite;
using ::isinf;
using ::isnan;
using ::ldexp;
using ::lgamma;
using ::llrint;
using ::llround;
using ::log;
using ::log10;
using ::log1p;
using ::log2;
using ::logb;
using ::lrint;
using ::lround;
using ::modf;
using ::nearbyint;
using ::nextafter;
using ::pow;
using ::remainder;
using ::remquo;
using ::rint;
using ::round;
using ::scalbln;
using ::scalbn;
using ::signbit;
using ::sin;
using ::sinh;
using ::sqrt;
using ::tan;
using ::tanh;
using ::tgamma;
using ::trunc;
}

#undef CUDALINT_MATH1
#undef CUDALINT_MATH2
#undef CUDALINT_MATH_INT1
#undef CUDALINT_MINMAX
#undef CUDALINT_D

#endif
