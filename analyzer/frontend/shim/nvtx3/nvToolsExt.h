/* nvtx3/nvToolsExt.h: stand-in for the NVTX header: ranges and markers for profilers. */
#pragma clang system_header
#ifndef NVTOOLSEXT_V3
#define NVTOOLSEXT_V3
#include <stdint.h>

typedef struct nvtxDomainRegistration_st *nvtxDomainHandle_t;
typedef uint64_t nvtxRangeId_t;
typedef struct nvtxEventAttributes_v2 {
    uint16_t version;
    uint16_t size;
    uint32_t category;
    int32_t colorType;
    uint32_t color;
    int32_t payloadType;
    int32_t reserved0;
    union { uint64_t ullValue; int64_t llValue; double dValue; uint32_t uiValue; int32_t iValue; float fValue; }
        payload;
    int32_t messageType;
    union { const char *ascii; const wchar_t *unicode; void *registered; } message;
} nvtxEventAttributes_t;
#define NVTX_VERSION 3
#define NVTX_EVENT_ATTRIB_STRUCT_SIZE ((uint16_t)(sizeof(nvtxEventAttributes_t)))
#define NVTX_COLOR_ARGB 1
#define NVTX_MESSAGE_TYPE_ASCII 1

extern "C" {
int nvtxRangePushA(const char *message);
int nvtxRangePushEx(const nvtxEventAttributes_t *eventAttrib);
int nvtxRangePop(void);
nvtxRangeId_t nvtxRangeStartA(const char *message);
nvtxRangeId_t nvtxRangeStartEx(const nvtxEventAttributes_t *eventAttrib);
void nvtxRangeEnd(nvtxRangeId_t id);
void nvtxMarkA(const char *message);
void nvtxMarkEx(const nvtxEventAttributes_t *eventAttrib);
void nvtxNameOsThreadA(uint32_t threadId, const char *name);
}
#define nvtxRangePush nvtxRangePushA
#define nvtxRangeStart nvtxRangeStartA
#define nvtxMark nvtxMarkA

#endif
