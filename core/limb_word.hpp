// A word of N 64-bit limbs, the most significant first: the sorted-levels engine's
// word for positions past 128 bits (a 4x4x4 cube's 233, a megaminx's 304), where no
// built-in integer is wide enough. The engine needs of a word only its order, its
// equality and its top bits (the buckets of its sort and the passes of a level):
// LimbWord gives those and nothing else, so arithmetic on it cannot creep into the
// engine by accident. Left uninitialised by default, as the engine's arrays are
// (LimbWord<N>{} is zero).
#pragma once

#include <absl/hash/hash.h>

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace statespace {

template <std::size_t N>
struct LimbWord {
  static_assert(N >= 2, "one limb is a std::uint64_t");
  std::array<std::uint64_t, N> limb;

  friend bool operator==(const LimbWord&, const LimbWord&) = default;
  // Numeric order: the first limb that differs decides.
  friend std::strong_ordering operator<=>(const LimbWord& a, const LimbWord& b) {
    for (std::size_t i = 0; i < N; ++i) {
      if (a.limb[i] != b.limb[i]) return a.limb[i] <=> b.limb[i];
    }
    return std::strong_ordering::equal;
  }
  friend bool operator<(const LimbWord& a, const LimbWord& b) {
    for (std::size_t i = 0; i < N; ++i) {
      if (a.limb[i] != b.limb[i]) return a.limb[i] < b.limb[i];
    }
    return false;
  }
  // The low 64 bits of the word shifted right by `shift` (0 to 64 N - 1).
  [[nodiscard]] std::uint64_t shifted(int shift) const {
    const std::size_t i = N - 1 - std::size_t(shift / 64);  // the limb holding bit `shift`
    const int s = shift % 64;
    const std::uint64_t low = limb[i] >> s;
    return s == 0 || i == 0 ? low : low | limb[i - 1] << (64 - s);
  }
  template <class H>
  friend H AbslHashValue(H h, const LimbWord& w) {
    return H::combine_contiguous(std::move(h), w.limb.data(), N);
  }
};

static_assert(std::is_trivially_default_constructible_v<LimbWord<4>> && sizeof(LimbWord<4>) == 32);

template <class W>
inline constexpr bool kIsLimbWord = false;
template <std::size_t N>
inline constexpr bool kIsLimbWord<LimbWord<N>> = true;

// The low 64 bits of w >> shift, for built-in words and limb words alike.
template <class Word>
[[nodiscard]] std::uint64_t shifted_bits(const Word& w, int shift) {
  if constexpr (requires { w.shifted(shift); }) {
    return w.shifted(shift);
  } else {
    return std::uint64_t(w >> shift);
  }
}

}  // namespace statespace
