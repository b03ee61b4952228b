// The ranked engine in the analyze pipeline (--engine ranked): the AnalysisResult of
// a search over rank bitsets (ranked_bfs.hpp), equal field for field to the explicit
// and sorted-levels engines' (engine, lookup and run facts aside), so the same report
// writers give the same files.
//
// Successors come from the model's rank-to-rank moves when it has them
// (RankSuccessorPuzzle), else by unrank, for_each_successor, rank. The goal side of
// the space (GoalView) reuses the same two planes: the reachable set, inverted,
// becomes the `seen` set of a second search from every reachable goal position, so
// it never leaves the reachable positions. On an undirected space it follows the
// moves; on a directed one the predecessors (ReversiblePuzzle), and reachable
// positions it never meets are the dead ends. A directed model without predecessors
// gets no goal view but the views it cannot give, named in `unavailable`.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <bit>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/engines/directed.hpp"
#include "analysis/engines/options.hpp"
#include "analysis/engines/ranked/parity_bfs.hpp"
#include "analysis/engines/ranked/ranked_bfs.hpp"
#include "analysis/engines/ranked/ranked_checkpoint.hpp"
#include "analysis/engines/result.hpp"
#include "analysis/runtime/goal_table.hpp"
#include "analysis/runtime/memory.hpp"
#include "analysis/runtime/progress.hpp"
#include "analysis/runtime/threads.hpp"
#include "core/errors.hpp"
#include "core/puzzle.hpp"

namespace statespace {

// What summary.json's "lookup" says of this engine: the visited set is a bitset over
// the rank space.
inline constexpr std::string_view kRankedLookup = "rank-bitsets";

// Bytes the ranked engine allocates for p on the current threads.
template <RankedPuzzle P>
std::uint64_t ranked_bytes(const P& p) {
  return RankedLayers::bytes(p.rank_space(), worker_threads(), p.max_moves());
}

// Whether the ranked engine can take p at all: a rank space of at least one position,
// and no position with more successors than a queue step holds.
template <RankedPuzzle P>
bool ranked_engine_fits(const P& p) {
  return p.rank_space() > 0 && p.max_moves() <= int(ranked_detail::kMostMoves);
}

// Moves that make a uniform graph: when p.uniform() is true, every position has
// exactly max_moves() successors, p.self_loops(r) of them rank r itself, and the
// moves pair one to one with their inverses (a regular graph, RegularPuzzle in
// core/puzzle.hpp, but for the self-loops: identical pieces a move swaps unseen). A
// level's moves then follow from its size, its self-loops and its moves onward, and
// the search may find a late level backwards as on a regular space.
template <class P>
concept UniformPuzzle = RankedPuzzle<P> && requires(const P& p, std::uint64_t r) {
  { p.uniform() } -> std::convertible_to<bool>;
  { p.self_loops(r) } -> std::convertible_to<int>;
};

// Whether p's moves are uniform; false for every model without the capability.
template <Puzzle P>
[[nodiscard]] bool is_uniform(const P& p) {
  if constexpr (UniformPuzzle<P>) {
    return p.uniform();
  } else {
    return false;
  }
}

namespace ranked_detail {

// Whether a search over p may find late levels backwards: a regular space, or a
// uniform one whose self-loops the search then counts.
template <RankedPuzzle P>
bool pulls(const P& p) {
  return is_regular(p) || is_uniform(p);
}
// p's self-loops, counted where p is uniform but not regular.
template <RankedPuzzle P>
auto self_loops(const P& p) {
  if constexpr (UniformPuzzle<P>) {
    return SelfLoops{[&p](std::uint64_t r) { return p.self_loops(r); }, !is_regular(p) && p.uniform()};
  } else {
    return NoSelfLoops{};
  }
}

// Whether s is a goal position: the file's goal predicate when it has one, else the
// model's goal position.
template <RankedPuzzle P>
bool is_goal_position(const P& p, const typename P::State& s, const typename P::State& goal) {
  if constexpr (PartialGoalPuzzle<P>) {
    if (p.has_goal()) return p.is_goal(s);
  }
  return s == goal;
}

// Folds a search's last level (the tables' frontier, one process's tables) into a
// distance table, when there is one.
template <class Layers>
void fold_level(GoalTable* table, const Layers& tables, std::size_t depth) {
  if constexpr (requires { tables.frontier_words(); }) {
    if (table) table->set_distance(tables.frontier_words(), unsigned(depth));
  }
}

// The goal view, searched over `tables` once the forward search left the reachable
// set in `seen`: `reachable` positions, `start` the start's rank. With `table`,
// every level found also goes into it.
template <RankedPuzzle P, class Layers, class Expand>
GoalView ranked_goal_view(const P& p, Layers& tables, std::uint64_t reachable, std::uint64_t start,
                          std::string goal_text, const Expand& expand_rank, bool progress, GoalTable* table = nullptr) {
  GoalView view;
  view.goal = std::move(goal_text);
  const typename P::State goal = p.goal();
  view.reached = tables.restart_from([&](std::uint64_t r) { return is_goal_position(p, p.unrank(r), goal); });
  if (view.reached == 0) {
    if (is_directed(p)) view.dead_ends = reachable;
    return view;
  }
  Progress clock(p.name() + " goal view", progress);
  const RankedSearch from_goals = ranked_search(
      tables, view.reached, p.max_moves(), expand_rank, &clock,
      [&](const RankedSearch& s) {
        if (!view.shortest && tables.in_frontier(start)) view.shortest = unsigned(s.layers.size() - 1);
        fold_level(table, tables, s.layers.size() - 1);
      },
      pulls(p), self_loops(p));
  view.layers = from_goals.layers;
  for (const std::uint64_t r : tables.frontier_ranks()) view.hardest.push_back(p.format(p.unrank(r)));
  if (is_directed(p)) view.dead_ends = reachable - from_goals.states();
  if constexpr (requires { tables.state_tables(); }) {
    // What the search from the goals left unseen is reachable and cannot reach one.
    if (table) table->set_dead_where_clear(tables.state_tables()[0].words());
  } else if constexpr (requires { tables.seen_words(); }) {
    if (table) table->set_dead_where_clear(tables.seen_words());
  }
  return view;
}

// An empty distance table for p's ranks (directed spaces: one byte a rank), or for
// the first `entries` of them (an MPI process's part: distributed/ranked_mpi.hpp).
template <RankedPuzzle P>
std::shared_ptr<GoalTable> new_ranked_table(const P& p, std::string goal_text,
                                            std::optional<std::uint64_t> entries = {}) {
  GoalTableHeader h;
  h.puzzle = p.name();
  h.identity = ranked_identity(p);
  h.goal = std::move(goal_text);
  h.index = "rank";
  h.directed = is_directed(p);
  h.encoding = h.directed ? TableEncoding::byte : TableEncoding::two_bits;
  h.entries = entries.value_or(p.rank_space());
  return std::make_shared<GoalTable>(std::move(h));
}

// The result's counts from a forward search of p from `start`: all but the
// farthest positions, the goal views and the run facts.
template <RankedPuzzle P>
AnalysisResult ranked_result(const P& p, const typename P::State& start, Engine engine, const RankedSearch& search) {
  const bool directed = is_directed(p);
  AnalysisResult r;
  r.puzzle = p.name();
  r.start = p.format(start);
  r.engine = engine_name(engine);
  r.lookup = kRankedLookup;
  r.directed = directed;
  r.states = search.states();
  r.layers = search.layers;
  std::uint64_t successors = 0;
  for (const auto& m : search.moves) successors += m.successors;
  // Undirected: each move is made from both of its ends. Directed: once, forward.
  r.edges = directed ? successors : successors / 2;
  for (std::size_t d = 0; d < search.moves.size(); ++d) {
    const RankedLevelMoves& m = search.moves[d];
    const std::uint64_t within = directed ? m.within : m.within / 2;
    if (within) r.layer_edges.push_back({unsigned(d), unsigned(d), within});
    if (m.onward) r.layer_edges.push_back({unsigned(d), unsigned(d + 1), m.onward});
  }
  return r;
}

}  // namespace ranked_detail

// Whether the search of p for o keeps three states a rank (parity_bfs.hpp) rather
// than the two planes: on an undirected uniform space on one process with fewer than
// 2^16 moves a position, with nothing to read the planes afterwards (a distance
// table, a partial goal's view, checkpoints). The states take 1.6 bits a rank against
// the planes' 2, which puts the peak under twsearch's, and on the cubes and cuboids
// they are as fast. Where most ranks are never reached they cost up to 1.7 times the
// planes' time (every pushed level too large to list expands its parity's earlier
// levels again), and 1.4 times on turnstile, whose pull is slower on them.
template <RankedPuzzle P>
bool parity_search_applies(const P& p, const AnalyzeOptions& o) {
  bool partial_goal = false;
  if constexpr (PartialGoalPuzzle<P>) partial_goal = p.has_goal();
  return !is_directed(p) && ranked_detail::pulls(p) && p.max_moves() < 1 << 16 && !partial_goal && !o.table &&
         o.checkpoint.empty() && o.resume.empty();
}

// Bytes the ranked engine allocates for p and o on the current threads.
template <RankedPuzzle P>
std::uint64_t ranked_bytes(const P& p, const AnalyzeOptions& o) {
  return parity_search_applies(p, o) ? ParityPlanes::bytes(p.rank_space()) : ranked_bytes(p);
}

// The analysis over three states a rank; `most_listed` as ParityPlanes takes it.
template <RankedPuzzle P>
AnalysisResult analyze_parity(const P& p, const AnalyzeOptions& o, const typename P::State& start,
                              std::optional<std::uint64_t> most_listed = {}) {
  const auto forward = ranked_detail::forward_moves(p);
  const auto loops = ranked_detail::self_loops(p);
  const std::uint64_t start_rank = p.rank(start);
  std::vector<std::uint64_t> farthest;
  RankedSearch search;
  {
    Progress progress(p.name() + " ranked bfs, three states a rank", o.progress);
    ParityPlanes planes(p.rank_space(), most_listed);
    search = planes.search(start_rank, p.max_moves(), forward, loops, &progress, farthest);
  }
  // The last level was too large to list as it was found: a second search lists it.
  if (farthest.empty()) {
    Progress progress(p.name() + " ranked bfs again, listing the farthest positions", o.progress);
    ParityPlanes planes(p.rank_space());
    planes.search(start_rank, p.max_moves(), forward, loops, &progress, farthest, search.layers.size() - 1);
  }
  AnalysisResult r = ranked_detail::ranked_result(p, start, Engine::ranked, search);
  r.farthest.reserve(farthest.size());
  for (const std::uint64_t rank : farthest) r.farthest.push_back(p.format(p.unrank(rank)));
  return r;
}

// Fills everything but the run facts (threads, seconds, peak bytes), from `start`,
// over `tables` (RankedLayers over the whole rank space, or an MPI process's part:
// distributed/ranked_mpi.hpp, where only rank 0 receives the positions it formats).
// The forward search resumes and writes the checkpoints `ck` names (one process only).
template <RankedPuzzle P, class Layers>
AnalysisResult analyze_ranked_on(const P& p, const AnalyzeOptions& o, const typename P::State& start, Layers& tables,
                                 Engine engine, const RankedCheckpoints& ck = {}) {
  const bool directed = is_directed(p);
  const auto forward = ranked_detail::forward_moves(p);
  const std::uint64_t start_rank = p.rank(start);
  bool partial_goal = false;
  std::string goal_text;
  if constexpr (PartialGoalPuzzle<P>) {
    partial_goal = p.has_goal();
    if (partial_goal) goal_text = p.goal_text();
  }
  if (!partial_goal) goal_text = p.format(p.goal());
  // analyze --table (one process): the distances to the goal. The forward search
  // gives them when it starts from the goal on an undirected space; otherwise the
  // search from the goals (the goal view's, run for the table alone where the
  // reports need none) fills the table.
  std::shared_ptr<GoalTable> table;
  if constexpr (requires { tables.state_tables(); }) {
    if (o.table) table = ranked_detail::new_ranked_table(p, goal_text);
  } else if constexpr (requires { tables.table_part(); }) {
    // Over MPI each process fills the part of its own ranks, gathered below.
    if (o.table) table = ranked_detail::new_ranked_table(p, goal_text, tables.table_part());
  }
  const bool from_goal = !directed && !partial_goal && p.format(start) == goal_text;
  GoalTable* forward_table = from_goal ? table.get() : nullptr;
  RankedSearch search;
  {
    Progress progress(p.name() + " ranked bfs", o.progress);
    if constexpr (requires { tables.state_tables(); }) {
      if (ck.resumed || !ck.write_to.empty()) {
        CheckpointState base;
        if (ck.resumed) {
          read_checkpoint_tables(ck.resume_from, tables.state_tables());
          base = *ck.resumed;
          search = resumed_search(base);
          progress.note("resumed at level " + std::to_string(base.level) + " from " + ck.resume_from.string());
        } else {
          tables.seed(start_rank);
          search.layers = {1};
          base.puzzle = p.name();
          base.identity = ranked_identity(p);
          base.start = p.format(start);
        }
        RankedCheckpointWriter writer(ck, std::move(base), tables.state_tables(), progress);
        // A resumed search has lost its earlier levels: the table then comes from
        // the search from the goal below.
        GoalTable* fold = ck.resumed ? nullptr : forward_table;
        search = ranked_search(
            tables, std::move(search), p.max_moves(), forward, &progress,
            [&](const RankedSearch& s) {
              writer.level(s);
              ranked_detail::fold_level(fold, tables, s.layers.size() - 1);
            },
            ranked_detail::pulls(p), ranked_detail::self_loops(p));
        if (ck.resumed) forward_table = nullptr;
      }
    }
    if (search.layers.empty()) {
      if (tables.owns(start_rank)) tables.seed(start_rank);
      search = ranked_search(
          tables, 1, p.max_moves(), forward, &progress,
          [&](const RankedSearch& s) { ranked_detail::fold_level(forward_table, tables, s.layers.size() - 1); },
          ranked_detail::pulls(p), ranked_detail::self_loops(p));
    }
  }
  AnalysisResult r = ranked_detail::ranked_result(p, start, engine, search);
  GoalTable* goal_table = forward_table ? nullptr : table.get();
  const std::vector<std::uint64_t> farthest = tables.frontier_ranks();
  // Only a goal view below searches the tables again.
  bool searched_again = partial_goal || goal_table;
  if constexpr (ReversiblePuzzle<P>) searched_again = searched_again || directed;
  if constexpr (requires { tables.release(); }) {
    if (!searched_again) tables.release();
  }
  r.farthest.reserve(farthest.size());
  for (const std::uint64_t rank : farthest) r.farthest.push_back(p.format(p.unrank(rank)));

  if (!directed) {
    if (partial_goal) {
      r.goal =
          ranked_detail::ranked_goal_view(p, tables, r.states, start_rank, goal_text, forward, o.progress, goal_table);
    } else if (goal_table) {
      goal_table->header().layers =
          ranked_detail::ranked_goal_view(p, tables, r.states, start_rank, goal_text, forward, o.progress, goal_table)
              .layers;
    }
  } else if constexpr (ReversiblePuzzle<P>) {
    const auto backward = [&p](std::uint64_t rank, const auto& f) {
      p.for_each_predecessor(p.unrank(rank), [&](const typename P::State& t) { f(p.rank(t)); });
    };
    r.goal =
        ranked_detail::ranked_goal_view(p, tables, r.states, start_rank, goal_text, backward, o.progress, goal_table);
  } else {
    r.unavailable = goal_views_unavailable(no_predecessors_reason());
  }
  if (table) {
    GoalTableHeader& h = table->header();
    h.reached = r.states;
    if (forward_table) {
      h.layers = r.layers;
    } else if (r.goal) {
      h.layers = r.goal->layers;
    }  // else the search for the table alone set them
    std::uint64_t with_distance = 0;
    for (const auto n : h.layers) with_distance += n;
    h.dead = h.reached - with_distance;
    if constexpr (requires { tables.gather_table(table); }) table = tables.gather_table(std::move(table));
    r.table = std::move(table);
  }
  return r;
}

// The analysis on this process's threads, with o's checkpoints. The memory need
// (ranked_bytes) is checked here unless `memory_checked`, and a resumed
// checkpoint's header unless given (`resumed`, as choose_engine read it).
template <RankedPuzzle P>
AnalysisResult analyze_ranked(const P& p, const AnalyzeOptions& o, const typename P::State& start,
                              bool memory_checked = false, std::optional<CheckpointState> resumed = {}) {
  if (!ranked_engine_fits(p)) {
    throw UsageError(p.name() + ": --engine ranked needs at most " + std::to_string(ranked_detail::kMostMoves) +
                     " moves from a position (use --engine explicit)");
  }
  if (!o.resume.empty() && !resumed) resumed = ranked_resumed_header(p, o, start);
  if (!memory_checked) o.memory.require(ranked_bytes(p, o), p.name() + ": ranked BFS");
  if (parity_search_applies(p, o)) return analyze_parity(p, o, start);
  const RankedCheckpoints ck = RankedCheckpoints::from(o, std::move(resumed));
  RankedLayers tables(p.rank_space());
  return analyze_ranked_on(p, o, start, tables, Engine::ranked, ck);
}

// The same from o's start.
template <RankedPuzzle P>
AnalysisResult analyze_ranked(const P& p, const AnalyzeOptions& o) {
  return analyze_ranked(p, o, resolve_start(p, o));
}

}  // namespace statespace
