// The fast path of `--lookup ranked`: the reachable set of a start as a rank
// bitset, by a level-synchronous breadth-first search whose frontier is split
// across oneTBB workers (the same scheme as parallel_bfs in analysis/bfs.hpp, on
// the implicit graph).
//
// No atomic read-modify-writes: a locked instruction costs about as much as the
// rest of a lookup. During a level the shared `visited` words (all earlier levels)
// are only read, and each worker marks what it finds in its own words. A state two
// workers both find in one level is then kept by the first of them, the workers'
// words are OR-ed into `visited` word range by word range, and their lists of
// found states become the next frontier. The set and the layer sizes do not depend
// on the thread count or on which worker found a state; only the order inside a
// frontier does, and nothing downstream reads it (vertex ids are ranks in order).
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <concepts>
#include <cstdint>
#include <vector>

#include "analysis/progress.hpp"
#include "core/permutation_puzzle.hpp"
#include "core/puzzle.hpp"
#include "core/rank_bitset.hpp"
#include "core/rank_delta.hpp"

namespace statespace {

// A frontier entry: the state with its rank, so that children can be ranked from
// it, and for permutation puzzles the blank's cell and the cell it came from, so
// that the move straight back to the parent is never generated (its target is
// always visited already; skipping it saves one lookup in three on the 8-puzzle).
template <class State>
struct RankedState {
  static constexpr std::int8_t kNoCell = -1;
  State state;
  std::uint64_t rank = 0;
  std::int8_t blank = kNoCell;
  std::int8_t from = kNoCell;
};

template <Puzzle P>
RankedState<typename P::State> ranked_state(const P& p, const typename P::State& s) {
  RankedState<typename P::State> e{s, p.rank(s)};
  if constexpr (std::derived_from<P, PermutationPuzzle>) e.blank = std::int8_t(find_blank(s, p.cells()));
  return e;
}

// Calls f(child) with the ranked entry of every successor of e (for permutation
// puzzles: but the parent). Permutation puzzles rank their children from e's rank
// (core/rank_delta.hpp); other models rank each child.
template <Puzzle P, class F>
void for_each_ranked_successor(const P& p, const RankedState<typename P::State>& e, F&& f) {
  if constexpr (std::derived_from<P, PermutationPuzzle>) {
    const int blank = e.blank;
    for (int k = 0; k < p.degree(blank); ++k) {
      const int tile = p.neighbour(blank, k);
      if (tile == e.from) continue;
      f(RankedState<typename P::State>{e.state.slid(tile, blank),
                                       rank_after_swap(e.state, e.rank, p.cells(), blank, tile), std::int8_t(tile),
                                       std::int8_t(blank)});
    }
  } else {
    p.for_each_successor(e.state, [&](const typename P::State& child) { f(ranked_state(p, child)); });
  }
}

struct RankedEnumeration {
  RankBitset members;                 // ranks of the reachable states
  std::vector<std::uint64_t> layers;  // layers[d] = states first reached at depth d
  std::uint64_t lookups = 0;          // successors ranked and tested
  [[nodiscard]] std::uint64_t states() const {
    std::uint64_t n = 0;
    for (const auto k : layers) n += k;
    return n;
  }
};

template <Puzzle P>
RankedEnumeration enumerate_ranked(const P& p, const typename P::State& start, Progress* progress = nullptr) {
  using Entry = RankedState<typename P::State>;
  // Frontier states per task: enough work to amortise the scheduling, small enough
  // that a level of a few thousand states still splits across the cores.
  constexpr std::size_t kGrain = 512;
  constexpr std::size_t kWordGrain = 4096;
  const std::size_t words = (p.rank_space() + 63) / 64;
  const auto bit = [](std::uint64_t rank) { return std::uint64_t{1} << (rank & 63); };
  struct Local {
    std::vector<std::uint64_t> seen;  // found in this level, by this worker
    std::vector<Entry> found;
    std::uint64_t lookups = 0;
  };
  tbb::enumerable_thread_specific<Local> locals([words] { return Local{std::vector<std::uint64_t>(words, 0), {}, 0}; });
  std::vector<std::uint64_t> visited(words, 0);
  std::vector<Entry> frontier{ranked_state(p, start)};
  visited[frontier[0].rank >> 6] |= bit(frontier[0].rank);
  RankedEnumeration e{{}, {1}, 0};
  std::uint64_t total = 1;
  while (true) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, frontier.size(), kGrain), [&](const auto& range) {
      Local& local = locals.local();
      for (std::size_t i = range.begin(); i != range.end(); ++i) {
        for_each_ranked_successor(p, frontier[i], [&](const Entry& child) {
          ++local.lookups;
          const std::size_t w = child.rank >> 6;
          if ((visited[w] | local.seen[w]) & bit(child.rank)) return;
          local.seen[w] |= bit(child.rank);
          local.found.push_back(child);
        });
      }
    });
    std::vector<Local*> workers;
    for (Local& local : locals) workers.push_back(&local);
    tbb::parallel_for(std::size_t{1}, workers.size(), [&](std::size_t i) {
      std::erase_if(workers[i]->found, [&](const Entry& x) {
        for (std::size_t j = 0; j < i; ++j) {
          if (workers[j]->seen[x.rank >> 6] & bit(x.rank)) return true;
        }
        return false;
      });
    });
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, words, kWordGrain), [&](const auto& range) {
      for (Local* local : workers) {
        for (std::size_t w = range.begin(); w != range.end(); ++w) {
          visited[w] |= local->seen[w];
          local->seen[w] = 0;
        }
      }
    });
    frontier.clear();
    for (Local* local : workers) {
      frontier.insert(frontier.end(), local->found.begin(), local->found.end());
      local->found.clear();
    }
    if (frontier.empty()) break;
    e.layers.push_back(frontier.size());
    total += frontier.size();
    if (progress) progress->level(unsigned(e.layers.size() - 1), frontier.size(), total);
  }
  for (const Local& local : locals) e.lookups += local.lookups;
  e.members = RankBitset::from_words(p.rank_space(), std::move(visited));
  return e;
}

}  // namespace statespace
