// A child process for tests/checkpoint_test.cpp: runs the implicit engine on
// tiles:RxC from the goal, checkpointing into DIR, and kills itself with SIGKILL
// right after checkpoint LEVEL is on disk, a crash at a known point of the run.
//   checkpoint_crash RxC DIR LEVEL
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "analysis/implicit_bfs.hpp"

int main(int argc, char** argv) {
  if (argc != 4) return 2;
  const std::string dims = argv[1];
  const auto x = dims.find('x');
  const statespace::Tiles t(std::stoi(dims.substr(0, x)), std::stoi(dims.substr(x + 1)));
  const auto level = std::uint32_t(std::strtoul(argv[3], nullptr, 10));
  statespace::ImplicitOptions o;
  o.progress = false;
  o.checkpoint = argv[2];
  o.on_checkpoint = [level](std::uint32_t done) {
    if (done == level) ::kill(::getpid(), SIGKILL);
  };
  (void)statespace::implicit_bfs(t, t.goal(), o);
  return 1;  // not killed: the run ended before LEVEL
}
