/* test_compile_args.c: unit tests for compile_commands.json loading and the
 * translation of nvcc/gcc/clang command lines into clang arguments. */
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

#include "frontend/compile_args.h"

/* ---- helpers ---- */

/* Absolute path of tests/data/compdb/REL (REL may be ""). */
static char *data_path(const char *rel)
{
    const char *root = getenv("CUDALINT_SOURCE_DIR");
    char *base = path_join(root && *root ? root : ".", "tests/data/compdb");
    char *joined = *rel ? path_join(base, rel) : xstrdup(base);
    char *abs = path_absolute(joined);
    free(base);
    free(joined);
    return abs;
}

static void print_list(const char *what, const struct strvec *sv)
{
    print_error("%s (%zu):\n", what, sv->len);
    for (size_t i = 0; i < sv->len; i++) print_error("  [%zu] '%s'\n", i, sv->items[i]);
}

/* Fails unless got holds exactly the NULL-terminated list want, in order. */
static void check_list(const struct strvec *got, const char *const *want)
{
    size_t n = 0;
    while (want[n]) n++;
    bool same = got->len == n;
    for (size_t i = 0; same && i < n; i++) same = strcmp(got->items[i], want[i]) == 0;
    if (!same) {
        print_list("got", got);
        print_error("wanted (%zu):\n", n);
        for (size_t i = 0; i < n; i++) print_error("  [%zu] '%s'\n", i, want[i]);
        fail_msg("argument lists differ");
    }
}

static void argv_from(struct strvec *sv, const char *const *words)
{
    for (size_t i = 0; words[i]; i++) sv_push(sv, words[i]);
}

/* Translates the NULL-terminated argv with directory dir and checks the result. */
static void check_translation(const char *const *argv, const char *dir,
                              const char *const *want_args, const char *const *want_archs)
{
    struct strvec in = {0}, args = {0}, archs = {0};
    char *error = NULL;
    argv_from(&in, argv);
    int rc = translate_compile_args(&in, dir, &args, &archs, &error);
    if (rc != 0) fail_msg("translate_compile_args failed: %s", error ? error : "(no message)");
    assert_null(error);
    check_list(&args, want_args);
    check_list(&archs, want_archs);
    sv_release(&in);
    sv_release(&args);
    sv_release(&archs);
}

/* Same, from a "command" string split with shell rules. */
static void check_command(const char *command, const char *dir,
                          const char *const *want_args, const char *const *want_archs)
{
    struct strvec in = {0}, args = {0}, archs = {0};
    char *error = NULL;
    split_command_line(command, &in);
    assert_int_equal(translate_compile_args(&in, dir, &args, &archs, &error), 0);
    assert_null(error);
    check_list(&args, want_args);
    check_list(&archs, want_archs);
    sv_release(&in);
    sv_release(&args);
    sv_release(&archs);
}

static const char *const NONE[] = {NULL};

/* ---- split_command_line ---- */

static void test_split_quotes_and_escapes(void **state)
{
    (void)state;
    struct strvec sv = {0};
    split_command_line("  nvcc\t-DA='x y'  \"-DB=\\\"q r\\\"\" a\\ b \"\" 'it'\\''s' "
                       "\\\"lit\\\" -I$HOME \"back\\slash\" one\\\ntwo  \n",
                       &sv);
    const char *const want[] = {"nvcc", "-DA=x y", "-DB=\"q r\"", "a b", "", "it's",
                                "\"lit\"", "-I$HOME", "back\\slash", "onetwo", NULL};
    check_list(&sv, want);
    sv_release(&sv);
}

static void test_split_degenerate(void **state)
{
    (void)state;
    struct strvec sv = {0};
    split_command_line("", &sv);
    assert_int_equal(sv.len, 0);
    split_command_line(" \t\n ", &sv);
    assert_int_equal(sv.len, 0);
    /* An unterminated quote takes the rest of the line; a trailing backslash is dropped. */
    split_command_line("abc 'def ghi", &sv);
    split_command_line("x\\", &sv);
    const char *const want[] = {"abc", "def ghi", "x", NULL};
    check_list(&sv, want);
    sv_release(&sv);
}

/* ---- nvcc lines as CMake writes them ---- */

static void test_cmake_ninja_nvcc(void **state)
{
    (void)state;
    /* CMake 3.2x, Ninja generator, CUDA language with CUDA_ARCHITECTURES 90. */
    const char *cmd =
        "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DAPP_EXPORTS "
        "-I/src/proj/include -I/src/proj/build/gen -isystem=/usr/local/cuda/targets/x86_64-linux/include "
        "-O3 -DNDEBUG -std=c++17 \"--generate-code=arch=compute_90,code=[compute_90,sm_90]\" "
        "-Xcompiler=-fPIC,-DFOO -Wall --expt-relaxed-constexpr --expt-extended-lambda "
        "-MD -MT src/CMakeFiles/app.dir/kernels/add.cu.o -MF src/CMakeFiles/app.dir/kernels/add.cu.o.d "
        "-x cu -rdc=true -c /src/proj/src/kernels/add.cu -o src/CMakeFiles/app.dir/kernels/add.cu.o";
    const char *const want[] = {"-DAPP_EXPORTS", "-I/src/proj/include", "-I/src/proj/build/gen",
                                "-isystem", "/usr/local/cuda/targets/x86_64-linux/include",
                                "-DNDEBUG", "-std=c++17", "-DFOO", "-fgpu-rdc", NULL};
    const char *const archs[] = {"sm_90", NULL};
    check_command(cmd, "/src/proj/build", want, archs);
}

static void test_cmake_makefiles_options_file(void **state)
{
    (void)state;
    /* The Makefiles generator moves include paths into a response file. */
    char *dir = data_path("makefiles");
    char *third = data_path("third_party/inc");
    char *third_flag = xasprintf("-I%s", third);
    const char *const argv[] = {
        "/usr/local/cuda/bin/nvcc", "-forward-unknown-to-host-compiler", "-DAPP_EXPORTS",
        "--options-file", "rsp/app.dir/includes_CUDA.rsp", "-O3", "-DNDEBUG",
        "--generate-code=arch=compute_80,code=[compute_80,sm_80]", "-Xcompiler=-fPIC",
        "-std=c++17", "-MD", "-MT", "rsp/app.dir/k.cu.o", "-MF", "rsp/app.dir/k.cu.o.d",
        "-x", "cu", "-c", "/src/proj/k.cu", "-o", "rsp/app.dir/k.cu.o", NULL};
    const char *const want[] = {"-DAPP_EXPORTS", "-I/src/proj/include", third_flag,
                                "-I/src/proj/dir with space", "-isystem", "/usr/local/cuda/include",
                                "-DNDEBUG", "-std=c++17", NULL};
    const char *const archs[] = {"sm_80", NULL};
    check_translation(argv, dir, want, archs);

    /* The other spellings of the same option. */
    const char *const optf[] = {"nvcc", "-optf", "rsp/app.dir/includes_CUDA.rsp", "-c", "k.cu", NULL};
    const char *const eq[] = {"nvcc", "--options-file=rsp/app.dir/includes_CUDA.rsp", NULL};
    const char *const want_inc[] = {"-I/src/proj/include", third_flag, "-I/src/proj/dir with space",
                                    "-isystem", "/usr/local/cuda/include", NULL};
    check_translation(optf, dir, want_inc, NONE);
    check_translation(eq, dir, want_inc, NONE);
    free(third_flag);
    free(third);
    free(dir);
}

static void test_gencode_with_spaces(void **state)
{
    (void)state;
    /* Hand-written Makefiles: separate values, quoted code lists; the arch= part
       (the virtual arch) decides __CUDA_ARCH__, so code=sm_86 adds nothing. */
    check_command("nvcc -gencode arch=compute_70,code=sm_70 "
                  "-gencode arch=compute_80,code=\\\"sm_80,compute_80\\\" "
                  "-gencode=arch=compute_90a,code=sm_90a "
                  "--generate-code arch=compute_80,code=sm_86 "
                  "--generate-code code=sm_100,arch=compute_100 -O2 -c k.cu -o k.o",
                  "/w", NONE, (const char *const[]){"sm_70", "sm_80", "sm_90a", "sm_100", NULL});
}

static void test_arch_forms(void **state)
{
    (void)state;
    const char *const argv[] = {
        "nvcc", "-arch=sm_90", "-arch", "sm_80", "-arch=compute_75", "--gpu-architecture=sm_86",
        "--gpu-architecture", "sm_89", "-arch=native", "-arch", "all", "-arch=all-major",
        "-arch=lto_100", "-arch=sm_90", "-code=sm_120", "--gpu-code", "sm_121", "-arch=bogus",
        "-c", "k.cu", NULL};
    check_translation(argv, "/w", NONE,
                      (const char *const[]){"sm_90", "sm_80", "sm_75", "sm_86", "sm_89", "sm_100", NULL});
}

static void test_ccbin_and_separate_values(void **state)
{
    (void)state;
    /* Options whose value is a separate word, sometimes a flag itself: the
       value must go with the option, not be read as an option of its own. */
    const char *const argv[] = {
        "nvcc", "-ccbin", "/usr/bin/g++-12", "-Xptxas", "-v", "-Xcudafe", "--diag_suppress=177",
        "-Xlinker", "-rpath", "-Xnvlink", "--suppress-stack-size-warning", "--threads", "4",
        "-t", "2", "-maxrregcount", "32", "-maxrregcount=64", "-diag-suppress", "20012",
        "--diag_suppress=550", "-Werror", "all-warnings", "-Werror=cross-execution-space-call",
        "--default-stream", "per-thread", "-cudart", "shared", "-m64", "--use_fast_math",
        "-lineinfo", "-G", "-g", "-res-usage", "--keep", "--keep-dir", "keep",
        "-Xcudafe=--display_error_number", "--compiler-bindir=/opt/gcc", "-Xcompiler", "-Wall",
        "-Xptxas=-O3", "--ptxas-options", "-v", "-forward-unknown-to-host-linker", "-dlto",
        "--some-future-option", "value", "-DKEPT", "-c", "k.cu", "-o", "k.o", NULL};
    const char *const want[] = {"-DKEPT", NULL};
    check_translation(argv, "/w", want, NONE);
}

static void test_quoted_defines(void **state)
{
    (void)state;
    const char *const want[] = {"-DNAME=\"a b\"", "-DPLAIN", "-DSEP=2", "-DSQ=x y", "-DEMPTY=",
                                "-DFN(a,b)=a+b", NULL};
    check_command("nvcc \"-DNAME=\\\"a b\\\"\" -DPLAIN -D SEP=2 '-DSQ=x y' -DEMPTY= "
                  "'-DFN(a,b)=a+b' -c k.cu",
                  "/w", want, NONE);
}

static void test_nvcc_spellings(void **state)
{
    (void)state;
    char *dir = data_path("include");
    char *abs[8];
    const char *rel[] = {"inc1", "inc2", "inc3", "inc4", "inc5", "inc6", "prelude.h", "q1"};
    for (int i = 0; i < 8; i++) {
        char *sub = xasprintf("include/%s", rel[i]);
        abs[i] = data_path(sub);
        free(sub);
    }
    char *I[6];
    for (int i = 0; i < 6; i++) I[i] = xasprintf("-I%s", abs[i]);
    char *sys = data_path("include/sys1"), *sys2 = data_path("include/sys2");
    char *sys3 = data_path("include/sys3"), *sys4 = data_path("include/sys4");
    char *sys5 = data_path("include/sys5"), *after = data_path("include/after1");

    const char *const argv[] = {
        "nvcc", "-D", "A", "--define-macro=B=1", "--define-macro", "C", "-U", "D", "-UE",
        "--undefine-macro=F", "--undefine-macro", "G", "-I", "inc1", "-Iinc2", "-I=inc3",
        "--include-path=inc4", "--include-path", "inc5", "-include-path", "inc6",
        "-isystem", "sys1", "-isystemsys2", "-isystem=sys3", "--system-include=sys4",
        "--system-include", "sys5", "-iquote", "q1", "-idirafter", "after1",
        "-include", "prelude.h", "--pre-include", "/abs/pre.h", "--pre-include=missing.h",
        "-std", "c++17", "--std=c++20", "-std=c++14", "--std", "c++11", "-x", "cu", "--x=cu",
        "-c", "k.cu", NULL};
    const char *const want[] = {
        "-DA", "-DB=1", "-DC", "-UD", "-UE", "-UF", "-UG",
        I[0], I[1], I[2], I[3], I[4], I[5],
        "-isystem", sys, "-isystem", sys2, "-isystem", sys3, "-isystem", sys4, "-isystem", sys5,
        "-iquote", abs[7], "-idirafter", after,
        "-include", abs[6], "-include", "/abs/pre.h", "-include", "missing.h",
        "-std=c++17", "-std=c++20", "-std=c++14", "-std=c++11", NULL};
    check_translation(argv, dir, want, NONE);
    for (int i = 0; i < 8; i++) free(abs[i]);
    for (int i = 0; i < 6; i++) free(I[i]);
    free(sys);
    free(sys2);
    free(sys3);
    free(sys4);
    free(sys5);
    free(after);
    free(dir);
}

static void test_gcc_spellings(void **state)
{
    (void)state;
    const char *const argv[] = {
        "/usr/bin/g++", "-I=sysinc", "--include-directory=inc", "--include-directory", "inc2",
        "-std=gnu11", "-std=gnu++17", "-fno-exceptions", "-fopenmp", "-pthread", "-fPIC",
        "-Wall", "-Werror", "-Werror=shadow", "-O2", "-g3", "-MD", "-MF", "dep.d", "-MT", "t",
        "-include", "pre.h", "--sysroot=sr", "-m64", "-march=native", "-ftemplate-depth=2048",
        "-isysroot", "/sdk", "-xc++", "-DG", "-c", "src/a.cpp", "-o", "a.o", NULL};
    const char *const want[] = {
        "-I=sysinc", "-I/w/inc", "-I/w/inc2", "-std=gnu++17", "-fno-exceptions", "-fopenmp",
        "-pthread", "-include", "pre.h", "--sysroot=/w/sr", "-ftemplate-depth=2048",
        "-isysroot", "/sdk", "-DG", NULL};
    check_translation(argv, "/w", want, NONE);
}

static void test_clang_command(void **state)
{
    (void)state;
    const char *const argv[] = {
        "/usr/lib/llvm-22/bin/clang++", "-x", "cuda", "--cuda-gpu-arch=sm_80",
        "--offload-arch=sm_90,gfx90a", "--cuda-gpu-arch=sm_80", "--cuda-path=/usr/local/cuda",
        "-I", "inc", "-std=c++20", "-stdlib=libc++", "-Xclang", "-fno-pch-timestamp",
        "-Xarch_device", "-DDEV", "-O2", "-Wall", "-fgpu-rdc", "-arch", "x86_64",
        "--target=x86_64-linux-gnu", "-isystem-after", "late", "-nocudainc",
        "-c", "k.cu", "-o", "k.o", NULL};
    const char *const want[] = {"-I/w/inc", "-std=c++20", "-stdlib=libc++",
                                "--target=x86_64-linux-gnu", "-idirafter", "/w/late", "-fgpu-rdc", NULL};
    check_translation(argv, "/w", want, (const char *const[]){"sm_80", "sm_90", NULL});
}

static void test_xcompiler_forms(void **state)
{
    (void)state;
    char *dir = data_path("include");
    char *prelude = data_path("include/prelude.h");
    const char *const argv[] = {
        "nvcc", "-Xcompiler", "-fPIC,-Wall,-fopenmp", "--compiler-options", "-DA -DB=2",
        "-Xcompiler", "-isystem", "-Xcompiler", "/y", "-Xcompiler=-O3,-std=c++17,-fno-rtti",
        "-Xcompiler", "-march=native", "-Xcompiler", "-include,prelude.h",
        "-compiler-options=-DC", "-DMAIN", "-c", "k.cu", NULL};
    /* Host flags follow nvcc's own, in the order given. */
    const char *const want[] = {"-DMAIN", "-fopenmp", "-DA", "-DB=2", "-isystem", "/y",
                                "-std=c++17", "-fno-rtti", "-include", prelude, "-DC", NULL};
    check_translation(argv, dir, want, NONE);
    free(prelude);
    free(dir);
}

static void test_relocatable_device_code(void **state)
{
    (void)state;
    const char *const rdc[] = {"-fgpu-rdc", NULL};
    check_translation((const char *const[]){"nvcc", "-rdc=true", "-c", "k.cu", NULL}, "/w", rdc, NONE);
    check_translation((const char *const[]){"nvcc", "-rdc", "true", "-c", "k.cu", NULL}, "/w", rdc, NONE);
    check_translation((const char *const[]){"nvcc", "-dc", "k.cu", NULL}, "/w", rdc, NONE);
    check_translation((const char *const[]){"nvcc", "--relocatable-device-code=true", NULL}, "/w", rdc, NONE);
    check_translation((const char *const[]){"nvcc", "--relocatable-device-code=false", NULL}, "/w", NONE, NONE);
    check_translation((const char *const[]){"nvcc", "-rdc=true", "-rdc", "false", NULL}, "/w", NONE, NONE);
    check_translation((const char *const[]){"clang++", "-fgpu-rdc", "-fno-gpu-rdc", NULL}, "/w", NONE, NONE);
    /* gcc has no such flag: nothing to translate. */
    check_translation((const char *const[]){"g++", "-rdc=true", "-dc", NULL}, "/w", NONE, NONE);
}

static void test_response_files_nested(void **state)
{
    (void)state;
    char *dir = data_path("rsp");
    char *inc = data_path("rsp/outer_inc");
    char *inc_flag = xasprintf("-I%s", inc);
    /* outer.rsp holds @nested.rsp, which holds --options-file=more.rsp. */
    const char *const want[] = {"-DOUTER", "-DNESTED=a b", "-UMORE", inc_flag, "-DAFTER", NULL};
    check_translation((const char *const[]){"nvcc", "@outer.rsp", "-DAFTER", "-c", "k.cu", NULL},
                      dir, want, NONE);
    free(inc_flag);
    free(inc);
    free(dir);
}

static void check_failure(const char *const *argv, const char *dir, const char *needle)
{
    struct strvec in = {0}, args = {0}, archs = {0};
    char *error = NULL;
    argv_from(&in, argv);
    assert_int_equal(translate_compile_args(&in, dir, &args, &archs, &error), -1);
    assert_non_null(error);
    if (!strstr(error, needle)) fail_msg("error '%s' lacks '%s'", error, needle);
    assert_null(strchr(error, '\n'));
    assert_int_equal(args.len, 0);
    assert_int_equal(archs.len, 0);
    free(error);
    sv_release(&in);
    sv_release(&args);
    sv_release(&archs);
}

static void test_response_file_errors(void **state)
{
    (void)state;
    char *dir = data_path("rsp");
    char *missing = data_path("rsp/nope.rsp");
    char *msg = xasprintf("cannot read response file '%s': No such file or directory", missing);
    check_failure((const char *const[]){"nvcc", "-DX", "@nope.rsp", NULL}, dir, msg);
    check_failure((const char *const[]){"nvcc", "--options-file", "nope.rsp", NULL}, dir, msg);
    check_failure((const char *const[]){"gcc", "@cycle_a.rsp", NULL}, dir, "nested more than 16 deep");
    /* A caller may pass no error pointer and only look at the status. */
    struct strvec in = {0}, args = {0}, archs = {0};
    sv_push(&in, "nvcc");
    sv_push(&in, "@nope.rsp");
    assert_int_equal(translate_compile_args(&in, dir, &args, &archs, NULL), -1);
    sv_release(&in);
    free(msg);
    free(missing);
    free(dir);
}

static void test_launcher_and_edges(void **state)
{
    (void)state;
    /* A launcher is skipped and the compiler behind it decides the dialect. */
    check_translation((const char *const[]){"ccache", "nvcc", "-arch", "sm_90", "-DX", "-c", "k.cu", NULL},
                      "/w", (const char *const[]){"-DX", NULL}, (const char *const[]){"sm_90", NULL});
    /* Kokkos' nvcc_wrapper takes nvcc's flags. */
    check_translation((const char *const[]){"/opt/kokkos/bin/nvcc_wrapper", "-arch=sm_80", "-DY", NULL},
                      "/w", (const char *const[]){"-DY", NULL}, (const char *const[]){"sm_80", NULL});
    check_translation((const char *const[]){NULL}, "/w", NONE, NONE);
    check_translation((const char *const[]){"nvcc", NULL}, "/w", NONE, NONE);
    /* No compiler in front: the flags are flags. */
    check_translation((const char *const[]){"-DX", "-Iinc", NULL}, "/w",
                      (const char *const[]){"-DX", "-I/w/inc", NULL}, NONE);
    /* A value-taking option at the very end has no value to take. */
    check_translation((const char *const[]){"nvcc", "-DX", "-I", NULL}, "/w",
                      (const char *const[]){"-DX", NULL}, NONE);
    check_translation((const char *const[]){"nvcc", "-DX", "-gencode", NULL}, "/w",
                      (const char *const[]){"-DX", NULL}, NONE);
    check_translation((const char *const[]){"clang++", "-DX", "-target", NULL}, "/w",
                      (const char *const[]){"-DX", NULL}, NONE);
    /* Relative include paths are normalized against the directory. */
    check_translation((const char *const[]){"nvcc", "-I../inc/./a", "-I", "/abs/x", NULL}, "/w/build",
                      (const char *const[]){"-I/w/inc/a", "-I/abs/x", NULL}, NONE);
}

/* ---- compile_commands.json ---- */

static void test_compdb_load_good(void **state)
{
    (void)state;
    char *good = data_path("good");
    char *err = NULL;
    struct compdb *db = compdb_load(good, &err);
    if (!db) fail_msg("compdb_load: %s", err);
    assert_null(err);
    assert_int_equal(db->n_cmds, 4);
    assert_true(str_ends_with(db->path, "good/compile_commands.json"));

    /* "arguments" entry with a relative file and a relative directory. */
    char *add = data_path("good/src/add.cu");
    assert_string_equal(db->cmds[0].file, add);
    assert_string_equal(db->cmds[0].directory, good);
    assert_int_equal(db->cmds[0].argv.len, 8);
    assert_string_equal(db->cmds[0].argv.items[0], "/usr/local/cuda/bin/nvcc");
    assert_string_equal(db->cmds[0].argv.items[2], "-I../include");

    /* "command" entry, split with shell rules (the quoted --generate-code). */
    assert_string_equal(db->cmds[1].file, "/src/proj/src/scale.cu");
    assert_string_equal(db->cmds[1].argv.items[8], "--generate-code=arch=compute_90,code=[compute_90,sm_90]");
    assert_int_equal(db->cmds[1].argv.len, 16);
    /* "../src/scale.cu" relative to /src/proj/build names the same file. */
    assert_string_equal(db->cmds[2].file, "/src/proj/src/scale.cu");
    assert_string_equal(db->cmds[3].file, "/src/proj/src/host.cpp");

    /* Lookup normalizes its argument; the first of two entries wins. */
    assert_ptr_equal(compdb_find(db, "/src/proj/src/scale.cu"), &db->cmds[1]);
    assert_ptr_equal(compdb_find(db, "/src/proj/build/../src/./scale.cu"), &db->cmds[1]);
    assert_ptr_equal(compdb_find(db, add), &db->cmds[0]);
    assert_null(compdb_find(db, "/src/proj/src/other.cu"));
    assert_null(compdb_find(NULL, "/src/proj/src/scale.cu"));

    /* The entry translates against its own directory. */
    struct strvec args = {0}, archs = {0};
    char *inc = data_path("include"), *inc_flag = xasprintf("-I%s", inc);
    assert_int_equal(translate_compile_args(&db->cmds[0].argv, db->cmds[0].directory, &args, &archs, &err), 0);
    check_list(&args, (const char *const[]){"-DUSE_CUDA", inc_flag, NULL});
    check_list(&archs, (const char *const[]){"sm_80", NULL});
    sv_release(&args);
    sv_release(&archs);
    assert_int_equal(translate_compile_args(&db->cmds[1].argv, db->cmds[1].directory, &args, &archs, &err), 0);
    check_list(&args, (const char *const[]){"-DFOO", "-I/src/proj/include", "-isystem",
                                            "/usr/local/cuda/include", "-DNDEBUG", "-std=c++17", "-DBAR", NULL});
    check_list(&archs, (const char *const[]){"sm_90", NULL});
    sv_release(&args);
    sv_release(&archs);
    free(inc_flag);
    free(inc);
    compdb_free(db);

    /* Naming the file itself works as well. */
    char *file = data_path("good/compile_commands.json");
    db = compdb_load(file, &err);
    assert_non_null(db);
    assert_int_equal(db->n_cmds, 4);
    assert_string_equal(db->path, file);
    compdb_free(db);

    char *empty = data_path("empty_array.json");
    db = compdb_load(empty, &err);
    assert_non_null(db);
    assert_int_equal(db->n_cmds, 0);
    assert_null(compdb_find(db, add));
    compdb_free(db);

    free(empty);
    free(file);
    free(add);
    free(good);
}

/* Loads a malformed database and checks the exact one-line message: the
   file's path followed by suffix. */
static void check_bad_db(const char *rel, const char *suffix)
{
    char *path = data_path(rel);
    char *err = NULL;
    struct compdb *db = compdb_load(path, &err);
    if (db) fail_msg("%s loaded, expected an error", rel);
    assert_non_null(err);
    char *want = xasprintf("%s%s", path, suffix);
    assert_string_equal(err, want);
    free(want);
    free(err);
    free(path);
}

static void test_compdb_malformed(void **state)
{
    (void)state;
    check_bad_db("bad_json.json", ":3:31: invalid JSON");
    check_bad_db("trailing_garbage.json", ":4:1: invalid JSON");
    check_bad_db("not_array.json", ": expected a JSON array of compile commands, found an object");
    check_bad_db("missing_file.json", ": entry 2 has no \"file\" string");
    check_bad_db("missing_directory.json", ": entry 1 has no \"directory\" string");
    check_bad_db("missing_command.json",
                 ": entry 1 has neither an \"arguments\" array nor a \"command\" string");
    check_bad_db("bad_arguments.json", ": entry 1: \"arguments\" holds a number, not only strings");
    check_bad_db("entry_not_object.json", ": entry 1 is a string, not an object");
    check_bad_db("empty.json", ": empty compile database (expected a JSON array)");
    check_bad_db("does_not_exist.json", ": cannot read compile database: No such file or directory");
    /* A directory without a database names the file it looked for. */
    char *rsp = data_path("rsp");
    char *err = NULL;
    assert_null(compdb_load(rsp, &err));
    char *want = xasprintf("%s/compile_commands.json: cannot read compile database: "
                           "No such file or directory", rsp);
    assert_string_equal(err, want);
    free(want);
    free(err);
    assert_null(compdb_load(rsp, NULL));
    free(rsp);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_compdb_discover(void **state)
{
    (void)state;
    char saved[4096];
    assert_non_null(getcwd(saved, sizeof saved));
    const char *tmp = getenv("TMPDIR");
    char *templ = xasprintf("%s/cudalint-compdb-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    assert_non_null(mkdtemp(templ));
    assert_int_equal(chdir(templ), 0);

    char *found = compdb_discover();
    assert_null(found);
    /* A directory named like the database is not one. */
    assert_int_equal(mkdir("compile_commands.json", 0700), 0);
    assert_null(compdb_discover());
    assert_int_equal(rmdir("compile_commands.json"), 0);

    assert_int_equal(mkdir("build", 0700), 0);
    write_text("build/compile_commands.json", "[]\n");
    found = compdb_discover();
    assert_non_null(found);
    assert_string_equal(found, "build");
    free(found);

    write_text("compile_commands.json", "[]\n");
    found = compdb_discover();
    assert_non_null(found);
    assert_string_equal(found, ".");
    free(found);

    unlink("compile_commands.json");
    unlink("build/compile_commands.json");
    rmdir("build");
    assert_int_equal(chdir(saved), 0);
    rmdir(templ);
    free(templ);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_quotes_and_escapes),
        cmocka_unit_test(test_split_degenerate),
        cmocka_unit_test(test_cmake_ninja_nvcc),
        cmocka_unit_test(test_cmake_makefiles_options_file),
        cmocka_unit_test(test_gencode_with_spaces),
        cmocka_unit_test(test_arch_forms),
        cmocka_unit_test(test_ccbin_and_separate_values),
        cmocka_unit_test(test_quoted_defines),
        cmocka_unit_test(test_nvcc_spellings),
        cmocka_unit_test(test_gcc_spellings),
        cmocka_unit_test(test_clang_command),
        cmocka_unit_test(test_xcompiler_forms),
        cmocka_unit_test(test_relocatable_device_code),
        cmocka_unit_test(test_response_files_nested),
        cmocka_unit_test(test_response_file_errors),
        cmocka_unit_test(test_launcher_and_edges),
        cmocka_unit_test(test_compdb_load_good),
        cmocka_unit_test(test_compdb_malformed),
        cmocka_unit_test(test_compdb_discover),
    };
    return cmocka_run_group_tests_name("compile_args", tests, NULL, NULL);
}
