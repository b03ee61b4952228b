// A shortest solution by chain moves (peg solitaire's multi-jumps) on a packing whose
// chain moves are runs of graded single applications (graded_chains.hpp). The search
// keeps every layer, each position with its fewest chain moves f and the cells M its
// last applications landed on; the goal position of least f is then walked back to
// the start one application at a time: from (q, cells L, cost t), a predecessor p and
// an application p -> q by the piece on c' landing in L whose cost from p is t. If c'
// is in M(p) the same piece went on, and p is next sought with L = {c'} and t = f(p);
// otherwise a chain began there, and p is sought with L = M(p) and t = f(p) = t - 1.
// Such a predecessor always exists because f and M are exact, so the path has f
// chain moves, and the search proved that no path has fewer.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "analysis/engines/levels/graded_chains.hpp"
#include "analysis/solvers/solve.hpp"

namespace statespace {

// The solution from `start` to the nearest position whose word satisfies
// is_goal_word, in chain moves: each state of the path ends one chain (the start
// first). An empty path when no goal is reachable. `stored` counts the positions kept.
template <Puzzle P, GradedChainPacking Packing, class IsGoal>
Solution<P> solve_graded_chains(const P& p, const Packing& k, const typename P::State& start, IsGoal&& is_goal_word,
                                const MemoryBudget& budget, Progress* progress = nullptr) {
  std::vector<std::vector<ChainEntry>> kept;
  std::uint64_t kept_bytes = 0;
  // The search's own arrays get what the kept layers leave of the budget.
  MemoryBudget left = budget;
  Solution<P> sol;
  sol.stored = graded_chain_layers(
      k, k.pack(start), p.name(), left, progress, [&](std::size_t, std::span<const ChainEntry> layer) {
        kept_bytes += layer.size() * sizeof(ChainEntry);
        budget.require(kept_bytes, p.name() + ": graded chain layers kept for the solution");
        left = MemoryBudget(budget.bytes() - kept_bytes);
        kept.emplace_back(layer.begin(), layer.end());
      });
  // The goal of fewest chain moves; the first such in layer and word order.
  std::optional<std::pair<std::size_t, ChainEntry>> goal;
  for (std::size_t d = 0; d < kept.size(); ++d) {
    for (const ChainEntry& e : kept[d]) {
      if ((!goal || e.moves() < goal->second.moves()) && is_goal_word(e.word())) goal = {d, e};
    }
  }
  if (!goal) return sol;
  auto [depth, at] = *goal;
  std::uint64_t cells = at.landed;
  unsigned cost = at.moves();
  std::vector<std::uint64_t> steps{at.word()};
  std::vector<char> begins;  // begins[i]: the application into steps[i] began a chain (read backwards)
  std::vector<std::uint64_t> before(std::size_t(std::max(1, k.steps())));
  while (depth > 0) {
    const std::vector<ChainEntry>& layer = kept[depth - 1];
    const int n = k.step_predecessors(at.word(), before.data());
    bool found = false;
    for (int i = 0; i < n && !found; ++i) {
      const std::uint64_t w = before[std::size_t(i)];
      const auto it = std::lower_bound(layer.begin(), layer.end(), w << ChainEntry::kCountBits,
                                       [](const ChainEntry& e, std::uint64_t key) { return e.key < key; });
      if (it == layer.end() || it->word() != w) continue;
      const ChainEntry from = *it;
      k.for_each_step(w, [&](std::uint64_t to, std::uint8_t mover, std::uint64_t landed) {
        if (found || to != at.word() || (landed & cells) == 0 || detail::chain_cost(from, mover) != cost) return;
        found = true;
        const bool goes_on = cost == from.moves();
        begins.push_back(!goes_on);
        cells = goes_on ? std::uint64_t{1} << mover : from.landed;
        cost = from.moves();
        at = from;
      });
    }
    if (!found) throw std::logic_error(p.name() + ": a graded chain layer has no predecessor for its count");
    steps.push_back(at.word());
    --depth;
  }
  std::reverse(steps.begin(), steps.end());
  std::reverse(begins.begin(), begins.end());
  // A chain ends where the next one begins, and at the goal.
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (i == 0 || i + 1 == steps.size() || begins[i]) sol.path.push_back(k.unpack(steps[i]));
  }
  sol.path = real_path(p, std::move(sol.path));
  return sol;
}

// The shortest solution by chain moves from `start` to `goal`, or to any goal
// position when `partial`, when p's chain moves are runs of graded single
// applications and its packing tests the goal on words; nothing otherwise. A
// breadth-first search by chains would settle nearly every position, with up to
// hundreds of chain successors each; these layers give the same length.
template <Puzzle P>
std::optional<Solution<P>> solve_by_graded_chains(const P& p, const typename P::State& start,
                                                  const typename P::State& goal, bool partial,
                                                  const MemoryBudget& budget, Progress* progress) {
  if constexpr (WordPackedPuzzle<P>) {
    if constexpr (GradedChainPacking<typename P::Packing> && GoalTestingPacking<typename P::Packing>) {
      const auto k = p.packing(start);
      if (!k || !k->chain_graded()) return std::nullopt;
      const auto target = k->pack(goal);
      return solve_graded_chains(
          p, *k, start, [&](std::uint64_t w) { return partial ? k->is_goal(w) : w == target; }, budget, progress);
    }
  }
  return std::nullopt;
}

}  // namespace statespace
