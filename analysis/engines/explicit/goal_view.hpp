// The goal-distance view of a reachable space: a breadth-first search started from
// every goal position at once gives each position its distance to the nearest goal;
// its distribution and the positions farthest from any goal are what articles on
// sliding-block puzzles quote ("the hardest start").
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/engines/explicit/bfs.hpp"
#include "analysis/engines/explicit/explicit_space.hpp"
#include "analysis/engines/result.hpp"
#include "core/puzzle.hpp"

namespace statespace {

// Models whose goal is a predicate over positions rather than one position.
template <class P>
concept PartialGoalPuzzle = Puzzle<P> && requires(const P& p, const typename P::State& s) {
  { p.has_goal() } -> std::same_as<bool>;
  { p.is_goal(s) } -> std::same_as<bool>;
  { p.goal_text() } -> std::convertible_to<std::string>;
};

// `from_start` holds the start's BFS distances over space's vertices;
// for_each_neighbour(u, f) calls f(w) for every w a move from u reaches (the graph's
// out-edges, or the model's successors when there is no graph).
template <PartialGoalPuzzle P, class Neighbours>
GoalView goal_view(const P& p, const ExplicitSpace<P>& space, const std::vector<Distance>& from_start,
                   const Neighbours& for_each_neighbour) {
  GoalView view;
  view.goal = p.goal_text();
  const auto n = Vertex(space.vertices());
  std::vector<Distance> dist(n, kUnreached);
  std::vector<Vertex> queue;
  for (Vertex v = 0; v < n; ++v) {
    if (!p.is_goal(space.state(v))) continue;
    dist[v] = 0;
    queue.push_back(v);
    if (!view.shortest || from_start[v] < *view.shortest) view.shortest = from_start[v];
  }
  view.reached = queue.size();
  if (queue.empty()) return view;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const Vertex u = queue[head];
    for_each_neighbour(u, [&](Vertex w) {
      if (dist[w] != kUnreached) return;
      dist[w] = dist[u] + 1;
      queue.push_back(w);
    });
  }
  const Distance far = dist[queue.back()];
  view.layers.assign(std::size_t(far) + 1, 0);
  for (const Vertex v : queue) ++view.layers[dist[v]];
  for (Vertex v = 0; v < n; ++v) {
    if (dist[v] == far) view.hardest.push_back(p.format(space.state(v)));
  }
  return view;
}

// The goal view over space's graph.
template <PartialGoalPuzzle P>
GoalView goal_view(const P& p, const ExplicitSpace<P>& space, const std::vector<Distance>& from_start) {
  return goal_view(p, space, from_start, [&](Vertex u, const auto& f) {
    for (auto [e, end] = out_edges(u, space.graph); e != end; ++e) f(Vertex(target(*e, space.graph)));
  });
}

}  // namespace statespace
