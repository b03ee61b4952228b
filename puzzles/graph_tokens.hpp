// kind = "graph": tokens sliding on an undirected graph. Vertices are numbered
// 1..n in the file (cells 0..n-1 here); a move slides one token along an edge into
// an empty vertex. Tokens with equal labels are interchangeable and any number of
// vertices may be empty, so positions are arrangements of a multiset, ranked
// (core/ranking.hpp's multiset rank) onto [0, n! / prod(count!)): the bitset engines
// serve these files as they serve the built-in models.
//
//   name  = "hex6"
//   kind  = "graph"
//   edges = "1-2 1-3 1-4 2-4 2-5 3-4 3-6 4-5 4-6 4-7 5-7 6-7"
//   start = "1 2 3 4 5 6 _"     # the token on each vertex; '_' empty
//   goal  = "1 2 3 4 5 6 _"     # optional, default: start
//   rows  = [2, 3, 2]           # optional: how positions are written
//   coordinates = [[0, 0], ...] # optional: where the vertices are drawn
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/board_geometry.hpp"
#include "core/puzzle.hpp"
#include "core/ranking.hpp"
#include "puzzles/cell_labels.hpp"
#include "puzzles/toml_input.hpp"

namespace statespace {

class GraphTokens {
 public:
  using State = CellState;
  // The multiset rank's tables: 20! is the largest factorial in 64 bits, 16 codes.
  static constexpr int kMaxVertices = 20;
  static constexpr int kMaxLabels = 16;
  // Coordinates lie within this of the origin, in token widths.
  static constexpr double kMaxCoordinate = 100;

  explicit GraphTokens(const TomlInput& file);

  [[nodiscard]] int max_moves() const { return max_moves_; }
  [[nodiscard]] std::string name() const { return labels_.name(); }
  [[nodiscard]] State goal() const { return goal_; }
  [[nodiscard]] State start() const { return labels_.start(); }
  [[nodiscard]] std::vector<int> row_lengths() const { return labels_.rows(); }
  [[nodiscard]] std::string format(const State& s) const { return labels_.format(s); }
  [[nodiscard]] State parse(std::string_view text) const { return labels_.parse(text); }

  [[nodiscard]] std::uint64_t rank_space() const { return multinomial(counts_); }
  [[nodiscard]] std::uint64_t rank(const State& s) const {
    return multiset_rank(s.cell.data(), labels_.cells(), counts_);
  }
  [[nodiscard]] State unrank(std::uint64_t r) const {
    State s;
    multiset_unrank(r, s.cell.data(), labels_.cells(), counts_);
    return s;
  }

  // Successors by empty vertex (ascending), then by its neighbours (ascending).
  template <class F>
  // By value: the caller may pass a reference into a queue that f grows.
  void for_each_successor(const State s, F&& f) const {
    for (int v = 0; v < labels_.cells(); ++v) {
      if (s.cell[std::size_t(v)] != 0) continue;
      for (const int w : adjacency_[std::size_t(v)]) {
        if (s.cell[std::size_t(w)] == 0) continue;
        State t = s;
        t.cell[std::size_t(v)] = s.cell[std::size_t(w)];
        t.cell[std::size_t(w)] = 0;
        f(t);
      }
    }
  }

  // The vertices at the file's coordinates when it gives them, else in its rows when
  // it gives more than one, else on a circle (vertex 1 at the top, clockwise), with
  // the graph's edges.
  [[nodiscard]] BoardGeometry cell_geometry() const;

  // "token 5: vertex 3 -> 4" (vertices numbered as in the file).
  [[nodiscard]] std::string move_name(const State& from, const State& to) const;

  // Which case of Wilson's theorem (1974) the graph and tokens fall under, and the
  // number of components of all arrangements it predicts.
  [[nodiscard]] ComponentPrediction predicted_components() const;

 private:
  void read_coordinates(const TomlInput& file, const toml::node& node);

  CellLabels labels_;
  std::vector<BoardGeometry::Place> coordinates_;  // the file's, in vertex order; empty without
  std::vector<std::vector<int>> adjacency_;
  Counts counts_{};
  State goal_;
  int max_moves_ = 0;
};

static_assert(RankedPuzzle<GraphTokens>);

// The model a kind = "graph" file describes; throws ParseError (FILE:LINE:COLUMN:).
GraphTokens load_graph(const TomlInput& file);

}  // namespace statespace
