#include "analysis/progress.hpp"

#include <cstdio>

namespace statespace {

Progress::Progress(std::string label, bool enabled)
    : label_(std::move(label)), enabled_(enabled), start_(std::chrono::steady_clock::now()), last_(start_) {}

double Progress::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::level(unsigned depth, std::uint64_t added, std::uint64_t total, std::uint64_t memory_bytes,
                     std::uint64_t exchanged_bytes) {
  const auto now = std::chrono::steady_clock::now();
  const double level_seconds = std::chrono::duration<double>(now - last_).count();
  const double rate = level_seconds > 0 ? double(added) / level_seconds : 0;  // a resumed run starts mid-way
  last_ = now;
  if (!enabled_ || seconds() < 1.0) return;
  std::fprintf(stderr, "%s: depth %u: %llu new, %llu total, %.3g states/s, %.1f s", label_.c_str(), depth,
               static_cast<unsigned long long>(added), static_cast<unsigned long long>(total), rate, seconds());
  if (memory_bytes) std::fprintf(stderr, ", %.1f MiB", double(memory_bytes) / (1024.0 * 1024.0));
  if (exchanged_bytes) std::fprintf(stderr, ", %.1f MiB exchanged", double(exchanged_bytes) / (1024.0 * 1024.0));
  std::fputc('\n', stderr);
}

}  // namespace statespace
