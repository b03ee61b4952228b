// The explicit state graph: Boost's compressed_sparse_row_graph with 32-bit vertex
// and edge indices (4 bytes per stored move), vertices numbered in rank order so that
// vertex order is the canonical order of positions. Where moves are reversible each is
// stored in both directions and the directed CSR graph is symmetric; on a directed
// space (DirectedPuzzle) each move is stored once, in its direction.
#pragma once

#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace statespace {

using Vertex = std::uint32_t;
using Graph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, boost::no_property,
                                                 boost::no_property, Vertex, Vertex>;
inline constexpr std::uint64_t kMaxGraphEdges = std::numeric_limits<Vertex>::max();

// The CSR graph over out-edge lists given as row starts (size V+1, 32-bit like the
// edge ids) and targets, moved into Boost's storage: the graph's public `m_forward`
// holds exactly these two arrays, and its constructors would copy them edge by edge
// on one thread (a twentieth of an explicit run on two threads), with both copies
// alive at the peak.
inline Graph make_graph(std::vector<Vertex> row_starts, std::vector<Vertex> targets) {
  Graph g;
  g.m_forward.m_rowstart = std::move(row_starts);
  g.m_forward.m_column = std::move(targets);
  return g;
}

}  // namespace statespace
