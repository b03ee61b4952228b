// The analysis of one puzzle from one start: enumerate the reachable graph, take the
// distances from the enumeration's levels (ranked lookup) or run the parallel BFS on
// the graph (the others), and collect what the reports show (layers, farthest positions,
// edges between layers), plus the optional all-pairs diameter and the components of
// the whole rank space.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <boost/graph/connected_components.hpp>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/engines/directed.hpp"
#include "analysis/engines/explicit/bfs.hpp"
#include "analysis/engines/explicit/diameter.hpp"
#include "analysis/engines/explicit/explicit_space.hpp"
#include "analysis/engines/explicit/goal_view.hpp"
#include "analysis/engines/explicit/successor_bfs.hpp"
#include "analysis/engines/explicit/successor_vertices.hpp"
#include "analysis/engines/options.hpp"
#include "analysis/engines/result.hpp"
#include "analysis/runtime/memory.hpp"
#include "analysis/runtime/progress.hpp"
#include "core/errors.hpp"
#include "core/lookup.hpp"
#include "core/puzzle.hpp"

namespace statespace {

// The result and, when an output needed it, the explicit graph it came from (for
// graph.dot).
template <Puzzle P>
struct AnalysisRun {
  AnalysisResult result;
  bool graph = false;  // space holds the graph and distance its distances
  ExplicitSpace<P> space;
  std::vector<Distance> distance;  // per vertex of space
  bool writes_reports = true;      // false on MPI processes other than rank 0
};

// Edges between depths, each undirected edge once: from the shallower end, or from
// the smaller vertex within one depth. BFS depths of the two ends of an edge differ by
// at most one, so two counters per depth (same depth, next depth) cover every edge;
// each thread counts a slice of the vertices into its own array.
// The depths of a BFS: one more than the largest finite distance (1 when none).
inline std::size_t depth_count(const std::vector<Distance>& dist) {
  Distance deepest = 0;
  for (auto d : dist) {
    if (d != kUnreached) deepest = std::max(deepest, d);
  }
  return std::size_t(deepest) + 1;
}

inline std::vector<LayerEdges> count_layer_edges(const Graph& g, const std::vector<Distance>& dist) {
  const std::size_t slots = 2 * depth_count(dist);
  tbb::enumerable_thread_specific<std::vector<std::uint64_t>> local(std::vector<std::uint64_t>(slots, 0));
  tbb::parallel_for(tbb::blocked_range<Vertex>(0, Vertex(num_vertices(g))), [&](const auto& range) {
    auto& counts = local.local();
    for (Vertex u = range.begin(); u != range.end(); ++u) {
      if (dist[u] == kUnreached) continue;
      for (auto [e, end] = out_edges(u, g); e != end; ++e) {
        const Vertex v = target(*e, g);
        if (dist[v] == dist[u] + 1 || (dist[v] == dist[u] && u < v)) ++counts[2 * dist[u] + (dist[v] - dist[u])];
      }
    }
  });
  std::vector<std::uint64_t> total(slots, 0);
  for (const auto& counts : local) {
    for (std::size_t i = 0; i < slots; ++i) total[i] += counts[i];
  }
  std::vector<LayerEdges> out;
  for (std::size_t i = 0; i < slots; ++i) {
    if (total[i]) out.push_back({unsigned(i / 2), unsigned(i / 2 + i % 2), total[i]});
  }
  return out;
}

// The moves of a directed graph between depths, each once in its direction: from the
// depth of its origin to that of its target, which may be any earlier depth, the same
// one or the next. Ordered by origin depth, then target depth.
inline std::vector<LayerEdges> count_directed_layer_edges(const Graph& g, const std::vector<Distance>& dist) {
  // A sparse map per thread: a counter for every pair of depths would grow with the
  // square of the depth, and most pairs never meet.
  using Counts = std::map<std::pair<unsigned, unsigned>, std::uint64_t>;
  tbb::enumerable_thread_specific<Counts> local;
  tbb::parallel_for(tbb::blocked_range<Vertex>(0, Vertex(num_vertices(g))), [&](const auto& range) {
    auto& counts = local.local();
    for (Vertex u = range.begin(); u != range.end(); ++u) {
      if (dist[u] == kUnreached) continue;
      for (auto [e, end] = out_edges(u, g); e != end; ++e) ++counts[{dist[u], dist[target(*e, g)]}];
    }
  });
  Counts total;
  for (const auto& counts : local) {
    for (const auto& [depths_pair, n] : counts) total[depths_pair] += n;
  }
  std::vector<LayerEdges> out;
  for (const auto& [pair, n] : total) {
    out.push_back({pair.first, pair.second, n});
  }
  return out;
}

// count_layer_edges for a graph without an edge inside a depth (BipartitePuzzle):
// the edges between d and d+1 are the degrees of depth d less the edges between d-1
// and d, so a pass over the row starts replaces the walk over every edge.
inline std::vector<LayerEdges> layer_edges_from_degrees(const Graph& g, const std::vector<Distance>& dist) {
  std::vector<std::uint64_t> degrees(depth_count(dist), 0);  // per depth
  tbb::enumerable_thread_specific<std::vector<std::uint64_t>> local(std::vector<std::uint64_t>(degrees.size(), 0));
  tbb::parallel_for(tbb::blocked_range<Vertex>(0, Vertex(num_vertices(g))), [&](const auto& range) {
    auto& sums = local.local();
    for (Vertex u = range.begin(); u != range.end(); ++u) {
      if (dist[u] != kUnreached) sums[dist[u]] += out_degree(u, g);
    }
  });
  for (const auto& sums : local) {
    for (std::size_t d = 0; d < degrees.size(); ++d) degrees[d] += sums[d];
  }
  std::vector<LayerEdges> out;
  std::uint64_t before = 0;  // edges between d-1 and d
  for (std::size_t d = 0; d < degrees.size(); ++d) {
    before = degrees[d] - before;
    if (before) out.push_back({unsigned(d), unsigned(d + 1), before});
  }
  return out;
}

template <Puzzle P>
Diameter find_diameter(const P& p, const ExplicitSpace<P>& space, std::uint64_t limit) {
  std::vector<Vertex> sources;
  Diameter d;
  if constexpr (SymmetricPuzzle<P>) {
    for (const auto& s : p.symmetry_representatives()) {
      if (space.contains(s)) sources.push_back(space.vertex_of(s));
    }
    d.method = "blank-symmetry";
  } else {
    if (space.vertices() > limit) {
      throw UsageError(p.name() + ": --all-pairs needs one BFS per position, " + std::to_string(space.vertices()) +
                       " here, over the limit of " + std::to_string(limit) + " (raise it with --all-pairs-limit N)");
    }
    sources.resize(space.vertices());
    for (Vertex v = 0; v < sources.size(); ++v) sources[v] = v;
    d.method = "all-pairs";
  }
  const auto pair = max_eccentricity(space.graph, sources);
  d.length = pair.length;
  d.from = p.format(space.state(pair.from));
  d.to = p.format(space.state(pair.to));
  d.sources = sources.size();
  return d;
}

// With `start`, also the size of its component.
template <Puzzle P>
Components find_components(const P& p, const MemoryBudget& budget, const typename P::State* start = nullptr) {
  const ExplicitSpace<P> all = [&] {
    if constexpr (RankedPuzzle<P>) {
      return build_explicit(p, RankBitset::full(p.rank_space()), budget);
    } else {
      std::vector<typename P::State> every;
      for_each_position(p, [&](const typename P::State& s) { every.push_back(s); });
      return build_explicit_states(p, std::move(every), budget);
    }
  }();
  std::vector<Vertex> component(all.vertices());
  // The graph is directed but symmetric, so a depth-first search from each unvisited
  // vertex finds exactly its undirected component.
  const Vertex count = boost::connected_components(all.graph, component.data());
  Components c;
  c.positions = all.vertices();
  c.sizes.assign(count, 0);
  for (const Vertex v : component) ++c.sizes[v];
  if (start && all.contains(*start)) c.start = c.sizes[component[all.vertex_of(*start)]];
  std::sort(c.sizes.rbegin(), c.sizes.rend());
  return c;
}

// The goal side of a directed space into r: the goal view by predecessors when the
// model has them; else what the search from the start gives (the goal positions it
// reaches, the shortest solution), and the views it cannot give in r.unavailable.
template <Puzzle P>
void directed_goal_facts(const P& p, const AnalyzeOptions& o, const ExplicitSpace<P>& space,
                         [[maybe_unused]] Vertex start, [[maybe_unused]] const std::vector<Distance>& from_start,
                         AnalysisResult& r) {
  const auto goal = DirectedGoal<P>::of(p, o);
  if (!goal) {
    r.unavailable = goal_views_unavailable(no_goal_reason());
    return;
  }
  if constexpr (ReversiblePuzzle<P>) {
    r.goal = directed_goal_view(p, space, start, *goal);
  } else {
    r.goal = forward_goal_view(space, from_start, *goal);
    r.unavailable = goal_views_unavailable(no_predecessors_reason());
  }
}

// Whether an output of `o` needs the explicit graph of a space of `vertices`
// positions: graph.dot within o.dot_limit and --all-pairs walk it; --components and
// --lookup keep it too, as the lookup studies and the components' timings count it.
inline bool explicit_graph_needed(const AnalyzeOptions& o, std::uint64_t vertices) {
  return o.all_pairs || o.components || o.lookup.has_value() || (o.draw_graph && vertices <= o.dot_limit);
}

// Fills everything but the run facts (threads, seconds, peak bytes). With
// `keep_graph`, or when an output needs it (explicit_graph_needed), the CSR graph is
// built and kept; otherwise the distances and the moves between depths come from a
// search through the model's successors (successor_bfs). Either way the numbers are
// the same. The memory budget's up-front check (enumerate_explicit_bytes) is the
// caller's.
template <Puzzle P>
AnalysisRun<P> analyze_explicit(const P& p, const AnalyzeOptions& o, const typename P::State& start, bool keep_graph) {
  refuse_undirected_only(p, o);
  const bool directed = is_directed(p);
  const LookupKind lookup = o.lookup.value_or(default_lookup<P>());
  LookupStats lookup_stats;
  BfsResult bfs;  // distances, from the enumeration when it kept them
  AnalysisRun<P> run;
  std::uint64_t moves = 0;  // successors over all vertices; the graph's edge count when it is built
  AnalysisResult& r = run.result;
  {
    Progress enumerate_progress(p.name() + " enumerate", o.progress);
    std::vector<Vertex> degrees;
    // The enumeration's distances are only worth their memory when the graph is built:
    // otherwise the successor search finds them with the moves.
    const bool graph_likely = keep_graph || explicit_graph_needed(o, reachable_bound(p));
    run.space = detail::enumerate_vertices(p, start, o.memory, &enumerate_progress, lookup, &lookup_stats,
                                           graph_likely ? &bfs : nullptr, degrees);
    run.graph = keep_graph || explicit_graph_needed(o, run.space.vertices());
    if (run.graph) {
      detail::build_edges(p, run.space, &enumerate_progress, std::move(degrees));
      moves = num_edges(run.space.graph);
    }
  }
  if (run.graph && bfs.distance.empty()) {
    Progress bfs_progress(p.name() + " bfs", o.progress);
    bfs = parallel_bfs(run.space.graph, run.space.vertex_of(start), &bfs_progress);
  } else if (!run.graph) {
    Progress bfs_progress(p.name() + " bfs", o.progress);
    SuccessorBfs search = successor_bfs(p, run.space, run.space.vertex_of(start), &bfs_progress, directed);
    bfs = std::move(search.bfs);
    moves = search.moves;
    r.layer_edges = std::move(search.layer_edges);
  }

  r.puzzle = p.name();
  r.start = p.format(start);
  r.engine = engine_name(Engine::explicit_graph);
  r.lookup = lookup_name(lookup);
  if (counts_comparisons(lookup)) r.comparisons = lookup_stats.comparisons;
  r.states = run.space.vertices();
  r.edges = directed ? moves : moves / 2;
  r.directed = directed;
  r.layers = bfs.layers;
  r.symmetry = symmetry_group_of(p);
  if constexpr (OrbitCountingPuzzle<P>) {
    // Up to symmetry: the positions each depth's classes stand for.
    if (p.symmetries() > 1) {
      r.layer_positions.assign(r.layers.size(), 0);
      for (Vertex v = 0; v < run.space.vertices(); ++v) {
        if (bfs.distance[v] < r.layers.size()) r.layer_positions[bfs.distance[v]] += p.orbit_size(run.space.state(v));
      }
    }
  }
  const Distance far = Distance(r.eccentricity());
  for (Vertex v = 0; v < run.space.vertices(); ++v) {
    if (bfs.distance[v] == far) r.farthest.push_back(p.format(run.space.state(v)));
  }
  if (run.graph) {
    if constexpr (BipartitePuzzle<P>) {
      r.layer_edges = layer_edges_from_degrees(run.space.graph, bfs.distance);
    } else {
      r.layer_edges = directed ? count_directed_layer_edges(run.space.graph, bfs.distance)
                               : count_layer_edges(run.space.graph, bfs.distance);
    }
  }
  if (o.all_pairs) r.diameter = find_diameter(p, run.space, o.all_pairs_limit);
  if (o.components) r.components = find_components(p, o.memory, &start);
  if (directed) {
    directed_goal_facts(p, o, run.space, run.space.vertex_of(start), bfs.distance, r);
  } else if constexpr (PartialGoalPuzzle<P>) {
    if (p.has_goal()) {
      if (run.graph) {
        r.goal = goal_view(p, run.space, bfs.distance);
      } else {
        const detail::SuccessorVertices<P> successors(p, run.space);
        r.goal = goal_view(p, run.space, bfs.distance,
                           [&](Vertex u, const auto& f) { successors.for_each_successor(u, run.space.state(u), f); });
      }
    }
  }
  run.distance = std::move(bfs.distance);
  return run;
}

// The same from o's start, with the graph kept and the memory budget checked first:
// the entry point of the tests and benchmarks, which compare engines on one graph.
template <Puzzle P>
AnalysisRun<P> analyze_explicit(const P& p, const AnalyzeOptions& o) {
  const LookupKind lookup = o.lookup.value_or(default_lookup<P>());
  refuse_undirected_only(p, o);
  o.memory.require(enumerate_explicit_bytes(p, lookup), p.name() + ": explicit graph");
  return analyze_explicit(p, o, resolve_start(p, o), true);
}

}  // namespace statespace
