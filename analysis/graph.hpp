// The explicit state graph: Boost's compressed_sparse_row_graph with 32-bit vertex
// and edge indices (4 bytes per stored move), vertices numbered in rank order so that
// vertex order is the canonical order of positions. Moves are reversible, so each is
// stored in both directions and the directed CSR graph is symmetric.
#pragma once

#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <cstdint>
#include <iterator>
#include <limits>
#include <utility>
#include <vector>

namespace statespace {

using Vertex = std::uint32_t;
using Graph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, boost::no_property,
                                                 boost::no_property, Vertex, Vertex>;
inline constexpr std::uint64_t kMaxGraphEdges = std::numeric_limits<Vertex>::max();

// Walks CSR arrays as (source, target) pairs sorted by source: the input Boost's
// edges_are_sorted constructor copies from in one pass.
class SortedEdgeIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = std::pair<Vertex, Vertex>;
  using difference_type = std::ptrdiff_t;
  using pointer = const value_type*;
  using reference = const value_type&;

  SortedEdgeIterator(const std::vector<std::uint64_t>* offsets, const std::vector<Vertex>* targets, std::uint64_t edge)
      : offsets_(offsets), targets_(targets), edge_(edge) {
    load();
  }
  reference operator*() const { return current_; }
  pointer operator->() const { return &current_; }
  SortedEdgeIterator& operator++() {
    ++edge_;
    load();
    return *this;
  }
  friend bool operator==(const SortedEdgeIterator& a, const SortedEdgeIterator& b) { return a.edge_ == b.edge_; }

 private:
  void load() {
    if (edge_ >= targets_->size()) return;
    while ((*offsets_)[source_ + 1] <= edge_) ++source_;
    current_ = {source_, (*targets_)[edge_]};
  }
  const std::vector<std::uint64_t>* offsets_;
  const std::vector<Vertex>* targets_;
  std::uint64_t edge_;
  Vertex source_ = 0;
  value_type current_{};
};

// Builds the CSR graph from out-edge lists given as offsets (size V+1) and targets.
inline Graph make_graph(const std::vector<std::uint64_t>& offsets, const std::vector<Vertex>& targets) {
  const auto vertices = Vertex(offsets.size() - 1);
  return Graph(boost::edges_are_sorted, SortedEdgeIterator(&offsets, &targets, 0),
               SortedEdgeIterator(&offsets, &targets, targets.size()), vertices, Vertex(targets.size()));
}

}  // namespace statespace
