/* mma.h: stand-in for the CUDA header of this name: warp matrix fragments and operations (namespace nvcuda::wmma). */
#pragma clang system_header
#ifndef __CUDA_MMA_H__
#define __CUDA_MMA_H__
#include <cuda_fp16.h>
#include <cuda_bf16.h>

namespace nvcuda {
namespace wmma {

struct matrix_a;
struct matrix_b;
struct accumulator;
struct row_major;
struct col_major;
enum layout_t { mem_row_major, mem_col_major };

namespace precision {
struct tf32;
struct u4;
struct s4;
struct b1;
} /* namespace precision */
namespace experimental {
namespace precision {
struct u4;
struct s4;
struct b1;
} /* namespace precision */
enum bmmaBitOp { bmmaBitOpXOR = 1, bmmaBitOpAND = 2 };
enum bmmaAccumulateOp { bmmaAccumulateOpPOPC = 1 };
} /* namespace experimental */

/* The element type a fragment stores for its declared precision. */
template <class T> struct cudalint_storage_ { typedef T type; };
template <> struct cudalint_storage_<precision::tf32> { typedef float type; };
template <> struct cudalint_storage_<precision::u4> { typedef int type; };
template <> struct cudalint_storage_<precision::s4> { typedef int type; };
template <> struct cudalint_storage_<precision::b1> { typedef int type; };
template <> struct cudalint_storage_<experimental::precision::u4> { typedef int type; };
template <> struct cudalint_storage_<experimental::precision::s4> { typedef int type; };
template <> struct cudalint_storage_<experimental::precision::b1> { typedef int type; };

/* The element count is not the hardware's (it varies by shape and type);
   code only iterates up to num_elements, which any constant satisfies. */
template <class Use, int M, int N, int K, class T, class Layout = void>
class fragment {
public:
    typedef typename cudalint_storage_<T>::type element_type;
    typedef element_type storage_element_type;
    enum { num_elements = 8, num_storage_elements = 8 };
    element_type x[8];
};

template <class Use, int M, int N, int K, class T, class Layout>
__device__ void fill_fragment(fragment<Use, M, N, K, T, Layout> &a,
                              const typename fragment<Use, M, N, K, T, Layout>::element_type &v);
template <class Use, int M, int N, int K, class T, class Layout, class P>
__device__ void load_matrix_sync(fragment<Use, M, N, K, T, Layout> &a, const P *p, unsigned ldm);
template <int M, int N, int K, class T, class P>
__device__ void load_matrix_sync(fragment<accumulator, M, N, K, T, void> &a, const P *p, unsigned ldm,
                                 layout_t layout);
template <int M, int N, int K, class T, class P>
__device__ void store_matrix_sync(P *p, const fragment<accumulator, M, N, K, T, void> &a, unsigned ldm,
                                  layout_t layout);
template <int M, int N, int K, class Ta, class La, class Tb, class Lb, class Tc, class Td>
__device__ void mma_sync(fragment<accumulator, M, N, K, Td, void> &d, const fragment<matrix_a, M, N, K, Ta, La> &a,
                         const fragment<matrix_b, M, N, K, Tb, Lb> &b,
                         const fragment<accumulator, M, N, K, Tc, void> &c, bool satf = false);
template <int M, int N, int K, class Ta, class La, class Tb, class Lb>
__device__ void bmma_sync(fragment<accumulator, M, N, K, int, void> &d, const fragment<matrix_a, M, N, K, Ta, La> &a,
                          const fragment<matrix_b, M, N, K, Tb, Lb> &b,
                          const fragment<accumulator, M, N, K, int, void> &c,
                          experimental::bmmaBitOp op = experimental::bmmaBitOpXOR,
                          experimental::bmmaAccumulateOp acc = experimental::bmmaAccumulateOpPOPC);
__device__ float __float_to_tf32(float in);

} /* namespace wmma */
} /* namespace nvcuda */

#endif
