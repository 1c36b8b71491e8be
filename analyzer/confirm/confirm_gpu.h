/* confirm_gpu.h: the GPU steps of a pair: the harness (check,
 * timing), Nsight Compute and compute-sanitizer. */
#ifndef CUDALINT_CONFIRM_GPU_H
#define CUDALINT_CONFIRM_GPU_H

#include "confirm/confirm_model.h"

/* build-gpu: the harness executable for the pair (*exe, malloc'd). */
bool confirm_build_harness(struct confirm_env *env, struct pair_result *r, const char *pwork,
                           char **exe);
/* check and timing from one harness run. */
void confirm_run_harness(struct confirm_env *env, struct pair_result *r, const char *pwork,
                         const char *exe);
void confirm_ncu_step(struct confirm_env *env, struct pair_result *r, const char *pwork,
                      const char *exe);
void confirm_sanitizer_step(struct confirm_env *env, struct pair_result *r, const char *pwork,
                            const char *exe);

#endif
