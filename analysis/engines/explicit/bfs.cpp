#include "analysis/engines/explicit/bfs.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>
#include <stdexcept>

namespace statespace {

namespace {

void check_depth(std::size_t depth) {
  if (depth >= kUnreached) throw std::length_error("BFS depth exceeds 16-bit distances");
}

}  // namespace

BfsResult parallel_bfs(const Graph& g, Vertex source, Progress* progress) {
  const std::size_t n = num_vertices(g);
  BfsResult r;
  r.distance.assign(n, kUnreached);
  r.distance[source] = 0;
  r.layers.push_back(1);
  std::uint64_t total = 1;
  std::vector<Vertex> frontier{source};
  tbb::enumerable_thread_specific<std::vector<Vertex>> found;
  // Small frontiers are not worth splitting; large ones are split into chunks that
  // amortise the per-task cost over a few thousand edge scans.
  constexpr std::size_t kGrain = 1024;
  for (Distance depth = 0; !frontier.empty(); ++depth) {
    check_depth(depth + 1);
    const Distance next = depth + 1;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, frontier.size(), kGrain), [&](const auto& range) {
      auto& out = found.local();
      for (std::size_t i = range.begin(); i != range.end(); ++i) {
        for (auto [e, end] = out_edges(frontier[i], g); e != end; ++e) {
          const Vertex v = target(*e, g);
          std::atomic_ref<Distance> d(r.distance[v]);
          Distance expected = kUnreached;
          if (d.load(std::memory_order_relaxed) == kUnreached &&
              d.compare_exchange_strong(expected, next, std::memory_order_relaxed)) {
            out.push_back(v);
          }
        }
      }
    });
    frontier.clear();
    for (auto& out : found) {
      frontier.insert(frontier.end(), out.begin(), out.end());
      out.clear();
    }
    if (frontier.empty()) break;
    total += frontier.size();
    r.layers.push_back(frontier.size());
    if (progress) progress->level(next, frontier.size(), total);
  }
  return r;
}

BfsResult boost_bfs(const Graph& g, Vertex source) {
  const std::size_t n = num_vertices(g);
  BfsResult r;
  std::vector<std::uint64_t> d(n, kUnreached);
  d[source] = 0;
  boost::breadth_first_search(
      g, source, boost::visitor(boost::make_bfs_visitor(boost::record_distances(d.data(), boost::on_tree_edge()))));
  r.distance.assign(n, kUnreached);
  for (std::size_t v = 0; v < n; ++v) {
    if (d[v] == kUnreached) continue;
    r.distance[v] = Distance(d[v]);
    if (r.layers.size() <= d[v]) r.layers.resize(d[v] + 1, 0);
    ++r.layers[d[v]];
  }
  return r;
}

Eccentricity eccentricity(const Graph& g, Vertex source, std::vector<Distance>& dist, std::vector<Vertex>& queue) {
  dist.assign(num_vertices(g), kUnreached);
  queue.clear();
  queue.push_back(source);
  dist[source] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const Vertex u = queue[head];
    for (auto [e, end] = out_edges(u, g); e != end; ++e) {
      const Vertex v = target(*e, g);
      if (dist[v] == kUnreached) {
        dist[v] = Distance(dist[u] + 1);
        queue.push_back(v);
      }
    }
  }
  Eccentricity ecc;
  ecc.distance = dist[queue.back()];
  ecc.farthest = queue.back();
  for (Vertex v = 0; v < dist.size(); ++v) {
    if (dist[v] == ecc.distance) {
      ecc.farthest = v;
      break;
    }
  }
  return ecc;
}

}  // namespace statespace
