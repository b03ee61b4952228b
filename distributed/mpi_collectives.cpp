#include "distributed/mpi_collectives.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <stdexcept>

#include "core/errors.hpp"
#include "distributed/mpi_bfs.hpp"

namespace statespace {

void require_mpi_engine(const std::string&) { (void)mpi_rank(); }

void mpi_sum(std::span<std::uint64_t> values) {
  (void)mpi_rank();
  MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
}

std::vector<std::uint32_t> mpi_exchange(const std::vector<std::vector<std::uint32_t>>& send) {
  const auto processes = static_cast<std::size_t>(mpi_processes());
  std::vector<int> send_counts(processes), send_displs(processes), recv_counts(processes), recv_displs(processes);
  std::vector<std::uint32_t> flat;
  for (std::size_t r = 0; r < processes; ++r) {
    send_displs[r] = int(flat.size());
    send_counts[r] = int(send[r].size());
    flat.insert(flat.end(), send[r].begin(), send[r].end());
  }
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::exclusive_scan(recv_counts.begin(), recv_counts.end(), recv_displs.begin(), 0);
  std::vector<std::uint32_t> recv(std::size_t(recv_displs.back()) + std::size_t(recv_counts.back()));
  MPI_Alltoallv(flat.data(), send_counts.data(), send_displs.data(), MPI_UINT32_T, recv.data(), recv_counts.data(),
                recv_displs.data(), MPI_UINT32_T, MPI_COMM_WORLD);
  return recv;
}

namespace {

// Every process's word count, on rank 0 (empty elsewhere).
std::vector<std::uint64_t> gather_counts(std::uint64_t count) {
  const int rank = mpi_rank();
  std::vector<std::uint64_t> counts(rank == 0 ? std::size_t(mpi_processes()) : 0);
  MPI_Gather(&count, 1, MPI_UINT64_T, counts.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  return counts;
}

// Rank 0 receives each process's words in turn, straight into place, in messages
// of at most `message` words (an MPI count is an int).
void gather_words(std::span<const std::uint64_t> mine, std::uint64_t* out, const std::vector<std::uint64_t>& counts,
                  std::uint64_t message) {
  const int rank = mpi_rank(), processes = mpi_processes();
  message = std::clamp<std::uint64_t>(message, 1, kMpiMessageWords);
  if (rank != 0) {
    for (std::uint64_t at = 0; at < mine.size(); at += message) {
      const std::uint64_t n = std::min<std::uint64_t>(message, mine.size() - at);
      MPI_Send(mine.data() + at, int(n), MPI_UINT64_T, 0, 0, MPI_COMM_WORLD);
    }
    return;
  }
  std::copy(mine.begin(), mine.end(), out);
  std::uint64_t place = mine.size();
  for (int r = 1; r < processes; ++r) {
    for (std::uint64_t at = 0; at < counts[std::size_t(r)]; at += message) {
      const std::uint64_t n = std::min<std::uint64_t>(message, counts[std::size_t(r)] - at);
      MPI_Recv(out + place + at, int(n), MPI_UINT64_T, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    place += counts[std::size_t(r)];
  }
}

}  // namespace

std::vector<std::uint64_t> mpi_gather(std::span<const std::uint64_t> mine, std::uint64_t message) {
  const std::vector<std::uint64_t> counts = gather_counts(mine.size());
  std::vector<std::uint64_t> all(std::accumulate(counts.begin(), counts.end(), std::uint64_t{0}));
  gather_words(mine, all.data(), counts, message);
  return all;
}

void mpi_gather_into(std::span<const std::uint64_t> mine, std::span<std::uint64_t> out, std::uint64_t message) {
  const std::vector<std::uint64_t> counts = gather_counts(mine.size());
  std::uint64_t fits = std::accumulate(counts.begin(), counts.end(), std::uint64_t{0}) == out.size();
  MPI_Bcast(&fits, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (!fits) throw std::logic_error("mpi_gather_into: the processes' words do not fill the destination");
  gather_words(mine, out.data(), counts, message);
}

std::shared_ptr<GoalTable> mpi_gather_table(std::shared_ptr<GoalTable> part, std::uint64_t entries) {
  const std::span<const std::uint64_t> mine(part->words(), std::size_t(part->word_count()));
  std::shared_ptr<GoalTable> whole;
  std::span<std::uint64_t> out;
  if (mpi_rank() == 0) {
    GoalTableHeader h = part->header();
    h.entries = entries;
    whole = std::make_shared<GoalTable>(std::move(h));
    out = std::span<std::uint64_t>(whole->words(), std::size_t(whole->word_count()));
  }
  mpi_gather_into(mine, out);
  return whole;
}

void mpi_refuse(const std::string& message) {
  if (mpi_rank() == 0) throw UsageError(message);
  std::exit(2);
}

}  // namespace statespace
