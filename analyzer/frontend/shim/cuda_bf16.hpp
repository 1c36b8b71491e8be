/* cuda_bf16.hpp: stand-in for the CUDA header of this name; cuda_bf16.h declares its part. */
#pragma clang system_header
#include <cuda_bf16.h>
