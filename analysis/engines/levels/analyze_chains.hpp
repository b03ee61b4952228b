// The graded-chain engine in the analyze pipeline (--engine chains): the distribution
// of the reachable positions by chain moves, every position farthest from the start,
// and the goal's distance in chain moves, from graded_chain_layers. It walks single
// applications, so it gives neither the number of chain moves between positions
// (edges) nor the distances to the goal: those are named in
// AnalysisResult::unavailable, never given as numbers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/engines/directed.hpp"
#include "analysis/engines/levels/analyze_levels.hpp"
#include "analysis/engines/levels/graded_chains.hpp"

namespace statespace {

// What summary.json's "lookup" says of this engine: two sorted layers of single
// applications, each position with its chain moves and last landing cells.
inline constexpr std::string_view kGradedChainsLookup = "graded-chain-layers";

template <Puzzle P, GradedChainPacking Packing>
AnalysisResult analyze_graded_chains(const P& p, const AnalyzeOptions& o, const typename P::State& start,
                                     const Packing& k) {
  bool symmetric = false;
  if constexpr (OrbitCountingPuzzle<P>) symmetric = p.symmetries() > 1;
  bool with_goal = false;
  if constexpr (PartialGoalPuzzle<P>) with_goal = p.has_goal();
  std::vector<std::uint64_t> layers, positions, farthest;
  std::uint64_t reached = 0;
  std::optional<unsigned> shortest;
  const auto on_layer = [&](std::size_t, std::span<const ChainEntry> layer) {
    for (const ChainEntry& e : layer) {
      const unsigned f = e.moves();
      if (layers.size() <= f) {
        // A larger count than any before: the farthest positions start again.
        layers.resize(f + 1), positions.resize(f + 1);
        farthest.clear();
      }
      ++layers[f];
      if (f + 1 == layers.size()) farthest.push_back(e.word());
    }
    if constexpr (OrbitCountingPuzzle<P>) {
      if (symmetric) {
        for (const ChainEntry& e : layer) {
          if constexpr (requires { k.orbit_size(e.word()); }) {
            positions[e.moves()] += k.orbit_size(e.word());
          } else {
            positions[e.moves()] += p.orbit_size(k.unpack(e.word()));
          }
        }
      }
    }
    if constexpr (GoalTestingPacking<Packing>) {
      if (!with_goal) return;
      for (const ChainEntry& e : layer) {
        if (!k.is_goal(e.word())) continue;
        ++reached;
        if (!shortest || e.moves() < *shortest) shortest = e.moves();
      }
    }
  };
  std::uint64_t states = 0;
  {
    Progress progress(p.name() + " graded chains", o.progress);
    states = graded_chain_layers(k, k.pack(start), p.name(), o.memory, &progress, on_layer);
  }
  // Gathered layer by layer, so in no order.
  std::sort(farthest.begin(), farthest.end());
  AnalysisResult r;
  r.puzzle = p.name();
  r.start = p.format(start);
  r.engine = engine_name(Engine::chains);
  r.lookup = kGradedChainsLookup;
  r.states = states;
  r.directed = is_directed(p);
  r.layers = layers;
  if (symmetric) r.layer_positions = positions;
  r.symmetry = symmetry_group_of(p);
  r.farthest = detail::format_sorted(p, k, farthest);
  const std::string why =
      "the graded-chain engine walks single applications, two layers at a time; --engine levels gives it";
  r.unavailable.push_back({kViewEdges, why});
  if (with_goal) {
    GoalView& view = r.goal.emplace();
    if constexpr (PartialGoalPuzzle<P>) view.goal = p.goal_text();
    view.reached = reached;
    view.shortest = shortest;
    if (r.directed) {
      const auto views = goal_views_unavailable(why);
      r.unavailable.insert(r.unavailable.end(), views.begin(), views.end());
    }
  }
  return r;
}

}  // namespace statespace
