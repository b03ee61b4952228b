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
      : capacity_(capacity), storage_(new std::uint32_t[std::size_t(slices) * capacity]), ends_(slices) {
    clear();
  }
  void push(unsigned slice, std::uint32_t offset) { *ends_[slice]++ = offset; }
  // Offsets queued this round, over all destinations.
  [[nodiscard]] std::size_t size() const {
    std::size_t total = 0;
    for (std::size_t t = 0; t < ends_.size(); ++t) total += std::size_t(ends_[t] - begin(unsigned(t)));
    return total;
  }
  [[nodiscard]] std::span<const std::uint32_t> to(unsigned slice) const {
    return {begin(slice), std::size_t(ends_[slice] - begin(slice))};
  }
  void clear() {
    for (std::size_t t = 0; t < ends_.size(); ++t) ends_[t] = begin(unsigned(t));
  }

 private:
  [[nodiscard]] std::uint32_t* begin(unsigned slice) const { return storage_.get() + std::size_t(slice) * capacity_; }
  std::size_t capacity_ = 0;
  std::unique_ptr<std::uint32_t[]> storage_;
  std::vector<std::uint32_t*> ends_;
};

// One level over slices owned by worker tasks, in rounds: every unfinished source
// runs `fill(s, queues)` (true once its slice is done), then every owner runs
// `apply(t, targets)` for each source's queue to it. Sources and destinations are
// the same slices, so a task writes only its own part of each table in either phase.
template <class Fill, class Apply>
void run_slice_rounds(std::vector<SliceQueues>& queues, Fill&& fill, Apply&& apply) {
  const unsigned n = unsigned(queues.size());
  std::vector<char> done(n, 0);
  for (bool more = true; more;) {
    tbb::parallel_for(
        0u, n,
        [&](unsigned s) {
          if (!done[s]) done[s] = fill(s, queues[s]);
        },
        tbb::simple_partitioner());
    tbb::parallel_for(
        0u, n,
        [&](unsigned t) {
          for (const auto& q : queues) apply(t, q.to(t));
        },
        tbb::simple_partitioner());
    for (auto& q : queues) q.clear();
    more = std::count(done.begin(), done.end(), 0) > 0;
  }
}

}  // namespace statespace
