// A position as up to N cells of one byte each, for models whose positions do not fit
// a Board's sixteen four-bit cells (puzzle files: 20-cell Klotski, a cube's 24
// stickers, 36-cell Rush Hour). Unused cells stay 0, so equal positions are equal
// arrays; ordering is lexicographic by cell, the canonical order of reports for
// models without a rank.
#pragma once

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace statespace {

template <std::size_t N>
struct ByteCells {
  static constexpr std::size_t kMaxCells = N;
  std::array<std::uint8_t, N> cell{};

  friend constexpr bool operator==(const ByteCells&, const ByteCells&) = default;
  friend constexpr auto operator<=>(const ByteCells&, const ByteCells&) = default;
  template <class H>
  friend H AbslHashValue(H h, const ByteCells& c) {
    return H::combine_contiguous(std::move(h), c.cell.data(), N);
  }
};

}  // namespace statespace
