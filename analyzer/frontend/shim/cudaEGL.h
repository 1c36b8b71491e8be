/* cudaEGL.h: stand-in for the CUDA driver's EGL interop header: EGL frames, stream connections and their calls. */
#pragma clang system_header
#ifndef CUDAEGL_H
#define CUDAEGL_H
#include <cuda.h>
/* The real header needs the system's EGL headers too. */
#include <EGL/egl.h>
#include <EGL/eglext.h>

#define MAX_PLANES 3
typedef struct CUeglStreamConnection_st *CUeglStreamConnection;
typedef enum CUeglFrameType_enum { CU_EGL_FRAME_TYPE_ARRAY = 0, CU_EGL_FRAME_TYPE_PITCH = 1 } CUeglFrameType;
typedef enum CUeglResourceLocationFlags_enum {
    CU_EGL_RESOURCE_LOCATION_SYSMEM = 0x00,
    CU_EGL_RESOURCE_LOCATION_VIDMEM = 0x01
} CUeglResourceLocationFlags;
typedef enum CUeglColorFormat_enum {
    CU_EGL_COLOR_FORMAT_YUV420_PLANAR = 0x00,
    CU_EGL_COLOR_FORMAT_YUV420_SEMIPLANAR = 0x01,
    CU_EGL_COLOR_FORMAT_YUV422_PLANAR = 0x02,
    CU_EGL_COLOR_FORMAT_YUV422_SEMIPLANAR = 0x03,
    CU_EGL_COLOR_FORMAT_RGB = 0x04,
    CU_EGL_COLOR_FORMAT_BGR = 0x05,
    CU_EGL_COLOR_FORMAT_ARGB = 0x06,
    CU_EGL_COLOR_FORMAT_RGBA = 0x07,
    CU_EGL_COLOR_FORMAT_L = 0x08,
    CU_EGL_COLOR_FORMAT_R = 0x09,
    CU_EGL_COLOR_FORMAT_YUV444_PLANAR = 0x0A,
    CU_EGL_COLOR_FORMAT_YUV444_SEMIPLANAR = 0x0B,
    CU_EGL_COLOR_FORMAT_YUYV_422 = 0x0C,
    CU_EGL_COLOR_FORMAT_UYVY_422 = 0x0D,
    CU_EGL_COLOR_FORMAT_ABGR = 0x0E,
    CU_EGL_COLOR_FORMAT_BGRA = 0x0F,
    CU_EGL_COLOR_FORMAT_A = 0x10,
    CU_EGL_COLOR_FORMAT_RG = 0x11,
    CU_EGL_COLOR_FORMAT_MAX
} CUeglColorFormat;
typedef struct CUeglFrame_st {
    union {
        CUarray pArray[MAX_PLANES];
        void *pPitch[MAX_PLANES];
    } frame;
    unsigned int width;
    unsigned int height;
    unsigned int depth;
    unsigned int pitch;
    unsigned int planeCount;
    unsigned int numChannels;
    CUeglFrameType frameType;
    CUeglColorFormat eglColorFormat;
    CUarray_format cuFormat;
} CUeglFrame;

extern "C" {
CUresult cuGraphicsEGLRegisterImage(CUgraphicsResource *pCudaResource, EGLImageKHR image, unsigned int flags);
CUresult cuEGLStreamConsumerConnect(CUeglStreamConnection *conn, EGLStreamKHR stream);
CUresult cuEGLStreamConsumerConnectWithFlags(CUeglStreamConnection *conn, EGLStreamKHR stream, unsigned int flags);
CUresult cuEGLStreamConsumerDisconnect(CUeglStreamConnection *conn);
CUresult cuEGLStreamConsumerAcquireFrame(CUeglStreamConnection *conn, CUgraphicsResource *pCudaResource,
                                         CUstream *pStream, unsigned int timeout);
CUresult cuEGLStreamConsumerReleaseFrame(CUeglStreamConnection *conn, CUgraphicsResource pCudaResource,
                                         CUstream *pStream);
CUresult cuEGLStreamProducerConnect(CUeglStreamConnection *conn, EGLStreamKHR stream, EGLint width, EGLint height);
CUresult cuEGLStreamProducerDisconnect(CUeglStreamConnection *conn);
CUresult cuEGLStreamProducerPresentFrame(CUeglStreamConnection *conn, CUeglFrame eglframe, CUstream *pStream);
CUresult cuEGLStreamProducerReturnFrame(CUeglStreamConnection *conn, CUeglFrame *eglframe, CUstream *pStream);
CUresult cuGraphicsResourceGetMappedEglFrame(CUeglFrame *eglFrame, CUgraphicsResource resource, unsigned int index,
                                             unsigned int mipLevel);
CUresult cuEventCreateFromEGLSync(CUevent *phEvent, EGLSyncKHR eglSync, unsigned int flags);
}

#endif
