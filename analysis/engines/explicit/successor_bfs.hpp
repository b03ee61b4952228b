// Breadth-first search over the vertices of an explicit space through the model's
// successors, without its CSR graph, counting the moves between depths on the way.
// When no output needs the graph (graph.dot, --all-pairs), building it costs more
// than everything else together: a 37.8 M-position puzzle file spent most of its run
// writing out edges whose only use was to be counted. One level at a time: each
// vertex of level d claims its unreached successors for level d + 1 (a
// compare-and-swap, so tasks never claim one twice) and counts its moves to level
// d + 1 and, from the smaller end, within level d. Every vertex of level d has its
// distance before level d is expanded, so each count is final when it is made and the
// numbers do not depend on the order tasks run in. On a directed space a move may also
// lead back to any earlier depth: every move is then counted once, by the depths of
// its two ends.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "analysis/engines/explicit/bfs.hpp"
#include "analysis/engines/explicit/explicit_space.hpp"
#include "analysis/engines/explicit/successor_vertices.hpp"
#include "analysis/engines/result.hpp"
#include "analysis/runtime/progress.hpp"
#include "core/puzzle.hpp"

namespace statespace {

struct SuccessorBfs {
  BfsResult bfs;                        // distances per vertex and positions per depth
  std::uint64_t moves = 0;              // successors summed over every vertex: twice the edges when undirected
  std::vector<LayerEdges> layer_edges;  // as count_layer_edges gives them on the graph
};

// The search from `source` over every vertex of `space` (a reachable set, closed
// under the moves). With `directed`, layer_edges counts each move from its origin's
// depth to its target's, in that order.
template <Puzzle P>
SuccessorBfs successor_bfs(const P& p, const ExplicitSpace<P>& space, Vertex source, Progress* progress = nullptr,
                           bool directed = false) {
  const detail::SuccessorVertices<P> successors(p, space);
  SuccessorBfs out;
  std::vector<Distance>& dist = out.bfs.distance;
  dist.assign(space.vertices(), kUnreached);
  dist[source] = 0;
  std::vector<Vertex> frontier = {source};
  std::uint64_t total = 0;
  struct Counts {
    std::vector<Vertex> next;
    std::uint64_t moves = 0, same = 0, down = 0;
    std::vector<std::uint64_t> to_depth;  // directed: moves from this depth to each depth
  };
  for (Distance d = 0; !frontier.empty(); ++d) {
    if (d + 1 >= kUnreached) throw std::length_error("BFS depth exceeds 16-bit distances");
    out.bfs.layers.push_back(frontier.size());
    total += frontier.size();
    if (progress) progress->level(d, frontier.size(), total);
    tbb::enumerable_thread_specific<Counts> local;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, frontier.size()), [&](const auto& range) {
      Counts& c = local.local();
      if (directed) c.to_depth.resize(std::size_t(d) + 2, 0);
      for (std::size_t i = range.begin(); i != range.end(); ++i) {
        const Vertex u = frontier[i];
        successors.for_each_successor(u, space.state(u), [&](Vertex w) {
          ++c.moves;
          std::atomic_ref<Distance> at(dist[w]);
          Distance seen = at.load(std::memory_order_relaxed);
          if (seen == kUnreached && at.compare_exchange_strong(seen, Distance(d + 1), std::memory_order_relaxed)) {
            c.next.push_back(w);
            seen = Distance(d + 1);
          }
          if (directed) {
            ++c.to_depth[seen];
          } else if (seen == d + 1) {
            ++c.down;
          } else if (seen == d && u < w) {
            ++c.same;
          }
        });
      }
    });
    std::uint64_t same = 0, down = 0;
    std::vector<std::uint64_t> to_depth(directed ? std::size_t(d) + 2 : 0, 0);
    frontier.clear();
    for (auto& c : local) {
      out.moves += c.moves;
      same += c.same;
      down += c.down;
      for (std::size_t t = 0; t < c.to_depth.size(); ++t) to_depth[t] += c.to_depth[t];
      frontier.insert(frontier.end(), c.next.begin(), c.next.end());
    }
    for (std::size_t t = 0; t < to_depth.size(); ++t) {
      if (to_depth[t]) out.layer_edges.push_back({unsigned(d), unsigned(t), to_depth[t]});
    }
    // Ascending, so that neighbouring vertices (and ranks) are expanded together.
    std::sort(frontier.begin(), frontier.end());
    if (same) out.layer_edges.push_back({unsigned(d), unsigned(d), same});
    if (down) out.layer_edges.push_back({unsigned(d), unsigned(d) + 1, down});
  }
  return out;
}

}  // namespace statespace
