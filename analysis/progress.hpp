// One progress line per BFS level on stderr, but only once a run has lasted a
// second: short runs stay quiet, long ones show they are alive.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace statespace {

class Progress {
 public:
  explicit Progress(std::string label, bool enabled = true);
  // A level finished: `depth` holds `added` states, `total` reached so far.
  // `memory_bytes` is printed when non-zero (the engine's estimated tables), and so
  // is `exchanged_bytes` (what processes sent each other for the level).
  void level(unsigned depth, std::uint64_t added, std::uint64_t total, std::uint64_t memory_bytes = 0,
             std::uint64_t exchanged_bytes = 0);
  [[nodiscard]] double seconds() const;

 private:
  std::string label_;
  bool enabled_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace statespace
