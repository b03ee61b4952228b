// The seed's duplicate check (seed 003: hex1.c, hex3.c, oshidori.c): every stored
// state in one array, a new state compared with each in insertion order. Quadratic,
// kept as the baseline the other strategies are measured against, and instrumented
// exactly like the seed's `count++`: a hit at index i costs i + 1 comparisons, a miss
// costs one per stored state. That is what reproduces the published 7,598,140 and
// 43,454,059.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/lookup_stats.hpp"

namespace statespace {

template <class State>
class LinearLookup {
 public:
  static constexpr LookupKind kKind = LookupKind::kLinear;

  LinearLookup() = default;
  explicit LinearLookup(std::uint64_t expected) { states_.reserve(expected); }

  bool insert(const State& s) {
    if (contains(s)) return false;
    states_.push_back(s);
    return true;
  }
  bool contains(const State& s) {
    ++stats_.lookups;
    const std::size_t i = find(s);
    stats_.comparisons += i < states_.size() ? i + 1 : states_.size();
    return i < states_.size();
  }
  [[nodiscard]] std::uint64_t size() const { return states_.size(); }
  [[nodiscard]] LookupStats stats() const { return stats_; }
  [[nodiscard]] const std::vector<State>& states() const { return states_; }

 private:
  static constexpr std::size_t kBlock = 8;

  // Index of the first stored state equal to s, or size() when none. Tests a block
  // of states with non-short-circuit ORs first, which the compiler turns into a few
  // vector compares; the count of comparisons stays the seed's one-by-one count.
  [[nodiscard]] std::size_t find(const State& s) const {
    const State* d = states_.data();
    const std::size_t n = states_.size();
    std::size_t i = 0;
    for (; i + kBlock <= n; i += kBlock) {
      bool any = false;
      for (std::size_t k = 0; k < kBlock; ++k) any |= d[i + k] == s;
      if (any) break;
    }
    while (i < n && !(d[i] == s)) ++i;
    return i;
  }

  std::vector<State> states_;
  LookupStats stats_;
};

// The seed's sentinel variant (oshidori.c, check_same_state1): the new state is
// written after the stored ones first, so the scan needs no bound check and always
// stops; reaching the sentinel means "new". It costs one more comparison per miss
// than LinearLookup (the sentinel's own), which the counter includes.
template <class State>
class SentinelLookup {
 public:
  static constexpr LookupKind kKind = LookupKind::kLinearSentinel;

  SentinelLookup() = default;
  explicit SentinelLookup(std::uint64_t expected) { states_.reserve(expected + 1); }

  bool insert(const State& s) {
    const bool fresh = scan(s);
    if (!fresh) states_.pop_back();
    return fresh;
  }
  bool contains(const State& s) {
    const bool fresh = scan(s);
    states_.pop_back();
    return !fresh;
  }
  [[nodiscard]] std::uint64_t size() const { return states_.size(); }
  [[nodiscard]] LookupStats stats() const { return stats_; }

 private:
  // Appends s as the sentinel; true when the scan reached it, i.e. s is new.
  bool scan(const State& s) {
    ++stats_.lookups;
    states_.push_back(s);
    const State* d = states_.data();
    std::size_t i = 0;
    while (!(d[i] == s)) ++i;
    stats_.comparisons += i + 1;
    return i + 1 == states_.size();
  }

  std::vector<State> states_;
  LookupStats stats_;
};

}  // namespace statespace
