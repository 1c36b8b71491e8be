/* cufftXt.h: stand-in for the cuFFT extension header: multi-GPU descriptors and the cufftXt calls code commonly makes. */
#pragma clang system_header
#ifndef _CUFFTXT_H_
#define _CUFFTXT_H_
#include <cufft.h>

#define CUDA_XT_DESCRIPTOR_VERSION 0x01000000
#define MAX_CUDA_DESCRIPTOR_GPUS 64
enum cudaXtCopyType_t {
    LIB_XT_COPY_HOST_TO_DEVICE,
    LIB_XT_COPY_DEVICE_TO_HOST,
    LIB_XT_COPY_DEVICE_TO_DEVICE
};
typedef enum cudaXtCopyType_t cudaLibXtCopyType;
enum libFormat_t { LIB_FORMAT_CUFFT = 0x0, LIB_FORMAT_UNDEFINED = 0x1 };
typedef enum libFormat_t libFormat;
struct cudaXtDesc_t {
    int version;
    int nGPUs;
    int GPUs[MAX_CUDA_DESCRIPTOR_GPUS];
    void *data[MAX_CUDA_DESCRIPTOR_GPUS];
    size_t size[MAX_CUDA_DESCRIPTOR_GPUS];
    void *cudaXtState;
};
typedef struct cudaXtDesc_t cudaXtDesc;
struct cudaLibXtDesc_t {
    int version;
    cudaXtDesc *descriptor;
    libFormat library;
    int subFormat;
    void *libDescriptor;
};
typedef struct cudaLibXtDesc_t cudaLibXtDesc;

typedef enum cufftXtSubFormat_t {
    CUFFT_XT_FORMAT_INPUT = 0x00,
    CUFFT_XT_FORMAT_OUTPUT = 0x01,
    CUFFT_XT_FORMAT_INPLACE = 0x02,
    CUFFT_XT_FORMAT_INPLACE_SHUFFLED = 0x03,
    CUFFT_XT_FORMAT_1D_INPUT_SHUFFLED = 0x04
} cufftXtSubFormat;
typedef enum cufftXtCopyType_t {
    CUFFT_COPY_HOST_TO_DEVICE = 0x00,
    CUFFT_COPY_DEVICE_TO_HOST = 0x01,
    CUFFT_COPY_DEVICE_TO_DEVICE = 0x02
} cufftXtCopyType;
typedef enum cufftXtCallbackType_t {
    CUFFT_CB_LD_COMPLEX = 0x0,
    CUFFT_CB_LD_COMPLEX_DOUBLE = 0x1,
    CUFFT_CB_LD_REAL = 0x2,
    CUFFT_CB_LD_REAL_DOUBLE = 0x3,
    CUFFT_CB_ST_COMPLEX = 0x4,
    CUFFT_CB_ST_COMPLEX_DOUBLE = 0x5,
    CUFFT_CB_ST_REAL = 0x6,
    CUFFT_CB_ST_REAL_DOUBLE = 0x7
} cufftXtCallbackType;
typedef cufftComplex (*cufftCallbackLoadC)(void *dataIn, size_t offset, void *callerInfo, void *sharedPointer);
typedef void (*cufftCallbackStoreC)(void *dataOut, size_t offset, cufftComplex element, void *callerInfo,
                                    void *sharedPointer);

extern "C" {
cufftResult cufftXtSetGPUs(cufftHandle handle, int nGPUs, int *whichGPUs);
cufftResult cufftXtMalloc(cufftHandle plan, cudaLibXtDesc **descriptor, cufftXtSubFormat format);
cufftResult cufftXtMemcpy(cufftHandle plan, void *dstPointer, void *srcPointer, cufftXtCopyType type);
cufftResult cufftXtFree(cudaLibXtDesc *descriptor);
cufftResult cufftXtExecDescriptorC2C(cufftHandle plan, cudaLibXtDesc *input, cudaLibXtDesc *output, int direction);
cufftResult cufftXtExecDescriptorR2C(cufftHandle plan, cudaLibXtDesc *input, cudaLibXtDesc *output);
cufftResult cufftXtExecDescriptorC2R(cufftHandle plan, cudaLibXtDesc *input, cudaLibXtDesc *output);
cufftResult cufftXtExecDescriptor(cufftHandle plan, cudaLibXtDesc *input, cudaLibXtDesc *output, int direction);
cufftResult cufftXtMakePlanMany(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                                long long int istride, long long int idist, cudaDataType inputtype,
                                long long int *onembed, long long int ostride, long long int odist,
                                cudaDataType outputtype, long long int batch, size_t *workSize,
                                cudaDataType executiontype);
cufftResult cufftXtSetCallback(cufftHandle plan, void **callbackRoutine, cufftXtCallbackType type,
                               void **callerInfo);
cufftResult cufftXtSetCallbackSharedSize(cufftHandle plan, cufftXtCallbackType type, size_t sharedSize);
}

#endif
