#include "puzzles/blocks_packing.hpp"

#include <algorithm>

namespace statespace {

std::optional<BlocksPacking> BlocksPacking::make(const Blocks& model) {
  BlocksPacking k;
  k.model_ = model;
  const auto cells = std::size_t(model.cells());
  const std::size_t classes = model.classes().size();
  const std::array<int, 4> step = {-model.cols(), -1, 1, model.cols()};
  k.classes_ = int(classes);
  k.place_.assign(classes * cells, {});
  k.index_.assign(classes * cells, 0);
  int used = 0;
  for (std::size_t c = 0; c < classes; ++c) {
    const auto code = std::uint8_t(c + 1);
    std::uint8_t values = 0;
    for (std::size_t a = 0; a < cells; ++a) {
      if (model.placement(code, int(a))) k.index_[c * cells + a] = values++;
    }
    for (std::size_t a = 0; a < cells; ++a) {
      if (!model.placement(code, int(a))) continue;
      Place& p = k.place_[c * cells + k.index_[c * cells + a]];
      p.cells = model.placement(code, int(a));
      p.anchor = std::uint8_t(a);
      for (std::size_t d = 0; d < 4; ++d) {
        p.entered[d] = model.entered(code, int(a), int(d));
        if (p.entered[d] != Blocks::kBlocked) p.next[d] = k.index_[c * cells + std::size_t(int(a) + step[d])];
      }
    }
    const int bits = std::max(1, int(std::bit_width(unsigned(std::max<int>(values, 1) - 1))));
    const int first = k.n_;
    for (int j = 0; j < model.counts()[c]; ++j) {
      const auto i = std::size_t(k.n_++);
      k.code_[i] = code;
      k.base_[i] = c * cells;
      k.bits_[i] = std::uint8_t(bits);
      k.field_[i] = (std::uint64_t{1} << bits) - 1;
      k.first_[i] = std::uint8_t(first);
      k.last_[i] = std::uint8_t(first + model.counts()[c] - 1);
      used += bits;
    }
  }
  for (std::size_t i = 0; i + 1 < std::size_t(k.n_); ++i)
    k.same_class_next_[i] = k.code_[i] == k.code_[i + 1] ? ~0ULL : 0;
  if (used > 64) return std::nullopt;
  k.used_ = used;
  for (std::size_t i = 0, below = std::size_t(used); i < std::size_t(k.n_); ++i) {
    below -= k.bits_[i];
    k.shift_[i] = std::uint8_t(below);
    for (std::size_t b = below; b < below + k.bits_[i]; ++b) k.piece_of_bit_[b] = std::uint8_t(i);
  }
  const auto field_bits = [&](int i) { return k.field_[std::size_t(i)] << k.shift_[std::size_t(i)]; };
  for (int i = 0; i < k.n_; ++i) {
    k.row_[std::size_t(i)] = std::uint16_t(k.rank_change_.size());
    for (int t = k.first_[std::size_t(i)]; t <= k.last_[std::size_t(i)]; ++t) {
      RankChange c;
      for (int j = std::min(i, t); j <= std::max(i, t); ++j) c.span |= field_bits(j);
      c.moving = c.span & ~field_bits(t);
      // Fields move toward lower bits (right) when the rank is earlier.
      c.rotate = t < i ? -k.bits_[std::size_t(i)] : k.bits_[std::size_t(i)];
      k.rank_change_.push_back(c);
    }
  }
  return k;
}

std::uint64_t BlocksPacking::pack(const Blocks::State& s) const {
  std::array<Blocks::Piece, Blocks::kMaxCells> pieces;
  const int n = model_.decompose(s, pieces.data());
  // Reading order is ascending anchors, so a stable sort by class leaves each class's
  // anchors ascending.
  std::stable_sort(pieces.begin(), pieces.begin() + n, [](const auto& a, const auto& b) { return a.first < b.first; });
  std::uint64_t w = 0;
  for (std::size_t i = 0; i < std::size_t(n); ++i) {
    const auto [code, anchor] = pieces[i];
    w |= std::uint64_t{index_[std::size_t(code - 1) * std::size_t(model_.cells()) + anchor]} << shift_[i];
  }
  return w;
}

Blocks::State BlocksPacking::unpack(std::uint64_t w) const {
  Blocks::State s = model_.empty_board();
  for (std::size_t i = 0; i < std::size_t(n_); ++i) {
    for (Mask m = place_[base_[i] + (w >> shift_[i] & field_[i])].cells; m; m &= m - 1) {
      s.cell[std::size_t(std::countr_zero(m))] = code_[i];
    }
  }
  return s;
}

}  // namespace statespace
