// The ranked lookup: a model's rank is a perfect hash onto [0, rank_space), so the
// visited set is one bit per rank (RankBitset). No probing, no stored keys, and
// rank order is canonical order, so the set doubles as the sorted list of members.
// It costs rank_space / 8 bytes whatever the number of states stored.
#pragma once

#include <cstdint>

#include "core/lookup_stats.hpp"
#include "core/puzzle.hpp"
#include "core/rank_bitset.hpp"

namespace statespace {

template <RankedPuzzle P>
class RankedLookup {
 public:
  static constexpr LookupKind kKind = LookupKind::kRanked;
  using State = typename P::State;

  explicit RankedLookup(const P& p) : p_(&p), bits_(p.rank_space()) {}

  bool insert(const State& s) {
    ++stats_.lookups;
    const bool fresh = bits_.insert(p_->rank(s));
    size_ += fresh;
    return fresh;
  }
  bool contains(const State& s) {
    ++stats_.lookups;
    return bits_.test(p_->rank(s));
  }
  [[nodiscard]] std::uint64_t size() const { return size_; }
  [[nodiscard]] LookupStats stats() const { return stats_; }
  [[nodiscard]] RankBitset& bits() { return bits_; }

  // Bytes for a puzzle's bitset (unsealed), for a memory check before constructing.
  [[nodiscard]] static std::uint64_t bytes_for(const P& p) { return (p.rank_space() + 63) / 64 * 8; }

 private:
  const P* p_;
  RankBitset bits_;
  std::uint64_t size_ = 0;
  LookupStats stats_;
};

}  // namespace statespace
