#include "analysis/runtime/progress.hpp"

#include <cstdio>

#include "core/text.hpp"

namespace statespace {

namespace {

using Clock = std::chrono::steady_clock;

Clock::time_point& run_start() {
  static Clock::time_point start = Clock::now();
  return start;
}

thread_local ProgressObserver* observer = nullptr;

double run_seconds() { return std::chrono::duration<double>(Clock::now() - run_start()).count(); }

}  // namespace

void Progress::start_run() { run_start() = Clock::now(); }

Progress::Progress(std::string label, bool enabled)
    : label_(std::move(label)), enabled_(enabled), start_(Clock::now()), last_(start_), last_step_(start_) {}

double Progress::seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

bool Progress::quiet_yet() const { return !enabled_ || run_seconds() < 1.0; }

void Progress::level(unsigned depth, std::uint64_t added, std::uint64_t total, std::uint64_t memory_bytes,
                     std::uint64_t exchanged_bytes) {
  const auto now = Clock::now();
  const double level_seconds = std::chrono::duration<double>(now - last_).count();
  const double rate = level_seconds > 0 ? double(added) / level_seconds : 0;  // a resumed run starts mid-way
  last_ = now;
  if (observer) observer->level(label_, depth, added, total);
  if (quiet_yet()) return;
  std::fprintf(stderr, "%s: depth %u: %s new, %s total, %.3g states/s", label_.c_str(), depth,
               with_commas(added).c_str(), with_commas(total).c_str(), rate);
  if (memory_bytes) std::fprintf(stderr, ", %.1f MiB", double(memory_bytes) / (1024.0 * 1024.0));
  if (exchanged_bytes) std::fprintf(stderr, ", %.1f MiB exchanged", double(exchanged_bytes) / (1024.0 * 1024.0));
  std::fprintf(stderr, ", %.1f s elapsed\n", run_seconds());
}

void Progress::step(std::string_view what, std::uint64_t done, std::uint64_t total) {
  if (observer) observer->step(label_);
  const auto now = Clock::now();
  if (quiet_yet() || (done < total && now - last_step_ < std::chrono::seconds(1))) return;
  last_step_ = now;
  std::fprintf(stderr, "%s: %.*s: %s of %s (%.0f%%), %.1f s elapsed\n", label_.c_str(), int(what.size()), what.data(),
               with_commas(done).c_str(), with_commas(total).c_str(),
               total ? 100.0 * double(done) / double(total) : 100.0, run_seconds());
}

void Progress::note(std::string_view text) {
  if (!enabled_) return;
  std::fprintf(stderr, "%s: %.*s, %.1f s elapsed\n", label_.c_str(), int(text.size()), text.data(), run_seconds());
}

ProgressObserver::ProgressObserver() : previous_(observer) { observer = this; }

ProgressObserver::~ProgressObserver() { observer = previous_; }

}  // namespace statespace
