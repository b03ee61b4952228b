#include "analysis/problems/loop_sort.hpp"

#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <limits>

#include "analysis/problems/generate.hpp"
#include "puzzles/tiles_parity.hpp"

namespace statespace {

Board loop_final(LoopOrder order) {
  Board b;
  for (int k = 1; k < 16; ++k) b.set(kLoopCell[std::size_t(k)], unsigned(k));
  if (order == LoopOrder::kTwoThreeSwapped) {
    b.set(kLoopCell[2], 3);
    b.set(kLoopCell[3], 2);
  }
  return b;
}

LoopOrder predicted_order(Board start) {
  const bool same = tiles_solvable(4, 4, start) == tiles_solvable(4, 4, loop_final(LoopOrder::kAscending));
  return same ? LoopOrder::kAscending : LoopOrder::kTwoThreeSwapped;
}

std::string loop_order_text(LoopOrder order) {
  return order == LoopOrder::kAscending ? "1,2,3,...,15" : "1,3,2,...,15";
}

const char* move_direction(const LoopMove& m) {
  const int delta = m.to - m.from;
  if (delta == -4) return "up";
  if (delta == 4) return "down";
  return delta == -1 ? "left" : "right";
}

LoopSortSurvey survey_loop_sort(std::uint64_t boards, std::uint64_t seed, std::uint64_t step_cap) {
  // Boards are drawn sequentially in batches (constant memory, and the same boards for
  // any thread count), then run in parallel; tallies merge in a fixed way.
  constexpr std::uint64_t kBatch = std::uint64_t{1} << 18;
  constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();
  struct Tally {
    std::uint64_t terminated = 0, predicted = 0, ascending = 0, total_moves = 0;
    std::uint64_t first_unterminated = kNone;  // index in the batch
    std::vector<std::uint64_t> histogram;
  };
  const Tiles fifteen(4, 4);
  Rng rng(seed);
  LoopSortSurvey s;
  s.boards = boards;
  std::vector<Board> batch;
  for (std::uint64_t done = 0; done < boards; done += batch.size()) {
    batch.resize(std::min(kBatch, boards - done));
    for (auto& b : batch) b = uniform_arrangement(fifteen, rng);
    tbb::combinable<Tally> tallies;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, batch.size(), 256), [&](const auto& range) {
      Tally& t = tallies.local();
      for (auto i = range.begin(); i != range.end(); ++i) {
        const LoopSortResult r = loop_sort(batch[i], step_cap);
        if (!r.terminated) {
          t.first_unterminated = std::min<std::uint64_t>(t.first_unterminated, i);
          continue;
        }
        ++t.terminated;
        t.predicted += r.order == predicted_order(batch[i]);
        t.ascending += r.order == LoopOrder::kAscending;
        t.total_moves += r.moves;
        if (t.histogram.size() <= r.moves) t.histogram.resize(r.moves + 1, 0);
        ++t.histogram[r.moves];
      }
    });
    std::uint64_t first = kNone;
    tallies.combine_each([&](const Tally& t) {
      s.terminated += t.terminated;
      s.predicted += t.predicted;
      s.ascending += t.ascending;
      s.swapped += t.terminated - t.ascending;
      s.total_moves += t.total_moves;
      first = std::min(first, t.first_unterminated);
      if (s.histogram.size() < t.histogram.size()) s.histogram.resize(t.histogram.size(), 0);
      for (std::size_t m = 0; m < t.histogram.size(); ++m) s.histogram[m] += t.histogram[m];
    });
    if (first != kNone && !s.first_unterminated) s.first_unterminated = batch[first];
  }
  return s;
}

}  // namespace statespace
