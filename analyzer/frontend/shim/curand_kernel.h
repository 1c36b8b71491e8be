/* curand_kernel.h: stand-in for the cuRAND device API header: generator states and the per-thread draw functions. */
#pragma clang system_header
#ifndef CURAND_KERNEL_H_
#define CURAND_KERNEL_H_
#include <curand.h>

/* The draw functions are templates over the state type: every generator
   offers the same calls, and the state's layout is never looked at. */
struct curandStateXORWOW { unsigned int d, v[5]; int boxmuller_flag, boxmuller_flag_double;
                           float boxmuller_extra; double boxmuller_extra_double; };
struct curandStatePhilox4_32_10 { uint4 ctr, output; uint2 key; unsigned int STATE; int boxmuller_flag,
                                  boxmuller_flag_double; float boxmuller_extra; double boxmuller_extra_double; };
struct curandStateMRG32k3a { unsigned int s1[3], s2[3]; int boxmuller_flag, boxmuller_flag_double;
                             float boxmuller_extra; double boxmuller_extra_double; };
struct curandStateMtgp32 { int offset, pIdx; unsigned int s[1024]; void *k; };
struct curandStateSobol32 { unsigned int i, x, c; unsigned int direction_vectors[32]; };
struct curandStateScrambledSobol32 { unsigned int i, x, c; unsigned int direction_vectors[32]; };
struct curandStateSobol64 { unsigned long long i, x, c; unsigned long long direction_vectors[64]; };
struct curandStateScrambledSobol64 { unsigned long long i, x, c; unsigned long long direction_vectors[64]; };
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;
typedef struct curandStateMtgp32 curandStateMtgp32_t;
typedef struct curandStateSobol32 curandStateSobol32_t;
typedef struct curandStateScrambledSobol32 curandStateScrambledSobol32_t;
typedef struct curandStateSobol64 curandStateSobol64_t;
typedef struct curandStateScrambledSobol64 curandStateScrambledSobol64_t;

template <class State>
__device__ void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                            State *state);
__device__ void curand_init(curandDirectionVectors32_t direction_vectors, unsigned int offset,
                            curandStateSobol32_t *state);
__device__ void curand_init(curandDirectionVectors32_t direction_vectors, unsigned int scramble_c,
                            unsigned int offset, curandStateScrambledSobol32_t *state);
__device__ void curand_init(curandDirectionVectors64_t direction_vectors, unsigned long long offset,
                            curandStateSobol64_t *state);
__device__ void curand_init(curandDirectionVectors64_t direction_vectors, unsigned long long scramble_c,
                            unsigned long long offset, curandStateScrambledSobol64_t *state);
template <class State> __device__ unsigned int curand(State *state);
template <class State> __device__ float curand_uniform(State *state);
template <class State> __device__ double curand_uniform_double(State *state);
template <class State> __device__ float curand_normal(State *state);
template <class State> __device__ double curand_normal_double(State *state);
template <class State> __device__ float2 curand_normal2(State *state);
template <class State> __device__ double2 curand_normal2_double(State *state);
template <class State> __device__ float curand_log_normal(State *state, float mean, float stddev);
template <class State> __device__ double curand_log_normal_double(State *state, double mean, double stddev);
template <class State> __device__ unsigned int curand_poisson(State *state, double lambda);
__device__ uint4 curand4(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_uniform4(curandStatePhilox4_32_10_t *state);
__device__ double2 curand_uniform2_double(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_normal4(curandStatePhilox4_32_10_t *state);
__device__ double2 curand_normal4_double(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_log_normal4(curandStatePhilox4_32_10_t *state, float mean, float stddev);
template <class State> __device__ void skipahead(unsigned long long n, State *state);
template <class State> __device__ void skipahead_sequence(unsigned long long n, State *state);
template <class State> __device__ void skipahead_subsequence(unsigned long long n, State *state);

#endif
