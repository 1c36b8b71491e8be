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
#include <ftw.h>
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

/* A temporary tree (under $TMPDIR, else /tmp) holding each file of files
   (paths relative to the root, "dir/" for an empty folder) with its text;
   its folders are made as needed.  Returns the root. */
struct file_spec {
    const char *path, *text;
};

static char *make_tree(const struct file_spec *files, size_t n)
{
    const char *tmp = getenv("TMPDIR");
    char *tmpl = path_join(tmp && *tmp ? tmp : "/tmp", "cudalint_guess_XXXXXX");
    assert_non_null(mkdtemp(tmpl));
    for (size_t i = 0; i < n; i++) {
        char *full = path_join(tmpl, files[i].path);
        /* "dir/": the folder itself */
        char *dir = files[i].text ? path_dirname(full) : xstrdup(full);
        assert_int_equal(mkdir_p(dir, 0700), 0);
        if (files[i].text) assert_true(file_write_text(full, files[i].text, strlen(files[i].text)));
        free(dir);
        free(full);
    }
    return tmpl;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void remove_tree(char *root)
{
    nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(root);
}

/* The folders include_guess gives file (relative to root) when the
   command line names folder (relative to root). */
static void guess(const char *root, const char *folder, const char *file, struct strvec *quoted,
                  struct strvec *angled)
{
    struct lint_options o;
    memset(&o, 0, sizeof o);
    sv_push_owned(&o.paths, path_join(root, folder));
    char *abs = path_join(root, file);
    include_guess(&o, abs, NULL, quoted, angled, NULL);
    free(abs);
    sv_release(&o.paths);
}

/* root/app/main.cu includes "one.h" (in root/lib), <two.h> (in
   root/extra) and "twin.h" (in root/a and root/b, equally near). */
static void test_guessed_folders(void **state)
{
    (void)state;
    static const struct file_spec files[] = {
        {"app/main.cu", "#include \"one.h\"\n#include <two.h>\n#include \"twin.h\"\n#include <stdio.h>\n"},
        {"lib/one.h", "#pragma once\n"},
        {"extra/two.h", "#pragma once\n"},
        {"a/twin.h", "\n"},
        {"b/twin.h", "\n"},
    };
    char *root = make_tree(files, 5);
    struct strvec quoted = {0}, angled = {0};
    guess(root, ".", "app/main.cu", &quoted, &angled);
    char *lib = path_join(root, "lib"), *extra = path_join(root, "extra");
    assert_int_equal(quoted.len, 1);
    assert_string_equal(quoted.items[0], lib);
    assert_int_equal(angled.len, 1);
    assert_string_equal(angled.items[0], extra);
    sv_release(&quoted);
    sv_release(&angled);
    free(lib);
    free(extra);
    remove_tree(root);
}

/* Linting one folder of a project (root/src/kern) whose headers are
   included by a path from the project's source folder ("core/util.h" in
   root/src/core): not under the named folder, found under the repository
   (a .git at root) or, without one, under the working directory when it
   holds the named folder. */
static void test_outer_root(void **state)
{
    (void)state;
    static const struct file_spec files[] = {
        {"src/kern/k.cu", "#include \"core/util.h\"\n"},
        {"src/core/util.h", "#pragma once\n"},
    };
    char *root = make_tree(files, 2);
    char *kern = path_join(root, "src/kern"), *k = path_join(root, "src/kern/k.cu"), *src = path_join(root, "src"),
         *git = path_join(root, ".git");
    /* neither a repository nor a working directory around it: not found */
    assert_null(include_guess_outer_root(k, kern));
    struct strvec quoted = {0}, angled = {0};
    guess(root, "src/kern", "src/kern/k.cu", &quoted, &angled);
    assert_int_equal(quoted.len, 0);
    /* the repository around the named folder */
    assert_int_equal(mkdir(git, 0700), 0);
    char *outer = include_guess_outer_root(k, kern);
    assert_non_null(outer);
    assert_string_equal(outer, root);
    free(outer);
    guess(root, "src/kern", "src/kern/k.cu", &quoted, &angled);
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
    free(kern);
    free(k);
    free(src);
    free(git);
    remove_tree(root);
}

/* Two copies of <pkg/api.h>, equally near the includer: the project's
   top-level inc/ wins over the copy deep inside demo/app/inc/. */
static void test_shallower_copy(void **state)
{
    (void)state;
    static const struct file_spec files[] = {
        {"src/k.cu", "#include <pkg/api.h>\n"},
        {"inc/pkg/api.h", "\n"},
        {"demo/app/inc/pkg/api.h", "\n"},
    };
    char *root = make_tree(files, 3);
    struct strvec quoted = {0}, angled = {0};
    guess(root, ".", "src/k.cu", &quoted, &angled);
    char *inc = path_join(root, "inc");
    assert_int_equal(angled.len, 1);
    assert_string_equal(angled.items[0], inc);
    sv_release(&quoted);
    sv_release(&angled);
    free(inc);
    remove_tree(root);
}

/* <cfg.h> lies in root/compat, which also holds a sys/time.h of another
   platform that the file includes as <sys/time.h>: the folder goes after
   the system's (after_dirs), so the system's sys/time.h is the one found;
   root/inc, holding no system header's name, stays an angled folder. */
static void test_compat_folder_after_system(void **state)
{
    (void)state;
    static const struct file_spec files[] = {
        {"src/k.cu", "#include <cfg.h>\n#include <api.h>\n#include <sys/time.h>\n"},
        {"compat/cfg.h", "#pragma once\n"},
        {"compat/sys/time.h", "#error not this platform\n"},
        {"inc/api.h", "#pragma once\n"},
    };
    char *root = make_tree(files, 4);
    struct lint_options o;
    memset(&o, 0, sizeof o);
    sv_push_owned(&o.paths, xstrdup(root));
    char *k = path_join(root, "src/k.cu"), *compat = path_join(root, "compat"), *inc = path_join(root, "inc");
    struct strvec quoted = {0}, angled = {0}, after = {0};
    include_guess(&o, k, NULL, &quoted, &angled, &after);
    assert_int_equal(quoted.len, 0);
    assert_int_equal(angled.len, 1);
    assert_string_equal(angled.items[0], inc);
    assert_int_equal(after.len, 1);
    assert_string_equal(after.items[0], compat);
    /* without after_dirs, the folder stays among the angled ones */
    sv_release(&angled);
    include_guess(&o, k, NULL, &quoted, &angled, NULL);
    assert_int_equal(angled.len, 2);
    sv_release(&quoted);
    sv_release(&angled);
    sv_release(&after);
    sv_release(&o.paths);
    free(k);
    free(compat);
    free(inc);
    remove_tree(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_macros_from_full_version),
        cmocka_unit_test(test_macros_without_build_or_archs),
        cmocka_unit_test(test_guessed_folders),
        cmocka_unit_test(test_outer_root),
        cmocka_unit_test(test_shallower_copy),
        cmocka_unit_test(test_compat_folder_after_system),
    };
    return cmocka_run_group_tests_name("frontend_guesses", tests, NULL, NULL);
}
