// A child program for tests/mpi_test.cpp, run under mpirun: the MPI engine on
// tiles:RxC from the goal, checkpointing into DIR; the last rank kills itself with
// SIGKILL once every rank has checkpoint LEVEL on disk, a crash of one process at a
// known point of the run.
//   mpirun -np N mpi_checkpoint_crash RxC DIR LEVEL
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "distributed/mpi_bfs.hpp"

int main(int argc, char** argv) {
  if (argc != 4) return 2;
  const std::string dims = argv[1];
  const auto x = dims.find('x');
  const statespace::Tiles t(std::stoi(dims.substr(0, x)), std::stoi(dims.substr(x + 1)));
  const auto level = std::uint32_t(std::strtoul(argv[3], nullptr, 10));
  const bool last = statespace::mpi_rank() == statespace::mpi_processes() - 1;
  statespace::ImplicitOptions o;
  o.progress = false;
  o.checkpoint = argv[2];
  o.on_checkpoint = [level, last](std::uint32_t done) {
    if (done == level && last) ::kill(::getpid(), SIGKILL);
  };
  (void)statespace::mpi_bfs(t, t.goal(), o);
  return 1;  // not killed: the run ended before LEVEL
}
