// Breadth-first distances on the explicit graph. parallel_bfs is the engine:
// level-synchronous, the frontier split across oneTBB workers, each claiming new
// vertices with one compare-and-swap on the distance array and collecting them in a
// thread-local buffer. Distances (and everything derived from them) do not depend on
// the thread count, because a vertex's distance is its level whichever thread claims
// it. boost_bfs wraps boost::breadth_first_search as the reference the tests compare
// against.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "analysis/engines/explicit/graph.hpp"
#include "analysis/runtime/progress.hpp"

namespace statespace {

using Distance = std::uint16_t;
inline constexpr Distance kUnreached = std::numeric_limits<Distance>::max();

struct BfsResult {
  std::vector<Distance> distance;     // per vertex, kUnreached when not reachable
  std::vector<std::uint64_t> layers;  // layers[d] = vertices at distance d
};

BfsResult parallel_bfs(const Graph& g, Vertex source, Progress* progress = nullptr);
BfsResult boost_bfs(const Graph& g, Vertex source);

// Eccentricity of `source` and the smallest vertex at that distance (one sequential
// BFS, with caller-provided scratch so all-pairs runs allocate once per thread).
struct Eccentricity {
  Distance distance = 0;
  Vertex farthest = 0;
};
Eccentricity eccentricity(const Graph& g, Vertex source, std::vector<Distance>& scratch, std::vector<Vertex>& queue);

}  // namespace statespace
