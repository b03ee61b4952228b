// The models the whole-space tests run on, taken from the registry so that a new
// model is covered by adding its row there.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "puzzles/registry.hpp"

namespace statespace::testing {

// Wraps a visitor of small_models() for std::visit: small_models() holds ranked
// models only, so the unranked alternatives (puzzle files) need no instantiation.
template <class F>
auto ranked_only(F f) {
  return [f](const auto& p) {
    if constexpr (RankedPuzzle<std::decay_t<decltype(p)>>) f(p);
  };
}

// Every model `statespace list` shows whose rank space is at most `max_positions`,
// plus two sizes the list does not show (an odd oshidori, a 2x4 board).
// std::visit for tests over ranked models: other alternatives are skipped.
template <class F>
void visit_ranked(F&& f, const AnyPuzzle& any) {
  std::visit(
      [&](const auto& p) {
        if constexpr (RankedPuzzle<std::decay_t<decltype(p)>>) f(p);
      },
      any);
}

inline std::vector<AnyPuzzle> small_models(std::uint64_t max_positions = 400'000) {
  std::vector<AnyPuzzle> out;
  for (const auto& name : listed_puzzles()) {
    AnyPuzzle p = make_puzzle(name);
    const bool small = std::visit(
        [&](const auto& m) {
          if constexpr (RankedPuzzle<std::decay_t<decltype(m)>>) return m.rank_space() <= max_positions;
          return false;
        },
        p);
    if (small) out.push_back(std::move(p));
  }
  for (const char* name : {"oshidori:5", "tiles:2x4"}) out.push_back(make_puzzle(name));
  return out;
}

}  // namespace statespace::testing
