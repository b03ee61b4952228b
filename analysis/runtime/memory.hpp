// The memory budget every engine checks before allocating a big table, so that a
// run that cannot fit is refused up front with the number of bytes it needs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string_view>
#include <vector>

namespace statespace {

class MemoryBudget {
 public:
  // Default: 75% of physical RAM.
  MemoryBudget();
  explicit MemoryBudget(std::uint64_t bytes) : bytes_(bytes) {}
  [[nodiscard]] std::uint64_t bytes() const { return bytes_; }
  // Throws BudgetError naming `what`, the bytes needed, the budget and --memory, and
  // `alternative` (e.g. another engine) when there is one.
  void require(std::uint64_t needed, std::string_view what, std::string_view alternative = {}) const;
  // The same for a need found as a search runs, level by level: the suggested budget
  // is what this point needs, and the message says it is a lower bound (a later
  // level may need more), never that it is enough.
  void require_at_least(std::uint64_t needed, std::string_view what) const;
  // For a need that grows as a search runs and is not known in advance: throws
  // BudgetError naming what is needed so far and `bound`, the most it can grow to,
  // as the budget that is sure to be enough.
  void require_growing(std::uint64_t needed, std::uint64_t bound, std::string_view what) const;

 private:
  std::uint64_t bytes_;
};

// Asks the kernel to back the whole 2 MiB pages of [p, p + bytes) with transparent
// huge pages (where it allows them on request). Filling a fresh array of tens of
// megabytes costs about as much in 4 KiB page faults as in the writes themselves, and
// a fill that one thread must do (a std::vector's zeroing) cannot share that cost
// with the workers. A hint: without huge pages nothing changes.
void advise_huge_pages(const void* p, std::uint64_t bytes);

// An allocator whose resize() leaves new elements of a trivial type uninitialised:
// an array that a parallel loop fills is then first touched by the workers, not
// zeroed and faulted in by one thread beforehand. Construction with arguments
// (push_back) falls back to std::allocator_traits' std::construct_at.
template <class T>
struct UninitialisedAllocator : std::allocator<T> {
  UninitialisedAllocator() = default;
  template <class U>
  explicit UninitialisedAllocator(const UninitialisedAllocator<U>&) {}
  template <class U>
  void construct(U* p) {
    ::new (static_cast<void*>(p)) U;
  }
};
template <class T>
using RawVector = std::vector<T, UninitialisedAllocator<T>>;

// Room for n elements in v, advised as huge pages before anything touches them.
template <class T, class A>
void reserve_huge(std::vector<T, A>& v, std::size_t n) {
  v.reserve(n);
  advise_huge_pages(v.data(), std::uint64_t(v.capacity()) * sizeof(T));
}

// Parses "123", "512M", "8G", "1.5GiB" (K/M/G/T are powers of 1024); throws ParseError.
std::uint64_t parse_bytes(std::string_view text);

// Starts a new peak: peak_rss_bytes() then reports the peak since this call. Returns
// false where the kernel cannot reset it (no /proc/self/clear_refs); peaks are then
// the process's since it started.
bool reset_peak_rss();

// Peak resident set size in bytes, since the last successful reset_peak_rss().
std::uint64_t peak_rss_bytes();

}  // namespace statespace
