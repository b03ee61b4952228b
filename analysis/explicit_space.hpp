// Enumerates the positions reachable from a start and stores them as an explicit
// Boost CSR graph. Two steps, so that either can be swapped:
//   discover():       breadth-first closure from the start through a visited set
//                     (the lookup strategy: linear, hashed, ranked...);
//   build_explicit(): vertex ids = ranks in ascending order, out-edges computed in
//                     parallel (each vertex's successors are independent) and copied
//                     into the CSR graph.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/graph.hpp"
#include "analysis/memory.hpp"
#include "analysis/progress.hpp"
#include "analysis/ranked_enumerate.hpp"
#include "core/errors.hpp"
#include "core/lookup.hpp"
#include "core/puzzle.hpp"
#include "core/rank_bitset.hpp"

namespace statespace {

// A visited set for discover(): insert() returns true when the state is new.
template <class V, class State>
concept VisitedSet = requires(V& v, const State& s) {
  { v.insert(s) } -> std::same_as<bool>;
};

// The default visited set: one bit per rank (core/lookup_ranked.hpp).
template <Puzzle P>
using RankedVisited = RankedLookup<P>;

template <Puzzle P>
struct Discovery {
  std::vector<typename P::State> order;  // breadth-first order, start first
  std::vector<std::uint64_t> layers;     // layers[d] = states first reached at depth d
};

// Breadth-first closure of `start` under the moves, in the successor order of the model.
template <Puzzle P, VisitedSet<typename P::State> V>
Discovery<P> discover(const P& p, const typename P::State& start, V& visited, Progress* progress = nullptr) {
  Discovery<P> d;
  d.order.push_back(start);
  visited.insert(start);
  d.layers.push_back(1);
  for (std::size_t begin = 0; begin < d.order.size();) {
    const std::size_t end = d.order.size();
    for (std::size_t i = begin; i < end; ++i) {
      p.for_each_successor(d.order[i], [&](const typename P::State& s) {
        if (visited.insert(s)) d.order.push_back(s);
      });
    }
    if (d.order.size() > end) {
      d.layers.push_back(d.order.size() - end);
      if (progress) progress->level(unsigned(d.layers.size() - 1), d.layers.back(), d.order.size());
    }
    begin = end;
  }
  return d;
}

// Reachable positions from `start` for the memory estimate: the model's bound when it
// has one (tiles: half the permutations), else the whole rank space.
template <Puzzle P>
std::uint64_t reachable_bound(const P& p) {
  if constexpr (requires { p.reachable_bound(); }) {
    return p.reachable_bound();
  } else {
    return p.rank_space();
  }
}

// Bytes the explicit engine needs for a graph of V vertices and E directed edges:
// rank bitset, discovery queue, id -> rank, offsets and targets (ours and Boost's
// copy), distances.
inline std::uint64_t explicit_bytes(std::uint64_t rank_space, std::uint64_t vertices, std::uint64_t edges) {
  return RankBitset::bytes_for(rank_space) + vertices * (8 + 8 + 8 + 4 + 2) + edges * (4 + 4);
}

struct ExplicitSpace {
  Graph graph;
  std::vector<std::uint64_t> ranks;  // vertex id -> rank, ascending
  RankBitset members;                // sealed: rank -> vertex id
  [[nodiscard]] bool contains(std::uint64_t rank) const { return rank < members.size() && members.test(rank); }
  [[nodiscard]] Vertex vertex_of(std::uint64_t rank) const { return Vertex(members.index_of(rank)); }
  [[nodiscard]] std::uint64_t vertices() const { return ranks.size(); }
};

// The explicit graph over the positions whose ranks are set in `members`, which must
// be closed under the moves (a reachable set, or the whole rank space).
template <Puzzle P>
ExplicitSpace build_explicit(const P& p, RankBitset members, const MemoryBudget& budget) {
  ExplicitSpace space;
  space.members = std::move(members);
  space.members.seal();
  const std::uint64_t n = space.members.count();
  budget.require(explicit_bytes(p.rank_space(), n, n * P::kMaxMoves), p.name() + ": explicit graph");
  if (n >= std::numeric_limits<Vertex>::max()) {
    throw UsageError(p.name() + ": " + std::to_string(n) +
                     " states do not fit 32-bit vertex ids (use --engine implicit)");
  }
  space.ranks.reserve(n);
  space.members.for_each([&](std::uint64_t r) { space.ranks.push_back(r); });

  std::vector<std::uint64_t> offsets(n + 1, 0);
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n), [&](const auto& range) {
    for (auto v = range.begin(); v != range.end(); ++v) {
      std::uint64_t degree = 0;
      p.for_each_successor(p.unrank(space.ranks[v]), [&](const auto&) { ++degree; });
      offsets[v + 1] = degree;
    }
  });
  for (std::uint64_t v = 0; v < n; ++v) offsets[v + 1] += offsets[v];
  if (offsets[n] > kMaxGraphEdges) {
    throw UsageError(p.name() + ": " + std::to_string(offsets[n]) +
                     " edges do not fit 32-bit edge ids (use --engine implicit)");
  }
  std::vector<Vertex> targets(offsets[n]);
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n), [&](const auto& range) {
    for (auto v = range.begin(); v != range.end(); ++v) {
      std::uint64_t e = offsets[v];
      p.for_each_successor(p.unrank(space.ranks[v]), [&](const auto& s) { targets[e++] = space.vertex_of(p.rank(s)); });
    }
  });
  space.graph = make_graph(offsets, targets);
  return space;
}

// Bytes enumerate_explicit needs at most: the graph and the visited set (the ranked
// enumeration keeps one bitset per worker).
template <Puzzle P>
std::uint64_t enumerate_explicit_bytes(const P& p, LookupKind lookup = LookupKind::kRanked) {
  const std::uint64_t bound = reachable_bound(p);
  const std::uint64_t lookup_extra =
      lookup == LookupKind::kRanked
          ? std::uint64_t(tbb::this_task_arena::max_concurrency()) * RankedLookup<P>::bytes_for(p)
          : lookup_bytes(lookup, p, bound);
  return explicit_bytes(p.rank_space(), bound, bound * P::kMaxMoves) + lookup_extra;
}

// Reachable set from `start` as an explicit graph, through the chosen visited set:
// ranked takes the parallel path (enumerate_ranked, whose workers keep one rank
// bitset each); the others run discover() with their set. `stats`, when given,
// receives the set's counts (the linear scans' comparisons). The graph is the same
// whatever the lookup.
template <Puzzle P>
ExplicitSpace enumerate_explicit(const P& p, const typename P::State& start, const MemoryBudget& budget,
                                 Progress* progress = nullptr, LookupKind lookup = LookupKind::kRanked,
                                 LookupStats* stats = nullptr) {
  budget.require(enumerate_explicit_bytes(p, lookup), p.name() + ": explicit graph");
  LookupStats counts;
  RankBitset members;
  if (lookup == LookupKind::kRanked) {
    RankedEnumeration e = enumerate_ranked(p, start, progress);
    counts.lookups = e.lookups;
    members = std::move(e.members);
  } else {
    members = RankBitset(p.rank_space());
    with_lookup(
        lookup, p,
        [&](auto& visited) {
          const auto d = discover(p, start, visited, progress);
          for (const auto& s : d.order) members.insert(p.rank(s));
          counts = visited.stats();
        },
        reachable_bound(p));
  }
  if (stats) *stats = counts;
  return build_explicit(p, std::move(members), budget);
}

}  // namespace statespace
