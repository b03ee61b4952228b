// Breadth-first search by sorted levels, for models whose positions pack into one
// 64-bit word (WordPackedPuzzle) and have no perfect hash. No visited set: the graph
// is undirected, so the successors of level d lie in levels d-1, d and d+1. Each
// level's successors are generated into one array (in parallel, each position's at
// its own slots), sorted, and merged against the sorted levels d-1 and d: what is in
// neither, once each, is level d+1, already in canonical order. The merge also counts
// the edges within a level and between consecutive levels, which is all the reports
// need of the graph, so none is built. Every step is sequential reads and writes
// (cache friendly) over 8 bytes per position, and the result does not depend on the
// number of threads.
//
// The sort: the words are split into buckets by their top bits (a counting pass and
// a scatter, over fixed chunks so the layout never depends on the threads), then each
// bucket is sorted and merged on its own, in parallel.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "analysis/engines/result.hpp"
#include "analysis/runtime/memory.hpp"
#include "analysis/runtime/progress.hpp"
#include "core/puzzle.hpp"

namespace statespace {

struct SortedLevelsResult {
  std::vector<std::uint64_t> layers;    // layers[d] = positions at distance d
  std::vector<std::uint64_t> farthest;  // the deepest level's words, ascending
  std::vector<LayerEdges>
      layer_edges;               // as count_layer_edges (analysis/engines/explicit/analyze_explicit.hpp) gives them
  std::uint64_t successors = 0;  // directed edges, self-loops included
  [[nodiscard]] std::uint64_t states() const {
    std::uint64_t n = 0;
    for (const auto l : layers) n += l;
    return n;
  }
};

namespace detail {

inline constexpr int kLevelBucketBits = 12;
inline constexpr std::size_t kLevelChunks = 64;

// Sorts [a, a + n) by the low `bits` bits of each word (the others being equal), least
// significant digit first, by way of `tmp` (n words). A bucket is a few thousand
// words, which stay in cache over the passes: several times faster than std::sort.
// Each scatter also counts the next digit, so the words are read once a pass.
inline void radix_sort_low(std::uint64_t* a, std::uint64_t* tmp, std::size_t n, int bits) {
  constexpr int kMaxDigit = 12;  // two 16 KB arrays of counters: they stay in L1
  if (n < 256) {
    std::sort(a, a + n);
    return;
  }
  // As few passes as 12-bit digits allow, the digits of equal width.
  const int passes = (bits + kMaxDigit - 1) / kMaxDigit;
  const int digit = passes ? (bits + passes - 1) / passes : 0;
  const std::uint64_t digit_mask = (std::uint64_t{1} << digit) - 1;
  std::uint64_t* from = a;
  std::uint64_t* to = tmp;
  std::array<std::array<std::uint32_t, std::size_t(1) << kMaxDigit>, 2> counts;
  std::fill_n(counts[0].begin(), digit_mask + 1, 0);
  for (std::size_t i = 0; i < n; ++i) ++counts[0][from[i] & digit_mask];
  for (int pass = 0; pass < passes; ++pass) {
    const int shift = pass * digit;
    auto& count = counts[std::size_t(pass & 1)];
    auto& next = counts[std::size_t(~pass & 1)];
    const bool last = pass + 1 == passes;
    if (!last) std::fill_n(next.begin(), digit_mask + 1, 0);
    if (count[(from[0] >> shift) & digit_mask] == n) {  // one value: this digit orders nothing
      if (!last) {
        for (std::size_t i = 0; i < n; ++i) ++next[(from[i] >> (shift + digit)) & digit_mask];
      }
      continue;
    }
    std::uint32_t at = 0;
    for (std::size_t v = 0; v <= digit_mask; ++v) at += std::exchange(count[v], at);
    if (last) {
      for (std::size_t i = 0; i < n; ++i) to[count[(from[i] >> shift) & digit_mask]++] = from[i];
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t x = from[i];
        to[count[(x >> shift) & digit_mask]++] = x;
        ++next[(x >> (shift + digit)) & digit_mask];
      }
    }
    std::swap(from, to);
  }
  if (from != a) std::copy_n(from, n, a);
}

// The chunks of successors go in groups of kScatterGroup, each with a row of bucket
// counters: the serial pass over the counters stays small beside the words.
inline constexpr std::size_t kScatterGroup = 4;

// Counts `words` by bucket (w >> shift) into `row`.
inline void count_buckets(std::span<const std::uint64_t> words, int shift, std::uint64_t* row) {
  for (const std::uint64_t w : words) ++row[w >> shift];
}

// Scatters the words of `chunks` into `sorted` (as many words) by bucket: bucket b
// (words whose bits from `shift` up are b, of `buckets`) goes to [start[b],
// start[b + 1]) of `sorted`, for radix_sort_low to sort. `count` holds a row of
// counters per group of chunks ([group][bucket]), filled already when `counted`; it
// is kept by the caller so that its pages stay mapped from level to level.
inline void bucket_scatter(std::span<const std::span<const std::uint64_t>> chunks, std::span<std::uint64_t> sorted,
                           int shift, std::size_t buckets, std::vector<std::uint64_t>& start,
                           std::vector<std::uint64_t>& count, bool counted) {
  const std::size_t k = (chunks.size() + kScatterGroup - 1) / kScatterGroup;
  const auto group = [&](std::size_t g) {
    return chunks.subspan(g * kScatterGroup, std::min(chunks.size() - g * kScatterGroup, kScatterGroup));
  };
  if (!counted) {
    count.assign(k * buckets, 0);
    tbb::parallel_for(std::size_t(0), k, [&](std::size_t g) {
      for (const auto words : group(g)) count_buckets(words, shift, &count[g * buckets]);
    });
  }
  // Offsets bucket-major, group-minor: each group scatters into its own runs.
  start.assign(buckets + 1, 0);
  std::uint64_t at = 0;
  for (std::size_t b = 0; b < buckets; ++b) {
    start[b] = at;
    for (std::size_t g = 0; g < k; ++g) at += std::exchange(count[g * buckets + b], at);
  }
  start[buckets] = at;
  tbb::parallel_for(std::size_t(0), k, [&](std::size_t g) {
    std::uint64_t* next = &count[g * buckets];
    for (const auto words : group(g)) {
      for (const std::uint64_t w : words) sorted[next[w >> shift]++] = w;
    }
  });
}

// The sorted words [first, last) less those in `older` and `level` (both sorted),
// written once each from `first` on; counts the words found in `level` (edges
// within it, both directions) and those in neither (edges to the next level).
struct MergeCounts {
  std::uint64_t kept = 0;
  std::uint64_t within = 0;
  std::uint64_t onward = 0;
};
inline MergeCounts subtract_levels(std::uint64_t* first, std::uint64_t* last, std::span<const std::uint64_t> older,
                                   std::span<const std::uint64_t> level) {
  MergeCounts m;
  if (first == last) return m;
  auto o = std::lower_bound(older.begin(), older.end(), *first);
  auto l = std::lower_bound(level.begin(), level.end(), *first);
  std::uint64_t* out = first;
  // A word comes about three times (once from each of its neighbours in the level):
  // each run of equal words is looked up once.
  for (std::uint64_t* w = first; w != last;) {
    const std::uint64_t x = *w;
    std::uint64_t* run = w + 1;
    while (run != last && *run == x) ++run;
    const auto copies = std::uint64_t(run - w);
    w = run;
    while (o != older.end() && *o < x) ++o;
    if (o != older.end() && *o == x) continue;
    while (l != level.end() && *l < x) ++l;
    if (l != level.end() && *l == x) {
      m.within += copies;
      continue;
    }
    m.onward += copies;
    *out++ = x;
  }
  m.kept = std::uint64_t(out - first);
  return m;
}

// An array of words that only grows, left uninitialised: every level overwrites what
// it uses, so neither zero-filling nor copying the last level's words is of use. It
// grows at least twofold: levels grow a little at a time, and each new array's pages
// are mapped again on their first write (what is reserved and not written costs no
// memory).
class WordBuffer {
 public:
  std::span<std::uint64_t> take(std::size_t n) {
    if (n > capacity_) {
      words_.reset();
      capacity_ = std::max(n, 2 * capacity_);
      words_ = std::make_unique_for_overwrite<std::uint64_t[]>(capacity_);
    }
    return {words_.get(), n};
  }

 private:
  std::unique_ptr<std::uint64_t[]> words_;
  std::size_t capacity_ = 0;
};

}  // namespace detail

// Whether the positions reachable from `start` pack into one word.
template <Puzzle P>
bool packs_into_word(const P& p, const typename P::State& start) {
  if constexpr (WordPackedPuzzle<P>) {
    return p.packing(start).has_value();
  } else {
    return false;
  }
}

// Bytes the search holds while expanding a level of `level` positions with `moves`
// successors each, `older` positions in the level before: the three levels and two
// arrays of successors (only the words written take memory).
inline std::uint64_t sorted_levels_bytes(std::uint64_t older, std::uint64_t level, std::uint64_t moves) {
  return 8 * (older + level + 3 * level * moves);
}

// Breadth first from the positions `starts` (words, ascending, distinct) over the
// packed words of `packing`; the model's name for the budget's messages. Checks each
// level's need against `budget` before it is allocated. Calls on_level(depth, words)
// with every level, its words ascending.
template <class Packing, class OnLevel>
SortedLevelsResult sorted_levels_bfs(const Packing& packing, std::vector<std::uint64_t> starts, const std::string& name,
                                     const MemoryBudget& budget, Progress* progress, OnLevel&& on_level) {
  const std::size_t moves = std::size_t(packing.moves());
  // A packing that states its words' width (all below 2^word_bits(), at least 1)
  // also promises that every move changes the word: then no successor need be
  // looked at for its bits or for a self-loop.
  constexpr bool kBoundedWords = requires { packing.word_bits(); };
  SortedLevelsResult r;
  // The levels d-1, d and d+1 rotate through three buffers, and the other arrays are
  // kept too: memory once mapped is not returned and mapped again at every level.
  std::array<detail::WordBuffer, 3> level_buffer;
  const auto first = level_buffer[1].take(starts.size());
  std::copy(starts.begin(), starts.end(), first.begin());
  std::span<const std::uint64_t> older, level = first;
  std::size_t level_at = 1;
  std::vector<std::uint64_t> bucket_start, bucket_count, next_start;
  std::vector<detail::MergeCounts> counts;
  detail::WordBuffer successor_buffer, scratch_buffer;
  std::vector<std::uint64_t> within, onward;  // per depth: directed edges inside, edges to the next
  std::uint64_t total = level.size();
  while (!level.empty()) {
    on_level(r.layers.size(), level);
    r.layers.push_back(level.size());
    const std::size_t n = level.size();
    // The successors a position were as many on the last level, give or take one;
    // the bound of the model (often a few times more) serves the first levels.
    const std::uint64_t expected =
        r.layers.size() > 1 ? std::min<std::uint64_t>(moves, r.successors / (total - n) + 2) : moves;
    budget.require(sorted_levels_bytes(older.size(), n, expected), name + ": sorted levels");
    // Fixed chunks of positions, fewer for small levels (each four cost a row of bucket
    // counters), so neither the layout nor the result depends on the threads. Each
    // chunk writes its successors from its own offset; the OR of every word gives the
    // bits in use (the buckets' shift), and self-loops are counted apart (they are
    // inside the level, but no edge to another position).
    const std::size_t chunks = std::clamp<std::size_t>(n / 4096, 1, detail::kLevelChunks);
    const std::size_t chunk = (n + chunks - 1) / chunks;
    const std::size_t groups = (chunks + detail::kScatterGroup - 1) / detail::kScatterGroup;
    const auto successors = successor_buffer.take(n * moves);
    // About 2,048 words a bucket, at most 2^kLevelBucketBits buckets. At least one
    // bucket bit whenever a bit is in use: words of 64 bits would otherwise need a
    // shift by 64, which C++ leaves undefined (x86 shifts by 0).
    int shift = 0;
    std::size_t buckets = 1;
    const auto choose_buckets = [&](std::uint64_t words, std::uint64_t bits) {
      const int width = int(std::bit_width(bits));
      const int bucket_bits =
          std::min({detail::kLevelBucketBits, std::max(1, int(std::bit_width(words / 2048))), width});
      shift = width - bucket_bits;
      buckets = std::size_t(1) << bucket_bits;
    };
    // When the packing states its words' width, the buckets are known before the
    // successors are made (from the expected count), and each chunk's words are
    // counted right after they are made, while they are in cache.
    if constexpr (kBoundedWords) {
      choose_buckets(n * expected, std::uint64_t(-1) >> (64 - packing.word_bits()));
      bucket_count.assign(groups * buckets, 0);
    }
    std::vector<std::uint64_t> used(chunks, 0), loops(chunks, 0), made(chunks, 0);
    tbb::parallel_for(std::size_t(0), groups, [&](std::size_t g) {
      for (std::size_t c = g * detail::kScatterGroup; c < std::min(chunks, (g + 1) * detail::kScatterGroup); ++c) {
        std::uint64_t bits = 0, self = 0;
        std::uint64_t* const begin = successors.data() + c * chunk * moves;
        std::uint64_t* out = begin;
        auto successors_of = [&] {  // a packing's own way through ascending words, if it has one
          if constexpr (requires { typename Packing::Successors; }) {
            return typename Packing::Successors(packing);
          } else {
            return [&](std::uint64_t w, std::uint64_t* to) { return packing.successors(w, to); };
          }
        }();
        for (std::size_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i) {
          const int k = successors_of(level[i], out);
          if constexpr (!kBoundedWords) {
            for (int m = 0; m < k; ++m) {
              bits |= out[m];
              self += out[m] == level[i];
            }
          }
          out += k;
        }
        if constexpr (kBoundedWords) detail::count_buckets({begin, out}, shift, &bucket_count[g * buckets]);
        used[c] = bits;
        loops[c] = self;
        made[c] = std::uint64_t(out - begin);
      }
    });
    std::uint64_t bits = 0, self = 0, generated = 0;
    std::vector<std::span<const std::uint64_t>> parts;
    for (std::size_t c = 0; c < chunks; ++c) {
      bits |= used[c], self += loops[c], generated += made[c];
      parts.emplace_back(successors.data() + c * chunk * moves, made[c]);
    }
    if constexpr (!kBoundedWords) choose_buckets(generated, bits);
    const auto sorted = scratch_buffer.take(generated);
    detail::bucket_scatter(parts, sorted, shift, buckets, bucket_start, bucket_count, kBoundedWords);
    // Each bucket is merged while its sort has left it in cache. The successors'
    // buffer is the sort's scratch: the chunks were read by the scatter.
    counts.assign(buckets, {});
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, buckets), [&](const auto& range) {
      for (std::size_t b = range.begin(); b != range.end(); ++b) {
        std::uint64_t* const first = sorted.data() + bucket_start[b];
        const std::size_t size = bucket_start[b + 1] - bucket_start[b];
        detail::radix_sort_low(first, successors.data() + bucket_start[b], size, shift);
        counts[b] = detail::subtract_levels(first, first + size, older, level);
      }
    });
    next_start.assign(buckets + 1, 0);
    std::uint64_t inside = 0, outward = 0;
    for (std::size_t b = 0; b < buckets; ++b) {
      next_start[b + 1] = next_start[b] + counts[b].kept;
      inside += counts[b].within;
      outward += counts[b].onward;
    }
    within.push_back(inside - self);
    onward.push_back(outward);
    r.successors += generated;
    const std::size_t next_at = (level_at + 1) % 3;
    const std::span<std::uint64_t> next = level_buffer[next_at].take(next_start[buckets]);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, buckets), [&](const auto& range) {
      for (std::size_t b = range.begin(); b != range.end(); ++b) {
        std::copy_n(sorted.data() + bucket_start[b], counts[b].kept, next.data() + next_start[b]);
      }
    });
    total += next.size();
    if (next.empty()) r.farthest.assign(level.begin(), level.end());
    older = level;
    level = next;
    level_at = next_at;
    if (progress && !level.empty()) progress->level(unsigned(r.layers.size()), level.size(), total);
  }
  // The edges between depths in count_layer_edges' order: within depth d, then d to d+1.
  for (std::size_t d = 0; d < within.size(); ++d) {
    if (within[d]) r.layer_edges.push_back({unsigned(d), unsigned(d), within[d] / 2});
    if (onward[d]) r.layer_edges.push_back({unsigned(d), unsigned(d + 1), onward[d]});
  }
  return r;
}

template <class Packing, class State>
SortedLevelsResult sorted_levels_bfs(const Packing& packing, const State& start, const std::string& name,
                                     const MemoryBudget& budget, Progress* progress = nullptr) {
  return sorted_levels_bfs(packing, std::vector<std::uint64_t>{packing.pack(start)}, name, budget, progress,
                           [](std::size_t, std::span<const std::uint64_t>) {});
}

}  // namespace statespace
