// Breadth-first search by sorted levels, for models whose positions pack into one
// word (WordPackedPuzzle: 64 bits; WidePackedPuzzle: 128, or LimbWord<N> limbs)
// and have no perfect hash. No visited set: the graph
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
#include <atomic>
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
  RawVector<Word> farthest;           // the deepest level's words, ascending
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
// successors again for each range of words (a RangedPacking only the range's), so
// that the arrays of successors never outgrow the levels kept. 0: as many words as
// half the next level (the pass's arrays then hold about as much as the level they
// make), and at least kAutoPassWords.
inline constexpr std::uint64_t kAutoPassWords = std::uint64_t{1} << 24;
struct SortedLevelsMode {
  bool directed = false;
  std::uint64_t pass_words = 0;
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

// Words a level's expansion holds at its peak: `levels` for the levels kept (with
// the idle room of the array the next level goes to), the successors of the largest
// pass (`share` words) in the chunks' arrays, bucketed, and (`sort_copies` 2) in the
// radix sort's copy, and the next level (`next` words), into which the passes write
// one after the other. The chunks' arrays count twice a pass's share: an array that
// overflows doubles. `kept`: the room of the buffers kept from earlier passes and
// levels (chunks, sort), each counted at the larger of its room and its need.
struct LevelWords {
  std::uint64_t levels = 0, share = 0, next = 0, sort_copies = 2;
  std::uint64_t chunks_kept = 0, sort_kept = 0;
  [[nodiscard]] std::uint64_t total(bool kept) const {
    const auto at_least = [&](std::uint64_t room, std::uint64_t need) { return kept ? std::max(room, need) : need; };
    return levels + at_least(chunks_kept, 2 * share) + at_least(sort_kept, sort_copies * share) + next;
  }
};

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
  constexpr bool kScratch = detail::kSortNeedsScratch<Word>;
  const std::size_t moves = std::size_t(packing.moves());
  // A packing that states its words' width (all below 2^word_bits(), at least 1)
  // also promises that every move changes the word, unless it says otherwise by
  // may_stay(): then no successor need be looked at for its bits or (mostly) for a
  // self-loop, and a level's successors can be made in passes, a range of words each.
  constexpr bool kBoundedWords = requires { packing.word_bits(); };
  [[maybe_unused]] const bool count_loops = [&] {
    if constexpr (!kBoundedWords) {
      return true;
    } else if constexpr (requires { packing.may_stay(); }) {
      return bool(packing.may_stay());
    } else {
      return false;
    }
  }();
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
  std::vector<std::uint64_t> within, onward;  // per depth: directed edges inside, edges to the next
  std::uint64_t total = starts.size();
  starts.clear();
  starts.shrink_to_fit();
  // The buffers below keep their room from pass to pass and level to level: memory
  // faulted in once is not handed back and faulted in again (main pins glibc's mmap
  // threshold, so a freed array of 256 KiB or more leaves the process). They count
  // against the budget as they are held, and the spare ones go first when a level
  // or an allocation would not fit beside them. What every array holds now, in
  // bytes: the plan can fall short (a level grows faster than the one before, a
  // pass gets more than its share), so each large allocation is checked again with
  // its exact size before it is made. Not advised as huge pages: the access is
  // sequential (few TLB misses to save), and their first touch measured slower.
  const auto chunks_room = [&] {
    std::uint64_t words = 0;
    for (const auto& w : chunk_words) words += w.capacity();
    return words;
  };
  const auto levels_room = [&] {
    std::uint64_t words = older.capacity() + current.capacity() + next.capacity();
    for (const auto& l : r.levels) words += l.capacity();
    return words;
  };
  const auto held = [&] {
    return (levels_room() + chunks_room() + sorted.capacity() + scratch.capacity()) * sizeof(Word);
  };
  const auto free_chunks = [&] {
    for (auto& w : chunk_words) RawVector<Word>().swap(w);
  };
  const auto free_sort = [&] { RawVector<Word>().swap(sorted), RawVector<Word>().swap(scratch); };
  // Whether `words` more fit: the spare buffers `spare` frees (those this point does
  // not read) go first when they are in the way.
  const auto room_for = [&](std::uint64_t words, const auto& spare) {
    if (held() + words * sizeof(Word) > budget.bytes()) spare();
    return held() + words * sizeof(Word) <= budget.bytes();
  };
  const auto refuse = [&](std::uint64_t bytes) { budget.require_at_least(bytes, name + ": sorted levels"); };
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
    // Passes: as few as keep the largest pass's successors within the pass words and
    // the level's plan within the budget, when the words' width is known ahead (the
    // pass of a word is its top bits).
    const std::uint64_t successors = n * expected;
    const std::uint64_t next_words =
        std::min<std::uint64_t>(successors, std::uint64_t(double(n) * std::max(1.0, growth)));
    const std::uint64_t pass_words = mode.pass_words ? mode.pass_words : std::max(kAutoPassWords, next_words / 2);
    // The largest part of the level whose words share their top `bits` bits, at least
    // an even part: a level's successors lie near it, so this is the largest pass's
    // part of them (the 3x3x3's first edge takes 24 of its field's 32 values, so the
    // top two bits make three passes of a third and an empty one).
    const auto largest_part = [&](int bits) {
      if (bits == 0) return 1.0;
      double most = 1.0 / double(std::uint64_t{1} << bits);
      if constexpr (kBoundedWords) {
        const int shift = int(packing.word_bits()) - bits;
        for (auto from = level.begin(); from != level.end();) {
          const std::uint64_t top = shifted_bits(*from, shift);
          const auto to =
              std::partition_point(from, level.end(), [&](const Word& w) { return shifted_bits(w, shift) <= top; });
          most = std::max(most, double(to - from) / double(n));
          from = to;
        }
      }
      return most;
    };
    const auto share_of = [&](int bits) {
      return std::min(successors, std::uint64_t(double(successors) * largest_part(bits)) + moves);
    };
    const auto plan = [&](int bits) {
      LevelWords w;
      w.levels = levels_room() - next.capacity();
      w.share = share_of(bits);
      w.next = std::max<std::uint64_t>(next.capacity(), next_words);
      w.sort_copies = kScratch ? 2 : 1;
      w.chunks_kept = chunks_room();
      w.sort_kept = sorted.capacity() + scratch.capacity();
      return w;
    };
    int pass_bits = 0;
    const int most_pass_bits = [&] {
      if constexpr (kBoundedWords) {
        return std::min(detail::kMaxPassBits, int(packing.word_bits()));
      } else {
        return 0;
      }
    }();
    // The pass words split the successors evenly: a level whose words crowd into a
    // few top-bit values (peg solitaire's, whose top holes most positions share)
    // would otherwise take every pass bit there is, each pass making the level's
    // successors again. The plan's memory counts the largest pass as it is.
    while (pass_bits < most_pass_bits &&
           ((successors >> pass_bits) > pass_words || plan(pass_bits).total(false) * sizeof(Word) > budget.bytes())) {
      ++pass_bits;
    }
    const auto stop_here = [&] {
      r.complete = false;
      // The level's words are the result: the buffers go first, and an undirected
      // search's level moves rather than being copied.
      free_chunks(), free_sort();
      if (directed) {
        r.farthest.assign(level.begin(), level.end());
      } else {
        RawVector<Word>().swap(older), RawVector<Word>().swap(next);
        r.farthest.swap(current);
      }
    };
    if (mode.max_depth && r.layers.size() > *mode.max_depth) {
      stop_here();
      break;
    }
    if (mode.stop_over_budget && plan(pass_bits).total(false) * sizeof(Word) > budget.bytes()) {
      stop_here();
      break;
    }
    refuse(plan(pass_bits).total(false) * sizeof(Word));
    // The buffers kept from earlier levels stay when the plan fits beside them; else
    // they go.
    bool keep = plan(pass_bits).total(true) * sizeof(Word) <= budget.bytes();
    if (!keep) free_chunks(), free_sort();
    // Fixed chunks of positions, fewer for small levels (each four cost a row of bucket
    // counters), so neither the layout nor the result depends on the threads. A chunk
    // takes every chunks-th block of kBlock positions across the level, so that each
    // holds about its part of every pass (a run of neighbouring words would put most
    // of its successors in one pass). Each chunk writes its successors to its own
    // array; the OR of every word gives the bits in use (the buckets' shift), and
    // self-loops are counted apart (they are inside the level, but no edge to another
    // position).
    constexpr std::size_t kBlock = 1024;
    const std::size_t chunks = std::clamp<std::size_t>(n / 4096, 1, detail::kLevelChunks);
    const std::size_t blocks = (n + kBlock - 1) / kBlock;
    const auto chunk_positions = [&](std::size_t c) {
      std::size_t count = 0;
      for (std::size_t b = c; b < blocks; b += chunks) count += std::min(n, (b + 1) * kBlock) - b * kBlock;
      return count;
    };
    const std::size_t groups = (chunks + detail::kScatterGroup - 1) / detail::kScatterGroup;
    std::uint64_t inside = 0, outward = 0, self = 0, generated = 0;
    // A plan that falls short (found by an exact check below) makes the level again
    // in twice the passes, until the passes are as many as the words allow.
    for (;; ++pass_bits) {
      const std::uint64_t passes = std::uint64_t{1} << pass_bits;
      const bool retry = pass_bits < most_pass_bits;
      const double part = largest_part(pass_bits);
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
      if constexpr (kBoundedWords) choose_buckets(successors, packing.word_bits());
      inside = outward = self = generated = 0;
      next.clear();
      bool short_of_room = false;
      for (std::uint64_t pass = 0; pass < passes && !short_of_room; ++pass) {
        // The pass's words are those whose bucket number is in [low, low + buckets).
        const std::size_t low = std::size_t(pass) * buckets;
        if constexpr (kBoundedWords) bucket_count.assign(groups * buckets, 0);
        std::vector<Word> used(chunks, Word{});
        std::vector<std::uint64_t> loops(chunks, 0), made(chunks, 0);
        // The chunks' arrays grow in parallel: their room is counted as it grows, and a
        // growth that would pass the budget is not made (the pass stops, and is made
        // again without the spare buffers, or the level in more passes).
        const std::uint64_t others = held() - chunks_room() * sizeof(Word);
        std::atomic<std::uint64_t> chunk_bytes{chunks_room() * sizeof(Word)};
        std::atomic<bool> over{false};
        std::atomic<std::uint64_t> wanted{0};  // the bytes a refused growth would have held
        tbb::parallel_for(std::size_t(0), groups, [&](std::size_t g) {
          for (std::size_t c = g * detail::kScatterGroup; c < std::min(chunks, (g + 1) * detail::kScatterGroup); ++c) {
            Word bits{};
            std::uint64_t loop = 0;
            // A chunk's array only grows (its size is not the words made: growing again
            // would fill it with zeros).
            RawVector<Word>& words = chunk_words[c];
            // Made at once as large as the chunk's part of the largest pass (kept from
            // pass to pass): growing it by doubling would fault in every size it
            // passes through.
            const std::size_t positions = chunk_positions(c);
            const std::size_t guess =
                passes == 1 ? positions * moves : std::size_t(double(positions * expected) * part * 1.125) + moves;
            // Grown without copying: a vector's own growth would copy (and so map)
            // all of its old size, written or not. The old array and the new one are
            // both held while the words move.
            const auto grow = [&](std::size_t size, std::size_t keep_words) {
              const std::uint64_t bytes = std::uint64_t(size) * sizeof(Word);
              if (const std::uint64_t total_bytes = others + chunk_bytes.fetch_add(bytes) + bytes;
                  total_bytes > budget.bytes()) {
                chunk_bytes.fetch_sub(bytes);
                wanted = total_bytes;
                over = true;
                return false;
              }
              RawVector<Word> bigger;
              bigger.reserve(size);
              bigger.resize(size);
              std::copy_n(words.data(), keep_words, bigger.data());
              words.swap(bigger);
              chunk_bytes.fetch_sub(std::uint64_t(bigger.capacity()) * sizeof(Word));
              return true;
            };
            if (over || (positions > 0 && words.size() < guess && !grow(guess, 0))) return;
            std::size_t at = 0;
            auto successors_of = [&] {  // a packing's own way through ascending words, if it has one
              if constexpr (requires { typename Packing::Successors; }) {
                return typename Packing::Successors(packing);
              } else {
                return [&](Word w, Word* out) { return packing.successors(w, out); };
              }
            }();
            for (std::size_t b = c; b < blocks; b += chunks) {
              for (std::size_t i = b * kBlock; i < std::min(n, (b + 1) * kBlock); ++i) {
                if (words.size() < at + moves && (over || !grow(2 * words.size() + moves, at))) return;
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
                    // A ranged pass makes only its own words: a self-loop counts in one.
                    if (count_loops) {
                      for (int m = 0; m < k; ++m) loop += out[m] == level[i];
                    }
                    at += std::size_t(k);
                  } else {
                    // The pass's words close up to the front (at never passes out + m).
                    for (int m = 0; m < k; ++m) {
                      if (std::size_t(shifted_bits(out[m], shift)) - low < buckets) {
                        loop += count_loops && out[m] == level[i];
                        words[at++] = out[m];
                      }
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
            }
            if constexpr (kBoundedWords) {
              detail::count_buckets(std::span<const Word>(words.data(), at), shift, low, &bucket_count[g * buckets]);
            }
            used[c] = bits;
            loops[c] = loop;
            made[c] = at;
          }
        });
        if (over) {
          if (keep) {  // the same pass again, without the buffers kept for reuse
            keep = false;
            free_chunks(), free_sort();
            --pass;
            continue;
          }
          if (retry) {
            short_of_room = true;
            break;
          }
          refuse(wanted.load());
        }
        Word bits{};
        std::uint64_t words_made = 0;
        std::vector<std::span<const Word>> parts;
        for (std::size_t c = 0; c < chunks; ++c) {
          if constexpr (!kBoundedWords) bits |= used[c];
          self += loops[c], words_made += made[c];
          parts.emplace_back(chunk_words[c].data(), made[c]);
        }
        generated += words_made;
        if constexpr (!kBoundedWords) choose_buckets(words_made, detail::word_width(bits));
        if (sorted.size() < words_made) {  // nothing to keep: new arrays rather than copies
          free_sort();
          // Room for the largest pass planned, so that a later pass need not fault in
          // new arrays; the words at hand when that does not fit.
          const std::uint64_t copies = kScratch ? 2 : 1;
          std::uint64_t words = std::max<std::uint64_t>(words_made, passes == 1 ? 0 : share_of(pass_bits));
          if (!room_for(copies * words, [] {})) words = words_made;
          const bool fits = room_for(copies * words, [&] { keep = false; });
          if (!fits && retry) {
            short_of_room = true;
            break;
          }
          if (!fits) refuse(held() + copies * words * sizeof(Word));
          sorted.reserve(words), sorted.resize(words);
          if constexpr (kScratch) scratch.reserve(words), scratch.resize(words);
        }
        detail::bucket_scatter<Word>(parts, std::span<Word>(sorted.data(), words_made), shift, low, buckets,
                                     bucket_start, bucket_count, kBoundedWords);
        // Each bucket is merged while its sort has left it in cache.
        counts.assign(buckets, {});
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, buckets), [&](const auto& range) {
          for (std::size_t b = range.begin(); b != range.end(); ++b) {
            Word* const first = sorted.data() + bucket_start[b];
            Word* last = first + (bucket_start[b + 1] - bucket_start[b]);
            detail::radix_sort_low(first, kScratch ? scratch.data() + bucket_start[b] : nullptr,
                                   std::size_t(last - first), shift);
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
        // The passes' ranges ascend: each pass's words follow the last pass's in the
        // next level. Its array is made when the first pass is done, as large as the
        // level is planned (one pass: as its words), and made larger, the words so far
        // copied, when a pass passes it.
        const std::uint64_t at_next = next.size();
        const std::uint64_t need = at_next + next_start[buckets];
        if (need > next.capacity()) {
          // A plan that fell short: the passes to come as large as this one.
          const std::uint64_t rest = (passes - pass - 1) * (next_start[buckets] + next_start[buckets] / 8);
          const std::uint64_t planned = passes == 1 ? need : std::max(need + rest, next_words + next_words / 8);
          RawVector<Word> bigger;
          const auto spare = [&] {
            keep = false;
            free_chunks();
          };
          std::uint64_t words = std::max(need, std::min(planned, successors));
          if (at_next == 0) RawVector<Word>().swap(next);  // nothing in it to copy
          if (!room_for(words, spare)) words = need;
          const bool fits = room_for(words, spare);
          if (!fits && retry) {
            short_of_room = true;
            break;
          }
          if (!fits) refuse(held() + words * sizeof(Word));
          bigger.reserve(words);
          bigger.resize(need);
          std::copy_n(next.data(), at_next, bigger.data());
          next.swap(bigger);
        }
        next.resize(need);
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, buckets), [&](const auto& range) {
          for (std::size_t b = range.begin(); b != range.end(); ++b) {
            std::copy_n(sorted.data() + bucket_start[b], counts[b].kept, next.data() + at_next + next_start[b]);
          }
        });
      }
      if (!short_of_room) break;
      // Short of room: the level again in more passes, from empty buffers.
      keep = false;
      free_chunks(), free_sort();
      next.clear();
    }
    within.push_back(inside - self);
    onward.push_back(outward);
    r.successors += generated;
    total += next.size();
    if (directed) {
      if (next.empty()) r.farthest.assign(level.begin(), level.end());
      // Kept for good: no spare capacity.
      if (next.capacity() > next.size()) next.shrink_to_fit();
      r.levels.push_back(std::move(next));
      next = {};
    } else {
      if (next.empty()) {  // the search is over: the level is the result
        free_chunks(), free_sort();
        r.farthest.swap(current);
        break;
      }
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
