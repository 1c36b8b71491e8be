// Parses only with the extra-args of .cudalint.yaml: the include path and the
// define.  Without them clang fails and cudalint reports CU000.
#include "config_test_only.h"
#ifndef CUDALINT_CONFIG_TEST
#error "CUDALINT_CONFIG_TEST is not defined"
#endif
__global__ void scale(float *x) { x[threadIdx.x] *= CONFIG_TEST_SCALE; }
