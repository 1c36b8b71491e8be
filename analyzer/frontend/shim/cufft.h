/* cufft.h: stand-in for the cuFFT header: plans, transform types and the exec calls. */
#pragma clang system_header
#ifndef _CUFFT_H_
#define _CUFFT_H_
#include <cuComplex.h>

typedef enum cufftResult_t {
    CUFFT_SUCCESS = 0x0,
    CUFFT_INVALID_PLAN = 0x1,
    CUFFT_ALLOC_FAILED = 0x2,
    CUFFT_INVALID_TYPE = 0x3,
    CUFFT_INVALID_VALUE = 0x4,
    CUFFT_INTERNAL_ERROR = 0x5,
    CUFFT_EXEC_FAILED = 0x6,
    CUFFT_SETUP_FAILED = 0x7,
    CUFFT_INVALID_SIZE = 0x8,
    CUFFT_UNALIGNED_DATA = 0x9,
    CUFFT_INCOMPLETE_PARAMETER_LIST = 0xA,
    CUFFT_INVALID_DEVICE = 0xB,
    CUFFT_PARSE_ERROR = 0xC,
    CUFFT_NO_WORKSPACE = 0xD,
    CUFFT_NOT_IMPLEMENTED = 0xE,
    CUFFT_LICENSE_ERROR = 0x0F,
    CUFFT_NOT_SUPPORTED = 0x10,
    CUFFT_MISSING_DEPENDENCY = 0x11,
    CUFFT_NVRTC_FAILURE = 0x12,
    CUFFT_NVJITLINK_FAILURE = 0x13,
    CUFFT_NVSHMEM_FAILURE = 0x14
} cufftResult;
typedef int cufftHandle;
typedef float cufftReal;
typedef double cufftDoubleReal;
typedef cuComplex cufftComplex;
typedef cuDoubleComplex cufftDoubleComplex;
typedef enum cufftType_t {
    CUFFT_R2C = 0x2a,
    CUFFT_C2R = 0x2c,
    CUFFT_C2C = 0x29,
    CUFFT_D2Z = 0x6a,
    CUFFT_Z2D = 0x6c,
    CUFFT_Z2Z = 0x69
} cufftType;
#define CUFFT_FORWARD -1
#define CUFFT_INVERSE 1

extern "C" {
cufftResult cufftPlan1d(cufftHandle *plan, int nx, cufftType type, int batch);
cufftResult cufftPlan2d(cufftHandle *plan, int nx, int ny, cufftType type);
cufftResult cufftPlan3d(cufftHandle *plan, int nx, int ny, int nz, cufftType type);
cufftResult cufftPlanMany(cufftHandle *plan, int rank, int *n, int *inembed, int istride, int idist, int *onembed,
                          int ostride, int odist, cufftType type, int batch);
cufftResult cufftCreate(cufftHandle *handle);
cufftResult cufftMakePlan1d(cufftHandle plan, int nx, cufftType type, int batch, size_t *workSize);
cufftResult cufftMakePlan2d(cufftHandle plan, int nx, int ny, cufftType type, size_t *workSize);
cufftResult cufftMakePlanMany(cufftHandle plan, int rank, int *n, int *inembed, int istride, int idist,
                              int *onembed, int ostride, int odist, cufftType type, int batch, size_t *workSize);
cufftResult cufftGetSize(cufftHandle handle, size_t *workSize);
cufftResult cufftSetWorkArea(cufftHandle plan, void *workArea);
cufftResult cufftSetAutoAllocation(cufftHandle plan, int autoAllocate);
cufftResult cufftExecC2C(cufftHandle plan, cufftComplex *idata, cufftComplex *odata, int direction);
cufftResult cufftExecR2C(cufftHandle plan, cufftReal *idata, cufftComplex *odata);
cufftResult cufftExecC2R(cufftHandle plan, cufftComplex *idata, cufftReal *odata);
cufftResult cufftExecZ2Z(cufftHandle plan, cufftDoubleComplex *idata, cufftDoubleComplex *odata, int direction);
cufftResult cufftExecD2Z(cufftHandle plan, cufftDoubleReal *idata, cufftDoubleComplex *odata);
cufftResult cufftExecZ2D(cufftHandle plan, cufftDoubleComplex *idata, cufftDoubleReal *odata);
cufftResult cufftSetStream(cufftHandle plan, cudaStream_t stream);
cufftResult cufftDestroy(cufftHandle plan);
cufftResult cufftGetVersion(int *version);
}

#endif
