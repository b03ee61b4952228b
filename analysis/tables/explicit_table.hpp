// Distance tables of the explicit engine (analyze --table on a space it enumerated):
// a breadth-first search from every goal position over the space's vertices, along
// the moves on an undirected space and the predecessors on a directed one, written
// in the format the other engines write for the same model, so that a reader cannot
// tell the engines apart: the model's rank (ranked models), else the sorted 64-bit
// words of the sorted-levels engine. A model with neither has no table index. It
// lives beside the other tables' code, not in the explicit engine's folder: it
// writes the ranked and levels engines' formats.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "analysis/engines/directed.hpp"
#include "analysis/engines/explicit/analyze_explicit.hpp"
#include "analysis/engines/explicit/explicit_space.hpp"
#include "analysis/engines/explicit/goal_view.hpp"
#include "analysis/engines/explicit/successor_vertices.hpp"
#include "analysis/engines/levels/analyze_levels.hpp"
#include "analysis/engines/ranked/ranked_checkpoint.hpp"
#include "analysis/runtime/goal_table.hpp"
#include "analysis/runtime/progress.hpp"
#include "core/puzzle.hpp"

namespace statespace {

// Whether the explicit engine can index p's table from `start`: by rank, or by the
// 64-bit words p packs into.
template <Puzzle P>
bool explicit_table_indexable(const P& p, const typename P::State& start) {
  if constexpr (RankedPuzzle<P>) return true;
  if constexpr (WordPackedPuzzle<P>) return p.packing(start).has_value();
  (void)p, (void)start;
  return false;
}

// The table of `space` (the positions reached from `start`); for_each_neighbour(u, f)
// calls f(w) for each vertex w one move from u (the caller's graph or successors).
// Directed spaces search by the model's predecessors within the space instead.
template <Puzzle P, class Neighbours>
std::shared_ptr<GoalTable> explicit_goal_table(const P& p, const ExplicitSpace<P>& space,
                                               const typename P::State& start, const Neighbours& for_each_neighbour) {
  const bool directed = is_directed(p);
  GoalTableHeader h;
  h.puzzle = p.name();
  h.goal = p.format(p.goal());
  bool partial = false;
  if constexpr (PartialGoalPuzzle<P>) {
    partial = p.has_goal();
    if (partial) h.goal = p.goal_text();
  }
  auto goal = p.goal();
  if constexpr (requires { p.canonical(goal); }) goal = p.canonical(goal);
  const auto is_goal = [&](const typename P::State& s) {
    if constexpr (PartialGoalPuzzle<P>) {
      if (partial) return p.is_goal(s);
    }
    return s == goal;
  };
  GoalView view;
  std::vector<Distance> dist;
  if (directed) {
    if constexpr (ReversiblePuzzle<P>) {
      dist = detail::search_from_goals(
          p, space, is_goal,
          [&](Vertex u, const auto& f) {
            p.for_each_predecessor(space.state(u), [&](const typename P::State& t) {
              if (space.contains(t)) f(space.vertex_of(t));
            });
          },
          view);
    } else {
      throw std::logic_error(p.name() + ": a table of a directed space needs the model's predecessors");
    }
  } else {
    dist = detail::search_from_goals(p, space, is_goal, for_each_neighbour, view);
  }
  // Two bits a rank on an undirected ranked space; byte codes otherwise (words
  // tables always), which hold distances up to kByteMostDistance.
  bool two_bits = false;
  if constexpr (RankedPuzzle<P>) two_bits = !directed;
  if (!two_bits && view.layers.size() > kByteMostDistance + 1) {
    throw std::runtime_error(p.name() + ": --table: distances past " + std::to_string(kByteMostDistance) +
                             " do not fit the table's byte codes");
  }
  h.directed = directed;
  h.reached = space.vertices();
  h.layers = view.layers;
  std::uint64_t with_distance = 0;
  for (const auto n : h.layers) with_distance += n;
  h.dead = h.reached - with_distance;
  // 0: no entry (an undirected space's positions the goals never meet).
  const auto code_of = [&](Distance d) -> unsigned {
    if (d == kUnreached) return directed ? kByteDead : 0;
    return two_bits ? d % 3 + 1 : kByteFirstDistance + d;
  };
  if constexpr (RankedPuzzle<P>) {
    h.identity = ranked_identity(p);
    h.index = "rank";
    h.encoding = directed ? TableEncoding::byte : TableEncoding::two_bits;
    h.entries = p.rank_space();
    auto table = std::make_shared<GoalTable>(std::move(h));
    for (Vertex v = 0; v < space.vertices(); ++v) {
      if (const unsigned c = code_of(dist[v])) table->set(p.rank(space.state(v)), c);
    }
    return table;
  } else if constexpr (WordPackedPuzzle<P>) {
    const auto packing = p.packing(start);
    if (!packing) throw std::logic_error(p.name() + ": a words table needs positions of 64 bits");
    // Words with their codes: the reached ones on a directed space (the dead with
    // code 1), those with a distance on an undirected one, as the levels engine has it.
    std::vector<std::pair<std::uint64_t, unsigned>> coded;
    for (Vertex v = 0; v < space.vertices(); ++v) {
      if (const unsigned c = code_of(dist[v])) coded.emplace_back(packing->pack(space.state(v)), c);
    }
    std::sort(coded.begin(), coded.end());
    h.index = "words";
    h.encoding = TableEncoding::words;
    h.entries = coded.size();
    auto table = std::make_shared<GoalTable>(std::move(h));
    for (std::size_t i = 0; i < coded.size(); ++i) {
      table->sorted_words()[i] = coded[i].first;
      table->word_codes()[i] = static_cast<unsigned char>(coded[i].second);
    }
    table->header().identity =
        detail::levels_table_identity(*packing, table->sorted_words(), coded.size(), p.format(start));
    return table;
  } else {
    (void)start, (void)code_of;
    throw std::logic_error(p.name() + ": positions have neither a rank nor a 64-bit packing for a table");
  }
}

// The table of an explicit run from `start` (analyze --table), over its graph when it
// kept one, else through the model's successors.
template <Puzzle P>
std::shared_ptr<GoalTable> explicit_run_table(const P& p, const AnalysisRun<P>& run, const typename P::State& start,
                                              bool progress) {
  Progress clock(p.name() + " distances to the goal", progress);
  if (run.graph) {
    return explicit_goal_table(p, run.space, start, [&](Vertex u, const auto& f) {
      for (auto [e, end] = out_edges(u, run.space.graph); e != end; ++e) f(Vertex(target(*e, run.space.graph)));
    });
  }
  const detail::SuccessorVertices<P> successors(p, run.space);
  return explicit_goal_table(p, run.space, start,
                             [&](Vertex u, const auto& f) { successors.for_each_successor(u, run.space.state(u), f); });
}

}  // namespace statespace
