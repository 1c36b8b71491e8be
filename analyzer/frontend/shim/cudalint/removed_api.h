/* cudalint/removed_api.h: declarations of what CUDA 12 and 13 removed and old code still uses (cudaThread* calls, texture and surface references, the pre-<<<>>> launch calls), so that such code parses in both modes and CU507 can report it. */
#pragma clang system_header
#ifndef CUDALINT_REMOVED_API_H
#define CUDALINT_REMOVED_API_H

/* Included by the declarations header (cudalint_cuda.h) and, in toolkit
   mode, by cudalint_toolkit.h after the real headers: each group is
   declared only where the headers in use no longer have it.  Only
   declarations: nothing here runs, and code calling these does not link
   with a current toolkit (that is CU507's finding). */

#if !defined(CUDALINT_CUDA_H) && defined(CUDART_VERSION) && CUDART_VERSION >= 13000
/* Removed in CUDA 13.0 (the declarations header declares them itself). */
extern "C" __host__ cudaError_t cudaThreadExit(void);
extern "C" __host__ cudaError_t cudaThreadSynchronize(void);
extern "C" __host__ cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value);
extern "C" __host__ cudaError_t cudaThreadGetLimit(size_t *pValue, enum cudaLimit limit);
extern "C" __host__ cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig);
extern "C" __host__ cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *pCacheConfig);
struct cudaLaunchParams {
    void *func;
    dim3 gridDim;
    dim3 blockDim;
    void **args;
    size_t sharedMem;
    cudaStream_t stream;
};
extern "C" __host__ cudaError_t cudaLaunchCooperativeKernelMultiDevice(struct cudaLaunchParams *launchParamsList,
                                                                       unsigned int numDevices,
                                                                       unsigned int flags);
#endif

#if defined(CUDALINT_CUDA_H) || (defined(CUDART_VERSION) && CUDART_VERSION >= 12000)
#if !defined(CUDALINT_CUDA_H)
/* Removed in CUDA 12.0 (the declarations header has these two). */
extern "C" __host__ cudaError_t cudaSetDoubleForDevice(double *d);
extern "C" __host__ cudaError_t cudaSetDoubleForHost(double *d);
#endif
/* The launch calls <<<...>>> replaced, and the profiler's set-up. */
extern "C" __host__ cudaError_t cudaSetupArgument(const void *arg, size_t size, size_t offset);
extern "C" __host__ cudaError_t cudaLaunch(const void *func);
enum cudaOutputMode { cudaKeyValuePair = 0x00, cudaCSV = 0x01 };
typedef enum cudaOutputMode cudaOutputMode_t;
extern "C" __host__ cudaError_t cudaProfilerInitialize(const char *configFile, const char *outputFile,
                                                       cudaOutputMode_t outputMode);

/* The dimension names of the reference templates (texture_types.h and
   surface_types.h still define them; the declarations header does not). */
#ifndef cudaTextureType1D
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaTextureTypeCubemapLayered 0xFC
#endif
#ifndef cudaSurfaceType1D
#define cudaSurfaceType1D 0x01
#define cudaSurfaceType2D 0x02
#define cudaSurfaceType3D 0x03
#define cudaSurfaceTypeCubemap 0x0C
#define cudaSurfaceType1DLayered 0xF1
#define cudaSurfaceType2DLayered 0xF2
#define cudaSurfaceTypeCubemapLayered 0xFC
#endif

/* Texture and surface references, removed in CUDA 12.0. */
struct textureReference {
    int normalized;
    enum cudaTextureFilterMode filterMode;
    enum cudaTextureAddressMode addressMode[3];
    struct cudaChannelFormatDesc channelDesc;
    int sRGB;
    unsigned int maxAnisotropy;
    enum cudaTextureFilterMode mipmapFilterMode;
    float mipmapLevelBias;
    float minMipmapLevelClamp;
    float maxMipmapLevelClamp;
    int disableTrilinearOptimization;
    int __cudaReserved[14];
};
struct surfaceReference {
    struct cudaChannelFormatDesc channelDesc;
};

/* The reference templates.  clang gives a type with this attribute the
   device-side handle nvcc gave texture<>, so kernels may name the global. */
template <class T, int texType = cudaTextureType1D, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture : public textureReference {
    __host__ texture(int norm = 0, enum cudaTextureFilterMode fMode = cudaFilterModePoint,
                     enum cudaTextureAddressMode aMode = cudaAddressModeClamp);
    __host__ texture(int norm, enum cudaTextureFilterMode fMode, enum cudaTextureAddressMode aMode,
                     struct cudaChannelFormatDesc desc);
};
template <class T, int dim = 1>
struct __attribute__((device_builtin_surface_type)) surface : public surfaceReference {
    __host__ surface(void);
    __host__ surface(struct cudaChannelFormatDesc desc);
};

/* What a fetch returns: the element type, or float for a normalised read of
   an 8- or 16-bit integer type (float2/float4 for its vectors). */
template <class T, enum cudaTextureReadMode mode> struct cudalint_tex_result { typedef T type; };
#define CUDALINT_TEX_NORMALIZED_(T, R)                                                   \
    template <> struct cudalint_tex_result<T, cudaReadModeNormalizedFloat> { typedef R type; };
CUDALINT_TEX_NORMALIZED_(char, float)
CUDALINT_TEX_NORMALIZED_(signed char, float)
CUDALINT_TEX_NORMALIZED_(unsigned char, float)
CUDALINT_TEX_NORMALIZED_(short, float)
CUDALINT_TEX_NORMALIZED_(unsigned short, float)
CUDALINT_TEX_NORMALIZED_(char1, float1)
CUDALINT_TEX_NORMALIZED_(uchar1, float1)
CUDALINT_TEX_NORMALIZED_(short1, float1)
CUDALINT_TEX_NORMALIZED_(ushort1, float1)
CUDALINT_TEX_NORMALIZED_(char2, float2)
CUDALINT_TEX_NORMALIZED_(uchar2, float2)
CUDALINT_TEX_NORMALIZED_(short2, float2)
CUDALINT_TEX_NORMALIZED_(ushort2, float2)
CUDALINT_TEX_NORMALIZED_(char4, float4)
CUDALINT_TEX_NORMALIZED_(uchar4, float4)
CUDALINT_TEX_NORMALIZED_(short4, float4)
CUDALINT_TEX_NORMALIZED_(ushort4, float4)
#undef CUDALINT_TEX_NORMALIZED_
#define CUDALINT_TEX_R_ typename cudalint_tex_result<T, M>::type

/* Fetches through a reference (the object forms are declared elsewhere and
   need an explicit type argument, so the two overload sets do not meet). */
template <class T, enum cudaTextureReadMode M>
__device__ CUDALINT_TEX_R_ tex1Dfetch(texture<T, cudaTextureType1D, M> t, int x);
template <class T, enum cudaTextureReadMode M>
__device__ CUDALINT_TEX_R_ tex1D(texture<T, cudaTextureType1D, M> t, float x);
template <class T, enum cudaTextureReadMode M>
__device__ CUDALINT_TEX_R_ tex2D(texture<T, cudaTextureType2D, M> t, float x, float y);
template <class T, enum cudaTextureReadMode M>
__device__ CUDALINT_TEX_R_ tex3D(texture<T, cudaTextureType3D, M> t, float x, float y, float z);
template <class T, enum cudaTextureReadMode M>
__device__ CUDALINT_TEX_R_ tex1DLayered(texture<T, cudaTextureType1DLayered, M> t, float x, int layer);
template <class T, enum cudaTextureReadMode M>
__device__ CUDALINT_TEX_R_ tex2DLayered(texture<T, cudaTextureType2DLayered, M> t, float x, float y, int layer);
template <class T, enum cudaTextureReadMode M>
__device__ CUDALINT_TEX_R_ texCubemap(texture<T, cudaTextureTypeCubemap, M> t, float x, float y, float z);
template <class T, enum cudaTextureReadMode M>
__device__ CUDALINT_TEX_R_ tex1DLod(texture<T, cudaTextureType1D, M> t, float x, float level);
template <class T, enum cudaTextureReadMode M>
__device__ CUDALINT_TEX_R_ tex2DLod(texture<T, cudaTextureType2D, M> t, float x, float y, float level);
template <class T, enum cudaTextureReadMode M>
__device__ CUDALINT_TEX_R_ tex3DLod(texture<T, cudaTextureType3D, M> t, float x, float y, float z, float level);
#undef CUDALINT_TEX_R_

/* Surface reads and writes through a reference. */
template <class T> __device__ T surf1Dread(surface<void, cudaSurfaceType1D> s, int x,
                                           enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ T surf2Dread(surface<void, cudaSurfaceType2D> s, int x, int y,
                                           enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ void surf2Dread(T *res, surface<void, cudaSurfaceType2D> s, int x, int y,
                                              enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ void surf1Dwrite(T val, surface<void, cudaSurfaceType1D> s, int x,
                                               enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ void surf2Dwrite(T val, surface<void, cudaSurfaceType2D> s, int x, int y,
                                               enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ void surf3Dwrite(T val, surface<void, cudaSurfaceType3D> s, int x, int y, int z,
                                               enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);

/* The reference API of the runtime: the C forms ... */
extern "C" __host__ cudaError_t cudaBindTexture(size_t *offset, const struct textureReference *texref,
                                                const void *devPtr, const struct cudaChannelFormatDesc *desc,
                                                size_t size);
extern "C" __host__ cudaError_t cudaBindTexture2D(size_t *offset, const struct textureReference *texref,
                                                  const void *devPtr, const struct cudaChannelFormatDesc *desc,
                                                  size_t width, size_t height, size_t pitch);
extern "C" __host__ cudaError_t cudaBindTextureToArray(const struct textureReference *texref, cudaArray_const_t array,
                                                       const struct cudaChannelFormatDesc *desc);
extern "C" __host__ cudaError_t cudaBindTextureToMipmappedArray(const struct textureReference *texref,
                                                                cudaMipmappedArray_const_t mipmappedArray,
                                                                const struct cudaChannelFormatDesc *desc);
extern "C" __host__ cudaError_t cudaUnbindTexture(const struct textureReference *texref);
extern "C" __host__ cudaError_t cudaGetTextureAlignmentOffset(size_t *offset, const struct textureReference *texref);
extern "C" __host__ cudaError_t cudaGetTextureReference(const struct textureReference **texref, const void *symbol);
extern "C" __host__ cudaError_t cudaBindSurfaceToArray(const struct surfaceReference *surfref, cudaArray_const_t array,
                                                       const struct cudaChannelFormatDesc *desc);
extern "C" __host__ cudaError_t cudaGetSurfaceReference(const struct surfaceReference **surfref, const void *symbol);

/* ... and the C++ ones on the templates. */
template <class T, int dim, enum cudaTextureReadMode M>
__host__ cudaError_t cudaBindTexture(size_t *offset, const struct texture<T, dim, M> &tex, const void *devPtr,
                                     const struct cudaChannelFormatDesc &desc, size_t size = (size_t)-1);
template <class T, int dim, enum cudaTextureReadMode M>
__host__ cudaError_t cudaBindTexture(size_t *offset, const struct texture<T, dim, M> &tex, const void *devPtr,
                                     size_t size = (size_t)-1);
template <class T, int dim, enum cudaTextureReadMode M>
__host__ cudaError_t cudaBindTexture2D(size_t *offset, const struct texture<T, dim, M> &tex, const void *devPtr,
                                       const struct cudaChannelFormatDesc &desc, size_t width, size_t height,
                                       size_t pitch);
template <class T, int dim, enum cudaTextureReadMode M>
__host__ cudaError_t cudaBindTexture2D(size_t *offset, const struct texture<T, dim, M> &tex, const void *devPtr,
                                       size_t width, size_t height, size_t pitch);
template <class T, int dim, enum cudaTextureReadMode M>
__host__ cudaError_t cudaBindTextureToArray(const struct texture<T, dim, M> &tex, cudaArray_const_t array,
                                            const struct cudaChannelFormatDesc &desc);
template <class T, int dim, enum cudaTextureReadMode M>
__host__ cudaError_t cudaBindTextureToArray(const struct texture<T, dim, M> &tex, cudaArray_const_t array);
template <class T, int dim, enum cudaTextureReadMode M>
__host__ cudaError_t cudaBindTextureToMipmappedArray(const struct texture<T, dim, M> &tex,
                                                     cudaMipmappedArray_const_t mipmappedArray);
template <class T, int dim, enum cudaTextureReadMode M>
__host__ cudaError_t cudaUnbindTexture(const struct texture<T, dim, M> &tex);
template <class T, int dim, enum cudaTextureReadMode M>
__host__ cudaError_t cudaGetTextureAlignmentOffset(size_t *offset, const struct texture<T, dim, M> &tex);
template <class T, int dim>
__host__ cudaError_t cudaBindSurfaceToArray(const struct surface<T, dim> &surf, cudaArray_const_t array,
                                            const struct cudaChannelFormatDesc &desc);
template <class T, int dim>
__host__ cudaError_t cudaBindSurfaceToArray(const struct surface<T, dim> &surf, cudaArray_const_t array);
#endif

#endif
