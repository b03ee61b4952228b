// Breadth-first search over the dense rank space of any RankedPuzzle, with no edge
// and no position stored: three bitsets of rank_space() bits each (Korf-style
// frontier search, Korf et al. 2005), 3 bits per position of the rank space.
//   seen      every position found so far (levels 0..d);
//   frontier  level d, the one being expanded;
//   next      the marks of level d's successors.
// A successor is classified as it is made: in the frontier (a move within level
// d), elsewhere in `seen` (a move back to an earlier level: dropped), or new (a move
// to level d+1: marked in `next`). Finishing the level keeps next & ~seen, which is
// level d+1 exactly, adds it to `seen` and makes it the frontier. Keeping every
// earlier level in `seen`, rather than only level d-1 as an undirected search could,
// makes the same loop correct on directed spaces, where a move may reach any
// earlier level.
//
// Threads share a level by the tiles' implicit engine's machinery
// (analysis/engines/slices.hpp): the frontier is cut into scan chunks, the rank
// space into destination slices; a scan queues each new successor as a 32-bit
// offset for the slice that owns it, and each slice's owner then marks its queues.
// Every word has one writer, every mark is a plain OR, and no atomic is taken. When
// a bitset of the whole rank space costs less than the lanes' queues (a space of up
// to some ten million ranks on two threads), each lane instead marks its own copy of
// `next` directly, and finishing the level ORs the copies together: no queue, no
// second pass over the marks. A level of few positions, or any level on one thread,
// runs on the calling thread and marks directly. The sets and counts are the same
// for any thread count.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "analysis/engines/result.hpp"
#include "analysis/engines/slices.hpp"
#include "analysis/runtime/memory.hpp"
#include "analysis/runtime/packed_table.hpp"
#include "analysis/runtime/progress.hpp"
#include "analysis/runtime/threads.hpp"
#include "core/errors.hpp"
#include "core/puzzle.hpp"

namespace statespace {

// The moves one level's expansion made from its positions, as the reports count them.
struct RankedLevelMoves {
  std::uint64_t successors = 0;  // every move made, self-loops included
  std::uint64_t within = 0;      // to another position of the same level
  std::uint64_t onward = 0;      // to a position of the next level
  RankedLevelMoves& operator+=(const RankedLevelMoves& o) {
    successors += o.successors;
    within += o.within;
    onward += o.onward;
    return *this;
  }
};

namespace ranked_detail {

// Destination slices and scan chunks per worker thread, and the offsets a round
// queues per lane: the implicit engine's figures (analysis/engines/implicit/implicit_bfs.cpp),
// which its measurements chose for the same two phases.
inline constexpr unsigned kSlicesPerThread = 16;
inline constexpr unsigned kChunksPerThread = 32;
inline constexpr std::size_t kRoundBudget = std::size_t{1} << 17;
// Levels of fewer positions run on the calling thread: two fork-joins per round and
// a pass over every slice cost more than a second thread saves.
inline constexpr std::uint64_t kParallelLevel = 16384;
// Slices and chunks start on whole cache lines of every bitset (512 ranks).
inline constexpr std::uint64_t kAlign = 512;
// A scan call queues at most this many offsets (a queue block's room for one step).
inline constexpr std::size_t kMostMoves = SliceQueues::kBlock / 2;
// Words of the frontier a lane takes at a time when every lane marks its own bitset:
// small enough to share a skewed level evenly, large enough that taking one costs
// nothing beside expanding it.
inline constexpr std::uint64_t kPrivateChunkWords = 256;

[[nodiscard]] inline std::uint64_t bit(std::uint64_t r) { return std::uint64_t{1} << (r & 63); }

// A partition of [0, space) into about `slices` slices, each below 2^31 ranks so a
// slice offset fits the queues' 32 bits.
inline SlicePartition partition(std::uint64_t space, std::uint64_t slices) {
  return SlicePartition(space, std::max(slices, (space >> 31) + 1), kAlign);
}

// The queue pool each lane needs for a round, in bytes, as SliceQueues allocates it.
inline std::uint64_t queue_bytes(unsigned lanes, unsigned slices, std::size_t step) {
  const std::size_t capacity = round_capacity(lanes, kRoundBudget) + step;
  const std::size_t blocks = (capacity + SliceQueues::kBlock - step - 1) / (SliceQueues::kBlock - step) + slices;
  return std::uint64_t(blocks) * SliceQueues::kBlock * sizeof(std::uint32_t);
}

// Whether the lanes of a run on `threads` threads mark private copies of `next`
// rather than queue offsets: when the copies take no more memory than the queues.
inline bool private_marks(std::uint64_t space, unsigned threads, std::uint64_t queues) {
  return threads > 1 && (threads - 1) * BitTable::bytes_for(space) <= queues;
}

// Classifies t, a successor of r in the frontier, without a branch on the bits: a
// move within the level, back (dropped) or onward (marked in `next`). `seen` holds
// the frontier, so one test of `seen` tells onward from the rest.
template <class Counts>
inline void mark(const std::uint64_t* frontier, const std::uint64_t* seen, std::uint64_t* next, std::uint64_t r,
                 std::uint64_t t, Counts& c) {
  const std::uint64_t w = t >> 6, b = bit(t);
  const std::uint64_t fresh = b & ~seen[w];
  ++c.successors;
  c.within += std::uint64_t((frontier[w] & b) != 0) & std::uint64_t(t != r);  // a self-loop joins no two positions
  c.onward += std::uint64_t(fresh != 0);
  next[w] |= fresh;
}

}  // namespace ranked_detail

// The tables and the level loop. `Expand` is expand(r, f): f(t) for the rank t of
// every successor of rank r (forward moves, or predecessors for a search to the goal).
// The tables cover ranks [first, first + space): all of them in one process, an MPI
// process's own part in distributed/ranked_mpi.hpp (which expands levels itself).
class RankedLayers {
 public:
  // How the lanes of a parallel level mark successors: `cheaper` takes private
  // copies of `next` when they cost less memory than the queues (what bytes()
  // counts); the others force one way, for the tests of both.
  enum class Marks { cheaper, queued, private_copies };

  explicit RankedLayers(std::uint64_t space, std::uint64_t first = 0, Marks marks = Marks::cheaper)
      : space_(space),
        first_(first),
        kept_{BitTable(space), BitTable(space)},
        next_(space),
        words_(next_.word_count()),
        marks_(marks) {}

  // Bytes of the three bitsets and of the queues a run on `threads` threads takes,
  // for moves of at most `moves` successors: what the engine checks before allocating.
  static std::uint64_t bytes(std::uint64_t space, unsigned threads, int moves) {
    const std::uint64_t tables = 3 * BitTable::bytes_for(space);
    if (threads <= 1) return tables;
    if (private_lanes(space, threads, moves)) return tables + (threads - 1) * BitTable::bytes_for(space);
    return tables + queue_pools(space, threads, moves);
  }

  [[nodiscard]] bool owns(std::uint64_t r) const { return r >= first_ && r - first_ < space_; }
  [[nodiscard]] bool in_frontier(std::uint64_t r) const {
    return owns(r) && (kept_[kFrontier].words()[(r - first_) >> 6] & ranked_detail::bit(r - first_));
  }

  // Marks r (owned) as found and in the current frontier (the sources of level 0).
  void seed(std::uint64_t r) {
    r -= first_;
    kept_[kSeen].words()[r >> 6] |= ranked_detail::bit(r);
    kept_[kFrontier].words()[r >> 6] |= ranked_detail::bit(r);
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
      counts = serial_level(expand_rank);
    } else if (marks_ == Marks::private_copies || (marks_ == Marks::cheaper && private_lanes(space_, threads, moves))) {
      counts = private_level(threads, expand_rank);
      lanes_marked = true;
    } else {
      counts = parallel_level(threads, moves, expand_rank);
    }
    found = lanes_marked ? settle_lanes() : settle();
    if (found) advance();
    return counts;
  }

  // The ranks set in the frontier, ascending.
  [[nodiscard]] std::vector<std::uint64_t> frontier_ranks() const {
    std::vector<std::uint64_t> out;
    const std::uint64_t* f = kept_[kFrontier].words();
    for (std::uint64_t w = 0; w < words_; ++w) {
      for (std::uint64_t hit = f[w]; hit; hit &= hit - 1) {
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
    std::uint64_t* const frontier = kept_[kFrontier].words();
    std::uint64_t* const next = next_.words();
    return tbb::parallel_reduce(
        tbb::blocked_range<std::uint64_t>(0, words_, 1 << 10), std::uint64_t{0},
        [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t sum) {
          for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
            std::uint64_t goals = 0;
            for (std::uint64_t hit = seen[w]; hit; hit &= hit - 1) {
              const unsigned b = unsigned(std::countr_zero(hit));
              if (is_goal(first_ + w * 64 + b)) goals |= std::uint64_t{1} << b;
            }
            frontier[w] = goals;
            next[w] = 0;
            seen[w] = ~seen[w] | goals;
            sum += unsigned(std::popcount(goals));
          }
          return sum;
        },
        std::plus<>());
  }

  // next & ~seen is the next level: it joins seen (settle, which returns its size)
  // and, when the level is not empty, becomes the frontier (advance); the old
  // frontier's bitset, cleared, takes the next level's marks. Two steps, since an
  // MPI process advances whenever any process found positions.
  std::uint64_t settle() {
    std::uint64_t* const seen = kept_[kSeen].words();
    std::uint64_t* const next = next_.words();
    return tbb::parallel_reduce(
        tbb::blocked_range<std::uint64_t>(0, words_, 1 << 14), std::uint64_t{0},
        [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t sum) {
          for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
            const std::uint64_t x = next[w] & ~seen[w];
            next[w] = x;
            seen[w] |= x;
            sum += unsigned(std::popcount(x));
          }
          return sum;
        },
        std::plus<>());
  }
  // settle() for a level whose lanes marked their own copies of `next`: the copies
  // join `next` and are left clear for the next such level.
  std::uint64_t settle_lanes() {
    std::uint64_t* const seen = kept_[kSeen].words();
    std::uint64_t* const next = next_.words();
    std::vector<std::uint64_t*> lanes;
    for (BitTable& l : lane_marks_) lanes.push_back(l.words());  // all clear but those of this level's lanes
    const std::uint64_t found = tbb::parallel_reduce(
        tbb::blocked_range<std::uint64_t>(0, words_, 1 << 12), std::uint64_t{0},
        [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t sum) {
          for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
            std::uint64_t x = next[w];
            for (std::uint64_t* l : lanes) x |= std::exchange(l[w], 0);
            x &= ~seen[w];
            next[w] = x;
            seen[w] |= x;
            sum += unsigned(std::popcount(x));
          }
          return sum;
        },
        std::plus<>());
    return found;
  }
  void advance() {
    std::swap(kept_[kFrontier], next_);
    std::uint64_t* const old = next_.words();
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, words_, 1 << 14),
                      [&](const auto& range) { std::fill(old + range.begin(), old + range.end(), std::uint64_t{0}); });
  }

  [[nodiscard]] const std::uint64_t* frontier_words() const { return kept_[kFrontier].words(); }
  // The positions seen and the frontier, between levels: what a checkpoint saves
  // and a resumed run reads back.
  [[nodiscard]] std::span<BitTable> state_tables() { return kept_; }
  [[nodiscard]] std::uint64_t word_count() const { return words_; }

  // Marks `offsets` of the slice starting at rank `base` (owned), successors of
  // the frontier made elsewhere: each is classified here, where its bits are, as
  // classify() does at the source. Self-loops never come here.
  void mark_arrived(std::uint64_t base, std::span<const std::uint32_t> offsets, RankedLevelMoves& c) {
    const std::uint64_t* const frontier = kept_[kFrontier].words();
    const std::uint64_t* const seen = kept_[kSeen].words();
    std::uint64_t* const next = next_.words();
    for (const std::uint32_t o : offsets) {
      const std::uint64_t t = base - first_ + o, w = t >> 6, b = ranked_detail::bit(t);
      if (frontier[w] & b) {
        ++c.within;
      } else if (!(seen[w] & b)) {
        ++c.onward;
        next[w] |= b;
      }
    }
  }

 private:
  // Offsets one scan call may queue: a rank's successors are never split over calls.
  static std::size_t scan_step(int moves) { return std::max<std::size_t>(kRoundStep, std::size_t(std::max(moves, 1))); }
  // Bytes of the lanes' queue pools on `threads` threads.
  static std::uint64_t queue_pools(std::uint64_t space, unsigned threads, int moves) {
    const unsigned slices =
        ranked_detail::partition(space, std::uint64_t(ranked_detail::kSlicesPerThread) * threads).count();
    return threads * ranked_detail::queue_bytes(threads, slices, scan_step(moves));
  }
  // Whether a parallel level's lanes mark private copies of `next`: one answer for
  // bytes() (the memory check) and expand() (the run).
  static bool private_lanes(std::uint64_t space, unsigned threads, int moves) {
    return ranked_detail::private_marks(space, threads, queue_pools(space, threads, moves));
  }

  // Classifies t, a successor of r in the frontier, and returns whether it is new.
  static bool classify(const std::uint64_t* frontier, const std::uint64_t* seen, std::uint64_t r, std::uint64_t t,
                       RankedLevelMoves& c) {
    ++c.successors;
    const std::uint64_t w = t >> 6, b = ranked_detail::bit(t);
    if (frontier[w] & b) {
      c.within += t != r;  // a self-loop joins no two positions
      return false;
    }
    if (seen[w] & b) return false;
    ++c.onward;
    return true;
  }

  template <class Expand>
  RankedLevelMoves serial_level(const Expand& expand_rank) {
    RankedLevelMoves c;
    const std::uint64_t* const frontier = kept_[kFrontier].words();
    const std::uint64_t* const seen = kept_[kSeen].words();
    std::uint64_t* const next = next_.words();
    scan_words(0, words_, frontier, seen, next, expand_rank, c);
    return c;
  }

  // Expands the frontier's ranks in words [begin, end), marking `next` directly.
  template <class Expand>
  static void scan_words(std::uint64_t begin, std::uint64_t end, const std::uint64_t* frontier,
                         const std::uint64_t* seen, std::uint64_t* next, const Expand& expand_rank,
                         RankedLevelMoves& c) {
    // Counted in locals: `next` is written through a uint64_t pointer, which may
    // alias c's fields as far as the compiler knows, and would keep them in memory.
    RankedLevelMoves local;
    for (std::uint64_t w = begin; w < end; ++w) {
      for (std::uint64_t hit = frontier[w]; hit; hit &= hit - 1) {
        const std::uint64_t r = w * 64 + unsigned(std::countr_zero(hit));
        expand_rank(r, [&](std::uint64_t t) { ranked_detail::mark(frontier, seen, next, r, t, local); });
      }
    }
    c += local;
  }

  // A level on `threads` lanes, each marking its own copy of `next` (lane 0 the
  // table itself). The lanes take chunks of the frontier in turn, so a lane that
  // never starts leaves its share to the others; which lane marks a successor
  // changes no bit of the union and no count.
  template <class Expand>
  RankedLevelMoves private_level(unsigned threads, const Expand& expand_rank) {
    using namespace ranked_detail;
    while (lane_marks_.size() + 1 < threads) lane_marks_.emplace_back(space_);
    const std::uint64_t* const frontier = kept_[kFrontier].words();
    const std::uint64_t* const seen = kept_[kSeen].words();
    std::vector<RankedLevelMoves> counts(threads);
    std::atomic<std::uint64_t> taken{0};
    tbb::parallel_for(
        tbb::blocked_range<unsigned>(0, threads, 1),
        [&](const tbb::blocked_range<unsigned>& lanes) {
          for (unsigned l = lanes.begin(); l != lanes.end(); ++l) {
            std::uint64_t* const next = l == 0 ? next_.words() : lane_marks_[l - 1].words();
            RankedLevelMoves c;
            for (std::uint64_t w; (w = taken.fetch_add(kPrivateChunkWords, std::memory_order_relaxed)) < words_;) {
              scan_words(w, std::min(words_, w + kPrivateChunkWords), frontier, seen, next, expand_rank, c);
            }
            counts[l] = c;
          }
        },
        tbb::simple_partitioner());
    RankedLevelMoves total;
    for (const RankedLevelMoves& c : counts) total += c;
    return total;
  }

  // A scan chunk's place: the word being scanned and its ranks not yet expanded.
  struct alignas(64) Cursor {
    std::uint64_t word = 0, end = 0, rest = 0;
    bool loaded = false;
    RankedLevelMoves counts;
  };

  template <class Expand>
  RankedLevelMoves parallel_level(unsigned threads, int moves, const Expand& expand_rank) {
    using namespace ranked_detail;
    const SlicePartition slices = partition(space_, std::uint64_t(kSlicesPerThread) * threads);
    const SlicePartition chunks = partition(space_, std::uint64_t(kChunksPerThread) * threads);
    const std::size_t step = scan_step(moves);
    if (lanes_.size() != threads || lane_slices_ != slices.count()) {
      lanes_.clear();
      for (unsigned l = 0; l < threads; ++l) {
        lanes_.emplace_back(slices.count(), round_capacity(threads, kRoundBudget) + step, step);
      }
      lane_slices_ = slices.count();
    }
    std::vector<Cursor> cursors(chunks.count());
    for (unsigned c = 0; c < chunks.count(); ++c) {
      cursors[c].word = chunks.begin(c) / 64;
      cursors[c].end = (chunks.end(c) + 63) / 64;
    }
    const std::uint64_t* const frontier = kept_[kFrontier].words();
    const std::uint64_t* const seen = kept_[kSeen].words();
    // Each call expands whole ranks while their successors surely fit the step, and
    // at least one, so a call queues at most `step` offsets.
    const std::size_t per_call = step - std::size_t(std::max(moves, 1));
    run_rounds(
        chunks.count(), slices.count(), lanes_, kRoundBudget,
        [&](unsigned chunk, SliceQueues& out, std::size_t limit) {
          Cursor& c = cursors[chunk];
          const std::size_t held = out.size();
          std::size_t queued = held;
          const std::size_t stop = std::min(limit, held + per_call);
          RankedLevelMoves counts = c.counts;
          bool first = true;
          for (; c.word < c.end; ++c.word, c.loaded = false) {
            if (!c.loaded) c.rest = frontier[c.word], c.loaded = true;
            while (c.rest) {
              if (!first && queued >= stop) {
                c.counts = counts;
                return false;
              }
              first = false;
              const std::uint64_t r = c.word * 64 + unsigned(std::countr_zero(c.rest));
              c.rest &= c.rest - 1;
              expand_rank(r, [&](std::uint64_t t) {
                if (classify(frontier, seen, r, t, counts)) {
                  out.push(slices.owner(t), std::uint32_t(slices.within(t)));
                  ++queued;
                }
              });
            }
          }
          c.counts = counts;
          return true;
        },
        [&](unsigned t, std::span<const std::uint32_t> offsets) {
          std::uint64_t* const words = next_.words() + slices.begin(t) / 64;
          for (const std::uint32_t o : offsets) words[o >> 6] |= std::uint64_t{1} << (o & 63);
        });
    RankedLevelMoves total;
    for (const Cursor& c : cursors) total += c.counts;
    return total;
  }

  std::uint64_t space_, first_;
  // seen and the frontier: between levels, the whole state of the search (`next`
  // is clear), what a checkpoint keeps.
  static constexpr std::size_t kSeen = 0, kFrontier = 1;
  std::array<BitTable, 2> kept_;
  BitTable next_;
  std::uint64_t words_;
  Marks marks_;
  std::vector<SliceQueues> lanes_;    // kept across levels: their pools are mapped once
  std::vector<BitTable> lane_marks_;  // a level's private copies of `next`, lanes 1..threads-1
  unsigned lane_slices_ = 0;
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

// Runs the levels from the frontier the tables hold, the last level of `s` (a new
// search's level 0, or the levels a checkpoint kept), until none is found; the
// tables' frontier then holds the last level. `Layers` is RankedLayers, or its MPI
// version (distributed/ranked_mpi.hpp): expand() gives the level's moves and the
// next level's size over all processes. on_level(s) is called with the search so
// far at the start and after each level, its last level then the frontier.
template <class Layers, class Expand, class OnLevel>
RankedSearch ranked_search(Layers& tables, RankedSearch s, int moves, const Expand& expand_rank, Progress* progress,
                           const OnLevel& on_level) {
  std::uint64_t total = s.states();
  on_level(std::as_const(s));
  while (true) {
    std::uint64_t found = 0;
    s.moves.push_back(tables.expand(s.layers.back(), moves, expand_rank, found));
    if (found == 0) break;
    s.layers.push_back(found);
    total += found;
    on_level(std::as_const(s));
    if (progress) progress->level(unsigned(s.layers.size() - 1), found, total);
  }
  return s;
}

// A new search from the `sources` positions the tables' frontier holds.
template <class Layers, class Expand, class OnLevel>
RankedSearch ranked_search(Layers& tables, std::uint64_t sources, int moves, const Expand& expand_rank,
                           Progress* progress, const OnLevel& on_level) {
  RankedSearch s;
  s.layers.push_back(sources);
  return ranked_search(tables, std::move(s), moves, expand_rank, progress, on_level);
}

}  // namespace statespace
