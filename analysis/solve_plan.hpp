// `statespace solve` planned the way analyze is (analysis/analyze.hpp): plan_solve()
// takes every decision a request needs before any search (the start and the goal,
// the method from the engine table's rows that give a path, the visited set and its
// memory) and refuses a request no method can serve; run_solve() runs the plan. A
// method is one alternative of SolveMethod and one branch of run_solve().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>

#include "analysis/engines/explicit/explicit_space.hpp"
#include "analysis/engines/options.hpp"
#include "analysis/runtime/memory.hpp"
#include "analysis/runtime/progress.hpp"
#include "analysis/solvers/bidirectional.hpp"
#include "analysis/solvers/graded_chain_solve.hpp"
#include "analysis/solvers/solve.hpp"
#include "core/errors.hpp"
#include "core/lookup.hpp"
#include "core/puzzle.hpp"
#include "core/rank_bitset.hpp"

namespace statespace {

// What solve is asked for, as the command line gave it.
struct SolveRequest {
  std::string from;                   // the start position; empty: a puzzle file's start
  std::string goal;                   // the goal position; empty: the puzzle's goal (or its partial goal)
  bool from_file = false;             // the puzzle is a file, which names its start
  Engine method = Engine::automatic;  // bfs, bidirectional, ida, or automatic
  std::optional<LookupKind> lookup;   // --lookup when given: the visited set of the breadth-first search
  bool batch = false;                 // --batch: positions from a file, for the optimal solver
  MemoryBudget memory;
  std::uint64_t most_comparisons = ~std::uint64_t{0};  // of a linear --lookup
  bool progress = true;                                // progress lines on stderr
};

// The methods. OptimalSolve: IDA* over pattern databases, which reads its own
// positions (one, or a --batch file) and runs apart (cli/optimal.hpp).
struct OptimalSolve {};
// A search from both ends in one queue (analysis/solvers/bidirectional.hpp).
struct BidirectionalSolve {};
// Graded chain layers (analysis/solvers/graded_chain_solve.hpp) over the start's packing.
template <class Packing>
struct GradedChainSolve {
  Packing packing;
};
// Breadth-first from the start through the visited set `lookup` (analysis/solvers/solve.hpp).
struct BfsSolve {
  LookupKind lookup = LookupKind::kRanked;
};

namespace detail {
// P's packing when its chain moves may be searched by graded layers, else monostate.
template <class P>
struct ChainPackingOf {
  using type = std::monostate;
};
template <WordPackedPuzzle P>
requires GradedChainPacking<typename P::Packing> && GoalTestingPacking<typename P::Packing>
struct ChainPackingOf<P> {
  using type = typename P::Packing;
};
}  // namespace detail

template <Puzzle P>
using SolveMethod = std::variant<OptimalSolve, BidirectionalSolve,
                                 GradedChainSolve<typename detail::ChainPackingOf<P>::type>, BfsSolve>;

// What plan_solve() decided. start, goal and partial are unset for OptimalSolve.
template <Puzzle P>
struct SolvePlan {
  SolveMethod<P> method;
  typename P::State start{};
  typename P::State goal{};
  bool partial = false;  // to any position the puzzle's partial goal accepts, not to `goal`
};

// The engine-table row of a plan's method.
template <Puzzle P>
Engine solve_engine(const SolvePlan<P>& plan) {
  return std::visit(
      [](const auto& m) {
        using M = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<M, OptimalSolve>) {
          return Engine::ida;
        } else if constexpr (std::is_same_v<M, BidirectionalSolve>) {
          return Engine::bidirectional;
        } else if constexpr (std::is_same_v<M, BfsSolve>) {
          return Engine::bfs;
        } else {
          return Engine::chains;
        }
      },
      plan.method);
}

// Whether the optimal solver is the default: boards whose space no breadth-first
// search stores (tiles:4x4).
template <Puzzle P>
bool optimal_by_default(const P& p) {
  if constexpr (TileGridPuzzle<P>) {
    return p.rows() == 4 && p.cols() == 4;
  } else {
    return false;
  }
}

// The method r asks for, or the one automatic means on p: the optimal solver on
// --method ida, --batch and, without --goal, the boards optimal_by_default names; the
// bidirectional search when asked; graded chain layers for chain moves made of graded
// single applications unless --lookup chose a visited set; otherwise breadth-first,
// through a ranked visited set unless --lookup names another, or the model has no
// rank, or the rank bitset does not fit r.memory (a hash set grows with the search
// instead). Throws UsageError (ParseError for a missing or bad position) for a request
// no method serves, before any search.
template <Puzzle P>
SolvePlan<P> plan_solve(const P& p, const SolveRequest& r) {
  static_assert(command_needs(Command::solve) == kGivesPath);
  SolvePlan<P> plan;
  if (r.method == Engine::ida || r.batch ||
      (r.method == Engine::automatic && r.goal.empty() && optimal_by_default(p))) {
    if (!r.goal.empty()) throw UsageError("solve: the optimal solver (--method ida, --batch) solves to the goal only");
    plan.method = OptimalSolve{};
    return plan;
  }
  if (r.method == Engine::bidirectional && r.lookup) {
    throw UsageError("solve: --lookup applies to --method bfs (the bidirectional search indexes its states itself)");
  }
  if constexpr (GoalPredicatePuzzle<P>) plan.partial = r.goal.empty() && p.has_goal();
  // A puzzle file names its start, so every kind of file solves without a position;
  // a built-in model only knows its goal.
  if (r.from.empty() && !plan.partial && !r.from_file) {
    throw ParseError("solve: missing POSITION (usage: statespace solve PUZZLE POSITION [options])");
  }
  if (r.from.empty()) {
    if constexpr (requires { p.start(); }) {
      plan.start = p.start();
    } else {
      plan.start = p.goal();  // a blocks file's start
    }
  } else {
    plan.start = p.parse(r.from);
  }
  plan.goal = r.goal.empty() ? p.goal() : p.parse(r.goal);
  if constexpr (ParityClassPuzzle<P>) {
    if (!p.same_class(plan.start, plan.goal)) throw UsageError(unsolvable_reason(p, plan.start, plan.goal, 0));
  }
  const LookupKind asked = r.lookup.value_or(LookupKind::kRanked);
  if (r.method != Engine::bidirectional) check_comparisons(p, asked, r.most_comparisons);
  if (r.method == Engine::bidirectional) {
    if (plan.partial) throw UsageError("solve: --method bidirectional needs one goal position (use --goal POSITION)");
    plan.method = BidirectionalSolve{};
    return plan;
  }
  using ChainPacking = typename detail::ChainPackingOf<P>::type;
  if constexpr (!std::is_same_v<ChainPacking, std::monostate>) {
    if (!r.lookup) {
      auto packing = p.packing(plan.start);
      if (packing && packing->chain_graded()) {
        plan.method = GradedChainSolve<ChainPacking>{std::move(*packing)};
        return plan;
      }
    }
  }
  BfsSolve bfs{asked};
  if constexpr (!RankedPuzzle<P>) {
    if (asked == LookupKind::kRanked && !r.lookup) bfs.lookup = LookupKind::kHashed;
  } else if (asked == LookupKind::kRanked) {
    const std::uint64_t need = RankBitset::bytes_for(p.rank_space());
    // The default must not refuse a short 15-puzzle solve over a 5.2 TB bitset: a
    // hash set grows with the search instead (the queue stays budgeted).
    if (!r.lookup && need > r.memory.bytes()) {
      bfs.lookup = LookupKind::kHashed;
    } else {
      r.memory.require(need, p.name() + ": ranked visited set");
    }
  }
  plan.method = bfs;
  return plan;
}

// A solution as run_solve() found it, with the comparisons a linear visited set made.
template <Puzzle P>
struct SolveRun {
  Solution<P> solution;
  std::optional<std::uint64_t> comparisons;
};

// Runs `plan` (plan_solve(p, r)) but for OptimalSolve, which the caller runs. Throws
// UsageError when no path reaches the goal.
template <Puzzle P>
SolveRun<P> run_solve(const P& p, const SolveRequest& r, const SolvePlan<P>& plan) {
  Progress progress(p.name() + " solve", r.progress);
  SolveRun<P> run;
  Solution<P>& sol = run.solution;
  std::visit(
      [&](const auto& m) {
        using M = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<M, OptimalSolve>) {
          throw std::logic_error(p.name() + ": the optimal solver runs apart from run_solve()");
        } else if constexpr (std::is_same_v<M, BidirectionalSolve>) {
          auto both = solve_bidirectional(p, plan.start, plan.goal, r.memory, &progress);
          sol = {std::move(both.path), both.stored};
        } else if constexpr (std::is_same_v<M, BfsSolve>) {
          const auto reaches = [&](const typename P::State& s) {
            if constexpr (GoalPredicatePuzzle<P>) {
              if (plan.partial) return p.is_goal(s);
            }
            return s == plan.goal;
          };
          with_lookup(m.lookup, p, [&](auto& visited) {
            sol = solve_bfs_until(p, plan.start, reaches, visited, r.memory, &progress);
            if (counts_comparisons(m.lookup)) run.comparisons = visited.stats().comparisons;
          });
        } else if constexpr (!std::is_same_v<decltype(m.packing), std::monostate>) {
          const auto& k = m.packing;
          const auto target = k.pack(plan.goal);
          sol = solve_graded_chains(
              p, k, plan.start, [&](std::uint64_t w) { return plan.partial ? k.is_goal(w) : w == target; }, r.memory,
              &progress);
        }
      },
      plan.method);
  if constexpr (GoalPredicatePuzzle<P>) {
    if (sol.path.empty() && plan.partial) {
      if constexpr (requires { p.goal_text(); }) {
        throw UsageError(p.name() + ": no solution from " + p.format(plan.start) + ": none of the " +
                         std::to_string(sol.stored) + " positions it reaches matches the goal " + p.goal_text());
      }
    }
  }
  if (sol.path.empty()) throw UsageError(unsolvable_reason(p, plan.start, plan.goal, sol.stored));
  return run;
}

}  // namespace statespace
