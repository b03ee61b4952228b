// A ranked model seen as a word-packed one: the word of a position is its rank, and
// a word's successors are unrank, for_each_successor, rank. It puts the sorted-levels
// engine (analysis/engines/levels/sorted_levels.hpp) on the same model and the same
// successor cost as the ranked engine, so the two differ only in how they drop
// revisits (sorting and merging levels against testing bitsets): the tests compare
// their numbers, and the benchmark their speed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/puzzle.hpp"

namespace statespace {

template <RankedPuzzle P>
class RankPacked {
 public:
  using State = typename P::State;

  class Packing {
   public:
    explicit Packing(const P& p) : p_(&p) {}
    [[nodiscard]] std::uint64_t pack(const State& s) const { return p_->rank(s); }
    [[nodiscard]] State unpack(std::uint64_t w) const { return p_->unrank(w); }
    [[nodiscard]] int moves() const { return p_->max_moves(); }
    int successors(std::uint64_t w, std::uint64_t* out) const {
      int n = 0;
      if constexpr (RankSuccessorPuzzle<P>) {
        p_->for_each_successor_rank(w, [&](std::uint64_t t) { out[n++] = t; });
      } else {
        p_->for_each_successor(p_->unrank(w), [&](const State& t) { out[n++] = p_->rank(t); });
      }
      return n;
    }

   private:
    const P* p_;
  };

  explicit RankPacked(const P& p) : p_(p) {}

  [[nodiscard]] int max_moves() const { return p_.max_moves(); }
  [[nodiscard]] std::string name() const { return p_.name(); }
  [[nodiscard]] State goal() const { return p_.goal(); }
  [[nodiscard]] std::string format(const State& s) const { return p_.format(s); }
  [[nodiscard]] State parse(std::string_view text) const { return p_.parse(text); }
  [[nodiscard]] std::vector<int> row_lengths() const { return p_.row_lengths(); }
  template <class F>
  void for_each_successor(const State& s, F&& f) const {
    p_.for_each_successor(s, f);
  }
  [[nodiscard]] std::optional<Packing> packing(const State&) const { return Packing(p_); }

 private:
  const P& p_;
};

}  // namespace statespace
