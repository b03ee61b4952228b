// The memory budget every engine checks before allocating a big table, so that a
// run that cannot fit is refused up front with the number of bytes it needs.
#pragma once

#include <cstdint>
#include <string_view>

namespace statespace {

class MemoryBudget {
 public:
  // Default: 75% of physical RAM.
  MemoryBudget();
  explicit MemoryBudget(std::uint64_t bytes) : bytes_(bytes) {}
  [[nodiscard]] std::uint64_t bytes() const { return bytes_; }
  // Throws UsageError naming `what`, the bytes needed, the budget and --memory, and
  // `alternative` (e.g. another engine) when there is one.
  void require(std::uint64_t needed, std::string_view what, std::string_view alternative = {}) const;

 private:
  std::uint64_t bytes_;
};

// Parses "123", "512M", "8G", "1.5GiB" (K/M/G/T are powers of 1024); throws ParseError.
std::uint64_t parse_bytes(std::string_view text);

// Peak resident set size of this process so far, in bytes.
std::uint64_t peak_rss_bytes();

}  // namespace statespace
