/* nvToolsExt.h: stand-in for the NVTX v2 header name; nvtx3/nvToolsExt.h declares what code uses. */
#pragma clang system_header
#include <nvtx3/nvToolsExt.h>
