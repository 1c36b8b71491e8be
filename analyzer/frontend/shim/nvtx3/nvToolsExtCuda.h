/* nvtx3/nvToolsExtCuda.h: stand-in for the NVTX header of this name; nvtx3/nvToolsExt.h declares what code uses. */
#pragma clang system_header
#include <nvtx3/nvToolsExt.h>
