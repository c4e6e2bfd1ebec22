// Whether this build runs under AddressSanitizer (GCC defines __SANITIZE_ADDRESS__, Clang answers
// __has_feature). Under it SimGrid runs on thread contexts (engine.cpp), many times slower, and a test of
// long runs may keep to its short cases.
#pragma once

namespace hetlb::sim::detail {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

}  // namespace hetlb::sim::detail
