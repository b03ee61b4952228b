// Enumerates the positions reachable from a start and stores them as an explicit
// Boost CSR graph. Two steps, so that either can be swapped:
//   discover():       breadth-first closure from the start through a visited set
//                     (the lookup strategy: linear, hashed, ranked...);
//   build_explicit(): vertex ids = positions in canonical order (ascending rank, or
//                     ascending state for models without a rank), out-edges computed
//                     in parallel (each vertex's successors are independent) and
//                     moved into the CSR graph (make_graph, analysis/engines/explicit/graph.hpp).
#pragma once

#include <absl/container/flat_hash_map.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/engines/explicit/bfs.hpp"
#include "analysis/engines/explicit/graph.hpp"
#include "analysis/engines/explicit/permutation_enumerate.hpp"
#include "analysis/engines/explicit/ranked_enumerate.hpp"
#include "analysis/engines/explicit/successor_vertices.hpp"
#include "analysis/runtime/memory.hpp"
#include "analysis/runtime/progress.hpp"
#include "analysis/runtime/threads.hpp"
#include "core/errors.hpp"
#include "core/lookup.hpp"
#include "core/puzzle.hpp"
#include "core/rank_bitset.hpp"
#include "core/text.hpp"

namespace statespace {

// A visited set for discover(): insert() returns true when the state is new.
template <class V, class State>
concept VisitedSet = requires(V& v, const State& s) {
  { v.insert(s) } -> std::same_as<bool>;
};

// Bytes the explicit engine needs for a graph of V vertices and E directed edges:
// the vertex index (rank bitset and id -> rank, or the states and a hash map),
// discovery queue, row starts and targets (moved into the graph, never copied),
// distances.
inline std::uint64_t explicit_bytes(std::uint64_t rank_space, std::uint64_t vertices, std::uint64_t edges) {
  return RankBitset::bytes_for(rank_space) + vertices * (8 + 8 + 4 + 2) + edges * 4;
}
template <Puzzle P>
std::uint64_t explicit_bytes(const P& p, std::uint64_t vertices) {
  const std::uint64_t edges = vertices * std::uint64_t(p.max_moves());
  if constexpr (RankedPuzzle<P>) {
    return explicit_bytes(p.rank_space(), vertices, edges);
  } else {
    constexpr std::uint64_t kState = sizeof(typename P::State);
    return vertices * (3 * kState + 2 * (kState + 4) + 4 + 2) + edges * 4;
  }
}

template <Puzzle P>
struct Discovery {
  std::vector<typename P::State> order;  // breadth-first order, start first
  std::vector<std::uint64_t> layers;     // layers[d] = states first reached at depth d
};

// Breadth-first closure of `start` under the moves, in the successor order of the model.
// With `budget`, the growing queue and graph-to-be are checked against it every
// 2^20 states (models without a rank have no size known in advance).
template <Puzzle P, VisitedSet<typename P::State> V>
Discovery<P> discover(const P& p, const typename P::State& start, V& visited, Progress* progress = nullptr,
                      const MemoryBudget* budget = nullptr) {
  Discovery<P> d;
  d.order.push_back(start);
  visited.insert(start);
  d.layers.push_back(1);
  for (std::size_t begin = 0; begin < d.order.size();) {
    const std::size_t end = d.order.size();
    for (std::size_t i = begin; i < end; ++i) {
      // A copy: the callback grows d.order, which may move the element.
      const typename P::State from = d.order[i];
      p.for_each_successor(from, [&](const typename P::State& s) {
        if (!visited.insert(s)) return;
        if (budget && (d.order.size() & 0xFFFFF) == 0) {
          budget->require(explicit_bytes(p, d.order.size() + 0x100000), p.name() + ": explicit graph");
        }
        d.order.push_back(s);
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
// has one (tiles: half the permutations), else the whole rank space; nothing is known
// in advance for models without a rank.
template <Puzzle P>
std::uint64_t reachable_bound(const P& p) {
  if constexpr (BoundedPuzzle<P>) {
    return p.reachable_bound();
  } else if constexpr (RankedPuzzle<P>) {
    return p.rank_space();
  } else {
    return 0;
  }
}

// Refuses a linear --lookup (LookupKind) that may compare states more than `limit`
// times on p: its comparisons grow with the square of the states stored, so a large
// puzzle would scan for hours without a word.
template <Puzzle P>
void check_comparisons(const P& p, LookupKind kind, std::uint64_t limit) {
  if (!counts_comparisons(kind)) return;
  const std::uint64_t bound = reachable_bound(p);
  const std::uint64_t most = linear_comparisons_bound(bound);
  if (most <= limit) return;
  throw UsageError(p.name() + ": --lookup " + std::string(lookup_name(kind)) + " may make up to " +
                   (most == ~std::uint64_t{0} ? "more than " : "") + with_commas(most) + " comparisons (" +
                   with_commas(bound) + " positions, each scanning those before it), over the limit of " +
                   with_commas(limit) + " (raise it with --comparisons-limit N, or use --lookup hashed)");
}

// The graph and the map between vertex ids and positions. Ranked models keep
// vertex -> rank and a sealed rank bitset (rank -> vertex in O(1)); the others keep
// the states in ascending order and a hash map. The model must outlive the space.
template <Puzzle P>
class ExplicitSpace {
 public:
  using State = typename P::State;
  Graph graph;

  ExplicitSpace() = default;
  explicit ExplicitSpace(const P& p) : p_(&p) {}

  [[nodiscard]] std::uint64_t vertices() const {
    if constexpr (RankedPuzzle<P>) {
      return ranks.size();
    } else {
      return states_.size();
    }
  }
  [[nodiscard]] State state(Vertex v) const {
    if constexpr (RankedPuzzle<P>) {
      return p_->unrank(ranks[v]);
    } else {
      return states_[v];
    }
  }
  [[nodiscard]] bool contains(const State& s) const {
    if constexpr (RankedPuzzle<P>) {
      const std::uint64_t r = p_->rank(s);
      return r < members.size() && members.test(r);
    } else {
      return ids_.contains(s);
    }
  }
  // The vertex of s, which must be in the space.
  [[nodiscard]] Vertex vertex_of(const State& s) const {
    if constexpr (RankedPuzzle<P>) {
      return Vertex(members.index_of(p_->rank(s)));
    } else {
      return ids_.find(s)->second;
    }
  }

  // Ranked models: vertex id -> rank, ascending, and the sealed set of members.
  std::vector<std::uint64_t> ranks;
  RankBitset members;

 private:
  template <Puzzle Q>
  friend ExplicitSpace<Q> build_explicit_states(const Q& p, std::vector<typename Q::State> states,
                                                const MemoryBudget& budget, Progress* progress, bool with_edges);
  const P* p_ = nullptr;
  std::vector<State> states_;
  absl::flat_hash_map<State, Vertex> ids_;
};

namespace detail {
// tbb::parallel_for over [0, n) in 64 slices, one after another, reporting after each
// so that a pass over hundreds of millions of vertices shows it is alive.
template <class Body>
void parallel_for_reporting(std::uint64_t n, Progress* progress, std::string_view what, const Body& body) {
  const std::uint64_t slice = std::max<std::uint64_t>(1, (n + 63) / 64);
  for (std::uint64_t begin = 0; begin < n; begin += slice) {
    const std::uint64_t end = std::min(n, begin + slice);
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(begin, end), body);
    if (progress) progress->step(what, end, n);
  }
}

// Out-edges of every vertex into the CSR graph, computed in parallel. `degrees`:
// empty, or each vertex v's out-degree at [v + 1] already (the enumeration knew them).
template <Puzzle P>
void build_edges(const P& p, ExplicitSpace<P>& space, Progress* progress, std::vector<Vertex> degrees = {}) {
  const std::uint64_t n = space.vertices();
  const SuccessorVertices<P> successors(p, space);
  std::vector<Vertex> offsets = std::move(degrees);
  if (offsets.empty()) {
    reserve_huge(offsets, n + 1);
    offsets.resize(n + 1, 0);
    parallel_for_reporting(n, progress, "graph degrees", [&](const auto& range) {
      successors.for_each_vertex(range.begin(), range.end(),
                                 [&](Vertex v, const auto& s) { offsets[v + 1] = successors.degree(s); });
    });
  }
  offsets[0] = 0;
  std::uint64_t edges = 0;  // 64 bits, so that the check below sees an overflow
  for (std::uint64_t v = 1; v <= n; ++v) {
    edges += offsets[v];
    offsets[v] = Vertex(edges);
  }
  if (edges > kMaxGraphEdges) {
    throw UsageError(p.name() + ": " + with_commas(edges) +
                     " edges do not fit 32-bit edge ids (use --engine implicit)");
  }
  std::vector<Vertex> targets;
  reserve_huge(targets, edges);
  targets.resize(edges);
  parallel_for_reporting(n, progress, "graph edges", [&](const auto& range) {
    successors.for_each_vertex(range.begin(), range.end(), [&](Vertex v, const auto& s) {
      std::uint64_t e = offsets[v];
      successors.for_each_successor(v, s, [&](Vertex w) { targets[e++] = w; });
    });
  });
  space.graph = make_graph(std::move(offsets), std::move(targets));
  if (progress) progress->step("CSR graph", n, n);
}

// The breadth-first distances of a ranked enumeration's vertices from the ranks it
// found level by level: the search the graph was built from already gave them. When
// the order has degrees, `degrees` receives them as build_edges takes them.
inline BfsResult distances_by_level(const RankBitset& members, const LevelOrder& order,
                                    std::vector<std::uint64_t> layers, std::vector<Vertex>& degrees) {
  if (layers.size() > kUnreached) throw std::length_error("BFS depth exceeds 16-bit distances");
  BfsResult r;
  r.distance.assign(members.count(), kUnreached);
  const bool with_degrees = !order.degrees.empty();
  if (with_degrees) {
    reserve_huge(degrees, members.count() + 1);
    degrees.resize(members.count() + 1);
  }
  constexpr std::size_t kGrain = 4096;
  std::uint64_t begin = 0;
  for (std::size_t d = 0; d < layers.size(); ++d) {
    const std::uint64_t* level = order.ranks.data() + begin;
    const std::uint8_t* level_degrees = order.degrees.data() + begin;
    for_each_chunk(layers[d], kGrain, [&](const auto& range) {
      for (auto i = range.begin(); i != range.end(); ++i) {
        const std::uint64_t v = members.index_of(level[i]);
        r.distance[v] = Distance(d);
        if (with_degrees) degrees[v + 1] = level_degrees[i];
      }
    });
    begin += layers[d];
  }
  r.layers = std::move(layers);
  return r;
}

inline void require_vertex_ids(const std::string& name, std::uint64_t n) {
  if (n >= std::numeric_limits<Vertex>::max()) {
    throw UsageError(name + ": " + with_commas(n) + " states do not fit 32-bit vertex ids (use --engine implicit)");
  }
}

// The vertices of build_explicit, without their edges yet.
template <RankedPuzzle P>
ExplicitSpace<P> ranked_vertices(const P& p, RankBitset members, const MemoryBudget& budget, Progress* progress) {
  ExplicitSpace<P> space(p);
  space.members = std::move(members);
  space.members.seal();
  const std::uint64_t n = space.members.count();
  budget.require(explicit_bytes(p, n), p.name() + ": explicit graph");
  require_vertex_ids(p.name(), n);
  reserve_huge(space.ranks, n);
  space.ranks.resize(n);
  // In parallel: each run of words starts at the index of its first rank.
  constexpr std::size_t kWordGrain = 4096;
  for_each_chunk(space.members.word_count(), kWordGrain, [&](const auto& range) {
    std::uint64_t* out = space.ranks.data() + space.members.index_of(std::uint64_t(range.begin()) * 64);
    space.members.for_each(range.begin(), range.end(), [&](std::uint64_t r) { *out++ = r; });
  });
  if (progress) progress->step("vertex ids", n, n);
  return space;
}

}  // namespace detail

// The explicit graph over the positions whose ranks are set in `members`, which must
// be closed under the moves (a reachable set, or the whole rank space).
template <RankedPuzzle P>
ExplicitSpace<P> build_explicit(const P& p, RankBitset members, const MemoryBudget& budget,
                                Progress* progress = nullptr) {
  ExplicitSpace<P> space = detail::ranked_vertices(p, std::move(members), budget, progress);
  detail::build_edges(p, space, progress);
  return space;
}

// The explicit graph over `states` (closed under the moves), for models without a
// rank: vertex ids follow the states' ascending order. Without `with_edges`, the
// vertices alone (the graph stays empty).
template <Puzzle P>
ExplicitSpace<P> build_explicit_states(const P& p, std::vector<typename P::State> states, const MemoryBudget& budget,
                                       Progress* progress = nullptr, bool with_edges = true) {
  ExplicitSpace<P> space(p);
  budget.require(explicit_bytes(p, states.size()), p.name() + ": explicit graph");
  detail::require_vertex_ids(p.name(), states.size());
  std::sort(states.begin(), states.end());
  space.ids_.reserve(states.size());
  for (Vertex v = 0; v < states.size(); ++v) space.ids_.emplace(states[v], v);
  space.states_ = std::move(states);
  if (with_edges) detail::build_edges(p, space, progress);
  return space;
}

// Bytes enumerate_explicit needs at most: the graph and the visited set (the ranked
// enumeration keeps one bitset per worker). Models without a rank have no bound in
// advance: their need is checked as discovery goes and before the graph is built.
template <Puzzle P>
std::uint64_t enumerate_explicit_bytes(const P& p, LookupKind lookup = default_lookup<P>()) {
  const std::uint64_t bound = reachable_bound(p);
  std::uint64_t lookup_extra = lookup_bytes(lookup, p, bound);
  if constexpr (RankedPuzzle<P>) {
    if (lookup == LookupKind::kRanked) {
      lookup_extra = std::uint64_t(worker_threads()) * RankedLookup<P>::bytes_for(p);
    }
  }
  return explicit_bytes(p, bound) + lookup_extra;
}

namespace detail {

// The vertices of enumerate_explicit's graph, without its edges; `degrees` receives
// what build_edges takes (see there). The memory budget's up-front check is the
// caller's: in-flight checks (discovery's growth, the vertex count) stay here.
template <Puzzle P>
ExplicitSpace<P> enumerate_vertices(const P& p, const typename P::State& start, const MemoryBudget& budget,
                                    Progress* progress, LookupKind lookup, LookupStats* stats, BfsResult* bfs,
                                    std::vector<Vertex>& degrees) {
  LookupStats counts;
  if constexpr (RankedPuzzle<P>) {
    if (lookup == LookupKind::kRanked) {
      LevelOrder order;
      if (bfs) {
        reserve_huge(order.ranks, reachable_bound(p));
        reserve_huge(order.degrees, reachable_bound(p));
      }
      RankedEnumeration e = enumerate_ranked(p, start, progress, bfs ? &order : nullptr);
      counts.lookups = e.lookups;
      if (stats) *stats = counts;
      ExplicitSpace<P> space = ranked_vertices(p, std::move(e.members), budget, progress);
      if (bfs) *bfs = distances_by_level(space.members, order, std::move(e.layers), degrees);
      return space;  // the level order is freed before the edges, the largest allocations
    }
    RankBitset members(p.rank_space());
    with_lookup(
        lookup, p,
        [&](auto& visited) {
          const auto d = discover(p, start, visited, progress);
          for (const auto& s : d.order) members.insert(p.rank(s));
          counts = visited.stats();
        },
        reachable_bound(p));
    if (stats) *stats = counts;
    return ranked_vertices(p, std::move(members), budget, progress);
  } else {
    std::vector<typename P::State> states;
    with_lookup(lookup, p, [&](auto& visited) {
      auto d = discover(p, start, visited, progress, &budget);
      states = std::move(d.order);
      counts = visited.stats();
    });
    if (stats) *stats = counts;
    return build_explicit_states(p, std::move(states), budget, progress, false);
  }
}

}  // namespace detail

// Reachable set from `start` as an explicit graph, through the chosen visited set:
// ranked takes the parallel path (enumerate_ranked, whose workers keep one rank
// bitset each); the others run discover() with their set. `stats`, when given,
// receives the set's counts (the linear scans' comparisons). The graph is the same
// whatever the lookup. `bfs`, when given, receives the distances from `start` when
// the enumeration gives them (the ranked one) and stays empty otherwise.
template <Puzzle P>
ExplicitSpace<P> enumerate_explicit(const P& p, const typename P::State& start, const MemoryBudget& budget,
                                    Progress* progress = nullptr, LookupKind lookup = default_lookup<P>(),
                                    LookupStats* stats = nullptr, BfsResult* bfs = nullptr) {
  budget.require(enumerate_explicit_bytes(p, lookup), p.name() + ": explicit graph");
  std::vector<Vertex> degrees;
  ExplicitSpace<P> space = detail::enumerate_vertices(p, start, budget, progress, lookup, stats, bfs, degrees);
  detail::build_edges(p, space, progress, std::move(degrees));
  return space;
}

}  // namespace statespace
