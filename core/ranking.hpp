// Perfect hashes onto [0, size): lexicographic permutation ranking for boards of
// distinct pieces, and multiset ranking for boards with identical pieces (NO-OFF's
// two O's and two F's, oshidori's stones). Ranks follow the lexicographic order of
// the cell codes, so sorting by rank sorts positions canonically.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "core/board.hpp"

namespace statespace {

inline constexpr std::array<std::uint64_t, 21> kFactorial = [] {
  std::array<std::uint64_t, 21> f{};
  f[0] = 1;
  for (std::uint64_t i = 1; i < f.size(); ++i) f[i] = f[i - 1] * i;
  return f;
}();

// Rank of the permutation held in cells [0, n) (codes 0..n-1, each once), in the
// factorial number system evaluated Horner-style: r = r * (n - i) + digit_i.
// The popcount of the used codes below v gives digit_i in O(1), so this is O(n).
[[nodiscard]] constexpr std::uint64_t permutation_rank(Board b, int n) {
  std::uint32_t used = 0;
  std::uint64_t r = 0;
  for (int i = 0; i < n; ++i) {
    const unsigned v = b.at(i);
    const auto digit = v - unsigned(std::popcount(used & ((1u << v) - 1)));
    r = r * std::uint64_t(n - i) + digit;
    used |= 1u << v;
  }
  return r;
}

[[nodiscard]] constexpr Board permutation_unrank(std::uint64_t r, int n) {
  std::array<unsigned, Board::kMaxCells> digit{};
  for (int i = n - 1; i >= 0; --i) {
    digit[i] = unsigned(r % std::uint64_t(n - i));
    r /= std::uint64_t(n - i);
  }
  Board b;
  std::uint32_t free = (n == 32 ? ~0u : (1u << n) - 1);
  for (int i = 0; i < n; ++i) {
    std::uint32_t f = free;
    for (unsigned k = 0; k < digit[i]; ++k) f &= f - 1;  // drop the digit_i smallest free codes
    const int v = std::countr_zero(f);
    b.set(i, unsigned(v));
    free &= ~(1u << v);
  }
  return b;
}

// The permutation of rank permutation_rank(b, n) + 1 (std::next_permutation over
// cells [0, n)); b must not be the last one. A walk over ascending ranks steps with
// this, a few swaps on average, instead of unranking each (n divisions and a
// quadratic digit loop).
[[nodiscard]] constexpr Board next_permutation(Board b, int n) {
  int i = n - 1;  // the descending suffix starts at i
  while (b.at(i - 1) > b.at(i)) --i;
  int j = n - 1;  // the smallest code of the suffix above the one before it
  while (b.at(j) < b.at(i - 1)) --j;
  const unsigned pivot = b.at(i - 1);
  b.set(i - 1, b.at(j));
  b.set(j, pivot);
  for (int lo = i, hi = n - 1; lo < hi; ++lo, --hi) {
    const unsigned x = b.at(lo);
    b.set(lo, b.at(hi));
    b.set(hi, x);
  }
  return b;
}

// Counts of each code 0..15 in a multiset arrangement.
using Counts = std::array<std::uint8_t, 16>;

[[nodiscard]] constexpr std::uint64_t multinomial(const Counts& c) {
  unsigned total = 0;
  std::uint64_t denominator = 1;
  for (auto k : c) {
    total += k;
    denominator *= kFactorial[k];
  }
  return kFactorial[total] / denominator;
}

// Rank of the sequence codes[0..len) among all arrangements of the multiset `counts`.
[[nodiscard]] constexpr std::uint64_t multiset_rank(const std::uint8_t* codes, int len, Counts counts) {
  std::uint64_t r = 0;
  for (int i = 0; i < len; ++i) {
    for (unsigned s = 0; s < codes[i]; ++s) {
      if (counts[s] == 0) continue;
      --counts[s];
      r += multinomial(counts);
      ++counts[s];
    }
    --counts[codes[i]];
  }
  return r;
}

constexpr void multiset_unrank(std::uint64_t r, std::uint8_t* codes, int len, Counts counts) {
  for (int i = 0; i < len; ++i) {
    for (unsigned s = 0; s < counts.size(); ++s) {
      if (counts[s] == 0) continue;
      --counts[s];
      const std::uint64_t block = multinomial(counts);
      if (r < block) {
        codes[i] = std::uint8_t(s);
        break;
      }
      r -= block;
      ++counts[s];
    }
  }
}

}  // namespace statespace
