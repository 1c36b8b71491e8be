/* compat.h: the toolkit headers as a toolkit-mode parse reads them: where
 * CUDA 13 removed struct fields old code still reads (cudaDeviceProp's
 * clockRate, deviceOverlap, memoryClockRate ...), the real header is served
 * with those fields restored. */
#ifndef CUDALINT_COMPAT_H
#define CUDALINT_COMPAT_H

#include "base/util.h"
#include <stdbool.h>
#include <stddef.h>

/* For a toolkit pass (args name --cuda-path=ROOT): the path of
   ROOT/include/driver_types.h and its text with the removed cudaDeviceProp
   fields appended to the struct, read once per toolkit (the strings stay valid until a pass of another
   toolkit asks, which one process never does).  false when args
   are not a toolkit pass, the header is missing, or it already has the
   fields (CUDA 12 and older). */
bool compat_driver_types(const struct strvec *args, const char **path, const char **text, size_t *len);

#endif
