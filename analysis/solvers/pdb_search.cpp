// The pattern search's setup and level loop (analysis/solvers/pdb_search.hpp).
#include "analysis/solvers/pdb_search.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "analysis/engines/common/level_bits.hpp"
#include "analysis/runtime/threads.hpp"

namespace statespace {

namespace pdb_search {

// Manhattan distances of the pattern's tiles: [slot * 16 + cell].
std::array<std::uint8_t, Board::kMaxCells * Board::kMaxCells> manhattan_table(const Tiles& t,
                                                                              const std::vector<int>& tiles) {
  std::array<std::uint8_t, Board::kMaxCells * Board::kMaxCells> out{};
  const int cols = t.cols();
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    const int home = tiles[i] - 1;  // tile v's goal cell is v - 1
    for (int c = 0; c < t.cells(); ++c) {
      out[i * Board::kMaxCells + std::size_t(c)] =
          std::uint8_t(std::abs(c / cols - home / cols) + std::abs(c % cols - home % cols));
    }
  }
  return out;
}

PatternSearch::PatternSearch(const Tiles& t, const std::vector<int>& tiles)
    : regions_(t),
      n_(t.cells()),
      k_(int(tiles.size())),
      names_(unsigned(n_ - k_)),
      entries_(placements(n_, k_)),
      manhattan_(manhattan_table(t, tiles)),
      seen_(words_for(entries_ * names_), 0),
      front_(words_for(entries_), 0),
      next_(words_for(entries_), 0),
      packed_(PatternDatabase::packed_bytes(entries_), 0),
      select_((std::size_t{1} << n_) * Board::kMaxCells, 0),
      cols_(t.cols()) {
  for (std::uint32_t free = 0; free < (1u << n_); ++free) {
    unsigned j = 0;
    for (std::uint32_t f = free; f; f &= f - 1)
      select_[free * Board::kMaxCells + j++] = std::uint8_t(std::countr_zero(f));
  }
  for (int c = 0; c < n_; ++c) {
    if (c % cols_) not_first_column_ |= 1u << c;
    if (c % cols_ != cols_ - 1) not_last_column_ |= 1u << c;
    between_[std::size_t(c)] = ((1u << (cols_ - 1)) - 1) << (c + 1);
  }
  std::uint64_t weight = 1;
  for (int i = k_ - 1; i >= 0; --i) {
    weight_[std::size_t(i)] = weight;
    weight *= std::uint64_t(n_ - i);
    magic_[std::size_t(i)] = ((std::uint64_t{1} << kMagicShift) + std::uint64_t(n_ - i) - 1) / std::uint64_t(n_ - i);
  }
  const unsigned threads = worker_threads();
  slices_ = SlicePartition(
      entries_,
      std::max<std::uint64_t>(std::uint64_t(kSlicesPerThread) * threads, (entries_ + kMostSlice - 1) / kMostSlice), 64);
  chunks_ = SlicePartition(entries_, std::uint64_t(kChunksPerThread) * threads, 64);
  for (unsigned s = 0; s < threads; ++s) {
    lanes_.emplace_back(slices_.count(), round_capacity(threads, kRoundBudget) + kPlacementOvershoot,
                        kRoundStep + kPlacementOvershoot);
  }
  owned_.resize(slices_.count() + chunks_.count());
}

void PatternSearch::clear(BigVector<std::uint64_t>& bits) {
  for_each_chunk(bits.size(), 1 << 16, [&](const auto& range) {
    std::fill(bits.begin() + std::ptrdiff_t(range.begin()), bits.begin() + std::ptrdiff_t(range.end()), 0);
  });
}

// Whether to find the level after `level` backwards, given the sizes of the two
// levels before: once the levels stop growing fast, the states not yet seen are
// fewer than the successors the frontier would queue (each state has about
// seven), and every later level is smaller still.
bool PatternSearch::pull_now(unsigned level, std::uint64_t previous, std::uint64_t last) {
  return level > 2 && 10 * last < 11 * previous;
}

void PatternSearch::run(const std::vector<int>& tiles, const std::string& name, Progress* progress) {
  std::array<std::uint8_t, Board::kMaxCells> home{};
  std::uint32_t occupied = 0;
  for (int i = 0; i < k_; ++i) {
    home[std::size_t(i)] = std::uint8_t(tiles[std::size_t(i)] - 1);
    occupied |= 1u << home[std::size_t(i)];
  }
  const std::uint64_t goal = placement_rank(home.data(), k_, n_);
  const std::uint64_t e = goal * names_ + regions_.name(n_ - 1, regions_.all() & ~occupied);
  seen_[e / 64] |= std::uint64_t{1} << (e % 64);
  front_[goal / 64] |= std::uint64_t{1} << (goal % 64);
  counts_.assign(1, 1);
  std::uint64_t total = 1, previous = 0, last = 1;
  bool pulling = false;
  const std::uint64_t bytes = pattern_build_bytes_for(n_, k_);
  for (unsigned level = 0;; ++level) {
    if (level + 1 > kMostValue) throw std::length_error(name + ": pattern depth exceeds " + std::to_string(kMostValue));
    if (!pulling && pull_now(level, previous, last)) {
      pulling = true;
      // The forward phase's bitsets become the backward phase's.
      skip_[0] = std::move(front_);
      skip_[1] = std::move(next_);
      clear(skip_[0]);
      clear(skip_[1]);
    }
    const std::uint64_t added = pulling ? pull(level) : expand(level);
    if (added == 0) break;
    if (!pulling) {
      std::swap(front_, next_);
      clear(next_);
    }
    previous = last;
    last = added;
    total += added;
    if (progress) progress->level(level + 1, added, total, bytes);
  }
  std::uint64_t reached = 0;
  for (auto& o : owned_) {
    if (counts_.size() < o.counts.size()) counts_.resize(o.counts.size(), 0);
    for (std::size_t v = 0; v < o.counts.size(); ++v) counts_[v] += o.counts[v];
  }
  for (const auto c : counts_) reached += c;
  // At least two free cells leave no parity constraint: every placement is reached.
  if (reached != entries_) throw std::logic_error(name + ": the pattern search left placements unreached");
}

PatternDatabase PatternSearch::release(const Tiles& t, const std::vector<int>& tiles) && {
  std::vector<PatternDatabase::Exception> exceptions;
  for (auto& o : owned_) exceptions.insert(exceptions.end(), o.exceptions.begin(), o.exceptions.end());
  std::sort(exceptions.begin(), exceptions.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; });
  // The search's bitsets go before the caller saves the database.
  BigVector<std::uint64_t>().swap(seen_);
  BigVector<std::uint64_t>().swap(front_);
  BigVector<std::uint64_t>().swap(next_);
  for (auto& skip : skip_) BigVector<std::uint64_t>().swap(skip);
  return PatternDatabase(t, tiles, std::move(packed_), std::move(exceptions), std::move(counts_));
}

// The tables, the region and select tables and the lanes' queues, each big array
// rounded up to whole huge pages.
std::uint64_t PatternSearch::pattern_build_bytes_for(int n, int k) {
  const std::uint64_t entries = placements(n, k);
  const std::uint64_t sets = std::uint64_t{1} << n;
  const auto big = [](std::uint64_t bytes) { return huge_resident_bytes(bytes); };
  // Region names, present names, region masks, select.
  const std::uint64_t regions =
      big(8 * sets) + big(2 * sets) + big(2 * Board::kMaxCells * sets) + big(Board::kMaxCells * sets);
  const std::uint64_t threads = worker_threads();
  const std::uint64_t slices = 2 * std::max<std::uint64_t>(kSlicesPerThread * threads, entries / kMostSlice + 1);
  const std::uint64_t queues = SliceQueues::pool_bytes(
      slices, round_capacity(threads, kRoundBudget) + kPlacementOvershoot, kRoundStep + kPlacementOvershoot);
  return big(8 * words_for(entries * std::uint64_t(n - k))) + 2 * big(8 * words_for(entries)) +
         big(PatternDatabase::packed_bytes(entries)) + regions + threads * queues;
}

}  // namespace pdb_search

std::uint64_t pattern_build_bytes(const Tiles& t, int k) {
  return pdb_search::PatternSearch::pattern_build_bytes_for(t.cells(), k);
}

PatternDatabase build_pattern_database(const Tiles& t, const std::vector<int>& tiles, Progress* progress) {
  check_pattern(t, tiles);
  pdb_search::PatternSearch search(t, tiles);
  search.run(tiles, t.name(), progress);
  return std::move(search).release(t, tiles);
}

}  // namespace statespace
