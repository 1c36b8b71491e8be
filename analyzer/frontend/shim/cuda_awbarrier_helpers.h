/* cuda_awbarrier_helpers.h: stand-in for the CUDA header of this name; cuda_awbarrier.h declares its part. */
#pragma clang system_header
#include <cuda_awbarrier.h>
