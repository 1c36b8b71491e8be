/* cudalint/thrust.h: the common surface of Thrust (containers, device pointers, iterators, functors, algorithms, random) for parses without the toolkit. */
#pragma clang system_header
#ifndef CUDALINT_THRUST_H
#define CUDALINT_THRUST_H
#include "cudalint_cuda.h"
#include <cstddef>
#include <initializer_list>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

/* Only what user code sees is declared.  Algorithms accept any arguments
   and return what the real ones return, found from the argument types: the
   first iterator (find, max_element, unique, ...), the last one (the output
   of copy, transform, scan, ...) or the last two (the *_by_key outputs).
   Functors passed to algorithms are never called here, so they are parsed
   but not instantiated, as with the real headers until code generation.
   <iostream> is included because the real headers include it, and code
   relies on that. */

#define THRUST_VERSION 300000
#define THRUST_MAJOR_VERSION 3
#define THRUST_MINOR_VERSION 0
#define THRUST_DEVICE_SYSTEM_CUDA 1
#define THRUST_HOST_SYSTEM_CPP 1
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CUDA
#define THRUST_HOST_SYSTEM THRUST_HOST_SYSTEM_CPP

namespace thrust {

using std::get;
using std::make_pair;
using std::make_tuple;
using std::pair;
using std::tie;
using std::tuple;
using std::tuple_element;
using std::tuple_size;
using std::iterator_traits;
using std::random_access_iterator_tag;
typedef std::random_access_iterator_tag device_random_access_iterator_tag;
typedef std::random_access_iterator_tag random_access_device_iterator_tag;

/* Execution policies. */
namespace detail {
template <class Derived> struct execution_policy_base {};
} /* namespace detail */
template <class Derived> struct execution_policy : detail::execution_policy_base<Derived> {};
struct host_t : execution_policy<host_t> {};
struct device_t : execution_policy<device_t> {
    template <class Allocator> __host__ __device__ device_t operator()(const Allocator &) const;
};
struct sequential_t : execution_policy<sequential_t> {};
inline constexpr host_t host{};
inline constexpr device_t device{};
inline constexpr sequential_t seq{};
namespace cuda {
struct par_t : execution_policy<par_t> {
    __host__ __device__ par_t on(cudaStream_t stream) const;
    template <class Allocator> __host__ __device__ par_t operator()(const Allocator &) const;
};
inline constexpr par_t par{};
inline constexpr par_t par_nosync{};
} /* namespace cuda */
namespace system {
namespace cuda {
using thrust::cuda::par;
using thrust::cuda::par_nosync;
} /* namespace cuda */
class system_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};
} /* namespace system */
namespace cuda_cub = cuda;
using system::system_error;

/* Device memory: references, pointers, allocation. */
template <class T> class device_ptr;
template <class T> class device_reference {
public:
    typedef T value_type;
    __host__ __device__ device_reference(const device_ptr<T> &p);
    __host__ __device__ operator T() const;
    __host__ __device__ device_ptr<T> operator&() const;
    __host__ __device__ device_reference &operator=(const T &v);
    __host__ __device__ device_reference &operator=(const device_reference &other);
    __host__ __device__ device_reference &operator+=(const T &v);
    __host__ __device__ device_reference &operator-=(const T &v);
    __host__ __device__ device_reference &operator*=(const T &v);
    __host__ __device__ device_reference &operator/=(const T &v);
    __host__ __device__ device_reference &operator++();
    __host__ __device__ T operator++(int);
    __host__ __device__ device_reference &operator--();
    __host__ __device__ T operator--(int);
};

template <class T> class device_ptr {
public:
    typedef T element_type;
    typedef typename std::remove_cv<T>::type value_type;
    typedef std::ptrdiff_t difference_type;
    typedef device_ptr pointer;
    typedef device_reference<T> reference;
    typedef std::random_access_iterator_tag iterator_category;
    __host__ __device__ device_ptr();
    __host__ __device__ device_ptr(std::nullptr_t);
    template <class U> __host__ __device__ explicit device_ptr(U *p);
    template <class U> __host__ __device__ device_ptr(const device_ptr<U> &other);
    __host__ __device__ T *get() const;
    __host__ __device__ reference operator*() const;
    __host__ __device__ T *operator->() const;
    __host__ __device__ reference operator[](difference_type i) const;
    __host__ __device__ device_ptr &operator++();
    __host__ __device__ device_ptr operator++(int);
    __host__ __device__ device_ptr &operator--();
    __host__ __device__ device_ptr operator--(int);
    __host__ __device__ device_ptr &operator+=(difference_type n);
    __host__ __device__ device_ptr &operator-=(difference_type n);
    __host__ __device__ device_ptr operator+(difference_type n) const;
    __host__ __device__ device_ptr operator-(difference_type n) const;
    __host__ __device__ difference_type operator-(const device_ptr &other) const;
    __host__ __device__ bool operator==(const device_ptr &other) const;
    __host__ __device__ bool operator!=(const device_ptr &other) const;
    __host__ __device__ bool operator<(const device_ptr &other) const;
    __host__ __device__ bool operator>(const device_ptr &other) const;
    __host__ __device__ bool operator<=(const device_ptr &other) const;
    __host__ __device__ bool operator>=(const device_ptr &other) const;
    __host__ __device__ explicit operator bool() const;
};
template <class T> __host__ __device__ device_ptr<T> operator+(std::ptrdiff_t n, const device_ptr<T> &p);
template <class T> __host__ __device__ device_ptr<T> device_pointer_cast(T *p);
template <class T> __host__ __device__ device_ptr<T> device_pointer_cast(const device_ptr<T> &p);
template <class T> __host__ __device__ T *raw_pointer_cast(const device_ptr<T> &p);
template <class T> __host__ __device__ T *raw_pointer_cast(T *p);
template <class T> __host__ device_ptr<T> device_malloc(std::size_t n);
__host__ device_ptr<void> device_malloc(std::size_t n);
template <class T> __host__ void device_free(device_ptr<T> p);
template <class T> class device_allocator : public std::allocator<T> {};

/* Containers. */
template <class T, class Alloc = device_allocator<T>> class device_vector;
template <class T, class Alloc = std::allocator<T>> class host_vector : public std::vector<T, Alloc> {
public:
    using std::vector<T, Alloc>::vector;
    host_vector() = default;
    template <class U, class A> host_vector(const device_vector<U, A> &other);
    template <class U, class A> host_vector(const std::vector<U, A> &other);
    template <class U, class A> host_vector &operator=(const device_vector<U, A> &other);
    template <class U, class A> host_vector &operator=(const std::vector<U, A> &other);
};
template <class T, class Alloc> class device_vector {
public:
    typedef T value_type;
    typedef device_ptr<T> pointer;
    typedef device_ptr<const T> const_pointer;
    typedef device_ptr<T> iterator;
    typedef device_ptr<const T> const_iterator;
    typedef device_reference<T> reference;
    typedef device_reference<const T> const_reference;
    typedef std::size_t size_type;
    typedef std::ptrdiff_t difference_type;
    typedef Alloc allocator_type;
    device_vector();
    explicit device_vector(size_type n);
    device_vector(size_type n, const value_type &value);
    device_vector(const device_vector &other);
    device_vector(device_vector &&other);
    device_vector(std::initializer_list<T> init);
    template <class U, class A> device_vector(const device_vector<U, A> &other);
    template <class U, class A> device_vector(const host_vector<U, A> &other);
    template <class U, class A> device_vector(const std::vector<U, A> &other);
    template <class InputIterator, class = typename std::enable_if<!std::is_integral<InputIterator>::value>::type>
    device_vector(InputIterator first, InputIterator last);
    device_vector &operator=(const device_vector &other);
    device_vector &operator=(device_vector &&other);
    template <class U, class A> device_vector &operator=(const device_vector<U, A> &other);
    template <class U, class A> device_vector &operator=(const host_vector<U, A> &other);
    template <class U, class A> device_vector &operator=(const std::vector<U, A> &other);
    iterator begin();
    const_iterator begin() const;
    const_iterator cbegin() const;
    iterator end();
    const_iterator end() const;
    const_iterator cend() const;
    pointer data();
    const_pointer data() const;
    reference operator[](size_type n);
    const_reference operator[](size_type n) const;
    reference front();
    reference back();
    size_type size() const;
    size_type capacity() const;
    size_type max_size() const;
    bool empty() const;
    void resize(size_type n);
    void resize(size_type n, const value_type &value);
    void reserve(size_type n);
    void shrink_to_fit();
    void clear();
    void push_back(const value_type &value);
    void pop_back();
    void swap(device_vector &other);
    iterator erase(iterator pos);
    iterator erase(iterator first, iterator last);
    iterator insert(iterator pos, const value_type &value);
    template <class InputIterator> void insert(iterator pos, InputIterator first, InputIterator last);
    void assign(size_type n, const value_type &value);
    template <class InputIterator> void assign(InputIterator first, InputIterator last);
};
template <class T> using universal_vector = device_vector<T>;

/* Fancy iterators. */
template <class Derived, class Value, class Reference = Value &, class Difference = std::ptrdiff_t>
class cudalint_iterator_ {
public:
    typedef Value value_type;
    typedef Reference reference;
    typedef Difference difference_type;
    typedef Value *pointer;
    typedef std::random_access_iterator_tag iterator_category;
    __host__ __device__ reference operator*() const;
    __host__ __device__ reference operator[](difference_type n) const;
    __host__ __device__ Derived &operator++();
    __host__ __device__ Derived operator++(int);
    __host__ __device__ Derived &operator--();
    __host__ __device__ Derived operator--(int);
    __host__ __device__ Derived &operator+=(difference_type n);
    __host__ __device__ Derived &operator-=(difference_type n);
    __host__ __device__ Derived operator+(difference_type n) const;
    __host__ __device__ Derived operator-(difference_type n) const;
    __host__ __device__ difference_type operator-(const Derived &other) const;
    __host__ __device__ bool operator==(const Derived &other) const;
    __host__ __device__ bool operator!=(const Derived &other) const;
    __host__ __device__ bool operator<(const Derived &other) const;
    __host__ __device__ bool operator>(const Derived &other) const;
    __host__ __device__ bool operator<=(const Derived &other) const;
    __host__ __device__ bool operator>=(const Derived &other) const;
};
template <class Incrementable>
class counting_iterator : public cudalint_iterator_<counting_iterator<Incrementable>, Incrementable, Incrementable> {
public:
    __host__ __device__ counting_iterator();
    __host__ __device__ explicit counting_iterator(Incrementable start);
};
template <class T> __host__ __device__ counting_iterator<T> make_counting_iterator(T start);
template <class T>
class constant_iterator : public cudalint_iterator_<constant_iterator<T>, T, T> {
public:
    __host__ __device__ explicit constant_iterator(T value);
};
template <class T> __host__ __device__ constant_iterator<T> make_constant_iterator(T value);
template <class Tuple>
class zip_iterator : public cudalint_iterator_<zip_iterator<Tuple>, Tuple, Tuple> {
public:
    __host__ __device__ zip_iterator();
    __host__ __device__ explicit zip_iterator(Tuple iterators);
    __host__ __device__ const Tuple &get_iterator_tuple() const;
};
template <class... Its> __host__ __device__ zip_iterator<tuple<Its...>> make_zip_iterator(tuple<Its...> t);
template <class... Its> __host__ __device__ zip_iterator<tuple<Its...>> make_zip_iterator(Its... its);
template <class Fn, class It>
class transform_iterator
    : public cudalint_iterator_<transform_iterator<Fn, It>,
                                typename std::decay<decltype(std::declval<Fn>()(
                                    *std::declval<It>()))>::type,
                                decltype(std::declval<Fn>()(*std::declval<It>()))> {
public:
    __host__ __device__ transform_iterator(It it, Fn fn);
};
template <class It, class Fn> __host__ __device__ transform_iterator<Fn, It> make_transform_iterator(It it, Fn fn);
template <class ElementIt, class IndexIt>
class permutation_iterator
    : public cudalint_iterator_<permutation_iterator<ElementIt, IndexIt>,
                                typename std::iterator_traits<ElementIt>::value_type,
                                typename std::iterator_traits<ElementIt>::reference> {
public:
    __host__ __device__ permutation_iterator(ElementIt e, IndexIt i);
};
template <class ElementIt, class IndexIt>
__host__ __device__ permutation_iterator<ElementIt, IndexIt> make_permutation_iterator(ElementIt e, IndexIt i);
struct cudalint_discard_ {
    template <class T> __host__ __device__ const cudalint_discard_ &operator=(const T &) const { return *this; }
};
template <class System = void>
class discard_iterator : public cudalint_iterator_<discard_iterator<System>, cudalint_discard_, cudalint_discard_> {
public:
    __host__ __device__ discard_iterator();
};
__host__ __device__ discard_iterator<> make_discard_iterator(std::ptrdiff_t i = 0);
template <class It> using reverse_iterator = std::reverse_iterator<It>;
template <class It> __host__ __device__ std::reverse_iterator<It> make_reverse_iterator(It it);

/* Function objects. */
#define CUDALINT_THRUST_BINARY(name, expr)                                                          \
    template <class T = void> struct name {                                                         \
        typedef T first_argument_type;                                                              \
        typedef T second_argument_type;                                                             \
        __host__ __device__ constexpr auto operator()(const T &a, const T &b) const -> decltype(expr) { \
            return expr;                                                                            \
        }                                                                                           \
    };                                                                                              \
    template <> struct name<void> {                                                                 \
        template <class A, class B>                                                                 \
        __host__ __device__ constexpr auto operator()(const A &a, const B &b) const -> decltype(expr) { \
            return expr;                                                                            \
        }                                                                                           \
    };
CUDALINT_THRUST_BINARY(plus, a + b)
CUDALINT_THRUST_BINARY(minus, a - b)
CUDALINT_THRUST_BINARY(multiplies, a *b)
CUDALINT_THRUST_BINARY(divides, a / b)
CUDALINT_THRUST_BINARY(modulus, a % b)
CUDALINT_THRUST_BINARY(equal_to, a == b)
CUDALINT_THRUST_BINARY(not_equal_to, a != b)
CUDALINT_THRUST_BINARY(greater, a > b)
CUDALINT_THRUST_BINARY(less, a < b)
CUDALINT_THRUST_BINARY(greater_equal, a >= b)
CUDALINT_THRUST_BINARY(less_equal, a <= b)
CUDALINT_THRUST_BINARY(logical_and, a &&b)
CUDALINT_THRUST_BINARY(logical_or, a || b)
CUDALINT_THRUST_BINARY(bit_and, a &b)
CUDALINT_THRUST_BINARY(bit_or, a | b)
CUDALINT_THRUST_BINARY(bit_xor, a ^ b)
CUDALINT_THRUST_BINARY(maximum, a < b ? b : a)
CUDALINT_THRUST_BINARY(minimum, b < a ? b : a)
#undef CUDALINT_THRUST_BINARY
template <class T = void> struct negate {
    __host__ __device__ constexpr T operator()(const T &a) const { return -a; }
};
template <class T = void> struct logical_not {
    __host__ __device__ constexpr bool operator()(const T &a) const { return !a; }
};
template <class T = void> struct identity {
    __host__ __device__ constexpr const T &operator()(const T &a) const { return a; }
};
template <class T1 = void, class T2 = void> struct project1st {
    __host__ __device__ constexpr const T1 &operator()(const T1 &a, const T2 &) const { return a; }
};
template <class T1 = void, class T2 = void> struct project2nd {
    __host__ __device__ constexpr const T2 &operator()(const T1 &, const T2 &b) const { return b; }
};

/* Algorithms.  An argument counts as an iterator when it is a pointer or
   has an iterator_category. */
template <class T, class = void> struct cudalint_is_iter_ : std::is_pointer<T> {};
template <class T>
struct cudalint_is_iter_<T, std::void_t<typename T::iterator_category>> : std::true_type {};
/* The iterator arguments, in order; the results are picked from them. */
template <class... T> struct cudalint_iters_ {};
template <class Found, class... T> struct cudalint_filter_ { typedef Found type; };
template <class... Found, class T, class... Rest>
struct cudalint_filter_<cudalint_iters_<Found...>, T, Rest...>
    : cudalint_filter_<typename std::conditional<cudalint_is_iter_<T>::value, cudalint_iters_<Found..., T>,
                                                 cudalint_iters_<Found...>>::type,
                       Rest...> {};
template <class L> struct cudalint_pick_ {
    typedef void first;
    typedef void prev;
    typedef void last;
};
template <class A> struct cudalint_pick_<cudalint_iters_<A>> {
    typedef A first;
    typedef void prev;
    typedef A last;
};
template <class A, class B> struct cudalint_pick_<cudalint_iters_<A, B>> {
    typedef A first;
    typedef A prev;
    typedef B last;
};
template <class A, class B, class C, class... Rest> struct cudalint_pick_<cudalint_iters_<A, B, C, Rest...>> {
    typedef A first;
    typedef typename cudalint_pick_<cudalint_iters_<B, C, Rest...>>::prev prev;
    typedef typename cudalint_pick_<cudalint_iters_<B, C, Rest...>>::last last;
};
template <class... A>
using cudalint_picked_ =
    cudalint_pick_<typename cudalint_filter_<cudalint_iters_<>, typename std::decay<A>::type...>::type>;
template <class... A> using cudalint_first_t_ = typename cudalint_picked_<A...>::first;
template <class... A> using cudalint_last_t_ = typename cudalint_picked_<A...>::last;
template <class... A> using cudalint_prev_t_ = typename cudalint_picked_<A...>::prev;

#define CUDALINT_THRUST_VOID(name) \
    template <class... Args> __host__ __device__ void name(Args &&...args);
#define CUDALINT_THRUST_FIRST(name) \
    template <class... Args> __host__ __device__ cudalint_first_t_<Args...> name(Args &&...args);
#define CUDALINT_THRUST_LAST(name) \
    template <class... Args> __host__ __device__ cudalint_last_t_<Args...> name(Args &&...args);
#define CUDALINT_THRUST_FIRST2(name)                                                                   \
    template <class... Args>                                                                          \
    __host__ __device__ pair<cudalint_first_t_<Args...>, cudalint_first_t_<Args...>> name(Args &&...args);
#define CUDALINT_THRUST_LAST2(name)                                                                    \
    template <class... Args>                                                                          \
    __host__ __device__ pair<cudalint_prev_t_<Args...>, cudalint_last_t_<Args...>> name(Args &&...args);
CUDALINT_THRUST_VOID(sort)
CUDALINT_THRUST_VOID(stable_sort)
CUDALINT_THRUST_VOID(sort_by_key)
CUDALINT_THRUST_VOID(stable_sort_by_key)
CUDALINT_THRUST_VOID(sequence)
CUDALINT_THRUST_VOID(fill)
CUDALINT_THRUST_VOID(generate)
CUDALINT_THRUST_VOID(replace)
CUDALINT_THRUST_VOID(replace_if)
CUDALINT_THRUST_VOID(tabulate)
CUDALINT_THRUST_VOID(uninitialized_fill)
CUDALINT_THRUST_VOID(scatter)
CUDALINT_THRUST_VOID(scatter_if)
CUDALINT_THRUST_FIRST(for_each)
CUDALINT_THRUST_FIRST(for_each_n)
CUDALINT_THRUST_FIRST(fill_n)
CUDALINT_THRUST_FIRST(generate_n)
CUDALINT_THRUST_FIRST(unique)
CUDALINT_THRUST_FIRST(remove)
CUDALINT_THRUST_FIRST(remove_if)
CUDALINT_THRUST_FIRST(partition)
CUDALINT_THRUST_FIRST(stable_partition)
CUDALINT_THRUST_FIRST(find)
CUDALINT_THRUST_FIRST(find_if)
CUDALINT_THRUST_FIRST(find_if_not)
CUDALINT_THRUST_FIRST(min_element)
CUDALINT_THRUST_FIRST(max_element)
CUDALINT_THRUST_FIRST(lower_bound)
CUDALINT_THRUST_FIRST(upper_bound)
CUDALINT_THRUST_FIRST(adjacent_find)
CUDALINT_THRUST_FIRST(is_sorted_until)
CUDALINT_THRUST_LAST(copy)
CUDALINT_THRUST_LAST(copy_n)
CUDALINT_THRUST_LAST(copy_if)
CUDALINT_THRUST_LAST(uninitialized_copy)
CUDALINT_THRUST_LAST(transform)
CUDALINT_THRUST_LAST(transform_if)
CUDALINT_THRUST_LAST(inclusive_scan)
CUDALINT_THRUST_LAST(exclusive_scan)
CUDALINT_THRUST_LAST(inclusive_scan_by_key)
CUDALINT_THRUST_LAST(exclusive_scan_by_key)
CUDALINT_THRUST_LAST(transform_inclusive_scan)
CUDALINT_THRUST_LAST(transform_exclusive_scan)
CUDALINT_THRUST_LAST(adjacent_difference)
CUDALINT_THRUST_LAST(unique_copy)
CUDALINT_THRUST_LAST(remove_copy)
CUDALINT_THRUST_LAST(remove_copy_if)
CUDALINT_THRUST_LAST(gather)
CUDALINT_THRUST_LAST(gather_if)
CUDALINT_THRUST_LAST(merge)
CUDALINT_THRUST_LAST(set_union)
CUDALINT_THRUST_LAST(set_intersection)
CUDALINT_THRUST_LAST(set_difference)
CUDALINT_THRUST_LAST(swap_ranges)
CUDALINT_THRUST_FIRST2(minmax_element)
CUDALINT_THRUST_FIRST2(equal_range)
CUDALINT_THRUST_LAST2(unique_by_key)
CUDALINT_THRUST_LAST2(unique_by_key_copy)
CUDALINT_THRUST_LAST2(reduce_by_key)
CUDALINT_THRUST_LAST2(mismatch)
CUDALINT_THRUST_LAST2(partition_copy)
#undef CUDALINT_THRUST_VOID
#undef CUDALINT_THRUST_FIRST
#undef CUDALINT_THRUST_LAST
#undef CUDALINT_THRUST_FIRST2
#undef CUDALINT_THRUST_LAST2
template <class T> __host__ __device__ void swap(T &a, T &b);

/* Value-returning algorithms keep their result type. */
template <class Policy, class It>
__host__ __device__ typename std::iterator_traits<It>::value_type reduce(const detail::execution_policy_base<Policy> &,
                                                                       It first, It last);
template <class Policy, class It, class T>
__host__ __device__ T reduce(const detail::execution_policy_base<Policy> &, It first, It last, T init);
template <class Policy, class It, class T, class Op>
__host__ __device__ T reduce(const detail::execution_policy_base<Policy> &, It first, It last, T init, Op op);
template <class It> __host__ __device__ typename std::iterator_traits<It>::value_type reduce(It first, It last);
template <class It, class T> __host__ __device__ T reduce(It first, It last, T init);
template <class It, class T, class Op> __host__ __device__ T reduce(It first, It last, T init, Op op);
template <class Policy, class It, class UnaryOp, class T, class BinaryOp>
__host__ __device__ T transform_reduce(const detail::execution_policy_base<Policy> &, It first, It last, UnaryOp u,
                                       T init, BinaryOp b);
template <class It, class UnaryOp, class T, class BinaryOp>
__host__ __device__ T transform_reduce(It first, It last, UnaryOp u, T init, BinaryOp b);
template <class Policy, class It1, class It2, class T>
__host__ __device__ T inner_product(const detail::execution_policy_base<Policy> &, It1 first1, It1 last1,
                                    It2 first2, T init);
template <class It1, class It2, class T> __host__ __device__ T inner_product(It1 first1, It1 last1, It2 first2, T init);
template <class It1, class It2, class T, class Op1, class Op2>
__host__ __device__ T inner_product(It1 first1, It1 last1, It2 first2, T init, Op1 op1, Op2 op2);
template <class... Args> __host__ __device__ std::ptrdiff_t count(Args &&...args);
template <class... Args> __host__ __device__ std::ptrdiff_t count_if(Args &&...args);
template <class... Args> __host__ __device__ bool is_sorted(Args &&...args);
template <class... Args> __host__ __device__ bool is_partitioned(Args &&...args);
template <class... Args> __host__ __device__ bool equal(Args &&...args);
template <class... Args> __host__ __device__ bool all_of(Args &&...args);
template <class... Args> __host__ __device__ bool any_of(Args &&...args);
template <class... Args> __host__ __device__ bool none_of(Args &&...args);
template <class... Args> __host__ __device__ bool binary_search(Args &&...args);

/* Random numbers. */
namespace random {
template <class UIntType, UIntType a, UIntType c, UIntType m> class linear_congruential_engine {
public:
    typedef UIntType result_type;
    __host__ __device__ explicit linear_congruential_engine(result_type s = 1);
    __host__ __device__ void seed(result_type s = 1);
    __host__ __device__ result_type operator()();
    __host__ __device__ void discard(unsigned long long z);
    static constexpr result_type min() { return c == 0u ? 1u : 0u; }
    static constexpr result_type max() { return m - 1u; }
};
typedef linear_congruential_engine<unsigned int, 16807, 0, 2147483647> minstd_rand0;
typedef linear_congruential_engine<unsigned int, 48271, 0, 2147483647> minstd_rand;
typedef minstd_rand default_random_engine;
typedef minstd_rand taus88;
typedef minstd_rand ranlux24;
typedef minstd_rand ranlux48;
template <class RealType = double> class uniform_real_distribution {
public:
    typedef RealType result_type;
    __host__ __device__ explicit uniform_real_distribution(RealType a = 0, RealType b = 1);
    template <class Engine> __host__ __device__ result_type operator()(Engine &urng);
    __host__ __device__ void reset();
};
template <class IntType = int> class uniform_int_distribution {
public:
    typedef IntType result_type;
    __host__ __device__ explicit uniform_int_distribution(IntType a = 0, IntType b = 0x7fffffff);
    template <class Engine> __host__ __device__ result_type operator()(Engine &urng);
    __host__ __device__ void reset();
};
template <class RealType = double> class normal_distribution {
public:
    typedef RealType result_type;
    __host__ __device__ explicit normal_distribution(RealType mean = 0, RealType stddev = 1);
    template <class Engine> __host__ __device__ result_type operator()(Engine &urng);
    __host__ __device__ void reset();
};
} /* namespace random */
using random::default_random_engine;
using random::minstd_rand;
using random::minstd_rand0;
using random::normal_distribution;
using random::uniform_int_distribution;
using random::uniform_real_distribution;

} /* namespace thrust */

#endif
