/* cudalint/texture.h: texture fetches and surface reads/writes through texture and surface objects. */
#pragma clang system_header
#ifndef CUDALINT_TEXTURE_H
#define CUDALINT_TEXTURE_H

/* Texture references (texture<T, dim, mode>) were removed in CUDA 12 and are
   not declared; code still using them fails to parse with the toolkit too. */

template <class T> __device__ T tex1Dfetch(cudaTextureObject_t obj, int x);
template <class T> __device__ void tex1Dfetch(T *ret, cudaTextureObject_t obj, int x);
template <class T> __device__ T tex1D(cudaTextureObject_t obj, float x);
template <class T> __device__ void tex1D(T *ret, cudaTextureObject_t obj, float x);
template <class T> __device__ T tex2D(cudaTextureObject_t obj, float x, float y);
template <class T> __device__ void tex2D(T *ret, cudaTextureObject_t obj, float x, float y);
template <class T> __device__ T tex3D(cudaTextureObject_t obj, float x, float y, float z);
template <class T> __device__ void tex3D(T *ret, cudaTextureObject_t obj, float x, float y, float z);
template <class T> __device__ T tex1DLayered(cudaTextureObject_t obj, float x, int layer);
template <class T> __device__ T tex2DLayered(cudaTextureObject_t obj, float x, float y, int layer);
template <class T> __device__ T texCubemap(cudaTextureObject_t obj, float x, float y, float z);
template <class T> __device__ T texCubemapLayered(cudaTextureObject_t obj, float x, float y, float z, int layer);
template <class T> __device__ T tex2Dgather(cudaTextureObject_t obj, float x, float y, int comp = 0);
template <class T> __device__ T tex1DLod(cudaTextureObject_t obj, float x, float level);
template <class T> __device__ T tex2DLod(cudaTextureObject_t obj, float x, float y, float level);
template <class T> __device__ T tex3DLod(cudaTextureObject_t obj, float x, float y, float z, float level);
template <class T> __device__ T tex2DLayeredLod(cudaTextureObject_t obj, float x, float y, int layer, float level);
template <class T> __device__ T texCubemapLod(cudaTextureObject_t obj, float x, float y, float z, float level);
template <class T> __device__ T tex1DGrad(cudaTextureObject_t obj, float x, float dPdx, float dPdy);
template <class T> __device__ T tex2DGrad(cudaTextureObject_t obj, float x, float y, float2 dPdx, float2 dPdy);
template <class T>
__device__ T tex3DGrad(cudaTextureObject_t obj, float x, float y, float z, float4 dPdx, float4 dPdy);

template <class T>
__device__ T surf1Dread(cudaSurfaceObject_t surf, int x, enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf1Dread(T *res, cudaSurfaceObject_t surf, int x,
                           enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ T surf2Dread(cudaSurfaceObject_t surf, int x, int y,
                        enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf2Dread(T *res, cudaSurfaceObject_t surf, int x, int y,
                           enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ T surf3Dread(cudaSurfaceObject_t surf, int x, int y, int z,
                        enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf3Dread(T *res, cudaSurfaceObject_t surf, int x, int y, int z,
                           enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ T surf2DLayeredread(cudaSurfaceObject_t surf, int x, int y, int layer,
                               enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf1Dwrite(T data, cudaSurfaceObject_t surf, int x,
                            enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf2Dwrite(T data, cudaSurfaceObject_t surf, int x, int y,
                            enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf3Dwrite(T data, cudaSurfaceObject_t surf, int x, int y, int z,
                            enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf2DLayeredwrite(T data, cudaSurfaceObject_t surf, int x, int y, int layer,
                                   enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ void surfCubemapwrite(T data, cudaSurfaceObject_t surf, int x, int y, int face,
                                 enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);

#endif
