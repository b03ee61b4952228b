// Runs a program and prints its peak resident size in bytes (wait4's ru_maxrss).
// The tests start this small process rather than forking themselves: a child keeps
// the peak of the process it was forked from across exec, so a child of the test
// binary would report the test's own size.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc < 2) return 127;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execv(argv[1], argv + 1);
    ::_exit(127);
  }
  int status = 0;
  rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  std::fprintf(stderr, "peak_runner: %ld\n", usage.ru_maxrss * 1024);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}
