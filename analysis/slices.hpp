// Slice ownership: the index range of a table split into contiguous slices, each
// written by exactly one owner (a worker task here, an MPI process in
// distributed/mpi_bfs.cpp). A source that finds targets in other slices queues them
// per destination slice; in a second phase each owner applies the queues addressed
// to its slice. No write needs an atomic or a lock, and since a source stops once its
// queues hold a budget of entries, a level runs as rounds whose queue memory is
// bounded. Between processes the queues are the messages.
#pragma once

#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "puzzles/tile_index.hpp"

namespace statespace {

// [0, units) in `count()` contiguous slices of equal length (the last may be
// shorter), every boundary a multiple of `align`.
class SlicePartition {
 public:
  SlicePartition() = default;
  SlicePartition(std::uint64_t units, std::uint64_t slices, std::uint64_t align) : units_(units) {
    std::uint64_t length = (units + slices - 1) / std::max<std::uint64_t>(slices, 1);
    length = std::max<std::uint64_t>((length + align - 1) / align * align, std::max<std::uint64_t>(align, 2));
    length_ = FastDivisor(length);
    count_ = unsigned(std::max<std::uint64_t>((units + length - 1) / length, 1));
  }
  [[nodiscard]] unsigned count() const { return count_; }
  [[nodiscard]] std::uint64_t units() const { return units_; }
  [[nodiscard]] std::uint64_t length() const { return length_.divisor(); }
  [[nodiscard]] std::uint64_t begin(unsigned s) const { return std::min(std::uint64_t(s) * length(), units_); }
  [[nodiscard]] std::uint64_t end(unsigned s) const { return std::min(std::uint64_t(s + 1) * length(), units_); }
  [[nodiscard]] unsigned owner(std::uint64_t unit) const { return unsigned(length_.quotient(unit)); }

 private:
  std::uint64_t units_ = 0;
  FastDivisor length_;
  unsigned count_ = 1;
};

// What one source queued for each destination slice in the current round: 32-bit
// offsets within the destination (partitions keep slices below 2^32 entries), which
// halves the memory and the bytes processes exchange. Each destination has room for
// everything a source may queue in one round (`capacity`), so a push is one store
// through a pointer, without a capacity check; the room is reserved, not touched, so
// only the pages a round fills count.
class SliceQueues {
 public:
  SliceQueues() = default;
  SliceQueues(unsigned slices, std::size_t capacity)
      : capacity_(capacity),
        storage_(new std::uint32_t[std::size_t(slices) * capacity]),
        slices_(slices),
        lines_(slices + 2 * kPerLine),
        ends_(lines_.data() + (kPerLine - reinterpret_cast<std::uintptr_t>(lines_.data()) / sizeof(void*) % kPerLine)) {
    clear();
  }
  void push(unsigned slice, std::uint32_t offset) { *ends_[slice]++ = offset; }
  // Offsets queued this round, over all destinations.
  [[nodiscard]] std::size_t size() const {
    std::size_t total = 0;
    for (unsigned t = 0; t < slices_; ++t) total += std::size_t(ends_[t] - begin(t));
    return total;
  }
  [[nodiscard]] std::span<const std::uint32_t> to(unsigned slice) const {
    return {begin(slice), std::size_t(ends_[slice] - begin(slice))};
  }
  void clear() {
    for (unsigned t = 0; t < slices_; ++t) ends_[t] = begin(t);
  }

 private:
  // Every push moves an end pointer: each lane's pointers on cache lines of their
  // own (ends_ starts on a line boundary inside lines_, a line of room after it),
  // or two lanes' pushes keep taking a shared line from each other's core.
  static constexpr std::size_t kPerLine = 64 / sizeof(void*);
  [[nodiscard]] std::uint32_t* begin(unsigned slice) const { return storage_.get() + std::size_t(slice) * capacity_; }
  std::size_t capacity_ = 0;
  std::unique_ptr<std::uint32_t[]> storage_;
  unsigned slices_ = 0;
  std::vector<std::uint32_t*> lines_;
  std::uint32_t** ends_ = nullptr;
};

// One level in rounds over `chunks` pieces of the scan, with one set of queues per
// lane (worker): in a round every lane takes unfinished chunks and runs
// `scan(chunk, queues)` (true once that chunk is done) until its queues hold
// `budget` offsets; then every destination slice t runs `apply(t, offsets)` for each
// lane's queue to it. A chunk a lane leaves unfinished waits for the next round, for
// any lane. So all lanes have work until the level's last round, however unevenly
// the frontier is spread, and the counts do not depend on which lane did what.
// Chunks must cover whole table words (a scan writes its own chunk's words of the
// other table directly) and destination slices whole words too.
//
// Most up/down targets lie in the slice of their source (a vertical move changes
// the low digits of the sequence's rank), so lanes scanning neighbouring chunks
// would queue a round's targets to one slice and leave its owner alone with the
// apply phase. Each lane therefore takes the chunks of its own region (the
// chunks in [lane, lane + 1) x chunks / lanes, the sources of about its share of
// the slices) first and only then the other regions' chunks.
template <class Scan, class Apply>
void run_rounds(unsigned chunks, unsigned slices, std::vector<SliceQueues>& lanes, std::size_t budget, Scan&& scan,
                Apply&& apply) {
  const std::size_t regions = lanes.size();
  const auto region_of = [&](unsigned chunk) { return std::size_t(chunk) * regions / chunks; };
  std::vector<std::vector<unsigned>> pending(regions);
  for (unsigned c = 0; c < chunks; ++c) pending[region_of(c)].push_back(c);
  std::vector<std::vector<unsigned>> unfinished(lanes.size());
  struct alignas(64) Next {
    std::atomic<std::size_t> i{0};
  };
  std::unique_ptr<Next[]> next(new Next[regions]);
  const auto any_pending = [&] {
    return std::any_of(pending.begin(), pending.end(), [](const auto& p) { return !p.empty(); });
  };
  while (any_pending()) {
    for (std::size_t r = 0; r < regions; ++r) next[r].i.store(0, std::memory_order_relaxed);
    tbb::parallel_for(
        std::size_t{0}, lanes.size(),
        [&](std::size_t lane) {
          SliceQueues& out = lanes[lane];
          for (std::size_t k = 0; k < regions && out.size() < budget; ++k) {
            const std::size_t r = (lane + k) % regions;
            while (out.size() < budget) {
              const std::size_t i = next[r].i.fetch_add(1, std::memory_order_relaxed);
              if (i >= pending[r].size()) break;
              if (!scan(pending[r][i], out)) unfinished[lane].push_back(pending[r][i]);
            }
          }
        },
        tbb::simple_partitioner());
    // Chunks no lane reached this round stay pending too.
    for (std::size_t r = 0; r < regions; ++r) {
      const std::size_t reached = std::min(next[r].i.load(std::memory_order_relaxed), pending[r].size());
      pending[r].erase(pending[r].begin(), pending[r].begin() + std::ptrdiff_t(reached));
    }
    for (auto& u : unfinished) {
      for (const unsigned c : u) pending[region_of(c)].push_back(c);
      u.clear();
    }
    for (auto& p : pending) std::sort(p.begin(), p.end());
    tbb::parallel_for(
        0u, slices,
        [&](unsigned t) {
          for (const auto& q : lanes) apply(t, q.to(t));
        },
        tbb::simple_partitioner());
    for (auto& q : lanes) q.clear();
  }
}

}  // namespace statespace
