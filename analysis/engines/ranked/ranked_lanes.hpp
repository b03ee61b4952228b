// How the threads of the ranked engine (ranked_bfs.hpp) share one level's expansion,
// by the tiles' implicit engine's machinery (analysis/engines/common/slices.hpp): the
// frontier is cut into scan chunks, the rank space into destination slices; a scan
// queues each new successor as a 32-bit offset for the slice that owns it, and each
// slice's owner then marks its queues, after every scan of the round: the scans read
// `mark` (the frontier is seen & mark) while no lane writes it. Every word has one
// writer, every mark is a plain OR, and no atomic is taken. When the lanes' bitsets
// of the whole rank space cost less than their queues (a space of up to some ten
// million ranks on two threads), each lane instead marks its own copy of `mark`
// directly, and finishing the level ORs the copies in: no queue, no second pass over
// the marks. Either way the sets and counts are the same for any thread count.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "analysis/engines/common/slices.hpp"
#include "analysis/runtime/packed_table.hpp"

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
  return SliceQueues::pool_bytes(slices, round_capacity(lanes, kRoundBudget) + step, step);
}

// Whether the lanes of a run on `threads` threads mark private copies of `mark`
// rather than queue offsets: when the copies take no more memory than the queues.
// Every lane takes a copy: the others read `mark` (the frontier) as they scan.
inline bool private_marks(std::uint64_t space, unsigned threads, std::uint64_t queues) {
  return threads > 1 && threads * BitTable::bytes_for(space) <= queues;
}

// Classifies t, a successor (not a self-loop) of a position in the frontier,
// without a branch on the bits: a move within the level (seen and marked), back
// (seen, not marked: dropped) or onward (not seen: marked in `out`, which is `mark`
// itself on one thread or a lane's copy of it). One load of each plane; the outcome
// is close to random, and mispredicted branches would cost more than the loads.
//
// kShared: the lanes of a level mark `mark` itself, together. Its bits of seen ranks
// (the frontier) do not change during the level, and a mark falls on a rank not seen,
// so every lane reads the same frontier and the same counts whatever the others
// marked; the marks are atomic ors (made only where there is a bit to set), and the
// loads of `mark` atomic too, relaxed: plain loads on x86.
template <bool kShared>
inline std::uint64_t load_mark(const std::uint64_t* mark_plane, std::uint64_t w) {
  if constexpr (kShared) {
    return std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(mark_plane[w])).load(std::memory_order_relaxed);
  } else {
    return mark_plane[w];
  }
}
template <bool kShared>
inline void set_marks(std::uint64_t* out, std::uint64_t w, std::uint64_t fresh) {
  if constexpr (kShared) {
    if (fresh != 0) std::atomic_ref<std::uint64_t>(out[w]).fetch_or(fresh, std::memory_order_relaxed);
  } else {
    out[w] |= fresh;
  }
}
template <bool kShared = false, class Counts>
inline void mark(const std::uint64_t* seen, const std::uint64_t* mark_plane, std::uint64_t* out, std::uint64_t t,
                 Counts& c) {
  const std::uint64_t w = t >> 6, b = bit(t);
  const std::uint64_t s = seen[w];
  const std::uint64_t fresh = b & ~s;
  c.within += std::uint64_t((s & load_mark<kShared>(mark_plane, w) & b) != 0);
  c.onward += std::uint64_t(fresh != 0);
  set_marks<kShared>(out, w, fresh);
}

// Classifies t, a successor (not a self-loop) of a position in the frontier, and
// returns whether it is new.
inline bool classify(const std::uint64_t* seen, const std::uint64_t* mark_plane, std::uint64_t t, RankedLevelMoves& c) {
  const std::uint64_t w = t >> 6, b = bit(t);
  if (!(seen[w] & b)) {
    ++c.onward;
    return true;
  }
  c.within += std::uint64_t((mark_plane[w] & b) != 0);
  return false;
}

// Successors waiting for their words of the planes, whose loads were issued when
// they were made: a successor is classified kAhead successors later, so that many
// cache misses (every successor's words are one or two, in planes far larger than
// the caches) are under way at once instead of one after the other.
class PrefetchRing {
 public:
  static constexpr unsigned kAhead = 16;
  // Holds t, its words fetched from `a` and `b`; hands the oldest held to f once
  // kAhead are waiting. The order successors are classified in changes no count and
  // no mark: a level's marks fall on ranks not seen, which no test reads.
  template <class F>
  void push(std::uint64_t t, const std::uint64_t* a, const std::uint64_t* b, const F& f) {
    __builtin_prefetch(a + (t >> 6));
    __builtin_prefetch(b + (t >> 6), 1);
    std::uint64_t& slot = ring_[pushed_ % kAhead];
    if (pushed_ >= kAhead) f(slot);
    slot = t;
    ++pushed_;
  }
  // Hands every successor still held to f.
  template <class F>
  void drain(const F& f) {
    for (std::uint64_t i = pushed_ > kAhead ? pushed_ - kAhead : 0; i < pushed_; ++i) f(ring_[i % kAhead]);
    pushed_ = 0;
  }

 private:
  std::array<std::uint64_t, kAhead> ring_;
  std::uint64_t pushed_ = 0;
};

// An expansion that can write a rank's successors into a buffer of kBatch
// (batch(r, out), where batched(): the piece models' successor_ranks()).
template <class Expand>
concept BatchedExpand = requires(const Expand& e, std::uint64_t r, std::uint64_t* out) {
  { e.batched() } -> std::convertible_to<bool>;
  { e.batch(r, out) } -> std::convertible_to<int>;
  Expand::kBatch;
};

// scan_words() over a batched expansion: the successors of one rank are fetched
// ahead (their words of both planes) while those of the rank before are classified,
// as mark() does, a self-loop (the rank itself, in the frontier) counted out of the
// moves within rather than tested for. The counts stay in registers.
template <bool kShared, BatchedExpand Expand>
void scan_batched(std::uint64_t begin, std::uint64_t end, const std::uint64_t* seen, const std::uint64_t* mark_plane,
                  std::uint64_t* out, const Expand& expand_rank, RankedLevelMoves& c) {
  std::array<std::array<std::uint64_t, Expand::kBatch>, 2> held;
  std::array<std::uint64_t, 2> from{};
  std::array<int, 2> count{};
  std::uint64_t successors = 0, within = 0, onward = 0;
  const auto classify_held = [&](std::size_t k) {
    const std::uint64_t r = from[k];
    const std::uint64_t* const t = held[k].data();
    for (int j = 0; j < count[k]; ++j) {
      const std::uint64_t w = t[j] >> 6, b = bit(t[j]);
      const std::uint64_t s = seen[w];
      const std::uint64_t fresh = b & ~s;
      within += std::uint64_t((s & load_mark<kShared>(mark_plane, w) & b) != 0) - std::uint64_t(t[j] == r);
      onward += std::uint64_t(fresh != 0);
      set_marks<kShared>(out, w, fresh);
    }
  };
  std::size_t cur = 0;
  for (std::uint64_t w = begin; w < end; ++w) {
    for (std::uint64_t hit = seen[w] & load_mark<kShared>(mark_plane, w); hit; hit &= hit - 1) {
      const std::uint64_t r = w * 64 + unsigned(std::countr_zero(hit));
      std::uint64_t* const t = held[cur].data();
      const int n = expand_rank.batch(r, t);
      successors += std::uint64_t(n);
#pragma GCC unroll 4
      for (int j = 0; j < n; ++j) {
        __builtin_prefetch(seen + (t[j] >> 6));
        __builtin_prefetch(out + (t[j] >> 6), 1);
      }
      from[cur] = r;
      count[cur] = n;
      cur ^= 1;
      classify_held(cur);
      count[cur] = 0;
    }
  }
  classify_held(cur ^ 1);
  c += RankedLevelMoves{successors, within, onward};
}

// Expands the frontier's ranks (seen & mark) in words [begin, end), marking `out`
// directly. A word's frontier is read before any of its ranks is expanded; the marks
// made meanwhile are of ranks not seen, which are no part of it anyway.
// kShared: `out` is `mark`, which the other lanes mark too (mark()).
template <bool kShared = false, class Expand>
void scan_words(std::uint64_t begin, std::uint64_t end, const std::uint64_t* seen, const std::uint64_t* mark_plane,
                std::uint64_t* out, const Expand& expand_rank, RankedLevelMoves& c) {
  if constexpr (BatchedExpand<Expand>) {
    if (expand_rank.batched()) return scan_batched<kShared>(begin, end, seen, mark_plane, out, expand_rank, c);
  }
  // Counted in locals: `out` is written through a uint64_t pointer, which may
  // alias c's fields as far as the compiler knows, and would keep them in memory.
  RankedLevelMoves local;
  PrefetchRing ring;
  const auto classify_one = [&](std::uint64_t t) { mark<kShared>(seen, mark_plane, out, t, local); };
  for (std::uint64_t w = begin; w < end; ++w) {
    for (std::uint64_t hit = seen[w] & load_mark<kShared>(mark_plane, w); hit; hit &= hit - 1) {
      const std::uint64_t r = w * 64 + unsigned(std::countr_zero(hit));
      expand_rank(r, [&](std::uint64_t t) {
        ++local.successors;
        // A self-loop joins no two positions: neither within the level nor onward.
        if (t != r) ring.push(t, seen, out, classify_one);
      });
    }
  }
  ring.drain(classify_one);
  c += local;
}

}  // namespace ranked_detail

// The two planes of one level, as the lanes read and write them: `words` words each.
// `seen` holds levels 0..d; `mark`, on a seen rank, says it is in level d (the
// frontier) and, on a rank not seen, that it was found for level d+1.
struct RankedBits {
  const std::uint64_t* seen;
  std::uint64_t* mark;
  std::uint64_t words;
};

// The lanes of a parallel level and what they keep across levels: their queue
// pools (mapped once) or their private copies of `mark`.
class RankedLanes {
 public:
  // Bytes the lanes of a run on `threads` threads take beside the two planes, for
  // moves of at most `moves` successors.
  static std::uint64_t bytes(std::uint64_t space, unsigned threads, int moves) {
    if (threads <= 1) return 0;
    if (private_lanes(space, threads, moves)) return threads * BitTable::bytes_for(space);
    return 0;  // shared marks
  }
  // Whether a parallel level's lanes mark private copies of `mark`: one answer for
  // bytes() (the memory check) and the run.
  static bool private_lanes(std::uint64_t space, unsigned threads, int moves) {
    return ranked_detail::private_marks(space, threads, queue_pools(space, threads, moves));
  }

  // A level on `threads` lanes, each marking its own copy of `mark`, which they all
  // read. The lanes take chunks of the frontier in turn, so a lane that never starts
  // leaves its share to the others; which lane marks a successor changes no bit of
  // the union and no count. Finishing the level merges the copies.
  template <class Expand>
  RankedLevelMoves private_level(std::uint64_t space, unsigned threads, const RankedBits& b,
                                 const Expand& expand_rank) {
    while (lane_marks_.size() < threads) lane_marks_.emplace_back(space);
    return lanes_level<false>(threads, b, expand_rank);
  }

  // A level on `threads` lanes that all mark `mark` itself, with atomic ors
  // (ranked_detail::mark()): no memory beside the planes, and no second pass over
  // the successors, which the queues take. The lanes take chunks of the frontier in
  // turn, as private_level()'s do.
  template <class Expand>
  RankedLevelMoves shared_level(unsigned threads, const RankedBits& b, const Expand& expand_rank) {
    return lanes_level<true>(threads, b, expand_rank);
  }

  // The lanes' private copies of `mark`: clear but after a private level, whose
  // finishing ORs them into `mark` and clears them again.
  [[nodiscard]] std::span<BitTable> copies() { return lane_marks_; }

  // A level whose lanes queue each new successor to its slice's owner, who marks it.
  template <class Expand>
  RankedLevelMoves queued_level(std::uint64_t space, unsigned threads, int moves, const RankedBits& b,
                                const Expand& expand_rank) {
    using namespace ranked_detail;
    const SlicePartition slices = partition(space, std::uint64_t(kSlicesPerThread) * threads);
    const SlicePartition chunks = partition(space, std::uint64_t(kChunksPerThread) * threads);
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
          PrefetchRing ring;
          const auto classify_one = [&](std::uint64_t t) {
            if (classify(b.seen, b.mark, t, counts)) out.push(slices.owner(t), std::uint32_t(slices.within(t)));
          };
          bool first = true;
          for (; c.word < c.end; ++c.word, c.loaded = false) {
            // The frontier is seen & mark: the marks an earlier round applied are of
            // ranks not seen.
            if (!c.loaded) c.rest = b.seen[c.word] & b.mark[c.word], c.loaded = true;
            while (c.rest) {
              if (!first && queued >= stop) {
                ring.drain(classify_one);
                c.counts = counts;
                return false;
              }
              first = false;
              const std::uint64_t r = c.word * 64 + unsigned(std::countr_zero(c.rest));
              c.rest &= c.rest - 1;
              // Every successor held counts as queued: the ring classifies it later.
              expand_rank(r, [&](std::uint64_t t) {
                ++counts.successors;
                if (t == r) return;  // a self-loop joins no two positions
                ring.push(t, b.seen, b.mark, classify_one);
                ++queued;
              });
            }
          }
          ring.drain(classify_one);
          c.counts = counts;
          return true;
        },
        [&](unsigned t, std::span<const std::uint32_t> offsets) {
          std::uint64_t* const words = b.mark + slices.begin(t) / 64;
          // The slice is far larger than the caches: its words are fetched ahead.
          const std::size_t n = offsets.size();
          for (std::size_t i = 0; i < n; ++i) {
            if (i + PrefetchRing::kAhead < n) __builtin_prefetch(words + (offsets[i + PrefetchRing::kAhead] >> 6), 1);
            words[offsets[i] >> 6] |= std::uint64_t{1} << (offsets[i] & 63);
          }
        });
    RankedLevelMoves total;
    for (const Cursor& c : cursors) total += c.counts;
    return total;
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

  // The lanes of a private or shared level (kShared: they all mark `mark`; else
  // lane l its copy lane_marks_[l]).
  template <bool kShared, class Expand>
  RankedLevelMoves lanes_level(unsigned threads, const RankedBits& b, const Expand& expand_rank) {
    using namespace ranked_detail;
    std::vector<RankedLevelMoves> counts(threads);
    std::atomic<std::uint64_t> taken{0};
    tbb::parallel_for(
        tbb::blocked_range<unsigned>(0, threads, 1),
        [&](const tbb::blocked_range<unsigned>& lanes) {
          for (unsigned l = lanes.begin(); l != lanes.end(); ++l) {
            std::uint64_t* const out = kShared ? b.mark : lane_marks_[l].words();
            RankedLevelMoves c;
            for (std::uint64_t w; (w = taken.fetch_add(kPrivateChunkWords, std::memory_order_relaxed)) < b.words;) {
              scan_words<kShared>(w, std::min(b.words, w + kPrivateChunkWords), b.seen, b.mark, out, expand_rank, c);
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

  std::vector<SliceQueues> lanes_;    // kept across levels: their pools are mapped once
  std::vector<BitTable> lane_marks_;  // a level's private copies of `mark`, one per lane
  unsigned lane_slices_ = 0;
};

}  // namespace statespace
