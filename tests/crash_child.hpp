// The command line shared by the crash children (tests/checkpoint_crash.cpp,
// tests/mpi_checkpoint_crash.cpp): RxC DIR LEVEL. Gives tiles:RxC and engine options
// that checkpoint into DIR and, when `dies`, SIGKILL this process right after
// checkpoint LEVEL is on disk: a crash at a known point of the run.
#pragma once

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "analysis/engines/implicit/implicit_bfs.hpp"

namespace statespace::testing {

struct CrashChild {
  Tiles tiles;
  ImplicitOptions options;
};

inline std::optional<CrashChild> crash_child(int argc, char** argv, bool dies) {
  if (argc != 4) return std::nullopt;
  const std::string dims = argv[1];
  const auto x = dims.find('x');
  CrashChild c{Tiles(std::stoi(dims.substr(0, x)), std::stoi(dims.substr(x + 1))), {}};
  const auto level = std::uint32_t(std::strtoul(argv[3], nullptr, 10));
  c.options.progress = false;
  c.options.checkpoint = argv[2];
  c.options.on_checkpoint = [level, dies](std::uint32_t done) {
    if (done == level && dies) ::kill(::getpid(), SIGKILL);
  };
  return c;
}

}  // namespace statespace::testing
