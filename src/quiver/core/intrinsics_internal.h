// The x86 SIMD intrinsics (<immintrin.h>) for the files that use them, included through one place.
#pragma once

#if defined(__x86_64__)
// GCC 12's AVX-512 headers make "undefined" vectors by self-initialization (`__m512i __Y = __Y;`),
// which its own -Wmaybe-uninitialized then reports in every caller that inlines a cast or an
// extract (GCC bug 105593, fixed in GCC 13). Silenced for the header's lines only, so a real
// uninitialized use in quiver's code still warns.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#endif
