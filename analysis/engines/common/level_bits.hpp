// The visited set of the parallel ranked enumerations (ranked_enumerate.hpp,
// permutation_enumerate.hpp), one bit per rank, shared without atomic
// instructions: a locked read-modify-write costs about as much as the rest of a
// lookup. During a parallel level the `visited` words (every earlier level) are
// only read, and each worker marks what it finds in its own words. After the level
// a state two workers both found is kept by the first of them (marked_before), and
// absorb() ORs the workers' words into `visited`, word range by word range in
// parallel. So the set and the layer sizes do not depend on the thread count or on
// which worker found a state; only the order inside a frontier does, and nothing
// downstream reads it (vertex ids are ranks in ascending order).
//
// A serial level (a small frontier, or one thread) runs on the calling thread
// alone and marks `visited` itself: with no other writer there is nothing to merge,
// and a sweep of every word per level would cost more than such a level's lookups
// (tiles:2x5 has 56 levels, half of them under 5,000 states).
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "analysis/runtime/memory.hpp"
#include "analysis/runtime/threads.hpp"
#include "core/rank_bitset.hpp"

namespace statespace {

// tbb::parallel_for over [0, n) in chunks of about `grain`, or one plain call on
// this thread when there is only one chunk: the levels of a few states (most
// levels of the small puzzles) must not pay for waking the workers.
template <class F>
void for_each_chunk(std::size_t n, std::size_t grain, const F& body) {
  if (n <= grain) {
    body(tbb::blocked_range<std::size_t>(0, n));
  } else {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, grain), body);
  }
}

// What a ranked enumeration found.
struct RankedEnumeration {
  RankBitset members;                 // ranks of the reachable states
  std::vector<std::uint64_t> layers;  // layers[d] = states first reached at depth d
  std::uint64_t lookups = 0;          // children ranked and tested against the set
  [[nodiscard]] std::uint64_t states() const {
    std::uint64_t n = 0;
    for (const auto k : layers) n += k;
    return n;
  }
};

// Every rank an enumeration reached, level by level: the start first, then level d
// as the layers[d] ranks after those of the levels before it (in an order that
// depends on the threads). The distances then need no second search.
struct LevelOrder {
  RawVector<std::uint64_t> ranks;
  // From the permutation enumeration, which knows each position's blank cell: the
  // moves of ranks[i], so that the graph's degree pass is not needed. Else empty.
  RawVector<std::uint8_t> degrees;
};

class LevelBits {
 public:
  using Words = std::vector<std::uint64_t>;

  explicit LevelBits(std::uint64_t rank_space)
      : size_(rank_space), visited_((rank_space + 63) / 64, 0), one_thread_(worker_threads() == 1) {}

  void visit(std::uint64_t r) { visited_[r >> 6] |= bit(r); }

  // True when r is neither visited nor marked in `seen` yet; marks it. No branch, so
  // the unpredictable outcome costs no misprediction.
  [[nodiscard]] bool claim(std::uint64_t* seen, std::uint64_t r) const { return claim(visited_.data(), seen, r); }
  // The same on raw words, for hot loops that keep the pointers in registers.
  [[nodiscard]] static bool claim(const std::uint64_t* visited, std::uint64_t* seen, std::uint64_t r) {
    const std::size_t w = r >> 6;
    const bool fresh = !((visited[w] | seen[w]) & bit(r));
    seen[w] |= bit(r);
    return fresh;
  }
  [[nodiscard]] const std::uint64_t* visited_words() const { return visited_.data(); }

  // One level of an enumeration: body(range, local, marks) over the level's work
  // items [0, n), `local` the calling worker's (a Local has its words as member
  // `seen`), claiming what it finds in `marks`.
  // A serial level (`entries` states to expand, serial_level) runs on this thread
  // alone; a parallel one in chunks of `grain`, after which drop(worker, marked)
  // removes from each worker's finds the ranks r for which marked(r) is true (an
  // earlier worker kept them) and every worker's marks join `visited`.
  template <class Local, class Body, class Drop>
  void run_level(tbb::enumerable_thread_specific<Local>& locals, std::uint64_t entries, std::size_t n,
                 std::size_t grain, const Body& body, const Drop& drop) {
    const bool serial = serial_level(entries);
    const auto run = [&](const tbb::blocked_range<std::size_t>& range) {
      Local& local = locals.local();
      body(range, local, marks(local.seen, serial));
    };
    if (serial) {
      run(tbb::blocked_range<std::size_t>(0, n));
      return;
    }
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, grain), run);
    const std::vector<Local*> workers = marking(locals);
    tbb::parallel_for(std::size_t{1}, workers.size(), [&](std::size_t i) {  // empty for one worker
      drop(*workers[i], [&](std::uint64_t r) { return marked_before(workers, i, r); });
    });
    absorb(workers);
  }

  [[nodiscard]] RankBitset release() && { return RankBitset::from_words(size_, std::move(visited_)); }

 private:
  // Whether a level expanding `entries` states runs serially. Below the threshold a
  // parallel level's fixed costs (waking the workers, three fork-joins, sweeping
  // every worker's words) exceed what a second thread saves on the lookups.
  [[nodiscard]] bool serial_level(std::uint64_t entries) const {
    constexpr std::uint64_t kParallelEntries = 16384;
    return one_thread_ || entries < kParallelEntries;
  }
  // The words a worker marks in this level: `visited` in a serial level, else the
  // worker's own `words`, zeroed on first use (so a thread that only ever runs
  // serial levels never allocates them).
  [[nodiscard]] std::uint64_t* marks(Words& words, bool serial) {
    if (serial) return visited_.data();
    if (words.empty()) words.assign(visited_.size(), 0);
    return words.data();
  }
  // The workers of a parallel level, as marked_before and absorb take them: those
  // whose words (member `seen`) exist. Any worker may have run the level, and a
  // worker that has only run serial levels has no words.
  template <class Local>
  [[nodiscard]] static std::vector<Local*> marking(tbb::enumerable_thread_specific<Local>& locals) {
    std::vector<Local*> workers;
    for (Local& local : locals) {
      if (!local.seen.empty()) workers.push_back(&local);
    }
    return workers;
  }

  // Whether any of the workers before `worker` marked r in this level.
  template <class Local>
  [[nodiscard]] static bool marked_before(const std::vector<Local*>& workers, std::size_t worker, std::uint64_t r) {
    for (std::size_t j = 0; j < worker; ++j) {
      if (workers[j]->seen[r >> 6] & bit(r)) return true;
    }
    return false;
  }

  // Ends a parallel level: every worker's marks join `visited` and are cleared.
  template <class Local>
  void absorb(const std::vector<Local*>& workers) {
    constexpr std::size_t kWordGrain = 4096;
    for_each_chunk(visited_.size(), kWordGrain, [&](const auto& range) {
      for (Local* worker : workers) {
        Words& seen = worker->seen;
        for (std::size_t w = range.begin(); w != range.end(); ++w) {
          visited_[w] |= seen[w];
          seen[w] = 0;
        }
      }
    });
  }

  [[nodiscard]] static std::uint64_t bit(std::uint64_t r) { return std::uint64_t{1} << (r & 63); }

  std::uint64_t size_;
  Words visited_;
  bool one_thread_;
};

}  // namespace statespace
