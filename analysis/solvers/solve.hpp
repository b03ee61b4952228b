// Shortest solutions by breadth-first search from the start, in the seeds' manner
// (hex1.c, no_off.c): a queue of states with the index of each state's parent; each
// generated child is first compared with the goal, and only then looked up among
// the stored states, so the search stops the moment the goal is generated. The
// visited set is a template parameter so the lookup strategies can be compared on
// exactly the seed's sequence of lookups. The search only follows moves forwards and
// never drops a state it has seen at any depth, so it is as right on a directed space
// (DirectedPuzzle: moves that cannot be undone) as on an undirected one.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/engines/explicit/explicit_space.hpp"
#include "analysis/runtime/memory.hpp"
#include "analysis/runtime/progress.hpp"
#include "core/errors.hpp"
#include "core/puzzle.hpp"

namespace statespace {

template <Puzzle P>
struct Solution {
  std::vector<typename P::State> path;  // start .. goal; empty when unreachable
  std::uint64_t stored = 0;             // states in the queue when the search ended (the seed's count)
};

// Stops at the first generated state for which is_goal holds (a partial goal, such
// as a block puzzle's "the big piece at the exit"). `progress`, when given, gets one
// line per finished depth.
template <Puzzle P, VisitedSet<typename P::State> V, class G>
Solution<P> solve_bfs_until(const P& p, const typename P::State& start, G&& is_goal, V& visited,
                            const MemoryBudget& budget, Progress* progress = nullptr) {
  using State = typename P::State;
  // Per stored state: queue and parent entries, three times for the vectors' growth
  // (the old array and the new one of twice its size, at once), and the visited
  // set's share: a copy of the state at most four times over (a hash table at its
  // lowest load, and its old table beside it as it grows) and 40 bytes of nodes and
  // buckets (a ranked set is allocated and budgeted up front).
  constexpr std::uint64_t kBytesPerState = 3 * (sizeof(State) + sizeof(std::uint32_t)) + 4 * sizeof(State) + 40;
  // Checked every this many states: a step's growth is small beside any budget.
  constexpr std::size_t kCheckEvery = std::size_t{1} << 14;
  Solution<P> sol;
  if (is_goal(start)) {
    sol.path = {start};
    sol.stored = 1;
    return sol;
  }
  std::vector<State> queue{start};
  std::vector<std::uint32_t> parent{0};
  visited.insert(start);
  std::optional<std::size_t> found_parent;
  State goal{};
  std::size_t depth_end = 1;  // queue[..depth_end) holds the depths expanded so far and the next one
  unsigned depth = 0;
  for (std::size_t front = 0; front < queue.size() && !found_parent; ++front) {
    if (front == depth_end) {
      ++depth;
      if (progress) progress->level(depth, queue.size() - depth_end, queue.size());
      depth_end = queue.size();
    }
    const State from = queue[front];  // the callback grows the queue, which may move its elements
    p.for_each_successor(from, [&](const State& s) {
      if (found_parent) return;
      if (is_goal(s)) {
        found_parent = front;
        goal = s;
      } else if (visited.insert(s)) {
        if (queue.size() % kCheckEvery == 0) {
          budget.require_growing((queue.size() + kCheckEvery) * kBytesPerState, reachable_bound(p) * kBytesPerState,
                                 p.name() + ": the search (queue and visited set)");
        }
        queue.push_back(s);
        parent.push_back(std::uint32_t(front));
      }
    });
  }
  sol.stored = queue.size();
  if (!found_parent) return sol;
  sol.path.push_back(goal);
  for (std::size_t i = *found_parent;; i = parent[i]) {
    sol.path.push_back(queue[i]);
    if (i == 0) break;
  }
  std::reverse(sol.path.begin(), sol.path.end());
  sol.path = real_path(p, std::move(sol.path));
  return sol;
}

template <Puzzle P, VisitedSet<typename P::State> V>
Solution<P> solve_bfs(const P& p, const typename P::State& start, const typename P::State& goal, V& visited,
                      const MemoryBudget& budget, Progress* progress = nullptr) {
  return solve_bfs_until(
      p, start, [&](const typename P::State& s) { return s == goal; }, visited, budget, progress);
}

// Why `start` cannot reach `goal`, for the error message.
template <Puzzle P>
std::string unsolvable_reason(const P& p, const typename P::State& start, const typename P::State& goal,
                              std::uint64_t component) {
  std::string why = p.name() + ": no solution from " + p.format(start) + " to " + p.format(goal);
  if constexpr (ParityClassPuzzle<P>) {
    why += ": it is in the other parity class (a move flips both the arrangement's parity and the blank cell's colour)";
  } else if (is_directed(p)) {
    // One-way moves: what the start reaches, not a component that would reach back.
    why += ": the " + std::to_string(component) + " positions it reaches do not include the goal";
  } else {
    why += ": its component has " + std::to_string(component) + " positions and the goal is not among them";
  }
  return why;
}

}  // namespace statespace
