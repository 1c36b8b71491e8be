// variant.cu: one variant of a pair, compiled with -DVARIANT_BAD or -DVARIANT_FIXED.
//
// The kernel file and the pair's launch code sit in an unnamed namespace so the
// bad and the fixed object can be linked into one harness although both define
// the same kernel name.  Separate translation units (rather than two namespaces
// in one) keep the two kernel files' macros apart: a fix-it may rewrite a
// macro's value, which would clash within one file.
//
// Include paths decide which files are used: -I <work dir holding bad.cu and
// fixed.cu> -I <the pair's directory holding pair.cuh>.  Kernel files include
// nothing (the toolkit's runtime header comes in through harness.h).
#include "harness.h"

namespace {
#if defined(VARIANT_BAD)
#include "bad.cu"
#elif defined(VARIANT_FIXED)
#include "fixed.cu"
#else
#error "compile variant.cu with -DVARIANT_BAD or -DVARIANT_FIXED"
#endif
#include "pair.cuh"
} // namespace

#if defined(VARIANT_BAD)
extern const harness::Variant harness_variant_bad = {"bad", pair_setup, pair_launch};
#else
extern const harness::Variant harness_variant_fixed = {"fixed", pair_setup, pair_launch};
#endif
