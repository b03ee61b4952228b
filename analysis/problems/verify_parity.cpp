#include "analysis/problems/verify_parity.hpp"

#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>

#include <boost/graph/connected_components.hpp>
#include <limits>

#include "analysis/engines/explicit/explicit_space.hpp"
#include "puzzles/tiles_parity.hpp"

namespace statespace {

ParityVerification verify_parity(const Tiles& t, const MemoryBudget& budget) {
  ParityVerification v;
  v.arrangements = t.rank_space();
  // The graph, plus a label and a DFS colour (4 bytes each) per vertex.
  const std::uint64_t n = v.arrangements;
  budget.require(explicit_bytes(n, n, n * Tiles::kMaxMoves) + n * 8, t.name() + ": graph over every arrangement");
  const ExplicitSpace<Tiles> space = build_explicit(t, RankBitset::full(n), budget);
  std::vector<Vertex> component(n);
  const auto count = boost::connected_components(
      space.graph, boost::make_iterator_property_map(component.begin(), get(boost::vertex_index, space.graph)));

  // Sizes indexed so that the goal's component comes first.
  const Vertex goal_component = component[space.vertex_of(t.goal())];
  std::vector<std::uint64_t> sizes(count, 0);
  for (Vertex c : component) ++sizes[c];
  v.component_sizes.push_back(sizes[goal_component]);
  for (std::size_t c = 0; c < sizes.size(); ++c) {
    if (c != goal_component) v.component_sizes.push_back(sizes[c]);
  }

  constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();
  struct Tally {
    std::uint64_t disagree = 0;
    std::uint64_t first = kNone;
  };
  tbb::combinable<Tally> tallies;
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n), [&](const auto& range) {
    Tally& mine = tallies.local();
    for (auto u = range.begin(); u != range.end(); ++u) {
      const bool verdict = tiles_solvable(t.rows(), t.cols(), t.unrank(space.ranks[u]));
      if (verdict != (component[u] == goal_component)) {
        ++mine.disagree;
        mine.first = std::min(mine.first, space.ranks[u]);
      }
    }
  });
  tallies.combine_each([&](const Tally& part) {
    v.disagree += part.disagree;
    if (part.first != kNone && (!v.first_disagreement || part.first < t.rank(*v.first_disagreement))) {
      v.first_disagreement = t.unrank(part.first);
    }
  });
  v.agree = n - v.disagree;
  return v;
}

}  // namespace statespace
