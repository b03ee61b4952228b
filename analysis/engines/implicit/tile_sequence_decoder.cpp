#include "analysis/engines/implicit/tile_sequence_decoder.hpp"

#include <algorithm>

namespace statespace {

TileSuffixTable::TileSuffixTable(const TileIndex& index)
    : k_(std::min(index.tiles(), kSuffix)), block_(kFactorial[k_] < 2 ? 2 : kFactorial[k_]), entries_(kFactorial[k_]) {
  for (std::uint64_t lo = 0; lo < entries_.size(); ++lo) {
    Entry& e = entries_[lo];
    e.relative.fill(0);
    e.digit.fill(0);
    std::uint64_t rest = lo;
    for (int j = k_ - 1; j >= 0; --j) {
      const std::uint64_t radix = std::uint64_t(k_ - j);
      e.digit[j] = std::uint8_t(rest % radix);
      rest /= radix;
    }
    // The relative tile at position j is the digit[j]-th of those not yet placed.
    unsigned placed = 0;
    for (int j = 0; j < k_; ++j) {
      unsigned skip = e.digit[j], r = 0;
      for (;; ++r) {
        if (placed & (1u << r)) continue;
        if (skip-- == 0) break;
      }
      e.relative[j] = std::uint8_t(r);
      placed |= 1u << r;
    }
  }
}

}  // namespace statespace
