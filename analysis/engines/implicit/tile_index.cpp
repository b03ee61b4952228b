#include "analysis/engines/implicit/tile_index.hpp"

#include <string>

#include "core/errors.hpp"

namespace statespace {

TileIndex::TileIndex(int rows, int cols)
    : rows_(rows), cols_(cols), n_(rows * cols), m_(rows * cols - 1), vertical_flips_(unsigned(cols - 1) & 1u) {
  if (rows < 2 || cols < 2 || n_ > Board::kMaxCells) {
    throw ParseError("tiles:" + std::to_string(rows) + "x" + std::to_string(cols) +
                     ": unsupported board (expected tiles:RxC with 2 <= R, C and R*C <= 16)");
  }
  for (int i = 0; i + 1 < m_; ++i) radix_[i] = FastDivisor(std::uint64_t(m_ - i));
  for (int i = 0; i < m_; ++i) weight_[i] = kFactorial[m_ - 1 - i];
  const int c = cols_;
  windows_ = std::size_t(m_ - c + 1);
  window_stride_ = window_stride(c);
  window_.assign(2 * windows_ * window_stride_, 0);
  for (std::size_t s = 0; s < windows_; ++s) {
    const std::uint64_t* w = weight_.data() + s;  // w[j]: the weight of window position j
    // Up: x at position 0 moves to c-1; item j >= 1 moves to j-1, its digit grows by
    // [x < item j]; x's digit drops by the number of smaller items it passes.
    std::uint64_t* up = window_.data() + s * window_stride_;
    up[0] = w[c - 1] - w[0];
    for (int j = 1; j < c; ++j) up[j] = w[j - 1] - w[j];
    // Down: x at position c-1 moves to 0; item j < c-1 moves to j+1, its digit
    // drops by [x < item j]; x's digit grows by the number of smaller items it passes.
    std::uint64_t* down = window_.data() + (windows_ + s) * window_stride_;
    for (int j = 0; j + 1 < c; ++j) down[j] = w[j + 1] - w[j];
    down[c - 1] = w[0] - w[c - 1];
    for (unsigned above = 0; above < (1u << (c - 1)); ++above) {
      std::uint64_t u = 0, d = 0;
      for (int j = 0; j + 1 < c; ++j) {
        if (above & (1u << j)) {
          u += w[j];      // item j + 1 > x: its digit grows at its new place j
          d -= w[j + 1];  // item j > x: its digit drops at its new place j + 1
        } else {
          u -= w[c - 1];  // x passes a smaller item
          d += w[0];
        }
      }
      up[kMaxWindow + above] = u;
      down[kMaxWindow + above] = d;
    }
  }
}

TileSequence TileIndex::sequence_of(Board b) const {
  TileSequence s;
  for (int c = 0, i = 0; c < n_; ++c) {
    if (b.at(c) != 0) s.item[i++] = std::uint8_t(b.at(c) - 1);
  }
  std::uint32_t used = 0;
  for (int i = 0; i < m_; ++i) {
    const unsigned v = s.item[i];
    const auto smaller_used = unsigned(std::popcount(used & ((1u << v) - 1)));
    s.digit[i] = std::uint8_t(v - smaller_used);  // unused smaller items all come later
    used |= 1u << v;
  }
  s.lex = lex_rank(s);
  return s;
}

Board TileIndex::board_of(const TileSequence& s, int blank) const {
  Board b;
  for (int c = 0, i = 0; c < n_; ++c) {
    if (c != blank) b.set(c, unsigned(s.item[i++]) + 1);
  }
  return b;
}

std::uint64_t TileIndex::lex_rank(const TileSequence& s) const {
  std::uint32_t used = 0;
  std::uint64_t r = 0;
  for (int i = 0; i < m_; ++i) {
    const unsigned v = s.item[i];
    r = r * std::uint64_t(m_ - i) + (v - unsigned(std::popcount(used & ((1u << v) - 1))));
    used |= 1u << v;
  }
  return r;
}

TileSequence TileIndex::sequence_at(std::uint64_t lex) const {
  TileSequence s;
  s.lex = lex;
  // Least significant digit last: digit[m-1] has radix 1 and is always 0.
  for (int i = m_ - 2; i > 0; --i) {
    const std::uint64_t q = radix_[i].quotient(lex);
    s.digit[i] = std::uint8_t(lex - q * radix_[i].divisor());
    lex = q;
  }
  s.digit[0] = std::uint8_t(lex);
  // The items not yet placed, ascending, one per nibble: item i is the digit[i]-th.
  std::uint64_t avail = 0xFEDCBA9876543210ULL;
  for (int i = 0; i < m_; ++i) {
    const unsigned shift = 4u * s.digit[i];
    s.item[i] = std::uint8_t((avail >> shift) & 0xF);
    const std::uint64_t low = avail & ((std::uint64_t{1} << shift) - 1);
    avail = low | ((avail >> shift >> 4) << shift);
  }
  return s;
}

std::uint64_t TileIndex::rank(Board b) const {
  return sequence_of(b).lex * std::uint64_t(n_) + std::uint64_t(find_blank(b, n_));
}

Board TileIndex::unrank(std::uint64_t index) const {
  return board_of(sequence_at(index / std::uint64_t(n_)), int(index % std::uint64_t(n_)));
}

namespace {

unsigned digit_parity(const TileSequence& s, int m) {
  unsigned sum = 0;
  for (int i = 0; i < m; ++i) sum += s.digit[i];  // the Lehmer digits count the inversions
  return sum & 1u;
}

}  // namespace

unsigned TileIndex::class_of(Board b) const {
  const int blank = find_blank(b, n_);
  return digit_parity(sequence_of(b), m_) ^ (vertical_flips_ & unsigned(blank / cols_));
}

std::uint64_t TileIndex::class_rank(Board b) const {
  return (sequence_of(b).lex >> 1) * std::uint64_t(n_) + std::uint64_t(find_blank(b, n_));
}

Board TileIndex::class_unrank(std::uint64_t index, unsigned cls) const {
  const int blank = int(index % std::uint64_t(n_));
  const std::uint64_t even = (index / std::uint64_t(n_)) << 1;
  TileSequence s = sequence_at(even);
  if (digit_parity(s, m_) != parity_for(cls, blank)) s = sequence_at(even + 1);
  return board_of(s, blank);
}

}  // namespace statespace
