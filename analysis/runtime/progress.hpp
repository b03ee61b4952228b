// Progress lines on stderr for long runs: one per BFS level, and a few per pass of
// the longer steps between levels (graph building, searches), each with the time
// since the run started. A run stays quiet for its first second, so short runs print
// nothing; events (a checkpoint written) are always shown.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace statespace {

class Progress {
 public:
  explicit Progress(std::string label, bool enabled = true);
  // Marks the start of the run that elapsed times count from (the process start
  // when never called).
  static void start_run();
  // A level finished: `depth` holds `added` states, `total` reached so far.
  // `memory_bytes` is printed when non-zero (the engine's estimated tables), and so
  // is `exchanged_bytes` (what processes sent each other for the level).
  void level(unsigned depth, std::uint64_t added, std::uint64_t total, std::uint64_t memory_bytes = 0,
             std::uint64_t exchanged_bytes = 0);
  // `done` of `total` items of a pass named `what`; printed at most once a second,
  // and when the pass ends.
  void step(std::string_view what, std::uint64_t done, std::uint64_t total);
  // A one-off event, printed whenever progress is enabled.
  void note(std::string_view text);
  // Seconds since this object was made.
  [[nodiscard]] double seconds() const;

 private:
  [[nodiscard]] bool quiet_yet() const;
  std::string label_;
  bool enabled_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
  std::chrono::steady_clock::time_point last_step_;
};

// Sees every finished level and pass step of every Progress on the thread that made
// it, for as long as it lives: a program embedding the engines (the Python module)
// passes the levels on and stops a run by throwing from here, which unwinds the
// engine between levels as any error does. Observers nest; the newest sees the calls.
class ProgressObserver {
 public:
  ProgressObserver();
  virtual ~ProgressObserver();
  ProgressObserver(const ProgressObserver&) = delete;
  ProgressObserver& operator=(const ProgressObserver&) = delete;
  virtual void level(std::string_view label, unsigned depth, std::uint64_t added, std::uint64_t total) = 0;
  virtual void step(std::string_view label) = 0;

 private:
  ProgressObserver* previous_;
};

}  // namespace statespace
