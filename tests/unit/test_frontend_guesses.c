/* test_frontend_guesses.c: unit tests for what the frontend adds to a parse on
 * its own: nvcc's predefined macros (toolkit_nvcc_macros) and the include
 * folders guessed for a file without a compile command (include_guess). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontend/include_guess.h"
#include "frontend/toolkit.h"

static bool has(const struct strvec *v, const char *s)
{
    return sv_contains(v, s);
}

static void test_macros_from_full_version(void **state)
{
    (void)state;
    struct strvec args = {0};
    const char *archs[] = {"sm_90", "sm_80", "sm_90"};
    toolkit_nvcc_macros("13.0.88", archs, 3, &args);
    assert_true(has(&args, "-D__NVCC__=1"));
    assert_true(has(&args, "-D__CUDACC_VER_MAJOR__=13"));
    assert_true(has(&args, "-D__CUDACC_VER_MINOR__=0"));
    assert_true(has(&args, "-D__CUDACC_VER_BUILD__=88"));
    assert_true(has(&args, "-D__CUDA_API_VER_MAJOR__=13"));
    /* ascending, each once, as nvcc lists them */
    assert_true(has(&args, "-D__CUDA_ARCH_LIST__=800,900"));
    /* clang's own are left to clang */
    for (size_t i = 0; i < args.len; i++) {
        assert_null(strstr(args.items[i], "__CUDACC__="));
        assert_null(strstr(args.items[i], "__CUDA_ARCH__="));
    }
    sv_release(&args);
}

static void test_macros_without_build_or_archs(void **state)
{
    (void)state;
    struct strvec args = {0};
    toolkit_nvcc_macros("12.4", NULL, 0, &args);
    assert_true(has(&args, "-D__CUDACC_VER_MAJOR__=12"));
    assert_true(has(&args, "-D__CUDACC_VER_MINOR__=4"));
    assert_true(has(&args, "-D__CUDACC_VER_BUILD__=0"));
    assert_true(has(&args, "-D__CUDA_ARCH_LIST__=900"));
    sv_release(&args);
    toolkit_nvcc_macros(NULL, NULL, 0, &args);
    toolkit_nvcc_macros("garbage", NULL, 0, &args);
    assert_int_equal(args.len, 0);
    sv_release(&args);
}

/* A tree: root/app/main.cu includes "one.h" (in root/lib), <two.h> (in
   root/extra) and "twin.h" (in root/a and root/b, equally near). */
static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_guessed_folders(void **state)
{
    (void)state;
    char tmpl[] = "/tmp/cudalint_guess_XXXXXX";
    char *root = mkdtemp(tmpl);
    assert_non_null(root);
    const char *dirs[] = {"app", "lib", "extra", "a", "b"};
    for (size_t i = 0; i < 5; i++) {
        char *d = path_join(root, dirs[i]);
        assert_int_equal(mkdir(d, 0700), 0);
        free(d);
    }
    char *main_cu = path_join(root, "app/main.cu"), *one = path_join(root, "lib/one.h"),
         *two = path_join(root, "extra/two.h"), *ta = path_join(root, "a/twin.h"), *tb = path_join(root, "b/twin.h");
    write_file(main_cu, "#include \"one.h\"\n#include <two.h>\n#include \"twin.h\"\n#include <stdio.h>\n");
    write_file(one, "#pragma once\n");
    write_file(two, "#pragma once\n");
    write_file(ta, "\n");
    write_file(tb, "\n");
    struct lint_options o;
    memset(&o, 0, sizeof o);
    sv_push(&o.paths, root);
    struct strvec quoted = {0}, angled = {0};
    include_guess(&o, main_cu, NULL, &quoted, &angled);
    char *lib = path_join(root, "lib"), *extra = path_join(root, "extra");
    assert_int_equal(quoted.len, 1);
    assert_string_equal(quoted.items[0], lib);
    assert_int_equal(angled.len, 1);
    assert_string_equal(angled.items[0], extra);
    sv_release(&quoted);
    sv_release(&angled);
    sv_release(&o.paths);
    const char *files[] = {main_cu, one, two, ta, tb};
    for (size_t i = 0; i < 5; i++) unlink(files[i]);
    for (size_t i = 0; i < 5; i++) {
        char *d = path_join(root, dirs[i]);
        rmdir(d);
        free(d);
    }
    rmdir(root);
    free(main_cu);
    free(one);
    free(two);
    free(ta);
    free(tb);
    free(lib);
    free(extra);
}

/* Linting one folder of a project (root/src/kern) whose headers are
   included by a path from the project's source folder ("core/util.h" in
   root/src/core): not under the named folder, found under the repository
   (a .git at root) or, without one, under the working directory when it
   holds the named folder. */
static void test_outer_root(void **state)
{
    (void)state;
    char tmpl[] = "/tmp/cudalint_outer_XXXXXX";
    char *root = mkdtemp(tmpl);
    assert_non_null(root);
    const char *dirs[] = {"src", "src/kern", "src/core"};
    for (size_t i = 0; i < 3; i++) {
        char *d = path_join(root, dirs[i]);
        assert_int_equal(mkdir(d, 0700), 0);
        free(d);
    }
    char *kern = path_join(root, "src/kern"), *k = path_join(root, "src/kern/k.cu"),
         *util = path_join(root, "src/core/util.h"), *src = path_join(root, "src"), *git = path_join(root, ".git");
    write_file(k, "#include \"core/util.h\"\n");
    write_file(util, "#pragma once\n");
    struct lint_options o;
    memset(&o, 0, sizeof o);
    sv_push(&o.paths, kern);
    /* neither a repository nor a working directory around it: not found */
    char *outer = include_guess_outer_root(k, kern);
    assert_null(outer);
    struct strvec quoted = {0}, angled = {0};
    include_guess(&o, k, NULL, &quoted, &angled);
    assert_int_equal(quoted.len, 0);
    /* the repository around the named folder */
    assert_int_equal(mkdir(git, 0700), 0);
    outer = include_guess_outer_root(k, kern);
    assert_non_null(outer);
    assert_string_equal(outer, root);
    free(outer);
    include_guess(&o, k, NULL, &quoted, &angled);
    assert_int_equal(quoted.len, 1);
    assert_string_equal(quoted.items[0], src);
    sv_release(&quoted);
    rmdir(git);
    /* no repository: the working directory that holds the named folder */
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(root), 0);
    outer = include_guess_outer_root(k, kern);
    assert_int_equal(chdir(cwd), 0);
    assert_non_null(outer);
    assert_string_equal(outer, root);
    free(outer);
    sv_release(&o.paths);
    unlink(k);
    unlink(util);
    for (int i = 2; i >= 0; i--) {
        char *d = path_join(root, dirs[i]);
        rmdir(d);
        free(d);
    }
    rmdir(root);
    free(kern);
    free(k);
    free(util);
    free(src);
    free(git);
}

/* Two copies of <pkg/api.h>, equally near the includer: the project's
   top-level inc/ wins over the copy deep inside demo/app/inc/. */
static void test_shallower_copy(void **state)
{
    (void)state;
    char tmpl[] = "/tmp/cudalint_copies_XXXXXX";
    char *root = mkdtemp(tmpl);
    assert_non_null(root);
    const char *dirs[] = {"src", "inc", "inc/pkg", "demo", "demo/app", "demo/app/inc", "demo/app/inc/pkg"};
    for (size_t i = 0; i < 7; i++) {
        char *d = path_join(root, dirs[i]);
        assert_int_equal(mkdir(d, 0700), 0);
        free(d);
    }
    char *k = path_join(root, "src/k.cu"), *a = path_join(root, "inc/pkg/api.h"),
         *b = path_join(root, "demo/app/inc/pkg/api.h"), *inc = path_join(root, "inc");
    write_file(k, "#include <pkg/api.h>\n");
    write_file(a, "\n");
    write_file(b, "\n");
    struct lint_options o;
    memset(&o, 0, sizeof o);
    sv_push(&o.paths, root);
    struct strvec quoted = {0}, angled = {0};
    include_guess(&o, k, NULL, &quoted, &angled);
    assert_int_equal(angled.len, 1);
    assert_string_equal(angled.items[0], inc);
    sv_release(&quoted);
    sv_release(&angled);
    sv_release(&o.paths);
    unlink(k);
    unlink(a);
    unlink(b);
    for (int i = 6; i >= 0; i--) {
        char *d = path_join(root, dirs[i]);
        rmdir(d);
        free(d);
    }
    rmdir(root);
    free(k);
    free(a);
    free(b);
    free(inc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_macros_from_full_version),
        cmocka_unit_test(test_macros_without_build_or_archs),
        cmocka_unit_test(test_guessed_folders),
        cmocka_unit_test(test_outer_root),
        cmocka_unit_test(test_shallower_copy),
    };
    return cmocka_run_group_tests_name("frontend_guesses", tests, NULL, NULL);
}
