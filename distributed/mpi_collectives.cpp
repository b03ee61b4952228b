#include "distributed/mpi_collectives.hpp"

#include <mpi.h>

#include <cstdlib>
#include <numeric>

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

std::vector<std::uint64_t> mpi_gather(std::span<const std::uint64_t> mine) {
  const int rank = mpi_rank();
  const auto processes = static_cast<std::size_t>(mpi_processes());
  int count = int(mine.size());
  std::vector<int> counts(processes), displs(processes);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  std::vector<std::uint64_t> all(rank == 0 ? std::size_t(displs.back() + counts.back()) : 0);
  MPI_Gatherv(mine.data(), count, MPI_UINT64_T, all.data(), counts.data(), displs.data(), MPI_UINT64_T, 0,
              MPI_COMM_WORLD);
  return all;
}

void mpi_refuse(const std::string& message) {
  if (mpi_rank() == 0) throw UsageError(message);
  std::exit(2);
}

}  // namespace statespace
