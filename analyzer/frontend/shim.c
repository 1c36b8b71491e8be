/* shim.c: the identity of the embedded declarations header, for the keys of
 * the result cache and of the precompiled headers. */
#include "frontend/shim.h"

#include <pthread.h>
#include <string.h>
#include <xxhash.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static uint64_t hash;

static void hash_init(void)
{
    XXH3_state_t *st = XXH3_createState();
    XXH3_64bits_reset(st);
    for (size_t i = 0; i < shim_files_len; i++) {
        if (!shim_files[i].name) continue;
        XXH3_64bits_update(st, shim_files[i].name, strlen(shim_files[i].name) + 1);
        XXH3_64bits_update(st, shim_files[i].contents, shim_files[i].len);
    }
    hash = XXH3_64bits_digest(st);
    XXH3_freeState(st);
}

uint64_t shim_hash(void)
{
    pthread_once(&once, hash_init);
    return hash;
}
