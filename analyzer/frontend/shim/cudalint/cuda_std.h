/* cudalint/cuda_std.h: the small part of libcu++ (namespace cuda, cuda::std) that CUDA code commonly uses. */
#pragma clang system_header
#ifndef CUDALINT_CUDA_STD_H
#define CUDALINT_CUDA_STD_H
#include "cudalint_cuda.h"
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <type_traits>
#include <utility>

/* cuda::std is the host standard library re-exported, plus the CUDA
   additions below; its templates are constexpr or header-only in libstdc++
   and clang treats constexpr functions as callable from device code. */
namespace cuda {
namespace std {
using namespace ::std;

enum thread_scope {
    thread_scope_system = 0,
    thread_scope_device = 1,
    thread_scope_block = 2,
    thread_scope_thread = 3
};

/* libstdc++'s atomics are host-only; these mirror their interface for both
   sides, with the scope parameter CUDA adds. */
template <class T, thread_scope Scope = thread_scope_system>
struct atomic {
    __host__ __device__ atomic() = default;
    __host__ __device__ constexpr atomic(T v) : value_(v) {}
    __host__ __device__ T load(memory_order order = memory_order_seq_cst) const;
    __host__ __device__ void store(T v, memory_order order = memory_order_seq_cst);
    __host__ __device__ T exchange(T v, memory_order order = memory_order_seq_cst);
    __host__ __device__ bool compare_exchange_weak(T &expected, T desired, memory_order order = memory_order_seq_cst);
    __host__ __device__ bool compare_exchange_strong(T &expected, T desired,
                                                     memory_order order = memory_order_seq_cst);
    __host__ __device__ T fetch_add(T v, memory_order order = memory_order_seq_cst);
    __host__ __device__ T fetch_sub(T v, memory_order order = memory_order_seq_cst);
    __host__ __device__ T fetch_and(T v, memory_order order = memory_order_seq_cst);
    __host__ __device__ T fetch_or(T v, memory_order order = memory_order_seq_cst);
    __host__ __device__ T fetch_xor(T v, memory_order order = memory_order_seq_cst);
    __host__ __device__ T fetch_min(T v, memory_order order = memory_order_seq_cst);
    __host__ __device__ T fetch_max(T v, memory_order order = memory_order_seq_cst);
    __host__ __device__ void wait(T old, memory_order order = memory_order_seq_cst) const;
    __host__ __device__ void notify_one();
    __host__ __device__ void notify_all();
    __host__ __device__ operator T() const;
    __host__ __device__ T operator=(T v);
    __host__ __device__ T operator++();
    __host__ __device__ T operator++(int);
    __host__ __device__ T operator--();
    __host__ __device__ T operator--(int);
    __host__ __device__ T operator+=(T v);
    __host__ __device__ T operator-=(T v);
    __host__ __device__ T operator&=(T v);
    __host__ __device__ T operator|=(T v);
    __host__ __device__ T operator^=(T v);
    T value_;
};
template <class T, thread_scope Scope = thread_scope_system>
struct atomic_ref {
    __host__ __device__ explicit atomic_ref(T &obj);
    __host__ __device__ T load(memory_order order = memory_order_seq_cst) const;
    __host__ __device__ void store(T v, memory_order order = memory_order_seq_cst) const;
    __host__ __device__ T exchange(T v, memory_order order = memory_order_seq_cst) const;
    __host__ __device__ bool compare_exchange_weak(T &expected, T desired,
                                                   memory_order order = memory_order_seq_cst) const;
    __host__ __device__ bool compare_exchange_strong(T &expected, T desired,
                                                     memory_order order = memory_order_seq_cst) const;
    __host__ __device__ T fetch_add(T v, memory_order order = memory_order_seq_cst) const;
    __host__ __device__ T fetch_sub(T v, memory_order order = memory_order_seq_cst) const;
    __host__ __device__ T fetch_and(T v, memory_order order = memory_order_seq_cst) const;
    __host__ __device__ T fetch_or(T v, memory_order order = memory_order_seq_cst) const;
    __host__ __device__ T fetch_xor(T v, memory_order order = memory_order_seq_cst) const;
    __host__ __device__ T fetch_min(T v, memory_order order = memory_order_seq_cst) const;
    __host__ __device__ T fetch_max(T v, memory_order order = memory_order_seq_cst) const;
    __host__ __device__ operator T() const;
    __host__ __device__ T operator=(T v) const;
    __host__ __device__ T operator++() const;
    __host__ __device__ T operator++(int) const;
    __host__ __device__ T operator--() const;
    __host__ __device__ T operator--(int) const;
    __host__ __device__ T operator+=(T v) const;
    __host__ __device__ T operator-=(T v) const;
};
__host__ __device__ void atomic_thread_fence(memory_order order, thread_scope scope = thread_scope_system);

struct identity {
    template <class T> __host__ __device__ constexpr T &&operator()(T &&t) const noexcept {
        return static_cast<T &&>(t);
    }
};

template <class T, size_t Extent = size_t(-1)> class span {
public:
    __host__ __device__ constexpr span() : data_(nullptr), size_(0) {}
    __host__ __device__ constexpr span(T *p, size_t n) : data_(p), size_(n) {}
    __host__ __device__ constexpr T *data() const { return data_; }
    __host__ __device__ constexpr size_t size() const { return size_; }
    __host__ __device__ constexpr T &operator[](size_t i) const { return data_[i]; }
    __host__ __device__ constexpr T *begin() const { return data_; }
    __host__ __device__ constexpr T *end() const { return data_ + size_; }
private:
    T *data_;
    size_t size_;
};
} /* namespace std */

using std::thread_scope;
using std::thread_scope_system;
using std::thread_scope_device;
using std::thread_scope_block;
using std::thread_scope_thread;
using std::atomic;
using std::atomic_ref;
using std::atomic_thread_fence;

template <::std::size_t Align> struct aligned_size_t {
    static constexpr ::std::size_t align = Align;
    ::std::size_t value;
    __host__ __device__ constexpr explicit aligned_size_t(::std::size_t v) : value(v) {}
    __host__ __device__ constexpr operator ::std::size_t() const { return value; }
};

template <thread_scope Scope> struct cudalint_completion_ {
    __host__ __device__ void operator()() const {}
};

/* Split arrive/wait barrier (cuda/barrier). */
template <thread_scope Scope, class Completion = cudalint_completion_<Scope>>
class barrier {
public:
    struct arrival_token {};
    barrier() = default;
    __host__ __device__ barrier(::std::ptrdiff_t expected, Completion completion = Completion());
    __host__ __device__ arrival_token arrive(::std::ptrdiff_t update = 1);
    __host__ __device__ void wait(arrival_token &&token) const;
    __host__ __device__ void arrive_and_wait();
    __host__ __device__ void arrive_and_drop();
    static constexpr ::std::ptrdiff_t max() { return 0x7fffffff; }
};
template <thread_scope Scope, class Completion>
__host__ __device__ void init(barrier<Scope, Completion> *bar, ::std::ptrdiff_t expected);
template <thread_scope Scope, class Completion>
__host__ __device__ void init(barrier<Scope, Completion> *bar, ::std::ptrdiff_t expected, Completion completion);
namespace device {
__device__ ::std::uint64_t *barrier_native_handle(barrier<thread_scope_block> &bar);
}

/* Asynchronous copy pipelines (cuda/pipeline). */
enum class pipeline_role { producer, consumer };
template <thread_scope Scope, ::std::uint8_t StagesCount> struct pipeline_shared_state {
    pipeline_shared_state() = default;
};
template <thread_scope Scope> class pipeline {
public:
    __host__ __device__ void producer_acquire();
    __host__ __device__ void producer_commit();
    __host__ __device__ void consumer_wait();
    template <class Rep, class Period>
    __host__ __device__ bool consumer_wait_for(const ::std::chrono::duration<Rep, Period> &duration);
    __host__ __device__ void consumer_release();
    __host__ __device__ bool quit();
};
__host__ __device__ pipeline<thread_scope_thread> make_pipeline();
template <class Group, thread_scope Scope, ::std::uint8_t StagesCount>
__host__ __device__ pipeline<Scope> make_pipeline(const Group &group,
                                                  pipeline_shared_state<Scope, StagesCount> *shared_state);
template <class Group, thread_scope Scope, ::std::uint8_t StagesCount>
__host__ __device__ pipeline<Scope> make_pipeline(const Group &group,
                                                  pipeline_shared_state<Scope, StagesCount> *shared_state,
                                                  ::std::size_t producer_count);
template <class Group, thread_scope Scope, ::std::uint8_t StagesCount>
__host__ __device__ pipeline<Scope> make_pipeline(const Group &group,
                                                  pipeline_shared_state<Scope, StagesCount> *shared_state,
                                                  pipeline_role role);
template <::std::uint8_t Prior>
__host__ __device__ void pipeline_consumer_wait_prior(pipeline<thread_scope_thread> &pipe);
template <thread_scope Scope>
__host__ __device__ void pipeline_producer_commit(pipeline<thread_scope_thread> &pipe, barrier<Scope> &bar);

/* memcpy_async into a barrier or a pipeline, by one thread or a group. */
template <class Size, thread_scope Scope, class Completion>
__host__ __device__ void memcpy_async(void *dst, const void *src, Size size, barrier<Scope, Completion> &bar);
template <class Group, class Size, thread_scope Scope, class Completion>
__host__ __device__ void memcpy_async(const Group &group, void *dst, const void *src, Size size,
                                      barrier<Scope, Completion> &bar);
template <class Size, thread_scope Scope>
__host__ __device__ void memcpy_async(void *dst, const void *src, Size size, pipeline<Scope> &pipe);
template <class Group, class Size, thread_scope Scope>
__host__ __device__ void memcpy_async(const Group &group, void *dst, const void *src, Size size,
                                      pipeline<Scope> &pipe);

} /* namespace cuda */

#endif
