/* lsp_convert.h: a file's lint result as LSP diagnostics and quick fixes. */
#ifndef CUDALINT_LSP_CONVERT_H
#define CUDALINT_LSP_CONVERT_H

#include "core/result.h"
#include "lsp/lsp_text.h"
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/* What the client negotiated. */
struct lsp_convert {
    enum lsp_encoding enc;   /* positionEncoding */
    bool document_changes;   /* WorkspaceEdit.documentChanges (versioned edits) */
};

/* Converts res, the lint of text (version `version` of the document uri,
   which is path on disk), into *diags (the publishDiagnostics array: only
   findings in the document itself) and *actions (an array of {range, action}:
   the finding's range, for matching a codeAction request, and the quick-fix
   CodeAction).  Both are new cJSON arrays owned by the caller. */
void lsp_convert_result(const struct lsp_convert *cv, const char *uri, const char *path,
                        long version, const char *text, size_t len, const struct file_result *res,
                        cJSON **diags, cJSON **actions);


#endif
