/* clang_api.h: libclang, loaded on first use instead of at start-up.
 *
 * Linking libclang costs every process about 50 ms before main() (the static
 * constructors of libLLVM), which is most of a run that the result cache
 * answers.  So cudalint does not link it: this header declares the API as
 * usual (clang-c/Index.h) and then routes each function cudalint calls
 * through a pointer that clang_api.c resolves with dlopen/dlsym the first
 * time any of them is called.  Include it instead of <clang-c/Index.h>.
 *
 * Calling a libclang function missing from the list below fails at link
 * time (undefined reference): add a line for it. */
#ifndef CUDALINT_CLANG_API_H
#define CUDALINT_CLANG_API_H

#include <clang-c/Index.h>
#include <stdatomic.h>

/* The address of libclang's function name: loads libclang on the first call
   and exits with a message (exit code 2) when it cannot be loaded. */
void *clang_api_symbol(const char *name);
/* The library a parse would load, as "path size mtime", without loading it:
   part of the result cache's key.  Caller frees. */
char *clang_api_identity(void);

/* One cached pointer per call site: an atomic load after the first call. */
#define CLANG_API_LAZY(name)                                                                       \
    (__extension__({                                                                               \
        static _Atomic(void *) clang_api_slot_;                                                    \
        void *clang_api_fn_ = atomic_load_explicit(&clang_api_slot_, memory_order_relaxed);        \
        if (!clang_api_fn_) {                                                                      \
            clang_api_fn_ = clang_api_symbol(#name);                                               \
            atomic_store_explicit(&clang_api_slot_, clang_api_fn_, memory_order_relaxed);          \
        }                                                                                          \
        (__typeof__(name) *)clang_api_fn_;                                                         \
    }))

#define clang_Cursor_Evaluate CLANG_API_LAZY(clang_Cursor_Evaluate)
#define clang_Cursor_getArgument CLANG_API_LAZY(clang_Cursor_getArgument)
#define clang_Cursor_getGCCAssemblyInput CLANG_API_LAZY(clang_Cursor_getGCCAssemblyInput)
#define clang_Cursor_getGCCAssemblyNumInputs CLANG_API_LAZY(clang_Cursor_getGCCAssemblyNumInputs)
#define clang_Cursor_getGCCAssemblyNumOutputs CLANG_API_LAZY(clang_Cursor_getGCCAssemblyNumOutputs)
#define clang_Cursor_getGCCAssemblyOutput CLANG_API_LAZY(clang_Cursor_getGCCAssemblyOutput)
#define clang_Cursor_getGCCAssemblyTemplate CLANG_API_LAZY(clang_Cursor_getGCCAssemblyTemplate)
#define clang_Cursor_getNumArguments CLANG_API_LAZY(clang_Cursor_getNumArguments)
#define clang_Cursor_getNumTemplateArguments CLANG_API_LAZY(clang_Cursor_getNumTemplateArguments)
#define clang_Cursor_getOffsetOfField CLANG_API_LAZY(clang_Cursor_getOffsetOfField)
#define clang_Cursor_getStorageClass CLANG_API_LAZY(clang_Cursor_getStorageClass)
#define clang_Cursor_getTemplateArgumentKind CLANG_API_LAZY(clang_Cursor_getTemplateArgumentKind)
#define clang_Cursor_getTemplateArgumentValue CLANG_API_LAZY(clang_Cursor_getTemplateArgumentValue)
#define clang_Cursor_getVarDeclInitializer CLANG_API_LAZY(clang_Cursor_getVarDeclInitializer)
#define clang_Cursor_isMacroFunctionLike CLANG_API_LAZY(clang_Cursor_isMacroFunctionLike)
#define clang_Cursor_isNull CLANG_API_LAZY(clang_Cursor_isNull)
#define clang_EvalResult_dispose CLANG_API_LAZY(clang_EvalResult_dispose)
#define clang_EvalResult_getAsDouble CLANG_API_LAZY(clang_EvalResult_getAsDouble)
#define clang_EvalResult_getAsLongLong CLANG_API_LAZY(clang_EvalResult_getAsLongLong)
#define clang_EvalResult_getKind CLANG_API_LAZY(clang_EvalResult_getKind)
#define clang_File_isEqual CLANG_API_LAZY(clang_File_isEqual)
#define clang_Location_isFromMainFile CLANG_API_LAZY(clang_Location_isFromMainFile)
#define clang_Location_isInSystemHeader CLANG_API_LAZY(clang_Location_isInSystemHeader)
#define clang_Type_getAlignOf CLANG_API_LAZY(clang_Type_getAlignOf)
#define clang_Type_getSizeOf CLANG_API_LAZY(clang_Type_getSizeOf)
#define clang_createIndex CLANG_API_LAZY(clang_createIndex)
#define clang_defaultReparseOptions CLANG_API_LAZY(clang_defaultReparseOptions)
#define clang_defaultSaveOptions CLANG_API_LAZY(clang_defaultSaveOptions)
#define clang_disposeDiagnostic CLANG_API_LAZY(clang_disposeDiagnostic)
#define clang_disposeIndex CLANG_API_LAZY(clang_disposeIndex)
#define clang_disposeString CLANG_API_LAZY(clang_disposeString)
#define clang_disposeTokens CLANG_API_LAZY(clang_disposeTokens)
#define clang_disposeTranslationUnit CLANG_API_LAZY(clang_disposeTranslationUnit)
#define clang_equalCursors CLANG_API_LAZY(clang_equalCursors)
#define clang_equalTypes CLANG_API_LAZY(clang_equalTypes)
#define clang_formatDiagnostic CLANG_API_LAZY(clang_formatDiagnostic)
#define clang_getArrayElementType CLANG_API_LAZY(clang_getArrayElementType)
#define clang_getArraySize CLANG_API_LAZY(clang_getArraySize)
#define clang_getCString CLANG_API_LAZY(clang_getCString)
#define clang_getCanonicalCursor CLANG_API_LAZY(clang_getCanonicalCursor)
#define clang_getCanonicalType CLANG_API_LAZY(clang_getCanonicalType)
#define clang_getClangVersion CLANG_API_LAZY(clang_getClangVersion)
#define clang_getCursor CLANG_API_LAZY(clang_getCursor)
#define clang_getCursorBinaryOperatorKind CLANG_API_LAZY(clang_getCursorBinaryOperatorKind)
#define clang_getCursorDefinition CLANG_API_LAZY(clang_getCursorDefinition)
#define clang_getCursorExtent CLANG_API_LAZY(clang_getCursorExtent)
#define clang_getCursorKind CLANG_API_LAZY(clang_getCursorKind)
#define clang_getCursorLinkage CLANG_API_LAZY(clang_getCursorLinkage)
#define clang_getCursorLocation CLANG_API_LAZY(clang_getCursorLocation)
#define clang_getCursorReferenced CLANG_API_LAZY(clang_getCursorReferenced)
#define clang_getCursorResultType CLANG_API_LAZY(clang_getCursorResultType)
#define clang_getCursorSemanticParent CLANG_API_LAZY(clang_getCursorSemanticParent)
#define clang_getCursorSpelling CLANG_API_LAZY(clang_getCursorSpelling)
#define clang_getCursorType CLANG_API_LAZY(clang_getCursorType)
#define clang_getCursorUSR CLANG_API_LAZY(clang_getCursorUSR)
#define clang_getCursorUnaryOperatorKind CLANG_API_LAZY(clang_getCursorUnaryOperatorKind)
#define clang_getDiagnostic CLANG_API_LAZY(clang_getDiagnostic)
#define clang_getDiagnosticLocation CLANG_API_LAZY(clang_getDiagnosticLocation)
#define clang_getDiagnosticSeverity CLANG_API_LAZY(clang_getDiagnosticSeverity)
#define clang_getDiagnosticSpelling CLANG_API_LAZY(clang_getDiagnosticSpelling)
#define clang_getEnumConstantDeclValue CLANG_API_LAZY(clang_getEnumConstantDeclValue)
#define clang_getExpansionLocation CLANG_API_LAZY(clang_getExpansionLocation)
#define clang_getFileContents CLANG_API_LAZY(clang_getFileContents)
#define clang_getFileName CLANG_API_LAZY(clang_getFileName)
#define clang_getFileUniqueID CLANG_API_LAZY(clang_getFileUniqueID)
#define clang_getInclusions CLANG_API_LAZY(clang_getInclusions)
#define clang_getLocationForOffset CLANG_API_LAZY(clang_getLocationForOffset)
#define clang_getNonReferenceType CLANG_API_LAZY(clang_getNonReferenceType)
#define clang_getNullCursor CLANG_API_LAZY(clang_getNullCursor)
#define clang_getNumDiagnostics CLANG_API_LAZY(clang_getNumDiagnostics)
#define clang_getNumOverloadedDecls CLANG_API_LAZY(clang_getNumOverloadedDecls)
#define clang_getOverloadedDecl CLANG_API_LAZY(clang_getOverloadedDecl)
#define clang_getPointeeType CLANG_API_LAZY(clang_getPointeeType)
#define clang_getRange CLANG_API_LAZY(clang_getRange)
#define clang_getRangeEnd CLANG_API_LAZY(clang_getRangeEnd)
#define clang_getRangeStart CLANG_API_LAZY(clang_getRangeStart)
#define clang_getSpecializedCursorTemplate CLANG_API_LAZY(clang_getSpecializedCursorTemplate)
#define clang_getSpellingLocation CLANG_API_LAZY(clang_getSpellingLocation)
#define clang_getToken CLANG_API_LAZY(clang_getToken)
#define clang_getTokenExtent CLANG_API_LAZY(clang_getTokenExtent)
#define clang_getTokenKind CLANG_API_LAZY(clang_getTokenKind)
#define clang_getTokenLocation CLANG_API_LAZY(clang_getTokenLocation)
#define clang_getTokenSpelling CLANG_API_LAZY(clang_getTokenSpelling)
#define clang_getTranslationUnitCursor CLANG_API_LAZY(clang_getTranslationUnitCursor)
#define clang_getTypeSpelling CLANG_API_LAZY(clang_getTypeSpelling)
#define clang_hashCursor CLANG_API_LAZY(clang_hashCursor)
#define clang_isAttribute CLANG_API_LAZY(clang_isAttribute)
#define clang_isConstQualifiedType CLANG_API_LAZY(clang_isConstQualifiedType)
#define clang_isVolatileQualifiedType CLANG_API_LAZY(clang_isVolatileQualifiedType)
#define clang_isCursorDefinition CLANG_API_LAZY(clang_isCursorDefinition)
#define clang_isDeclaration CLANG_API_LAZY(clang_isDeclaration)
#define clang_isExpression CLANG_API_LAZY(clang_isExpression)
#define clang_isFunctionTypeVariadic CLANG_API_LAZY(clang_isFunctionTypeVariadic)
#define clang_isStatement CLANG_API_LAZY(clang_isStatement)
#define clang_parseTranslationUnit2 CLANG_API_LAZY(clang_parseTranslationUnit2)
#define clang_reparseTranslationUnit CLANG_API_LAZY(clang_reparseTranslationUnit)
#define clang_saveTranslationUnit CLANG_API_LAZY(clang_saveTranslationUnit)
#define clang_tokenize CLANG_API_LAZY(clang_tokenize)
#define clang_visitChildren CLANG_API_LAZY(clang_visitChildren)

#endif
