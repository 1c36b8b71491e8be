/* cooperative_groups/sync.h: stand-in for the CUDA header of this name; cooperative_groups.h declares its part. */
#pragma clang system_header
#include <cooperative_groups.h>
