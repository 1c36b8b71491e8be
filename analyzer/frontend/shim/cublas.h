/* cublas.h: stand-in for the cuBLAS header of this name; cublas_api.h declares its part. */
#pragma clang system_header
#include <cublas_api.h>
