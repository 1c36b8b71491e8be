/* cuda_pipeline_helpers.h: stand-in for the CUDA header of this name; cuda_pipeline.h declares its part. */
#pragma clang system_header
#include <cuda_pipeline.h>
