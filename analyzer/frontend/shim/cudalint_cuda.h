/* cudalint_cuda.h: cudalint's own CUDA declarations, force-included when a file is parsed without the CUDA Toolkit. */
/*
 * What nvcc makes visible without any #include (cuda_runtime.h and what it
 * pulls in) is declared here: qualifiers, vector types, built-in variables,
 * the runtime API, device functions, math and intrinsics.  Library headers
 * (cuda_fp16.h, cooperative_groups.h, cuBLAS, ...) have their own stand-ins
 * next to this file.  Everything is a declaration: the parse only needs
 * names, types and overload sets, never bodies, which keeps it fast.
 *
 * The set is deliberately a superset across CUDA versions: where an API
 * changed (cudaMemAdvise, cudaGraphInstantiate, ...) both forms are
 * declared, because a lint must not report a version mismatch as a parse
 * error.
 */
#pragma clang system_header
#ifndef CUDALINT_CUDA_H
#define CUDALINT_CUDA_H

#if !defined(__CUDA__) || !defined(__cplusplus)
#error "cudalint_cuda.h is meant for CUDA C++ parses only"
#endif

#include "cudalint/defines.h"
#include "cudalint/host_headers.h"
#include "cudalint/vector_types.h"
#include "cudalint/runtime_types.h"
#include "cudalint/runtime_api.h"
#include "cudalint/device_functions.h"
#include "cudalint/math.h"
#include "cudalint/texture.h"
#include "cudalint/removed_api.h"

#endif
