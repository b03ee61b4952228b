// A child program for tests/mpi_test.cpp, run under mpirun: the MPI engine on
// tiles:RxC from the goal, checkpointing into DIR; the last rank kills itself with
// SIGKILL once every rank has checkpoint LEVEL on disk, a crash of one process at a
// known point of the run.
//   mpirun -np N mpi_checkpoint_crash RxC DIR LEVEL
#include "crash_child.hpp"
#include "distributed/mpi_bfs.hpp"

int main(int argc, char** argv) {
  const bool last = statespace::mpi_rank() == statespace::mpi_processes() - 1;
  const auto child = statespace::testing::crash_child(argc, argv, last);
  if (!child) return 2;
  (void)statespace::mpi_bfs(child->tiles, child->tiles.goal(), child->options);
  return 1;  // not killed: the run ended before LEVEL
}
