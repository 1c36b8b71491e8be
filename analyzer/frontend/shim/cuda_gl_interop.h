/* cuda_gl_interop.h: stand-in for the CUDA header of this name: registering OpenGL buffers and images with CUDA. */
#pragma clang system_header
#ifndef __CUDA_GL_INTEROP_H__
#define __CUDA_GL_INTEROP_H__
#include "cudalint_cuda.h"

/* The real header includes the desktop OpenGL header, except on ARM where
   it expects the application's GL or GLES header first.  Do the same: when
   a GL header is already in (GL_VERSION is defined) or the system has none,
   the two handle types are enough; the typedefs repeat GL's own. */
#if defined(GL_VERSION) || !__has_include(<GL/gl.h>)
typedef unsigned int GLuint;
typedef unsigned int GLenum;
#else
#include <GL/gl.h>
#endif

enum cudaGLDeviceList {
    cudaGLDeviceListAll = 1,
    cudaGLDeviceListCurrentFrame = 2,
    cudaGLDeviceListNextFrame = 3
};
enum cudaGLMapFlags {
    cudaGLMapFlagsNone = 0,
    cudaGLMapFlagsReadOnly = 1,
    cudaGLMapFlagsWriteDiscard = 2
};

extern "C" {
__host__ cudaError_t cudaGLGetDevices(unsigned int *pCudaDeviceCount, int *pCudaDevices, unsigned int cudaDeviceCount,
                                      enum cudaGLDeviceList deviceList);
__host__ cudaError_t cudaGraphicsGLRegisterImage(struct cudaGraphicsResource **resource, GLuint image, GLenum target,
                                                 unsigned int flags);
__host__ cudaError_t cudaGraphicsGLRegisterBuffer(struct cudaGraphicsResource **resource, GLuint buffer,
                                                  unsigned int flags);
__host__ cudaError_t cudaGLSetGLDevice(int device);
__host__ cudaError_t cudaGLRegisterBufferObject(GLuint bufObj);
__host__ cudaError_t cudaGLMapBufferObject(void **devPtr, GLuint bufObj);
__host__ cudaError_t cudaGLUnmapBufferObject(GLuint bufObj);
__host__ cudaError_t cudaGLUnregisterBufferObject(GLuint bufObj);
__host__ cudaError_t cudaGLSetBufferObjectMapFlags(GLuint bufObj, unsigned int flags);
__host__ cudaError_t cudaGLMapBufferObjectAsync(void **devPtr, GLuint bufObj, cudaStream_t stream);
__host__ cudaError_t cudaGLUnmapBufferObjectAsync(GLuint bufObj, cudaStream_t stream);
}

#endif
