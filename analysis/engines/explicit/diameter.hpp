// Eccentricities of many sources on the explicit graph, run in parallel with one
// sequential BFS per source: the true diameter (all pairs), or, for tiles, the
// blank-symmetry shortcut that needs one source per blank cell.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/engines/explicit/bfs.hpp"
#include "analysis/engines/explicit/graph.hpp"

namespace statespace {

struct DiameterPair {
  Distance length = 0;
  Vertex from = 0;
  Vertex to = 0;
};

// Max eccentricity over `sources`; ties go to the first source in the list, and the
// far end is the smallest vertex at that distance, so the pair is deterministic.
DiameterPair max_eccentricity(const Graph& g, const std::vector<Vertex>& sources);

}  // namespace statespace
