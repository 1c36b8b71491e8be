/* fuzz_config.c: .cudalint.yaml, as a cloned repository may carry it:
 * loading and validating it, merging it into a file's options, exclusion,
 * severity overrides and --dump-config. */
#include "fuzz_common.h"
#include "config/config.h"
#include "core/diag.h"
#include "core/rule.h"
#include "engine/lint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_quiet();
    char *cfg = fuzz_write(".cudalint.yaml", data, size);
    char *file = xasprintf("%s/k.cu", fuzz_dir());
    struct lint_session s;
    lint_session_init(&s);
    s.opts.headers = HEADERS_SHIM;
    s.opts.no_cache = true;
    sv_push(&s.opts.paths, file);
    char *error = NULL;
    if (config_prepare(&s.opts, &error) != 0) {
        free(error);
    } else {
        const struct lint_options *fo = config_options_for_file(&s.opts, file, &error);
        if (fo) {
            struct diag_list dl = {0};
            for (size_t i = 0; i < rule_registry_len; i++)
                diag_new(&dl, rule_registry[i], file, 1, 1, 1, 2, xstrdup("x"));
            config_finish_file(fo, &dl);
            diag_list_release(&dl);
            (void)config_path_excluded(&s.opts, file);
            FILE *null = fopen("/dev/null", "w");
            if (config_dump(null, &s.opts, file, &error) != 0) free(error);
            fclose(null);
        } else {
            free(error);
        }
    }
    lint_session_release(&s);
    free(file);
    free(cfg);
    return 0;
}
