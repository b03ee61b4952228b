// Levels of records: the sorted-levels engine's search (sorted_levels.hpp) for
// positions whose width is known only when the puzzle is read, a record of limbs()
// 64-bit limbs (HugePieces: the 6x6x6 cube's 10, the 20x20x20's 111). Such spaces are
// never finished; what is asked of them is their first levels (--max-depth,
// --partial), so the engine is small and kept to one file, compiled once for the
// models that need it, rather than the word engine instantiated at every width.
//
// The graph is undirected, so the successors of level d lie in levels d-1, d and d+1
// (a directed one keeps every level). A level is a set of records in 256 shards by
// hash, each shard a flat array of records and a hash set of their indices (4 bytes a
// slot, at most half full): the memory of a level is its records and little more. The
// successors of a slice of level d (at most kSliceBytes of them) are made in
// parallel, grouped by shard, and each shard, on one thread, looks its successors up
// in levels d and d-1 and adds the others to level d+1, counting the moves within
// the level and onward. The slices are fixed by the level's size and the record
// width, and each shard takes its successors in the level's order, so every level's
// records (and so every count) are the same for any --threads; the last level is
// sorted (the order of the records is the order of positions) before it is written.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/engines/options.hpp"
#include "analysis/engines/result.hpp"
#include "analysis/runtime/memory.hpp"
#include "analysis/runtime/progress.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"

namespace statespace {

// A model whose positions are records of limbs() 64-bit limbs, compared limb by limb
// from the first: the order of its positions.
template <class P>
concept RecordPuzzle = requires(const P& p, const std::uint64_t* from, std::uint64_t* out, std::string_view text) {
  { p.name() } -> std::convertible_to<std::string>;
  { p.limbs() } -> std::convertible_to<int>;
  { p.max_moves() } -> std::convertible_to<int>;
  { p.directed() } -> std::convertible_to<bool>;
  { p.may_stay() } -> std::convertible_to<bool>;
  { p.goal() } -> std::convertible_to<std::vector<std::uint64_t>>;
  { p.parse(text) } -> std::convertible_to<std::vector<std::uint64_t>>;
  { p.format(from) } -> std::convertible_to<std::string>;
  { p.successors(from, out) } -> std::convertible_to<int>;
};

namespace record_levels_detail {

// A level's records go to 2^kShardBits shards by their hash, each searched and
// filled by one thread at a time.
inline constexpr int kShardBits = 8;
inline constexpr std::size_t kShards = std::size_t{1} << kShardBits;
// The successors a slice of a level holds at most, in bytes (fewer under a small
// budget): the memory beyond the levels.
inline constexpr std::uint64_t kSliceBytes = std::uint64_t{32} << 20;

inline std::uint64_t record_hash(const std::uint64_t* r, std::size_t limbs) {
  std::uint64_t h = 0x9E3779B97F4A7C15ULL;
  for (std::size_t i = 0; i < limbs; ++i) {
    h = (h ^ r[i]) * 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 29;
  }
  return h;
}
inline bool less(const std::uint64_t* a, const std::uint64_t* b, std::size_t limbs) {
  for (std::size_t i = 0; i < limbs; ++i) {
    if (a[i] != b[i]) return a[i] < b[i];
  }
  return false;
}
inline bool equal(const std::uint64_t* a, const std::uint64_t* b, std::size_t limbs) {
  return std::memcmp(a, b, limbs * 8) == 0;
}

// One shard of a level: its records in the order they were found, and a hash set of
// their indices (open addressing, 0 empty, else index + 1), at most half full (fuller,
// linear probing costs more time than the slots save memory: 3/4 took 35% more CPU
// on the 6x6x6 for 7% less memory).
struct Shard {
  RawVector<std::uint64_t> data;
  std::vector<std::uint32_t> slots;
  [[nodiscard]] std::size_t size(std::size_t limbs) const { return data.size() / limbs; }
  [[nodiscard]] bool contains(const std::uint64_t* r, std::uint64_t h, std::size_t limbs) const {
    if (slots.empty()) return false;
    const std::size_t mask = slots.size() - 1;
    for (std::size_t at = std::size_t(h) & mask;; at = (at + 1) & mask) {
      const std::uint32_t s = slots[at];
      if (s == 0) return false;
      if (equal(data.data() + std::size_t(s - 1) * limbs, r, limbs)) return true;
    }
  }
  // Adds r when it is new; whether it was.
  bool insert(const std::uint64_t* r, std::uint64_t h, std::size_t limbs) {
    if (2 * (size(limbs) + 1) > slots.size()) grow(limbs);
    const std::size_t mask = slots.size() - 1;
    std::size_t at = std::size_t(h) & mask;
    for (; slots[at] != 0; at = (at + 1) & mask) {
      if (equal(data.data() + std::size_t(slots[at] - 1) * limbs, r, limbs)) return false;
    }
    slots[at] = std::uint32_t(size(limbs) + 1);
    data.insert(data.end(), r, r + limbs);
    return true;
  }
  void grow(std::size_t limbs) {
    slots.assign(std::max<std::size_t>(64, 2 * slots.size()), 0);
    const std::size_t mask = slots.size() - 1;
    for (std::size_t i = 0; i < size(limbs); ++i) {
      const std::uint64_t* r = data.data() + i * limbs;
      std::size_t at = std::size_t(record_hash(r, limbs)) & mask;
      while (slots[at] != 0) at = (at + 1) & mask;
      slots[at] = std::uint32_t(i + 1);
    }
  }
  [[nodiscard]] std::uint64_t bytes() const { return std::uint64_t(data.size()) * 8 + slots.size() * 4; }
};

// A level: its records spread over the shards by hash.
struct Level {
  std::size_t limbs = 1;
  std::vector<Shard> shards = std::vector<Shard>(kShards);
  [[nodiscard]] std::uint64_t size() const {
    std::uint64_t n = 0;
    for (const auto& s : shards) n += s.size(limbs);
    return n;
  }
  [[nodiscard]] std::uint64_t bytes() const {
    std::uint64_t n = 0;
    for (const auto& s : shards) n += s.bytes();
    return n;
  }
  [[nodiscard]] bool contains(const std::uint64_t* r, std::uint64_t h) const {
    return shards[std::size_t(h >> (64 - kShardBits))].contains(r, h, limbs);
  }
};

}  // namespace record_levels_detail

// Refuses, before any work, what the engine cannot give: another engine, the graph's
// views, checkpoints and distance tables; and a start that does not parse.
template <RecordPuzzle P>
void check_record_levels(const P& p, const AnalyzeOptions& o) {
  const auto refuse = [&](const std::string& option) {
    throw UsageError(p.name() + ": " + option + " does not go with positions of " + std::to_string(64 * p.limbs()) +
                     " bits, which only the sorted levels of records count (expected analyze FILE --max-depth D or "
                     "--partial, --engine auto or levels)");
  };
  if (o.engine != Engine::automatic && o.engine != Engine::levels)
    refuse("--engine " + std::string(engine_name(o.engine)));
  if (o.all_pairs) refuse("--all-pairs");
  if (o.components) refuse("--components");
  if (o.lookup) refuse("--lookup");
  if (!o.checkpoint.empty()) refuse("--checkpoint");
  if (!o.resume.empty()) refuse("--resume");
  if (o.table) refuse("--table");
  if (!o.from.empty()) (void)p.parse(o.from);
  if (!o.goal.empty()) (void)p.parse(o.goal);
}

// The levels from o's start (--from, --goal, else the goal), to o.max_depth or, with
// o.partial, to the last level whose expansion fits o.memory; without either, until
// the space is exhausted or a level would pass the budget (refused, with the bytes).
// The result is the sorted-levels engine's: layers, layer edges, and the last level's
// positions, in order, as `farthest`.
template <RecordPuzzle P>
AnalysisResult analyze_record_levels(const P& p, const AnalyzeOptions& o) {
  using namespace record_levels_detail;
  check_record_levels(p, o);
  const auto limbs = std::size_t(p.limbs());
  const std::size_t record_bytes = limbs * 8;
  const auto moves = std::size_t(std::max(1, p.max_moves()));
  const bool directed = p.directed();
  const bool may_stay = p.may_stay();
  const std::vector<std::uint64_t> start = !o.from.empty()   ? p.parse(o.from)
                                           : !o.goal.empty() ? p.parse(o.goal)
                                                             : std::vector<std::uint64_t>(p.goal());
  const std::string what = p.name() + ": levels of " + std::to_string(limbs * 64) + "-bit records";
  // Each successor: its record, its hash and its place in its shard's list.
  const std::uint64_t per_successor = record_bytes + 8 + 4;
  const std::uint64_t slice_bytes =
      std::max<std::uint64_t>(moves * per_successor, std::min(kSliceBytes, o.memory.bytes() / 16));
  const std::size_t slice_positions = std::max<std::size_t>(1, slice_bytes / (moves * per_successor));

  // Undirected: levels d-1 and d; directed: every level.
  std::deque<Level> kept;
  kept.push_back(Level{limbs});
  kept.back().shards[std::size_t(record_hash(start.data(), limbs) >> (64 - kShardBits))].insert(
      start.data(), record_hash(start.data(), limbs), limbs);
  std::vector<std::uint64_t> layers, within, onward;
  std::uint64_t successors = 0, total = 1;
  bool complete = true;
  Progress progress(p.name() + " levels", o.progress);
  RawVector<std::uint64_t> buffer, hashes;
  std::vector<int> made;
  std::vector<std::uint32_t> by_shard;
  std::vector<std::size_t> shard_start(kShards + 1);
  for (;;) {
    const Level& level = kept.back();
    // The level's records in a fixed order: shard by shard, each in the order found.
    std::vector<std::uint64_t> first{0};
    for (const auto& s : level.shards) first.push_back(first.back() + s.size(limbs));
    const std::uint64_t n = first.back();
    const auto record = [&](std::uint64_t i) {
      const auto s = std::size_t(std::upper_bound(first.begin(), first.end(), i) - first.begin() - 1);
      return level.shards[s].data.data() + std::size_t(i - first[s]) * limbs;
    };
    layers.push_back(n);
    if (o.max_depth && layers.size() > *o.max_depth) {
      complete = false;
      break;
    }
    // The plan: the levels kept, a slice's successors, and the next level, which grows
    // about as the last one did (at most by the moves), with its hash set (at most
    // four slots a record).
    std::uint64_t held = 0;
    for (const auto& l : kept) held += l.bytes();
    const double growth =
        layers.size() > 1 ? double(n) / double(std::max<std::uint64_t>(1, layers[layers.size() - 2])) : double(moves);
    const std::uint64_t next_guess =
        std::min<std::uint64_t>(n * moves, std::uint64_t(double(n) * std::max(1.0, growth)));
    const std::uint64_t slice_need = std::min<std::uint64_t>(n, slice_positions) * moves * per_successor;
    const std::uint64_t need = held + slice_need + next_guess * (record_bytes + 16);
    if (o.partial && need > o.memory.bytes()) {
      complete = false;
      break;
    }
    o.memory.require_at_least(need, what);

    Level next{limbs};
    std::vector<std::uint64_t> in_level(kShards, 0), ahead(kShards, 0);
    bool short_of_room = false;
    for (std::uint64_t from = 0; from < n && !short_of_room; from += slice_positions) {
      const auto count = std::size_t(std::min<std::uint64_t>(n - from, slice_positions));
      buffer.resize(count * moves * limbs);
      hashes.resize(count * moves);
      made.assign(count, 0);
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count), [&](const auto& range) {
        for (std::size_t i = range.begin(); i != range.end(); ++i) {
          const std::uint64_t* parent = record(from + i);
          std::uint64_t* out = buffer.data() + i * moves * limbs;
          int k = p.successors(parent, out);
          // A self-loop is no move within the level (nor any other): left out.
          if (may_stay) {
            int kept_moves = 0;
            for (int m = 0; m < k; ++m) {
              const std::uint64_t* r = out + std::size_t(m) * limbs;
              if (equal(r, parent, limbs)) continue;
              if (kept_moves != m) std::memmove(out + std::size_t(kept_moves) * limbs, r, record_bytes);
              ++kept_moves;
            }
            k = kept_moves;
          }
          for (int m = 0; m < k; ++m) {
            hashes[i * moves + std::size_t(m)] = record_hash(out + std::size_t(m) * limbs, limbs);
          }
          made[i] = k;
        }
      });
      // The successors by shard, each shard's in the order of the level.
      std::fill(shard_start.begin(), shard_start.end(), 0);
      for (std::size_t i = 0; i < count; ++i) {
        for (int m = 0; m < made[i]; ++m) ++shard_start[(hashes[i * moves + std::size_t(m)] >> (64 - kShardBits)) + 1];
      }
      for (std::size_t s = 0; s < kShards; ++s) shard_start[s + 1] += shard_start[s];
      by_shard.resize(shard_start[kShards]);
      successors += shard_start[kShards];
      {
        std::vector<std::size_t> at(shard_start.begin(), shard_start.end() - 1);
        for (std::size_t i = 0; i < count; ++i) {
          for (int m = 0; m < made[i]; ++m) {
            const std::size_t slot = i * moves + std::size_t(m);
            by_shard[at[hashes[slot] >> (64 - kShardBits)]++] = std::uint32_t(slot);
          }
        }
      }
      tbb::parallel_for(std::size_t(0), kShards, [&](std::size_t s) {
        for (std::size_t j = shard_start[s]; j < shard_start[s + 1]; ++j) {
          const std::size_t slot = by_shard[j];
          const std::uint64_t* r = buffer.data() + slot * limbs;
          const std::uint64_t h = hashes[slot];
          if (level.shards[s].contains(r, h, limbs)) {
            ++in_level[s];
            continue;
          }
          bool earlier = false;
          for (std::size_t e = 0; e + 1 < kept.size() && !earlier; ++e)
            earlier = kept[e].shards[s].contains(r, h, limbs);
          if (earlier) continue;
          ++ahead[s];
          next.shards[s].insert(r, h, limbs);
        }
      });
      // The budget again, with what the level holds now.
      const std::uint64_t now =
          held + next.bytes() + (buffer.capacity() + hashes.capacity()) * 8 + by_shard.capacity() * 4;
      if (now > o.memory.bytes()) {
        if (o.partial) {
          short_of_room = true;
        } else {
          o.memory.require_at_least(now, what);
        }
      }
    }
    if (short_of_room) {
      complete = false;
      break;
    }
    std::uint64_t inside = 0, outside = 0;
    for (std::size_t s = 0; s < kShards; ++s) inside += in_level[s], outside += ahead[s];
    within.push_back(inside);
    onward.push_back(outside);
    const std::uint64_t found = next.size();
    total += found;
    if (found == 0) break;
    if (!directed && kept.size() == 2) kept.pop_front();
    kept.push_back(std::move(next));
    progress.level(unsigned(layers.size()), found, total);
  }
  RawVector<std::uint64_t>().swap(buffer);
  RawVector<std::uint64_t>().swap(hashes);

  AnalysisResult r;
  r.puzzle = p.name();
  r.start = p.format(start.data());
  r.engine = engine_name(Engine::levels);
  r.lookup = "sorted-levels";
  r.states = total;
  r.directed = directed;
  r.layers = layers;
  r.edges = directed ? successors : successors / 2;
  for (std::size_t d = 0; d < within.size(); ++d) {
    const std::uint64_t same = directed ? within[d] : within[d] / 2;
    if (same) r.layer_edges.push_back({unsigned(d), unsigned(d), same});
    if (onward[d]) r.layer_edges.push_back({unsigned(d), unsigned(d + 1), onward[d]});
  }
  const Level& last = kept.back();
  if (!complete) {
    r.complete = false;
    const std::string why =
        "the search stopped at depth " + std::to_string(layers.size() - 1) + " without exhausting the space";
    r.unavailable.push_back({kViewEdges, why});
    if (last.size() > kMostListedPositions) {
      r.unavailable.push_back({kViewLastLevel, "its " + with_commas(last.size()) + " positions are more than the " +
                                                   with_commas(kMostListedPositions) + " listed"});
      return r;
    }
  }
  // The last level in the order of its records, the order of positions.
  std::vector<const std::uint64_t*> order;
  for (const auto& s : last.shards) {
    for (std::size_t i = 0; i < s.size(limbs); ++i) order.push_back(s.data.data() + i * limbs);
  }
  tbb::parallel_sort(order.begin(), order.end(),
                     [&](const std::uint64_t* a, const std::uint64_t* b) { return less(a, b, limbs); });
  r.farthest.resize(order.size());
  tbb::parallel_for(std::size_t(0), order.size(), [&](std::size_t i) { r.farthest[i] = p.format(order[i]); });
  return r;
}

}  // namespace statespace
