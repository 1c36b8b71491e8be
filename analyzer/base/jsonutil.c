/* jsonutil.c: cJSON accessors shared by cudalint's JSON readers and writers. */
#include "base/jsonutil.h"
#include "base/util.h"

#include <stdlib.h>

void json_add_str(cJSON *obj, const char *key, const char *value)
{
    char *clean = utf8_sanitize(value ? value : "");
    cJSON_AddStringToObject(obj, key, clean);
    free(clean);
}

const char *json_get_str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

double json_get_number(const cJSON *o, const char *key, double missing)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : missing;
}

char *json_dup_str(const cJSON *o, const char *key)
{
    const char *s = json_get_str(o, key);
    return s ? xstrdup(s) : NULL;
}

void json_write_doc(FILE *out, cJSON *root)
{
    char *s = cJSON_Print(root);
    fputs(s, out);
    fputc('\n', out);
    cJSON_free(s);
    cJSON_Delete(root);
}
