/* cudalint/host_headers.h: the C and C++ library headers that nvcc's cuda_runtime.h brings in on its own. */
#pragma clang system_header
#ifndef CUDALINT_HOST_HEADERS_H
#define CUDALINT_HOST_HEADERS_H

/* Code compiled by nvcc may call printf, memcpy, malloc, assert, clock or
   the math library without including their headers, because the runtime
   header includes them.  The same set keeps such code parsing here.  They
   come from the system, not from this shim. */
#include <assert.h>
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Device-side forms of the C library calls device code may make.  They must
   precede <new>: clang's wrapper for it defines the device operator new
   with a call to ::malloc, looked up where it is defined. */
extern "C" {
extern __device__ int printf(const char *format, ...);
extern __device__ int vprintf(const char *format, const char *args);
extern __device__ void *malloc(size_t size);
extern __device__ void free(void *ptr);
extern __device__ void *memcpy(void *dst, const void *src, size_t n);
extern __device__ void *memset(void *dst, int value, size_t n);
extern __device__ void __assertfail(const char *message, const char *file, unsigned int line,
                                    const char *function, size_t charSize);
/* glibc's assert() expands to __assert_fail. */
extern __device__ void __assert_fail(const char *assertion, const char *file, unsigned int line,
                                     const char *function);
extern __device__ clock_t clock(void);
extern __device__ long long int clock64(void);
}

#include <cmath>
#include <cstdlib>
#include <new>
#include <utility>

#endif
