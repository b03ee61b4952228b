// A reproducible random source: the same --seed gives the same problems on every
// machine and standard library. std::mt19937_64 would be portable too, but
// std::uniform_int_distribution and std::shuffle are not (each library maps raw
// numbers to a range its own way), so the range reduction is ours as well.
//   xoshiro256** (Blackman & Vigna 2018), state seeded by splitmix64 (Steele, Lea &
//   Flood 2014) as the authors recommend;
//   below(n): Lemire's nearly divisionless unbiased bounded integer ("Fast random
//   integer generation in an interval", ACM TOMACS 2019): one multiply, and a
//   division only on the rare rejection path.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <utility>

namespace statespace {

// One step of splitmix64: advances `state` and returns the next output.
[[nodiscard]] constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

class Rng {
 public:
  using result_type = std::uint64_t;

  explicit constexpr Rng(std::uint64_t seed) {
    for (auto& word : s_) word = splitmix64(seed);
  }
  // Raw state, for checking against the reference implementation's test vectors.
  static constexpr Rng from_state(std::array<std::uint64_t, 4> state) {
    Rng r(0);
    r.s_ = state;
    return r;
  }

  constexpr std::uint64_t operator()() {
    const std::uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = std::rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, n), n >= 1, without bias (Lemire 2019).
  constexpr std::uint64_t below(std::uint64_t n) {
    unsigned __int128 m = static_cast<unsigned __int128>((*this)()) * n;
    auto low = static_cast<std::uint64_t>(m);
    if (low < n) {
      const std::uint64_t threshold = (0 - n) % n;  // 2^64 mod n
      while (low < threshold) {
        m = static_cast<unsigned __int128>((*this)()) * n;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

  // Fisher-Yates (Durstenfeld 1964): every order of [first, last) equally likely.
  template <class It>
  constexpr void shuffle(It first, It last) {
    for (auto n = std::uint64_t(last - first); n > 1; --n) {
      using std::swap;
      swap(first[n - 1], first[below(n)]);
    }
  }

  static constexpr std::uint64_t min() { return 0; }
  static constexpr std::uint64_t max() { return ~std::uint64_t{0}; }

 private:
  std::array<std::uint64_t, 4> s_{};
};

}  // namespace statespace
