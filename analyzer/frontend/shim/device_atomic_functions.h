/* device_atomic_functions.h: stand-in for the CUDA header of this name; its declarations are part of cudalint_cuda.h. */
#pragma clang system_header
#include "cudalint_cuda.h"
