#include "analysis/runtime/memory.hpp"

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace statespace {

MemoryBudget::MemoryBudget()
    : bytes_(std::uint64_t(sysconf(_SC_PHYS_PAGES)) * std::uint64_t(sysconf(_SC_PAGE_SIZE)) / 4 * 3) {}

void advise_huge_pages(const void* p, std::uint64_t bytes) {
  constexpr std::uint64_t kHuge = std::uint64_t{1} << 21;
  const std::uint64_t begin = (std::uint64_t(reinterpret_cast<std::uintptr_t>(p)) + kHuge - 1) & ~(kHuge - 1);
  const std::uint64_t end = (std::uint64_t(reinterpret_cast<std::uintptr_t>(p)) + bytes) & ~(kHuge - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(std::uintptr_t(begin)), end - begin, MADV_HUGEPAGE);
}

namespace {

// The smallest --memory value in whole G (or M below 1G) that holds `bytes`.
std::string memory_flag(std::uint64_t bytes) {
  constexpr std::uint64_t kG = std::uint64_t{1} << 30, kM = std::uint64_t{1} << 20;
  if (bytes < kG) return std::to_string((bytes + kM - 1) / kM) + "M";
  return std::to_string((bytes + kG - 1) / kG) + "G";
}

}  // namespace

void MemoryBudget::require(std::uint64_t needed, std::string_view what, std::string_view alternative) const {
  if (needed <= bytes_) return;
  throw BudgetError(std::string(what) + " needs " + with_commas(needed) + " bytes, over the memory budget of " +
                    with_commas(bytes_) + " bytes (raise it with --memory BYTES, e.g. --memory " + memory_flag(needed) +
                    (alternative.empty() ? std::string() : ", or " + std::string(alternative)) + ")");
}

void MemoryBudget::require_at_least(std::uint64_t needed, std::string_view what) const {
  if (needed <= bytes_) return;
  throw UsageError(std::string(what) + " needs " + with_commas(needed) +
                   " bytes at this level, over the memory budget of " + with_commas(bytes_) +
                   " bytes (raise it with --memory BYTES: at least --memory " + memory_flag(needed) +
                   ", and the levels after this one may need more)");
}

void MemoryBudget::require_growing(std::uint64_t needed, std::uint64_t bound, std::string_view what) const {
  if (needed <= bytes_) return;
  // A bound below what is already needed (0: none known) is no bound to offer.
  if (bound < needed) {
    throw BudgetError(std::string(what) + " needs more than the memory budget of " + with_commas(bytes_) +
                      " bytes; its need grows with the search and is not known in advance (raise it with --memory "
                      "BYTES: at least --memory " +
                      memory_flag(needed) + ")");
  }
  throw BudgetError(std::string(what) + " needs more than the memory budget of " + with_commas(bytes_) +
                    " bytes; its need grows with the search and is not known in advance, at most " +
                    with_commas(bound) + " bytes (raise it with --memory BYTES; --memory " + memory_flag(bound) +
                    " is always enough)");
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

bool reset_peak_rss() {
  std::FILE* f = std::fopen("/proc/self/clear_refs", "w");
  if (!f) return false;
  const bool written = std::fputs("5", f) >= 0;  // 5: reset the peak resident set size
  return std::fclose(f) == 0 && written;
}

std::uint64_t peak_rss_bytes() {
  // VmHWM is the peak that clear_refs resets; getrusage keeps the process's.
  if (std::FILE* f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    unsigned long long kib = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, f)) found = std::sscanf(line, "VmHWM: %llu kB", &kib) == 1;
    std::fclose(f);
    if (found) return std::uint64_t(kib) * 1024;
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return std::uint64_t(usage.ru_maxrss) * 1024;  // Linux reports kilobytes
}

}  // namespace statespace
