/* parse.c: planning a file's parse passes and running them with libclang.
 *
 * With a toolkit: a host-only pass and one device-only pass for the newest
 * target arch (one per arch where the file's device code tests __CUDA_ARCH__,
 * or with --all-cuda-archs), using the toolkit's real headers (plus CCCL's include/cccl, which nvcc adds
 * silently, and cudalint_toolkit.h, which closes the gaps between clang's view
 * of them and nvcc's).  Without one, or with --no-cuda-headers: one device
 * pass over the embedded declarations header (shim.h).  The embedded headers
 * are served as unsaved files under a virtual directory. */
#include "frontend/parse.h"
#include "frontend/archscan.h"
#include "frontend/compat.h"
#include "frontend/compile_args.h"
#include "frontend/include_guess.h"
#include "frontend/shim.h"
#include "frontend/toolkit.h"
#include "base/util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Flags every pass shares: CUDA language, no warnings (cudalint reports its
   own findings, clang's errors only matter as parse failures), no error limit
   so recovery keeps going, and no libdevice lookup since nothing is linked. */
/* clang's own headers (__clang_cuda_runtime_wrapper.h, stddef.h ...).  libclang
   guesses their directory from where it was loaded, which fails for relocated
   copies; $CUDALINT_RESOURCE_DIR, then the directory the build found, say it
   outright when they exist. */
static const char *resource_dir_found;
static pthread_once_t resource_dir_once = PTHREAD_ONCE_INIT;

static void resource_dir_init(void)
{
    const char *env = getenv("CUDALINT_RESOURCE_DIR");
    if (env && *env) {
        resource_dir_found = env;
        return;
    }
    char *probe = path_join(CUDALINT_CLANG_RESOURCE_DIR, "include/__clang_cuda_runtime_wrapper.h");
    if (path_exists(probe)) resource_dir_found = CUDALINT_CLANG_RESOURCE_DIR;
    free(probe);
}

static const char *resource_dir(void)
{
    pthread_once(&resource_dir_once, resource_dir_init);
    return resource_dir_found;
}

static void add_common(struct strvec *a)
{
    const char *rd = resource_dir();
    if (rd) {
        sv_push(a, "-resource-dir");
        sv_push(a, rd);
    }
    sv_push(a, "-x");
    sv_push(a, "cuda");
    sv_push(a, "-w");
    sv_push(a, "-ferror-limit=0");
    sv_push(a, "-nocudalib");
    sv_push(a, "-Wno-unknown-cuda-version");
    /* Relocatable device code accepts everything whole-program compilation
       does, plus `extern __shared__` arrays declared in several files and
       device-side kernel launches, which parse only with it. */
    sv_push(a, "-fgpu-rdc");
}

/* What both toolkit passes add after the toolkit's own arguments. */
static void add_toolkit_headers(struct strvec *a, const char *cccl)
{
    if (path_is_dir(cccl)) {
        sv_push(a, "-isystem");
        sv_push(a, cccl);
    }
    sv_push(a, "-include");
    sv_push(a, SHIM_TOOLKIT_PREINCLUDE);
    sv_push(a, "-idirafter");
    sv_push(a, SHIM_FALLBACK_DIR);
}

/* clang chooses how `<<<...>>>` launches are lowered from the CUDA SDK version,
   which its driver passes only when it links libdevice: with -nocudalib on a
   device-only pass it falls back to the long-removed cudaConfigureCall and
   every launch is an error.  Telling it the toolkit's real version selects
   __cudaPushCallConfiguration, which the headers declare. */
static void add_sdk_version(struct strvec *a, const struct lint_options *o)
{
    const char *v = o->toolkit && o->toolkit->version ? o->toolkit->version : NULL;
    if (!v) return;
    char major_minor[32];
    int major = 0, minor = 0;
    if (sscanf(v, "%d.%d", &major, &minor) < 1 || major < 9) return;
    snprintf(major_minor, sizeof major_minor, "%d.%d", major, minor);
    sv_push(a, "-Xclang");
    sv_push_owned(a, xasprintf("-target-sdk-version=%s", major_minor));
}

/* nvcc's predefined macros, from nvcc's version (the toolkit's, or the
   declarations header's in shim mode), before the user's -D/-U. */
static void add_nvcc_macros(struct strvec *a, const struct lint_options *o, bool shim, const struct strvec *archs)
{
    const char *v = SHIM_CUDA_VERSION;
    if (!shim) v = o->toolkit->nvcc_version ? o->toolkit->nvcc_version : o->toolkit->version;
    toolkit_nvcc_macros(v, (const char *const *)archs->items, (unsigned)archs->len, a);
}

static void add_user(struct strvec *a, const struct strvec *from_db, bool has_std,
                     const struct lint_options *o)
{
    /* Without a -std of the build's, the dialect nvcc gives its host
       compiler by default: g++'s, C++17 with GNU extensions (`typeof`, as
       in the toolkit's own NCCL device headers). */
    if (!has_std) sv_push(a, "-std=gnu++17");
    for (size_t i = 0; i < from_db->len; i++) sv_push(a, from_db->items[i]);
    for (size_t i = 0; i < o->extra_args.len; i++) sv_push(a, o->extra_args.items[i]);
}

static struct parse_pass *new_pass(struct parse_plan *plan, const char *name, bool device)
{
    plan->passes = xrealloc(plan->passes, (plan->n_passes + 1) * sizeof *plan->passes);
    struct parse_pass *p = &plan->passes[plan->n_passes++];
    memset(p, 0, sizeof *p);
    p->name = xstrdup(name);
    p->is_device = device;
    return p;
}

/* The archs that get a device pass, newest first: the newest alone, unless
   the file's device code can differ between them (archscan.h) or
   --all-cuda-archs asks for every one.  Ties (sm_90, sm_90a) keep the first
   named. */
static void device_archs(const struct lint_options *o, const struct strvec *archs, const char *file,
                         const char *text, size_t len, const struct strvec *args, struct strvec *out)
{
    if (archs->len == 0) {
        sv_push(out, "sm_90");
        return;
    }
    size_t newest = 0;
    for (size_t i = 1; i < archs->len; i++)
        if (archscan_arch_number(archs->items[i]) > archscan_arch_number(archs->items[newest])) newest = i;
    sv_push(out, archs->items[newest]);
    if (archs->len == 1) return;
    if (!text || (!o->all_archs && !archscan_source_tests_arch(file, text, len, args,
                                                               o->toolkit ? o->toolkit->root : NULL)))
        return;
    /* The rest, newest first, so that pass order (and which pass reports a
       clang error first) does not depend on how the build listed them. */
    bool *taken = xcalloc(archs->len, sizeof *taken);
    taken[newest] = true;
    for (;;) {
        size_t best = archs->len;
        for (size_t i = 0; i < archs->len; i++)
            if (!taken[i] && !sv_contains(out, archs->items[i]) &&
                (best == archs->len || archscan_arch_number(archs->items[i]) > archscan_arch_number(archs->items[best])))
                best = i;
        if (best == archs->len) break;
        taken[best] = true;
        sv_push(out, archs->items[best]);
    }
    free(taken);
}

int parse_plan_build(const struct lint_options *o, const char *file, const char *text, size_t len,
                     struct parse_plan *plan, char **error)
{
    memset(plan, 0, sizeof *plan);
    struct strvec db_args = {0}, db_archs = {0};
    const struct compile_command *cc = NULL;
    if (o->compdb) {
        cc = compdb_find(o->compdb, file);
        if (cc && translate_compile_args(&cc->argv, cc->directory, &db_args, &db_archs, error) != 0) {
            sv_release(&db_args);
            sv_release(&db_archs);
            return -1;
        }
    }
    bool has_std = false;
    for (size_t i = 0; i < db_args.len; i++)
        if (str_starts_with(db_args.items[i], "-std=")) has_std = true;
    const struct strvec *named = (!o->explicit_archs && db_archs.len) ? &db_archs : &o->archs;
    struct strvec scan_args = {0}, device = {0};
    for (size_t i = 0; i < db_args.len; i++) sv_push(&scan_args, db_args.items[i]);
    for (size_t i = 0; i < o->extra_args.len; i++) sv_push(&scan_args, o->extra_args.items[i]);
    bool shim = o->headers == HEADERS_SHIM || !o->toolkit;
    /* The declarations header has one pass: only the newest arch matters. */
    device_archs(o, named, file, shim ? NULL : text, len, &scan_args, &device);
    sv_release(&scan_args);
    const struct strvec *archs = &device;
    const char *first_arch = archs->items[0];

    plan->shim = shim;
    if (shim) {
        char *name = xasprintf("shim %s", first_arch);
        struct parse_pass *p = new_pass(plan, name, true);
        free(name);
        add_common(&p->args);
        sv_push(&p->args, "-nocudainc");
        sv_push(&p->args, "--cuda-device-only");
        sv_push_owned(&p->args, xasprintf("--cuda-gpu-arch=%s", first_arch));
        sv_push(&p->args, "-isystem");
        sv_push(&p->args, SHIM_DIR);
        sv_push(&p->args, "-include");
        sv_push(&p->args, SHIM_MAIN);
        sv_push(&p->args, "-idirafter");
        sv_push(&p->args, SHIM_FALLBACK_DIR);
        add_nvcc_macros(&p->args, o, true, archs);
        add_user(&p->args, &db_args, has_std, o);
    } else {
        plan->toolkit_root = xstrdup(o->toolkit->root);
        char *cccl = path_join(o->toolkit->root, "include/cccl");
        struct parse_pass *h = new_pass(plan, "host", false);
        add_common(&h->args);
        sv_push_owned(&h->args, xasprintf("--cuda-path=%s", o->toolkit->root));
        add_sdk_version(&h->args, o);
        sv_push(&h->args, "--cuda-host-only");
        /* The host side sees the same target as the first device pass
           (clang checks some device-side declarations against it). */
        sv_push_owned(&h->args, xasprintf("--cuda-gpu-arch=%s", first_arch));
        add_toolkit_headers(&h->args, cccl);
        add_nvcc_macros(&h->args, o, false, archs);
        add_user(&h->args, &db_args, has_std, o);
        for (size_t i = 0; i < archs->len; i++) {
            const char *arch = archs->items[i];
            char *name = xasprintf("device %s", arch);
            struct parse_pass *d = new_pass(plan, name, true);
            free(name);
            add_common(&d->args);
            sv_push_owned(&d->args, xasprintf("--cuda-path=%s", o->toolkit->root));
            add_sdk_version(&d->args, o);
            sv_push(&d->args, "--cuda-device-only");
            sv_push_owned(&d->args, xasprintf("--cuda-gpu-arch=%s", arch));
            add_toolkit_headers(&d->args, cccl);
            add_nvcc_macros(&d->args, o, false, archs);
            add_user(&d->args, &db_args, has_std, o);
        }
        free(cccl);
    }
    sv_release(&device);
    /* Without its build, a file's own headers in sibling folders are found
       the way clangd's fallback finds them. */
    if (!cc) {
        char *tk_include = shim ? NULL : path_join(o->toolkit->root, "include");
        struct strvec angled = {0}, after = {0};
        include_guess(o, file, tk_include, &plan->guessed_includes, &angled, &after);
        free(tk_include);
        for (size_t p = 0; p < plan->n_passes; p++) {
            for (size_t i = 0; i < plan->guessed_includes.len; i++) {
                sv_push(&plan->passes[p].args, "-iquote");
                sv_push(&plan->passes[p].args, plan->guessed_includes.items[i]);
            }
            /* after the build's own -I (none without a compile command) */
            for (size_t i = 0; i < angled.len; i++) {
                sv_push(&plan->passes[p].args, "-I");
                sv_push(&plan->passes[p].args, angled.items[i]);
            }
            /* a folder that would hide system headers: after them (clang
               counts what it finds there as system headers, whose findings
               it keeps quiet: a compat folder's, which is fine) */
            for (size_t i = 0; i < after.len; i++) {
                sv_push(&plan->passes[p].args, "-idirafter");
                sv_push(&plan->passes[p].args, after.items[i]);
            }
        }
        for (size_t i = 0; i < angled.len; i++)
            if (!sv_contains(&plan->guessed_includes, angled.items[i])) sv_push(&plan->guessed_includes, angled.items[i]);
        for (size_t i = 0; i < after.len; i++)
            if (!sv_contains(&plan->guessed_includes, after.items[i])) sv_push(&plan->guessed_includes, after.items[i]);
        sv_release(&angled);
        sv_release(&after);
    }
    sv_release(&db_args);
    sv_release(&db_archs);
    return 0;
}

void parse_plan_release(struct parse_plan *plan)
{
    for (size_t i = 0; i < plan->n_passes; i++) {
        free(plan->passes[i].name);
        sv_release(&plan->passes[i].args);
    }
    free(plan->passes);
    free(plan->toolkit_root);
    sv_release(&plan->guessed_includes);
    memset(plan, 0, sizeof *plan);
}

CXTranslationUnit parse_pass_run(CXIndex index, const char *file, const struct parse_pass *pass,
                                 const char *contents, size_t contents_len, enum CXErrorCode *err)
{
    return parse_pass_run_with(index, file, pass, contents, contents_len, NULL, 0, err);
}

bool parse_args_use_shim_files(const struct strvec *args)
{
    for (size_t i = 0; i < args->len; i++)
        if (strcmp(args->items[i], SHIM_DIR) == 0 || str_starts_with(args->items[i], SHIM_DIR "/")) return true;
    return false;
}

void parse_unsaved_init(struct parse_unsaved *u, const char *file, const char *contents, size_t len,
                        const struct CXUnsavedFile *extra, size_t n_extra, const struct strvec *args)
{
    u->files = xcalloc(shim_files_len + 2 + n_extra, sizeof *u->files);
    u->names = xcalloc(shim_files_len + 1, sizeof *u->names);
    u->n = 0;
    for (size_t i = 0; i < n_extra; i++) u->files[u->n++] = extra[i];
    if (contents) {
        u->files[u->n].Filename = file;
        u->files[u->n].Contents = contents;
        u->files[u->n].Length = (unsigned long)len;
        u->n++;
    }
    const char *compat_path, *compat_text;
    size_t compat_len;
    if (compat_driver_types(args, &compat_path, &compat_text, &compat_len)) {
        u->files[u->n].Filename = compat_path;
        u->files[u->n].Contents = compat_text;
        u->files[u->n].Length = (unsigned long)compat_len;
        u->n++;
    }
    if (!parse_args_use_shim_files(args)) return;
    for (size_t i = 0, k = 0; i < shim_files_len; i++) {
        if (!shim_files[i].name) continue;
        u->names[k] = xasprintf("%s/%s", SHIM_DIR, shim_files[i].name);
        u->files[u->n].Filename = u->names[k];
        u->files[u->n].Contents = shim_files[i].contents;
        u->files[u->n].Length = (unsigned long)shim_files[i].len;
        u->n++;
        k++;
    }
}

void parse_unsaved_release(struct parse_unsaved *u)
{
    for (size_t i = 0; i < shim_files_len; i++) free(u->names[i]);
    free(u->names);
    free(u->files);
    memset(u, 0, sizeof *u);
}

CXTranslationUnit parse_pass_run_with(CXIndex index, const char *file, const struct parse_pass *pass,
                                      const char *contents, size_t contents_len,
                                      const struct CXUnsavedFile *extra, size_t n_extra,
                                      enum CXErrorCode *err)
{
    struct parse_unsaved u;
    parse_unsaved_init(&u, file, contents, contents_len, extra, n_extra, &pass->args);
    CXTranslationUnit tu = NULL;
    *err = clang_parseTranslationUnit2(index, file, (const char *const *)pass->args.items,
                                       (int)pass->args.len, u.files, u.n, PARSE_FLAGS, &tu);
    parse_unsaved_release(&u);
    return *err == CXError_Success ? tu : NULL;
}
