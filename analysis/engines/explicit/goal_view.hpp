// The goal-distance view of a reachable space: a breadth-first search started from
// every goal position at once gives each position its distance to the nearest goal;
// its distribution and the positions farthest from any goal are what articles on
// sliding-block puzzles quote ("the hardest start"). On a directed space the search
// runs from the goals along the predecessors, so each distance is *to* the goal, and
// the positions it never reaches are the dead ends.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "analysis/engines/directed.hpp"
#include "analysis/engines/explicit/bfs.hpp"
#include "analysis/engines/explicit/explicit_space.hpp"
#include "analysis/engines/result.hpp"
#include "core/puzzle.hpp"

namespace statespace {

namespace detail {

// A breadth-first search from every position is_goal accepts at once, through
// for_each_neighbour(u, f), which calls f(w) for every vertex w one step from u:
// fills view's reached, layers and hardest, and returns each vertex's distance to the
// nearest goal (kUnreached where no goal is found).
template <Puzzle P, class IsGoal, class Neighbours>
std::vector<Distance> search_from_goals(const P& p, const ExplicitSpace<P>& space, const IsGoal& is_goal,
                                        const Neighbours& for_each_neighbour, GoalView& view) {
  const auto n = Vertex(space.vertices());
  std::vector<Distance> dist(n, kUnreached);
  std::vector<Vertex> queue;
  for (Vertex v = 0; v < n; ++v) {
    if (!is_goal(space.state(v))) continue;
    dist[v] = 0;
    queue.push_back(v);
  }
  view.reached = queue.size();
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const Vertex u = queue[head];
    if (dist[u] + 1 >= kUnreached) throw std::length_error("BFS depth exceeds 16-bit distances");
    for_each_neighbour(u, [&](Vertex w) {
      if (dist[w] != kUnreached) return;
      dist[w] = Distance(dist[u] + 1);
      queue.push_back(w);
    });
  }
  if (queue.empty()) return dist;
  const Distance far = dist[queue.back()];
  view.layers.assign(std::size_t(far) + 1, 0);
  for (const Vertex v : queue) ++view.layers[dist[v]];
  for (Vertex v = 0; v < n; ++v) {
    if (dist[v] == far) view.hardest.push_back(p.format(space.state(v)));
  }
  return dist;
}

}  // namespace detail

// `from_start` holds the start's BFS distances over space's vertices;
// for_each_neighbour(u, f) calls f(w) for every w a move from u reaches (the graph's
// out-edges, or the model's successors when there is no graph).
template <PartialGoalPuzzle P, class Neighbours>
GoalView goal_view(const P& p, const ExplicitSpace<P>& space, const std::vector<Distance>& from_start,
                   const Neighbours& for_each_neighbour) {
  GoalView view;
  view.goal = p.goal_text();
  const auto dist = detail::search_from_goals(
      p, space, [&](const typename P::State& s) { return p.is_goal(s); }, for_each_neighbour, view);
  for (Vertex v = 0; v < dist.size(); ++v) {
    if (dist[v] == 0 && (!view.shortest || from_start[v] < *view.shortest)) view.shortest = from_start[v];
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

// The goal view of a directed space (ReversiblePuzzle) reached from `start`: a
// breadth-first search from every reachable goal position through the model's
// predecessors, kept to the reachable set (a predecessor the start never reaches is
// no position of this space). Vertex order is canonical, so `hardest` is too.
template <ReversiblePuzzle P>
GoalView directed_goal_view(const P& p, const ExplicitSpace<P>& space, Vertex start, const DirectedGoal<P>& is_goal) {
  GoalView view;
  view.goal = is_goal.text();
  const auto predecessors = [&](Vertex u, const auto& f) {
    p.for_each_predecessor(space.state(u), [&](const typename P::State& t) {
      if (space.contains(t)) f(space.vertex_of(t));
    });
  };
  const auto dist = detail::search_from_goals(p, space, is_goal, predecessors, view);
  std::uint64_t solvable = 0;
  for (const auto count : view.layers) solvable += count;
  view.dead_ends = space.vertices() - solvable;
  if (dist[start] != kUnreached) view.shortest = dist[start];
  return view;
}

// The part of a directed space's goal view a search from the start alone gives (a
// model without predecessors): the goal positions it reaches and the nearest one's
// distance. The distances to the goal are the caller's to name as unavailable.
template <Puzzle P>
GoalView forward_goal_view(const ExplicitSpace<P>& space, const std::vector<Distance>& from_start,
                           const DirectedGoal<P>& is_goal) {
  GoalView view;
  view.goal = is_goal.text();
  for (Vertex v = 0; v < Vertex(space.vertices()); ++v) {
    if (!is_goal(space.state(v))) continue;
    ++view.reached;
    if (!view.shortest || from_start[v] < *view.shortest) view.shortest = from_start[v];
  }
  return view;
}

}  // namespace statespace
