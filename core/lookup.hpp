// The visited-set strategies by name, for the CLI (--lookup), the tests and the
// benchmark: one table of names, and with_lookup(), which turns a run-time name into
// a compile-time type and calls a generic function with a fresh set of that type.
// Engines stay templates over the Lookup concept; only this switch knows them all
// (the registry's std::visit, for lookups).
//
//   linear           seed 003's array scan, counting comparisons (lookup_linear.hpp)
//   linear-sentinel  the same with the seed's sentinel (lookup_linear.hpp)
//   hashed           absl::flat_hash_set of packed states (lookup_hashed.hpp)
//   std-hashed       std::unordered_set of packed states (lookup_hashed.hpp)
//   ranked           one bit per rank of the model's perfect hash (lookup_ranked.hpp)
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "core/errors.hpp"
#include "core/lookup_hashed.hpp"
#include "core/lookup_linear.hpp"
#include "core/lookup_ranked.hpp"
#include "core/lookup_stats.hpp"
#include "core/puzzle.hpp"

namespace statespace {

inline constexpr std::array<LookupKind, 5> kLookupKinds = {
    LookupKind::kLinear, LookupKind::kLinearSentinel, LookupKind::kHashed, LookupKind::kStdHashed, LookupKind::kRanked};

[[nodiscard]] constexpr std::string_view lookup_name(LookupKind kind) {
  constexpr std::array<std::string_view, kLookupKinds.size()> kNames = {"linear", "linear-sentinel", "hashed",
                                                                        "std-hashed", "ranked"};
  return kNames[std::size_t(kind)];
}

// "linear|linear-sentinel|hashed|std-hashed|ranked", for help texts and errors.
[[nodiscard]] inline std::string lookup_names(std::string_view separator = "|") {
  std::string out;
  for (const auto kind : kLookupKinds) {
    if (!out.empty()) out += separator;
    out += lookup_name(kind);
  }
  return out;
}

[[nodiscard]] inline LookupKind parse_lookup(std::string_view name) {
  for (const auto kind : kLookupKinds) {
    if (lookup_name(kind) == name) return kind;
  }
  throw ParseError("unknown lookup '" + std::string(name) + "' (expected one of: " + lookup_names(", ") + ")");
}

// Whether the strategy counts state comparisons (the seed's linear scans).
[[nodiscard]] constexpr bool counts_comparisons(LookupKind kind) {
  return kind == LookupKind::kLinear || kind == LookupKind::kLinearSentinel;
}

// The most state comparisons a linear scan makes while `states` distinct states go
// in, each compared with every one before it: states * (states - 1) / 2, saturating.
[[nodiscard]] constexpr std::uint64_t linear_comparisons_bound(std::uint64_t states) {
  if (states > (std::uint64_t{1} << 32)) return ~std::uint64_t{0};
  return states * (states > 0 ? states - 1 : 0) / 2;
}

// Bytes a strategy needs to hold `states` states of puzzle p, for a memory check
// before the run. Hash tables: absl keeps a power-of-two slot array at most 7/8
// full with one control byte per slot; std::unordered_set one heap node (next
// pointer, key, cached hash, allocator rounding: 32 bytes) plus one bucket pointer
// per state.
template <Puzzle P>
[[nodiscard]] std::uint64_t lookup_bytes(LookupKind kind, const P& p, std::uint64_t states) {
  constexpr std::uint64_t kState = sizeof(typename P::State);
  switch (kind) {
    case LookupKind::kLinear:
    case LookupKind::kLinearSentinel:
      return (states + 1) * kState;
    case LookupKind::kHashed:
      return std::bit_ceil(states + states / 7 + 1) * (kState + 1);
    case LookupKind::kStdHashed:
      return states * (32 + 8);
    case LookupKind::kRanked:
      if constexpr (RankedPuzzle<P>) return RankedLookup<P>::bytes_for(p);
      break;
  }
  return 0;
}

// The strategy a model gets when none is asked for: the rank bitset where there is a
// perfect hash, absl's hash set otherwise.
template <Puzzle P>
[[nodiscard]] constexpr LookupKind default_lookup() {
  return RankedPuzzle<P> ? LookupKind::kRanked : LookupKind::kHashed;
}

// Calls fn(set) with a fresh, empty visited set of the named strategy for p's states
// and returns what fn returns. `expected` (states) sizes the array or hash table up
// front; the ranked set is always rank_space bits.
template <Puzzle P, class F>
decltype(auto) with_lookup(LookupKind kind, const P& p, F&& fn, std::uint64_t expected = 0) {
  using State = typename P::State;
  switch (kind) {
    case LookupKind::kLinear: {
      LinearLookup<State> set(expected);
      return fn(set);
    }
    case LookupKind::kLinearSentinel: {
      SentinelLookup<State> set(expected);
      return fn(set);
    }
    case LookupKind::kHashed: {
      HashedLookup<State> set(expected);
      return fn(set);
    }
    case LookupKind::kStdHashed: {
      StdHashedLookup<State> set(expected);
      return fn(set);
    }
    case LookupKind::kRanked:
      break;
  }
  if constexpr (RankedPuzzle<P>) {
    RankedLookup<P> set(p);
    return fn(set);
  } else {
    throw UsageError(p.name() + ": --lookup ranked needs a perfect hash, which this puzzle has not (use hashed)");
  }
}

template <Puzzle P, class F>
decltype(auto) with_lookup(std::string_view name, const P& p, F&& fn, std::uint64_t expected = 0) {
  return with_lookup(parse_lookup(name), p, std::forward<F>(fn), expected);
}

}  // namespace statespace
