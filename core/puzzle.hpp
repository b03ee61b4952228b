// The one seam between puzzle models and engines. Every engine (explicit graph,
// lookups, solvers, the implicit ranked BFS) is a template over this concept, so
// successor generation and ranking inline into the hot loops: no virtual calls.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace statespace {

template <class P>
concept Puzzle = requires(const P& p, const typename P::State& s, std::uint64_t r, std::string_view text) {
  typename P::State;
  requires std::regular<typename P::State>;
  { P::kMaxMoves } -> std::convertible_to<int>;
  { p.name() } -> std::convertible_to<std::string>;
  { p.goal() } -> std::same_as<typename P::State>;
  { p.rank_space() } -> std::same_as<std::uint64_t>;
  { p.rank(s) } -> std::same_as<std::uint64_t>;
  { p.unrank(r) } -> std::same_as<typename P::State>;
  { p.format(s) } -> std::same_as<std::string>;
  { p.parse(text) } -> std::same_as<typename P::State>;
  { p.row_lengths() } -> std::same_as<std::vector<int>>;
  p.for_each_successor(s, [](const typename P::State&) {});
};

}  // namespace statespace
