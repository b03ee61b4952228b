// Big arrays on 2 MiB pages. A search that reads a table of hundreds of megabytes
// at random spends a good part of its time in TLB misses on 4 KiB pages, and on a
// kernel whose transparent huge pages are in `madvise` mode (the default of many
// distributions) an array gets huge pages only if it asks before its first touch;
// glibc's malloc never asks. HugePageAllocator maps each allocation of at least
// kHugeAllocationBytes on its own, aligned to and rounded up to whole huge pages, and
// advises it as huge before handing it out; without huge pages the advice fails and
// the array lives on ordinary pages, unchanged. Smaller allocations come from the
// ordinary heap. Every allocation starts zeroed.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

namespace statespace {

inline constexpr std::size_t kHugePageBytes = std::size_t{1} << 21;
// Below a huge page a mapping of its own would spare no TLB entry.
inline constexpr std::size_t kHugeAllocationBytes = kHugePageBytes;

// The bytes an allocation of `bytes` (from kHugeAllocationBytes on) maps: whole
// huge pages.
[[nodiscard]] constexpr std::size_t huge_mapping_bytes(std::size_t bytes) {
  return (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
}

// The most an allocation of `bytes` holds resident, which memory checks count: the
// bytes below kHugeAllocationBytes, whole huge pages from there on (the last one,
// touched at all, is resident whole).
[[nodiscard]] constexpr std::uint64_t huge_resident_bytes(std::uint64_t bytes) {
  return bytes < kHugeAllocationBytes ? bytes : huge_mapping_bytes(bytes);
}

// `bytes` (at least kHugeAllocationBytes) of zeroed memory at a huge page boundary,
// advised as huge pages; throws std::bad_alloc when the kernel refuses the mapping.
[[nodiscard]] inline void* map_huge_pages(std::size_t bytes) {
  const std::size_t length = huge_mapping_bytes(bytes);
  // Map a huge page more than needed, then give back what lies before the first
  // boundary and after the aligned range.
  void* raw = ::mmap(nullptr, length + kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto base = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (base + kHugePageBytes - 1) & ~std::uintptr_t(kHugePageBytes - 1);
  if (aligned > base) ::munmap(raw, aligned - base);
  const std::uintptr_t tail = base + length + kHugePageBytes - (aligned + length);
  if (tail > 0) ::munmap(reinterpret_cast<void*>(aligned + length), tail);
  void* p = reinterpret_cast<void*>(aligned);
  ::madvise(p, length, MADV_HUGEPAGE);  // a hint: refused, the pages stay small
  return p;
}

inline void unmap_huge_pages(void* p, std::size_t bytes) noexcept { ::munmap(p, huge_mapping_bytes(bytes)); }

template <class T>
struct HugePageAllocator {
  using value_type = T;

  HugePageAllocator() = default;
  template <class U>
  explicit HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  [[nodiscard]] T* allocate(std::size_t n) {
    if (n > max_size()) throw std::bad_array_new_length();
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= kHugeAllocationBytes) return static_cast<T*>(map_huge_pages(bytes));
    void* p = ::operator new(bytes, std::align_val_t(alignof(T)));
    std::memset(p, 0, bytes);
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= kHugeAllocationBytes) {
      unmap_huge_pages(p, bytes);
    } else {
      ::operator delete(p, std::align_val_t(alignof(T)));
    }
  }
  [[nodiscard]] static constexpr std::size_t max_size() noexcept { return (~std::size_t{0} >> 1) / sizeof(T); }

  template <class U>
  friend bool operator==(const HugePageAllocator&, const HugePageAllocator<U>&) noexcept {
    return true;
  }
};

template <class T>
using BigVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace statespace
