// Chain moves (a run of rule applications by one piece is one move: peg solitaire's
// multi-jumps) searched one application at a time. When every single application
// adds the same number of pieces (a jump takes one peg off), the applications go
// from one layer of equal piece count to the next, so the layers can be walked in
// order, two at a time, as the graded sorted-levels search walks them. Each position
// q of a layer carries
//   f(q): the fewest chain moves from the start, and
//   M(q): the cells c such that some path of f(q) chain moves ends with an
//         application that put its piece on c.
// An application by the piece on cell c' from p to q, landing on d, costs f(p) when c'
// is in M(p) (the piece that moved last goes on) and f(p) + 1 otherwise; f(q) is the
// least cost over q's incoming applications and M(q) the OR of the landing cells of
// those that achieve it. This is exact: with g(p, c) the fewest chain moves of a path
// to p whose last application landed on c, going on with the piece on c' costs
// min(f(p) + 1, g(p, c')), and g(p, c') = f(p) exactly when c' is in M(p). With board
// symmetry the landing cell is moved by the symmetry that makes q its class's least
// member, by all of them when several do (RulesPacking::for_each_step).
//
// A generic search by chain moves cannot use the grading (a chain takes off one to
// many pegs), so it checks each level against all earlier ones and makes up to 304
// chain successors a position; this one makes a position's single applications (at
// most 76 on the English board) and keeps two layers.
//
// Each layer is a sorted array of 16-byte entries: the word and f in one 64-bit key
// (word << 8 | f, so sorting by key sorts by word and puts the least f first) and
// the mask. A layer's successors are made in parallel over fixed chunks, split into
// buckets by their top bits, radix-sorted per bucket (level_sort.hpp) and merged: per
// word the least f and the OR of the masks that come with it. Sort and merge depend
// on the entries alone, not on their order, so the result is the same for any thread
// count.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <concepts>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "analysis/engines/levels/level_sort.hpp"
#include "analysis/runtime/memory.hpp"
#include "analysis/runtime/progress.hpp"

namespace statespace {

// A packing whose chain moves are runs of graded single applications
// (RulesPacking: chain_graded(), for_each_step()).
template <class K>
concept GradedChainPacking = requires(const K& k, std::uint64_t w, std::uint64_t* out) {
  { k.chain_graded() } -> std::convertible_to<bool>;
  { k.steps() } -> std::convertible_to<int>;
  { k.word_bits() } -> std::convertible_to<int>;
  { k.step_predecessors(w, out) } -> std::convertible_to<int>;
  k.for_each_step(w, [](std::uint64_t, std::uint8_t, std::uint64_t) {});
  k.for_each_step_within(w, 1, w, [](std::uint64_t, std::uint8_t, std::uint64_t) {});
};

// Whether p's chain moves run on the graded-chain search from `start`.
template <class P>
bool runs_graded_chains(const P& p, const typename P::State& start) {
  if constexpr (requires { p.packing(start); }) {
    if constexpr (GradedChainPacking<typename P::Packing>) {
      const auto k = p.packing(start);
      return k && k->chain_graded();
    }
  }
  return false;
}

// One position of a layer. Layout: key = word << 8 | f; landed = M, one bit per cell
// of the picture (at most 64).
struct ChainEntry {
  static constexpr int kCountBits = 8;
  std::uint64_t key = 0;
  std::uint64_t landed = 0;
  [[nodiscard]] std::uint64_t word() const { return key >> kCountBits; }
  [[nodiscard]] unsigned moves() const { return unsigned(key & ((1u << kCountBits) - 1)); }
};
static_assert(sizeof(ChainEntry) == 16);

namespace detail {

struct ChainKey {
  std::uint64_t operator()(const ChainEntry& e) const { return e.key; }
};

// The cost, in chain moves, of an application by the piece on `mover` from `from`.
inline std::uint64_t chain_cost(const ChainEntry& from, std::uint8_t mover) {
  const bool goes_on = mover < 64 && (from.landed >> mover & 1) != 0;
  return from.moves() + (goes_on ? 0 : 1);
}

// Sorted entries [first, last) of equal top bits, one per word from `first` on: the
// least f and the OR of the masks that come with it. Returns how many.
inline std::size_t merge_chain_entries(ChainEntry* first, ChainEntry* last) {
  ChainEntry* out = first;
  for (ChainEntry* e = first; e != last;) {
    ChainEntry best = *e;
    const std::uint64_t word = e->word();
    for (++e; e != last && e->word() == word; ++e) {
      if (e->key == best.key) best.landed |= e->landed;
    }
    *out++ = best;
  }
  return std::size_t(out - first);
}

}  // namespace detail

// Bytes the search holds while expanding a layer of `layer` entries into about
// `next` ones, with `pass` successor entries a pass: the two layers, and a pass's
// successors three times over (made, bucketed, and the radix sort's copy).
inline std::uint64_t graded_chains_bytes(std::uint64_t layer, std::uint64_t next, std::uint64_t pass) {
  return sizeof(ChainEntry) * (layer + next + 3 * pass);
}

// The search behind graded_chain_layers (below), from the entries of `layer`, over
// any graded single applications: steps(w, bits, high, keep) calls keep(to, mover,
// landed) for w's applications whose word's top `bits` bits are `high` (all of them
// when bits is 0), and shape(depth, layer) may change each new layer, ascending by
// word and one entry a word, before it is handed on (drop words, add others with
// their counts); the search ends at an empty layer unless shape returns true (more
// layers to come).
template <GradedChainPacking Packing, class OnLayer, class Steps, class Shape>
std::uint64_t graded_chain_search(const Packing& k, std::vector<ChainEntry> layer, const std::string& name,
                                  const MemoryBudget& budget, Progress* progress, OnLayer&& on_layer, Steps&& steps_of,
                                  Shape&& shape, std::uint64_t pass_entries = std::uint64_t{1} << 24) {
  const int width = k.word_bits() + ChainEntry::kCountBits;
  const std::uint64_t steps = std::uint64_t(std::max(1, k.steps()));
  std::vector<ChainEntry> next;
  std::vector<std::vector<ChainEntry>> chunk_entries(detail::kLevelChunks);
  RawVector<ChainEntry> sorted, scratch;
  std::vector<std::uint64_t> bucket_start, bucket_count;
  std::uint64_t total = layer.size(), made_before = 0, expanded_before = 0, previous = 1;
  bool more = !layer.empty();
  for (std::size_t depth = 0; more; ++depth) {
    on_layer(depth, std::span<const ChainEntry>(layer));
    const std::uint64_t n = layer.size();
    // Successors a position: as many as on the layer before, give or take one.
    const std::uint64_t expected = expanded_before ? std::min(steps, made_before / expanded_before + 2) : steps;
    const std::uint64_t guess = n * std::max<std::uint64_t>(1, n / std::max<std::uint64_t>(1, previous));
    int pass_bits = 0;
    while (pass_bits < detail::kMaxPassBits && pass_bits < k.word_bits() &&
           ((n * expected >> pass_bits) > pass_entries ||
            graded_chains_bytes(n, guess, (n * expected) >> pass_bits) > budget.bytes())) {
      ++pass_bits;
    }
    budget.require_at_least(graded_chains_bytes(n, guess, (n * expected) >> pass_bits), name + ": graded chain layers");
    const std::uint64_t passes = std::uint64_t{1} << pass_bits;
    const std::size_t chunks = std::clamp<std::size_t>(n / 4096, 1, detail::kLevelChunks);
    const std::size_t chunk = (n + chunks - 1) / chunks;
    std::uint64_t made = 0;
    next.clear();
    for (std::uint64_t pass = 0; pass < passes; ++pass) {
      tbb::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
        std::vector<ChainEntry>& out = chunk_entries[c];
        out.clear();
        for (std::size_t i = c * chunk; i < std::min<std::size_t>(n, (c + 1) * chunk); ++i) {
          const ChainEntry& from = layer[i];
          const auto keep = [&](std::uint64_t to, std::uint8_t mover, std::uint64_t landed) {
            out.push_back({to << ChainEntry::kCountBits | detail::chain_cost(from, mover), landed});
          };
          steps_of(from.word(), passes == 1 ? 0 : pass_bits, pass, keep);
        }
      });
      std::vector<std::span<const ChainEntry>> parts;
      std::uint64_t words = 0;
      for (std::size_t c = 0; c < chunks; ++c) {
        parts.emplace_back(chunk_entries[c]);
        words += chunk_entries[c].size();
      }
      made += words;
      // About 2,048 entries a bucket, at most 2^kLevelBucketBits a pass.
      const int bucket_bits = std::min(
          {detail::kLevelBucketBits + pass_bits, std::max(1, int(std::bit_width(words / 2048))) + pass_bits, width});
      const int shift = width - bucket_bits;
      const std::size_t buckets = std::size_t(1) << (bucket_bits - std::min(pass_bits, bucket_bits));
      const std::size_t low = std::size_t(pass) * buckets;
      // The estimate above can fall short (a layer grows faster than the one before):
      // each large allocation is checked again with its exact size before it is made.
      std::uint64_t held = layer.capacity() + next.capacity();
      for (const auto& entries : chunk_entries) held += entries.capacity();
      if (sorted.size() < words) {
        RawVector<ChainEntry>().swap(sorted), RawVector<ChainEntry>().swap(scratch);
        budget.require_at_least(sizeof(ChainEntry) * (held + 2 * words), name + ": graded chain layers");
        sorted.resize(words), scratch.resize(words);
      }
      detail::bucket_scatter<ChainEntry>(parts, std::span<ChainEntry>(sorted.data(), words), shift, low, buckets,
                                         bucket_start, bucket_count, false, detail::ChainKey{});
      std::vector<std::size_t> kept(buckets);
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, buckets), [&](const auto& range) {
        for (std::size_t b = range.begin(); b != range.end(); ++b) {
          ChainEntry* const first = sorted.data() + bucket_start[b];
          const std::size_t size = bucket_start[b + 1] - bucket_start[b];
          detail::radix_sort_low(first, scratch.data() + bucket_start[b], size, shift, detail::ChainKey{});
          kept[b] = detail::merge_chain_entries(first, first + size);
        }
      });
      std::vector<std::size_t> at(buckets + 1, next.size());
      for (std::size_t b = 0; b < buckets; ++b) at[b + 1] = at[b] + kept[b];
      // Growing next may double its capacity, the old buffer held until the copy ends.
      if (at[buckets] > next.capacity()) {
        budget.require_at_least(sizeof(ChainEntry) * (held + 2 * at[buckets] + 2 * sorted.size()),
                                name + ": graded chain layers");
      }
      next.resize(at[buckets]);
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, buckets), [&](const auto& range) {
        for (std::size_t b = range.begin(); b != range.end(); ++b) {
          std::copy_n(sorted.data() + bucket_start[b], kept[b], next.data() + at[b]);
        }
      });
    }
    made_before = made;
    expanded_before = n;
    previous = n;
    layer.swap(next);
    more = shape(depth + 1, layer) || !layer.empty();
    total += layer.size();
    if (progress && !layer.empty()) progress->level(unsigned(depth + 1), layer.size(), total);
  }
  return total;
}

// The search from the word `start`: calls on_layer(depth, entries) with every layer
// of single applications, its entries ascending by word. Each layer's need is checked
// against `budget` before it is allocated; a layer whose successors pass
// `pass_entries` makes them in 2, 4, ... 64 passes, a range of top bits each.
// Returns the positions found.
template <GradedChainPacking Packing, class OnLayer>
std::uint64_t graded_chain_layers(const Packing& k, std::uint64_t start, const std::string& name,
                                  const MemoryBudget& budget, Progress* progress, OnLayer&& on_layer,
                                  std::uint64_t pass_entries = std::uint64_t{1} << 24) {
  const auto forward = [&k](std::uint64_t w, int bits, std::uint64_t high, auto&& keep) {
    if (bits == 0) {
      k.for_each_step(w, keep);
    } else {
      k.for_each_step_within(w, bits, high, keep);
    }
  };
  return graded_chain_search(
      k, {ChainEntry{start << ChainEntry::kCountBits, 0}}, name, budget, progress, on_layer, forward,
      [](std::size_t, std::vector<ChainEntry>&) { return false; }, pass_entries);
}

}  // namespace statespace
