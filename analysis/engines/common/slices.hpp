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
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace statespace {

// [0, units) in `count()` contiguous slices of equal length (the last may be
// shorter). The length is a power of two, at least `align` (a power of two) and at
// most units / slices, so there are `slices` to 2 x `slices` of them: the owner of
// a unit and its place in the slice are a shift and a mask, taken for every target.
class SlicePartition {
 public:
  SlicePartition() = default;
  SlicePartition(std::uint64_t units, std::uint64_t slices, std::uint64_t align) : units_(units) {
    const std::uint64_t most = (units + slices - 1) / std::max<std::uint64_t>(slices, 1);
    shift_ = unsigned(std::max(std::bit_width(std::max<std::uint64_t>(most, 1)) - 1, std::bit_width(align | 2) - 1));
    count_ = unsigned(std::max<std::uint64_t>((units + length() - 1) >> shift_, 1));
  }
  [[nodiscard]] unsigned count() const { return count_; }
  [[nodiscard]] std::uint64_t units() const { return units_; }
  [[nodiscard]] std::uint64_t length() const { return std::uint64_t{1} << shift_; }
  [[nodiscard]] std::uint64_t begin(unsigned s) const { return std::min(std::uint64_t(s) << shift_, units_); }
  [[nodiscard]] std::uint64_t end(unsigned s) const { return std::min(std::uint64_t(s + 1) << shift_, units_); }
  [[nodiscard]] unsigned owner(std::uint64_t unit) const { return unsigned(unit >> shift_); }
  // unit - begin(owner(unit)).
  [[nodiscard]] std::uint64_t within(std::uint64_t unit) const { return unit & (length() - 1); }

 private:
  std::uint64_t units_ = 0;
  unsigned shift_ = 1;
  unsigned count_ = 1;
};

// What one source queued for each destination slice in the current round: 32-bit
// offsets within the destination (partitions keep slices below 2^32 entries), which
// halves the memory and the bytes processes exchange. A destination's offsets fill
// blocks of kBlock taken from one pool per source, sized for everything the source
// may queue in a round (`capacity`): the pool's first blocks are reused every round,
// so the memory touched is what a round holds, however the targets are spread over
// the destinations. A push is one store through a pointer, without a check: before
// each step of at most `step` pushes, make_room() gives every destination whose
// block has less room left a fresh block.
class SliceQueues {
 public:
  static constexpr std::size_t kBlock = 4096;

  // The blocks of a pool for `slices` destinations, `capacity` offsets a round and
  // steps of at most `step` pushes, and their bytes: what the constructor allocates,
  // for the engines' memory checks.
  static constexpr std::size_t pool_blocks(std::size_t slices, std::size_t capacity, std::size_t step) {
    return (capacity + kBlock - step - 1) / (kBlock - step) + slices;
  }
  static constexpr std::uint64_t pool_bytes(std::size_t slices, std::size_t capacity, std::size_t step) {
    return std::uint64_t(pool_blocks(slices, capacity, step)) * kBlock * sizeof(std::uint32_t);
  }

  SliceQueues() = default;
  SliceQueues(unsigned slices, std::size_t capacity, std::size_t step)
      : step_(step),
        blocks_(pool_blocks(slices, capacity, step)),
        storage_(new std::uint32_t[blocks_ * kBlock]),
        slices_(slices),
        lines_(slices + 2 * kPerLine),
        ends_(lines_.data() + (kPerLine - reinterpret_cast<std::uintptr_t>(lines_.data()) / sizeof(void*) % kPerLine)),
        first_(slices),
        runs_(slices) {
    assert(step_ <= kBlock / 2);
    for (auto& r : runs_) r.reserve(blocks_);
    clear();
  }
  void push(unsigned slice, std::uint32_t offset) { *ends_[slice]++ = offset; }
  // Before a step: room for `step` more offsets to every destination.
  void make_room() {
    for (unsigned t = 0; t < slices_; ++t) {
      if (std::size_t(first_[t] + kBlock - ends_[t]) < step_) {
        held_ += std::size_t(ends_[t] - first_[t]);
        runs_[t].emplace_back(first_[t], ends_[t]);
        first_[t] = ends_[t] = take();
      }
    }
  }
  // Offsets queued this round, over all destinations.
  [[nodiscard]] std::size_t size() const {
    std::size_t total = held_;
    for (unsigned t = 0; t < slices_; ++t) total += std::size_t(ends_[t] - first_[t]);
    return total;
  }
  // The offsets queued to one destination: how many, and them in the order queued.
  [[nodiscard]] std::size_t count(unsigned slice) const {
    std::size_t total = std::size_t(ends_[slice] - first_[slice]);
    for (const auto& r : runs_[slice]) total += r.size();
    return total;
  }
  template <class F>
  void for_each_run(unsigned slice, F&& f) const {
    for (const auto& r : runs_[slice]) f(r);
    if (ends_[slice] != first_[slice]) f(std::span<const std::uint32_t>(first_[slice], ends_[slice]));
  }
  void clear() {
    used_ = 0;
    held_ = 0;
    for (unsigned t = 0; t < slices_; ++t) {
      runs_[t].clear();
      first_[t] = ends_[t] = take();
    }
  }

 private:
  // Every push moves an end pointer: each lane's pointers on cache lines of their
  // own (ends_ starts on a line boundary inside lines_, a line of room after it),
  // or two lanes' pushes keep taking a shared line from each other's core.
  static constexpr std::size_t kPerLine = 64 / sizeof(void*);
  std::uint32_t* take() {
    assert(used_ < blocks_ && "a source queued more than its capacity in one round");
    return storage_.get() + used_++ * kBlock;
  }
  std::size_t step_ = 0, blocks_ = 0, used_ = 0;
  std::size_t held_ = 0;  // offsets in runs_
  std::unique_ptr<std::uint32_t[]> storage_;
  unsigned slices_ = 0;
  std::vector<std::uint32_t*> lines_;
  std::uint32_t** ends_ = nullptr;
  std::vector<std::uint32_t*> first_;                              // per destination: its current block
  std::vector<std::vector<std::span<const std::uint32_t>>> runs_;  // per destination: earlier blocks' offsets
};

// One level in rounds over `chunks` pieces of the scan, with one set of queues per
// lane (worker): in a round the lanes take unfinished chunks and run
// `scan(chunk, queues, limit)` (true once that chunk is done; it stops early once
// the queues hold `limit` offsets) until together they have queued lanes x `budget`
// offsets; then every destination slice t runs `apply(t, offsets)` for each lane's
// queue to it. A chunk a lane leaves unfinished waits for the next round, for any
// lane. So all lanes have work until the level's last round, however unevenly the
// frontier is spread, and the counts do not depend on which lane did what.
// Chunks must cover whole table words (a scan writes its own chunk's words of the
// other table directly) and destination slices whole words too.
//
// A lane scans in steps of kRoundStep offsets and adds each step to the round's
// shared count: the targets a word yields vary with the frontier's density, so
// lanes given equal shares would finish a round at different times and wait for
// each other. Sharing the round's total, they finish within one step of each
// other; a lane may queue up to round_capacity(lanes, budget) offsets.
//
// Most up/down targets lie in the slice of their source (a vertical move changes
// the low digits of the sequence's rank), so lanes scanning neighbouring chunks
// would queue a round's targets to one slice and leave its owner alone with the
// apply phase. Each lane therefore takes the chunks of its own region (the
// chunks in [lane, lane + 1) x chunks / lanes, the sources of about its share of
// the slices) first and only then the other regions' chunks.
constexpr std::size_t kRoundStep = 1024;
constexpr std::size_t round_capacity(std::size_t lanes, std::size_t budget) { return (lanes > 1 ? 2 : 1) * budget; }

template <class Scan, class Apply>
void run_rounds(unsigned chunks, unsigned slices, std::vector<SliceQueues>& lanes, std::size_t budget, Scan&& scan,
                Apply&& apply) {
  const std::size_t regions = lanes.size(), round_total = lanes.size() * budget;
  const std::size_t capacity = round_capacity(lanes.size(), budget);
  const auto region_of = [&](unsigned chunk) { return std::size_t(chunk) * regions / chunks; };
  std::vector<std::vector<unsigned>> pending(regions);
  for (unsigned c = 0; c < chunks; ++c) pending[region_of(c)].push_back(c);
  std::vector<std::vector<unsigned>> unfinished(lanes.size());
  struct alignas(64) Next {
    std::atomic<std::size_t> i{0};
  };
  std::unique_ptr<Next[]> next(new Next[regions]);
  alignas(64) std::atomic<std::size_t> queued{0};
  const auto any_pending = [&] {
    return std::any_of(pending.begin(), pending.end(), [](const auto& p) { return !p.empty(); });
  };
  while (any_pending()) {
    for (std::size_t r = 0; r < regions; ++r) next[r].i.store(0, std::memory_order_relaxed);
    queued.store(0, std::memory_order_relaxed);
    tbb::parallel_for(
        std::size_t{0}, lanes.size(),
        [&](std::size_t lane) {
          SliceQueues& out = lanes[lane];
          std::size_t held = 0;  // out.size()
          const auto room = [&] { return held < capacity && queued.load(std::memory_order_relaxed) < round_total; };
          for (std::size_t k = 0; k < regions && room(); ++k) {
            const std::size_t r = (lane + k) % regions;
            while (room()) {
              const std::size_t i = next[r].i.fetch_add(1, std::memory_order_relaxed);
              if (i >= pending[r].size()) break;
              bool done = false;
              do {
                out.make_room();
                done = scan(pending[r][i], out, std::min(held + kRoundStep, capacity));
                const std::size_t now = out.size();
                queued.fetch_add(now - held, std::memory_order_relaxed);
                held = now;
              } while (!done && room());
              if (!done) unfinished[lane].push_back(pending[r][i]);
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
          for (const auto& q : lanes) q.for_each_run(t, [&](std::span<const std::uint32_t> run) { apply(t, run); });
        },
        tbb::simple_partitioner());
    for (auto& q : lanes) q.clear();
  }
}

}  // namespace statespace
