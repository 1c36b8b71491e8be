/* confirm_static.h: the static steps of a pair: lint, fix,
 * compile, and compare the instruction mix. */
#ifndef CUDALINT_CONFIRM_STATIC_H
#define CUDALINT_CONFIRM_STATIC_H

#include "confirm/confirm_model.h"

/* Runs nvcc with args; on failure records step as failed with the output's
   tail.  log_path collects the command lines and output; *warnings (when
   non-NULL) gets the tail of a successful build's output. */
bool confirm_nvcc(struct confirm_env *env, struct pair_result *r, const char *step,
                  struct strvec *args, const char *log_path, char **warnings);
/* The nvcc arguments that compile kernels/variant.cu as one variant of a
   pair ("bad", "fixed") with mode ("-ptx", "-cubin", "-c") into out. */
void confirm_variant_command(struct confirm_env *env, const struct pair *p, const char *pwork,
                             const char *variant, const char *mode, const char *out, struct strvec *a);
/* lint-bad, fix, lint-fixed; writes pwork/bad.cu and pwork/fixed.cu.
   False when there is no fixed kernel to go on with. */
bool confirm_lint_and_fix(struct confirm_env *env, struct pair_result *r, const char *pwork);
/* build-ptx, static, build-sass, static-sass. */
void confirm_static_steps(struct confirm_env *env, struct pair_result *r, const char *pwork);

#endif
