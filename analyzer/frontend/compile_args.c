/* compile_args.c: reads compile_commands.json and turns each entry's nvcc, gcc
 * or clang command line into the few arguments libclang needs to parse the file
 * the way the build does (include paths, macros, language standard, GPU archs). */
#include "frontend/compile_args.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Response files may include others; a cycle must end in an error, not a hang. */
#define MAX_RESPONSE_DEPTH 16

/* ------------------------------------------------------------------------ */
/* Shell-style splitting                                                    */

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* POSIX sh word splitting without expansions, which is what compile_commands.json
   "command" strings and gcc/nvcc response files use on Unix. */
void split_command_line(const char *cmd, struct strvec *out)
{
    const char *p = cmd;
    struct strbuf word;

    if (!cmd) return;
    sb_init(&word);
    for (;;) {
        while (is_blank(*p)) p++;
        if (!*p) break;
        while (*p && !is_blank(*p)) {
            if (*p == '\\') {
                if (p[1] == '\n') {            /* line continuation */
                    p += 2;
                } else if (p[1]) {
                    sb_addc(&word, p[1]);
                    p += 2;
                } else {
                    p++;                        /* a lone trailing backslash */
                }
            } else if (*p == '\'') {
                p++;
                while (*p && *p != '\'') sb_addc(&word, *p++);
                if (*p) p++;
            } else if (*p == '"') {
                p++;
                while (*p && *p != '"') {
                    /* Inside double quotes a backslash only escapes these. */
                    if (*p == '\\' && p[1] && strchr("\"\\$`\n", p[1])) {
                        if (p[1] != '\n') sb_addc(&word, p[1]);
                        p += 2;
                    } else {
                        sb_addc(&word, *p++);
                    }
                }
                if (*p) p++;
            } else {
                sb_addc(&word, *p++);
            }
        }
        /* A word is pushed even when empty ("" is an argument). */
        sv_push_owned(out, sb_detach(&word));
        sb_init(&word);
    }
    sb_release(&word);
}

/* ------------------------------------------------------------------------ */
/* Paths                                                                    */

/* Makes a path named on a command line absolute against the compilation's
   working directory; absolute paths are kept exactly as written. */
static char *abs_against(const char *dir, const char *path)
{
    if (path[0] == '/') return xstrdup(path);
    char *joined = path_join(dir, path);
    char *abs = path_absolute(joined);
    free(joined);
    return abs;
}

/* ------------------------------------------------------------------------ */
/* Response files                                                           */

static int expand_args(char *const *args, size_t n, const char *dir, int depth,
                       struct strvec *out, char **error);

static int expand_file(const char *name, const char *dir, int depth,
                       struct strvec *out, char **error)
{
    if (depth >= MAX_RESPONSE_DEPTH) {
        *error = xasprintf("response file '%s' nested more than %d deep (a cycle?)",
                           name, MAX_RESPONSE_DEPTH);
        return -1;
    }
    char *path = abs_against(dir, name);
    char *text = NULL;
    int e = read_file(path, &text, NULL);
    if (e != 0) {
        *error = xasprintf("cannot read response file '%s': %s", path, strerror(e));
        free(path);
        return -1;
    }
    free(path);
    struct strvec words = {0};
    split_command_line(text, &words);
    free(text);
    int rc = expand_args(words.items, words.len, dir, depth + 1, out, error);
    sv_release(&words);
    return rc;
}

/* nvcc's --options-file takes a comma-separated list of files. */
static int expand_file_list(const char *list, const char *dir, int depth,
                            struct strvec *out, char **error)
{
    const char *p = list;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (n) {
            char *name = xstrndup(p, n);
            int rc = expand_file(name, dir, depth, out, error);
            free(name);
            if (rc) return rc;
        }
        p += n;
        if (*p) p++;
    }
    return 0;
}

/* Expands @file (gcc, clang, nvcc) and --options-file/-optf (nvcc) in place,
   recursively; relative names are relative to the compilation's directory,
   which is where the compiler ran. */
static int expand_args(char *const *args, size_t n, const char *dir, int depth,
                       struct strvec *out, char **error)
{
    static const char *const optfile[] = {"--options-file", "-options-file", "-optf", "--optf"};
    for (size_t i = 0; i < n; i++) {
        const char *a = args[i];
        bool handled = false;
        if (a[0] == '@' && a[1]) {
            if (expand_file(a + 1, dir, depth, out, error)) return -1;
            continue;
        }
        for (size_t k = 0; k < sizeof optfile / sizeof *optfile && !handled; k++) {
            size_t len = strlen(optfile[k]);
            if (strcmp(a, optfile[k]) == 0) {
                handled = true;
                if (i + 1 < n && expand_file_list(args[++i], dir, depth, out, error)) return -1;
            } else if (strncmp(a, optfile[k], len) == 0 && a[len] == '=') {
                handled = true;
                if (expand_file_list(a + len + 1, dir, depth, out, error)) return -1;
            }
        }
        if (!handled) sv_push(out, a);
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The option table                                                         */

enum driver { DRV_GCC = 1, DRV_CLANG = 2, DRV_NVCC = 4 };
#define DRV_ALL (DRV_GCC | DRV_CLANG | DRV_NVCC)

/* How an option takes its value. */
enum {
    F_FLAG = 1,    /* -c: exactly the name, no value */
    F_SEP = 2,     /* -o FILE: the next argument */
    F_JOIN = 4,    /* -IDIR: glued to the name */
    F_EQ = 8,      /* --include-path=DIR */
    F_OPTSEP = 16, /* nvcc -Werror KIND: the next argument unless it is a flag */
    F_BOOL = 32,   /* nvcc -rdc true: the next argument when it is true/false */
};

enum kind {
    K_DROP,        /* consumed, not passed on */
    K_KEEP,        /* passed on as written */
    K_INC,         /* -I DIR */
    K_ISYSTEM,     /* -isystem DIR */
    K_IQUOTE,      /* -iquote DIR */
    K_IDIRAFTER,   /* -idirafter DIR */
    K_DEFINE,      /* -D NAME[=VALUE] */
    K_UNDEF,       /* -U NAME */
    K_STD,         /* -std=VALUE */
    K_INCLUDE,     /* -include FILE */
    K_IMACROS,     /* -imacros FILE */
    K_SYSROOT,     /* --sysroot=DIR */
    K_ISYSROOT,    /* -isysroot DIR */
    K_NVCC_ARCH,   /* -arch / --gpu-architecture */
    K_GENCODE,     /* -gencode / --generate-code arch=...,code=... */
    K_CLANG_ARCH,  /* --cuda-gpu-arch= / --offload-arch= */
    K_XCOMPILER,   /* nvcc -Xcompiler: host compiler flags, comma-separated */
    K_RDC,         /* relocatable device code on */
    K_NO_RDC,      /* relocatable device code off */
    K_RDC_BOOL,    /* nvcc -rdc=true|false */
};

struct option {
    const char *name;
    unsigned forms;
    enum kind kind;
    unsigned drivers;
};

/* First match wins, so a name that is a prefix of another joined option
   (-include-pch before -include, -gencode before -g, -lineinfo before -l)
   comes first.  In nvcc mode a "--long" name also matches "-long", as nvcc
   accepts both.  Anything not listed is dropped: an unknown flag could make
   clang fail, and an unknown flag's separate value is a non-flag word, which
   is dropped like the source and output files. */
static const struct option options[] = {
    /* Include paths. nvcc spells values with '=' too (-I=DIR, -isystem=DIR);
       for gcc and clang "-I=DIR" means sysroot-relative and is kept as is. */
    {"-I", F_EQ, K_INC, DRV_NVCC},
    {"-I", F_SEP | F_JOIN, K_INC, DRV_ALL},
    {"--include-path", F_SEP | F_EQ, K_INC, DRV_NVCC},
    {"--include-directory-after", F_SEP | F_EQ, K_IDIRAFTER, DRV_GCC | DRV_CLANG},
    {"--include-directory", F_SEP | F_EQ, K_INC, DRV_GCC | DRV_CLANG},
    {"-isystem-after", F_SEP, K_IDIRAFTER, DRV_CLANG},
    {"-isystem", F_EQ, K_ISYSTEM, DRV_NVCC},
    {"-isystem", F_SEP | F_JOIN, K_ISYSTEM, DRV_ALL},
    {"--system-include", F_SEP | F_EQ, K_ISYSTEM, DRV_NVCC},
    {"-iquote", F_SEP | F_JOIN, K_IQUOTE, DRV_ALL},
    {"-idirafter", F_SEP | F_JOIN, K_IDIRAFTER, DRV_ALL},
    {"-isysroot", F_SEP | F_JOIN, K_ISYSROOT, DRV_GCC | DRV_CLANG},
    {"--sysroot", F_SEP | F_EQ, K_SYSROOT, DRV_ALL},
    {"-iprefix", F_SEP | F_JOIN, K_DROP, DRV_GCC | DRV_CLANG},
    {"-iwithprefixbefore", F_SEP | F_JOIN, K_DROP, DRV_GCC | DRV_CLANG},
    {"-iwithprefix", F_SEP | F_JOIN, K_DROP, DRV_GCC | DRV_CLANG},
    /* A precompiled header made by another compiler cannot be loaded. */
    {"-include-pch", F_SEP, K_DROP, DRV_GCC | DRV_CLANG},
    {"-include", F_EQ, K_INCLUDE, DRV_NVCC},
    {"-include", F_SEP, K_INCLUDE, DRV_ALL},
    {"--include", F_SEP | F_EQ, K_INCLUDE, DRV_GCC | DRV_CLANG},
    {"--pre-include", F_SEP | F_EQ, K_INCLUDE, DRV_NVCC},
    {"-imacros", F_SEP | F_JOIN, K_IMACROS, DRV_ALL},

    /* Macros. */
    {"-D", F_SEP | F_JOIN, K_DEFINE, DRV_ALL},
    {"--define-macro", F_SEP | F_EQ, K_DEFINE, DRV_ALL},
    {"-U", F_SEP | F_JOIN, K_UNDEF, DRV_ALL},
    {"--undefine-macro", F_SEP | F_EQ, K_UNDEF, DRV_ALL},

    /* Standard (nvcc also takes "-std c++17", via the "--std" row). */
    {"-std", F_EQ, K_STD, DRV_ALL},
    {"--std", F_SEP | F_EQ, K_STD, DRV_ALL},

    /* GPU architectures. Only the virtual arch decides __CUDA_ARCH__, so
       -code / --gpu-code (the SASS targets) are dropped, not collected. */
    {"-arch", F_SEP | F_EQ, K_NVCC_ARCH, DRV_NVCC},
    {"-arch", F_SEP, K_DROP, DRV_GCC | DRV_CLANG}, /* Darwin's -arch x86_64 */
    {"--gpu-architecture", F_SEP | F_EQ, K_NVCC_ARCH, DRV_NVCC},
    {"--generate-code", F_SEP | F_EQ, K_GENCODE, DRV_NVCC},
    {"-gencode", F_SEP | F_EQ, K_GENCODE, DRV_NVCC},
    {"--gpu-code", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"-code", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--cuda-gpu-arch", F_EQ, K_CLANG_ARCH, DRV_CLANG},
    {"--offload-arch", F_EQ, K_CLANG_ARCH, DRV_CLANG},

    /* Relocatable device code: clang rejects `extern __shared__ int x;` and
       other separate-compilation declarations unless told -fgpu-rdc. */
    {"--relocatable-device-code", F_EQ | F_BOOL, K_RDC_BOOL, DRV_NVCC},
    {"-rdc", F_EQ | F_BOOL, K_RDC_BOOL, DRV_NVCC},
    {"--device-c", F_FLAG, K_RDC, DRV_NVCC},
    {"-dc", F_FLAG, K_RDC, DRV_NVCC},
    {"-fgpu-rdc", F_FLAG, K_RDC, DRV_CLANG},
    {"-fno-gpu-rdc", F_FLAG, K_NO_RDC, DRV_CLANG},

    /* Host compiler flags passed through nvcc. */
    {"--compiler-options", F_SEP | F_EQ, K_XCOMPILER, DRV_NVCC},
    {"-Xcompiler", F_SEP | F_EQ, K_XCOMPILER, DRV_NVCC},

    /* Host flags that change what parses or what is predefined. */
    {"-fexceptions", F_FLAG, K_KEEP, DRV_ALL},
    {"-fno-exceptions", F_FLAG, K_KEEP, DRV_ALL},
    {"-fcxx-exceptions", F_FLAG, K_KEEP, DRV_CLANG},
    {"-fno-cxx-exceptions", F_FLAG, K_KEEP, DRV_CLANG},
    {"-frtti", F_FLAG, K_KEEP, DRV_ALL},
    {"-fno-rtti", F_FLAG, K_KEEP, DRV_ALL},
    {"-fsigned-char", F_FLAG, K_KEEP, DRV_ALL},
    {"-funsigned-char", F_FLAG, K_KEEP, DRV_ALL},
    {"-fno-signed-char", F_FLAG, K_KEEP, DRV_ALL},
    {"-fno-unsigned-char", F_FLAG, K_KEEP, DRV_ALL},
    {"-fchar8_t", F_FLAG, K_KEEP, DRV_ALL},
    {"-fno-char8_t", F_FLAG, K_KEEP, DRV_ALL},
    {"-fshort-wchar", F_FLAG, K_KEEP, DRV_ALL},
    {"-fopenmp", F_FLAG, K_KEEP, DRV_ALL},
    {"-fopenmp-simd", F_FLAG, K_KEEP, DRV_ALL},
    {"-fms-extensions", F_FLAG, K_KEEP, DRV_ALL},
    {"-fno-operator-names", F_FLAG, K_KEEP, DRV_ALL},
    {"-fsized-deallocation", F_FLAG, K_KEEP, DRV_ALL},
    {"-fno-sized-deallocation", F_FLAG, K_KEEP, DRV_ALL},
    {"-faligned-new", F_FLAG, K_KEEP, DRV_ALL},
    {"-fno-aligned-new", F_FLAG, K_KEEP, DRV_ALL},
    {"-ftemplate-depth", F_EQ, K_KEEP, DRV_ALL},
    {"-fconstexpr-depth", F_EQ, K_KEEP, DRV_ALL},
    {"-fconstexpr-steps", F_EQ, K_KEEP, DRV_CLANG},
    {"-pthread", F_FLAG, K_KEEP, DRV_ALL},
    {"-stdlib", F_EQ, K_KEEP, DRV_CLANG},
    {"--gcc-toolchain", F_EQ, K_KEEP, DRV_CLANG},
    {"--gcc-install-dir", F_EQ, K_KEEP, DRV_CLANG},
    {"-target", F_SEP, K_KEEP, DRV_CLANG},
    {"--target", F_EQ, K_KEEP, DRV_CLANG},

    /* Dropped options whose value is a separate argument: listed so that
       the value (which may itself look like a flag) is consumed too. */
    {"--output-file", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--output-directory", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"-odir", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"-o", F_SEP | F_JOIN, K_DROP, DRV_ALL},
    {"-MF", F_SEP | F_JOIN, K_DROP, DRV_ALL},
    {"-MT", F_SEP | F_JOIN, K_DROP, DRV_ALL},
    {"-MQ", F_SEP | F_JOIN, K_DROP, DRV_ALL},
    {"-MJ", F_SEP | F_JOIN, K_DROP, DRV_CLANG},
    {"--dependency-output", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--dependency-target-name", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"-x", F_SEP | F_JOIN, K_DROP, DRV_ALL},    /* the parser decides the language */
    {"--x", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--compiler-bindir", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"-ccbin", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--linker-options", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--ptxas-options", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--nvlink-options", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--archive-options", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--fatbin-options", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--maxrregcount", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--threads", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"-t", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--split-compile", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--default-stream", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--cudart", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--cudadevrt", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--machine", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"-m", F_SEP, K_DROP, DRV_NVCC},
    {"--optimize", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--dopt", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--keep-dir", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--run-args", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--optimization-info", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--diag-suppress", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--diag_suppress", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--diag-error", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--diag_error", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--diag-warn", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--diag_warn", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--diag-default", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--Werror", F_OPTSEP | F_EQ, K_DROP, DRV_NVCC},
    {"--library-path", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"--library", F_SEP | F_EQ, K_DROP, DRV_NVCC},
    {"-lineinfo", F_FLAG, K_DROP, DRV_NVCC},
    {"-lto", F_FLAG, K_DROP, DRV_NVCC},
    {"-L", F_SEP | F_JOIN, K_DROP, DRV_ALL},
    {"-l", F_SEP | F_JOIN, K_DROP, DRV_ALL},
    {"-Xclang", F_SEP, K_DROP, DRV_CLANG},
    {"--cuda-path", F_SEP | F_EQ, K_DROP, DRV_CLANG}, /* the driver picks the toolkit */
};

static bool driver_matches(unsigned drivers, enum driver d)
{
    return (drivers & (unsigned)d) != 0;
}

/* Result of matching one argument against the table. */
struct match {
    const struct option *opt;
    const char *value; /* NULL when the option has none, or it was missing */
    bool took_next;
};

static bool match_name(const char *const *args, size_t n, size_t i, const char *name,
                       unsigned forms, struct match *m)
{
    const char *a = args[i];
    size_t len = strlen(name);
    const char *next = i + 1 < n ? args[i + 1] : NULL;

    if (strcmp(a, name) == 0) {
        if (forms & F_SEP) {
            m->value = next;
            m->took_next = next != NULL;
            return true;
        }
        if (forms & F_OPTSEP) {
            if (next && next[0] != '-') {
                m->value = next;
                m->took_next = true;
            }
            return true;
        }
        if (forms & F_BOOL) {
            if (next && (strcmp(next, "true") == 0 || strcmp(next, "false") == 0)) {
                m->value = next;
                m->took_next = true;
            }
            return true;
        }
        if (forms & F_FLAG) return true;
        return false;
    }
    if (strncmp(a, name, len) != 0) return false;
    if ((forms & F_EQ) && a[len] == '=') {
        m->value = a + len + 1;
        return true;
    }
    if ((forms & F_JOIN) && a[len]) {
        m->value = a + len;
        return true;
    }
    return false;
}

static bool match_option(const char *const *args, size_t n, size_t i, enum driver d,
                         struct match *m)
{
    for (size_t k = 0; k < sizeof options / sizeof *options; k++) {
        const struct option *o = &options[k];
        if (!driver_matches(o->drivers, d)) continue;
        memset(m, 0, sizeof *m);
        m->opt = o;
        if (match_name(args, n, i, o->name, o->forms, m)) return true;
        /* nvcc takes every long option with one dash as well. */
        if (d == DRV_NVCC && o->name[0] == '-' && o->name[1] == '-' &&
            match_name(args, n, i, o->name + 1, o->forms, m))
            return true;
    }
    return false;
}

/* ------------------------------------------------------------------------ */
/* Translation                                                              */

struct xlate {
    const char *dir;        /* absolute working directory of the compilation */
    struct strvec *out;
    struct strvec *archs;
    struct strvec host;     /* -Xcompiler contents, translated after the rest */
    bool rdc;
};

/* Accepts sm_90, compute_90, lto_90 (and suffixed forms like sm_90a) and
   records "sm_90"; native/all/all-major name no arch we could know. */
static void add_arch(struct xlate *x, const char *s, size_t n)
{
    static const char *const prefixes[] = {"sm_", "compute_", "lto_"};
    for (size_t k = 0; k < sizeof prefixes / sizeof *prefixes; k++) {
        size_t pl = strlen(prefixes[k]);
        if (n <= pl || strncmp(s, prefixes[k], pl) != 0) continue;
        const char *num = s + pl;
        size_t nl = n - pl;
        if (num[0] < '0' || num[0] > '9') return;
        for (size_t j = 0; j < nl; j++) {
            char c = num[j];
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'))) return;
        }
        char *arch = xasprintf("sm_%.*s", (int)nl, num);
        if (sv_contains(x->archs, arch))
            free(arch);
        else
            sv_push_owned(x->archs, arch);
        return;
    }
}

/* A comma-separated list of arch names, possibly wrapped in [] or quotes. */
static void add_arch_list(struct xlate *x, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        while (i < n && strchr("[]\"' ,", s[i])) i++;
        size_t start = i;
        while (i < n && !strchr("[]\"' ,", s[i])) i++;
        if (i > start) add_arch(x, s + start, i - start);
    }
}

/* -gencode arch=compute_90,code=[compute_90,sm_90]: fields are split at commas
   outside brackets and quotes; the arch= field names the virtual arch. */
static void add_gencode(struct xlate *x, const char *v)
{
    const char *p = v;
    while (*p) {
        const char *start = p;
        int depth = 0;
        bool quoted = false;
        while (*p && (depth > 0 || quoted || *p != ',')) {
            if (*p == '"') quoted = !quoted;
            else if (*p == '[') depth++;
            else if (*p == ']' && depth > 0) depth--;
            p++;
        }
        size_t len = (size_t)(p - start);
        if (len > 5 && strncmp(start, "arch=", 5) == 0) add_arch_list(x, start + 5, len - 5);
        if (*p) p++;
    }
}

static void push_pair(struct strvec *out, const char *flag, char *owned_value)
{
    /* -include /dev/zero and the like never end: dropped (the database may
       come with a cloned repository). */
    if (strncmp(flag, "-i", 2) == 0 && compile_arg_refused(flag, owned_value)) {
        free(owned_value);
        return;
    }
    sv_push(out, flag);
    sv_push_owned(out, owned_value);
}

/* -include FILE: the compiler looks in its working directory first, then
   along the include path; keep the name as is when it is not in the former. */
static char *resolve_include_file(const char *dir, const char *name)
{
    char *abs = abs_against(dir, name);
    if (name[0] == '/' || path_exists(abs)) return abs;
    free(abs);
    return xstrdup(name);
}

/* nvcc splits -Xcompiler values at commas; a piece with blanks in it holds
   several flags ("-Xcompiler '-Wall -fopenmp'") and is split like a shell would. */
static void collect_host_flags(struct xlate *x, const char *v)
{
    const char *p = v;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (n) {
            char *piece = xstrndup(p, n);
            bool blank = false;
            for (size_t i = 0; i < n; i++) blank = blank || is_blank(piece[i]);
            if (blank) {
                split_command_line(piece, &x->host);
                free(piece);
            } else {
                sv_push_owned(&x->host, piece);
            }
        }
        p += n;
        if (*p) p++;
    }
}

static void apply(struct xlate *x, const struct match *m, const char *arg, enum driver d)
{
    const char *v = m->value;
    bool needs_value = m->opt->kind != K_DROP && m->opt->kind != K_KEEP &&
                       m->opt->kind != K_RDC && m->opt->kind != K_NO_RDC &&
                       m->opt->kind != K_RDC_BOOL;
    if (needs_value && (!v || !*v)) return; /* "-I" as the last argument */

    switch (m->opt->kind) {
    case K_DROP:
        break;
    case K_KEEP:
        if ((m->opt->forms & F_SEP) && !v) break; /* "-target" with nothing after it */
        sv_push(x->out, arg);
        if (m->took_next) sv_push(x->out, v);
        break;
    case K_INC:
    case K_ISYSTEM:
    case K_IQUOTE:
    case K_IDIRAFTER: {
        /* gcc/clang "-I=DIR" is relative to the sysroot: not ours to resolve. */
        char *path = (d != DRV_NVCC && v[0] == '=') ? xstrdup(v) : abs_against(x->dir, v);
        if (m->opt->kind == K_INC) {
            sv_push_owned(x->out, xasprintf("-I%s", path));
            free(path);
        } else {
            push_pair(x->out,
                      m->opt->kind == K_ISYSTEM  ? "-isystem"
                      : m->opt->kind == K_IQUOTE ? "-iquote"
                                                 : "-idirafter",
                      path);
        }
        break;
    }
    case K_DEFINE:
        sv_push_owned(x->out, xasprintf("-D%s", v));
        break;
    case K_UNDEF:
        sv_push_owned(x->out, xasprintf("-U%s", v));
        break;
    case K_STD:
        /* Files are parsed as CUDA, i.e. C++: clang rejects a C standard
           there, and the C standard of a .c entry says nothing about .cu. */
        if (str_starts_with(v, "c++") || str_starts_with(v, "gnu++"))
            sv_push_owned(x->out, xasprintf("-std=%s", v));
        break;
    case K_INCLUDE:
        push_pair(x->out, "-include", resolve_include_file(x->dir, v));
        break;
    case K_IMACROS:
        push_pair(x->out, "-imacros", resolve_include_file(x->dir, v));
        break;
    case K_SYSROOT: {
        char *abs = abs_against(x->dir, v);
        sv_push_owned(x->out, xasprintf("--sysroot=%s", abs));
        free(abs);
        break;
    }
    case K_ISYSROOT:
        push_pair(x->out, "-isysroot", abs_against(x->dir, v));
        break;
    case K_NVCC_ARCH:
    case K_CLANG_ARCH:
        add_arch_list(x, v, strlen(v));
        break;
    case K_GENCODE:
        add_gencode(x, v);
        break;
    case K_XCOMPILER:
        collect_host_flags(x, v);
        break;
    case K_RDC:
        x->rdc = true;
        break;
    case K_NO_RDC:
        x->rdc = false;
        break;
    case K_RDC_BOOL:
        x->rdc = !v || strcmp(v, "false") != 0;
        break;
    }
}

static void translate_list(struct xlate *x, char *const *args, size_t n, enum driver d)
{
    const char *const *cargs = (const char *const *)args;
    for (size_t i = 0; i < n; i++) {
        const char *a = args[i];
        struct match m;
        if (match_option(cargs, n, i, d, &m)) {
            apply(x, &m, a, d);
            if (m.took_next) i++;
            continue;
        }
        /* -Xptxas, -Xlinker, -Xnvlink, -Xcudafe, -Xarch_device, ...: every
           -X<tool> passes the next argument, often a flag, to another tool. */
        if (a[0] == '-' && a[1] == 'X' && !strchr(a, '=') && i + 1 < n) {
            i++;
            continue;
        }
        /* Everything else (unknown flags, the source file, objects) is dropped. */
    }
}

static enum driver driver_of(const char *argv0)
{
    const char *base = strrchr(argv0, '/');
    base = base ? base + 1 : argv0;
    /* nvcc, nvcc.exe, and Kokkos' nvcc_wrapper, which takes nvcc's flags too. */
    if (strncmp(base, "nvcc", 4) == 0) return DRV_NVCC;
    if (strstr(base, "clang")) return DRV_CLANG;
    return DRV_GCC;
}

static bool is_launcher(const char *argv0)
{
    static const char *const launchers[] = {"ccache", "sccache", "distcc", "icecc", "buildcache"};
    const char *base = strrchr(argv0, '/');
    base = base ? base + 1 : argv0;
    for (size_t k = 0; k < sizeof launchers / sizeof *launchers; k++)
        if (strcmp(base, launchers[k]) == 0) return true;
    return false;
}

int translate_compile_args(const struct strvec *argv, const char *directory,
                           struct strvec *clang_args, struct strvec *archs,
                           char **error)
{
    char *ignored = NULL;
    if (!error) error = &ignored; /* callers that only want the status */
    *error = NULL;
    if (!argv || argv->len == 0) return 0;

    /* Skip compiler launchers (ccache nvcc ...) and then the compiler itself;
       a line that starts with a flag has no compiler to skip. */
    size_t first = 0;
    while (first < argv->len && is_launcher(argv->items[first])) first++;
    if (first == argv->len) return 0;
    enum driver d = DRV_GCC;
    if (argv->items[first][0] != '-') d = driver_of(argv->items[first++]);

    char *dir = path_absolute(directory && *directory ? directory : ".");
    struct strvec expanded = {0};
    if (expand_args(argv->items + first, argv->len - first, dir, 0, &expanded, error)) {
        sv_release(&expanded);
        free(dir);
        free(ignored);
        return -1;
    }

    struct xlate x = {.dir = dir, .out = clang_args, .archs = archs};
    translate_list(&x, expanded.items, expanded.len, d);
    /* Host flags come after nvcc's own, as nvcc hands them to the host
       compiler; only those that matter for parsing survive the same table. */
    translate_list(&x, x.host.items, x.host.len, DRV_GCC);
    if (x.rdc) sv_push(clang_args, "-fgpu-rdc");

    sv_release(&x.host);
    sv_release(&expanded);
    free(dir);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* compile_commands.json                                                    */

static void line_col(const char *text, const char *at, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (const char *p = text; p < at && *p; p++) {
        if (*p == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

static const char *json_type_name(const cJSON *j)
{
    if (cJSON_IsObject(j)) return "an object";
    if (cJSON_IsString(j)) return "a string";
    if (cJSON_IsNumber(j)) return "a number";
    if (cJSON_IsBool(j)) return "a boolean";
    if (cJSON_IsNull(j)) return "null";
    return "an array";
}

/* Fills one command from one entry; returns an error message or NULL. */
static char *load_entry(const cJSON *e, size_t idx, const char *db_dir,
                        struct compile_command *cmd)
{
    if (!cJSON_IsObject(e))
        return xasprintf("entry %zu is %s, not an object", idx, json_type_name(e));
    const cJSON *dir = cJSON_GetObjectItemCaseSensitive(e, "directory");
    const cJSON *file = cJSON_GetObjectItemCaseSensitive(e, "file");
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "arguments");
    const cJSON *command = cJSON_GetObjectItemCaseSensitive(e, "command");
    if (!cJSON_IsString(dir) || !dir->valuestring[0])
        return xasprintf("entry %zu has no \"directory\" string", idx);
    if (!cJSON_IsString(file) || !file->valuestring[0])
        return xasprintf("entry %zu has no \"file\" string", idx);
    if (args) {
        if (!cJSON_IsArray(args))
            return xasprintf("entry %zu: \"arguments\" is %s, not an array", idx, json_type_name(args));
        const cJSON *a;
        cJSON_ArrayForEach(a, args) {
            if (!cJSON_IsString(a))
                return xasprintf("entry %zu: \"arguments\" holds %s, not only strings", idx,
                                 json_type_name(a));
        }
    } else if (!cJSON_IsString(command)) {
        return xasprintf("entry %zu has neither an \"arguments\" array nor a \"command\" string", idx);
    }

    /* The spec asks for an absolute "directory"; a relative one is taken
       relative to the database, which is what a hand-written one means. */
    cmd->directory = abs_against(db_dir, dir->valuestring);
    char *joined = path_join(cmd->directory, file->valuestring);
    cmd->file = path_absolute(joined);
    free(joined);
    if (args) {
        const cJSON *a;
        cJSON_ArrayForEach(a, args) sv_push(&cmd->argv, a->valuestring);
    } else {
        split_command_line(command->valuestring, &cmd->argv);
    }
    return NULL;
}

static struct compdb *load_db(const char *path, char **error)
{
    *error = NULL;
    char *file = path_is_dir(path) ? path_join(path, "compile_commands.json") : xstrdup(path);
    char *text = NULL;
    size_t len = 0;
    int e = read_file(file, &text, &len);
    if (e != 0) {
        *error = xasprintf("%s: cannot read compile database: %s", file, strerror(e));
        free(file);
        return NULL;
    }

    const char *end = NULL;
    /* The length includes the terminating NUL, which the null-terminated
       check needs to see to reject trailing garbage. */
    cJSON *root = len ? cJSON_ParseWithLengthOpts(text, len + 1, &end, 1) : NULL;
    if (!root) {
        if (len == 0 || !end) {
            *error = xasprintf("%s: empty compile database (expected a JSON array)", file);
        } else {
            int line, col;
            line_col(text, end, &line, &col);
            *error = xasprintf("%s:%d:%d: invalid JSON", file, line, col);
        }
        free(text);
        free(file);
        return NULL;
    }
    free(text);

    if (!cJSON_IsArray(root)) {
        *error = xasprintf("%s: expected a JSON array of compile commands, found %s", file,
                           json_type_name(root));
        cJSON_Delete(root);
        free(file);
        return NULL;
    }

    char *abs_file = path_absolute(file);
    char *db_dir = path_dirname(abs_file);
    free(abs_file);

    struct compdb *db = xcalloc(1, sizeof *db);
    db->path = file;
    size_t n = (size_t)cJSON_GetArraySize(root);
    db->cmds = xcalloc(n ? n : 1, sizeof *db->cmds);
    const cJSON *entry;
    size_t idx = 0;
    cJSON_ArrayForEach(entry, root) {
        char *msg = load_entry(entry, idx + 1, db_dir, &db->cmds[idx]);
        db->n_cmds = idx + 1; /* so that compdb_free releases a half-filled entry */
        if (msg) {
            *error = xasprintf("%s: %s", file, msg);
            free(msg);
            compdb_free(db);
            db = NULL;
            break;
        }
        idx++;
    }
    free(db_dir);
    cJSON_Delete(root);
    return db;
}

struct compdb *compdb_load(const char *path, char **error)
{
    char *msg = NULL;
    struct compdb *db = load_db(path, &msg);
    if (error)
        *error = msg;
    else
        free(msg);
    return db;
}

char *compdb_discover(void)
{
    static const char *const dirs[] = {".", "build"};
    for (size_t k = 0; k < sizeof dirs / sizeof *dirs; k++) {
        char *f = path_join(dirs[k], "compile_commands.json");
        bool found = path_exists(f) && !path_is_dir(f);
        free(f);
        if (found) return xstrdup(dirs[k]);
    }
    return NULL;
}

const struct compile_command *compdb_find(const struct compdb *db, const char *abs_path)
{
    if (!db || !abs_path) return NULL;
    char *norm = path_absolute(abs_path);
    const struct compile_command *found = NULL;
    for (size_t i = 0; i < db->n_cmds && !found; i++)
        if (strcmp(db->cmds[i].file, norm) == 0) found = &db->cmds[i]; /* first entry wins */
    free(norm);
    return found;
}

void compdb_free(struct compdb *db)
{
    if (!db) return;
    for (size_t i = 0; i < db->n_cmds; i++) {
        free(db->cmds[i].file);
        free(db->cmds[i].directory);
        sv_release(&db->cmds[i].argv);
    }
    free(db->cmds);
    free(db->path);
    free(db);
}

/* ---- arguments from files that are not the user's own ---- */

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

const char *compile_arg_refused(const char *prev, const char *arg)
{
    if (prev && strcmp(prev, "-Xclang") == 0) {
        if ((arg[0] == '-' && (arg[1] == 'f' || arg[1] == 'W')) && !starts(arg, "-fplugin") &&
            !starts(arg, "-fpass-plugin") && !starts(arg, "-fmodule"))
            return NULL;
        return "after -Xclang only -f and -W options are allowed (no -load, -plugin or -add-plugin)";
    }
    if (prev && (strcmp(prev, "-include") == 0 || strcmp(prev, "-imacros") == 0 || strcmp(prev, "-include-pch") == 0 ||
                 strcmp(prev, "--include") == 0)) {
        struct stat st;
        if (stat(arg, &st) == 0 && !S_ISREG(st.st_mode)) return "includes a file that is not a regular file";
        return NULL;
    }
    if (arg[0] == '@') return "response files are not read from a configuration";
    static const char *const loads[] = {"-fplugin", "-fpass-plugin", "-load", "-plugin", "-add-plugin", NULL};
    for (size_t i = 0; loads[i]; i++)
        if (starts(arg, loads[i])) return "loads a plugin";
    static const char *const programs[] = {"-B", "--gcc-toolchain", "--gcc-install-dir", "--prefix", "-ccc-",
                                           "--ld-path", "-fuse-ld", "--config", "-no-canonical-prefixes", NULL};
    for (size_t i = 0; programs[i]; i++)
        if (starts(arg, programs[i])) return "names programs or where clang looks for them";
    static const char *const writes[] = {"-o", "-M", "--write-", "-save-temps", "-ftime-trace", "-fcrash-diagnostics",
                                         "-fprofile", "--serialize-diagnostics", "-serialize-diagnostics",
                                         "-dependency-", "-fmodule", "-fimplicit-module", "-fbuild-session",
                                         "-gen-reproducer", "-emit-", "-fdump", "-ftest-module", NULL};
    for (size_t i = 0; writes[i]; i++)
        if (starts(arg, writes[i])) return "makes clang write files";
    static const char *const passes[] = {"-mllvm", "-Xlinker", "-Wl,", "-Wa,", "-Wp,", "-Xassembler", "-Xpreprocessor",
                                         "-Xarch", "-Xcuda", "-Xopenmp", "-Xoffload", "-Xanalyzer", "-Xcompiler",
                                         "--cuda-path-ignore-env", NULL};
    for (size_t i = 0; passes[i]; i++)
        if (starts(arg, passes[i])) return "passes arguments on to other tools";
    return NULL;
}
