// Breadth-first search over the dense rank space of any RankedPuzzle, with no edge
// and no position stored: two bitsets ("planes") of rank_space() bits each
// (Korf-style frontier search, Korf et al. 2005), 2 bits per position of the rank
// space, as twsearch keeps its tables.
//   seen  every position found so far (levels 0..d);
//   mark  on a seen rank: it is in level d, the frontier being expanded; on a rank
//         not seen: it was found for level d+1.
// A successor is classified as it is made: seen and marked (a move within level d),
// seen and not marked (a move back to an earlier level: dropped), or not seen (a
// move to level d+1: marked with a plain OR). Finishing the level is one streaming
// pass per word: next = mark & ~seen is level d+1 exactly; seen |= next; mark = next,
// which drops the old frontier's marks. Between two levels, then, `mark` holds the
// frontier and nothing else. A level that found nothing (no move onward) is not
// finished, so the frontier stays: the farthest positions. Keeping every earlier
// level in `seen`, rather than only level d-1 as an undirected search could, makes
// the same loop correct on directed spaces, where a move may reach any earlier level.
//
// Threads share a level as ranked_lanes.hpp describes; a level of few positions, or
// any level on one thread, runs on the calling thread and marks directly.
//
// On a regular space (RegularPuzzle: every position has one successor per move, none
// itself, and the moves pair with their inverses) a late level, once the positions
// not seen yet are fewer than the frontier, is found backwards instead (pull): each
// position not seen yet joins it when one of its successors lies in the frontier,
// and the moves it has into the frontier are, counted from the other end, the
// frontier's moves onward. The frontier's other moves follow from its size: every
// one of its moves goes back (as many as the level before sent onward), within, or
// onward. twsearch finds the late levels of its tables the same way. A uniform space
// (UniformPuzzle: the same but that a move may leave a position as it was, as where
// identical pieces swap) is pulled alike, its frontier's self-loops summed first.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "analysis/engines/ranked/ranked_lanes.hpp"
#include "analysis/engines/result.hpp"
#include "analysis/runtime/memory.hpp"
#include "analysis/runtime/packed_table.hpp"
#include "analysis/runtime/progress.hpp"
#include "analysis/runtime/threads.hpp"
#include "core/errors.hpp"
#include "core/puzzle.hpp"

namespace statespace {

// The tables and the level loop. `Expand` is expand(r, f): f(t) for the rank t of
// every successor of rank r (forward moves, or predecessors for a search to the goal).
// The tables cover ranks [first, first + space): all of them in one process, an MPI
// process's own part in distributed/ranked_mpi.hpp (which expands levels itself).
class RankedLayers {
 public:
  // How the lanes of a parallel level mark successors: `cheaper` takes private
  // copies of `mark` when they cost less memory than the queues would, else marks
  // `mark` itself with atomic ors (shared: what bytes() counts); the others force one
  // way, for the tests of each.
  enum class Marks { cheaper, queued, private_copies, shared };

  explicit RankedLayers(std::uint64_t space, std::uint64_t first = 0, Marks marks = Marks::cheaper)
      : space_(space),
        first_(first),
        kept_{BitTable(space), BitTable(space)},
        words_(kept_[kSeen].word_count()),
        marks_(marks) {}

  // Bytes of the two planes and of the lanes a run on `threads` threads takes, for
  // moves of at most `moves` successors: what the engine checks before allocating.
  static std::uint64_t bytes(std::uint64_t space, unsigned threads, int moves) {
    return kPlanes * BitTable::bytes_for(space) + RankedLanes::bytes(space, threads, moves);
  }

  [[nodiscard]] bool owns(std::uint64_t r) const { return r >= first_ && r - first_ < space_; }
  [[nodiscard]] bool in_frontier(std::uint64_t r) const {
    if (!owns(r)) return false;
    const std::uint64_t w = (r - first_) >> 6;
    return kept_[kSeen].words()[w] & kept_[kMark].words()[w] & ranked_detail::bit(r - first_);
  }

  // Marks r (owned) as found and in the current frontier (the sources of level 0).
  void seed(std::uint64_t r) {
    r -= first_;
    kept_[kSeen].words()[r >> 6] |= ranked_detail::bit(r);
    kept_[kMark].words()[r >> 6] |= ranked_detail::bit(r);
  }

  // Expands the frontier (level `depth`, of `size` positions): returns its moves and
  // makes the next level the frontier, unless there is none, when the frontier stays
  // (the farthest positions). `found` is the next level's size.
  template <class Expand>
  RankedLevelMoves expand(std::uint64_t size, int moves, const Expand& expand_rank, std::uint64_t& found) {
    const unsigned threads = worker_threads();
    RankedLevelMoves counts;
    bool lanes_marked = false;
    if (threads == 1 || size < ranked_detail::kParallelLevel) {
      std::uint64_t* const mark = kept_[kMark].words();
      ranked_detail::scan_words(0, words_, kept_[kSeen].words(), mark, mark, expand_rank, counts);
    } else if (marks_ == Marks::private_copies ||
               (marks_ == Marks::cheaper && RankedLanes::private_lanes(space_, threads, moves))) {
      counts = lanes_.private_level(space_, threads, bits(), expand_rank);
      lanes_marked = true;
    } else if (marks_ == Marks::queued) {
      counts = lanes_.queued_level(space_, threads, moves, bits(), expand_rank);
    } else {
      counts = lanes_.shared_level(threads, bits(), expand_rank);
    }
    // Every position found was marked by a move onward: none, and the frontier stays.
    found = counts.onward ? finish_with(lanes_marked ? lanes_.copies() : std::span<BitTable>{}) : 0;
    return counts;
  }

  // The positions not seen yet. The bits past the last rank stand for no position
  // (restart_from() sets them), so they are masked off.
  [[nodiscard]] std::uint64_t unseen() const {
    const std::uint64_t* const seen = kept_[kSeen].words();
    return tbb::parallel_reduce(
        tbb::blocked_range<std::uint64_t>(0, words_, 1 << 14), std::uint64_t{0},
        [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t sum) {
          for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
            sum += unsigned(std::popcount(~seen[w] & tail_mask(w)));
          }
          return sum;
        },
        std::plus<>());
  }

  // Finds the next level backwards (one process, a regular space: see the top of
  // this file) and makes it the frontier unless it is empty, as expand() does.
  // Returns the moves from the new level's positions into the frontier; `found` is
  // its size. Each word of `mark` is written by the thread visiting its positions
  // alone, and no thread reads `mark`: on an undirected space a successor of a
  // position at distance d+1 or more is at distance d at least, so one seen is in
  // the frontier, and `seen` is what the test reads.
  template <class Expand>
  std::uint64_t pull(std::uint64_t unseen, const Expand& expand_rank, std::uint64_t& found) {
    const std::uint64_t* const seen = kept_[kSeen].words();
    std::uint64_t* const mark = kept_[kMark].words();
    const auto visit = [&](std::uint64_t begin, std::uint64_t end, std::uint64_t arcs) {
      for (std::uint64_t w = begin; w < end; ++w) {
        std::uint64_t open = ~seen[w] & tail_mask(w);
        std::uint64_t joined = 0;
        for (; open; open &= open - 1) {
          const unsigned b = unsigned(std::countr_zero(open));
          std::uint64_t in = 0;
          expand_rank(w * 64 + b, [&](std::uint64_t t) { in += (seen[t >> 6] >> (t & 63)) & 1; });
          arcs += in;
          joined |= std::uint64_t(in != 0) << b;
        }
        mark[w] |= joined;
      }
      return arcs;
    };
    std::uint64_t arcs = 0;
    if (worker_threads() == 1 || unseen < ranked_detail::kParallelLevel) {
      arcs = visit(0, words_, 0);
    } else {
      arcs = tbb::parallel_reduce(
          tbb::blocked_range<std::uint64_t>(0, words_, 1 << 10), std::uint64_t{0},
          [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t sum) {
            return visit(range.begin(), range.end(), sum);
          },
          std::plus<>());
    }
    // Every position joined has a move into the frontier: none, and the frontier stays.
    found = arcs ? finish() : 0;
    return arcs;
  }

  // The sum of f(r) over the ranks r of the frontier.
  template <class F>
  [[nodiscard]] std::uint64_t frontier_sum(const F& f) const {
    const std::uint64_t* const seen = kept_[kSeen].words();
    const std::uint64_t* const mark = kept_[kMark].words();
    return tbb::parallel_reduce(
        tbb::blocked_range<std::uint64_t>(0, words_, 1 << 10), std::uint64_t{0},
        [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t sum) {
          for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
            for (std::uint64_t hit = seen[w] & mark[w]; hit; hit &= hit - 1) {
              sum += std::uint64_t(f(first_ + w * 64 + unsigned(std::countr_zero(hit))));
            }
          }
          return sum;
        },
        std::plus<>());
  }

  // The ranks set in the frontier, ascending.
  [[nodiscard]] std::vector<std::uint64_t> frontier_ranks() const {
    std::vector<std::uint64_t> out;
    const std::uint64_t* const seen = kept_[kSeen].words();
    const std::uint64_t* const mark = kept_[kMark].words();
    for (std::uint64_t w = 0; w < words_; ++w) {
      for (std::uint64_t hit = seen[w] & mark[w]; hit; hit &= hit - 1) {
        out.push_back(first_ + w * 64 + unsigned(std::countr_zero(hit)));
      }
    }
    return out;
  }

  // Turns the tables after a search into the start of a search from the goals:
  // the positions found (`seen`) for which is_goal(r) holds become the frontier,
  // and `seen` becomes every position not found, or a goal, so the new search never
  // leaves the positions found. Returns the goals' count.
  template <class IsGoal>
  std::uint64_t restart_from(const IsGoal& is_goal) {
    std::uint64_t* const seen = kept_[kSeen].words();
    std::uint64_t* const mark = kept_[kMark].words();
    return tbb::parallel_reduce(
        tbb::blocked_range<std::uint64_t>(0, words_, 1 << 10), std::uint64_t{0},
        [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t sum) {
          for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
            std::uint64_t goals = 0;
            for (std::uint64_t hit = seen[w]; hit; hit &= hit - 1) {
              const unsigned b = unsigned(std::countr_zero(hit));
              if (is_goal(first_ + w * 64 + b)) goals |= std::uint64_t{1} << b;
            }
            mark[w] = goals;
            seen[w] = ~seen[w] | goals;
            sum += unsigned(std::popcount(goals));
          }
          return sum;
        },
        std::plus<>());
  }

  // Finishes a level that found positions (a move onward somewhere: over MPI, on
  // any process): mark & ~seen is the next level; it joins `seen` and becomes
  // `mark`, the frontier, dropping the old one. Returns its size here. One pass.
  std::uint64_t finish() { return finish_with({}); }

  // Between two levels `mark` is the frontier and nothing else: these words, read
  // there (the distance table's levels), are the frontier's.
  [[nodiscard]] const std::uint64_t* frontier_words() const { return kept_[kMark].words(); }
  [[nodiscard]] const std::uint64_t* seen_words() const { return kept_[kSeen].words(); }
  [[nodiscard]] const std::uint64_t* mark_words() const { return kept_[kMark].words(); }
  // The positions seen and the frontier (`mark`), between levels: what a checkpoint
  // saves and a resumed run reads back, in this order.
  [[nodiscard]] std::span<BitTable> state_tables() { return kept_; }
  [[nodiscard]] std::uint64_t word_count() const { return words_; }

  // Unmaps the planes and the lanes once no search will read them again: the
  // farthest positions, formatted afterwards, and the reports then have their memory
  // (the 2x2x2's 64,736 farthest positions take about as much as its planes).
  void release() {
    kept_ = {};
    lanes_ = RankedLanes();
  }

  // Marks `offsets` of the slice starting at rank `base` (owned), successors of
  // the frontier made elsewhere: each is classified here, where its bits are, as
  // classify() does at the source. Self-loops never come here.
  void mark_arrived(std::uint64_t base, std::span<const std::uint32_t> offsets, RankedLevelMoves& c) {
    const std::uint64_t* const seen = kept_[kSeen].words();
    std::uint64_t* const mark = kept_[kMark].words();
    for (const std::uint32_t o : offsets) {
      const std::uint64_t t = base - first_ + o, w = t >> 6, b = ranked_detail::bit(t);
      if (!(seen[w] & b)) {
        ++c.onward;
        mark[w] |= b;
      } else if (mark[w] & b) {
        ++c.within;
      }
    }
  }

 private:
  // The bits of word w that stand for ranks.
  [[nodiscard]] std::uint64_t tail_mask(std::uint64_t w) const {
    return w + 1 == words_ && space_ % 64 ? (std::uint64_t{1} << (space_ % 64)) - 1 : ~std::uint64_t{0};
  }
  // finish(), with the lanes' private copies of `mark` ORed in first and left clear.
  std::uint64_t finish_with(std::span<BitTable> copies) {
    std::uint64_t* const seen = kept_[kSeen].words();
    std::uint64_t* const mark = kept_[kMark].words();
    std::vector<std::uint64_t*> lanes;
    for (BitTable& l : copies) lanes.push_back(l.words());
    return tbb::parallel_reduce(
        tbb::blocked_range<std::uint64_t>(0, words_, 1 << 12), std::uint64_t{0},
        [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t sum) {
          for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
            std::uint64_t x = mark[w];
            for (std::uint64_t* l : lanes) x |= std::exchange(l[w], 0);
            x &= ~seen[w];
            mark[w] = x;
            seen[w] |= x;
            sum += unsigned(std::popcount(x));
          }
          return sum;
        },
        std::plus<>());
  }
  [[nodiscard]] RankedBits bits() { return {kept_[kSeen].words(), kept_[kMark].words(), words_}; }

  static constexpr std::uint64_t kPlanes = 2;
  std::uint64_t space_, first_;
  // seen and mark: the whole state of the search, what a checkpoint keeps (between
  // levels `mark` is the frontier).
  static constexpr std::size_t kSeen = 0, kMark = 1;
  std::array<BitTable, kPlanes> kept_;
  std::uint64_t words_;
  Marks marks_;
  RankedLanes lanes_;
};

// What one search found.
struct RankedSearch {
  std::vector<std::uint64_t> layers;    // layers[d] = positions at distance d
  std::vector<RankedLevelMoves> moves;  // per level: the moves from its positions
  [[nodiscard]] std::uint64_t states() const {
    std::uint64_t n = 0;
    for (const auto l : layers) n += l;
    return n;
  }
};

// A model whose positions leave themselves by no move: a regular space.
struct NoSelfLoops {
  bool counted = false;
  int operator()(std::uint64_t) const { return 0; }
};

// A model's self-loops (UniformPuzzle): how many moves leave rank r as it was, when
// `counted` (a uniform space that is not regular).
template <class F>
struct SelfLoops {
  F f;
  bool counted = true;
  int operator()(std::uint64_t r) const { return f(r); }
};
template <class F>
SelfLoops(F, bool) -> SelfLoops<F>;

// Runs the levels from the frontier the tables hold, the last level of `s` (a new
// search's level 0, or the levels a checkpoint kept), until none is found; the
// tables' frontier then holds the last level. `Layers` is RankedLayers, or its MPI
// version (distributed/ranked_mpi.hpp): expand() gives the level's moves and the
// next level's size over all processes. on_level(s) is called with the search so
// far at the start and after each level, its last level then the frontier.
// `regular`: the space is regular (RegularPuzzle), or uniform (UniformPuzzle) with
// `loops` counting each rank's self-loops, and `moves` is every position's count of
// moves, so tables that can pull() find the late levels backwards.
template <class Layers, class Expand, class OnLevel, class Loops = NoSelfLoops>
RankedSearch ranked_search(Layers& tables, RankedSearch s, int moves, const Expand& expand_rank, Progress* progress,
                           const OnLevel& on_level, bool regular = false, const Loops& loops = {}) {
  std::uint64_t total = s.states();
  // The MPI tables cannot pull: a process holds its own part of the frontier only.
  constexpr bool kPulls = requires(std::uint64_t n) { tables.pull(n, expand_rank, n); };
  std::uint64_t unseen = 0;
  if constexpr (kPulls) {
    if (regular) unseen = tables.unseen();
  }
  on_level(std::as_const(s));
  while (true) {
    std::uint64_t found = 0;
    const std::uint64_t size = s.layers.back();
    // Pulling visits each position not seen yet once, expanding the frontier each
    // of its positions: the smaller set is the cheaper.
    if (kPulls && regular && unseen < size) {
      RankedLevelMoves m;
      // The frontier's self-loops, counted before pull() makes the next level the
      // frontier: moves that join no two positions.
      std::uint64_t still = 0;
      if constexpr (kPulls) {
        if (loops.counted) still = tables.frontier_sum(loops);
      }
      if constexpr (kPulls) m.onward = tables.pull(unseen, expand_rank, found);
      m.successors = size * std::uint64_t(moves);
      m.within = m.successors - still - m.onward - (s.moves.empty() ? 0 : s.moves.back().onward);
      s.moves.push_back(m);
    } else {
      s.moves.push_back(tables.expand(size, moves, expand_rank, found));
    }
    if (found == 0) break;
    unseen -= found;
    s.layers.push_back(found);
    total += found;
    on_level(std::as_const(s));
    if (progress) progress->level(unsigned(s.layers.size() - 1), found, total);
  }
  return s;
}

// A new search from the `sources` positions the tables' frontier holds.
template <class Layers, class Expand, class OnLevel, class Loops = NoSelfLoops>
RankedSearch ranked_search(Layers& tables, std::uint64_t sources, int moves, const Expand& expand_rank,
                           Progress* progress, const OnLevel& on_level, bool regular = false, const Loops& loops = {}) {
  RankedSearch s;
  s.layers.push_back(sources);
  return ranked_search(tables, std::move(s), moves, expand_rank, progress, on_level, regular, loops);
}

}  // namespace statespace
