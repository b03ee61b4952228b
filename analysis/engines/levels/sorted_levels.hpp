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
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "analysis/engines/levels/level_sort.hpp"
#include "analysis/engines/result.hpp"
#include "analysis/runtime/memory.hpp"
#include "analysis/runtime/progress.hpp"
#include "core/puzzle.hpp"

namespace statespace {

// What a sorted-levels search found, over words of type Word.
template <class Word>
struct SortedLevels {
  std::vector<std::uint64_t> layers;  // layers[d] = positions at distance d
  std::vector<Word> farthest;         // the deepest level's words, ascending
  std::vector<LayerEdges>
      layer_edges;               // as count_layer_edges (analysis/engines/explicit/analyze_explicit.hpp) gives them
  std::uint64_t successors = 0;  // directed edges, self-loops included
  // False when the search stopped at SortedLevelsMode's max_depth or budget before
  // finding an empty level: layers are exact, the last one's words are `farthest`,
  // and successors and layer_edges count the moves from the levels before it only.
  bool complete = true;
  // A directed search keeps every level (the words of levels[d] ascending): the
  // reachable set, which the distance to the goal is restricted to.
  std::vector<RawVector<Word>> levels;
  [[nodiscard]] std::uint64_t states() const {
    std::uint64_t n = 0;
    for (const auto l : layers) n += l;
    return n;
  }
};
using SortedLevelsResult = SortedLevels<std::uint64_t>;

// How the search treats the moves. Undirected: the successors of level d lie in
// levels d-1, d and d+1, and three levels are kept. Directed: a successor may lie in
// any earlier level, so every level is kept and each new one drops what any of them
// holds, unless the packing is graded (GradedPacking), where no move returns to a
// level.
// A pass keeps at most pass_words successor words; a level with more makes its
// successors again for each range of words (cheap beside sorting them), so that two
// arrays of successors never outgrow the levels kept.
struct SortedLevelsMode {
  bool directed = false;
  std::uint64_t pass_words = std::uint64_t{1} << 24;
  // Stop with the level at this distance, unexpanded; and (stop_over_budget) before a
  // level whose expansion would pass the budget, rather than refuse it.
  std::optional<unsigned> max_depth = std::nullopt;
  bool stop_over_budget = false;
};

// Whether the positions reachable from `start` pack into one word of either width.
template <Puzzle P>
bool packs_into_word(const P& p, const typename P::State& start) {
  if constexpr (WordPackedPuzzle<P>) {
    if (p.packing(start).has_value()) return true;
  }
  if constexpr (WidePackedPuzzle<P>) {
    if (p.wide_packing(start).has_value()) return true;
  }
  return false;
}

// Bytes the search holds while expanding a level of `level` positions with `moves`
// successors each, `kept` positions in the levels kept beside it, in words of
// `word` bytes, the successors made in `passes` passes: the levels, three arrays of
// one pass's successors (as made, bucketed, and the radix sort's copy) and the next
// level (grown as the last one did: `growth`), twice when it is made in passes (the
// passes' pieces and the level they are joined into).
inline std::uint64_t sorted_levels_bytes(std::uint64_t kept, std::uint64_t level, std::uint64_t moves,
                                         std::uint64_t word = 8, std::uint64_t passes = 1, double growth = 1) {
  const std::uint64_t successors = level * moves;
  const auto next = std::min<std::uint64_t>(successors, std::uint64_t(double(level) * std::max(1.0, growth)));
  return word * (kept + level + 3 * ((successors + passes - 1) / passes) + (passes > 1 ? 2 : 1) * next);
}

// Breadth first from the positions `starts` (words, ascending, distinct) over the
// packed words of `packing`; the model's name for the budget's messages. Checks each
// level's need against `budget` before it is allocated. Calls on_level(depth, words)
// with every level, its words ascending.
template <class Packing, class OnLevel>
SortedLevels<PackedWord<Packing>> sorted_levels_bfs(const Packing& packing, std::vector<PackedWord<Packing>> starts,
                                                    const std::string& name, const MemoryBudget& budget,
                                                    Progress* progress, OnLevel&& on_level,
                                                    SortedLevelsMode mode = {}) {
  using Word = PackedWord<Packing>;
  const std::size_t moves = std::size_t(packing.moves());
  // A packing that states its words' width (all below 2^word_bits(), at least 1)
  // also promises that every move changes the word: then no successor need be
  // looked at for its bits or for a self-loop, and a level's successors can be made
  // in passes, a range of words each.
  constexpr bool kBoundedWords = requires { packing.word_bits(); };
  // No move of a graded packing returns to an earlier level (nor stays in its own).
  const bool graded = is_graded(packing);
  const bool directed = mode.directed;
  const bool check_earlier = directed && !graded;
  SortedLevels<Word> r;
  // Undirected: the levels d-1, d and d+1 rotate through three vectors, kept with
  // their capacity (memory once mapped is not returned and mapped again at every
  // level). Directed: every level is kept in r.levels.
  RawVector<Word> older, current(starts.begin(), starts.end()), next;
  if (directed) r.levels.push_back(std::move(current));
  const auto level_now = [&]() -> std::span<const Word> {
    return directed ? std::span<const Word>(r.levels.back()) : std::span<const Word>(current);
  };
  const auto older_now = [&]() -> std::span<const Word> {
    if (!directed) return older;
    return r.levels.size() > 1 ? std::span<const Word>(r.levels[r.levels.size() - 2]) : std::span<const Word>();
  };
  std::vector<std::uint64_t> bucket_start, bucket_count;
  std::vector<detail::MergeCounts> counts;
  std::vector<RawVector<Word>> chunk_words(detail::kLevelChunks);
  RawVector<Word> sorted, scratch;
  std::vector<RawVector<Word>> pieces;        // a level's words, pass by pass
  std::vector<std::uint64_t> within, onward;  // per depth: directed edges inside, edges to the next
  std::uint64_t total = starts.size(), kept = 0;
  starts.clear();
  starts.shrink_to_fit();
  // What every array holds now, in bytes: the estimate above can fall short (a level
  // grows faster than the one before, a pass gets more than its share), so each
  // large allocation is checked again with its exact size before it is made.
  const auto held = [&] {
    std::uint64_t words = older.capacity() + current.capacity() + next.capacity() + sorted.size() + scratch.size();
    for (const auto& w : chunk_words) words += w.size();
    for (const auto& piece : pieces) words += piece.capacity();
    for (const auto& l : r.levels) words += l.capacity();
    return words * sizeof(Word);
  };
  const auto require_more = [&](std::uint64_t words) {
    budget.require_at_least(held() + words * sizeof(Word), name + ": sorted levels");
  };
  for (;;) {
    const std::span<const Word> level = level_now();
    if (level.empty()) break;
    const std::span<const Word> before = older_now();
    on_level(r.layers.size(), level);
    r.layers.push_back(level.size());
    const std::size_t n = level.size();
    // The successors a position were as many on the last level, give or take one;
    // the bound of the model (often a few times more) serves the first levels.
    const std::uint64_t expected =
        r.layers.size() > 1 ? std::min<std::uint64_t>(moves, r.successors / (total - n) + 2) : moves;
    const double growth = r.layers.size() > 1 ? double(n) / double(r.layers[r.layers.size() - 2]) : 1.0;
    kept = directed ? total - n : before.size();
    // Passes: as few as keep one pass's successors within kPassWords and the whole
    // within the budget, when the words' width is known ahead (the pass of a word is
    // its top bits).
    int pass_bits = 0;
    if constexpr (kBoundedWords) {
      while (pass_bits < detail::kMaxPassBits && pass_bits < packing.word_bits() &&
             ((n * expected >> pass_bits) > mode.pass_words ||
              sorted_levels_bytes(kept, n, expected, sizeof(Word), std::uint64_t{1} << pass_bits, growth) >
                  budget.bytes())) {
        ++pass_bits;
      }
    }
    const std::uint64_t passes = std::uint64_t{1} << pass_bits;
    const auto stop_here = [&] {
      r.complete = false;
      r.farthest.assign(level.begin(), level.end());
    };
    if (mode.max_depth && r.layers.size() > *mode.max_depth) {
      stop_here();
      break;
    }
    if (mode.stop_over_budget &&
        sorted_levels_bytes(kept, n, expected, sizeof(Word), passes, growth) > budget.bytes()) {
      stop_here();
      break;
    }
    budget.require_at_least(sorted_levels_bytes(kept, n, expected, sizeof(Word), passes, growth),
                            name + ": sorted levels");
    // Fixed chunks of positions, fewer for small levels (each four cost a row of bucket
    // counters), so neither the layout nor the result depends on the threads. Each
    // chunk writes its successors to its own array; the OR of every word gives the
    // bits in use (the buckets' shift), and self-loops are counted apart (they are
    // inside the level, but no edge to another position).
    const std::size_t chunks = std::clamp<std::size_t>(n / 4096, 1, detail::kLevelChunks);
    const std::size_t chunk = (n + chunks - 1) / chunks;
    const std::size_t groups = (chunks + detail::kScatterGroup - 1) / detail::kScatterGroup;
    // About 2,048 words a bucket, at most 2^kLevelBucketBits buckets a pass. At least
    // one bucket bit whenever a bit is in use: a shift by the word's whole width would
    // be undefined.
    int shift = 0;
    std::size_t buckets = 1;  // a pass's
    const auto choose_buckets = [&](std::uint64_t words, int width) {
      const int bucket_bits = std::min(
          {detail::kLevelBucketBits + pass_bits, std::max(1, int(std::bit_width(words / 2048))) + pass_bits, width});
      shift = width - bucket_bits;
      buckets = std::size_t(1) << (bucket_bits - std::min(pass_bits, bucket_bits));
    };
    if constexpr (kBoundedWords) choose_buckets(n * expected, packing.word_bits());
    std::uint64_t inside = 0, outward = 0, self = 0, generated = 0;
    next.clear();
    for (std::uint64_t pass = 0; pass < passes; ++pass) {
      // The pass's words are those whose bucket number is in [low, low + buckets).
      const std::size_t low = std::size_t(pass) * buckets;
      if constexpr (kBoundedWords) bucket_count.assign(groups * buckets, 0);
      std::vector<Word> used(chunks, 0);
      std::vector<std::uint64_t> loops(chunks, 0), made(chunks, 0);
      tbb::parallel_for(std::size_t(0), groups, [&](std::size_t g) {
        for (std::size_t c = g * detail::kScatterGroup; c < std::min(chunks, (g + 1) * detail::kScatterGroup); ++c) {
          Word bits = 0;
          std::uint64_t loop = 0;
          // A chunk's array only grows (its size is not the words made: growing again
          // would fill it with zeros).
          RawVector<Word>& words = chunk_words[c];
          const std::size_t from = c * chunk, to = std::min(n, (c + 1) * chunk);
          const std::size_t guess = to > from ? (to - from) * (passes > 1 ? expected : moves) / passes + moves : 0;
          // Grown without copying: a vector's own growth would copy (and so map)
          // all of its old size, written or not.
          const auto grow = [&](std::size_t size, std::size_t keep) {
            RawVector<Word> bigger;
            bigger.resize(size);
            std::copy_n(words.data(), keep, bigger.data());
            words.swap(bigger);
          };
          if (words.size() < guess) grow(guess, 0);
          std::size_t at = 0;
          auto successors_of = [&] {  // a packing's own way through ascending words, if it has one
            if constexpr (requires { typename Packing::Successors; }) {
              return typename Packing::Successors(packing);
            } else {
              return [&](Word w, Word* out) { return packing.successors(w, out); };
            }
          }();
          for (std::size_t i = from; i < to; ++i) {
            if (words.size() < at + moves) grow(2 * words.size() + moves, at);
            Word* const out = words.data() + at;
            int k = 0;
            if constexpr (RangedPacking<Packing>) {
              k = passes == 1 ? successors_of(level[i], out)
                              : packing.successors_within(level[i], out, pass_bits, std::uint64_t(pass));
            } else {
              k = successors_of(level[i], out);
            }
            if constexpr (kBoundedWords) {
              if (passes == 1 || RangedPacking<Packing>) {
                at += std::size_t(k);
              } else {
                // The pass's words close up to the front (at never passes out + m).
                for (int m = 0; m < k; ++m) {
                  if (std::size_t(out[m] >> shift) - low < buckets) words[at++] = out[m];
                }
              }
            } else {
              for (int m = 0; m < k; ++m) {
                bits |= out[m];
                loop += out[m] == level[i];
              }
              at += std::size_t(k);
            }
          }
          if constexpr (kBoundedWords) {
            detail::count_buckets(std::span<const Word>(words.data(), at), shift, low, &bucket_count[g * buckets]);
          }
          used[c] = bits;
          loops[c] = loop;
          made[c] = at;
        }
      });
      Word bits = 0;
      std::uint64_t words_made = 0;
      std::vector<std::span<const Word>> parts;
      for (std::size_t c = 0; c < chunks; ++c) {
        bits |= used[c], self += loops[c], words_made += made[c];
        parts.emplace_back(chunk_words[c].data(), made[c]);
      }
      generated += words_made;
      if constexpr (!kBoundedWords) choose_buckets(words_made, detail::word_width(bits));
      if (sorted.size() < words_made) {  // nothing to keep: new arrays rather than copies
        RawVector<Word>().swap(sorted), RawVector<Word>().swap(scratch);
        require_more(2 * words_made);
        sorted.resize(words_made), scratch.resize(words_made);
      }
      detail::bucket_scatter<Word>(parts, std::span<Word>(sorted.data(), words_made), shift, low, buckets, bucket_start,
                                   bucket_count, kBoundedWords);
      // In passes, a chunk's successors can fall mostly in one pass (Lights Out: a
      // move leaves most of a word's top bits as they were), so an array kept at
      // its largest would hold, summed over the chunks, the whole level's.
      if (passes > 1) {
        for (auto& words : chunk_words) RawVector<Word>().swap(words);
      }
      // Each bucket is merged while its sort has left it in cache.
      counts.assign(buckets, {});
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, buckets), [&](const auto& range) {
        for (std::size_t b = range.begin(); b != range.end(); ++b) {
          Word* const first = sorted.data() + bucket_start[b];
          Word* last = first + (bucket_start[b + 1] - bucket_start[b]);
          detail::radix_sort_low(first, scratch.data() + bucket_start[b], std::size_t(last - first), shift);
          if (check_earlier) {
            // Levels 0 .. d-2 (d-1 and d are the merge's): a move back to any of them
            // is no new position.
            for (std::size_t e = 0; e + 2 < r.levels.size(); ++e) {
              last = detail::drop_found<Word>(first, last, r.levels[e]);
            }
          }
          if (graded && directed) {
            counts[b] = detail::subtract_levels<Word>(first, last, {}, {});
          } else {
            counts[b] = detail::subtract_levels<Word>(first, last, before, level);
          }
        }
      });
      std::vector<std::uint64_t> next_start(buckets + 1, 0);
      for (std::size_t b = 0; b < buckets; ++b) {
        next_start[b + 1] = next_start[b] + counts[b].kept;
        inside += counts[b].within;
        outward += counts[b].onward;
      }
      // Each pass's words to an array of their own size (one pass: the next level
      // itself), so that no array grows by copying and none keeps spare room.
      RawVector<Word>& piece = passes == 1 ? next : pieces.emplace_back();
      if (next_start[buckets] > piece.capacity()) require_more(next_start[buckets]);
      piece.resize(next_start[buckets]);
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, buckets), [&](const auto& range) {
        for (std::size_t b = range.begin(); b != range.end(); ++b) {
          std::copy_n(sorted.data() + bucket_start[b], counts[b].kept, piece.data() + next_start[b]);
        }
      });
    }
    if (passes > 1) {
      // The pass's arrays go first: the pieces and the level they join are the peak.
      RawVector<Word>().swap(sorted), RawVector<Word>().swap(scratch);
      std::size_t size = 0;
      for (const auto& piece : pieces) size += piece.size();
      if (size > next.capacity()) require_more(size);
      next.resize(size);
      std::size_t at = 0;
      for (auto& piece : pieces) {
        std::copy(piece.begin(), piece.end(), next.begin() + std::ptrdiff_t(at));
        at += piece.size();
        RawVector<Word>().swap(piece);
      }
      pieces.clear();
    }
    within.push_back(inside - self);
    onward.push_back(outward);
    r.successors += generated;
    total += next.size();
    if (next.empty()) r.farthest.assign(level.begin(), level.end());
    if (directed) {
      // Kept for good: no spare capacity.
      if (next.capacity() > next.size()) next.shrink_to_fit();
      r.levels.push_back(std::move(next));
      next = {};
    } else {
      older.swap(current);
      current.swap(next);
    }
    // The new level: `next` itself, or (directed) moved into r.levels.
    if (progress && !level_now().empty()) progress->level(unsigned(r.layers.size()), level_now().size(), total);
  }
  if (directed && r.complete) r.levels.pop_back();  // the empty level that ended the search
  // The edges between depths in count_layer_edges' order: within depth d, then d to
  // d+1. A directed search counts each move once in its direction, and leaves out
  // the moves back to earlier levels (they are in the successors' count).
  for (std::size_t d = 0; d < within.size(); ++d) {
    const std::uint64_t same = directed ? within[d] : within[d] / 2;
    if (same) r.layer_edges.push_back({unsigned(d), unsigned(d), same});
    if (onward[d]) r.layer_edges.push_back({unsigned(d), unsigned(d + 1), onward[d]});
  }
  return r;
}

template <class Packing, class State>
SortedLevels<PackedWord<Packing>> sorted_levels_bfs(const Packing& packing, const State& start, const std::string& name,
                                                    const MemoryBudget& budget, Progress* progress = nullptr,
                                                    SortedLevelsMode mode = {}) {
  return sorted_levels_bfs(
      packing, std::vector<PackedWord<Packing>>{packing.pack(start)}, name, budget, progress,
      [](std::size_t, std::span<const PackedWord<Packing>>) {}, mode);
}

}  // namespace statespace
