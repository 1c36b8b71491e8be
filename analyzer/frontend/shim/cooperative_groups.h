/* cooperative_groups.h: stand-in for the CUDA header of this name: the common surface of namespace cooperative_groups. */
#pragma clang system_header
#ifndef _COOPERATIVE_GROUPS_H_
#define _COOPERATIVE_GROUPS_H_
#include "cudalint_cuda.h"

/* Groups, tiles, collectives (reduce, scan) and memcpy_async are declared
   together: the real headers split them over cooperative_groups/*.h, and a
   lint gains nothing by rejecting a file that forgot one of those. */

namespace cooperative_groups {

class thread_group {
public:
    __device__ void sync() const;
    __device__ unsigned long long size() const;
    __device__ unsigned long long num_threads() const;
    __device__ unsigned long long thread_rank() const;
    __device__ bool is_valid() const;
    __device__ unsigned int get_type() const;
};

class thread_block : public thread_group {
public:
    static __device__ void sync();
    static __device__ unsigned int size();
    static __device__ unsigned int num_threads();
    static __device__ unsigned int thread_rank();
    static __device__ dim3 group_index();
    static __device__ dim3 thread_index();
    static __device__ dim3 group_dim();
    static __device__ dim3 dim_threads();
    struct arrival_token {};
    __device__ arrival_token barrier_arrive() const;
    __device__ void barrier_wait(arrival_token &&token) const;
};
__device__ thread_block this_thread_block();

class grid_group : public thread_group {
public:
    static __device__ void sync();
    static __device__ unsigned long long size();
    static __device__ unsigned long long num_threads();
    static __device__ unsigned long long thread_rank();
    static __device__ unsigned long long num_blocks();
    static __device__ unsigned long long block_rank();
    static __device__ bool is_valid();
    static __device__ dim3 group_dim();
    static __device__ dim3 dim_blocks();
    static __device__ dim3 block_index();
    static __device__ dim3 dim_clusters();
    static __device__ dim3 cluster_index();
    static __device__ unsigned long long num_clusters();
    static __device__ unsigned long long cluster_rank();
    struct arrival_token {};
    __device__ arrival_token barrier_arrive() const;
    __device__ void barrier_wait(arrival_token &&token) const;
};
__device__ grid_group this_grid();

class multi_grid_group : public thread_group {
public:
    __device__ void sync() const;
    __device__ unsigned long long size() const;
    __device__ unsigned long long num_threads() const;
    __device__ unsigned long long thread_rank() const;
    __device__ unsigned int grid_rank() const;
    __device__ unsigned int num_grids() const;
    __device__ bool is_valid() const;
};
__device__ multi_grid_group this_multi_grid();

class cluster_group : public thread_group {
public:
    static __device__ void sync();
    static __device__ unsigned int size();
    static __device__ unsigned int num_threads();
    static __device__ unsigned int thread_rank();
    static __device__ unsigned int block_rank();
    static __device__ unsigned int num_blocks();
    static __device__ dim3 block_index();
    static __device__ dim3 dim_blocks();
    static __device__ dim3 dim_threads();
    static __device__ dim3 thread_index();
    static __device__ bool is_valid();
    template <class T> static __device__ T *map_shared_rank(T *addr, int rank);
    template <class T> static __device__ T &map_shared_rank(T &addr, int rank);
    static __device__ unsigned int query_shared_rank(const void *addr);
    struct arrival_token {};
    __device__ arrival_token barrier_arrive() const;
    __device__ void barrier_wait() const;
    __device__ void barrier_wait(arrival_token &&token) const;
};
__device__ cluster_group this_cluster();

/* Operations shared by coalesced groups and tiles. */
class cudalint_warp_ops_ {
public:
    template <class T> __device__ T shfl(T var, int srcRank) const;
    template <class T> __device__ T shfl(T var, unsigned int srcRank) const;
    template <class T> __device__ T shfl_up(T var, unsigned int delta) const;
    template <class T> __device__ T shfl_down(T var, unsigned int delta) const;
    template <class T> __device__ T shfl_xor(T var, unsigned int laneMask) const;
    __device__ int any(int predicate) const;
    __device__ int all(int predicate) const;
    __device__ unsigned int ballot(int predicate) const;
    template <class T> __device__ unsigned int match_any(T value) const;
    template <class T> __device__ unsigned int match_all(T value, int &pred) const;
};

class coalesced_group : public thread_group, public cudalint_warp_ops_ {
public:
    __device__ void sync() const;
    __device__ unsigned long long size() const;
    __device__ unsigned long long num_threads() const;
    __device__ unsigned long long thread_rank() const;
    __device__ unsigned long long meta_group_rank() const;
    __device__ unsigned long long meta_group_size() const;
    __device__ bool is_valid() const;
};
__device__ coalesced_group coalesced_threads();

template <unsigned int Size, typename ParentT = void>
class thread_block_tile : public thread_group, public cudalint_warp_ops_ {
public:
    __device__ thread_block_tile() = default;
    /* A tile made from a known parent converts to the parent-less type. */
    template <typename P> __device__ thread_block_tile(const thread_block_tile<Size, P> &) {}
    static constexpr unsigned int numThreads = Size;
    __device__ void sync() const;
    static constexpr unsigned long long size() { return Size; }
    static constexpr unsigned long long num_threads() { return Size; }
    __device__ unsigned long long thread_rank() const;
    __device__ unsigned long long meta_group_rank() const;
    __device__ unsigned long long meta_group_size() const;
    __device__ dim3 dim_threads() const;
    __device__ bool is_valid() const;
};

template <unsigned int Size, typename ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT &parent);
__device__ thread_group tiled_partition(const thread_group &parent, unsigned int tileSize);
__device__ thread_group tiled_partition(const thread_block &parent, unsigned int tileSize);
__device__ coalesced_group tiled_partition(const coalesced_group &parent, unsigned int tileSize);
__device__ coalesced_group binary_partition(const coalesced_group &parent, bool pred);
template <unsigned int Size, typename ParentT>
__device__ coalesced_group binary_partition(const thread_block_tile<Size, ParentT> &parent, bool pred);
__device__ coalesced_group labeled_partition(const coalesced_group &parent, int label);
template <unsigned int Size, typename ParentT>
__device__ coalesced_group labeled_partition(const thread_block_tile<Size, ParentT> &parent, int label);

template <class Group> __device__ void sync(Group const &g);
template <class Group> __device__ unsigned long long thread_rank(Group const &g);
template <class Group> __device__ unsigned long long group_size(Group const &g);
template <class Group> __device__ unsigned long long num_threads(Group const &g);
template <class Group, class Fn, class... Args> __device__ void invoke_one(const Group &g, Fn &&fn, Args &&...args);
template <class Group, class Fn, class... Args>
__device__ auto invoke_one_broadcast(const Group &g, Fn &&fn, Args &&...args) -> decltype(fn(args...));

/* Function objects for reduce and scan. */
template <class T> struct plus { __host__ __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { __host__ __device__ T operator()(T a, T b) const { return b < a ? b : a; } };
template <class T> struct greater { __host__ __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct bit_and { __host__ __device__ T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { __host__ __device__ T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { __host__ __device__ T operator()(T a, T b) const { return a ^ b; } };

template <class Group, class T, class Op>
__device__ auto reduce(const Group &g, T &&val, Op &&op) -> decltype(op(val, val));
template <class Group, class T, class Op>
__device__ auto inclusive_scan(const Group &g, T &&val, Op &&op) -> decltype(op(val, val));
template <class Group, class T>
__device__ auto inclusive_scan(const Group &g, T &&val) -> decltype(val + val);
template <class Group, class T, class Op>
__device__ auto exclusive_scan(const Group &g, T &&val, Op &&op) -> decltype(op(val, val));
template <class Group, class T>
__device__ auto exclusive_scan(const Group &g, T &&val) -> decltype(val + val);
template <class Group, class T, class U, class Op>
__device__ void reduce_update_async(const Group &g, T &dst, U &&val, Op &&op);
template <class Group, class T, class U, class Op>
__device__ void reduce_store_async(const Group &g, T &dst, U &&val, Op &&op);
template <class Group, class T, class U, class Op>
__device__ void reduce_store_async(const Group &g, T *dst, U &&val, Op &&op);

/* Asynchronous copies into shared memory. */
template <class Group, class Size>
__device__ void memcpy_async(const Group &g, void *dst, const void *src, Size bytes);
template <class Group, class T, class Size>
__device__ void memcpy_async(const Group &g, T *dst, size_t dstCount, const T *src, size_t srcCount);
template <class Group> __device__ void wait(const Group &g);
template <unsigned int N, class Group> __device__ void wait_prior(const Group &g);

/* Scratch space for tiles larger than a warp (moved out of experimental in CUDA 12). */
template <unsigned int Size> struct block_tile_memory { unsigned char storage[Size * 8]; };
template <unsigned int Size> __device__ thread_block this_thread_block(block_tile_memory<Size> &scratch);

namespace experimental {
using cooperative_groups::block_tile_memory;
template <unsigned int Size, typename ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT &parent);
template <unsigned int Size> __device__ thread_block this_thread_block(block_tile_memory<Size> &scratch);
} /* namespace experimental */

} /* namespace cooperative_groups */

#endif
