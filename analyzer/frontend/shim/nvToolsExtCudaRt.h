/* nvToolsExtCudaRt.h: stand-in for the NVTX v2 header name; nvtx3/nvToolsExtCudaRt.h declares its part. */
#pragma clang system_header
#include <nvtx3/nvToolsExtCudaRt.h>
