/* cuda_fp16.hpp: stand-in for the CUDA header of this name; cuda_fp16.h declares its part. */
#pragma clang system_header
#include <cuda_fp16.h>
