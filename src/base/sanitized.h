// Whether this build runs under a sanitizer (GCC defines __SANITIZE_ADDRESS__ and
// __SANITIZE_THREAD__; clang answers __has_feature). A sanitizer brings its own malloc and
// its own view of the process, so code that tunes glibc's heap, and the tests of that code,
// ask here instead of each spelling the test out.
#pragma once

namespace cutover::base {

inline constexpr bool kSanitized =
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
    true;
#else
    false;
#endif
#else
    false;
#endif

}  // namespace cutover::base
