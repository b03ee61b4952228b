// Hash-set lookups keyed by the state:
// absl::flat_hash_set, open addressing with SIMD probing of one control byte per
// slot (the "Swiss table"), and std::unordered_set, the node-based chained table
// every C++ programmer reaches for first, kept as the common baseline. Both are
// reserved for the expected number of states up front so that the benchmark measures
// lookups, not rehashing.
#pragma once

#include <absl/container/flat_hash_set.h>
#include <absl/hash/hash.h>

#include <algorithm>
#include <cstdint>
#include <unordered_set>

#include "core/lookup_stats.hpp"

namespace statespace {

// Reservations beyond this are left to growth: a hint of "the whole rank space" for
// a huge puzzle must not allocate before the first state is stored.
inline constexpr std::uint64_t kMaxHashReserve = std::uint64_t{1} << 24;

template <class Set, LookupKind K>
class HashSetLookup {
 public:
  static constexpr LookupKind kKind = K;
  using State = typename Set::key_type;

  HashSetLookup() = default;
  explicit HashSetLookup(std::uint64_t expected) { set_.reserve(std::min(expected, kMaxHashReserve)); }

  bool insert(const State& s) {
    ++stats_.lookups;
    return set_.insert(s).second;
  }
  bool contains(const State& s) {
    ++stats_.lookups;
    return set_.find(s) != set_.end();
  }
  [[nodiscard]] std::uint64_t size() const { return set_.size(); }
  [[nodiscard]] LookupStats stats() const { return stats_; }

 private:
  Set set_;
  LookupStats stats_;
};

// Both hash states through absl::Hash (the state's AbslHashValue), so any model's
// state type works; only the tables differ.
template <class State, class Hash = absl::Hash<State>>
using HashedLookup = HashSetLookup<absl::flat_hash_set<State, Hash>, LookupKind::kHashed>;

template <class State, class Hash = absl::Hash<State>>
using StdHashedLookup = HashSetLookup<std::unordered_set<State, Hash>, LookupKind::kStdHashed>;

}  // namespace statespace
