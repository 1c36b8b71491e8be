/* cudalint/runtime_api.h: the CUDA runtime API functions (C interface and the C++ conveniences of cuda_runtime.h). */
#pragma clang system_header
#ifndef CUDALINT_RUNTIME_API_H
#define CUDALINT_RUNTIME_API_H

/* H: host only.  HD: also callable from device code (the device runtime
   used by dynamic parallelism), so such calls inside kernels parse. */
#define CUDALINT_H extern __host__
#define CUDALINT_HD extern __host__ __device__

extern "C" {

/* Errors. */
CUDALINT_HD cudaError_t cudaGetLastError(void);
CUDALINT_HD cudaError_t cudaPeekAtLastError(void);
CUDALINT_HD const char *cudaGetErrorName(cudaError_t error);
CUDALINT_HD const char *cudaGetErrorString(cudaError_t error);

/* Devices. */
CUDALINT_H cudaError_t cudaDeviceReset(void);
CUDALINT_HD cudaError_t cudaDeviceSynchronize(void);
CUDALINT_H cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
CUDALINT_HD cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit);
CUDALINT_HD cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig);
CUDALINT_H cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
CUDALINT_H cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
CUDALINT_HD cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig);
CUDALINT_H cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
CUDALINT_H cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId);
CUDALINT_H cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device);
CUDALINT_H cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle, cudaEvent_t event);
CUDALINT_H cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *event, cudaIpcEventHandle_t handle);
CUDALINT_H cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr);
CUDALINT_H cudaError_t cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle, unsigned int flags);
CUDALINT_H cudaError_t cudaIpcCloseMemHandle(void *devPtr);
CUDALINT_H cudaError_t cudaThreadExit(void);
CUDALINT_H cudaError_t cudaThreadSynchronize(void);
CUDALINT_H cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value);
CUDALINT_H cudaError_t cudaThreadGetLimit(size_t *pValue, enum cudaLimit limit);
CUDALINT_HD cudaError_t cudaGetDeviceCount(int *count);
CUDALINT_H cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
CUDALINT_HD cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
CUDALINT_H cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device);
CUDALINT_H cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool);
CUDALINT_H cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device);
CUDALINT_H cudaError_t cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr, int srcDevice, int dstDevice);
CUDALINT_H cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
CUDALINT_H cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags);
CUDALINT_H cudaError_t cudaSetDevice(int device);
CUDALINT_HD cudaError_t cudaGetDevice(int *device);
CUDALINT_H cudaError_t cudaSetValidDevices(int *device_arr, int len);
CUDALINT_H cudaError_t cudaSetDeviceFlags(unsigned int flags);
CUDALINT_H cudaError_t cudaGetDeviceFlags(unsigned int *flags);
CUDALINT_H cudaError_t cudaDeviceGraphMemTrim(int device);
CUDALINT_H cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value);
CUDALINT_H cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value);
CUDALINT_H cudaError_t cudaDeviceFlushGPUDirectRDMAWrites(int target, int scope);
CUDALINT_H cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
CUDALINT_H cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
CUDALINT_H cudaError_t cudaDeviceDisablePeerAccess(int peerDevice);
CUDALINT_H cudaError_t cudaDriverGetVersion(int *driverVersion);
CUDALINT_HD cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);
CUDALINT_H cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags,
                                               enum cudaDriverEntryPointQueryResult *driverStatus);
CUDALINT_H cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                                                        unsigned long long flags,
                                                        enum cudaDriverEntryPointQueryResult *driverStatus);
CUDALINT_H cudaError_t cudaProfilerStart(void);
CUDALINT_H cudaError_t cudaProfilerStop(void);

/* Streams. */
CUDALINT_H cudaError_t cudaStreamCreate(cudaStream_t *pStream);
CUDALINT_HD cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags);
CUDALINT_H cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority);
CUDALINT_H cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority);
CUDALINT_H cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags);
CUDALINT_H cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId);
CUDALINT_H cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device);
CUDALINT_H cudaError_t cudaCtxResetPersistingL2Cache(void);
CUDALINT_H cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src);
CUDALINT_H cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaLaunchAttributeID attr,
                                              cudaLaunchAttributeValue *value_out);
CUDALINT_H cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaLaunchAttributeID attr,
                                              const cudaLaunchAttributeValue *value);
CUDALINT_HD cudaError_t cudaStreamDestroy(cudaStream_t stream);
CUDALINT_HD cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
CUDALINT_H cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                             unsigned int flags);
CUDALINT_H cudaError_t cudaStreamSynchronize(cudaStream_t stream);
CUDALINT_H cudaError_t cudaStreamQuery(cudaStream_t stream);
CUDALINT_H cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length = 0,
                                                unsigned int flags = cudaMemAttachSingle);
CUDALINT_H cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
CUDALINT_H cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                                     const cudaGraphNode_t *dependencies,
                                                     const cudaGraphEdgeData *dependencyData,
                                                     size_t numDependencies, enum cudaStreamCaptureMode mode);
CUDALINT_H cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode);
CUDALINT_H cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph);
CUDALINT_H cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus);
CUDALINT_H cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);

/* Events. */
CUDALINT_H cudaError_t cudaEventCreate(cudaEvent_t *event);
CUDALINT_HD cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
CUDALINT_HD cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
CUDALINT_HD cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream = 0, unsigned int flags = 0);
CUDALINT_H cudaError_t cudaEventQuery(cudaEvent_t event);
CUDALINT_H cudaError_t cudaEventSynchronize(cudaEvent_t event);
CUDALINT_HD cudaError_t cudaEventDestroy(cudaEvent_t event);
CUDALINT_H cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
CUDALINT_H cudaError_t cudaEventElapsedTime_v2(float *ms, cudaEvent_t start, cudaEvent_t end);

/* External resources. */
CUDALINT_H cudaError_t cudaImportExternalMemory(cudaExternalMemory_t *extMem_out,
                                                const struct cudaExternalMemoryHandleDesc *memHandleDesc);
CUDALINT_H cudaError_t cudaExternalMemoryGetMappedBuffer(void **devPtr, cudaExternalMemory_t extMem,
                                                         const struct cudaExternalMemoryBufferDesc *bufferDesc);
CUDALINT_H cudaError_t cudaExternalMemoryGetMappedMipmappedArray(
    cudaMipmappedArray_t *mipmap, cudaExternalMemory_t extMem,
    const struct cudaExternalMemoryMipmappedArrayDesc *mipmapDesc);
CUDALINT_H cudaError_t cudaDestroyExternalMemory(cudaExternalMemory_t extMem);
CUDALINT_H cudaError_t cudaImportExternalSemaphore(cudaExternalSemaphore_t *extSem_out,
                                                   const struct cudaExternalSemaphoreHandleDesc *semHandleDesc);
CUDALINT_H cudaError_t cudaSignalExternalSemaphoresAsync(const cudaExternalSemaphore_t *extSemArray,
                                                         const struct cudaExternalSemaphoreSignalParams *paramsArray,
                                                         unsigned int numExtSems, cudaStream_t stream = 0);
CUDALINT_H cudaError_t cudaWaitExternalSemaphoresAsync(const cudaExternalSemaphore_t *extSemArray,
                                                       const struct cudaExternalSemaphoreWaitParams *paramsArray,
                                                       unsigned int numExtSems, cudaStream_t stream = 0);
CUDALINT_H cudaError_t cudaDestroyExternalSemaphore(cudaExternalSemaphore_t extSem);

/* Execution control. */
CUDALINT_H cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                        size_t sharedMem, cudaStream_t stream);
CUDALINT_H cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args);
CUDALINT_H cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                   size_t sharedMem, cudaStream_t stream);
CUDALINT_H cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig);
CUDALINT_H cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config);
CUDALINT_HD cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
CUDALINT_H cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
CUDALINT_H cudaError_t cudaFuncGetName(const char **name, const void *func);
CUDALINT_H cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr);
CUDALINT_H cudaError_t cudaSetDoubleForDevice(double *d);
CUDALINT_H cudaError_t cudaSetDoubleForHost(double *d);

/* Occupancy. */
CUDALINT_HD cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                                      int blockSize, size_t dynamicSMemSize);
CUDALINT_H cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func,
                                                                 int numBlocks, int blockSize);
CUDALINT_HD cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                               int blockSize,
                                                                               size_t dynamicSMemSize,
                                                                               unsigned int flags);
CUDALINT_H cudaError_t cudaOccupancyMaxPotentialClusterSize(int *clusterSize, const void *func,
                                                            const cudaLaunchConfig_t *launchConfig);
CUDALINT_H cudaError_t cudaOccupancyMaxActiveClusters(int *numClusters, const void *func,
                                                      const cudaLaunchConfig_t *launchConfig);

/* Memory. */
CUDALINT_HD cudaError_t cudaMalloc(void **devPtr, size_t size);
CUDALINT_H cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal);
CUDALINT_H cudaError_t cudaMallocHost(void **ptr, size_t size);
CUDALINT_H cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
CUDALINT_H cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                                       size_t height = 0, unsigned int flags = 0);
CUDALINT_HD cudaError_t cudaFree(void *devPtr);
CUDALINT_H cudaError_t cudaFreeHost(void *ptr);
CUDALINT_H cudaError_t cudaFreeArray(cudaArray_t array);
CUDALINT_H cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray);
CUDALINT_H cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
CUDALINT_H cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
CUDALINT_H cudaError_t cudaHostUnregister(void *ptr);
CUDALINT_H cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
CUDALINT_H cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost);
CUDALINT_H cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent);
CUDALINT_H cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                         struct cudaExtent extent, unsigned int flags = 0);
CUDALINT_H cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray,
                                                const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
                                                unsigned int numLevels, unsigned int flags = 0);
CUDALINT_H cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *levelArray, cudaMipmappedArray_const_t mipmappedArray,
                                                  unsigned int level);
CUDALINT_H cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
CUDALINT_H cudaError_t cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p);
CUDALINT_HD cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream = 0);
CUDALINT_H cudaError_t cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream = 0);
CUDALINT_H cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
CUDALINT_H cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                                        unsigned int *flags, cudaArray_t array);
CUDALINT_H cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
CUDALINT_H cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count);
CUDALINT_H cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                    size_t height, enum cudaMemcpyKind kind);
CUDALINT_H cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                           size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
CUDALINT_H cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                             size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind);
CUDALINT_H cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                size_t width, size_t height,
                                                enum cudaMemcpyKind kind = cudaMemcpyDeviceToDevice);
CUDALINT_H cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset = 0,
                                          enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
CUDALINT_H cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset = 0,
                                            enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
CUDALINT_HD cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                        cudaStream_t stream = 0);
CUDALINT_H cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                           cudaStream_t stream = 0);
CUDALINT_HD cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                          size_t height, enum cudaMemcpyKind kind, cudaStream_t stream = 0);
CUDALINT_H cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                                size_t spitch, size_t width, size_t height,
                                                enum cudaMemcpyKind kind, cudaStream_t stream = 0);
CUDALINT_H cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                  size_t hOffset, size_t width, size_t height,
                                                  enum cudaMemcpyKind kind, cudaStream_t stream = 0);
CUDALINT_H cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                               enum cudaMemcpyKind kind, cudaStream_t stream = 0);
CUDALINT_H cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                                 enum cudaMemcpyKind kind, cudaStream_t stream = 0);
CUDALINT_H cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                         size_t count, enum cudaMemcpyKind kind);
CUDALINT_H cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                           size_t count, enum cudaMemcpyKind kind);
CUDALINT_H cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                              cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                              size_t count, enum cudaMemcpyKind kind = cudaMemcpyDeviceToDevice);
CUDALINT_H cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                              size_t count, enum cudaMemcpyKind kind, cudaStream_t stream = 0);
CUDALINT_H cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                                size_t count, enum cudaMemcpyKind kind, cudaStream_t stream = 0);
CUDALINT_H cudaError_t cudaMemset(void *devPtr, int value, size_t count);
CUDALINT_H cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
CUDALINT_H cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent);
CUDALINT_HD cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream = 0);
CUDALINT_HD cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                          cudaStream_t stream = 0);
CUDALINT_HD cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                                          cudaStream_t stream = 0);
CUDALINT_H cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
CUDALINT_H cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);
CUDALINT_H cudaError_t cudaMemRangeGetAttribute(void *data, size_t dataSize, enum cudaMemRangeAttribute attribute,
                                                const void *devPtr, size_t count);
CUDALINT_H cudaError_t cudaMemRangeGetAttributes(void **data, size_t *dataSizes,
                                                 enum cudaMemRangeAttribute *attributes, size_t numAttributes,
                                                 const void *devPtr, size_t count);
CUDALINT_H cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr);

/* Stream-ordered allocation. */
CUDALINT_H cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream);
CUDALINT_H cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream);
CUDALINT_H cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep);
CUDALINT_H cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value);
CUDALINT_H cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value);
CUDALINT_H cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList,
                                            size_t count);
CUDALINT_H cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                            struct cudaMemLocation *location);
CUDALINT_H cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps);
CUDALINT_H cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool);
CUDALINT_H cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream);
CUDALINT_H cudaError_t cudaMemPoolExportToShareableHandle(void *shareableHandle, cudaMemPool_t memPool,
                                                          enum cudaMemAllocationHandleType handleType,
                                                          unsigned int flags);
CUDALINT_H cudaError_t cudaMemPoolImportFromShareableHandle(cudaMemPool_t *memPool, void *shareableHandle,
                                                            enum cudaMemAllocationHandleType handleType,
                                                            unsigned int flags);
CUDALINT_H cudaError_t cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData *exportData, void *ptr);
CUDALINT_H cudaError_t cudaMemPoolImportPointer(void **ptr, cudaMemPool_t memPool,
                                                struct cudaMemPoolPtrExportData *exportData);

/* Graphics interop (API-independent part). */
CUDALINT_H cudaError_t cudaGraphicsUnregisterResource(cudaGraphicsResource_t resource);
CUDALINT_H cudaError_t cudaGraphicsResourceSetMapFlags(cudaGraphicsResource_t resource, unsigned int flags);
CUDALINT_H cudaError_t cudaGraphicsMapResources(int count, cudaGraphicsResource_t *resources,
                                                cudaStream_t stream = 0);
CUDALINT_H cudaError_t cudaGraphicsUnmapResources(int count, cudaGraphicsResource_t *resources,
                                                  cudaStream_t stream = 0);
CUDALINT_H cudaError_t cudaGraphicsResourceGetMappedPointer(void **devPtr, size_t *size,
                                                            cudaGraphicsResource_t resource);
CUDALINT_H cudaError_t cudaGraphicsSubResourceGetMappedArray(cudaArray_t *array, cudaGraphicsResource_t resource,
                                                             unsigned int arrayIndex, unsigned int mipLevel);
CUDALINT_H cudaError_t cudaGraphicsResourceGetMappedMipmappedArray(cudaMipmappedArray_t *mipmappedArray,
                                                                   cudaGraphicsResource_t resource);

/* Texture and surface objects. */
CUDALINT_H cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array);
CUDALINT_H struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                              enum cudaChannelFormatKind f);
CUDALINT_H cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                               const struct cudaResourceDesc *pResDesc,
                                               const struct cudaTextureDesc *pTexDesc,
                                               const struct cudaResourceViewDesc *pResViewDesc);
CUDALINT_H cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
CUDALINT_H cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                        cudaTextureObject_t texObject);
CUDALINT_H cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
                                                       cudaTextureObject_t texObject);
CUDALINT_H cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                               const struct cudaResourceDesc *pResDesc);
CUDALINT_H cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);

/* Graphs. */
CUDALINT_H cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags);
CUDALINT_H cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                              const struct cudaKernelNodeParams *pNodeParams);
CUDALINT_H cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *pNodeParams);
CUDALINT_H cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                                    const struct cudaKernelNodeParams *pNodeParams);
CUDALINT_H cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode, cudaLaunchAttributeID attr,
                                                       cudaLaunchAttributeValue *value_out);
CUDALINT_H cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode, cudaLaunchAttributeID attr,
                                                       const cudaLaunchAttributeValue *value);
CUDALINT_H cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                              const struct cudaMemcpy3DParms *pCopyParams);
CUDALINT_H cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                void *dst, const void *src, size_t count,
                                                enum cudaMemcpyKind kind);
CUDALINT_H cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, struct cudaMemcpy3DParms *pNodeParams);
CUDALINT_H cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node,
                                                    const struct cudaMemcpy3DParms *pNodeParams);
CUDALINT_H cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                              const struct cudaMemsetParams *pMemsetParams);
CUDALINT_H cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *pNodeParams);
CUDALINT_H cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node,
                                                    const struct cudaMemsetParams *pNodeParams);
CUDALINT_H cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                            const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                            const struct cudaHostNodeParams *pNodeParams);
CUDALINT_H cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *pNodeParams);
CUDALINT_H cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *pNodeParams);
CUDALINT_H cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                  const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                  cudaGraph_t childGraph);
CUDALINT_H cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph);
CUDALINT_H cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies);
CUDALINT_H cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                   cudaEvent_t event);
CUDALINT_H cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                 const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                 cudaEvent_t event);
CUDALINT_H cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                struct cudaMemAllocNodeParams *nodeParams);
CUDALINT_H cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct cudaMemAllocNodeParams *params_out);
CUDALINT_H cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                               void *dptr);
CUDALINT_H cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out);
CUDALINT_H cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph);
CUDALINT_H cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode,
                                                cudaGraph_t clonedGraph);
CUDALINT_H cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType);
CUDALINT_H cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes);
CUDALINT_H cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes, size_t *pNumRootNodes);
CUDALINT_H cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node);
CUDALINT_H cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                     unsigned long long flags = 0);
CUDALINT_H cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                      cudaGraphInstantiateParams *instantiateParams);
CUDALINT_H cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags);
CUDALINT_H cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                        const struct cudaKernelNodeParams *pNodeParams);
CUDALINT_H cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                        const struct cudaMemcpy3DParms *pNodeParams);
CUDALINT_H cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                        const struct cudaMemsetParams *pNodeParams);
CUDALINT_H cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                      const struct cudaHostNodeParams *pNodeParams);
CUDALINT_H cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                            cudaGraph_t childGraph);
CUDALINT_H cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                               unsigned int isEnabled);
CUDALINT_HD cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream);
CUDALINT_HD cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
CUDALINT_H cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec);
CUDALINT_H cudaError_t cudaGraphDestroy(cudaGraph_t graph);
CUDALINT_H cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags);
CUDALINT_H cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams);
CUDALINT_H cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
                                                  struct cudaGraphNodeParams *nodeParams);
CUDALINT_H cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph,
                                                        unsigned int defaultLaunchValue = 0,
                                                        unsigned int flags = 0);
CUDALINT_H cudaError_t cudaUserObjectCreate(cudaUserObject_t *object_out, void *ptr, cudaHostFn_t destroy,
                                            unsigned int initialRefcount, unsigned int flags);
CUDALINT_H cudaError_t cudaUserObjectRelease(cudaUserObject_t object, unsigned int count = 1);
CUDALINT_H cudaError_t cudaGraphRetainUserObject(cudaGraph_t graph, cudaUserObject_t object, unsigned int count = 1,
                                                 unsigned int flags = 0);

/* Launch-parameter buffer used by device-side launches (dynamic parallelism). */
extern __device__ void *cudaGetParameterBuffer(size_t alignment, size_t size);
extern __device__ cudaError_t cudaLaunchDevice(void *func, void *parameterBuffer, dim3 gridDimension,
                                               dim3 blockDimension, unsigned int sharedMemSize, cudaStream_t stream);
extern __device__ void cudaGraphSetConditional(cudaGraphConditionalHandle handle, unsigned int value);
extern __device__ void cudaTriggerProgrammaticLaunchCompletion(void);
extern __device__ void cudaGridDependencySynchronize(void);

} /* extern "C" */

/* Calls whose C signature changed between CUDA 12 and 13: the other form is
   a C++ overload, so code written for either version parses. */
CUDALINT_H cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                     struct cudaMemLocation location);
CUDALINT_H cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, int device);
CUDALINT_H cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                            unsigned int flags, cudaStream_t stream = 0);
CUDALINT_H cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice, cudaStream_t stream = 0);
CUDALINT_H cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                            unsigned long long flags = 0);
CUDALINT_H cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                            cudaGraphNode_t *pErrorNode, char *pLogBuffer, size_t bufferSize);
CUDALINT_H cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                           cudaGraphExecUpdateResultInfo *resultInfo);
CUDALINT_H cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                           cudaGraphNode_t *hErrorNode_out,
                                           enum cudaGraphExecUpdateResult *updateResult_out);
CUDALINT_H cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                                unsigned long long *id_out = 0, cudaGraph_t *graph_out = 0,
                                                const cudaGraphNode_t **dependencies_out = 0,
                                                size_t *numDependencies_out = 0);
CUDALINT_H cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                                unsigned long long *id_out, cudaGraph_t *graph_out,
                                                const cudaGraphNode_t **dependencies_out,
                                                const cudaGraphEdgeData **edgeData_out,
                                                size_t *numDependencies_out);
CUDALINT_H cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                           size_t numDependencies, unsigned int flags = 0);
CUDALINT_H cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                           const cudaGraphEdgeData *dependencyData,
                                                           size_t numDependencies, unsigned int flags);
CUDALINT_H cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                         size_t *numEdges);
CUDALINT_H cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                         cudaGraphEdgeData *edgeData, size_t *numEdges);
CUDALINT_H cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                const cudaGraphNode_t *to, size_t numDependencies);
CUDALINT_H cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                                size_t numDependencies);
CUDALINT_H cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                   const cudaGraphNode_t *to, size_t numDependencies);
CUDALINT_H cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                   const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                                   size_t numDependencies);
CUDALINT_H cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                        struct cudaGraphNodeParams *nodeParams);
CUDALINT_H cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t *pDependencies, const cudaGraphEdgeData *dependencyData,
                                        size_t numDependencies, struct cudaGraphNodeParams *nodeParams);

/* C++ conveniences of cuda_runtime.h: typed pointers, symbols and kernels
   instead of void pointers. */
CUDALINT_H cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags);
CUDALINT_H cudaError_t cudaMallocHost(void **ptr, size_t size, unsigned int flags);
CUDALINT_H cudaError_t cudaMallocAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream);

template <class T>
__host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(void);

template <class T>
__host__ __device__ cudaError_t cudaMalloc(T **devPtr, size_t size);
template <class T>
__host__ cudaError_t cudaMallocHost(T **ptr, size_t size, unsigned int flags = 0);
template <class T>
__host__ cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags);
template <class T>
__host__ cudaError_t cudaHostGetDevicePointer(T **pDevice, void *pHost, unsigned int flags);
template <class T>
__host__ cudaError_t cudaMallocManaged(T **devPtr, size_t size,
                                                         unsigned int flags = cudaMemAttachGlobal);
template <class T>
__host__ cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch, size_t width, size_t height);
template <class T>
__host__ cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaStream_t stream);
template <class T>
__host__ cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaMemPool_t memPool,
                                                       cudaStream_t stream);
template <class T>
__host__ cudaError_t cudaMallocFromPoolAsync(T **ptr, size_t size, cudaMemPool_t memPool,
                                                               cudaStream_t stream);
template <class T>
__host__ cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, T *devPtr, size_t length = 0,
                                                                unsigned int flags = cudaMemAttachSingle);
template <class T>
__host__ cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                                                          size_t offset = 0,
                                                          enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
template <class T>
__host__ cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count,
                                                               size_t offset = 0,
                                                               enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                                               cudaStream_t stream = 0);
template <class T>
__host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
                                                            size_t offset = 0,
                                                            enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
template <class T>
__host__ cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count,
                                                                 size_t offset = 0,
                                                                 enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                                                 cudaStream_t stream = 0);
template <class T>
__host__ cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol);
template <class T>
__host__ cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol);
template <class T>
__host__ cudaError_t cudaFuncSetCacheConfig(T *func, enum cudaFuncCache cacheConfig);
template <class T>
__host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry);
template <class T>
__host__ cudaError_t cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value);
template <class T>
__host__ cudaError_t cudaFuncGetName(const char **name, const T *func);
template <class T>
__host__ cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const T *symbolPtr);
template <class T>
__host__ cudaError_t cudaLaunchKernel(const T *func, dim3 gridDim, dim3 blockDim, void **args,
                                                        size_t sharedMem = 0, cudaStream_t stream = 0);
template <class T>
__host__ cudaError_t cudaLaunchCooperativeKernel(const T *func, dim3 gridDim, dim3 blockDim,
                                                                   void **args, size_t sharedMem = 0,
                                                                   cudaStream_t stream = 0);
template <typename... ExpTypes, typename... ActTypes>
__host__ cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config,
                                                          void (*kernel)(ExpTypes...), ActTypes &&...args);
template <typename T>
__host__ cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config, const T *kernel,
                                                          void **args);
template <class T>
__host__ __device__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *numBlocks, T func, int blockSize, size_t dynamicSMemSize);
template <class T>
__host__ __device__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, T func, int blockSize, size_t dynamicSMemSize, unsigned int flags);
template <class T>
__host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T func,
                                                                          size_t dynamicSMemSize = 0,
                                                                          int blockSizeLimit = 0);
template <class T>
__host__ cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize,
                                                                                   T func,
                                                                                   size_t dynamicSMemSize = 0,
                                                                                   int blockSizeLimit = 0,
                                                                                   unsigned int flags = 0);
template <class UnaryFunction, class T>
__host__ cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(
    int *minGridSize, int *blockSize, T func, UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0);
template <class UnaryFunction, class T>
__host__ cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int *minGridSize, int *blockSize, T func, UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0,
    unsigned int flags = 0);
template <class T>
__host__ cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, T func,
                                                                                 int numBlocks, int blockSize);
template <class T>
__host__ cudaError_t cudaOccupancyMaxPotentialClusterSize(int *clusterSize, T *func,
                                                                            const cudaLaunchConfig_t *config);
template <class T>
__host__ cudaError_t cudaOccupancyMaxActiveClusters(int *numClusters, T *func,
                                                                      const cudaLaunchConfig_t *config);
template <class T>
__host__ cudaError_t cudaGraphAddMemcpyNodeToSymbol(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies,
    const T &symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind);
template <class T>
__host__ cudaError_t cudaGraphAddMemcpyNodeFromSymbol(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies,
    void *dst, const T &symbol, size_t count, size_t offset, enum cudaMemcpyKind kind);

/* <<<grid, block, shmem, stream>>> is lowered to a call of one of these
   before the kernel call.  clang picks the name from the CUDA version the
   driver detected: __cudaPushCallConfiguration when it knows one (9.2 or
   later), cudaConfigureCall when it knows none, which is what happens in a
   device-only parse with -nocudalib or on a machine without a toolkit.  Both
   are declared, callable from device code too for dynamic parallelism. */
extern "C" __host__ __device__ unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                                                     size_t sharedMem = 0, void *stream = 0);
extern "C" __host__ __device__ cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                                                             cudaStream_t stream = 0);

#undef CUDALINT_H
#undef CUDALINT_HD

#endif
