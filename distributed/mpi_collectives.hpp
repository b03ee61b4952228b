// The few collectives over MPI_COMM_WORLD that the ranked MPI engine
// (distributed/ranked_mpi.hpp) needs, behind plain functions: that engine is a
// template over the puzzle, instantiated in the CLI, and must not see mpi.h (a
// build without MPI keeps the functions, which then refuse the engine).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "analysis/engines/common/slices.hpp"
#include "analysis/runtime/goal_table.hpp"

namespace statespace {

// MPI_COMM_WORLD's rank and size (distributed/mpi_bfs.hpp); 0 and 1 without MPI.
int mpi_rank();
int mpi_processes();

// Throws UsageError naming `puzzle` when this build has no MPI.
void require_mpi_engine(const std::string& puzzle);

// Every process's values summed, element by element, in place.
void mpi_sum(std::span<std::uint64_t> values);

// Sends send[r] to process r; returns what the processes sent here, concatenated
// in their rank order.
std::vector<std::uint32_t> mpi_exchange(const std::vector<std::vector<std::uint32_t>>& send);

// Words one MPI message carries at most: MPI counts are ints, so a part of 2^31
// words or more (16 GiB, a slice of tiles:4x4's table) goes in several messages.
inline constexpr std::uint64_t kMpiMessageWords = std::uint64_t{1} << 30;

// Every process's values, concatenated in rank order, on rank 0 (empty elsewhere),
// in messages of at most `message` words each.
std::vector<std::uint64_t> mpi_gather(std::span<const std::uint64_t> mine, std::uint64_t message = kMpiMessageWords);

// The same into `out` on rank 0, which must hold exactly every process's words
// (checked on every rank before anything is sent; `out` is ignored elsewhere).
void mpi_gather_into(std::span<const std::uint64_t> mine, std::span<std::uint64_t> out,
                     std::uint64_t message = kMpiMessageWords);

// analyze --table over processes: each process filled `part`, the table's entries
// over its own indices, a run of whole data words of the whole table, in process
// order. Rank 0 returns the whole table of `entries` indices (part's header
// otherwise), received straight into its words; the other ranks return nullptr.
std::shared_ptr<GoalTable> mpi_gather_table(std::shared_ptr<GoalTable> part, std::uint64_t entries);

// A refusal every rank reaches alike: rank 0 throws UsageError(message), the others
// exit with code 2 without a word, so the user reads one line.
[[noreturn]] void mpi_refuse(const std::string& message);

// A round's message to the owner of destination slices [first, last): for each of
// them and each source's queue holding offsets for it, the record (slice, count,
// offsets...). Both MPI engines send their queues so.
inline void append_records(std::vector<std::uint32_t>& to, unsigned first, unsigned last,
                           const std::vector<SliceQueues>& queues) {
  for (unsigned t = first; t < last; ++t) {
    for (const auto& q : queues) {
      const std::size_t count = q.count(t);
      if (count == 0) continue;
      to.push_back(t);
      to.push_back(std::uint32_t(count));
      q.for_each_run(t, [&](std::span<const std::uint32_t> run) { to.insert(to.end(), run.begin(), run.end()); });
    }
  }
}

// The records that arrived (append_records' format), per own slice: slice - `first`
// of the `count` slices this process owns.
inline std::vector<std::vector<std::span<const std::uint32_t>>> records_by_slice(std::span<const std::uint32_t> recv,
                                                                                 unsigned first, unsigned count) {
  std::vector<std::vector<std::span<const std::uint32_t>>> arrived(count);
  for (std::size_t i = 0; i < recv.size();) {
    const std::size_t offsets = recv[i + 1];
    arrived[recv[i] - first].emplace_back(recv.data() + i + 2, offsets);
    i += 2 + offsets;
  }
  return arrived;
}

}  // namespace statespace
