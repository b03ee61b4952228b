// The interface every visited-set strategy meets (linear, linear-sentinel, hashed,
// std-hashed, ranked), so that one enumerator or solver, a template over it, runs
// unchanged with each and the benchmark compares them on the same sequence of
// lookups. A strategy counts its own work: lookups always, state comparisons when
// comparing is what it does (the linear scans of seed 003).
#pragma once

#include <concepts>
#include <cstdint>
#include <string_view>

namespace statespace {

enum class LookupKind : std::uint8_t { kLinear, kLinearSentinel, kHashed, kStdHashed, kRanked };

struct LookupStats {
  std::uint64_t lookups = 0;      // insert() and contains() calls
  std::uint64_t comparisons = 0;  // state == state tests; 0 for strategies that do not scan
  friend bool operator==(const LookupStats&, const LookupStats&) = default;
};

// insert(s) stores s and returns true when it was not there yet; contains(s) only
// looks. Both count as lookups, so neither is const.
template <class L, class State>
concept Lookup = requires(L& l, const L& cl, const State& s) {
  { l.insert(s) } -> std::same_as<bool>;
  { l.contains(s) } -> std::same_as<bool>;
  { cl.size() } -> std::same_as<std::uint64_t>;
  { cl.stats() } -> std::same_as<LookupStats>;
  { L::kKind } -> std::convertible_to<LookupKind>;
};

}  // namespace statespace
