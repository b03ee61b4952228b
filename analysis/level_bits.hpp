// The visited set of the parallel ranked enumerations (ranked_enumerate.hpp,
// permutation_enumerate.hpp), one bit per rank, shared without atomic
// instructions: a locked read-modify-write costs about as much as the rest of a
// lookup. During a level the `visited` words (every earlier level) are only read,
// and each worker marks what it finds in its own words. After the level a state two
// workers both found is kept by the first of them (marked_before), and absorb() ORs
// the workers' words into `visited`, word range by word range in parallel. So the
// set and the layer sizes do not depend on the thread count or on which worker
// found a state; only the order inside a frontier does, and nothing downstream
// reads it (vertex ids are ranks in ascending order).
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cstdint>
#include <utility>
#include <vector>

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

class LevelBits {
 public:
  using Words = std::vector<std::uint64_t>;

  explicit LevelBits(std::uint64_t rank_space) : size_(rank_space), visited_((rank_space + 63) / 64, 0) {}

  // Zeroed words for one worker's marks.
  [[nodiscard]] Words worker_words() const { return Words(visited_.size(), 0); }
  // Bytes per worker (and for `visited`).
  [[nodiscard]] static std::uint64_t bytes_per_set(std::uint64_t rank_space) { return (rank_space + 63) / 64 * 8; }

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

  // Whether any of the workers before `worker` marked r in this level.
  [[nodiscard]] static bool marked_before(const std::vector<Words*>& seen, std::size_t worker, std::uint64_t r) {
    for (std::size_t j = 0; j < worker; ++j) {
      if ((*seen[j])[r >> 6] & bit(r)) return true;
    }
    return false;
  }

  // Ends a level: every worker's marks join `visited` and are cleared.
  void absorb(const std::vector<Words*>& seen) {
    constexpr std::size_t kWordGrain = 4096;
    for_each_chunk(visited_.size(), kWordGrain, [&](const auto& range) {
      for (Words* words : seen) {
        for (std::size_t w = range.begin(); w != range.end(); ++w) {
          visited_[w] |= (*words)[w];
          (*words)[w] = 0;
        }
      }
    });
  }

  [[nodiscard]] RankBitset release() && { return RankBitset::from_words(size_, std::move(visited_)); }

 private:
  [[nodiscard]] static std::uint64_t bit(std::uint64_t r) { return std::uint64_t{1} << (r & 63); }

  std::uint64_t size_;
  Words visited_;
};

}  // namespace statespace
