// The ranked enumeration of a permutation puzzle (the 6-puzzle, the sliding-tile
// puzzles): a level-synchronous BFS over oneTBB workers into a rank bitset
// (LevelBits), tuned so that a lookup costs a few nanoseconds.
//
// - Each child's rank comes from its parent's (SwapMove::rank_after, the
//   incremental ranking of core/rank_delta.hpp), so frontier entries carry ranks.
// - The frontier is kept in buckets by (blank cell, cell the blank came from).
//   All entries of a bucket have the same moves, minus the one back to the parent
//   (always visited: skipping it saves one lookup in three on the 8-puzzle), and
//   each move's children all land in one bucket. The inner loop runs one move over
//   a run of entries, so its branches are the same every time round.
// - The visited test is branch-free (LevelBits::claim) and a child is written to
//   its bucket unconditionally, its count advancing only when it is new: the
//   coin-flip outcome of a BFS lookup never costs a misprediction.
// - Workers write into the buffers of one parity while the frontier is read from
//   the other's, so no frontier is copied between levels.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "analysis/engines/common/level_bits.hpp"
#include "analysis/runtime/progress.hpp"
#include "core/board.hpp"
#include "core/puzzle.hpp"
#include "core/rank_delta.hpp"

namespace statespace {

// A frontier state and its rank; its blank cell and the blank's previous cell are
// implied by the bucket that holds it.
struct RankedBoard {
  Board board;
  std::uint64_t rank = 0;
};
static_assert(sizeof(RankedBoard) == 16);

// The moves out of each bucket (blank cell b, previous blank cell f): every
// neighbour of b but f, each with the bucket its children land in, (t, b).
class BucketMoves {
 public:
  static constexpr int kStart = Board::kMaxCells;  // "f" of the start: it came from nowhere
  static constexpr int kFromValues = Board::kMaxCells + 1;

  struct Move {
    SwapMove swap;
    int destination;
  };

  template <PermutationRanked P>
  explicit BucketMoves(const P& p) : moves_(std::size_t(p.cells()) * kFromValues) {
    for (int b = 0; b < p.cells(); ++b) {
      for (int f = 0; f < kFromValues; ++f) {
        for (int k = 0; k < p.degree(b); ++k) {
          const int t = p.neighbour(b, k);
          if (t != f) moves_[std::size_t(bucket(b, f))].push_back({SwapMove(p.cells(), b, t), bucket(t, b)});
        }
      }
    }
  }

  [[nodiscard]] static constexpr int bucket(int blank, int from) { return blank * kFromValues + from; }
  [[nodiscard]] static constexpr int blank_of(int bucket) { return bucket / kFromValues; }
  [[nodiscard]] std::size_t buckets() const { return moves_.size(); }
  [[nodiscard]] const std::vector<Move>& moves(int bucket) const { return moves_[std::size_t(bucket)]; }

 private:
  std::vector<std::vector<Move>> moves_;
};

template <PermutationRanked P>
RankedEnumeration enumerate_permutation(const P& p, Board start, Progress* progress = nullptr,
                                        LevelOrder* order = nullptr) {
  // Entries per task: enough to amortise the scheduling, small enough that a run
  // stays in L1 while each of its moves reads it again.
  constexpr std::size_t kGrain = 512;
  constexpr std::size_t kOrderGrain = 64;  // work items (of up to kGrain states) per copy task
  struct Bucket {
    std::vector<RankedBoard> items;  // the first `count` are this level's states
    std::size_t count = 0;
  };
  struct Local {
    LevelBits::Words seen;
    std::array<std::vector<Bucket>, 2> found;  // by level parity: one written, the other read
    std::uint64_t lookups = 0;
  };
  struct Work {
    int bucket;
    const RankedBoard* entries;
    std::size_t size;
  };

  const BucketMoves moves(p);
  LevelBits bits(p.rank_space());
  tbb::enumerable_thread_specific<Local> locals([&] {
    Local local;
    for (auto& buckets : local.found) buckets.resize(moves.buckets());
    return local;
  });
  const RankedBoard root{start, p.rank(start)};
  bits.visit(root.rank);
  std::vector<Work> work{{BucketMoves::bucket(find_blank(start, p.cells()), BucketMoves::kStart), &root, 1}};
  RankedEnumeration e{{}, {1}, 0};
  if (order) {
    order->ranks.push_back(root.rank);
    order->degrees.push_back(std::uint8_t(p.degree(BucketMoves::blank_of(work.front().bucket))));
  }
  std::uint64_t total = 1;
  std::uint64_t level_entries = 1;
  for (int parity = 0;; parity ^= 1) {
    const auto expand = [&](const tbb::blocked_range<std::size_t>& range, Local& local, std::uint64_t* const marks) {
      for (std::size_t w = range.begin(); w != range.end(); ++w) {
        const Work& item = work[w];
        for (const auto& move : moves.moves(item.bucket)) {
          Bucket& out = local.found[parity][std::size_t(move.destination)];
          if (out.items.size() < out.count + item.size) {
            out.items.resize(std::max(2 * out.items.size(), out.count + item.size));
          }
          // Locals, so that the stores through `slot` cannot alias them.
          const SwapMove swap = move.swap;
          const RankedBoard* in = item.entries;
          const std::size_t size = item.size;
          const std::uint64_t* visited = bits.visited_words();
          std::uint64_t* seen = marks;
          RankedBoard* slot = out.items.data();
          std::size_t count = out.count;
          for (std::size_t i = 0; i < size; ++i) {
            const std::uint64_t rank = swap.rank_after(in[i].board, in[i].rank);
            slot[count] = {swap.apply(in[i].board), rank};
            count += LevelBits::claim(visited, seen, rank);
          }
          out.count = count;
          local.lookups += item.size;
        }
      }
    };
    // Bucket by bucket in parallel (with two workers there is one worker to drop
    // from), and without a branch: whether another worker found a state first is a
    // coin flip.
    const auto drop = [&](Local& worker, const auto& marked) {
      auto& buckets = worker.found[parity];
      tbb::parallel_for(std::size_t{0}, buckets.size(), [&](std::size_t i) {
        Bucket& b = buckets[i];
        RankedBoard* const items = b.items.data();
        std::size_t kept = 0;
        for (std::size_t j = 0; j < b.count; ++j) {
          items[kept] = items[j];
          kept += !marked(items[j].rank);
        }
        b.count = kept;
      });
    };
    bits.run_level(locals, level_entries, work.size(), 1, expand, drop);

    work.clear();
    std::uint64_t layer = 0;  // this level's states, the next level's entries
    for (Local& local : locals) {
      const auto& buckets = local.found[parity];
      for (std::size_t b = 0; b < buckets.size(); ++b) {
        for (std::size_t begin = 0; begin < buckets[b].count; begin += kGrain) {
          work.push_back({int(b), buckets[b].items.data() + begin, std::min(kGrain, buckets[b].count - begin)});
        }
        layer += buckets[b].count;
      }
      for (Bucket& b : local.found[parity ^ 1]) b.count = 0;  // the next level writes there
    }
    if (layer == 0) break;
    if (order) {
      // Item by item in parallel: on one thread, this copy took a sixth of the search.
      std::vector<std::size_t> at(work.size() + 1, order->ranks.size());
      for (std::size_t i = 0; i < work.size(); ++i) at[i + 1] = at[i] + work[i].size;
      order->ranks.resize(at.back());
      order->degrees.resize(at.back());
      for_each_chunk(work.size(), kOrderGrain, [&](const auto& range) {
        for (std::size_t i = range.begin(); i != range.end(); ++i) {
          const Work& item = work[i];
          std::uint64_t* ranks = order->ranks.data() + at[i];
          for (std::size_t j = 0; j < item.size; ++j) ranks[j] = item.entries[j].rank;
          const auto degree = std::uint8_t(p.degree(BucketMoves::blank_of(item.bucket)));
          std::fill_n(order->degrees.data() + at[i], item.size, degree);
        }
      });
    }
    level_entries = layer;
    e.layers.push_back(layer);
    total += layer;
    if (progress) progress->level(unsigned(e.layers.size() - 1), layer, total);
  }
  for (const Local& local : locals) e.lookups += local.lookups;
  e.members = std::move(bits).release();
  return e;
}

}  // namespace statespace
