/* thrust/sequence.h: stand-in for the Thrust header of this name; cudalint/thrust.h declares its part. */
#pragma clang system_header
#include <cudalint/thrust.h>
