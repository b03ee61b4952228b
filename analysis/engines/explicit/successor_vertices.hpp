// The walk over the vertices of an explicit graph and their successors that its edge
// passes (build_edges, analysis/engines/explicit/explicit_space.hpp) take. Apart from ExplicitSpace,
// which holds the vertex maps it reads, so that each file stays one idea.
#pragma once

#include <cstdint>
#include <optional>

#include "analysis/engines/explicit/graph.hpp"
#include "analysis/engines/explicit/permutation_enumerate.hpp"
#include "core/board.hpp"
#include "core/puzzle.hpp"
#include "core/ranking.hpp"

namespace statespace {

template <Puzzle P>
class ExplicitSpace;

namespace detail {

// The successors of a vertex, in the model's successor order. A permutation puzzle's
// successors are ranked from their parent's rank (SwapMove::rank_after, as the
// ranked enumeration does) rather than afresh, its degree is its blank cell's, and
// its positions are stepped through in rank order (next_permutation) rather than
// unranked one by one: ranking and unranking were most of an explicit run.
template <Puzzle P>
class SuccessorVertices {
 public:
  using State = typename P::State;

  SuccessorVertices(const P& p, const ExplicitSpace<P>& space) : p_(p), space_(space) {
    if constexpr (PermutationRanked<P>) moves_.emplace(p);
  }

  // Calls f(v, position of v) for every v in [begin, end), in order.
  template <class F>
  void for_each_vertex(std::uint64_t begin, std::uint64_t end, F&& f) const {
    if constexpr (PermutationRanked<P>) {
      constexpr std::uint64_t kMaxSteps = 8;  // farther apart, unranking is cheaper
      State s{};
      for (std::uint64_t v = begin, at = 0; v < end; ++v) {
        const std::uint64_t r = space_.ranks[v];
        if (v == begin || r - at > kMaxSteps) {
          s = p_.unrank(r);
        } else {
          for (; at < r; ++at) s = next_permutation(s, p_.cells());
        }
        at = r;
        f(Vertex(v), s);
      }
    } else {
      for (std::uint64_t v = begin; v < end; ++v) f(Vertex(v), space_.state(Vertex(v)));
    }
  }

  [[nodiscard]] Vertex degree(const State& s) const {
    if constexpr (PermutationRanked<P>) {
      return Vertex(p_.degree(find_blank(s, p_.cells())));
    } else {
      Vertex degree = 0;
      p_.for_each_successor(s, [&](const auto&) { ++degree; });
      return degree;
    }
  }

  // Calls f(w) for every successor w of v, whose position is s.
  template <class F>
  void for_each_successor(Vertex v, const State& s, F&& f) const {
    if constexpr (PermutationRanked<P>) {
      const std::uint64_t r = space_.ranks[v];
      for (const auto& move : moves_->moves(BucketMoves::bucket(find_blank(s, p_.cells()), BucketMoves::kStart))) {
        f(Vertex(space_.members.index_of(move.swap.rank_after(s, r))));
      }
    } else {
      p_.for_each_successor(s, [&](const State& t) { f(space_.vertex_of(t)); });
    }
  }

 private:
  const P& p_;
  const ExplicitSpace<P>& space_;
  std::optional<BucketMoves> moves_;  // permutation puzzles: every blank cell's moves
};

}  // namespace detail

}  // namespace statespace
