// A position as up to N cells of one byte each, for models whose positions do not fit
// a Board's sixteen four-bit cells (puzzle files: 20-cell Klotski, a cube's 24
// stickers, 36-cell Rush Hour). Unused cells stay 0, so equal positions are equal
// arrays; ordering is lexicographic by cell, the canonical order of reports for
// models without a rank.
#pragma once

#include <array>
#include <bit>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

namespace statespace {

// Comparisons and the hash read the cells eight at a time when N allows: hash sets
// and sorts of these states otherwise spend their time in memcmp and absl's
// out-of-line byte hash (half of a Klotski analysis). A big-endian load keeps the
// order lexicographic by cell.
template <std::size_t N>
struct ByteCells {
  static constexpr std::size_t kMaxCells = N;
  std::array<std::uint8_t, N> cell{};

  friend constexpr bool operator==(const ByteCells& a, const ByteCells& b) {
    if constexpr (kWords) {
      if (!std::is_constant_evaluated()) {
        for (std::size_t i = 0; i < N / 8; ++i) {
          if (a.word(i) != b.word(i)) return false;
        }
        return true;
      }
    }
    return a.cell == b.cell;
  }
  friend constexpr std::strong_ordering operator<=>(const ByteCells& a, const ByteCells& b) {
    if constexpr (kWords) {
      if (!std::is_constant_evaluated()) {
        for (std::size_t i = 0; i < N / 8; ++i) {
          const std::uint64_t x = a.word(i), y = b.word(i);
          if (x != y) return __builtin_bswap64(x) <=> __builtin_bswap64(y);
        }
        return std::strong_ordering::equal;
      }
    }
    return a.cell <=> b.cell;
  }
  template <class H>
  friend H AbslHashValue(H h, const ByteCells& c) {
    if constexpr (kWords) {
      for (std::size_t i = 0; i < N / 8; ++i) h = H::combine(std::move(h), c.word(i));
      return h;
    } else {
      return H::combine_contiguous(std::move(h), c.cell.data(), N);
    }
  }

 private:
  static constexpr bool kWords = N % 8 == 0 && std::endian::native == std::endian::little;
  [[nodiscard]] std::uint64_t word(std::size_t i) const {
    std::uint64_t w;
    std::memcpy(&w, cell.data() + 8 * i, 8);
    return w;
  }
};

}  // namespace statespace
