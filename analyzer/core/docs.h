/* docs.h: the rule docs embedded from rules/CU*.md by analyzer/embed.cmake. */
#ifndef CUDALINT_DOCS_H
#define CUDALINT_DOCS_H

#include <stddef.h>

struct embedded_doc {
    const char *code; /* "CU201" */
    const char *text; /* the Markdown */
    size_t len;
};

extern const struct embedded_doc embedded_docs[];
extern const size_t embedded_docs_len;
extern const char cudalint_version[];

#endif
