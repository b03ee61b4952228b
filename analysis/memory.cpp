#include "analysis/memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <string>

#include "core/errors.hpp"

namespace statespace {

MemoryBudget::MemoryBudget()
    : bytes_(std::uint64_t(sysconf(_SC_PHYS_PAGES)) * std::uint64_t(sysconf(_SC_PAGE_SIZE)) / 4 * 3) {}

void MemoryBudget::require(std::uint64_t needed, std::string_view what, std::string_view alternative) const {
  if (needed <= bytes_) return;
  throw UsageError(std::string(what) + " needs " + std::to_string(needed) + " bytes, over the memory budget of " +
                   std::to_string(bytes_) + " bytes (raise it with --memory BYTES, e.g. --memory " +
                   std::to_string((needed >> 30) + 1) + "G" +
                   (alternative.empty() ? std::string() : ", or " + std::string(alternative)) + ")");
}

std::uint64_t parse_bytes(std::string_view text) {
  const auto fail = [&] {
    throw ParseError("bad byte count '" + std::string(text) +
                     "' (expected a number with an optional K, M, G or T suffix, e.g. 8G)");
  };
  std::size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  if (i == 0) fail();
  double value = 0;
  try {
    value = std::stod(std::string(text.substr(0, i)));
  } catch (const std::exception&) {
    fail();
  }
  std::string suffix(text.substr(i));
  for (auto& c : suffix) c = char(std::toupper(static_cast<unsigned char>(c)));
  if (suffix.ends_with("IB")) suffix.resize(suffix.size() - 2);
  if (suffix.ends_with("B")) suffix.pop_back();
  double scale = 1;
  if (suffix == "K")
    scale = 1024.0;
  else if (suffix == "M")
    scale = 1024.0 * 1024;
  else if (suffix == "G")
    scale = 1024.0 * 1024 * 1024;
  else if (suffix == "T")
    scale = 1024.0 * 1024 * 1024 * 1024;
  else if (!suffix.empty())
    fail();
  const double bytes = value * scale;
  if (!std::isfinite(bytes) || bytes < 1 || bytes > 1e18) fail();
  return std::uint64_t(bytes);
}

std::uint64_t peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return std::uint64_t(usage.ru_maxrss) * 1024;  // Linux reports kilobytes
}

}  // namespace statespace
