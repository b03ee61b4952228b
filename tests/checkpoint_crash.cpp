// A child process for tests/checkpoint_test.cpp: runs the implicit engine on
// tiles:RxC from the goal, checkpointing into DIR, and kills itself with SIGKILL
// right after checkpoint LEVEL is on disk, a crash at a known point of the run.
//   checkpoint_crash RxC DIR LEVEL
#include "crash_child.hpp"

int main(int argc, char** argv) {
  const auto child = statespace::testing::crash_child(argc, argv, true);
  if (!child) return 2;
  (void)statespace::implicit_bfs(child->tiles, child->tiles.goal(), child->options);
  return 1;  // not killed: the run ended before LEVEL
}
