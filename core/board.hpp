// A position as up to 16 cells of 4 bits each: cell i lives in bits [4i, 4i+4).
// Every model stores its pieces as small codes with 0 for the blank, so one 8-byte
// value serves them all and copying, comparing and hashing are single-word operations.
#pragma once

#include <bit>
#include <cstdint>
#include <utility>

namespace statespace {

struct Board {
  static constexpr int kMaxCells = 16;
  std::uint64_t bits = 0;

  [[nodiscard]] constexpr unsigned at(int i) const { return unsigned(bits >> (4 * i)) & 0xFu; }
  constexpr void set(int i, unsigned code) {
    bits = (bits & ~(std::uint64_t{0xF} << (4 * i))) | (std::uint64_t{code} << (4 * i));
  }
  // Moves the piece in `from` into the blank `to` (and leaves `from` blank).
  [[nodiscard]] constexpr Board slid(int from, int to) const {
    Board b = *this;
    b.set(to, at(from));
    b.set(from, 0);
    return b;
  }
  friend constexpr bool operator==(Board, Board) = default;
  friend constexpr auto operator<=>(Board, Board) = default;
  // Packed boards differ in few bits; absl::Hash mixes the word before bucketing.
  template <class H>
  friend H AbslHashValue(H h, Board b) {
    return H::combine(std::move(h), b.bits);
  }
};
static_assert(sizeof(Board) == 8);

// Index of the first blank among the first n cells, or n when there is none.
// Branch-free: a nibble is zero iff none of its four bits is set.
[[nodiscard]] constexpr int find_blank(Board b, int n) {
  std::uint64_t x = b.bits;
  x |= x >> 1;
  x |= x >> 2;
  std::uint64_t zero = ~x & 0x1111111111111111ULL;
  if (n < 16) zero &= (std::uint64_t{1} << (4 * n)) - 1;
  return zero ? std::countr_zero(zero) / 4 : n;
}

}  // namespace statespace
