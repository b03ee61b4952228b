// A child program for tests/mpi_test.cpp, run under mpirun: mpi_gather and
// mpi_gather_into with messages of at most MESSAGE words, process r giving 5r + 3
// words. Rank 0 prints "gathered N words in order" when both hold every process's
// words in rank order, and exits 1 otherwise. The MPI engines' parts reach 2^31
// words only on boards of terabytes; a small MESSAGE takes the same path.
//   mpirun -np N mpi_gather_check MESSAGE
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "distributed/mpi_collectives.hpp"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::uint64_t message = std::strtoull(argv[1], nullptr, 10);
  const int rank = statespace::mpi_rank(), processes = statespace::mpi_processes();
  std::vector<std::uint64_t> mine(std::size_t(5 * rank + 3));
  for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = std::uint64_t(rank) << 32 | i;
  std::vector<std::uint64_t> expected;
  for (int r = 0; r < processes; ++r) {
    for (std::uint64_t i = 0; i < std::uint64_t(5 * r + 3); ++i) expected.push_back(std::uint64_t(r) << 32 | i);
  }
  const std::vector<std::uint64_t> all = statespace::mpi_gather(mine, message);
  std::vector<std::uint64_t> into(rank == 0 ? expected.size() : 0);
  statespace::mpi_gather_into(mine, into, message);
  if (rank != 0) return 0;
  if (all != expected || into != expected) return 1;
  std::printf("gathered %zu words in order\n", all.size());
  return 0;
}
