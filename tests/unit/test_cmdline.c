/* test_cmdline.c: unit tests for the option table and its parser
 * (core/cmdline.c), which the lint command, the language server and
 * `confirm` share, and for the reporting path (base/report.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/report.h"
#include "core/cmdline.h"

struct seen {
    int ids[16];
    char *values[16];
    int n;
};

static int record(void *data, int id, const char *value, char **error)
{
    struct seen *s = data;
    s->ids[s->n] = id;
    s->values[s->n] = value ? xstrdup(value) : NULL;
    s->n++;
    return id == ID_HELP ? 1 : 0;
}

static void seen_release(struct seen *s)
{
    for (int i = 0; i < s->n; i++) free(s->values[i]);
}

static int parse(unsigned cmd, struct lint_options *o, struct seen *s, struct strvec *pos, char **error,
                 int argc, char **argv)
{
    lint_options_init(o);
    memset(s, 0, sizeof *s);
    memset(pos, 0, sizeof *pos);
    *error = NULL;
    return cmdline_parse(cmd, argc, argv, o, record, s, pos, error);
}

static void test_lint_forms(void **state)
{
    char *argv[] = {"cudalint", "a.cu", "--select", "CU1, CU2", "--format=json", "-qj3", "-p", "build",
                    "--cuda-arch", "sm_80,sm_90", "b.cu", "--", "-DX", "--not-ours"};
    struct lint_options o;
    struct seen s;
    struct strvec pos;
    char *error;
    assert_int_equal(parse(CMD_LINT, &o, &s, &pos, &error, 14, argv), 0);
    assert_int_equal(o.select.len, 2);
    assert_string_equal(o.select.items[0], "CU1");
    assert_string_equal(o.select.items[1], "CU2");
    assert_string_equal(o.format, "json");
    assert_true(o.quiet);
    assert_int_equal(o.jobs, 3);
    assert_string_equal(o.compdb_dir, "build");
    assert_int_equal(o.archs.len, 2);
    assert_true(o.explicit_archs);
    assert_int_equal(pos.len, 2);
    assert_string_equal(pos.items[1], "b.cu");
    assert_int_equal(o.extra_args.len, 2);
    assert_string_equal(o.extra_args.items[1], "--not-ours");
    sv_release(&pos);
    seen_release(&s);
    lint_options_release(&o);
}

static void test_prefix_and_errors(void **state)
{
    struct lint_options o;
    struct seen s;
    struct strvec pos;
    char *error;
    char *abbrev[] = {"cudalint", "--show-parse", "x.cu"};
    assert_int_equal(parse(CMD_LINT, &o, &s, &pos, &error, 3, abbrev), 0);
    assert_true(o.show_parse_errors);
    lint_options_release(&o);
    sv_release(&pos);

    struct {
        char *arg, *arg2;
        const char *want;
    } bad[] = {
        {"--bogus", NULL, "unknown option '--bogus'"},
        {"--no", NULL, "ambiguous option '--no'"},
        {"--format", NULL, "option --format needs a value"},
        {"--fix=yes", NULL, "option --fix takes no value"},
        {"-j", "0", "-j needs a number of jobs from 1 to 1024, not '0'"},
        {"--color", "sometimes", "--color must be auto, always or never, not 'sometimes'"},
        {"--log", "x", "unknown option '--log'"}, /* the language server's, not lint's */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *argv[] = {"cudalint", bad[i].arg, bad[i].arg2};
        assert_int_equal(parse(CMD_LINT, &o, &s, &pos, &error, bad[i].arg2 ? 3 : 2, argv), -1);
        assert_non_null(error);
        assert_string_equal(error, bad[i].want);
        free(error);
        lint_options_release(&o);
        sv_release(&pos);
    }
}

static void test_commands_and_stop(void **state)
{
    struct lint_options o;
    struct seen s;
    struct strvec pos;
    char *error;
    char *lsp[] = {"cudalint", "--log", "trace.txt", "--no-reuse", "--stdio", "--host", "-h", "--never-parsed"};
    assert_int_equal(parse(CMD_LSP, &o, &s, &pos, &error, 8, lsp), 1);
    assert_int_equal(s.n, 4);
    assert_int_equal(s.ids[0], ID_LOG);
    assert_string_equal(s.values[0], "trace.txt");
    assert_int_equal(s.ids[1], ID_NO_REUSE);
    assert_int_equal(s.ids[2], ID_STDIO);
    assert_int_equal(s.ids[3], ID_HELP);
    assert_true(o.host);
    seen_release(&s);
    lint_options_release(&o);
    sv_release(&pos);

    /* confirm has no lint options: they are unknown there, and it may parse
       without a struct lint_options. */
    char *confirm[] = {"cudalint", "--runs=25", "CU401", "--static"};
    memset(&s, 0, sizeof s);
    memset(&pos, 0, sizeof pos);
    assert_int_equal(cmdline_parse(CMD_CONFIRM, 4, confirm, NULL, record, &s, &pos, &error), 0);
    assert_int_equal(s.n, 2);
    assert_int_equal(s.ids[0], ID_RUNS);
    assert_string_equal(s.values[0], "25");
    assert_int_equal(pos.len, 1);
    seen_release(&s);
    sv_release(&pos);
    char *host[] = {"cudalint", "--host"};
    assert_int_equal(cmdline_parse(CMD_CONFIRM, 2, host, NULL, record, &s, &pos, &error), -1);
    free(error);
}

/* Every option a command takes appears in its --help, and no other. */
static void test_help_lists_the_table(void **state)
{
    const unsigned cmds[] = {CMD_LINT, CMD_LSP, CMD_CONFIRM};
    for (size_t c = 0; c < 3; c++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        fputc('\n', f);
        cmdline_print_help(f, cmds[c]);
        fclose(f);
        for (size_t i = 0; i < cmdline_options_len; i++) {
            const struct cmdline_option *opt = &cmdline_options[i];
            if (!opt->name) continue;
            /* "  --name ..." or "  -x, --name ...", at the start of a line. */
            char *flag = xasprintf("%s--%s ", opt->short_name ? ", " : "\n  ", opt->name);
            bool listed = strstr(buf, flag) != NULL;
            bool wanted = (opt->commands & cmds[c]) && !opt->hidden;
            if (listed != wanted) fail_msg("command %u: --%s listed=%d wanted=%d", cmds[c], opt->name, listed, wanted);
            free(flag);
        }
        free(buf);
    }
}

struct captured {
    enum report_level level;
    char *message;
};

static void capture(void *data, enum report_level level, const char *message)
{
    struct captured *c = data;
    c->level = level;
    free(c->message);
    c->message = xstrdup(message);
}

static void test_report_sink(void **state)
{
    struct captured c = {0};
    report_set_sink(capture, &c);
    report_warning("cache %s is %d%% full", "dir", 90);
    assert_int_equal(c.level, REPORT_WARNING);
    assert_string_equal(c.message, "cache dir is 90% full");
    report_warn_once("test-key", "first");
    report_warn_once("test-key", "second");
    assert_string_equal(c.message, "first");
    report_set_sink(NULL, NULL);
    free(c.message);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lint_forms),
        cmocka_unit_test(test_prefix_and_errors),
        cmocka_unit_test(test_commands_and_stop),
        cmocka_unit_test(test_help_lists_the_table),
        cmocka_unit_test(test_report_sink),
    };
    return cmocka_run_group_tests_name("cmdline", tests, NULL, NULL);
}
